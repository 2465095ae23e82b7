//! Synthetic, deterministic manifests for benchmarks and scale tests.
//!
//! Shared by `examples/generate.rs`, `benches/scale.rs` and
//! `tests/generator.rs` (each includes it with `#[path]`), so the three
//! always agree on what "a 10k-component manifest of seed 7" is.
//!
//! The shape follows the manifest format (docs/manifest.md): many small pipelines
//! (service → sqs-standard with a dead-letter queue and a bounded manual
//! redrive → function with a dedup guard → external provider, sometimes a
//! ledger with a unique constraint), a few shared hubs (a topic or an
//! EventBridge bus delivering to hundreds of pipeline queues), several
//! regions with failover, intents that cross the hubs, and about one
//! pipeline in ten carrying a deliberate hazard.
#![allow(dead_code)]

use std::fmt::Write as _;

/// SplitMix64 (Steele, Lea, Flood 2014), written out here rather than taken
/// from `rand`: `rand` documents that `StdRng`'s algorithm may change
/// between versions, and the benchmarks must compare the same bytes from
/// one run (and one dependency update) to the next. Ten lines of
/// well-known arithmetic are cheaper than pinning that promise.
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0); the modulo bias is irrelevant here.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}

/// The deliberate hazards, each expected to produce a finding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hazard {
    /// The guard's store forgets before the next-morning redrive: RH001.
    ShortRetention,
    /// A new key for every attempt: RH020.
    PerAttemptKey,
    /// The worker calls the key-accepting provider without passing the key,
    /// and has no guard of its own: RH021.
    MissingPassesKey,
    /// An active-active worker claiming in an asynchronous global table:
    /// RH011.
    ActiveActiveAsync,
}

pub const HAZARDS: [Hazard; 4] = [
    Hazard::ShortRetention,
    Hazard::PerAttemptKey,
    Hazard::MissingPassesKey,
    Hazard::ActiveActiveAsync,
];

/// (region, failover target, detection, catch-up)
const REGIONS: [(&str, &str, &str, &str); 4] = [
    ("eu-west-1", "eu-central-1", "5m", "1h"),
    ("eu-central-1", "eu-west-1", "5m", "1h"),
    ("us-east-1", "us-west-2", "10m", "2h"),
    ("us-west-2", "us-east-1", "10m", "2h"),
];

const DOMAINS: [&str; 12] = [
    "payout",
    "refund",
    "invoice",
    "shipment",
    "ledger-post",
    "notification",
    "settlement",
    "chargeback",
    "subscription",
    "voucher",
    "transfer",
    "statement",
];

const PROVIDER_KINDS: [&str; 3] = ["external", "stripe", "adyen"];

/// What to generate.
#[derive(Debug, Clone, Copy)]
pub struct Config {
    /// Target number of components (reached within one pipeline).
    pub components: usize,
    pub seed: u64,
    /// Share of pipelines carrying a hazard, in percent.
    pub hazard_percent: u64,
}

impl Config {
    pub fn new(components: usize, seed: u64) -> Self {
        Config {
            components,
            seed,
            hazard_percent: 10,
        }
    }
}

/// What was generated, besides the text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stats {
    pub components: usize,
    pub intents: usize,
    pub pipelines: usize,
    pub hubs: usize,
    pub hazards: Vec<(String, Hazard)>,
}

struct Pipeline {
    id: String,
    domain: &'static str,
    /// Region names; one (single-region) or two (primary, failover).
    regions: Vec<&'static str>,
    hazard: Option<Hazard>,
    ledger: bool,
    provider_accepts_key: bool,
    global_store: bool,
    replay: bool,
    producer_retry: bool,
}

