//! What a `set` costs in `what-if` and the shell, against the first check.
//!
//! The session parses the YAML once; a `set` edits a copy of the parsed
//! trees, then reads the model, validates and re-analyses. The benchmark
//! compares `first-check` (read, parse, load, analyse, rules) with `set`
//! (one retention changed, then load, analyse, rules) on the generated
//! manifests; `SCALE_SIZES=100000 cargo bench --bench whatif` runs the
//! 100k-component one (about 26 MB of YAML).

#[path = "../examples/synth/mod.rs"]
mod synth;

use std::path::PathBuf;
use std::time::Duration;

use criterion::{Criterion, SamplingMode, criterion_group, criterion_main};
use replay_audit::{analysis, engine, manifest, rules};

fn sizes() -> Vec<usize> {
    std::env::var("SCALE_SIZES")
        .ok()
        .map(|s| s.split(',').filter_map(|x| x.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![1_000, 10_000])
}

fn manifest_path(n: usize) -> PathBuf {
    let dir = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target"))
        .join("scale-bench");
    let path = dir.join(format!("m{n}.yaml"));
    if !path.exists() {
        let (t, _) = synth::generate(&synth::Config::new(n, 1));
        std::fs::create_dir_all(&dir).expect("create target/scale-bench");
        std::fs::write(&path, t).expect("write the generated manifest");
    }
    path
}

fn bench(c: &mut Criterion) {
    let limits = manifest::Limits::default();
    for n in sizes() {
        let path = manifest_path(n);
        let mut g = c.benchmark_group(format!("whatif-{}k", n / 1000));
        g.sample_size(10)
            .sampling_mode(SamplingMode::Flat)
            .measurement_time(Duration::from_secs(2));
        // What `check` and `what-if` run: the engine's load and session.
        let inputs = engine::Inputs {
            paths: vec![path.clone()],
            limits,
            ..Default::default()
        };
        g.bench_function("first-check", |b| {
            b.iter(|| {
                let m = engine::load(&inputs).expect("valid manifest");
                rules::run(&analysis::analyse(&m)).len()
            })
        });
        let mut session = engine::session(&inputs).expect("parses");
        // The first store of the generated manifest.
        let base = session.build(&[]).expect("valid manifest");
        let store = base
            .manifest
            .components
            .iter()
            .find(|c| c.kind.value == "dynamodb-table")
            .expect("a store")
            .id
            .clone();
        let set = session
            .parse_set("bench", &format!("{store}.retention=30d"))
            .expect("a valid change");
        g.bench_function("set", |b| {
            b.iter(|| {
                let built = session
                    .build(std::slice::from_ref(&set))
                    .expect("valid manifest");
                rules::run(&analysis::analyse(&built.manifest)).len()
            })
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
