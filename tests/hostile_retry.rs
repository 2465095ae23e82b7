//! Hostile retry arithmetic (issue #14, item 9): `attempts: 2^63 - 1` with a
//! multiplier one ulp above 1 used to hang `check`, the span being summed one
//! attempt at a time. Each case must finish and give the exact horizon. No
//! timing assertions: each case just has to finish.

use assert_cmd::Command;

const MANIFEST: &str = "version: 1
intents:
  pay:
    origin: client
    effect: bank
    key: { fields: [payment_id] }
components:
  client:
    kind: service
    calls:
      - to: bank
        timeout: 1s
        passes_key: true
        retry: { attempts: 9223372036854775807, multiplier: 1.0000000000000002EXTRA }
  bank:
    kind: external
    accepts_key: false
";

/// `horizon --format json` of the manifest with `extra` in the retry: the
/// effect's horizon seconds (null when unbounded) and the step's words.
fn horizon(extra: &str) -> (serde_json::Value, String) {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("r.yaml"), MANIFEST.replace("EXTRA", extra)).unwrap();
    let out = Command::cargo_bin("replay-audit")
        .unwrap()
        .current_dir(d.path())
        .args(["horizon", "r.yaml", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let row = &v["horizons"][0];
    assert_eq!(row["node"], "bank");
    (
        row["horizon_seconds"].clone(),
        row["steps"][0]["why"].as_str().unwrap().to_string(),
    )
}

#[test]
fn huge_attempts_with_a_multiplier_just_above_one_complete() {
    // No backoff: every retry adds its 1 s timeout, 2^63 - 2 of them.
    let (h, why) = horizon("");
    assert_eq!(h, serde_json::json!(9_223_372_036_854_775_806u64));
    assert_eq!(
        why,
        "calls: retry 9223372036854775807 attempts: (1s + 0s) + (1s + 0s) + (1s + 0s) + (1s + 0s) + (1s + 0s) + (1s + 0s) + … = 106751991167300d 15h 30m 6s"
    );
    // `check` finishes too (exit 1: RH038, the bank has no dedup at all).
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("r.yaml"), MANIFEST.replace("EXTRA", "")).unwrap();
    Command::cargo_bin("replay-audit")
        .unwrap()
        .current_dir(d.path())
        .args(["check", "r.yaml"])
        .assert()
        .code(1)
        .stdout(predicates::str::contains("RH038"));
}

#[test]
fn max_elapsed_caps_a_huge_sequence() {
    let (h, why) = horizon(", max_elapsed: 1h");
    assert_eq!(h, serde_json::json!(3600));
    assert!(why.ends_with(", capped by max_elapsed 1h"), "{why}");
}

#[test]
fn a_capped_huge_sequence_is_linear_to_the_second() {
    // (1 s + 1 s) × (2^63 - 2) = 2^64 - 4: just inside the duration range.
    let (h, why) = horizon(", backoff: 1s, max_backoff: 1s");
    assert_eq!(h, serde_json::json!(18_446_744_073_709_551_612u64));
    assert_eq!(
        why,
        "calls: retry 9223372036854775807 attempts: 9223372036854775806 × (1s + 1s) = 213503982334601d 7h 12s"
    );
}

#[test]
fn a_growing_huge_sequence_saturates_to_unbounded() {
    for extra in [", backoff: 1s", ", backoff: 1s, max_backoff: 2s"] {
        let (h, why) = horizon(extra);
        assert_eq!(h, serde_json::Value::Null, "{extra}");
        assert!(why.ends_with(" = unbounded"), "{extra}: {why}");
    }
}