/// Generates one manifest of about `cfg.components` components.
pub fn generate(cfg: &Config) -> (String, Stats) {
    let mut rng = SplitMix64::new(cfg.seed);
    let mut stats = Stats::default();
    // A few hubs, each with a publisher: 2 up to 1k components, one more
    // per 20k after that.
    let hubs = if cfg.components < 200 {
        0
    } else {
        2 + cfg.components / 20_000
    };
    let budget = cfg.components.saturating_sub(2 * hubs).max(1);
    let mut pipelines = Vec::new();
    let mut used = 0;
    let mut n = 0;
    while used < budget {
        n += 1;
        let domain = *rng.pick(&DOMAINS);
        let hazard = if rng.chance(cfg.hazard_percent) {
            Some(*rng.pick(&HAZARDS))
        } else {
            None
        };
        let multi = hazard == Some(Hazard::ActiveActiveAsync) || rng.chance(25);
        let r = rng.below(REGIONS.len() as u64) as usize;
        let regions = if multi {
            vec![REGIONS[r].0, REGIONS[r].1]
        } else {
            vec![REGIONS[r].0]
        };
        let ledger = rng.chance(20) && hazard.is_none();
        let p = Pipeline {
            id: format!("p{n:06}-{domain}"),
            domain,
            regions,
            hazard,
            ledger,
            // A short-lived store is the only defence of its hazard pipelines:
            // a provider deduplicating by key would cover it (RH002, not RH001).
            provider_accepts_key: hazard == Some(Hazard::MissingPassesKey)
                || (hazard != Some(Hazard::ShortRetention) && rng.chance(60)),
            global_store: multi,
            replay: ledger && rng.chance(50),
            producer_retry: rng.chance(70),
        };
        used += if p.ledger { 7 } else { 6 };
        if p.hazard == Some(Hazard::MissingPassesKey) {
            used -= 1; // no guard store
        }
        if let Some(h) = p.hazard {
            stats.hazards.push((format!("{}-intent", p.id), h));
        }
        pipelines.push(p);
    }

    let mut out = String::with_capacity(cfg.components * 220 + 4096);
    let _ = writeln!(
        out,
        "# Synthetic architecture: {} components, seed {}.",
        cfg.components, cfg.seed
    );
    let _ = writeln!(
        out,
        "# Generated by `cargo run --release --example generate`; do not edit."
    );
    out.push_str("version: 1\n");
    let _ = writeln!(out, "name: synthetic-{}-{}", cfg.components, cfg.seed);
    out.push_str("regions:\n");
    for (r, to, det, cu) in REGIONS {
        let _ = writeln!(
            out,
            "  {r}: {{ failover_to: {to}, detection: {det}, catch_up: {cu} }}"
        );
    }

    // Hub subscribers: a slice of the pipelines for each hub.
    let per_hub = pipelines
        .len()
        .checked_div(hubs)
        .map_or(0, |n| n.clamp(1, 300));
    let hub_subs: Vec<Vec<usize>> = (0..hubs)
        .map(|h| {
            let start = (h * pipelines.len()) / hubs.max(1);
            // Subscribers must be guarded pipelines, so hub intents stay
            // meaningful; skip the unguarded hazard.
            (start..pipelines.len())
                .filter(|&i| pipelines[i].hazard != Some(Hazard::MissingPassesKey))
                .take(per_hub)
                .collect()
        })
        .collect();

    out.push_str("\nintents:\n");
    for p in &pipelines {
        intent(&mut out, p, &mut rng);
        stats.intents += 1;
    }
    for (h, subs) in hub_subs.iter().enumerate() {
        // Three intents per hub, each aimed at a different subscriber's effect.
        for k in 0..3.min(subs.len()) {
            let sub = &pipelines[subs[(k * subs.len()) / 3]];
            let _ = writeln!(out, "  hub{h:02}-event-{k}:");
            let _ = writeln!(
                out,
                "    description: event on hub {h} that {} acts on",
                sub.id
            );
            let _ = writeln!(out, "    origin: hub{h:02}-publisher");
            let _ = writeln!(out, "    effect: {}-provider", sub.id);
            out.push_str("    key: { fields: [event_id], persisted_before_retry: true }\n");
            out.push_str("    fingerprint: [event_id, account_id, amount]\n");
            stats.intents += 1;
        }
    }

    out.push_str("\ncomponents:\n");
    for (h, subs) in hub_subs.iter().enumerate() {
        let eventbridge = h % 2 == 1;
        let _ = writeln!(out, "  hub{h:02}-publisher:");
        out.push_str("    kind: service\n");
        let _ = writeln!(out, "    sends_to: [hub{h:02}]");
        let _ = writeln!(out, "  hub{h:02}:");
        let _ = writeln!(
            out,
            "    kind: {}",
            if eventbridge {
                "eventbridge"
            } else {
                "sns-standard"
            }
        );
        let _ = writeln!(
            out,
            "    description: shared {} with {} subscribers",
            if eventbridge { "event bus" } else { "topic" },
            subs.len()
        );
        out.push_str("    delivery: at-least-once\n    retention: 24h\n    max_backlog: 1h\n    delivers_to:\n");
        for &i in subs {
            let _ = writeln!(out, "      - {}-queue", pipelines[i].id);
        }
        stats.hubs += 1;
        stats.components += 2;
    }
    for p in &pipelines {
        stats.components += components(&mut out, p, &mut rng);
    }
    stats.pipelines = pipelines.len();
    (out, stats)
}

