//! `shell` with a pipe on stdin: a scripted session, exact transcript.

use assert_cmd::Command;

const FIXTURE: &str = "tests/data/whatif-incident.yaml";

fn shell(input: &str) -> (i32, String, String) {
    let out = Command::cargo_bin("replay-audit")
        .unwrap()
        .args(["shell", FIXTURE])
        .env("XDG_STATE_HOME", "/nonexistent/replay-audit-test")
        .write_stdin(input)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

const RH001: &str = "error RH001 replay-outlives-dedup-window seller-payout / payout-idempotency (horizon 15h 25m, window 1h)";
const RH004: &str = "warning RH004 thin-retention-margin seller-payout / payout-idempotency (horizon 15h 25m, window 16h)";

#[test]
fn set_undo_redo_diff_check_why() {
    let (code, out, err) = shell(
        "# comments and blank lines are skipped\n\nset payout-idempotency.retention=16h\nchanges\nundo\nredo\ndiff\ncheck\nwhy RH004\nquit\nchanges\n",
    );
    assert_eq!(err, "");
    assert_eq!(code, 0);
    let expected = format!(
        "payout-idempotency.retention: (not set: 1h, powertools-idempotency default, F040) → 16h
resolved   {RH001}
introduced {RH004}
now: 0 error(s), 1 warning(s), 1 info
  payout-idempotency.retention: (not set: 1h, powertools-idempotency default, F040) → 16h
undo: 0 change(s) now
resolved   {RH004}
introduced {RH001}
now: 1 error(s), 0 warning(s), 1 info
redo: 1 change(s) now
resolved   {RH001}
introduced {RH004}
now: 0 error(s), 1 warning(s), 1 info
--- a/{FIXTURE}
+++ b/{FIXTURE}
@@ -46,6 +46,7 @@
     effects: [bank-rail]
 
   payout-idempotency:
+    retention: 16h  # (not set: 1h, powertools-idempotency default, F040) → 16h
     kind: powertools-idempotency
 
   bank-rail:
info RH005 horizon-rests-on-assumption seller-payout
  the verdict on `seller-payout` rests on 2 declared assumptions: max_backlog 30m on payout-requests; redrive of payout-dlq within 14h
  at {FIXTURE}:10:3
{RH004}
  `payout-idempotency` keeps keys 16h and the latest copy it must stop arrives 15h 25m after its first sighting of the key: the margin 35m is below the policy's 1h 32m 30s (10 % or 5 minutes)
  at {FIXTURE}:48:3 (changed: payout-idempotency.retention: (not set: 1h, powertools-idempotency default, F040) → 16h)
0 error(s), 1 warning(s), 1 info
{RH004}
  `payout-idempotency` keeps keys 16h and the latest copy it must stop arrives 15h 25m after its first sighting of the key: the margin 35m is below the policy's 1h 32m 30s (10 % or 5 minutes)
  at {FIXTURE}:48:3 (changed: payout-idempotency.retention: (not set: 1h, powertools-idempotency default, F040) → 16h)
  worst path:
             +0s  settlement-scheduler → payout-requests: sends_to: no delay
            +45m  payout-requests → payout-dlq: dead_letter: moved to dead-letter queue after the source's delivery span: max_backlog 30m + 3 × visibility 5m = 45m: moved when the last receive's visibility timeout ends (F002, F007) (below retention 4d)
            +14h  payout-dlq → payout-requests: redrive: redrive within 14h (declared); the dead-letter queue keeps the enqueue time (F004): deadline = enqueue 0s + 14d = 14d
            +40m  payout-requests → payout-worker: delivers_to: at-least-once delivery: max_backlog 30m + (3 - 1) × visibility 5m = 40m (below retention 4d)
       = 15h 25m  total
  window 16h against horizon 15h 25m: margin 35m; the policy asks for 15h 25m + margin 1h 32m 30s = 16h 57m 30s
"
    );
    assert_eq!(out, expected, "`quit` stops before the last `changes`");
    assert!(!out.contains('\x1b'), "no escape codes on a pipe");
}

#[test]
fn errors_print_and_the_session_goes_on() {
    let (code, out, err) = shell(
        "set payout-idempotncy.retention=2d\nset payout-idempotency.retention=2x\nundo\nwhy RH999\nhorizon nope\nchek\nset payout-idempotency.retention=2d\n",
    );
    assert_eq!(code, 2, "a failed command makes a scripted session fail");
    assert_eq!(
        out,
        format!(
            "payout-idempotency.retention: (not set: 1h, powertools-idempotency default, F040) → 2d\nresolved   {RH001}\nnow: 0 error(s), 0 warning(s), 1 info\n"
        )
    );
    let expected = [
        "error: no intent, component or region `payout-idempotncy`\n --> set:1:1\n",
        "help: did you mean `payout-idempotency`?\n",
        "error: `components.payout-idempotency.retention`: `2x` is not a duration",
        " --> set:1:30\n  |\n1 | payout-idempotency.retention=2x\n  |                              ^^ bad duration\n",
        "error: nothing to undo\n",
        "error: no rule `RH999`\nhelp: did you mean `RH039`?\n",
        "error: no intent, component or region `nope`\nhelp: ids: bank-rail, payout-dlq, payout-idempotency, payout-requests, payout-worker, seller-payout, settlement-scheduler\n",
        "error: unknown command `chek`\nhelp: did you mean `check`?\n",
    ];
    let mut rest = err.as_str();
    for e in expected {
        let i = rest
            .find(e)
            .unwrap_or_else(|| panic!("missing, or out of order: {e:?} in\n{err}"));
        rest = &rest[i + e.len()..];
    }
    assert_eq!(rest, "");
}

#[test]
fn save_writes_an_overrides_file_that_check_reads() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("changes.yaml");
    let (code, out, _) = shell(&format!(
        "set settlement-scheduler.sends_to[0].retry.attempts=3\nset payout-idempotency.retention=1h 30m\nunset payout-requests.max_backlog\nsave {}\n",
        file.display()
    ));
    assert_eq!(code, 0);
    assert!(
        out.ends_with(&format!(
            "saved 3 change(s) to {0}; use it with `--overrides {0}`\n",
            file.display()
        )),
        "{out}"
    );
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "# replay-audit overrides: TARGET: VALUE (null removes the field).\n\
         # Use with `replay-audit check --overrides FILE` or `what-if --overrides FILE`.\n\
         \"settlement-scheduler.sends_to[0].retry.attempts\": 3\n\
         payout-idempotency.retention: 1h 30m\n\
         payout-requests.max_backlog: null\n"
    );
    let out = Command::cargo_bin("replay-audit")
        .unwrap()
        .args(["what-if", FIXTURE, "--format", "json", "--overrides"])
        .arg(&file)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        v["changes"],
        serde_json::json!([
            {"target": "settlement-scheduler.sends_to[0].retry.attempts", "old": null, "new": "3"},
            {"target": "payout-idempotency.retention", "old": null, "new": "1h 30m"},
            {"target": "payout-requests.max_backlog", "old": "30m", "new": null}
        ])
    );
}

