//! Tests of the event reader: it reads what serde-saphyr reads, into the
//! same nodes and pieces, and bails on everything else.

use super::*;
use crate::manifest::yaml;

/// The fast reader either bails or gives serde-saphyr's tree exactly.
pub(crate) fn same_as_saphyr(text: &str) -> bool {
    let limits = Limits::default();
    let Ok(fast) = parse(text, 3, &limits) else {
        return false;
    };
    let slow = yaml::with_parser_stack(|| yaml::parse_here(text, 3, &limits))
        .unwrap()
        .expect("the fast reader accepted what serde-saphyr refuses");
    assert_eq!(fast, slow, "{text}");
    true
}

/// The pieces `stream` gives, as text, from either reader.
pub(crate) fn pieces(text: &str, fast: bool) -> Option<Vec<String>> {
    let limits = Limits::default();
    let sections = ["components", "intents"];
    let mut out = Vec::new();
    let mut sink = |p: Piece| out.push(format!("{p:?}"));
    if fast {
        stream(text, 2, &limits, &sections, &mut sink).ok()?;
    } else {
        yaml::stream(text, 2, &limits, &sections, &mut sink).ok()?;
    }
    Some(out)
}

const SNIPPETS: &[&str] = &[
    "a: 1\nb: -2\nc: 1.5\nd: -.5\ne: 5.\nf: 1e5\ng: 30d\nh: ~\ni:\nj: null\nk: yes\nl: N\nm: Off\n",
    "a: '1'\nb: \"x\\ty\"\nc: |\n  lit\n  two\nd: >\n  fold\n  ed\n",
    "a: [1, x, {b: c}, [], {}]\nb: {c: [d, e], f: }\n",
    "a: 0x1f\n",
    "a: 1_000\n",
    "a: +5\n",
    "a: 0127\n",
    "a: 99999999999999999999\n",
    "a: -99999999999999999999\n",
    "a: .inf\n",
    "a: nan\n",
    "a: inf\n",
    "a: &x 1\nb: *x\n",
    "a: !Ref b\n",
    "a: !!str 1\n",
    "<<: {a: 1}\n",
    "a: 1\na: 2\n",
    "1: a\n",
    "? [a]\n: b\n",
    "a: 1\n---\nb: 2\n",
    "",
    "# only a comment\n",
    "- a\n- b\n",
    "just text\n",
    "a: [1, 2\nb: 3",
    "a: \"unterminated\n",
    "\u{feff}a: 1\n",
    "%YAML 1.2\n---\na: 1\n",
    "---\na: 1\n...\n",
    "components:\n  q: {kind: sqs}\n  r:\n    kind: lambda\nversion: 1\nintents: []\n",
    "components: null\nintents: x\n",
    "components:\n  a: 1\n  a: 2\n",
    "a:\tb\n",
    "a: 'x' # c\nb: y # d\n",
    "a: -\n",
    "a: 0\nb: -0\nc: 0.0\nd: 1.0e+3\n",
    "a: 123456789012345678\n",
    "a: 1234567890123456789\n",
];

#[test]
fn snippets_bail_or_match_serde_saphyr() {
    let mut fast = 0;
    for text in SNIPPETS {
        if same_as_saphyr(text) {
            fast += 1;
        }
        if let Some(f) = pieces(text, true) {
            assert_eq!(Some(f), pieces(text, false), "{text}");
        }
    }
    // The plain manifests above are read by the fast reader.
    assert!(fast >= 12, "{fast}");
}

#[test]
fn every_fixture_bails_or_matches_serde_saphyr() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    let mut dirs = vec![
        root.join("fixtures"),
        root.join("tests"),
        root.join("examples"),
    ];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "yaml" || x == "yml") {
                files.push(p);
            }
        }
    }
    let mut fast = 0;
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        if same_as_saphyr(&text) {
            fast += 1;
        }
        if let Some(p) = pieces(&text, true) {
            assert_eq!(Some(p), pieces(&text, false), "{}", f.display());
        }
    }
    assert!(
        files.len() > 50 && fast * 2 > files.len(),
        "{fast} of {}",
        files.len()
    );
}

#[test]
fn duplicate_keys_bail_where_keys_are_kept_as_hashes() {
    let limits = Limits::default();
    let mut sink = |_: Piece| {};
    let sections = ["components"];
    let dup_entry = "version: 1\ncomponents:\n  a: {kind: q}\n  b: {kind: q}\n  a: {kind: q}\n";
    assert_eq!(
        stream(dup_entry, 0, &limits, &sections, &mut sink),
        Err(Bail)
    );
    let dup_top = "version: 1\ncomponents: {}\nversion: 1\n";
    assert_eq!(stream(dup_top, 0, &limits, &sections, &mut sink), Err(Bail));
    let fine = "version: 1\ncomponents:\n  a: {kind: q}\n  b: {kind: q}\n";
    assert_eq!(stream(fine, 0, &limits, &sections, &mut sink), Ok(()));
    // A mapping past the scanned size is checked by hash too.
    let keys: String = (0..40).map(|i| format!("k{i}: 1\n")).collect();
    assert!(parse(&keys, 0, &limits).is_ok());
    assert_eq!(parse(&format!("{keys}k7: 2\n"), 0, &limits), Err(Bail));
}

#[test]
fn budgets_and_depth_bail() {
    let limits = Limits::default();
    let deep: String = (0..60).map(|i| format!("{}a:\n", " ".repeat(i))).collect();
    assert_eq!(parse(&deep, 0, &limits), Err(Bail));
    let flow = "[".repeat(200_000);
    assert_eq!(parse(&flow, 0, &limits), Err(Bail));
    let tight = Limits {
        max_file_bytes: 4,
        ..Limits::default()
    };
    assert_eq!(parse("a: 1\n", 0, &tight), Err(Bail));
}
