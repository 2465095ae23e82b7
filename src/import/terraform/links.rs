//! The plan resources that wire components together: Lambda event source
//! mappings and asynchronous invoke configs, EventBridge targets (SNS
//! subscriptions are in `subscriptions`, S3 notifications in `s3`; how a
//! function is invoked sets its kind in `functions`).

use super::Ctx;
use super::refs::first;
use crate::import::{F, Node, Out, V, dur};

/// An `aws_lambda_event_source_mapping`: a `delivers_to` link from the
/// source (a DynamoDB table's stream, created here) to the function.
pub(super) fn event_source_mapping(cx: &Ctx, out: &mut Out) {
    let res = cx.res;
    let src = cx.find("event_source_arn", cx.v("event_source_arn"));
    let func = cx.find("function_name", cx.v("function_name"));
    let (Some(s), Some(f)) = (
        src.and_then(|j| res[j].id.clone()),
        func.and_then(|j| res[j].id.clone()),
    ) else {
        return cx.unsupported(out, "source or function not in this plan");
    };
    let s = if res[src.unwrap_or(0)].ty == "aws_dynamodb_table" {
        dynamodb_stream(out, &s, &res[src.unwrap_or(0)])
    } else {
        s
    };
    let link = mapping_link(cx, out, &s, &f);
    out.push_link(&s, "delivers_to", link);
    let dest = first(cx.v("destination_config"))
        .and_then(|d| first(d.get("on_failure")))
        .and_then(|o| o.get("destination_arn"));
    if let Some(d) = dest
        && let Some(to) = cx.find_id("destination_config", Some(d))
    {
        let c = out.src(&cx.path("destination_config.on_failure.destination_arn"), d);
        out.set(
            &s,
            F::new(
                "dead_letter",
                V::Map(vec![F::new("to", V::S(to), Some(c))]),
                None,
            ),
        );
    }
    // A function read here (not a module's placeholder) is polled.
    if res[func.unwrap_or(0)].ty == "aws_lambda_function" {
        cx.mapped(&f);
    }
}

/// The component a pipe's `attr` reads: the resource it names, or for a
/// DynamoDB table the table's stream (a table delivers nothing itself).
pub(super) fn source_id(cx: &Ctx, out: &mut Out, attr: &str) -> Option<String> {
    let j = cx.find(attr, cx.v(attr))?;
    let id = cx.res[j].id.clone()?;
    Some(if cx.res[j].ty == "aws_dynamodb_table" {
        dynamodb_stream(out, &id, &cx.res[j])
    } else {
        id
    })
}

/// The stream component of DynamoDB table `table` (resource `t`), added
/// the first time a mapping reads it, which the table `sends_to`; returns
/// its id. Its retention is not in the platform facts: a TODO asks for it
/// (until then the analysis states its assumption, RH041).
fn dynamodb_stream(out: &mut Out, table: &str, t: &super::Res) -> String {
    let sid = format!("{table}-stream");
    if !out.has(&sid) {
        out.add(&sid, "stream", format!("DynamoDB stream of {}", t.address));
        out.note(&sid, "TODO: retention: how long the stream keeps a record (not in the platform facts); until it is declared the analysis assumes one (RH041)".into());
        let at = t.values.get("stream_enabled").unwrap_or(t.node);
        let c = out.src(&format!("{}.stream_enabled", t.address), at);
        out.push_link(
            table,
            "sends_to",
            vec![F::new("to", V::S(sid.clone()), Some(c))],
        );
    }
    sid
}

/// The fields of the mapping's link from source `s` to function `f`: its
/// retries and maximum record age, with notes on unbounded retries and
/// batch bisection.
fn mapping_link(cx: &Ctx, out: &mut Out, s: &str, f: &str) -> Vec<F> {
    let mut link = vec![F::new(
        "to",
        V::S(f.to_string()),
        Some(out.src(
            &cx.path("function_name"),
            cx.v("function_name").unwrap_or(cx.r.node),
        )),
    )];
    if let Some(n) = cx.v("maximum_retry_attempts")
        && let Some(x) = n.int()
    {
        let c = out.src(&cx.path("maximum_retry_attempts"), n);
        if x >= 0 {
            link.push(F::retry_attempts(x, &c));
        } else {
            out.note(s, format!("maximum_retry_attempts -1 on the mapping to {f}: retried until the record expires ({c})"));
        }
    }
    if let Some(n) = cx.v("maximum_record_age_in_seconds")
        && let Some(x) = n.int()
        && x > 0
    {
        let c = out.src(&cx.path("maximum_record_age_in_seconds"), n);
        link.push(F::new("max_record_age", V::S(dur(x as u64)), Some(c)));
    }
    if cx
        .v("bisect_batch_on_function_error")
        .and_then(Node::boolean)
        == Some(true)
    {
        out.note(s, format!("bisect_batch_on_function_error true on the mapping to {f}: a failing batch is split and its good records are processed again ({})", cx.path("bisect_batch_on_function_error")));
    }
    link
}

