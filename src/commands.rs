//! One function per command: load what it needs through the library, print
//! the result, and return the exit code (0 clean, 1 findings at or above the
//! failing severity, 2 input that could not be analysed).

use std::io::{IsTerminal, Write};

use clap::CommandFactory;
use replay_audit::cli::{
    CheckFormat, Cli, ColorChoice, Command, CompletionShell, FailOn, GraphFormat, ImportFormat,
    ReportFormat, TextFormat,
};
use replay_audit::{
    analysis, catalog, init, manifest, policy, report, rules, schema, shell, whatif,
};

fn color(choice: ColorChoice, stream_is_tty: bool) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            stream_is_tty && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        }
    }
}

fn out(text: &str) -> anyhow::Result<()> {
    out_with(|w| w.write_all(text.as_bytes()))
}

/// Standard output through a buffer (reports may be written as they are
/// made); a closed pipe ends the output quietly.
fn out_with(write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> anyhow::Result<()> {
    let mut w = std::io::BufWriter::new(std::io::stdout().lock());
    match write(&mut w).and_then(|_| w.flush()) {
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
                eprintln!(
                    "error: cannot write `{}`: {e}\nhelp: check that the folder exists and is writable",
                    p.display()
                );
                Ok(2)
            }
        },
    }
}

fn load(cli: &Cli, paths: &[std::path::PathBuf]) -> Result<manifest::Manifest, u8> {
    let limits = manifest::Limits {
        max_file_bytes: cli.max_file_size,
        ..manifest::Limits::default()
    };
    // Templates, plans and AsyncAPI documents among the paths are imported in memory.
    replay_audit::import::load(paths, &limits).map_err(|e| {
        eprint!(
            "{}",
            e.render(color(cli.color, std::io::stderr().is_terminal()))
        );
        2
    })
}

/// The policy (`--config`, else replay-audit.toml beside the first path,
/// else the defaults) and today's date for its waivers; or, when either
/// cannot be had, the exit code once the error is printed.
fn read_policy(
    cli: &Cli,
    paths: &[std::path::PathBuf],
    config: Option<&std::path::Path>,
) -> Result<(policy::Policy, policy::Date), u8> {
    let policy = match policy::Policy::find(paths, config) {
        Ok(p) => p,
        Err(e) => {
            eprint!(
                "{}",
                e.render(color(cli.color, std::io::stderr().is_terminal()))
            );
            return Err(2);
        }
    };
    Ok((policy, today()?))
}

/// Today's date for waivers (`REPLAY_AUDIT_TODAY` or the clock); or, when
/// it cannot be had, the exit code once the error is printed.
fn today() -> Result<policy::Date, u8> {
    policy::Date::today().map_err(|e| {
        eprintln!("error: {e}");
        2
    })
}

/// The findings of an analysis under a policy: its options, severities and
/// waivers (waived findings stay, marked).
fn findings_under(
    cli: &Cli,
    paths: &[std::path::PathBuf],
    config: Option<&std::path::Path>,
    a: &analysis::Analysis,
) -> Result<Vec<rules::Finding>, u8> {
    let (policy, today) = read_policy(cli, paths, config)?;
    Ok(policy.check(a, today).0)
}

fn limits(cli: &Cli) -> manifest::Limits {
    manifest::Limits {
        max_file_bytes: cli.max_file_size,
        ..manifest::Limits::default()
    }
}

fn severity(f: FailOn) -> rules::Severity {
    match f {
        FailOn::Error => rules::Severity::Error,
        FailOn::Warning => rules::Severity::Warning,
        FailOn::Info => rules::Severity::Info,
    }
}

fn render_load_error(cli: &Cli, e: &manifest::LoadError) -> u8 {
    eprint!(
        "{}",
        e.render(color(cli.color, std::io::stderr().is_terminal()))
    );
    2
}

fn load_overridden(
    cli: &Cli,
    paths: &[std::path::PathBuf],
    overrides: &std::path::Path,
) -> Result<manifest::Manifest, u8> {
    whatif::load_with_overrides(paths, overrides, &limits(cli))
        .map_err(|e| render_load_error(cli, &e))
}

