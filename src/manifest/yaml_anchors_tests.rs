//! Tests of the event reader's anchors, aliases and merge keys: each
//! input is read exactly as serde-saphyr reads it, or left to it.

use super::super::yaml_events::tests::{pieces, same_as_saphyr};
use super::super::yaml_events::{self, Bail};
use crate::manifest::yaml::{self, Limits};

/// Read by the event reader, and exactly as serde-saphyr reads them
/// (values, order, and the place of every node), whole and piece by
/// piece.
const FAST: &[&str] = &[
    // An alias of a mapping, of a list, of a scalar; every node of
    // the copy is placed at the alias.
    "base: &b\n  x: 1\n  z: [a, b]\nuse: *b\nlist: [*b, 2]\n",
    "a: &x 1\nb: *x\nc: [*x, *x]\n",
    "a: &x\nb: *x\n",
    "a: &x 'quoted'\nb: *x\n",
    // An alias of a scalar used as a key.
    "k: &k name\n*k : v\nother: *k\n",
    // A redefined anchor: later aliases read the later one.
    "a: &x 1\nb: *x\nc: &x 2\nd: *x\n",
    // Aliases of aliases.
    "a: &a {p: 1}\nb: &b [*a, *a]\nc: &c {q: *b, r: *a}\nd: [*c, *b]\n",
    // A single merge, overridden by a key after it and before it.
    "base: &b {x: 1, z: 2}\nm:\n  <<: *b\n  z: 3\n  w: 4\n",
    "base: &b {x: 1, z: 2}\nm:\n  z: 3\n  <<: *b\n",
    // A list of merges: the first one listed wins.
    "a: &a {p: 1}\nb: &b {p: 2, q: 2}\nm:\n  k: 0\n  <<: [*a, *b]\n  r: 5\n",
    "a: &a {p: 1}\nb: &b {p: 2, q: 2}\nm:\n  <<: [*b, *a]\n",
    // Inline merges, block and flow, and a list mixing both.
    "m:\n  <<: {a: 1, b: {c: 2}}\n  d: 3\n",
    "m:\n  <<:\n    a: 1\n    b: [2]\n  d: 3\n",
    "a: &a {p: 1}\nm:\n  <<:\n    - *a\n    - {q: 2}\n    - p: 3\n      r: 4\n",
    "m: {<<: [], a: 1}\n",
    // Lists in merged lists, inline or through aliases.
    "m:\n  <<: [[{a: 1}, [{b: 2}]], {a: 3}]\n",
    "a: &a {p: 1}\nl: &l [*a, [{q: 2}], []]\nm: {<<: [*l, {r: 3}]}\n",
    // A null merges nothing, as an alias or inline, alone or listed.
    "m:\n  <<: ~\n  a: 1\n",
    "z: &z\na: &a {p: 1}\nm:\n  <<: [~, *z, *a]\n  <<: *z\n",
    // Two merge keys in one mapping: the first one wins.
    "a: &a {p: 1}\nb: &b {p: 2, q: 2}\nm:\n  <<: *a\n  <<: *b\n",
    // Nested merges: an anchor that merges, merged again.
    "inner: &i {z: 9}\nouter: &o\n  <<: *i\n  w: [*i]\nuse:\n  <<: *o\n  v: 1\n",
    "m:\n  <<: {a: 1, <<: {b: 2}}\n",
    // A merge of an alias of a list of mappings.
    "a: &a {p: 1}\nb: &b {q: 2}\nl: &l [*a, *b]\nm:\n  <<: *l\n",
    // A merge at the top level, in a list item, in a section entry.
    "d: &d {version: 1}\n<<: *d\nx: 2\n",
    "d: &d {a: 1}\nl:\n  - <<: *d\n    b: 2\n  - {<<: *d}\n",
    "x-retry: &retry {max_attempts: 3}\ncomponents:\n  q:\n    kind: sqs\n    retry: *retry\n  f:\n    <<: *retry\n    kind: lambda\n",
    // An anchored section value read whole, and a quoted key merged over.
    "components: &c {q: 1}\ncopy: *c\n",
    "m: {\"a\": 1, <<: {a: 2}}\n",
    // An anchor on the root.
    "&r\na: 1\n",
];

