//! The reference generated from the clap definitions: `docs/cli.md` is
//! up to date, the man pages are generated and name only pages that exist,
//! and the README lists every command and format.

use std::collections::BTreeSet;

use super::{self as manual, man};

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
        "docs/cli.md is out of date with src/cli.rs: `UPDATE_DOCS=1 cargo test --bin replay-audit manual`"
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
    for f in <replay_audit::report::format::CheckFormat as clap::ValueEnum>::value_variants() {
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
