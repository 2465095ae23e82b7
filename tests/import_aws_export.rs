//! `import aws-export` and `check` on a folder of AWS CLI outputs (and an
//! AWS Config query), and `export-aws`, the script that makes the folder.
//!
//! The `drift` fixture is deployed state that differs from what code
//! would say: `orders` keeps messages 345600 s = 4 d (the SQS default,
//! F003) where code asks 1209600 s = 14 d (the maximum, F003); the mapping
//! of `order-events` to `project-orders` retries 10 times (raised in the
//! console; the range is -1..10,000, F027), so 11 attempts; and
//! `payments-dedup` has TTL ENABLED on `expires_at` where code sets none.

#[path = "common/imports.rs"]
mod imports;
use imports::{bin, findings, run, transcript};

use std::path::Path;

const DRIFT: &str = "aws-export/drift";

fn fixture(rel: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/import")
        .join(rel)
}

#[test]
fn the_export_is_the_deployed_architecture() {
    let got = run(&["import", "aws-export", DRIFT]);
    assert_eq!(got.2, 0, "{}", got.1);
    let text = &got.0;
    for line in [
        "    retention: 4d  # from $.Attributes.MessageRetentionPeriod (aws-export/drift/sqs.orders.json:11): 345600 s\n",
        "          attempts: 11  # from $.EventSourceMappings[0].MaximumRetryAttempts (aws-export/drift/lambda-mappings.project-orders.json:21): 10 retries + the first attempt\n",
        "    expiry: physical-ttl  # default (an overlay's kind with a default of its own replaces it); from $.TimeToLiveDescription.TimeToLiveStatus (aws-export/drift/dynamodb-ttl.payments-dedup.json:3): ENABLED, items expire by TTL on `expires_at`\n",
        "    resource: \"arn:aws:sqs:eu-west-1:111122223333:orders\"  # account 111122223333\n",
        "    kind: lambda-event-source  # AWS::Lambda::Function, from $.FunctionArn (aws-export/drift/lambda-function.process-order.json:3)\n",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
    assert_eq!(
        got.1,
        "coverage: 12 resources: 12 read, 0 not imported; 1 reference unresolved (each a TODO: in the skeleton)\n"
    );
    insta::assert_snapshot!("aws-export-drift", transcript(&got));
}

#[test]
fn check_reads_an_export_folder_by_its_marker() {
    let (f, code) = findings(&[DRIFT]);
    let got: Vec<(String, String)> = f
        .iter()
        .map(|x| {
            let l = &x["location"];
            (
                x["code"].as_str().unwrap().to_string(),
                format!("{}:{}", l["file"].as_str().unwrap_or("?"), l["line"]),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (
                "RH044".into(),
                "aws-export/drift/dynamodb-table.payments-dedup.json:20".into()
            ),
            (
                "RH016".into(),
                "aws-export/drift/sqs.orders-dlq.json:5".into()
            ),
            ("RH015".into(), "aws-export/drift/sqs.orders.json:9".into()),
        ],
        "{f:?}"
    );
    assert_eq!(code, 0);
}

#[test]
fn a_config_query_exports_every_account_and_region() {
    let got = run(&["import", "aws-export", "aws-export/config"]);
    assert_eq!(got.2, 0, "{}", got.1);
    let text = &got.0;
    assert!(
        text.contains("  eu-west-1.orders:\n    kind: sqs-standard"),
        "{text}"
    );
    assert!(
        text.contains("  us-east-1.orders:\n    kind: sqs-standard"),
        "{text}"
    );
    assert!(text.contains("    retention: 14d  # from $.Results[1].configuration.MessageRetentionPeriod (aws-export/config/config.json:4): 1209600 s\n"), "{text}");
    // A Config item writes its keys in lower camel case: the comment names
    // the key the file holds, not the CLI's.
    assert!(
        text.contains("    timeout: 30s  # from $.Results[2].configuration.timeout (aws-export/config/config.json:5)\n"),
        "{text}"
    );
    assert!(text.contains("    kind: dynamodb-global-table"), "{text}");
    assert!(
        text.contains("    regions: [eu-west-1, us-east-1]"),
        "{text}"
    );
    assert_eq!(
        got.1,
        "coverage: 5 resources: 4 read, 1 not imported (1 AWS::S3::Bucket); 0 references unresolved\n"
    );
}

/// A copy of the drift fixture with `edit` applied to file `name`.
fn broken(name: &str, edit: impl Fn(&str) -> String) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for e in std::fs::read_dir(fixture(DRIFT)).unwrap() {
        let p = e.unwrap().path();
        let text = std::fs::read_to_string(&p).unwrap();
        let f = p.file_name().unwrap();
        let text = if f == name { edit(&text) } else { text };
        std::fs::write(dir.path().join(f), text).unwrap();
    }
    dir
}

fn import_dir(dir: &Path) -> (String, String, i32) {
    let o = bin()
        .args(["import", "aws-export"])
        .arg(dir)
        .output()
        .unwrap();
    (
        String::from_utf8(o.stdout).unwrap(),
        String::from_utf8(o.stderr).unwrap(),
        o.status.code().unwrap(),
    )
}

#[test]
fn a_value_of_the_wrong_type_is_an_error_at_its_place() {
    let dir = broken("sqs.orders.json", |t| {
        t.replace(
            "\"MessageRetentionPeriod\": \"345600\"",
            "\"MessageRetentionPeriod\": true",
        )
    });
    let (out, err, code) = import_dir(dir.path());
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(
        err.contains(
            "error: `$.Attributes.MessageRetentionPeriod` must be a whole number, found a boolean"
        ),
        "{err}"
    );
    assert!(err.contains("sqs.orders.json:11:35"), "{err}");
}

#[test]
fn broken_json_is_an_error_with_line_and_column() {
    let dir = broken("kinesis.order-events.json", |t| {
        t.replace(
            "\"RetentionPeriodHours\": 24,",
            "\"RetentionPeriodHours\": ,",
        )
    });
    let (out, err, code) = import_dir(dir.path());
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(err.contains("error: invalid JSON"), "{err}");
    assert!(err.contains("kinesis.order-events.json:9:33"), "{err}");
}

#[test]
fn an_unknown_json_file_is_named_with_the_shapes_known() {
    let dir = broken("x", |t| t.to_string());
    std::fs::write(dir.path().join("notes.json"), "{\"Owner\": \"me\"}\n").unwrap();
    let (out, err, code) = import_dir(dir.path());
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(err.contains("`"), "{err}");
    assert!(err.contains("notes.json` is not an AWS CLI output the aws-export importer reads (top-level keys Owner)"), "{err}");
    assert!(
        err.contains("aws sqs get-queue-attributes --attribute-names All"),
        "{err}"
    );
}

const EXPORT: [&str; 16] = [
    "export-aws",
    "--queue",
    "orders",
    "--function",
    "process-order",
    "--rule",
    "order-placed-to-topic",
    "--table",
    "payments-dedup",
    "--topic",
    "arn:aws:sns:eu-west-1:111122223333:order-placed",
    "--stream",
    "order-events",
    "--region",
    "eu-west-1",
    "--config-query",
];

#[test]
fn export_aws_prints_the_script() {
    let got = run(&EXPORT);
    assert_eq!(got.2, 0, "{}", got.1);
    insta::assert_snapshot!("export-aws-script", got.0);
}

#[test]
fn names_that_break_the_naming_rules_are_refused() {
    for (opt, v) in [
        ("--queue", "a'b"),
        ("--function", "f$(id)"),
        ("--table", "t\nrm -rf /"),
        ("--rule", "r`id`"),
        ("--region", "eu-west-1; id"),
        ("--topic", "arn:aws:sns:eu-west-1:1:t'x"),
    ] {
        let (out, err, code) = run(&["export-aws", "--config-query", opt, v]);
        assert_eq!((code, out.as_str()), (2, ""), "{opt} {v}: {err}");
        assert!(err.contains("is not a valid name"), "{err}");
    }
    let (_, err, code) = run(&["export-aws"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("`export-aws` needs resources to export"),
        "{err}"
    );
}

/// A fake `aws` that logs its arguments and prints the fixture file the
/// command stands for, so the printed script runs end to end.
const FAKE_AWS: &str = r#"#!/bin/sh
printf '%s\n' "$*" >> "$FAKE_LOG"
d="$FAKE_FIXTURES"
case "$*" in
  *"get-queue-url"*) echo "https://sqs.eu-west-1.amazonaws.com/111122223333/orders" ;;
  *"get-queue-attributes"*) cat "$d/sqs.orders.json" ;;
  *"get-function-configuration"*) cat "$d/lambda-function.process-order.json" ;;
  *"list-event-source-mappings"*) cat "$d/lambda-mappings.process-order.json" ;;
  *"get-function-event-invoke-config"*) echo "ResourceNotFoundException" >&2; exit 254 ;;
  *"describe-table"*) cat "$d/dynamodb-table.payments-dedup.json" ;;
  *"describe-time-to-live"*) cat "$d/dynamodb-ttl.payments-dedup.json" ;;
  *"describe-continuous-backups"*) cat "$d/dynamodb-backups.payments-dedup.json" ;;
  *) echo "unexpected: $*" >&2; exit 1 ;;
