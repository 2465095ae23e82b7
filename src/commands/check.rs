//! `check PATHS`: every rule, in the chosen format, under the policy, with
//! baselines; `check --each DIR` is [`super::each`].

use std::io::IsTerminal;
use std::path::Path;

use replay_audit::cli::{CheckFormat, Cli, Command};
use replay_audit::diagnostics::echo;
use replay_audit::engine;
use replay_audit::manifest::Manifest;
use replay_audit::policy::{self, Notes};
use replay_audit::report::format::{self, CheckRun, Format};
use replay_audit::rules::Finding;
use replay_audit::{files, report};

use super::{inputs, out_with, severity, stdout_color, today};

pub fn run(cli: &Cli) -> anyhow::Result<u8> {
    let Command::Check {
        paths,
        parameters,
        format,
        fail_on,
        config,
        baseline,
        write_baseline,
        overrides,
        each,
    } = &cli.command
    else {
        unreachable!("dispatched on Check")
    };
    let format = &format.unwrap_or_else(|| {
        CheckFormat::default_for(each.is_none() && std::io::stdout().is_terminal())
    });
    if let Some(dir) = each {
        return super::each::run(cli, dir, *format, fail_on.map(severity), config.as_deref());
    }
    let inputs = inputs(
        cli,
        paths,
        parameters,
        config.as_deref(),
        overrides.as_deref(),
    )?;
    let mut m = engine::load(&inputs)?;
    if matches!(format, CheckFormat::Json) {
        // JSON shows locations, never snippets.
        m.sources.forget_texts();
    }
    let policy = engine::policy(&inputs)?;
    let today = today()?;
    let checked = engine::check(&m, &policy, today);
    let mut findings = checked.findings;
    let mut notes = Notes {
        unused_waivers: checked.unused_waivers,
        stale_baseline: Vec::new(),
    };
    // The analysis is done with once the findings are made (only the
    // Markdown comment shows horizons): freeing it before rendering lowers
    // the peak memory of a large manifest.
    let horizon_rows = matches!(format, CheckFormat::Markdown)
        .then(|| report::horizon::rows(&checked.analysis, None, None))
        .unwrap_or_default();
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
    render(
        cli,
        *format,
        &m,
        &findings,
        &notes,
        &horizon_rows,
        policy.margin,
    )?;
    for w in notes.warnings(
        baseline
            .as_ref()
            .map(|b| b.display().to_string())
            .as_deref(),
    ) {
        eprintln!("{}", echo(&w));
    }
    let threshold = policy.threshold(fail_on.map(severity));
    Ok(u8::from(findings.iter().any(|f| f.fails(threshold))))
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

/// The findings in `format` on standard output.
fn render(
    cli: &Cli,
    format: CheckFormat,
    m: &Manifest,
    findings: &[Finding],
    notes: &Notes,
    horizon_rows: &[report::horizon::Row],
    margin: replay_audit::rules::Margin,
) -> anyhow::Result<()> {
    let accepted = format::accepted(findings);
    let run = CheckRun {
        manifest: m,
        findings,
        notes,
        accepted: &accepted,
        horizon_rows,
        color: stdout_color(cli),
    };
    match format {
        // The help of a diagnostic names the retention the policy's margin asks for.
        CheckFormat::Human => out_with(|w| report::diagnostic::Human { margin }.write(w, &run)),
        _ => out_with(|w| format::of(format).write(w, &run)),
    }
}
