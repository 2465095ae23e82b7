//! Exit-code matrix of `check` with a policy file and baselines.
//!
//! The fixture `incident-dlq-redrive.yaml`, with its `tested` list
//! completed (so RH040 stays quiet), gives exactly two findings: RH001
//! (error, intent seller-payout, component payout-idempotency) and RH005
//! (info, intent seller-payout). Every case copies it into a temp folder, so
//! `replay-audit.toml` beside it is the case's own.

use std::path::{Path, PathBuf};

use assert_cmd::cargo::cargo_bin_cmd;
use serde_json::{Value, json};
use tempfile::TempDir;

const FIXTURE_FILE: &str = include_str!("../fixtures/incident-dlq-redrive.yaml");
const TESTED: &str =
    "tested: [timeout-before-effect, timeout-after-effect, lost-ack, concurrent-retry]";

/// The fixture with every failure mode tested: RH001 and RH005 only.
fn fixture() -> String {
    assert!(
        FIXTURE_FILE.contains(TESTED),
        "the fixture's `tested` line changed"
    );
    FIXTURE_FILE.replace(
        TESTED,
        &TESTED.replace("]", ", expired-key, dlq-redrive, regional-failover]"),
    )
}
const RH001: &str = "RH001:seller-payout:payout-idempotency";
const RH005: &str = "RH005:seller-payout:-";

struct Case {
    dir: TempDir,
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    fn json(&self) -> Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| panic!("{e}: {}", self.stdout))
    }
}

impl Case {
    /// The fixture as `a.yaml`, with `policy` (if any) beside it.
    fn new(policy: Option<&str>) -> Case {
        Case::with_manifest(&fixture(), policy)
    }

    fn with_manifest(manifest: &str, policy: Option<&str>) -> Case {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("a.yaml"), manifest).expect("write manifest");
        if let Some(p) = policy {
            std::fs::write(dir.path().join("replay-audit.toml"), p).expect("write policy");
        }
        Case { dir }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn manifest(&self) -> PathBuf {
        self.path("a.yaml")
    }

    fn run(&self, args: &[&str]) -> Run {
        self.run_on("2026-01-15", args)
    }

    fn run_on(&self, today: &str, args: &[&str]) -> Run {
        self.command("check", today, args)
    }

    /// `replay-audit COMMAND a.yaml ARGS` as if on `today`.
    fn command(&self, command: &str, today: &str, args: &[&str]) -> Run {
        let out = cargo_bin_cmd!("replay-audit")
            .arg(command)
            .arg(self.manifest())
            .args(args)
            .env("REPLAY_AUDIT_TODAY", today)
            .env("NO_COLOR", "1")
            .output()
            .expect("runs");
        Run {
            code: out.status.code().expect("exit code"),
            stdout: String::from_utf8(out.stdout).expect("utf-8"),
            stderr: String::from_utf8(out.stderr).expect("utf-8"),
        }
    }

    fn code(&self, args: &[&str]) -> i32 {
        self.run(args).code
    }
}

