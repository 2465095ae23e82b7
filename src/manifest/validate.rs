//! Cross-reference checks: every id a manifest names must exist, with the
//! right kind of thing behind it, and a suggestion when it is a typo.

use crate::catalog::{Generic, catalog};
use crate::diagnostics::{Diagnostic, suggest};
use crate::manifest::model::{LinkType, Manifest, Sp};

/// Checks the loaded manifest; returns every problem found.
pub fn validate(m: &Manifest) -> Vec<Diagnostic> {
    let mut errs = Vec::new();
    let comp_ids: Vec<&str> = m.components.iter().map(|c| c.id.as_str()).collect();
    let region_ids: Vec<&str> = m.regions.iter().map(|r| r.id.as_str()).collect();
    let kinds: Vec<&str> = catalog().kinds.iter().map(|k| k.id.as_str()).collect();

    let component = |errs: &mut Vec<Diagnostic>, r: &Sp<String>, what: &str| -> bool {
        if m.component(&r.value).is_some() {
            return true;
        }
        let mut d = Diagnostic::at(r.loc, format!("{what} `{}` is not a component", r.value))
            .label("unknown id");
        d = match suggest(&r.value, comp_ids.iter().copied()) {
            Some(s) => d.help(format!("did you mean `{s}`?")),
            None => d.help("define it under `components:` (in any of the files given)"),
        };
        errs.push(d);
        false
    };
    let region = |errs: &mut Vec<Diagnostic>, r: &Sp<String>, what: &str| {
        // Region ids are free-form when the manifest declares no regions.
        if m.regions.is_empty() || m.region(&r.value).is_some() {
            return;
        }
        let mut d = Diagnostic::at(
            r.loc,
            format!("{what} `{}` is not a declared region", r.value),
        )
        .label("unknown region");
        d = match suggest(&r.value, region_ids.iter().copied()) {
            Some(s) => d.help(format!("did you mean `{s}`?")),
            None => d.help(format!("declared regions: {}", region_ids.join(", "))),
        };
        errs.push(d);
    };

    for r in &m.regions {
        if let Some(f) = &r.failover_to {
            region(&mut errs, f, &format!("regions.{}.failover_to", r.id));
            if f.value == r.id {
                errs.push(Diagnostic::at(
                    f.loc,
                    format!("region `{}` fails over to itself", r.id),
                ));
            }
        }
    }

    for i in &m.intents {
        let p = format!("intents.{}", i.id);
        component(&mut errs, &i.origin, &format!("{p}.origin"));
        for e in &i.effects {
            component(&mut errs, e, &format!("{p}.effect"));
        }
        if let Some(at) = &i.key.minted_at {
            component(&mut errs, at, &format!("{p}.key.minted_at"));
        }
        for r in &i.replays {
            component(
                &mut errs,
                &r.enters_at,
                &format!("{p}.replays `{}`.enters_at", r.name),
            );
        }
    }

    for c in &m.components {
        let p = format!("components.{}", c.id);
        let kind = catalog().kind(&c.kind.value);
        if kind.is_none() {
            let mut d = Diagnostic::at(
                c.kind.loc,
                format!("{p}.kind: unknown kind `{}`", c.kind.value),
            )
            .label("not in the catalog");
            d = match suggest(&c.kind.value, kinds.iter().copied()) {
                Some(s) => d.help(format!("did you mean `{s}`? (`replay-audit catalog` lists the kinds)")),
                None => d.help("use a generic kind (service, function, workflow, queue, topic, stream, store, ledger, external) or one listed by `replay-audit catalog`"),
            };
            errs.push(d);
        }
        for r in &c.regions {
            region(&mut errs, r, &format!("{p}.regions"));
        }
        for l in c.links() {
            let what = format!("{p}.{}", l.ty.field());
            if component(&mut errs, &l.to, &what) && l.to.value == c.id && l.ty != LinkType::Redrive
            {
                errs.push(Diagnostic::at(
                    l.to.loc,
                    format!("{what}: `{}` links to itself", c.id),
                ));
            }
        }
        if let Some(g) = &c.dedup
            && component(&mut errs, &g.store, &format!("{p}.dedup.store"))
            && let (Some(store), Some(_)) = (m.component(&g.store.value), kind)
            && let Some(sk) = catalog().kind(&store.kind.value)
            && !sk.generic.is_store()
        {
            errs.push(
                Diagnostic::at(g.store.loc, format!("{p}.dedup.store: `{}` is a {}, not a store", store.id, sk.generic.name()))
                    .help("point `store` at a component of kind store, ledger or a store kind such as dynamodb-table"),
            );
        }
        if let Some(b) = &c.backup {
            for r in &b.restored_with {
                component(&mut errs, r, &format!("{p}.backup.restored_with"));
            }
        }
        if let (Some(r), Some(k)) = (&c.redrive, kind)
            && !k.generic.is_transport()
        {
            errs.push(
                Diagnostic::at(
                    r.loc,
                    format!(
                        "{p}.redrive: `{}` is a {}; only a queue, topic or stream can be redriven",
                        c.id,
                        k.generic.name()
                    ),
                )
                .help("put `redrive` on the dead-letter queue"),
            );
        }
        if let (Some(k), false) = (kind, c.delivers_to.is_empty())
            && !k.generic.is_transport()
            && k.generic != Generic::Function
        {
            errs.push(
                Diagnostic::at(
                    c.delivers_to[0].loc,
                    format!(
                        "{p}.delivers_to: a {} does not deliver messages",
                        k.generic.name()
                    ),
                )
                .help("a producer uses `sends_to` (to a queue, topic or stream) or `calls`"),
            );
        }
    }
    errs
}
