//! `what-if`, `check --overrides` and `horizon --required` on the DLQ
//! redrive incident: horizon 15h 25m (55 500 s) at the payout guard, so the
//! policy (10 % or 5 min) asks for 16h 57m 30s (61 050 s).

use assert_cmd::Command;
use proptest::prelude::*;
use replay_audit::manifest::Limits;
use replay_audit::whatif::{Session, compare};
use replay_audit::{analysis, rules};
use serde_json::Value;

const FIXTURE: &str = "tests/data/whatif-incident.yaml";

fn cmd() -> Command {
    Command::cargo_bin("replay-audit").unwrap()
}

/// Runs what-if with JSON output; returns (exit code, JSON).
fn what_if(args: &[&str]) -> (i32, Value) {
    let mut c = cmd();
    c.args(["what-if", FIXTURE, "--format", "json"]).args(args);
    let out = c.output().unwrap();
    let json = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code().unwrap(), json)
}

fn codes(v: &Value, list: &str) -> Vec<String> {
    v[list]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["code"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn two_days_resolves_rh001() {
    let (code, v) = what_if(&["--set", "payout-idempotency.retention=2d"]);
    assert_eq!(code, 0);
    assert_eq!(v["version"], 1);
    assert_eq!(
        v["changes"],
        serde_json::json!([{"target": "payout-idempotency.retention", "old": null, "new": "2d"}])
    );
    assert_eq!(codes(&v, "resolved"), ["RH001"]);
    assert_eq!(v["resolved"][0]["horizon_seconds"], 55_500);
    assert_eq!(v["resolved"][0]["window_seconds"], 3_600);
    assert_eq!(v["resolved"][0]["location"]["file"], FIXTURE);
    assert_eq!(v["resolved"][0]["location"]["line"], 49);
    assert!(codes(&v, "introduced").is_empty());
    assert_eq!(codes(&v, "unchanged"), ["RH005"]);
}

#[test]
fn seventeen_hours_is_above_the_margin() {
    // 17h = 61 200 s >= 61 050 s: no thin-margin warning.
    let (code, v) = what_if(&["--set", "payout-idempotency.retention=17h"]);
    assert_eq!(code, 0);
    assert_eq!(codes(&v, "resolved"), ["RH001"]);
    assert!(codes(&v, "introduced").is_empty());
}

#[test]
fn sixteen_hours_resolves_rh001_but_introduces_rh004() {
    // 16h = 57 600 s covers 55 500 s by 35 min, below the 1h 32m 30s margin.
    let (code, v) = what_if(&["--set", "payout-idempotency.retention=16h"]);
    assert_eq!(code, 0, "a warning does not fail by default");
    assert_eq!(codes(&v, "resolved"), ["RH001"]);
    assert_eq!(codes(&v, "introduced"), ["RH004"]);
    let f = &v["introduced"][0];
    assert_eq!(
        (f["horizon_seconds"].as_u64(), f["window_seconds"].as_u64()),
        (Some(55_500), Some(57_600))
    );
    assert_eq!(f["component"], "payout-idempotency");
    // The window now comes from the --set argument: the finding points there.
    assert_eq!(
        f["location"],
        serde_json::json!({"file": "--set", "line": 1, "column": 30})
    );
    let (code, _) = what_if(&[
        "--set",
        "payout-idempotency.retention=16h",
        "--fail-on",
        "warning",
    ]);
    assert_eq!(code, 1);
}

#[test]
fn a_shorter_redrive_keeps_rh001_with_its_new_horizon() {
    let (code, v) = what_if(&["--set", "payout-dlq.redrive.within=1h"]);
    assert_eq!(code, 1, "RH001 remains");
    assert!(codes(&v, "resolved").is_empty() && codes(&v, "introduced").is_empty());
    assert_eq!(codes(&v, "unchanged"), ["RH001", "RH005"]);
    let f = &v["unchanged"][0];
    // the move 45m (30m + 3 × 5m, F002, F007) + 1h + the delivery 40m
    assert_eq!(f["horizon_seconds"], 8_700);
    assert_eq!(f["previous_horizon_seconds"], 55_500);
    assert_eq!(
        v["changes"][0],
        serde_json::json!({"target": "payout-dlq.redrive.within", "old": "14h", "new": "1h"})
    );
}

#[test]
fn link_paths_and_the_retry_shorthand() {
    let (_, v) = what_if(&[
        "--set",
        "settlement-scheduler.sends_to[0].retry.attempts=3",
        "--set",
        "payout-requests.retry.attempts=2",
        "--set",
        "payout-dlq.redrive.max_times=1",
    ]);
    assert_eq!(
        v["changes"],
        serde_json::json!([
            {"target": "settlement-scheduler.sends_to[0].retry.attempts", "old": null, "new": "3"},
            {"target": "payout-requests.delivers_to.retry.attempts", "old": null, "new": "2"}
        ]),
        "setting a value to what the file holds is no change"
    );
}

#[test]
fn unset_and_intent_fields() {
    let (_, v) = what_if(&[
        "--unset",
        "payout-requests.max_backlog",
        "--set",
        "seller-payout.key.persisted_before_retry=false",
    ]);
    assert_eq!(
        v["changes"],
        serde_json::json!([
            {"target": "seller-payout.key.persisted_before_retry", "old": "true", "new": "false"},
            {"target": "payout-requests.max_backlog", "old": "30m", "new": null}
        ])
    );
    // Without max_backlog the queue may hold a message its whole retention (4 days).
    let rh001 = v["unchanged"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["code"] == "RH001")
        .unwrap();
    assert_eq!(rh001["horizon_seconds"], 4 * 86_400 * 2 + 14 * 3_600);
}

fn fails_with(args: &[&str], expected: &[&str]) {
    let out = cmd()
        .args(["what-if", FIXTURE])
        .args(args)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    for e in expected {
        assert!(err.contains(e), "missing {e:?} in:\n{err}");
    }
    assert!(out.stdout.is_empty());
}

#[test]
fn input_errors_exit_2_with_the_loaders_messages() {
    fails_with(
        &["--set", "payout-idempotncy.retention=2d"],
        &[
            "error: no intent, component or region `payout-idempotncy`",
            "--> --set:1:1",
            "help: did you mean `payout-idempotency`?",
        ],
    );
    fails_with(
        &["--set", "payout-idempotency.retentoin=2d"],
        &[
            "error: unknown field `retentoin` in `components.payout-idempotency`",
            "--> --set:1:20",
            "help: did you mean `retention`?",
        ],
    );
    fails_with(
        &["--set", "payout-idempotency.retention=2x"],
        &[
            "error: `components.payout-idempotency.retention`: `2x` is not a duration",
            "--> --set:1:30",
        ],
    );
    fails_with(
        &["--set", "payout-idempotency.retention"],
        &["is not TARGET=VALUE"],
    );
    fails_with(
        &["--set", "payout-worker.retry.attempts=3"],
        &[
            "`retry` is set on a link, and `payout-worker` has no `sends_to`, `delivers_to` or `calls` link",
        ],
    );
    fails_with(
        &["--set", "settlement-scheduler.sends_to[1].retry.attempts=3"],
        &[
            "`components.settlement-scheduler.sends_to` is a string, not a list: [1] is out of range",
        ],
    );
    fails_with(
        &["--unset", "payout-idempotency.retention"],
        &["`components.payout-idempotency.retention` is not set in the manifest: nothing to unset"],
    );
    fails_with(
        &["--set", "payout-dlq.redrive.to=payout-reqests"],
        &[
            "`payout-reqests` is not a component",
            "--> --set:1:23",
            "help: did you mean `payout-requests`?",
        ],
    );
    fails_with(&[], &["what-if needs a change"]);
}

#[test]
fn overrides_files_for_check_and_what_if() {
    let dir = tempfile::tempdir().unwrap();
    let ov = dir.path().join("o.yaml");
    std::fs::write(&ov, "payout-idempotency.retention: 16h\n\"settlement-scheduler.sends_to[0].retry.attempts\": 3\n").unwrap();
    let out = cmd()
        .args(["check", FIXTURE, "--format", "json", "--overrides"])
        .arg(&ov)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    // Sorted by file: the manifest (RH005; RH041: the retried send gives
    // no timeout per attempt, taken as 0 s), then the overrides file (RH004).
    assert_eq!(codes(&v, "findings"), ["RH005", "RH041", "RH004"]);
    assert_eq!(
        v["findings"][2]["location"]["file"],
        ov.display().to_string()
    );
    assert_eq!(v["findings"][2]["location"]["line"], 1);

    let (_, v) = what_if(&["--overrides", ov.to_str().unwrap()]);
    assert_eq!(codes(&v, "resolved"), ["RH001"]);
    // RH041: the overridden send retries with no timeout per attempt.
    assert_eq!(codes(&v, "introduced"), ["RH041", "RH004"]);

    std::fs::write(&ov, "payout-idempotency.retention: 2 days ago\n").unwrap();
    let out = cmd()
        .args(["check", FIXTURE, "--overrides"])
        .arg(&ov)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&format!("--> {}:1:31", ov.display())), "{err}");
}

