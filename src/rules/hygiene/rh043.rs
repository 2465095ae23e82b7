//! RH043 unreachable-effect (page `docs/rules/RH043.md`): an intent's effect that no copy of its request
//! can reach.
//!
//! The analysis walks the copy links (sends_to, delivers_to, calls,
//! effects, dead_letter, redrive) from the intent's origin and from every
//! declared replay's entry point. An effect the walk never arrives at has
//! no horizon and no duplicates, so every other rule is silent about it:
//! silence there means the model is broken, not that the design is sound.

use crate::rules::{Code, Ctx, Finding};

pub(crate) fn emit(ctx: &Ctx, out: &mut Vec<Finding>) {
    let (a, m) = (ctx.a, ctx.m);
    for r in &a.intents {
        let intent = &m.intents[r.intent];
        for effect in &intent.effects {
            // An unresolved reference is a load error, never analysed.
            let Some(c) = effect.index() else {
                continue;
            };
            if r.reaches(c) {
                continue;
            }
            let from = if intent.replays.is_empty() {
                format!(
                    "its origin `{}` (it declares no replay)",
                    intent.origin.value
                )
            } else {
                let entries: Vec<String> = intent
                    .replays
                    .iter()
                    .map(|rp| format!("`{}`", rp.enters_at.value))
                    .collect();
                format!(
                    "its origin `{}` or its replays (entering at {})",
                    intent.origin.value,
                    entries.join(", ")
                )
            };
            out.push(
                Finding::new(
                    Code::RH043,
                    format!(
                        "effect `{}` of `{}` is not reached from {from}: no chain of links carries the request there, so no horizon, duplicate or guard was checked for it; add a link from `{}` (or a component it reaches) to `{}`, or declare the replay entry point that reaches it",
                        effect.value, intent.id, intent.origin.value, effect.value
                    ),
                )
                .intent(&intent.id)
                .component(&effect.value)
                .at(effect.loc),
            );
        }
    }
}
