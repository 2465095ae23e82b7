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

use crate::analysis::{Analysis, IntentResult, LayerReach, Step, window_loc};
use crate::rules::surviving::Surviving;
use crate::rules::{Code, Ctx, Finding, Margin};
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
        intent(ctx, r, out);
    }
}

fn intent(ctx: &Ctx, r: &IntentResult, out: &mut Vec<Finding>) {
    let a = ctx.a;
    let mut covered = true;
    let mut rh001_layers = BTreeSet::new();
    let mut all_assumptions = BTreeSet::new();
    for (_, mut copy) in Surviving::of(a, r) {
        covered = false;
        copy.assumed = assumptions(copy.steps);
        all_assumptions.extend(copy.assumed.iter().cloned());
        if copy.dup.age.is_unbounded() {
            rh003::emit(&copy, out);
        } else if let Some(layer) = rh001::emit(&copy, out) {
            rh001_layers.insert(layer);
        }
    }
    for l in r.layers.values() {
        let Some(reach) = l.reach else { continue };
        if reach > l.layer.window.value {
            if covered && !rh001_layers.contains(&l.layer.component) {
                rh002::emit(a, r, l, reach, out);
            }
        } else {
            rh004::emit(ctx, r, l, reach, out);
        }
    }
    rh005::emit(a, r, all_assumptions, out);
}

/// The finding for a layer a copy reaches at age `reach` (RH002, RH004):
/// placed at the layer's window, with the path from the origin to it.
pub(super) fn at_layer(
    a: &Analysis,
    r: &IntentResult,
    l: &LayerReach,
    reach: Dur,
    code: Code,
    message: String,
) -> Finding {
    let m = a.manifest;
    let intent = &m.intents[r.intent];
    let origin = intent.origin.index().unwrap_or(0);
    let mut f = Finding::new(code, message)
        .intent(&intent.id)
        .component(&m.components[l.layer.component].id)
        .horizon(reach)
        .window(l.layer.window.value)
        .at(window_loc(m, &l.layer));
    f.path = r.path_ids_to(a, l.at, origin);
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn margin_is_ten_percent_or_five_minutes() {
        assert_eq!(margin(Dur::secs(60)), Dur::secs(300));
        assert_eq!(margin(Dur::secs(50_400)), Dur::secs(5_040));
        assert_eq!(required_window(Dur::secs(50_400)), Dur::secs(55_440));
        assert_eq!(margin(Dur::Unbounded), Dur::Unbounded);
    }

    #[test]
    fn margin_works_in_milliseconds_and_rounds_up_to_a_second() {
        let ten = crate::rules::Margin {
            percent: 10,
            minimum: 0,
        };
        // 10 % of 50,400.5 s is 5,040.05 s: 5,041 s, never 5,040.
        assert_eq!(ten.of(Dur::ms(50_400_500)), Dur::secs(5_041));
        // 10 % of 500 ms is 50 ms: 1 s, never 0.
        assert_eq!(ten.of(Dur::ms(500)), Dur::secs(1));
        assert_eq!(ten.of(Dur::ZERO), Dur::ZERO);
        assert_eq!(margin(Dur::ms(264_500)), Dur::secs(300));
        assert_eq!(required_window(Dur::ms(264_500)), Dur::ms(564_500));
        // 10 % of the longest finite duration is finite, not cut short.
        // 18,446,744,073,709,551,615 ms × 10 % = 1,844,674,407,370,955,161.5 ms,
        // up to 1,844,674,407,370,956 s.
        assert_eq!(ten.of(Dur::ms(u64::MAX)), Dur::secs(1_844_674_407_370_956));
    }
}
