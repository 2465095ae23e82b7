//! Step Functions state machines: each Task state's Retry becomes the
//! retry of a `calls` link to the resource it invokes, through Parallel
//! branches and Map iterators; an `sqs:sendMessage` task is a `sends_to`
//! the queue, and a Catch that leads to one makes that queue a dead letter
//! the workflow writes (a new message, not one SQS moves); a DynamoDB
//! `putItem`/`updateItem`/`deleteItem` task calls the table its
//! `TableName` names. A Task's `TimeoutSeconds` is the timeout of each
//! attempt of its retry.

use std::collections::BTreeMap;

use super::intrinsics::Cf;
use super::{F, Node, Out, V, dur, relocate};

/// Step Functions: each Task state's Retry becomes the retry of a `calls`
/// link to the resource it invokes.
pub(super) fn state_machine(cf: &Cf, out: &mut Out, id: &str, r: &Node, base: &str) {
    let subs: BTreeMap<String, Node> = r
        .at(&["Properties", "DefinitionSubstitutions"])
        .map(Node::entries)
        .unwrap_or(&[])
        .iter()
        .map(|(k, v)| (k.key().to_string(), v.clone()))
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
    } else if let Some((k, d)) = ["DefinitionUri", "DefinitionS3Location"]
        .iter()
        .find_map(|k| r.at(&["Properties", k]).map(|d| (k, d)))
    {
        let path = format!("{base}.{k}");
        match super::definition_file::read(cf, out, d, &path) {
            Ok((node, file)) => (Some(node), format!("{path}[{file}]")),
            Err(note) => {
                out.note(id, note);
                return;
            }
        }
    } else {
        out.note(
            id,
            "TODO: the template gives no definition: retries not imported".into(),
        );
        return;
    };
    let Some(def) = def else {
        out.note(
            id,
            format!("TODO: the definition could not be read ({path})"),
        );
        return;
    };
    let mut links = Links::default();
    walk_states(cf, out, id, &def, &path, &subs, &mut links, 0);
    for (_, link) in links.calls {
        out.push_link(id, "calls", link);
    }
    for (_, link) in links.sends {
        out.push_link(id, "sends_to", link);
    }
}

/// The definition of a deployed state machine (the aws-export importer's):
/// its tasks' targets are found by the name their ARN or URL ends with
/// among `named` (component id, CloudFormation resource type, physical
/// name), as across templates.
pub(crate) fn deployed(
    out: &mut Out,
    id: &str,
    def: &Node,
    path: &str,
    named: &[(String, String, String)],
) {
    let mut by_name = super::intrinsics::Links::default();
    for (comp, ty, name) in named {
        // A key is never a logical id (those are alphanumeric).
        let key = format!("{comp} (deployed)");
        by_name
            .names
            .entry(name.clone())
            .or_default()
            .push(key.clone());
        by_name.keys.insert(key, (ty.clone(), comp.clone()));
    }
    let root = Node::new(crate::import::Value::Map(Vec::new()), def.loc);
    let limits = crate::manifest::Limits::default();
    let cf = Cf {
        root: &root,
        params: BTreeMap::new(),
        resources: Vec::new(),
        ids: BTreeMap::new(),
        limits: &limits,
        links: &by_name,
        label: String::new(),
        bound: BTreeMap::new(),
    };
    let mut links = Links::default();
    walk_states(&cf, out, id, def, path, &BTreeMap::new(), &mut links, 0);
    for (_, link) in links.calls {
        out.push_link(id, "calls", link);
    }
    for (_, link) in links.sends {
        out.push_link(id, "sends_to", link);
    }
}

/// The links a definition's tasks make, one per target.
#[derive(Default)]
struct Links {
    calls: Vec<(String, Vec<F>)>,
    sends: Vec<(String, Vec<F>)>,
}

const SEND_MESSAGE: &str = "arn:aws:states:::sqs:sendMessage";

/// The queue an `sqs:sendMessage` task state sends to, with its source.
fn sent_to(
    cf: &Cf,
    subs: &BTreeMap<String, Node>,
    out: &Out,
    st: &Node,
    spath: &str,
) -> Option<Result<(String, String), String>> {
    let resource = st
        .get("Resource")
        .and_then(|n| cf.lit(n))
        .and_then(|n| n.text())?;
    if !resource.starts_with(SEND_MESSAGE) {
        return None;
    }
    let (k, url) = ["Parameters", "Arguments"]
        .iter()
        .find_map(|k| st.at(&[k, "QueueUrl"]).map(|u| (k, u)))?;
    let src = out.src(&format!("{spath}.{k}.QueueUrl"), url);
    Some(
        component(cf, subs, url)
            .map(|q| (q, src.clone()))
            .ok_or(src),
    )
}

