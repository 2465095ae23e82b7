//! `check --fix` and `check --diff` (#34 item 3): the certain fixes, a
//! window raised to the minimum safe value, applied to the manifest files
//! only, byte for byte elsewhere, and a second run changes nothing.

use std::path::Path;

use assert_cmd::Command;

const PAYOUTS: &str = include_str!("../examples/payouts.yaml");

fn run(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_replay-audit"))
        .current_dir(dir)
        .env_remove("COLUMNS")
        .args(args)
        .output()
        .unwrap();
    (
        o.status.code(),
        String::from_utf8(o.stdout).unwrap(),
        String::from_utf8(o.stderr).unwrap(),
    )
}

/// examples/payouts.yaml: `payout-idempotency` keeps keys 1h (the
/// powertools default, F040) against a 15h 25m horizon; + 10 % margin
/// (1h 32m 30s) = 16h 57m 30s, written under its `kind:`.
#[test]
fn the_bundled_example_gets_its_retention() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("m.yaml"), PAYOUTS).unwrap();
    let (code, diff, err) = run(d.path(), &["check", "m.yaml", "--diff"]);
    assert_eq!((code, err.as_str()), (Some(1), ""));
    insta::assert_snapshot!("fix_payouts_diff", diff);
    // --diff changed nothing.
    assert_eq!(
        std::fs::read_to_string(d.path().join("m.yaml")).unwrap(),
        PAYOUTS
    );
    let (code, out, err) = run(
        d.path(),
        &["check", "m.yaml", "--fix", "--format", "concise"],
    );
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        err,
        "fixed m.yaml: payout-idempotency.retention: (the kind's default) → 16h 57m 30s\n"
    );
    assert!(!out.contains("RH001"), "{out}");
    let fixed = std::fs::read_to_string(d.path().join("m.yaml")).unwrap();
    assert_eq!(
        fixed,
        PAYOUTS.replacen(
            "    kind: powertools-idempotency\n",
            "    kind: powertools-idempotency\n    retention: 16h 57m 30s\n",
            1
        )
    );
    // A second run finds nothing to fix and changes nothing.
    let (code, diff, _) = run(d.path(), &["check", "m.yaml", "--diff"]);
    assert_eq!((code, diff.as_str()), (Some(0), ""));
    let (_, _, err) = run(d.path(), &["check", "m.yaml", "--fix"]);
    assert_eq!(err, "");
    assert_eq!(
        std::fs::read_to_string(d.path().join("m.yaml")).unwrap(),
        fixed
    );
}

/// A declared value is replaced in place; its comment stays.
#[test]
fn a_declared_value_is_replaced_and_its_comment_kept() {
    let text = PAYOUTS.replacen(
        "    kind: powertools-idempotency\n",
        "    kind: powertools-idempotency\n    retention: 1h 10m   # the key TTL\n",
        1,
    );
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("m.yaml"), &text).unwrap();
    let (code, _, err) = run(d.path(), &["check", "m.yaml", "--fix"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        err,
        "fixed m.yaml: payout-idempotency.retention: 1h 10m → 16h 57m 30s\n"
    );
    assert_eq!(
        std::fs::read_to_string(d.path().join("m.yaml")).unwrap(),
        text.replacen(
            "retention: 1h 10m   # the key TTL",
            "retention: 16h 57m 30s   # the key TTL",
            1
        )
    );
}

/// A template is never edited; an overlay is a manifest and is: its
/// `idempotency-table.retention: 1h` against the 8d 14h horizon + margin
/// 20h 36m (10 %) = 9d 10h 36m.
#[test]
fn a_template_is_not_edited_and_its_overlay_is() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let d = tempfile::tempdir().unwrap();
    for f in ["sqs-dlq-lambda.yaml", "sqs-dlq-lambda.overlay.yaml"] {
        std::fs::copy(root.join("fixtures/import").join(f), d.path().join(f)).unwrap();
    }
    let template = std::fs::read_to_string(d.path().join("sqs-dlq-lambda.yaml")).unwrap();
    let overlay = std::fs::read_to_string(d.path().join("sqs-dlq-lambda.overlay.yaml")).unwrap();
    let args = [
        "check",
        "sqs-dlq-lambda.yaml",
        "sqs-dlq-lambda.overlay.yaml",
    ];
    let (code, diff, _) = run(d.path(), &[&args[..], &["--diff"]].concat());
    assert_eq!(code, Some(1));
    assert!(
        diff.starts_with("--- a/sqs-dlq-lambda.overlay.yaml\n+++ b/sqs-dlq-lambda.overlay.yaml\n"),
        "{diff}"
    );
    assert!(
        diff.contains("\n-    retention: 1h\n+    retention: 9d 10h 36m\n"),
        "{diff}"
    );
    assert!(!diff.contains("a/sqs-dlq-lambda.yaml"), "{diff}");
    run(d.path(), &[&args[..], &["--fix"]].concat());
    assert_eq!(
        std::fs::read_to_string(d.path().join("sqs-dlq-lambda.yaml")).unwrap(),
        template
    );
    assert_eq!(
        std::fs::read_to_string(d.path().join("sqs-dlq-lambda.overlay.yaml")).unwrap(),
        overlay.replacen("    retention: 1h\n", "    retention: 9d 10h 36m\n", 1)
    );
}

#[test]
fn the_diff_has_its_context_and_counts() {
    let before = "a\nb\nc\nd\ne\nf\ng\nh\n";
    let after = "a\nb\nc\nd\nE\nf\ng\nh\ni2\n";
    assert_eq!(
        replay_audit::fix::unified_diff("x", before, after),
        "--- a/x\n+++ b/x\n@@ -2,7 +2,8 @@\n b\n c\n d\n-e\n+E\n f\n g\n h\n+i2\n"
    );
    assert_eq!(replay_audit::fix::unified_diff("x", before, before), "");
}