/// The changes `what-if` is asked to make.
struct Changes<'a> {
    set: &'a [String],
    unset: &'a [String],
    overrides: Option<&'a std::path::Path>,
}

fn what_if(
    cli: &Cli,
    paths: &[std::path::PathBuf],
    changes: Changes,
    format: TextFormat,
    fail_on: Option<FailOn>,
    config: Option<&std::path::Path>,
) -> anyhow::Result<u8> {
    let Changes {
        set,
        unset,
        overrides,
    } = changes;
    if set.is_empty() && unset.is_empty() && overrides.is_none() {
        eprintln!(
            "error: what-if needs a change\nhelp: give --set ID.FIELD=VALUE, --unset ID.FIELD or --overrides FILE"
        );
        return Ok(2);
    }
    let mut session = match whatif::Session::open(paths, &limits(cli)) {
        Ok(s) => s,
        Err(e) => return Ok(render_load_error(cli, &e)),
    };
    let base = match session.build(&[]) {
        Ok(b) => b,
        Err(e) => return Ok(render_load_error(cli, &e)),
    };
    let mut list = Vec::new();
    if let Some(o) = overrides {
        match session.read_overrides(o) {
            Ok(o) => list.extend(o),
            Err(e) => return Ok(render_load_error(cli, &e)),
        }
    }
    for s in set {
        match session.parse_set("--set", s) {
            Ok(o) => list.push(o),
            Err(e) => return Ok(render_load_error(cli, &e)),
        }
    }
    for u in unset {
        list.push(session.parse_unset("--unset", u));
    }
    let built = match session.build(&list) {
        Ok(b) => b,
        Err(e) => return Ok(render_load_error(cli, &e)),
    };
    let (policy, today) = match read_policy(cli, paths, config) {
        Ok(p) => p,
        Err(code) => return Ok(code),
    };
    let before = policy.check(&analysis::analyse(&base.manifest), today).0;
    let after = policy.check(&analysis::analyse(&built.manifest), today).0;
    let delta = whatif::compare(&before, &after);
    out(&match format {
        TextFormat::Text => whatif::render_text(&built.changes, &delta),
        TextFormat::Json => whatif::render_json(
            &base.manifest.sources,
            &built.manifest.sources,
            &built.changes,
            &delta,
        ),
    })?;
    Ok(u8::from(
        delta.fails(policy.threshold(fail_on.map(severity))),
    ))
}

