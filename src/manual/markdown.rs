//! `docs/cli.md`: every command and option from the clap definitions, the
//! JSON contracts by link to `docs/cli-json.md`, the exit status, the
//! environment and the files. `tests/reference.rs` fails when the file in
//! the repository differs (`UPDATE_DOCS=1` rewrites it).

use std::fmt::Write as _;

use clap::Arg;

use super::{BIN, ENVIRONMENT, EXIT_STATUS, FILES, command, subcommands};

/// Commands whose `--format json` is a contract, and its section in
/// `docs/cli-json.md`.
const JSON: &[(&str, &str)] = &[
    ("check", "cli-json.md#check---format-json"),
    ("horizon", "cli-json.md#horizon---format-json"),
    ("what-if", "cli-json.md#what-if---format-json"),
    ("rules", "cli-json.md#rules-and-catalog---format-json"),
    ("catalog", "cli-json.md#rules-and-catalog---format-json"),
];

/// The whole of `docs/cli.md`.
pub fn render() -> String {
    let cmd = command();
    let mut s = String::new();
    s.push_str("# The command line\n\n");
    s.push_str("<!-- Generated from src/cli.rs by `UPDATE_DOCS=1 cargo test --bin replay-audit manual`: edit the clap definitions, not this file. -->\n\n");
    if let Some(about) = cmd.get_long_about() {
        let _ = writeln!(s, "{about}\n");
    }
    let _ = writeln!(
        s,
        "`{BIN} [GLOBAL OPTIONS] COMMAND [ARGS]`. `PATHS` are manifest files or folders (every `*.yaml`/`*.yml` below a folder, symbolic links not followed; a path named inside the repository, or the current folder outside one, is not followed through a link that leads out of it); all of them form one architecture. `{BIN} man` prints this reference as a man page, `{BIN} COMMAND --help` as help.\n"
    );
    s.push_str("## Commands\n\n| command | what it does |\n|---|---|\n");
    for sub in subcommands(&cmd) {
        let _ = writeln!(
            s,
            "| [`{n}`](#{n}) | {} |",
            cell(&sub.get_about().map(|a| a.to_string()).unwrap_or_default()),
            n = sub.get_name()
        );
    }
    s.push_str("\n## Global options\n\nAccepted before or after the command.\n\n");
    options(&mut s, cmd.get_arguments().filter(|a| a.is_global_set()));
    for sub in subcommands(&cmd) {
        command_section(&mut s, sub);
    }
    s.push_str("\n## Exit status\n\n| code | meaning |\n|---|---|\n");
    for (code, what) in EXIT_STATUS {
        let _ = writeln!(s, "| {code} | {} |", cell(what));
    }
    s.push_str("\n## Environment\n\n| variable | effect |\n|---|---|\n");
    for (name, what) in ENVIRONMENT {
        let _ = writeln!(s, "| `{name}` | {} |", cell(what));
    }
    s.push_str("\n## Files\n\n| file | what it is |\n|---|---|\n");
    for (name, what) in FILES {
        let _ = writeln!(s, "| {} | {} |", cell(name), cell(what));
    }
    s.push_str("\nThe manifest format is [manifest.md](manifest.md), the policy file and baselines [ci.md](ci.md), the rules [rules/](rules/).\n");
    s
}

/// One command: its description, usage, arguments and options.
fn command_section(s: &mut String, sub: &clap::Command) {
    let name = sub.get_name();
    let _ = writeln!(s, "\n## {name}\n");
    let about = sub
        .get_long_about()
        .or_else(|| sub.get_about())
        .map(|a| a.to_string())
        .unwrap_or_default();
    let _ = writeln!(s, "{}\n", one_line(&about));
    let usage = sub.clone().render_usage().to_string();
    let usage = usage.trim_start_matches("Usage: ");
    let _ = writeln!(s, "```text\n{usage}\n```\n");
    let local = || {
        sub.get_arguments()
            .filter(|a| !a.is_global_set() && !is_help(a))
    };
    if local().next().is_none() {
        s.push_str("No arguments beyond the global options.\n");
    } else {
        options(s, local());
    }
    if let Some((_, link)) = JSON.iter().find(|(c, _)| *c == name) {
        let _ = writeln!(
            s,
            "\nThe JSON output is a stable contract: [cli-json.md]({link})."
        );
    }
}

fn is_help(a: &Arg) -> bool {
    matches!(a.get_id().as_str(), "help" | "version")
}

/// The table of some arguments.
fn options<'a>(s: &mut String, args: impl Iterator<Item = &'a Arg>) {
    s.push_str("| argument | values | default | meaning |\n|---|---|---|---|\n");
    for a in args.filter(|a| !a.is_hide_set() && !is_help(a)) {
        let values: Vec<String> = a
            .get_possible_values()
            .iter()
            .filter(|v| !v.is_hide_set())
            .map(|v| match v.get_help() {
                Some(h) => format!("`{}` ({})", v.get_name(), cell(&h.to_string())),
                None => format!("`{}`", v.get_name()),
            })
            .collect();
        let defaults: Vec<String> = a
            .get_default_values()
            .iter()
            .map(|v| format!("`{}`", v.to_string_lossy()))
            .collect();
        let help = a
            .get_long_help()
            .or_else(|| a.get_help())
            .map(|h| h.to_string())
            .unwrap_or_default();
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} |",
            spelling(a),
            values.join(", "),
            defaults.join(", "),
            cell(&help)
        );
    }
}

/// `PATHS...`, `--format FORMAT`, `-o, --output FILE`, `--required`.
fn spelling(a: &Arg) -> String {
    let value = || {
        a.get_value_names().map_or_else(
            || a.get_id().as_str().to_uppercase(),
            |v| v.iter().map(|n| n.as_str()).collect::<Vec<_>>().join(" "),
        )
    };
    let many = matches!(a.get_num_args(), Some(r) if r.max_values() > 1)
        || matches!(a.get_action(), clap::ArgAction::Append);
    if a.is_positional() {
        let dots = if many { "..." } else { "" };
        let opt = if a.is_required_set() {
            ""
        } else {
            " (optional)"
        };
        return format!("`{}{dots}`{opt}", value());
    }
    let mut names = Vec::new();
    if let Some(c) = a.get_short() {
        names.push(format!("-{c}"));
    }
    if let Some(l) = a.get_long() {
        names.push(format!("--{l}"));
    }
    let takes = a.get_action().takes_values();
    let value = if takes {
        format!(" {}", value())
    } else {
        String::new()
    };
    let repeat = if many && takes { " (repeatable)" } else { "" };
    format!("`{}{value}`{repeat}", names.join(", "))
}

/// Text on one line.
fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Text for a table cell: one line, pipes escaped, and outside `code
/// spans` the characters Markdown would take as emphasis or HTML.
fn cell(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    let mut code = false;
    for ch in one_line(s).chars() {
        match ch {
            '`' => code = !code,
            '|' => out.push('\\'),
            '*' | '<' | '>' | '_' if !code => out.push('\\'),
            _ => {}
        }
        out.push(ch);
    }
    out
}
