//! EventBridge Scheduler schedules and EventBridge Pipes: the event sources
//! that retry and replay without a rule.
//!
//! No Scheduler or Pipes value is in the platform-facts reference yet, so
//! nothing here is a default: only what the template writes is imported,
//! and the kinds are generic (`topic` for a schedule, `service` for a
//! pipe), with `delivery: at-least-once` marked UNVERIFIED.

use super::eventbridge::retry_policy;
use super::intrinsics::Cf;
use super::invocation::{Invocations, asynchronous};
use super::lambda::source_component;
use super::{F, Node, Out, V, dead_letter, dur, link_target};

pub(super) const UNVERIFIED: &str = "UNVERIFIED: EventBridge Scheduler and Pipes retry failed invocations (not in the platform-facts reference)";

/// An `AWS::Scheduler::Schedule`: its target as `delivers_to` with the
/// target's RetryPolicy, its dead-letter queue and its flexible window. A
/// function target is invoked asynchronously (the Lambda developer guide,
/// "Invoke a Lambda function on a schedule"), so it is `lambda-async`.
pub(super) fn schedule(
    cf: &Cf,
    out: &mut Out,
    id: &str,
    r: &Node,
    base: &str,
    fn_hint: &mut Invocations,
) {
    out.set(
        id,
        F::new(
            "delivery",
            V::S("at-least-once".into()),
            Some(UNVERIFIED.into()),
        ),
    );
    let p = |k: &str| r.at(&["Properties", k]);
    if let Some(w) = p("FlexibleTimeWindow") {
        let mode = w.get("Mode").and_then(|n| cf.lit(n)).and_then(|n| n.text());
        let minutes = w
            .get("MaximumWindowInMinutes")
            .and_then(|n| cf.lit(n))
            .and_then(|n| n.int());
        if mode.as_deref() == Some("FLEXIBLE")
            && let Some(m) = minutes
        {
            out.note(id, format!("FlexibleTimeWindow FLEXIBLE {m} min ({}): each invocation starts up to {} after its scheduled time (a delay, not a copy)", out.src(&format!("{base}.FlexibleTimeWindow"), w), dur(m.max(0) as u64 * 60)));
        }
    }
    let Some(t) = p("Target") else { return };
    let path = format!("{base}.Target");
    let Some(arn) = t.get("Arn") else { return };
    let Some(to) = link_target(cf, out, id, arn, &format!("{path}.Arn"), "delivers_to") else {
        return;
    };
    asynchronous(fn_hint, &to);
    let mut link = vec![F::new(
        "to",
        V::S(to),
        Some(out.src(&format!("{path}.Arn"), arn)),
    )];
    if t.get("RetryPolicy").is_some() {
        retry_policy(cf, out, id, t, &path, &mut link);
    } else {
        out.note(id, format!("TODO: no RetryPolicy on the target ({}): the Scheduler default is not in the platform-facts reference; declare `retry` and `max_record_age`", out.src(&path, t)));
    }
    out.push_link(id, "delivers_to", link);
    if let Some(d) = t.at(&["DeadLetterConfig", "Arn"]) {
        dead_letter(
            cf,
            out,
            id,
            d,
            &format!("{path}.DeadLetterConfig.Arn"),
            None,
        );
    }
}

/// An `AWS::Pipes::Pipe`: the source delivers to the pipe (with the stream
/// source's retry settings and dead letter), the pipe calls its target.
pub(super) fn pipe(cf: &Cf, out: &mut Out, id: &str, r: &Node, base: &str) {
    let p = |k: &str| r.at(&["Properties", k]);
    // A table's stream (`!GetAtt T.StreamArn`) is the `<table>-stream`
    // component, as for a mapping: the stream's retention bounds the pipe.
    if let Some(s) = p("Source")
        && link_target(cf, out, id, s, &format!("{base}.Source"), "source").is_some()
        && let Ok((res, att)) = cf.target(s)
        && let Some(sid) = source_component(cf, out, &res, att.as_deref())
    {
        let mut link = vec![F::new(
            "to",
            V::S(id.to_string()),
            Some(out.src(&format!("{base}.Source"), s)),
        )];
        let sp = ["KinesisStreamParameters", "DynamoDBStreamParameters"]
            .into_iter()
            .find_map(|k| Some((k, p("SourceParameters")?.get(k)?)));
        if let Some((k, sp)) = sp {
            let sp_path = format!("{base}.SourceParameters.{k}");
            if let Some(n) = sp.get("MaximumRetryAttempts")
                && let Some(v) = cf.lit(n).and_then(|x| x.int())
                && v >= 0
            {
                link.push(F::retry_attempts(
                    v,
                    &out.src(&format!("{sp_path}.MaximumRetryAttempts"), n),
                ));
            }
            if let Some(n) = sp.get("MaximumRecordAgeInSeconds")
                && let Some(v) = cf.lit(n).and_then(|x| x.int())
                && v > 0
            {
                let c = out.src(&format!("{sp_path}.MaximumRecordAgeInSeconds"), n);
                link.push(F::new("max_record_age", V::S(dur(v as u64)), Some(c)));
            }
            if let Some(d) = sp.at(&["DeadLetterConfig", "Arn"]) {
                dead_letter(
                    cf,
                    out,
                    &sid,
                    d,
                    &format!("{sp_path}.DeadLetterConfig.Arn"),
                    None,
                );
            }
        }
        out.push_link(&sid, "delivers_to", link);
    }
    let Some(t) = p("Target") else { return };
    let Some(to) = link_target(cf, out, id, t, &format!("{base}.Target"), "calls") else {
        return;
    };
    out.push_link(
        id,
        "calls",
        vec![F::new(
            "to",
            V::S(to.clone()),
            Some(out.src(&format!("{base}.Target"), t)),
        )],
    );
    let invocation = p("TargetParameters").and_then(|tp| {
        [
            "LambdaFunctionParameters",
            "StepFunctionStateMachineParameters",
        ]
        .into_iter()
        .find_map(|k| Some((k, tp.at(&[k, "InvocationType"])?)))
    });
    if let Some((k, n)) = invocation
        && cf.lit(n).and_then(|x| x.text()).as_deref() == Some("FIRE_AND_FORGET")
    {
        // Lambda invokes a function that is not waited for asynchronously.
        if let Some(c) = out.comp(&to)
            && c.kind == "function"
        {
            c.kind = "lambda-async".into();
        }
        out.note(id, format!("InvocationType FIRE_AND_FORGET ({}): the pipe deletes the source message once `{to}` has started, so a failure of `{to}` is not redelivered by the source; its own asynchronous retries are the only ones", out.src(&format!("{base}.TargetParameters.{k}.InvocationType"), n)));
    }
}
