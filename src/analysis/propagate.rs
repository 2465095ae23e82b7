//! Pushing copies from state to state: a [`Run`] moves the original and its
//! duplicates along an edge ([`Run::push`]), lets a declared replay enter,
//! and settles a component once all its inputs arrived ([`Run::finalize`]:
//! key minting, regions, dedup layers).

use std::collections::BTreeMap;
use std::sync::Arc;

use super::clock::{ClockNote, Clocks, Moved, advance, since};
use super::model::{Birth, EdgeModel, Layer, Model, Scope};
use super::result::LayerReach;
use super::state::{
    BornAt, Bypass, CLASSES, Class, Crossed, Dup, DupBack, Expired, KeyStatus, State, Via, ix,
};
use crate::manifest::model::{Claim, DedupId, Intent, LinkType, Mode};
use crate::time::Dur;

/// One intent's run: its states, laid out by `intent`, and what the
/// layers and guards it met recorded.
pub(super) struct Run<'a> {
    pub(super) model: &'a Model,
    pub(super) intent: &'a Intent,
    /// Where the key is minted (`None`: before the origin, or no key).
    pub(super) minted_at: Option<usize>,
    pub(super) natural_key: bool,
    pub(super) per_attempt: bool,
    pub(super) states: Vec<State>,
    pub(super) layers: BTreeMap<(usize, usize), LayerReach>,
    /// Guards reached in a region where their store is absent.
    pub(super) crossings: Vec<(usize, String)>,
    /// Redrives whose `within` the message clock cuts short: edge →
    /// (promised age, deadline), the latest promise kept.
    pub(super) redrive_caps: BTreeMap<usize, (Dur, Dur)>,
}

/// Keeps the older of two duplicates of one class, taking in what the
/// other adds ([`Dup::absorb`]: each clock the worst over the two, `clock`).
#[inline]
fn merge_dup(slot: &mut Option<Dup>, mut d: Dup) {
    match slot {
        Some(cur) if d.age <= cur.age => cur.absorb(&d),
        _ => {
            if let Some(cur) = slot.as_ref() {
                d.absorb(cur);
            }
            *slot = Some(d);
        }
    }
}

impl<'a> Run<'a> {
    /// A run of `intent` with no states yet.
    pub(super) fn new(model: &'a Model, intent: &'a Intent) -> Self {
        let has_key = intent.key.loc.is_some();
        Run {
            model,
            intent,
            minted_at: if has_key {
                intent.minted_at().index()
            } else {
                None
            },
            natural_key: has_key && !intent.key.is_generated(),
            per_attempt: intent.key.per_attempt(),
            states: Vec::new(),
            layers: BTreeMap::new(),
            crossings: Vec::new(),
            redrive_caps: BTreeMap::new(),
        }
    }

    /// The original copy leaves from state `s` at age zero, carrying the
    /// key when it is minted before the origin.
    pub(super) fn start_at(&mut self, s: usize) {
        let has_key = self.intent.key.loc.is_some();
        let carried = self.minted_at.is_none() && has_key;
        let st = &mut self.states[s];
        st.h = Some(Dur::ZERO);
        st.enq = Dur::ZERO;
        st.back = Some((s, Via::Origin));
        st.key = if carried {
            KeyStatus::Carried
        } else {
            KeyStatus::Unminted
        };
    }
}

