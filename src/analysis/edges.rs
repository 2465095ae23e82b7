//! The model of one edge: the delay a copy takes along it, the duplicates
//! it gives birth to, the assumption the delay rests on, and (only for the
//! edges a path shows) the words that explain it.

use super::edge_model::Why;
use super::effective::{self as eff, Eff, Origin};
use super::model::{Assumed, Birth, EdgeAssumption, EdgeModel, NodeModel, assume};
use super::retry;
use crate::catalog::{Generic, Kind};
use crate::graph::{Edge, Graph};
use crate::manifest::model::{Component, DedupId, Delivery, Link, LinkType, Manifest, Retry};
use crate::manifest::model::{Field, LinkField};
use crate::time::Dur;

/// How long a transport may still deliver a message: its retention, or with
/// a declared `max_backlog` and a receive limit the smaller of the retention
/// and `max_backlog + (max_receives - 1) * visibility_timeout`, the start of
/// the last receive. The move into the dead-letter queue (`moves`) comes one
/// visibility timeout later, when that receive's timeout ends undeleted
/// (F002, F007): `max_backlog + max_receives * visibility_timeout`. Without
/// a receive limit a failing message is redelivered until its retention
/// ends (F002, F003), whatever the backlog. Returns the span, its
/// explanation (only when `explain`; empty otherwise) and the backlog
/// assumption it rests on, when the backlog is what bounds it.
pub fn transport_span(
    i: usize,
    c: &Component,
    (after_receives, moves): (Option<u64>, bool),
    assumed: &mut Vec<Assumed>,
    explain: bool,
) -> (Dur, String, Option<EdgeAssumption>) {
    // A push transport (SNS, EventBridge) keeps no backlog but retries a
    // delivery for up to its maximum event age; its archive, where it has
    // one, bounds a declared replay, not delivery.
    let (retention, what) = match (delivery_retention(c), eff::dur(c, Field::MaxEventAge)) {
        (Some(r), _) => (r, "retention"),
        (None, Some(age)) => (age, "delivery retried for up to max_event_age"),
        (None, None) if let Some(cap) = retention_cap(c) => (cap, CAPPED),
        (None, None) => {
            assume(assumed, i, c, "retention", "unbounded");
            let unbounded = Eff {
                value: Dur::Unbounded,
                origin: Origin::Assumed,
            };
            (unbounded, "retention")
        }
    };
    let text = |f: &dyn Fn() -> String| if explain { f() } else { String::new() };
    let Some(backlog) = c.dur(Field::MaxBacklog) else {
        let why = text(&|| {
            let archive = archive(c).map_or_else(String::new, |(a, fact)| {
                format!(
                    " (the archive retention {} ({fact}) bounds only a declared replay)",
                    a.value
                )
            });
            format!(
                "{what} {}{}{archive}",
                retention.value,
                provenance(&retention, what)
            )
        });
        return (retention.value, why, None);
    };
    let Some(receives) =
        after_receives.or_else(|| eff::count(c, Field::MaxReceives).map(|e| e.value))
    else {
        // A dead-letter queue moves messages after some number of receives;
        // not knowing it, the analysis takes no limit (the longer span).
        if c.dead_letter().is_some() {
            assume(assumed, i, c, "max_receives", "unbounded");
        }
        let why = text(&|| {
            format!(
                "no receive limit: a failing message is redelivered until its {what} {}{} (max_backlog does not bound it)",
                retention.value,
                provenance(&retention, what)
            )
        });
        return (retention.value, why, None);
    };
    let vis = eff::dur(c, Field::VisibilityTimeout);
    if vis.is_none() {
        // Without a visibility timeout the receives take no time: the
        // shorter span, so an assumption RH041 names.
        assume(assumed, i, c, "visibility_timeout", "0s");
    }
    let vis_why = vis.as_ref().map_or_else(String::new, Eff::provenance);
    let vis = vis.map_or(Dur::ZERO, |v| v.value);
    let timeouts = if moves {
        receives
    } else {
        receives.saturating_sub(1)
    };
    let bound = backlog.value.add(vis.times(timeouts));
    if bound < retention.value {
        let why = text(&|| {
            let n = if moves {
                format!("{receives}")
            } else {
                format!("({receives} - 1)")
            };
            let after = if moves {
                ": moved when the last receive's visibility timeout ends (F002, F007)"
            } else {
                ""
            };
            format!(
                "max_backlog {} + {n} × visibility {vis}{vis_why} = {bound}{after} (below retention {})",
                backlog.value, retention.value
            )
        });
        let assumption = Some(EdgeAssumption::Backlog {
            component: i,
            max_backlog: backlog.value,
        });
        (bound, why, assumption)
    } else {
        // An assumption that bounds nothing is not one (RH005 lists none).
        let why = text(&|| {
            format!(
                "retention {}{} (max_backlog does not lower it)",
                retention.value,
                provenance(&retention, what)
            )
        });
        (retention.value, why, None)
    }
}

