//! Thin binary: parse arguments, call the library, map to an exit code.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use clap::Parser;
use replay_audit::cli::{CheckFormat, Cli, ColorChoice, Command, FailOn, TextFormat};
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

fn load(cli: &Cli, paths: &[std::path::PathBuf]) -> Result<manifest::Manifest, u8> {
    let limits = manifest::Limits { max_file_bytes: cli.max_file_size, ..manifest::Limits::default() };
    manifest::load(paths, &limits).map_err(|e| {
        eprint!("{}", e.render(color(cli.color, std::io::stderr().is_terminal())));
        2
    })
}

fn severity(fail_on: FailOn) -> rules::Severity {
    match fail_on {
        FailOn::Error => rules::Severity::Error,
        FailOn::Warning => rules::Severity::Warning,
        FailOn::Info => rules::Severity::Info,
    }
}

/// `check --each DIR`: every architecture of DIR, in parallel.
fn check_each(cli: &Cli, dir: &std::path::Path, format: CheckFormat, fail_on: FailOn) -> u8 {
    use replay_audit::org;
    let archs = match org::architectures(dir) {
        Ok(a) => a,
        Err(d) => {
            eprintln!("{}", d.one_line(&replay_audit::diagnostics::SourceMap::default()));
            return 2;
        }
    };
    let limits = manifest::Limits { max_file_bytes: cli.max_file_size, ..manifest::Limits::default() };
    let render = match format {
        CheckFormat::Table => org::Render::Table { color: color(cli.color, std::io::stdout().is_terminal()) },
        CheckFormat::Json => org::Render::Json,
    };
    let progress = org::Progress::new(archs.len());
    let tty = std::io::stderr().is_terminal();
    let outcomes = org::check_all(&archs, &limits, severity(fail_on), render, &|done| {
        if tty {
            progress.tick(done)
        }
    });
    let text = match render {
        org::Render::Json => org::render_json(&outcomes),
        org::Render::Table { .. } => org::render_table(&outcomes),
    };
    if let Err(e) = out(&text) {
        eprintln!("error: {e:#}");
        return 2;
    }
    org::exit_code(&outcomes)
}

fn run(cli: Cli) -> anyhow::Result<u8> {
    match &cli.command {
        Command::Check { paths, format, fail_on, each } => {
            if let Some(dir) = each {
                return Ok(check_each(&cli, dir, *format, *fail_on));
            }
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
