//! Inline allowances (#34 item 2): a `# replay-audit: allow` comment in a
//! manifest, a resource's `Metadata: replay-audit: allow:` in a
//! CloudFormation template, a comment above a Terraform `resource` block.
//! Each accepts its findings at that place with a reason and an optional
//! last day; an expired one no longer holds, an unused one is reported, one
//! without a reason is an input error (exit 2). Every format marks an
//! allowed finding as such.
//!
//! Fixtures (the arithmetic of each finding is in their comments):
//! fixtures/allow/payouts.yaml (RH001 error at `payout-idempotency`, RH005
//! info), fixtures/import/allow/template.yaml and
//! fixtures/import/allow/terraform/main.tf
//! (RH014 warning at `payout-dlq`, RH044 warning: no intent). "Today" is
//! 2026-12-01 (tests/common/policy.rs).

#[path = "common/policy.rs"]
mod policy;
use policy::{Run, run};
use serde_json::{Value, json};

const PAYOUTS: &str = include_str!("../fixtures/allow/payouts.yaml");
const TEMPLATE: &str = include_str!("../fixtures/import/allow/template.yaml");
const TERRAFORM: &str = include_str!("../fixtures/import/allow/terraform/main.tf");
const REASON: &str = "redrive is manual and audited";
const NONE: &str = "policy: no replay-audit.toml found; the defaults apply";

/// The RH001 line of `--format concise` (placed at the store's kind).
const RH001: &str = "m.yaml:47:16: error[RH001]: a dead-letter redrive can reach `bank-rail` 15h 25m after the intent, but `payout-idempotency` forgets the key after 1h: the copy looks new and the effect happens twice";
const RH005: &str = "m.yaml:14:3: info[RH005]: the verdict on `seller-payout` rests on 2 declared assumptions: max_backlog 30m on payout-requests; redrive of payout-dlq within 14h";

/// A folder with the payouts manifest as `m.yaml`, its `# ALLOW` line (44)
/// replaced by `allow` (which may be several lines or a trailing comment
/// elsewhere), and run `args` there.
fn manifest(allow: &str, args: &[&str]) -> Run {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("m.yaml"), PAYOUTS.replace("  # ALLOW", allow)).unwrap();
    run(d.path(), args)
}

fn concise(allow: &str) -> Run {
    manifest(allow, &["check", "m.yaml", "--format", "concise"])
}

const LIVE: &str =
    "  # replay-audit: allow RH001 until 2027-03-31 -- redrive is manual and audited";

#[test]
fn a_comment_above_an_entry_allows_its_finding_and_the_run_passes() {
    let r = concise(LIVE);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert_eq!(
        r.stdout,
        format!(
            "{RH001} (allowed: {REASON})\n{RH005}\n0 error(s), 0 warning(s), 1 info, 1 waived\n{NONE}\n"
        )
    );
    assert_eq!(r.stderr, "");
}

#[test]
fn a_trailing_comment_allows_the_entry_of_its_line() {
    let r = manifest("", &["check", "m.yaml", "--format", "concise"]);
    assert_eq!(r.code, 1, "without an allowance RH001 fails the run");
    let d = tempfile::tempdir().unwrap();
    let text = PAYOUTS.replace(
        "  payout-idempotency:\n",
        "  payout-idempotency:  # replay-audit: allow RH001, RH004 -- redrive is manual and audited\n",
    );
    std::fs::write(d.path().join("m.yaml"), text).unwrap();
    let r = run(d.path(), &["check", "m.yaml", "--format", "json"]);
    assert_eq!(r.code, 0, "{}", r.stdout);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(
        v["findings"][0]["waived"],
        json!({"reason": REASON, "ticket": null, "expires": null,
               "inline": {"file": "m.yaml", "line": 45, "column": 24}})
    );
    // RH004 of the same comment covers nothing here: reported as unused.
    assert_eq!(
        v["unused_waivers"],
        json!([{"code": "RH004", "intent": null, "component": "payout-idempotency",
                "reason": REASON, "inline": true,
                "location": {"file": "m.yaml", "line": 45, "column": 24}}])
    );
    assert_eq!(
        r.stderr,
        "warning: m.yaml:45:24: inline allowance for RH004 component=payout-idempotency covers no finding; remove it, or fix its code or place\n"
    );
}

#[test]
fn an_expired_allowance_no_longer_holds_and_says_so() {
    let r =
        concise("  # replay-audit: allow RH001 until 2026-11-30 -- redrive is manual and audited");
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stdout,
        format!(
            "{RH001} (inline allowance expired on 2026-11-30: {REASON}, at m.yaml:44:3)\n{RH005}\n1 error(s), 0 warning(s), 1 info\n{NONE}\n"
        )
    );
}

