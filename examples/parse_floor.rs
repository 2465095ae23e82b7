//! The parse floor of issue #21: serde-saphyr reading a file into a
//! generic `serde_json::Value`, with no budget and nothing else (no spans,
//! no typed model, no validation, no output). `check --format json` is
//! measured against it by `benches/ratios.sh`:
//!
//! ```text
//! cargo build --release --example parse_floor
//! /usr/bin/time -f %e target/release/examples/parse_floor target/scale-bench/ratio-4mb.yaml
//! ```
//!
//! It exits 0 and prints nothing when the file parses, so that a run costs
//! what the parse costs; an unreadable or invalid file exits 2 with the
//! parser's message.

use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: parse_floor FILE");
        return ExitCode::from(2);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::from(2);
        }
    };
    let options = serde_saphyr::options! { budget: None };
    match serde_saphyr::from_str_with_options::<serde_json::Value>(&text, options) {
        // Dropped here, inside the timed process, as the tool drops its tree.
        Ok(value) => {
            drop(value);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{path}: {e}");
            ExitCode::from(2)
        }
    }
}
