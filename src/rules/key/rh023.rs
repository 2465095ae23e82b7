//! RH023 fingerprint-misses-effect-fields: a reused key that a key-based
//! layer (a guard's store, a provider's key window) would answer with the
//! first request's stored result, while nothing binds the request's fields
//! to the key (page `docs/rules/RH023.md`).
//!
//! Only such layers can return a stored result for a reused key, so the
//! rule is quiet on a path with none: a transport window or a unique
//! constraint refuses a copy, it does not answer it.
//!
//! Where an effect declares the fields it `uses`, the rule asks that the
//! fingerprint or the key bind each of them, and nothing more; otherwise it
//! can only tell that a fingerprint equal to the key binds nothing. Where
//! every effect declares `uses: []`, its outcome reads no request field:
//! nothing is left for a fingerprint to bind, and the rule is quiet.

use super::uses_no_request_field;
use crate::analysis::{IntentResult, LayerType};
use crate::manifest::model::Field;
use crate::manifest::model::{Intent, Name};
use crate::rules::{Code, Ctx, Finding};

pub(crate) fn emit(ctx: &Ctx, out: &mut Vec<Finding>) {
    let m = ctx.m;
    for r in &ctx.a.intents {
        let intent = &m.intents[r.intent];
        if !answers_reused_keys(r) || uses_no_request_field(m, intent) {
            continue;
        }
        let Some(fp) = &intent.fingerprint else {
            out.push(
                Finding::new(
                    Code::RH023,
                    format!(
                        "`{}` declares no fingerprint: nothing says which fields a reused key must match, so a changed amount or destination goes unnoticed",
                        intent.id
                    ),
                )
                .intent(&intent.id)
                .at(intent.loc),
            );
            continue;
        };
        let bound = sorted(fp.value.iter().chain(key_fields(intent)));
        let mut declared = false;
        for e in intent.effects.iter().filter_map(|e| e.index()) {
            let comp = &m.components[e];
            let Some(uses) = comp.texts(Field::Uses) else {
                continue;
            };
            declared = true;
            let missing: Vec<&str> = sorted(uses.value.iter())
                .into_iter()
                .filter(|u| bound.binary_search(u).is_err())
                .collect();
            if !missing.is_empty() {
                out.push(
                    Finding::new(
                        Code::RH023,
                        format!(
                            "the fingerprint of `{}` leaves out {}, which `{}` uses: a reused key with another {} gets the first request's stored result",
                            intent.id,
                            listed(&missing),
                            comp.id,
                            missing.join(" or ")
                        ),
                    )
                    .intent(&intent.id)
                    .component(&comp.id)
                    .at(fp.loc),
                );
            }
        }
        if !declared && let Some(message) = equals_key(intent) {
            out.push(
                Finding::new(Code::RH023, message)
                    .intent(&intent.id)
                    .at(fp.loc),
            );
        }
    }
}

/// Whether a layer on the intent's way can return a stored result for a
/// reused key: a key-based layer that a copy carrying the key reaches (a
/// provider the key is never passed to answers nothing by it).
fn answers_reused_keys(r: &IntentResult) -> bool {
    r.layers.values().any(|l| {
        matches!(l.layer.ty, LayerType::GuardStore | LayerType::ProviderKey) && l.reach.is_some()
    })
}

fn key_fields(intent: &Intent) -> impl Iterator<Item = &Name> {
    intent.key.fields.iter().flat_map(|k| k.value.iter())
}

/// The names, sorted and without repeats.
fn sorted<'a, S: AsRef<str> + 'a>(names: impl Iterator<Item = &'a S>) -> Vec<&'a str> {
    let mut v: Vec<&str> = names.map(|s| s.as_ref()).collect();
    v.sort_unstable();
    v.dedup();
    v
}

fn listed(names: &[&str]) -> String {
    names
        .iter()
        .map(|f| format!("`{f}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A fingerprint that is exactly the key's fields binds nothing the key
/// does not already say.
fn equals_key(intent: &Intent) -> Option<String> {
    let fp = intent.fingerprint.as_ref()?;
    let key = intent.key.fields.as_ref()?;
    let b = sorted(key.value.iter());
    (sorted(fp.value.iter()) == b).then(|| {
        format!(
            "the fingerprint of `{}` is exactly its key fields ({}): it binds nothing the key does not already say, so a reused key with another amount or destination gets the first request's result",
            intent.id,
            listed(&b)
        )
    })
}
