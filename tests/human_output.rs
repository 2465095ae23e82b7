//! `check --format human` (rustc-style diagnostics), `--format concise`
//! (one line per finding) and the table fitted to `COLUMNS`: exact output
//! of the fixtures (snapshots in `tests/snapshots/`), colour only when
//! asked, and manifest text that reaches the terminal inert.

use std::path::Path;

use assert_cmd::Command;

#[path = "common/output_safety.rs"]
mod output_safety;
use output_safety::{Text, dir_with, manifest, outcome};

/// The payment manifest with a replay name that would clear the screen
/// and reorder text (YAML escapes: `\e` is ESC).
fn evil() -> String {
    manifest(Text {
        name: None,
        description: None,
        key_field: "id",
        fingerprint: None,
        replay: r"replay \e[2J \u202eevil",
        service: None,
    })
}

/// `replay-audit ARGS` in `dir` with `env`: exit code, stdout, stderr.
fn run_in(dir: &Path, env: &[(&str, &str)], args: &[&str]) -> (Option<i32>, String, String) {
    let mut cmd = Command::cargo_bin("replay-audit").unwrap();
    cmd.current_dir(dir)
        .env_remove("NO_COLOR")
        .env_remove("COLUMNS")
        .env("REPLAY_AUDIT_TODAY", "2026-12-01");
    for (k, v) in env {
        cmd.env(k, v);
    }
    outcome(cmd.args(args))
}

fn run(env: &[(&str, &str)], args: &[&str]) -> (Option<i32>, String, String) {
    run_in(Path::new(env!("CARGO_MANIFEST_DIR")), env, args)
}

/// stdout of a run that finds an error (exit 1) and says nothing on stderr.
fn failing(env: &[(&str, &str)], args: &[&str]) -> String {
    let (code, out, err) = run(env, args);
    assert_eq!(code, Some(1), "{args:?}: {err}");
    assert!(err.is_empty(), "{args:?}: {err}");
    out
}

#[test]
fn human_payouts_snapshot_at_80_and_200_columns() {
    let args = ["check", "examples/payouts.yaml", "--format", "human"];
    let narrow = failing(&[("COLUMNS", "80")], &args);
    insta::assert_snapshot!("human_payouts_80", narrow);
    // Words are never cut: every text line fits 80 columns except the
    // source line the renderer keeps whole around its long underline.
    for line in narrow.lines() {
        let quoted = line.starts_with("19 |") || line.trim_start().starts_with("| ");
        assert!(quoted || line.chars().count() <= 80, "{line}");
    }
    assert!(
        narrow.contains(
            "error[RH001]: a dead-letter redrive can reach `bank-rail` 15h 25m after the\n\
         \x20             intent, but `payout-idempotency` forgets the key after 1h\n"
        ),
        "{narrow}"
    );
    let wide = failing(&[("COLUMNS", "200")], &args);
    insta::assert_snapshot!("human_payouts_200", wide);
    assert!(wide.contains(
        "error[RH001]: a dead-letter redrive can reach `bank-rail` 15h 25m after the intent, but `payout-idempotency` forgets the key after 1h (powertools-idempotency default, F040): the copy looks new and the\n\
         \x20             effect happens twice\n"
    ), "{wide}");
}

#[test]
fn human_groups_by_intent_and_puts_the_rest_last() {
    let out = failing(
        &[],
        &[
            "check",
            "fixtures/rules/RH050-fires.yaml",
            "--format",
            "human",
        ],
    );
    insta::assert_snapshot!("human_rh050_grouped", out);
    let heads: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("intent ") || l.starts_with("not tied"))
        .collect();
    assert_eq!(
        heads,
        [
            "intent `customer-refund`: 0 error(s), 0 warning(s), 1 info",
            "not tied to an intent: 2 error(s), 0 warning(s), 0 info"
        ]
    );
}

