//! `check PATHS`: every rule, in the chosen format, under the policy, with
//! baselines; `check --each DIR` is [`super::each`].

use std::path::Path;

use replay_audit::cli::{CheckFormat, Cli, Command};
use replay_audit::diagnostics::echo;
use replay_audit::engine;
use replay_audit::manifest::Manifest;
use replay_audit::policy::{self, Notes};
use replay_audit::rules::Finding;
use replay_audit::{files, report};

use super::{inputs, out, out_with, severity, stdout_color, today};

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
    render(cli, *format, &m, &findings, &notes, &horizon_rows)?;
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
) -> anyhow::Result<()> {
    // Waived and baselined findings, for the formats that mark them (SARIF
    // suppressions, JUnit skipped cases).
    let accepted: Vec<Option<&str>> = findings
        .iter()
        .map(|f| match (&f.waived, f.baselined) {
            (Some(w), _) => Some(w.reason.as_str()),
            (None, true) => Some("listed in the baseline"),
            (None, false) => None,
        })
        .collect();
    let s = &m.sources;
    match format {
        CheckFormat::Table => out(&report::table::render(s, findings, stdout_color(cli))),
        // Written as it is produced: a large report is never held whole.
        CheckFormat::Json => out_with(|w| report::json::write_with(w, s, findings, notes)),
        CheckFormat::Sarif => out(&report::sarif::render_with(s, findings, Some(m), &accepted)),
        CheckFormat::Junit => {
            let intents: Vec<&str> = m.intents.iter().map(|i| i.id.as_str()).collect();
            out(&report::junit::render_with(
                s, &intents, findings, &accepted,
            ))
        }
        CheckFormat::Github => out(&report::github::render(s, findings)),
        CheckFormat::Markdown => out(&report::markdown::render_full(
            s,
            findings,
            Some(m),
            horizon_rows,
        )),
    }
}
