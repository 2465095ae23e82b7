//! EventBridge rules: their targets as `delivers_to` links, with the
//! target's RetryPolicy and dead-letter queue.

use super::intrinsics::Cf;
use super::{F, Node, Out, V, dead_letter, dur, link_target};

/// The targets of an `AWS::Events::Rule`.
pub(super) fn rule(cf: &Cf, out: &mut Out, id: &str, r: &Node, base: &str) {
    let p = |k: &str| r.at(&["Properties", k]);
    for (i, t) in p("Targets")
        .and_then(|n| cf.lit(n))
        .map(|n| n.items().to_vec())
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        event_target(cf, out, id, t, &format!("{base}.Targets[{i}]"));
    }
}

/// EventBridge RetryPolicy on a target: `retry` and `max_record_age` on the link.
pub(super) fn retry_policy(
    cf: &Cf,
    out: &mut Out,
    rule: &str,
    t: &Node,
    path: &str,
    link: &mut Vec<F>,
) {
    match t.get("RetryPolicy") {
        Some(rp) => {
            if let Some(n) = rp.get("MaximumRetryAttempts")
                && let Some(v) = cf.lit(n).and_then(|x| x.int())
                && v >= 0
            {
                let c = out.src(&format!("{path}.RetryPolicy.MaximumRetryAttempts"), n);
                link.push(F::retry_attempts(v, &c));
            }
            if let Some(n) = rp.get("MaximumEventAgeInSeconds")
                && let Some(v) = cf.lit(n).and_then(|x| x.int())
                && v > 0
            {
                let c = out.src(&format!("{path}.RetryPolicy.MaximumEventAgeInSeconds"), n);
                link.push(F::new(
                    "max_record_age",
                    V::S(dur(v as u64)),
                    Some(c.clone()),
                ));
                out.set(
                    rule,
                    F::new("max_event_age", V::S(dur(v as u64)), Some(c.clone())),
                );
                out.set(
                    rule,
                    F::new(
                        "retention",
                        V::S(dur(v as u64)),
                        Some(format!(
                            "{c}: EventBridge keeps retrying an event this long"
                        )),
                    ),
                );
            }
        }
        None => {
            link.push(F::new(
                "max_record_age",
                V::S("24h".into()),
                Some("EventBridge default maximum event age (no RetryPolicy)".into()),
            ));
        }
    }
}

fn event_target(cf: &Cf, out: &mut Out, rule: &str, t: &Node, path: &str) {
    let Some(arn) = t.get("Arn") else { return };
    if out
        .comp(rule)
        .is_some_and(|c| !c.fields.iter().any(|f| f.key == "delivery"))
    {
        out.set(
            rule,
            F::new(
                "delivery",
                V::S("at-least-once".into()),
                Some("EventBridge delivers to targets at least once".into()),
            ),
        );
        out.set(
            rule,
            F::new(
                "retention",
                V::S("24h".into()),
                Some("EventBridge default maximum event age".into()),
            ),
        );
    }
    let Some(to) = link_target(cf, out, rule, arn, &format!("{path}.Arn"), "delivers_to") else {
        return;
    };
    let mut link = vec![F::new(
        "to",
        V::S(to.clone()),
        Some(out.src(&format!("{path}.Arn"), arn)),
    )];
    retry_policy(cf, out, rule, t, path, &mut link);
    if !link.iter().any(|f| f.key == "max_record_age") {
        link.push(F::new(
            "max_record_age",
            V::S("24h".into()),
            Some("EventBridge default maximum event age".into()),
        ));
    }
    out.push_link(rule, "delivers_to", link);
    if let Some(d) = t.at(&["DeadLetterConfig", "Arn"]) {
        dead_letter(
            cf,
            out,
            rule,
            d,
            &format!("{path}.DeadLetterConfig.Arn"),
            None,
        );
    }
}
