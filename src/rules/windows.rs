//! Windows and horizons: RH001 replay-outlives-dedup-window,
//! RH002 layer-window-shorter-than-horizon, RH003 unbounded-replay-horizon,
//! RH004 thin-retention-margin, RH005 horizon-rests-on-assumption.

use std::collections::BTreeSet;

use crate::analysis::{Analysis, Dup, IntentResult, LayerReach, Step, window_loc};
use crate::rules::{Finding, Margin, Options};
use crate::time::Dur;

/// The default margin policy: 10 % of the horizon or 5 minutes, whichever
/// is larger.
pub fn margin(horizon: Dur) -> Dur {
    Margin::default().of(horizon)
}

/// The smallest window that neither RH001 nor RH004 would flag.
pub fn required_window(horizon: Dur) -> Dur {
    horizon.add(margin(horizon))
}

fn assumptions(steps: &[Step]) -> Vec<String> {
    let mut set = BTreeSet::new();
    for s in steps {
        set.extend(s.assumptions.iter().cloned());
    }
    set.into_iter().collect()
}

pub(crate) fn check(a: &Analysis, options: &Options, out: &mut Vec<Finding>) {
    for r in &a.intents {
        intent(a, r, options.margin, out);
    }
}

fn intent(a: &Analysis, r: &IntentResult, policy: Margin, out: &mut Vec<Finding>) {
    let mut covered = true;
    let mut rh001_layers = BTreeSet::new();
    let mut all_assumptions = BTreeSet::new();
    for (&effect, list) in &r.surviving {
        for (_, dup, steps) in list {
            covered = false;
            let assumed = assumptions(steps);
            all_assumptions.extend(assumed.iter().cloned());
            if dup.age.is_unbounded() {
                rh003(a, r, effect, dup, steps, assumed, out);
            } else if let Some(layer) = rh001(a, r, effect, dup, steps, assumed, out) {
                rh001_layers.insert(layer);
            }
        }
    }
    for l in r.layers.values() {
        let Some(reach) = l.reach else { continue };
        if reach > l.layer.window.value {
            if covered && !rh001_layers.contains(&l.layer.component) {
                rh002(a, r, l, reach, out);
            }
        } else {
            rh004(a, r, l, reach, policy, out);
        }
    }
    rh005(a, r, all_assumptions, out);
}

/// RH003: a copy that can reach an effect at any age.
fn rh003(
    a: &Analysis,
    r: &IntentResult,
    effect: usize,
    dup: &Dup,
    steps: &[Step],
    assumed: Vec<String>,
    out: &mut Vec<Finding>,
) {
    let m = a.manifest;
    let intent = &m.intents[r.intent];
    let origin = intent.origin.index().unwrap_or(0);
    let eid = &m.components[effect].id;
    let mut f = Finding::new(
        "RH003",
        format!(
            "{} can reach `{eid}` at any age: nothing bounds how late it arrives ({}), and no layer with unbounded retention covers the effect",
            dup.birth.describe(),
            unbounded_reason(a, r, steps)
        ),
    )
    .intent(&intent.id)
    .component(eid)
    .at(unbounded_loc(a, r, steps).unwrap_or(m.components[effect].loc));
    f.path = IntentResult::path_ids(m, origin, steps);
    f.steps = steps.to_vec();
    f.assumptions = assumed;
    out.push(f);
}

/// RH001: a copy that arrives after a layer has forgotten the key. Returns
/// the layer it flagged.
fn rh001(
    a: &Analysis,
    r: &IntentResult,
    effect: usize,
    dup: &Dup,
    steps: &[Step],
    assumed: Vec<String>,
    out: &mut Vec<Finding>,
) -> Option<usize> {
    let m = a.manifest;
    let intent = &m.intents[r.intent];
    let origin = intent.origin.index().unwrap_or(0);
    let eid = &m.components[effect].id;
    let (window, layer, age) = dup.bypass.expired?;
    let lid = &m.components[layer].id;
    let lay = r
        .layers
        .values()
        .find(|l| l.layer.component == layer)
        .map(|l| l.layer.clone());
    let loc = lay
        .as_ref()
        .map_or(m.components[layer].loc, |l| window_loc(m, l));
    let mut f = Finding::new(
        "RH001",
        format!(
            "{} can reach `{eid}` {} after the intent, but `{lid}` forgets the key after {}{}: the copy looks new and the effect happens twice",
            dup.birth.describe(),
            age,
            window,
            lay.map(|l| l.window.provenance()).unwrap_or_default()
        ),
    )
    .intent(&intent.id)
    .component(lid)
    .horizon(age)
    .window(window)
    .at(loc);
    f.path = IntentResult::path_ids(m, origin, steps);
    f.steps = steps.to_vec();
    f.assumptions = assumed;
    out.push(f);
    Some(layer)
}

/// RH002: a layer a copy outlives while another layer still covers the
/// effect.
fn rh002(a: &Analysis, r: &IntentResult, l: &LayerReach, reach: Dur, out: &mut Vec<Finding>) {
    let m = a.manifest;
    let intent = &m.intents[r.intent];
    let origin = intent.origin.index().unwrap_or(0);
    let window = l.layer.window.value;
    let lid = &m.components[l.layer.component].id;
    let mut f = Finding::new(
        "RH002",
        format!(
            "`{lid}` ({}) forgets the key after {}{}, but a copy can reach it {}; another layer still covers the effect, so the defence is thinner than it looks",
            l.layer.label,
            window,
            l.layer.window.provenance(),
            reach
        ),
    )
    .intent(&intent.id)
    .component(lid)
    .horizon(reach)
    .window(window)
    .at(window_loc(m, &l.layer));
    f.path = path_to(a, r, l.at, origin);
    out.push(f);
}