impl Run<'_> {
    /// The class of a copy with `key` leaving component `from` (`None`: it
    /// leaves none, as a replay or a failover).
    fn class_of(&self, key: KeyStatus, from: Option<usize>) -> Class {
        if self.per_attempt && from.is_some() && from == self.minted_at {
            return Class::Fresh;
        }
        match key {
            KeyStatus::Carried => Class::Same,
            KeyStatus::Lost => Class::Lost,
            KeyStatus::Unminted => Class::Unminted,
        }
    }

    pub(super) fn enter_replay(&mut self, s: usize, ri: usize) {
        let within = self.intent.replays[ri].within.value;
        let has_key = self.intent.key.loc.is_some();
        let st = &mut self.states[s];
        if st.h.is_none() {
            // Only the replay reaches this component: it resubmits the
            // request as the intent made it, key included when there is one.
            st.key = if has_key {
                KeyStatus::Carried
            } else {
                KeyStatus::Unminted
            };
        }
        if st.h.is_none_or(|h| within > h) {
            st.h = Some(within);
            st.back = Some((s, Via::Replay(ix(ri))));
            st.clock = None;
        }
        // A replay sends the request again: a new message.
        st.enq = st.enq.max(within);
        let class = self.class_of(self.states[s].key, None);
        let layered = self.states[s].orig_layered;
        // The original may have met every layer before: timed from the intent.
        let d = Dup {
            age: within,
            since: within,
            since_birth: Birth::Replay,
            enq: within,
            birth: Birth::Replay,
            born_at: BornAt::Replay(ri),
            born_after_layer: layered,
            crossed: Crossed::SAME,
            lost_at: None,
            bypass: Bypass::default(),
            back: DupBack::Born {
                state: s,
                via: Via::Replay(ix(ri)),
            },
        };
        merge_dup(&mut self.states[s].dups[class as usize], d);
    }

    /// Everything that happens at a component once all its inputs arrived:
    /// key minting, regional fan-out and failover, then its dedup layers.
    pub(super) fn finalize(&mut self, c: usize, first: usize, count: usize) {
        // Where the original's paths meet, one of them may have met a
        // layer first: a duplicate here is timed from the intent.
        for st in &mut self.states[first..first + count] {
            if st.converged {
                for d in st.dups.iter_mut().flatten() {
                    d.span_from_intent();
                }
            }
        }
        if Some(c) == self.minted_at {
            self.mint(first, count);
        }
        self.spread_regions(c, first, count);
        self.apply_layers_at(c, first, count);
    }

    /// The key is minted here: the original carries it from now on, and
    /// duplicates change class as the key they will carry.
    fn mint(&mut self, first: usize, count: usize) {
        for s in first..first + count {
            let st = &mut self.states[s];
            if st.h.is_none() {
                continue;
            }
            st.key = KeyStatus::Carried;
            let remint = if self.natural_key && !self.per_attempt {
                Class::Same
            } else {
                Class::Fresh
            };
            let dups = std::mem::take(&mut st.dups);
            for (i, d) in dups.into_iter().enumerate() {
                let Some(d) = d else { continue };
                let class = match CLASSES[i] {
                    Class::Same if self.per_attempt => Class::Fresh,
                    Class::Same => Class::Same,
                    Class::Fresh => Class::Fresh,
                    Class::Lost | Class::Unminted => remint,
                };
                merge_dup(&mut st.dups[class as usize], d);
            }
        }
    }

    /// Copies between the regional states of component `c`: to every other
    /// region when active-active, to the failover region when
    /// active-passive.
    fn spread_regions(&mut self, c: usize, first: usize, count: usize) {
        let node = &self.model.nodes[c];
        if count > 1 && node.mode == Mode::ActiveActive {
            for a in 0..count {
                for b in 0..count {
                    if a != b {
                        self.copy_state(first + a, first + b, Dur::ZERO, Via::Fanout, None);
                    }
                }
            }
        }
        if let Some((from, to, delay)) = node.failover.as_ref() {
            let (from, to, delay) = (*from, *to, *delay);
            self.copy_state(first + from, first + to, delay, Via::Failover, Some(c));
        }
    }

    /// The dedup layers acting at component `c` (its guard's store, its own
    /// key window or unique constraint), in each reached region.
    fn apply_layers_at(&mut self, c: usize, first: usize, count: usize) {
        let node = &self.model.nodes[c];
        for s in first..first + count {
            if self.states[s].h.is_none() {
                continue;
            }
            let region = node.regions.get(self.states[s].region).cloned();
            if let Some(g) = &node.guard {
                let visible = g.store_regions.is_empty()
                    || region.as_ref().is_none_or(|r| g.store_regions.contains(r));
                if !visible {
                    self.crossings
                        .push((c, region.as_deref().unwrap_or_default().to_string()));
                }
                if g.claim != Claim::None {
                    let layer = g.layer.clone();
                    self.apply_layer(
                        s,
                        c,
                        &layer,
                        visible
                            .then_some(())
                            .ok_or((c, region.as_deref().unwrap_or_default().to_string())),
                    );
                }
            }
            if let Some(l) = &node.own_layer {
                let layer = l.clone();
                self.apply_layer(s, c, &layer, Ok(()));
            }
            if node.guard.is_some() || node.own_layer.is_some() {
                self.states[s].orig_layered = true;
            }
        }
    }

    /// Copies the original and its duplicates from one regional state of a
    /// component to another, `delay` later. A failover also gives birth.
    fn copy_state(
        &mut self,
        from: usize,
        to: usize,
        delay: Dur,
        via: Via,
        failover_of: Option<usize>,
    ) {
        let Some(h) = self.states[from].h else { return };
        let nh = h.add(delay);
        // Only what moves is copied: cloning the whole source state (with
        // its four duplicate slots) was the largest cost of the run.
        let (src_key, src_layered) = (self.states[from].key, self.states[from].orig_layered);
        let enq = self.states[from].enq.add(delay);
        let arriving: Vec<(Class, Dup)> = CLASSES
            .iter()
            .filter_map(|&class| {
                let d = self.states[from].dups[class as usize].as_ref()?;
                let mut d2 = d.clone();
                d2.age = d.age.add(delay);
                d2.since = d.since.add(delay).min(d2.age);
                d2.crossed = match via {
                    Via::Failover => d.crossed.moved(Crossed::FAILOVER),
                    Via::Fanout => d.crossed.moved(Crossed::REGION),
                    _ => d.crossed,
                };
                d2.enq = d.enq.add(delay);
                d2.back = DupBack::Carried {
                    state: from,
                    class,
                    via,
                };
                Some((class, d2))
            })
            .collect();
        let dst = &mut self.states[to];
        let first_copy = dst.h.is_none();
        if dst.h.is_none_or(|x| nh > x) {
            dst.h = Some(nh);
            dst.back = Some((from, via));
            dst.clock = None;
        }
        dst.enq = dst.enq.max(enq);
        dst.key = if first_copy {
            src_key
        } else {
            dst.key.max(src_key)
        };
        dst.orig_layered |= src_layered;
        for (class, d2) in arriving {
            merge_dup(&mut dst.dups[class as usize], d2);
        }
        if let Some(c) = failover_of {
            let class = self.class_of(src_key, None);
            // Timed from the original's passage in the failed region.
            let d = Dup {
                age: nh,
                since: delay.min(nh),
                since_birth: Birth::Failover,
                enq,
                birth: Birth::Failover,
                born_at: BornAt::Failover(c),
                born_after_layer: src_layered,
                crossed: Crossed::FAILOVER,
                lost_at: None,
                bypass: Bypass::default(),
                back: DupBack::Born { state: from, via },
            };
            merge_dup(&mut self.states[to].dups[class as usize], d);
        }
    }

    /// Lets a layer stop the duplicates it recognises and remembers why it
    /// let the others by. `visible` is `Err((guard, region))` when the
    /// layer's store cannot be seen from the copy's region.
    fn apply_layer(
        &mut self,
        s: usize,
        at: usize,
        layer: &Arc<Layer>,
        visible: Result<(), (usize, String)>,
    ) {
        let window = layer.window.value;
        let entry = self
            .layers
            .entry((at, layer.component))
            .or_insert_with(|| LayerReach {
                layer: layer.clone(),
                at,
                reach: None,
            });
        let st = &mut self.states[s];
        for class in CLASSES {
            let Some(d) = &mut st.dups[class as usize] else {
                continue;
            };
            let recognises = match class {
                Class::Same => true,
                Class::Lost | Class::Unminted => layer.any_key || layer.content,
                Class::Fresh => layer.any_key,
            };
            d.bypass.layers_seen += 1;
            if let Err((g, r)) = &visible {
                d.bypass.region.get_or_insert((*g, r.clone()));
                continue;
            }
            // Which of the copies the slot stands for the layer's scope
            // reaches: it judges those, and lets the others by.
            let (some_in, some_out) = match layer.scope {
                Scope::Global => (true, false),
                Scope::Region | Scope::Replicated => {
                    (d.crossed.has(Crossed::SAME), d.crossed.crossed())
                }
                Scope::Zone => (false, true),
            };
            if recognises && some_out {
                d.bypass.scope.get_or_insert(layer.component);
            }
            if recognises && !some_in {
                continue;
            }
            if !recognises {
                match class {
                    Class::Lost => {
                        d.bypass
                            .lost_key
                            .get_or_insert((layer.component, d.lost_at));
                    }
                    _ => {
                        d.bypass.fresh_key.get_or_insert(layer.component);
                    }
                }
                continue;
            }
            // The window runs from the layer's first sighting of the key.
            let (span, by) = if layer.shared {
                (d.age, d.birth)
            } else {
                (d.since, d.since_birth)
            };
            if entry.reach.is_none_or(|r| span > r) {
                entry.reach = Some(span);
            }
            if span <= window && some_out {
                // The copies in scope stop here; the others go on.
                d.crossed = d.crossed.only_crossed();
            } else if span <= window {
                st.dups[class as usize] = None;
            } else if d.bypass.expired.is_none_or(|x| x.fixed && !layer.fixed) {
                d.bypass.expired = Some(Expired {
                    window,
                    layer: layer.component,
                    since: span,
                    age: d.age,
                    birth: by,
                    fixed: layer.fixed,
                });
            }
        }
    }

    /// Moves the original copy and its duplicates along edge `e`.
    pub(super) fn push(&mut self, s: usize, t: usize, e: usize) {
        let em = &self.model.edges[e];
        let src = &self.states[s];
        let Some(h) = src.h else { return };
        let src_enq = src.enq;
        let (src_key, src_layered) = (src.key, src.orig_layered);
        let moved = advance(
            Clocks {
                age: h,
                enq: src.enq,
            },
            em.delay(),
            em.hold(),
            em.keeps_clock,
        );
        let nh = moved.to.age;
        let key_after = |k: KeyStatus| {
            if k == KeyStatus::Carried && !em.passes_key {
                KeyStatus::Lost
            } else {
                k
            }
        };
        let arriving = self.arriving(s, e, &moved);
        let send_layer = self.send_layer(em);
        let src_converged = self.states[s].converged;
        let dst = &mut self.states[t];
        dst.converged |= src_converged || dst.in_edge.is_some_and(|x| x != ix(e));
        dst.in_edge.get_or_insert(ix(e));
        let first_copy = dst.h.is_none();
        if dst.h.is_none_or(|x| nh > x) {
            dst.h = Some(nh);
            dst.back = Some((s, Via::Edge(ix(e))));
            dst.clock = note(em, &moved, h, src_enq);
        }
        dst.enq = dst.enq.max(moved.to.enq);
        dst.key = if first_copy {
            key_after(src_key)
        } else {
            dst.key.max(key_after(src_key))
        };
        dst.orig_layered |= src_layered || send_layer.is_some();
        for (class, d) in arriving {
            merge_dup(&mut dst.dups[class as usize], d);
        }
        if let Some(l) = send_layer {
            self.apply_layer(t, em.to(), &l, Ok(()));
        }
        if em.ty == LinkType::Redrive && em.assumption().is_some() && moved.capped() {
            let deadline = moved.deadline.unwrap_or(nh);
            let slot = self
                .redrive_caps
                .entry(e)
                .or_insert((moved.uncapped, deadline));
            *slot = (slot.0.max(moved.uncapped), slot.1.max(deadline));
        }
    }
}

