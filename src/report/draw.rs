//! The dependency graph, drawn: Graphviz DOT, Mermaid, and an inline SVG
//! laid out here (no external program, no network) for the HTML report.
//!
//! [`view`] reduces the manifest and the findings to what a drawing needs;
//! [`dot`], [`mermaid`] and [`svg`] render that view. The SVG layout is a
//! small Sugiyama-style layered layout: cycles broken by reversing DFS back
//! edges, longest-path layering, dummy vertices on long edges, barycentre
//! ordering (regions kept together), then coordinates pulled towards the
//! neighbours' centres. Hand-written because no allowed crate lays out a
//! graph without calling Graphviz.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use crate::analysis::effective as eff;
use crate::catalog::Generic;
use crate::manifest::model::Manifest;
use crate::rules::{Finding, Severity};

/// How a component is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// queue, topic, stream
    Transport,
    /// service, function, workflow
    Compute,
    /// store, ledger (a cylinder)
    Store,
    External,
}

impl Shape {
    fn of(g: Generic) -> Shape {
        match g {
            Generic::Queue | Generic::Topic | Generic::Stream => Shape::Transport,
            Generic::Store | Generic::Ledger => Shape::Store,
            Generic::External => Shape::External,
            Generic::Service | Generic::Function | Generic::Workflow => Shape::Compute,
        }
    }

