//! Best-of-N timing of the analysis, for the growth ratios of
//! docs/performance.md:
//! `cargo run --release --example growth -- [--runs N] FILE...`.
//!
//! This machine swings between a fast and a slow mode for seconds at a
//! time, so the files are timed in turns (one run of each file per round)
//! and each keeps its fastest run: every file sees the same modes, and the
//! minimum is the least noisy figure. Each run times the graph, the model
//! and the whole analysis separately.

use std::time::{Duration, Instant};

use replay_audit::{analysis, graph, manifest};

#[derive(Clone, Copy)]
struct Best {
    graph: Duration,
    model: Duration,
    analyse: Duration,
}

fn time<T>(f: impl FnOnce() -> T) -> Duration {
    let t = Instant::now();
    let out = f();
    let d = t.elapsed();
    drop(out);
    d
}

fn main() {
    let mut runs = 20;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--runs" {
            runs = args.next().and_then(|r| r.parse().ok()).unwrap_or(runs);
        } else {
            files.push(a);
        }
    }
    if files.is_empty() {
        eprintln!("usage: growth [--runs N] FILE...");
        std::process::exit(2);
    }
    let manifests: Vec<manifest::Manifest> = files
        .iter()
        .map(|path| {
            let text = std::fs::read_to_string(path).expect("readable manifest");
            let loaded =
                manifest::load::load_texts(vec![(path.clone(), text)], &Default::default());
            manifest::validated(loaded).expect("valid manifest")
        })
        .collect();
    let forever = Duration::MAX;
    let mut best = vec![
        Best {
            graph: forever,
            model: forever,
            analyse: forever,
        };
        files.len()
    ];
    for _ in 0..runs {
        for (m, b) in manifests.iter().zip(&mut best) {
            b.graph = b.graph.min(time(|| graph::Graph::build(m)));
            let g = graph::Graph::build(m);
            b.model = b.model.min(time(|| analysis::Model::build(m, g)));
            b.analyse = b.analyse.min(time(|| analysis::analyse(m)));
        }
    }
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let mut last: Option<Best> = None;
    for (path, b) in files.iter().zip(&best) {
        let growth = last.map_or(String::new(), |l| {
            format!(
                "; growth {:.1}x (graph {:.1}x, model {:.1}x)",
                ms(b.analyse) / ms(l.analyse),
                ms(b.graph) / ms(l.graph),
                ms(b.model) / ms(l.model)
            )
        });
        println!(
            "{path}: best of {runs}: analyse {:.2} ms (graph {:.2} ms, model {:.2} ms){growth}",
            ms(b.analyse),
            ms(b.graph),
            ms(b.model),
        );
        last = Some(*b);
    }
}
