//! SAM functions (`AWS::Serverless::Function`): their timeout (also from
//! `Globals`), dead-letter queue and invoke config, and their `Events`:
//! queues and streams polled by the function, SNS topics (directly, or
//! through the SQS queue of `SqsSubscription`), EventBridge rules and
//! schedules (`Schedule`, `ScheduleV2`) invoking it asynchronously, S3
//! buckets notifying it ([`super::s3`]), and API Gateway routes (`Api`,
//! `HttpApi`) calling it synchronously; and the `Events` of a SAM state
//! machine (`AWS::Serverless::StateMachine`): rules and schedules
//! delivering to it, API Gateway methods calling it. Both read their
//! schedules and API events with the same functions.

use super::eventbridge::retry_policy;
use super::intrinsics::Cf;
use super::invocation::{Invocations, async_config, asynchronous, mapped};
use super::lambda::{invoke_config, mapping_link, source_component};
use super::{F, Node, Out, V, Value, dead_letter, duration, kebab};

/// One entry of a SAM function's `Events`, with its evaluated type and the
/// paths its comments name.
struct Event<'a> {
    name: &'a str,
    node: &'a Node,
    ty: String,
    props: Node,
    path: String,
    ppath: String,
}

/// The properties of an `AWS::Serverless::Function`.
pub(super) fn function(
    cf: &Cf,
    out: &mut Out,
    id: &str,
    lid: &str,
    r: &Node,
    fn_hint: &mut Invocations,
) {
    let base = format!("Resources.{lid}.Properties");
    let p = |k: &str| r.at(&["Properties", k]);
    match p("Timeout") {
        Some(n) => duration(
            cf,
            out,
            id,
            "timeout",
            Some(n),
            &format!("{base}.Timeout"),
            1,
        ),
        None => {
            if let Some(n) = cf.root.at(&["Globals", "Function", "Timeout"]) {
                duration(
                    cf,
                    out,
                    id,
                    "timeout",
                    Some(n),
                    "Globals.Function.Timeout",
                    1,
                );
            }
        }
    }
    if let Some(dlq) = p("DeadLetterQueue").and_then(|n| n.get("TargetArn")) {
        dead_letter(
            cf,
            out,
            id,
            dlq,
            &format!("{base}.DeadLetterQueue.TargetArn"),
            None,
        );
    }
    super::lambda::durable_config(cf, out, id, r, &base);
    if let Some(eic) = p("EventInvokeConfig") {
        invoke_config(cf, out, id, eic, &format!("{base}.EventInvokeConfig"));
        async_config(fn_hint, id);
    }
    for e in events(cf, r, &base) {
        match e.ty.as_str() {
            "SQS" | "Kinesis" | "DynamoDB" => stream_event(cf, out, id, lid, &e, fn_hint),
            "SNS" => sns_event(cf, out, id, lid, &e, fn_hint),
            // A `Schedule` is a rule with a schedule expression.
            "EventBridgeRule" | "CloudWatchEvent" | "Schedule" => {
                rule_event(cf, out, id, lid, &e, fn_hint)
            }
            "ScheduleV2" => {
                schedule_event(cf, out, id, lid, &e);
                asynchronous(fn_hint, id);
            }
            "Api" | "HttpApi" => api_event(out, id, lid, &e, "invokes the function synchronously"),
            "S3" => super::s3::sam_event(cf, out, id, e.name, e.node, &e.props, &e.path, fn_hint),
            _ => out.unsupported_part(
                format!("{} (event type {})", e.path, e.ty),
                out.src(&e.path, e.node),
            ),
        }
    }
}

