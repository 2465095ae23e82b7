//! RH039 in-progress-expires-during-call: a guard's in-progress claim that
//! expires before the call it guards can have finished (page
//! `docs/rules/RH039.md`).
//!
//! The longest single attempt at the guarded component is the longest
//! per-attempt timeout of its `calls` and `effects` (a link's `retry.timeout`,
//! else its `timeout`), cut to the component's own timeout where that is
//! shorter (the function is stopped then); with no per-call timeout, the
//! component's timeout. A claim whose `expires_after` is shorter lets a
//! copy that arrives in between claim the key again while the first call
//! still runs. What `on_expiry` says does not help: a reconciliation run
//! then finds no effect yet, since the first call has not finished.

use crate::manifest::model::LinkField;
use crate::manifest::model::{Link, LinkType, Manifest};
use crate::rules::{Code, Ctx, Finding};
use crate::time::Dur;

pub(crate) fn emit(ctx: &Ctx, out: &mut Vec<Finding>) {
    for (c, intent) in ctx.reached() {
        let comp = &ctx.m.components[c];
        let Some(guard) = &comp.dedup else { continue };
        let Some(expires) = guard
            .in_progress
            .as_ref()
            .and_then(|ip| ip.expires_after.as_ref())
        else {
            continue;
        };
        let Some((attempt, what)) = longest_attempt(ctx, c) else {
            continue;
        };
        if expires.value < attempt {
            out.push(
                Finding::new(
                    Code::RH039,
                    format!(
                        "`{}` lets its in-progress claim expire after {}, but {what}: {} that arrives after {} claims the key again while the first attempt still runs, and the effect happens twice",
                        comp.id,
                        expires.value,
                        copy_maker(ctx.m, c),
                        expires.value,
                    ),
                )
                .intent(intent)
                .component(&comp.id)
                .at(expires.loc),
            );
        }
    }
}

/// The per-attempt timeout of a link: its retry's `timeout`, else its own.
fn link_timeout(l: &Link) -> Option<Dur> {
    l.retry
        .as_ref()
        .and_then(|r| r.timeout.as_ref())
        .or(l.dur(LinkField::Timeout))
        .map(|t| t.value)
}

/// The longest single attempt at component `c`, and a clause saying what
/// bounds it.
fn longest_attempt(ctx: &Ctx, c: usize) -> Option<(Dur, String)> {
    let comp = &ctx.m.components[c];
    let own = ctx.values(c).timeout();
    let call = comp
        .links()
        .filter(|l| matches!(l.ty, LinkType::Calls | LinkType::Effects))
        .filter_map(|l| Some((link_timeout(l)?, l)))
        .max_by_key(|(t, _)| *t);
    match (call, own) {
        (Some((t, l)), Some(own)) if own.value < t => Some((
            own.value,
            format!(
                "its call to `{}` may run {} (its timeout is {t}, cut by `{}`'s own timeout{})",
                l.to,
                own.value,
                comp.id,
                own.provenance()
            ),
        )),
        (Some((t, l)), _) => Some((
            t,
            format!("its call to `{}` may run {t} (the call's timeout)", l.to),
        )),
        (None, Some(own)) => Some((
            own.value,
            format!(
                "an attempt of `{}` may run {} (its timeout{})",
                comp.id,
                own.value,
                own.provenance()
            ),
        )),
        (None, None) => None,
    }
}

/// What makes the copy that finds the claim expired: who delivers or
/// retries into `c`, in words.
fn copy_maker(m: &Manifest, c: usize) -> String {
    let mut makers: Vec<String> = Vec::new();
    for x in &m.components {
        for l in x.links().filter(|l| l.to.index() == Some(c)) {
            let what = match l.ty {
                LinkType::DeliversTo => format!("a redelivery by `{}`", x.id),
                LinkType::Redrive => format!("a redrive from `{}`", x.id),
                LinkType::Calls | LinkType::SendsTo if l.retry.is_some() => {
                    format!("a retry by `{}`", x.id)
                }
                _ => continue,
            };
            if !makers.contains(&what) {
                makers.push(what);
            }
        }
    }
    match makers.len() {
        0 => "a copy".to_string(),
        _ => makers.join(" or "),
    }
}