#[test]
fn human_carries_the_rule_the_place_the_arithmetic_and_the_fix() {
    let out = failing(
        &[],
        &["check", "examples/payouts.yaml", "--format", "pretty"],
    );
    let lines: Vec<&str> = out.lines().collect();
    // Grouped by intent: the group's counts first, the run's counts last.
    assert_eq!(
        lines[0],
        "intent `seller-payout`: 1 error(s), 0 warning(s), 2 info"
    );
    assert_eq!(
        lines[lines.len() - 2..],
        [
            "1 error(s), 0 warning(s), 2 info",
            "policy: no replay-audit.toml found; the defaults apply"
        ]
    );
    // The message is the title; the caret's label is the window.
    assert_eq!(
        lines[2..8],
        [
            "error[RH001]: a dead-letter redrive can reach `bank-rail` 15h 25m after the intent, but `payout-idempotency` forgets the key after 1h (powertools-idempotency",
            "              default, F040): the copy looks new and the effect happens twice",
            "  --> examples/payouts.yaml:50:11",
            "   |",
            "50 |     kind: powertools-idempotency",
            "   |           ^^^^^^^^^^^^^^^^^^^^^^ window 1h",
        ]
    );
    // 45m dead_letter: max_backlog 30m + 3 × visibility 5m (F002, F007); 14h the
    // declared redrive; 40m again on the way back to the worker. Window 1h
    // is the powertools default (F040); margin 10 % of 15h 25m = 1h 32m 30s.
    assert!(out.contains(
        "   = path: settlement-scheduler → payout-requests → payout-dlq → payout-requests → payout-worker → bank-rail\n\
         \x20  = note: horizon 15h 25m = 45m dead_letter + 14h redrive + 40m delivers_to > window 1h\n"
    ), "{out}");
    assert!(out.contains(
        "   = help: set `payout-idempotency.retention` to at least 16h 57m 30s (the latest copy 15h 25m after its first sighting + margin 1h 32m 30s)\n"
    ), "{out}");
    assert!(
        out.contains(
            "info[RH040]: `seller-payout` has not been tested for: expired-key, dlq-redrive\n"
        ),
        "{out}"
    );
    assert!(!out.contains('\x1b'), "{out}");
}

#[test]
fn human_help_follows_the_policy_margin() {
    let d = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/payouts.yaml"),
    )
    .unwrap();
    std::fs::write(d.path().join("m.yaml"), text).unwrap();
    std::fs::write(
        d.path().join("replay-audit.toml"),
        "[margin]\npercent = 50\nminimum = \"5m\"\n",
    )
    .unwrap();
    let (code, out, err) = run_in(d.path(), &[], &["check", "m.yaml", "--format", "human"]);
    assert_eq!(code, Some(1), "{err}");
    // 50 % of 15h 25m is 7h 42m 30s: 15h 25m + 7h 42m 30s = 23h 7m 30s.
    assert!(
        out.contains("to at least 23h 7m 30s (the latest copy 15h 25m after its first sighting + margin 7h 42m 30s)"),
        "{out}"
    );
}

#[test]
fn concise_is_one_line_per_finding() {
    let out = failing(
        &[],
        &["check", "examples/payouts.yaml", "--format", "concise"],
    );
    insta::assert_snapshot!("concise_payouts", out);
    let lines: Vec<&str> = out.lines().collect();
    // Three findings, the counts, the policy.
    assert_eq!(lines.len(), 5, "{out}");
    assert!(
        lines[0].starts_with(
            "examples/payouts.yaml:50:11: error[RH001]: a dead-letter redrive can reach `bank-rail` 15h 25m"
        ),
        "{out}"
    );
    assert!(
        lines[1].starts_with("examples/payouts.yaml:11:3: info[RH005]: "),
        "{out}"
    );
    assert!(
        lines[2].starts_with("examples/payouts.yaml:19:13: info[RH040]: "),
        "{out}"
    );
}

#[test]
fn a_passing_manifest_exits_0_with_its_info_finding() {
    for format in ["human", "concise"] {
        let (code, out, err) = run(
            &[],
            &["check", "fixtures/sound-payouts.yaml", "--format", format],
        );
        assert_eq!(code, Some(0), "{format}: {err}");
        assert!(
            out.ends_with("\n0 error(s), 0 warning(s), 1 info\npolicy: no replay-audit.toml found; the defaults apply\n"),
            "{format}: {out}"
        );
        assert!(out.contains("RH005"), "{format}: {out}");
    }
}

