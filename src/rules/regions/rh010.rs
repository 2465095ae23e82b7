//! RH010 region-crossing-without-shared-state: a copy from another Region
//! gets past a layer that cannot see it (a guard whose store does not run
//! in that Region, a Region-scoped provider key or transport window, a
//! store replicated asynchronously after a failover) and no later layer
//! stops it (page `docs/rules/RH010.md`; the cases are in `scopes.rs`).

use crate::rules::{Ctx, Finding};

pub(crate) fn emit(ctx: &Ctx, out: &mut Vec<Finding>) {
    super::scopes::regions(ctx, out);
}
