//! `lsp`: the language server on standard input and output, until the
//! client asks it to exit ([`replay_audit::lsp`]).

use crate::cli::Cli;

use super::limits;

pub fn run(cli: &Cli) -> anyhow::Result<u8> {
    replay_audit::lsp::serve_stdio(limits(cli))?;
    Ok(0)
}