/// An `aws_lambda_function_event_invoke_config`: the function's event age,
/// retries and failure destination; it is `lambda-async` unless only a
/// mapping invokes it ([`super::functions`]).
pub(super) fn event_invoke_config(cx: &Ctx, out: &mut Out) {
    let Some(f) = cx.find_id("function_name", cx.v("function_name")) else {
        return cx.unsupported(out, "function not in this plan");
    };
    cx.async_config(&f);
    cx.set_dur(out, &f, "max_event_age", "maximum_event_age_in_seconds", 1);
    if let Some(n) = cx.v("maximum_retry_attempts")
        && let Some(x) = n.int()
    {
        let c = out.src(&cx.path("maximum_retry_attempts"), n);
        out.note(
            &f,
            format!("asynchronous invocation retries a failed event {x} time(s) ({c})"),
        );
    }
    let dest = first(cx.v("destination_config"))
        .and_then(|d| first(d.get("on_failure")))
        .and_then(|o| o.get("destination"));
    if let Some(d) = dest
        && let Some(to) = cx.find_id("destination_config", Some(d))
    {
        let c = out.src(&cx.path("destination_config.on_failure.destination"), d);
        out.set(
            &f,
            F::new(
                "dead_letter",
                V::Map(vec![F::new("to", V::S(to), Some(c))]),
                None,
            ),
        );
    }
}

/// An `aws_cloudwatch_event_target`: a `delivers_to` link from the rule to
/// the target, with its retry policy and dead-letter queue.
pub(super) fn event_target(cx: &Ctx, out: &mut Out) {
    let rule = cx.v("rule").and_then(Node::text).and_then(|name| {
        cx.res.iter().find(|x| {
            x.ty == "aws_cloudwatch_event_rule"
                && x.values.get("name").and_then(Node::str) == Some(name.as_str())
        })
    });
    let rule = rule
        .and_then(|x| x.id.clone())
        .or_else(|| cx.find_id("rule", None));
    let target = cx.find_id("arn", cx.v("arn"));
    let (Some(rule), Some(target)) = (rule, target) else {
        return cx.unsupported(out, "rule or target not in this plan");
    };
    let mut link = vec![F::new(
        "to",
        V::S(target),
        Some(out.src(&cx.path("arn"), cx.v("arn").unwrap_or(cx.r.node))),
    )];
    retry_policy(cx, out, &rule, &mut link);
    out.push_link(&rule, "delivers_to", link);
    if let Some(d) = first(cx.v("dead_letter_config")).and_then(|d| d.get("arn"))
        && let Some(to) = cx.find_id("dead_letter_config", Some(d))
    {
        let c = out.src(&cx.path("dead_letter_config.arn"), d);
        out.set(
            &rule,
            F::new(
                "dead_letter",
                V::Map(vec![F::new("to", V::S(to), Some(c))]),
                None,
            ),
        );
    }
}

/// The target's `retry_policy` onto its link (and the rule's maximum event
/// age), or EventBridge's default age when it has none.
fn retry_policy(cx: &Ctx, out: &mut Out, rule: &str, link: &mut Vec<F>) {
    let Some(rp) = first(cx.v("retry_policy")) else {
        link.push(F::new(
            "max_record_age",
            V::S("24h".into()),
            Some("EventBridge default maximum event age (no retry_policy)".into()),
        ));
        return;
    };
    if let Some(n) = rp.get("maximum_retry_attempts")
        && let Some(x) = n.int()
    {
        let c = out.src(&cx.path("retry_policy.maximum_retry_attempts"), n);
        link.push(F::retry_attempts(x, &c));
    }
    if let Some(n) = rp.get("maximum_event_age_in_seconds")
        && let Some(x) = n.int()
        && x > 0
    {
        let c = out.src(&cx.path("retry_policy.maximum_event_age_in_seconds"), n);
        link.push(F::new(
            "max_record_age",
            V::S(dur(x as u64)),
            Some(c.clone()),
        ));
        out.set(rule, F::new("max_event_age", V::S(dur(x as u64)), Some(c)));
    }
}
