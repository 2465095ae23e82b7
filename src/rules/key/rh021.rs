//! RH021 key-not-propagated: a link on the way that does not pass the key
//! (page `docs/rules/RH021.md`). Two ways: a copy that survives to the
//! effect because the key was lost on the way (from the analysis), and any
//! `calls`/`effects` link (or a `delivers_to` written `passes_key: false`,
//! an EventBridge API destination without an `Idempotency-Key` header)
//! downstream of the key's minting into a dependency
//! that takes a key (a provider with `accepts_key`, or a guard) without
//! passing it, even when an upstream guard stops every duplicate: after a
//! crash between the effect and the guard's completion the dependency's
//! dedup is the only backstop. A dependency that takes no key is quiet.

use std::collections::BTreeSet;

use crate::analysis::{Analysis, Class, IntentResult};
use crate::manifest::model::{Intent, LinkType};
use crate::rules::surviving::Surviving;
use crate::rules::{Code, Ctx, Finding};

pub(crate) fn emit(ctx: &Ctx, out: &mut Vec<Finding>) {
    for r in &ctx.a.intents {
        let mut reported = BTreeSet::new();
        for (class, copy) in Surviving::of(ctx.a, r) {
            if class == Class::Lost && copy.dup.bypass.lost_key.is_some() {
                reported.extend(finding(&copy, out));
            }
        }
        unpassed(ctx, r, &reported, out);
    }
}

/// The components a copy carrying the key reaches: those reached from
/// where the key is minted (every reached one when that is the origin).
fn keyed(a: &Analysis, r: &IntentResult, intent: &Intent) -> BTreeSet<usize> {
    let Some(mint) = intent.minted_at().index().filter(|&c| r.reaches(c)) else {
        return BTreeSet::new();
    };
    let mut seen = BTreeSet::from([mint]);
    let mut todo = vec![mint];
    while let Some(c) = todo.pop() {
        for e in r.edges_from(c) {
            let to = a.model.edges[e].to();
            if r.reaches(to) && seen.insert(to) {
                todo.push(to);
            }
        }
    }
    seen
}

/// RH021 for the links no surviving copy shows: a `calls`, `effects` or
/// `delivers_to` link from a keyed component into a dependency that takes a key, not
/// passing it. Only the intent's own links: one that leads only to other
/// intents' effects is theirs to report.
fn unpassed(ctx: &Ctx, r: &IntentResult, reported: &BTreeSet<usize>, out: &mut Vec<Finding>) {
    let (a, m) = (ctx.a, ctx.m);
    let intent = &m.intents[r.intent];
    for c in keyed(a, r, intent) {
        for e in r.edges_from(c) {
            let em = &a.model.edges[e];
            let to = &m.components[em.to()];
            let takes = if a.model.nodes[em.to()].guard.is_some() {
                "claims it in its guard"
            } else if ctx.values(em.to()).accepts_key() {
                "deduplicates by it"
            } else {
                continue;
            };
            if em.passes_key
                || !matches!(
                    em.ty,
                    LinkType::Calls | LinkType::Effects | LinkType::DeliversTo
                )
                || reported.contains(&e)
            {
                continue;
            }
            out.push(
                Finding::new(
                    Code::RH021,
                    format!(
                        "`{}` → `{}` ({}) does not pass the key, though `{}` {takes}: a copy no guard before it stops (a crash between the effect and the guard's completion) reaches it unrecognised",
                        m.components[c].id,
                        to.id,
                        em.ty.field(),
                        to.id
                    ),
                )
                .intent(&intent.id)
                .component(&to.id)
                .at(em.loc),
            );
        }
    }
}

/// RH021: a link on the way that does not pass the key.
fn finding(copy: &Surviving, out: &mut Vec<Finding>) -> Option<usize> {
    let (a, effect, dup) = (copy.a, copy.effect, copy.dup);
    let m = a.manifest;
    let eid = &m.components[effect].id;
    let (layer, lost_at) = dup.bypass.lost_key.unwrap_or((effect, None));
    let edge_ix = lost_at.or(dup.lost_at);
    let edge = edge_ix.map(|e| &a.model.edges[e]);
    let (loc, link) = match edge {
        Some(em) => (
            em.loc,
            format!(
                "`{}` → `{}` ({})",
                m.components[em.from()].id,
                m.components[em.to()].id,
                em.ty.field()
            ),
        ),
        None => (m.components[effect].loc, "a link".to_string()),
    };
    let message = format!(
        "{link} does not pass the key, so `{}` cannot recognise {} and `{eid}` happens twice",
        m.components[layer].id,
        dup.birth.describe()
    );
    out.push(
        copy.finding(Code::RH021, message)
            .component(&m.components[edge.map_or(effect, |e| e.to())].id)
            .at(loc),
    );
    edge_ix
}
