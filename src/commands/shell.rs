//! `shell PATHS`: the interactive what-if session, on a terminal or from a
//! pipe.

use std::io::IsTerminal;

use crate::cli::{Global, ShellArgs};
use crate::shell;
use replay_audit::engine;

use super::{Outcome, inputs, stderr_color, today};

pub fn run(args: &ShellArgs, g: &Global) -> Outcome {
    let ShellArgs {
        paths,
        parameters,
        config,
    } = args;
    let inputs = inputs(g, paths, parameters, config.as_deref(), None)?;
    let session = engine::session(&inputs)?;
    let policy = engine::policy(&inputs)?;
    let today = today()?;
    let tty = std::io::stdin().is_terminal();
    let mut sh = shell::Shell::new(session, policy, today, tty && stderr_color(g))
        .map_err(engine::Error::from)?;
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
