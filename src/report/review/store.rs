//! The questions about the dedup store: concurrent claims, completion,
//! ambiguous outcomes, and how long the store keeps a key.

use crate::analysis::effective as eff;
use crate::manifest::model::Claim;
use crate::rules::required_window;

use super::{Ctx, Draft, row_verdict};
use crate::manifest::model::Field;

impl Ctx<'_, '_> {
    pub(super) fn q_concurrency(&self) -> Draft {
        let mut d = Draft::default();
        let guards = self.guards();
        for (c, g, _) in &guards {
            match &g.claim {
                Some(cl) => d.ev(
                    format!("`{}` dedup.claim: {}", c.id, claim_name(cl.value)),
                    self.at(cl.loc),
                ),
                None => {
                    d.assumptions.push(format!(
                        "`{}` claims with a conditional write (dedup.claim not given)",
                        c.id
                    ));
                    d.ev(format!("`{}` dedup.claim not given", c.id), self.at(g.loc));
                }
            }
            if let Some(ip) = &g.in_progress
                && let Some(oc) = &ip.on_conflict
            {
                d.ev(
                    format!("`{}` in_progress.on_conflict: {}", c.id, oc.value),
                    self.at(oc.loc),
                );
            }
        }
        if guards.is_empty() {
            let layered: Vec<&str> = self
                .effects()
                .iter()
                .filter(|(i, _)| self.a.model.nodes[*i].own_layer.is_some())
                .map(|(_, c)| c.id.as_str())
                .collect();
            if layered.is_empty() {
                d.silent = true;
                d.answer = "No guard claims the key and no effect deduplicates: nothing is said about overlapping copies.".into();
            } else {
                d.answer = format!(
                    "No guard; overlapping copies meet the dedup of {}.",
                    layered.join(", ")
                );
            }
        } else {
            let atomic = guards.iter().all(|(_, g, _)| {
                g.claim
                    .as_ref()
                    .is_none_or(|c| c.value == Claim::ConditionalWrite)
            });
            d.answer = if atomic {
                "The first copy wins an atomic conditional write; an overlapping copy sees the claim.".into()
            } else {
                "A guard claims without an atomic write: overlapping copies can both proceed."
                    .into()
            };
        }
        d
    }

    pub(super) fn q_completion(&self) -> Draft {
        let mut d = Draft::default();
        let guards = self.guards();
        let mut all = !guards.is_empty();
        for (c, g, _) in &guards {
            match &g.stores_result {
                Some(s) => {
                    all &= s.value;
                    d.ev(
                        format!("`{}` dedup.stores_result: {}", c.id, s.value),
                        self.at(s.loc),
                    );
                }
                None => {
                    all = false;
                    d.silent = true;
                    d.ev(
                        format!("`{}` dedup.stores_result not given", c.id),
                        self.at(g.loc),
                    );
                }
            }
        }
        d.answer = if guards.is_empty() {
            d.silent = true;
            "No guard on the path stores a result for duplicates.".into()
        } else if all {
            "Yes: the guard stores the first result and returns it to duplicates.".into()
        } else if d.silent {
            "The manifest does not say whether duplicates get the original result.".into()
        } else {
            "No: a duplicate is rejected or answered without the original result.".into()
        };
        d
    }

