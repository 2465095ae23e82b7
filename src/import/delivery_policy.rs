//! An SNS HTTP/S delivery policy as a link's `retry` (F016), for the
//! importers that read one (AsyncAPI bindings, Terraform subscriptions):
//! `numRetries` retries, each waiting at most `maxDelayTarget` (an upper
//! bound), and at most 1h in all, the HTTP/S cap.

use crate::import::{F, V, dur};

/// The fields that shape the delays under `maxDelayTarget`, named in its
/// comment.
pub const SHAPE_FIELDS: [&str; 5] = [
    "minDelayTarget",
    "numNoDelayRetries",
    "numMinDelayRetries",
    "numMaxDelayRetries",
    "backoffFunction",
];

/// What one delivery policy says, each value with the source text its
/// comment starts with.
pub struct Policy {
    pub retries: (i64, String),
    pub max_delay: Option<(i64, String)>,
    /// `name value` for each of [`SHAPE_FIELDS`] written.
    pub shape: Vec<String>,
}

/// The `retry` field of the subscription's link.
pub fn retry(p: Policy) -> F {
    let (n, at) = p.retries;
    let mut fields = vec![F::new(
        "attempts",
        V::S((n + 1).to_string()),
        Some(format!("{at}: {n} retries + the first attempt")),
    )];
    if let Some((max, at)) = p.max_delay {
        let shape = if p.shape.is_empty() {
            String::new()
        } else {
            format!(" ({} shape the delays below it)", p.shape.join(", "))
        };
        fields.push(F::new(
            "backoff",
            V::S(dur(max as u64)),
            Some(format!(
                "{at}: every retry waits at most this long, an upper bound{shape}"
            )),
        ));
        fields.push(F::new(
            "multiplier",
            V::S("1".into()),
            Some("the upper bound does not grow".into()),
        ));
    }
    fields.push(F::new(
        "max_elapsed",
        V::S("1h".into()),
        Some("HTTP/S total retry time is capped at 3,600 s (F016)".into()),
    ));
    F::new("retry", V::Map(fields), None)
}
