//! Times each phase of `check --format json` on one manifest file, for
//! profiling without a profiler:
//! `cargo run --release --example phases -- target/m100k.yaml`.

use std::time::Instant;

use replay_audit::{analysis, graph, manifest, report, rules};

/// Current and peak resident memory (Linux), in MB.
fn rss() -> String {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let get = |k: &str| {
        status
            .lines()
            .find(|l| l.starts_with(k))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse::<u64>().ok())
            .map_or(0, |kb| kb / 1024)
    };
    format!("rss {} MB, peak {} MB", get("VmRSS:"), get("VmHWM:"))
}

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: phases FILE");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(&path).expect("readable manifest");
    let limits = manifest::Limits::default();
    let t = Instant::now();
    let tree = manifest::yaml::parse(&text, 0, &limits).expect("valid YAML");
    let parse = t.elapsed();
    eprintln!("after parse: {}", rss());
    drop(tree);
    if std::env::var_os("PHASES_PARSE_ONLY").is_some() {
        println!("parse {:.1} ms", parse.as_secs_f64() * 1e3);
        return;
    }
    let t = Instant::now();
    let m =
        manifest::load_texts(vec![(path.clone(), text.clone())], &limits).expect("valid manifest");
    let load = t.elapsed();
    eprintln!("after load: {}", rss());
    let t = Instant::now();
    let g = graph::Graph::build(&m);
    let build = t.elapsed();
    drop(g);
    let t = Instant::now();
    let a = analysis::analyse(&m);
    let analyse = t.elapsed();
    eprintln!("after analyse: {}", rss());
    let t = Instant::now();
    let findings = rules::check(&a);
    let check = t.elapsed();
    eprintln!("after rules: {}", rss());
    let t = Instant::now();
    let json = report::json::render(&m.sources, &findings);
    let render = t.elapsed();
    eprintln!("after render: {}", rss());
    println!(
        "{} bytes, {} components, {} intents, {} findings, {} bytes of JSON",
        text.len(),
        m.components.len(),
        m.intents.len(),
        findings.len(),
        json.len()
    );
    for (name, d) in [
        ("parse", parse),
        ("load+validate", load),
        ("graph", build),
        ("analyse", analyse),
        ("rules", check),
        ("render", render),
    ] {
        println!("{name:>14} {:>10.1} ms", d.as_secs_f64() * 1e3);
    }
}
