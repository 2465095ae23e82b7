//! Two properties of what a design adds and leaves out (#33 item 6):
//!
//! - [`adding_a_layer_never_adds_a_horizon_or_scope_finding`]: a dedup layer
//!   with the intent's key, added to a design without errors, never adds a
//!   horizon (RH001–RH006) or scope (RH010–RH013) finding.
//! - [`an_omitted_delay_is_never_shorter_than_a_written_one`]: where the
//!   manifest leaves a delay to the platform, the horizon is never smaller
//!   than with a value the platform could be taking instead.
//!
//! Both generate designs of their own, closer to real ones than
//! `tests/common/gen.rs` (a producer, optionally a bus, a queue with a
//! dead-letter queue and a bounded redrive, a worker, a called API, an
//! effect; regions with a failover), print them as YAML and load them like
//! the other properties.
//!
//! The first property found an analysis bug, now fixed: a duplicate slot
//! merged a failover's copy with an in-Region one and a scoped layer let
//! both by, hiding the span of the copy it could see. The tests
//! `failover_hides_the_span_of_an_async_store` and
//! `failover_hides_an_expiry_of_a_region_scoped_key` keep it fixed.

use std::collections::BTreeSet;
use std::fmt::Write;

use proptest::prelude::*;
use replay_audit::analysis;
use replay_audit::rules::{self, Severity};

use super::generate::dur;
use super::{horizons, load};

const TESTED: &str = "[timeout-before-effect, timeout-after-effect, lost-ack, concurrent-retry, expired-key, dlq-redrive, regional-failover]";

// ------------------------------------------------------------ layers

/// A guard: `dedup` on a component, claiming the key in `store`.
#[derive(Debug, Clone)]
struct Guard {
    /// store, dynamodb-table, ledger, powertools-idempotency.
    kind: u8,
    /// The store's `retention` (none: the kind's).
    retention: Option<u64>,
    /// Which of the two regions the store is in (bit mask; 0: none written).
    regions: u8,
    replication: u8,
    expires_after: u64,
}

impl Guard {
    fn kind(&self) -> &'static str {
        [
            "store",
            "dynamodb-table",
            "ledger",
            "powertools-idempotency",
        ][self.kind as usize % 4]
    }

    fn dedup(&self, store: &str) -> String {
        format!(
            "dedup: {{ store: {store}, claim: conditional-write, binds_fingerprint: true, stores_result: true, in_progress: {{ on_conflict: reject, expires_after: {}, on_expiry: reconcile }} }}",
            dur(self.expires_after)
        )
    }

    fn component(&self, id: &str, regional: bool) -> String {
        let mut s = format!("  {id}:\n    kind: {}\n", self.kind());
        if let Some(r) = self.retention {
            let _ = writeln!(s, "    retention: {}", dur(r));
        }
        if self.kind() == "ledger" {
            s.push_str("    unique: [k]\n");
        }
        if self.kind() == "dynamodb-table" {
            s.push_str("    expiry: application\n");
        }
        let regs = regions_list(if regional { self.regions } else { 0 });
        if !regs.is_empty() {
            let _ = writeln!(s, "    regions: {regs}");
        }
        let _ = writeln!(
            s,
            "    replication: {}",
            ["none", "async", "sync"][self.replication as usize % 3]
        );
        s
    }
}

fn regions_list(mask: u8) -> String {
    let r: Vec<&str> = ["r0", "r1"]
        .iter()
        .enumerate()
        .filter(|(i, _)| mask & (1 << i) != 0)
        .map(|(_, r)| *r)
        .collect();
    if r.is_empty() {
        String::new()
    } else {
        format!("[{}]", r.join(", "))
    }
}

/// Attempts and backoff of a `retry`.
#[derive(Debug, Clone)]
struct Retry {
    attempts: u8,
    backoff: u64,
}

impl Retry {
    fn text(&self) -> String {
        format!(
            ", retry: {{ attempts: {}, backoff: {} }}",
            1 + self.attempts % 4,
            dur(self.backoff)
        )
    }
}