/// The archive of a topic whose kind keeps one apart from delivery (SNS
/// FIFO, F015; a new EventBridge bus, F020), when the manifest declares
/// it, with the fact that says so.
fn archive(c: &Component) -> Option<(Eff<Dur>, &'static str)> {
    let kind = eff::kind_of(c);
    if !kind.has_flag(crate::catalog::Flag::RetentionIsArchive) {
        return None;
    }
    let fact = kind
        .fields
        .get("retention")
        .map_or("", |f| f.source.as_str());
    Some((eff::dur(c, Field::Retention)?, fact))
}

/// The retention that bounds delivery out of transport `c`: its
/// `retention`, except where that is an archive (`archive`): the delivery
/// span is then the delivery policy's, `max_event_age` (F016, F019).
fn delivery_retention(c: &Component) -> Option<Eff<Dur>> {
    if eff::kind_of(c).has_flag(crate::catalog::Flag::RetentionIsArchive) {
        return None;
    }
    eff::dur(c, Field::Retention)
}

/// What `transport_span` calls a retention it took at its kind's
/// documented maximum (`retention_cap`).
const CAPPED: &str = "retention not given: its documented maximum";

/// " (sqs-standard default, F003)", or for a retention taken at its
/// documented maximum " (event-hubs maximum, F054)".
fn provenance(r: &Eff<Dur>, what: &str) -> String {
    match &r.origin {
        Origin::Catalog { kind, source } if what == CAPPED => {
            format!(" ({kind} maximum, {source})")
        }
        _ => r.provenance(),
    }
}

/// Where a transport's retention is not given and its kind documents only
/// a maximum (Event Hubs 90 d, F054), that maximum: a message cannot be
/// kept longer, so the cap bounds the horizon instead of an assumed
/// unbounded retention. An archive (`archive`) is no delivery retention.
fn retention_cap(c: &Component) -> Option<Eff<Dur>> {
    let kind = eff::kind_of(c);
    if c.dur(Field::Retention).is_some() || kind.has_flag(crate::catalog::Flag::RetentionIsArchive)
    {
        return None;
    }
    let cap = kind.max_dur("retention")?;
    Some(Eff {
        value: cap.value,
        origin: Origin::Catalog {
            kind: std::borrow::Cow::Borrowed(kind.id.as_str()),
            source: cap.fact.source.as_str(),
        },
    })
}

