//! The reference generated from the clap definitions: `docs/cli.md` is
//! up to date, the man pages are generated and name only pages that exist,
//! and the bash completion completes after the subcommand in a real bash.

use std::collections::BTreeSet;
use std::process::Command;

use assert_cmd::cargo::CommandCargoExt;
use replay_audit::cli::CompletionShell;
use replay_audit::manual::{self, completion, man};

#[test]
fn docs_cli_md_is_generated_from_the_clap_definitions() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/cli.md");
    let want = manual::markdown::render();
    let have = std::fs::read_to_string(path).unwrap_or_default();
    if have == want {
        return;
    }
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(path, &want).expect("write docs/cli.md");
        return;
    }
    panic!(
        "docs/cli.md is out of date with src/cli.rs: `UPDATE_DOCS=1 cargo test --test reference`"
    );
}

#[test]
fn docs_cli_md_names_every_command_option_and_exit_code() {
    let md = manual::markdown::render();
    for name in man::command_names() {
        assert!(
            md.contains(&format!("\n## {name}\n")),
            "no section for {name}"
        );
    }
    for opt in [
        "`--format FORMAT`",
        "`--fail-on FAIL_ON`",
        "`--write-baseline FILE`",
        "`--set TARGET=VALUE` (repeatable)",
        "`-o, --output FILE`",
        "`--required`",
        "`--max-file-size BYTES`",
        "`PATHS...`",
        "`--out-dir DIR`",
    ] {
        assert!(md.contains(opt), "docs/cli.md lacks {opt}");
    }
    assert!(md.contains(
        "| `--format FORMAT` | `table` (A table of the findings [the default when standard output is not a terminal]), `json`, `sarif` (SARIF 2.1.0 (GitHub code scanning, editors)), `junit` ("
    ));
    assert!(md.contains("`concise` (One line per finding, `file:line:col: severity[CODE]: message` (editors, quickfix lists)) |  | Output format [default: human on a terminal, else table; with --each, table (human and concise are refused)] |"));
    for code in ["| 0 |", "| 1 |", "| 2 |"] {
        assert!(md.contains(code), "no exit code row {code}");
    }
    assert!(md.contains("[cli-json.md](cli-json.md#check---format-json)"));
}

/// `name(1)` references in a roff page, hyphens unescaped.
fn references(roff: &str) -> BTreeSet<String> {
    let plain = roff
        .replace("\\-", "-")
        .replace("\\fB", "")
        .replace("\\fR", "");
    let mut refs = BTreeSet::new();
    for (i, _) in plain.match_indices("(1)") {
        let name: String = plain[..i]
            .chars()
            .rev()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect();
        refs.insert(name.chars().rev().collect());
    }
    refs
}

#[test]
fn man_pages_are_generated_for_every_command_and_name_only_pages_that_exist() {
    let pages = man::pages();
    let files: BTreeSet<String> = pages.iter().map(|p| p.file.clone()).collect();
    let mut want: BTreeSet<String> = man::command_names()
        .iter()
        .map(|c| format!("replay-audit-{c}.1"))
        .collect();
    want.insert("replay-audit.1".to_string());
    assert_eq!(files, want);
    assert!(files.contains("replay-audit-check.1"));
    for p in &pages {
        assert!(p.text.contains("\n.TH "), "{} has no title", p.file);
        let refs = references(&p.text);
        assert!(!refs.is_empty(), "{} names no other page", p.file);
        for r in refs {
            assert!(
                files.contains(&format!("{r}.1")),
                "{} names {r}(1), which is not generated",
                p.file
            );
        }
    }
}

#[test]
fn the_full_man_page_has_every_command_option_and_section() {
    let full = man::page(None).expect("full page").text;
    for section in [
        ".SH \"EXIT STATUS\"",
        ".SH \"ENVIRONMENT\"",
        ".SH \"FILES\"",
        ".SH COMMANDS",
    ] {
        assert!(full.contains(section), "no {section}");
    }
    for var in ["NO_COLOR", "REPLAY_AUDIT_TODAY", "RAYON_NUM_THREADS"] {
        assert!(
            full.contains(&format!("\\fB{var}\\fR")),
            "ENVIRONMENT lacks {var}"
        );
    }
    let cmd = manual::command();
    for sub in manual::subcommands(&cmd) {
        assert!(full.contains(&format!(".SS \"replay-audit {}\"", sub.get_name())));
        for long in sub.get_arguments().filter_map(|a| a.get_long()) {
            let roff = format!("\\-\\-{}", long.replace('-', "\\-"));
            assert!(
                full.contains(&roff),
                "full page lacks {} --{long}",
                sub.get_name()
            );
        }
    }
    let check = man::page(Some("check")).expect("check page").text;
    assert!(check.contains("\n.TH replay-audit-check 1 "), "{check}");
    assert!(check.contains("\\-\\-write\\-baseline") && check.contains(".SH \"EXIT STATUS\""));
    assert!(man::page(Some("nope")).is_none());
}

