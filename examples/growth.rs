//! Best-of-N timing of the analysis on one loaded manifest, for the growth
//! ratio of docs/performance.md (the minimum over repeated runs in one
//! process is the least noisy figure on a machine that swings between runs):
//! `cargo run --release --example growth -- FILE [RUNS]`.

use std::time::{Duration, Instant};

use replay_audit::{analysis, graph, manifest};

fn best<T>(runs: usize, mut f: impl FnMut() -> T) -> Duration {
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            let out = f();
            let d = t.elapsed();
            drop(out);
            d
        })
        .min()
        .unwrap_or_default()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: growth FILE [RUNS]");
        std::process::exit(2);
    };
    let runs: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(20);
    let text = std::fs::read_to_string(&path).expect("readable manifest");
    let loaded = manifest::load::load_texts(vec![(path.clone(), text)], &Default::default());
    let m = manifest::check(loaded).expect("valid manifest");
    let g = graph::Graph::build(&m);
    let graph = best(runs, || graph::Graph::build(&m));
    let model = best(runs, || analysis::Model::build(&m, &g));
    drop(g);
    let analyse = best(runs, || analysis::analyse(&m));
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "{path}: best of {runs}: analyse {:.2} ms (graph {:.2} ms, model {:.2} ms, runs about {:.2} ms)",
        ms(analyse),
        ms(graph),
        ms(model),
        ms(analyse.saturating_sub(graph + model))
    );
}
