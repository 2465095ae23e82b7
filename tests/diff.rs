//! `diff`: the fixture pair fixtures/diff/{before,after} (the arithmetic is
//! in the after file's comment) through every format, from a folder and
//! from a git revision.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

#[path = "common/policy.rs"]
mod policy;

/// `replay-audit diff ARGS` in `dir`, as the policy tests run the binary.
fn diff(args: &[&str], dir: &Path) -> (i32, String, String) {
    let all: Vec<&str> = std::iter::once("diff")
        .chain(args.iter().copied())
        .collect();
    let run = policy::run(dir, &all);
    (run.code, run.stdout, run.stderr)
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn the_fixture_pair_gives_exactly_the_expected_table_and_exit_1() {
    let (code, stdout, stderr) = diff(
        &["--base-dir", "fixtures/diff/before", "fixtures/diff/after"],
        root(),
    );
    assert_eq!((code, stderr.as_str()), (1, ""));
    assert_eq!(stdout, include_str!("expected/diff-payouts.txt"));
}

#[test]
fn json_gives_the_same_numbers_in_seconds() {
    let (code, stdout, _) = diff(
        &[
            "--base-dir",
            "fixtures/diff/before",
            "fixtures/diff/after",
            "--format",
            "json",
        ],
        root(),
    );
    assert_eq!(code, 1);
    let v: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        (
            v["introduced"].as_u64(),
            v["resolved"].as_u64(),
            v["failing"].as_u64()
        ),
        (Some(2), Some(0), Some(1))
    );
    let i = &v["intents"][0];
    assert_eq!(i["intent"], "seller-payout");
    assert_eq!(i["introduced"][0]["code"], "RH001");
    assert_eq!(i["introduced"][0]["component"], "payout-ledger");
    let ledger = i["layers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["node"] == "payout-ledger")
        .unwrap();
    // 6d 5h 50m → 28d 3h 25m; unbounded → 7d.
    assert_eq!(ledger["before_horizon_seconds"], 539_400);
    assert_eq!(ledger["after_horizon_seconds"], 2_431_500);
    assert_eq!(ledger["before_window_seconds"], Value::Null);
    assert_eq!(ledger["after_window_seconds"], 604_800);
    assert_eq!(
        (
            ledger["before_verdict"].as_str(),
            ledger["after_verdict"].as_str()
        ),
        (Some("covered"), Some("expires too soon"))
    );
    let r = &i["retentions"][1];
    assert_eq!(
        (
            r["component"].as_str(),
            r["before_seconds"].as_u64(),
            r["after_seconds"].as_u64()
        ),
        (Some("payout-ledger"), Some(593_340), Some(2_674_650))
    );
    assert_eq!(v["policy"], Value::Null);
}

#[test]
fn the_reverse_change_resolves_and_passes() {
    let (code, stdout, _) = diff(
        &[
            "--base-dir",
            "fixtures/diff/after",
            "fixtures/diff/before",
            "--format",
            "markdown",
        ],
        root(),
    );
    assert_eq!(code, 0);
    assert!(
        stdout.contains("0 introduced (0 failing at error), 2 resolved"),
        "{stdout}"
    );
    assert!(stdout.contains("- **resolved** error RH001 replay-outlives-dedup-window — seller-payout / payout-ledger:"), "{stdout}");
    assert!(stdout.contains("- **payout-ledger** (store): horizon 28d 3h 25m → 6d 5h 50m; window 7d → unbounded: now covered"), "{stdout}");
}

fn git(dir: &Path, args: &[&str]) {
    let ok = Command::new("git")
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git runs")
        .status
        .success();
    assert!(ok, "git {args:?}");
}

#[test]
fn a_git_revision_is_read_with_git_and_named_rev_path() {
    let d = tempfile::tempdir().unwrap();
    let arch = d.path().join("arch");
    std::fs::create_dir_all(arch.join(".hidden")).unwrap();
    std::fs::copy(
        root().join("fixtures/diff/before/payouts.yaml"),
        arch.join("payouts.yaml"),
    )
    .unwrap();
    // Skipped like a folder scan: under a hidden folder.
    std::fs::write(
        arch.join(".hidden/broken.yaml"),
        "version: 1\ncomponents: [\n",
    )
    .unwrap();
    git(d.path(), &["init", "-q"]);
    git(d.path(), &["add", "-A"]);
    git(d.path(), &["commit", "-qm", "base"]);
    std::fs::copy(
        root().join("fixtures/diff/after/payouts.yaml"),
        arch.join("payouts.yaml"),
    )
    .unwrap();
    let (code, stdout, stderr) = diff(&["--base", "HEAD", "arch", "--format", "json"], d.path());
    assert_eq!(code, 1, "{stderr}");
    let v: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["base"], "HEAD");
    assert_eq!(v["introduced"], 2);
    // Nothing changed against the working tree's own commit after a commit.
    git(d.path(), &["commit", "-qam", "change"]);
    let (code, stdout, _) = diff(&["--base", "HEAD", "arch"], d.path());
    assert_eq!(code, 0);
    assert!(
        stdout.contains("no finding, horizon, window or minimum retention changed"),
        "{stdout}"
    );
    let (code, _, stderr) = diff(&["--base", "no-such-rev", "arch"], d.path());
    assert_eq!(code, 2);
    assert!(
        stderr.contains("git cannot read revision `no-such-rev`"),
        "{stderr}"
    );
    let (code, _, stderr) = diff(&["--base", "--upload-pack=x", "arch"], d.path());
    assert_eq!(code, 2, "{stderr}");
}
