//! `horizon --required`: for every dedup layer an intent reaches, the
//! smallest retention the margin policy accepts, and what would bound a
//! horizon that has no bound.

use std::collections::HashMap;

use serde::Serialize;

use crate::analysis::{Analysis, IntentResult, Step};
use crate::manifest::model::LinkType;
use crate::rules::{margin, required_window};
use crate::time::Dur;

/// Minimum safe retention of one dedup layer for one intent.
#[derive(Debug, Clone, Serialize)]
pub struct RequiredRow {
    pub intent: String,
    /// The component whose window applies (store, ledger, transport, provider).
    pub component: String,
    /// guard store | unique constraint | provider key window | transport dedup window
    pub layer: &'static str,
    /// Where the layer acts (the guard for a store).
    pub at: String,
    /// The latest age (since the intent) at which a copy arrives where the
    /// layer acts.
    pub horizon_seconds: Option<u64>,
    /// The latest a copy it must recognise arrives after the layer's first
    /// sighting of the key: what its window must cover.
    pub span_seconds: Option<u64>,
    pub window_seconds: Option<u64>,
    pub required_retention_seconds: Option<u64>,
    /// covered | thin-margin | expires-first | unbounded
    pub verdict: &'static str,
    /// When the horizon is unbounded: what would bound it.
    pub bounded_by: Vec<String>,
    #[serde(skip)]
    pub span: Dur,
    #[serde(skip)]
    pub window: Dur,
}

/// For every dedup layer an intent reaches, the smallest retention that
/// leaves no RH001, RH002 or RH004 about it under the margin policy.
pub fn required(a: &Analysis, intent: Option<&str>, at: Option<&str>) -> Vec<RequiredRow> {
    let mut out = Vec::new();
    each_required(a, intent, at, &mut |r| {
        out.push(r);
        Ok(())
    })
    .expect("collecting rows does not fail");
    out
}

/// The rows of [`required`], one at a time as they are made.
pub fn each_required(
    a: &Analysis,
    intent: Option<&str>,
    at: Option<&str>,
    emit: &mut dyn FnMut(RequiredRow) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let m = a.manifest;
    let edges = crate::analysis::long_path::first_unbounded_edges(a);
    for r in &a.intents {
        let i = &m.intents[r.intent];
        if intent.is_some_and(|x| x != i.id) {
            continue;
        }
        let mut index = None;
        for l in r.layers.values() {
            let comp = &m.components[l.layer.component].id;
            let at_id = &m.components[l.at].id;
            if at.is_some_and(|x| x != comp && x != at_id) {
                continue;
            }
            // The window runs from the layer's first sighting of the key; a
            // layer no copy to recognise reaches needs to remember nothing.
            let h = l.reach.unwrap_or(Dur::ZERO);
            let need = required_window(h);
            let window = l.layer.window.value;
            let verdict = if h.is_unbounded() {
                if window.is_unbounded() {
                    "covered"
                } else {
                    "unbounded"
                }
            } else if window >= need {
                "covered"
            } else if window >= h {
                "thin-margin"
            } else {
                "expires-first"
            };
            let bounded_by = if h.is_unbounded() {
                let index = index.get_or_insert_with(|| r.path_index(a));
                bounds(a, r, &edges, index.unbounded_steps(l.at))
            } else {
                Vec::new()
            };
            emit(RequiredRow {
                intent: i.id.to_string(),
                component: comp.as_str().to_owned(),
                layer: l.layer.label,
                at: at_id.as_str().to_owned(),
                horizon_seconds: r.horizons.get(l.at).and_then(Dur::as_secs_ceil),
                span_seconds: h.as_secs_ceil(),
                window_seconds: window.as_secs_ceil(),
                required_retention_seconds: need.as_secs_ceil(),
                verdict,
                bounded_by,
                span: h,
                window,
            })?;
        }
    }
    Ok(())
}

