//! Scale benchmarks: each phase of `check --format json` on synthetic
//! manifests of 1k, 10k and 100k components (about 26 MB of YAML at 100k),
//! generated into `target/scale-bench/` on first use.
//!
//! `cargo bench --bench scale` runs all; `SCALE_SIZES=1000,10000 cargo bench
//! --bench scale` a subset. The 100k group takes 10 flat samples, so the
//! whole suite stays within a few minutes.

#[path = "../examples/synth/mod.rs"]
mod synth;

use std::path::PathBuf;
use std::time::Duration;

use criterion::{BatchSize, Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use replay_audit::{analysis, graph, manifest, report, rules};

fn sizes() -> Vec<usize> {
    std::env::var("SCALE_SIZES")
        .ok()
        .map(|s| s.split(',').filter_map(|x| x.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![1_000, 10_000, 100_000])
}

fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target"))
        .join("scale-bench")
}

/// The manifest of `n` components, seed 1: read from `target/` or written
/// there first.
fn manifest_text(n: usize) -> (String, String) {
    let dir = target_dir();
    let path = dir.join(format!("m{n}.yaml"));
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(_) => {
            let (t, _) = synth::generate(&synth::Config::new(n, 1));
            std::fs::create_dir_all(&dir).expect("create target/scale-bench");
            std::fs::write(&path, &t).expect("write the generated manifest");
            t
        }
    };
    (path.display().to_string(), text)
}

fn bench(c: &mut Criterion) {
    let limits = manifest::Limits::default();
    for n in sizes() {
        let (name, text) = manifest_text(n);
        let label = if n >= 1000 {
            format!("{}k", n / 1000)
        } else {
            n.to_string()
        };
        let mut g = c.benchmark_group(format!("scale-{label}"));
        g.throughput(Throughput::Bytes(text.len() as u64));
        if n >= 100_000 {
            g.sample_size(10)
                .sampling_mode(SamplingMode::Flat)
                .warm_up_time(Duration::from_millis(1))
                .measurement_time(Duration::from_secs(1));
        } else if n >= 10_000 {
            g.sample_size(10)
                .sampling_mode(SamplingMode::Flat)
                .measurement_time(Duration::from_secs(3));
        }
        let texts = || vec![(name.clone(), text.clone())];

        // The YAML alone into the generic span tree (what-if keeps it).
        g.bench_function("yaml-tree", |b| {
            b.iter(|| manifest::yaml::parse(&text, 0, &limits).expect("valid YAML"))
        });
        // Parse-only as issue #9 defines it: deserialise into the typed
        // model and nothing else (no validation, no analysis).
        g.bench_function("parse", |b| {
            b.iter_batched(
                texts,
                |t| manifest::load::load_texts(t, &limits),
                BatchSize::PerIteration,
            )
        });
        g.bench_function("load", |b| {
            b.iter_batched(
                texts,
                |t| manifest::load_texts(t, &limits).expect("valid manifest"),
                BatchSize::PerIteration,
            )
        });
        let m = manifest::load_texts(texts(), &limits).expect("valid manifest");
        g.bench_function("graph", |b| b.iter(|| graph::Graph::build(&m)));
        g.bench_function("analyse", |b| b.iter(|| analysis::analyse(&m)));
        let a = analysis::analyse(&m);
        g.bench_function("rules", |b| b.iter(|| rules::run(&a)));
        g.bench_function("check-json", |b| {
            b.iter_batched(
                texts,
                |t| {
                    let m = manifest::load_texts(t, &limits).expect("valid manifest");
                    let a = analysis::analyse(&m);
                    let findings = rules::run(&a);
                    report::json::render(&m.sources, &findings)
                },
                BatchSize::PerIteration,
            )
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
