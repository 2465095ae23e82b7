//! Writes one manifest of hostile size (see tests/common/hostile_gen.rs)
//! for benches/hostile_growth.sh.
//!
//! ```text
//! cargo run --release --example hostile_gen -- ring 5000 > target/ring5000.yaml
//! ```
//!
//! Shapes: `ring N`, `chain N`, `hub N`, `word BYTES`.

#[path = "../tests/common/hostile_gen.rs"]
mod hostile_gen;

use std::io::Write;
use std::process::ExitCode;

const USAGE: &str = "usage: hostile_gen (ring|relays|chain|hub|word) N";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(shape), Some(n), 2) = (args.first(), args.get(1), args.len()) else {
        eprintln!("error: give a shape and a size\n{USAGE}");
        return ExitCode::from(2);
    };
    let Ok(n) = n.parse::<usize>() else {
        eprintln!("error: `{n}` is not a whole number\n{USAGE}");
        return ExitCode::from(2);
    };
    let text = match shape.as_str() {
        "ring" => hostile_gen::ring(n),
        "relays" => hostile_gen::relays(n),
        "chain" => hostile_gen::chain(n),
        "hub" => hostile_gen::hub(n),
        "word" => hostile_gen::long_word(n).0,
        other => {
            eprintln!("error: unknown shape `{other}`\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: cannot write: {e}");
            ExitCode::from(2)
        }
    }
}
