//! RH022 key-not-bound-to-fingerprint: a guard that does not bind the key to
//! a request fingerprint (page `docs/rules/RH022.md`). Quiet for an intent
//! whose every effect declares `uses: []`: its outcome reads no request
//! field, so there is nothing for a fingerprint to bind.

use super::uses_no_request_field;
use crate::rules::{Code, Ctx, Finding};

pub(crate) fn emit(ctx: &Ctx, out: &mut Vec<Finding>) {
    let m = ctx.m;
    for r in &ctx.a.intents {
        let intent = &m.intents[r.intent];
        if uses_no_request_field(m, intent) {
            continue;
        }
        for g in r.horizons.keys() {
            let comp = &m.components[g];
            let Some(guard) = &comp.dedup else { continue };
            let (bound, loc) = match &guard.binds_fingerprint {
                Some(b) => (b.value, b.loc),
                None => (false, guard.loc),
            };
            if !bound {
                out.push(
                    Finding::new(
                        Code::RH022,
                        format!(
                            "`{}` does not bind the key to a request fingerprint{}: a reuse of the key with another amount or account gets the first request's result instead of an error",
                            comp.id,
                            if guard.binds_fingerprint.is_none() { " (binds_fingerprint is not declared)" } else { "" }
                        ),
                    )
                    .intent(&intent.id)
                    .component(&comp.id)
                    .at(loc),
                );
            }
        }
    }
}