/// What would bound an unbounded worst path: its unbounded steps (the last
/// [`UNBOUNDED_SHOWN`](crate::analysis::long_path::UNBOUNDED_SHOWN) of them, and how many in all), each with
/// the field that bounds it.
fn bounds(
    a: &Analysis,
    r: &IntentResult,
    edges: &HashMap<(usize, usize), usize>,
    (steps, total): (Vec<(Step, Option<usize>)>, usize),
) -> Vec<String> {
    let m = a.manifest;
    let id = |c: usize| m.components[c].id.as_str();
    let mut out = Vec::new();
    if let Some(e) = r.unbounded_cycle {
        let em = &a.model.edges[e];
        out.push(format!(
            "`max_times` on the redrive `{}` → `{}` (the cycle repeats without a bound)",
            id(em.from()),
            id(em.to())
        ));
    }
    for (s, _) in &steps {
        let edge = edges.get(&(s.from, s.to)).map(|&e| &a.model.edges[e]);
        let text = match edge.map(|e| e.ty) {
            Some(LinkType::Redrive) => {
                format!(
                    "`within` on the redrive `{}` → `{}` (or a finite `retention` on `{}`)",
                    id(s.from),
                    id(s.to),
                    id(s.from)
                )
            }
            Some(LinkType::DeliversTo | LinkType::DeadLetter) => {
                format!(
                    "`max_backlog` on `{}` (or a finite `retention`)",
                    id(s.from)
                )
            }
            Some(LinkType::SendsTo) => {
                format!(
                    "`max_backlog` or a finite `max_event_age` on `{}`",
                    id(s.to)
                )
            }
            Some(t) => format!(
                "a bound on the `{}` link `{}` → `{}`: {}",
                t.field(),
                id(s.from),
                id(s.to),
                s.why
            ),
            _ if s.why.starts_with("replay") => format!(
                "a finite `within` on the {} ",
                s.why.split(" enters").next().unwrap_or("replay")
            )
            .trim_end()
            .to_string(),
            _ => format!("a bound on `{}` → `{}`: {}", id(s.from), id(s.to), s.why),
        };
        if !out.contains(&text) {
            out.push(text);
        }
    }
    if total > steps.len() {
        out.push(format!(
            "bounds on the {} earlier unbounded steps of the worst path too",
            crate::report::horizon::thousands(total - steps.len())
        ));
    }
    if out.is_empty() {
        out.push(
            "a declared bound on the worst path (`max_times`, `max_backlog` or `within`)".into(),
        );
    }
    out
}

pub fn render_required_text(rows: &[RequiredRow]) -> String {
    let mut s = String::new();
    let mut current = None;
    for r in rows {
        required_row_text(r, &mut current, &mut s);
    }
    if rows.is_empty() {
        s.push_str("No dedup layer is reached.\n");
    }
    s
}

/// `horizon --required` as text, written row by row as the rows are made.
pub fn write_required_text(
    a: &Analysis,
    intent: Option<&str>,
    at: Option<&str>,
    w: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let (mut current, mut rows) = (None, 0);
    each_required(a, intent, at, &mut |r| {
        let mut s = String::new();
        required_row_text(&r, &mut current, &mut s);
        rows += 1;
        w.write_all(s.as_bytes())
    })?;
    if rows == 0 {
        w.write_all(b"No dedup layer is reached.\n")?;
    }
    Ok(())
}

/// One row of `horizon --required`, after an `intent` line when the
/// intent is not `current`'s.
fn required_row_text(r: &RequiredRow, current: &mut Option<String>, s: &mut String) {
    if current.as_ref() != Some(&r.intent) {
        s.push_str(&format!("intent {}\n", r.intent));
        *current = Some(r.intent.clone());
    }
    let via = if r.at == r.component {
        String::new()
    } else {
        format!(" via `{}`", r.at)
    };
    s.push_str(&format!("  {} ({}{via}): ", r.component, r.layer));
    if r.span.is_unbounded() {
        if r.window.is_unbounded() {
            s.push_str("latest copy to stop unbounded, window unbounded — covered\n");
            return;
        }
        s.push_str(&format!(
            "latest copy to stop unbounded, window {}: no retention is long enough\n",
            r.window
        ));
        for b in &r.bounded_by {
            s.push_str(&format!("      bound it with {b}\n"));
        }
        return;
    }
    let need = required_window(r.span);
    s.push_str(&format!(
        "minimum safe retention {need} (the latest copy {} after its first sighting + margin {}), window {} — {}\n",
        r.span,
        margin(r.span),
        r.window,
        r.verdict
    ));
}

pub fn render_required_json(rows: &[RequiredRow]) -> String {
    let mut out = Vec::new();
    let mut w = crate::report::horizon::JsonWriter::new(&mut out, "required").expect("in memory");
    for r in rows {
        w.row(r).expect("in memory");
    }
    w.finish().expect("in memory");
    String::from_utf8(out).expect("JSON is UTF-8")
}

/// `horizon --required --format json`, written row by row.
pub fn write_required_json(
    a: &Analysis,
    intent: Option<&str>,
    at: Option<&str>,
    w: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let mut jw = crate::report::horizon::JsonWriter::new(w, "required")?;
    each_required(a, intent, at, &mut |r| jw.row(&r))?;
    jw.finish()
}
