//! Lambda functions (`get-function-configuration`, or a Config item), their
//! event source mappings (`list-event-source-mappings`: the source
//! delivers to the function with the mapping's retry settings) and their
//! asynchronous invocation settings (`get-function-event-invoke-config`).
//! A function's kind follows from how it is invoked, by the rules every
//! importer shares (`cloudformation/invocation.rs`).

use super::ctx::{Ctx, Decl, arn_of, at, flag, get, int, text};
use super::{Item, Node};
use crate::diagnostics::Diagnostic;
use crate::import::cloudformation::invocation::{async_config, mapped};
use crate::import::{F, V, dur};

const FUNCTION: &str = "AWS::Lambda::Function";

pub(super) fn declare(item: &Item, decls: &mut Vec<Decl>) -> Result<(), Diagnostic> {
    match item.shape {
        super::Shape::LambdaMappings => {
            for (i, m) in mappings_of(item)?.iter().enumerate() {
                let base = format!("{}.EventSourceMappings[{i}]", item.base);
                if let Some(f) = m.get("FunctionArn") {
                    let p = format!("{base}.FunctionArn");
                    let t = text(f, &p)?;
                    decls.extend(Decl::of_arn(&t, f, &p, "function", FUNCTION, false));
                }
                if let Some(s) = m.get("EventSourceArn") {
                    let p = format!("{base}.EventSourceArn");
                    let t = text(s, &p)?;
                    decls.extend(source_decl(&t, s, &p));
                }
            }
        }
        _ => {
            if let Some((t, n, p)) = arn_of(item, &["FunctionArn"]) {
                let primary = item.shape == super::Shape::LambdaFunction;
                decls.extend(Decl::of_arn(&t, &n, &p, "function", FUNCTION, primary));
            }
        }
    }
    Ok(())
}

/// The resource an event source ARN names (a table for its stream), by a
/// generic kind until the export describes it.
pub(super) fn source_decl(t: &str, n: &Node, p: &str) -> Option<Decl> {
    let a = super::arn::parse(t)?;
    let (kind, ty) = match a.service.as_str() {
        "sqs" => ("queue", "AWS::SQS::Queue"),
        "kinesis" => ("stream", "AWS::Kinesis::Stream"),
        "dynamodb" => ("store", "AWS::DynamoDB::Table"),
        _ => return None,
    };
    let text = match &a.stream_of {
        Some(_) => t.split("/stream/").next().unwrap_or(t).to_string(),
        None => t.to_string(),
    };
    Decl::of_arn(&text, n, p, kind, ty, false)
}

fn mappings_of<'a>(item: &'a Item) -> Result<&'a [Node], Diagnostic> {
    let n = item.node.get("EventSourceMappings").unwrap_or(item.node);
    match &n.value {
        crate::import::Value::Seq(items) => Ok(items),
        _ => Err(n.error_at(
            format!(
                "`{}.EventSourceMappings` must be a list, found {}",
                item.base,
                n.value.type_name()
            ),
            "give the JSON `aws lambda list-event-source-mappings` printed, unchanged",
        )),
    }
}

/// `get-function-configuration`: the timeout and the asynchronous dead-letter queue.
pub(super) fn function(cx: &mut Ctx, item: &Item) -> Result<(), Diagnostic> {
    let Some((t, _, _)) = arn_of(item, &["FunctionArn"]) else {
        return Ok(());
    };
    let Some(id) = cx.id(&t) else { return Ok(()) };
    if let Some(n) = get(item.node, "Timeout") {
        let p = format!("{}.Timeout", item.base);
        let v = int(n, &p)?;
        let c = cx.src(&p, n);
        cx.out
            .set(&id, F::new("timeout", V::S(dur(v.max(0) as u64)), Some(c)));
    }
    if let Some(n) = at(item.node, &["DeadLetterConfig", "TargetArn"]) {
        let p = format!("{}.DeadLetterConfig.TargetArn", item.base);
        text(n, &p)?;
        dead_letter(cx, &id, n, &p)?;
    }
    Ok(())
}

/// `dead_letter: {to}` on `id`.
pub(super) fn dead_letter(cx: &mut Ctx, id: &str, n: &Node, p: &str) -> Result<(), Diagnostic> {
    text(n, p)?;
    if let Some(to) = cx.target(id, n, p, "dead_letter to") {
        let c = cx.src(p, n);
        cx.out.set(
            id,
            F::new(
                "dead_letter",
                V::Map(vec![F::new("to", V::S(to), Some(c))]),
                None,
            ),
        );
    }
    Ok(())
}