#[test]
fn text_output_lists_changes_and_findings() {
    let out = cmd()
        .args([
            "what-if",
            FIXTURE,
            "--set",
            "payout-idempotency.retention=16h",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("changes:\n  payout-idempotency.retention: (not set) → 16h\nresolved (1):\n  error   RH001 replay-outlives-dedup-window — seller-payout / payout-idempotency\n          horizon 15h 25m, window 1h\n"), "{text}");
    assert!(text.contains("introduced (1):\n  warning RH004 thin-retention-margin — seller-payout / payout-idempotency\n          horizon 15h 25m, window 16h\n"), "{text}");
    assert!(text.contains("unchanged (1):\n  info    RH005 "), "{text}");
}

#[test]
fn horizon_required_gives_the_minimum_safe_retention() {
    let out = cmd()
        .args(["horizon", FIXTURE, "--required", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        v,
        serde_json::json!({"version": 1, "required": [{
            "intent": "seller-payout", "component": "payout-idempotency", "layer": "guard store",
            "at": "payout-worker", "horizon_seconds": 55500, "span_seconds": 55500, "window_seconds": 3600,
            "required_retention_seconds": 61050, "verdict": "expires-first", "bounded_by": []
        }]})
    );
    let out = cmd()
        .args(["horizon", FIXTURE, "--required"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "intent seller-payout\n  payout-idempotency (guard store via `payout-worker`): minimum safe retention 16h 57m 30s (the latest copy 15h 25m after its first sighting + margin 1h 32m 30s), window 1h — expires-first\n"
    );
}

#[test]
fn horizon_required_says_what_would_bound_an_unbounded_horizon() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("m.yaml");
    let text = std::fs::read_to_string(FIXTURE)
        .unwrap()
        .replace("    max_backlog: 30m\n", "    retention: unbounded\n");
    std::fs::write(&f, text).unwrap();
    let out = cmd()
        .args(["horizon", "--required", "--format", "json"])
        .arg(&f)
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let row = &v["required"][0];
    assert_eq!(row["horizon_seconds"], Value::Null);
    assert_eq!(row["required_retention_seconds"], Value::Null);
    assert_eq!(row["verdict"], "unbounded");
    assert_eq!(
        row["bounded_by"],
        serde_json::json!(["`max_backlog` on `payout-requests` (or a finite `retention`)"])
    );
    let out = cmd()
        .args(["horizon", "--required"])
        .arg(&f)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("latest copy to stop unbounded, window 1h: no retention is long enough\n      bound it with `max_backlog` on `payout-requests` (or a finite `retention`)\n"), "{text}");
}

fn rh001_about(session: &mut Session, sets: &[String]) -> Vec<String> {
    let o: Vec<_> = sets
        .iter()
        .map(|s| session.parse_set("--set", s).unwrap())
        .collect();
    let b = session.build(&o).unwrap();
    rules::run(&analysis::analyse(&b.manifest))
        .into_iter()
        .filter(|f| f.rule.code == "RH001")
        .map(|f| f.fingerprint())
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Raising a store's retention never introduces RH001, whatever the
    /// redrive delay and backlog.
    #[test]
    fn raising_retention_never_introduces_rh001(
        low in 0u64..200_000,
        raise in 1u64..200_000,
        within in 0u64..100_000,
        backlog in 0u64..20_000,
    ) {
        let text = std::fs::read_to_string(FIXTURE).unwrap();
        let mut s = Session::from_texts(vec![(FIXTURE.to_string(), text)], &Limits::default()).unwrap();
        let common = [format!("payout-dlq.redrive.within={within}"), format!("payout-requests.max_backlog={backlog}")];
        let with = |r: u64| common.iter().cloned().chain([format!("payout-idempotency.retention={r}")]).collect::<Vec<_>>();
        let before = rh001_about(&mut s, &with(low));
        let after = rh001_about(&mut s, &with(low + raise));
        for f in &after {
            prop_assert!(before.contains(f), "{f} appeared when retention went from {low} to {}", low + raise);
        }
        // And the full comparison agrees.
        let o: Vec<_> = with(low).iter().map(|x| s.parse_set("--set", x).unwrap()).collect();
        let old = rules::run(&analysis::analyse(&s.build(&o).unwrap().manifest));
        let o: Vec<_> = with(low + raise).iter().map(|x| s.parse_set("--set", x).unwrap()).collect();
        let new = rules::run(&analysis::analyse(&s.build(&o).unwrap().manifest));
        prop_assert!(compare(&old, &new).introduced.iter().all(|f| f.rule.code != "RH001"));
    }
}

#[test]
fn set_with_a_space_gets_the_shell_error_not_a_missing_file() {
    let out = cmd()
        .args([
            "what-if",
            FIXTURE,
            "--set",
            "payout-idempotency.retention",
            "2d",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "error: `--set payout-idempotency.retention` is not TARGET=VALUE\n\
         help: write `--set payout-idempotency.retention=2d`: after a space, `2d` was read as a manifest path\n"
    );
}

#[test]
fn a_quoted_set_with_a_space_is_a_change() {
    let (code, v) = what_if(&["--set", "payout-idempotency.retention 2d"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(codes(&v, "resolved"), ["RH001"]);
}
