//! `--format gitlab`: GitLab's Code Quality report as its documentation
//! describes it (an array of issues, each with `description`, `check_name`,
//! `fingerprint`, `severity` in info|minor|major|critical|blocker and
//! `location.path` with `location.lines.begin`), unique fingerprints
//! without line numbers, accepted findings left out, input errors as
//! `blocker` issues.

use assert_cmd::Command;
use serde_json::Value;

fn run(args: &[&str]) -> (Option<i32>, Value) {
    let out = Command::cargo_bin("replay-audit")
        .unwrap()
        .args(args)
        .output()
        .unwrap();
    let v = serde_json::from_slice(&out.stdout).expect("a JSON report");
    (out.status.code(), v)
}

/// Every issue has exactly the documented fields, with the documented
/// severities, and no two share a fingerprint.
fn documented(report: &Value) {
    let issues = report.as_array().expect("an array");
    let mut seen = std::collections::BTreeSet::new();
    for i in issues {
        let keys: Vec<&str> = i.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            [
                "check_name",
                "description",
                "fingerprint",
                "location",
                "severity"
            ]
        );
        assert!(
            ["info", "minor", "major", "critical", "blocker"]
                .contains(&i["severity"].as_str().unwrap()),
            "{i}"
        );
        assert!(
            i["location"]["path"]
                .as_str()
                .is_some_and(|p| !p.is_empty()),
            "{i}"
        );
        assert!(
            i["location"]["lines"]["begin"]
                .as_u64()
                .is_some_and(|n| n >= 1),
            "{i}"
        );
        assert!(
            seen.insert(i["fingerprint"].as_str().unwrap().to_string()),
            "{i}"
        );
    }
}

#[test]
fn the_incident_as_a_code_quality_report() {
    let (code, v) = run(&[
        "check",
        "fixtures/incident-dlq-redrive.yaml",
        "--format",
        "gitlab",
    ]);
    assert_eq!(code, Some(1));
    documented(&v);
    let summary: Vec<(&str, &str, &str, u64)> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["check_name"].as_str().unwrap(),
                i["severity"].as_str().unwrap(),
                i["fingerprint"].as_str().unwrap(),
                i["location"]["lines"]["begin"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            (
                "RH001 replay-outlives-dedup-window",
                "critical",
                "RH001:seller-payout:payout-idempotency",
                53
            ),
            (
                "RH005 horizon-rests-on-assumption",
                "info",
                "RH005:seller-payout:-",
                14
            ),
            (
                "RH040 untested-failure-mode",
                "info",
                "RH040:seller-payout:-",
                22
            ),
        ]
    );
    assert_eq!(
        v[0]["location"]["path"],
        "fixtures/incident-dlq-redrive.yaml"
    );
}

#[test]
fn an_accepted_finding_is_no_issue() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        "fixtures/incident-dlq-redrive.yaml",
        dir.path().join("m.yaml"),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("replay-audit.toml"),
        "[[waiver]]\ncode = \"RH001\"\nintent = \"seller-payout\"\nreason = \"records move to the ledger in PAY-12\"\nexpires = \"2099-01-01\"\n",
    )
    .unwrap();
    let path = dir.path().join("m.yaml");
    let (code, v) = run(&["check", path.to_str().unwrap(), "--format", "gitlab"]);
    assert_eq!(code, Some(0));
    documented(&v);
    let names: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["check_name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "RH005 horizon-rests-on-assumption",
            "RH040 untested-failure-mode"
        ]
    );
}

#[test]
fn an_input_error_is_a_blocker_issue() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.yaml");
    std::fs::write(&path, "version: 1\ncomponents: [\n").unwrap();
    let (code, v) = run(&["check", path.to_str().unwrap(), "--format", "gitlab"]);
    assert_eq!(code, Some(2));
    documented(&v);
    assert_eq!(v.as_array().unwrap().len(), 1);
    assert_eq!(v[0]["severity"], "blocker");
    assert_eq!(v[0]["check_name"], "input-error");
    assert_eq!(v[0]["location"]["lines"]["begin"], 2);
}
