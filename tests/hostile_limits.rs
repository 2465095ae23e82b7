//! Hostile sizes for waivers, the shell's history and the YAML parser's
//! limits (issue #14, items 12 and 13). No timing assertions: each case has
//! to finish and be exactly right.

use std::fmt::Write as _;
use std::path::Path;

use assert_cmd::Command;
use replay_audit::policy::{Date, Policy};
use replay_audit::rules::Finding;

fn cmd(dir: &Path) -> Command {
    let mut c = Command::cargo_bin("replay-audit").unwrap();
    c.current_dir(dir)
        .env_remove("NO_COLOR")
        .env("XDG_STATE_HOME", "/nonexistent/replay-audit-test");
    c
}

/// `check FILE` on `text` in a fresh folder: exit code and stderr.
fn check(name: &str, text: &str) -> (i32, String) {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join(name), text).unwrap();
    let out = cmd(d.path()).args(["check", name]).output().unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

// ---- waivers -----------------------------------------------------------

fn finding(code: &str, intent: Option<String>, component: Option<String>) -> Finding {
    let mut f = Finding::new(code, "m");
    f.intent = intent.map(Into::into);
    f.component = component.map(Into::into);
    f
}

fn waiver(s: &mut String, code: &str, intent: Option<&str>, component: Option<&str>, n: usize) {
    let _ = writeln!(s, "[[waiver]]\ncode = \"{code}\"\nreason = \"r{n}\"");
    if let Some(i) = intent {
        let _ = writeln!(s, "intent = \"{i}\"");
    }
    if let Some(c) = component {
        let _ = writeln!(s, "component = \"{c}\"");
    }
    if n % 7 == 3 {
        let _ = writeln!(s, "expires = 2020-01-01");
    }
}

/// What applying the policy gave: per finding the reason of the waiver that
/// marks it (or the message when none does), and the unused waivers' reasons.
fn outcome(p: &Policy, findings: Vec<Finding>) -> (Vec<String>, Vec<String>) {
    let today = Date::parse("2026-01-01").unwrap();
    let (out, unused) = p.apply(findings, today);
    (
        out.iter()
            .map(|f| {
                f.waived
                    .as_ref()
                    .map_or(f.message.clone(), |w| w.reason.clone())
            })
            .collect(),
        unused.into_iter().map(|u| u.reason).collect(),
    )
}

/// The matching rule as it stood before the index: every waiver in order.
fn reference(p: &Policy, findings: &[Finding]) -> (Vec<String>, Vec<String>) {
    let today = Date::parse("2026-01-01").unwrap();
    let mut used = vec![false; p.waivers.len()];
    let mut out = Vec::new();
    for f in findings {
        let (mut live, mut expired) = (None, None);
        for (i, w) in p.waivers.iter().enumerate() {
            if w.matches(f) {
                used[i] = true;
                if w.expired(today) {
                    expired.get_or_insert(w);
                } else {
                    live.get_or_insert(w);
                }
            }
        }
        out.push(match (live, expired) {
            (Some(w), _) => w.reason.clone(),
            (None, Some(w)) => format!("m (waiver expired on 2020-01-01: {})", w.reason),
            (None, None) => "m".into(),
        });
    }
    let unused = p
        .waivers
        .iter()
        .zip(used)
        .filter(|(_, u)| !u)
        .map(|(w, _)| w.reason.clone())
        .collect();
    (out, unused)
}

#[test]
fn the_waiver_index_matches_exactly_what_a_scan_of_every_waiver_matches() {
    // Literal ids, prefixes, `?`, a leading `*`, component-only, code-only,
    // expired waivers and waivers of other codes, over findings with and
    // without an intent or component.
    let pats: &[(Option<&str>, Option<&str>)] = &[
        (Some("i-1"), None),
        (Some("i-1*"), None),
        (Some("i-?2"), Some("c-*")),
        (Some("*3"), None),
        (None, Some("c-4")),
        (None, Some("c-1?")),
        (None, None),
        (Some("i-é*"), None),
        (Some("*"), Some("*5")),
    ];
    let mut text = String::new();
    let mut n = 0;
    for code in ["RH001", "RH004"] {
        for (i, c) in pats {
            waiver(&mut text, code, *i, *c, n);
            n += 1;
        }
    }
    let p = Policy::parse("replay-audit.toml", &text).unwrap();
    let mut findings = Vec::new();
    for k in 0..60 {
        let intent = (k % 5 != 0).then(|| format!("i-{k}"));
        let component = (k % 3 != 0).then(|| format!("c-{}", k / 2));
        findings.push(finding(
            if k % 2 == 0 { "RH001" } else { "RH004" },
            intent,
            component,
        ));
    }
    findings.push(finding("RH001", Some("i-é1".into()), None));
    findings.push(finding("RH002", Some("i-1".into()), Some("c-4".into())));
    assert_eq!(outcome(&p, findings.clone()), reference(&p, &findings));
}

