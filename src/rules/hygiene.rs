//! Review and manifest hygiene: RH040 untested-failure-mode, RH041
//! unknown-value-assumed, RH042 unused-dedup-store, RH050
//! platform-limit-violated.

use crate::analysis::effective as eff;
use crate::analysis::{Analysis, IntentResult};
use crate::catalog::{catalog, toml_dur};
use crate::diagnostics::Loc;
use crate::manifest::model::{Component, Manifest, Sp};
use crate::rules::Finding;
use crate::time::Dur;

/// The failure injections the review checklist asks for.
pub const FAILURE_MODES: &[&str] = &[
    "timeout-before-effect",
    "timeout-after-effect",
    "lost-ack",
    "concurrent-retry",
    "expired-key",
    "dlq-redrive",
    "regional-failover",
];

pub(crate) fn check(a: &Analysis, out: &mut Vec<Finding>) {
    let first = a.first_intent_reaching();
    rh041(a, first, out);
    for r in &a.intents {
        rh040(a, r, out);
    }
    rh042(a, first, out);
    rh050(a.manifest, out);
}

/// RH041: values the analysis had to assume, reported only where some
/// intent's analysis actually read them.
fn rh041(a: &Analysis, first: &[Option<usize>], out: &mut Vec<Finding>) {
    let m = a.manifest;
    for asm in &a.model.assumed {
        let Some(r) = first[asm.component].map(|i| &a.intents[i]) else {
            continue;
        };
        let c = &m.components[asm.component];
        out.push(
            Finding::new(
                "RH041",
                format!(
                    "`{}.{}` is not given and kind `{}` has no documented default: the analysis assumed {}",
                    c.id, asm.field, c.kind.value, asm.value
                ),
            )
            .intent(&m.intents[r.intent].id)
            .component(&c.id)
            .at(asm.loc),
        );
    }
}

/// RH040: failure injections the intent has not run.
fn rh040(a: &Analysis, r: &IntentResult, out: &mut Vec<Finding>) {
    let m = a.manifest;
    let intent = &m.intents[r.intent];
    let has_dlq = r
        .horizons
        .keys()
        .any(|&c| m.components[c].dead_letter.is_some() || m.components[c].redrive.is_some());
    let multi_region = r
        .horizons
        .keys()
        .any(|&c| a.model.nodes[c].regions.len() > 1);
    let tested: Vec<&str> = intent
        .tested
        .as_ref()
        .map(|t| t.value.iter().map(String::as_str).collect())
        .unwrap_or_default();
    let missing: Vec<&str> = FAILURE_MODES
        .iter()
        .copied()
        .filter(|f| (*f != "dlq-redrive" || has_dlq) && (*f != "regional-failover" || multi_region))
        .filter(|f| !tested.contains(f))
        .collect();
    if !missing.is_empty() {
        out.push(
            Finding::new(
                "RH040",
                format!(
                    "`{}` has not been tested for: {}",
                    intent.id,
                    missing.join(", ")
                ),
            )
            .intent(&intent.id)
            .at(intent.tested.as_ref().map_or(intent.loc, |t| t.loc)),
        );
    }
}

/// RH042: stores that protect nothing.
fn rh042(a: &Analysis, first: &[Option<usize>], out: &mut Vec<Finding>) {
    let m = a.manifest;
    if m.intents.is_empty() {
        return;
    }
    let mut used: Vec<bool> = first.iter().map(Option::is_some).collect();
    for (g, node) in a.model.nodes.iter().enumerate() {
        if let (Some(gm), Some(_)) = (&node.guard, first[g]) {
            used[gm.layer.component] = true;
        }
    }
    for (c, comp) in m.components.iter().enumerate() {
        if !a.model.nodes[c].generic.is_store() || used[c] {
            continue;
        }
        out.push(
            Finding::new(
                "RH042",
                format!(
                    "`{}` is declared as a {} but no guard or effect on any intent's path uses it: it protects nothing",
                    comp.id,
                    a.model.nodes[c].generic.name()
                ),
            )
            .component(&comp.id)
            .at(comp.loc),
        );
    }
}

/// RH050: values outside what the platform documents.
fn rh050(m: &Manifest, out: &mut Vec<Finding>) {
    for comp in &m.components {
        let written: [(&str, Option<(Dur, Loc)>); 6] = [
            ("visibility_timeout", dur(comp.visibility_timeout())),
            ("retention", dur(comp.retention())),
            ("dedup_window", dur(comp.dedup_window())),
            ("max_event_age", dur(comp.max_event_age())),
            ("key_window", dur(comp.key_window())),
            (
                "max_receives",
                comp.max_receives().map(|c| (Dur::Secs(c.value), c.loc)),
            ),
        ];
        for (field, value) in written {
            if let Some((v, loc)) = value {
                limit(comp, field, v, loc, out);
            }
        }
        if let Some(dl) = &comp.dead_letter
            && let Some(n) = dl.after_receives()
        {
            limit(comp, "max_receives", Dur::Secs(n.value), n.loc, out);
        }
    }
}

fn dur(sp: Option<&Sp<Dur>>) -> Option<(Dur, Loc)> {
    sp.map(|s| (s.value, s.loc))
}

fn limit(comp: &Component, field: &str, v: Dur, loc: Loc, out: &mut Vec<Finding>) {
    let kind = eff::kind_of(comp);
    let Some(fact) = kind.fields.get(field) else {
        return;
    };
    let cite = catalog().source(&fact.source).map_or_else(
        || fact.source.clone(),
        |s| format!("{}: {}", fact.source, s.url),
    );
    let show = |d: Dur| {
        if field == "max_receives" {
            d.secs().map_or("unbounded".into(), |n| n.to_string())
        } else {
            d.to_string()
        }
    };
    let title = kind.title.as_deref().unwrap_or(&kind.id);
    let problem = if fact.fixed {
        let fixed = fact.default.as_ref().and_then(toml_dur);
        match fixed {
            Some(f) if f != v => Some(format!(
                "{title} fixes `{field}` at {}; {} cannot be configured",
                show(f),
                show(v)
            )),
            _ => None,
        }
    } else {
        let min = fact.min.as_ref().and_then(toml_dur);
        let max = fact.max.as_ref().and_then(toml_dur);
        match (min, max) {
            (Some(lo), _) if v < lo => Some(format!(
                "`{}.{field}` is {}; {title} allows at least {}",
                comp.id,
                show(v),
                show(lo)
            )),
            (_, Some(hi)) if v > hi => Some(format!(
                "`{}.{field}` is {}; {title} allows at most {}",
                comp.id,
                show(v),
                show(hi)
            )),
            _ => None,
        }
    };
    if let Some(p) = problem {
        out.push(
            Finding::new("RH050", format!("{p} ({cite})"))
                .component(&comp.id)
                .at(loc),
        );
    }
}
