//! [`EdgeModel`]: one edge as the analysis keeps it for the whole run,
//! packed (a large graph has tens of thousands of edges), and
//! [`EdgeParts`], the same edge with every part typed, as `edges` builds
//! it.

use super::clock::{Hold, pack, unpack};
use super::model::Birth;
use crate::diagnostics::Loc;
use crate::manifest::model::{DedupId, LinkType, Manifest};
use crate::time::Dur;

/// One edge as `edges` builds it; kept as an [`EdgeModel`].
#[derive(Debug, Clone)]
pub(super) struct EdgeParts {
    pub(super) from: usize,
    pub(super) to: usize,
    pub(super) ty: LinkType,
    pub(super) link: u32,
    pub(super) loc: Loc,
    pub(super) delay: Dur,
    pub(super) assumption: Option<EdgeAssumption>,
    pub(super) birth: Option<Birth>,
    pub(super) passes_key: bool,
    pub(super) dedup_id: Option<DedupId>,
    pub(super) redrive_bound: Option<Option<u64>>,
    pub(super) hold: Option<Hold>,
    pub(super) keeps_clock: bool,
    pub(super) named_start: bool,
    pub(super) policy_not_applied: bool,
}

/// One edge as the analysis sees it. How its delay adds up, in words, is
/// written only for the edges a path shows
/// ([`Model::explain`](super::Model::explain)).
///
/// Packed, 48 bytes: components as `u32`, the delay as milliseconds and a
/// flag, and the parts most edges lack (assumption, message clock,
/// redrive bound) in one box of 40 bytes.
#[derive(Debug, Clone)]
pub struct EdgeModel {
    from: u32,
    to: u32,
    /// The link's position in its component's `links()` list.
    pub link: u32,
    pub loc: Loc,
    delay: u64,
    rare: Option<Box<Rare>>,
    pub ty: LinkType,
    pub birth: Option<Birth>,
    /// `sends_to` into a transport: how its dedup id is formed.
    pub dedup_id: Option<DedupId>,
    pub passes_key: bool,
    /// A move into a dead-letter queue that keeps the enqueue time (F004).
    pub keeps_clock: bool,
    /// The start carries an execution name made from the key, which a
    /// workflow that dedups by name recognises (`name_from_key`).
    pub named_start: bool,
    /// A delivery policy declared where the platform applies a fixed one
    /// (SNS to an AWS-managed endpoint, F016): the horizon ignores it.
    pub policy_not_applied: bool,
    delay_unbounded: bool,
}

/// An edge's assumption, message clock and redrive bound, packed: which
/// are there and which durations are unbounded is in `flags`.
#[derive(Debug, Clone, Copy)]
struct Rare {
    assumed: u64,
    retention: u64,
    after: u64,
    max_times: u64,
    component: u32,
    flags: u8,
}

const BACKLOG: u8 = 1;
const REDRIVE_WITHIN: u8 = 2;
const ASSUMED_UNBOUNDED: u8 = 4;
const HOLD: u8 = 8;
const RETENTION_UNBOUNDED: u8 = 16;
const AFTER_UNBOUNDED: u8 = 32;
const REDRIVE: u8 = 64;
const MAX_TIMES: u8 = 128;

impl Rare {
    fn of(p: &EdgeParts) -> Option<Box<Rare>> {
        if p.assumption.is_none() && p.hold.is_none() && p.redrive_bound.is_none() {
            return None;
        }
        let mut r = Rare {
            assumed: 0,
            retention: 0,
            after: 0,
            max_times: 0,
            component: 0,
            flags: 0,
        };
        if let Some(a) = p.assumption {
            let (kind, component, d) = match a {
                EdgeAssumption::Backlog {
                    component,
                    max_backlog,
                } => (BACKLOG, component, max_backlog),
                EdgeAssumption::RedriveWithin { component, within } => {
                    (REDRIVE_WITHIN, component, within)
                }
            };
            let (ms, f) = pack(d, ASSUMED_UNBOUNDED);
            (r.assumed, r.component) = (ms, component);
            r.flags |= kind | f;
        }
        if let Some(h) = p.hold {
            let (retention, fr) = pack(h.retention(), RETENTION_UNBOUNDED);
            let (after, fa) = pack(h.after(), AFTER_UNBOUNDED);
            (r.retention, r.after) = (retention, after);
            r.flags |= HOLD | fr | fa;
        }
        if let Some(bound) = p.redrive_bound {
            r.flags |= REDRIVE;
            if let Some(n) = bound {
                r.max_times = n;
                r.flags |= MAX_TIMES;
            }
        }
        Some(Box::new(r))
    }

    fn has(&self, flag: u8) -> bool {
        self.flags & flag != 0
    }
}

