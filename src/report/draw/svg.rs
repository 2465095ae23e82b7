//! The view as an inline SVG, from its [`super::layout`].

use std::fmt::Write as _;

use super::focus::{self, BUDGET};
use super::layout::{MARGIN, NODE_H};
use super::text::{Tenths as T, Xml, push_xml};
use super::{Layout, Node, Shape, View, layout};
use crate::rules::Severity;

/// XML/HTML escaping of text and attribute values: `&<>"'` as entities,
/// line breaks as references, characters XML forbids shown, C1 controls
/// and bidirectional overrides made inert.
pub fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    push_xml(&mut out, s);
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

/// Appends the `d` of a route's path: a cubic per segment, vertical at its ends.
fn path_d(d: &mut String, pts: &[(f64, f64)]) {
    let Some(&(x0, y0)) = pts.first() else {
        return;
    };
    let _ = write!(d, "M{},{}", T(x0), T(y0));
    for w in pts.windows(2) {
        let ((px, py), (qx, qy)) = (w[0], w[1]);
        let (px, my, qx, qy) = (T(px), T((py + qy) / 2.0), T(qx), T(qy));
        let _ = write!(d, " C{px},{my} {qx},{my} {qx},{qy}");
    }
}

/// The view as an inline SVG element (styled by the page's CSS classes).
pub fn svg(v: &View, title: &str) -> String {
    svg_in(v, title, "")
}

/// [`svg`] for a page with several drawings: the ids of its markers and
/// title start with `prefix`, so that no two drawings share an id.
pub fn svg_in(v: &View, title: &str, prefix: &str) -> String {
    let mut s = String::new();
    svg_into(&mut s, v, title, prefix);
    s
}

/// [`svg_in`] appended to `s`.
pub fn svg_into(s: &mut String, v: &View, title: &str, prefix: &str) {
    // Thousands of boxes are unreadable and slow to lay out: above the
    // budget only what findings point at is drawn, and a line says so.
    if v.nodes.len() > BUDGET {
        let (focused, omitted) = focus::focus(v, BUDGET);
        drawing(s, &focused, title, prefix, omitted);
    } else {
        drawing(s, v, title, prefix, None);
    }
}

/// The SVG element of a view small enough to draw whole.
fn drawing(s: &mut String, v: &View, title: &str, prefix: &str, omitted: Option<focus::Omitted>) {
    let mut lay = layout(v);
    if omitted.is_some() {
        lay.height += 24.0;
    }
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"graph\" viewBox=\"0 0 {w:.0} {h:.0}\" width=\"{w:.0}\" height=\"{h:.0}\" role=\"img\" aria-labelledby=\"{prefix}graph-title\">",
        w = lay.width,
        h = lay.height
    );
    let _ = writeln!(
        s,
        "<title id=\"{prefix}graph-title\">{}</title>",
        Xml(title)
    );
    let _ = write!(
        s,
        "<defs><marker id=\"{prefix}arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerUnits=\"userSpaceOnUse\" markerWidth=\"10\" markerHeight=\"10\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" class=\"arrowhead\"/></marker>"
    );
    let _ = writeln!(
        s,
        "<marker id=\"{prefix}arrow-hot\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerUnits=\"userSpaceOnUse\" markerWidth=\"10\" markerHeight=\"10\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" class=\"arrowhead hot\"/></marker></defs>"
    );
    clusters(s, v, &lay);
    edges(s, v, &lay, prefix);
    for (i, nd) in v.nodes.iter().enumerate() {
        node(s, nd, lay.boxes[i]);
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
}

/// The region clusters, drawn behind everything: one frame around a
/// region's components, or, where that frame would take in a component
/// of another region, one frame per run of the region's components in a
/// layer, so that no frame is drawn through a component outside it.
fn clusters(s: &mut String, v: &View, lay: &Layout) {
    for (ci, region) in v.clusters.iter().enumerate() {
        let inside = |i: usize| v.nodes[i].cluster.as_deref() == Some(region.as_str());
        let members: Vec<usize> = (0..v.nodes.len()).filter(|&i| inside(i)).collect();
        if members.is_empty() {
            continue;
        }
        let whole = frame(&members, lay, region);
        let crossed = (0..v.nodes.len()).any(|i| !inside(i) && overlaps(whole, box_of(lay, i)));
        let frames = if crossed {
            runs(&members, lay, inside)
                .iter()
                .map(|run| frame(run, lay, region))
                .collect()
        } else {
            vec![whole]
        };
        for (x0, y0, x1, y1) in frames {
            let _ = writeln!(
                s,
                "<g class=\"cluster\" data-region=\"{r}\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"10\"/><text x=\"{}\" y=\"{}\">{r}</text></g><!-- cluster {ci} -->",
                T(x0),
                T(y0),
                T(x1 - x0),
                T(y1 - y0),
                T(x0 + 8.0),
                T(y0 + 15.0),
                r = Xml(region)
            );
        }
    }
}

/// A component's box: left, top, right, bottom.
fn box_of(lay: &Layout, i: usize) -> (f64, f64, f64, f64) {
    let (cx, cy, w) = lay.boxes[i];
    (
        cx - w / 2.0,
        cy - NODE_H / 2.0,
        cx + w / 2.0,
        cy + NODE_H / 2.0,
    )
}

fn overlaps(a: (f64, f64, f64, f64), b: (f64, f64, f64, f64)) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}