/// The model of one edge. Its explanation goes to `why`, when wanted.
pub(super) fn edge_model(
    m: &Manifest,
    edge: &Edge,
    nodes: &[NodeModel],
    assumed: &mut Vec<Assumed>,
    why: &mut Why,
) -> EdgeModel {
    let (a, b) = (edge.from, edge.to);
    let link: &Link = Graph::link(m, edge);
    let (ca, cb) = (&m.components[a], &m.components[b]);
    let mut em = EdgeModel {
        from: a,
        to: b,
        ty: link.ty,
        link: edge.link,
        loc: link.loc,
        delay: Dur::ZERO,
        assumption: None,
        birth: None,
        passes_key: link.passes_key(),
        dedup_id: None,
        redrive_bound: None,
        hold: None,
        keeps_clock: false,
        named_start: link.flag(LinkField::NameFromKey).is_some_and(|n| n.value),
        policy_not_applied: false,
    };
    let mut retried = false;
    if let Some(r) = &link.retry {
        retried = add_retry(&mut em, link, r, (ca, cb), assumed, why);
    }
    // A stream mapping retries while the record is still in the stream, so
    // none of its retries come after the message left (`mapping`).
    let polls_stream = super::mapping::polls_stream(link.ty, nodes[a].generic, nodes[b].generic);
    let after = if polls_stream { Dur::ZERO } else { em.delay };
    match link.ty {
        LinkType::SendsTo => add_send(&mut em, link, cb),
        LinkType::DeliversTo | LinkType::DeadLetter => {
            add_delivery(&mut em, link, ca, (&nodes[a], &nodes[b]), assumed, why);
        }
        LinkType::Redrive => add_redrive(&mut em, link, ca, assumed, why),
        LinkType::Calls | LinkType::Effects => {}
    }
    if retried && em.birth.is_none() {
        em.birth = Some(Birth::Retry);
    }
    add_clock(&mut em, ca, cb, &nodes[a], assumed, after);
    super::targets::add_target(&mut em, cb, &nodes[a], &nodes[b], why);
    em
}

/// The message clock of an edge: out of a transport with a retention the
/// copy leaves by its enqueue age + that retention; a move into a
/// dead-letter queue keeps the enqueue time where the DLQ says so (F004),
/// else starts it again (F005; assumed when a generic queue does not say,
/// the later deadline).
fn add_clock(
    em: &mut EdgeModel,
    ca: &Component,
    cb: &Component,
    na: &NodeModel,
    assumed: &mut Vec<Assumed>,
    after: Dur,
) {
    let leaves = matches!(
        em.ty,
        LinkType::DeliversTo | LinkType::DeadLetter | LinkType::Redrive
    );
    if leaves && na.generic.is_transport() {
        em.hold = delivery_retention(ca).map(|r| super::clock::Hold::new(r.value, after));
    }
    // Only a queue's own redrive policy moves a message (F004, F005); a
    // topic, event bus, function or pipe that fails over to a queue sends
    // it a new message, whose clock starts at the send.
    if em.ty == LinkType::DeadLetter && na.generic == Generic::Queue {
        em.keeps_clock = match eff::boolean(cb, Field::DlqKeepsEnqueueTime) {
            Some(k) => k.value,
            None => {
                // Without a retention the clock bounds nothing.
                if eff::dur(cb, Field::Retention).is_some() {
                    assume(assumed, em.to, cb, "dlq_keeps_enqueue_time", "false");
                }
                false
            }
        };
    }
}

