//! S3 event notifications: a bucket's `NotificationConfiguration`
//! (`QueueConfigurations`, `TopicConfigurations`, `LambdaConfigurations`)
//! and SAM function events of type `S3` make the bucket a component that
//! delivers to the queue, topic or function; Lambda invokes a function S3
//! notifies asynchronously.
//!
//! No S3 notification value is in the platform-facts reference, so the
//! bucket is a generic `topic` with nothing more than the template writes
//! (no delivery semantic, retry or retention): a TODO on the component
//! says so.

use super::intrinsics::Cf;
use super::invocation::{Invocations, asynchronous};
use super::{F, Node, Out, V, link_target};

/// The three kinds of destination, the key of each configuration list and
/// the key of its destination.
const CONFIGURATIONS: [(&str, &str); 3] = [
    ("QueueConfigurations", "Queue"),
    ("TopicConfigurations", "Topic"),
    ("LambdaConfigurations", "Function"),
];

const NO_FACT: &str = "TODO: S3 event notifications are not in the platform-facts reference: how often S3 delivers an event and how it retries are not imported; declare `delivery` and the links' `retry` if known";

/// Whether bucket `r` notifies anything this importer reads: a
/// notification configuration with a queue, topic or function, or a SAM
/// function's `S3` event naming it.
pub(super) fn notifies(cf: &Cf, r: &Node) -> bool {
    let listed = r
        .at(&["Properties", "NotificationConfiguration"])
        .and_then(|n| cf.lit(n))
        .is_some_and(|nc| {
            CONFIGURATIONS
                .iter()
                .any(|(k, _)| nc.get(k).is_some_and(|l| !l.items().is_empty()))
        });
    if listed {
        return true;
    }
    let Some(lid) = cf
        .resources
        .iter()
        .find(|(_, _, res)| std::ptr::eq(*res, r))
        .map(|(lid, _, _)| lid)
    else {
        return false;
    };
    cf.resources
        .iter()
        .filter(|(_, ty, _)| ty == "AWS::Serverless::Function")
        .flat_map(|(_, _, f)| {
            f.at(&["Properties", "Events"])
                .map(Node::entries)
                .unwrap_or(&[])
        })
        .any(|(_, ev)| {
            ev.get("Type")
                .and_then(|t| cf.lit(t))
                .and_then(|t| t.text())
                .as_deref()
                == Some("S3")
                && ev
                    .at(&["Properties", "Bucket"])
                    .and_then(|b| cf.target(b).ok())
                    .is_some_and(|(b, _)| &b == lid)
        })
}

/// The notification configuration of an `AWS::S3::Bucket` (component
/// `id`): a `delivers_to` link to each destination.
pub(super) fn bucket(
    cf: &Cf,
    out: &mut Out,
    id: &str,
    r: &Node,
    base: &str,
    fn_hint: &mut Invocations,
) {
    out.note(id, NO_FACT.into());
    let path = format!("{base}.NotificationConfiguration");
    let Some(nc) = r
        .at(&["Properties", "NotificationConfiguration"])
        .and_then(|n| cf.lit(n))
    else {
        return;
    };
    if let Some(n) = nc.get("EventBridgeConfiguration") {
        out.note(id, format!("TODO: the bucket also sends its events to EventBridge's default bus ({}); the rules that match them are not linked", out.src(&format!("{path}.EventBridgeConfiguration"), n)));
    }
    for (list, key) in CONFIGURATIONS {
        let items = nc.get(list).and_then(|n| cf.lit(n));
        for (i, c) in items
            .as_ref()
            .map(Node::items)
            .unwrap_or(&[])
            .iter()
            .enumerate()
        {
            let cpath = format!("{path}.{list}[{i}]");
            let Some(dest) = c.get(key) else { continue };
            let dpath = format!("{cpath}.{key}");
            let Some(to) = link_target(cf, out, id, dest, &dpath, "delivers_to") else {
                continue;
            };
            let event = c
                .get("Event")
                .and_then(|n| cf.lit(n))
                .and_then(|n| n.text())
                .unwrap_or_else(|| "?".into());
            let at = out.src(&dpath, dest);
            deliver(out, id, &to, &event, at, fn_hint);
        }
    }
}

/// A SAM function event of type `S3` (`Bucket` names a bucket of the
/// template): the bucket delivers to function `fid`.
#[allow(clippy::too_many_arguments)]
pub(super) fn sam_event(
    cf: &Cf,
    out: &mut Out,
    fid: &str,
    name: &str,
    ev: &Node,
    props: &Node,
    epath: &str,
    fn_hint: &mut Invocations,
) {
    let bpath = format!("{epath}.Properties.Bucket");
    let Some(b) = props.get("Bucket") else {
        out.note(
            fid,
            format!(
                "TODO: event {name} (S3) has no Bucket ({})",
                out.src(epath, ev)
            ),
        );
        return;
    };
    let Some(bid) = link_target(cf, out, fid, b, &bpath, &format!("event {name}: bucket")) else {
        return;
    };
    let events = props
        .get("Events")
        .and_then(|n| cf.lit(n))
        .map(|n| match n.items() {
            [] => n.text().unwrap_or_else(|| n.brief()),
            items => items
                .iter()
                .map(|x| x.text().unwrap_or_else(|| x.brief()))
                .collect::<Vec<_>>()
                .join(", "),
        })
        .unwrap_or_else(|| "?".into());
    let at = out.src(&format!("{epath} (event of {fid})"), ev);
    deliver(out, &bid, fid, &events, at, fn_hint);
}

/// Bucket `bid` delivers `event` to `to` (the source comment `at`); a
/// function is invoked asynchronously (one link per destination: the
/// events of a second configuration are a note).
fn deliver(out: &mut Out, bid: &str, to: &str, event: &str, at: String, fn_hint: &mut Invocations) {
    let linked = out.comp(bid).is_some_and(|c| {
        c.fields
            .iter()
            .filter(|f| f.key == "delivers_to")
            .any(|f| match &f.val {
                V::Items(items) => items.iter().any(|l| {
                    l.iter()
                        .any(|x| x.key == "to" && matches!(&x.val, V::S(t) if t == to))
                }),
                _ => false,
            })
    });
    if linked {
        out.note(bid, format!("also {event} to `{to}` ({at})"));
    } else {
        out.push_link(
            bid,
            "delivers_to",
            vec![F::new(
                "to",
                V::S(to.to_string()),
                Some(format!("{at}: {event}")),
            )],
        );
    }
    if out.comp(to).is_some_and(|c| c.kind == "function") {
        asynchronous(fn_hint, to);
    }
}
