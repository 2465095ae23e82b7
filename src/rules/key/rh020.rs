//! RH020 key-minted-per-attempt: a copy that carries a new key because the
//! key is minted per attempt or downstream of where the copy is born (page
//! `docs/rules/RH020.md`).

use crate::analysis::{BornAt, Class};
use crate::rules::surviving::Surviving;
use crate::rules::{Code, Ctx, Finding};

pub(crate) fn emit(ctx: &Ctx, out: &mut Vec<Finding>) {
    for r in &ctx.a.intents {
        for (class, copy) in Surviving::of(ctx.a, r) {
            if matches!(class, Class::Fresh | Class::Unminted)
                && copy.dup.bypass.fresh_key.is_some()
            {
                finding(&copy, out);
            }
        }
    }
}

/// RH020: a copy that carries a new key because the key is minted per
/// attempt or downstream of where the copy is born.
fn finding(copy: &Surviving, out: &mut Vec<Finding>) {
    let (a, intent, effect, dup) = (copy.a, copy.intent, copy.effect, copy.dup);
    let m = a.manifest;
    let eid = &m.components[effect].id;
    let layer = &m.components[dup.bypass.fresh_key.unwrap_or(effect)].id;
    let born = match dup.born_at {
        BornAt::Edge(e) => {
            let em = &a.model.edges[e];
            format!(
                "`{}` → `{}`",
                m.components[em.from()].id,
                m.components[em.to()].id
            )
        }
        _ => "its way".to_string(),
    };
    let minted = intent.minted_at();
    let declared = intent.key.loc.is_some();
    let loc = if declared {
        intent
            .key
            .minted
            .as_ref()
            .map(|x| x.loc)
            .or(intent.key.loc)
            .unwrap_or(minted.loc)
    } else {
        intent.loc
    };
    let why = if !declared {
        format!(
            "`{}` declares no key, so nothing ties it to the first request",
            intent.id
        )
    } else if intent.key.per_attempt() {
        format!("the key is minted per attempt at `{}`", minted.value)
    } else if intent.key.is_generated() {
        format!(
            "the key is random and `{}` mints a new one each time it runs, downstream of where the copy is born",
            minted.value
        )
    } else {
        format!(
            "the generated key is minted at `{}`, downstream of where the copy is born",
            minted.value
        )
    };
    let message = format!(
        "{} on {born} carries a new key because {why}; `{layer}` sees a new request and `{eid}` happens twice",
        dup.birth.describe()
    );
    out.push(
        copy.finding(Code::RH020, message)
            .component(&minted.value)
            .at(loc),
    );
}