    fn class(self) -> &'static str {
        match self {
            Shape::Transport => "transport",
            Shape::Compute => "compute",
            Shape::Store => "store",
            Shape::External => "external",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub id: String,
    pub kind: String,
    pub shape: Shape,
    /// The region cluster it is drawn in: its regions joined with ` + `
    /// (a component that runs in two regions sits in the cluster of both).
    pub cluster: Option<String>,
    pub regions: Vec<String>,
    /// Codes of the findings that name this component.
    pub codes: Vec<&'static str>,
    /// The worst severity among them.
    pub severity: Option<Severity>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Edge {
    pub from: usize,
    pub to: usize,
    /// The manifest field: sends_to, delivers_to, calls, dead_letter, redrive, effects, dedup.
    pub ty: &'static str,
    /// On the worst path of an error finding.
    pub hot: bool,
}

/// What a drawing shows.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct View {
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
    /// Region clusters that have at least one component, sorted.
    pub clusters: Vec<String>,
}

/// Components, links (and `dedup` claims), regions, and the findings that
/// are not waived.
pub fn view(m: &Manifest, findings: &[Finding]) -> View {
    let mut nodes: Vec<Node> = m
        .components
        .iter()
        .map(|c| Node {
            id: c.id.clone(),
            kind: c.kind.value.clone(),
            shape: Shape::of(eff::generic(c)),
            cluster: (!c.regions.is_empty()).then(|| {
                c.regions
                    .iter()
                    .map(|r| r.value.as_str())
                    .collect::<Vec<_>>()
                    .join(" + ")
            }),
            regions: c.regions.iter().map(|r| r.value.clone()).collect(),
            codes: Vec::new(),
            severity: None,
        })
        .collect();
    let mut edges = Vec::new();
    for (i, c) in m.components.iter().enumerate() {
        for l in c.links() {
            if let Some(j) = l.to.index() {
                edges.push(Edge {
                    from: i,
                    to: j,
                    ty: l.ty.field(),
                    hot: false,
                });
            }
        }
        if let Some(g) = &c.dedup
            && let Some(j) = g.store.index()
        {
            edges.push(Edge {
                from: i,
                to: j,
                ty: "dedup",
                hot: false,
            });
        }
    }
    // The links (not dedup claims) from one component to another, so that
    // marking a worst path costs its length, not its length times the links.
    let mut between: std::collections::HashMap<(usize, usize), Vec<usize>> =
        std::collections::HashMap::new();
    for (k, e) in edges.iter().enumerate() {
        if e.ty != "dedup" {
            between.entry((e.from, e.to)).or_default().push(k);
        }
    }
    // A waived finding is an accepted risk: listed by the reports, not drawn.
    for f in findings.iter().filter(|f| f.waived.is_none()) {
        if let Some(i) = f.component.as_deref().and_then(|c| m.component_index(c)) {
            let n = &mut nodes[i];
            if !n.codes.contains(&f.rule.code) {
                n.codes.push(f.rule.code);
            }
            n.severity = n.severity.max(Some(f.severity));
        }
        if f.severity == Severity::Error {
            for w in f.path.windows(2) {
                let (Some(a), Some(b)) = (m.component_index(&w[0]), m.component_index(&w[1]))
                else {
                    continue;
                };
                for &k in between.get(&(a, b)).into_iter().flatten() {
                    edges[k].hot = true;
                }
            }
        }
    }
    for n in &mut nodes {
        n.codes.sort_unstable();
    }
    let clusters: BTreeSet<String> = nodes.iter().filter_map(|n| n.cluster.clone()).collect();
    View {
        nodes,
        edges,
        clusters: clusters.into_iter().collect(),
    }
}

// ---------------------------------------------------------------- DOT

/// A DOT quoted string: backslashes, quotes and line breaks escaped.
pub fn dot_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for ch in s.chars() {
        match ch {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => {}
            // No raw control character (ESC) in a file meant for a terminal
            // or an editor.
            // Nor a bidirectional override that reorders what a reader sees.
            c if c.is_control()
                || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}') =>
            {
                out.push_str(&crate::diagnostics::inert(c.encode_utf8(&mut [0; 4])))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn dot_node(out: &mut String, n: &Node, indent: &str) {
    let shape = match n.shape {
        Shape::Transport => "shape=box, style=\"rounded,filled\", fillcolor=\"#e8f0fe\"",
        Shape::Compute => "shape=box, style=filled, fillcolor=\"#f1f3f4\"",
        Shape::Store => "shape=cylinder, style=filled, fillcolor=\"#fef7e0\"",
        Shape::External => "shape=hexagon, style=filled, fillcolor=\"#e6f4ea\"",
    };
    let mut label = format!("{}\n{}", n.id, n.kind);
    if !n.codes.is_empty() {
        label.push_str(&format!("\n{}", n.codes.join(" ")));
    }
    let mark = match n.severity {
        Some(Severity::Error) => ", color=\"#d93025\", penwidth=3, fontcolor=\"#b3261e\"",
        Some(Severity::Warning) => ", color=\"#e37400\", penwidth=2",
        Some(Severity::Info) => ", color=\"#1a73e8\"",
        None => "",
    };
    let _ = writeln!(
        out,
        "{indent}{} [label={}, {shape}{mark}];",
        dot_quote(&n.id),
        dot_quote(&label)
    );
}

fn dot_edge_style(ty: &str) -> &'static str {
    match ty {
        "sends_to" | "delivers_to" => "style=solid",
        "calls" => "style=solid, arrowhead=vee",
        "dead_letter" => "style=dashed",
        "redrive" => "style=dashed, color=\"#8430ce\"",
        "effects" => "style=bold",
        _ => "style=dotted, arrowhead=odot",
    }
}

/// Graphviz DOT: regions as clusters, findings in red, worst paths bold red.
pub fn dot(v: &View, name: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "digraph {} {{", dot_quote(name));
    out.push_str("  rankdir=LR;\n  node [fontname=\"Helvetica\", fontsize=11];\n  edge [fontname=\"Helvetica\", fontsize=9];\n");
    for (ci, region) in v.clusters.iter().enumerate() {
        let _ = writeln!(out, "  subgraph {} {{", dot_quote(&format!("cluster_{ci}")));
        let _ = writeln!(
            out,
            "    label={};\n    style=\"rounded,dashed\";",
            dot_quote(region)
        );
        for n in v
            .nodes
            .iter()
            .filter(|n| n.cluster.as_deref() == Some(region))
        {
            dot_node(&mut out, n, "    ");
        }
        out.push_str("  }\n");
    }
    for n in v.nodes.iter().filter(|n| n.cluster.is_none()) {
        dot_node(&mut out, n, "  ");
    }
    for e in &v.edges {
        let style = dot_edge_style(e.ty);
        let style = if e.hot {
            format!(
                "{}, color=\"#d93025\", penwidth=3, fontcolor=\"#d93025\"",
                style.split(", color").next().unwrap_or(style)
            )
        } else {
            style.to_string()
        };
        let _ = writeln!(
            out,
            "  {} -> {} [label={}, {style}];",
            dot_quote(&v.nodes[e.from].id),
            dot_quote(&v.nodes[e.to].id),
            dot_quote(e.ty),
        );
    }
    out.push_str("}\n");
    out
}

// ---------------------------------------------------------------- Mermaid

/// Text inside a Mermaid `"..."` label: everything but letters, digits and
/// a few plain punctuation marks becomes an entity code (`#35;`), so no
/// manifest string can close the label or inject markup.
pub fn mermaid_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        if ch.is_ascii_alphanumeric()
            || matches!(
                ch,
                ' ' | '-' | '_' | '.' | ',' | ':' | '/' | '+' | '(' | ')'
            )
        {
            out.push(ch);
        } else {
            let _ = write!(out, "#{};", ch as u32);
        }
    }
    out
}