/// A design: producer `p` (sends, maybe through an EventBridge rule `bus`)
/// into queue `q`, which delivers to worker `w` and dead-letters into
/// `dlq` (redriven back at most `max_times`); the worker either affects
/// `ext` itself or calls `api`, which does. Every layer is a guard on `w`
/// or `api` (store `sw`, `sa`) or the provider's key window.
#[derive(Debug, Clone)]
struct Design {
    /// Two regions (r0 fails over to r1): detection, catch-up, and which
    /// components are in both (bits: p, q and dlq, w, api, ext-facing
    /// stores); the last flag makes the producer active-active.
    regions: Option<(u64, u64, u8, bool)>,
    send_retry: Option<Retry>,
    via_bus: bool,
    generic_queue: bool,
    retention: u64,
    visibility: u64,
    max_backlog: Option<u64>,
    receives: u8,
    dlq: Option<(u64, Option<u64>, u8)>,
    /// The worker's call to `api`: retry and whether it passes the key.
    call: Option<(Option<Retry>, bool)>,
    accepts_key: bool,
    key_window: Option<u64>,
    /// The provider is EC2 (client tokens per Region, F044) rather than a
    /// generic external that keeps keys globally.
    regional_provider: bool,
    guard_w: Option<Guard>,
    guard_api: Option<Guard>,
    replay: Option<u64>,
}

impl Design {
    fn in_regions(&self, bit: u8) -> bool {
        self.regions.is_some_and(|(_, _, m, _)| m & (1 << bit) != 0)
    }

    fn regions_line(&self, bit: u8, s: &mut String) {
        if self.in_regions(bit) {
            s.push_str("    regions: [r0, r1]\n");
        }
    }

    fn text(&self) -> String {
        let mut s = String::from("version: 1\nname: layers\n");
        if let Some((detection, catch_up, _, _)) = self.regions {
            let _ = writeln!(
                s,
                "regions:\n  r0: {{ failover_to: r1, detection: {}, catch_up: {} }}\n  r1: {{}}",
                dur(detection.max(1)),
                dur(catch_up)
            );
        }
        s.push_str("intents:\n  i:\n    origin: p\n    effect: ext\n");
        s.push_str("    key: { fields: [k], persisted_before_retry: true }\n");
        s.push_str("    fingerprint: [k, amount]\n");
        let _ = writeln!(s, "    tested: {TESTED}");
        if let Some(w) = self.replay {
            let _ = writeln!(
                s,
                "    replays: [{{ name: replay, enters_at: q, within: {} }}]",
                dur(w.max(1))
            );
        }
        s.push_str("components:\n  p:\n    kind: service\n");
        self.regions_line(0, &mut s);
        if self.in_regions(0) && self.regions.is_some_and(|r| r.3) {
            s.push_str("    mode: active-active\n");
        }
        let retry = self
            .send_retry
            .as_ref()
            .map(Retry::text)
            .unwrap_or_default();
        let first = if self.via_bus { "bus" } else { "q" };
        let _ = writeln!(s, "    sends_to: [{{ to: {first}{retry} }}]");
        if self.via_bus {
            s.push_str("  bus:\n    kind: eventbridge\n    delivers_to: [{ to: q }]\n");
        }
        let qkind = if self.generic_queue {
            "queue"
        } else {
            "sqs-standard"
        };
        let _ = writeln!(
            s,
            "  q:\n    kind: {qkind}\n    retention: {}\n    visibility_timeout: {}",
            dur(self.retention),
            dur(self.visibility)
        );
        self.regions_line(1, &mut s);
        if let Some(b) = self.max_backlog {
            let _ = writeln!(s, "    max_backlog: {}", dur(b.max(1)));
        }
        s.push_str("    delivers_to: [{ to: w }]\n");
        if let Some((retention, within, max_times)) = self.dlq {
            let _ = writeln!(
                s,
                "    dead_letter: {{ to: dlq, after_receives: {} }}",
                1 + self.receives % 5
            );
            let _ = writeln!(
                s,
                "  dlq:\n    kind: {qkind}\n    retention: {}",
                dur(retention)
            );
            self.regions_line(1, &mut s);
            let within = within
                .map(|w| format!(", within: {}", dur(w.max(1))))
                .unwrap_or_default();
            let _ = writeln!(
                s,
                "    redrive: {{ to: q, mode: manual, max_times: {}{within} }}",
                1 + max_times % 2
            );
        }
        s.push_str("  w:\n    kind: function\n    timeout: 30s\n");
        self.regions_line(2, &mut s);
        if let Some(g) = &self.guard_w {
            let _ = writeln!(s, "    {}", g.dedup("sw"));
        }
        match &self.call {
            Some((retry, passes_key)) => {
                let retry = retry.as_ref().map(Retry::text).unwrap_or_default();
                let _ = writeln!(
                    s,
                    "    calls: [{{ to: api, timeout: 10s, passes_key: {passes_key}{retry} }}]"
                );
                s.push_str("  api:\n    kind: service\n    timeout: 10s\n");
                self.regions_line(3, &mut s);
                if let Some(g) = &self.guard_api {
                    let _ = writeln!(s, "    {}", g.dedup("sa"));
                }
                s.push_str("    effects: [{ to: ext, passes_key: true }]\n");
            }
            None => s.push_str("    effects: [{ to: ext, passes_key: true }]\n"),
        }
        if self.regional_provider {
            s.push_str("  ext:\n    kind: ec2-client-token\n");
        } else {
            let _ = writeln!(
                s,
                "  ext:\n    kind: external\n    accepts_key: {}\n    lookup_by_reference: true\n    reconciliation: lookup",
                self.accepts_key
            );
        }
        if let (Some(w), true) = (self.key_window, self.accepts_key || self.regional_provider) {
            let _ = writeln!(s, "    key_window: {}", dur(w.max(1)));
        }
        let regional = self.in_regions(4);
        if let Some(g) = &self.guard_w {
            s.push_str(&g.component("sw", regional));
        }
        if let (Some(g), Some(_)) = (&self.guard_api, &self.call) {
            s.push_str(&g.component("sa", regional));
        }
        s
    }
}

