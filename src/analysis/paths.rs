//! Worst paths, rebuilt from back-pointers once a run is over: the steps
//! to a state, the ids along them, and the assumptions they rest on.

use std::collections::BTreeSet;

use super::clock::{ClockNote, KeptClock, since};
use super::model::EdgeAssumption;
use super::model::Model;
use super::state::{Class, DupBack, State, Via};
use crate::manifest::model::{Intent, Manifest};
use crate::time::Dur;

/// One step of a worst path.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    pub from: usize,
    pub to: usize,
    pub adds: Dur,
    pub why: String,
    pub assumptions: Vec<String>,
}

/// What `IntentResult::path_to` needs of a state once its run is over:
/// its component and the back-pointer of the worst path (`None` when the
/// original never reached it).
#[derive(Debug, Clone, Copy)]
pub(super) struct Back {
    pub(super) comp: usize,
    back: Option<(usize, Via)>,
}

impl Back {
    pub(super) fn of(st: &State) -> Back {
        Back {
            comp: st.comp,
            back: st.back,
        }
    }

    pub(super) fn back(&self) -> Option<(usize, Via)> {
        self.back
    }
}

/// An assumption a path rests on, as a value: many paths of an intent
/// share their assumptions, and each is written out once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum PathAssumption {
    /// What an edge's delay rests on.
    Edge(EdgeAssumption),
    /// A declared replay (index into the intent's `replays`).
    Replay(u32),
}

/// Reconstructs worst paths from the back-pointers of a finished run.
pub(super) struct Paths<'a> {
    pub(super) backs: &'a [Back],
    pub(super) clocks: &'a [KeptClock],
    pub(super) manifest: &'a Manifest,
    pub(super) model: &'a Model,
    pub(super) intent: &'a Intent,
}