#[test]
fn twenty_thousand_waivers_give_exactly_the_right_waived_and_unused() {
    // 20,000 waivers: the even ones name the intent of one finding each, the
    // odd ones an intent no finding has. 10,000 findings, one per even
    // waiver; every seventh waiver has expired.
    let n = 20_000;
    let mut text = String::new();
    for k in 0..n {
        let intent = if k % 2 == 0 {
            format!("pay-{k}")
        } else {
            format!("none-{k}")
        };
        waiver(&mut text, "RH001", Some(&intent), None, k);
    }
    let p = Policy::parse("replay-audit.toml", &text).unwrap();
    let findings: Vec<Finding> = (0..n)
        .step_by(2)
        .map(|k| finding("RH001", Some(format!("pay-{k}")), Some("store".into())))
        .collect();
    let (marked, unused) = outcome(&p, findings);
    let expected: Vec<String> = (0..n)
        .step_by(2)
        .map(|k| {
            if k % 7 == 3 {
                format!("m (waiver expired on 2020-01-01: r{k})")
            } else {
                format!("r{k}")
            }
        })
        .collect();
    assert_eq!(marked, expected);
    let expected_unused: Vec<String> = (1..n).step_by(2).map(|k| format!("r{k}")).collect();
    assert_eq!(unused, expected_unused);
}

// ---- shell history -------------------------------------------------------

#[test]
fn five_thousand_sets_complete_and_undo_and_changes_stay_right() {
    let fixture = std::fs::canonicalize("tests/data/whatif-incident.yaml").unwrap();
    let mut input = String::new();
    for i in 0..5_000 {
        let _ = writeln!(input, "set payout-idempotency.retention={}h", i % 40 + 1);
        if i % 3 == 0 {
            let _ = writeln!(input, "set payout-dlq.retention={}d", i % 13 + 1);
        }
    }
    // The last sets: retention 40h (i = 4999), DLQ 1d (i = 4998 → 4998 % 13 + 1).
    input.push_str("changes\nundo\nchanges\nundo\nchanges\nredo\nredo\nchanges\nredo\n");
    let d = tempfile::tempdir().unwrap();
    let out = cmd(d.path())
        .arg("shell")
        .arg(&fixture)
        .write_stdin(input)
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr, "error: nothing to redo\n");
    assert_eq!(out.status.code(), Some(2));
    let listed: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("  ") || l.starts_with("undo:") || l.starts_with("redo:"))
        .collect();
    let dlq = 4998 % 13 + 1;
    let now = [
        "  payout-idempotency.retention: (not set: 1h, powertools-idempotency default, F040) → 40h"
            .to_string(),
        format!("  payout-dlq.retention: 14d → {dlq}d"),
    ];
    // Undoing the last set (retention 40h) leaves retention at 39h (i = 4998).
    let after_undo = [
        "  payout-idempotency.retention: (not set: 1h, powertools-idempotency default, F040) → 39h"
            .to_string(),
        format!("  payout-dlq.retention: 14d → {dlq}d"),
    ];
    // Undoing the DLQ set of i = 4998 leaves the DLQ set of i = 4995.
    let after_two = [
        "  payout-idempotency.retention: (not set: 1h, powertools-idempotency default, F040) → 39h"
            .to_string(),
        format!("  payout-dlq.retention: 14d → {}d", 4995 % 13 + 1),
    ];
    let mut expected: Vec<String> = Vec::new();
    expected.extend(now.iter().cloned());
    expected.push("undo: 2 change(s) now".into());
    expected.extend(after_undo.iter().cloned());
    expected.push("undo: 2 change(s) now".into());
    expected.extend(after_two.iter().cloned());
    expected.push("redo: 2 change(s) now".into());
    expected.push("redo: 2 change(s) now".into());
    expected.extend(now.iter().cloned());
    let tail: Vec<&str> = listed[listed.len() - expected.len()..].to_vec();
    assert_eq!(tail, expected);
}

// ---- parser limits -------------------------------------------------------

#[test]
fn an_honest_manifest_with_20000_merge_keys_and_60000_aliases_loads() {
    // One anchored component; 20,000 more merge it (`<<: *base`, an alias
    // too) and alias two of its values: 20,000 merge keys, 60,000 aliases.
    let mut text = String::from(
        "version: 1\ncomponents:\n  base:\n    <<: &base { kind: function }\n    timeout: &t 60s\n    description: &d shared worker\n",
    );
    for i in 0..20_000 {
        let _ = write!(
            text,
            "  worker-{i}:\n    <<: *base\n    timeout: *t\n    description: *d\n"
        );
    }
    let (code, stderr) = check("big.yaml", &text);
    assert_eq!(stderr, "");
    assert_eq!(code, 0);
}

