//! `report` (review checklist, Markdown and HTML) and `graph` (DOT, Mermaid).
//!
//! The Markdown report of the incident fixture is compared byte for byte
//! with `tests/expected/review-incident-dlq-redrive.md`; after an intended
//! change, regenerate it with `UPDATE_EXPECT=1 cargo test --test review`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command as Process;

use assert_cmd::Command;
use replay_audit::report::review::{self, Status};
use replay_audit::{analysis, manifest, rules};

const INCIDENT: &str = "fixtures/incident-dlq-redrive.yaml";
const REGIONS: &str = "tests/fixtures/review-regions.yaml";

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("replay-audit")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn ok(args: &[&str]) -> String {
    let (code, stdout, stderr) = run(args);
    assert_eq!(code, 0, "{args:?} failed: {stderr}");
    stdout
}

fn review_of(text: &str) -> review::Review {
    let m = manifest::from_str(text).unwrap_or_else(|e| panic!("{}", e.render(false)));
    let a = analysis::analyse(&m);
    let findings = rules::run(&a);
    review::build(&a, &findings)
}

fn fixture(path: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap()
}

// ------------------------------------------------------------------ Markdown

#[test]
fn markdown_report_of_the_incident_matches_the_snapshot() {
    let md = ok(&["report", INCIDENT, "--format", "markdown"]);
    let expected =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expected/review-incident-dlq-redrive.md");
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::create_dir_all(expected.parent().unwrap()).unwrap();
        std::fs::write(&expected, &md).unwrap();
    }
    let want =
        std::fs::read_to_string(&expected).expect("snapshot exists (UPDATE_EXPECT=1 writes it)");
    assert_eq!(
        md, want,
        "the Markdown report changed; if intended, run UPDATE_EXPECT=1 cargo test --test review"
    );
}

#[test]
fn markdown_is_the_default_format_and_o_writes_a_file() {
    let stdout = ok(&["report", INCIDENT]);
    assert!(
        stdout.starts_with("# Idempotency review: payouts-dlq-incident\n"),
        "{stdout}"
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("review.md");
    let printed = ok(&["report", INCIDENT, "-o", file.to_str().unwrap()]);
    assert_eq!(printed, "");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), stdout);
}

