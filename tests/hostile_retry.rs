//! Hostile retry arithmetic (issue #14, item 9): `attempts: 2^63 - 1` with a
//! multiplier one ulp above 1 used to hang `check`, the span being summed one
//! attempt at a time. Each case must finish and give the exact horizon. No
//! timing assertions: each case just has to finish. Durations are counted
//! in milliseconds, so the range ends at u64::MAX ms (about 1.8 × 10^16 s):
//! the cases "just inside the range" use fewer attempts than 2^63 - 1.

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
    horizon_with("9223372036854775807", extra)
}

/// [`horizon`] with `attempts` instead of 2^63 - 1.
fn horizon_with(attempts: &str, extra: &str) -> (serde_json::Value, String) {
    let d = tempfile::tempdir().unwrap();
    let text = MANIFEST
        .replace("EXTRA", extra)
        .replace("9223372036854775807", attempts);
    std::fs::write(d.path().join("r.yaml"), text).unwrap();
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
    // No backoff: every retry adds its 1 s timeout, 2^63 - 2 of them:
    // past the millisecond range, unbounded.
    let (h, why) = horizon("");
    assert_eq!(h, serde_json::Value::Null);
    assert!(why.ends_with(" = unbounded"), "{why}");
    // Just inside the range: 18,446,744,073,709,551 retries of 1,000 ms
    // = 18,446,744,073,709,551,000 ms <= u64::MAX ms; one more is past it.
    let (h, why) = horizon_with("18446744073709552", "");
    assert_eq!(h, serde_json::json!(18_446_744_073_709_551u64));
    assert_eq!(
        why,
        "calls: retry 18446744073709552 attempts: (1s + 0s) + (1s + 0s) + (1s + 0s) + (1s + 0s) + (1s + 0s) + (1s + 0s) + … = 213503982334d 14h 25m 51s"
    );
    let (h, _) = horizon_with("18446744073709553", "");
    assert_eq!(h, serde_json::Value::Null);
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
    // (1 s + 1 s) × 9,223,372,036,854,775 = 18,446,744,073,709,550,000 ms:
    // just inside the duration range (u64::MAX ms); one more is past it.
    let capped = ", backoff: 1s, max_backoff: 1s";
    let (h, why) = horizon_with("9223372036854776", capped);
    assert_eq!(h, serde_json::json!(18_446_744_073_709_550u64));
    assert_eq!(
        why,
        "calls: retry 9223372036854776 attempts: 9223372036854775 × (1s + 1s) = 213503982334d 14h 25m 50s"
    );
    let (h, why) = horizon_with("9223372036854777", capped);
    assert_eq!(h, serde_json::Value::Null);
    assert!(why.ends_with(" = unbounded"), "{why}");
    // 2^63 - 1 attempts: (2^63 - 2) × 2,000 ms is past the range.
    let (h, _) = horizon(capped);
    assert_eq!(h, serde_json::Value::Null);
}

#[test]
fn a_growing_huge_sequence_saturates_to_unbounded() {
    for extra in [", backoff: 1s", ", backoff: 1s, max_backoff: 2s"] {
        let (h, why) = horizon(extra);
        assert_eq!(h, serde_json::Value::Null, "{extra}");
        assert!(why.ends_with(" = unbounded"), "{extra}: {why}");
    }
}
