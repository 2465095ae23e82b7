//! Where the policy comes from and which files a run reads: the policy
//! searched from the manifests up to the repository root (never above it,
//! never through a link) and named in every output; waiver codes that must
//! be exact; never-expiring waivers; folder scans that skip hidden folders
//! and YAML files that are not manifests; every file read once.
//!
//! The manifest is fixtures/sound-payouts.yaml: RH005 only (info), exit 0.

#[path = "common/policy.rs"]
mod policy;
use policy::run;
use serde_json::Value;

const SOUND: &str = include_str!("../fixtures/sound-payouts.yaml");

/// A repository: `repo/.git/`, `repo/arch/sub/m.yaml`, and a policy at
/// the root waiving RH005.
fn repo() -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    let r = d.path().join("repo");
    std::fs::create_dir_all(r.join(".git")).unwrap();
    std::fs::create_dir_all(r.join("arch/sub")).unwrap();
    std::fs::write(r.join("arch/sub/m.yaml"), SOUND).unwrap();
    std::fs::write(
        r.join("replay-audit.toml"),
        "fail_on = \"info\"\n[[waiver]]\ncode = \"RH005\"\nreason = \"declared bounds\"\nexpires = 2027-03-31\n",
    )
    .unwrap();
    d
}

#[test]
fn the_policy_is_found_up_to_the_repository_root_and_named() {
    let d = repo();
    let sub = d.path().join("repo/arch/sub");
    let r = run(&sub, &["check", "."]);
    assert_eq!((r.code, r.stderr.as_str()), (0, ""));
    assert!(
        r.stdout.ends_with(
            "0 error(s), 0 warning(s), 0 info, 1 waived\npolicy: ../../replay-audit.toml\n"
        ),
        "{}",
        r.stdout
    );
    let r = run(
        &d.path().join("repo"),
        &["check", "arch/sub/m.yaml", "--format", "json"],
    );
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["policy"], "replay-audit.toml");
    // The nearest wins.
    std::fs::write(sub.join("replay-audit.toml"), "fail_on = \"info\"\n").unwrap();
    let r = run(&sub, &["check", "m.yaml"]);
    assert_eq!(r.code, 1);
    assert!(
        r.stdout.ends_with("policy: replay-audit.toml\n"),
        "{}",
        r.stdout
    );
}

#[test]
fn the_search_stops_at_the_repository_root() {
    let d = repo();
    // Above the repository: never applies.
    std::fs::write(d.path().join("replay-audit.toml"), "fail_on = \"info\"\n").unwrap();
    std::fs::remove_file(d.path().join("repo/replay-audit.toml")).unwrap();
    let r = run(
        &d.path().join("repo/arch"),
        &["check", "sub", "--format", "json"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["policy"], Value::Null);
    let r = run(&d.path().join("repo/arch"), &["check", "sub"]);
    assert!(
        r.stdout
            .ends_with("policy: no replay-audit.toml found; the defaults apply\n"),
        "{}",
        r.stdout
    );
}

#[cfg(unix)]
#[test]
fn a_found_policy_that_is_a_link_is_refused() {
    let d = repo();
    let root = d.path().join("repo");
    std::fs::rename(
        root.join("replay-audit.toml"),
        d.path().join("elsewhere.toml"),
    )
    .unwrap();
    std::os::unix::fs::symlink(
        d.path().join("elsewhere.toml"),
        root.join("replay-audit.toml"),
    )
    .unwrap();
    let r = run(&root.join("arch/sub"), &["check", "."]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("is a symbolic link") && r.stderr.contains("--config FILE"),
        "{}",
        r.stderr
    );
}

#[test]
fn inexact_waiver_codes_and_every_other_error_come_in_one_run() {
    let d = repo();
    let root = d.path().join("repo");
    std::fs::write(
        root.join("replay-audit.toml"),
        "[[waiver]]\ncode = \"RH01\"\nreason = \"x\"\nexpires = 2027-01-31\n\n[[waiver]]\ncode = \"rh005\"\nreason = \"y\"\nexpirse = 2027-01-31\n",
    )
    .unwrap();
    let r = run(&root, &["check", "arch"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("error: waiver #1 (RH01): no rule `RH01`"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains("help: did you mean one of `RH001`, `RH010`"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains("error: waiver #2 (rh005): no rule `rh005`"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("help: did you mean `RH005`?"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("error: unknown field `expirse`"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .ends_with("error: could not use `replay-audit.toml`: 3 errors\n"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_waiver_that_never_expires_warns_and_require_expiry_refuses_it() {
    let d = repo();
    let root = d.path().join("repo");
    let waiver = "[[waiver]]\ncode = \"RH005\"\nreason = \"declared bounds\"\n";
    std::fs::write(root.join("replay-audit.toml"), waiver).unwrap();
    let r = run(&root, &["check", "arch"]);
    assert_eq!(r.code, 0);
    assert_eq!(
        r.stderr,
        "warning: replay-audit.toml:1:1: waiver #1 (RH005) never expires; add expires = YYYY-MM-DD, the last day it holds (require_expiry = true makes this an error)\n"
    );
    std::fs::write(
        root.join("replay-audit.toml"),
        format!("require_expiry = true\n{waiver}"),
    )
    .unwrap();
    let r = run(&root, &["check", "arch"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains(
            "error: waiver #1 (RH005) has no `expires`, and the policy sets `require_expiry = true`"
        ),
        "{}",
        r.stderr
    );
}

#[test]
fn a_folder_scan_skips_hidden_folders_and_yaml_that_is_no_manifest() {
    let d = repo();
    let root = d.path().join("repo");
    std::fs::create_dir_all(root.join(".github/workflows")).unwrap();
    std::fs::write(
        root.join(".github/workflows/ci.yaml"),
        "name: ci\non: [push]\njobs: {}\n",
    )
    .unwrap();
    std::fs::write(
        root.join("arch/compose.yaml"),
        "version: '3'\nservices: {}\n",
    )
    .unwrap();
    let r = run(&root, &["check", "."]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // `.github` is counted; the repository's `.git` is left out unsaid.
    assert_eq!(
        r.stderr,
        "note: the folder scan skipped 1 hidden folder(s) and 1 YAML file(s) that are not manifests (no top-level `version` with `components`, `intents` or `regions`); name a file on the command line to read it anyway\n"
    );
    // A named file is always read.
    let r = run(&root, &["check", "arch/compose.yaml"]);
    assert_eq!(r.code, 2);
    // Nothing but non-manifests: no manifest found.
    let r = run(&root, &["check", ".github"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("error: no manifest files found"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_file_given_twice_or_inside_a_given_folder_is_read_once() {
    let d = repo();
    let root = d.path().join("repo");
    let r = run(
        &root,
        &[
            "check",
            "arch",
            "arch/sub/m.yaml",
            "./arch/sub/m.yaml",
            "--format",
            "json",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["findings"].as_array().unwrap().len(), 1);
}
