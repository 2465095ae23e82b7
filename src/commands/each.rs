//! `check --each DIR`: every architecture of DIR, in parallel, each under
//! its own policy ([`crate::org`]), in any `--format` (one SARIF run
//! or JUnit suite per architecture), to standard output or `-o FILE`.

use std::io::IsTerminal;
use std::path::Path;

use crate::cli::{CheckFormat, Global};
use crate::org;
use replay_audit::diagnostics::SourceMap;
use replay_audit::report::format::{self, Each};
use replay_audit::report::root::Root;
use replay_audit::rules::Severity;

use super::{Outcome, color, limits, today};

/// The options of `check` that `--each` takes.
pub struct Settings<'a> {
    pub format: CheckFormat,
    pub fail_on: Option<Severity>,
    pub config: Option<&'a Path>,
    /// `-o FILE`, else standard output.
    pub output: Option<&'a Path>,
    /// `--quiet` and `--min-severity`.
    pub shown: replay_audit::report::format::Shown,
}

pub fn run(g: &Global, dir: &Path, s: &Settings) -> Outcome {
    let archs = match org::architectures(dir) {
        Ok(a) => a,
        Err(d) => {
            eprintln!("{}", d.one_line(&SourceMap::default()));
            return Ok(2);
        }
    };
    let render = match format::of(s.format).each() {
        // Refused before (`check::each_can_write`).
        Each::Table | Each::Refused => org::Render::Table {
            color: s.output.is_none() && color(g.color, std::io::stdout().is_terminal()),
        },
        Each::Json => org::Render::Json,
        Each::Parts => org::Render::Parts(s.format),
    };
    let run = org::Run {
        limits: limits(g),
        fail_on: s.fail_on,
        config: s.config.map(Path::to_path_buf),
        today: today()?,
        render,
        root: Root::current(),
        shown: s.shown,
    };
    let progress = org::Progress::new(archs.len());
    let tty = std::io::stderr().is_terminal();
    let outcomes = org::check_all(&archs, &run, &|done| {
        if tty {
            progress.tick(done)
        }
    });
    let code = org::exit_code(&outcomes);
    let text = match render {
        org::Render::Json => org::render_json(&outcomes),
        org::Render::Table { .. } => org::render_table(&outcomes),
        org::Render::Parts(format) => org::render_parts(format, outcomes),
    };
    let written = super::write_output(s.output, &text)?;
    Ok(code.max(written))
}
