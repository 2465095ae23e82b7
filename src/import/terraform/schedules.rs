//! EventBridge Scheduler schedules (`aws_scheduler_schedule`) and
//! EventBridge Pipes (`aws_pipes_pipe`): the event sources that retry and
//! replay without a rule. They give the manifest a template's
//! `AWS::Scheduler::Schedule` and `AWS::Pipes::Pipe` give for the same
//! facts.
//!
//! No Scheduler or Pipes value is in the platform-facts reference yet, so
//! nothing here is a default: only what the configuration writes is
//! imported, and the kinds are generic (`topic` for a schedule, `service`
//! for a pipe), with `delivery: at-least-once` marked UNVERIFIED.

use super::Ctx;
use super::refs::first;
use crate::import::{F, Node, Out, V, dur};

const UNVERIFIED: &str = "UNVERIFIED: EventBridge Scheduler and Pipes retry failed invocations (not in the platform-facts reference)";

/// An `aws_scheduler_schedule`: its target as `delivers_to` with the
/// target's retry policy, its dead-letter queue and its flexible window.
pub(super) fn schedule(cx: &Ctx, out: &mut Out, id: &str) {
    out.set(
        id,
        F::new(
            "delivery",
            V::S("at-least-once".into()),
            Some(UNVERIFIED.into()),
        ),
    );
    if let Some(w) = first(cx.v("flexible_time_window"))
        && w.get("mode").and_then(Node::str) == Some("FLEXIBLE")
        && let Some(m) = w.get("maximum_window_in_minutes").and_then(Node::int)
    {
        let at = out.src(&cx.path("flexible_time_window"), w);
        out.note(id, format!("flexible_time_window FLEXIBLE {m} min ({at}): each invocation starts up to {} after its scheduled time (a delay, not a copy)", dur(m.max(0) as u64 * 60)));
    }
    let Some(t) = first(cx.v("target")) else {
        return;
    };
    let arn = t.get("arn");
    // A configuration keeps the references of the whole `target` block,
    // its dead-letter queue's among them: they name the target only when
    // the block has no dead-letter queue; else its ARN's value must.
    let refs = if first(t.get("dead_letter_config")).is_some() {
        ""
    } else {
        "target"
    };
    match cx.find_id(refs, arn) {
        Some(to) => target_link(cx, out, id, t, to),
        None => {
            let at = out.src(&cx.path("target"), t);
            let note = format!("TODO: delivers_to a target not in this configuration ({at})");
            out.unresolved(id, note);
            if first(t.get("retry_policy")).is_none() {
                no_retry_policy(cx, out, id, t);
            }
        }
    }
    // The dead-letter queue is read whether or not the target is.
    if let Some(d) = first(t.get("dead_letter_config")).and_then(|d| d.get("arn")) {
        dead_letter(cx, out, id, d, "target.dead_letter_config.arn");
    }
}

/// The schedule's `delivers_to` its target `to` (block `t`), with the
/// target's retry policy.
fn target_link(cx: &Ctx, out: &mut Out, id: &str, t: &Node, to: String) {
    // Scheduler invokes a function asynchronously (the Lambda developer
    // guide, "Invoke a Lambda function on a schedule").
    cx.asynchronous(&to);
    let arn = t.get("arn");
    let mut link = vec![F::new(
        "to",
        V::S(to),
        Some(out.src(&cx.path("target.arn"), arn.unwrap_or(t))),
    )];
    match first(t.get("retry_policy")) {
        Some(rp) => retry_policy(cx, out, id, rp, &mut link),
        None => no_retry_policy(cx, out, id, t),
    }
    out.push_link(id, "delivers_to", link);
}

/// The TODO of a target block `t` without a `retry_policy`.
fn no_retry_policy(cx: &Ctx, out: &mut Out, id: &str, t: &Node) {
    let at = out.src(&cx.path("target"), t);
    out.note(id, format!("TODO: no retry_policy on the target ({at}): the Scheduler default is not in the platform-facts reference; declare `retry` and `max_record_age`"));
}

/// A schedule target's `retry_policy`: `retry` and `max_record_age` on the
/// link, the age as the schedule's `max_event_age` and `retention`.
fn retry_policy(cx: &Ctx, out: &mut Out, id: &str, rp: &Node, link: &mut Vec<F>) {
    if let Some(n) = rp.get("maximum_retry_attempts")
        && let Some(x) = n.int().filter(|x| *x >= 0)
    {
        let c = out.src(&cx.path("target.retry_policy.maximum_retry_attempts"), n);
        link.push(F::retry_attempts(x, &c));
    }
    if let Some(n) = rp.get("maximum_event_age_in_seconds")
        && let Some(x) = n.int().filter(|x| *x > 0)
    {
        let c = out.src(
            &cx.path("target.retry_policy.maximum_event_age_in_seconds"),
            n,
        );
        let age = dur(x as u64);
        link.push(F::new("max_record_age", V::S(age.clone()), Some(c.clone())));
        out.set(
            id,
            F::new("max_event_age", V::S(age.clone()), Some(c.clone())),
        );
        let keep = format!("{c}: EventBridge keeps retrying an event this long");
        out.set(id, F::new("retention", V::S(age), Some(keep)));
    }
}