/// Adds the span of the link's retries `r` to the edge. Returns whether
/// it retries at all (a retry then gives birth to duplicates).
///
/// The time of one attempt is the retry's `timeout`, else the call's, else
/// for a `calls` how long one invocation of the callee `cb` may run (its
/// `timeout`, or its kind's documented one). Where none is known the
/// attempt of a call or a send takes 0 s, the shorter span: an assumption
/// RH041 names, never a silent one.
fn add_retry(
    em: &mut EdgeModel,
    link: &Link,
    r: &Retry,
    (ca, cb): (&Component, &Component),
    assumed: &mut Vec<Assumed>,
    why: &mut Why,
) -> bool {
    let callee = (link.ty == LinkType::Calls)
        .then(|| eff::dur(cb, Field::Timeout))
        .flatten();
    let fallback = link
        .dur(LinkField::Timeout)
        .map(|t| t.value)
        .or(callee.as_ref().map(|t| t.value));
    if r.attempts.as_ref().is_some_and(|a| a.value > 1) && r.timeout.is_none() {
        match (&callee, fallback) {
            (Some(t), _) if link.dur(LinkField::Timeout).is_none() => why.add(|| {
                format!(
                    "each attempt up to `{}`'s timeout {}{}",
                    cb.id,
                    t.value,
                    t.provenance()
                )
            }),
            // A delivery's attempts are the platform's (a push topic's cap
            // bounds them, `unwritten_backoff`); a client's are the call's
            // or the send's, which the manifest should say.
            (_, None) if matches!(link.ty, LinkType::Calls | LinkType::SendsTo) => assume(
                assumed,
                em.from,
                ca,
                &format!("{}.retry.timeout", link.ty.field()),
                "0s per attempt",
            ),
            _ => {}
        }
    }
    let s = retry::span(r, fallback);
    em.delay = em.delay.add(s.adds);
    // A push delivery whose count or backoff is not written is paced by
    // the platform (`add_delivery` says how): the sum of unwritten delays
    // would read as 0 s.
    let paced = link.ty == LinkType::DeliversTo
        && delivery_retention(ca).is_none()
        && eff::dur(ca, Field::MaxEventAge).is_some()
        && (r.attempts.is_none() || r.backoff.is_none());
    if paced {
        why.add(|| match &r.attempts {
            Some(n) => format!("retry {} attempts", n.value),
            None => "retry declared".to_string(),
        });
    } else {
        why.add(|| format!("retry {}", s.why));
    }
    s.attempts > 1
}

/// `sends_to` a transport (`cb`): how its dedup id is formed (the event
/// queue of an asynchronously invoked function is `targets`').
fn add_send(em: &mut EdgeModel, link: &Link, cb: &Component) {
    em.dedup_id = Some(link.choice(LinkField::DedupId).map_or_else(
        || {
            if eff::boolean(cb, Field::ContentBasedDedup).is_some_and(|x| x.value) {
                DedupId::Content
            } else {
                DedupId::None
            }
        },
        |d| d.value,
    ));
}

/// `delivers_to` or `dead_letter` out of a transport (`ca`): the span it
/// may still deliver in, and for a delivery its semantics.
fn add_delivery(
    em: &mut EdgeModel,
    link: &Link,
    ca: &Component,
    (na, nb): (&NodeModel, &NodeModel),
    assumed: &mut Vec<Assumed>,
    why: &mut Why,
) {
    let a = em.from;
    let receives = ca
        .dead_letter()
        .and_then(|d| d.count(LinkField::AfterReceives))
        .map(|x| x.value);
    let delivery = eff::delivery(ca);
    if delivery.origin == Origin::Assumed && na.generic.is_transport() {
        assume(assumed, a, ca, "delivery", "at-least-once");
    }
    let (mut span, mut span_why, assumption) = transport_span(
        a,
        ca,
        (receives, link.ty == LinkType::DeadLetter),
        assumed,
        why.wanted(),
    );
    // The cap that bounds the span, by name: `horizon` says which one it is.
    let mut cap = "max_event_age";
    if let Some(max_age) = link.dur(LinkField::MaxRecordAge)
        && max_age.value < span
    {
        span = max_age.value;
        cap = "max_record_age";
        if why.wanted() {
            span_why = format!("max_record_age {}", max_age.value);
        }
    }
    // A push transport's delivery retries are what its maximum event age
    // bounds: the two compose to the smaller, they do not add (F016, F017,
    // F019).
    let push = delivery_retention(ca).is_none() && eff::dur(ca, Field::MaxEventAge).is_some();
    let http = matches!(nb.generic, Generic::Service | Generic::External);
    if push && http && http_policy(em, link, ca, &mut span, &mut span_why, why) {
        cap = "the HTTP/S delivery policy cap";
    }
    if push && !http && managed_policy(em, link, ca, span, why) {
        em.delay = span;
    } else if push && let Some(r) = link.retry.as_ref().filter(|r| backoff_unwritten(r)) {
        em.delay = unwritten_backoff(em, link, r, ca, (cap, span), assumed, why);
    } else if push
        && let Some(r) = link.retry.as_ref().filter(|r| r.attempts.is_none())
        && let Some(n) = eff::documented(ca, "retry_attempts", Kind::default_count)
    {
        // No count written: the platform retries its documented default
        // count (F016, F017, F019), not once.
        let counted = Retry {
            attempts: Some(crate::manifest::model::Sp::new(n.value, link.loc)),
            ..(**r).clone()
        };
        let s = retry::span(&counted, link.dur(LinkField::Timeout).map(|t| t.value));
        em.delay = s.adds.min(span);
        why.add(|| {
            format!(
                "no attempts written: the default count{} applies, {}; with {cap} {span} the smaller, {}",
                n.provenance(),
                s.why,
                s.adds.min(span)
            )
        });
    } else if push && (link.retry.is_some() || em.delay > Dur::ZERO) {
        let retries = em.delay;
        em.delay = retries.min(span);
        why.add(|| {
            format!(
                "the retries and {cap} {span} compose to the smaller, {}",
                retries.min(span)
            )
        });
    } else if super::mapping::polls_stream(link.ty, na.generic, nb.generic) {
        em.delay = super::mapping::stream_delay(em.delay, span, why);
    } else {
        em.delay = em.delay.add(span);
    }
    em.assumption = assumption;
    if link.ty == LinkType::DeliversTo {
        if delivery.value == Delivery::AtLeastOnce {
            em.birth = Some(Birth::Redelivery);
        }
        let sem = match delivery.value {
            Delivery::AtLeastOnce => "at-least-once delivery",
            Delivery::AtMostOnce => "at-most-once delivery",
            Delivery::ExactlyOnce => "exactly-once delivery",
        };
        why.add(|| format!("{sem}: {span_why}"));
    } else {
        why.add(|| {
            format!("moved to dead-letter queue after the source's delivery span: {span_why}")
        });
    }
}