/// Mermaid flowchart: node ids are generated (`n0`, `n1`, ...) so that no
/// component id can collide with a keyword such as `end`.
pub fn mermaid(v: &View) -> String {
    let mut out = String::from("flowchart LR\n");
    let node = |out: &mut String, i: usize, n: &Node, indent: &str| {
        let mut label = format!("{}<br/>{}", mermaid_text(&n.id), mermaid_text(&n.kind));
        if !n.codes.is_empty() {
            label.push_str(&format!("<br/>{}", mermaid_text(&n.codes.join(" "))));
        }
        let (open, close) = match n.shape {
            Shape::Transport => ("([", "])"),
            Shape::Compute => ("[", "]"),
            Shape::Store => ("[(", ")]"),
            Shape::External => ("{{", "}}"),
        };
        let _ = writeln!(out, "{indent}n{i}{open}\"{label}\"{close}");
    };
    for (ci, region) in v.clusters.iter().enumerate() {
        let _ = writeln!(out, "  subgraph r{ci}[\"{}\"]", mermaid_text(region));
        for (i, n) in v
            .nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| n.cluster.as_deref() == Some(region))
        {
            node(&mut out, i, n, "    ");
        }
        out.push_str("  end\n");
    }
    for (i, n) in v
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| n.cluster.is_none())
    {
        node(&mut out, i, n, "  ");
    }
    let mut hot = Vec::new();
    for (k, e) in v.edges.iter().enumerate() {
        let arrow = match e.ty {
            _ if e.hot => "==>",
            "dead_letter" | "redrive" | "dedup" => "-.->",
            _ => "-->",
        };
        if e.hot {
            hot.push(k.to_string());
        }
        let _ = writeln!(
            out,
            "  n{} {arrow}|\"{}\"| n{}",
            e.from,
            mermaid_text(e.ty),
            e.to
        );
    }
    out.push_str("  classDef error stroke:#d93025,stroke-width:3px,color:#b3261e\n");
    out.push_str("  classDef warning stroke:#e37400,stroke-width:2px\n");
    for (sev, class) in [(Severity::Error, "error"), (Severity::Warning, "warning")] {
        let ids: Vec<String> = v
            .nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| n.severity == Some(sev))
            .map(|(i, _)| format!("n{i}"))
            .collect();
        if !ids.is_empty() {
            let _ = writeln!(out, "  class {} {class}", ids.join(","));
        }
    }
    if !hot.is_empty() {
        let _ = writeln!(
            out,
            "  linkStyle {} stroke:#d93025,stroke-width:3px",
            hot.join(",")
        );
    }
    out
}

// ---------------------------------------------------------------- SVG

/// XML/HTML escaping of text and attribute values.
pub fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // A line break as a reference: the same text to a reader, and
            // no manifest line starts a line of the file (a CI log showing
            // it would take `::error` at a line start as a command).
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            // XML 1.0 forbids C0 controls, U+FFFE and U+FFFF: show them.
            c if !crate::report::xml::allowed(c) => crate::report::xml::push_shown(&mut out, c),
            // Other controls (C1) and the bidirectional overrides that
            // could reorder what a reader sees.
            c if c.is_control()
                || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}') =>
            {
                out.push_str(&crate::diagnostics::inert(c.encode_utf8(&mut [0; 4])))
            }
            c => out.push(c),
        }
    }
    out
}

const NODE_H: f64 = 46.0;
const LAYER_GAP: f64 = 96.0;
const NODE_GAP: f64 = 40.0;
const CLUSTER_GAP: f64 = 24.0;
const MARGIN: f64 = 24.0;
const DUMMY_W: f64 = 12.0;

/// A laid-out drawing: boxes of the components, polylines of the edges.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    /// Centre x, centre y, width of each component (height is fixed).
    pub boxes: Vec<(f64, f64, f64)>,
    /// Points of each edge of the view, from its source to its target.
    pub routes: Vec<Vec<(f64, f64)>>,
    /// Layer of each component (0 at the top).
    pub layers: Vec<usize>,
    /// Where along its route each edge's label sits (0 source, 1 target);
    /// parallel edges get different heights.
    pub label_at: Vec<f64>,
    pub width: f64,
    pub height: f64,
}