fn regions_line(p: &Pipeline) -> String {
    format!("    regions: [{}]\n", p.regions.join(", "))
}

fn intent(out: &mut String, p: &Pipeline, rng: &mut SplitMix64) {
    let id = &p.id;
    let _ = writeln!(out, "  {id}-intent:");
    let _ = writeln!(
        out,
        "    description: one {} for one business request",
        p.domain
    );
    let _ = writeln!(out, "    origin: {id}-producer");
    if p.ledger {
        let _ = writeln!(out, "    effect: [{id}-provider, {id}-ledger]");
    } else {
        let _ = writeln!(out, "    effect: {id}-provider");
    }
    let field = format!("{}_id", p.domain.replace('-', "_"));
    if p.hazard == Some(Hazard::PerAttemptKey) {
        let _ = writeln!(
            out,
            "    key: {{ fields: [{field}, attempt_nonce], minted_at: {id}-worker, minted: per-attempt }}"
        );
    } else {
        let _ = writeln!(
            out,
            "    key: {{ fields: [account_id, {field}], persisted_before_retry: true }}"
        );
    }
    let _ = writeln!(
        out,
        "    fingerprint: [account_id, {field}, amount, currency]"
    );
    if p.replay {
        out.push_str("    replays:\n");
        let _ = writeln!(
            out,
            "      - {{ name: partner resubmission, enters_at: {id}-producer, within: {}d }}",
            7 + rng.below(24)
        );
    }
    out.push_str(
        "    tested: [timeout-before-effect, timeout-after-effect, lost-ack, dlq-redrive]\n",
    );
}