#[test]
fn anchors_aliases_and_merges_read_as_serde_saphyr_reads_them() {
    let mut streamed = 0;
    for text in FAST {
        assert!(same_as_saphyr(text), "the event reader bailed on {text:?}");
        if let Some(fast) = pieces(text, true) {
            assert_eq!(Some(fast), pieces(text, false), "{text}");
            streamed += 1;
        }
    }
    // Piece by piece, a merge into the top level and an anchor on the
    // root or on a section are left to serde-saphyr.
    assert_eq!(streamed, FAST.len() - 3);
}

/// Left to serde-saphyr: each is an error there, or a case the event
/// reader does not take on.
const BAILS: &[&str] = &[
    "m:\n  <<: 5\n",
    // An inline merged mapping with an alias inside: serde-saphyr
    // places the alias's nodes at the alias, the others at the mapping.
    "b: &b {x: 1}\nm:\n  <<: {a: 1, <<: *b}\n",
    "x: &x 1\nm:\n  <<: {a: *x}\n",
    "m:\n  <<: [{a: 1}, 2]\n",
    // A list in a merged list with an alias inside.
    "a: &a {p: 1}\nm:\n  <<: [[*a]]\n",
    "s: &s text\nm:\n  <<: *s\n",
    "m:\n  a: 1\n  <<: {a: 2}\n  a: 3\n",
    "m:\n  '<<': {a: 1}\n",
    "m:\n  &k <<: {a: 1}\n",
    "a: &a [*a]\n",
    "a: *nothing\n",
    "m: {<<: {1: a}}\n",
    "k: &k <<\nm: {*k : {a: 1}}\n",
];

#[test]
fn what_serde_saphyr_refuses_or_the_reader_leaves_bails() {
    let limits = Limits::default();
    for text in BAILS {
        assert_eq!(yaml_events::parse(text, 0, &limits), Err(Bail), "{text}");
        // Whatever the slow path makes of it, the pieces agree.
        if let Some(fast) = pieces(text, true) {
            assert_eq!(Some(fast), pieces(text, false), "{text}");
        }
    }
}

/// Nine aliases of nine aliases, eight levels deep: 9^9 strings from a
/// 300-byte file.
fn bomb() -> String {
    let mut text = String::from("a: &a [x,x,x,x,x,x,x,x,x]\n");
    for (prev, name) in ('a'..='h').zip('b'..='i') {
        let aliases = vec![format!("*{prev}"); 9].join(",");
        text.push_str(&format!("{name}: &{name} [{aliases}]\n"));
    }
    text
}

#[test]
fn an_alias_bomb_bails_before_it_is_copied_and_keeps_its_error() {
    let limits = Limits::default();
    let text = bomb();
    let started = std::time::Instant::now();
    assert_eq!(yaml_events::parse(&text, 0, &limits), Err(Bail));
    // Bailing costs a few thousand node copies, never the expansion (a
    // generous bound: the expansion would take minutes).
    assert!(started.elapsed().as_secs() < 5);
    let e = yaml::parse(&text, 0, &limits).unwrap_err();
    assert_eq!(
        e.message,
        "invalid YAML: the document has more than 65842 nodes (65843 reached), the limit for a file of 306 bytes (an alias bomb?)"
    );
    assert_eq!(e.loc.map(|l| (l.line, l.col)), Some((5, 29)));
}

#[test]
fn near_a_limit_bails_though_serde_saphyr_accepts_it() {
    // 40,000 aliases in a 120 kB file: serde-saphyr's limit is 50,000
    // plus one per 8 bytes (65,000), the event reader stops at half.
    let text = format!("a: &a 1\nb: [{}]\n", "*a,".repeat(40_000));
    let limits = Limits::default();
    assert_eq!(yaml_events::parse(&text, 0, &limits), Err(Bail));
    let Ok(slow) = yaml::parse(&text, 0, &limits) else {
        panic!("serde-saphyr refused 40,000 aliases")
    };
    let yaml::Value::Map(top) = &slow.value else {
        panic!()
    };
    assert!(matches!(&top[1].1.value, yaml::Value::Seq(items) if items.len() == 40_000));
    // An alias whose copy would nest past the depth limit.
    let deep = format!("a: &a {}{}\nb: [[*a]]\n", "[".repeat(46), "]".repeat(46));
    assert_eq!(yaml_events::parse(&deep, 0, &limits), Err(Bail));
}

