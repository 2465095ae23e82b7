//! RH036 result-not-stored: duplicates do not get the original result
//! (page `docs/rules/RH036.md`). Only where a caller waits for the answer:
//! a component `calls` the guard, or the guard is a service that is an
//! intent's origin (an API, whose client waits); a consumer reached only by
//! `delivers_to` or `sends_to` answers no one, so a duplicate there has
//! nobody to return a result to.

use crate::catalog::Generic;
use crate::manifest::model::{Guard, LinkType, Manifest};
use crate::rules::{Code, Ctx, Finding};

pub(crate) fn emit(ctx: &Ctx, out: &mut Vec<Finding>) {
    for (c, intent) in ctx.reached() {
        if let Some(g) = &ctx.m.components[c].dedup
            && let Some(caller) = caller(ctx.m, c, ctx.generic(c) == Generic::Service)
        {
            guard(ctx.m, c, g, &caller, intent, out);
        }
    }
}

/// Who waits for `c`'s answer, in words: the first component that `calls`
/// it, else its client when it is a service (`service`) and an intent's
/// origin.
fn caller(m: &Manifest, c: usize, service: bool) -> Option<String> {
    m.components
        .iter()
        .find(|x| {
            x.links_of(LinkType::Calls)
                .iter()
                .any(|l| l.to.index() == Some(c))
        })
        .map(|x| format!("`{}`, which calls it,", x.id))
        .or_else(|| {
            (service && m.intents.iter().any(|i| i.origin.index() == Some(c)))
                .then(|| "its caller".to_string())
        })
}

/// RH036: the original result is not returned to duplicates.
fn guard(
    m: &Manifest,
    c: usize,
    guard: &Guard,
    caller: &str,
    intent: &str,
    out: &mut Vec<Finding>,
) {
    let comp = &m.components[c];
    if !guard.stores_result.as_ref().is_some_and(|s| s.value) {
        out.push(
            Finding::new(
                Code::RH036,
                format!(
                    "`{}` does not store the result with the key{}: when a retry or a re-sent request repeats the key, {caller} gets a refusal or a re-execution instead of the original answer",
                    comp.id,
                    if guard.stores_result.is_none() { " (stores_result is not declared)" } else { "" }
                ),
            )
            .intent(intent)
            .component(&comp.id)
            .at(guard.stores_result.as_ref().map_or(guard.loc, |s| s.loc)),
        );
    }
}
