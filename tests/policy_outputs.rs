//! What every output says about the policy: which file applied (or none),
//! the waivers that never expire at their place in the policy file
//! (GitHub annotations, JSON), the same under `check --each`, where
//! `--quiet` and `--min-severity` apply too; and the human format's
//! underline under a whole value.
//!
//! Manifests: fixtures/sound-payouts.yaml (RH005 only, info) and
//! examples/payouts.yaml (RH001 error at `payout-idempotency`, RH005 and
//! RH040 info).

#[path = "common/policy.rs"]
mod policy;
use policy::run;
use serde_json::{Value, json};

const SOUND: &str = include_str!("../fixtures/sound-payouts.yaml");
const PAYOUTS: &str = include_str!("../examples/payouts.yaml");
const NONE: &str = "policy: no replay-audit.toml found; the defaults apply";
const NEVER: &str = "waiver #1 (RH005) never expires; add expires = YYYY-MM-DD, the last day it holds (require_expiry = true makes this an error)";

/// `repo/.git/`, `repo/org/a/m.yaml` (sound) with `org/a/replay-audit.toml`
/// waiving RH005 without `expires`, and `repo/org/b.yaml` (payouts) with no
/// policy anywhere up to the root.
fn org() -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    let r = d.path().join("repo");
    std::fs::create_dir_all(r.join(".git")).unwrap();
    std::fs::create_dir_all(r.join("org/a")).unwrap();
    std::fs::write(r.join("org/a/m.yaml"), SOUND).unwrap();
    std::fs::write(
        r.join("org/a/replay-audit.toml"),
        "[[waiver]]\ncode = \"RH005\"\nreason = \"declared bounds\"\n",
    )
    .unwrap();
    std::fs::write(r.join("org/b.yaml"), PAYOUTS).unwrap();
    d
}

#[test]
fn github_warns_at_the_waiver_that_never_expires_and_names_the_policy() {
    let d = org();
    // From the architecture's own folder: the annotation's file is still
    // relative to the repository root.
    let r = run(
        &d.path().join("repo/org/a"),
        &["check", ".", "--format", "github"],
    );
    assert_eq!(r.code, 0);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(
        lines[1..],
        [
            format!("::warning file=org/a/replay-audit.toml,line=1,col=1,title=replay-audit waiver never expires::{NEVER}").as_str(),
            "::notice title=replay-audit policy::policy: replay-audit.toml",
        ],
        "{}",
        r.stdout
    );
}

#[test]
fn json_lists_the_waivers_that_never_expire() {
    let d = org();
    let r = run(
        &d.path().join("repo/org/a"),
        &["check", ".", "--format", "json"],
    );
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["policy"], "replay-audit.toml");
    assert_eq!(
        v["never_expiring_waivers"],
        json!([{"waiver": 1, "code": "RH005", "location": {"file": "replay-audit.toml", "line": 1, "column": 1}}])
    );
    // --quiet leaves the notes out but still names the policy.
    let r = run(
        &d.path().join("repo/org/a"),
        &["check", ".", "--format", "json", "--quiet"],
    );
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["policy"], "replay-audit.toml");
    assert_eq!(v["never_expiring_waivers"], json!([]));
}

#[test]
fn sarif_junit_human_and_concise_name_the_policy() {
    let d = org();
    let a = d.path().join("repo/org/a");
    let sarif: Value =
        serde_json::from_str(&run(&a, &["check", ".", "--format", "sarif"]).stdout).unwrap();
    assert_eq!(
        sarif["runs"][0]["properties"],
        json!({"policy": "replay-audit.toml"})
    );
    let junit = run(&a, &["check", ".", "--format", "junit"]).stdout;
    let r = quick_junit::Report::deserialize_from_str(&junit).expect("XML");
    let props: Vec<(&str, &str)> = r.test_suites[0]
        .properties
        .iter()
        .map(|p| (p.name.as_str(), p.value.as_str()))
        .collect();
    assert_eq!(props, [("replay-audit.policy", "replay-audit.toml")]);
    for format in ["human", "concise"] {
        let out = run(&a, &["check", ".", "--format", format]).stdout;
        assert!(
            out.ends_with(
                "0 error(s), 0 warning(s), 0 info, 1 waived\npolicy: replay-audit.toml\n"
            ),
            "{format}: {out}"
        );
    }
    let b = run(
        &d.path().join("repo"),
        &["check", "org/b.yaml", "--format", "sarif"],
    );
    let v: Value = serde_json::from_str(&b.stdout).unwrap();
    assert_eq!(v["runs"][0]["properties"], json!({"policy": null}));
}