#[test]
fn table_fits_columns_and_keeps_places_whole() {
    let out = failing(&[("COLUMNS", "80")], &["check", "examples/payouts.yaml"]);
    insta::assert_snapshot!("table_payouts_80", out);
    for line in out.lines() {
        assert!(line.chars().count() <= 80, "{line}");
    }
    for place in [
        "examples/payouts.yaml:50:11",
        "examples/payouts.yaml:11:3",
        "examples/payouts.yaml:19:13",
    ] {
        assert!(out.contains(place), "{place} split: {out}");
    }
    // Without COLUMNS and off a terminal, the table keeps its 160 columns.
    let wide = failing(&[], &["check", "examples/payouts.yaml"]);
    assert!(
        wide.lines().next().unwrap().chars().count() == 160,
        "{wide}"
    );
    assert!(wide.contains("examples/payouts.yaml:50:11"), "{wide}");
}

#[test]
fn colour_only_when_asked_and_never_from_the_manifest() {
    let d = dir_with("m.yaml", &evil());
    for format in ["human", "concise"] {
        let (code, out, err) = run_in(d.path(), &[], &["check", "m.yaml", "--format", format]);
        assert_eq!(code, Some(1), "{format}: {err}");
        assert!(!out.contains('\x1b'), "{format}: {out}");
        assert!(out.contains("␛[2J"), "{format}: {out}");
        assert!(!out.contains('\u{202e}'), "{format}: {out}");
    }
    let (_, out, _) = run_in(
        d.path(),
        &[],
        &["check", "m.yaml", "--format", "human", "--color", "always"],
    );
    assert!(out.contains("\x1b["), "styled: {out}");
    assert!(!out.contains("\x1b[2J"), "{out}");
    // NO_COLOR with the automatic choice: plain text.
    let (_, out, _) = run_in(
        d.path(),
        &[("NO_COLOR", "1")],
        &["check", "m.yaml", "--format", "human"],
    );
    assert!(!out.contains('\x1b'), "{out}");
}

#[test]
fn each_refuses_the_formats_of_one_run() {
    let d = tempfile::tempdir().unwrap();
    std::fs::create_dir(d.path().join("payouts")).unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/payouts.yaml"),
        d.path().join("payouts/m.yaml"),
    )
    .unwrap();
    for args in [
        &["check", "--each", ".", "--format", "human"][..],
        &["check", "--each", ".", "--format", "concise"],
        &["check", "--each", ".", "-o", "concise=out.txt"],
    ] {
        let (code, out, err) = run_in(d.path(), &[], args);
        assert_eq!(code, Some(2), "{args:?}: {out}");
        assert!(out.is_empty(), "{args:?}: {out}");
        let name = if args.contains(&"human") {
            "human"
        } else {
            "concise"
        };
        assert_eq!(
            err,
            format!(
                "error: `check --each` cannot write `{name}`: its lines belong to one architecture\nhelp: use `--format table` (the default with `--each`), `json`, `sarif`, `junit`, `github`, `gitlab` or `markdown`; or `check` one architecture for `{name}`\n"
            ),
            "{args:?}"
        );
    }
    assert!(!d.path().join("out.txt").exists());
    // The table is what `--each` writes by default.
    let (code, out, _) = run_in(d.path(), &[], &["check", "--each", "."]);
    assert_eq!(code, Some(1));
    assert!(out.starts_with("== ./payouts ==\n"), "{out}");
}

/// `rules` and `catalog` (list and one kind) fit 80 columns: every line
/// but an unbreakable address (a source's URL) is at most 80 characters.
#[test]
fn rules_and_catalog_fit_80_columns() {
    for args in [&["rules"][..], &["catalog"], &["catalog", "sqs-standard"]] {
        let (code, out, err) = run(&[("COLUMNS", "80")], args);
        assert_eq!(code, Some(0), "{args:?}: {err}");
        assert!(out.lines().count() > 10, "{args:?}: {out}");
        for line in out.lines() {
            let url = line.trim_start().starts_with("https://");
            assert!(url || line.chars().count() <= 80, "{args:?}: {line}");
        }
    }
}
