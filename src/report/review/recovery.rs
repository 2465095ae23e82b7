//! The questions about recovery: the key's scope, regional failover,
//! recovery from dead letters, and which failure injections were run.

use crate::analysis::effective as eff;
use crate::manifest::model::{Component, Mode};

use super::{Ctx, Draft, EXPERIMENTS, Experiment};

impl Ctx<'_, '_> {
    pub(super) fn q_scope(&self) -> Draft {
        let mut d = Draft::default();
        let mut scopes = Vec::new();
        for (c, _, store) in self.guards() {
            let Some(s) = store else { continue };
            match eff::scope(s) {
                Some(sc) => {
                    d.ev(
                        format!("`{}` scope: {}{}", s.id, sc.value, sc.provenance()),
                        self.eff_at(&sc, s),
                    );
                    scopes.push(format!("`{}` per {}", s.id, sc.value));
                }
                None => {
                    d.silent = true;
                    d.ev(
                        format!("`{}` (guard store of `{}`) declares no scope", s.id, c.id),
                        self.at(s.kind.loc),
                    );
                }
            }
        }
        for (i, c) in self.components() {
            if self.a.model.nodes[i].transport_window.is_some()
                && let Some(sc) = eff::dedup_scope(c)
            {
                d.ev(
                    format!("`{}` dedup_scope: {}{}", c.id, sc.value, sc.provenance()),
                    self.eff_at(&sc, c),
                );
                scopes.push(format!("`{}` per {}", c.id, sc.value));
            }
        }
        d.answer = if scopes.is_empty() && d.silent {
            "The manifest does not say over which boundary the dedup store holds keys.".into()
        } else if scopes.is_empty() {
            "No dedup store or window on the path.".into()
        } else {
            format!("Deduplication holds {}.", scopes.join("; "))
        };
        d
    }

    pub(super) fn q_failover(&self) -> Draft {
        let mut d = Draft::default();
        let mut any = false;
        for (i, c) in self.components() {
            if c.regions.is_empty() {
                continue;
            }
            any = true;
            let regions: Vec<&str> = c.regions.iter().map(|r| r.value.as_str()).collect();
            let mode = match c.mode() {
                Mode::ActiveActive => "active-active",
                Mode::ActivePassive => "active-passive",
            };
            let mode = if regions.len() > 1 {
                format!(", {mode}")
            } else {
                String::new()
            };
            d.ev(
                format!("`{}` runs in {}{mode}", c.id, regions.join(", ")),
                self.at(c.regions[0].loc),
            );
            if let Some(why) = self.a.model.failover_why(self.a.manifest, i) {
                d.ev(why, None);
            }
        }
        for (_, _, store) in self.guards() {
            let Some(s) = store else { continue };
            let r = eff::replication(s);
            let name = match r.value {
                crate::manifest::model::Replication::None => "none",
                crate::manifest::model::Replication::Async => "async",
                crate::manifest::model::Replication::Sync => "sync",
            };
            d.ev(
                format!("`{}` replication: {name}{}", s.id, r.provenance()),
                self.eff_at(&r, s),
            );
        }
        let failing = self
            .findings
            .iter()
            .any(|f| f.rule.topic == crate::rules::Topic::Failover);
        d.answer = if !any {
            d.silent = true;
            "No component on the path declares regions: the answer takes a single region for granted.".into()
        } else if failing {
            "Yes: a copy can claim the key in a region that does not see the first claim.".into()
        } else {
            "No: every region where a copy can arrive sees the same claims.".into()
        };
        d
    }

    pub(super) fn q_recovery(&self) -> Draft {
        let mut d = Draft::default();
        let stores: Vec<&Component> = self
            .guards()
            .into_iter()
            .filter_map(|(_, _, s)| s)
            .collect();
        let mut missing = false;
        for s in &stores {
            match &s.backup {
                Some(b) => {
                    let rpo = b
                        .rpo
                        .as_ref()
                        .map_or_else(|| "not given".to_string(), |r| r.value.to_string());
                    let with: Vec<&str> =
                        b.restored_with.iter().map(|x| x.value.as_str()).collect();
                    let with = if with.is_empty() {
                        String::new()
                    } else {
                        format!(", restored with {}", with.join(", "))
                    };
                    d.ev(format!("`{}` backup rpo {rpo}{with}", s.id), self.at(b.loc));
                    missing |= b.rpo.is_none();
                }
                None => {
                    missing = true;
                    d.ev(
                        format!("`{}` declares no backup", s.id),
                        self.at(s.kind.loc),
                    );
                }
            }
        }
        for (_, c) in self.effects() {
            if eff::generic(c).is_store()
                && let Some(b) = &c.backup
            {
                let rpo = b
                    .rpo
                    .as_ref()
                    .map_or_else(|| "not given".to_string(), |r| r.value.to_string());
                d.ev(
                    format!("business state `{}` backup rpo {rpo}", c.id),
                    self.at(b.loc),
                );
            }
        }
        let failing = self.findings.iter().any(|f| f.rule.code == "RH012");
        d.answer = if stores.is_empty() {
            "No dedup store on the path: there is no dedup history to restore.".into()
        } else if failing {
            "No: the dedup history can come back older than the business state it protects.".into()
        } else if missing {
            d.silent = true;
            "The manifest does not say how the dedup store is backed up and restored.".into()
        } else {
            "Yes: the dedup history is restored to a point compatible with the business state."
                .into()
        };
        d
    }

    pub(super) fn q_testing(&self, plan: &[Experiment]) -> (Draft, bool) {
        let mut d = Draft::default();
        let Some(tested) = &self.intent.tested else {
            d.answer = "No `tested` list: no failure injection is recorded.".into();
            return (d, !plan.is_empty());
        };
        d.ev(
            format!("tested: [{}]", tested.value.join(", ")),
            self.at(tested.loc),
        );
        let mut missing: Vec<&str> = plan.iter().filter(|e| !e.covered).map(|e| e.name).collect();
        missing.dedup();
        let unknown: Vec<&str> = tested
            .value
            .iter()
            .map(|t| t.as_str())
            .filter(|t| !EXPERIMENTS.contains(t))
            .collect();
        if !unknown.is_empty() {
            d.ev(
                format!("not a known failure injection: {}", unknown.join(", ")),
                self.at(tested.loc),
            );
        }
        d.answer = if missing.is_empty() {
            "Every failure injection that applies to this intent's graph has been run.".into()
        } else {
            format!("Not yet run: {} (see the test plan).", missing.join(", "))
        };
        (d, !missing.is_empty())
    }
}