/// The entries of a SAM resource's `Events` (under `base`, its
/// `Properties` path).
fn events<'a>(cf: &Cf, r: &'a Node, base: &str) -> Vec<Event<'a>> {
    let mut all = Vec::new();
    for (ename, ev) in r
        .at(&["Properties", "Events"])
        .map(Node::entries)
        .unwrap_or(&[])
    {
        let ename = ename.key();
        let epath = format!("{base}.Events.{ename}");
        let ety = ev
            .get("Type")
            .and_then(|n| cf.lit(n))
            .and_then(|n| n.text())
            .unwrap_or_default();
        let props = ev
            .get("Properties")
            .cloned()
            .unwrap_or_else(|| Node::new(Value::Map(Vec::new()), ev.loc));
        let ppath = format!("{epath}.Properties");
        all.push(Event {
            name: ename,
            node: ev,
            ty: ety,
            props,
            path: epath,
            ppath,
        });
    }
    all
}

/// The `Events` of an `AWS::Serverless::StateMachine`: each starts an
/// execution. EventBridge rules (`EventBridgeRule`, `CloudWatchEvent`,
/// and `Schedule`, a rule with a schedule expression) deliver to it as a
/// rule target does, with their RetryPolicy and dead-letter queue;
/// `ScheduleV2` is an EventBridge Scheduler schedule; `Api` an API
/// Gateway method that calls StartExecution.
pub(super) fn state_machine_events(
    cf: &Cf,
    out: &mut Out,
    id: &str,
    lid: &str,
    r: &Node,
    fn_hint: &mut Invocations,
) {
    let base = format!("Resources.{lid}.Properties");
    for e in events(cf, r, &base) {
        match e.ty.as_str() {
            "EventBridgeRule" | "CloudWatchEvent" | "Schedule" => {
                rule_event(cf, out, id, lid, &e, fn_hint)
            }
            "ScheduleV2" => schedule_event(cf, out, id, lid, &e),
            "Api" => api_event(out, id, lid, &e, "calls StartExecution"),
            _ => out.unsupported_part(
                format!("{} (event type {})", e.path, e.ty),
                out.src(&e.path, e.node),
            ),
        }
    }
}

/// A `ScheduleV2` event: SAM creates an `AWS::Scheduler::Schedule` whose
/// target is `id` (a state machine, or a function it invokes
/// asynchronously), read as [`super::schedules::schedule`] reads one:
/// its `RetryPolicy` and `DeadLetterConfig`.
fn schedule_event(cf: &Cf, out: &mut Out, id: &str, lid: &str, e: &Event) {
    let at = out.src(&e.path, e.node);
    let sid = out.add(
        &kebab(&format!("{lid}{}", e.name)),
        "topic",
        format!(
            "AWS::Scheduler::Schedule SAM creates for event {} ({}) of {lid}, {at}",
            e.name, e.ty
        ),
    );
    out.set(
        &sid,
        F::new(
            "delivery",
            V::S("at-least-once".into()),
            Some(super::schedules::UNVERIFIED.into()),
        ),
    );
    let mut link = vec![F::new("to", V::S(id.to_string()), Some(at))];
    if e.props.get("RetryPolicy").is_some() {
        retry_policy(cf, out, &sid, &e.props, &e.ppath, &mut link);
    } else {
        out.note(&sid, format!("TODO: no RetryPolicy on the event ({}): the Scheduler default is not in the platform-facts reference; declare `retry` and `max_record_age`", out.src(&e.ppath, &e.props)));
    }
    out.push_link(&sid, "delivers_to", link);
    event_dead_letter(cf, out, &sid, e, "schedule");
}

/// An `Api` (REST API) or `HttpApi` (HTTP API) event: SAM creates an API
/// Gateway route that, once per request, does `what` (`calls
/// StartExecution` of a state machine, `invokes the function
/// synchronously`); a retry is the client's, which the template does not
/// show. The catalog has no API Gateway kind: the route is a `service`
/// that `calls` its target.
fn api_event(out: &mut Out, id: &str, lid: &str, e: &Event, what: &str) {
    let at = out.src(&e.path, e.node);
    let aid = out.add(
        &kebab(&format!("{lid}{}", e.name)),
        "service",
        format!(
            "API Gateway {} SAM creates for event {} ({}) of {lid}, {at}",
            if e.ty == "HttpApi" { "route" } else { "method" },
            e.name,
            e.ty
        ),
    );
    let (method, path) = (
        e.props
            .get("Method")
            .map(Node::brief)
            .unwrap_or_else(|| "?".into()),
        e.props
            .get("Path")
            .map(Node::brief)
            .unwrap_or_else(|| "?".into()),
    );
    out.note(&aid, format!("{method} {path}: API Gateway {what} for each request (the template shows no retry of it); TODO: the clients' retries are not in the template: declare the caller and its `retry`"));
    out.push_link(
        &aid,
        "calls",
        vec![F::new("to", V::S(id.to_string()), Some(at))],
    );
}