/// Notes for the Catch blocks of task `name` that lead to a state sending
/// to a queue: a dead-letter queue the workflow writes.
#[allow(clippy::too_many_arguments)]
fn catches(
    cf: &Cf,
    subs: &BTreeMap<String, Node>,
    out: &mut Out,
    id: &str,
    states: &BTreeMap<&str, &Node>,
    name: &str,
    st: &Node,
    spath: &str,
) {
    for (i, c) in st
        .get("Catch")
        .map(Node::items)
        .unwrap_or(&[])
        .iter()
        .enumerate()
    {
        let Some(next) = c.get("Next").and_then(Node::str) else {
            continue;
        };
        let Some(target) = states.get(next) else {
            continue;
        };
        let npath = format!("{spath}.Catch[{i}]");
        let Some(Ok((queue, _))) = sent_to(cf, subs, out, target, &npath) else {
            continue;
        };
        let errors: Vec<String> = c
            .get("ErrorEquals")
            .map(Node::items)
            .unwrap_or(&[])
            .iter()
            .filter_map(|e| e.text())
            .collect();
        out.note(
            id,
            format!(
                "task {name} catches {} and goes to {next}, which sends to `{queue}` ({}): a dead-letter queue the workflow writes, not SQS; the message is new, so its retention counts from that send",
                if errors.is_empty() { "errors".to_string() } else { errors.join(", ") },
                out.src(&npath, c)
            ),
        );
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
    links: &mut Links,
    depth: usize,
) {
    if depth > 16 {
        return;
    }
    let entries = def.get("States").map(Node::entries).unwrap_or(&[]);
    // By name, for the Catch blocks' `Next` (one look-up each).
    let states: BTreeMap<&str, &Node> = entries.iter().map(|(k, v)| (k.key(), v)).collect();
    for (name, st) in entries {
        let name = name.key();
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
                links,
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
                    links,
                    depth + 1,
                );
            }
        }
        if st.get("Type").and_then(Node::str) != Some("Task") {
            continue;
        }
        catches(cf, subs, out, id, &states, name, st, &spath);
        match sent_to(cf, subs, out, st, &spath) {
            Some(Ok((queue, src))) => {
                if !links.sends.iter().any(|(t, _)| t == &queue) {
                    let link = vec![F::new(
                        "to",
                        V::S(queue.clone()),
                        Some(format!(
                            "{src}: task {name} sends a message (sqs:sendMessage)"
                        )),
                    )];
                    links.sends.push((queue, link));
                }
                continue;
            }
            Some(Err(src)) => {
                out.unresolved(
                    id,
                    format!("TODO: task {name} sends to a queue not in this template ({src})"),
                );
                continue;
            }
            None => {}
        }
        if let Some((to, link)) = task_call(cf, out, id, name, st, &spath, subs)
            && !links.calls.iter().any(|(t, _)| t == &to)
        {
            links.calls.push((to, link));
        }
    }
}

/// The component a task's target names: an intrinsic (`!GetAtt
/// PayFunction.Arn`, `!Ref`), a `${Var}` of `DefinitionSubstitutions`, or
/// an ARN or name of a resource.
fn component(cf: &Cf, subs: &BTreeMap<String, Node>, t: &Node) -> Option<String> {
    let resolved = cf.target(t).ok().map(|(r, _)| r).or_else(|| {
        let text = t.text()?;
        match text.strip_prefix("${").and_then(|x| x.strip_suffix('}')) {
            Some(var) if subs.contains_key(var) => cf.target(&subs[var]).ok().map(|(r, _)| r),
            _ => None,
        }
    })?;
    cf.id(&resolved).cloned()
}

/// The Step Functions DynamoDB integrations that write an item.
const DYNAMODB_WRITES: [&str; 3] = ["putItem", "updateItem", "deleteItem"];

