//! The small answers a new user meets (#39 item 3): each states what is
//! wrong and what to do, at the place to change, and says nothing that
//! misleads.

use std::path::Path;

use assert_cmd::Command;

const PAYOUTS: &str = include_str!("../examples/payouts.yaml");

fn run(dir: &Path, args: &[&str], stdin: Option<&str>) -> (Option<i32>, String, String) {
    let mut c = Command::new(env!("CARGO_BIN_EXE_replay-audit"));
    c.current_dir(dir).env_remove("COLUMNS").args(args);
    if let Some(s) = stdin {
        c.write_stdin(s);
    }
    let o = c.output().unwrap();
    (
        o.status.code(),
        String::from_utf8(o.stdout).unwrap(),
        String::from_utf8(o.stderr).unwrap(),
    )
}

fn dir_with(files: &[(&str, &str)]) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    for (name, text) in files {
        let p = d.path().join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    d
}

/// `max_backlog: 30m` of payout-requests replaced by `value`.
fn backlog(value: &str) -> String {
    let text = PAYOUTS.replacen("max_backlog: 30m", &format!("max_backlog: {value}"), 1);
    assert_ne!(text, PAYOUTS);
    text
}

#[test]
fn a_month_or_minute_unit_is_refused_as_ambiguous() {
    let d = dir_with(&[("m.yaml", &backlog("1M"))]);
    let (code, _, err) = run(d.path(), &["check", "m.yaml"], None);
    assert_eq!(code, Some(2));
    assert!(err.starts_with("error: `components.payout-requests.max_backlog`: `1M` is ambiguous: `M` reads as minutes in some tools and months in others; write `m` or `min` for minutes, `d` for days\n  --> m.yaml:29:18\n"), "{err}");
}

#[test]
fn a_duration_error_names_the_character_not_the_parser() {
    let d = dir_with(&[("m.yaml", &backlog("30 minutes!"))]);
    let (code, _, err) = run(d.path(), &["check", "m.yaml"], None);
    assert_eq!(code, Some(2));
    let first = err.lines().next().unwrap();
    assert_eq!(
        first,
        "error: `components.payout-requests.max_backlog`: `30 minutes!` is not a duration: `!` (character 11) is not a number or a unit; write e.g. `30s`, `5m`, `1h 30m`, `4d`, a number of seconds, or `unbounded`"
    );
    assert!(!err.contains("expected number at"), "{err}");
}

#[test]
fn an_unclosed_bracket_is_reported_where_it_opens() {
    let text = PAYOUTS.replacen(
        "tested: [timeout-before-effect, timeout-after-effect, lost-ack, concurrent-retry]",
        "tested: [timeout-before-effect, timeout-after-effect,\n      lost-ack, concurrent-retry",
        1,
    );
    assert_ne!(text, PAYOUTS);
    let d = dir_with(&[("m.yaml", &text)]);
    let (code, _, err) = run(d.path(), &["check", "m.yaml"], None);
    assert_eq!(code, Some(2));
    assert!(
        err.starts_with("error: invalid YAML: this `[` is never closed\n  --> m.yaml:19:13\n"),
        "{err}"
    );
    assert!(
        err.contains(
            "help: close it with `]` where the list or mapping ends (the parser stopped at line 22"
        ),
        "{err}"
    );
}

#[test]
fn a_folder_without_manifests_is_named_with_the_patterns() {
    let d = dir_with(&[("infra/readme.txt", "not a manifest")]);
    let (code, _, err) = run(d.path(), &["check", "infra"], None);
    assert_eq!(code, Some(2));
    assert!(err.starts_with("error: no manifest files found in `infra`\nhelp: a folder is read for manifests (*.yaml, *.yml: a top-level `version` with `components`, `intents` or `regions`) and Terraform (*.tf, *.tf.json, terraform.tfvars, *.auto.tfvars) below it"), "{err}");
}

#[test]
fn the_folder_scan_leaves_git_out_unsaid_and_counts_other_hidden_folders() {
    let d = dir_with(&[
        ("arch/m.yaml", PAYOUTS),
        (".git/HEAD", "ref: refs/heads/main\n"),
        (".git/x.yaml", "a: 1\n"),
    ]);
    std::fs::rename(d.path().join(".git"), d.path().join("arch/.git")).unwrap();
    let (code, _, err) = run(d.path(), &["check", "arch"], None);
    assert_eq!(code, Some(1));
    assert_eq!(err, "");
    std::fs::create_dir(d.path().join("arch/.github")).unwrap();
    let (_, _, err) = run(d.path(), &["check", "arch"], None);
    assert_eq!(
        err,
        "note: the folder scan skipped 1 hidden folder(s); name a file on the command line to read it anyway\n"
    );
}