/// Durations a design picks from: a few round values and any value up to
/// 20 days, so windows fall on either side of horizons.
fn span() -> impl Strategy<Value = u64> {
    prop_oneof![
        Just(60u64),
        Just(3_600u64),
        Just(86_400u64),
        Just(345_600u64),
        Just(2_678_400u64),
        1u64..1_728_000,
    ]
}

/// A provider key window: any span, often a long one (Adyen's 31 days,
/// a year) so that a design is often without errors.
fn key_window() -> impl Strategy<Value = u64> {
    prop_oneof![span(), Just(2_678_400u64), Just(31_536_000u64)]
}

fn retry() -> impl Strategy<Value = Retry> {
    (any::<u8>(), prop_oneof![Just(0u64), 1u64..600])
        .prop_map(|(attempts, backoff)| Retry { attempts, backoff })
}

fn guard() -> impl Strategy<Value = Guard> {
    (
        0u8..4,
        proptest::option::of(prop_oneof![span(), Just(super::generate::UNBOUNDED)]),
        0u8..4,
        0u8..3,
        prop_oneof![Just(60u64), Just(300u64), 1u64..7_200],
    )
        .prop_map(
            |(kind, retention, regions, replication, expires_after)| Guard {
                kind,
                retention,
                regions,
                replication,
                expires_after,
            },
        )
}

fn design() -> impl Strategy<Value = Design> {
    (
        (
            proptest::option::of((1u64..3_600, 0u64..7_200, any::<u8>(), any::<bool>())),
            proptest::option::of(retry()),
            any::<bool>(),
            any::<bool>(),
            prop_oneof![3 => Just(false), 1 => Just(true)],
        ),
        (
            60u64..1_209_600,
            0u64..43_200,
            proptest::option::of(1u64..86_400),
            any::<u8>(),
            proptest::option::of((60u64..1_209_600, proptest::option::of(span()), any::<u8>())),
        ),
        (
            proptest::option::of((proptest::option::of(retry()), any::<bool>())),
            prop_oneof![3 => Just(true), 1 => Just(false)],
            proptest::option::of(key_window()),
            proptest::option::of(guard()),
            proptest::option::of(guard()),
            proptest::option::of(span()),
        ),
    )
        .prop_map(
            |(
                (regions, send_retry, via_bus, generic_queue, regional_provider),
                (retention, visibility, max_backlog, receives, dlq),
                (call, accepts_key, key_window, guard_w, guard_api, replay),
            )| Design {
                regions,
                send_retry,
                via_bus,
                generic_queue,
                retention,
                visibility,
                max_backlog,
                receives,
                dlq,
                call,
                accepts_key,
                key_window,
                regional_provider,
                guard_w,
                guard_api,
                replay,
            },
        )
}

/// The layer the property adds: a guard on the worker (which every copy
/// reaches with the key in its message), a guard on the called API (only
/// when the call passes the key), or the provider's key window.
#[derive(Debug, Clone)]
enum Added {
    Worker(Guard),
    Api(Guard),
    KeyWindow(u64),
}