fn node_width(n: &Node) -> f64 {
    let chars =
        n.id.chars()
            .count()
            .max(n.kind.chars().count() * 85 / 100)
            .max(6);
    (chars as f64) * 7.8 + 26.0
}

/// Cycle breaking by DFS: edges that close a cycle are reversed.
fn reversed_edges(n: usize, pairs: &[(usize, usize)]) -> Vec<bool> {
    let mut out_adj = vec![Vec::new(); n];
    let mut indeg = vec![0usize; n];
    for (k, &(a, b)) in pairs.iter().enumerate() {
        out_adj[a].push(k);
        indeg[b] += 1;
    }
    let mut state = vec![0u8; n]; // 0 new, 1 on stack, 2 done
    let mut rev = vec![false; pairs.len()];
    let roots: Vec<usize> = (0..n).filter(|&v| indeg[v] == 0).chain(0..n).collect();
    for root in roots {
        if state[root] != 0 {
            continue;
        }
        let mut stack = vec![(root, 0usize)];
        state[root] = 1;
        while let Some(&mut (v, ref mut i)) = stack.last_mut() {
            if *i < out_adj[v].len() {
                let k = out_adj[v][*i];
                *i += 1;
                let w = pairs[k].1;
                match state[w] {
                    0 => {
                        state[w] = 1;
                        stack.push((w, 0));
                    }
                    1 => rev[k] = true,
                    _ => {}
                }
            } else {
                state[v] = 2;
                stack.pop();
            }
        }
    }
    rev
}

/// Edge crossings between adjacent layers (quadratic per layer pair, so
/// only counted for drawings small enough to read; `None` above that).
fn crossings(order: &[Vec<usize>], pos: &[usize], down: &[Vec<usize>]) -> Option<usize> {
    if down.iter().map(Vec::len).sum::<usize>() > 3000 {
        return None;
    }
    let mut total = 0;
    for layer in order {
        let mut segs: Vec<(usize, usize)> = Vec::new();
        for &v in layer {
            for &w in &down[v] {
                segs.push((pos[v], pos[w]));
            }
        }
        for i in 0..segs.len() {
            for j in i + 1..segs.len() {
                let (a, b) = (segs[i], segs[j]);
                if (a.0 < b.0 && a.1 > b.1) || (a.0 > b.0 && a.1 < b.1) {
                    total += 1;
                }
            }
        }
    }
    Some(total)
}

