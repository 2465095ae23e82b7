//! `check --each --format sarif` stays within GitHub code scanning's limit
//! of 20 runs per file: a run per architecture up to 20, one run for all
//! beyond, and no two results of a run share the identity GitHub tracks an
//! alert by.

use assert_cmd::Command;
use serde_json::Value;

fn each(n: usize) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string("fixtures/incident-dlq-redrive.yaml").unwrap();
    for i in 0..n {
        let d = dir.path().join(format!("arch{i:02}"));
        std::fs::create_dir(&d).unwrap();
        std::fs::write(d.join("m.yaml"), &text).unwrap();
    }
    let out = Command::cargo_bin("replay-audit")
        .unwrap()
        .args(["check", "--format", "sarif", "--each"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    serde_json::from_slice(&out.stdout).expect("SARIF")
}

fn ids(run: &Value) -> Vec<String> {
    run["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r["partialFingerprints"]["primaryLocationLineHash"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect()
}

#[test]
fn twenty_architectures_are_twenty_runs() {
    let log = each(20);
    let runs = log["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 20);
    assert!(
        runs[0]["automationDetails"]["id"]
            .as_str()
            .is_some_and(|id| id.ends_with("/arch00/")),
        "{}",
        runs[0]["automationDetails"]
    );
}

#[test]
fn twenty_one_architectures_fold_into_one_run() {
    let log = each(21);
    let runs = log["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 1);
    let run = &runs[0];
    assert_eq!(run["automationDetails"]["id"], "replay-audit/");
    assert_eq!(run["invocations"].as_array().unwrap().len(), 21);
    // Three findings per architecture, each identity once.
    let ids = ids(run);
    assert_eq!(ids.len(), 63);
    let unique: std::collections::BTreeSet<&String> = ids.iter().collect();
    assert_eq!(unique.len(), 63, "{ids:?}");
    assert!(
        ids[0].starts_with("replay-audit/")
            && ids[0].ends_with("/arch00/RH001:seller-payout:payout-idempotency"),
        "{}",
        ids[0]
    );
}

/// A run keeps at most 25,000 results, the most severe, in their order,
/// and says how many it left out.
#[test]
fn a_run_keeps_the_most_severe_25000_results() {
    use replay_audit::report::sarif;
    use replay_audit::rules::{Finding, Severity};
    let mut findings: Vec<Finding> = (0..25_000)
        .map(|_| Finding::new("RH040", "untested"))
        .collect();
    findings.extend((0..10).map(|_| Finding::new("RH001", "expires")));
    let accepted = vec![None; findings.len()];
    let (kept, acc, dropped) = sarif::within_limit(&findings, &accepted);
    assert_eq!((kept.len(), acc.len(), dropped), (25_000, 25_000, 10));
    assert_eq!(
        kept.iter()
            .filter(|f| f.severity == Severity::Error)
            .count(),
        10
    );
    assert!(
        kept[kept.len() - 10..]
            .iter()
            .all(|f| f.rule.code == "RH001")
    );
    assert!(
        sarif::left_out(dropped)
            .message
            .text
            .starts_with("10 findings of the lowest severities are left out")
    );
}
