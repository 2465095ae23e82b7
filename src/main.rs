//! Thin binary: parse arguments, call the library, map to an exit code.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use clap::Parser;
use replay_audit::cli::{CheckFormat, Cli, ColorChoice, Command, FailOn, GraphFormat, ReportFormat, TextFormat};
use replay_audit::{analysis, catalog, manifest, report, rules};

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    match run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn color(choice: ColorChoice, stream_is_tty: bool) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => stream_is_tty && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
    }
}

fn out(text: &str) -> anyhow::Result<()> {
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(text.as_bytes()).and_then(|_| stdout.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        r => Ok(r?),
    }
}

/// Writes to `-o FILE`, or to standard output; an unwritable file is an input error (2).
fn write_output(path: Option<&std::path::Path>, text: &str) -> anyhow::Result<u8> {
    match path {
        None => {
            out(text)?;
            Ok(0)
        }
        Some(p) => match std::fs::write(p, text) {
            Ok(()) => Ok(0),
            Err(e) => {
                eprintln!("error: cannot write `{}`: {e}\nhelp: check that the folder exists and is writable", p.display());
                Ok(2)
            }
        },
    }
}

fn load(cli: &Cli, paths: &[std::path::PathBuf]) -> Result<manifest::Manifest, u8> {
    let limits = manifest::Limits { max_file_bytes: cli.max_file_size, ..manifest::Limits::default() };
    manifest::load(paths, &limits).map_err(|e| {
        eprint!("{}", e.render(color(cli.color, std::io::stderr().is_terminal())));
        2
    })
}

fn run(cli: Cli) -> anyhow::Result<u8> {
    match &cli.command {
        Command::Check { paths, format, fail_on } => {
            let m = match load(&cli, paths) {
                Ok(m) => m,
                Err(code) => return Ok(code),
            };
            let a = analysis::analyse(&m);
            let findings = rules::check(&a);
            let text = match format {
                CheckFormat::Table => report::table::render(&m.sources, &findings, color(cli.color, std::io::stdout().is_terminal())),
                CheckFormat::Json => report::json::render(&m.sources, &findings),
            };
            out(&text)?;
            let threshold = match fail_on {
                FailOn::Error => rules::Severity::Error,
                FailOn::Warning => rules::Severity::Warning,
                FailOn::Info => rules::Severity::Info,
            };
            Ok(u8::from(findings.iter().any(|f| f.severity >= threshold)))
        }
        Command::Horizon { paths, intent, at, format } => {
            let m = match load(&cli, paths) {
                Ok(m) => m,
                Err(code) => return Ok(code),
            };
            if let Some(i) = intent
                && m.intent(i).is_none()
            {
                let ids: Vec<&str> = m.intents.iter().map(|i| i.id.as_str()).collect();
                let hint = replay_audit::diagnostics::suggest(i, ids.iter().copied())
                    .map_or_else(|| format!("intents: {}", ids.join(", ")), |s| format!("did you mean `{s}`?"));
                eprintln!("error: no intent `{i}`\nhelp: {hint}");
                return Ok(2);
            }
            if let Some(c) = at
                && m.component(c).is_none()
            {
                let ids: Vec<&str> = m.components.iter().map(|c| c.id.as_str()).collect();
                let hint = replay_audit::diagnostics::suggest(c, ids.iter().copied())
                    .map_or_else(|| "give a component id".to_string(), |s| format!("did you mean `{s}`?"));
                eprintln!("error: no component `{c}`\nhelp: {hint}");
                return Ok(2);
            }
            let a = analysis::analyse(&m);
            let rows = report::horizon::rows(&a, intent.as_deref(), at.as_deref());
            out(&match format {
                TextFormat::Text => report::horizon::render_text(&rows),
                TextFormat::Json => report::horizon::render_json(&rows),
            })?;
            Ok(0)
        }
        Command::Report { paths, format, output } => {
            let m = match load(&cli, paths) {
                Ok(m) => m,
                Err(code) => return Ok(code),
            };
            let a = analysis::analyse(&m);
            let findings = rules::check(&a);
            let review = report::review::build(&a, &findings);
            let text = match format {
                ReportFormat::Markdown => report::review_md::render(&review),
                ReportFormat::Html => report::review_html::render(&review),
            };
            write_output(output.as_deref(), &text)
        }
        Command::Graph { paths, format, output } => {
            let m = match load(&cli, paths) {
                Ok(m) => m,
                Err(code) => return Ok(code),
            };
            let a = analysis::analyse(&m);
            let findings = rules::check(&a);
            let view = report::draw::view(&m, &findings);
            let text = match format {
                GraphFormat::Dot => report::draw::dot(&view, m.name.as_deref().unwrap_or("architecture")),
                GraphFormat::Mermaid => report::draw::mermaid(&view),
            };
            write_output(output.as_deref(), &text)
        }
        Command::Explain { code } => match rules::rule(code) {
            Some(r) => {
                out(r.doc)?;
                Ok(0)
            }
            None => {
                let codes: Vec<&str> = rules::RULES.iter().map(|r| r.code).chain(rules::RULES.iter().map(|r| r.name)).collect();
                let hint = replay_audit::diagnostics::suggest(code, codes.iter().copied())
                    .map_or_else(|| "`replay-audit rules` lists every rule".to_string(), |s| format!("did you mean `{s}`?"));
                eprintln!("error: no rule `{code}`\nhelp: {hint}");
                Ok(2)
            }
        },
        Command::Rules { format } => {
            out(&report::rules_list(*format == TextFormat::Json))?;
            Ok(0)
        }
        Command::Catalog { kind, format } => {
            let json = *format == TextFormat::Json;
            match kind {
                None => out(&report::catalog::list(json))?,
                Some(k) => match catalog::catalog().kind(k) {
                    Some(kind) => out(&report::catalog::show(kind, json))?,
                    None => {
                        let ids: Vec<&str> = catalog::catalog().kinds.iter().map(|k| k.id.as_str()).collect();
                        let hint = replay_audit::diagnostics::suggest(k, ids.iter().copied())
                            .map_or_else(|| "`replay-audit catalog` lists the kinds".to_string(), |s| format!("did you mean `{s}`?"));
                        eprintln!("error: no kind `{k}` in the catalog\nhelp: {hint}");
                        return Ok(2);
                    }
                },
            }
            Ok(0)
        }
    }
}