/// The layered layout of a view (top to bottom).
pub fn layout(v: &View) -> Layout {
    let n = v.nodes.len();
    let mut pairs: Vec<(usize, usize)> = v
        .edges
        .iter()
        .map(|e| (e.from, e.to))
        .filter(|(a, b)| a != b)
        .collect();
    pairs.sort_unstable();
    pairs.dedup();
    let rev = reversed_edges(n, &pairs);
    let dag: BTreeSet<(usize, usize)> = pairs
        .iter()
        .zip(&rev)
        .map(|(&(a, b), &r)| if r { (b, a) } else { (a, b) })
        .collect();

    // Longest-path layering (Kahn's order over the acyclic edges).
    let mut indeg = vec![0usize; n];
    let mut succ = vec![Vec::new(); n];
    for &(a, b) in &dag {
        if a != b {
            succ[a].push(b);
            indeg[b] += 1;
        }
    }
    let mut layer = vec![0usize; n];
    let mut queue: std::collections::VecDeque<usize> = (0..n).filter(|&x| indeg[x] == 0).collect();
    while let Some(x) = queue.pop_front() {
        for &y in &succ[x] {
            layer[y] = layer[y].max(layer[x] + 1);
            indeg[y] -= 1;
            if indeg[y] == 0 {
                queue.push_back(y);
            }
        }
    }

    // Vertices: components, then dummies on edges that span several layers.
    let mut vlayer = layer.clone();
    let mut group: Vec<Option<usize>> = v
        .nodes
        .iter()
        .map(|nd| {
            nd.cluster
                .as_ref()
                .and_then(|c| v.clusters.iter().position(|x| x == c))
        })
        .collect();
    let mut chains: BTreeMap<(usize, usize), Vec<usize>> = BTreeMap::new();
    let mut down: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(a, b) in &dag {
        let mut chain = vec![a];
        let mut prev = a;
        for l in layer[a] + 1..layer[b] {
            let d = vlayer.len();
            vlayer.push(l);
            group.push(None);
            down.push(Vec::new());
            down[prev].push(d);
            chain.push(d);
            prev = d;
        }
        down[prev].push(b);
        chain.push(b);
        chains.insert((a, b), chain);
    }
    let total = vlayer.len();
    let mut up: Vec<Vec<usize>> = vec![Vec::new(); total];
    for (x, ws) in down.iter().enumerate() {
        for &w in ws {
            up[w].push(x);
        }
    }
    let depth = vlayer.iter().copied().max().map_or(0, |m| m + 1);
    let mut order: Vec<Vec<usize>> = vec![Vec::new(); depth];
    for x in 0..total {
        order[vlayer[x]].push(x);
    }
    // Start with regions together.
    for l in &mut order {
        l.sort_by_key(|&x| (group[x].unwrap_or(usize::MAX), x));
    }
    let mut pos = vec![0usize; total];
    let index = |order: &[Vec<usize>], pos: &mut Vec<usize>| {
        for l in order {
            for (i, &x) in l.iter().enumerate() {
                pos[x] = i;
            }
        }
    };
    index(&order, &mut pos);
    let mut best = (crossings(&order, &pos, &down), order.clone());
    for sweep in 0..12 {
        let downward = sweep % 2 == 0;
        let layers: Vec<usize> = if downward {
            (1..depth).collect()
        } else {
            (0..depth.saturating_sub(1)).rev().collect()
        };
        for li in layers {
            let bary: Vec<(usize, f64)> = order[li]
                .iter()
                .map(|&x| {
                    let ns = if downward { &up[x] } else { &down[x] };
                    let b = if ns.is_empty() {
                        pos[x] as f64
                    } else {
                        ns.iter().map(|&w| pos[w] as f64).sum::<f64>() / ns.len() as f64
                    };
                    (x, b)
                })
                .collect();
            // A region's members move together: sort by the group's mean first.
            let mut gsum: BTreeMap<usize, (f64, usize)> = BTreeMap::new();
            for &(x, b) in &bary {
                if let Some(g) = group[x] {
                    let e = gsum.entry(g).or_insert((0.0, 0));
                    e.0 += b;
                    e.1 += 1;
                }
            }
            let mut keyed: Vec<(f64, f64, usize, usize)> = bary
                .iter()
                .map(|&(x, b)| {
                    let gk = group[x].map_or(b, |g| gsum[&g].0 / gsum[&g].1 as f64);
                    (gk, b, pos[x], x)
                })
                .collect();
            keyed.sort_by(|p, q| p.partial_cmp(q).unwrap_or(std::cmp::Ordering::Equal));
            order[li] = keyed.into_iter().map(|k| k.3).collect();
            index(&order, &mut pos);
        }
        let c = crossings(&order, &pos, &down);
        if c.is_none() || c < best.0 {
            best = (c, order.clone());
        }
    }
    let order = best.1;
    index(&order, &mut pos);

    // Coordinates: compact placement, then pulled towards neighbours.
    let width_of = |x: usize| {
        if x < n {
            node_width(&v.nodes[x])
        } else {
            DUMMY_W
        }
    };
    let gap = |a: usize, b: usize| {
        if a < n && b < n && group[a] != group[b] && (group[a].is_some() || group[b].is_some()) {
            NODE_GAP + CLUSTER_GAP
        } else {
            NODE_GAP
        }
    };
    let mut xs = vec![0.0f64; total];
    let place = |l: &[usize], want: &[f64], xs: &mut Vec<f64>| {
        // Left to right at the wanted centre, never overlapping.
        let mut prev: Option<usize> = None;
        for &x in l {
            let mut c = want[x];
            if let Some(p) = prev {
                let min = xs[p] + width_of(p) / 2.0 + gap(p, x) + width_of(x) / 2.0;
                c = c.max(min);
            }
            xs[x] = c;
            prev = Some(x);
        }
        // Shift the layer so that it sits on its wanted centres on average.
        if !l.is_empty() {
            let shift = l.iter().map(|&x| want[x] - xs[x]).sum::<f64>() / l.len() as f64;
            for &x in l {
                xs[x] += shift;
            }
        }
    };
    let zero = vec![0.0f64; total];
    for l in &order {
        place(l, &zero, &mut xs);
    }
    let mut want = vec![0.0f64; total];
    for sweep in 0..8 {
        let downward = sweep % 2 == 0;
        let layers: Vec<usize> = if downward {
            (1..depth).collect()
        } else {
            (0..depth.saturating_sub(1)).rev().collect()
        };
        for li in layers {
            // Only this layer's entries of `want` are read: set just those
            // (a copy of every x per layer made deep drawings quadratic).
            for &x in &order[li] {
                let ns = if downward { &up[x] } else { &down[x] };
                want[x] = if ns.is_empty() {
                    xs[x]
                } else {
                    ns.iter().map(|&w| xs[w]).sum::<f64>() / ns.len() as f64
                };
            }
            place(&order[li], &want, &mut xs);
        }
    }
    let min_left = (0..total)
        .map(|x| xs[x] - width_of(x) / 2.0)
        .fold(f64::INFINITY, f64::min);
    let offset = if min_left.is_finite() {
        MARGIN + CLUSTER_GAP - min_left
    } else {
        MARGIN
    };
    for x in &mut xs {
        *x += offset;
    }
    let ys: Vec<f64> = vlayer
        .iter()
        .map(|&l| MARGIN + 22.0 + l as f64 * (NODE_H + LAYER_GAP) + NODE_H / 2.0)
        .collect();
    let width = (0..total)
        .map(|x| xs[x] + width_of(x) / 2.0)
        .fold(0.0, f64::max)
        + MARGIN
        + CLUSTER_GAP;
    let height = MARGIN * 2.0
        + 22.0
        + depth as f64 * NODE_H
        + depth.saturating_sub(1) as f64 * LAYER_GAP
        + 16.0;

    // Routes: through the dummies, parallel edges side by side.
    let mut between: BTreeMap<(usize, usize), Vec<usize>> = BTreeMap::new();
    for (k, e) in v.edges.iter().enumerate() {
        between
            .entry((e.from.min(e.to), e.from.max(e.to)))
            .or_default()
            .push(k);
    }
    let mut routes = vec![Vec::new(); v.edges.len()];
    let mut label_at = vec![0.5; v.edges.len()];
    for (k, e) in v.edges.iter().enumerate() {
        let (a, b) = (e.from, e.to);
        if a == b {
            let (x, y, w) = (xs[a], ys[a], width_of(a));
            routes[k] = vec![
                (x + w / 2.0, y - 8.0),
                (x + w / 2.0 + 26.0, y),
                (x + w / 2.0, y + 8.0),
            ];
            continue;
        }
        let same = &between[&(a.min(b), a.max(b))];
        let idx = same.iter().position(|&s| s == k).unwrap_or(0) as f64;
        let shift = (idx - (same.len() as f64 - 1.0) / 2.0) * 18.0;
        // Fraction from the upper end, turned into one from the source.
        let from_top = (idx + 1.0) / (same.len() as f64 + 1.0);
        label_at[k] = if ys[a] <= ys[b] {
            from_top
        } else {
            1.0 - from_top
        };
        let chain = chains.get(&(a, b)).cloned().or_else(|| {
            chains
                .get(&(b, a))
                .map(|c| c.iter().rev().copied().collect())
        });
        let chain = chain.unwrap_or_else(|| vec![a, b]);
        let mut pts = Vec::new();
        for (i, &x) in chain.iter().enumerate() {
            let (cx, cy) = (xs[x] + shift, ys[x]);
            if i == 0 || i == chain.len() - 1 {
                let other = if i == 0 { chain[1] } else { chain[i - 1] };
                let dir = if ys[other] > cy {
                    1.0
                } else if ys[other] < cy {
                    -1.0
                } else {
                    0.0
                };
                pts.push((cx, cy + dir * NODE_H / 2.0));
            } else {
                pts.push((cx, cy));
            }
        }
        routes[k] = pts;
    }
    Layout {
        boxes: (0..n).map(|x| (xs[x], ys[x], width_of(x))).collect(),
        routes,
        layers: layer,
        label_at,
        width,
        height,
    }
}

