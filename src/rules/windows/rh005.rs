//! RH005 horizon-rests-on-assumption: verdicts resting on declared
//! assumptions (page `docs/rules/RH005.md`).

use std::collections::BTreeSet;

use crate::analysis::{Analysis, IntentResult};
use crate::rules::{Code, Finding};

/// RH005: horizons that decide a layer or an effect and rest on
/// assumptions, collected as values and written out once each.
pub(super) fn emit(
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
        let prefix = format!(
            "the verdict on `{}` rests on {} declared assumption{}: ",
            intent.id,
            list.len(),
            if list.len() == 1 { "" } else { "s" },
        );
        let f = Finding::listing(Code::RH005, &prefix, &list)
            .intent(&intent.id)
            .at(intent.loc);
        out.push(f);
    }
}
