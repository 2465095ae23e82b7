//! EventBridge rules (`list-rules`) and their targets
//! (`list-targets-by-rule`, named `events-targets.<rule>.json`), Pipes
//! (`describe-pipe`) and Scheduler schedules (`get-schedule`): each
//! target a `delivers_to` with its RetryPolicy and dead-letter queue.

use super::ctx::{Ctx, Decl, arn_of, at, get, int, text};
use super::{Item, Node, Shape};
use crate::diagnostics::Diagnostic;
use crate::import::cloudformation::eventbridge::longest_age;
use crate::import::cloudformation::invocation::asynchronous;
use crate::import::{F, V, Value, dur};

const RULE: &str = "AWS::Events::Rule";

/// Scheduler and Pipes retry values are not in the platform facts.
const UNVERIFIED: &str = "UNVERIFIED: EventBridge Scheduler and Pipes retry failed invocations (not in the platform-facts reference)";

fn list<'a>(item: &'a Item, key: &str, command: &str) -> Result<&'a [Node], Diagnostic> {
    let Some(n) = get(item.node, key) else {
        return Ok(&[]);
    };
    match &n.value {
        Value::Seq(items) => Ok(items),
        _ => Err(n.error_at(
            format!(
                "`{}.{key}` must be a list, found {}",
                item.base,
                n.value.type_name()
            ),
            format!("give the JSON `{command}` printed, unchanged"),
        )),
    }
}

pub(super) fn declare_rules(item: &Item, decls: &mut Vec<Decl>) -> Result<(), Diagnostic> {
    match item.shape {
        Shape::EventsRules => {
            for (i, r) in list(item, "Rules", "aws events list-rules")?
                .iter()
                .enumerate()
            {
                if let Some(a) = r.get("Arn") {
                    let p = format!("{}.Rules[{i}].Arn", item.base);
                    decls.extend(Decl::of_arn(
                        &text(a, &p)?,
                        a,
                        &p,
                        "eventbridge",
                        RULE,
                        true,
                    ));
                }
            }
        }
        _ => match (&item.arn, item.hint) {
            (Some((arn, n, p)), _) => {
                decls.extend(Decl::of_arn(arn, n, p, "eventbridge", RULE, true))
            }
            (None, Some(name)) => decls.push(Decl::named(
                "events",
                name,
                "eventbridge",
                RULE,
                &item.base,
                item.node,
            )),
            (None, None) => {
                return Err(item.node.error_at(
                    "`list-targets-by-rule` output does not name its rule, and the file name does not either",
                    "name the file `events-targets.<rule>.json`",
                ));
            }
        },
    }
    Ok(())
}

pub(super) fn declare_other(item: &Item, decls: &mut Vec<Decl>) -> Result<(), Diagnostic> {
    let (kind, ty) = match item.shape {
        Shape::Pipe => ("service", "AWS::Pipes::Pipe"),
        _ => ("topic", "AWS::Scheduler::Schedule"),
    };
    if let Some((arn, n, p)) = arn_of(item, &["Arn"]) {
        decls.extend(Decl::of_arn(&arn, &n, &p, kind, ty, true));
    }
    if item.shape == Shape::Pipe
        && let Some(s) = get(item.node, "Source")
    {
        let p = format!("{}.Source", item.base);
        decls.extend(super::lambda::source_decl(&text(s, &p)?, s, &p));
    }
    Ok(())
}

pub(super) fn read_rules(cx: &mut Ctx, item: &Item) -> Result<(), Diagnostic> {
    match item.shape {
        Shape::EventsRules => {
            for (i, r) in list(item, "Rules", "aws events list-rules")?
                .iter()
                .enumerate()
            {
                let base = format!("{}.Rules[{i}]", item.base);
                let (Some(a), Some(s)) = (r.get("Arn"), r.get("State")) else {
                    continue;
                };
                let Some(id) = cx.id(&text(a, &format!("{base}.Arn"))?) else {
                    continue;
                };
                let state = text(s, &format!("{base}.State"))?;
                if state != "ENABLED" {
                    let c = cx.src(&format!("{base}.State"), s);
                    cx.out.note(
                        &id,
                        format!("the rule is {state} ({c}): it matches no event while so"),
                    );
                }
            }
            Ok(())
        }
        _ => {
            let id = match (&item.arn, item.hint) {
                (Some((arn, _, _)), _) => cx.id(arn),
                (None, Some(name)) => cx.find(name, "events"),
                _ => None,
            };
            let Some(id) = id else { return Ok(()) };
            let targets = list(item, "Targets", "aws events list-targets-by-rule")?;
            let mut ages = Vec::new();
            for (i, t) in targets.iter().enumerate() {
                ages.push(target(cx, &id, t, &format!("{}.Targets[{i}]", item.base))?);
            }
            rule_age(cx, &id, &ages);
            Ok(())
        }
    }
}