/// Whether a retry is repeated (or its count is not written) with no
/// written backoff: the time between its attempts is unknown, and an
/// unknown time is not zero.
fn backoff_unwritten(r: &Retry) -> bool {
    r.attempts.as_ref().is_none_or(|a| a.value > 1) && r.backoff.is_none()
}

/// A push delivery retried `r` times with no written backoff: the platform
/// decides the time between attempts, so the retries can last until the
/// cap `span` (named `cap`), or the retry's own `max_elapsed` when that is
/// smaller. Where the kind documents backoff up to the cap (EventBridge,
/// F017) that is the platform's behaviour; elsewhere it is assumed (RH041):
/// the longer horizon, never 0 s.
fn unwritten_backoff(
    em: &EdgeModel,
    link: &Link,
    r: &Retry,
    ca: &Component,
    (cap, span): (&str, Dur),
    assumed: &mut Vec<Assumed>,
    why: &mut Why,
) -> Dur {
    let (bound, by) = match &r.max_elapsed {
        Some(m) if m.value < span => (m.value, "max_elapsed"),
        _ => (span, cap),
    };
    match eff::documented(ca, "retry_backoff_to_cap", Kind::default_bool).filter(|d| d.value) {
        Some(d) => why.add(|| {
            format!(
                "no backoff written: {} retries with backoff until the cap{}, so the retries end by {by} {bound}",
                ca.kind.value,
                d.provenance()
            )
        }),
        None => {
            assume(
                assumed,
                em.from,
                ca,
                &format!("{}.retry.backoff", link.ty.field()),
                &format!("the retries last until {by} {bound}"),
            );
            why.add(|| {
                format!("no backoff written: the retries are assumed to last until {by} {bound} (RH041)")
            });
        }
    }
    bound
}

