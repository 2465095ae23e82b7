//! `check PATHS`: every rule, in the chosen format, under the policy, with
//! baselines; `check --each DIR` is [`super::each`]. An input that does not
//! load is reported in the chosen format too (and on standard error), exit 2.

use std::io::IsTerminal;
use std::path::Path;

use crate::cli::{CheckArgs, CheckFormat, FailOn, Global, OutputArg};
use replay_audit::diagnostics::echo;
use replay_audit::engine;
use replay_audit::manifest::Manifest;
use replay_audit::policy::{self, Notes};
use replay_audit::report::format::{self, CheckRun};
use replay_audit::report::root::Root;
use replay_audit::rules::{Finding, Severity};
use replay_audit::{files, report};

use super::{Outcome, inputs, severity, stdout_color, today, write_output_with};

/// What decides the output, besides the findings.
struct Output<'a> {
    format: CheckFormat,
    /// `-o FILE`, else standard output.
    file: Option<&'a Path>,
    /// `-o FORMAT=FILE`: more formats, each to its file.
    also: Also<'a>,
    /// `--quiet` and `--min-severity`.
    shown: format::Shown,
    /// `--include-accepted`.
    include_accepted: bool,
}

/// The other formats of a run, each with its file (`-o FORMAT=FILE`).
type Also<'a> = Vec<(CheckFormat, &'a Path)>;

/// The `-o` values: at most one plain file, and the other formats.
fn outputs(values: &[OutputArg]) -> Result<(Option<&Path>, Also<'_>), engine::Error> {
    let mut file = None;
    let mut also = Vec::new();
    for v in values {
        match v {
            OutputArg::File(p) if file.is_some() => {
                return Err(engine::Error::Usage {
                    message: format!(
                        "`-o {}`: the `--format` output already goes to another file",
                        echo(&p.display().to_string())
                    ),
                    help: Some(
                        "give one plain `-o FILE`, and `-o FORMAT=FILE` for each other format"
                            .into(),
                    ),
                });
            }
            OutputArg::File(p) => file = Some(p.as_path()),
            OutputArg::Also(f, p) => also.push((*f, p.as_path())),
        }
    }
    Ok((file, also))
}

/// `--each` tabulates the architectures; human diagnostics and concise
/// lines are one run's, so asking for them is refused rather than answered
/// with a table.
fn each_can_write(format: CheckFormat, also: &Also) -> Result<(), engine::Error> {
    let per_run = |f: &CheckFormat| format::of(*f).each() == format::Each::Refused;
    let Some(f) = std::iter::once(&format)
        .chain(also.iter().map(|(f, _)| f))
        .find(|f| per_run(f))
    else {
        return Ok(());
    };
    let name = clap::ValueEnum::to_possible_value(f)
        .map_or_else(String::new, |v| v.get_name().to_string());
    Err(engine::Error::Usage {
        message: format!("`check --each` cannot write `{name}`: its lines belong to one architecture"),
        help: Some("use `--format table` (the default with `--each`), `json`, `sarif`, `junit`, `github`, `gitlab` or `markdown`; or `check` one architecture for `{name}`".replace("{name}", &name)),
    })
}

pub fn run(args: &CheckArgs, g: &Global) -> Outcome {
    let CheckArgs {
        format,
        fail_on,
        config,
        each,
        output,
        quiet,
        min_severity,
        include_accepted,
        ..
    } = args;
    let format = &format.unwrap_or_else(|| {
        CheckFormat::default_for(each.is_none() && std::io::stdout().is_terminal())
    });
    let fail_on = fail_on.map(severity);
    let (file, also) = outputs(output)?;
    let out = Output {
        format: *format,
        file,
        also,
        shown: shown_for(
            format::Shown {
                quiet: *quiet,
                min_severity: min_severity.map(|s: FailOn| severity(s)),
                omit_accepted: false,
            },
            *format,
            *include_accepted,
        ),
        include_accepted: *include_accepted,
    };
    if let Some(dir) = each {
        each_can_write(*format, &out.also)?;
        let settings = super::each::Settings {
            format: *format,
            fail_on,
            config: config.as_deref(),
            output: out.file,
            shown: out.shown,
        };
        // Each other format is one more pass over the architectures.
        let mut code = super::each::run(g, dir, &settings)?;
        for (f, path) in &out.also {
            let also = super::each::Settings {
                format: *f,
                output: Some(path),
                shown: shown_for(out.shown, *f, *include_accepted),
                ..settings
            };
            code = code.max(super::each::run(g, dir, &also)?);
        }
        return Ok(code);
    }
    let result = check_once(args, g, &out, fail_on);
    // An input error goes to every machine output as well (the `--format`
    // one and each `-o FORMAT=FILE`); `commands::run` prints it on
    // standard error and exits 2.
    if let Err(input) = &result
        && !matches!(input, engine::Error::Io(_))
    {
        let (map, errors) = input.diagnostics();
        let root = Root::current();
        let outputs = std::iter::once((out.format, out.file))
            .chain(out.also.iter().map(|&(f, p)| (f, Some(p))));
        for (f, file) in outputs {
            // The terminal formats write nothing: standard error has the errors.
            let mut text = Vec::new();
            format::of(f).write_errors(&mut text, &map, &errors, &root)?;
            if !text.is_empty() {
                write_output_with(file, |w| w.write_all(&text))?;
            }
        }
    }
    result
}