/// The rule keeps an event as long as its most patient target retries it.
fn rule_age(cx: &mut Ctx, id: &str, ages: &[Option<(u64, String)>]) {
    let Some((age, c)) = longest_age(ages) else {
        return;
    };
    cx.out.set(
        id,
        F::new(
            "delivery",
            V::S("at-least-once".into()),
            Some("EventBridge delivers to targets at least once".into()),
        ),
    );
    cx.out
        .set(id, F::new("max_event_age", V::S(dur(age)), Some(c.clone())));
    cx.out.set(id, F::new("retention", V::S(dur(age)), Some(c)));
}

/// One target of a rule; its maximum event age and the source of it.
fn target(
    cx: &mut Ctx,
    rule: &str,
    t: &Node,
    path: &str,
) -> Result<Option<(u64, String)>, Diagnostic> {
    let Some(arn) = get(t, "Arn") else {
        return Ok(None);
    };
    let ap = format!("{path}.Arn");
    text(arn, &ap)?;
    let Some(to) = cx.target(rule, arn, &ap, "delivers_to") else {
        return Ok(None);
    };
    let mut link = vec![F::new("to", V::S(to), Some(cx.src(&ap, arn)))];
    let age = match get(t, "RetryPolicy") {
        Some(rp) => retry_policy(cx, rp, &format!("{path}.RetryPolicy"), &mut link)?,
        None => None,
    };
    if age.is_none() {
        link.push(F::new(
            "max_record_age",
            V::S("24h".into()),
            Some("EventBridge default maximum event age (F017)".into()),
        ));
    }
    cx.out.push_link(rule, "delivers_to", link);
    if let Some(d) = at(t, &["DeadLetterConfig", "Arn"]) {
        super::lambda::dead_letter(cx, rule, d, &format!("{path}.DeadLetterConfig.Arn"))?;
    }
    Ok(age)
}

/// A RetryPolicy (or a stream source's parameters) at `path`: `retry` and
/// `max_record_age` on the link; the age in seconds and its source.
fn retry_policy(
    cx: &mut Ctx,
    rp: &Node,
    path: &str,
    link: &mut Vec<F>,
) -> Result<Option<(u64, String)>, Diagnostic> {
    if let Some(n) = get(rp, "MaximumRetryAttempts") {
        let p = format!("{path}.MaximumRetryAttempts");
        let v = int(n, &p)?;
        if v >= 0 {
            link.push(F::retry_attempts(v, &cx.src(&p, n)));
        }
    }
    let Some((k, n)) = ["MaximumEventAgeInSeconds", "MaximumRecordAgeInSeconds"]
        .into_iter()
        .find_map(|k| Some((k, get(rp, k)?)))
    else {
        return Ok(None);
    };
    let p = format!("{path}.{k}");
    let v = int(n, &p)?;
    if v <= 0 {
        return Ok(None);
    }
    let c = cx.src(&p, n);
    link.push(F::new(
        "max_record_age",
        V::S(dur(v as u64)),
        Some(format!("{c}: {v} s")),
    ));
    Ok(Some((v as u64, c)))
}

