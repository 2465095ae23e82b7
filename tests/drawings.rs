//! The drawings of the HTML review: one per intent with only what it
//! reaches and its own findings, the worst path emphasised (an error's, or
//! else the path to the latest effect), drawn at natural size; the whole
//! architecture in its own section.

use replay_audit::report::review::{self, Review};
use replay_audit::report::review_html;
use replay_audit::{analysis, manifest, rules};

/// Two independent pipelines: `pay` loses its keys after 1h (RH001 on
/// `pay-keys`), `fix` keeps them 7d (no error).
const TWO: &str = r#"
version: 1
intents:
  pay:
    origin: pay-src
    effect: pay-rail
    key: { fields: [id], persisted_before_retry: true }
  fix:
    origin: fix-src
    effect: fix-rail
    key: { fields: [id], persisted_before_retry: true }
components:
  pay-src: { kind: service, sends_to: pay-q }
  pay-q:
    kind: sqs-standard
    max_backlog: 30m
    delivers_to: pay-worker
    dead_letter: { to: pay-dlq, after_receives: 3 }
  pay-dlq:
    kind: sqs-standard
    retention: 14d
    redrive: { to: pay-q, mode: manual, within: 14h, max_times: 1 }
  pay-worker:
    kind: function
    dedup: { store: pay-keys, claim: conditional-write }
    effects: [pay-rail]
  pay-keys: { kind: powertools-idempotency }
  pay-rail: { kind: external, accepts_key: false }
  fix-src: { kind: service, sends_to: fix-q }
  fix-q: { kind: sqs-standard, max_backlog: 30m, delivers_to: fix-worker }
  fix-worker:
    kind: function
    dedup: { store: fix-keys, claim: conditional-write }
    effects: [fix-rail]
  fix-keys: { kind: powertools-idempotency, retention: 7d }
  fix-rail: { kind: external, accepts_key: false }
"#;

fn review_of(text: &str) -> Review {
    let m = manifest::from_str(text).unwrap_or_else(|e| panic!("{}", e.render(false)));
    let a = analysis::analyse(&m);
    let findings = rules::run(&a);
    review::build(&a, &findings)
}

fn ids(r: &Review, intent: &str) -> Vec<String> {
    let i = r.intents.iter().find(|i| i.id == intent).unwrap();
    i.graph.view.nodes.iter().map(|n| n.id.clone()).collect()
}

fn hot(r: &Review, intent: &str) -> Vec<(String, String, &'static str)> {
    let v = &r
        .intents
        .iter()
        .find(|i| i.id == intent)
        .unwrap()
        .graph
        .view;
    v.edges
        .iter()
        .filter(|e| e.hot)
        .map(|e| (v.nodes[e.from].id.clone(), v.nodes[e.to].id.clone(), e.ty))
        .collect()
}

#[test]
fn each_intent_draws_only_what_it_reaches() {
    let r = review_of(TWO);
    assert_eq!(
        ids(&r, "pay"),
        [
            "pay-dlq",
            "pay-keys",
            "pay-q",
            "pay-rail",
            "pay-src",
            "pay-worker"
        ]
    );
    assert_eq!(
        ids(&r, "fix"),
        ["fix-keys", "fix-q", "fix-rail", "fix-src", "fix-worker"]
    );
    assert_eq!(
        r.graph.nodes.len(),
        11,
        "the architecture has every component"
    );
}

#[test]
fn an_error_s_worst_path_is_emphasised_with_its_dead_letter_links() {
    let r = review_of(TWO);
    let pay = r.intents.iter().find(|i| i.id == "pay").unwrap();
    assert!(pay.graph.errors);
    let keys = pay
        .graph
        .view
        .nodes
        .iter()
        .find(|n| n.id == "pay-keys")
        .unwrap();
    assert!(keys.codes.contains(&"RH001"), "{:?}", keys.codes);
    let want = [
        ("pay-src", "pay-q", "sends_to"),
        ("pay-q", "pay-worker", "delivers_to"),
        ("pay-q", "pay-dlq", "dead_letter"),
        ("pay-dlq", "pay-q", "redrive"),
        ("pay-worker", "pay-rail", "effects"),
    ];
    let mut got = hot(&r, "pay");
    got.sort();
    let mut want: Vec<_> = want
        .iter()
        .map(|(a, b, t)| (a.to_string(), b.to_string(), *t))
        .collect();
    want.sort();
    assert_eq!(got, want);
}

#[test]
fn without_an_error_the_path_to_the_latest_effect_is_emphasised() {
    let r = review_of(TWO);
    let fix = r.intents.iter().find(|i| i.id == "fix").unwrap();
    assert!(!fix.graph.errors);
    assert!(
        fix.graph
            .view
            .nodes
            .iter()
            .all(|n| !n.codes.contains(&"RH001"))
    );
    let mut got = hot(&r, "fix");
    got.sort();
    assert_eq!(
        got,
        [
            ("fix-q".to_string(), "fix-worker".to_string(), "delivers_to"),
            ("fix-src".to_string(), "fix-q".to_string(), "sends_to"),
            ("fix-worker".to_string(), "fix-rail".to_string(), "effects"),
        ]
    );
}

#[test]
fn the_html_review_has_a_drawing_per_intent_at_natural_size() {
    let html = review_html::render(&review_of(TWO));
    assert_eq!(
        html.matches("<svg ").count(),
        3,
        "the architecture and two intents"
    );
    assert!(html.contains("<section id=\"graph\"><h2>Architecture</h2>"));
    let pay = html.find("id=\"intent-pay\"").unwrap();
    let fix = html.find("id=\"intent-fix\"").unwrap();
    assert!(
        html[pay..]
            .contains("<title id=\"intent-pay-graph-title\">What intent pay reaches</title>")
    );
    assert!(html[fix..].contains("<figure class=\"calm\">"));
    // Natural size: no rule shrinks a drawing to the page on screen.
    let css = &html[..html.find("@media print").unwrap()];
    assert!(css.contains("svg.graph { max-width:none;"), "{css}");
    assert!(css.contains("figure { margin:0; overflow-x:auto;"));
}