#[test]
fn many_components_merging_one_anchor_are_read_fast() {
    let mut text = String::from(
        "version: 1\ncomponents:\n  base:\n    <<: &base { kind: function }\n    timeout: &t 60s\n",
    );
    for i in 0..3000 {
        text.push_str(&format!("  worker-{i}:\n    <<: *base\n    timeout: *t\n"));
    }
    assert!(same_as_saphyr(&text), "the event reader bailed");
    assert_eq!(pieces(&text, true), pieces(&text, false));
}

/// A small deterministic generator (xorshift).
struct Gen(u64);

impl Gen {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }

    fn pick<'a>(&mut self, of: &[&'a str]) -> &'a str {
        of[self.below(of.len() as u64) as usize]
    }

    /// A flow node, `depth` levels deep at most: scalars, lists and
    /// mappings with anchors, aliases and merges over a few names and keys
    /// (so that redefinitions, duplicates and overrides come up).
    fn node(&mut self, depth: u32, out: &mut String) {
        if self.below(4) == 0 {
            out.push_str(&format!("&{} ", self.pick(&["p", "q", "r"])));
        }
        match if depth == 0 { 0 } else { self.below(5) } {
            0 => out.push_str(self.pick(&["1", "x", "'q'", "~", "true", "2.5"])),
            1 => out.push_str(&format!("*{}", self.pick(&["p", "q", "r"]))),
            2 => {
                out.push('[');
                for i in 0..self.below(3) {
                    out.push_str(if i > 0 { ", " } else { "" });
                    self.node(depth - 1, out);
                }
                out.push(']');
            }
            _ => {
                out.push('{');
                for i in 0..self.below(4) {
                    out.push_str(if i > 0 { ", " } else { "" });
                    if self.below(3) == 0 {
                        let merge = ["*p", "*q", "[*p, *r]", "[*q, {a: 1}]", "{b: 2}"];
                        out.push_str(&format!("<<: {}", self.pick(&merge)));
                    } else {
                        out.push_str(&format!("{}: ", self.pick(&["a", "b", "c"])));
                        self.node(depth - 1, out);
                    }
                }
                out.push('}');
            }
        }
    }
}

#[test]
fn generated_documents_are_read_fast_exactly_when_serde_saphyr_reads_them() {
    let mut g = Gen(0x9e37_79b9_7f4a_7c15);
    let limits = Limits::default();
    let (mut fast, mut merged, total) = (0, 0, 1000);
    for _ in 0..total {
        let mut text = String::from("p: &p {a: 1, b: [x]}\nq: &q {c: 2, a: 3}\nr: &r {b: 4}\n");
        for key in ["d", "e", "f", "g"] {
            text.push_str(key);
            if g.below(4) == 0 {
                text.push_str(":\n  <<: *p\n  k: ");
            } else {
                text.push_str(": ");
            }
            g.node(3, &mut text);
            text.push('\n');
        }
        let slow = yaml::with_parser_stack(|| yaml::parse_here(&text, 3, &limits)).unwrap();
        // No generated document comes near a limit: the event reader
        // leaves only serde-saphyr's errors to it.
        assert_eq!(same_as_saphyr(&text), slow.is_ok(), "{text}");
        if slow.is_ok() {
            fast += 1;
            merged += usize::from(text.contains("<<: ["));
        }
        if let Some(p) = pieces(&text, true) {
            assert_eq!(Some(p), pieces(&text, false), "{text}");
        }
    }
    // The rest are errors: a duplicate key, an alias inside its own
    // anchor, a merge of a scalar.
    assert!(
        fast > total / 4 && merged > total / 20,
        "{fast} fast, {merged} merging lists"
    );
}

#[test]
fn the_anchored_fixture_is_read_fast() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/anchors-shared-blocks.yaml"
    );
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains("<<: &call") && text.contains("*both"));
    assert!(same_as_saphyr(&text), "the event reader bailed");
    let fast = pieces(&text, true).expect("the event reader bailed piece by piece");
    assert_eq!(Some(fast), pieces(&text, false));
}

#[test]
fn a_long_list_of_merged_aliases_is_read_in_one_pass() {
    // 20,000 aliases merged in one list, each matched to its element once.
    let aliases = vec!["*a"; 20_000].join(", ");
    let text = format!("a: &a {{p: 1}}\nm: {{<<: [{aliases}], q: 2}}\n");
    assert!(same_as_saphyr(&text), "the event reader bailed");
}
