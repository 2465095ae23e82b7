//! RH043 unreachable-effect (issue #14, item 8): an intent whose effect no
//! copy of its request reaches used to pass `check` with exit 0 and a review
//! that called propagation "satisfied". It is a broken model: an error
//! finding, and a review that says the checklist could not be evaluated.

use std::path::{Path, PathBuf};

use assert_cmd::Command;

/// `examples/payouts.yaml` without its one `sends_to`: nothing links the
/// scheduler to the queue, so `bank-rail` is never reached.
fn broken_payouts(dir: &Path) -> PathBuf {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/payouts.yaml"),
    )
    .unwrap();
    assert!(text.contains("    sends_to: payout-requests\n"));
    let path = dir.join("payouts.yaml");
    std::fs::write(&path, text.replace("    sends_to: payout-requests\n", "")).unwrap();
    path
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("replay-audit")
        .unwrap()
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

const MESSAGE: &str = "effect `bank-rail` of `seller-payout` is not reached from its origin `settlement-scheduler` (it declares no replay): no chain of links carries the request there, so no horizon, duplicate or guard was checked for it; add a link from `settlement-scheduler` (or a component it reaches) to `bank-rail`, or declare the replay entry point that reaches it";

#[test]
fn check_fails_with_rh043_at_the_effect_field() {
    let dir = tempfile::tempdir().unwrap();
    let path = broken_payouts(dir.path());
    let (code, out, err) = run(&["check", path.to_str().unwrap(), "--format", "json"]);
    assert_eq!(code, 1, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let found: Vec<&serde_json::Value> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["code"] == "RH043")
        .collect();
    assert_eq!(found.len(), 1, "{out}");
    let f = found[0];
    assert_eq!(f["name"], "unreachable-effect");
    assert_eq!(f["severity"], "error");
    assert_eq!(f["intent"], "seller-payout");
    assert_eq!(f["component"], "bank-rail");
    assert_eq!(f["message"], MESSAGE);
    assert_eq!(f["horizon_seconds"], serde_json::Value::Null);
    // `    effect: bank-rail` is line 14; the value starts at column 13.
    assert_eq!(f["location"]["line"], 14);
    assert_eq!(f["location"]["column"], 13);
    assert_eq!(v["summary"]["error"], 1);
}

#[test]
fn the_example_as_shipped_does_not_fire_it() {
    let (code, out, _) = run(&[
        "check",
        concat!(env!("CARGO_MANIFEST_DIR"), "/examples/payouts.yaml"),
        "--format",
        "json",
    ]);
    assert_eq!(code, 1);
    assert!(!out.contains("RH043"), "{out}");
}

#[test]
fn markdown_review_says_the_checklist_could_not_be_evaluated() {
    let dir = tempfile::tempdir().unwrap();
    let path = broken_payouts(dir.path());
    let (code, md, err) = run(&["report", path.to_str().unwrap(), "--format", "markdown"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        md.contains("Checklist: 0 satisfied, 1 failing, 0 **ASSUMED**, 11 **not evaluated**.\n"),
        "{md}"
    );
    assert!(md.contains("**The checklist could not be evaluated for this intent: effect `bank-rail` is not reached from its origin `settlement-scheduler` or any declared replay (RH043), so nothing below was checked against it. Add a link from `settlement-scheduler` (or a component it reaches) to the effect, or declare the replay entry point that reaches it.**\n"), "{md}");
    assert!(md.contains(
        "| 3 | Propagation: Does the same key reach every dependency that has a side effect? | ⛔ **not evaluated** (RH043) |\n"
    ));
    // RH040 still fails the testing question on its own.
    assert!(md.contains(
        "| 12 | Testing: Which failure injections has the team run? | ❌ failing (RH040) |\n"
    ));
    assert!(!md.contains("✅ satisfied"), "{md}");
}

#[test]
fn html_review_marks_answers_not_evaluated() {
    let dir = tempfile::tempdir().unwrap();
    let path = broken_payouts(dir.path());
    let (code, html, err) = run(&["report", path.to_str().unwrap(), "--format", "html"]);
    assert_eq!(code, 0, "{err}");
    assert!(html.contains("<span class=\"badge failing\">11 not evaluated</span></p>"));
    assert!(html.contains("<p><strong>The checklist could not be evaluated for this intent: effect <code>bank-rail</code> is not reached"));
    assert_eq!(
        html.matches("<span class=\"badge failing\">⛔ not evaluated: RH043</span>")
            .count(),
        22,
        "11 answers, each in the table and in its section"
    );
    assert!(!html.contains("✓ satisfied</span></td>"), "{html}");
}

#[test]
fn a_waived_rh043_leaves_the_answers_assumed_on_the_waiver() {
    let dir = tempfile::tempdir().unwrap();
    let path = broken_payouts(dir.path());
    let policy = dir.path().join("policy.toml");
    std::fs::write(
        &policy,
        "[[waiver]]\ncode = \"RH043\"\nreason = \"the scheduler link is in the platform repo\"\n",
    )
    .unwrap();
    let args = [
        "report",
        path.to_str().unwrap(),
        "--format",
        "markdown",
        "--config",
        policy.to_str().unwrap(),
    ];
    let (code, md, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    assert!(
        md.contains("Checklist: 0 satisfied, 1 failing, 11 **ASSUMED**.\n"),
        "{md}"
    );
    assert!(
        md.contains("- **ASSUMED:** RH043 waived: the scheduler link is in the platform repo\n")
    );
    assert!(!md.contains("not evaluated"), "{md}");
}

#[test]
fn unchanged_reviews_do_not_mention_it() {
    let (code, md, err) = run(&[
        "report",
        concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/sound-payouts.yaml"),
        "--format",
        "markdown",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(!md.contains("not evaluated"), "{md}");
    assert!(md.contains("✅ satisfied"));
}