/// The frame around `members`, with room for the title above and the
/// padding around, wide enough for the title.
fn frame(members: &[usize], lay: &Layout, title: &str) -> (f64, f64, f64, f64) {
    let (mut x0, mut y0, mut x1, mut y1) = (
        f64::INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NEG_INFINITY,
    );
    for &i in members {
        let b = box_of(lay, i);
        (x0, y0, x1, y1) = (x0.min(b.0), y0.min(b.1), x1.max(b.2), y1.max(b.3));
    }
    let (mut x0, y0, mut x1, y1) = (x0 - 12.0, y0 - 24.0, x1 + 12.0, y1 + 20.0);
    let title_w = title.chars().count() as f64 * 6.9 + 18.0;
    if x1 - x0 < title_w {
        let grow = (title_w - (x1 - x0)) / 2.0;
        x0 -= grow;
        x1 += grow;
    }
    (x0, y0, x1, y1)
}

/// The members side by side in one layer with no other component between
/// them, each run left to right.
fn runs(members: &[usize], lay: &Layout, inside: impl Fn(usize) -> bool) -> Vec<Vec<usize>> {
    // Every box of the layers the members are in, by layer then x.
    let layers: std::collections::BTreeSet<usize> =
        members.iter().map(|&i| lay.layers[i]).collect();
    let mut in_layers: Vec<usize> = (0..lay.boxes.len())
        .filter(|&i| layers.contains(&lay.layers[i]))
        .collect();
    in_layers.sort_by(|&a, &b| {
        (lay.layers[a], lay.boxes[a].0)
            .partial_cmp(&(lay.layers[b], lay.boxes[b].0))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    let mut out: Vec<Vec<usize>> = Vec::new();
    let mut open = false;
    let mut layer = None;
    for i in in_layers {
        if layer != Some(lay.layers[i]) {
            open = false;
            layer = Some(lay.layers[i]);
        }
        if !inside(i) {
            open = false;
        } else if open {
            out.last_mut().expect("an open run").push(i);
        } else {
            out.push(vec![i]);
            open = true;
        }
    }
    out
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
            "<g class=\"edge {ty}{hot}\" data-from=\"{f}\" data-to=\"{t}\"><title>{f} {ty} {t}</title><path d=\"",
            ty = e.ty,
            f = Xml(&v.nodes[e.from].id),
            t = Xml(&v.nodes[e.to].id),
        );
        path_d(s, pts);
        let _ = write!(s, "\" marker-end=\"url(#{prefix}{marker})\"/>");
        if let Some((lx, ly)) = label_point(pts, lay.label_at[k]) {
            let _ = write!(
                s,
                "<text x=\"{}\" y=\"{}\">{}</text>",
                T(lx),
                T(ly + 3.5),
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
    let (id, kind) = (Xml(&nd.id), Xml(&nd.kind));
    let _ = write!(
        s,
        "<g class=\"node {}{sev}\" data-id=\"{id}\"",
        nd.shape.class()
    );
    // The frame it is drawn in (a browser check holds frames to it).
    if let Some(c) = &nd.cluster {
        let _ = write!(s, " data-cluster=\"{}\"", Xml(c));
    }
    let _ = write!(s, "><title>{id} ({kind})");
    for (k, r) in nd.regions.iter().enumerate() {
        s.push_str(if k == 0 { " in " } else { ", " });
        push_xml(s, r);
    }
    if !nd.codes.is_empty() {
        s.push_str(": ");
        push_xml(s, &nd.codes.join(", "));
    }
    s.push_str("</title>");
    outline(s, nd.shape, (x, y, w, h), cy);
    // A cylinder's lid takes the top: its text sits lower.
    let dy = if nd.shape == Shape::Store { 4.0 } else { 0.0 };
    let _ = write!(
        s,
        "<text class=\"id\" x=\"{}\" y=\"{}\">{id}</text><text class=\"kind\" x=\"{}\" y=\"{}\">{kind}</text>",
        T(cx),
        T(cy - 2.0 + dy),
        T(cx),
        T(cy + 12.0 + dy),
    );
    if !nd.codes.is_empty() {
        let _ = write!(
            s,
            "<text class=\"codes\" x=\"{}\" y=\"{}\">{}</text>",
            T(x + w),
            T(y + h + 13.0),
            Xml(&nd.codes.join(" "))
        );
    }
    s.push_str("</g>\n");
}

/// The outline of a box at `x, y` of `w` by `h` (centre height `cy`).
fn outline(s: &mut String, shape: Shape, (x, y, w, h): (f64, f64, f64, f64), cy: f64) {
    let (xt, yt, wt, ht) = (T(x), T(y), T(w), T(h));
    match shape {
        Shape::Compute => {
            let _ = write!(
                s,
                "<rect x=\"{xt}\" y=\"{yt}\" width=\"{wt}\" height=\"{ht}\" rx=\"5\"/>"
            );
        }
        Shape::Transport => {
            let _ = write!(
                s,
                "<rect x=\"{xt}\" y=\"{yt}\" width=\"{wt}\" height=\"{ht}\" rx=\"{}\"/>",
                T(h / 2.0)
            );
        }
        Shape::Store => {
            let ry = 6.0;
            let _ = write!(
                s,
                "<path d=\"M{xt},{t} A{rx},{ry} 0 0 0 {r},{t} L{r},{b} A{rx},{ry} 0 0 1 {xt},{b} Z\"/><path class=\"lid\" d=\"M{xt},{t} A{rx},{ry} 0 0 1 {r},{t}\"/>",
                t = T(y + ry),
                b = T(y + h - ry),
                r = T(x + w),
                rx = T(w / 2.0),
            );
        }
        Shape::External => {
            let k = 10.0;
            let _ = write!(
                s,
                "<polygon points=\"{xt},{cy} {},{yt} {},{yt} {},{cy} {},{b} {},{b}\"/>",
                T(x + k),
                T(x + w - k),
                T(x + w),
                T(x + w - k),
                T(x + k),
                cy = T(cy),
                b = T(y + h)
            );
        }
    }
}