#[test]
fn too_many_aliases_are_refused_with_the_limit_and_the_count() {
    let text = format!(
        "version: 1\nx: &a 1\ny: [{}]\n",
        vec!["*a"; 120_000].join(",")
    );
    let (code, stderr) = check("aliases.yaml", &text);
    assert_eq!(code, 2);
    let first = stderr.lines().next().unwrap();
    assert_eq!(
        first,
        "error: invalid YAML: the document has more than 95003 aliases (`*name`) (95004 reached), the limit for a file of 360024 bytes"
    );
    assert!(stderr.ends_with("help: the limit is 50000 plus one alias per 8 bytes of the file; write the values out instead of aliasing them, or split the manifest into several files (each file has its own limit)\n\nerror: could not analyse the manifest: 1 error\n"), "{stderr}");
}

#[test]
fn too_many_merge_keys_are_refused_with_the_limit_and_the_count() {
    let text = format!(
        "version: 1\nb: &b {{k: 1}}\nm:\n{}",
        "- {<<: *b}\n".repeat(40_000)
    );
    let (code, stderr) = check("merge.yaml", &text);
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        "error: invalid YAML: the document has more than 37501 merge keys (`<<`) (37502 reached), the limit for a file of 440027 bytes
     --> merge.yaml:37505:4
      |
37505 | - {<<: *b}
      |    ^^
      |
help: the limit is 10000 plus one merge key per 16 bytes of the file; write the merged values out, or split the manifest into several files (each file has its own limit)

error: could not analyse the manifest: 1 error
"
    );
}

#[test]
fn scalar_text_over_the_budget_is_refused_without_parser_names() {
    let text = format!(
        "version: 1\nx: &a \"{}\"\nz: [{}]\n",
        "y".repeat(40_000),
        ["*a"; 10].join(",")
    );
    let (code, stderr) = check("scalar.yaml", &text);
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        "error: invalid YAML: the document's values add up to more than 145646 bytes of text (160010 reached), the limit for a file of 40055 bytes
 --> scalar.yaml:3:11
  |
3 | z: [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]
  |           ^^
  |
help: the limit is twice the file's size plus 65536 bytes, which only aliases of long values pass; write those values out instead of repeating them through aliases

error: could not analyse the manifest: 1 error
"
    );
}

#[test]
fn binary_tags_are_read_as_written_never_decoded() {
    // `c3FzLXN0YW5kYXJk` is base64 for `sqs-standard`: the kind stays the
    // text a reviewer sees. Text that is not base64 or not UTF-8 once
    // decoded no longer reaches serde-saphyr's advice about its options.
    for value in ["c3FzLXN0YW5kYXJk", "/w==", "\"@@@\""] {
        let text = format!("version: 1\ncomponents:\n  q:\n    kind: !!binary {value}\n");
        let (code, stderr) = check("binary.yaml", &text);
        let shown = value.trim_matches('"');
        let caret = "^".repeat(value.len());
        assert_eq!(code, 2);
        assert_eq!(
            stderr,
            format!(
                "error: components.q.kind: unknown kind `{shown}`
 --> binary.yaml:4:20
  |
4 |     kind: !!binary {value}
  |                    {caret} not in the catalog
  |
help: use a generic kind (service, function, workflow, queue, topic, stream, store, ledger, external) or one listed by `replay-audit catalog`

error: could not analyse the manifest: 1 error
"
            )
        );
    }
}

#[test]
fn depth_nodes_and_unknown_anchors_name_the_limit() {
    let deep = format!("version: 1\nx:\n  {}x\n", "- ".repeat(60));
    let (code, stderr) = check("deep.yaml", &deep);
    assert_eq!(code, 2);
    assert!(stderr.starts_with("error: invalid YAML: the document is nested more than 48 levels deep (49 reached)\n --> deep.yaml:3:97\n"), "{stderr}");
    assert!(stderr.ends_with("help: a manifest needs fewer than 10 levels of nesting; the limit is fixed\n\nerror: could not analyse the manifest: 1 error\n"), "{stderr}");

    let mut bomb = String::from("version: 1\na: &a [x,x,x,x,x,x,x,x,x]\n");
    for (prev, name) in "abcdefg".chars().zip("bcdefgh".chars()) {
        let _ = writeln!(
            bomb,
            "{name}: &{name} [{}]",
            vec![format!("*{prev}"); 9].join(",")
        );
    }
    let (code, stderr) = check("bomb.yaml", &bomb);
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        "error: invalid YAML: the document has more than 65818 nodes (65819 reached), the limit for a file of 282 bytes (an alias bomb?)
 --> bomb.yaml:6:29
  |
6 | e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
  |                             ^^
  |
help: the limit is 65536 plus one node per byte of the file; write the values out instead of nesting aliases of aliases

error: could not analyse the manifest: 1 error
"
    );

    let (code, stderr) = check(
        "anchor.yaml",
        "version: 1\ncomponents:\n  q:\n    kind: *nope\n",
    );
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        "error: invalid YAML: this alias names no anchor defined before it
 --> anchor.yaml:4:11
  |
4 |     kind: *nope
  |           ^^^^^
  |
help: define the anchor (`&name`) before the first alias (`*name`) that uses it

error: could not analyse the manifest: 1 error
"
    );
}