/// `check --each DIR`: every architecture of DIR, in parallel.
fn check_each(
    cli: &Cli,
    dir: &std::path::Path,
    format: CheckFormat,
    fail_on: Option<rules::Severity>,
    config: Option<&std::path::Path>,
) -> u8 {
    use replay_audit::org;
    let archs = match org::architectures(dir) {
        Ok(a) => a,
        Err(d) => {
            eprintln!(
                "{}",
                d.one_line(&replay_audit::diagnostics::SourceMap::default())
            );
            return 2;
        }
    };
    let limits = manifest::Limits {
        max_file_bytes: cli.max_file_size,
        ..manifest::Limits::default()
    };
    let render = match format {
        CheckFormat::Table => org::Render::Table {
            color: color(cli.color, std::io::stdout().is_terminal()),
        },
        CheckFormat::Json => org::Render::Json,
        other => {
            eprintln!(
                "error: --each prints `table` or `json`, not `{other:?}`\nhelp: run `check` on one architecture for the other formats"
            );
            return 2;
        }
    };
    let today = match today() {
        Ok(d) => d,
        Err(code) => return code,
    };
    let run = org::Run {
        limits,
        fail_on,
        config: config.map(std::path::Path::to_path_buf),
        today,
        render,
    };
    let progress = org::Progress::new(archs.len());
    let tty = std::io::stderr().is_terminal();
    let outcomes = org::check_all(&archs, &run, &|done| {
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

pub fn run(cli: Cli) -> anyhow::Result<u8> {
    match &cli.command {
        Command::Check {
            paths,
            format,
            fail_on,
            config,
            baseline,
            write_baseline,
            overrides,
            each,
        } => {
            if let Some(dir) = each {
                return Ok(check_each(
                    &cli,
                    dir,
                    *format,
                    fail_on.map(severity),
                    config.as_deref(),
                ));
            }
            let loaded = match overrides {
                Some(o) => load_overridden(&cli, paths, o),
                None => load(&cli, paths),
            };
            let mut m = match loaded {
                Ok(m) => m,
                Err(code) => return Ok(code),
            };
            if matches!(format, CheckFormat::Json) {
                // JSON shows locations, never snippets.
                m.sources.forget_texts();
            }
            let err_color = color(cli.color, std::io::stderr().is_terminal());
            let (policy, today) = match read_policy(&cli, paths, config.as_deref()) {
                Ok(p) => p,
                Err(code) => return Ok(code),
            };
            let a = analysis::analyse(&m);
            let (mut findings, unused_waivers) = policy.check(&a, today);
            let mut notes = policy::Notes {
                unused_waivers,
                stale_baseline: Vec::new(),
            };
            // The analysis is done with once the findings are made (only the
            // Markdown comment shows horizons): freeing it before rendering
            // lowers the peak memory of a large manifest.
            let horizon_rows = matches!(format, CheckFormat::Markdown)
                .then(|| report::horizon::rows(&a, None, None))
                .unwrap_or_default();
            drop(a);
            if let Some(path) = write_baseline {
                let b = policy::Baseline::of(&findings);
                if let Err(e) = std::fs::write(path, b.to_json()) {
                    eprintln!("error: cannot write baseline `{}`: {e}", path.display());
                    return Ok(2);
                }
                eprintln!(
                    "wrote {} fingerprint(s) to {}",
                    b.fingerprints.len(),
                    path.display()
                );
                b.apply(&mut findings);
            }
            if let Some(path) = baseline {
                match policy::Baseline::read(path) {
                    Ok(b) => notes.stale_baseline = b.apply(&mut findings),
                    Err(e) => {
                        eprint!("{}", e.render(err_color));
                        return Ok(2);
                    }
                }
            }
            // Waived and baselined findings, for the formats that mark them
            // (SARIF suppressions, JUnit skipped cases).
            let accepted: Vec<Option<&str>> = findings
                .iter()
                .map(|f| match (&f.waived, f.baselined) {
                    (Some(w), _) => Some(w.reason.as_str()),
                    (None, true) => Some("listed in the baseline"),
                    (None, false) => None,
                })
                .collect();
            match format {
                CheckFormat::Table => out(&report::table::render(
                    &m.sources,
                    &findings,
                    color(cli.color, std::io::stdout().is_terminal()),
                ))?,
                // Written as it is produced: a large report is never held
                // whole.
                CheckFormat::Json => {
                    out_with(|w| report::json::write_with(w, &m.sources, &findings, &notes))?
                }
                CheckFormat::Sarif => out(&report::sarif::render_with(
                    &m.sources,
                    &findings,
                    Some(&m),
                    &accepted,
                ))?,
                CheckFormat::Junit => {
                    let intents: Vec<&str> = m.intents.iter().map(|i| i.id.as_str()).collect();
                    out(&report::junit::render_with(
                        &m.sources, &intents, &findings, &accepted,
                    ))?
                }
                CheckFormat::Github => out(&report::github::render(&m.sources, &findings))?,
                CheckFormat::Markdown => out(&report::markdown::render_full(
                    &m.sources,
                    &findings,
                    Some(&m),
                    &horizon_rows,
                ))?,
            }
            for w in notes.warnings(
                baseline
                    .as_ref()
                    .map(|b| b.display().to_string())
                    .as_deref(),
            ) {
                eprintln!("{w}");
            }
            let threshold = policy.threshold(fail_on.map(severity));
            Ok(u8::from(findings.iter().any(|f| f.fails(threshold))))
        }
        Command::Horizon {
            paths,
            intent,
            at,
            format,
            required,
        } => {
            let m = match load(&cli, paths) {
                Ok(m) => m,
                Err(code) => return Ok(code),
            };
            if let Some(i) = intent
                && m.intent(i).is_none()
            {
                let ids: Vec<&str> = m.intents.iter().map(|i| i.id.as_str()).collect();
                let hint = replay_audit::diagnostics::suggest(i, ids.iter().copied()).map_or_else(
                    || format!("intents: {}", ids.join(", ")),
                    |s| format!("did you mean `{s}`?"),
                );
                eprintln!("error: no intent `{i}`\nhelp: {hint}");
                return Ok(2);
            }
            if let Some(c) = at
                && m.component(c).is_none()
            {
                let ids: Vec<&str> = m.components.iter().map(|c| c.id.as_str()).collect();
                let hint = replay_audit::diagnostics::suggest(c, ids.iter().copied()).map_or_else(
                    || "give a component id".to_string(),
                    |s| format!("did you mean `{s}`?"),
                );
                eprintln!("error: no component `{c}`\nhelp: {hint}");
                return Ok(2);
            }
            let a = analysis::analyse(&m);
            if *required {
                let (intent, at) = (intent.as_deref(), at.as_deref());
                out_with(|w| match format {
                    TextFormat::Text => whatif::write_required_text(&a, intent, at, w),
                    TextFormat::Json => whatif::write_required_json(&a, intent, at, w),
                })?;
                return Ok(0);
            }
            // Written as the rows are made: the output of a large manifest
            // is never held whole.
            let (intent, at) = (intent.as_deref(), at.as_deref());
            out_with(|w| match format {
                TextFormat::Text => report::horizon::write_text(&a, intent, at, w),
                TextFormat::Json => report::horizon::write_json(&a, intent, at, w),
            })?;
            Ok(0)
        }
        Command::Report {
            paths,
            format,
            output,
            config,
        } => {
            let m = match load(&cli, paths) {
                Ok(m) => m,
                Err(code) => return Ok(code),
            };
            let a = analysis::analyse(&m);
            let findings = match findings_under(&cli, paths, config.as_deref(), &a) {
                Ok(f) => f,
                Err(code) => return Ok(code),
            };
            let review = report::review::build(&a, &findings);
            let text = match format {
                ReportFormat::Markdown => report::review_md::render(&review),
                ReportFormat::Html => report::review_html::render(&review),
            };
            write_output(output.as_deref(), &text)
        }
        Command::Graph {
            paths,
            format,
            output,
            config,
        } => {
            let m = match load(&cli, paths) {
                Ok(m) => m,
                Err(code) => return Ok(code),
            };
            let a = analysis::analyse(&m);
            let findings = match findings_under(&cli, paths, config.as_deref(), &a) {
                Ok(f) => f,
                Err(code) => return Ok(code),
            };
            let view = report::draw::view(&m, &findings);
            let text = match format {
                GraphFormat::Dot => {
                    report::draw::dot(&view, m.name.as_deref().unwrap_or("architecture"))
                }
                GraphFormat::Mermaid => report::draw::mermaid(&view),
            };
            write_output(output.as_deref(), &text)
        }
        Command::WhatIf {
            paths,
            set,
            unset,
            overrides,
            format,
            fail_on,
            config,
        } => what_if(
            &cli,
            paths,
            Changes {
                set,
                unset,
                overrides: overrides.as_deref(),
            },
            *format,
            *fail_on,
            config.as_deref(),
        ),
        Command::Shell { paths, config } => {
            let session = match whatif::Session::open(paths, &limits(&cli)) {
                Ok(s) => s,
                Err(e) => return Ok(render_load_error(&cli, &e)),
            };
            let (policy, today) = match read_policy(&cli, paths, config.as_deref()) {
                Ok(p) => p,
                Err(code) => return Ok(code),
            };
            let tty = std::io::stdin().is_terminal();
            let mut sh = match shell::Shell::new(
                session,
                policy,
                today,
                tty && color(cli.color, std::io::stderr().is_terminal()),
            ) {
                Ok(s) => s,
                Err(e) => return Ok(render_load_error(&cli, &e)),
            };
            Ok(if tty {
                shell::run_terminal(&mut sh)
            } else {
                shell::run_lines(
                    &mut sh,
                    std::io::stdin().lock(),
                    &mut std::io::stdout(),
                    &mut std::io::stderr(),
                )
            })
        }
        Command::Explain { code } => match rules::rule(code) {
            Some(r) => {
                out(r.doc)?;
                Ok(0)
            }
            None => {
                let codes: Vec<&str> = rules::RULES
                    .iter()
                    .map(|r| r.code)
                    .chain(rules::RULES.iter().map(|r| r.name))
                    .collect();
                let hint = replay_audit::diagnostics::suggest(code, codes.iter().copied())
                    .map_or_else(
                        || "`replay-audit rules` lists every rule".to_string(),
                        |s| format!("did you mean `{s}`?"),
                    );
                eprintln!("error: no rule `{code}`\nhelp: {hint}");
                Ok(2)
            }
        },
        Command::Rules { format } => {
            out(&report::rules_list(*format == TextFormat::Json))?;
            Ok(0)
        }
        Command::Import {
            format,
            file,
            parameters,
        } => {
            let limits = manifest::Limits {
                max_file_bytes: cli.max_file_size,
                ..manifest::Limits::default()
            };
            let params = match replay_audit::import::parse_params(parameters) {
                Ok(p) => p,
                Err(e) => {
                    eprintln!("error: {e}\nhelp: write --parameter Name=value");
                    return Ok(2);
                }
            };
            let format = match format {
                ImportFormat::Cloudformation => replay_audit::import::Format::CloudFormation,
                ImportFormat::Terraform => replay_audit::import::Format::Terraform,
                ImportFormat::Asyncapi => replay_audit::import::Format::AsyncApi,
            };
            let result = replay_audit::import::read_file(file, &limits).and_then(|text| {
                replay_audit::import::import_text(
                    format,
                    &file.display().to_string(),
                    &text,
                    &params,
                    &limits,
                )
            });
            match result {
                Ok(imported) => {
                    for u in &imported.unsupported {
                        eprintln!("warning: not imported: {u}");
                    }
                    out(&imported.text)?;
                    Ok(0)
                }
                Err(e) => {
                    eprint!(
                        "{}",
                        e.render(color(cli.color, std::io::stderr().is_terminal()))
                    );
                    Ok(2)
                }
            }
        }
        Command::Catalog { kind, format } => {
            let json = *format == TextFormat::Json;
            match kind {
                None => out(&report::catalog::list(json))?,
                Some(k) => match catalog::catalog().kind(k) {
                    Some(kind) => out(&report::catalog::show(kind, json))?,
                    None => {
                        let ids: Vec<&str> = catalog::catalog()
                            .kinds
                            .iter()
                            .map(|k| k.id.as_str())
                            .collect();
                        let hint = replay_audit::diagnostics::suggest(k, ids.iter().copied())
                            .map_or_else(
                                || "`replay-audit catalog` lists the kinds".to_string(),
                                |s| format!("did you mean `{s}`?"),
                            );
                        eprintln!("error: no kind `{k}` in the catalog\nhelp: {hint}");
                        return Ok(2);
                    }
                },
            }
            Ok(0)
        }
        Command::Schema => {
            out(&schema::render())?;
            Ok(0)
        }
        Command::Completions { shell } => {
            let shell = match shell {
                CompletionShell::Bash => clap_complete::Shell::Bash,
                CompletionShell::Zsh => clap_complete::Shell::Zsh,
                CompletionShell::Fish => clap_complete::Shell::Fish,
            };
            let mut buf = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "replay-audit", &mut buf);
            out(&String::from_utf8_lossy(&buf))?;
            Ok(0)
        }
        Command::Man => {
            let mut buf = Vec::new();
            clap_mangen::Man::new(Cli::command()).render(&mut buf)?;
            out(&String::from_utf8_lossy(&buf))?;
            Ok(0)
        }
        Command::Init { output } => match output {
            None => {
                out(init::STARTER)?;
                Ok(0)
            }
            Some(path) => {
                let written = std::fs::OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .open(path)
                    .and_then(|mut f| f.write_all(init::STARTER.as_bytes()));
                match written {
                    Ok(()) => {
                        eprintln!(
                            "wrote {}; run `replay-audit check {}`",
                            path.display(),
                            path.display()
                        );
                        Ok(0)
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                        eprintln!(
                            "error: `{}` already exists\nhelp: give another --output path, or move the file away first",
                            path.display()
                        );
                        Ok(2)
                    }
                    Err(e) => {
                        eprintln!("error: cannot write `{}`: {e}", path.display());
                        Ok(2)
                    }
                }
            }
        },
    }
}
