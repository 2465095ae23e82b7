//! The horizon property: on small generated graphs every edge's step
//! equals the one [`super::edges`] computes from the manifest, and every
//! horizon equals (or, where merged clocks over-approximate, bounds) the
//! brute-force walk of [`super::oracle`]. The builders add the shapes the
//! plain generator rarely makes: a redrive cycle, a stream mapping, and
//! asynchronous targets behind SNS.

use proptest::prelude::*;
use replay_audit::analysis;

use super::generate::{Arch, Comp, Link, Retry};
use super::{arch_with, dur, edges, load_one, oracle, retry, role};

/// Adds a producer sending to a queue whose dead-letter queue redrives
/// back into it (`max_times` and `within` as given; none: unbounded), the
/// queue delivering to one of the existing consumers; the first intent
/// starts at the producer.
fn with_redrive_cycle(
    mut a: Arch,
    max_times: Option<u8>,
    within: Option<u64>,
    deliver: u8,
    standard: bool,
) -> Arch {
    // A generic queue's DLQ restarts the clock (assumed); an SQS standard
    // DLQ keeps the enqueue time (F004).
    let kind = if standard { 9 } else { 3 };
    let n = a.comps.len();
    let (p, q, dlq) = (n, n + 1, n + 2);
    let index_in = |a: &Arch, roles: &str, except: Option<usize>, target: usize| {
        (0..a.comps.len())
            .filter(|&i| roles.contains(role(&a.comps[i])) && Some(i) != except)
            .position(|i| i == target)
            .unwrap() as u8
    };
    a.comps.push(Comp {
        kind: 0,
        ..Comp::default()
    }); // service
    a.comps.push(Comp {
        kind,
        max_receives: Some(2),
        visibility: Some(30),
        retention: Some(3_600),
        ..Comp::default()
    });
    a.comps.push(Comp {
        kind,
        retention: Some(86_400),
        ..Comp::default()
    });
    let to_q = index_in(&a, "T", Some(p), q);
    a.comps[p].links.push(Link {
        ty: 0,
        to: to_q,
        ..Link::default()
    });
    let to_dlq = index_in(&a, "T", Some(q), dlq);
    a.comps[q].links.push(Link {
        ty: 1,
        to: to_dlq,
        claim: 2,
        ..Link::default()
    });
    a.comps[q].links.push(Link {
        ty: 0,
        to: deliver,
        ..Link::default()
    });
    let back = index_in(&a, "T", None, q);
    a.comps[dlq].links.push(Link {
        ty: 2,
        to: back,
        within,
        max_times,
        ..Link::default()
    });
    let origin = index_in(&a, "P", None, p);
    a.intents[0].origin = origin;
    a
}

/// The position of component `target` among those of `roles` (but
/// `except`), as a generated link names it.
fn index_among(a: &Arch, roles: &str, except: Option<usize>, target: usize) -> u8 {
    (0..a.comps.len())
        .filter(|&i| roles.contains(role(&a.comps[i])) && Some(i) != except)
        .position(|i| i == target)
        .unwrap() as u8
}

/// Adds a producer sending to a stream of `retention` (seconds) that an
/// event-source mapping with `retry` (and `max_record_age`, when given)
/// polls into a function, which sends on
/// to one of the existing transports (`onward`); the first intent starts
/// at the producer. The mapping's retries happen while the record is in
/// the stream (F027), which the oracle applies on its own.
fn with_stream_mapping(
    mut a: Arch,
    (mut retry, max_record_age): (Retry, Option<u64>),
    retention: u64,
    onward: u8,
) -> Arch {
    let n = a.comps.len();
    let (p, st, f) = (n, n + 1, n + 2);
    a.comps.push(Comp::default()); // service
    a.comps.push(Comp {
        kind: 5, // stream
        retention: Some(retention),
        ..Comp::default()
    });
    a.comps.push(Comp {
        kind: 1, // function
        ..Comp::default()
    });
    retry.attempts = retry.attempts.max(1);
    let to_stream = index_among(&a, "T", Some(p), st);
    a.comps[p].links.push(Link {
        ty: 0,
        to: to_stream,
        ..Link::default()
    });
    let to_f = index_among(&a, "P", Some(st), f);
    a.comps[st].links.push(Link {
        ty: 0,
        to: to_f,
        retry: Some(retry),
        within: max_record_age,
        ..Link::default()
    });
    a.comps[f].links.push(Link {
        ty: 0,
        to: onward,
        ..Link::default()
    });
    a.intents[0].origin = index_among(&a, "P", None, p);
    a
}

