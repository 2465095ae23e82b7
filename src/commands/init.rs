//! `init [--output FILE]`: a commented starter manifest that passes `check`.

use super::Outcome;
use std::path::Path;

use crate::init;
use replay_audit::diagnostics::echo;
use replay_audit::files;

use super::out;

pub fn run(output: Option<&Path>) -> Outcome {
    let Some(path) = output else {
        out(init::STARTER)?;
        return Ok(0);
    };
    let text = init::starter_for(&path.display().to_string());
    let written = files::write_atomic(path, text.as_bytes(), files::Mode::CreateNew);
    match written {
        Ok(()) => {
            let path = path.display().to_string();
            eprintln!(
                "wrote {}; run `replay-audit check {}`",
                echo(&path),
                init::shell_word(&path)
            );
            Ok(0)
        }
        Err(e) => {
            let e = match e.kind {
                files::WriteErrorKind::Exists => {
                    e.help("give another --output path, or move the file away first")
                }
                _ => e,
            };
            eprintln!("{e}");
            Ok(2)
        }
    }
}
