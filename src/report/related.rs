//! The places a finding's worst path runs through, for formats that can
//! point at more than one location (SARIF `relatedLocations`, the Markdown
//! details).

use crate::diagnostics::Loc;
use crate::manifest::Manifest;
use crate::rules::Finding;

/// One link of a finding's worst path: where it is written and what it adds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hop {
    pub loc: Option<Loc>,
    pub text: String,
}

/// The places worth showing besides the finding's own location.
///
/// A rule's own `Finding::related` wins; otherwise, given the manifest, each
/// step of the worst path becomes a hop at the link that carries it (the
/// `sends_to`, `dead_letter`, `redrive` ... entry on the step's source
/// component), with the step's arithmetic as its text. Without a manifest
/// the steps cannot be placed and only `Finding::related` is used.
pub fn hops(manifest: Option<&Manifest>, f: &Finding) -> Vec<Hop> {
    if !f.related.is_empty() {
        return f
            .related
            .iter()
            .map(|(l, t)| Hop {
                loc: Some(*l),
                text: t.clone(),
            })
            .collect();
    }
    let Some(m) = manifest else {
        return Vec::new();
    };
    f.steps
        .iter()
        .filter_map(|s| {
            let from = m.components.get(s.from)?;
            let to = m.components.get(s.to)?;
            let adds = s.adds.to_string();
            Some(Hop {
                loc: Some(link_loc(from, &to.id, &s.why).unwrap_or(from.loc)),
                text: format!("+{adds} {} → {}: {}", from.id, to.id, s.why),
            })
        })
        .collect()
}

/// The link on `from` that leads to `to`, preferring the one whose field
/// name starts the step's explanation (`dead_letter: ...`).
fn link_loc(from: &crate::manifest::model::Component, to: &str, why: &str) -> Option<Loc> {
    let links = from.links().filter(|l| l.to.value == to);
    let mut first = None;
    for l in links {
        if why.starts_with(l.ty.field()) && why[l.ty.field().len()..].starts_with(':') {
            return Some(l.loc);
        }
        first.get_or_insert(l.loc);
    }
    first
}