/// `list-event-source-mappings`: each mapping a `delivers_to` from its source.
pub(super) fn mappings(cx: &mut Ctx, item: &Item) -> Result<(), Diagnostic> {
    for (i, m) in mappings_of(item)?.iter().enumerate() {
        let base = format!("{}.EventSourceMappings[{i}]", item.base);
        let key = match m.get("UUID") {
            Some(u) => text(u, &format!("{base}.UUID"))?,
            None => base.clone(),
        };
        cx.unit(&format!("mapping:{key}"));
        let (Some(s), Some(f)) = (m.get("EventSourceArn"), m.get("FunctionArn")) else {
            cx.out.unsupported(
                "AWS::Lambda::EventSourceMapping",
                format!("{base}: a mapping without EventSourceArn or FunctionArn"),
                cx.src(&base, m),
            );
            continue;
        };
        let (sp, fp) = (
            format!("{base}.EventSourceArn"),
            format!("{base}.FunctionArn"),
        );
        let (st, ft) = (text(s, &sp)?, text(f, &fp)?);
        let source = super::arn::parse(&st).and_then(|a| match a.stream_of {
            Some(_) => cx
                .id(st.split("/stream/").next().unwrap_or(&st))
                .map(|t| super::dynamodb::stream(cx, &t, s, &sp)),
            None => cx.id(&st),
        });
        let (Some(sid), Some(fid)) = (source, cx.id(&ft)) else {
            cx.out.unsupported(
                "AWS::Lambda::EventSourceMapping",
                format!("{base}: source `{st}` is no resource the importer reads"),
                cx.src(&sp, s),
            );
            continue;
        };
        mapped(&mut cx.inv, &fid);
        if let Some(n) = m.get("State")
            && let Ok(state) = text(n, &format!("{base}.State"))
            && state != "Enabled"
        {
            let c = cx.src(&format!("{base}.State"), n);
            cx.out.note(
                &sid,
                format!("the mapping to {fid} is {state} ({c}): it delivers nothing while so"),
            );
        }
        mapping_link(cx, &sid, &fid, m, &base, cx.src(&fp, f))?;
    }
    Ok(())
}

/// The `delivers_to` link of one mapping, with its retry settings, and its
/// on-failure destination.
fn mapping_link(
    cx: &mut Ctx,
    sid: &str,
    fid: &str,
    m: &Node,
    base: &str,
    to_src: String,
) -> Result<(), Diagnostic> {
    let mut link = vec![F::new("to", V::S(fid.to_string()), Some(to_src))];
    if let Some(n) = m.get("MaximumRetryAttempts") {
        let p = format!("{base}.MaximumRetryAttempts");
        let v = int(n, &p)?;
        let c = cx.src(&p, n);
        if v >= 0 {
            link.push(F::retry_attempts(v, &c));
        } else {
            cx.out.note(sid, format!("MaximumRetryAttempts {v} on the mapping to {fid}: retried until the record expires ({c}, F027)"));
        }
    }
    if let Some(n) = m.get("MaximumRecordAgeInSeconds") {
        let p = format!("{base}.MaximumRecordAgeInSeconds");
        let v = int(n, &p)?;
        let c = cx.src(&p, n);
        if v > 0 {
            link.push(F::new(
                "max_record_age",
                V::S(dur(v as u64)),
                Some(format!("{c}: {v} s")),
            ));
        } else {
            cx.out.note(sid, format!("MaximumRecordAgeInSeconds {v} on the mapping to {fid}: records are retried until they expire ({c}, F027)"));
        }
    }
    if let Some(n) = m.get("BisectBatchOnFunctionError") {
        let p = format!("{base}.BisectBatchOnFunctionError");
        if flag(n, &p)? {
            let c = cx.src(&p, n);
            cx.out.note(sid, format!("BisectBatchOnFunctionError true on the mapping to {fid}: a failing batch is split and its good records are processed again ({c})"));
        }
    }
    cx.out.push_link(sid, "delivers_to", link);
    if let Some(d) = at(m, &["DestinationConfig", "OnFailure", "Destination"]) {
        dead_letter(
            cx,
            sid,
            d,
            &format!("{base}.DestinationConfig.OnFailure.Destination"),
        )?;
        cx.out.note(sid, format!("the on-failure destination of the mapping to {fid} receives a record pointing at the failed batch, not its data"));
    }
    Ok(())
}

/// `get-function-event-invoke-config`: the asynchronous retries, maximum
/// event age and destinations of a function.
pub(super) fn invoke_config(cx: &mut Ctx, item: &Item) -> Result<(), Diagnostic> {
    let Some((t, _, _)) = arn_of(item, &["FunctionArn"]) else {
        return Ok(());
    };
    let Some(fid) = cx.id(&t) else { return Ok(()) };
    async_config(&mut cx.inv, &fid);
    let base = &item.base;
    if let Some(n) = item.node.get("MaximumEventAgeInSeconds") {
        let p = format!("{base}.MaximumEventAgeInSeconds");
        let v = int(n, &p)?;
        let c = cx.src(&p, n);
        cx.out.set(
            &fid,
            F::new(
                "max_event_age",
                V::S(dur(v.max(0) as u64)),
                Some(format!("{c}: {v} s")),
            ),
        );
    }
    if let Some(n) = item.node.get("MaximumRetryAttempts") {
        let p = format!("{base}.MaximumRetryAttempts");
        let v = int(n, &p)?;
        let c = cx.src(&p, n);
        cx.out.note(&fid, format!("asynchronous invocation retries a failed event {v} time(s) ({c}); duplicates arrive for up to max_event_age"));
    }
    if let Some(d) = at(
        item.node,
        &["DestinationConfig", "OnFailure", "Destination"],
    ) {
        dead_letter(
            cx,
            &fid,
            d,
            &format!("{base}.DestinationConfig.OnFailure.Destination"),
        )?;
    }
    if let Some(d) = at(
        item.node,
        &["DestinationConfig", "OnSuccess", "Destination"],
    ) {
        let p = format!("{base}.DestinationConfig.OnSuccess.Destination");
        text(d, &p)?;
        if let Some(to) = cx.target(&fid, d, &p, "on-success destination") {
            let c = cx.src(&p, d);
            cx.out
                .push_link(&fid, "sends_to", vec![F::new("to", V::S(to), Some(c))]);
        }
    }
    Ok(())
}