#[test]
fn an_allowance_that_covers_nothing_is_reported() {
    let r = concise("  # replay-audit: allow RH014 -- the DLQ is drained by hand");
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stderr,
        "warning: m.yaml:44:3: inline allowance for RH014 component=payout-idempotency covers no finding; remove it, or fix its code or place\n"
    );
}

#[test]
fn an_allowance_without_a_reason_is_an_input_error_at_its_place() {
    let r = concise("  # replay-audit: allow RH001 until 2027-03-31");
    assert_eq!(r.code, 2);
    assert_eq!(r.stdout, "");
    assert_eq!(
        r.stderr,
        "error: inline allowance without a reason
  --> m.yaml:44:19
   |
44 |   # replay-audit: allow RH001 until 2027-03-31
   |                   ^^^^^ no reason
   |
help: say why the finding is accepted after ` -- ` (`# replay-audit: allow RH001 until 2027-03-31 -- redrive is manual and audited`), or, in a template's `Metadata: replay-audit: allow:` entry, as `reason:`

error: could not analyse the manifest: 1 error
"
    );
}

#[test]
fn an_unknown_code_is_an_input_error_with_did_you_mean() {
    let r = concise("  # replay-audit: allow RH01 -- x");
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stderr,
        "error: unknown rule `RH01` in an inline allowance
  --> m.yaml:44:25
   |
44 |   # replay-audit: allow RH01 -- x
   |                         ^^^^ no such rule
   |
help: did you mean one of `RH001`, `RH010`, `RH011`, `RH012`, `RH013` (or 7 more)? `replay-audit rules` lists every rule

error: could not analyse the manifest: 1 error
"
    );
}

#[test]
fn every_format_marks_the_allowed_finding() {
    let fmt = |f: &str, extra: &[&str]| {
        let mut args = vec!["check", "m.yaml", "--format", f];
        args.extend_from_slice(extra);
        let r = manifest(LIVE, &args);
        assert_eq!(r.code, 0, "{f}: {}", r.stderr);
        r.stdout
    };
    let sarif: Value = serde_json::from_str(&fmt("sarif", &["--include-accepted"])).unwrap();
    assert_eq!(
        sarif["runs"][0]["results"][0]["suppressions"],
        json!([{"kind": "inSource", "justification": REASON}])
    );
    let junit = fmt("junit", &[]);
    assert!(
        junit.contains("<system-out>allowed: redrive is manual and audited (inline allowance at m.yaml:44)\nm.yaml:47:16: error: a dead-letter redrive"),
        "{junit}"
    );
    assert!(
        !junit.contains("<skipped") && !junit.contains("<failure"),
        "{junit}"
    );
    let md = fmt("markdown", &[]);
    assert!(
        md.contains(
            "| m.yaml:47:16 | *(allowed: redrive is manual and audited)* a dead-letter redrive"
        ),
        "{md}"
    );
    let table = fmt("table", &[]);
    assert!(table.contains("(allowed)"), "{table}");
    assert!(
        table.contains("allowed: redrive is manual and audited (until"),
        "{table}"
    );
    let human = fmt("human", &[]);
    assert!(
        human.contains("   = note: allowed: redrive is manual and audited (until 2027-03-31)\n"),
        "{human}"
    );
    let github = fmt("github", &[]);
    assert!(
        github.starts_with("::notice file=m.yaml,line=47,col=16,title=RH001 replay-outlives-dedup-window (allowed%3A redrive is manual and audited)::"),
        "{github}"
    );
    let whatif = manifest(
        LIVE,
        &[
            "what-if",
            "m.yaml",
            "--set",
            "payout-idempotency.retention=2h",
        ],
    );
    assert!(
        whatif.stdout.contains("  error   RH001 replay-outlives-dedup-window — seller-payout / payout-idempotency (allowed)\n"),
        "{}",
        whatif.stdout
    );
    assert_eq!(whatif.code, 0, "{}", whatif.stdout);
    let html = manifest(LIVE, &["report", "m.yaml", "--format", "html"]).stdout;
    assert!(
        html.contains("<span class=\"muted\">allowed:</span> redrive is manual and audited (until 2027-03-31, inline at m.yaml:44)"),
        "{html}"
    );
    let review = manifest(LIVE, &["report", "m.yaml", "--format", "markdown"]).stdout;
    assert!(
        review.contains("- **ASSUMED:** RH001 allowed: redrive is manual and audited (until 2027-03-31, inline at m.yaml:44)\n"),
        "{review}"
    );
}

