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
//!
//! This file holds the view model; `dot`, `mermaid`, `layout`, `svg`,
//! [`part`] (what one intent reaches) and [`focus`] (what a large drawing
//! keeps) are its parts.

mod dot;
pub mod focus;
mod layout;
mod mermaid;
mod part;
mod svg;
#[cfg(test)]
mod tests;
pub mod text;

use crate::analysis::effective as eff;
use crate::catalog::Generic;
use crate::manifest::model::{Component, Manifest};
use crate::rules::{Finding, Severity};

pub use dot::{dot, dot_quote};
pub use layout::{Layout, layout};
pub use mermaid::{mermaid, mermaid_text};
pub use part::{Part, part};
pub use svg::{svg, svg_in, svg_into, xml_escape};

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
    /// The region cluster it is drawn in ([`clusters_of`]): its regions
    /// joined with ` + ` (a component that runs in two regions sits in the
    /// cluster of both), or [`NO_REGION`].
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

/// A component as drawn, no finding marked yet.
fn node_of(c: &Component) -> Node {
    Node {
        id: c.id.as_str().to_owned(),
        kind: c.kind.value.to_string(),
        shape: Shape::of(eff::generic(c)),
        // Set from `regions` by [`clusters_of`].
        cluster: None,
        regions: c.regions.iter().map(|r| r.value.to_string()).collect(),
        codes: Vec::new(),
        severity: None,
    }
}

/// Components, links (and `dedup` claims), regions, and the findings that
/// are not waived.
pub fn view(m: &Manifest, findings: &[Finding]) -> View {
    let mut nodes: Vec<Node> = m.components.iter().map(node_of).collect();
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
    let clusters = clusters_of(&mut nodes);
    View {
        nodes,
        edges,
        clusters,
    }
}

/// The frame around the components that run in no region, drawn when
/// others do: a region id has no space, so no region has this name.
pub const NO_REGION: &str = "no region";

/// The clusters of `nodes`, sorted. Where some run in a region, those that
/// run in none are put in the [`NO_REGION`] cluster: drawn apart from the
/// regions and labelled, never inside a region's frame.
pub fn clusters_of(nodes: &mut [Node]) -> Vec<String> {
    for n in nodes.iter_mut() {
        n.cluster = (!n.regions.is_empty()).then(|| n.regions.join(" + "));
    }
    let mut clusters: Vec<String> = nodes.iter().filter_map(|n| n.cluster.clone()).collect();
    if !clusters.is_empty() && nodes.iter().any(|n| n.cluster.is_none()) {
        for n in nodes.iter_mut().filter(|n| n.cluster.is_none()) {
            n.cluster = Some(NO_REGION.to_string());
        }
        clusters.push(NO_REGION.to_string());
    }
    clusters.sort_unstable();
    clusters.dedup();
    clusters
}
