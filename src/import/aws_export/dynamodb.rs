//! DynamoDB tables (`describe-table`, or a Config item), their TTL
//! (`describe-time-to-live`) and point-in-time recovery
//! (`describe-continuous-backups`, or a Config item's supplementary
//! configuration); a global table's replica Regions; a table's stream,
//! when a mapping reads it.

use super::ctx::{Ctx, Decl, arn_of, at, get, text};
use super::{Item, Node, Shape};
use crate::diagnostics::Diagnostic;
use crate::import::{F, V, Value};

const TY: &str = "AWS::DynamoDB::Table";

/// The table description of the item (`describe-table`'s `Table`, or a
/// Config item's configuration), as an item of its own.
fn table_item<'a>(item: &Item<'a>) -> Item<'a> {
    let (node, base) = match item.node.get("Table") {
        Some(t) => (t, format!("{}.Table", item.base)),
        None => (item.node, item.base.clone()),
    };
    Item {
        node,
        base,
        hint: None,
        arn: item.arn.clone(),
        shape: item.shape,
    }
}

fn replicas<'a>(t: &'a Node, base: &str) -> Result<&'a [Node], Diagnostic> {
    match get(t, "Replicas") {
        None => Ok(&[]),
        Some(n) => match &n.value {
            Value::Seq(items) => Ok(items),
            _ => Err(n.error_at(
                format!(
                    "`{base}.Replicas` must be a list, found {}",
                    n.value.type_name()
                ),
                "give the JSON `aws dynamodb describe-table` printed, unchanged",
            )),
        },
    }
}

pub(super) fn declare(item: &Item, decls: &mut Vec<Decl>) -> Result<(), Diagnostic> {
    if item.shape == Shape::DynamoTable {
        let sub = table_item(item);
        let global = !replicas(sub.node, &sub.base)?.is_empty();
        let kind = if global {
            "dynamodb-global-table"
        } else {
            "dynamodb-table"
        };
        if let Some((arn, n, p)) = arn_of(&sub, &["TableArn"]) {
            decls.extend(Decl::of_arn(&arn, &n, &p, kind, TY, true));
        }
        return Ok(());
    }
    match (&item.arn, item.hint) {
        (Some((arn, n, p)), _) => {
            decls.extend(Decl::of_arn(arn, n, p, "dynamodb-table", TY, false))
        }
        (None, Some(name)) => decls.push(Decl::named(
            "dynamodb",
            name,
            "dynamodb-table",
            TY,
            &item.base,
            item.node,
        )),
        (None, None) => {
            return Err(item.node.error_at(
                "this DynamoDB output does not name its table, and the file name does not either",
                "name the file `dynamodb-ttl.<table>.json` or `dynamodb-backups.<table>.json`",
            ));
        }
    }
    Ok(())
}

fn component(cx: &Ctx, item: &Item) -> Option<String> {
    match (&item.arn, item.hint) {
        (Some((arn, _, _)), _) => cx.id(arn),
        (None, Some(name)) => cx.find(name, "dynamodb"),
        _ => None,
    }
}

/// `describe-table`: a global table's replica Regions, replication and
/// write mode.
pub(super) fn table(cx: &mut Ctx, item: &Item) -> Result<(), Diagnostic> {
    let sub = table_item(item);
    let (t, base) = (sub.node, sub.base.as_str());
    let Some((arn, arn_node, _)) = arn_of(&sub, &["TableArn"]) else {
        return Ok(());
    };
    let Some(id) = cx.id(&arn) else { return Ok(()) };
    let reps = replicas(t, base)?;
    if reps.is_empty() {
        return Ok(());
    }
    let mut regions: Vec<String> = super::arn::parse(&arn)
        .map(|a| a.region)
        .into_iter()
        .collect();
    for (i, r) in reps.iter().enumerate() {
        let Some(n) = get(r, "RegionName") else {
            continue;
        };
        let p = format!("{base}.Replicas[{i}].RegionName");
        let reg = text(n, &p)?;
        if crate::manifest::load::is_valid_id(&reg) && !regions.contains(&reg) {
            let c = cx.src(&p, n);
            cx.out.region(&reg, c);
            regions.push(reg);
        }
    }
    let rp = format!("{base}.Replicas");
    let c = cx.src(&rp, get(t, "Replicas").unwrap_or(&arn_node));
    cx.out.set(
        &id,
        F::new(
            "regions",
            V::List(regions),
            Some(format!("{c}: the table's Region and its replicas'")),
        ),
    );
    cx.out.set(&id, F::new("replication", V::S("async".into()), Some(format!("{c}: global tables replicate asynchronously unless MultiRegionConsistency is STRONG (F038)"))));
    cx.out.set(
        &id,
        F::new(
            "mode",
            V::S("active-active".into()),
            Some(format!("{c}: every replica accepts writes (F038)")),
        ),
    );
    Ok(())
}