/// The template with its Metadata allowance set to `code` and `reason`
/// (an empty reason: the `reason:` line left out), checked with `args`.
fn template(code: &str, reason: &str, today: &str, args: &[&str]) -> Run {
    let d = tempfile::tempdir().unwrap();
    let reason_line = |r: &str| format!("            reason: {r}\n");
    let text = TEMPLATE
        .replace("code: RH014", &format!("code: {code}"))
        .replace(
            &reason_line(DRAINED),
            &if reason.is_empty() {
                String::new()
            } else {
                reason_line(reason)
            },
        );
    std::fs::write(d.path().join("t.yaml"), text).unwrap();
    let out = assert_cmd::cargo::cargo_bin_cmd!("replay-audit")
        .args(args)
        .current_dir(d.path())
        .env("NO_COLOR", "1")
        .env("REPLAY_AUDIT_TODAY", today)
        .output()
        .unwrap();
    Run {
        code: out.status.code().unwrap(),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

const CONCISE_WARN: &[&str] = &[
    "check",
    "t.yaml",
    "--format",
    "concise",
    "--fail-on",
    "warning",
];
const RH014_CFN: &str = "t.yaml:25:1: warning[RH014]: dead-letter queue `payout-dlq` keeps messages 4d and `payout-requests` keeps them 4d: the move keeps the original enqueue time, so a message can expire from the dead-letter queue before anyone redrives it";
const DRAINED: &str = "drained within a day by the on-call runbook";

#[test]
fn a_cloudformation_metadata_allowance_covers_its_resource() {
    let r = template("RH014", DRAINED, "2026-12-01", CONCISE_WARN);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines[0], format!("{RH014_CFN} (allowed: {DRAINED})"));
    assert_eq!(lines[2], "0 error(s), 1 warning(s), 0 info, 1 waived");
    // RH044 (no intent) still fails at --fail-on warning; RH014 does not.
    assert!(lines[1].contains("warning[RH044]"), "{}", r.stdout);
    assert_eq!(r.code, 1);
    let j = template(
        "RH014",
        DRAINED,
        "2026-12-01",
        &["check", "t.yaml", "--format", "json"],
    );
    let v: Value = serde_json::from_str(&j.stdout).unwrap();
    assert_eq!(
        v["findings"][0]["waived"]["inline"],
        json!({"file": "t.yaml", "line": 21, "column": 1})
    );
}

#[test]
fn an_expired_cloudformation_allowance_fails_again() {
    let r = template("RH014", DRAINED, "2027-04-01", CONCISE_WARN);
    assert_eq!(
        r.stdout.lines().next().unwrap(),
        format!("{RH014_CFN} (inline allowance expired on 2027-03-31: {DRAINED}, at t.yaml:21:1)")
    );
    assert!(
        r.stdout.contains("0 error(s), 2 warning(s), 0 info\n"),
        "{}",
        r.stdout
    );
}

#[test]
fn an_unused_cloudformation_allowance_is_reported_at_its_template_line() {
    let r = template("RH001", DRAINED, "2026-12-01", CONCISE_WARN);
    assert!(
        r.stderr.contains("warning: t.yaml:21:1: inline allowance for RH001 component=payout-dlq covers no finding; remove it, or fix its code or place\n"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_cloudformation_allowance_without_a_reason_is_an_input_error() {
    let r = template("RH014", "", "2026-12-01", CONCISE_WARN);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("error: inline allowance without a reason (at t.yaml:21:1)\nhelp: say why the finding is accepted after ` -- `"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_comment_above_a_terraform_resource_covers_it() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("main.tf"), TERRAFORM).unwrap();
    let r = run(d.path(), &["check", "main.tf", "--format", "concise"]);
    assert_eq!(r.code, 0);
    assert_eq!(
        r.stdout.lines().next().unwrap(),
        "main.tf:21:1: warning[RH014]: dead-letter queue `payout-dlq` keeps messages 4d and `payout-requests` keeps them 4d: the move keeps the original enqueue time, so a message can expire from the dead-letter queue before anyone redrives it (allowed: drained within a day by the on-call runbook)"
    );
    let j = run(d.path(), &["check", "main.tf", "--format", "json"]);
    let v: Value = serde_json::from_str(&j.stdout).unwrap();
    assert_eq!(
        v["findings"][0]["waived"]["inline"],
        json!({"file": "main.tf", "line": 18, "column": 1})
    );
    // The same comment with a reason left out: exit 2 at the comment's line.
    let text = TERRAFORM.replace(" -- drained within a day by the on-call runbook", "");
    std::fs::write(d.path().join("main.tf"), text).unwrap();
    let r = run(d.path(), &["check", "main.tf"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("error: inline allowance without a reason (at main.tf:18:1)\n"),
        "{}",
        r.stderr
    );
}