fn codes_and_severities(v: &Value) -> Vec<(String, String)> {
    v["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            (
                f["code"].as_str().unwrap().to_string(),
                f["severity"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn p(s: &Path) -> &str {
    s.to_str().expect("utf-8 path")
}

// ---- --fail-on and severity -------------------------------------------

#[test]
fn fail_on_levels_without_a_policy() {
    let c = Case::new(None);
    assert_eq!(c.code(&[]), 1, "RH001 is an error");
    assert_eq!(c.code(&["--fail-on", "error"]), 1);
    assert_eq!(c.code(&["--fail-on", "warning"]), 1);
    assert_eq!(c.code(&["--fail-on", "info"]), 1);
}

#[test]
fn severity_off_drops_the_rule_and_fail_on_info_still_sees_rh005() {
    let c = Case::new(Some("[severity]\nRH001 = \"off\"\n"));
    assert_eq!(c.code(&[]), 0);
    assert_eq!(c.code(&["--fail-on", "warning"]), 0);
    assert_eq!(c.code(&["--fail-on", "info"]), 1, "RH005 is info");
    let v = c.run(&["--format", "json"]).json();
    assert_eq!(
        codes_and_severities(&v),
        vec![("RH005".to_string(), "info".to_string())]
    );
    assert_eq!(v["summary"], json!({"error": 0, "warning": 0, "info": 1}));

    let both = Case::new(Some(
        "[severity]\nRH001 = \"off\"\nhorizon-rests-on-assumption = \"off\"\n",
    ));
    assert_eq!(both.code(&["--fail-on", "info"]), 0);
    assert_eq!(
        both.run(&["--format", "json"]).json()["findings"],
        json!([])
    );
}

#[test]
fn severity_override_by_name_lowers_the_finding() {
    let c = Case::new(Some(
        "[severity]\nreplay-outlives-dedup-window = \"warning\"\n",
    ));
    let r = c.run(&["--format", "json"]);
    assert_eq!(
        r.code, 0,
        "RH001 is now a warning, below the default `error`"
    );
    assert_eq!(
        codes_and_severities(&r.json()),
        vec![
            ("RH001".to_string(), "warning".to_string()),
            ("RH005".to_string(), "info".to_string())
        ]
    );
    assert_eq!(c.code(&["--fail-on", "warning"]), 1);
}

#[test]
fn fail_on_in_the_policy_and_the_flag_overrides_it() {
    let c = Case::new(Some(
        "fail_on = \"warning\"\n[severity]\nRH001 = \"warning\"\n",
    ));
    assert_eq!(c.code(&[]), 1, "the policy fails on warnings");
    assert_eq!(
        c.code(&["--fail-on", "error"]),
        0,
        "the flag wins over the policy"
    );
    let raised = Case::new(Some("[severity]\nRH005 = \"error\"\nRH001 = \"info\"\n"));
    assert_eq!(raised.code(&[]), 1, "RH005 raised to error");
}

// ---- waivers -------------------------------------------------------------

const WAIVER: &str = "[[waiver]]\ncode = \"RH001\"\nintent = \"seller-*\"\ncomponent = \"payout-idem?otency\"\nreason = \"bank rail dedup lands in Q2\"\nticket = \"PAY-77\"\nexpires = 2026-06-30\n";

#[test]
fn a_live_waiver_passes_and_stays_in_the_output() {
    let c = Case::new(Some(WAIVER));
    let r = c.run(&["--format", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = r.json();
    assert_eq!(
        v["findings"][0]["waived"],
        json!({"reason": "bank rail dedup lands in Q2", "ticket": "PAY-77", "expires": "2026-06-30"})
    );
    assert_eq!(v["findings"][0]["severity"], "error");
    assert_eq!(v["findings"][1]["waived"], Value::Null);
    assert_eq!(
        v["summary"],
        json!({"error": 0, "warning": 0, "info": 1, "waived": 1})
    );
    assert_eq!(v["unused_waivers"], json!([]));
    assert_eq!(r.stderr, "");
    // The last day still waives.
    assert_eq!(c.run_on("2026-06-30", &[]).code, 0);
    let table = c.run(&["--format", "table"]);
    assert!(table.stdout.contains("(waived)"), "{}", table.stdout);
    assert!(
        table
            .stdout
            .contains("0 error(s), 0 warning(s), 1 info, 1 waived"),
        "{}",
        table.stdout
    );
}

/// The review report and the graph read the same policy as `check`: a
/// waived finding is listed, marked with its waiver, but fails no answer
/// and is not drawn; once the waiver expires it counts again.
#[test]
fn report_and_graph_honour_waivers() {
    let c = Case::new(Some(WAIVER));
    let waiver = "bank rail dedup lands in Q2 (ticket PAY-77, until 2026-06-30)";
    let r = c.command("report", "2026-01-15", &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    for line in [
        "Findings: 0 error(s), 0 warning(s), 1 info, 1 waived.  ".to_string(),
        "### 8. Retention — ⚠️ **ASSUMED**".to_string(),
        format!("- **ASSUMED:** RH001 waived: {waiver}"),
        format!("- *(waived: {waiver})* **error** RH001 replay-outlives-dedup-window"),
        // The answer still states the fact the waiver accepts.
        "No: a copy can arrive 15h 25m after the intent".to_string(),
    ] {
        assert!(
            r.stdout.contains(&line),
            "missing {line:?} in\n{}",
            r.stdout
        );
    }
    assert!(!r.stdout.contains("failing (RH001)"), "{}", r.stdout);
    let html = c.command("report", "2026-01-15", &["--format", "html"]);
    assert!(
        html.stdout
            .contains(&format!("<span class=\"muted\">waived:</span> {waiver}")),
        "{}",
        html.stdout
    );
    let late = c.command("report", "2026-07-01", &[]);
    assert!(
        late.stdout
            .contains("### 8. Retention — ❌ failing (RH001)"),
        "{}",
        late.stdout
    );
    assert!(
        late.stdout
            .contains("Findings: 1 error(s), 0 warning(s), 1 info.  ")
    );

    let graph = c.command("graph", "2026-01-15", &[]);
    assert_eq!(graph.code, 0, "{}", graph.stderr);
    assert!(!graph.stdout.contains("RH001"), "{}", graph.stdout);
    let late = c.command("graph", "2026-07-01", &[]);
    assert!(late.stdout.contains("RH001"), "{}", late.stdout);
}

#[test]
fn report_and_graph_reject_a_bad_policy_like_check() {
    let c = Case::new(Some("[[waiver]]\ncode = \"RH001\"\n"));
    for command in ["report", "graph"] {
        let r = c.command(command, "2026-01-15", &[]);
        assert_eq!(r.code, 2, "{command}");
        assert!(
            r.stderr.contains("add reason = "),
            "{command}: {}",
            r.stderr
        );
        assert_eq!(r.stdout, "", "{command}");
    }
    let r = c.command(
        "report",
        "2026-01-15",
        &["--config", p(&c.path("nope.toml"))],
    );
    assert_eq!(r.code, 2, "a missing --config file");
}

#[test]
fn an_expired_waiver_fails_and_says_so() {
    let c = Case::new(Some(WAIVER));
    let r = c.run_on("2026-07-01", &["--format", "json"]);
    assert_eq!(r.code, 1);
    let v = r.json();
    assert_eq!(v["findings"][0]["waived"], Value::Null);
    let msg = v["findings"][0]["message"].as_str().unwrap();
    assert!(
        msg.ends_with(" (waiver expired on 2026-06-30: bank rail dedup lands in Q2, PAY-77)"),
        "{msg}"
    );
    assert_eq!(
        v["unused_waivers"],
        json!([]),
        "an expired waiver still matched"
    );
}

#[test]
fn a_waiver_that_does_not_match_does_not_waive() {
    let c = Case::new(Some(
        "[[waiver]]\ncode = \"RH001\"\ncomponent = \"other-*\"\nreason = \"x\"\n",
    ));
    assert_eq!(c.code(&[]), 1);
}

#[test]
fn a_waiver_without_a_reason_is_an_input_error() {
    let c = Case::new(Some(
        "fail_on = \"error\"\n\n# accepted for now\n[[waiver]]\ncode = \"RH001\"\n",
    ));
    let r = c.run(&[]);
    assert_eq!(r.code, 2);
    assert_eq!(r.stdout, "");
    let at = format!("{}:4:1", p(&c.path("replay-audit.toml")));
    assert!(
        r.stderr
            .contains("error: waiver #1 (RH001) has no `reason`"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains(&at), "{}", r.stderr);
    assert!(r.stderr.contains("add reason = "), "{}", r.stderr);

    let empty = Case::new(Some("[[waiver]]\ncode = \"RH001\"\nreason = \"\"\n"));
    let r = empty.run(&[]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains(&format!("{}:3:10", p(&empty.path("replay-audit.toml")))),
        "{}",
        r.stderr
    );
}

#[test]
fn policy_errors_name_file_line_column_and_exit_2() {
    for (text, at, says) in [
        (
            "fail_on = \"error\"\nfial_on = \"info\"\n",
            "2:1",
            "did you mean `fail_on`?",
        ),
        ("[severity]\nRH004 = \"of\"\n", "2:9", "did you mean `off`?"),
        ("[severity]\nRH04x = \"off\"\n", "2:1", "no rule `RH04x`"),
        (
            "[margin]\npercent = \"ten\"\n",
            "2:11",
            "invalid type: string \"ten\", expected u64",
        ),
        (
            "[margin]\nminimum = \"soon\"\n",
            "2:11",
            "`margin.minimum`: `soon` is not a duration",
        ),
        (
            "[[waiver]]\ncode = \"RH001\"\nreason = \"x\"\nexpires = \"next year\"\n",
            "4:11",
            "`expires` is not a date",
        ),
        (
            "[[waiver]]\ncode = \"RH001\"\nreason = \"x\"\nowner = \"me\"\n",
            "4:1",
            "unknown field `owner`",
        ),
        ("fail_on = \n", "1:11", "error:"),
    ] {
        let c = Case::new(Some(text));
        let r = c.run(&[]);
        assert_eq!(r.code, 2, "{text}");
        let loc = format!("{}:{at}", p(&c.path("replay-audit.toml")));
        assert!(r.stderr.contains(&loc), "{text}: {}", r.stderr);
        assert!(r.stderr.contains(says), "{text}: {}", r.stderr);
    }
}

#[test]
fn an_unused_waiver_is_reported() {
    let c = Case::new(Some(
        "[[waiver]]\ncode = \"RH001\"\nreason = \"ok\"\nexpires = 2027-01-31\n\n[[waiver]]\ncode = \"thin-retention-margin\"\ncomponent = \"payout-*\"\nreason = \"old margin\"\nexpires = 2027-01-31\n",
    ));
    let r = c.run(&["--format", "json"]);
    assert_eq!(r.code, 0);
    let file = p(&c.path("replay-audit.toml")).to_string();
    assert_eq!(
        r.json()["unused_waivers"],
        json!([{
            "code": "RH004",
            "intent": null,
            "component": "payout-*",
            "reason": "old margin",
            "location": {"file": file, "line": 6, "column": 1}
        }])
    );
    assert_eq!(
        r.stderr,
        format!(
            "warning: {file}:6:1: waiver for RH004 component=payout-* matched no finding; remove it or fix its code, intent or component\n"
        )
    );
}

#[test]
fn config_flag_and_missing_config() {
    let c = Case::new(None);
    std::fs::write(c.path("strict.toml"), "[severity]\nRH001 = \"off\"\n").unwrap();
    assert_eq!(c.code(&["--config", p(&c.path("strict.toml"))]), 0);
    let r = c.run(&["--config", p(&c.path("nope.toml"))]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("cannot read"), "{}", r.stderr);
}

#[test]
fn a_folder_finds_the_policy_inside_it() {
    let c = Case::new(Some("[severity]\nRH001 = \"off\"\n"));
    let out = cargo_bin_cmd!("replay-audit")
        .arg("check")
        .arg(c.dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn a_bad_today_is_an_input_error() {
    let c = Case::new(None);
    let r = c.run_on("15/01/2026", &[]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("REPLAY_AUDIT_TODAY=`15/01/2026` is not a date"),
        "{}",
        r.stderr
    );
}

#[test]
fn the_margin_policy_reaches_rh004() {
    // A 16 h store against a 15 h 20 m horizon: 40 m of margin, below the
    // default 10 % (1 h 32 m), above 1 % or 5 minutes.
    let manifest = fixture().replace(
        "    kind: powertools-idempotency\n",
        "    kind: powertools-idempotency\n    retention: 16h\n",
    );
    let default = Case::with_manifest(&manifest, None);
    let v = default.run(&["--format", "json"]).json();
    assert_eq!(
        codes_and_severities(&v)[0],
        ("RH004".to_string(), "warning".to_string())
    );
    assert!(
        v["findings"][0]["message"]
            .as_str()
            .unwrap()
            .ends_with("the margin 35m is below the policy's 1h 32m 30s (10 % or 5 minutes)")
    );
    let custom = Case::with_manifest(&manifest, Some("[margin]\npercent = 1\nminimum = 300\n"));
    assert_eq!(
        codes_and_severities(&custom.run(&["--format", "json"]).json()),
        vec![("RH005".to_string(), "info".to_string())]
    );
    let wide = Case::with_manifest(&manifest, Some("[margin]\nminimum = \"1h\"\npercent = 1\n"));
    let v = wide.run(&["--format", "json"]).json();
    assert!(
        v["findings"][0]["message"]
            .as_str()
            .unwrap()
            .ends_with("below the policy's 1h (1 % or 1h)"),
        "{v}"
    );
}

// ---- baselines -------------------------------------------------------------

#[test]
fn baseline_written_then_read_passes() {
    let c = Case::new(None);
    let base = c.path("baseline.json");
    let w = c.run(&["--write-baseline", p(&base), "--format", "json"]);
    assert_eq!(w.code, 0, "{}", w.stderr);
    assert_eq!(
        w.stderr,
        format!("wrote 2 fingerprint(s) to {}\n", p(&base))
    );
    assert_eq!(
        std::fs::read_to_string(&base).unwrap(),
        format!(
            "{{\n  \"version\": 1,\n  \"fingerprints\": [\n    \"{RH001}\",\n    \"{RH005}\"\n  ]\n}}\n"
        )
    );
    let r = c.run(&[
        "--baseline",
        p(&base),
        "--format",
        "json",
        "--fail-on",
        "info",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stderr, "");
    let v = r.json();
    assert_eq!(v["findings"][0]["baselined"], json!(true));
    assert_eq!(v["findings"][1]["baselined"], json!(true));
    assert_eq!(
        v["summary"],
        json!({"error": 0, "warning": 0, "info": 0, "baselined": 2})
    );
    assert_eq!(v["stale_baseline"], json!([]));
    // SARIF: baselined findings are left out, or kept as `unchanged`.
    let sarif = |extra: &[&str]| {
        let mut args = vec!["--baseline", p(&base), "--format", "sarif"];
        args.extend_from_slice(extra);
        let v: Value = serde_json::from_str(&c.run(&args).stdout).unwrap();
        v["runs"][0]["results"].as_array().unwrap().clone()
    };
    assert_eq!(sarif(&[]), Vec::<Value>::new());
    let kept = sarif(&["--include-accepted"]);
    assert_eq!(kept.len(), 2);
    assert!(
        kept.iter().all(|x| x["baselineState"] == "unchanged"),
        "{kept:?}"
    );
    let t = c.run(&["--baseline", p(&base)]);
    assert!(
        t.stdout.contains("(baselined)")
            && t.stdout
                .ends_with("0 error(s), 0 warning(s), 0 info, 2 baselined\npolicy: no replay-audit.toml found; the defaults apply\n"),
        "{}",
        t.stdout
    );
}

#[test]
fn waived_findings_stay_out_of_the_baseline() {
    let c = Case::new(Some("[[waiver]]\ncode = \"RH001\"\nreason = \"ok\"\n"));
    let base = c.path("b.json");
    assert_eq!(c.code(&["--write-baseline", p(&base)]), 0);
    let b: Value = serde_json::from_str(&std::fs::read_to_string(&base).unwrap()).unwrap();
    assert_eq!(b["fingerprints"], json!([RH005]));
}

#[test]
fn a_finding_not_in_the_baseline_fails() {
    let c = Case::new(None);
    let base = c.path("baseline.json");
    std::fs::write(
        &base,
        format!("{{\"version\": 1, \"fingerprints\": [\"{RH005}\"]}}"),
    )
    .unwrap();
    let r = c.run(&["--baseline", p(&base), "--format", "json"]);
    assert_eq!(r.code, 1, "RH001 is new");
    let v = r.json();
    assert_eq!(v["findings"][0]["code"], "RH001");
    assert_eq!(v["findings"][0]["baselined"], json!(false));
    assert_eq!(v["findings"][1]["baselined"], json!(true));
    assert_eq!(
        v["summary"],
        json!({"error": 1, "warning": 0, "info": 0, "baselined": 1})
    );
}

#[test]
fn a_stale_baseline_entry_is_reported() {
    let c = Case::new(None);
    let base = c.path("baseline.json");
    let gone = "RH004:seller-payout:payout-idempotency";
    std::fs::write(
        &base,
        format!("{{\"version\": 1, \"fingerprints\": [\"{RH001}\", \"{gone}\", \"{RH005}\"]}}"),
    )
    .unwrap();
    let r = c.run(&["--baseline", p(&base), "--format", "json"]);
    assert_eq!(r.code, 0);
    assert_eq!(r.json()["stale_baseline"], json!([gone]));
    assert_eq!(
        r.stderr,
        format!(
            "warning: baseline entry `{gone}` no longer occurs (in {}); rewrite the baseline with --write-baseline\n",
            p(&base)
        )
    );
}

#[test]
fn a_broken_baseline_is_an_input_error() {
    let c = Case::new(None);
    let base = c.path("baseline.json");
    std::fs::write(&base, "{\"version\": 1,\n \"fingerprints\": [\"a\",]}\n").unwrap();
    let r = c.run(&["--baseline", p(&base)]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains(&format!("{}:2:", p(&base))),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("not a replay-audit baseline"),
        "{}",
        r.stderr
    );
    let missing = c.run(&["--baseline", p(&c.path("none.json"))]);
    assert_eq!(missing.code, 2);
    assert!(
        missing.stderr.contains("--write-baseline"),
        "{}",
        missing.stderr
    );
    let both = c.run(&["--baseline", p(&base), "--write-baseline", p(&base)]);
    assert_eq!(both.code, 2, "the two options conflict");
}

#[test]
fn sarif_and_junit_mark_waived_findings() {
    let c = Case::new(Some(WAIVER));
    // GitHub code scanning reads no `suppressions`: by default SARIF leaves
    // an accepted finding out, so it is no open alert.
    let r = c.run(&["--format", "sarif"]);
    assert_eq!(r.code, 0);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    let results = v["runs"][0]["results"].as_array().unwrap();
    assert!(
        results.iter().all(|x| x["ruleId"] != "RH001"),
        "{results:?}"
    );
    let r = c.run(&["--format", "sarif", "--include-accepted"]);
    assert_eq!(r.code, 0);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    let results = v["runs"][0]["results"].as_array().unwrap();
    let rh001 = results
        .iter()
        .find(|x| x["ruleId"] == "RH001")
        .expect("RH001 result");
    assert_eq!(rh001.get("baselineState"), None, "waived, not baselined");
    assert_eq!(rh001["suppressions"][0]["kind"], "external");
    assert_eq!(
        rh001["suppressions"][0]["justification"],
        "bank rail dedup lands in Q2"
    );
    let junit = c.run(&["--format", "junit"]);
    assert_eq!(junit.code, 0);
    assert!(
        junit.stdout.contains("bank rail dedup lands in Q2"),
        "{}",
        junit.stdout
    );
    assert!(junit.stdout.contains("<skipped"), "{}", junit.stdout);
}

#[test]
fn accepted_findings_are_notices_in_github_and_marked_in_markdown() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/incident-dlq-redrive.yaml"
    ))
    .unwrap();
    std::fs::write(dir.path().join("payouts.yaml"), text).unwrap();
    std::fs::write(
        dir.path().join("replay-audit.toml"),
        "[[waiver]]\ncode = \"RH001\"\ncomponent = \"payout-*\"\nreason = \"records moved to the ledger in PAY-12\"\n",
    )
    .unwrap();
    let out = assert_cmd::Command::cargo_bin("replay-audit")
        .unwrap()
        .args(["check", "--format", "github"])
        .arg(dir.path().join("payouts.yaml"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let gh = String::from_utf8(out.stdout).unwrap();
    assert!(
        gh.lines().any(|l| l.starts_with("::notice ") && l.contains("title=RH001 replay-outlives-dedup-window (waived%3A records moved to the ledger in PAY-12)")),
        "{gh}"
    );
    assert!(!gh.contains("::error "), "{gh}");
    let out = assert_cmd::Command::cargo_bin("replay-audit")
        .unwrap()
        .args(["check", "--format", "markdown"])
        .arg(dir.path().join("payouts.yaml"))
        .output()
        .unwrap();
    let md = String::from_utf8(out.stdout).unwrap();
    assert!(
        md.contains("*(waived: records moved to the ledger in PAY-12)* a dead-letter redrive"),
        "{md}"
    );
    assert!(md.contains("| seller-payout | payout-idempotency | store | 15h 25m | 15h 25m | 1h | 16h 57m 30s | **expires too soon** |"), "{md}");
}

// ---- organisation mode -----------------------------------------------------

/// `check --each` checks every architecture under its own policy, as
/// `check` on it alone would; `--config` gives one policy to all.
#[test]
fn check_each_applies_each_architectures_policy() {
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, policy) in [
        ("broken-policy", Some("[[waiver]]\ncode = \"RH001\"\n")),
        ("ledger", None),
        ("payments", Some(WAIVER)),
    ] {
        let sub = dir.path().join(name);
        std::fs::create_dir(&sub).unwrap();
        std::fs::write(sub.join("a.yaml"), fixture()).unwrap();
        if let Some(p) = policy {
            std::fs::write(sub.join("replay-audit.toml"), p).unwrap();
        }
    }
    std::fs::write(
        dir.path().join("strict.toml"),
        "[severity]\nRH001 = \"off\"\n",
    )
    .unwrap();
    let each = |args: &[&str]| {
        let out = cargo_bin_cmd!("replay-audit")
            .args(["check", "--format", "json", "--each"])
            .arg(dir.path().join("."))
            .args(args)
            .env("REPLAY_AUDIT_TODAY", "2026-01-15")
            .output()
            .expect("runs");
        let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
        (out.status.code().expect("exit code"), v)
    };

    let (code, v) = each(&[]);
    assert_eq!(code, 2, "the broken policy is an input error");
    let archs = v["architectures"].as_array().expect("architectures");
    assert_eq!(archs.len(), 3, "{v}");
    let broken = &archs[0];
    assert!(broken.get("findings").is_none(), "{broken}");
    assert!(
        broken["errors"][0]["help"]
            .as_str()
            .is_some_and(|h| h.contains("add reason = ")),
        "{broken}"
    );
    assert_eq!(
        archs[1]["summary"],
        json!({"error": 1, "warning": 0, "info": 1}),
        "no policy: RH001 counts"
    );
    assert_eq!(
        archs[2]["summary"],
        json!({"error": 0, "warning": 0, "info": 1, "waived": 1})
    );
    assert_eq!(
        archs[2]["findings"][0]["waived"]["reason"],
        "bank rail dedup lands in Q2"
    );

    // One policy for all: RH001 off everywhere, the broken one not read.
    let strict = dir.path().join("strict.toml");
    let (code, v) = each(&["--config", p(&strict)]);
    assert_eq!(code, 0, "{v}");
    for a in v["architectures"].as_array().unwrap() {
        assert_eq!(
            a["summary"],
            json!({"error": 0, "warning": 0, "info": 1}),
            "{a}"
        );
    }
    let (code, _) = each(&["--config", p(&strict), "--fail-on", "info"]);
    assert_eq!(code, 1, "--fail-on still decides over the policy");
}

/// `what-if` and `shell` judge findings under the same policy as `check`:
/// a waived finding is marked and does not fail the run.
#[test]
fn what_if_and_shell_honour_waivers() {
    let c = Case::new(Some(WAIVER));
    let set = ["--set", "payout-idempotency.retention=2h"];
    let r = c.command("what-if", "2026-01-15", &set);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains(
            "error   RH001 replay-outlives-dedup-window — seller-payout / payout-idempotency (waived)"
        ),
        "{}",
        r.stdout
    );
    assert_eq!(c.command("what-if", "2026-07-01", &set).code, 1, "expired");
    let late = c.command(
        "what-if",
        "2026-01-15",
        &[&set[..], &["--fail-on", "info"]].concat(),
    );
    assert_eq!(late.code, 1, "RH005 (info) is not waived");

    let out = cargo_bin_cmd!("replay-audit")
        .arg("shell")
        .arg(c.manifest())
        .write_stdin("check\n")
        .env("REPLAY_AUDIT_TODAY", "2026-01-15")
        .env("NO_COLOR", "1")
        .output()
        .expect("runs");
    let text = String::from_utf8(out.stdout).expect("utf-8");
    assert!(
        text.contains("payout-idempotency (horizon 15h 25m, window 1h) (waived)"),
        "{text}"
    );
    assert!(
        text.contains("0 error(s), 0 warning(s), 1 info, 1 waived"),
        "{text}"
    );
}