/// Writes one pipeline's components; returns how many.
fn components(out: &mut String, p: &Pipeline, rng: &mut SplitMix64) -> usize {
    let id = &p.id;
    let regions = regions_line(p);
    let mut count = 0;

    // Producer.
    let _ = writeln!(out, "  {id}-producer:");
    out.push_str("    kind: service\n");
    out.push_str(&regions);
    if p.producer_retry {
        let _ = writeln!(
            out,
            "    sends_to: [{{ to: {id}-queue, retry: {{ attempts: {}, timeout: {}s, backoff: 1s, max_backoff: 20s }} }}]",
            2 + rng.below(3),
            2 + rng.below(9)
        );
    } else {
        let _ = writeln!(out, "    sends_to: [{id}-queue]");
    }
    count += 1;

    // Queue, with its dead-letter queue and a bounded manual redrive.
    let _ = writeln!(out, "  {id}-queue:");
    out.push_str("    kind: sqs-standard\n");
    out.push_str(&regions);
    let _ = writeln!(out, "    visibility_timeout: {}m", 3 + rng.below(8));
    let _ = writeln!(out, "    max_backlog: {}h", 1 + rng.below(3));
    let _ = writeln!(out, "    delivers_to: [{id}-worker]");
    let _ = writeln!(
        out,
        "    dead_letter: {{ to: {id}-dlq, after_receives: {} }}",
        3 + rng.below(3)
    );
    let _ = writeln!(out, "  {id}-dlq:");
    out.push_str("    kind: sqs-standard\n");
    out.push_str(&regions);
    out.push_str("    retention: 14d\n");
    let _ = writeln!(
        out,
        "    redrive: {{ to: {id}-queue, mode: manual, within: {}h, max_times: {} }}",
        8 + rng.below(10),
        1 + rng.below(2)
    );
    count += 2;

    // Worker.
    let _ = writeln!(out, "  {id}-worker:");
    out.push_str("    kind: function\n");
    out.push_str(&regions);
    if p.hazard == Some(Hazard::ActiveActiveAsync) {
        out.push_str("    mode: active-active\n");
    }
    let _ = writeln!(out, "    timeout: {}s", 15 + rng.below(46));
    if p.hazard != Some(Hazard::MissingPassesKey) {
        let claim = "conditional-write";
        let _ = writeln!(
            out,
            "    dedup:\n      store: {id}-keys\n      claim: {claim}\n      binds_fingerprint: true\n      stores_result: true"
        );
        out.push_str(
            "      in_progress: { on_conflict: reject, expires_after: 5m, on_expiry: reconcile }\n",
        );
    }
    let passes = if p.hazard == Some(Hazard::MissingPassesKey) {
        ""
    } else {
        ", passes_key: true"
    };
    if p.ledger {
        let _ = writeln!(
            out,
            "    effects: [{{ to: {id}-ledger{passes} }}, {{ to: {id}-provider{passes} }}]"
        );
    } else {
        let _ = writeln!(out, "    effects: [{{ to: {id}-provider{passes} }}]");
    }
    count += 1;

    // The guard's store.
    if p.hazard != Some(Hazard::MissingPassesKey) {
        let short = p.hazard == Some(Hazard::ShortRetention);
        let _ = writeln!(out, "  {id}-keys:");
        if p.global_store {
            out.push_str("    kind: dynamodb-global-table\n");
            out.push_str(&regions);
            if p.hazard != Some(Hazard::ActiveActiveAsync) {
                out.push_str("    replication: sync\n");
            }
        } else if rng.chance(50) {
            out.push_str("    kind: powertools-idempotency\n");
            out.push_str(&regions);
        } else {
            out.push_str("    kind: dynamodb-table\n");
            out.push_str(&regions);
        }
        if short {
            out.push_str("    retention: 1h\n");
        } else if p.replay {
            // Outlives the partner resubmission window (at most 30 days).
            out.push_str("    retention: 35d\n");
        } else {
            let _ = writeln!(out, "    retention: {}d", 3 + rng.below(5));
        }
        out.push_str("    expiry: application\n");
        count += 1;
    }

    // Ledger.
    if p.ledger {
        let _ = writeln!(out, "  {id}-ledger:");
        out.push_str("    kind: ledger\n");
        out.push_str(&regions);
        let _ = writeln!(
            out,
            "    unique: [account_id, {}_id]",
            p.domain.replace('-', "_")
        );
        out.push_str("    retention: unbounded\n");
        count += 1;
    }

    // External provider.
    let _ = writeln!(out, "  {id}-provider:");
    // Stripe and Adyen accept a key with their documented windows; a
    // generic provider declares its own.
    let kind = if p.provider_accepts_key {
        *rng.pick(&PROVIDER_KINDS)
    } else {
        "external"
    };
    let _ = writeln!(out, "    kind: {kind}");
    if kind == "external" {
        if p.provider_accepts_key {
            let _ = writeln!(
                out,
                "    accepts_key: true\n    key_window: {}d",
                7 + rng.below(24)
            );
        } else {
            out.push_str("    accepts_key: false\n");
        }
    }
    out.push_str("    lookup_by_reference: true\n");
    count += 1;
    count
}

/// `k` manifests of about `components` components each, named
/// `arch-0001.yaml` ...: (file name, text). Seeds are derived from `seed`.
pub fn generate_many(k: usize, components: usize, seed: u64) -> Vec<(String, String)> {
    let mut seeds = SplitMix64::new(seed);
    (0..k)
        .map(|i| {
            let (text, _) = generate(&Config::new(components, seeds.next_u64()));
            (format!("arch-{:04}.yaml", i + 1), text)
        })
        .collect()
}
