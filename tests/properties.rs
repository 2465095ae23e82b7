//! Properties over generated manifests (tests/common/gen.rs prints a small
//! valid manifest from plain numbers): no panic; output independent of the
//! order of components, files and fields; longer windows never add an
//! expiry finding; longer delays never shorten a horizon; the horizon equals
//! a brute-force walk over every path; a waiver changes nothing but the
//! waived status; RH043 fires exactly for unreached effects; a dedup layer
//! added to a design without errors adds no horizon or scope finding, and
//! a delay left to the platform is never shorter than a written one
//! (properties/layers.rs). Cases are few and small so the file runs in
//! seconds.

#[path = "properties/edges.rs"]
mod edges;
#[path = "common/gen.rs"]
mod generate;
#[path = "properties/horizon.rs"]
mod horizon;
#[path = "properties/layers.rs"]
mod layers;
#[path = "properties/oracle.rs"]
mod oracle;

use std::collections::{BTreeMap, BTreeSet};

use generate::{Arch, Comp, Intent, KINDS, Link, Replay, Retry, UNBOUNDED};
use proptest::prelude::*;
use replay_audit::analysis;
use replay_audit::manifest::{self, Limits, Manifest};
use replay_audit::time::Dur;
use replay_audit::{report, rules};

// ------------------------------------------------------------ strategies

fn dur() -> impl Strategy<Value = u64> {
    prop_oneof![
        Just(0u64),
        1u64..120,
        Just(3_600u64),
        Just(86_400u64),
        1u64..1_209_600,
        Just(UNBOUNDED),
    ]
}

fn retry() -> impl Strategy<Value = Retry> {
    (
        0u8..4,
        dur(),
        dur(),
        0u8..3,
        proptest::option::of(dur()),
        proptest::option::of(dur()),
    )
        .prop_map(
            |(attempts, timeout, backoff, multiplier, max_backoff, max_elapsed)| Retry {
                attempts,
                timeout,
                backoff,
                multiplier,
                max_backoff,
                max_elapsed,
            },
        )
}

fn link() -> impl Strategy<Value = Link> {
    (
        any::<u8>(),
        any::<u8>(),
        proptest::option::of(retry()),
        proptest::option::of(dur()),
        proptest::option::of(0u8..3),
        any::<bool>(),
        any::<u8>(),
    )
        .prop_map(
            |(ty, to, retry, within, max_times, passes_key, claim)| Link {
                ty,
                to,
                retry,
                within,
                max_times,
                passes_key,
                claim,
            },
        )
}

fn comp() -> impl Strategy<Value = Comp> {
    (
        (0..KINDS.len() as u8, 0u8..8, any::<bool>()),
        proptest::collection::vec(link(), 0..3),
        (
            proptest::option::of(dur()),
            proptest::option::of(dur()),
            proptest::option::of(dur()),
            proptest::option::of(0u8..10),
            proptest::option::of(dur()),
        ),
        (any::<bool>(), 0u8..3),
    )
        .prop_map(
            |(
                (kind, regions, active_active),
                links,
                (retention, window, visibility, max_receives, max_backlog),
                (accepts_key, replication),
            )| Comp {
                kind,
                regions,
                active_active,
                links,
                retention,
                window,
                visibility,
                max_receives,
                max_backlog,
                accepts_key,
                replication,
            },
        )
}

fn intent() -> impl Strategy<Value = Intent> {
    (
        any::<u8>(),
        any::<u8>(),
        any::<bool>(),
        proptest::collection::vec(
            (any::<u8>(), dur()).prop_map(|(enters_at, within)| Replay { enters_at, within }),
            0..2,
        ),
    )
        .prop_map(|(origin, effect, per_attempt, replays)| Intent {
            origin,
            effect,
            per_attempt,
            replays,
        })
}

