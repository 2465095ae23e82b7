//! Every command loads through one engine: a template plus its overlay
//! works with `check`, `check --each`, `check --overrides`, `what-if` and
//! `shell`; `--parameter` reaches the template; a saved skeleton merges
//! with its overlay like an on-the-fly import.

use std::path::Path;

use assert_cmd::Command;

const TEMPLATE: &str = "fixtures/import/sqs-dlq-lambda.yaml";
const OVERLAY: &str = "fixtures/import/sqs-dlq-lambda.overlay.yaml";

fn cmd() -> Command {
    let mut c = Command::cargo_bin("replay-audit").unwrap();
    c.current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .env("REPLAY_AUDIT_TODAY", "2026-12-01");
    c
}

fn run(c: &mut Command) -> (i32, String, String) {
    let o = c.output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// (code, horizon_seconds) of every finding in `check --format json` output.
fn codes(json: &str) -> Vec<(String, Option<u64>)> {
    let v: serde_json::Value = serde_json::from_str(json).unwrap();
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["code"].as_str().unwrap().to_string(),
                f["horizon_seconds"].as_u64(),
            )
        })
        .collect()
}

// The template's queue keeps messages 4d in prod (MessageRetentionPeriod
// 345600 under the IsProd condition, the Stage default) and 1h otherwise
// (3600); the overlay redrives the DLQ within 14h (50400 s). Today's
// analysis counts the source retention on the way to the DLQ and again
// after the redrive: prod 2 × 345600 + 50400 = 741600 s, dev 2 × 3600 +
// 50400 = 57600 s, both over the table's 1h (3600 s).
const PROD_HORIZON: u64 = 741_600;

/// What every command that imports the template prints on stderr: its
/// coverage line (the alarm is the one resource not imported).
const COVERAGE: &str = "fixtures/import/sqs-dlq-lambda.yaml: coverage: 5 resources: 4 read, 1 not imported (1 AWS::CloudWatch::Alarm); 0 references unresolved\n";
const DEV_HORIZON: u64 = 57_600;

#[test]
fn check_parameter_reaches_the_template() {
    let (code, out, err) = run(cmd().args(["check", TEMPLATE, OVERLAY, "--format", "json"]));
    assert_eq!((code, err.as_str()), (1, COVERAGE));
    assert!(codes(&out).contains(&("RH001".into(), Some(PROD_HORIZON))));
    let (code, out, _) = run(cmd().args([
        "check",
        TEMPLATE,
        OVERLAY,
        "--format",
        "json",
        "--parameter",
        "Stage=dev",
    ]));
    assert_eq!(code, 1);
    assert!(codes(&out).contains(&("RH001".into(), Some(DEV_HORIZON))));
}

#[test]
fn a_parameter_that_is_not_key_value_is_refused() {
    let (code, out, err) = run(cmd().args(["check", TEMPLATE, "--parameter", "Stage"]));
    assert_eq!(code, 2);
    assert_eq!(out, "");
    assert_eq!(
        err,
        "error: `--parameter Stage` is not KEY=VALUE\nhelp: write --parameter Name=value\n"
    );
}

#[test]
fn what_if_accepts_a_template_and_its_overlay() {
    let (code, out, err) = run(cmd().args([
        "what-if",
        TEMPLATE,
        OVERLAY,
        "--set",
        "idempotency-table.retention=10d",
    ]));
    assert_eq!((code, err.as_str()), (0, COVERAGE), "{out}");
    assert!(
        out.starts_with("changes:\n  idempotency-table.retention: 1h → 10d\nresolved (1):\n  error   RH001 replay-outlives-dedup-window — seller-payout / idempotency-table\n          horizon 8d 14h, window 1h\n"),
        "{out}"
    );
}

#[test]
fn shell_accepts_a_template_and_its_overlay() {
    let (code, out, err) = run(cmd()
        .args(["shell", TEMPLATE, OVERLAY])
        .write_stdin("set idempotency-table.retention=10d\n"));
    assert_eq!((code, err.as_str()), (0, COVERAGE));
    assert_eq!(
        out.lines().take(2).collect::<Vec<_>>(),
        [
            "idempotency-table.retention: 1h → 10d",
            "resolved   error RH001 replay-outlives-dedup-window seller-payout / idempotency-table (horizon 8d 14h, window 1h)",
        ]
    );
}

#[test]
fn check_overrides_applies_to_an_imported_template() {
    let dir = tempfile::tempdir().unwrap();
    let o = dir.path().join("o.yaml");
    std::fs::write(&o, "idempotency-table.retention: 10d\n").unwrap();
    let (code, out, err) = run(cmd()
        .args(["check", TEMPLATE, OVERLAY, "--format", "json"])
        .arg("--overrides")
        .arg(&o));
    assert_eq!((code, err.as_str()), (0, COVERAGE));
    let found: Vec<String> = codes(&out).into_iter().map(|(c, _)| c).collect();
    // RH015: the queue's 1m 30s is below 6 × the function's 1m (F073).
    assert_eq!(found, ["RH015", "RH032", "RH005", "RH040"]);
}

fn copy(from: &str, to: &Path) {
    std::fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join(from), to).unwrap();
}

#[test]
fn check_each_imports_a_template_in_an_architecture_folder() {
    let dir = tempfile::tempdir().unwrap();
    let arch = dir.path().join("payouts");
    std::fs::create_dir(&arch).unwrap();
    copy(TEMPLATE, &arch.join("template.yaml"));
    copy(OVERLAY, &arch.join("overlay.yaml"));
    let (code, out, err) = run(cmd()
        .args(["check", "--format", "json", "--each"])
        .arg(dir.path()));
    let coverage = format!(
        "{}: {}",
        arch.join("template.yaml").display(),
        COVERAGE.split_once(": ").unwrap().1
    );
    assert_eq!((code, err.as_str()), (1, coverage.as_str()), "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let findings = v.to_string();
    assert!(
        findings.contains("\"code\":\"RH001\"")
            && findings.contains("template.yaml\"")
            && !findings.contains("(imported)"),
        "{out}"
    );
}

#[test]
fn a_saved_skeleton_merges_with_its_overlay() {
    let dir = tempfile::tempdir().unwrap();
    let (code, skeleton, _) = run(cmd().args([
        "import",
        "cloudformation",
        TEMPLATE,
        "--parameter",
        "Stage=dev",
    ]));
    assert_eq!(code, 0);
    let skel = dir.path().join("skeleton.yaml");
    std::fs::write(&skel, skeleton).unwrap();
    let (code, out, err) = run(cmd()
        .arg("check")
        .arg(&skel)
        .arg(OVERLAY)
        .args(["--format", "json"]));
    assert_eq!((code, err.as_str()), (1, ""), "{out}");
    assert!(codes(&out).contains(&("RH001".into(), Some(DEV_HORIZON))));
}