impl Added {
    /// The component findings name for the layer: the guard's store or the
    /// provider.
    fn layer(&self) -> &'static str {
        match self {
            Added::Worker(_) => "sw",
            Added::Api(_) => "sa",
            Added::KeyWindow(_) => "ext",
        }
    }

    /// The design with the layer, or `None` where the layer is already
    /// there or could not see the key: a guard on the API only when the
    /// call passes the key (without it the guard would claim no key, a
    /// propagation error, not a layer with the intent's key).
    fn apply(&self, d: &Design) -> Option<Design> {
        let mut d = d.clone();
        match self {
            Added::Worker(g) if d.guard_w.is_none() => d.guard_w = Some(g.clone()),
            Added::Api(g) if d.guard_api.is_none() && d.call.as_ref().is_some_and(|c| c.1) => {
                d.guard_api = Some(g.clone())
            }
            // Only where the provider has no key window yet (a generic
            // external that takes no key, or one with the 0 s assumed
            // window): EC2 keeps tokens 24 h by default, and writing a
            // shorter window would shorten a layer, not add one.
            Added::KeyWindow(w)
                if !d.regional_provider && (!d.accepts_key || d.key_window.is_none()) =>
            {
                d.accepts_key = true;
                d.key_window = Some(*w);
            }
            _ => return None,
        }
        Some(d)
    }
}

/// The layers [`Added::apply`] can add to `d`, `pick` choosing one.
fn add_one(d: &Design, pick: u8, g: Guard, w: u64) -> Option<(Added, Design)> {
    let all = [Added::Worker(g.clone()), Added::Api(g), Added::KeyWindow(w)];
    let fits: Vec<(Added, Design)> = all
        .into_iter()
        .filter_map(|a| a.apply(d).map(|x| (a, x)))
        .collect();
    let n = fits.len();
    (n > 0).then(|| fits.into_iter().nth(pick as usize % n).unwrap())
}

type Key = (String, Option<String>, Option<String>);

/// The findings of `text`: whether any is an error, and the horizon and
/// scope findings by (code, intent, component).
fn horizon_and_scope(text: &str) -> (bool, BTreeSet<Key>) {
    let m = load(vec![("a.yaml".to_string(), text.to_string())]);
    let findings = rules::run(&analysis::analyse(&m));
    let error = findings.iter().any(|f| f.severity == Severity::Error);
    let set = findings
        .into_iter()
        .filter(|f| {
            matches!(
                f.rule.code,
                "RH001"
                    | "RH002"
                    | "RH003"
                    | "RH004"
                    | "RH005"
                    | "RH006"
                    | "RH010"
                    | "RH011"
                    | "RH012"
                    | "RH013"
            )
        })
        .map(|f| {
            (
                f.rule.code.to_string(),
                f.intent.map(|i| i.to_string()),
                f.component.map(|c| c.to_string()),
            )
        })
        .collect();
    (error, set)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    /// Adding a dedup layer with the intent's key (a guard claiming it in
    /// a store, or the provider's key window) to a design that has no
    /// error never adds a horizon finding (RH001–RH006) or a scope finding
    /// (RH010–RH013): a layer can stop copies, never make one later or
    /// let one by that got stopped before.
    ///
    /// Findings compare by (code, intent, component). Two kinds of new
    /// finding are allowed. A warning about the new layer's own window:
    /// RH002 (its window is shorter than the horizon of the copies it
    /// meets, which a later layer stops) or RH004 (its margin is thin),
    /// naming the layer itself (the guard's store, or the provider whose
    /// key window was added): true statements about the layer just added,
    /// not a verdict the layer made worse, since before it there was no
    /// window to judge. And an RH004 on an existing layer that had RH002:
    /// the new layer shields it, and its verdict gets one step milder
    /// (found: a guard added on the worker stops the copies that reached
    /// the API's 1 h Powertools store 1 h 1 s after its first sighting; the
    /// latest it still meets comes at 54 m 33 s, below the policy's 10 %
    /// margin). Anything else new (an RH001 or RH003, a finding about
    /// another layer, a scope finding, an RH005 assumption) would
    /// mean protection made the result worse.
    #[test]
    fn adding_a_layer_never_adds_a_horizon_or_scope_finding(
        d in design(),
        (pick, g, w) in (any::<u8>(), guard(), key_window()),
    ) {
        let Some((add, with)) = add_one(&d, pick, g, w) else { return Ok(()) };
        let (error, before) = horizon_and_scope(&d.text());
        if error {
            return Ok(());
        }
        let (_, after) = horizon_and_scope(&with.text());
        let own = |(code, _, c): &&Key| {
            matches!(code.as_str(), "RH002" | "RH004") && c.as_deref() == Some(add.layer())
        };
        // A layer the new one now shields may go from RH002 (its window is
        // too short) to RH004 (its margin is thin): the same layer's verdict,
        // one step milder.
        let milder = |(code, i, c): &&Key| {
            code == "RH004" && before.contains(&("RH002".to_string(), i.clone(), c.clone()))
        };
        let new: Vec<_> = after
            .difference(&before)
            .filter(|k| !own(k) && !milder(k))
            .collect();
        prop_assert!(new.is_empty(), "added {:?}\n--- before\n{}\n--- after\n{}", new, d.text(), with.text());
    }
}

