//! The command line as CI sees it: output, exit codes, error texts.

use assert_cmd::Command;
use predicates::prelude::*;

fn cmd() -> Command {
    let mut c = Command::cargo_bin("replay-audit").unwrap();
    c.current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("NO_COLOR");
    c
}

fn json(args: &[&str]) -> serde_json::Value {
    let out = cmd().args(args).output().unwrap();
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

#[test]
fn dlq_incident_fails_with_rh001_at_the_store() {
    cmd()
        .args([
            "check",
            "fixtures/incident-dlq-redrive.yaml",
            "--format",
            "json",
        ])
        .assert()
        .code(1);
    let v = json(&[
        "check",
        "fixtures/incident-dlq-redrive.yaml",
        "--format",
        "json",
    ]);
    assert_eq!(v["version"], 1);
    let f = &v["findings"][0];
    assert_eq!(f["code"], "RH001");
    assert_eq!(f["name"], "replay-outlives-dedup-window");
    assert_eq!(f["severity"], "error");
    assert_eq!(f["intent"], "seller-payout");
    assert_eq!(f["component"], "payout-idempotency");
    assert_eq!(f["horizon_seconds"], 55_500);
    assert_eq!(f["window_seconds"], 3_600);
    assert_eq!(
        f["path"],
        serde_json::json!([
            "settlement-scheduler",
            "payout-requests",
            "payout-dlq",
            "payout-requests",
            "payout-worker",
            "bank-rail"
        ])
    );
    assert_eq!(
        f["assumptions"],
        serde_json::json!([
            "max_backlog 30m on payout-requests",
            "redrive of payout-dlq within 14h"
        ])
    );
    assert_eq!(
        f["location"],
        serde_json::json!({"file": "fixtures/incident-dlq-redrive.yaml", "line": 53, "column": 11})
    );
    assert_eq!(
        v["summary"],
        serde_json::json!({"error": 1, "warning": 0, "info": 2})
    );
}

#[test]
fn sound_design_exits_zero_and_fail_on_info_fails() {
    cmd()
        .args(["check", "fixtures/sound-payouts.yaml"])
        .assert()
        .code(0);
    cmd()
        .args([
            "check",
            "fixtures/sound-payouts.yaml",
            "--fail-on",
            "warning",
        ])
        .assert()
        .code(0);
    cmd()
        .args(["check", "fixtures/sound-payouts.yaml", "--fail-on", "info"])
        .assert()
        .code(1);
}

#[test]
fn table_output_has_no_colour_when_piped() {
    cmd()
        .args(["check", "fixtures/incident-dlq-redrive.yaml"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "RH001 replay-outlives-dedup-window",
        ))
        .stdout(predicate::str::contains("\x1b[").not())
        .stdout(predicate::str::contains("1 error(s), 0 warning(s), 2 info"));
}

#[test]
fn every_input_error_is_reported_in_one_run() {
    let out = cmd()
        .args(["check", "fixtures/invalid/many-errors.yaml"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    for needle in [
        "error: unknown field `retension` in `components.payout-requests`\n  --> fixtures/invalid/many-errors.yaml:13:5",
        "help: did you mean `retention`?",
        "`components.payout-requests.visibility_timeout`: `soon` is not a duration",
        "--> fixtures/invalid/many-errors.yaml:14:25",
        "`components.payout-worker.calls[0].retry.attempts` is 0, it must be at least 1",
        "`components.payout-worker.calls[0].retry.backoff`: `-5s` is negative: durations cannot be negative",
        "`components.payout-keys.retention` must be a duration, found a list",
        "error: intents.seller-payout.origin `settlement-sheduler` is not a component\n --> fixtures/invalid/many-errors.yaml:4:13",
        "help: did you mean `settlement-scheduler`?",
        "error: components.payout-requests.kind: unknown kind `sqs-standart`",
        "did you mean `sqs-standard`?",
        "error: could not analyse the manifest: 7 errors",
    ] {
        assert!(err.contains(needle), "missing {needle:?} in:\n{err}");
    }
    assert!(out.stdout.is_empty());
}

#[test]
fn an_id_defined_in_two_files_names_both() {
    cmd()
        .args([
            "check",
            "fixtures/invalid/dup-a.yaml",
            "fixtures/invalid/dup-b.yaml",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "error: id `payout-api` is defined twice\n --> fixtures/invalid/dup-b.yaml:3:3",
        ))
        .stderr(predicate::str::contains(
            "::: fixtures/invalid/dup-a.yaml:3:3",
        ))
        .stderr(predicate::str::contains(
            "first defined here as a component",
        ));
}

#[test]
fn version_problems() {
    cmd()
        .args(["check", "fixtures/invalid/no-version.yaml"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "error: `version` is missing\n --> fixtures/invalid/no-version.yaml:1:1",
        ))
        .stderr(predicate::str::contains("help: add `version: 1`"));
    cmd()
        .args(["check", "fixtures/invalid/version-2.yaml"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "error: unsupported manifest version `2`\n --> fixtures/invalid/version-2.yaml:1:10",
        ));
}

#[test]
fn yaml_syntax_error_points_at_the_bracket() {
    cmd()
        .args(["check", "fixtures/invalid/syntax.yaml"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "error: invalid YAML: unclosed bracket '{'\n --> fixtures/invalid/syntax.yaml:3:6",
        ));
}

#[test]
fn unreadable_inputs_exit_2() {
    cmd()
        .args(["check", "no/such/file.yaml"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "error: cannot read `no/such/file.yaml`: no such file or folder",
        ));
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("bin.yaml");
    std::fs::write(&bin, b"version: 1\nname: \xff\xfe\n").unwrap();
    cmd()
        .arg("check")
        .arg(&bin)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "is not UTF-8 text: invalid byte at line 2, column 7 (byte 17)",
        ));
    let empty = dir.path().join("empty.yaml");
    std::fs::write(&empty, b"").unwrap();
    cmd()
        .arg("check")
        .arg(&empty)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "the manifest is empty: `version` is missing",
        ));
    let big = dir.path().join("big.yaml");
    std::fs::write(&big, "version: 1\n".repeat(20)).unwrap();
    cmd()
        .args(["--max-file-size", "100", "check"])
        .arg(&big)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "is 220 bytes, more than the limit of 100 bytes",
        ))
        .stderr(predicate::str::contains("--max-file-size"));
    let empty_dir = dir.path().join("none");
    std::fs::create_dir(&empty_dir).unwrap();
    cmd()
        .arg("check")
        .arg(&empty_dir)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no manifest files found"));
}