#[test]
fn report_input_errors_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.yaml");
    std::fs::write(
        &bad,
        "version: 1\ncomponents:\n  a: { kind: service, sendz_to: b }\n",
    )
    .unwrap();
    let (code, stdout, stderr) = run(&["report", bad.to_str().unwrap(), "--format", "html"]);
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(stdout, "");
    assert!(stderr.contains("bad.yaml:3:"), "{stderr}");
    let (code, _, stderr) = run(&[
        "report",
        INCIDENT,
        "-o",
        dir.path().join("missing/dir/r.md").to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(stderr.contains("cannot write"), "{stderr}");
    let (code, _, _) = run(&["graph", INCIDENT, "--format", "png"]);
    assert_eq!(code, 2);
}

// ------------------------------------------------------------------ model

#[test]
fn incident_checklist_statuses_and_codes() {
    let r = review_of(&fixture(INCIDENT));
    assert_eq!(r.intents.len(), 1);
    let i = &r.intents[0];
    let got: Vec<(usize, &str, Status, Vec<&str>)> = i
        .answers
        .iter()
        .map(|a| (a.number, a.topic, a.status, a.codes.clone()))
        .collect();
    use Status::*;
    assert_eq!(
        got,
        vec![
            (1, "intent", Satisfied, vec![]),
            (2, "key generation", Satisfied, vec![]),
            (3, "propagation", Satisfied, vec![]),
            (4, "fingerprint", Satisfied, vec![]),
            (5, "concurrency", Satisfied, vec![]),
            (6, "completion", Satisfied, vec![]),
            (7, "ambiguity", Satisfied, vec![]),
            (8, "retention", Failing, vec!["RH001"]),
            (9, "scope", Assumed, vec![]),
            (10, "failover", Assumed, vec![]),
            (11, "recovery", Assumed, vec![]),
            (12, "testing", Failing, vec!["RH040"]),
        ]
    );
    // Retention cites the store's window with its provenance and place,
    // and lists the declared assumptions it rests on.
    let retention = &i.answers[7];
    assert!(retention.evidence.iter().any(|e| e.at.as_deref() == Some("manifest.yaml:53")
        && e.text.contains("`payout-idempotency` (store): retention 1h (powertools-idempotency default, F040); latest copy at 15h 25m, the latest it must stop 15h 25m after its first sighting; minimum safe retention 16h 57m 30s (expires too soon)")));
    assert_eq!(
        retention.assumptions,
        vec![
            "max_backlog 30m on payout-requests",
            "redrive of payout-dlq within 14h"
        ]
    );
}

#[test]
fn incident_test_plan_applies_to_its_graph() {
    let r = review_of(&fixture(INCIDENT));
    let plan: Vec<(&str, bool)> = r.intents[0]
        .experiments
        .iter()
        .map(|e| (e.name, e.covered))
        .collect();
    assert_eq!(
        plan,
        vec![
            ("timeout-before-effect", true),
            ("timeout-after-effect", true),
            ("lost-ack", true),
            ("concurrent-retry", true),
            ("expired-key", false),
            ("dlq-redrive", false),
        ],
        "no regional failover: the fixture declares no regions"
    );
    let redrive = &r.intents[0].experiments[5];
    assert_eq!(
        redrive.text,
        "Redrive `payout-dlq` at the latest the manifest allows, so its copy reaches `bank-rail` 15h 25m after the first attempt, and check `bank-rail` does not take effect twice."
    );
    assert!(
        r.intents[0].experiments[4]
            .text
            .contains("`payout-worker` 1h 1s after the first attempt")
    );
}

#[test]
fn regions_give_a_failover_experiment_and_no_redrive() {
    let r = review_of(&fixture(REGIONS));
    let i = &r.intents[0];
    let names: Vec<&str> = i.experiments.iter().map(|e| e.name).collect();
    assert_eq!(
        names,
        [
            "timeout-before-effect",
            "timeout-after-effect",
            "lost-ack",
            "concurrent-retry",
            "expired-key",
            "regional-failover"
        ]
    );
    assert_eq!(
        i.experiments[5].text,
        "Fail eu-west-1 over to us-east-1 while `charger`, `checkout`, `orders` hold the request (copies arrive up to 2h 5m later), and check `psp` takes effect once."
    );
    let failover = &i.answers[9];
    assert_eq!(failover.status, Status::Failing);
    assert_eq!(failover.codes, vec!["RH010"]);
    // The replay's `within` is a declared assumption: listed with its place.
    assert!(r.assumptions.iter().any(|x| x.source == "declared"
        && x.at.as_deref() == Some("manifest.yaml:18")
        && x.text.contains("enters at `orders` within 2h")));
}

#[test]
fn a_manifest_that_is_silent_is_assumed_not_satisfied() {
    let r = review_of(
        "version: 1\nintents:\n  pay:\n    origin: api\n    effect: bank\ncomponents:\n  api:\n    kind: service\n    effects: [bank]\n  bank:\n    kind: external\n",
    );
    let st: Vec<Status> = r.intents[0].answers.iter().map(|a| a.status).collect();
    // No key: intent, generation and propagation are not answered.
    assert_eq!(
        &st[..3],
        &[Status::Assumed, Status::Assumed, Status::Assumed]
    );
    // No `tested` list and nothing that retries: nothing to inject but a lost ack.
    let plan: Vec<&str> = r.intents[0].experiments.iter().map(|e| e.name).collect();
    assert_eq!(plan, ["lost-ack"]);
    assert_eq!(r.intents[0].answers[11].status, Status::Failing);
}

#[test]
fn every_experiment_tested_satisfies_testing() {
    let text = fixture(INCIDENT).replace(
        "tested: [timeout-before-effect, timeout-after-effect, lost-ack, concurrent-retry]",
        "tested: [timeout-before-effect, timeout-after-effect, lost-ack, concurrent-retry, expired-key, dlq-redrive]",
    );
    let r = review_of(&text);
    assert!(r.intents[0].experiments.iter().all(|e| e.covered));
    assert_eq!(r.intents[0].answers[11].status, Status::Satisfied);
}

// ------------------------------------------------------------------ DOT

/// A small DOT reader: enough to check structure, not a full grammar.
#[derive(Debug, Default)]
struct Dot {
    nodes: BTreeMap<String, BTreeMap<String, String>>,
    edges: Vec<(String, String, BTreeMap<String, String>)>,
    clusters: Vec<(String, BTreeSet<String>)>,
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Str(String),
    Id(String),
    P(char),
    Arrow,
}

fn lex(s: &str) -> Vec<Tok> {
    let mut out = Vec::new();
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        match c {
            c if c.is_whitespace() => {}
            '"' => {
                let mut v = String::new();
                loop {
                    match it.next().expect("unterminated string") {
                        '\\' => {
                            let e = it.next().expect("escape");
                            v.push(if e == 'n' { '\n' } else { e });
                        }
                        '"' => break,
                        c => v.push(c),
                    }
                }
                out.push(Tok::Str(v));
            }
            '-' if it.peek() == Some(&'>') => {
                it.next();
                out.push(Tok::Arrow);
            }
            '{' | '}' | '[' | ']' | '=' | ';' | ',' => out.push(Tok::P(c)),
            c if c.is_alphanumeric() || c == '_' || c == '#' || c == '.' => {
                let mut v = String::from(c);
                while let Some(&n) = it.peek() {
                    if n.is_alphanumeric() || n == '_' || n == '.' {
                        v.push(n);
                        it.next();
                    } else {
                        break;
                    }
                }
                out.push(Tok::Id(v));
            }
            c => panic!("unexpected character {c:?} in DOT"),
        }
    }
    out
}

