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
    let callers = Callers::of(ctx.m);
    for (c, intent) in ctx.reached() {
        if let Some(g) = &ctx.m.components[c].dedup
            && let Some(caller) = callers.of_component(ctx.m, c, ctx.generic(c) == Generic::Service)
        {
            guard(ctx.m, c, g, &caller, intent, out);
        }
    }
}

/// Who calls each component, found in one pass over the links (a search
/// of every component for each guard was quadratic).
struct Callers {
    /// The first component (in manifest order) that `calls` each one.
    first: Vec<Option<usize>>,
    /// Whether each component is an intent's origin.
    origin: Vec<bool>,
}

impl Callers {
    fn of(m: &Manifest) -> Callers {
        let mut first = vec![None; m.components.len()];
        for (x, comp) in m.components.iter().enumerate() {
            for l in comp.links_of(LinkType::Calls) {
                if let Some(slot) = l.to.index().and_then(|t| first.get_mut(t)) {
                    slot.get_or_insert(x);
                }
            }
        }
        let mut origin = vec![false; m.components.len()];
        for i in &m.intents {
            if let Some(slot) = i.origin.index().and_then(|o| origin.get_mut(o)) {
                *slot = true;
            }
        }
        Callers { first, origin }
    }

    /// Who waits for `c`'s answer, in words: the first component that
    /// `calls` it, else its client when it is a service (`service`) and an
    /// intent's origin.
    fn of_component(&self, m: &Manifest, c: usize, service: bool) -> Option<String> {
        match self.first[c] {
            Some(x) => Some(format!("`{}`, which calls it,", m.components[x].id)),
            None => (service && self.origin[c]).then(|| "its caller".to_string()),
        }
    }
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