/// SNS retries an HTTP/S endpoint (a service or an external system, not an
/// AWS-managed endpoint) by the subscription's own delivery policy, 3
/// retries 20 s apart by default and at most 3,600 s in all (F016), instead
/// of the 23-day policy of AWS-managed endpoints. Topics whose kind
/// documents no HTTP/S policy are left as they are (returns false).
fn http_policy(
    em: &mut EdgeModel,
    link: &Link,
    ca: &Component,
    span: &mut Dur,
    span_why: &mut String,
    why: &mut Why,
) -> bool {
    let Some(cap) = eff::documented(ca, "http_max_event_age", Kind::default_dur) else {
        return false;
    };
    *span = cap.value;
    if why.wanted() {
        *span_why = format!(
            "HTTP/S endpoint: retries end by {}{}",
            cap.value,
            cap.provenance()
        );
    }
    if link.retry.is_none()
        && let Some(d) = eff::documented(ca, "http_retry_span", Kind::default_dur)
    {
        em.delay = em.delay.add(d.value);
        why.add(|| {
            format!(
                "HTTP/S default delivery policy {}{}",
                d.value,
                d.provenance()
            )
        });
    }
    true
}

/// A delivery policy (`retry`) on a subscription of a topic whose kind
/// documents an HTTP/S policy (SNS) to an AWS-managed endpoint (a queue, a
/// function, a stream): only HTTP/S policies can be customised, so the
/// fixed 23-day policy `span` applies and the declared one bounds nothing
/// (F016). Returns whether it set the policy aside.
fn managed_policy(
    em: &mut EdgeModel,
    link: &Link,
    ca: &Component,
    span: Dur,
    why: &mut Why,
) -> bool {
    if link.retry.is_none()
        || eff::documented(ca, "http_max_event_age", Kind::default_dur).is_none()
    {
        return false;
    }
    em.policy_not_applied = true;
    why.add(|| {
        format!("the declared retry does not apply: SNS delivers to an AWS-managed endpoint by its fixed policy, {span} (F016)")
    });
    true
}

