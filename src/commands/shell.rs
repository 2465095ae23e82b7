//! `shell PATHS`: the interactive what-if session, on a terminal or from a
//! pipe.

use std::io::IsTerminal;

use crate::cli::{Cli, Command};
use crate::shell;
use replay_audit::engine;

use super::{inputs, stderr_color, today};

pub fn run(cli: &Cli) -> anyhow::Result<u8> {
    let Command::Shell {
        paths,
        parameters,
        config,
    } = &cli.command
    else {
        unreachable!("dispatched on Shell")
    };
    let inputs = inputs(cli, paths, parameters, config.as_deref(), None)?;
    let session = engine::session(&inputs)?;
    let policy = engine::policy(&inputs)?;
    let today = today()?;
    let tty = std::io::stdin().is_terminal();
    let mut sh = shell::Shell::new(session, policy, today, tty && stderr_color(cli))
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