fn text(t: &Tok) -> String {
    match t {
        Tok::Str(s) | Tok::Id(s) => s.clone(),
        other => panic!("expected an id, got {other:?}"),
    }
}

fn attrs(toks: &[Tok], i: &mut usize) -> BTreeMap<String, String> {
    let mut a = BTreeMap::new();
    if toks.get(*i) != Some(&Tok::P('[')) {
        return a;
    }
    *i += 1;
    while toks[*i] != Tok::P(']') {
        let k = text(&toks[*i]);
        assert_eq!(toks[*i + 1], Tok::P('='), "attribute `{k}` has a value");
        a.insert(k, text(&toks[*i + 2]));
        *i += 3;
        if toks[*i] == Tok::P(',') {
            *i += 1;
        }
    }
    *i += 1;
    a
}

fn parse_dot(s: &str) -> Dot {
    let toks = lex(s);
    assert_eq!(toks[0], Tok::Id("digraph".into()));
    let mut depth = 0i32;
    for t in &toks {
        match t {
            Tok::P('{') => depth += 1,
            Tok::P('}') => {
                depth -= 1;
                assert!(depth >= 0, "unbalanced braces");
            }
            _ => {}
        }
    }
    assert_eq!(depth, 0, "balanced braces");
    let mut d = Dot::default();
    let mut i = 3; // digraph NAME {
    assert_eq!(toks[2], Tok::P('{'));
    let mut cluster: Option<usize> = None;
    while i < toks.len() {
        match &toks[i] {
            Tok::P('}') => {
                cluster = None;
                i += 1;
            }
            Tok::P(';') => i += 1,
            Tok::Id(k) if k == "subgraph" => {
                let name = text(&toks[i + 1]);
                assert!(name.starts_with("cluster"), "{name}");
                assert_eq!(toks[i + 2], Tok::P('{'));
                d.clusters.push((String::new(), BTreeSet::new()));
                cluster = Some(d.clusters.len() - 1);
                i += 3;
            }
            Tok::Id(k) if (k == "node" || k == "edge") && toks[i + 1] == Tok::P('[') => {
                i += 1;
                attrs(&toks, &mut i);
            }
            t if toks.get(i + 1) == Some(&Tok::P('=')) => {
                let k = text(t);
                let v = text(&toks[i + 2]);
                if k == "label"
                    && let Some(c) = cluster
                {
                    d.clusters[c].0 = v;
                }
                i += 3;
            }
            t if toks.get(i + 1) == Some(&Tok::Arrow) => {
                let (a, b) = (text(t), text(&toks[i + 2]));
                i += 3;
                let at = attrs(&toks, &mut i);
                d.edges.push((a, b, at));
            }
            t => {
                let id = text(t);
                i += 1;
                let at = attrs(&toks, &mut i);
                assert!(
                    d.nodes.insert(id.clone(), at).is_none(),
                    "node `{id}` declared twice"
                );
                if let Some(c) = cluster {
                    d.clusters[c].1.insert(id);
                }
            }
        }
    }
    for (a, b, _) in &d.edges {
        assert!(
            d.nodes.contains_key(a) && d.nodes.contains_key(b),
            "edge {a} -> {b} between declared nodes"
        );
    }
    d
}

