//! Nested CloudFormation stacks (`fixtures/import/nested/`) and CDK cloud
//! assemblies (`fixtures/import/cdk-app/cdk.out`, a real `cdk synth`) read
//! as one architecture; the arithmetic of every finding is in each
//! fixture's `overlay.yaml`. Hostile nestings: cycles, paths leaving the
//! folder, symbolic links, depth and count bounds.

#[path = "common/imports.rs"]
mod imports;
use imports::{bin, check, import, locations, quiet, t, transcript};

/// The `horizon_seconds` and `required_retention_seconds` at `node`, and
/// the worst path, of `horizon ARGS --required --format json`.
fn horizon(args: &[&str], node: &str) -> (u64, u64, Vec<String>) {
    let o = bin()
        .arg("horizon")
        .args(args)
        .args(["--format", "json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let h = v["horizons"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["node"] == node)
        .unwrap_or_else(|| panic!("no horizon at {node}: {v}"));
    let path = h["path"].as_array().unwrap();
    (
        h["horizon_seconds"].as_u64().unwrap(),
        h["required_retention_seconds"].as_u64().unwrap(),
        path.iter()
            .map(|p| p.as_str().unwrap().to_string())
            .collect(),
    )
}

/// The parent template nests `stacks/queue.yaml` (a literal, a `!Sub` and
/// a `!GetAtt` of its own DLQ passed as parameters) and the SAM
/// application `stacks/notifier.yaml` (given QueueStack's output, itself
/// the parent's DLQ); the remote stack stays a TODO.
#[test]
fn nested_stacks_are_one_architecture() {
    let out = import(&["cloudformation", "nested/template.yaml"]);
    insta::assert_snapshot!("cloudformation-nested", transcript(&out));
    let text = &out.0;
    // The parent's function reads the child's queue through its output.
    assert!(text.contains("  queue-stack.payout-queue:\n    kind: sqs-standard  # AWS::SQS::Queue, from Resources.PayoutQueue (nested/stacks/queue.yaml:16)\n    delivers_to:\n      - to: payout-function  #"), "{text}");
    // The child's dead-letter queue is the parent's, passed as a parameter.
    assert!(text.contains("      to: payout-dlq  # from Resources.PayoutQueue.Properties.RedrivePolicy.deadLetterTargetArn (nested/stacks/queue.yaml:21)\n"), "{text}");
    // An output that is a parameter bound to the parent's queue, passed on.
    assert!(text.contains("  payout-dlq:\n    kind: sqs-standard  # AWS::SQS::Queue, from Resources.PayoutDLQ (nested/template.yaml:10)\n    retention: 14d  # from Resources.PayoutDLQ.Properties.MessageRetentionPeriod (nested/template.yaml:12)\n    delivers_to:\n      - to: dlq-notifier.notify-function  #"), "{text}");
    assert!(text.contains("# TODO: nested stack Resources.Audit (nested/template.yaml:42) is read from `https://s3.amazonaws.com/example-bucket/audit.yaml`, not a local file: its resources are not imported (an output of it that a link reads is a placeholder)\n"), "{text}");
    // The output of the remote stack that a link reads is a placeholder.
    assert!(text.contains("  audit.event-queue:\n    kind: queue  # output EventQueueArn of the nested stack Audit, which is not read; from Resources.Audit.Outputs.EventQueueArn (nested/template.yaml:54)\n    delivers_to:\n      - to: audit-function  #"), "{text}");
    assert_eq!(
        out.1,
        "coverage: 8 resources: 7 read, 1 not imported (1 AWS::CloudFormation::Stack); 1 reference unresolved (each a TODO: in the skeleton)\n"
    );
    let expected = vec![
        t("RH015", "payout-dlq", "seller-payout"),
        t("RH015", "queue-stack.payout-queue", "seller-payout"),
        t("RH001", "idempotency-keys", "seller-payout"),
        t("RH040", "-", "seller-payout"),
    ];
    let args = ["nested/template.yaml", "nested/overlay.yaml"];
    assert_eq!(check(&args), (expected.clone(), 1));
    assert_eq!(
        locations(&args)[..2],
        [
            "nested/template.yaml:10:1".to_string(),
            "nested/stacks/queue.yaml:19:1".to_string()
        ]
    );
    assert_eq!(
        horizon(&args, "bank-rail"),
        (
            345_600,
            380_160,
            [
                "payout-scheduler",
                "queue-stack.payout-queue",
                "payout-function",
                "bank-rail"
            ]
            .map(String::from)
            .to_vec()
        )
    );
    // The folder: the nested templates found by the scan are read once,
    // as nested stacks, not again on their own.
    let (mut found, code) = check(&["nested"]);
    found.sort();
    let mut sorted = expected;
    sorted.sort();
    assert_eq!((found, code), (sorted, 1));
}

/// `cdk.out` of the app in `fixtures/import/cdk-app/app.js`: its stack, the
/// stack's nested stack and a stage's stack are one architecture, with ids
/// from construct paths and no line for the CDK's own metadata.
#[test]
fn a_cdk_cloud_assembly_is_one_architecture() {
    let out = import(&["cloudformation", "cdk-app/cdk.out"]);
    insta::assert_snapshot!("cloudformation-cdk-assembly", transcript(&out));
    let text = &out.0;
    assert!(
        !text.contains("CDKMetadata") && !text.contains("BootstrapVersion"),
        "{text}"
    );
    assert!(text.contains("  ledger.ledger-events:\n    kind: sqs-standard  # AWS::SQS::Queue, from Resources.LedgerEventsFA32F47B (cdk-app/cdk.out/PayoutsLedger6829CFBF.nested.template.json:4)\n"), "{text}");
    assert!(text.contains("      to: payout-dlq  # from Resources.LedgerEventsFA32F47B.Properties.RedrivePolicy.deadLetterTargetArn (cdk-app/cdk.out/PayoutsLedger6829CFBF.nested.template.json:7)\n"), "{text}");
    let expected = vec![
        t("RH015", "archive-queue", "-"),
        t("RH015", "ledger.ledger-events", "-"),
        t("RH001", "idempotency-keys", "seller-payout"),
        t("RH040", "-", "seller-payout"),
    ];
    let args = ["cdk-app/cdk.out", "cdk-app/overlay.yaml"];
    assert_eq!(check(&args), (expected.clone(), 1));
    assert_eq!(
        locations(&args)[..2],
        [
            "cdk-app/cdk.out/assembly-Audit/AuditArchive343F5CAE.template.json:6:1".to_string(),
            "cdk-app/cdk.out/PayoutsLedger6829CFBF.nested.template.json:12:1".to_string()
        ]
    );
    assert_eq!(
        horizon(&args, "bank-rail"),
        (
            345_600,
            380_160,
            [
                "payout-scheduler",
                "payout-requests",
                "payout-worker",
                "bank-rail"
            ]
            .map(String::from)
            .to_vec()
        )
    );
    // The app's folder: the scan finds cdk.out and the overlay, and reads
    // nothing else of cdk.out (its JSON files, the app's package.json).
    let (mut found, code) = check(&["cdk-app"]);
    found.sort();
    let mut sorted = expected;
    sorted.sort();
    assert_eq!((found, code), (sorted, 1));
}

/// A folder of templates written for one test.
fn folder(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

/// A template nesting `url` as stack `Child`, with a queue of its own.
fn nesting(url: &str) -> String {
    format!(
        "Resources:\n  Own:\n    Type: AWS::SQS::Queue\n  Child:\n    Type: AWS::CloudFormation::Stack\n    Properties:\n      TemplateURL: {url}\n"
    )
}

/// (stdout, stderr, exit code) of `replay-audit ARGS` in `dir`.
fn run_in(dir: &std::path::Path, args: &[&str]) -> (String, String, i32) {
    let o = bin().current_dir(dir).args(args).output().unwrap();
    (
        String::from_utf8(o.stdout).unwrap(),
        String::from_utf8(o.stderr).unwrap(),
        o.status.code().unwrap(),
    )
}

#[test]
fn a_nesting_cycle_is_an_error_not_a_hang() {
    let dir = folder(&[
        ("a.yaml", &nesting("b.yaml")),
        ("b.yaml", &nesting("./a.yaml")),
    ]);
    let (out, err, code) = run_in(dir.path(), &["import", "cloudformation", "a.yaml"]);
    assert_eq!((out.as_str(), code), ("", 2), "{err}");
    assert!(
        err.starts_with("error: nested stacks form a cycle: a.yaml nests b.yaml nests a.yaml\n --> b.yaml:7:20\n"),
        "{err}"
    );
    // A template nesting itself; `check` says the same.
    let dir = folder(&[("self.yaml", &nesting("self.yaml"))]);
    let (_, err, code) = run_in(dir.path(), &["check", "self.yaml"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("error: nested stacks form a cycle: "), "{err}");
    assert!(err.contains(" --> self.yaml:7:20\n"), "{err}");
}

#[test]
fn a_nested_template_outside_the_folder_or_through_a_link_is_not_read() {
    let dir = folder(&[
        (
            "outside.yaml",
            "Resources:\n  Secret:\n    Type: AWS::SQS::Queue\n",
        ),
        ("infra/main.yaml", &nesting("../outside.yaml")),
        ("infra/abs.yaml", &nesting("/etc/passwd")),
    ]);
    let infra = dir.path().join("infra");
    let (out, err, code) = run_in(&infra, &["import", "cloudformation", "main.yaml"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("# TODO: nested stack Resources.Child (main.yaml:7): its template `../outside.yaml` is not read: it leaves the folder of main.yaml (`.`); its resources are not imported (an output of it that a link reads is a placeholder)\n"), "{out}");
    assert!(!out.contains("secret"), "{out}");
    // The stack resource whose template is not read is counted by type.
    assert_eq!(
        err,
        "coverage: 2 resources: 1 read, 1 not imported (1 AWS::CloudFormation::Stack); 0 references unresolved\n"
    );
    let (out, _, code) = run_in(&infra, &["import", "cloudformation", "abs.yaml"]);
    assert_eq!(code, 0);
    assert!(out.contains("its template `/etc/passwd` is not read: an absolute path is not read (give it relative to the template)"), "{out}");
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(dir.path().join("outside.yaml"), infra.join("link.yaml"))
            .unwrap();
        std::fs::write(infra.join("via-link.yaml"), nesting("link.yaml")).unwrap();
        let (out, _, code) = run_in(&infra, &["check", "via-link.yaml"]);
        assert_eq!(code, 0, "{out}");
        let (out, _, _) = run_in(&infra, &["import", "cloudformation", "via-link.yaml"]);
        assert!(out.contains("its template `link.yaml` is not read: `link.yaml` is a symbolic link, which is not followed;"), "{out}");
        assert!(!out.contains("secret"), "{out}");
    }
}

#[test]
fn nesting_is_bounded_in_depth_and_count() {
    // A chain of 12 templates, each nesting the next.
    let files: Vec<(String, String)> = (0..12)
        .map(|i| (format!("s{i}.yaml"), nesting(&format!("s{}.yaml", i + 1))))
        .collect();
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let dir = folder(&refs);
    let (out, err, code) = run_in(dir.path(), &["import", "cloudformation", "s0.yaml"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("# TODO: nested stack Resources.Child (s8.yaml:7) is not read: nested stacks are read 8 deep\n"), "{out}");
    assert!(
        out.contains("  child.child.child.child.child.child.child.child.own:\n"),
        "{out}"
    );
    // One template nesting the same child 100 times: 64 read.
    let mut wide = String::from("Resources:\n");
    for i in 0..100 {
        wide.push_str(&format!("  C{i}:\n    Type: AWS::CloudFormation::Stack\n    Properties:\n      TemplateURL: leaf.yaml\n"));
    }
    let dir = folder(&[
        ("wide.yaml", &wide),
        ("leaf.yaml", "Resources:\n  Q:\n    Type: AWS::SQS::Queue\n"),
    ]);
    let (out, _, code) = run_in(dir.path(), &["import", "cloudformation", "wide.yaml"]);
    assert_eq!(code, 0);
    assert_eq!(out.matches("    kind: sqs-standard").count(), 64, "{out}");
    assert!(out.contains("# TODO: nested stack Resources.C64 of wide.yaml is not read: at most 64 nested stacks are read\n"), "{out}");
    // The nested stacks' total size: a 120-byte template read as three
    // stacks under a 300-byte limit is read twice (240 bytes), not thrice.
    let leaf = format!(
        "Resources:\n  Q:\n    Type: AWS::SQS::Queue\n#{}\n",
        "x".repeat(76)
    );
    assert_eq!(leaf.len(), 120);
    let three: String = (0..3)
        .map(|i| format!("  C{i}:\n    Type: AWS::CloudFormation::Stack\n    Properties:\n      TemplateURL: leaf.yaml\n"))
        .collect();
    let dir = folder(&[
        ("three.yaml", &format!("Resources:\n{three}")),
        ("leaf.yaml", &leaf),
    ]);
    let (out, err, code) = run_in(
        dir.path(),
        &[
            "--max-file-size",
            "300",
            "import",
            "cloudformation",
            "three.yaml",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.matches("    kind: sqs-standard").count(), 2, "{out}");
    assert!(out.contains("# TODO: nested stack Resources.C2 (three.yaml:13) is not read: the nested stacks together hold more than --max-file-size (300 bytes; a template counts once for each stack it is read as)\n"), "{out}");
}

#[test]
fn a_cloud_assembly_naming_files_outside_it_is_an_error() {
    let manifest = "{\n  \"version\": \"55.0.0\",\n  \"artifacts\": {\n    \"S\": {\n      \"type\": \"aws:cloudformation:stack\",\n      \"properties\": {\"templateFile\": \"../secret.json\"}\n    }\n  }\n}\n";
    let dir = folder(&[
        ("cdk.out/manifest.json", manifest),
        ("cdk.out/cdk.out", "{\"version\":\"55.0.0\"}"),
        ("secret.json", "{\"Resources\": {}}"),
    ]);
    let (out, err, code) = run_in(dir.path(), &["import", "cloudformation", "cdk.out"]);
    assert_eq!((out.as_str(), code), ("", 2), "{err}");
    assert!(err.starts_with("error: `../secret.json` leaves the assembly folder `cdk.out`\n --> cdk.out/manifest.json:6:38\n"), "{err}");
    // A folder that is no assembly.
    let (_, err, code) = run_in(dir.path(), &["import", "cloudformation", "."]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with("error: `.` is a folder, and not a CDK cloud assembly"),
        "{err}"
    );
}

/// A template the CDK's legacy synthesizer wrote: its asset parameters
/// (no default; they locate the function's code) make no TODO, its
/// `AWS::CDK::Metadata` no line; ids still come from construct paths.
#[test]
fn cdk_helper_parameters_and_metadata_make_no_noise() {
    let t = r#"{
  "Resources": {
    "F1A2B3C4": {
      "Type": "AWS::Lambda::Function",
      "Properties": {
        "Code": {"S3Bucket": {"Ref": "AssetParameters4737S3BucketBD22C06A"}},
        "Timeout": 20
      },
      "Metadata": {"aws:cdk:path": "Legacy/Worker/Resource"}
    },
    "CDKMetadata": {
      "Type": "AWS::CDK::Metadata",
      "Properties": {"Analytics": "v2:deflate64:H4sI"},
      "Metadata": {"aws:cdk:path": "Legacy/CDKMetadata/Default"},
      "Condition": "CDKMetadataAvailable"
    }
  },
  "Parameters": {
    "AssetParameters4737S3BucketBD22C06A": {"Type": "String", "Description": "S3 bucket for asset \"4737\""},
    "Stage": {"Type": "String"}
  },
  "Conditions": {
    "CDKMetadataAvailable": {"Fn::Equals": [{"Ref": "AWS::Region"}, "eu-west-1"]}
  }
}
"#;
    let dir = folder(&[("Legacy.template.json", t)]);
    let (out, err, code) = run_in(
        dir.path(),
        &["import", "cloudformation", "Legacy.template.json"],
    );
    assert_eq!((code, err.as_str()), (0, quiet(&out).as_str()), "{out}");
    assert!(out.contains("# TODO: parameters without a default and not given with --parameter: Stage (values that use them are left out)\n"), "{out}");
    assert!(
        !out.contains("AssetParameters") && !out.contains("CDKMetadata"),
        "{out}"
    );
    assert!(out.contains("  worker:\n    kind: function  # AWS::Lambda::Function, from Resources.F1A2B3C4 (Legacy.template.json:4)\n"), "{out}");
}
