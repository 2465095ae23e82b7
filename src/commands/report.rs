//! `report PATHS`: the design-review checklist, per intent, in Markdown or
//! HTML.

use crate::cli::{Global, ReportArgs, ReportFormat};
use replay_audit::report::review::Review;
use replay_audit::report::review::page::Written;
use replay_audit::{engine, report};

use super::{Outcome, inputs, today, write_output_with};

pub fn run(args: &ReportArgs, g: &Global) -> Outcome {
    let ReportArgs {
        paths,
        parameters,
        format,
        output,
        config,
    } = args;
    let inputs = inputs(g, paths, parameters, config.as_deref(), None)?;
    let m = engine::load(&inputs)?;
    let policy = engine::policy(&inputs)?;
    let checked = engine::check(&m, &policy, today()?);
    let (a, findings) = (&checked.analysis, &checked.findings[..]);
    type Render = fn(&Review<Written>, &mut dyn std::io::Write) -> std::io::Result<()>;
    let (parts, render): (_, Render) = match format {
        ReportFormat::Markdown => (report::review_md::PARTS, report::review_md::render_to),
        ReportFormat::Html => (report::review_html::PARTS, report::review_html::render_to),
    };
    let review = report::review::build_written(a, findings, parts);
    write_output_with(output.as_deref(), |w| render(&review, w))
}
