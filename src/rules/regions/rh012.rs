//! RH012 dedup-recovery-point-mismatch: the dedup store recovers to a worse
//! point than the ledger it protects (page `docs/rules/RH012.md`).

use crate::analysis::{Analysis, IntentResult};
use crate::rules::{Code, Ctx, Finding};

pub(crate) fn emit(ctx: &Ctx, out: &mut Vec<Finding>) {
    ctx.per_intent(out, intent);
}

/// RH012: the dedup store recovers to a worse point than the ledger it protects.
fn intent(a: &Analysis, r: &IntentResult, out: &mut Vec<Finding>) {
    let m = a.manifest;
    let intent = &m.intents[r.intent];
    let ledgers: Vec<usize> = r
        .horizons
        .keys()
        .filter(|&c| a.model.nodes[c].generic == crate::catalog::Generic::Ledger)
        .collect();
    for g in r.horizons.keys() {
        let Some(gm) = &a.model.nodes[g].guard else {
            continue;
        };
        let s = gm.layer.component;
        let store = &m.components[s];
        for &l in ledgers.iter().filter(|&&l| l != s) {
            let ledger = &m.components[l];
            let Some(lb) = &ledger.backup else { continue };
            let s_rpo = store.backup.as_ref().and_then(|b| b.rpo.as_ref());
            let l_rpo = lb.rpo.as_ref().map(|x| x.value);
            let together = store
                .backup
                .as_ref()
                .is_some_and(|b| b.restored_with.iter().any(|x| x.value == ledger.id))
                || lb.restored_with.iter().any(|x| x.value == store.id);
            let worse = match (s_rpo, l_rpo) {
                (None, _) => Some("has no declared recovery point".to_string()),
                (Some(sr), Some(lr)) if sr.value > lr => Some(format!(
                    "recovers to {} while `{}` recovers to {lr}",
                    sr.value, ledger.id
                )),
                _ => None,
            };
            let problem = match (worse, together) {
                (Some(w), _) => w,
                (None, false) => format!("is not restored together with `{}`", ledger.id),
                (None, true) => continue,
            };
            let loc = store.backup.as_ref().map_or(store.kind.loc, |b| b.loc);
            out.push(
                Finding::new(
                    Code::RH012,
                    format!(
                        "dedup store `{}` {problem}: after a restore the ledger can hold effects whose keys the store has forgotten, and their replays run again",
                        store.id
                    ),
                )
                .intent(&intent.id)
                .component(&store.id)
                .at(loc),
            );
        }
    }
}
