//! The per-edge half of the brute-force oracle: what one link does to a
//! copy, computed from the manifest's written fields and the catalog
//! defaults of the generated kinds (written out here with their fact ids
//! from platform-facts.md), never from the analysis' edge model. Only the
//! graph's shape (which link joins which components) comes from the model.

use replay_audit::manifest::Manifest;
use replay_audit::manifest::model::{Component, Field, Link, LinkField, LinkType, Retry};
use replay_audit::time::Dur;

/// What an edge does to a copy: the `delay` it adds to the copy's age; the
/// message clock `hold` when it leaves a transport with a retention (it
/// leaves by enqueue + `retention`, then spends `after` beyond it); and
/// whether the message keeps its enqueue time on the move (`keeps_clock`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Step {
    pub delay: Dur,
    pub hold: Option<(Dur, Dur)>,
    pub keeps_clock: bool,
}

/// The platform role of a generated kind.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Role {
    Function,
    Queue,
    Topic,
    Stream,
    /// A service or an external system: an HTTP/S endpoint for SNS.
    Http,
    Other,
}

fn role(c: &Component) -> Role {
    match c.kind.value.as_str() {
        "function" | "lambda-async" => Role::Function,
        "queue" | "sqs-standard" => Role::Queue,
        "topic" | "sns-standard" => Role::Topic,
        "stream" => Role::Stream,
        "service" | "external" => Role::Http,
        _ => Role::Other,
    }
}

fn transport(c: &Component) -> bool {
    matches!(role(c), Role::Queue | Role::Topic | Role::Stream)
}

fn kind(c: &Component) -> &str {
    c.kind.value.as_str()
}

/// Retention: written, else SQS's 4 d default (F003). Generic kinds and
/// SNS (whose archive has no default, F015) have none.
fn retention(c: &Component) -> Option<Dur> {
    c.dur(Field::Retention)
        .map(|r| r.value)
        .or((kind(c) == "sqs-standard").then_some(Dur::secs(345_600)))
}

/// Maximum event age: written, else Lambda's 6 h (21,600 s, F024) or the
/// 23-day policy SNS applies to AWS-managed endpoints (F016).
fn max_event_age(c: &Component) -> Option<Dur> {
    if let Some(a) = c.dur(Field::MaxEventAge) {
        return Some(a.value);
    }
    match kind(c) {
        "lambda-async" => Some(Dur::secs(21_600)),
        "sns-standard" => Some(Dur::secs(23 * 86_400)),
        _ => None,
    }
}

/// Visibility timeout: written, else SQS's 30 s (F002).
fn visibility(c: &Component) -> Dur {
    c.dur(Field::VisibilityTimeout).map_or_else(
        || Dur::secs(if kind(c) == "sqs-standard" { 30 } else { 0 }),
        |v| v.value,
    )
}

/// Whether a move into dead-letter queue `c` keeps the enqueue time:
/// written, else true for an SQS standard DLQ (F004), else the clock starts
/// again (the later deadline).
fn dlq_keeps(c: &Component) -> bool {
    c.flag(Field::DlqKeepsEnqueueTime)
        .map_or(kind(c) == "sqs-standard", |k| k.value)
}

/// The span of a retry sequence: the sum over the n - 1 retries of
/// timeout + min(backoff × multiplier^(i-1), max_backoff), then
/// min(that, max_elapsed): a cap bounds the span, it does not add to it.
fn retry_span(r: &Retry, fallback: Option<Dur>) -> Dur {
    let n = r.attempts.as_ref().map_or(1, |a| a.value);
    let t = r
        .timeout
        .as_ref()
        .map(|t| t.value)
        .or(fallback)
        .unwrap_or(Dur::ZERO);
    let b = r.backoff.as_ref().map_or(Dur::ZERO, |b| b.value);
    let m = r.multiplier.as_ref().map_or(2.0, |m| m.value) as u64;
    let cap = r.max_backoff.as_ref().map(|c| c.value);
    let mut total = Dur::ZERO;
    let mut delay = b;
    for _ in 1..n {
        let d = cap.map_or(delay, |c| delay.min(c));
        total = total.add(t).add(d);
        delay = delay.times(m);
    }
    match &r.max_elapsed {
        Some(e) => total.min(e.value),
        None => total,
    }
}

/// How long transport `c` may still deliver a message: its retention, else
/// the maximum event age of a push transport, else unbounded. A declared
/// `max_backlog` bounds it only with a receive limit, to
/// backlog + (receives - 1) × visibility for the last receive, and for the
/// move into the dead-letter queue (`moves`) one visibility timeout more,
/// backlog + receives × visibility, when that receive's timeout ends
/// (F002, F007); without a limit a failing message is redelivered until
/// its retention ends (F002, F003).
fn transport_span(c: &Component, moves: bool) -> Dur {
    let span = retention(c)
        .or_else(|| max_event_age(c))
        .unwrap_or(Dur::Unbounded);
    let receives = c
        .dead_letter()
        .and_then(|d| d.count(LinkField::AfterReceives))
        .or_else(|| c.count(Field::MaxReceives))
        .map(|r| r.value);
    match (c.dur(Field::MaxBacklog), receives) {
        (Some(b), Some(k)) => {
            let timeouts = if moves { k } else { k.saturating_sub(1) };
            span.min(b.value.add(visibility(c).times(timeouts)))
        }
        _ => span,
    }
}