/// The point at fraction `f` of a route drawn by [`path_d`] (by segment,
/// then along that segment's cubic).
fn label_point(pts: &[(f64, f64)], f: f64) -> Option<(f64, f64)> {
    if pts.len() < 2 {
        return None;
    }
    let segs = (pts.len() - 1) as f64;
    let pos = (f * segs).clamp(0.0, segs - 1e-9);
    let i = pos.floor() as usize;
    let t = pos - i as f64;
    let ((px, py), (qx, qy)) = (pts[i], pts[i + 1]);
    let my = (py + qy) / 2.0;
    let u = 1.0 - t;
    let x = u * u * u * px + 3.0 * u * u * t * px + 3.0 * u * t * t * qx + t * t * t * qx;
    let y = u * u * u * py + 3.0 * u * u * t * my + 3.0 * u * t * t * my + t * t * t * qy;
    Some((x, y))
}

fn path_d(pts: &[(f64, f64)]) -> String {
    let mut d = String::new();
    let Some(&(x0, y0)) = pts.first() else {
        return d;
    };
    let _ = write!(d, "M{x0:.1},{y0:.1}");
    for w in pts.windows(2) {
        let ((px, py), (qx, qy)) = (w[0], w[1]);
        let my = (py + qy) / 2.0;
        let _ = write!(d, " C{px:.1},{my:.1} {qx:.1},{my:.1} {qx:.1},{qy:.1}");
    }
    d
}

