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
    let model = || analysis::Model::build(&m, graph::Graph::build(&m));
    if std::env::var_os("GROWTH_MODEL_ONLY").is_some() {
        // For a profiler: the graph and the model alone.
        let model = best(runs, model);
        println!("graph and model {:.2} ms", model.as_secs_f64() * 1e3);
        return;
    }
    let graph = best(runs, || graph::Graph::build(&m));
    let model = best(runs, model).saturating_sub(graph);
    let analyse = best(runs, || analysis::analyse(&m));
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "{path}: best of {runs}: analyse {:.2} ms (graph {:.2} ms, model about {:.2} ms, runs about {:.2} ms)",
        ms(analyse),
        ms(graph),
        ms(model),
        ms(analyse.saturating_sub(graph + model))
    );
}