impl Paths<'_> {
    /// The worst path to state `s` as steps (origin or replay first).
    pub(super) fn path_to(&self, s: usize) -> Vec<Step> {
        let mut steps: Vec<Step> = self
            .back_walk(s)
            .map(|(p, s, via)| match via {
                Via::Replay(ri) => self.replay_step(s, ri),
                _ => self.step(p, s, via),
            })
            .collect();
        steps.reverse();
        steps
    }

    /// The assumptions along the worst path to state `s`, added to `set`:
    /// what [`Paths::path_to`]'s steps would list, without building them.
    pub(super) fn assumptions_to(&self, s: usize, set: &mut BTreeSet<PathAssumption>) {
        for (_, to, via) in self.back_walk(s) {
            match via {
                Via::Replay(ri) => {
                    set.insert(PathAssumption::Replay(ri));
                }
                Via::Edge(e) => {
                    if let Some(x) = self.binding_assumption(to, e as usize) {
                        set.insert(PathAssumption::Edge(x));
                    }
                }
                _ => {}
            }
        }
    }

    /// The message clock of the worst path's step into state `s` along
    /// edge `e`, if it left a transport.
    fn clock(&self, s: usize, e: usize) -> Option<ClockNote> {
        if !matches!(self.backs[s].back(), Some((_, Via::Edge(x))) if x as usize == e) {
            return None;
        }
        let i = self.clocks.binary_search_by_key(&s, |c| c.state).ok()?;
        // A note is made only on an edge that leaves a transport, with
        // that edge's retention.
        let hold = self.model.edges[e].hold()?;
        Some(self.clocks[i].note(hold.retention()))
    }

    /// The assumption edge `e` rests on into state `s`, unless the message
    /// clock ended the step first: an assumption that bounds nothing is
    /// not one.
    fn binding_assumption(&self, s: usize, e: usize) -> Option<EdgeAssumption> {
        let x = self.model.edges[e].assumption()?;
        (!self.clock(s, e).is_some_and(|c| c.capped)).then_some(x)
    }

    pub(super) fn assumption_text(&self, x: PathAssumption) -> String {
        match x {
            PathAssumption::Edge(e) => e.text(self.manifest),
            PathAssumption::Replay(ri) => self.replay_assumption(ri),
        }
    }

    /// The worst path's back-pointers from state `s`, latest first: each
    /// step as (previous state, state, how it got there), ending at the
    /// origin or with the replay the copy entered by. Bounded by the number
    /// of states, so a malformed cycle of pointers cannot loop.
    pub(super) fn back_walk(&self, mut s: usize) -> impl Iterator<Item = (usize, usize, Via)> + '_ {
        let mut left = self.backs.len() + 1;
        std::iter::from_fn(move || {
            let (p, via) = self.backs[s].back()?;
            if left == 0 || matches!(via, Via::Origin) {
                return None;
            }
            left -= 1;
            let step = (p, s, via);
            if matches!(via, Via::Replay(_)) {
                left = 0;
            } else {
                s = p;
            }
            Some(step)
        })
    }

    fn replay_assumption(&self, ri: u32) -> String {
        let r = &self.intent.replays[ri as usize];
        format!("replay `{}` within {}", r.name, r.within.value)
    }

    /// A declared replay entering at state `s`.
    pub(super) fn replay_step(&self, s: usize, ri: u32) -> Step {
        let r = &self.intent.replays[ri as usize];
        let c = self.backs[s].comp;
        Step {
            from: c,
            to: c,
            adds: r.within.value,
            why: format!(
                "replay `{}` enters within {} (declared)",
                r.name, r.within.value
            ),
            assumptions: vec![self.replay_assumption(ri)],
        }
    }

    pub(super) fn step(&self, p: usize, s: usize, via: Via) -> Step {
        let (from, to) = (self.backs[p].comp, self.backs[s].comp);
        match via {
            Via::Edge(e) => {
                let em = &self.model.edges[e as usize];
                let mut why = self.model.explain(self.manifest, e as usize);
                let clock = self.clock(s, e as usize);
                // The clock is worth a word where it bounds the step or
                // runs from an earlier enqueue; else the delay says it all.
                if let Some(c) = clock.filter(|c| c.capped || c.kept) {
                    why = format!("{why}; {}", c.text());
                }
                Step {
                    from,
                    to,
                    adds: clock.map_or(em.delay(), |c| c.adds),
                    why,
                    assumptions: self
                        .binding_assumption(s, e as usize)
                        .iter()
                        .map(|x| x.text(self.manifest))
                        .collect(),
                }
            }
            Via::Failover => {
                let (_, _, d) = *self.model.nodes[from]
                    .failover
                    .as_ref()
                    .expect("failover step");
                let why = self
                    .model
                    .failover_why(self.manifest, from)
                    .expect("failover step");
                Step {
                    from,
                    to,
                    adds: d,
                    why,
                    assumptions: Vec::new(),
                }
            }
            Via::Fanout => Step {
                from,
                to,
                adds: Dur::ZERO,
                why: "active-active: the copy may reach another region".into(),
                assumptions: Vec::new(),
            },
            Via::Origin | Via::Replay(_) => Step {
                from,
                to,
                adds: Dur::ZERO,
                why: String::new(),
                assumptions: Vec::new(),
            },
        }
    }

    /// The path of a surviving duplicate: the original's path to where it
    /// was born, then the duplicate's own steps. `states` are the run's
    /// states, whose duplicates carry their own back-pointers.
    pub(super) fn dup_path(&self, states: &[State], mut s: usize, mut class: Class) -> Vec<Step> {
        let mut tail = Vec::new();
        let mut guard = 0;
        loop {
            guard += 1;
            let Some(d) = &states[s].dups[class as usize] else {
                break;
            };
            if guard > states.len() * 4 + 4 {
                break;
            }
            // Each step adds what the duplicate's own clock allowed: its
            // age here less its age (or, at its birth, the original's)
            // where it came from, so the steps sum to its age.
            let age = d.age;
            match d.back {
                DupBack::Carried {
                    state,
                    class: c,
                    via,
                } => {
                    let before = states[state].dups[c as usize].as_ref().map(|p| p.age);
                    tail.push(self.dup_step(state, s, via, age, before));
                    s = state;
                    class = c;
                }
                DupBack::Born { state, via } => {
                    if let Via::Replay(ri) = via {
                        tail.push(self.replay_step(s, ri));
                        tail.reverse();
                        return tail;
                    }
                    tail.push(self.dup_step(state, s, via, age, states[state].h));
                    s = state;
                    break;
                }
            }
        }
        tail.reverse();
        let mut head = self.path_to(s);
        head.extend(tail);
        head
    }
}

impl Paths<'_> {
    /// A duplicate's step from state `p` to `s`: the edge's explanation,
    /// adding `age - before`. From an unbounded age (a cycle nothing
    /// bounds) there is no clock to show, and the step adds its delay.
    fn dup_step(&self, p: usize, s: usize, via: Via, age: Dur, before: Option<Dur>) -> Step {
        let mut step = self.step(p, s, via);
        if let Some(b) = before.filter(|b| !b.is_unbounded()) {
            step.adds = since(age, b);
        }
        step
    }
}

/// Ids along a path given as (from, to) hops: the first component (the
/// origin when there is no hop), then each hop's target, a hop that stays
/// in place (a replay entering, a failover) only once.
pub(super) fn ids_along(
    m: &Manifest,
    origin: usize,
    hops: impl Iterator<Item = (usize, usize)>,
) -> Vec<String> {
    let mut hops = hops.peekable();
    let first = hops.peek().map_or(origin, |&(from, _)| from);
    let mut ids = vec![m.components[first].id.as_str().to_owned()];
    for (from, to) in hops {
        if to != from || ids.last().map(String::as_str) != Some(&m.components[to].id) {
            ids.push(m.components[to].id.as_str().to_owned());
        }
    }
    ids
}