impl Run<'_> {
    /// The execution-name window a start along `em` meets: a start named
    /// by the key into a workflow that dedups by name. An event-source
    /// mapping's invocations get no start idempotency (F030).
    /// The duplicates that cross edge `e` from state `s`: those the state
    /// carries, moved by the edge's clocks, and the one the edge gives
    /// birth to. A key the edge does not pass is lost on the way.
    fn arriving(&self, s: usize, e: usize, moved: &Moved) -> Vec<(Class, Dup)> {
        let em = &self.model.edges[e];
        let src = &self.states[s];
        let class_after = |c: Class| {
            if c == Class::Same && !em.passes_key {
                Class::Lost
            } else {
                c
            }
        };
        // After a dead-letter move the message already met its consumers'
        // layers, and a redrive goes back to them: timed from the intent.
        let restarts = matches!(em.ty, LinkType::DeadLetter | LinkType::Redrive);
        let mut arriving: Vec<(Class, Dup)> = Vec::new();
        for class in CLASSES {
            if let Some(d) = &src.dups[class as usize] {
                let nc = class_after(class);
                let mut d2 = d.clone();
                let dm = advance(
                    Clocks {
                        age: d.age,
                        enq: d.enq,
                    },
                    em.delay(),
                    em.hold(),
                    em.keeps_clock,
                );
                (d2.age, d2.enq) = (dm.to.age, dm.to.enq);
                if restarts {
                    d2.span_from_intent();
                } else {
                    d2.since = d.since.add(em.delay()).min(d2.age);
                }
                if nc == Class::Lost && class == Class::Same {
                    d2.lost_at = Some(e);
                }
                d2.back = DupBack::Carried {
                    state: s,
                    class,
                    via: Via::Edge(ix(e)),
                };
                arriving.push((nc, d2));
            }
        }
        if let Some(birth) = em.birth {
            let (src_key, src_layered) = (src.key, src.orig_layered);
            let class = class_after(self.class_of(src_key, Some(src.comp)));
            arriving.push((
                class,
                Dup {
                    age: moved.to.age,
                    since: if restarts || src.converged {
                        moved.to.age
                    } else {
                        em.delay().min(moved.to.age)
                    },
                    since_birth: birth,
                    enq: moved.to.enq,
                    birth,
                    born_at: BornAt::Edge(e),
                    // A retry goes the way its first attempt went.
                    born_after_layer: src_layered,
                    crossed: Crossed::SAME,
                    lost_at: (class == Class::Lost && src_key == KeyStatus::Carried).then_some(e),
                    bypass: Bypass::default(),
                    back: DupBack::Born {
                        state: s,
                        via: Via::Edge(ix(e)),
                    },
                },
            ));
        }
        arriving
    }

    /// The dedup layer a copy meets on entering the edge's target: a
    /// transport's window acts on what is sent into it with a dedup id,
    /// an execution-name window on a start named by the key.
    fn send_layer(&self, em: &EdgeModel) -> Option<Arc<Layer>> {
        match (
            em.ty,
            em.dedup_id,
            &self.model.nodes[em.to()].transport_window,
        ) {
            (LinkType::SendsTo, Some(id), Some(l)) if id != DedupId::None => {
                let content = id == DedupId::Content;
                if l.content == content {
                    return Some(l.clone());
                }
                let mut l = Layer::clone(l);
                l.content = content;
                Some(Arc::new(l))
            }
            _ => self.name_layer(em),
        }
    }

    fn name_layer(&self, em: &EdgeModel) -> Option<Arc<Layer>> {
        let polled = em.ty == LinkType::DeliversTo
            && matches!(
                self.model.nodes[em.from()].generic,
                crate::catalog::Generic::Queue | crate::catalog::Generic::Stream
            );
        if !em.named_start || polled || em.ty == LinkType::Effects {
            return None;
        }
        self.model.nodes[em.to()].name_window.clone()
    }
}

/// The clock note of a step along `em` from age `h` (enqueue age `enq`),
/// when the step left a transport.
fn note(em: &EdgeModel, moved: &Moved, h: Dur, enq: Dur) -> Option<ClockNote> {
    // In a cycle nothing bounds every age is unbounded: no clock to show.
    let hold = em.hold().filter(|_| !h.is_unbounded())?;
    Some(ClockNote {
        enq,
        retention: hold.retention(),
        kept: enq < h,
        adds: since(moved.to.age, h),
        capped: moved.capped(),
    })
}
