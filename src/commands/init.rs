//! `init [--output FILE]`: a commented starter manifest that passes `check`.

use std::io::Write;
use std::path::Path;

use replay_audit::init;

use super::out;

pub fn run(output: Option<&Path>) -> anyhow::Result<u8> {
    let Some(path) = output else {
        out(init::STARTER)?;
        return Ok(0);
    };
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .and_then(|mut f| f.write_all(init::STARTER.as_bytes()));
    match written {
        Ok(()) => {
            eprintln!(
                "wrote {}; run `replay-audit check {}`",
                path.display(),
                path.display()
            );
            Ok(0)
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            eprintln!(
                "error: `{}` already exists\nhelp: give another --output path, or move the file away first",
                path.display()
            );
            Ok(2)
        }
        Err(e) => {
            eprintln!("error: cannot write `{}`: {e}", path.display());
            Ok(2)
        }
    }
}