/// `dead_letter: {to}` on `id` from the ARN `n` (attribute `attr`), or a
/// TODO when it names nothing read here.
fn dead_letter(cx: &Ctx, out: &mut Out, id: &str, n: &Node, attr: &str) {
    let at = out.src(&cx.path(attr), n);
    let top = attr.split('.').next().unwrap_or(attr);
    match cx.find_id(top, Some(n)) {
        Some(to) => out.set(
            id,
            F::new(
                "dead_letter",
                V::Map(vec![F::new("to", V::S(to), Some(at))]),
                None,
            ),
        ),
        None => out.unresolved(
            id,
            format!("TODO: dead_letter to a queue not in this configuration ({at})"),
        ),
    }
}

/// The stream sources' parameter blocks of a pipe, and the SQS one.
const STREAM_PARAMETERS: [&str; 2] = ["kinesis_stream_parameters", "dynamodb_stream_parameters"];

/// An `aws_pipes_pipe`: the source delivers to the pipe (with a stream
/// source's retry settings and dead letter), the pipe calls its target.
pub(super) fn pipe(cx: &Ctx, out: &mut Out, id: &str) {
    let sp = first(cx.v("source_parameters"));
    match super::links::source_id(cx, out, "source") {
        Some(sid) => {
            let at = out.src(&cx.path("source"), cx.v("source").unwrap_or(cx.r.node));
            let mut link = vec![F::new("to", V::S(id.to_string()), Some(at))];
            if let Some(sp) = sp {
                source_parameters(cx, out, &sid, sp, &mut link);
            }
            out.push_link(&sid, "delivers_to", link);
        }
        None => out.unresolved(
            id,
            format!(
                "TODO: source not in this configuration ({})",
                cx.path("source")
            ),
        ),
    }
    let Some(to) = cx.find_id("target", cx.v("target")) else {
        return out.unresolved(
            id,
            format!(
                "TODO: calls a target not in this configuration ({})",
                cx.path("target")
            ),
        );
    };
    let at = out.src(&cx.path("target"), cx.v("target").unwrap_or(cx.r.node));
    out.push_link(id, "calls", vec![F::new("to", V::S(to.clone()), Some(at))]);
    let tp = first(cx.v("target_parameters"));
    let invocation = [
        "lambda_function_parameters",
        "step_function_state_machine_parameters",
    ]
    .into_iter()
    .find_map(|k| Some((k, first(tp?.get(k))?.get("invocation_type")?)));
    if let Some((k, n)) = invocation
        && n.str() == Some("FIRE_AND_FORGET")
    {
        // Lambda invokes a function that is not waited for asynchronously.
        if let Some(c) = out.comp(&to)
            && c.kind == "function"
        {
            c.kind = "lambda-async".into();
        }
        let at = out.src(
            &cx.path(&format!("target_parameters.{k}.invocation_type")),
            n,
        );
        out.note(id, format!("invocation_type FIRE_AND_FORGET ({at}): the pipe deletes the source message once `{to}` has started, so a failure of `{to}` is not redelivered by the source; its own asynchronous retries are the only ones"));
    }
}

/// The pipe's `source_parameters` on the link from source `sid`: a
/// stream's retries, record age and dead letter; the batch size as a note.
fn source_parameters(cx: &Ctx, out: &mut Out, sid: &str, sp: &Node, link: &mut Vec<F>) {
    let batch = STREAM_PARAMETERS
        .iter()
        .chain(&["sqs_queue_parameters"])
        .find_map(|k| Some((*k, first(sp.get(k))?)));
    let Some((k, p)) = batch else { return };
    let path = |a: &str| cx.path(&format!("source_parameters.{k}.{a}"));
    if let Some(n) = p.get("batch_size").and_then(|n| n.int().map(|x| (x, n))) {
        let at = out.src(&path("batch_size"), n.1);
        out.note(
            sid,
            format!(
                "the pipe hands its target batches of up to {} messages ({at})",
                n.0
            ),
        );
    }
    if !STREAM_PARAMETERS.contains(&k) {
        return;
    }
    if let Some(n) = p.get("maximum_retry_attempts")
        && let Some(x) = n.int().filter(|x| *x >= 0)
    {
        link.push(F::retry_attempts(
            x,
            &out.src(&path("maximum_retry_attempts"), n),
        ));
    }
    if let Some(n) = p.get("maximum_record_age_in_seconds")
        && let Some(x) = n.int().filter(|x| *x > 0)
    {
        let c = out.src(&path("maximum_record_age_in_seconds"), n);
        link.push(F::new("max_record_age", V::S(dur(x as u64)), Some(c)));
    }
    if let Some(d) = first(p.get("dead_letter_config")).and_then(|d| d.get("arn")) {
        dead_letter(
            cx,
            out,
            sid,
            d,
            &format!("source_parameters.{k}.dead_letter_config.arn"),
        );
    }
}
