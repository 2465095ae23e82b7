//! Kinesis data streams (`describe-stream-summary`): the retention that
//! bounds how late a record can be read again.

use super::Item;
use super::ctx::{Ctx, Decl, arn_of, get, int};
use crate::diagnostics::Diagnostic;
use crate::import::{F, V, dur};

const TY: &str = "AWS::Kinesis::Stream";

/// The stream description of the item and its path.
fn summary<'a>(item: &'a Item) -> Item<'a> {
    match item.node.get("StreamDescriptionSummary") {
        Some(s) => Item {
            node: s,
            base: format!("{}.StreamDescriptionSummary", item.base),
            hint: item.hint,
            arn: item.arn.clone(),
            shape: item.shape,
        },
        None => Item {
            node: item.node,
            base: item.base.clone(),
            hint: item.hint,
            arn: item.arn.clone(),
            shape: item.shape,
        },
    }
}

pub(super) fn declare(item: &Item, decls: &mut Vec<Decl>) -> Result<(), Diagnostic> {
    let s = summary(item);
    if let Some((arn, n, p)) = arn_of(&s, &["StreamARN"]) {
        decls.extend(Decl::of_arn(&arn, &n, &p, "kinesis", TY, true));
    }
    Ok(())
}

pub(super) fn read(cx: &mut Ctx, item: &Item) -> Result<(), Diagnostic> {
    let s = summary(item);
    let Some((arn, _, _)) = arn_of(&s, &["StreamARN"]) else {
        return Ok(());
    };
    let Some(id) = cx.id(&arn) else { return Ok(()) };
    if let Some(n) = get(s.node, "RetentionPeriodHours") {
        let p = format!("{}.RetentionPeriodHours", s.base);
        let h = int(n, &p)?;
        let c = cx.src(&p, n);
        cx.out.set(
            &id,
            F::new(
                "retention",
                V::S(dur(h.max(0) as u64 * 3600)),
                Some(format!("{c}: {h} h")),
            ),
        );
    }
    Ok(())
}