/// What an output in `format` shows: SARIF leaves accepted findings out
/// unless `--include-accepted` (GitHub code scanning reads no
/// suppressions); every other format keeps them, marked.
fn shown_for(base: format::Shown, format: CheckFormat, include_accepted: bool) -> format::Shown {
    format::Shown {
        omit_accepted: format == CheckFormat::Sarif && !include_accepted,
        ..base
    }
}

/// `--diff`: the fixes as a unified diff on standard output; exit 1 when
/// there is one.
fn show_diff(fixed: &[replay_audit::fix::Fixed]) -> Outcome {
    let text: String = fixed
        .iter()
        .map(|f| replay_audit::fix::unified_diff(&f.path, &f.before, &f.after))
        .collect();
    let written = super::write_output(None, &echo_lines(&text))?;
    Ok(written.max(u8::from(!text.is_empty())))
}

/// The diff as printed: every line inert, as the files' text may hold
/// control characters.
fn echo_lines(text: &str) -> String {
    text.lines().map(|l| echo(l) + "\n").collect()
}

/// `--fix`: each file rewritten whole, atomically; what changed on
/// standard error.
fn apply_fixes(fixed: &[replay_audit::fix::Fixed]) -> Result<(), engine::Error> {
    for f in fixed {
        let path = Path::new(&f.path);
        replay_audit::files::write_atomic(path, f.after.as_bytes(), replay_audit::files::Mode::Fix)
            .map_err(|e| engine::Error::usage(e.message.clone(), e.help.clone()))?;
        for c in &f.changes {
            eprintln!("fixed {}: {}", echo(&f.path), echo(c));
        }
    }
    Ok(())
}

/// Loads, checks and renders; an input error is returned as such.
fn check_once(args: &CheckArgs, g: &Global, out: &Output, fail_on: Option<Severity>) -> Outcome {
    let CheckArgs {
        paths,
        parameters,
        config,
        baseline,
        write_baseline,
        overrides,
        fix,
        diff,
        ..
    } = args;
    let inputs = inputs(
        g,
        paths,
        parameters,
        config.as_deref(),
        overrides.as_deref(),
    )?;
    let mut m = engine::load(&inputs)?;
    let policy = engine::policy(&inputs)?;
    let today = today()?;
    if *fix || *diff {
        let checked = engine::check(&m, &policy, today);
        let fixed = replay_audit::fix::plan(&m, &checked.findings, policy.margin);
        drop(checked);
        if *diff {
            return show_diff(&fixed);
        }
        apply_fixes(&fixed)?;
        // What remains, read from the files as they are now.
        m = engine::load(&inputs)?;
    }
    if matches!(
        out.format,
        CheckFormat::Json
            | CheckFormat::Sarif
            | CheckFormat::Junit
            | CheckFormat::Github
            | CheckFormat::Gitlab
    ) {
        // These formats show locations, never snippets.
        m.sources.forget_texts();
    }
    let checked = engine::check(&m, &policy, today);
    let mut findings = checked.findings;
    let mut notes = Notes {
        unused_waivers: checked.unused_waivers,
        ..policy.notes()
    };
    // The analysis is done with once the findings are made (only the
    // Markdown comment shows horizons): freeing it before rendering lowers
    // the peak memory of a large manifest.
    let summary = step_summary_path();
    let markdown = out.format == CheckFormat::Markdown
        || summary.is_some()
        || out.also.iter().any(|(f, _)| *f == CheckFormat::Markdown);
    let horizon_rows = if markdown {
        report::horizon::rows(&checked.analysis, None, None)
    } else {
        Vec::new()
    };
    drop(checked.analysis);
    if let Some(path) = write_baseline
        && let Some(code) = write_baseline_file(path, &mut findings)
    {
        return Ok(code);
    }
    if let Some(path) = baseline {
        let b = policy::Baseline::read(path).map_err(engine::Error::from)?;
        notes.stale_baseline = b.apply(&mut findings);
    }
    let threshold = policy.threshold(fail_on);
    let code = u8::from(findings.iter().any(|f| f.fails(threshold)));
    let notes = out.shown.notes(notes);
    // SARIF leaves accepted findings out on its own (see `render`), so the
    // other outputs of the run still get them.
    let keep = format::Shown {
        omit_accepted: false,
        ..out.shown
    };
    findings.retain(|f| keep.shows(f, threshold));
    let run = Rendered {
        manifest: &m,
        findings: &findings,
        notes: &notes,
        horizon_rows: &horizon_rows,
        threshold,
    };
    let mut written = render(g, out, &run)?;
    for (f, path) in &out.also {
        let also = Output {
            format: *f,
            file: Some(path),
            also: Vec::new(),
            shown: shown_for(out.shown, *f, out.include_accepted),
            include_accepted: out.include_accepted,
        };
        written = written.max(render(g, &also, &run)?);
    }
    if let Some(path) = summary {
        append_summary(&path, &run);
    }
    for w in notes.warnings(
        baseline
            .as_ref()
            .map(|b| b.display().to_string())
            .as_deref(),
    ) {
        eprintln!("{}", echo(&w));
    }
    Ok(code.max(written))
}