/// `describe-pipe`: the source delivers to the pipe (with a stream
/// source's retry settings), the pipe calls its target.
pub(super) fn pipe(cx: &mut Ctx, item: &Item) -> Result<(), Diagnostic> {
    let Some((arn, _, _)) = arn_of(item, &["Arn"]) else {
        return Ok(());
    };
    let Some(id) = cx.id(&arn) else { return Ok(()) };
    let base = &item.base;
    if let Some(s) = get(item.node, "Source") {
        let sp = format!("{base}.Source");
        let st = text(s, &sp)?;
        let sid = match super::arn::parse(&st).and_then(|a| a.stream_of) {
            Some(_) => cx
                .id(st.split("/stream/").next().unwrap_or(&st))
                .map(|t| super::dynamodb::stream(cx, &t, s, &sp)),
            None => cx.id(&st),
        };
        if let Some(sid) = sid {
            let mut link = vec![F::new("to", V::S(id.clone()), Some(cx.src(&sp, s)))];
            let params = ["KinesisStreamParameters", "DynamoDBStreamParameters"]
                .into_iter()
                .find_map(|k| Some((k, at(item.node, &["SourceParameters", k])?)));
            if let Some((k, sp)) = params {
                let pp = format!("{base}.SourceParameters.{k}");
                retry_policy(cx, sp, &pp, &mut link)?;
                if let Some(d) = at(sp, &["DeadLetterConfig", "Arn"]) {
                    super::lambda::dead_letter(cx, &sid, d, &format!("{pp}.DeadLetterConfig.Arn"))?;
                }
            }
            cx.out.push_link(&sid, "delivers_to", link);
        }
    }
    if let Some(t) = get(item.node, "Target") {
        let tp = format!("{base}.Target");
        text(t, &tp)?;
        if let Some(to) = cx.target(&id, t, &tp, "calls") {
            let c = cx.src(&tp, t);
            cx.out
                .push_link(&id, "calls", vec![F::new("to", V::S(to), Some(c))]);
        }
    }
    cx.out.note(&id, UNVERIFIED.into());
    Ok(())
}

/// `get-schedule`: the target as `delivers_to` with its RetryPolicy, its
/// dead-letter queue and the flexible window. A function target is
/// invoked asynchronously.
pub(super) fn schedule(cx: &mut Ctx, item: &Item) -> Result<(), Diagnostic> {
    let Some((arn, _, _)) = arn_of(item, &["Arn"]) else {
        return Ok(());
    };
    let Some(id) = cx.id(&arn) else { return Ok(()) };
    let base = &item.base;
    cx.out.set(
        &id,
        F::new(
            "delivery",
            V::S("at-least-once".into()),
            Some(UNVERIFIED.into()),
        ),
    );
    if let Some(w) = get(item.node, "FlexibleTimeWindow")
        && let Some(m) = get(w, "MaximumWindowInMinutes")
    {
        let p = format!("{base}.FlexibleTimeWindow.MaximumWindowInMinutes");
        let v = int(m, &p)?;
        let c = cx.src(&p, m);
        cx.out.note(&id, format!("FlexibleTimeWindow {v} min ({c}): each invocation starts up to {} after its scheduled time (a delay, not a copy)", dur(v.max(0) as u64 * 60)));
    }
    let Some(t) = get(item.node, "Target") else {
        return Ok(());
    };
    let path = format!("{base}.Target");
    let Some(a) = get(t, "Arn") else {
        return Ok(());
    };
    let ap = format!("{path}.Arn");
    text(a, &ap)?;
    let Some(to) = cx.target(&id, a, &ap, "delivers_to") else {
        return Ok(());
    };
    asynchronous(&mut cx.inv, &to);
    let mut link = vec![F::new("to", V::S(to), Some(cx.src(&ap, a)))];
    if let Some(rp) = get(t, "RetryPolicy") {
        retry_policy(cx, rp, &format!("{path}.RetryPolicy"), &mut link)?;
    } else {
        let c = cx.src(&path, t);
        cx.out.note(&id, format!("TODO: no RetryPolicy on the target ({c}): the Scheduler default is not in the platform-facts reference; declare `retry` and `max_record_age`"));
    }
    cx.out.push_link(&id, "delivers_to", link);
    if let Some(d) = at(t, &["DeadLetterConfig", "Arn"]) {
        super::lambda::dead_letter(cx, &id, d, &format!("{path}.DeadLetterConfig.Arn"))?;
    }
    Ok(())
}