impl EdgeParts {
    /// The edge packed, as the model keeps it.
    pub(super) fn pack(self) -> EdgeModel {
        let p = self;
        let (delay, unbounded) = pack(p.delay, 1);
        EdgeModel {
            from: ix(p.from),
            to: ix(p.to),
            link: p.link,
            loc: p.loc,
            delay,
            rare: Rare::of(&p),
            ty: p.ty,
            birth: p.birth,
            dedup_id: p.dedup_id,
            passes_key: p.passes_key,
            keeps_clock: p.keeps_clock,
            named_start: p.named_start,
            policy_not_applied: p.policy_not_applied,
            delay_unbounded: unbounded != 0,
        }
    }
}

fn ix(i: usize) -> u32 {
    u32::try_from(i).expect("fewer than 2^32 components")
}

impl EdgeModel {
    /// The component the edge leaves.
    #[inline]
    pub fn from(&self) -> usize {
        self.from as usize
    }

    /// The component the edge leads to.
    #[inline]
    pub fn to(&self) -> usize {
        self.to as usize
    }

    /// The delay a copy takes along the edge.
    #[inline]
    pub fn delay(&self) -> Dur {
        unpack(self.delay, self.delay_unbounded)
    }

    /// The declared operational assumption the delay rests on, if any.
    pub fn assumption(&self) -> Option<EdgeAssumption> {
        let r = self.rare.as_deref()?;
        let d = unpack(r.assumed, r.has(ASSUMED_UNBOUNDED));
        let component = r.component;
        if r.has(BACKLOG) {
            Some(EdgeAssumption::Backlog {
                component,
                max_backlog: d,
            })
        } else if r.has(REDRIVE_WITHIN) {
            Some(EdgeAssumption::RedriveWithin {
                component,
                within: d,
            })
        } else {
            None
        }
    }

    /// Out of a transport with a retention: the message clock bounds the
    /// step (`clock`).
    #[inline]
    pub fn hold(&self) -> Option<Hold> {
        let r = self.rare.as_deref().filter(|r| r.has(HOLD))?;
        Some(Hold::new(
            unpack(r.retention, r.has(RETENTION_UNBOUNDED)),
            unpack(r.after, r.has(AFTER_UNBOUNDED)),
        ))
    }

    /// `redrive`: `Some(max_times)`, where `None` inside means no bound.
    pub fn redrive_bound(&self) -> Option<Option<u64>> {
        let r = self.rare.as_deref().filter(|r| r.has(REDRIVE))?;
        Some(r.has(MAX_TIMES).then_some(r.max_times))
    }
}

/// An operational assumption an edge's delay rests on (RH005 lists them).
/// Components as `u32`: most edges carry one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum EdgeAssumption {
    /// The backlog of a transport (component) stays below its `max_backlog`.
    Backlog { component: u32, max_backlog: Dur },
    /// A dead-letter queue (component) is redriven within the declared time.
    RedriveWithin { component: u32, within: Dur },
}

impl EdgeAssumption {
    pub fn text(&self, m: &Manifest) -> String {
        match *self {
            EdgeAssumption::Backlog {
                component,
                max_backlog,
            } => format!(
                "max_backlog {max_backlog} on {}",
                m.components[component as usize].id
            ),
            EdgeAssumption::RedriveWithin { component, within } => {
                format!(
                    "redrive of {} within {within}",
                    m.components[component as usize].id
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts() -> EdgeParts {
        EdgeParts {
            from: 3,
            to: 70_000,
            ty: LinkType::Redrive,
            link: 2,
            loc: Loc::default(),
            delay: Dur::ms(u64::MAX),
            assumption: None,
            birth: Some(Birth::Redrive),
            passes_key: true,
            dedup_id: None,
            redrive_bound: None,
            hold: None,
            keeps_clock: true,
            named_start: false,
            policy_not_applied: true,
        }
    }

    #[test]
    fn packs_every_part_back_as_it_was() {
        assert_eq!(std::mem::size_of::<EdgeModel>(), 48);
        assert_eq!(std::mem::size_of::<Rare>(), 40);
        let plain = parts().pack();
        assert!(plain.rare.is_none());
        assert_eq!((plain.from(), plain.to()), (3, 70_000));
        assert_eq!(plain.delay(), Dur::ms(u64::MAX));
        assert_eq!(
            (plain.assumption(), plain.hold(), plain.redrive_bound()),
            (None, None, None)
        );
        for (a, h, b) in [
            (
                EdgeAssumption::Backlog {
                    component: 9,
                    max_backlog: Dur::Unbounded,
                },
                Hold::new(Dur::secs(5), Dur::Unbounded),
                None,
            ),
            (
                EdgeAssumption::RedriveWithin {
                    component: 1,
                    within: Dur::ms(u64::MAX),
                },
                Hold::new(Dur::Unbounded, Dur::ZERO),
                Some(7),
            ),
        ] {
            let mut p = parts();
            (p.delay, p.assumption, p.hold, p.redrive_bound) =
                (Dur::Unbounded, Some(a), Some(h), Some(b));
            let e = p.pack();
            assert_eq!(e.delay(), Dur::Unbounded);
            assert_eq!(e.assumption(), Some(a));
            assert_eq!(e.hold(), Some(h));
            assert_eq!(e.redrive_bound(), Some(b));
        }
    }
}