#[test]
fn a_folder_is_one_architecture() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/incident-dlq-redrive.yaml"
    ))
    .unwrap();
    let (head, comps) = text.split_at(text.find("components:").unwrap());
    std::fs::write(dir.path().join("a-intents.yaml"), head).unwrap();
    std::fs::write(
        dir.path().join("b-components.yml"),
        format!("version: 1\n{comps}"),
    )
    .unwrap();
    std::fs::write(dir.path().join("notes.txt"), "not a manifest").unwrap();
    let out = cmd()
        .args(["check", "--format", "json"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let codes: Vec<&str> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["code"].as_str().unwrap())
        .collect();
    assert_eq!(
        codes,
        vec!["RH005", "RH040", "RH001"],
        "sorted by file: the intent file first"
    );
    assert_eq!(v["findings"][2]["horizon_seconds"], 55_500);
    assert_eq!(
        v["findings"][2]["location"]["file"],
        dir.path().join("b-components.yml").display().to_string()
    );
}

/// A transport's dedup window has a row only where a send with a dedup id
/// meets it, as the analysis applies it: the FIFO queue `checkout` sends
/// into with the key has one (its 18d: 4d to the move, F003, plus 14d of
/// the FIFO dead-letter queue's own clock, F005, before the redrive), the
/// FIFO dead-letter queue, reached only by the move, has none.
#[test]
fn horizon_shows_a_transport_window_only_where_a_send_uses_it() {
    let v = json(&[
        "horizon",
        "fixtures/clocks/fifo-dlq-resets.yaml",
        "--format",
        "json",
    ]);
    let rows: Vec<(&str, &str, u64)> = v["horizons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            let (node, role) = (h["node"].as_str().unwrap(), h["role"].as_str().unwrap());
            (node, role, h["horizon_seconds"].as_u64().unwrap())
        })
        .collect();
    assert_eq!(
        rows,
        [
            ("ledger", "effect", 1_900_800),
            ("order-keys", "store", 1_900_800),
            ("order-worker", "guard", 1_900_800),
            ("orders", "transport", 1_555_200),
        ]
    );
}