/// The counterexample the layer property found (minimal by hand): a
/// guard's store with `replication: async` and a 30 s retention behind a
/// function that fails over from r0 to r1. The queue redelivers within
/// its 60 s retention, so the guard meets a copy 1 m after its first
/// sighting of the key in r0 alone, and without the regions RH002 fires
/// ("forgets the key after 30s, but a copy can reach it 1m after its first
/// sighting"). With the failover `horizon` says "latest copy to stop 0s
/// after its first sighting" and RH002 is silent. Cause: a state keeps one
/// duplicate per key class, and `merge_dup` (src/analysis/propagate.rs)
/// merges the failover's copy (1 m 1 s, `crossed: Failover`) with the r0
/// redelivery (1 m, `crossed: No`) into one duplicate whose `crossed` is
/// the maximum; `apply_layer` then finds the whole duplicate out of the
/// async store's scope (`Scope::Replicated`), lets it by, and the span of
/// the copy the store can see never reaches it. The provider stops the
/// merged copy, so RH010 is quiet too. With `replication: sync` or `none`
/// the span is 1 m 1 s and RH002 fires. Fixed: a slot keeps the set of
/// ways its copies came, and a scoped layer judges the in-scope part.
#[test]
fn failover_hides_the_span_of_an_async_store() {
    let text = "version: 1
name: failover-span
regions:
  r0: { failover_to: r1, detection: 1s, catch_up: 0s }
  r1: {}
intents:
  i:
    origin: p
    effect: ext
    key: { fields: [k], persisted_before_retry: true }
    fingerprint: [k, amount]
components:
  p: { kind: service, sends_to: [q] }
  q: { kind: sqs-standard, retention: 60s, delivers_to: [w] }
  w:
    kind: function
    regions: [r0, r1]
    calls: [{ to: api, timeout: 10s, passes_key: true }]
  api:
    kind: service
    dedup: { store: sa, claim: conditional-write, binds_fingerprint: true, stores_result: true }
    effects: [{ to: ext, passes_key: true }]
  sa: { kind: store, retention: 30s, replication: async }
  ext: { kind: external, accepts_key: true, key_window: 1h }
";
    let (_, with_failover) = horizon_and_scope(text);
    let plain: String = text
        .lines()
        .filter(|l| !l.contains("regions") && !l.contains("r0:") && !l.contains("r1:"))
        .map(|l| format!("{l}\n"))
        .collect();
    let (_, without) = horizon_and_scope(&plain);
    let rh002 = (
        "RH002".to_string(),
        Some("i".to_string()),
        Some("sa".to_string()),
    );
    assert!(without.contains(&rh002), "{without:?}");
    assert!(with_failover.contains(&rh002), "{with_failover:?}");
}

// ------------------------------------------------------------ omitted delays

/// The delay fields a design may leave to the platform, each a slot.
const BUS_AGE: usize = 0;
const BUS_ATTEMPTS: usize = 1;
const BUS_BACKOFF: usize = 2;
const BUS_LINK_AGE: usize = 3;
const RETENTION: usize = 4;
const VISIBILITY: usize = 5;
const MAPPING_AGE: usize = 6;
const EVENT_AGE: usize = 7;
const DLQ_RETENTION: usize = 8;
const SLOTS: usize = 9;

/// A design that leaves delays out: producer `p` sends to an EventBridge
/// rule or bus (`bus`), a queue or stream (`q`), or the first into the
/// second; the last delivers to target `t` (a function invoked
/// asynchronously, a generic function, a service), which affects `ext`.
/// Each slot is a fraction of the field's range (below), `None` where the
/// field is left out.
#[derive(Debug, Clone)]
struct Omitting {
    /// 0: none, 1: eventbridge, 2: eventbridge-bus.
    bus: u8,
    /// 0: none, 1: sqs-standard, 2: sqs-fifo, 3: kinesis.
    queue: u8,
    /// 0: lambda-async, 1: function, 2: service.
    target: u8,
    /// Whether the bus's delivery has a `retry` block.
    bus_retry: bool,
    /// `max_backlog` and the receive limit of a dead-letter queue, on an
    /// SQS queue (they make its visibility timeout count).
    backlog: Option<(u64, u8)>,
    /// Whether the dead-letter queue is redriven back once, without a
    /// `within` (then its retention bounds the redrive, F008).
    redrive: bool,
    slots: [Option<u32>; SLOTS],
}