    pub(super) fn q_ambiguity(&self) -> Draft {
        let mut d = Draft::default();
        let mut resolved = Vec::new();
        for (_, c) in self.effects() {
            let mut ways = Vec::new();
            if let Some(a) = eff::boolean(c, Field::AcceptsKey) {
                d.ev(
                    format!("`{}` accepts_key: {}{}", c.id, a.value, a.provenance()),
                    self.eff_at(&a, c),
                );
                if a.value {
                    ways.push("the provider deduplicates by our key");
                }
            }
            if let Some(l) = eff::boolean(c, Field::LookupByReference) {
                d.ev(
                    format!(
                        "`{}` lookup_by_reference: {}{}",
                        c.id,
                        l.value,
                        l.provenance()
                    ),
                    self.eff_at(&l, c),
                );
                if l.value {
                    ways.push("we can ask whether the effect already happened");
                }
            }
            if let Some(r) = c.choice_name(Field::Reconciliation) {
                d.ev(
                    format!("`{}` reconciliation: {}", c.id, r.value),
                    self.at(r.loc),
                );
                if r.value != "none" {
                    ways.push("a declared reconciliation");
                }
            }
            let generic = eff::generic(c);
            if ways.is_empty() && generic == crate::catalog::Generic::External {
                d.silent = true;
            }
            resolved.push((c.id.clone(), ways, generic));
        }
        for (c, g, _) in self.guards() {
            if let Some(ip) = &g.in_progress {
                if let Some(x) = &ip.expires_after {
                    d.ev(
                        format!("`{}` in_progress.expires_after: {}", c.id, x.value),
                        self.at(x.loc),
                    );
                }
                if let Some(x) = &ip.on_expiry {
                    d.ev(
                        format!("`{}` in_progress.on_expiry: {}", c.id, x.value),
                        self.at(x.loc),
                    );
                }
            }
        }
        let parts: Vec<String> = resolved
            .iter()
            .map(|(id, ways, g)| {
                if !ways.is_empty() {
                    format!("`{id}`: {}", ways.join("; "))
                } else if *g == crate::catalog::Generic::External {
                    format!("`{id}`: nothing declared resolves it")
                } else {
                    format!("`{id}`: a local {} write", g.name())
                }
            })
            .collect();
        d.answer = if parts.is_empty() {
            "The intent names no effect.".into()
        } else {
            format!("{}.", parts.join("; "))
        };
        d
    }

    pub(super) fn q_retention(&self) -> Draft {
        let mut d = Draft::default();
        for row in &self.rows {
            if row.role == "guard" {
                continue;
            }
            let c = &self.m.components[self.m.component_index(&row.node).unwrap_or(0)];
            let field = match row.role {
                "transport" => Field::DedupWindow,
                "effect"
                    if eff::boolean(c, Field::AcceptsKey).is_some_and(|a| a.value)
                        && c.texts(Field::Unique).is_none() =>
                {
                    Field::KeyWindow
                }
                _ => Field::Retention,
            };
            let (prov, at) = match eff::dur(c, field) {
                Some(e) => (e.provenance(), self.eff_at(&e, c)),
                None => (String::new(), self.at(c.kind.loc)),
            };
            let window = row.window.map_or_else(
                || "no window".to_string(),
                |w| format!("{} {w}{prov}", field.name()),
            );
            d.ev(
                format!(
                    "`{}` ({}): {window}; latest copy at {}{}; minimum safe retention {} ({})",
                    row.node,
                    row.role,
                    row.horizon,
                    row.span.map_or_else(String::new, |sp| format!(
                        ", the latest it must stop {sp} after its first sighting"
                    )),
                    required_window(row.needs()),
                    row_verdict(row)
                ),
                at,
            );
        }
        for row in self.rows.iter().filter(|r| r.role == "effect") {
            let steps: Vec<String> = row
                .steps
                .iter()
                .map(|st| {
                    let adds = st.adds;
                    format!("`{}` → `{}` +{adds}", st.from, st.to)
                })
                .collect();
            if !steps.is_empty() {
                d.ev(
                    format!(
                        "worst path to `{}` ({}): {}",
                        row.node,
                        row.horizon,
                        steps.join(", ")
                    ),
                    None,
                );
            }
        }
        for f in &self.findings {
            d.assumptions.extend(f.assumptions().map(str::to_string));
        }
        for asm in &self.a.model.assumed {
            if self.reached(asm.component) {
                d.assumptions.push(format!(
                    "`{}.{}` taken as {} (not given)",
                    self.m.components[asm.component].id, asm.field, asm.value
                ));
            }
        }
        let worst = self.rows.iter().map(|r| r.horizon).max();
        let failing = self
            .findings
            .iter()
            .any(|f| f.rule.topic == crate::rules::Topic::Retention);
        d.answer = match worst {
            None => "No guard, store or effect is reached.".into(),
            Some(h) if failing => format!(
                "No: a copy can arrive {h} after the intent, later than a window on its way remembers the key."
            ),
            Some(h) => {
                format!("Yes: every window outlasts the latest copy ({h} after the intent).")
            }
        };
        d
    }
}

fn claim_name(c: Claim) -> &'static str {
    match c {
        Claim::ConditionalWrite => "conditional-write",
        Claim::ReadThenWrite => "read-then-write",
        Claim::None => "none",
    }
}
