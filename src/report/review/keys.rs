//! The questions about the key: the intent, where the key is generated,
//! how it travels, and what the fingerprint covers.

use crate::analysis::effective as eff;

use super::{Ctx, Draft};
use crate::manifest::model::{Field, LinkField};

impl Ctx<'_, '_> {
    pub(super) fn q_intent(&self) -> Draft {
        let i = self.intent;
        let mut d = Draft::default();
        match &i.description {
            Some(desc) => d.ev(format!("intent `{}`: {desc}", i.id), self.at(i.loc)),
            None => d.ev(
                format!("intent `{}` has no description", i.id),
                self.at(i.loc),
            ),
        }
        match &i.key.fields {
            Some(f) => {
                let sort = if i.key.is_generated() {
                    "a generated key"
                } else {
                    "a natural key from business fields"
                };
                d.answer = format!("`{}` is named by [{}], {sort}.", i.id, f.value.join(", "));
                d.ev(
                    format!("key.fields: [{}]", f.value.join(", ")),
                    self.at(f.loc),
                );
            }
            None => {
                d.silent = true;
                d.answer =
                    "The manifest declares no key: nothing says which decision a copy belongs to."
                        .into();
            }
        }
        d
    }

    pub(super) fn q_generation(&self) -> Draft {
        let i = self.intent;
        let mut d = Draft::default();
        if i.key.loc.is_none() {
            d.silent = true;
            d.answer = "No key is declared, so where it is minted is not said.".into();
            return d;
        }
        let minted_at = i.minted_at();
        let how = if i.key.per_attempt() {
            "per attempt"
        } else {
            "once per intent"
        };
        match &i.key.minted_at {
            Some(ma) => d.ev(format!("key.minted_at: `{}`", ma.value), self.at(ma.loc)),
            None => d.ev(
                format!(
                    "minted at the origin `{}` (key.minted_at not given)",
                    i.origin.value
                ),
                self.at(i.origin.loc),
            ),
        }
        match &i.key.minted {
            Some(mm) => d.ev(format!("key.minted: {how}"), self.at(mm.loc)),
            None => d.ev("key.minted not given: once per intent (the default)", None),
        }
        let kept = match &i.key.persisted_before_retry {
            Some(p) => {
                d.ev(
                    format!("key.persisted_before_retry: {}", p.value),
                    self.at(p.loc),
                );
                if p.value {
                    "and persisted before retries begin"
                } else {
                    "and not persisted before retries begin"
                }
            }
            None if i.key.is_generated() => {
                d.silent = true;
                "but the manifest does not say whether the generated key is stored before the first retry"
            }
            None => "and derived again from the same business fields on every attempt",
        };
        d.answer = format!("Minted at `{}` {how}, {kept}.", minted_at.value);
        d
    }

    pub(super) fn q_propagation(&self) -> Draft {
        let mut d = Draft::default();
        if self.intent.key.loc.is_none() {
            d.silent = true;
            d.answer = "No key is declared, so none can be passed on.".into();
            return d;
        }
        let mut needing = 0;
        for (_, c) in self.components() {
            for l in c.calls().iter().chain(c.effects()) {
                let passes = match l.flag(LinkField::PassesKey) {
                    Some(p) => format!("passes_key: {}", p.value),
                    None => "passes_key not given: the key is not passed".into(),
                };
                let target = self.m.target(&l.to);
                let wants = target
                    .and_then(|t| eff::boolean(t, Field::AcceptsKey))
                    .is_some_and(|a| a.value)
                    || target.is_some_and(|t| t.dedup.is_some());
                needing += usize::from(wants);
                let note = if wants {
                    " (the target deduplicates by the key)"
                } else {
                    ""
                };
                d.ev(
                    format!(
                        "`{}` → `{}` ({}): {passes}{note}",
                        c.id,
                        l.to.value,
                        l.ty.field()
                    ),
                    self.at(l.loc),
                );
            }
        }
        d.answer = if self
            .findings
            .iter()
            .any(|f| f.rule.code == "RH021" || f.rule.code == "RH037")
        {
            "No: a dependency with a side effect is reached by a link that drops the key.".into()
        } else if d.evidence.is_empty() {
            "Messages carry the key on every link; no call or effect needs it passed explicitly."
                .into()
        } else if needing == 0 {
            "Messages carry the key; no called dependency deduplicates by it, so the effect is guarded upstream.".into()
        } else {
            "Yes: every dependency that deduplicates by the key receives it.".into()
        };
        d
    }

    pub(super) fn q_fingerprint(&self) -> Draft {
        let i = self.intent;
        let mut d = Draft::default();
        let fields = match &i.fingerprint {
            Some(f) => {
                d.ev(
                    format!("fingerprint: [{}]", f.value.join(", ")),
                    self.at(f.loc),
                );
                format!("[{}]", f.value.join(", "))
            }
            None => {
                d.silent = true;
                String::new()
            }
        };
        let mut bound = Vec::new();
        for (c, g, _) in self.guards() {
            match &g.binds_fingerprint {
                Some(b) => {
                    d.ev(
                        format!("`{}` dedup.binds_fingerprint: {}", c.id, b.value),
                        self.at(b.loc),
                    );
                    bound.push((c.id.as_str(), b.value));
                }
                None => {
                    d.silent = true;
                    d.ev(
                        format!("`{}` dedup.binds_fingerprint not given", c.id),
                        self.at(g.loc),
                    );
                }
            }
        }
        d.answer = match (fields.is_empty(), bound.iter().all(|b| b.1) && !bound.is_empty()) {
            (true, _) => "The intent declares no fingerprint: a reused key with another payload cannot be told apart.".into(),
            (false, true) => format!("Bound to {fields}; a copy with other values is rejected instead of answered with an unrelated result."),
            (false, false) if bound.is_empty() && self.guards().is_empty() => {
                format!("Fingerprint {fields}, but no guard on the path compares it.")
            }
            (false, false) => format!("Fingerprint {fields}, but not every guard binds it to the key."),
        };
        d
    }
}