fn arch_with(regions: std::ops::RangeInclusive<u8>, max: usize) -> impl Strategy<Value = Arch> {
    (
        regions,
        dur(),
        dur(),
        proptest::collection::vec(comp(), 1..=max),
        proptest::collection::vec(intent(), 1..=2),
    )
        .prop_map(|(regions, detection, catch_up, comps, intents)| Arch {
            regions,
            detection,
            catch_up,
            comps,
            intents,
        })
}

fn arch() -> impl Strategy<Value = Arch> {
    arch_with(0..=2, 6)
}

// ------------------------------------------------------------ helpers

fn load(texts: Vec<(String, String)>) -> Manifest {
    match manifest::load_texts(texts.clone(), &Limits::default()) {
        Ok(m) => m,
        Err(e) => panic!(
            "a generated manifest does not load:\n{}\n{}",
            e.render(false),
            texts
                .iter()
                .map(|(p, t)| format!("--- {p}\n{t}"))
                .collect::<String>()
        ),
    }
}

fn load_one(a: &Arch) -> Manifest {
    load(vec![("a.yaml".to_string(), a.text())])
}

/// The JSON report without locations (which move when the text moves).
fn json_without_locations(m: &Manifest) -> String {
    let findings = rules::run(&analysis::analyse(m));
    let mut v: serde_json::Value =
        serde_json::from_str(&report::json::render(&m.sources, &findings)).unwrap();
    for f in v["findings"].as_array_mut().unwrap() {
        f.as_object_mut().unwrap().remove("location");
    }
    serde_json::to_string_pretty(&v).unwrap()
}

fn expiry_findings(m: &Manifest) -> BTreeSet<(String, Option<String>, Option<String>)> {
    rules::run(&analysis::analyse(m))
        .into_iter()
        .filter(|f| matches!(f.rule.code, "RH001" | "RH002"))
        .map(|f| {
            (
                f.rule.code.to_string(),
                f.intent.map(|i| i.to_string()),
                f.component.map(|c| c.to_string()),
            )
        })
        .collect()
}

/// Horizons by intent id and component id.
fn horizons(m: &Manifest) -> BTreeMap<(String, String), Dur> {
    let a = analysis::analyse(m);
    let mut out = BTreeMap::new();
    for r in &a.intents {
        for (c, h) in r.horizons.iter() {
            out.insert(
                (
                    m.intents[r.intent].id.to_string(),
                    m.components[c].id.to_string(),
                ),
                h,
            );
        }
    }
    out
}

fn role(c: &Comp) -> char {
    KINDS[c.kind as usize % KINDS.len()].1
}

