//! End-to-end over parse-only, each in a fresh process as a user runs it:
//!
//! ```text
//! cargo build --release --example ratio
//! /usr/bin/time -f %e target/release/examples/ratio parse target/scale-bench/m100000.yaml
//! /usr/bin/time -f %e target/release/examples/ratio check target/scale-bench/m100000.yaml
//! ```
//!
//! `parse` deserialises into the typed model and nothing else; `check` does
//! what `replay-audit check --format json` does (load with validation,
//! analysis, rules, JSON written to standard output). In-process benchmarks
//! (criterion) run the two on differently warmed heaps; from the outside,
//! both pay the same process start and page faults.

use std::io::Write;

use replay_audit::{analysis, manifest, report, rules};

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(mode), Some(path)) = (args.next(), args.next()) else {
        eprintln!("usage: ratio parse|check FILE");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(&path).expect("readable manifest");
    let limits = manifest::Limits::default();
    let loaded = manifest::load::load_texts(vec![(path, text)], &limits);
    assert!(loaded.errors.is_empty(), "the manifest has errors");
    if mode == "parse" {
        return;
    }
    let m = manifest::validated(loaded).expect("valid manifest");
    let a = analysis::analyse(&m);
    let findings = rules::run(&a);
    drop(a);
    let out = std::io::BufWriter::new(std::io::stdout().lock());
    report::json::write_with(out, &m.sources, &findings, &Default::default())
        .expect("stdout is writable");
    std::io::stdout().flush().expect("stdout is writable");
}
