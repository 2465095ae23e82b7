//! A copy that survives to an effect, as the rules that report one read it
//! (RH001, RH003, RH020, RH021): where it goes and the finding's common
//! part (intent, path from the origin, steps, assumptions).

use crate::analysis::{Analysis, Class, Dup, IntentResult, Step};
use crate::manifest::model::Intent;
use crate::rules::{Code, Finding};

/// A copy of an intent that survives to one of its effects.
pub(crate) struct Surviving<'a> {
    pub a: &'a Analysis<'a>,
    pub r: &'a IntentResult,
    pub intent: &'a Intent,
    pub effect: usize,
    pub dup: &'a Dup,
    pub steps: &'a [Step],
    /// The assumptions its steps rest on, where the rule reports them.
    pub assumed: Vec<String>,
}

impl Surviving<'_> {
    /// Every copy of the intent of `r` that survives to an effect, in
    /// effect order, with its class.
    pub fn of<'a>(
        a: &'a Analysis<'a>,
        r: &'a IntentResult,
    ) -> impl Iterator<Item = (Class, Surviving<'a>)> + 'a {
        let intent = &a.manifest.intents[r.intent];
        r.surviving.iter().flat_map(move |(&effect, list)| {
            list.iter().map(move |(class, dup, steps)| {
                let copy = Surviving {
                    a,
                    r,
                    intent,
                    effect,
                    dup,
                    steps,
                    assumed: Vec::new(),
                };
                (*class, copy)
            })
        })
    }

    /// The finding for this copy: its intent, its path from the origin, its
    /// steps and the assumptions they rest on.
    pub fn finding(&self, code: Code, message: String) -> Finding {
        let origin = self.intent.origin.index().unwrap_or(0);
        let mut f = Finding::new(code, message).intent(&self.intent.id);
        f.path = IntentResult::path_ids(self.a.manifest, origin, self.steps);
        f.steps = self.steps.to_vec();
        f.rests_on = self.assumed.clone();
        f
    }
}
