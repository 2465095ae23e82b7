//! Times each phase of `check --format json` on one manifest file, for
//! profiling without a profiler:
//! `cargo run --release --example phases -- target/m100k.yaml`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// Counts live heap bytes, so each phase's memory is measured exactly
/// (resident memory does not fall when the allocator keeps freed pages).
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

use replay_audit::{analysis, graph, manifest, report, rules};

/// Prints how many MB of live heap each step frees.
struct Freed(usize);

impl Freed {
    fn live() -> usize {
        LIVE.load(Ordering::Relaxed) >> 20
    }

    fn start() -> Freed {
        Freed(Freed::live())
    }

    fn step(&mut self, what: &str) {
        let now = Freed::live();
        println!("{what:>12} {:>5} MB", self.0 - now);
        self.0 = now;
    }
}

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
    format!(
        "heap live {} MB, heap peak {} MB; rss {} MB, peak rss {} MB",
        LIVE.load(Ordering::Relaxed) >> 20,
        PEAK.load(Ordering::Relaxed) >> 20,
        get("VmRSS:"),
        get("VmHWM:")
    )
}

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: phases FILE");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(&path).expect("readable manifest");
    let limits = manifest::Limits::default();
    let texts = || vec![(path.clone(), text.clone())];
    // The YAML alone, into the generic span tree (what-if keeps this tree).
    let t = Instant::now();
    let tree = manifest::yaml::parse(&text, 0, &limits).expect("valid YAML");
    let yaml = t.elapsed();
    drop(tree);
    eprintln!("after YAML tree: {}", rss());
    // Parse-only as the issue defines it: deserialise into the typed model
    // and nothing else (no validation).
    let t = Instant::now();
    let loaded = manifest::load::load_texts(texts(), &limits);
    let parse = t.elapsed();
    assert!(loaded.errors.is_empty(), "the manifest has errors");
    eprintln!("after parse-only: {}", rss());
    if std::env::var_os("PHASES_PARSE_ONLY").is_some() {
        println!("parse {:.1} ms", parse.as_secs_f64() * 1e3);
        return;
    }
    let t = Instant::now();
    let m = manifest::validated(loaded).expect("valid manifest");
    let validate = t.elapsed();
    let load = parse + validate;
    eprintln!("after load: {}", rss());
    if std::env::var_os("PHASES_MODEL_SIZES").is_some() {
        let mut m = m;
        let mut freed = Freed::start();
        let links: usize = m.components.iter().map(|c| c.links().count()).sum();
        println!("{} links", links);
        for c in &mut m.components {
            c.set_links(Vec::new());
        }
        freed.step("links");
        for c in &mut m.components {
            c.dedup = None;
            c.backup = None;
        }
        freed.step("guards");
        m.intents = Vec::new();
        freed.step("intents");
        m.components = Vec::new();
        freed.step("components");
        m.sources = Default::default();
        freed.step("sources");
        return;
    }
    let t = Instant::now();
    let g = graph::Graph::build(&m);
    let build = t.elapsed();
    let t = Instant::now();
    let model = analysis::Model::build(&m, g);
    let model_build = t.elapsed();
    drop(model);
    let t = Instant::now();
    let a = analysis::analyse(&m);
    let analyse = t.elapsed();
    let states: usize = a.intents.iter().map(|r| r.state_count()).sum();
    eprintln!("after analyse: {}", rss());
    if std::env::var_os("PHASES_ANALYSIS_SIZES").is_some() {
        let mut a = a;
        let mut freed = Freed::start();
        println!(
            "{} nodes, {} edges, {} assumed",
            a.model.nodes.len(),
            a.model.edges.len(),
            a.model.assumed.len()
        );
        let count = |f: &dyn Fn(&replay_audit::analysis::IntentResult) -> usize| -> usize {
            a.intents.iter().map(f).sum()
        };
        println!(
            "{} horizons, {} layers, {} surviving, {} steps, {} crossings",
            count(&|r| r.horizons.len()),
            count(&|r| r.layers.len()),
            count(&|r| r.surviving.values().map(Vec::len).sum()),
            count(&|r| r.surviving.values().flatten().map(|x| x.2.len()).sum()),
            count(&|r| r.crossings.len()),
        );
        drop(std::mem::take(&mut a.intents));
        freed.step("intents");
        drop(std::mem::take(&mut a.model.assumed));
        freed.step("assumed");
        drop(std::mem::take(&mut a.model.out));
        freed.step("out");
        drop(std::mem::take(&mut a.model.edges));
        freed.step("edges");
        drop(std::mem::take(&mut a.model.nodes));
        freed.step("nodes");
        drop(a);
        freed.step("rest");
        return;
    }
    let t = Instant::now();
    let findings = rules::run(&a);
    let check = t.elapsed();
    if std::env::var_os("PHASES_FINDING_SIZES").is_some() {
        let sum = |f: &dyn Fn(&rules::Finding) -> usize| -> usize { findings.iter().map(f).sum() };
        println!(
            "findings {}: message bytes {}, path ids {}, steps {}, step why bytes {}, step assumptions {}, assumptions {}, related {}",
            findings.len(),
            sum(&|f| f.message.len()),
            sum(&|f| f.path.len()),
            sum(&|f| f.steps.len()),
            sum(&|f| f.steps.iter().map(|s| s.why.len()).sum()),
            sum(&|f| f.steps.iter().map(|s| s.assumptions.len()).sum()),
            sum(&|f| f.assumptions().count()),
            sum(&|f| f.related.len()),
        );
        let mut by_code = std::collections::BTreeMap::new();
        for f in &findings {
            *by_code.entry(f.rule.code).or_insert(0) += 1;
        }
        println!("{by_code:?}");
        return;
    }
    eprintln!("after rules: {}", rss());
    let t = Instant::now();
    let json = report::json::render(&m.sources, &findings);
    let render = t.elapsed();
    eprintln!("after render: {}", rss());
    let total = load + analyse + check + render;
    println!(
        "{} bytes, {} components, {} intents, {} states analysed, {} findings, {} bytes of JSON",
        text.len(),
        m.components.len(),
        m.intents.len(),
        states,
        findings.len(),
        json.len()
    );
    for (name, d) in [
        ("YAML tree", yaml),
        ("parse-only", parse),
        ("validate", validate),
        ("graph", build),
        ("model", model_build),
        ("analyse", analyse),
        ("rules", check),
        ("render", render),
    ] {
        println!("{name:>14} {:>10.1} ms", d.as_secs_f64() * 1e3);
    }
    println!(
        "end-to-end {:.1} ms = {:.2} x parse-only",
        total.as_secs_f64() * 1e3,
        total.as_secs_f64() / parse.as_secs_f64()
    );
    // What freeing everything costs (the binary pays it at exit).
    let t = Instant::now();
    drop(json);
    drop(findings);
    drop(a);
    drop(m);
    println!("drop {:.1} ms", t.elapsed().as_secs_f64() * 1e3);
}