/// The `DeadLetterConfig` of an EventBridge or Scheduler event: `Arn`
/// names the queue; `Type: SQS` makes SAM create one (a TODO).
fn event_dead_letter(cf: &Cf, out: &mut Out, rid: &str, e: &Event, what: &str) {
    let (props, ppath) = (&e.props, &e.ppath);
    if let Some(d) = props.at(&["DeadLetterConfig", "Arn"]) {
        dead_letter(
            cf,
            out,
            rid,
            d,
            &format!("{ppath}.DeadLetterConfig.Arn"),
            None,
        );
    } else if props.at(&["DeadLetterConfig", "Type"]).is_some() {
        out.note(rid, format!("TODO: SAM creates a dead-letter queue for this {what}; declare it as a component ({})", out.src(&format!("{ppath}.DeadLetterConfig"), props)));
    }
}

/// A queue or stream event: the source delivers to the function.
fn stream_event(cf: &Cf, out: &mut Out, id: &str, lid: &str, e: &Event, fn_hint: &mut Invocations) {
    let &Event {
        name: ename,
        node: ev,
        ty: ref ety,
        ref props,
        path: ref epath,
        ref ppath,
    } = e;
    let key = if ety == "SQS" { "Queue" } else { "Stream" };
    let Some(sn) = props.get(key) else {
        out.note(
            id,
            format!(
                "TODO: event {ename} ({ety}) has no {key} ({})",
                out.src(epath, ev)
            ),
        );
        return;
    };
    match cf.target(sn) {
        Ok((s, att)) => match source_component(cf, out, &s, att.as_deref()) {
            Some(sid) => {
                mapped(fn_hint, id);
                let to_src = out.src(&format!("{epath} (event of {lid})"), ev);
                mapping_link(cf, out, &sid, id, props, ppath, to_src);
            }
            None => out.unresolved(
                id,
                format!(
                    "TODO: event {ename}: source {s} is not read ({})",
                    out.src(&format!("{ppath}.{key}"), sn)
                ),
            ),
        },
        Err(why) => out.unresolved(
            id,
            format!(
                "TODO: event {ename}: source {why} ({})",
                out.src(&format!("{ppath}.{key}"), sn)
            ),
        ),
    }
}

/// An SNS event: the topic delivers to the function, asynchronously, or,
/// with `SqsSubscription`, to an SQS queue the function polls
/// ([`sqs_subscription`]).
fn sns_event(cf: &Cf, out: &mut Out, id: &str, lid: &str, e: &Event, fn_hint: &mut Invocations) {
    let &Event {
        name: ename,
        node: ev,
        ref props,
        path: ref epath,
        ref ppath,
        ..
    } = e;
    let through = sqs_subscription(cf, out, id, lid, e, fn_hint);
    let topic = |t: &Node| cf.target(t).map(|(t, _)| cf.id(&t).cloned());
    match props.get("Topic").map(|t| (topic(t), t)) {
        Some((Ok(Some(tid)), tn)) => {
            let c = out.src(&format!("{ppath}.Topic"), tn);
            let to = through.clone().unwrap_or_else(|| id.to_string());
            out.push_link(&tid, "delivers_to", vec![F::new("to", V::S(to), Some(c))]);
            if through.is_none() {
                asynchronous(fn_hint, id);
            }
        }
        _ => out.unresolved(
            id,
            format!(
                "TODO: event {ename} (SNS): topic not in this template ({})",
                out.src(epath, ev)
            ),
        ),
    }
}

