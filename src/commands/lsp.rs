//! `lsp`: the language server on standard input and output, until the
//! client asks it to exit ([`replay_audit::lsp`]).

use crate::cli::Global;

use super::{Outcome, limits};

pub fn run(g: &Global) -> Outcome {
    replay_audit::lsp::serve_stdio(limits(g))?;
    Ok(0)
}
