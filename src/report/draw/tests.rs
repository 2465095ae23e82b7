//! The layout's layers, overlaps and crossings, and the escaping of
//! every format.

use super::layout::{NODE_GAP, NODE_H};
use super::*;

fn node(id: &str, cluster: Option<&str>) -> Node {
    Node {
        id: id.into(),
        kind: "service".into(),
        shape: Shape::Compute,
        cluster: cluster.map(String::from),
        regions: cluster.map(|c| vec![c.to_string()]).unwrap_or_default(),
        codes: Vec::new(),
        severity: None,
    }
}

fn edge(from: usize, to: usize) -> Edge {
    Edge {
        from,
        to,
        ty: "sends_to",
        hot: false,
    }
}

#[test]
fn layers_follow_the_longest_path_and_break_cycles() {
    // a → b → c → d, a → d, and d → b closes a cycle.
    let v = View {
        nodes: vec![
            node("a", None),
            node("b", None),
            node("c", None),
            node("d", None),
        ],
        edges: vec![edge(0, 1), edge(1, 2), edge(2, 3), edge(0, 3), edge(3, 1)],
        clusters: vec![],
    };
    let l = layout(&v);
    assert_eq!(l.layers, vec![0, 1, 2, 3]);
    // The long edge a → d runs through two dummies: four points.
    assert_eq!(l.routes[3].len(), 4);
    // Every route starts at its source's box and ends at its target's.
    for (k, e) in v.edges.iter().enumerate() {
        let r = &l.routes[k];
        let (sx, sy, _) = l.boxes[e.from];
        let (tx, ty, _) = l.boxes[e.to];
        assert!(
            (r[0].1 - sy).abs() <= NODE_H / 2.0 + 0.01,
            "edge {k} starts at its source"
        );
        assert!(
            (r[r.len() - 1].1 - ty).abs() <= NODE_H / 2.0 + 0.01,
            "edge {k} ends at its target"
        );
        assert!((r[0].0 - sx).abs() < 20.0 && (r[r.len() - 1].0 - tx).abs() < 20.0);
    }
}

#[test]
fn boxes_in_one_layer_never_overlap_and_regions_stay_together() {
    // One source fanning out to five children in alternating regions.
    let mut nodes = vec![node("src", None)];
    for i in 0..5 {
        nodes.push(node(
            &format!("child-{i}"),
            Some(if i % 2 == 0 { "eu" } else { "us" }),
        ));
    }
    let v = View {
        nodes,
        edges: (1..6).map(|i| edge(0, i)).collect(),
        clusters: vec!["eu".into(), "us".into()],
    };
    let l = layout(&v);
    let mut row: Vec<(f64, f64, &str)> = (1..6)
        .map(|i| {
            (
                l.boxes[i].0,
                l.boxes[i].2,
                v.nodes[i].cluster.as_deref().unwrap(),
            )
        })
        .collect();
    row.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap());
    for w in row.windows(2) {
        assert!(
            w[0].0 + w[0].1 / 2.0 + NODE_GAP <= w[1].0 - w[1].1 / 2.0 + 0.01,
            "{w:?}"
        );
    }
    let clusters: Vec<&str> = row.iter().map(|r| r.2).collect();
    let changes = clusters.windows(2).filter(|w| w[0] != w[1]).count();
    assert_eq!(changes, 1, "regions contiguous: {clusters:?}");
    assert!(l.width >= row.last().unwrap().0);
}

#[test]
fn barycentre_ordering_removes_a_needless_crossing() {
    // a → d, b → c: starting order puts c before d, so the edges cross.
    let v = View {
        nodes: vec![
            node("a", None),
            node("b", None),
            node("c", None),
            node("d", None),
        ],
        edges: vec![edge(0, 3), edge(1, 2)],
        clusters: vec![],
    };
    let l = layout(&v);
    let a_left_of_b = l.boxes[0].0 < l.boxes[1].0;
    let d_left_of_c = l.boxes[3].0 < l.boxes[2].0;
    assert_eq!(a_left_of_b, d_left_of_c, "no crossing: {:?}", l.boxes);
}

#[test]
fn escapes_for_every_format() {
    assert_eq!(dot_quote("a\"b\\c\nd"), "\"a\\\"b\\\\c\\nd\"");
    // A CR LF is one break; a lone CR is shown, never raw.
    assert_eq!(dot_quote("a\r\nb\rc"), "\"a\\nb\\\\rc\"");
    assert_eq!(mermaid_text("x\"]<script>#"), "x#34;#93;#60;script#62;#35;");
    assert_eq!(
        xml_escape("<a href='x'>&\"</a>"),
        "&lt;a href=&#39;x&#39;&gt;&amp;&quot;&lt;/a&gt;"
    );
}