#[test]
fn many_ids_defined_in_two_files_suggest_check_each() {
    let d = dir_with(&[("org/a/m.yaml", PAYOUTS), ("org/b/m.yaml", PAYOUTS)]);
    let (code, _, err) = run(d.path(), &["check", "org"], None);
    assert_eq!(code, Some(2));
    // 1 intent + 6 components defined again in org/b/m.yaml.
    assert_eq!(err.matches("is defined twice").count(), 7, "{err}");
    assert_eq!(
        err.matches("help: 7 ids are defined in more than one file, and every file given to `check` is part of one architecture: if the folders hold separate architectures, check each on its own with `replay-audit check --each DIR`; else rename one of each pair").count(),
        7,
        "{err}"
    );
    // One clash stays a rename.
    let one = PAYOUTS.replacen("name: payouts", "name: other", 1);
    let other = "version: 1\ncomponents:\n  bank-rail: { kind: external }\n";
    let d = dir_with(&[("a.yaml", &one), ("b.yaml", other)]);
    let (_, _, err) = run(d.path(), &["check", "a.yaml", "b.yaml"], None);
    assert!(
        err.contains(
            "help: intents, components and regions share one namespace across all files: rename one"
        ),
        "{err}"
    );
}

/// 2m visibility against a 5m processing time; 5m against 6 × the 1m
/// function timeout (F073).
#[test]
fn rh015_states_the_comparison_it_makes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (_, out, _) = run(
        root,
        &[
            "check",
            "fixtures/rules/RH015-fires.yaml",
            "--format",
            "concise",
        ],
        None,
    );
    assert!(out.starts_with("fixtures/rules/RH015-fires.yaml:27:25: warning[RH015]: `refund-requests` hides a received message for 2m, less than the 5m `refund-worker` may take to process it: another consumer receives it while the first still works on it\n"), "{out}");
    let (_, out, _) = run(
        root,
        &[
            "check",
            "fixtures/rules/RH015-fires-lambda-six-times.yaml",
            "--format",
            "concise",
        ],
        None,
    );
    assert!(out.starts_with("fixtures/rules/RH015-fires-lambda-six-times.yaml:11:53: warning[RH015]: `orders` hides a received message for 5m, less than 6 × the 1m timeout of `worker` (6m): AWS asks for at least six times the function timeout (F073)"), "{out}");
}

/// Two stores too short for the 15h 25m horizon of examples/payouts.yaml
/// (45m dead_letter + 14h redrive + 40m delivers_to): `payout-idempotency`
/// (1h, F040) and its guard forget the key first; a second consumer's
/// `audit-keys` (2h, declared) only too soon.
#[test]
fn horizon_marks_only_the_layer_that_forgets_first() {
    let text = PAYOUTS.replacen(
        "delivers_to: payout-worker",
        "delivers_to: [payout-worker, audit-worker]",
        1,
    ) + "\n  audit-worker:\n    kind: function\n    timeout: 60s\n    dedup: { store: audit-keys, claim: conditional-write }\n    effects: [bank-rail]\n\n  audit-keys:\n    kind: dynamodb-table\n    retention: 2h\n";
    assert!(text.contains("[payout-worker, audit-worker]"));
    let d = dir_with(&[("m.yaml", &text)]);
    let (code, out, err) = run(d.path(), &["horizon", "m.yaml"], None);
    assert_eq!(code, Some(0), "{err}");
    let marks: Vec<(String, String)> = out
        .lines()
        .filter_map(|l| l.split_once(" — "))
        .map(|(head, v)| {
            (
                head.trim_start().split(' ').next().unwrap().to_string(),
                v.to_string(),
            )
        })
        .collect();
    assert_eq!(
        marks,
        [
            ("audit-keys".to_string(), "EXPIRES TOO SOON".to_string()),
            ("audit-worker".to_string(), "EXPIRES TOO SOON".to_string()),
            ("bank-rail".to_string(), "no window".to_string()),
            (
                "payout-idempotency".to_string(),
                "EXPIRES FIRST".to_string()
            ),
            ("payout-worker".to_string(), "EXPIRES FIRST".to_string()),
        ],
        "{out}"
    );
}

#[test]
fn horizon_at_a_component_without_a_row_says_so() {
    let d = dir_with(&[("m.yaml", PAYOUTS)]);
    let (code, out, err) = run(
        d.path(),
        &["horizon", "m.yaml", "--at", "payout-requests"],
        None,
    );
    assert_eq!(code, Some(2));
    assert_eq!(out, "");
    assert_eq!(
        err,
        "error: `payout-requests` is not a guard, store, dedup window or effect that an intent reaches, so it has no horizon row\nhelp: `--at` takes one of: bank-rail, payout-idempotency, payout-worker\n"
    );
    let (code, out, _) = run(
        d.path(),
        &["horizon", "m.yaml", "--at", "payout-worker"],
        None,
    );
    assert_eq!(code, Some(0));
    assert!(
        out.starts_with("intent seller-payout\n  payout-worker (guard): "),
        "{out}"
    );
}

