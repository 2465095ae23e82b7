//! The view as an inline SVG, from its [`super::layout`].

use std::fmt::Write as _;

use super::focus::{self, BUDGET};
use super::layout::{MARGIN, NODE_H};
use super::{Layout, Node, Shape, View, layout};
use crate::rules::Severity;

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
    svg_in(v, title, "")
}

/// [`svg`] for a page with several drawings: the ids of its markers and
/// title start with `prefix`, so that no two drawings share an id.
pub fn svg_in(v: &View, title: &str, prefix: &str) -> String {
    // Thousands of boxes are unreadable and slow to lay out: above the
    // budget only what findings point at is drawn, and a line says so.
    let (focused, omitted) = focus::focus(v, BUDGET);
    let v = &focused;
    let mut lay = layout(v);
    if omitted.is_some() {
        lay.height += 24.0;
    }
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"graph\" viewBox=\"0 0 {w:.0} {h:.0}\" width=\"{w:.0}\" height=\"{h:.0}\" role=\"img\" aria-labelledby=\"{prefix}graph-title\">",
        w = lay.width,
        h = lay.height
    );
    let _ = writeln!(
        s,
        "<title id=\"{prefix}graph-title\">{}</title>",
        xml_escape(title)
    );
    let _ = write!(
        s,
        "<defs><marker id=\"{prefix}arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerUnits=\"userSpaceOnUse\" markerWidth=\"10\" markerHeight=\"10\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" class=\"arrowhead\"/></marker>"
    );
    let _ = writeln!(
        s,
        "<marker id=\"{prefix}arrow-hot\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerUnits=\"userSpaceOnUse\" markerWidth=\"10\" markerHeight=\"10\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" class=\"arrowhead hot\"/></marker></defs>"
    );
    clusters(&mut s, v, &lay);
    edges(&mut s, v, &lay, prefix);
    for (i, nd) in v.nodes.iter().enumerate() {
        node(&mut s, nd, lay.boxes[i]);
    }
    if let Some(o) = omitted {
        let _ = writeln!(
            s,
            "<text class=\"omitted\" x=\"{MARGIN:.1}\" y=\"{:.1}\">{} more components and {} links not drawn: above {} components only those findings name, the ends of the errors' worst paths and their neighbours are drawn (graph --format dot has every one)</text>",
            lay.height - MARGIN,
            crate::report::horizon::thousands(o.components),
            crate::report::horizon::thousands(o.links),
            BUDGET
        );
    }
    s.push_str("</svg>\n");
    s
}

/// The region clusters, drawn behind everything.
fn clusters(s: &mut String, v: &View, lay: &Layout) {
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
}

/// The edges, the hot ones last so they stay on top.
fn edges(s: &mut String, v: &View, lay: &Layout, prefix: &str) {
    let mut ks: Vec<usize> = (0..v.edges.len()).collect();
    ks.sort_by_key(|&k| v.edges[k].hot);
    for k in ks {
        let e = &v.edges[k];
        let pts = &lay.routes[k];
        let hot = if e.hot { " hot" } else { "" };
        let marker = if e.hot { "arrow-hot" } else { "arrow" };
        let _ = write!(
            s,
            "<g class=\"edge {ty}{hot}\" data-from=\"{f}\" data-to=\"{t}\"><title>{f} {ty} {t}</title><path d=\"{d}\" marker-end=\"url(#{prefix}{marker})\"/>",
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
}

/// One component: its outline, id, kind and finding codes.
fn node(s: &mut String, nd: &Node, bx: (f64, f64, f64)) {
    let (cx, cy, w) = bx;
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
    outline(s, nd.shape, (x, y, w, h), cy);
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

/// The outline of a box at `x, y` of `w` by `h` (centre height `cy`).
fn outline(s: &mut String, shape: Shape, (x, y, w, h): (f64, f64, f64, f64), cy: f64) {
    match shape {
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
}
