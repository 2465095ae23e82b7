//! Lambda functions and how they are invoked: event source mappings
//! (queues and streams delivering to a function, with their retry
//! settings), asynchronous invocation configs and their destinations.

use super::intrinsics::Cf;
use super::invocation::{Invocations, async_config, mapped};
use super::{F, Node, Out, V, dead_letter, dur, duration, link_target};

/// The properties of an `AWS::Lambda::Function`.
pub(super) fn function(cf: &Cf, out: &mut Out, id: &str, r: &Node, base: &str) {
    let p = |k: &str| r.at(&["Properties", k]);
    duration(
        cf,
        out,
        id,
        "timeout",
        p("Timeout"),
        &format!("{base}.Timeout"),
        1,
    );
    if let Some(t) = p("DeadLetterConfig").and_then(|n| n.get("TargetArn")) {
        dead_letter(
            cf,
            out,
            id,
            t,
            &format!("{base}.DeadLetterConfig.TargetArn"),
            None,
        );
    }
    durable_config(cf, out, id, r, base);
}

/// `DurableConfig` (durable functions, both resource types): a note, since
/// its dedup needs a durable execution name the template does not show.
pub(super) fn durable_config(cf: &Cf, out: &mut Out, id: &str, r: &Node, base: &str) {
    let Some(d) = r.at(&["Properties", "DurableConfig"]) else {
        return;
    };
    let days = d
        .get("RetentionPeriodInDays")
        .and_then(|n| Some((cf.lit(n)?.int()?, n)));
    let retention = match days {
        Some((v, n)) => format!(
            "{v} day(s) ({})",
            out.src(&format!("{base}.DurableConfig.RetentionPeriodInDays"), n)
        ),
        None => "14 days (the default, F031)".to_string(),
    };
    out.note(id, format!("DurableConfig ({}): an invocation that names its durable execution is deduplicated by that name for {retention} after the execution closes (F029, F031); invocations by an event source mapping get no such start idempotency (F030). TODO: add a `dedup` if the callers name executions", out.src(&format!("{base}.DurableConfig"), d)));
}

/// An `AWS::Lambda::EventInvokeConfig`: asynchronous invocation settings of
/// its function.
pub(super) fn event_invoke_config(
    cf: &Cf,
    out: &mut Out,
    lid: &str,
    r: &Node,
    fn_hint: &mut Invocations,
) {
    let base = format!("Resources.{lid}.Properties");
    let func = r.at(&["Properties", "FunctionName"]);
    match func.map(|n| cf.target(n).map(|(f, _)| cf.id(&f).cloned())) {
        Some(Ok(Some(fid))) => {
            invoke_config(cf, out, &fid, r.get("Properties").unwrap_or(r), &base);
            async_config(fn_hint, &fid);
        }
        Some(Err(why)) => out.unsupported(
            "AWS::Lambda::EventInvokeConfig",
            format!("Resources.{lid} (EventInvokeConfig): function {why}"),
            out.src(&base, r),
        ),
        _ => out.unsupported(
            "AWS::Lambda::EventInvokeConfig",
            format!("Resources.{lid} (EventInvokeConfig): no FunctionName"),
            out.src(&base, r),
        ),
    }
}

/// Lambda event source mapping: the source delivers to the function.
pub(super) fn esm(cf: &Cf, out: &mut Out, lid: &str, r: &Node, fn_hint: &mut Invocations) {
    let base = format!("Resources.{lid}.Properties");
    let Some(props) = r.get("Properties") else {
        out.unsupported(
            "AWS::Lambda::EventSourceMapping",
            format!("Resources.{lid} (EventSourceMapping without Properties)"),
            out.src(&base, r),
        );
        return;
    };
    let source = props.get("EventSourceArn").map(|n| (cf.target(n), n));
    let func = props
        .get("FunctionName")
        .map(|n| cf.target(n).map(|(f, _)| cf.id(&f).cloned()));
    match (source, func) {
        (Some((Ok((s, att)), sn)), Some(Ok(Some(fid)))) => {
            let Some(sid) = source_component(cf, out, &s, att.as_deref()) else {
                out.unsupported("AWS::Lambda::EventSourceMapping", format!("Resources.{lid} (EventSourceMapping): source {s} is not read"), out.src(&base, r));
                return;
            };
            mapped(fn_hint, &fid);
            let to_src = out.src(&format!("{base}.FunctionName"), props.get("FunctionName").unwrap_or(sn));
            mapping_link(cf, out, &sid, &fid, props, &base, to_src);
        }
        _ => out.unsupported("AWS::Lambda::EventSourceMapping", 
            format!("Resources.{lid} (EventSourceMapping): source or function is not a resource of this template"),
            out.src(&base, r),
        ),
    }
}