// ------------------------------------------------------------ properties

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Any generated manifest loads, analyses and renders in every format.
    #[test]
    fn generated_manifests_never_panic(a in arch()) {
        let m = load_one(&a);
        let an = analysis::analyse(&m);
        let findings = rules::run(&an);
        let _ = report::table::render(&m.sources, &findings, false);
        let _ = report::json::render(&m.sources, &findings);
        let _ = report::sarif::render_with(&m.sources, &findings, Some(&m), &[]);
        let _ = report::junit::render(&m.sources, &findings);
        let _ = report::github::render(&m.sources, &findings);
        let _ = report::markdown::render_with(&m.sources, &findings, Some(&m));
        let review = report::review::build(&an, &findings);
        let _ = report::review_html::render(&review);
        let _ = report::review_md::render(&review);
    }

    /// The cheap path readers agree with the full steps: the ids of
    /// `path_ids_to` are those of `path_to`'s steps, and `assumptions_to`
    /// collects exactly the steps' assumptions, for every reached component.
    #[test]
    fn path_shortcuts_match_the_full_steps(a in arch()) {
        let m = load_one(&a);
        let an = analysis::analyse(&m);
        for r in &an.intents {
            let origin = m.intents[r.intent].origin.index().unwrap_or(0);
            for c in r.horizons.keys() {
                let steps = r.path_to(&an, c);
                prop_assert_eq!(
                    r.path_ids_to(&an, c, origin),
                    analysis::IntentResult::path_ids(&m, origin, &steps)
                );
                let mut values = BTreeSet::new();
                r.assumptions_to(&an, c, &mut values);
                let cheap: BTreeSet<String> =
                    values.into_iter().map(|x| r.assumption_text(&an, x)).collect();
                let full: BTreeSet<String> =
                    steps.iter().flat_map(|s| s.assumptions.iter().cloned()).collect();
                prop_assert_eq!(cheap, full);
            }
        }
    }

    /// Reordering components and writing every component's fields backwards
    /// changes nothing but locations and the order of findings (sorted by
    /// place); splitting them over two files likewise.
    #[test]
    fn output_is_independent_of_order(
        (a, order, split, reverse) in arch().prop_flat_map(|a| {
            let n = a.n();
            let ids: Vec<usize> = (0..n).collect();
            (Just(a), Just(ids).prop_shuffle(), 0..=n, any::<bool>())
        })
    ) {
        let first = json_without_locations(&load_one(&a));
        let texts = a.texts(&order, split, reverse);
        let second = json_without_locations(&load(texts));
        // Findings are sorted by place, so a reorder or a split may reorder
        // two findings that differ only in where they are; the findings
        // themselves and the rest are identical.
        let sorted = |s: &str| {
            let mut v: serde_json::Value = serde_json::from_str(s).unwrap();
            let f = v["findings"].as_array_mut().unwrap();
            f.sort_by_key(|x| x.to_string());
            v.to_string()
        };
        prop_assert_eq!(sorted(&first), sorted(&second));
    }

    /// A longer store retention, provider key window or transport dedup
    /// window never adds an RH001/RH002 finding.
    #[test]
    fn longer_windows_never_add_expiry_findings(
        a in arch(),
        pick in any::<prop::sample::Index>(),
        more in 1u64..10_000_000,
        to_unbounded in any::<bool>(),
    ) {
        let before = expiry_findings(&load_one(&a));
        let i = pick.index(a.n());
        let mut b = a.clone();
        // An unbounded window stays unbounded: capping it at the largest
        // finite value would shorten it.
        let raise = |v: u64| if to_unbounded || v == UNBOUNDED { UNBOUNDED } else { v.saturating_add(more).min(UNBOUNDED - 1) };
        let c = &mut b.comps[i];
        match role(c) {
            'S' => c.retention = c.retention.map(raise),
            'E' | 'T' => c.window = c.window.map(|w| raise(w.max(1))),
            _ => {}
        }
        let after = expiry_findings(&load_one(&b));
        prop_assert!(after.is_subset(&before), "added: {:?}", after.difference(&before).collect::<Vec<_>>());
    }

    /// One more retry attempt, a longer timeout or backoff, a later redrive
    /// or replay never lowers any horizon.
    #[test]
    fn longer_delays_never_lower_a_horizon(
        a in arch(),
        pick in any::<prop::sample::Index>(),
        what in 0u8..5,
        more in 1u64..100_000,
    ) {
        let before = horizons(&load_one(&a));
        let mut b = a.clone();
        let links: Vec<(usize, usize)> = b.comps.iter().enumerate()
            .flat_map(|(c, comp)| (0..comp.links.len()).map(move |l| (c, l)))
            .collect();
        let longer = |v: u64| if v == UNBOUNDED { v } else { v.saturating_add(more).min(UNBOUNDED - 1) };
        match what {
            0..=2 if !links.is_empty() => {
                let (c, l) = links[pick.index(links.len())];
                let link = &mut b.comps[c].links[l];
                match (what, &mut link.retry) {
                    (0, Some(r)) if r.attempts % 5 < 4 => r.attempts += 1,
                    (1, Some(r)) => r.timeout = longer(r.timeout.max(1)),
                    (2, Some(r)) => r.backoff = longer(r.backoff),
                    _ => link.within = link.within.map(|w| longer(w.max(1))),
                }
            }
            _ => {
                let i = pick.index(b.intents.len());
                if let Some(r) = b.intents[i].replays.first_mut() {
                    r.within = longer(r.within.max(1));
                }
            }
        }
        let after = horizons(&load_one(&b));
        for (k, h) in &before {
            let now = after.get(k).copied();
            prop_assert!(now.is_some_and(|n| n >= *h), "{:?}: {:?} -> {:?}", k, h, now);
        }
    }

    /// RH043 fires for exactly the (intent, effect) pairs that no copy link
    /// path reaches from the intent's origin or a replay's entry point
    /// (a plain search over the model's edges, written independently).
    #[test]
    fn unreachable_effect_fires_exactly_for_unreached_effects(a in arch()) {
        let m = load_one(&a);
        let an = analysis::analyse(&m);
        let got: BTreeSet<(String, String)> = rules::run(&an)
            .into_iter()
            .filter(|f| f.rule.code == "RH043")
            .map(|f| (f.intent.unwrap().to_string(), f.component.unwrap().to_string()))
            .collect();
        let mut want = BTreeSet::new();
        for intent in &m.intents {
            let mut seen = vec![false; an.model.nodes.len()];
            let mut stack: Vec<usize> = intent.origin.index().into_iter().collect();
            stack.extend(intent.replays.iter().filter_map(|r| r.enters_at.index()));
            while let Some(u) = stack.pop() {
                if !std::mem::replace(&mut seen[u], true) {
                    stack.extend(an.model.out[u].iter().map(|&e| an.model.edges[e].to()));
                }
            }
            for e in &intent.effects {
                if !seen[e.index().unwrap()] {
                    want.insert((intent.id.to_string(), e.value.to_string()));
                }
            }
        }
        prop_assert_eq!(got, want, "{}", a.text());
    }

    /// The steps shown for a surviving duplicate add up to its age: each
    /// step adds what the duplicate's own clock allowed.
    #[test]
    fn a_duplicates_steps_sum_to_its_age(a in arch()) {
        let m = load_one(&a);
        let an = analysis::analyse(&m);
        for r in &an.intents {
            for (_, dups) in r.surviving.iter() {
                for (_, d, steps) in dups {
                    if d.age.is_unbounded() {
                        continue;
                    }
                    let sum = steps.iter().fold(Dur::ZERO, |t, s| t.add(s.adds));
                    prop_assert_eq!(sum, d.age, "{:?}\n{}", steps, a.text());
                }
            }
        }
    }

    /// A waiver marks the findings it covers as waived and changes nothing
    /// else: same findings, same order, same fields.
    #[test]
    fn a_waiver_changes_only_the_waived_status(a in arch(), pick in any::<prop::sample::Index>()) {
        let m = load_one(&a);
        let an = analysis::analyse(&m);
        let plain = rules::run(&an);
        prop_assume!(!plain.is_empty());
        let target = &plain[pick.index(plain.len())];
        let mut policy = format!(
            "[[waiver]]\ncode = \"{}\"\nreason = \"accepted for the property test\"\n",
            target.rule.code
        );
        if let Some(i) = &target.intent {
            policy.push_str(&format!("intent = \"{i}\"\n"));
        }
        if let Some(c) = &target.component {
            policy.push_str(&format!("component = \"{c}\"\n"));
        }
        let p = replay_audit::policy::Policy::parse("policy.toml", &policy)
            .unwrap_or_else(|e| panic!("{policy}: {}", e.render(false)));
        let today = replay_audit::policy::Date::parse("2026-01-01").unwrap();
        let (waived, unused) = p.apply(rules::run_with(&an, &p.options()), today);
        prop_assert!(unused.is_empty());
        prop_assert_eq!(plain.len(), waived.len());
        let mut any = false;
        for (x, y) in plain.iter().zip(&waived) {
            let mut y2 = y.clone();
            if y2.waived.take().is_some() {
                any = true;
                prop_assert_eq!(&y.rule.code, &target.rule.code);
            }
            prop_assert_eq!(format!("{x:?}"), format!("{y2:?}"));
        }
        prop_assert!(any, "the waiver covers {}", target.rule.code);
    }
}
