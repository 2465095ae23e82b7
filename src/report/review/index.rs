//! Indexes across intents: every operational assumption with where it is
//! written, the model's edges into each component, and waiver texts.

use crate::analysis::Analysis;
use crate::report::review::model::AssumptionEntry;

use super::fl;
use crate::manifest::model::{Field, LinkField};

/// "reason (ticket PAY-12, until 2027-01-31)"; an inline allowance says
/// where it stands ("reason (until 2027-01-31, inline at a.yaml:12)").
pub(super) fn waiver_text(w: &crate::rules::Waived) -> String {
    let mut extra = Vec::new();
    if let Some(t) = &w.ticket {
        extra.push(format!("ticket {t}"));
    }
    if let Some(e) = &w.expires {
        extra.push(format!("until {e}"));
    }
    if let Some(l) = &w.inline {
        extra.push(format!("inline at {}:{}", l.file, l.line));
    }
    if extra.is_empty() {
        w.reason.clone()
    } else {
        format!("{} ({})", w.reason, extra.join(", "))
    }
}

/// Every declared operational assumption and every value the analysis had
/// to guess, with where it is written.
pub(super) fn assumptions(a: &Analysis) -> Vec<AssumptionEntry> {
    let m = a.manifest;
    let map = &m.sources;
    // The intents reaching each component (in intent order), once.
    let mut reaching: Vec<Vec<usize>> = vec![Vec::new(); m.components.len()];
    for (k, r) in a.intents.iter().enumerate() {
        for c in r.horizons.keys() {
            reaching[c].push(k);
        }
    }
    let users = |c: usize| -> Vec<String> {
        reaching[c]
            .iter()
            .map(|&k| m.intents[a.intents[k].intent].id.to_string())
            .collect()
    };
    let mut out = Vec::new();
    for (i, c) in m.components.iter().enumerate() {
        if let Some(b) = c.dur(Field::MaxBacklog) {
            out.push(AssumptionEntry {
                source: "declared",
                text: format!(
                    "`{}` never holds a backlog older than {} (max_backlog)",
                    c.id, b.value
                ),
                at: Some(fl(map, b.loc)),
                intents: users(i),
            });
        }
        if let Some(l) = c.redrive()
            && let Some(w) = l.dur(LinkField::Within)
        {
            out.push(AssumptionEntry {
                source: "declared",
                text: format!(
                    "`{}` is redriven to `{}` within {} of the move (redrive within)",
                    c.id, l.to.value, w.value
                ),
                at: Some(fl(map, w.loc)),
                intents: users(i),
            });
        }
    }
    for intent in &m.intents {
        for rp in &intent.replays {
            out.push(AssumptionEntry {
                source: "declared",
                text: format!(
                    "replay `{}` enters at `{}` within {} (replay within)",
                    rp.name, rp.enters_at.value, rp.within.value
                ),
                at: Some(fl(map, rp.within.loc)),
                intents: vec![intent.id.to_string()],
            });
        }
    }
    for asm in &a.model.assumed {
        let c = &m.components[asm.component];
        out.push(AssumptionEntry {
            source: "assumed value",
            text: format!(
                "`{}.{}` is not given and kind `{}` documents no default: taken as {}",
                c.id, asm.field, c.kind.value, asm.value
            ),
            at: Some(fl(map, asm.loc)),
            intents: users(asm.component),
        });
    }
    out
}

/// For each component, the model's edges into it (ascending), so that the
/// test plan does not scan every edge for every intent.
pub(super) fn incoming(a: &Analysis) -> Vec<Vec<usize>> {
    let mut into = vec![Vec::new(); a.model.nodes.len()];
    for (k, e) in a.model.edges.iter().enumerate() {
        into[e.to()].push(k);
    }
    into
}
