//! SNS topics and subscriptions: who a topic delivers to, and the
//! dead-letter queue of a subscription.

use super::intrinsics::Cf;
use super::{F, Node, Out, V, boolean, dead_letter, link_target};

/// The properties of an `AWS::SNS::Topic`: deduplication and inline
/// subscriptions.
pub(super) fn topic(cf: &Cf, out: &mut Out, id: &str, r: &Node, base: &str) {
    let p = |k: &str| r.at(&["Properties", k]);
    boolean(
        cf,
        out,
        id,
        "content_based_dedup",
        p("ContentBasedDeduplication"),
        &format!("{base}.ContentBasedDeduplication"),
    );
    for (i, s) in p("Subscription")
        .and_then(|n| cf.lit(n))
        .map(|n| n.items().to_vec())
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        if let Some(e) = s.get("Endpoint") {
            subscription(
                cf,
                out,
                id,
                e,
                &format!("{base}.Subscription[{i}].Endpoint"),
            );
        }
    }
}

/// An `AWS::SNS::Subscription`: a `delivers_to` link on its topic.
pub(super) fn subscription_resource(cf: &Cf, out: &mut Out, lid: &str, r: &Node) {
    let base = format!("Resources.{lid}.Properties");
    let topic = r
        .at(&["Properties", "TopicArn"])
        .map(|n| cf.target(n).map(|(t, _)| cf.id(&t).cloned()));
    let endpoint = r.at(&["Properties", "Endpoint"]);
    match (topic, endpoint) {
        (Some(Ok(Some(tid))), Some(e)) => {
            subscription(cf, out, &tid, e, &format!("{base}.Endpoint"));
            if let Some(dlq) = r.at(&["Properties", "RedrivePolicy", "deadLetterTargetArn"]) {
                dead_letter(
                    cf,
                    out,
                    &tid,
                    dlq,
                    &format!("{base}.RedrivePolicy.deadLetterTargetArn"),
                    None,
                );
            }
        }
        _ => out.unsupported(
            "AWS::SNS::Subscription",
            format!("Resources.{lid} (SNS subscription): topic or endpoint not in this template"),
            out.src(&base, r),
        ),
    }
}

fn subscription(cf: &Cf, out: &mut Out, topic: &str, endpoint: &Node, path: &str) {
    if let Some(to) = link_target(cf, out, topic, endpoint, path, "delivers_to") {
        let c = out.src(path, endpoint);
        out.push_link(topic, "delivers_to", vec![F::new("to", V::S(to), Some(c))]);
    }
}
