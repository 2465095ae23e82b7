//! DynamoDB tables and global tables: TTL expiry, the table's stream, and
//! for a global table its replica regions, replication and write mode.

use super::intrinsics::Cf;
use super::{F, Node, Out, V};

/// The properties of an `AWS::DynamoDB::Table` or (`global`) `AWS::DynamoDB::GlobalTable`.
pub(super) fn table(cf: &Cf, out: &mut Out, id: &str, lid: &str, r: &Node, global: bool) {
    let base = format!("Resources.{lid}.Properties");
    let ttl = r.at(&["Properties", "TimeToLiveSpecification"]);
    if let Some(t) = ttl {
        let enabled = t
            .get("Enabled")
            .and_then(|n| cf.lit(n))
            .and_then(|n| n.boolean())
            .unwrap_or(false);
        let attr = t
            .get("AttributeName")
            .and_then(|n| cf.lit(n))
            .and_then(|n| n.text())
            .unwrap_or_default();
        let path = format!("{base}.TimeToLiveSpecification");
        if enabled {
            let c = out.src(&format!("{path}.Enabled"), t.get("Enabled").unwrap_or(t));
            out.set(
                id,
                F::new(
                    "expiry",
                    V::S("physical-ttl".into()),
                    Some(format!(
                        "{}{c}: items expire by TTL on `{attr}`",
                        crate::manifest::load::defaults::MARK
                    )),
                ),
            );
            out.note(
                id,
                "TODO: retention: how long the application sets the TTL attribute after a claim"
                    .into(),
            );
        }
    } else {
        out.note(
            id,
            "TODO: retention and expiry (application | physical-ttl): the template sets no TTL"
                .into(),
        );
    }
    if global {
        global_table(cf, out, id, r, &base);
    }
}

/// The replicas of a global table: regions, replication and write mode.
fn global_table(cf: &Cf, out: &mut Out, id: &str, r: &Node, base: &str) {
    let replicas = r
        .at(&["Properties", "Replicas"])
        .and_then(|n| cf.lit(n))
        .map(|n| n.items().to_vec())
        .unwrap_or_default();
    let mut regions = Vec::new();
    for (i, rep) in replicas.iter().enumerate() {
        match rep
            .get("Region")
            .map(|n| (cf.lit(n).and_then(|x| x.text()), n))
        {
            Some((Some(reg), n)) if crate::manifest::load::is_valid_id(&reg) => {
                let c = out.src(&format!("{base}.Replicas[{i}].Region"), n);
                out.region(&reg, c);
                regions.push(reg);
            }
            Some((_, n)) => out.note(
                id,
                format!(
                    "TODO: replica region `{}` is known only at deployment ({})",
                    n.brief(),
                    out.src(&format!("{base}.Replicas[{i}].Region"), n)
                ),
            ),
            None => {}
        }
    }
    let replicas_node = r.at(&["Properties", "Replicas"]).unwrap_or(r);
    if !regions.is_empty() {
        let c = out.src(&format!("{base}.Replicas"), replicas_node);
        out.set(id, F::new("regions", V::List(regions), Some(c)));
    }
    let strong = r
        .at(&["Properties", "MultiRegionConsistency"])
        .and_then(|n| cf.lit(n))
        .and_then(|n| n.text());
    let (rep, why) = match strong.as_deref() {
        Some("STRONG") => (
            "sync",
            format!(
                "{}: MultiRegionConsistency STRONG (F039)",
                out.src(
                    &format!("{base}.MultiRegionConsistency"),
                    r.at(&["Properties", "MultiRegionConsistency"]).unwrap_or(r)
                )
            ),
        ),
        _ => (
            "async",
            format!(
                "{}: global tables replicate asynchronously unless MultiRegionConsistency is STRONG (F038)",
                out.src(&format!("{base}.Replicas"), replicas_node)
            ),
        ),
    };
    out.set(id, F::new("replication", V::S(rep.into()), Some(why)));
    if rep == "async" {
        let c = out.src(&format!("{base}.Replicas"), replicas_node);
        out.set(
            id,
            F::new(
                "mode",
                V::S("active-active".into()),
                Some(format!("{c}: every replica accepts writes (F038)")),
            ),
        );
    }
}

/// The stream component of table `res` (component `id`), `<id>-stream`,
/// added the first time a mapping or pipe reads it: the table `sends_to`
/// it, so an intent that starts at the table reaches the stream's readers.
/// Its retention is not in the platform facts, so none is written: a TODO
/// asks for it, and until then the analysis states its assumption (RH041).
pub(super) fn table_stream(cf: &Cf, out: &mut Out, res: &str, id: &str) -> String {
    let sid = format!("{id}-stream");
    if out.has(&sid) {
        return sid;
    }
    out.add(
        &sid,
        "stream",
        format!("DynamoDB stream of Resources.{res}"),
    );
    out.note(
        &sid,
        "TODO: retention: how long the stream keeps a record (not in the platform facts); until it is declared the analysis assumes one (RH041)".into(),
    );
    let spec = cf
        .resources
        .iter()
        .find(|(r, _, _)| r == res)
        .map(|(_, _, n)| (*n, n.at(&["Properties", "StreamSpecification"])));
    let c = match spec {
        Some((_, Some(s))) => Some(out.src(
            &format!("Resources.{res}.Properties.StreamSpecification"),
            s,
        )),
        Some((n, None)) => Some(out.src(&format!("Resources.{res}"), n)),
        None => None,
    };
    out.push_link(id, "sends_to", vec![F::new("to", V::S(sid.clone()), c)]);
    sid
}
