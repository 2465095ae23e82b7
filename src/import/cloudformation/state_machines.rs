//! Step Functions state machines: each Task state's Retry becomes the
//! retry of a `calls` link to the resource it invokes, through Parallel
//! branches and Map iterators.

use std::collections::BTreeMap;

use super::intrinsics::Cf;
use super::{F, Node, Out, V, Value, dur, relocate};

/// Step Functions: each Task state's Retry becomes the retry of a `calls`
/// link to the resource it invokes.
pub(super) fn state_machine(cf: &Cf, out: &mut Out, id: &str, r: &Node, base: &str) {
    let subs: BTreeMap<String, Node> = r
        .at(&["Properties", "DefinitionSubstitutions"])
        .map(Node::entries)
        .unwrap_or(&[])
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let (def, path) = if let Some(d) = r.at(&["Properties", "Definition"]) {
        (cf.lit(d), format!("{base}.Definition"))
    } else if let Some(d) = r.at(&["Properties", "DefinitionString"]) {
        let text = cf.lit(d).and_then(|n| n.text());
        let node = text
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .map(|j| {
                let mut n = crate::import::tree::from_json(j, d.loc.file);
                relocate(&mut n, d.loc);
                n
            });
        (node, format!("{base}.DefinitionString"))
    } else {
        out.note(id, "TODO: the definition is not inline (DefinitionS3Location / DefinitionUri): retries not imported".into());
        return;
    };
    let Some(def) = def else {
        out.note(
            id,
            format!("TODO: the definition could not be read ({path})"),
        );
        return;
    };
    let mut calls: Vec<(String, Vec<F>)> = Vec::new();
    walk_states(cf, out, id, &def, &path, &subs, &mut calls, 0);
    for (_, link) in calls {
        out.push_link(id, "calls", link);
    }
}

#[allow(clippy::too_many_arguments)]
fn walk_states(
    cf: &Cf,
    out: &mut Out,
    id: &str,
    def: &Node,
    path: &str,
    subs: &BTreeMap<String, Node>,
    calls: &mut Vec<(String, Vec<F>)>,
    depth: usize,
) {
    if depth > 16 {
        return;
    }
    for (name, st) in def.get("States").map(Node::entries).unwrap_or(&[]) {
        let spath = format!("{path}.States.{name}");
        for (i, b) in st
            .get("Branches")
            .map(Node::items)
            .unwrap_or(&[])
            .iter()
            .enumerate()
        {
            walk_states(
                cf,
                out,
                id,
                b,
                &format!("{spath}.Branches[{i}]"),
                subs,
                calls,
                depth + 1,
            );
        }
        for k in ["Iterator", "ItemProcessor"] {
            if let Some(inner) = st.get(k) {
                walk_states(
                    cf,
                    out,
                    id,
                    inner,
                    &format!("{spath}.{k}"),
                    subs,
                    calls,
                    depth + 1,
                );
            }
        }
        if st.get("Type").and_then(Node::str) != Some("Task") {
            continue;
        }
        if let Some((to, link)) = task_call(cf, out, id, name, st, &spath, subs)
            && !calls.iter().any(|(t, _)| t == &to)
        {
            calls.push((to, link));
        }
    }
}

/// The `calls` link of a Task state (`name` at `spath`), or none (with a
/// note) when it calls something outside the template.
fn task_call(
    cf: &Cf,
    out: &mut Out,
    id: &str,
    name: &str,
    st: &Node,
    spath: &str,
    subs: &BTreeMap<String, Node>,
) -> Option<(String, Vec<F>)> {
    let target = st
        .at(&["Parameters", "FunctionName"])
        .or_else(|| st.at(&["Arguments", "FunctionName"]))
        .or_else(|| st.get("Resource"));
    let resolved = target.and_then(|t| {
        // An intrinsic (`!GetAtt PayFunction.Arn`, `!Ref`) names the resource itself.
        if let Ok((r, _)) = cf.target(t) {
            return Some(r);
        }
        let text = t.text()?;
        let text = match text.strip_prefix("${").and_then(|x| x.strip_suffix('}')) {
            Some(var) if subs.contains_key(var) => {
                return cf.target(&subs[var]).ok().map(|(r, _)| r);
            }
            _ => text,
        };
        cf.target(&Node::new(Value::Str(text), t.loc))
            .ok()
            .map(|(r, _)| r)
    });
    let to = resolved.and_then(|r| cf.ids.get(&r).cloned());
    let retriers = st.get("Retry").map(Node::items).unwrap_or(&[]);
    let best = retriers
        .iter()
        .enumerate()
        .max_by_key(|(_, r)| r.get("MaxAttempts").and_then(Node::int).unwrap_or(3));
    let Some(to) = to else {
        let t = target.map(Node::brief).unwrap_or_else(|| "?".into());
        out.note(
            id,
            format!(
                "TODO: task {name} calls `{t}`, not a resource of this template ({})",
                out.src(spath, st)
            ),
        );
        return None;
    };
    let mut link = vec![F::new("to", V::S(to.clone()), Some(out.src(spath, st)))];
    if let Some((i, r)) = best {
        link.push(retry(out, r, &format!("{spath}.Retry[{i}]")));
        if retriers.len() > 1 {
            out.note(
                id,
                format!(
                    "task {name} has {} retriers; the one with the most attempts is imported ({})",
                    retriers.len(),
                    out.src(spath, st)
                ),
            );
        }
    }
    link.push(F::new(
        "passes_key",
        V::S("false".into()),
        Some("TODO: does the task pass the idempotency key?".into()),
    ));
    Some((to, link))
}

/// The `retry` of a link from the retrier `r` at `rp`, with the Step
/// Functions defaults for what it leaves out.
fn retry(out: &Out, r: &Node, rp: &str) -> F {
    let get = |k: &str| r.get(k);
    let attempts = get("MaxAttempts").and_then(Node::int).unwrap_or(3);
    let interval = get("IntervalSeconds").and_then(Node::int).unwrap_or(1);
    let rate = get("BackoffRate").and_then(Node::float).unwrap_or(2.0);
    let src = |k: &str, dflt: &str| match get(k) {
        Some(n) => out.src(&format!("{rp}.{k}"), n),
        None => format!("Step Functions default {dflt}"),
    };
    let mut rf = vec![
        F::new(
            "attempts",
            V::S((attempts.max(0) + 1).to_string()),
            Some(format!(
                "{}: {attempts} retries + the first attempt",
                src("MaxAttempts", "3")
            )),
        ),
        F::new(
            "backoff",
            V::S(dur(interval.max(0) as u64)),
            Some(src("IntervalSeconds", "1s")),
        ),
        F::new(
            "multiplier",
            V::S(if rate >= 1.0 {
                format!("{rate}")
            } else {
                "1".into()
            }),
            Some(src("BackoffRate", "2.0")),
        ),
    ];
    if let Some(n) = get("MaxDelaySeconds")
        && let Some(v) = n.int()
    {
        rf.push(F::new(
            "max_backoff",
            V::S(dur(v.max(0) as u64)),
            Some(out.src(&format!("{rp}.MaxDelaySeconds"), n)),
        ));
    }
    F::new("retry", V::Map(rf), None)
}