/// RH004: a layer whose window exceeds the latest copy by less than the
/// margin policy asks.
fn rh004(
    a: &Analysis,
    r: &IntentResult,
    l: &LayerReach,
    reach: Dur,
    policy: Margin,
    out: &mut Vec<Finding>,
) {
    let m = a.manifest;
    let intent = &m.intents[r.intent];
    let origin = intent.origin.index().unwrap_or(0);
    let window = l.layer.window.value;
    if window.is_unbounded()
        || window >= policy.required_window(reach)
        || platform_fixed(a, &l.layer)
    {
        return;
    }
    let lid = &m.components[l.layer.component].id;
    let mut f = Finding::new(
        "RH004",
        format!(
            "`{lid}` keeps keys {} and the latest copy arrives at {}: the margin {} is below the policy's {} ({} % or {})",
            window,
            reach,
            Dur::Secs(window.secs().unwrap_or(0) - reach.secs().unwrap_or(0)),
            policy.of(reach),
            policy.percent,
            if policy.minimum == 300 { "5 minutes".to_string() } else { Dur::Secs(policy.minimum).to_string() }
        ),
    )
    .intent(&intent.id)
    .component(lid)
    .horizon(reach)
    .window(window)
    .at(window_loc(m, &l.layer));
    f.path = path_to(a, r, l.at, origin);
    out.push(f);
}

/// RH005: horizons that decide a layer or an effect and rest on
/// assumptions, collected as values and written out once each.
fn rh005(
    a: &Analysis,
    r: &IntentResult,
    mut all_assumptions: BTreeSet<String>,
    out: &mut Vec<Finding>,
) {
    let intent = &a.manifest.intents[r.intent];
    let mut on_paths = BTreeSet::new();
    for eff in &intent.effects {
        if let Some(ec) = eff.index() {
            r.assumptions_to(a, ec, &mut on_paths);
        }
    }
    for l in r.layers.values() {
        r.assumptions_to(a, l.at, &mut on_paths);
    }
    all_assumptions.extend(on_paths.into_iter().map(|x| r.assumption_text(a, x)));
    if !all_assumptions.is_empty() {
        let list: Vec<String> = all_assumptions.into_iter().collect();
        let mut f = Finding::new(
            "RH005",
            format!(
                "the verdict on `{}` rests on {} declared assumption{}: {}",
                intent.id,
                list.len(),
                if list.len() == 1 { "" } else { "s" },
                list.join("; ")
            ),
        )
        .intent(&intent.id)
        .at(intent.loc);
        f.assumptions = list;
        out.push(f);
    }
}

/// A window the platform fixes (the SQS FIFO five minutes) cannot be raised:
/// a thin margin there is for the horizon to fix, not the window.
fn platform_fixed(a: &Analysis, layer: &crate::analysis::Layer) -> bool {
    use crate::analysis::effective::Origin;
    let Origin::Catalog { kind, .. } = &layer.window.origin else {
        return false;
    };
    let field = if layer.label == "transport dedup window" {
        "dedup_window"
    } else {
        return false;
    };
    let _ = a;
    crate::catalog::catalog()
        .kind(kind)
        .and_then(|k| k.fields.get(field))
        .is_some_and(|f| f.fixed)
}

fn path_to(a: &Analysis, r: &IntentResult, c: usize, origin: usize) -> Vec<String> {
    r.path_ids_to(a, c, origin)
}

fn unbounded_reason(a: &Analysis, r: &IntentResult, steps: &[Step]) -> String {
    if let Some(e) = r.unbounded_cycle {
        let em = &a.model.edges[e];
        return format!(
            "the cycle through `{}` → `{}` has no `max_times`",
            a.manifest.components[em.from].id, a.manifest.components[em.to].id
        );
    }
    steps
        .iter()
        .find(|s| s.adds.is_unbounded())
        .map_or_else(|| "an unbounded delay".to_string(), |s| s.why.clone())
}

fn unbounded_loc(
    a: &Analysis,
    r: &IntentResult,
    steps: &[Step],
) -> Option<crate::diagnostics::Loc> {
    if let Some(e) = r.unbounded_cycle {
        return Some(a.model.edges[e].loc);
    }
    let s = steps.iter().find(|s| s.adds.is_unbounded())?;
    // The first such edge in edge order: search the source's own edges only.
    let e = a.model.out[s.from]
        .iter()
        .copied()
        .filter(|&e| a.model.edges[e].to == s.to)
        .min()?;
    Some(a.model.edges[e].loc)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn margin_is_ten_percent_or_five_minutes() {
        assert_eq!(margin(Dur::Secs(60)), Dur::Secs(300));
        assert_eq!(margin(Dur::Secs(50_400)), Dur::Secs(5_040));
        assert_eq!(required_window(Dur::Secs(50_400)), Dur::Secs(55_440));
        assert_eq!(margin(Dur::Unbounded), Dur::Unbounded);
    }
}
