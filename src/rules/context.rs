//! What every rule reads, computed once per run: the analysis, the
//! policy's options, the first intent reaching each component, and each
//! component's effective values (written, else the catalog default, with
//! where the value comes from). Rules read effective values here only, so
//! each is computed once whatever the number of rules reading it.

use crate::analysis::effective as eff;
pub use crate::analysis::effective::{Eff, Origin};
use crate::analysis::{Analysis, IntentResult};
use crate::catalog::{Generic, Kind};
use crate::manifest::model::{Component, Delivery, Expiry, Manifest};
use crate::time::Dur;

use super::{Finding, Options};

/// One component's effective values, as the rules read them.
///
/// One is kept for every component while the rules run, so the values a
/// component may lack (all but `delivery`) are boxed: an empty slot is 8 bytes where an inline
/// `Option<Eff<..>>` is 48 to 64, which at 76k components was about 48 MB
/// at the peak of a check.
pub struct Values {
    pub kind: &'static Kind,
    pub retention: Option<Box<Eff<Dur>>>,
    pub visibility_timeout: Option<Box<Eff<Dur>>>,
    pub timeout: Option<Box<Eff<Dur>>>,
    pub dedup_window: Option<Box<Eff<Dur>>>,
    /// How long a topic or bus keeps trying to deliver an event.
    pub max_event_age: Option<Box<Eff<Dur>>>,
    /// What a transport deduplicates within (`queue`, `message-group`).
    pub dedup_scope: Option<Box<Eff<String>>>,
    /// Where a store's records are visible.
    pub scope: Option<Box<Eff<String>>>,
    /// Where a provider recognises a key (`global`, `region`, `zone`).
    pub key_scope: Option<Box<Eff<String>>>,
    pub expiry: Option<Box<Eff<Expiry>>>,
    pub delivery: Eff<Delivery>,
    pub accepts_key: bool,
    pub lookup_by_reference: bool,
    pub content_based_dedup: Option<Box<Eff<bool>>>,
    /// As a dead-letter queue, a moved message keeps its enqueue time.
    pub dlq_keeps_enqueue_time: bool,
}

impl Values {
    fn of(c: &Component) -> Values {
        Values {
            kind: eff::kind_of(c),
            retention: eff::dur(c, "retention").map(Box::new),
            visibility_timeout: eff::dur(c, "visibility_timeout").map(Box::new),
            timeout: eff::dur(c, "timeout").map(Box::new),
            dedup_window: eff::dur(c, "dedup_window").map(Box::new),
            max_event_age: eff::dur(c, "max_event_age").map(Box::new),
            dedup_scope: eff::dedup_scope(c).map(Box::new),
            scope: eff::scope(c).map(Box::new),
            key_scope: eff::key_scope(c).map(Box::new),
            expiry: eff::expiry(c).map(Box::new),
            delivery: eff::delivery(c),
            accepts_key: eff::boolean(c, "accepts_key").is_some_and(|x| x.value),
            lookup_by_reference: eff::boolean(c, "lookup_by_reference").is_some_and(|x| x.value),
            content_based_dedup: eff::boolean(c, "content_based_dedup").map(Box::new),
            dlq_keeps_enqueue_time: eff::boolean(c, "dlq_keeps_enqueue_time")
                .is_some_and(|x| x.value),
        }
    }

    /// Whether the platform fixes `field` for this kind (the SQS FIFO
    /// five-minute dedup window): a written value cannot change it.
    pub fn fixed(&self, field: &str) -> bool {
        self.kind.fields.get(field).is_some_and(|f| f.fixed)
    }
}

/// The precomputed context of one run of the rules.
pub struct Ctx<'a> {
    pub a: &'a Analysis<'a>,
    pub m: &'a Manifest,
    pub options: &'a Options,
    /// Per component, in component order.
    pub values: Vec<Values>,
}

impl<'a> Ctx<'a> {
    pub fn new(a: &'a Analysis<'a>, options: &'a Options) -> Ctx<'a> {
        Ctx {
            a,
            m: a.manifest,
            options,
            values: a.manifest.components.iter().map(Values::of).collect(),
        }
    }

    /// The id of the first intent (in manifest order) whose copies reach
    /// component `c`.
    pub fn reached_by(&self, c: usize) -> Option<&'a str> {
        let i = self.a.first_intent_reaching()[c]?;
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