esac
"#;

#[test]
fn the_printed_script_runs_and_its_folder_imports() {
    use std::os::unix::fs::PermissionsExt;
    let work = tempfile::tempdir().unwrap();
    let bin_dir = work.path().join("bin");
    std::fs::create_dir(&bin_dir).unwrap();
    let aws = bin_dir.join("aws");
    std::fs::write(&aws, FAKE_AWS).unwrap();
    std::fs::set_permissions(&aws, std::fs::Permissions::from_mode(0o755)).unwrap();
    let profile = "ro'$(touch pwned)\"`touch pwned`\"";
    let (script, err, code) = run(&[
        "export-aws",
        "--queue",
        "orders",
        "--function",
        "process-order",
        "--table",
        "payments-dedup",
        "--profile",
        profile,
        "--out-dir",
        "saved export",
    ]);
    assert_eq!(code, 0, "{err}");
    let log = work.path().join("log");
    let o = std::process::Command::new("sh")
        .arg("-c")
        .arg(&script)
        .current_dir(work.path())
        .env("PATH", format!("{}:/usr/bin:/bin", bin_dir.display()))
        .env("FAKE_LOG", &log)
        .env("FAKE_FIXTURES", fixture(DRIFT))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(!work.path().join("pwned").exists());
    let calls = std::fs::read_to_string(&log).unwrap();
    assert!(
        calls
            .lines()
            .all(|l| l.starts_with(&format!("--profile {profile} "))),
        "{calls}"
    );
    let saved = work.path().join("saved export");
    let mut names: Vec<String> = std::fs::read_dir(&saved)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "dynamodb-backups.payments-dedup.json",
            "dynamodb-table.payments-dedup.json",
            "dynamodb-ttl.payments-dedup.json",
            "lambda-function.process-order.json",
            "lambda-mappings.process-order.json",
            "replay-audit-export.txt",
            "sqs.orders.json",
        ]
    );
    let (text, err, code) = import_dir(&saved);
    assert_eq!(code, 0, "{err}");
    assert!(text.contains("    kind: lambda-event-source"), "{text}");
    assert!(text.contains("    expiry: physical-ttl"), "{text}");
    let o = bin()
        .arg("check")
        .arg(&saved)
        .args(["--format", "concise"])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("sqs.orders.json:9:1: warning[RH015]"), "{out}");
}