#[test]
fn horizon_and_help() {
    let (code, out, err) = shell("horizon payout-worker\nhelp\n");
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(out.starts_with("intent seller-payout\n  payout-worker (guard): horizon 15h 25m, window 1h, latest copy to stop 15h 25m after its first sighting, minimum safe retention 16h 57m 30s — EXPIRES FIRST\n"), "{out}");
    assert!(out.contains("  set TARGET=VALUE   change a value"), "{out}");
    assert!(
        out.ends_with("  quit               leave (also `exit` or end of input)\n"),
        "{out}"
    );
}

#[test]
fn set_takes_a_space_and_diff_rewrites_a_written_line() {
    let (code, out, err) = shell(
        "set payout-requests.visibility_timeout 10m\nset payout-requests.max_backlog=1h\nchanges\ndiff\n",
    );
    assert_eq!(err, "");
    assert_eq!(code, 0);
    assert!(
        out.starts_with("payout-requests.visibility_timeout: 5m → 10m\n"),
        "{out}"
    );
    assert!(
        out.contains("  payout-requests.visibility_timeout: 5m → 10m\n  payout-requests.max_backlog: 30m → 1h\n"),
        "{out}"
    );
    // One hunk: the two lines are next to each other.
    let diff = &out[out.find("--- a/").expect("a diff")..];
    assert_eq!(diff.matches("@@ -").count(), 1, "{diff}");
    assert!(
        diff.contains("-    visibility_timeout: 5m\n+    visibility_timeout: 10m\n-    max_backlog: 30m\n+    max_backlog: 1h\n"),
        "{diff}"
    );
}

#[test]
fn a_set_without_a_value_says_how_to_write_one() {
    let (_, out, err) = shell("set payout-idempotency.retention\n");
    assert_eq!(out, "");
    assert!(
        err.contains("error: `payout-idempotency.retention` is not TARGET=VALUE"),
        "{err}"
    );
    assert!(
        err.contains("(or `set payout-idempotency.retention 2d`)"),
        "{err}"
    );
}
