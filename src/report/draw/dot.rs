//! The view as Graphviz DOT.

use std::fmt::Write as _;

use super::{Node, Shape, View};
use crate::rules::Severity;

/// A DOT quoted string: backslashes, quotes and line breaks escaped.
pub fn dot_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    // Control characters, bidirectional overrides and workflow-command
    // sequences made inert first, as in every output a terminal or a CI
    // log may show; then DOT's own escapes.
    for ch in crate::diagnostics::inert(s).chars() {
        match ch {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            // The CR of a CR LF, which `inert` keeps: the break is `\n`.
            '\r' => {}
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
