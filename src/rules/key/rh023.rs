//! RH023 fingerprint-misses-effect-fields: a reused key that a key-based
//! layer (a guard's store, a provider's key window) would answer with the
//! first request's stored result, while nothing binds the request's fields
//! to the key (page `docs/rules/RH023.md`).
//!
//! Only such layers can return a stored result for a reused key, so the
//! rule is quiet on a path with none: a transport window or a unique
//! constraint refuses a copy, it does not answer it.

use crate::analysis::{IntentResult, LayerType};
use crate::manifest::model::Intent;
use crate::rules::{Code, Ctx, Finding};

pub(crate) fn emit(ctx: &Ctx, out: &mut Vec<Finding>) {
    let m = ctx.m;
    for r in &ctx.a.intents {
        let intent = &m.intents[r.intent];
        if !answers_reused_keys(r) {
            continue;
        }
        if let Some(message) = problem(intent) {
            let loc = intent.fingerprint.as_ref().map_or(intent.loc, |f| f.loc);
            out.push(
                Finding::new(Code::RH023, message)
                    .intent(&intent.id)
                    .at(loc),
            );
        }
    }
}

/// Whether a layer on the intent's way can return a stored result for a
/// reused key.
fn answers_reused_keys(r: &IntentResult) -> bool {
    r.layers
        .values()
        .any(|l| matches!(l.layer.ty, LayerType::GuardStore | LayerType::ProviderKey))
}

/// What is wrong with the intent's fingerprint: none declared, or exactly
/// the key's fields (which binds nothing the key does not already say).
fn problem(intent: &Intent) -> Option<String> {
    let Some(fp) = &intent.fingerprint else {
        return Some(format!(
            "`{}` declares no fingerprint: nothing says which fields a reused key must match, so a changed amount or destination goes unnoticed",
            intent.id
        ));
    };
    let key = intent.key.fields.as_ref()?;
    let mut a: Vec<&str> = fp.value.iter().map(String::as_str).collect();
    let mut b: Vec<&str> = key.value.iter().map(String::as_str).collect();
    a.sort_unstable();
    a.dedup();
    b.sort_unstable();
    b.dedup();
    (a == b).then(|| {
        format!(
            "the fingerprint of `{}` is exactly its key fields ({}): it binds nothing the key does not already say, so a reused key with another amount or destination gets the first request's result",
            intent.id,
            b.iter().map(|f| format!("`{f}`")).collect::<Vec<_>>().join(", ")
        )
    })
}