/// `SqsSubscription` of an SNS event: `true` makes SAM create a standard
/// queue `<function><event>Queue` with default settings, an object names
/// an existing queue (`QueueArn`); either way an event source mapping
/// polls the queue for the function (`BatchSize`, `Enabled`). The queue
/// the topic delivers to, or `None` without a subscription queue.
fn sqs_subscription(
    cf: &Cf,
    out: &mut Out,
    id: &str,
    lid: &str,
    e: &Event,
    fn_hint: &mut Invocations,
) -> Option<String> {
    let sub = e.props.get("SqsSubscription")?;
    let spath = format!("{}.SqsSubscription", e.ppath);
    let at = out.src(&spath, sub);
    let qid = match &sub.value {
        Value::Map(_) => {
            let Some(qn) = sub.get("QueueArn") else {
                out.note(
                    id,
                    format!(
                        "TODO: event {} (SNS): SqsSubscription has no QueueArn; imported as a direct subscription ({at})",
                        e.name
                    ),
                );
                return None;
            };
            let qid = match cf.target(qn) {
                Ok((q, _)) if cf.ty(&q) == Some("AWS::SQS::Queue") => cf.id(&q).cloned(),
                _ => None,
            };
            let Some(qid) = qid else {
                let qat = out.src(&format!("{spath}.QueueArn"), qn);
                out.unresolved(id, format!("TODO: event {} (SNS): the subscription queue is not a queue of this template; declare it and link it to `{id}`; imported as a direct subscription ({qat})", e.name));
                return None;
            };
            qid
        }
        _ => match cf.lit(sub).and_then(|n| n.boolean()) {
            Some(true) => {
                let qid = out.add(
                    &kebab(&format!("{lid}{}Queue", e.name)),
                    "sqs-standard",
                    format!("AWS::SQS::Queue SAM creates for the SqsSubscription of event {} of {lid}, {at}", e.name),
                );
                out.note(&qid, "SAM creates this queue without settings: its visibility timeout (30s, F002) and retention (4d, F003) are the defaults, and it has no dead-letter queue".to_string());
                qid
            }
            Some(false) => return None,
            None => {
                out.note(id, format!("TODO: event {} (SNS): SqsSubscription is known only at deployment; imported as a direct subscription ({at})", e.name));
                return None;
            }
        },
    };
    if let Some(n) = sub.get("Enabled")
        && cf.lit(n).and_then(|x| x.boolean()) == Some(false)
    {
        let c = out.src(&format!("{spath}.Enabled"), n);
        out.note(&qid, format!("the mapping to {id} is disabled: messages wait in the queue until it is enabled, for at most the queue's retention ({c})"));
    }
    mapped(fn_hint, id);
    let to_src = out.src(&format!("{spath} (event of {lid})"), sub);
    let none = Node::new(Value::Map(Vec::new()), sub.loc);
    let settings = if matches!(sub.value, Value::Map(_)) {
        sub
    } else {
        &none
    };
    mapping_link(cf, out, &qid, id, settings, &spath, to_src);
    Some(qid)
}

/// An EventBridge (or CloudWatch Events) rule event: a rule component
/// delivering to the function.
fn rule_event(cf: &Cf, out: &mut Out, id: &str, lid: &str, e: &Event, fn_hint: &mut Invocations) {
    let &Event {
        name: ename,
        node: ev,
        ty: ref ety,
        ref props,
        path: ref epath,
        ref ppath,
    } = e;
    let rid = out.add(
        &kebab(&format!("{lid}{ename}")),
        "eventbridge",
        format!("{ety} event of {lid}, {}", out.src(epath, ev)),
    );
    let mut link = vec![F::new("to", V::S(id.to_string()), Some(out.src(epath, ev)))];
    retry_policy(cf, out, &rid, props, ppath, &mut link);
    out.push_link(&rid, "delivers_to", link);
    event_dead_letter(cf, out, &rid, e, "rule");
    asynchronous(fn_hint, id);
}