/// Adds a producer publishing to an SNS standard topic (else, with `sns`
/// false, a generic topic of `retention`) that delivers to a Lambda
/// function invoked asynchronously (its `max_event_age` as given, else the
/// 6 h default, F024; `to_fn` the declared subscription policy, which F016
/// sets aside for an AWS-managed endpoint) and to a service (an HTTP/S
/// endpoint, `to_http`); its dead-letter queue is an SQS standard queue
/// (also of `retention`) that an event-source mapping polls into the same
/// function (`from_queue`). The first intent starts at the producer.
fn with_async_targets(
    mut a: Arch,
    [to_fn, to_http, from_queue]: [Option<Retry>; 3],
    (retention, max_event_age): (Option<u64>, Option<u64>),
    sns: bool,
) -> Arch {
    let n = a.comps.len();
    let (p, t, f, s, q) = (n, n + 1, n + 2, n + 3, n + 4);
    a.comps.push(Comp::default()); // service
    a.comps.push(Comp {
        kind: if sns { 13 } else { 4 }, // sns-standard, topic
        retention,
        ..Comp::default()
    });
    a.comps.push(Comp {
        kind: 12, // lambda-async
        window: max_event_age,
        ..Comp::default()
    });
    a.comps.push(Comp::default()); // service
    a.comps.push(Comp {
        kind: 9, // sqs-standard
        retention,
        ..Comp::default()
    });
    let link = |ty: u8, to: u8, retry: Option<Retry>| Link {
        ty,
        to,
        retry,
        ..Link::default()
    };
    let to_t = index_among(&a, "T", Some(p), t);
    a.comps[p].links.push(link(0, to_t, None));
    let (to_f, to_s) = (index_among(&a, "P", None, f), index_among(&a, "P", None, s));
    a.comps[t].links.push(link(0, to_f, to_fn));
    a.comps[t].links.push(link(0, to_s, to_http));
    let to_q = index_among(&a, "T", Some(t), q);
    a.comps[t].links.push(link(1, to_q, None));
    a.comps[q].links.push(link(0, to_f, from_queue));
    a.intents[0].origin = index_among(&a, "P", None, p);
    a
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, ..ProptestConfig::default() })]

    /// On graphs of up to six components without regions, every edge's
    /// delay, message clock and kept enqueue time are those the oracle
    /// computes from the manifest, and the engine's horizon of every
    /// reached component is the longest path found by brute force.
    #[test]
    fn horizon_equals_brute_force(
        a in prop_oneof![
            arch_with(0..=0, 6).boxed(),
            (arch_with(0..=0, 3), proptest::option::of(0u8..3), proptest::option::of(dur()), any::<u8>(), any::<bool>())
                .prop_map(|(a, m, w, d, std)| with_redrive_cycle(a, m, w, d, std)).boxed(),
            (arch_with(0..=0, 3), (retry(), proptest::option::of(dur())), 1u64..1_209_600, any::<u8>())
                .prop_map(|(a, r, ret, o)| with_stream_mapping(a, r, ret, o)).boxed(),
            (arch_with(0..=0, 2), [proptest::option::of(retry()), proptest::option::of(retry()), proptest::option::of(retry())], (proptest::option::of(dur()), proptest::option::of(dur())), any::<bool>())
                .prop_map(|(a, r, ret, sns)| with_async_targets(a, r, ret, sns)).boxed(),
        ]
    ) {
        let m = load_one(&a);
        let an = analysis::analyse(&m);
        let steps = oracle::steps(&m, &an.model);
        for (e, s) in an.model.edges.iter().zip(&steps) {
            let got = edges::Step {
                delay: e.delay(),
                hold: e.hold().as_ref().map(|h| (h.retention(), h.after())),
                keeps_clock: e.keeps_clock,
            };
            prop_assert_eq!(&got, s, "edge c{} -> c{}\n{}", e.from(), e.to(), a.text());
        }
        // Without a kept enqueue time every copy's clock equals its age and
        // the bound is exact; with one, merged paths keep the later age and
        // the later enqueue age separately, an upper bound.
        let exact = steps.iter().all(|s| !s.keeps_clock);
        // The intent named for a component is the first whose copies reach
        // it, whichever effect it leads to.
        let whole: Vec<_> = (0..m.intents.len()).map(|i| oracle::oracle_whole(&m, &an.model, i)).collect();
        for c in 0..m.components.len() {
            let first = whole.iter().position(|h| h.contains_key(&c));
            prop_assert_eq!(an.first_intent_reaching(c), first, "c{}\n{}", c, a.text());
        }
        for r in &an.intents {
            let expected = oracle::oracle(&m, &an.model, r.intent);
            if exact {
                prop_assert_eq!(&r.horizons, &expected, "intent {}\n{}", m.intents[r.intent].id, a.text());
            } else {
                let keys: Vec<_> = r.horizons.keys().collect();
                prop_assert_eq!(keys, expected.keys().copied().collect::<Vec<_>>());
                for (c, h) in &expected {
                    prop_assert!(r.horizons.get(*c).is_some_and(|x| x >= *h), "{c}: {:?} below {h:?}\n{}", r.horizons.get(*c), a.text());
                }
            }
        }
    }
}