/// A field's documented (min, value taken when omitted, max) in seconds,
/// read from the catalog (`replay-audit catalog KIND`); unbounded as
/// `u64::MAX`.
fn documented(kind: &str, field: &str) -> (u64, Option<u64>, u64) {
    let k = replay_audit::catalog::catalog()
        .kind(kind)
        .unwrap_or_else(|| panic!("no kind {kind}"));
    let f = &k.fields[field];
    let secs = |v: &Option<_>| -> Option<u64> {
        let v: &toml::Value = v.as_ref()?;
        match v {
            toml::Value::Integer(i) => Some(*i as u64),
            toml::Value::String(s) => Some(
                replay_audit::time::Dur::parse(s)
                    .unwrap()
                    .as_secs_ceil()
                    .unwrap_or(u64::MAX),
            ),
            _ => None,
        }
    };
    (
        secs(&f.min).unwrap_or(0),
        secs(&f.default),
        secs(&f.max).unwrap_or(u64::MAX),
    )
}

impl Omitting {
    fn bus_kind(&self) -> Option<&'static str> {
        [None, Some("eventbridge"), Some("eventbridge-bus")][self.bus as usize % 3]
    }

    fn queue_kind(&self) -> Option<&'static str> {
        match (self.queue % 4, self.bus % 3) {
            (0, 0) => Some("sqs-standard"),
            (q, _) => [
                None,
                Some("sqs-standard"),
                Some("sqs-fifo"),
                Some("kinesis"),
            ][q as usize],
        }
    }

    fn target_kind(&self) -> &'static str {
        ["lambda-async", "function", "service"][self.target as usize % 3]
    }

    /// The slots this design has a field for.
    fn applies(&self, slot: usize) -> bool {
        let sqs = self.queue_kind().is_some_and(|k| k.starts_with("sqs"));
        match slot {
            BUS_AGE | BUS_LINK_AGE => self.bus_kind().is_some(),
            BUS_ATTEMPTS | BUS_BACKOFF => self.bus_kind().is_some() && self.bus_retry,
            RETENTION => self.queue_kind().is_some(),
            VISIBILITY => sqs,
            MAPPING_AGE => self.queue_kind() == Some("kinesis") && self.target_kind() != "service",
            DLQ_RETENTION => sqs && self.backlog.is_some(),
            _ => self.target_kind() == "lambda-async",
        }
    }

    /// Slot `slot`'s documented range: (min, the value the analysis should
    /// take when it is omitted, max). The bus link's `max_record_age`
    /// falls back to the bus's own `max_event_age`, written or not; a
    /// backoff has no documented range (EventBridge's is not configurable:
    /// omitted, the retries reach the cap, F017).
    fn range(&self, slot: usize) -> (u64, Option<u64>, u64) {
        let bus = self.bus_kind().unwrap_or("eventbridge");
        let queue = self.queue_kind().unwrap_or("sqs-standard");
        match slot {
            BUS_AGE => documented(bus, "max_event_age"),
            BUS_ATTEMPTS => documented(bus, "retry_attempts"),
            BUS_BACKOFF => (0, None, 86_400),
            BUS_LINK_AGE => {
                let (min, default, max) = documented(bus, "max_event_age");
                (min, self.value(BUS_AGE).or(default), max)
            }
            RETENTION | DLQ_RETENTION => documented(queue, "retention"),
            VISIBILITY => documented(queue, "visibility_timeout"),
            MAPPING_AGE => documented("lambda-event-source", "max_record_age"),
            _ => documented("lambda-async", "max_event_age"),
        }
    }

    /// The highest value slot `slot` may take: the value the platform
    /// takes when the field is omitted where the catalog documents one,
    /// else the documented maximum. See the property for why not always
    /// the maximum.
    fn ceiling(&self, slot: usize) -> u64 {
        let (_, default, max) = self.range(slot);
        default.map_or(max, |d| d.min(max))
    }

    /// The value written for slot `slot`, `None` where it is omitted.
    fn value(&self, slot: usize) -> Option<u64> {
        let f = self.slots[slot].filter(|_| self.applies(slot))?;
        let (lo, hi) = (self.range(slot).0, self.ceiling(slot));
        Some(lo + ((hi.saturating_sub(lo)) as u128 * f as u128 / u32::MAX as u128) as u64)
    }

    fn text(&self) -> String {
        let field = |slot: usize, name: &str, s: &mut String, inline: bool| {
            if let Some(v) = self.value(slot).filter(|_| self.applies(slot)) {
                let v = if slot == BUS_ATTEMPTS {
                    v.to_string()
                } else {
                    format!("{v}s")
                };
                if inline {
                    let _ = write!(s, ", {name}: {v}");
                } else {
                    let _ = writeln!(s, "    {name}: {v}");
                }
            }
        };
        let mut s = String::from("version: 1\nname: omitted\n");
        s.push_str("intents:\n  i:\n    origin: p\n    effect: ext\n");
        s.push_str("    key: { fields: [k], persisted_before_retry: true }\n");
        s.push_str("    fingerprint: [k, amount]\n");
        let (bus, queue) = (self.bus_kind(), self.queue_kind());
        let first = if bus.is_some() { "bus" } else { "q" };
        let _ = writeln!(
            s,
            "components:\n  p:\n    kind: service\n    sends_to: [{first}]"
        );
        if let Some(k) = bus {
            let _ = writeln!(s, "  bus:\n    kind: {k}");
            field(BUS_AGE, "max_event_age", &mut s, false);
            let next = if queue.is_some() { "q" } else { "t" };
            let _ = write!(s, "    delivers_to: [{{ to: {next}");
            if self.bus_retry {
                let mut r = String::new();
                field(BUS_ATTEMPTS, "attempts", &mut r, true);
                field(BUS_BACKOFF, "backoff", &mut r, true);
                let _ = write!(s, ", retry: {{ {} }}", r.trim_start_matches(", "));
            }
            field(BUS_LINK_AGE, "max_record_age", &mut s, true);
            s.push_str(" }]\n");
        }
        if let Some(k) = queue {
            let _ = writeln!(s, "  q:\n    kind: {k}");
            field(RETENTION, "retention", &mut s, false);
            field(VISIBILITY, "visibility_timeout", &mut s, false);
            s.push_str("    delivers_to: [{ to: t");
            field(MAPPING_AGE, "max_record_age", &mut s, true);
            s.push_str(" }]\n");
            if let (Some((backlog, receives)), true) = (self.backlog, k.starts_with("sqs")) {
                let _ = writeln!(
                    s,
                    "    max_backlog: {backlog}s\n    dead_letter: {{ to: dlq, after_receives: {} }}\n  dlq:\n    kind: {k}",
                    1 + receives % 5
                );
                field(DLQ_RETENTION, "retention", &mut s, false);
                if self.redrive {
                    s.push_str("    redrive: { to: q, mode: manual, max_times: 1 }\n");
                }
            }
        }
        let _ = writeln!(s, "  t:\n    kind: {}", self.target_kind());
        field(EVENT_AGE, "max_event_age", &mut s, false);
        s.push_str("    effects: [{ to: ext, passes_key: true }]\n");
        s.push_str("  ext: { kind: external, accepts_key: true, key_window: 1h }\n");
        s
    }

    /// The design with every omitted slot written: as `fill` says, or
    /// (`fill` none) as the documented value the platform takes.
    fn written(&self, fill: Option<&[u32; SLOTS]>) -> Omitting {
        let mut w = self.clone();
        for slot in 0..SLOTS {
            if w.slots[slot].is_some() || !self.applies(slot) {
                continue;
            }
            w.slots[slot] = match fill {
                Some(f) => Some(f[slot]),
                // The documented value is the ceiling: its fraction is 1.
                None => self
                    .range(slot)
                    .1
                    .filter(|&d| d < u64::MAX)
                    .map(|_| u32::MAX),
            };
        }
        w
    }
}

