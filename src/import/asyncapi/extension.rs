//! The `x-replay-audit` extension on an operation (its intent, key, dedup
//! store and effect), and the intents gathered from it across operations.

use std::collections::BTreeMap;

use crate::diagnostics::Diagnostic;
use crate::import::{F, Node, Out, OutIntent, V, Value, kebab, scalar};

/// What the operations' extensions say about one intent.
pub(super) struct Intent {
    origin: Option<String>,
    consumer: Option<String>,
    key: Option<Vec<String>>,
    effect: Option<String>,
    src: String,
}

/// The fields an `x-replay-audit` extension may have.
const FIELDS: &[&str] = &["intent", "key", "dedup", "effect"];

/// Reads extension `x` (at `path`) of operation component `id`, whose
/// action is `action`, recording what it says of its intent in `intents`.
pub(super) fn extension(
    out: &mut Out,
    id: &str,
    x: &Node,
    path: &str,
    action: &str,
    intents: &mut BTreeMap<String, Intent>,
) -> Result<(), Diagnostic> {
    check_fields(x, path)?;
    let src = out.src(path, x);
    let key = x
        .get("key")
        .map(|k| k.items().iter().filter_map(Node::text).collect::<Vec<_>>());
    if let Some(d) = x.get("dedup") {
        dedup(out, id, d, path, &src)?;
    }
    let effect = match x.get("effect") {
        Some(e) => Some(effect(out, id, e, path, &src)?),
        None => None,
    };
    if let Some(iid) = x.get("intent").and_then(Node::text) {
        let i = intents.entry(kebab(&iid)).or_insert(Intent {
            origin: None,
            consumer: None,
            key: None,
            effect: None,
            src: src.clone(),
        });
        if action == "send" {
            i.origin.get_or_insert(id.to_string());
        } else {
            i.consumer.get_or_insert(id.to_string());
        }
        if key.is_some() {
            i.key = key;
        }
        if effect.is_some() {
            i.effect = effect;
        }
    }
    Ok(())
}

/// Rejects a field of the extension that is not one of [`FIELDS`].
fn check_fields(x: &Node, path: &str) -> Result<(), Diagnostic> {
    for (k, _) in x.entries() {
        let k = k.key();
        if !FIELDS.contains(&k) {
            let help = match crate::diagnostics::suggest(k, FIELDS.iter().copied()) {
                Some(s) => format!("did you mean `{s}`?"),
                None => format!("the fields of x-replay-audit are: {}", FIELDS.join(", ")),
            };
            return Err(x.error_at(format!("unknown field `{k}` in `{path}`"), help));
        }
    }
    Ok(())
}

/// The extension's `dedup` `d`: the operation's dedup guard, and its store
/// component the first time it is named.
fn dedup(out: &mut Out, id: &str, d: &Node, path: &str, src: &str) -> Result<(), Diagnostic> {
    let Some(store) = d.get("store").and_then(Node::text) else {
        return Err(d.error_at(
            format!("`{path}.dedup` needs `store`"),
            "name the store that keeps the keys: `store: payout-keys`",
        ));
    };
    let store = kebab(&store);
    if !out.has(&store) {
        let kind = d
            .get("kind")
            .and_then(Node::text)
            .unwrap_or_else(|| "store".into());
        out.add(&store, &kind, format!("dedup store, {src}"));
        match d.get("retention").and_then(Node::text) {
            Some(r) => out.set(
                &store,
                F::new("retention", V::S(scalar(&r)), Some(src.to_string())),
            ),
            None => out.note(
                &store,
                "TODO: retention: how long a completed key is honoured".into(),
            ),
        }
    }
    let mut g = vec![F::new("store", V::S(store), Some(src.to_string()))];
    match d.get("claim").and_then(Node::text) {
        Some(c) => g.push(F::new("claim", V::S(scalar(&c)), Some(src.to_string()))),
        None => g.push(F::new(
            "claim",
            V::S("conditional-write".into()),
            Some("TODO: confirm how the key is claimed".into()),
        )),
    }
    out.set(id, F::new("dedup", V::Map(g), None));
    Ok(())
}

/// The extension's `effect` `e` (an id, or a map with `id`, `kind`,
/// `accepts_key`): an `effects` link from the operation, and the effect's
/// component the first time it is named; returns the effect's id.
fn effect(out: &mut Out, id: &str, e: &Node, path: &str, src: &str) -> Result<String, Diagnostic> {
    let (eid, kind) = match &e.value {
        Value::Map(_) => (
            e.get("id").and_then(Node::text).unwrap_or_default(),
            e.get("kind")
                .and_then(Node::text)
                .unwrap_or_else(|| "external".into()),
        ),
        _ => (e.text().unwrap_or_default(), "external".to_string()),
    };
    if eid.is_empty() {
        return Err(e.error_at(
            format!("`{path}.effect` needs an id"),
            "write `effect: bank-rail` or `effect: {id: bank-rail, kind: external}`",
        ));
    }
    let eid = kebab(&eid);
    if !out.has(&eid) {
        out.add(&eid, &kind, format!("effect, {src}"));
        if let Some(b) = e.get("accepts_key").and_then(Node::boolean) {
            out.set(
                &eid,
                F::new("accepts_key", V::S(b.to_string()), Some(src.to_string())),
            );
        } else {
            out.note(
                &eid,
                "TODO: accepts_key, lookup_by_reference, reconciliation".into(),
            );
        }
    }
    out.push_link(
        id,
        "effects",
        vec![
            F::new("to", V::S(eid.clone()), Some(src.to_string())),
            F::new(
                "passes_key",
                V::S("true".into()),
                Some("TODO: confirm the key reaches the effect".into()),
            ),
        ],
    );
    Ok(eid)
}

/// Writes the gathered intents to `out`: one with an origin and an effect
/// becomes an intent, one without an effect a note.
pub(super) fn write_intents(out: &mut Out, intents: BTreeMap<String, Intent>) {
    for (iid, i) in intents {
        let mut fields = Vec::new();
        let mut notes = Vec::new();
        let origin = i.origin.clone().or(i.consumer.clone());
        match &origin {
            Some(o) => fields.push(F::new(
                "origin",
                V::S(o.clone()),
                Some(format!("the sending operation, {}", i.src)),
            )),
            None => notes.push("TODO: origin".into()),
        }
        let Some(effect) = i.effect.clone() else {
            out.notes.push(format!(
                "TODO: intent {iid} ({}) names no effect: declare it in an overlay",
                i.src
            ));
            continue;
        };
        fields.push(F::new("effect", V::S(effect), Some(i.src.clone())));
        match &i.key {
            Some(k) => fields.push(F::new(
                "key",
                V::Map(vec![F::new(
                    "fields",
                    V::List(k.iter().map(|f| scalar(f)).collect()),
                    Some(i.src.clone()),
                )]),
                None,
            )),
            None => notes.push("TODO: key: the fields that name one business decision".into()),
        }
        notes.push("TODO: fingerprint, replays, tested".into());
        if origin.is_none() {
            continue;
        }
        out.intents.push(OutIntent {
            id: iid,
            fields,
            notes,
        });
    }
}
