//! The region each intent covers, on small shapes: one topic with an
//! intent per subscriber (the ancestors of the effect finish first), many
//! producers into one hub (the reach of the seeds finishes first), dead
//! ends on the way, and an intent whose effect names nothing.

use crate::analysis::analyse;
use crate::manifest::from_str;

/// The ids of the components intent `i`'s result has a horizon for.
fn covered(text: &str) -> Vec<Vec<String>> {
    let m = from_str(text).unwrap();
    let a = analyse(&m);
    a.intents
        .iter()
        .map(|r| {
            r.horizons
                .keys()
                .map(|c| m.components[c].id.to_string())
                .collect()
        })
        .collect()
}

/// A topic with three subscribers, each a queue with its own worker and
/// bank and an intent; the second queue's dead-letter queue is no one's
/// effect, and every worker also writes one audit log no intent names.
const TOPIC: &str = "version: 1
intents:
  i1: { origin: api, effect: bank1, key: { fields: [id] } }
  i2: { origin: api, effect: bank2, key: { fields: [id] } }
  i3: { origin: api, effect: bank3, key: { fields: [id] } }
components:
  api: { kind: service, sends_to: topic }
  topic: { kind: sns-standard, delivers_to: [q1, q2, q3] }
  q1: { kind: sqs-standard, delivers_to: w1 }
  q2: { kind: sqs-standard, delivers_to: w2, dead_letter: { to: dlq2 } }
  q3: { kind: sqs-standard, delivers_to: w3 }
  dlq2: { kind: sqs-standard }
  w1: { kind: function, effects: [bank1, audit] }
  w2: { kind: function, effects: [bank2, audit] }
  w3: { kind: function, effects: [bank3, audit] }
  audit: { kind: external }
  bank1: { kind: external }
  bank2: { kind: external }
  bank3: { kind: external }
";

#[test]
fn each_subscriber_intent_covers_its_own_branch_and_the_dead_ends_on_it() {
    assert_eq!(
        covered(TOPIC),
        [
            vec!["api", "audit", "bank1", "q1", "topic", "w1"],
            vec!["api", "audit", "bank2", "dlq2", "q2", "topic", "w2"],
            vec!["api", "audit", "bank3", "q3", "topic", "w3"],
        ]
    );
}

#[test]
fn an_intent_per_producer_into_one_hub_covers_its_producer_only() {
    let text = "version: 1
intents:
  i1: { origin: s1, effect: bank, key: { fields: [id] } }
  i2: { origin: s2, effect: bank, key: { fields: [id] } }
components:
  s1: { kind: service, sends_to: hub }
  s2: { kind: service, sends_to: hub }
  s3: { kind: service, sends_to: hub }
  hub: { kind: sqs-standard, delivers_to: worker }
  worker: { kind: function, effects: [bank] }
  bank: { kind: external }
";
    assert_eq!(
        covered(text),
        [
            vec!["bank", "hub", "s1", "worker"],
            vec!["bank", "hub", "s2", "worker"],
        ]
    );
}

#[test]
fn a_replay_that_leads_to_the_effect_is_covered_without_the_origin_branch() {
    // The origin reaches only the other intent's bank; the replay enters
    // where the effect is reached.
    let text = "version: 1
intents:
  pay: { origin: api, effect: bank, key: { fields: [id] } }
  refund:
    origin: api
    effect: card
    key: { fields: [id] }
    replays: [{ name: backfill, enters_at: refunder, within: 1h }]
components:
  api: { kind: service, calls: [bank] }
  refunder: { kind: service, calls: [card] }
  bank: { kind: external }
  card: { kind: external }
";
    assert_eq!(
        covered(text),
        [vec!["api", "bank"], vec!["card", "refunder"]]
    );
}

#[test]
fn an_intent_whose_effect_is_not_reached_covers_what_leads_to_no_effect() {
    // The effect `bank` is not reached (RH043); what the origin reaches
    // leads to no intent's effect, so it is covered as before.
    let text = "version: 1
intents:
  pay: { origin: api, effect: bank, key: { fields: [id] } }
components:
  api: { kind: service, sends_to: q }
  q: { kind: sqs-standard, delivers_to: w }
  w: { kind: function }
  bank: { kind: external }
";
    assert_eq!(covered(text), [vec!["api", "q", "w"]]);
}

#[test]
fn the_first_intent_reaching_a_component_counts_every_branch() {
    // `topic` fans out to every queue: the first intent reaches them all,
    // though its region holds only its own branch.
    let m = from_str(TOPIC).unwrap();
    let a = analyse(&m);
    let first = |id: &str| a.first_intent_reaching(m.component_index(id).unwrap());
    assert_eq!(first("q3"), Some(0));
    assert_eq!(first("dlq2"), Some(0));
    assert_eq!(first("bank3"), Some(0));
}

#[test]
fn a_cycle_member_behind_a_redrive_of_no_round_is_not_reached() {
    // `back` is reached only along the redrive, which `max_times: 0`
    // never lets a copy take: no horizon, and no intent reaches it.
    let text = "version: 1
intents:
  pay: { origin: api, effect: bank, key: { fields: [id] } }
components:
  api: { kind: service, sends_to: dlq }
  dlq: { kind: sqs-standard, redrive: { to: back, max_times: 0 }, delivers_to: w }
  back: { kind: sqs-standard, dead_letter: { to: dlq } }
  w: { kind: function, effects: [bank] }
  bank: { kind: external }
";
    let m = from_str(text).unwrap();
    let a = analyse(&m);
    let back = m.component_index("back").unwrap();
    assert!(!a.intents[0].horizons.contains_key(back));
    assert_eq!(a.first_intent_reaching(back), None);
    assert_eq!(
        a.first_intent_reaching(m.component_index("w").unwrap()),
        Some(0)
    );
}