/// `redrive` out of a dead-letter queue (`ca`): within the declared time,
/// else any time within its retention.
fn add_redrive(
    em: &mut EdgeModel,
    link: &Link,
    ca: &Component,
    assumed: &mut Vec<Assumed>,
    why: &mut Why,
) {
    let a = em.from;
    em.birth = Some(Birth::Redrive);
    em.redrive_bound = Some(link.count(LinkField::MaxTimes).map(|t| t.value));
    match link.dur(LinkField::Within) {
        Some(w) => {
            em.delay = em.delay.add(w.value);
            em.assumption = Some(EdgeAssumption::RedriveWithin {
                component: a,
                within: w.value,
            });
            why.add(|| format!("redrive within {} (declared)", w.value));
        }
        None => {
            let capped = eff::dur(ca, Field::Retention).is_none() && retention_cap(ca).is_some();
            let r = eff::dur(ca, Field::Retention)
                .or_else(|| retention_cap(ca))
                .unwrap_or_else(|| {
                    assume(assumed, a, ca, "retention", "unbounded");
                    Eff {
                        value: Dur::Unbounded,
                        origin: Origin::Assumed,
                    }
                });
            em.delay = em.delay.add(r.value);
            why.add(|| {
                format!(
                    "redrive any time within the dead-letter retention {}{}",
                    r.value,
                    provenance(&r, if capped { CAPPED } else { "retention" })
                )
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn queue(extra: &str) -> Component {
        let m = crate::manifest::from_str(&format!(
            "version: 1\ncomponents:\n  q:\n    kind: sqs-standard\n    visibility_timeout: 5m\n{extra}"
        ))
        .unwrap_or_else(|e| panic!("{}", e.render(false)));
        m.components[0].clone()
    }

    #[test]
    fn retention_is_the_span_without_a_declared_backlog() {
        let (span, why, assumption) =
            transport_span(0, &queue(""), (None, false), &mut Vec::new(), true);
        assert_eq!(span, Dur::secs(345_600));
        assert_eq!(why, "retention 4d (sqs-standard default, F003)");
        assert_eq!(assumption, None);
        let (_, unexplained, _) =
            transport_span(0, &queue(""), (None, false), &mut Vec::new(), false);
        assert_eq!(unexplained, "", "no words unless asked for");
    }

    #[test]
    fn a_declared_backlog_bounds_the_span_below_retention() {
        // 30 m + (3 - 1) × 5 m = 40 m, below the 4 d retention.
        let m = crate::manifest::from_str(
            "version: 1\ncomponents:\n  q: { kind: sqs-standard, visibility_timeout: 5m, max_backlog: 30m }\n",
        )
        .unwrap();
        let (span, why, assumption) =
            transport_span(0, &m.components[0], (Some(3), false), &mut Vec::new(), true);
        assert_eq!(span, Dur::secs(2_400));
        assert_eq!(
            why,
            "max_backlog 30m + (3 - 1) × visibility 5m = 40m (below retention 4d)"
        );
        let assumption = assumption.expect("the backlog is an assumption");
        assert_eq!(
            assumption,
            EdgeAssumption::Backlog {
                component: 0,
                max_backlog: Dur::secs(1_800)
            }
        );
        assert_eq!(assumption.text(&m), "max_backlog 30m on q");
    }

    #[test]
    fn the_move_comes_one_visibility_timeout_after_the_last_receive() {
        // F002, F007: 30 m + 3 × 5 m = 45 m = 2,700 s, not 40 m.
        let m = crate::manifest::from_str(
            "version: 1\ncomponents:\n  q: { kind: sqs-standard, visibility_timeout: 5m, max_backlog: 30m }\n",
        )
        .unwrap();
        let (span, why, _) =
            transport_span(0, &m.components[0], (Some(3), true), &mut Vec::new(), true);
        assert_eq!(span, Dur::secs(2_700));
        assert_eq!(
            why,
            "max_backlog 30m + 3 × visibility 5m = 45m: moved when the last receive's visibility timeout ends (F002, F007) (below retention 4d)"
        );
    }

    #[test]
    fn an_unknown_visibility_timeout_is_an_assumption() {
        // A generic queue documents none: 0 s, named by RH041.
        let m = crate::manifest::from_str(
            "version: 1\ncomponents:\n  q: { kind: queue, retention: 1d, max_backlog: 30m, max_receives: 3 }\n",
        )
        .unwrap();
        let mut assumed = Vec::new();
        let (span, _, _) = transport_span(0, &m.components[0], (None, true), &mut assumed, true);
        assert_eq!(span, Dur::secs(1_800));
        let fields: Vec<_> = assumed
            .iter()
            .map(|a| (a.field.as_str(), a.value.as_str()))
            .collect();
        assert_eq!(fields, vec![("visibility_timeout", "0s")]);
    }

    #[test]
    fn retention_caps_a_longer_backlog() {
        let (span, _, assumption) = transport_span(
            0,
            &queue("    retention: 1h\n    max_backlog: 2h\n"),
            (Some(5), false),
            &mut Vec::new(),
            true,
        );
        assert_eq!(span, Dur::secs(3_600));
        assert_eq!(
            assumption, None,
            "a backlog that bounds nothing is no assumption"
        );
    }

    #[test]
    fn without_a_receive_limit_the_backlog_bounds_nothing() {
        // F002/F003: redelivered until the 4d default retention (345,600 s).
        let mut assumed = Vec::new();
        let (span, why, assumption) = transport_span(
            0,
            &queue("    max_backlog: 30m\n"),
            (None, false),
            &mut assumed,
            true,
        );
        assert_eq!(span, Dur::secs(345_600));
        assert_eq!(
            why,
            "no receive limit: a failing message is redelivered until its retention 4d (sqs-standard default, F003) (max_backlog does not bound it)"
        );
        assert_eq!(assumption, None);
        assert!(assumed.is_empty(), "no dead-letter queue: nothing assumed");
    }

    #[test]
    fn push_transports_retry_for_their_maximum_event_age() {
        let m = crate::manifest::from_str("version: 1\ncomponents:\n  t: { kind: sns-standard }\n")
            .unwrap();
        let mut assumed = Vec::new();
        let (span, _, _) = transport_span(0, &m.components[0], (None, false), &mut assumed, true);
        assert_eq!(span, Dur::secs(23 * 86_400));
        assert!(assumed.is_empty());
    }
}
