//! What the analysis keeps per state (component × round × region): the
//! original copy's horizon and key, and the oldest duplicate of each key
//! [`Class`], with the back-pointers that rebuild their paths.

use super::clock::ClockNote;
use super::model::Birth;
use crate::time::Dur;

/// The key a copy carries, relative to the original's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Class {
    /// The same key as the original: a key-based layer recognises it.
    Same = 0,
    /// The key was dropped by a link that does not pass it.
    Lost = 1,
    /// A new key was minted for this copy (per attempt, or random re-mint).
    Fresh = 2,
    /// The key is not minted yet where this copy was born.
    Unminted = 3,
}

pub(super) const CLASSES: [Class; 4] = [Class::Same, Class::Lost, Class::Fresh, Class::Unminted];

/// Why a layer did not stop a duplicate (the first such layer of each sort).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Bypass {
    /// The layer to lengthen: the first on the copy's path that forgot the
    /// key before the copy came and whose window the team sets, else (when
    /// every such window is a platform constant) the first of those.
    pub expired: Option<Expired>,
    /// A key-based layer saw a different key (layer component).
    pub fresh_key: Option<usize>,
    /// A key-based layer saw no key (layer component, edge that dropped it).
    pub lost_key: Option<(usize, Option<usize>)>,
    /// A guard whose store is not in the copy's region (guard, region).
    pub region: Option<(usize, String)>,
    /// A layer whose scope does not reach the copy (its component): a
    /// Region- or zone-scoped key, a per-Region window, a store that had
    /// not replicated the claim when the copy failed over.
    pub scope: Option<usize>,
    pub layers_seen: u32,
}

/// A layer that had forgotten the key when a copy came.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Expired {
    pub window: Dur,
    /// The component whose window it is.
    pub layer: usize,
    /// How long after the layer's first sighting of the key the copy came.
    pub since: Dur,
    /// The copy's age (since the intent) when it came.
    pub age: Dur,
    /// What made the copy.
    pub birth: Birth,
    /// The platform fixes the window: no setting can lengthen it.
    pub fixed: bool,
}

/// A duplicate no dedup layer has stopped yet: its age, how and where it
/// was born, and why the layers it met let it by.
#[derive(Debug, Clone, PartialEq)]
pub struct Dup {
    pub age: Dur,
    /// How long after a layer can first have seen the key this copy
    /// arrives: the time since the original passed the point where the
    /// copy was born (a layer's window starts at its first sighting), or
    /// its whole age where an earlier copy may have met the layer first
    /// (after a dead-letter move, a redrive, a replay, where the original's
    /// paths meet, at a store several guards claim in).
    pub since: Dur,
    /// What made the copy whose span is `since` (the slot keeps the oldest
    /// copy's path, and the longest span, which may be another copy's).
    pub since_birth: Birth,
    /// The age at which the message carrying it was enqueued (`clock`).
    pub enq: Dur,
    pub birth: Birth,
    /// The link (edge index) or pseudo-step where it was born.
    pub born_at: BornAt,
    pub born_after_layer: bool,
    /// The Regions its copies may come from, relative to the first copy's.
    pub crossed: Crossed,
    /// The edge that dropped the key, for `Lost` copies.
    pub lost_at: Option<usize>,
    pub bypass: Bypass,
    pub(super) back: DupBack,
}

/// The ways the copies a duplicate slot stands for may have come, relative
/// to the Region the first copy was in: a set, since one slot merges copies
/// that came different ways, and a layer judges each way by its scope.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Crossed(u8);

impl Crossed {
    /// The Region of the first copy.
    pub const SAME: Crossed = Crossed(1);
    /// Another Region, through an active-active component.
    pub const REGION: Crossed = Crossed(2);
    /// Another Region, after an active-passive component failed over.
    pub const FAILOVER: Crossed = Crossed(4);

    pub fn union(self, other: Crossed) -> Crossed {
        Crossed(self.0 | other.0)
    }

    pub fn has(self, way: Crossed) -> bool {
        self.0 & way.0 != 0
    }

    /// Whether some copy came from another Region.
    pub fn crossed(self) -> bool {
        self.0 & !Self::SAME.0 != 0
    }

    /// Only the copies that came from another Region.
    pub fn only_crossed(self) -> Crossed {
        Crossed(self.0 & !Self::SAME.0)
    }

    /// Every copy moved to another Region `way`, keeping any earlier
    /// crossing.
    pub fn moved(self, way: Crossed) -> Crossed {
        Crossed(self.only_crossed().0 | way.0)
    }
}

impl Dup {
    /// Takes in what a merged duplicate of the same class adds: the later
    /// enqueue age, the longer span with what made it, every way its copies
    /// came (the slot keeps this one's path).
    pub(super) fn absorb(&mut self, other: &Dup) {
        self.enq = self.enq.max(other.enq);
        if other.since > self.since {
            (self.since, self.since_birth) = (other.since, other.since_birth);
        }
        self.crossed = self.crossed.union(other.crossed);
    }

    /// Times the copy from the intent: an earlier copy may have met the
    /// layers ahead first.
    pub(super) fn span_from_intent(&mut self) {
        (self.since, self.since_birth) = (self.age, self.birth);
    }
}

/// Where a duplicate was born: on a link, at a failover, or by a declared
/// replay (index into the intent's `replays`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BornAt {
    Edge(usize),
    Failover(usize),
    Replay(usize),
}

/// Where a duplicate came from, for rebuilding its path.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum DupBack {
    /// Born here from the original copy at `state`.
    Born { state: usize, via: Via },
    /// Carried from `state` (class `class`) along `via`.
    Carried {
        state: usize,
        class: Class,
        via: Via,
    },
}

/// How a copy reached a state.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Via {
    Edge(u32),
    Failover,
    Replay(u32),
    /// Active-active: the same copy may reach any region.
    Fanout,
    Origin,
}

/// Whether the original copy carries the key (ordered: a state reached
/// both ways keeps the worse).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum KeyStatus {
    Carried,
    Unminted,
    Lost,
}

/// A state's index or an edge or replay index, as stored in back-pointers.
#[inline]
pub(super) fn ix(i: usize) -> u32 {
    u32::try_from(i).expect("fewer than 2^32 states, edges and replays")
}

/// One (component, round, region) state of a run.
#[derive(Debug, Clone)]
pub(super) struct State {
    pub(super) comp: usize,
    pub(super) region: usize,
    /// The horizon: the latest age at which the original arrives.
    pub(super) h: Option<Dur>,
    /// The latest enqueue age of the message the original is in (`clock`).
    pub(super) enq: Dur,
    /// The message clock of the worst path's last step, when it left a
    /// transport.
    pub(super) clock: Option<ClockNote>,
    /// The worst path's previous state and how the copy came from it.
    pub(super) back: Option<(usize, Via)>,
    pub(super) key: KeyStatus,
    /// Whether the original already passed a dedup layer.
    pub(super) orig_layered: bool,
    /// The edge the original first arrived by, and whether it arrived by
    /// another one too here or upstream (its paths meet): then a copy born
    /// after this point cannot be timed from the original's passage.
    pub(super) in_edge: Option<u32>,
    pub(super) converged: bool,
    /// The oldest unstopped duplicate of each [`Class`].
    pub(super) dups: [Option<Dup>; 4],
}
