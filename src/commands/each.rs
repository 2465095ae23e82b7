//! `check --each DIR`: every architecture of DIR, in parallel, each under
//! its own policy ([`replay_audit::org`]).

use std::io::IsTerminal;
use std::path::Path;

use replay_audit::cli::{CheckFormat, Cli};
use replay_audit::diagnostics::{SourceMap, echo};
use replay_audit::org;
use replay_audit::rules::Severity;

use super::{color, limits, out, today};

pub fn run(
    cli: &Cli,
    dir: &Path,
    format: CheckFormat,
    fail_on: Option<Severity>,
    config: Option<&Path>,
) -> anyhow::Result<u8> {
    let archs = match org::architectures(dir) {
        Ok(a) => a,
        Err(d) => {
            eprintln!("{}", d.one_line(&SourceMap::default()));
            return Ok(2);
        }
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
            return Ok(2);
        }
    };
    let run = org::Run {
        limits: limits(cli),
        fail_on,
        config: config.map(Path::to_path_buf),
        today: today()?,
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
        eprintln!("error: {}", echo(&format!("{e:#}")));
        return Ok(2);
    }
    Ok(org::exit_code(&outcomes))
}