#[test]
fn each_names_each_architectures_policy_where_they_differ() {
    let d = org();
    let repo = d.path().join("repo");
    let table = run(&repo, &["check", "--each", "org"]);
    assert_eq!(table.code, 1);
    assert!(
        table.stdout.ends_with(&format!(
            "2 architectures: 0 could not be analysed; 1 error(s), 0 warning(s), 2 info\norg/a: policy: org/a/replay-audit.toml\norg/b.yaml: {NONE}\n"
        )),
        "{}",
        table.stdout
    );
    let gh = run(&repo, &["check", "--each", "org", "--format", "github"]).stdout;
    let lines: Vec<&str> = gh.lines().collect();
    assert_eq!(
        lines[lines.len() - 2..],
        [
            "::notice title=replay-audit policy::org/a: policy: org/a/replay-audit.toml",
            &format!("::notice title=replay-audit policy::org/b.yaml: {NONE}"),
        ]
    );
    assert!(gh.contains(&format!(
        "::warning file=org/a/replay-audit.toml,line=1,col=1,title=replay-audit waiver never expires::{NEVER}\n"
    )));
    let json: Value =
        serde_json::from_str(&run(&repo, &["check", "--each", "org", "--format", "json"]).stdout)
            .unwrap();
    assert_eq!(
        json["architectures"][0]["policy"],
        "org/a/replay-audit.toml"
    );
    assert_eq!(json["architectures"][1]["policy"], Value::Null);
    // One policy for all (--config, waiving nothing): said once.
    std::fs::write(repo.join("p.toml"), "fail_on = \"error\"\n").unwrap();
    let one = run(&repo, &["check", "--each", "org", "--config", "p.toml"]);
    assert!(
        one.stdout
            .ends_with("1 error(s), 0 warning(s), 3 info\npolicy: p.toml\n"),
        "{}",
        one.stdout
    );
}

#[test]
fn quiet_and_min_severity_apply_under_each() {
    let d = org();
    let repo = d.path().join("repo");
    let codes = |args: &[&str]| -> (i32, Vec<Vec<String>>) {
        let mut all = vec!["check", "--each", "org", "--format", "json"];
        all.extend_from_slice(args);
        let r = run(&repo, &all);
        let v: Value = serde_json::from_str(&r.stdout).unwrap();
        let per = v["architectures"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| {
                a["findings"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|f| f["code"].as_str().unwrap().to_string())
                    .collect()
            })
            .collect();
        (r.code, per)
    };
    let s = |v: &[&str]| v.iter().map(|c| c.to_string()).collect::<Vec<_>>();
    assert_eq!(
        codes(&[]),
        (1, vec![s(&["RH005"]), s(&["RH001", "RH005", "RH040"])])
    );
    // Only what fails the run: RH001 (error); the waived RH005 goes too.
    assert_eq!(codes(&["--quiet"]), (1, vec![s(&[]), s(&["RH001"])]));
    assert_eq!(
        codes(&["--min-severity", "error"]),
        (1, vec![s(&[]), s(&["RH001"])])
    );
    let table = run(&repo, &["check", "--each", "org", "--quiet"]).stdout;
    assert!(!table.contains("RH040"), "{table}");
    assert!(table.contains("RH001"), "{table}");
}

#[test]
fn the_human_underline_covers_the_whole_value() {
    let d = tempfile::tempdir().unwrap();
    // payout-idempotency keeps keys 1h 10m; horizon 45m dead_letter + 14h
    // redrive + 40m delivers_to = 15h 25m (examples/payouts.yaml's
    // arithmetic), so RH001 stands at the retention.
    let text = PAYOUTS.replace(
        "  payout-idempotency:\n    kind: powertools-idempotency\n",
        "  payout-idempotency:\n    kind: powertools-idempotency\n    retention: 1h 10m   # the key TTL\n",
    );
    assert_ne!(text, PAYOUTS);
    std::fs::write(d.path().join("u.yaml"), text).unwrap();
    let out = run(d.path(), &["check", "u.yaml", "--format", "human"]).stdout;
    let lines: Vec<&str> = out.lines().collect();
    let at = lines.iter().position(|l| l.starts_with("  --> ")).unwrap();
    assert_eq!(
        lines[at..at + 4],
        [
            "  --> u.yaml:51:16",
            "   |",
            "51 |     retention: 1h 10m   # the key TTL",
            "   |                ^^^^^^ window 1h 10m",
        ]
    );
}
