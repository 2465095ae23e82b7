//! Placeholders for what an imported manifest names but the input does not
//! describe: every id a link, dead letter, redrive, effect or dedup store
//! leads to becomes a component if no importer declared it, with a generic
//! kind chosen by the field (a dead letter is a `queue`, an effect
//! `external`, a store `store`) and a TODO. So `check` accepts every
//! importer's output, and an overlay with the same id sets the real kind.

use super::out::{F, Out, V};

/// The generic kind of an undeclared component named by field `key`.
fn kind_for(key: &str) -> &'static str {
    match key {
        "dead_letter" | "redrive" | "sends_to" => "queue",
        "effects" => "external",
        "store" => "store",
        _ => "service",
    }
}

/// The ids field `f` (of a component, or of its `dedup`) names, with the
/// kind a placeholder for each would have.
fn named(f: &F, into: &mut Vec<(String, &'static str)>) {
    let kind = kind_for(&f.key);
    let linked = crate::manifest::vocabulary::LINK_FIELDS.contains(&f.key.as_str());
    match &f.val {
        V::S(id) if linked || f.key == "store" => into.push((id.clone(), kind)),
        V::List(ids) if linked => into.extend(ids.iter().map(|id| (id.clone(), kind))),
        V::Map(fields) if linked => {
            for x in fields.iter().filter(|x| x.key == "to") {
                if let V::S(id) = &x.val {
                    into.push((id.clone(), kind));
                }
            }
        }
        V::Map(fields) if f.key == "dedup" => fields.iter().for_each(|x| named(x, into)),
        V::Items(items) if linked => {
            for x in items.iter().flatten().filter(|x| x.key == "to") {
                if let V::S(id) = &x.val {
                    into.push((id.clone(), kind));
                }
            }
        }
        _ => {}
    }
}

/// Adds a placeholder component for every id the components name and no
/// importer declared.
pub fn declare_missing(out: &mut Out) {
    let mut wanted: Vec<(String, &'static str, String)> = Vec::new();
    for c in &out.comps {
        let mut ids = Vec::new();
        for f in &c.fields {
            named(f, &mut ids);
        }
        wanted.extend(ids.into_iter().map(|(id, k)| (id, k, c.id.clone())));
    }
    for (id, kind, by) in wanted {
        if out.has(&id) || id.is_empty() {
            continue;
        }
        out.add(
            &id,
            kind,
            format!("named by `{by}` but not described in {}", out.file),
        );
        out.unresolved(
            &id,
            format!("TODO: `{id}` is referenced by `{by}`; declare its kind and settings (`replay-audit catalog` lists the kinds), here or in an overlay"),
        );
    }
}