/// The component of an event source: a queue or stream, or the stream of a
/// DynamoDB table (created on first use as `<table>-stream`).
pub(super) fn source_component(
    cf: &Cf,
    out: &mut Out,
    res: &str,
    att: Option<&str>,
) -> Option<String> {
    let id = cf.id(res)?.clone();
    if matches!(
        cf.ty(res),
        Some("AWS::DynamoDB::Table" | "AWS::DynamoDB::GlobalTable")
    ) || att == Some("StreamArn")
    {
        return Some(super::dynamodb::table_stream(cf, out, res, &id));
    }
    Some(id)
}

/// `delivers_to` with the mapping's retry settings, and its failure destination.
pub(super) fn mapping_link(
    cf: &Cf,
    out: &mut Out,
    source: &str,
    func: &str,
    props: &Node,
    base: &str,
    to_src: String,
) {
    let mut link = vec![F::new("to", V::S(func.to_string()), Some(to_src))];
    if let Some(n) = props.get("MaximumRetryAttempts")
        && let Some(v) = cf.lit(n).and_then(|x| x.int())
    {
        let c = out.src(&format!("{base}.MaximumRetryAttempts"), n);
        if v >= 0 {
            link.push(F::retry_attempts(v, &c));
        } else {
            out.note(source, format!("MaximumRetryAttempts -1 on the mapping to {func}: retried until the record expires ({c})"));
        }
    }
    if let Some(n) = props.get("MaximumRecordAgeInSeconds")
        && let Some(v) = cf.lit(n).and_then(|x| x.int())
    {
        let c = out.src(&format!("{base}.MaximumRecordAgeInSeconds"), n);
        if v > 0 {
            link.push(F::new("max_record_age", V::S(dur(v as u64)), Some(c)));
        } else {
            out.note(source, format!("MaximumRecordAgeInSeconds {v} on the mapping to {func}: records are retried until they expire ({c})"));
        }
    }
    if let Some(n) = props.get("BisectBatchOnFunctionError")
        && cf.lit(n).and_then(|x| x.boolean()) == Some(true)
    {
        let c = out.src(&format!("{base}.BisectBatchOnFunctionError"), n);
        out.note(source, format!("BisectBatchOnFunctionError true on the mapping to {func}: a failing batch is split and its good records are processed again ({c})"));
    }
    out.push_link(source, "delivers_to", link);
    if let Some(d) = props.at(&["DestinationConfig", "OnFailure", "Destination"]) {
        dead_letter(
            cf,
            out,
            source,
            d,
            &format!("{base}.DestinationConfig.OnFailure.Destination"),
            None,
        );
        out.note(source, format!("the on-failure destination of the mapping to {func} receives a record pointing at the failed batch, not its data"));
    }
}

pub(super) fn invoke_config(cf: &Cf, out: &mut Out, fid: &str, props: &Node, base: &str) {
    if let Some(n) = props.get("MaximumEventAgeInSeconds") {
        duration(
            cf,
            out,
            fid,
            "max_event_age",
            Some(n),
            &format!("{base}.MaximumEventAgeInSeconds"),
            1,
        );
    }
    if let Some(n) = props.get("MaximumRetryAttempts")
        && let Some(v) = cf.lit(n).and_then(|x| x.int())
    {
        let c = out.src(&format!("{base}.MaximumRetryAttempts"), n);
        out.note(fid, format!("asynchronous invocation retries a failed event {v} time(s) ({c}); duplicates arrive for up to max_event_age"));
    }
    for (kind, key) in [("OnFailure", "dead_letter"), ("OnSuccess", "")] {
        if let Some(d) = props.at(&["DestinationConfig", kind, "Destination"]) {
            let p = format!("{base}.DestinationConfig.{kind}.Destination");
            if key.is_empty() {
                if let Some(to) = link_target(cf, out, fid, d, &p, "on-success destination") {
                    let c = out.src(&p, d);
                    out.push_link(fid, "sends_to", vec![F::new("to", V::S(to), Some(c))]);
                }
            } else {
                dead_letter(cf, out, fid, d, &p, None);
            }
        }
    }
}