/// `describe-time-to-live`: items expire by TTL, or are kept.
pub(super) fn ttl(cx: &mut Ctx, item: &Item) -> Result<(), Diagnostic> {
    let Some(id) = component(cx, item) else {
        return Ok(());
    };
    let base = format!("{}.TimeToLiveDescription", item.base);
    let Some(d) = item.node.get("TimeToLiveDescription") else {
        return Ok(());
    };
    let Some(s) = d.get("TimeToLiveStatus") else {
        return Ok(());
    };
    let sp = format!("{base}.TimeToLiveStatus");
    let status = text(s, &sp)?;
    let attr = match d.get("AttributeName") {
        Some(a) => text(a, &format!("{base}.AttributeName"))?,
        None => String::new(),
    };
    let c = cx.src(&sp, s);
    if matches!(status.as_str(), "ENABLED" | "ENABLING") {
        cx.out.set(
            &id,
            F::new(
                "expiry",
                V::S("physical-ttl".into()),
                Some(format!(
                    "{}{c}: {status}, items expire by TTL on `{attr}`",
                    crate::manifest::load::defaults::MARK
                )),
            ),
        );
        cx.out.note(
            &id,
            "TODO: retention: how long the application sets the TTL attribute after a claim".into(),
        );
    } else {
        cx.out.note(&id, format!("TTL {status} ({c}): the table expires no item; TODO: retention and expiry (application) if the application deletes them"));
    }
    Ok(())
}

/// `describe-continuous-backups`: point-in-time recovery, a note for the
/// failover review.
pub(super) fn backups(cx: &mut Ctx, item: &Item) -> Result<(), Diagnostic> {
    let Some(id) = component(cx, item) else {
        return Ok(());
    };
    let d = item
        .node
        .get("ContinuousBackupsDescription")
        .unwrap_or(item.node);
    let base = if item.node.get("ContinuousBackupsDescription").is_some() {
        format!("{}.ContinuousBackupsDescription", item.base)
    } else {
        item.base.clone()
    };
    let Some(s) = at(
        d,
        &[
            "PointInTimeRecoveryDescription",
            "PointInTimeRecoveryStatus",
        ],
    ) else {
        return Ok(());
    };
    let p = format!("{base}.PointInTimeRecoveryDescription.PointInTimeRecoveryStatus");
    let status = text(s, &p)?;
    let c = cx.src(&p, s);
    let note = if status == "ENABLED" {
        format!(
            "point-in-time recovery ENABLED ({c}): a table restored to an earlier time has lost the items written since, the dedup records among them; copies replayed after such a restore are not recognised by them"
        )
    } else {
        format!(
            "point-in-time recovery {status} ({c}): the table cannot be restored to an earlier time"
        )
    };
    cx.out.note(&id, note);
    Ok(())
}

/// The stream component of table `id`, `<id>-stream`, added the first time
/// a mapping reads it; the table `sends_to` it. Its retention is not in
/// the platform facts: a TODO asks for it (RH041 states the assumption).
pub(super) fn stream(cx: &mut Ctx, id: &str, n: &Node, p: &str) -> String {
    let sid = format!("{id}-stream");
    if cx.out.has(&sid) {
        return sid;
    }
    let c = cx.src(p, n);
    cx.out
        .add(&sid, "stream", format!("DynamoDB stream of `{id}`, {c}"));
    cx.out.note(&sid, "TODO: retention: how long the stream keeps a record (not in the platform facts); until it is declared the analysis assumes one (RH041)".into());
    cx.out.push_link(
        id,
        "sends_to",
        vec![F::new("to", V::S(sid.clone()), Some(c))],
    );
    sid
}
