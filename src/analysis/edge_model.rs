//! [`EdgeModel`]: one edge as the analysis keeps it for the whole run.

use super::clock::Hold;
use crate::diagnostics::Loc;
use crate::manifest::model::{DedupId, LinkType, Manifest};
use crate::time::Dur;

/// Where a duplicate is born.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Birth {
    Retry,
    Redelivery,
    Redrive,
    Replay,
    Failover,
}

impl Birth {
    pub fn describe(self) -> &'static str {
        match self {
            Birth::Retry => "a retry",
            Birth::Redelivery => "an at-least-once redelivery",
            Birth::Redrive => "a dead-letter redrive",
            Birth::Replay => "a declared replay",
            Birth::Failover => "a failover copy",
        }
    }
}

/// The parts of an edge's explanation, collected only when asked for
/// (`Some`): formatting them for every edge of a large graph cost more
/// than computing the delays, and only the edges on a shown path need them.
pub(super) struct Why(pub(super) Option<Vec<String>>);

impl Why {
    pub(super) fn add(&mut self, part: impl FnOnce() -> String) {
        if let Some(parts) = &mut self.0 {
            parts.push(part());
        }
    }

    pub(super) fn wanted(&self) -> bool {
        self.0.is_some()
    }
}

/// One edge as the analysis sees it, built by `edges`. How its delay adds
/// up, in words, is written only for the edges a path shows
/// ([`Model::explain`](super::model::Model::explain)).
#[derive(Debug, Clone)]
pub struct EdgeModel {
    pub(super) from: usize,
    pub(super) to: usize,
    pub ty: LinkType,
    /// The link's position in its component's `links()` list.
    pub link: u32,
    pub loc: Loc,
    pub(super) delay: Dur,
    pub(super) assumption: Option<EdgeAssumption>,
    pub birth: Option<Birth>,
    pub passes_key: bool,
    /// `sends_to` into a transport: how its dedup id is formed.
    pub dedup_id: Option<DedupId>,
    /// `redrive`: `Some(max_times)`, where `None` inside means no bound.
    pub(super) redrive_bound: Option<Option<u64>>,
    /// Out of a transport with a retention: the message clock bounds the
    /// step (`clock`).
    pub(super) hold: Option<Hold>,
    /// A move into a dead-letter queue that keeps the enqueue time (F004).
    pub keeps_clock: bool,
    /// The start carries an execution name made from the key, which a
    /// workflow that dedups by name recognises (`name_from_key`).
    pub named_start: bool,
    /// A delivery policy declared where the platform applies a fixed one
    /// (SNS to an AWS-managed endpoint, F016): the horizon ignores it.
    pub policy_not_applied: bool,
}

impl EdgeModel {
    /// The component the edge leaves.
    pub fn from(&self) -> usize {
        self.from
    }

    /// The component the edge leads to.
    pub fn to(&self) -> usize {
        self.to
    }

    /// The delay a copy takes along the edge.
    pub fn delay(&self) -> Dur {
        self.delay
    }

    /// The declared operational assumption the delay rests on, if any.
    pub fn assumption(&self) -> Option<EdgeAssumption> {
        self.assumption
    }

    /// Out of a transport with a retention: the message clock bounds the
    /// step (`clock`).
    pub fn hold(&self) -> Option<Hold> {
        self.hold
    }

    /// `redrive`: `Some(max_times)`, where `None` inside means no bound.
    pub fn redrive_bound(&self) -> Option<Option<u64>> {
        self.redrive_bound
    }
}

/// An operational assumption an edge's delay rests on (RH005 lists them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum EdgeAssumption {
    /// The backlog of a transport (component) stays below its `max_backlog`.
    Backlog { component: usize, max_backlog: Dur },
    /// A dead-letter queue (component) is redriven within the declared time.
    RedriveWithin { component: usize, within: Dur },
}

impl EdgeAssumption {
    pub fn text(&self, m: &Manifest) -> String {
        match *self {
            EdgeAssumption::Backlog {
                component,
                max_backlog,
            } => format!(
                "max_backlog {max_backlog} on {}",
                m.components[component].id
            ),
            EdgeAssumption::RedriveWithin { component, within } => {
                format!("redrive of {} within {within}", m.components[component].id)
            }
        }
    }
}
