//! RH035 non-atomic-claim: claims that two overlapping copies can both
//! pass (page `docs/rules/RH035.md`).

use crate::manifest::model::Claim;
use crate::rules::{Code, Ctx, Finding};

/// RH035: claims that are not atomic.
pub(crate) fn emit(ctx: &Ctx, out: &mut Vec<Finding>) {
    let a = ctx.a;
    let m = a.manifest;
    let first = |c| a.first_intent_reaching(c);
    for (c, comp) in m.components.iter().enumerate() {
        let Some(g) = &comp.dedup else { continue };
        let Some(claim) = &g.claim else { continue };
        let what = match claim.value {
            Claim::ConditionalWrite => continue,
            Claim::ReadThenWrite => "reads, then writes the key",
            Claim::None => "does not claim the key at all",
        };
        let mut f = Finding::new(
            Code::RH035,
            format!(
                "`{}` {what}: two overlapping copies can both see no record and both proceed",
                comp.id
            ),
        )
        .component(&comp.id)
        .at(claim.loc);
        f.intent = first(c).map(|i| m.intents[a.intents[i].intent].id.clone());
        out.push(f);
    }
}
