//! The view as a Mermaid flowchart.

use std::fmt::Write as _;

use super::{Node, Shape, View};
use crate::rules::Severity;

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
    // Dead-letter and redrive links are dashed, dedup claims dotted, as in
    // DOT and the legend, also on a worst path (red and thick).
    let (mut hot, mut hot_dashed, mut dashed) = (Vec::new(), Vec::new(), Vec::new());
    for (k, e) in v.edges.iter().enumerate() {
        let is_dashed = matches!(e.ty, "dead_letter" | "redrive");
        let arrow = match e.ty {
            "dead_letter" | "redrive" | "dedup" => "-.->",
            _ if e.hot => "==>",
            _ => "-->",
        };
        match (e.hot, is_dashed) {
            (true, true) => hot_dashed.push(k.to_string()),
            (true, false) => hot.push(k.to_string()),
            (false, true) => dashed.push(k.to_string()),
            (false, false) => {}
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
    for (links, style) in [
        (dashed, "stroke-dasharray:6 4"),
        (hot, "stroke:#d93025,stroke-width:3px"),
        (
            hot_dashed,
            "stroke:#d93025,stroke-width:3px,stroke-dasharray:6 4",
        ),
    ] {
        if !links.is_empty() {
            let _ = writeln!(out, "  linkStyle {} {style}", links.join(","));
        }
    }
    out
}