#[test]
fn mermaid_dashes_dead_letter_and_redrive_links_also_on_a_worst_path() {
    let ty_edge = |from, to, ty, hot| Edge { from, to, ty, hot };
    let v = View {
        nodes: vec![
            node("q", None),
            node("dlq", None),
            node("w", None),
            node("s", None),
        ],
        edges: vec![
            ty_edge(0, 1, "dead_letter", true),
            ty_edge(1, 0, "redrive", false),
            ty_edge(0, 2, "delivers_to", true),
            ty_edge(2, 3, "dedup", false),
            ty_edge(2, 3, "calls", false),
        ],
        clusters: vec![],
    };
    let m = mermaid(&v);
    assert!(m.contains("  n0 -.->|\"dead_letter\"| n1\n"), "{m}");
    assert!(m.contains("  n1 -.->|\"redrive\"| n0\n"), "{m}");
    assert!(m.contains("  n0 ==>|\"delivers_to\"| n2\n"), "{m}");
    assert!(m.contains("  n2 -.->|\"dedup\"| n3\n"), "{m}");
    assert!(m.contains("  n2 -->|\"calls\"| n3\n"), "{m}");
    assert!(m.contains("  linkStyle 1 stroke-dasharray:6 4\n"), "{m}");
    assert!(
        m.contains("  linkStyle 2 stroke:#d93025,stroke-width:3px\n"),
        "{m}"
    );
    assert!(
        m.contains("  linkStyle 0 stroke:#d93025,stroke-width:3px,stroke-dasharray:6 4\n"),
        "{m}"
    );
}

#[test]
fn several_drawings_on_a_page_have_their_own_ids() {
    let v = View {
        nodes: vec![node("a", None), node("b", None)],
        edges: vec![edge(0, 1)],
        clusters: vec![],
    };
    let one = svg_in(&v, "t", "intent-x-");
    assert!(one.contains("<marker id=\"intent-x-arrow\""), "{one}");
    assert!(one.contains("marker-end=\"url(#intent-x-arrow)\""), "{one}");
    assert!(
        one.contains("aria-labelledby=\"intent-x-graph-title\""),
        "{one}"
    );
    assert!(!one.contains("id=\"arrow\""), "{one}");
    let whole = svg(&v, "t");
    assert!(whole.contains("<marker id=\"arrow\"") && whole.contains("url(#arrow)"));
}

/// The rectangles `<rect x= y= width= height=` of the region frames of an
/// SVG drawing, with their region.
fn frames(svg: &str) -> Vec<(String, (f64, f64, f64, f64))> {
    let num = |s: &str, key: &str| -> f64 {
        let at = s.find(&format!("{key}=\"")).unwrap() + key.len() + 2;
        s[at..at + s[at..].find('"').unwrap()].parse().unwrap()
    };
    svg.split("<g class=\"cluster\" data-region=\"")
        .skip(1)
        .map(|rest| {
            let region = rest[..rest.find('"').unwrap()].to_string();
            let rect = &rest[rest.find("<rect").unwrap()..];
            let (x, y) = (num(rect, "x"), num(rect, "y"));
            (
                region,
                (x, y, x + num(rect, "width"), y + num(rect, "height")),
            )
        })
        .collect()
}

proptest::proptest! {
    /// Whatever the graph and the regions, no region frame is drawn
    /// through a component outside it, and components without a region
    /// sit in the labelled `no region` frame when others have one.
    #[test]
    fn no_region_frame_crosses_a_component_outside_it(
        regions in proptest::collection::vec(0usize..4, 2..14),
        links in proptest::collection::vec((0usize..14, 0usize..14), 0..30),
    ) {
        let names = ["eu", "us", "ap"];
        let nodes: Vec<Node> = regions
            .iter()
            .enumerate()
            .map(|(i, &r)| node(&format!("n{i}"), names.get(r).copied()))
            .collect();
        let n = nodes.len();
        let edges = links
            .iter()
            .filter(|(a, b)| a < &n && b < &n && a != b)
            .map(|&(a, b)| edge(a, b))
            .collect();
        let mut v = View { nodes, edges, clusters: vec![] };
        v.clusters = clusters_of(&mut v.nodes);
        let lay = layout(&v);
        let drawn = svg::svg(&v, "t");
        for (region, (x0, y0, x1, y1)) in frames(&drawn) {
            for (i, nd) in v.nodes.iter().enumerate() {
                if nd.cluster.as_deref() == Some(region.as_str()) {
                    continue;
                }
                let (cx, cy, w) = lay.boxes[i];
                let b = (cx - w / 2.0, cy - NODE_H / 2.0, cx + w / 2.0, cy + NODE_H / 2.0);
                let crosses = x0 < b.2 && b.0 < x1 && y0 < b.3 && b.1 < y1;
                proptest::prop_assert!(!crosses, "frame {region} crosses {}", nd.id);
            }
        }
        let mixed = v.nodes.iter().any(|n| n.regions.is_empty())
            && v.nodes.iter().any(|n| !n.regions.is_empty());
        proptest::prop_assert_eq!(
            mixed,
            frames(&drawn).iter().any(|(r, _)| r == NO_REGION)
        );
    }
}