#[test]
fn horizon_shows_the_arithmetic() {
    let v = json(&[
        "horizon",
        "fixtures/incident-dlq-redrive.yaml",
        "--at",
        "payout-idempotency",
        "--format",
        "json",
    ]);
    let h = &v["horizons"][0];
    assert_eq!(h["intent"], "seller-payout");
    assert_eq!(h["node"], "payout-idempotency");
    assert_eq!(h["horizon_seconds"], 55_500);
    assert_eq!(h["window_seconds"], 3_600);
    // 55 500 s plus the 10 % margin.
    assert_eq!(h["required_retention_seconds"], 61_050);
    let adds: Vec<u64> = h["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["adds_seconds"].as_u64().unwrap())
        .collect();
    // The move at 30m + 3 × 5m = 2,700 s (F002, F007), the delivery at
    // 30m + (3 - 1) × 5m = 2,400 s.
    assert_eq!(adds, vec![0, 2_700, 50_400, 2_400]);
    assert_eq!(
        h["steps"][2]["why"],
        "redrive: redrive within 14h (declared); the dead-letter queue keeps the enqueue time (F004): deadline = enqueue 0s + 14d = 14d"
    );
    cmd()
        .args(["horizon", "fixtures/incident-dlq-redrive.yaml", "--intent", "seller-payout"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("payout-idempotency (store): horizon 15h 25m, window 1h, latest copy to stop 15h 25m after its first sighting, minimum safe retention 16h 57m 30s — EXPIRES FIRST"))
        .stdout(predicate::str::contains("+14h  payout-dlq → payout-requests: redrive: redrive within 14h (declared)"));
    cmd()
        .args([
            "horizon",
            "fixtures/incident-dlq-redrive.yaml",
            "--intent",
            "seller-payot",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "error: no intent `seller-payot`\nhelp: did you mean `seller-payout`?",
        ));
}

#[test]
fn retry_arithmetic_reaches_the_horizon() {
    // The client fails over (detection 5 m + catch-up 30 m), then retries
    // 3 × 10 s with 2 s and 4 s of backoff: 26 s.
    let v = json(&[
        "horizon",
        "fixtures/regional-evacuation.yaml",
        "--at",
        "payout-api",
        "--format",
        "json",
    ]);
    assert_eq!(v["horizons"][0]["horizon_seconds"], 2_126);
    assert_eq!(v["horizons"][0]["steps"][0]["adds_seconds"], 2_100);
    assert_eq!(
        v["horizons"][0]["steps"][0]["why"],
        "failover eu-west-1 → us-east-1: detection 5m + catch-up 30m"
    );
    assert_eq!(v["horizons"][0]["steps"][1]["adds_seconds"], 26);
}

#[test]
fn explain_rules_and_catalog() {
    cmd()
        .args(["explain", "RH001"])
        .assert()
        .code(0)
        .stdout(predicate::str::starts_with(
            "# RH001 replay-outlives-dedup-window\n",
        ))
        .stdout(predicate::str::contains("## How to fix"));
    cmd()
        .args(["explain", "non-atomic-claim"])
        .assert()
        .code(0)
        .stdout(predicate::str::starts_with("# RH035 non-atomic-claim"));
    cmd().args(["explain", "RH0001"]).assert().code(0);
    cmd()
        .args(["explain", "RH999"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("error: no rule `RH999`"));
    let rules = json(&["rules", "--format", "json"]);
    assert_eq!(rules.as_array().unwrap().len(), 36);
    assert_eq!(rules[0]["code"], "RH001");
    assert_eq!(rules[0]["severity"], "error");
    cmd()
        .args(["catalog", "sqs-fifo"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("dedup_window"))
        .stdout(predicate::str::contains("https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/FIFO-key-terms.html"));
    cmd()
        .args(["catalog", "sqs-fif"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("did you mean `sqs-fifo`?"));
    let kinds = json(&["catalog", "--format", "json"]);
    assert!(
        kinds
            .as_array()
            .unwrap()
            .iter()
            .any(|k| k["id"] == "powertools-idempotency")
    );
}

#[test]
fn bad_arguments_exit_2() {
    cmd().args(["check"]).assert().code(2);
    cmd()
        .args(["check", "x.yaml", "--format", "xml"])
        .assert()
        .code(2);
    cmd().args(["frobnicate"]).assert().code(2);
}

#[test]
fn the_readme_manifest_sketch_is_sound() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let start = readme
        .find("```yaml\nversion: 1\nregions:")
        .expect("sketch in README")
        + "```yaml\n".len();
    let end = start + readme[start..].find("```").unwrap();
    let m = replay_audit::manifest::from_str(&readme[start..end])
        .unwrap_or_else(|e| panic!("{}", e.render(false)));
    let findings = replay_audit::rules::run(&replay_audit::analyse(&m));
    let codes: Vec<&str> = findings.iter().map(|f| f.rule.code).collect();
    assert_eq!(
        codes,
        vec!["RH005"],
        "the README promises only the assumptions note"
    );
}

#[test]
fn the_quick_start_example_gives_what_the_readme_says() {
    let v = json(&["check", "examples/payouts.yaml", "--format", "json"]);
    let codes: Vec<&str> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, vec!["RH001", "RH005", "RH040"]);
    assert_eq!(v["findings"][0]["horizon_seconds"], 55_500);
}

#[test]
fn import_of_another_format_names_the_import_that_reads_it() {
    let out = cmd()
        .args(["import", "cloudformation", "fixtures/import/plan.json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "error: `fixtures/import/plan.json` is a Terraform plan, not a CloudFormation template\n\
         help: run `replay-audit import terraform fixtures/import/plan.json`\n"
    );
}

#[test]
fn explain_suggests_the_rule_a_partial_name_belongs_to() {
    let out = cmd().args(["explain", "replay-outlives"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "error: no rule `replay-outlives`\nhelp: did you mean `replay-outlives-dedup-window`?\n"
    );
}

#[test]
fn an_error_without_a_snippet_has_no_lone_gutter_line() {
    let out = cmd().args(["check", "no-such-file.yaml"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with("error: cannot read `no-such-file.yaml`: no such file or folder\nhelp: "),
        "{err}"
    );
    assert!(!err.lines().any(|l| l.trim() == "|"), "{err}");
}