fn dot_validates_with_graphviz_if_installed(dot: &str) {
    use std::io::Write;
    let Ok(mut child) = Process::new("dot")
        .arg("-Tsvg")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
    else {
        return; // Graphviz is optional; the structural check above always runs.
    };
    child
        .stdin
        .take()
        .unwrap()
        .write_all(dot.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "dot rejects the graph: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn dot_of_the_incident_marks_the_finding_and_its_worst_path() {
    let s = ok(&["graph", INCIDENT, "--format", "dot"]);
    let d = parse_dot(&s);
    dot_validates_with_graphviz_if_installed(&s);
    let ids: Vec<&str> = d.nodes.keys().map(String::as_str).collect();
    assert_eq!(
        ids,
        [
            "bank-rail",
            "payout-dlq",
            "payout-idempotency",
            "payout-requests",
            "payout-worker",
            "settlement-scheduler"
        ]
    );
    assert_eq!(d.nodes["payout-idempotency"]["shape"], "cylinder");
    assert_eq!(d.nodes["payout-idempotency"]["color"], "#d93025");
    assert_eq!(
        d.nodes["payout-idempotency"]["label"],
        "payout-idempotency\npowertools-idempotency\nRH001"
    );
    assert_eq!(d.nodes["bank-rail"]["shape"], "hexagon");
    assert!(!d.nodes["bank-rail"].contains_key("color"));
    let hot: BTreeSet<(&str, &str, &str)> = d
        .edges
        .iter()
        .filter(|(_, _, a)| a.get("color").map(String::as_str) == Some("#d93025"))
        .map(|(x, y, a)| (x.as_str(), y.as_str(), a["label"].as_str()))
        .collect();
    let want: BTreeSet<(&str, &str, &str)> = [
        ("settlement-scheduler", "payout-requests", "sends_to"),
        ("payout-requests", "payout-dlq", "dead_letter"),
        ("payout-dlq", "payout-requests", "redrive"),
        ("payout-requests", "payout-worker", "delivers_to"),
        ("payout-worker", "bank-rail", "effects"),
    ]
    .into_iter()
    .collect();
    assert_eq!(hot, want);
    assert_eq!(d.edges.len(), 6, "five links and one dedup claim");
    assert!(d.clusters.is_empty(), "no regions, no clusters");
}

#[test]
fn dot_clusters_regions_and_escapes_free_text() {
    let s = ok(&["graph", REGIONS]);
    assert!(
        s.starts_with("digraph \"<script>alert(\\\"x\\\")</script> & co\" {\n"),
        "{s}"
    );
    let d = parse_dot(&s);
    dot_validates_with_graphviz_if_installed(&s);
    let clusters: Vec<(&str, Vec<&str>)> = d
        .clusters
        .iter()
        .map(|(l, ns)| (l.as_str(), ns.iter().map(String::as_str).collect()))
        .collect();
    assert_eq!(
        clusters,
        vec![
            ("eu-west-1", vec!["charge-keys"]),
            (
                "eu-west-1 + us-east-1",
                vec!["charger", "checkout", "orders"]
            ),
            // Drawn apart from the regions, in a frame that says so.
            ("no region", vec!["psp"])
        ]
    );
    assert!(
        d.nodes.contains_key("psp"),
        "a component without regions is drawn outside the clusters"
    );
}

// ------------------------------------------------------------------ Mermaid

fn check_mermaid(s: &str) -> (BTreeSet<String>, Vec<(String, String)>) {
    let mut lines = s.lines();
    assert_eq!(lines.next(), Some("flowchart LR"));
    let mut depth = 0;
    let mut nodes = BTreeSet::new();
    let mut edges = Vec::new();
    let mut links = 0;
    for l in lines {
        let t = l.trim();
        if let Some(rest) = t.strip_prefix("subgraph ") {
            depth += 1;
            assert!(rest.starts_with('r') && rest.ends_with("\"]"), "{t}");
        } else if t == "end" {
            depth -= 1;
            assert!(depth >= 0);
        } else if t.starts_with("classDef ")
            || t.starts_with("class ")
            || t.starts_with("linkStyle ")
        {
            if let Some(idx) = t.strip_prefix("linkStyle ") {
                for n in idx.split(' ').next().unwrap().split(',') {
                    assert!(
                        n.parse::<usize>().unwrap() < links,
                        "linkStyle index {n} names an edge"
                    );
                }
            }
            if let Some(ids) = t.strip_prefix("class ") {
                for id in ids.split(' ').next().unwrap().split(',') {
                    assert!(nodes.contains(id), "class on undeclared {id}");
                }
            }
        } else if t.contains("-->") || t.contains("==>") || t.contains("-.->") {
            let parts: Vec<&str> = t.split_whitespace().collect();
            assert_eq!(parts.len(), 3, "{t}");
            let label = parts[1].split('|').nth(1).unwrap();
            assert!(
                label.starts_with('"')
                    && label.ends_with('"')
                    && !label[1..label.len() - 1].contains('"')
            );
            edges.push((parts[0].to_string(), parts[2].to_string()));
            links += 1;
        } else {
            // A node: nN, an opening shape, a quoted label, the matching close.
            let id: String = t
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect();
            let rest = &t[id.len()..];
            let shapes = [
                ("[(\"", "\")]"),
                ("([\"", "\"])"),
                ("{{\"", "\"}}"),
                ("[\"", "\"]"),
            ];
            let (open, close) = shapes
                .iter()
                .find(|(o, _)| rest.starts_with(o))
                .unwrap_or_else(|| panic!("shape: {t}"));
            assert!(rest.ends_with(close), "{t}");
            let label = &rest[open.len()..rest.len() - close.len()];
            assert!(!label.contains('"'), "label keeps no raw quote: {t}");
            assert!(
                !label
                    .replace("<br/>", "")
                    .contains(['<', '>', '[', ']', '{', '}', '|', '`']),
                "{t}"
            );
            assert!(
                id.starts_with('n') && nodes.insert(id.clone()),
                "node {id} declared once"
            );
        }
    }
    assert_eq!(depth, 0, "every subgraph ends");
    for (a, b) in &edges {
        assert!(nodes.contains(a) && nodes.contains(b), "edge {a} -> {b}");
    }
    (nodes, edges)
}

#[test]
fn mermaid_is_well_formed_and_marks_findings() {
    let s = ok(&["graph", INCIDENT, "--format", "mermaid"]);
    let (nodes, edges) = check_mermaid(&s);
    assert_eq!(nodes.len(), 6);
    assert_eq!(edges.len(), 6);
    assert!(
        s.contains("  n2[(\"payout-idempotency<br/>powertools-idempotency<br/>RH001\")]\n"),
        "{s}"
    );
    assert!(s.contains("  class n2 error\n"), "{s}");
    assert!(
        s.contains("  n4 -.->|\"dedup\"| n2\n"),
        "the dedup claim is not on the worst path: {s}"
    );
    // On the worst path, and still dashed as DOT and the legend draw it.
    assert!(s.contains("  n1 -.->|\"redrive\"| n3\n"), "{s}");
    assert!(
        s.contains("  linkStyle 0,2 stroke:#d93025,stroke-width:3px,stroke-dasharray:6 4\n"),
        "{s}"
    );
    let (nodes, _) = check_mermaid(&ok(&["graph", REGIONS, "--format", "mermaid"]));
    assert_eq!(nodes.len(), 5);
}

#[test]
fn mermaid_entity_codes_keep_labels_closed() {
    use replay_audit::report::draw::mermaid_text;
    assert_eq!(
        mermaid_text("end\"]; click n0 call x()"),
        "end#34;#93;#59; click n0 call x()"
    );
}

// ------------------------------------------------------------------ HTML

#[test]
fn html_is_one_self_contained_file() {
    let html = ok(&["report", INCIDENT, "--format", "html"]);
    assert!(html.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"));
    assert!(html.ends_with("</html>\n"));
    for banned in [
        "<script", "<link", "@import", "<img", "<iframe", "https://", "src=",
    ] {
        assert!(!html.contains(banned), "{banned}");
    }
    let http: Vec<&str> = html.matches("http://").collect();
    // The architecture and the one intent: two drawings.
    assert_eq!(http, ["http://", "http://"], "only the SVG namespace");
    assert!(html.contains("xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(html.contains("@media (prefers-color-scheme: dark)"));
    assert!(html.contains("@media print"));
    assert_eq!(html.matches("<svg ").count(), 2);
    assert_eq!(html.matches("<div class=\"answer ").count(), 12);
    assert_eq!(html.matches("<div class=\"answer assumed\"").count(), 3);
    assert!(html.contains("<span class=\"badge assumed\">⚠ ASSUMED</span>"));
    assert!(html.contains("<span class=\"badge failing\">✗ failing: RH001</span>"));
    // Every component is drawn, the flagged one in the error class, in the
    // architecture and again in the intent's drawing (it reaches them all).
    assert!(html.contains("<g class=\"node store error\" data-id=\"payout-idempotency\">"));
    assert_eq!(html.matches("<g class=\"node ").count(), 2 * 6);
    assert_eq!(html.matches("<g class=\"edge ").count(), 2 * 6);
    assert_eq!(
        html.matches("<g class=\"edge dedup\"").count(),
        2,
        "the one edge off the worst path, in each drawing"
    );
}

#[test]
fn every_manifest_string_is_escaped() {
    let html = ok(&["report", REGIONS, "--format", "html"]);
    for raw in ["<script", "<img", "</code><script"] {
        assert!(!html.contains(raw), "raw `{raw}` in the HTML");
    }
    assert!(html.contains("<title>Idempotency review: &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co</title>"));
    assert!(html.contains("<p>charge &lt;img src=x onerror=alert(1)&gt; once | twice</p>"));
    assert!(html.contains("replay <code>&lt;/code&gt;&lt;script&gt;bad()&lt;/script&gt;</code> enters at <code>orders</code> within 2h"));
    let md = ok(&["report", REGIONS, "--format", "markdown"]);
    for raw in ["<script", "<img", "</code>"] {
        assert!(!md.contains(raw), "raw `{raw}` in the Markdown");
    }
    assert!(md.contains("charge &lt;img src=x onerror=alert(1)&gt; once \\| twice  \n"));
}