/// The DynamoDB write a Task state performs (`dynamodb:putItem`), if any:
/// its `TableName` names the table the workflow calls.
fn dynamodb_write(cf: &Cf, st: &Node) -> Option<String> {
    let resource = st
        .get("Resource")
        .and_then(|n| cf.lit(n))
        .and_then(|n| n.text())?;
    let action = resource.strip_prefix("arn:aws:states:::dynamodb:")?;
    DYNAMODB_WRITES
        .contains(&action)
        .then(|| format!("dynamodb:{action}"))
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
    let write = dynamodb_write(cf, st);
    let named = if write.is_some() {
        "TableName"
    } else {
        "FunctionName"
    };
    let target = st
        .at(&["Parameters", named])
        .or_else(|| st.at(&["Arguments", named]))
        .or_else(|| st.get("Resource"));
    let to = target.and_then(|t| component(cf, subs, t));
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
    let at = match write {
        Some(w) => format!("{}: task {name} writes the table ({w})", out.src(spath, st)),
        None => out.src(spath, st),
    };
    let mut link = vec![F::new("to", V::S(to.clone()), Some(at))];
    let timeout = attempt_timeout(cf, out, id, name, st, spath, best.is_some());
    if let Some((i, r)) = best {
        let rp = format!("{spath}.Retry[{i}]");
        link.push(retry(out, r, &rp, timeout));
        if let Some(j) = r.get("JitterStrategy").filter(|j| j.str() == Some("FULL")) {
            out.note(
                id,
                format!(
                    "task {name}: JitterStrategy FULL ({}) draws each delay at random up to the computed one; the horizon keeps the longest",
                    out.src(&format!("{rp}.JitterStrategy"), j)
                ),
            );
        }
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

/// The attempt timeout of a Task state: its `TimeoutSeconds`, as the
/// `timeout` of the retry (each attempt the interpreter fails with
/// `States.Timeout` after it, and a retrier may start the next); notes for
/// `HeartbeatSeconds` and for the `...Path` forms known only at run time.
/// `retried`: whether the task has a retrier (without one the timeout
/// spaces no retries and is only a note).
fn attempt_timeout(
    cf: &Cf,
    out: &mut Out,
    id: &str,
    name: &str,
    st: &Node,
    spath: &str,
    retried: bool,
) -> Option<F> {
    for k in ["TimeoutSecondsPath", "HeartbeatSecondsPath"] {
        if let Some(n) = st.get(k) {
            out.note(
                id,
                format!(
                    "TODO: task {name}: {k} is read from the input at run time ({}); declare the attempt's `timeout` on the retry",
                    out.src(&format!("{spath}.{k}"), n)
                ),
            );
        }
    }
    let secs = |k: &str| {
        st.get(k)
            .and_then(|n| Some((cf.lit(n)?.int().filter(|v| *v > 0)?, n)))
    };
    let timeout = secs("TimeoutSeconds");
    if let Some((h, n)) = secs("HeartbeatSeconds") {
        let hs = out.src(&format!("{spath}.HeartbeatSeconds"), n);
        out.note(
            id,
            format!(
                "task {name}: HeartbeatSeconds {} ({hs}) fails an attempt that sends no heartbeat for that long, earlier than its timeout; the attempt may still last {}",
                dur(h as u64),
                match timeout {
                    Some((t, _)) => format!("its TimeoutSeconds {}", dur(t as u64)),
                    None => "as long as the task runs (no TimeoutSeconds)".to_string(),
                }
            ),
        );
    }
    let (t, n) = timeout?;
    let src = out.src(&format!("{spath}.TimeoutSeconds"), n);
    if !retried {
        out.note(
            id,
            format!(
                "task {name}: TimeoutSeconds {} ({src}) and no Retry: the task is not retried",
                dur(t as u64)
            ),
        );
        return None;
    }
    Some(F::new(
        "timeout",
        V::S(dur(t as u64)),
        Some(format!(
            "{src}: Step Functions fails each attempt with States.Timeout after it (what the attempt started may still be running when the next begins)"
        )),
    ))
}

/// The `retry` of a link from the retrier `r` at `rp`, with the Step
/// Functions defaults for what it leaves out and the attempt's `timeout`.
fn retry(out: &Out, r: &Node, rp: &str, timeout: Option<F>) -> F {
    let get = |k: &str| r.get(k);
    let attempts = get("MaxAttempts").and_then(Node::int).unwrap_or(3);
    let interval = get("IntervalSeconds").and_then(Node::int).unwrap_or(1);
    let rate = get("BackoffRate").and_then(Node::float).unwrap_or(2.0);
    let src = |k: &str, dflt: &str| match get(k) {
        Some(n) => out.src(&format!("{rp}.{k}"), n),
        None => format!("Step Functions default {dflt} (UNVERIFIED: not in the platform facts)"),
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
    if let Some(t) = timeout {
        rf.insert(1, t);
    }
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