/// The view as an inline SVG element (styled by the page's CSS classes).
pub fn svg(v: &View, title: &str) -> String {
    // Thousands of boxes are unreadable and slow to lay out: above the
    // budget only what findings point at is drawn, and a line says so.
    let (focused, omitted) = crate::report::draw_focus::focus(v, crate::report::draw_focus::BUDGET);
    let v = &focused;
    let mut lay = layout(v);
    if omitted.is_some() {
        lay.height += 24.0;
    }
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"graph\" viewBox=\"0 0 {w:.0} {h:.0}\" width=\"{w:.0}\" height=\"{h:.0}\" role=\"img\" aria-labelledby=\"graph-title\">",
        w = lay.width,
        h = lay.height
    );
    let _ = writeln!(s, "<title id=\"graph-title\">{}</title>", xml_escape(title));
    s.push_str("<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerUnits=\"userSpaceOnUse\" markerWidth=\"10\" markerHeight=\"10\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" class=\"arrowhead\"/></marker>");
    s.push_str("<marker id=\"arrow-hot\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerUnits=\"userSpaceOnUse\" markerWidth=\"10\" markerHeight=\"10\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" class=\"arrowhead hot\"/></marker></defs>\n");
    // Region clusters behind everything.
    for (ci, region) in v.clusters.iter().enumerate() {
        let members: Vec<usize> = (0..v.nodes.len())
            .filter(|&i| v.nodes[i].cluster.as_deref() == Some(region.as_str()))
            .collect();
        if members.is_empty() {
            continue;
        }
        let mut x0 = members
            .iter()
            .map(|&i| lay.boxes[i].0 - lay.boxes[i].2 / 2.0)
            .fold(f64::INFINITY, f64::min)
            - 12.0;
        let mut x1 = members
            .iter()
            .map(|&i| lay.boxes[i].0 + lay.boxes[i].2 / 2.0)
            .fold(f64::NEG_INFINITY, f64::max)
            + 12.0;
        // Wide enough for its title.
        let title_w = region.chars().count() as f64 * 6.9 + 18.0;
        if x1 - x0 < title_w {
            let grow = (title_w - (x1 - x0)) / 2.0;
            x0 -= grow;
            x1 += grow;
        }
        let y0 = members
            .iter()
            .map(|&i| lay.boxes[i].1 - NODE_H / 2.0)
            .fold(f64::INFINITY, f64::min)
            - 24.0;
        let y1 = members
            .iter()
            .map(|&i| lay.boxes[i].1 + NODE_H / 2.0)
            .fold(f64::NEG_INFINITY, f64::max)
            + 20.0;
        let _ = writeln!(
            s,
            "<g class=\"cluster\" data-region=\"{r}\"><rect x=\"{x0:.1}\" y=\"{y0:.1}\" width=\"{:.1}\" height=\"{:.1}\" rx=\"10\"/><text x=\"{:.1}\" y=\"{:.1}\">{r}</text></g><!-- cluster {ci} -->",
            x1 - x0,
            y1 - y0,
            x0 + 8.0,
            y0 + 15.0,
            r = xml_escape(region)
        );
    }
    // Edges, the hot ones last so they stay on top.
    let mut ks: Vec<usize> = (0..v.edges.len()).collect();
    ks.sort_by_key(|&k| v.edges[k].hot);
    for k in ks {
        let e = &v.edges[k];
        let pts = &lay.routes[k];
        let hot = if e.hot { " hot" } else { "" };
        let marker = if e.hot { "arrow-hot" } else { "arrow" };
        let _ = write!(
            s,
            "<g class=\"edge {ty}{hot}\" data-from=\"{f}\" data-to=\"{t}\"><title>{f} {ty} {t}</title><path d=\"{d}\" marker-end=\"url(#{marker})\"/>",
            ty = e.ty,
            f = xml_escape(&v.nodes[e.from].id),
            t = xml_escape(&v.nodes[e.to].id),
            d = path_d(pts)
        );
        if let Some((lx, ly)) = label_point(pts, lay.label_at[k]) {
            let _ = write!(
                s,
                "<text x=\"{lx:.1}\" y=\"{:.1}\">{}</text>",
                ly + 3.5,
                e.ty
            );
        }
        s.push_str("</g>\n");
    }
    for (i, nd) in v.nodes.iter().enumerate() {
        let (cx, cy, w) = lay.boxes[i];
        let (x, y, h) = (cx - w / 2.0, cy - NODE_H / 2.0, NODE_H);
        let sev = match nd.severity {
            Some(Severity::Error) => " error",
            Some(Severity::Warning) => " warning",
            Some(Severity::Info) => " info",
            None => "",
        };
        let mut tip = format!("{} ({})", nd.id, nd.kind);
        if !nd.regions.is_empty() {
            tip.push_str(&format!(" in {}", nd.regions.join(", ")));
        }
        if !nd.codes.is_empty() {
            tip.push_str(&format!(": {}", nd.codes.join(", ")));
        }
        let _ = write!(
            s,
            "<g class=\"node {}{sev}\" data-id=\"{}\"><title>{}</title>",
            nd.shape.class(),
            xml_escape(&nd.id),
            xml_escape(&tip)
        );
        match nd.shape {
            Shape::Compute => {
                let _ = write!(
                    s,
                    "<rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{w:.1}\" height=\"{h:.1}\" rx=\"5\"/>"
                );
            }
            Shape::Transport => {
                let _ = write!(
                    s,
                    "<rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{w:.1}\" height=\"{h:.1}\" rx=\"{:.1}\"/>",
                    h / 2.0
                );
            }
            Shape::Store => {
                let ry = 6.0;
                let _ = write!(
                    s,
                    "<path d=\"M{x:.1},{t:.1} A{rx:.1},{ry} 0 0 0 {r:.1},{t:.1} L{r:.1},{b:.1} A{rx:.1},{ry} 0 0 1 {x:.1},{b:.1} Z\"/><path class=\"lid\" d=\"M{x:.1},{t:.1} A{rx:.1},{ry} 0 0 1 {r:.1},{t:.1}\"/>",
                    t = y + ry,
                    b = y + h - ry,
                    r = x + w,
                    rx = w / 2.0,
                );
            }
            Shape::External => {
                let k = 10.0;
                let _ = write!(
                    s,
                    "<polygon points=\"{:.1},{cy:.1} {:.1},{y:.1} {:.1},{y:.1} {:.1},{cy:.1} {:.1},{b:.1} {:.1},{b:.1}\"/>",
                    x,
                    x + k,
                    x + w - k,
                    x + w,
                    x + w - k,
                    x + k,
                    b = y + h
                );
            }
        }
        // A cylinder's lid takes the top: its text sits lower.
        let dy = if nd.shape == Shape::Store { 4.0 } else { 0.0 };
        let _ = write!(
            s,
            "<text class=\"id\" x=\"{cx:.1}\" y=\"{:.1}\">{}</text>",
            cy - 2.0 + dy,
            xml_escape(&nd.id)
        );
        let _ = write!(
            s,
            "<text class=\"kind\" x=\"{cx:.1}\" y=\"{:.1}\">{}</text>",
            cy + 12.0 + dy,
            xml_escape(&nd.kind)
        );
        if !nd.codes.is_empty() {
            let _ = write!(
                s,
                "<text class=\"codes\" x=\"{:.1}\" y=\"{:.1}\">{}</text>",
                x + w,
                y + h + 13.0,
                xml_escape(&nd.codes.join(" "))
            );
        }
        s.push_str("</g>\n");
    }
    if let Some(o) = omitted {
        let _ = writeln!(
            s,
            "<text class=\"omitted\" x=\"{MARGIN:.1}\" y=\"{:.1}\">{} more components and {} links not drawn: above {} components only those findings name, the ends of the errors' worst paths and their neighbours are drawn (graph --format dot has every one)</text>",
            lay.height - MARGIN,
            crate::report::horizon::thousands(o.components),
            crate::report::horizon::thousands(o.links),
            crate::report::draw_focus::BUDGET
        );
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
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
        assert_eq!(mermaid_text("x\"]<script>#"), "x#34;#93;#60;script#62;#35;");
        assert_eq!(
            xml_escape("<a href='x'>&\"</a>"),
            "&lt;a href=&#39;x&#39;&gt;&amp;&quot;&lt;/a&gt;"
        );
    }
}
