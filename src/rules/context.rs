//! What every rule reads: the analysis, the policy's options, the first
//! intent reaching each component, and each component's effective values
//! (written, else the catalog default, with where the value comes from),
//! computed where a rule asks. Rules read effective values here only.

use crate::analysis::effective as eff;
pub use crate::analysis::effective::Eff;
use crate::analysis::{Analysis, IntentResult};
use crate::catalog::{Generic, Kind};
use crate::manifest::model::{Component, Delivery, Expiry, Manifest};
use crate::time::Dur;

use super::{Finding, Options};
use crate::manifest::model::Field;

/// One component's effective values, as the rules read them: each is
/// computed from the component and its kind where a rule asks for it.
///
/// Keeping every component's values for the whole run (boxed, 144 bytes
/// inline and an `Eff` of 56 bytes per value) held about 16 MB at 76k
/// components at the peak of a check, while the rules read a few values
/// of a few components: computing one is a scan of the handful of
/// settings written and a lookup in the kind's fields.
#[derive(Clone, Copy)]
pub struct Values<'a> {
    pub kind: &'static Kind,
    c: &'a Component,
}

impl<'a> Values<'a> {
    fn of(c: &'a Component) -> Values<'a> {
        Values {
            kind: eff::kind_of(c),
            c,
        }
    }

    pub fn retention(&self) -> Option<Eff<Dur>> {
        eff::dur(self.c, Field::Retention)
    }

    pub fn visibility_timeout(&self) -> Option<Eff<Dur>> {
        eff::dur(self.c, Field::VisibilityTimeout)
    }

    pub fn timeout(&self) -> Option<Eff<Dur>> {
        eff::dur(self.c, Field::Timeout)
    }

    pub fn dedup_window(&self) -> Option<Eff<Dur>> {
        eff::dur(self.c, Field::DedupWindow)
    }

    /// How long a topic or bus keeps trying to deliver an event.
    pub fn max_event_age(&self) -> Option<Eff<Dur>> {
        eff::dur(self.c, Field::MaxEventAge)
    }

    /// What a transport deduplicates within (`queue`, `message-group`).
    pub fn dedup_scope(&self) -> Option<Eff<String>> {
        eff::dedup_scope(self.c)
    }

    /// Where a store's records are visible.
    pub fn scope(&self) -> Option<Eff<String>> {
        eff::scope(self.c)
    }

    /// Where a provider recognises a key (`global`, `region`, `zone`).
    pub fn key_scope(&self) -> Option<Eff<String>> {
        eff::key_scope(self.c)
    }

    pub fn expiry(&self) -> Option<Eff<Expiry>> {
        eff::expiry(self.c)
    }

    pub fn delivery(&self) -> Eff<Delivery> {
        eff::delivery(self.c)
    }

    pub fn accepts_key(&self) -> bool {
        eff::boolean(self.c, Field::AcceptsKey).is_some_and(|x| x.value)
    }

    pub fn lookup_by_reference(&self) -> bool {
        eff::boolean(self.c, Field::LookupByReference).is_some_and(|x| x.value)
    }

    pub fn content_based_dedup(&self) -> Option<Eff<bool>> {
        eff::boolean(self.c, Field::ContentBasedDedup)
    }

    /// As a dead-letter queue, a moved message keeps its enqueue time.
    pub fn dlq_keeps_enqueue_time(&self) -> bool {
        eff::boolean(self.c, Field::DlqKeepsEnqueueTime).is_some_and(|x| x.value)
    }
}

/// The precomputed context of one run of the rules.
pub struct Ctx<'a> {
    pub a: &'a Analysis<'a>,
    pub m: &'a Manifest,
    pub options: &'a Options,
}

impl<'a> Ctx<'a> {
    pub fn new(a: &'a Analysis<'a>, options: &'a Options) -> Ctx<'a> {
        Ctx {
            a,
            m: a.manifest,
            options,
        }
    }

    /// The effective values of component `c`.
    pub fn values(&self, c: usize) -> Values<'a> {
        Values::of(&self.m.components[c])
    }

    /// Every component's effective values, in component order.
    pub fn all_values(&self) -> impl Iterator<Item = Values<'a>> + 'a {
        self.m.components.iter().map(Values::of)
    }

    /// The id of the first intent (in manifest order) whose copies reach
    /// component `c`.
    pub fn reached_by(&self, c: usize) -> Option<&'a str> {
        let i = self.a.first_intent_reaching(c)?;
        Some(self.m.intents[self.a.intents[i].intent].id.as_str())
    }

    /// Every component some intent reaches, with the first such intent's
    /// id, in component order.
    pub fn reached(&self) -> impl Iterator<Item = (usize, &'a str)> + '_ {
        (0..self.m.components.len()).filter_map(|c| Some((c, self.reached_by(c)?)))
    }

    /// Every component, in component order, with the first intent reaching
    /// it (`None` where none does): what configuration rules, which need no
    /// intent, iterate over.
    pub fn components(&self) -> impl Iterator<Item = (usize, Option<&'a str>)> + '_ {
        (0..self.m.components.len()).map(|c| (c, self.reached_by(c)))
    }

    /// Runs `rule` on each intent's result, in manifest order: the emit of
    /// a rule that reads one intent at a time.
    pub fn per_intent(
        &self,
        out: &mut Vec<Finding>,
        rule: fn(&Analysis, &IntentResult, &mut Vec<Finding>),
    ) {
        for r in &self.a.intents {
            rule(self.a, r, out);
        }
    }

    /// Runs `rule` on every component with the first intent reaching it
    /// ([`Ctx::components`]): the emit of a configuration rule.
    pub fn per_component(
        &self,
        out: &mut Vec<Finding>,
        rule: fn(&Ctx, usize, Option<&str>, &mut Vec<Finding>),
    ) {
        for (c, intent) in self.components() {
            rule(self, c, intent, out);
        }
    }

    /// The generic class of component `c`.
    pub fn generic(&self, c: usize) -> Generic {
        self.a.model.nodes[c].generic
    }
}