#[test]
fn man_renders_with_the_man_program_when_installed() {
    if Command::new("man").arg("--version").output().is_err() {
        eprintln!("man is not installed: rendering not checked");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let status = Command::cargo_bin("replay-audit")
        .unwrap()
        .args(["man", "--out-dir"])
        .arg(dir.path())
        .status()
        .unwrap();
    assert!(status.success());
    let out = Command::new("man")
        .arg("-l")
        .arg(dir.path().join("replay-audit-check.1"))
        .env("MANWIDTH", "100")
        .env("MAN_KEEP_FORMATTING", "")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("EXIT STATUS"), "{text}");
    assert!(text.contains("--write-baseline"), "{text}");
    let unknown = Command::cargo_bin("replay-audit")
        .unwrap()
        .args(["man", "chek"])
        .output()
        .unwrap();
    assert_eq!(unknown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("did you mean `check`"));
}

/// What bash completes for `words`, the last being the word under the cursor.
fn complete(script: &std::path::Path, words: &[&str]) -> Vec<String> {
    let cword = words.len() - 1;
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let prev = if cword > 0 { words[cword - 1] } else { "" };
    let program = format!(
        "source '{}'\nCOMP_WORDS=({})\nCOMP_CWORD={cword}\nCOMP_LINE='{}'\nCOMP_POINT=${{#COMP_LINE}}\n_replay__audit replay-audit '{}' '{prev}'\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"\n",
        script.display(),
        quoted.join(" "),
        words.join(" "),
        words[cword]
    );
    let out = Command::new("bash")
        .args(["--norc", "-c", &program])
        .output()
        .expect("bash");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect()
}

#[test]
fn bash_completes_after_the_subcommand() {
    if Command::new("bash").arg("--version").output().is_err() {
        eprintln!("bash is not installed: completion not checked");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("replay-audit.bash");
    std::fs::write(&script, completion::script(CompletionShell::Bash)).unwrap();
    let formats = [
        "table", "json", "sarif", "junit", "github", "markdown", "gitlab", "human", "concise",
    ];
    assert_eq!(
        complete(&script, &["replay-audit", "check", "--format", ""]),
        formats
    );
    assert_eq!(
        complete(&script, &["replay-audit", "check", "--fail-on", "w"]),
        ["warning"]
    );
    assert_eq!(
        complete(&script, &["replay-audit", "what-if", "--format", ""]),
        ["text", "json"]
    );
    assert_eq!(
        complete(&script, &["replay-audit", "graph", "--format", "m"]),
        ["mermaid"]
    );
    assert_eq!(complete(&script, &["replay-audit", "ch"]), ["check"]);
    // Rule codes and names after `explain`, kinds after `catalog`.
    assert_eq!(
        complete(&script, &["replay-audit", "explain", "RH00"]),
        ["RH001", "RH002", "RH003", "RH004", "RH005", "RH006"]
    );
    assert_eq!(
        complete(&script, &["replay-audit", "explain", "replay-out"]),
        ["replay-outlives-dedup-window"]
    );
    assert_eq!(
        complete(&script, &["replay-audit", "catalog", "sqs-"]),
        ["sqs-standard", "sqs-fifo"]
    );
    let opts = complete(&script, &["replay-audit", "check", "--wr"]);
    assert_eq!(opts, ["--write-baseline"]);
}

/// The README's command table has a row for every command, and its `check`
/// row names every format and the options a CI user looks for, as
/// docs/cli.md does.
#[test]
fn readme_lists_every_command_and_format() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let md = manual::markdown::render();
    for name in man::command_names() {
        assert!(
            readme.contains(&format!("\n| `{name}")),
            "README.md has no row for `{name}`"
        );
    }
    let check = readme
        .lines()
        .find(|l| l.starts_with("| `check PATHS"))
        .expect("the check row");
    for f in <replay_audit::cli::CheckFormat as clap::ValueEnum>::value_variants() {
        let name = clap::ValueEnum::to_possible_value(f).unwrap();
        let name = name.get_name();
        assert!(check.contains(name), "README's check row lacks `{name}`");
        assert!(
            md.contains(&format!("`{name}`")),
            "docs/cli.md lacks `{name}`"
        );
    }
    for opt in [
        "-q",
        "--min-severity",
        "-o FILE",
        "-o FORMAT=FILE",
        "--fail-on",
    ] {
        assert!(check.contains(opt), "README's check row lacks `{opt}`");
    }
}
