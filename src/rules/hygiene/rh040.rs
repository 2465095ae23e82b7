//! RH040 untested-failure-mode: failure injections an intent has not run
//! (page `docs/rules/RH040.md`).

use crate::analysis::{Analysis, IntentResult};
use crate::rules::{Code, Ctx, Finding};

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

pub(crate) fn emit(ctx: &Ctx, out: &mut Vec<Finding>) {
    ctx.per_intent(out, intent);
}

/// RH040: failure injections the intent has not run.
fn intent(a: &Analysis, r: &IntentResult, out: &mut Vec<Finding>) {
    let m = a.manifest;
    let intent = &m.intents[r.intent];
    let has_dlq = r
        .horizons
        .keys()
        .any(|c| m.components[c].dead_letter().is_some() || m.components[c].redrive().is_some());
    let multi_region = r
        .horizons
        .keys()
        .any(|c| a.model.nodes[c].regions.len() > 1);
    let tested: Vec<&str> = intent
        .tested
        .as_ref()
        .map(|t| t.value.iter().map(|s| s.as_str()).collect())
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
                Code::RH040,
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