/// Writes the fingerprints of the findings to `path` and marks them
/// baselined; `Some(2)` when the file cannot be written.
fn write_baseline_file(path: &Path, findings: &mut [Finding]) -> Option<u8> {
    let b = policy::Baseline::of(findings);
    if let Err(e) = files::write_atomic(path, b.to_json().as_bytes(), files::Mode::Replace) {
        eprintln!("{e}");
        return Some(2);
    }
    eprintln!(
        "wrote {} fingerprint(s) to {}",
        b.fingerprints.len(),
        echo(&path.display().to_string())
    );
    b.apply(findings);
    None
}

/// The step summary file of a GitHub Actions job (`GITHUB_STEP_SUMMARY`).
fn step_summary_path() -> Option<std::path::PathBuf> {
    std::env::var_os("GITHUB_STEP_SUMMARY")
        .filter(|p| !p.is_empty())
        .map(std::path::PathBuf::from)
}

/// On GitHub Actions, the Markdown comment (cut under GitHub's limit) is
/// appended to the step summary, so the job page shows the findings
/// whatever `--format` the log has. A summary file the run read as input is
/// left alone, and a failure to append is a warning, never the run's
/// result.
fn append_summary(path: &Path, r: &Rendered) {
    use std::io::Write;
    if files::is_input(path) {
        eprintln!("warning: GITHUB_STEP_SUMMARY names an input file; no summary written");
        return;
    }
    let accepted = format::accepted(r.findings);
    let run = r.run(&accepted, false);
    let mut text = Vec::new();
    let wrote = format::of(CheckFormat::Markdown)
        .write(&mut text, &run)
        .and_then(|()| {
            std::fs::OpenOptions::new()
                .append(true)
                .create(true)
                .open(path)?
                .write_all(&text)
        });
    if let Err(e) = wrote {
        eprintln!("warning: the step summary could not be written: {e}");
    }
}

/// What a checked run renders.
#[derive(Clone, Copy)]
struct Rendered<'a> {
    manifest: &'a Manifest,
    findings: &'a [Finding],
    notes: &'a Notes,
    horizon_rows: &'a [report::horizon::Row],
    threshold: Severity,
}

impl<'a> Rendered<'a> {
    /// What a format writes, with `accepted` from [`format::accepted`].
    fn run(&self, accepted: &'a [Option<&'a str>], color: bool) -> CheckRun<'a> {
        CheckRun {
            manifest: self.manifest,
            findings: self.findings,
            notes: self.notes,
            accepted,
            horizon_rows: self.horizon_rows,
            color,
            threshold: self.threshold,
            root: Root::current(),
        }
    }
}

/// The findings in the chosen format, on standard output or to `-o FILE`;
/// 2 when the file cannot be written.
fn render(g: &Global, out: &Output, r: &Rendered) -> Outcome {
    let kept: Vec<Finding>;
    let mut r = *r;
    if out.shown.omit_accepted {
        kept = r
            .findings
            .iter()
            .filter(|f| f.waived.is_none() && !f.baselined)
            .cloned()
            .collect();
        r.findings = &kept;
    }
    let accepted = format::accepted(r.findings);
    // A file gets no terminal colours.
    let run = r.run(&accepted, out.file.is_none() && stdout_color(g));
    write_output_with(out.file, |w| format::of(out.format).write(w, &run))
}