#[test]
fn init_names_its_file_in_the_header() {
    let d = tempfile::tempdir().unwrap();
    let (code, _, err) = run(d.path(), &["init", "-o", "orders.yaml"], None);
    assert_eq!(code, Some(0), "{err}");
    let text = std::fs::read_to_string(d.path().join("orders.yaml")).unwrap();
    assert!(
        text.contains("\n#   replay-audit check orders.yaml\n"),
        "{text}"
    );
    assert_eq!(
        err,
        "wrote orders.yaml; run `replay-audit check orders.yaml`\n"
    );
    let (code, _, err) = run(d.path(), &["init", "-o", "my arch.yaml"], None);
    assert_eq!(code, Some(0), "{err}");
    let text = std::fs::read_to_string(d.path().join("my arch.yaml")).unwrap();
    assert!(
        text.contains("\n#   replay-audit check 'my arch.yaml'\n"),
        "{text}"
    );
    // The written starter checks as the printed one does.
    let (code, _, _) = run(d.path(), &["check", "my arch.yaml"], None);
    assert_eq!(code, Some(0));
}

#[test]
fn man_out_dir_makes_the_folder() {
    let d = tempfile::tempdir().unwrap();
    let (code, _, err) = run(d.path(), &["man", "--out-dir", "share/man/man1"], None);
    assert_eq!(code, Some(0), "{err}");
    assert!(d.path().join("share/man/man1/replay-audit.1").is_file());
    assert!(
        d.path()
            .join("share/man/man1/replay-audit-check.1")
            .is_file()
    );
    // A file in the way is an error that names it.
    std::fs::write(d.path().join("taken"), "x").unwrap();
    let (code, _, err) = run(d.path(), &["man", "--out-dir", "taken/man1"], None);
    assert_eq!(code, Some(2));
    assert!(
        err.starts_with("error: cannot create the folder `taken/man1`: "),
        "{err}"
    );
}

/// On a terminal (a pseudo-terminal made by `script`), `quit` with unsaved
/// changes warns once and stays; the second `quit` leaves, exit 0.
#[test]
fn the_shell_warns_before_unsaved_changes_are_lost() {
    use std::io::Write;
    if std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("skipped: no `script` to make a terminal");
        return;
    }
    let d = dir_with(&[("m.yaml", PAYOUTS)]);
    let bin = env!("CARGO_BIN_EXE_replay-audit");
    let mut child = std::process::Command::new("script")
        .current_dir(d.path())
        .args(["-qec", &format!("{bin} shell m.yaml"), "/dev/null"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for line in ["set payout-idempotency.retention=20h\n", "quit\n", "quit\n"] {
        std::thread::sleep(std::time::Duration::from_millis(500));
        stdin.write_all(line.as_bytes()).unwrap();
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        text.matches("warning: 1 change(s) not saved: `save FILE` writes them as an overrides file; `quit` again leaves without saving").count(),
        1,
        "{text}"
    );
    // A script on a pipe does what it says: `quit` leaves at once.
    let (code, out, err) = run(
        d.path(),
        &["shell", "m.yaml"],
        Some("set payout-idempotency.retention=20h\nquit\ncheck\n"),
    );
    assert_eq!((code, err.as_str()), (Some(0), ""));
    assert!(
        out.ends_with("now: 0 error(s), 0 warning(s), 2 info\n"),
        "{out}"
    );
}

/// A guard that moves to another store: RH001 leaves `payout-idempotency`
/// (1h, F040) and reaches `short-keys` (30m): one `moved` line.
#[test]
fn the_shell_shows_a_finding_that_moved() {
    let text = format!("{PAYOUTS}\n  short-keys:\n    kind: dynamodb-table\n    retention: 30m\n");
    let d = dir_with(&[("m.yaml", &text)]);
    let (code, out, err) = run(
        d.path(),
        &["shell", "m.yaml"],
        Some("set payout-worker.dedup.store=short-keys\n"),
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("moved      RH001 replay-outlives-dedup-window seller-payout: from `payout-idempotency` to `short-keys` (horizon 15h 25m, window 30m)\n"), "{out}");
    assert!(!out.contains("resolved   error RH001"), "{out}");
}

#[test]
fn a_failing_checklist_answer_says_why() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (code, out, _) = run(
        root,
        &["report", "fixtures/incident-dlq-redrive.yaml"],
        None,
    );
    assert_eq!(code, Some(0));
    assert!(out.contains("No: a copy can arrive 15h 25m after the intent, later than a window on its way remembers the key. Why it fails: RH001: a dead-letter redrive can reach `bank-rail` 15h 25m after the intent, but `payout-idempotency` forgets the key after 1h (powertools-idempotency default, F040): the copy looks new and the effect happens twice.\n"), "{out}");
}
