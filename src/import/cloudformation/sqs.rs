//! SQS queues: visibility timeout, retention, FIFO deduplication, the
//! dead-letter queue of a RedrivePolicy and the redrive a
//! RedriveAllowPolicy permits.

use super::intrinsics::Cf;
use super::{F, Node, Out, V, boolean, dead_letter, duration, json_object, kebab};
use crate::import::scalar;

/// The properties of an `AWS::SQS::Queue`.
pub(super) fn queue(cf: &Cf, out: &mut Out, id: &str, lid: &str, r: &Node, base: &str) {
    let p = |k: &str| r.at(&["Properties", k]);
    duration(
        cf,
        out,
        id,
        "visibility_timeout",
        p("VisibilityTimeout"),
        &format!("{base}.VisibilityTimeout"),
        1,
    );
    duration(
        cf,
        out,
        id,
        "retention",
        p("MessageRetentionPeriod"),
        &format!("{base}.MessageRetentionPeriod"),
        1,
    );
    boolean(
        cf,
        out,
        id,
        "content_based_dedup",
        p("ContentBasedDeduplication"),
        &format!("{base}.ContentBasedDeduplication"),
    );
    if let Some(n) = p("DeduplicationScope")
        && let Some(v) = cf.lit(n).and_then(|v| v.text())
    {
        let scope = if v == "messageGroup" {
            "message-group".to_string()
        } else {
            kebab(&v)
        };
        let c = out.src(&format!("{base}.DeduplicationScope"), n);
        out.set(id, F::new("dedup_scope", V::S(scalar(&scope)), Some(c)));
    }
    if let Some(rp) = p("RedrivePolicy").and_then(|n| json_object(cf, n)) {
        let rpath = format!("{base}.RedrivePolicy");
        let count = rp
            .get("maxReceiveCount")
            .and_then(|n| cf.lit(n))
            .and_then(|n| n.int())
            .map(|c| (c, rp.get("maxReceiveCount").unwrap_or(&rp).clone()));
        match rp.get("deadLetterTargetArn") {
            Some(t) => dead_letter(
                cf,
                out,
                id,
                t,
                &format!("{rpath}.deadLetterTargetArn"),
                count.map(|(c, n)| (c, n, format!("{rpath}.maxReceiveCount"))),
            ),
            None => out.note(
                id,
                format!(
                    "TODO: RedrivePolicy without deadLetterTargetArn ({})",
                    out.src(&rpath, &rp)
                ),
            ),
        }
    }
    if let Some(rap) = p("RedriveAllowPolicy").and_then(|n| json_object(cf, n)) {
        redrive_allow(
            cf,
            out,
            id,
            lid,
            &rap,
            &format!("{base}.RedriveAllowPolicy"),
        );
    }
}

fn redrive_allow(cf: &Cf, out: &mut Out, id: &str, lid: &str, rap: &Node, path: &str) {
    let perm = rap
        .get("redrivePermission")
        .and_then(|n| cf.lit(n))
        .and_then(|n| n.text())
        .unwrap_or_else(|| "allowAll".into());
    if perm == "denyAll" {
        out.note(id, format!("RedriveAllowPolicy denyAll: no queue may use this one as its dead-letter queue ({})", out.src(path, rap)));
        return;
    }
    // The sources: queues whose RedrivePolicy points here.
    let sources: Vec<String> = cf
        .resources
        .iter()
        .filter(|(_, t, _)| t == "AWS::SQS::Queue")
        .filter(|(_, _, r)| {
            r.at(&["Properties", "RedrivePolicy"])
                .and_then(|n| json_object(cf, n))
                .and_then(|rp| rp.get("deadLetterTargetArn").map(|t| cf.target(t)))
                .is_some_and(|t| matches!(t, Ok((ref x, _)) if x == lid))
        })
        .filter_map(|(l, _, _)| cf.ids.get(l).cloned())
        .collect();
    match sources.as_slice() {
        [src] => {
            let c = out.src(&format!("{path}.redrivePermission"), rap);
            out.set(
                id,
                F::new(
                    "redrive",
                    V::Map(vec![
                        F::new("to", V::S(src.clone()), Some(format!("{c}: {perm} lets messages move back to their source"))),
                        F::new("mode", V::S("manual".into()), Some("TODO: manual or automatic? the template cannot tell".into())),
                    ]),
                    Some("TODO: add `within` (how late redrives happen) and `max_times`".into()),
                ),
            );
        }
        [] => out.note(id, format!("RedriveAllowPolicy {perm}: no queue of this template uses this one as its dead-letter queue ({})", out.src(path, rap))),
        many => out.note(
            id,
            format!("TODO: redrive: RedriveAllowPolicy {perm} and several sources ({}); declare the redrive you perform ({})", many.join(", "), out.src(path, rap)),
        ),
    }
}
