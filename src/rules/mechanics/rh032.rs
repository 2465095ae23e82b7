//! RH032 physical-ttl-defines-validity: key validity left to physical TTL
//! deletion (page `docs/rules/RH032.md`). Quiet when the store's kind checks
//! each record's expiry itself (catalog flag `checks_record_expiry`,
//! Powertools, F040-F042), whatever `expiry` an imported table declares.

use crate::catalog::Flag;
use crate::manifest::model::{Expiry, Guard};
use crate::rules::{Code, Ctx, Finding};

pub(crate) fn emit(ctx: &Ctx, out: &mut Vec<Finding>) {
    for (c, intent) in ctx.reached() {
        if let Some(g) = &ctx.m.components[c].dedup {
            guard(ctx, g, intent, out);
        }
    }
}

/// RH032: validity left to physical TTL deletion.
fn guard(ctx: &Ctx, guard: &Guard, intent: &str, out: &mut Vec<Finding>) {
    if let Some(s) = guard.store.index()
        && !ctx.values(s).kind.has_flag(Flag::ChecksRecordExpiry)
        && let Some(exp) = ctx
            .values(s)
            .expiry()
            .filter(|e| e.value == Expiry::PhysicalTtl)
    {
        let store = &ctx.m.components[s];
        out.push(
            Finding::new(
                Code::RH032,
                format!(
                    "`{}` leaves the expiry of keys to physical TTL deletion{}: deletion runs late and expired records stay readable, so validity must be a timestamp checked in code",
                    store.id,
                    exp.provenance()
                ),
            )
            .intent(intent)
            .on_value(store, &exp),
        );
    }
}
