//! Dedup mechanics (RH03x): how layers claim, remember, expire and answer,
//! and what is left when no layer sees a copy.

pub(crate) mod rh030;
pub(crate) mod rh031;
pub(crate) mod rh032;
pub(crate) mod rh033;
pub(crate) mod rh034;
pub(crate) mod rh035;
pub(crate) mod rh036;
pub(crate) mod rh037;
pub(crate) mod rh038;
pub(crate) mod rh039;

use crate::analysis::{BornAt, Dup, IntentResult, Step};
use crate::diagnostics::Loc;
use crate::manifest::model::Intent;
use crate::rules::{Code, Ctx, Finding};

/// A copy that survives every dedup layer: RH030 when it is born
/// downstream of a send-side layer (whatever later layers also let it by:
/// an expired store is a second hazard, RH001), RH038 when no layer sees it
/// at all (an unbounded loop besides, RH003, is a second hazard).
pub(super) struct Unseen<'x> {
    pub intent: &'x Intent,
    pub effect: usize,
    pub dup: &'x Dup,
    pub steps: &'x [Step],
    /// Where the copy is born, in words.
    pub born: String,
    pub loc: Loc,
}

/// Calls `f` for every surviving copy born after a layer or seen by none,
/// intent by intent.
pub(super) fn unseen_copies<'x>(ctx: &Ctx<'x>, mut f: impl FnMut(Unseen<'x>)) {
    let (a, m) = (ctx.a, ctx.m);
    for r in &a.intents {
        let intent = &m.intents[r.intent];
        for (&effect, list) in &r.surviving {
            for (_, dup, steps) in list {
                if dup.bypass.layers_seen > 0 && !dup.born_after_layer {
                    continue;
                }
                let (born, loc) = match dup.born_at {
                    BornAt::Edge(e) => {
                        let em = &a.model.edges[e];
                        (
                            format!(
                                "`{}` {} `{}`",
                                m.components[em.from()].id,
                                em.ty.field(),
                                m.components[em.to()].id
                            ),
                            em.loc,
                        )
                    }
                    BornAt::Failover(c) => (
                        format!("the failover of `{}`", m.components[c].id),
                        m.components[c].loc,
                    ),
                    BornAt::Replay(i) => (
                        format!("replay `{}`", intent.replays[i].name),
                        intent.replays[i].loc,
                    ),
                };
                f(Unseen {
                    intent,
                    effect,
                    dup,
                    steps,
                    born,
                    loc,
                });
            }
        }
    }
}

impl Unseen<'_> {
    /// The finding of `code` about this copy.
    pub fn finding(&self, ctx: &Ctx, code: Code, message: String) -> Finding {
        let m = ctx.m;
        let origin = self.intent.origin.index().unwrap_or(0);
        let mut f = Finding::new(code, message)
            .intent(&self.intent.id)
            .component(&m.components[self.effect].id)
            .at(self.loc);
        f.horizon = Some(self.dup.age).filter(|h| !h.is_unbounded());
        f.path = IntentResult::path_ids(m, origin, self.steps);
        f.steps = self.steps.to_vec();
        f
    }
}
