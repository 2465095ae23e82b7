//! RH050 platform-limit-violated: written values outside what the platform
//! documents (page `docs/rules/RH050.md`); an MRSC global table's
//! topology is checked in `mrsc.rs`.

use crate::catalog::{Kind, catalog, toml_dur};
use crate::diagnostics::Loc;
use crate::manifest::model::Component;
use crate::manifest::model::{Field, LinkField};
use crate::rules::{Code, Ctx, Finding};
use crate::time::Dur;

/// RH050: values outside what the platform documents.
pub(crate) fn emit(ctx: &Ctx, out: &mut Vec<Finding>) {
    let m = ctx.m;
    for (comp, v) in m.components.iter().zip(ctx.all_values()) {
        let durations = [
            Field::VisibilityTimeout,
            Field::Retention,
            Field::DedupWindow,
            Field::MaxEventAge,
            Field::KeyWindow,
        ];
        let written = durations
            .into_iter()
            .map(|f| (f, comp.dur(f).map(|d| (d.value, d.loc))))
            .chain([(
                Field::MaxReceives,
                comp.count(Field::MaxReceives)
                    .map(|c| (Dur::secs(c.value), c.loc)),
            )]);
        for (field, value) in written {
            if let Some((value, loc)) = value {
                limit(comp, v.kind, field, value, loc, out);
            }
        }
        if let Some(dl) = comp.dead_letter()
            && let Some(n) = dl.count(LinkField::AfterReceives)
        {
            let n = (Dur::secs(n.value), n.loc);
            limit(comp, v.kind, Field::MaxReceives, n.0, n.1, out);
        }
        super::mrsc::emit(comp, out);
    }
}

fn limit(comp: &Component, kind: &Kind, field: Field, v: Dur, loc: Loc, out: &mut Vec<Finding>) {
    let name = field.name();
    let Some(fact) = kind.fields.get(name) else {
        return;
    };
    let show = |d: Dur| {
        if field == Field::MaxReceives {
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
                "{title} fixes `{name}` at {}; {} cannot be configured",
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
                "`{}.{name}` is {}; {title} allows at least {}",
                comp.id,
                show(v),
                show(lo)
            )),
            (_, Some(hi)) if v > hi => Some(format!(
                "`{}.{name}` is {}; {title} allows at most {}",
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