fn omitting() -> impl Strategy<Value = Omitting> {
    let fraction = || prop_oneof![Just(0u32), Just(u32::MAX), any::<u32>()];
    (
        (0u8..3, 0u8..4, 0u8..3, any::<bool>()),
        (
            proptest::option::of((1u64..86_400, any::<u8>())),
            any::<bool>(),
        ),
        proptest::array::uniform9(proptest::option::of(fraction())),
    )
        .prop_map(
            |((bus, queue, target, bus_retry), (backlog, redrive), slots)| Omitting {
                bus,
                queue,
                target,
                bus_retry,
                backlog,
                redrive,
                slots,
            },
        )
}

/// Horizons of `text` by (intent, component).
fn horizons_of(
    text: &str,
) -> std::collections::BTreeMap<(String, String), replay_audit::time::Dur> {
    horizons(&load(vec![("a.yaml".to_string(), text.to_string())]))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Where the manifest leaves a delay to the platform (a queue's or
    /// stream's retention and visibility timeout, an EventBridge target's
    /// maximum event age, retry count and backoff, an event-source
    /// mapping's record age, a Lambda function's asynchronous event age, a
    /// dead-letter queue's retention that bounds a redrive without
    /// `within`),
    /// the horizon of every component is never smaller than with any value
    /// the platform could be taking instead, under the same caps: the
    /// omitted value must be the worst case the analysis can stand on.
    ///
    /// The values tried run from the catalog's documented minimum to the
    /// value the platform takes when the field is omitted: its documented
    /// default where there is one (SQS retention 4d, visibility 30s,
    /// Kinesis 24h, a new bus's 300s, EventBridge classic 24h, Lambda 6h,
    /// 186 attempts), else the documented maximum (a mapping's record age,
    /// unbounded by default, tried up to 7d; a backoff, not configurable,
    /// up to a day). Not the maximum where a default is documented and
    /// smaller: a queue created without `retention` keeps messages 4 days,
    /// not 14, so writing `retention: 14d` describes another queue, and
    /// its longer horizon is right (the analysis takes the documented
    /// default when a value is omitted, docs/analysis.md "Defaults the
    /// analysis fills in"). Writing exactly that default must change no
    /// horizon, which the second assertion checks.
    #[test]
    fn an_omitted_delay_is_never_shorter_than_a_written_one(
        d in omitting(),
        fill in proptest::array::uniform9(prop_oneof![Just(0u32), Just(u32::MAX), any::<u32>()]),
    ) {
        let omitted = horizons_of(&d.text());
        let explicit = d.written(Some(&fill));
        let written = horizons_of(&explicit.text());
        for (k, h) in &written {
            let o = omitted.get(k);
            prop_assert!(
                o.is_some_and(|o| h <= o),
                "{:?}: {:?} written, {:?} omitted\n--- omitted\n{}--- written\n{}",
                k, h, o, d.text(), explicit.text()
            );
        }
        let defaults = d.written(None);
        prop_assert_eq!(&horizons_of(&defaults.text()), &omitted, "--- omitted\n{}--- defaults written\n{}", d.text(), defaults.text());
    }
}

/// The same cause with a Region-scoped provider key (found by hand while
/// reading the counterexample above): EC2 keeps a client token 24 h
/// (F044) and the queue redelivers within 2 d, so without regions RH001
/// fires on `ext`. With the caller failing over, the failover's copy
/// (out of the token's Region scope) and the in-Region redelivery merge
/// into one duplicate marked as crossed, RH010 fires for it, and RH001,
/// which holds for the copy that never left r0, is gone. (RH010's message
/// also read "`api` runs in  and passes the key", an empty Region list,
/// for a caller that declares no regions.) Fixed with the test above.
#[test]
fn failover_hides_an_expiry_of_a_region_scoped_key() {
    let text = "version: 1
name: region-span
regions:
  r0: { failover_to: r1, detection: 1s, catch_up: 0s }
  r1: {}
intents:
  i:
    origin: p
    effect: ext
    key: { fields: [k], persisted_before_retry: true }
    fingerprint: [k, amount]
components:
  p: { kind: service, sends_to: [q] }
  q: { kind: sqs-standard, retention: 2d, delivers_to: [w] }
  w:
    kind: function
    regions: [r0, r1]
    calls: [{ to: api, timeout: 10s, passes_key: true }]
  api:
    kind: service
    effects: [{ to: ext, passes_key: true }]
  ext: { kind: ec2-client-token, key_window: 24h }
";
    let plain: String = text
        .lines()
        .filter(|l| !l.contains("regions") && !l.contains("r0:") && !l.contains("r1:"))
        .map(|l| format!("{l}\n"))
        .collect();
    let rh001 = (
        "RH001".to_string(),
        Some("i".to_string()),
        Some("ext".to_string()),
    );
    let (_, without) = horizon_and_scope(&plain);
    assert!(without.contains(&rh001), "{without:?}");
    let (_, with_failover) = horizon_and_scope(text);
    assert!(with_failover.contains(&rh001), "{with_failover:?}");
}
