//! EventBridge rules: their targets as `delivers_to` links, with the
//! target's RetryPolicy and dead-letter queue; API destinations (an HTTP
//! endpoint outside, `external`) and the `Idempotency-Key` header a target
//! sends them.

use super::intrinsics::Cf;
use super::{F, Node, Out, V, dead_letter, dur, link_target};

/// The targets of an `AWS::Events::Rule`.
pub(super) fn rule(cf: &Cf, out: &mut Out, id: &str, r: &Node, base: &str) {
    let p = |k: &str| r.at(&["Properties", k]);
    let mut ages: Vec<Option<(u64, String)>> = Vec::new();
    for (i, t) in p("Targets")
        .and_then(|n| cf.lit(n))
        .map(|n| n.items().to_vec())
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        if let Some(age) = event_target(cf, out, id, t, &format!("{base}.Targets[{i}]")) {
            ages.push(age);
        }
    }
    if ages.len() > 1
        && let Some((age, c)) = longest_age(&ages)
    {
        out.set(id, F::new("max_event_age", V::S(dur(age)), Some(c.clone())));
        out.set(id, F::new("retention", V::S(dur(age)), Some(c)));
    }
}

/// How long a rule keeps an event: as long as its most patient target
/// retries it (`ages`: each target's maximum event age in seconds and its
/// source; `None` for a target without a RetryPolicy age, which keeps the
/// 24 h default, F017), with the comment that says where that comes from.
/// The CloudFormation and AWS export importers read it alike.
pub(crate) fn longest_age(ages: &[Option<(u64, String)>]) -> Option<(u64, String)> {
    let age = ages
        .iter()
        .map(|a| a.as_ref().map_or(86_400, |(s, _)| *s))
        .max()?;
    let c = match ages.iter().flatten().find(|(s, _)| *s == age) {
        Some((_, c)) => format!("{c}: the longest maximum event age of the rule's targets"),
        None => {
            "EventBridge default maximum event age (a target without RetryPolicy age, F017)".into()
        }
    };
    Some((age, c))
}

/// The properties of an `AWS::Events::ApiDestination`: an HTTP endpoint
/// outside (notes on its endpoint, rate limit and connection).
pub(super) fn api_destination(cf: &Cf, out: &mut Out, id: &str, r: &Node, base: &str) {
    let p = |k: &str| r.at(&["Properties", k]);
    let text = |k: &str| p(k).and_then(|n| cf.lit(n)).and_then(|n| n.text());
    let endpoint = text("InvocationEndpoint").unwrap_or_else(|| "?".into());
    let method = text("HttpMethod").unwrap_or_else(|| "?".into());
    out.note(id, format!("API destination: {method} {endpoint} ({}); TODO: accepts_key and key_window if the endpoint deduplicates by a key it is sent", out.src(&format!("{base}.InvocationEndpoint"), p("InvocationEndpoint").unwrap_or(r))));
    if let Some(n) = p("InvocationRateLimitPerSecond") {
        out.note(id, format!("InvocationRateLimitPerSecond {} ({}): events above the rate wait and are retried under the target's RetryPolicy", n.brief(), out.src(&format!("{base}.InvocationRateLimitPerSecond"), n)));
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
                Some("EventBridge default maximum event age (no RetryPolicy, F017)".into()),
            ));
        }
    }
}

/// One target of a rule; its maximum event age in seconds and the source
/// of that age, when its RetryPolicy sets one.
fn event_target(
    cf: &Cf,
    out: &mut Out,
    rule: &str,
    t: &Node,
    path: &str,
) -> Option<Option<(u64, String)>> {
    let arn = t.get("Arn")?;
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
                Some("EventBridge default maximum event age (F017)".into()),
            ),
        );
    }
    let to = link_target(cf, out, rule, arn, &format!("{path}.Arn"), "delivers_to")?;
    let passed = idempotency_header(cf, out, &to, t, path);
    let mut link = vec![F::new(
        "to",
        V::S(to.clone()),
        Some(out.src(&format!("{path}.Arn"), arn)),
    )];
    // An HTTP endpoint finds the key only in a header the target sets.
    let api = cf
        .target(arn)
        .ok()
        .and_then(|(r, _)| cf.ty(&r).map(str::to_owned));
    if api.as_deref() == Some("AWS::Events::ApiDestination") && !passed {
        let c =
            "no Idempotency-Key header in the target's HttpParameters: the endpoint is sent no key";
        link.push(F::new("passes_key", V::S("false".into()), Some(c.into())));
    }
    retry_policy(cf, out, rule, t, path, &mut link);
    if !link.iter().any(|f| f.key == "max_record_age") {
        link.push(F::new(
            "max_record_age",
            V::S("24h".into()),
            Some("EventBridge default maximum event age (F017)".into()),
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
    let age = t
        .at(&["RetryPolicy", "MaximumEventAgeInSeconds"])
        .and_then(|n| Some((cf.lit(n)?.int().filter(|v| *v > 0)?, n)))
        .map(|(v, n)| {
            let c = out.src(&format!("{path}.RetryPolicy.MaximumEventAgeInSeconds"), n);
            (v as u64, c)
        });
    Some(age)
}

/// An `Idempotency-Key` header among the target's `HttpParameters`: the
/// key reaches the destination `to` (a note on it); whether there is one.
fn idempotency_header(cf: &Cf, out: &mut Out, to: &str, t: &Node, path: &str) -> bool {
    let headers = t
        .at(&["HttpParameters", "HeaderParameters"])
        .map(Node::entries)
        .unwrap_or(&[]);
    let Some((name, v)) = headers
        .iter()
        .find(|(k, _)| k.key().eq_ignore_ascii_case("idempotency-key"))
    else {
        return false;
    };
    let name = name.key();
    let value = cf.lit(v).map_or_else(|| v.brief(), |n| n.brief());
    out.note(to, format!("the rule sends header {name}: {value} ({}): the key is passed; TODO: `accepts_key: true` and `key_window` if the endpoint deduplicates by it", out.src(&format!("{path}.HttpParameters.HeaderParameters.{name}"), v)));
    true
}
