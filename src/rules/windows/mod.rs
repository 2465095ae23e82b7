//! Windows and horizons (RH00x): how late a copy can arrive against how
//! long each dedup layer remembers the key. RH001–RH005 come from one
//! traversal of each intent's surviving copies and layer reaches
//! ([`horizons`]); each rule's finding is built in its own file.

mod rh001;
mod rh002;
mod rh003;
mod rh004;
mod rh005;
pub(crate) mod rh006;

use std::collections::BTreeSet;

use crate::analysis::{Analysis, IntentResult, Step};
use crate::rules::{Ctx, Finding, Margin};
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

pub(super) fn assumptions(steps: &[Step]) -> Vec<String> {
    let mut set = BTreeSet::new();
    for s in steps {
        set.extend(s.assumptions.iter().cloned());
    }
    set.into_iter().collect()
}

/// RH001–RH005 for every intent.
pub(crate) fn horizons(ctx: &Ctx, out: &mut Vec<Finding>) {
    for r in &ctx.a.intents {
        intent(ctx.a, r, ctx.options.margin, out);
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
                rh003::emit(a, r, effect, dup, steps, assumed, out);
            } else if let Some(layer) = rh001::emit(a, r, effect, dup, steps, assumed, out) {
                rh001_layers.insert(layer);
            }
        }
    }
    for l in r.layers.values() {
        let Some(reach) = l.reach else { continue };
        if reach > l.layer.window.value {
            if covered && !rh001_layers.contains(&l.layer.component) {
                rh002::emit(a, r, l, reach, out);
            }
        } else {
            rh004::emit(a, r, l, reach, policy, out);
        }
    }
    rh005::emit(a, r, all_assumptions, out);
}

pub(super) fn path_to(a: &Analysis, r: &IntentResult, c: usize, origin: usize) -> Vec<String> {
    r.path_ids_to(a, c, origin)
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
