//! RH050 platform-limit-violated: written values outside what the platform
//! documents (page `docs/rules/RH050.md`); an MRSC global table's
//! topology is checked in `mrsc.rs`.

use crate::catalog::{Kind, catalog, toml_dur};
use crate::diagnostics::Loc;
use crate::manifest::model::{Component, Sp};
use crate::rules::{Code, Ctx, Finding};
use crate::time::Dur;

/// RH050: values outside what the platform documents.
pub(crate) fn emit(ctx: &Ctx, out: &mut Vec<Finding>) {
    let m = ctx.m;
    for (comp, v) in m.components.iter().zip(ctx.all_values()) {
        let written: [(&str, Option<(Dur, Loc)>); 6] = [
            ("visibility_timeout", dur(comp.visibility_timeout())),
            ("retention", dur(comp.retention())),
            ("dedup_window", dur(comp.dedup_window())),
            ("max_event_age", dur(comp.max_event_age())),
            ("key_window", dur(comp.key_window())),
            (
                "max_receives",
                comp.max_receives().map(|c| (Dur::secs(c.value), c.loc)),
            ),
        ];
        for (field, value) in written {
            if let Some((value, loc)) = value {
                limit(comp, v.kind, field, value, loc, out);
            }
        }
        if let Some(dl) = comp.dead_letter()
            && let Some(n) = dl.after_receives()
        {
            limit(comp, v.kind, "max_receives", Dur::secs(n.value), n.loc, out);
        }
        super::mrsc::emit(comp, out);
    }
}

fn dur(sp: Option<&Sp<Dur>>) -> Option<(Dur, Loc)> {
    sp.map(|s| (s.value, s.loc))
}

fn limit(comp: &Component, kind: &Kind, field: &str, v: Dur, loc: Loc, out: &mut Vec<Finding>) {
    let Some(fact) = kind.fields.get(field) else {
        return;
    };
    let show = |d: Dur| {
        if field == "max_receives" {
            d.as_secs_ceil()
                .map_or("unbounded".into(), |n| n.to_string())
        } else {
            d.to_string()
        }
    };
    let title = kind.title.as_deref().unwrap_or(&kind.id);
    let problem = if fact.fixed {
        let fixed = fact.default.as_ref().and_then(toml_dur);
        match fixed {
            Some(f) if f != v => Some(format!(
                "{title} fixes `{field}` at {}; {} cannot be configured",
                show(f),
                show(v)
            )),
            _ => None,
        }
    } else {
        let min = fact.min.as_ref().and_then(toml_dur);
        let max = fact.max.as_ref().and_then(toml_dur);
        match (min, max) {
            (Some(lo), _) if v < lo => Some(format!(
                "`{}.{field}` is {}; {title} allows at least {}",
                comp.id,
                show(v),
                show(lo)
            )),
            (_, Some(hi)) if v > hi => Some(format!(
                "`{}.{field}` is {}; {title} allows at most {}",
                comp.id,
                show(v),
                show(hi)
            )),
            _ => None,
        }
    };
    if let Some(p) = problem {
        let cite = catalog().source(&fact.source).map_or_else(
            || fact.source.clone(),
            |s| format!("{}: {}", fact.source, s.url),
        );
        out.push(
            Finding::new(Code::RH050, format!("{p} ({cite})"))
                .component(&comp.id)
                .at(loc),
        );
    }
}