/// Whether a link of type `ty` out of `from` invokes a function
/// asynchronously: a queue or stream is polled by an event-source mapping
/// (a synchronous invoke, F026); a redrive or an effect invokes nothing.
fn invokes_async(ty: LinkType, from: &Component) -> bool {
    match ty {
        LinkType::SendsTo | LinkType::Calls | LinkType::DeadLetter => true,
        LinkType::DeliversTo => !matches!(role(from), Role::Queue | Role::Stream),
        LinkType::Redrive | LinkType::Effects => false,
    }
}

/// The delivery (or dead-letter move) out of transport `ca` into `cb`,
/// after the link's own retries `retries`.
fn delivery(link: &Link, ca: &Component, cb: &Component, retries: Dur) -> Dur {
    let mut span = transport_span(ca, link.ty == LinkType::DeadLetter);
    if let Some(a) = link.dur(LinkField::MaxRecordAge) {
        // A stream mapping's record age caps the stream's retention (F027).
        span = span.min(a.value);
    }
    // The generator writes no `max_event_age` on a generic topic, so SNS is
    // the only push transport (no retention, a maximum event age) here.
    let push = retention(ca).is_none() && max_event_age(ca).is_some();
    let sns = kind(ca) == "sns-standard";
    if push && sns && role(cb) == Role::Http {
        // SNS to an HTTP/S endpoint: its policy, 3 retries 20 s apart by
        // default (60 s), at most 3,600 s in all (F016). A declared retry
        // with no backoff may last until the cap (or its max_elapsed).
        if let Some(r) = &link.retry
            && r.attempts.as_ref().is_some_and(|a| a.value > 1)
            && r.backoff.is_none()
        {
            let cap = Dur::secs(3_600);
            return r.max_elapsed.as_ref().map_or(cap, |m| m.value.min(cap));
        }
        let r = if link.retry.is_some() {
            retries
        } else {
            retries.add(Dur::secs(60))
        };
        return r.min(Dur::secs(3_600));
    }
    if push && sns {
        // SNS to an AWS-managed endpoint: the fixed 23-day policy, whatever
        // the subscription declares (F016).
        return span;
    }
    if link.ty == LinkType::DeliversTo && role(ca) == Role::Stream && role(cb) == Role::Function {
        // An event-source mapping retries while the record is in the
        // stream (F027): the retries add nothing to the record's life.
        return span;
    }
    retries.add(span)
}

/// The step of the `index`-th link of component `from` into `to`.
pub fn step(m: &Manifest, from: usize, to: usize, index: u32) -> Step {
    let (ca, cb) = (&m.components[from], &m.components[to]);
    let link = ca.links().nth(index as usize).expect("the model's link");
    // An attempt lasts the retry's timeout, else the call's, else for a
    // `calls` as long as one invocation of the callee may run.
    let callee = (link.ty == LinkType::Calls)
        .then(|| cb.dur(Field::Timeout).map(|t| t.value))
        .flatten();
    let retries = link.retry.as_ref().map_or(Dur::ZERO, |r| {
        retry_span(r, link.dur(LinkField::Timeout).map(|t| t.value).or(callee))
    });
    let mut delay = match link.ty {
        LinkType::SendsTo | LinkType::Calls | LinkType::Effects => retries,
        LinkType::DeliversTo | LinkType::DeadLetter => delivery(link, ca, cb, retries),
        // Within the declared time, else any time in the DLQ's retention.
        LinkType::Redrive => retries.add(
            link.dur(LinkField::Within)
                .map_or_else(|| retention(ca).unwrap_or(Dur::Unbounded), |w| w.value),
        ),
    };
    let leaves = matches!(
        link.ty,
        LinkType::DeliversTo | LinkType::DeadLetter | LinkType::Redrive
    );
    let stream_mapping =
        link.ty == LinkType::DeliversTo && role(ca) == Role::Stream && role(cb) == Role::Function;
    let mut hold = match retention(ca) {
        Some(r) if leaves && transport(ca) => {
            Some((r, if stream_mapping { Dur::ZERO } else { retries }))
        }
        _ => None,
    };
    // Lambda's own event queue keeps an asynchronous event up to its
    // maximum event age (F024), after it left any transport.
    if role(cb) == Role::Function
        && invokes_async(link.ty, ca)
        && let Some(age) = max_event_age(cb)
    {
        delay = delay.add(age);
        hold = hold.map(|(r, after)| (r, after.add(age)));
    }
    // Only a queue's own redrive policy moves a message (F004, F005).
    let keeps_clock = link.ty == LinkType::DeadLetter && role(ca) == Role::Queue && dlq_keeps(cb);
    Step {
        delay,
        hold,
        keeps_clock,
    }
}
