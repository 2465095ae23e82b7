//! The failure-injection test plan of an intent: the experiments its
//! graph calls for, each marked when the `tested` list records it.

use std::collections::{BTreeSet, HashSet};

use crate::analysis::effective as eff;
use crate::manifest::model::{LinkType, Mode};
use crate::time::Dur;

use super::{Ctx, Experiment};

impl Ctx<'_, '_> {
    pub(super) fn experiments(&self) -> Vec<Experiment> {
        let m = self.m;
        let model = &self.a.model;
        let tested: BTreeSet<&str> = self
            .intent
            .tested
            .as_ref()
            .map(|t| t.value.iter().map(String::as_str).collect())
            .unwrap_or_default();
        let mut out = Vec::new();
        let mut push = |name: &'static str, text: String| {
            out.push(Experiment {
                name,
                text,
                covered: tested.contains(name),
            })
        };
        let id = |c: usize| m.components[c].id.as_str();

        // Who performs each effect, and what sends a copy to them again.
        let mut performers: Vec<(usize, usize)> = Vec::new();
        for (e, _) in self.effects() {
            for &k in &self.into[e] {
                let em = &model.edges[k];
                if self.reached(em.from) && matches!(em.ty, LinkType::Effects | LinkType::Calls) {
                    performers.push((em.from, e));
                }
            }
        }
        performers.sort_unstable();
        performers.dedup();
        let births_reached = self.reached_edges().any(|e| e.birth.is_some());
        let again = |p: usize| -> String {
            let incoming: Vec<&crate::analysis::model::EdgeModel> = self.into[p]
                .iter()
                .map(|&k| &model.edges[k])
                .filter(|e| e.birth.is_some() && self.reached(e.from))
                .collect();
            match incoming.first() {
                Some(e) if e.ty == LinkType::DeliversTo => {
                    let vis = eff::dur(&m.components[e.from], "visibility_timeout")
                        .map_or_else(String::new, |v| {
                            format!(" after its {} visibility timeout", v.value)
                        });
                    format!("let `{}` deliver the message again{vis}", id(e.from))
                }
                Some(e) => format!("let `{}` retry", id(e.from)),
                None => "send the request again".to_string(),
            }
        };
        let guard_of = |p: usize| {
            m.components[p]
                .dedup
                .as_ref()
                .map(|g| g.store.value.clone())
        };
        let timeout_of = |p: usize| {
            eff::dur(&m.components[p], "timeout")
                .map_or_else(String::new, |t| format!(" (past its {} timeout)", t.value))
        };

        if births_reached {
            for &(p, e) in &performers {
                let claim = guard_of(p).map_or_else(String::new, |s| {
                    format!(" after it claims the key in `{s}` and")
                });
                push(
                    "timeout-before-effect",
                    format!(
                        "Stop `{}`{claim} before it calls `{}`{}; {}, and check `{}` takes effect exactly once.",
                        id(p),
                        id(e),
                        timeout_of(p),
                        again(p),
                        id(e)
                    ),
                );
            }
            for &(p, e) in &performers {
                let record = guard_of(p).map_or_else(
                    || "before it acknowledges".to_string(),
                    |s| format!("before it records completion in `{s}`"),
                );
                push(
                    "timeout-after-effect",
                    format!(
                        "Let `{}` call `{}`, then stop it {record}; {}, and check `{}` does not take effect a second time.",
                        id(p),
                        id(e),
                        again(p),
                        id(e)
                    ),
                );
            }
        }
        for &(p, e) in &performers {
            push(
                "lost-ack",
                format!(
                    "Let `{}` perform the effect but drop its reply to `{}`; check the retry finds the first outcome and `{}` takes effect once.",
                    id(e),
                    id(p),
                    id(e)
                ),
            );
        }
        if births_reached {
            for &(p, e) in &performers {
                let claim = guard_of(p).map_or_else(String::new, |s| {
                    format!(", check only one claims the key in `{s}`")
                });
                push(
                    "concurrent-retry",
                    format!(
                        "Hand two copies of the same request to `{}` at the same moment{claim}, and check `{}` takes effect once.",
                        id(p),
                        id(e)
                    ),
                );
            }
        }
        for &(p, e) in &performers {
            let Some(g) = &model.nodes[p].guard else {
                continue;
            };
            let Dur::Secs(w) = g.layer.window.value else {
                continue;
            };
            let store = id(g.layer.component);
            let at = Dur::Secs(w + 1);
            push(
                "expired-key",
                format!(
                    "Hand a copy to `{}` {at} after the first attempt, just after `{store}` forgets the key (retention {}{}), and check `{}` does not take effect twice.",
                    id(p),
                    g.layer.window.value,
                    g.layer.window.provenance(),
                    id(e)
                ),
            );
        }
        // Dead-letter queues on the path.
        let mut dlqs: Vec<usize> = self
            .reached_edges()
            .filter(|e| e.ty == LinkType::DeadLetter)
            .map(|e| e.to)
            .collect();
        dlqs.sort_unstable();
        dlqs.dedup();
        // Each effect's worst path once (the components steps leave from),
        // not once per dead-letter queue.
        let leaves: Vec<(usize, HashSet<usize>)> = if dlqs.is_empty() {
            Vec::new()
        } else {
            self.effects()
                .into_iter()
                .map(|(e, _)| {
                    (
                        e,
                        self.r.path_to(self.a, e).iter().map(|s| s.from).collect(),
                    )
                })
                .collect()
        };
        for q in dlqs {
            let redriven = model.out[q]
                .iter()
                .any(|&k| model.edges[k].ty == LinkType::Redrive);
            for (e, from) in &leaves {
                let e = *e;
                let via = redriven && from.contains(&q);
                let h = self.r.horizons.get(&e).copied().unwrap_or(Dur::ZERO);
                let when = if via {
                    format!(
                        "at the latest the manifest allows, so its copy reaches `{}` {h} after the first attempt",
                        id(e)
                    )
                } else {
                    match &m.components[q].redrive {
                        Some(l) => match l.within() {
                            Some(w) => format!(
                                "{} after the messages were dead-lettered (redrive within)",
                                w.value
                            ),
                            None => "at the end of its retention".to_string(),
                        },
                        None => "by hand at the end of its retention (no redrive is declared)"
                            .to_string(),
                    }
                };
                push(
                    "dlq-redrive",
                    format!(
                        "Redrive `{}` {when}, and check `{}` does not take effect twice.",
                        id(q),
                        id(e)
                    ),
                );
            }
        }
        // Regions: one experiment per failover (or active-active set) of regions.
        let effects: Vec<String> = self
            .effects()
            .iter()
            .map(|(_, c)| format!("`{}`", c.id))
            .collect();
        let effects = effects.join(", ");
        let mut failovers: Vec<(String, String, Dur, Vec<&str>)> = Vec::new();
        let mut actives: Vec<(Vec<std::sync::Arc<str>>, Vec<&str>)> = Vec::new();
        for (i, c) in self.components() {
            let node = &model.nodes[i];
            if let Some((from, to, delay, _)) = node.failover.as_deref() {
                let key = (
                    node.regions[*from].to_string(),
                    node.regions[*to].to_string(),
                    *delay,
                );
                match failovers.iter_mut().find(|f| {
                    (f.0.as_str(), f.1.as_str(), f.2) == (key.0.as_str(), key.1.as_str(), key.2)
                }) {
                    Some(f) => f.3.push(&c.id),
                    None => failovers.push((key.0, key.1, key.2, vec![&c.id])),
                }
            } else if node.mode == Mode::ActiveActive && node.regions.len() > 1 {
                match actives.iter_mut().find(|a| a.0 == node.regions) {
                    Some(a) => a.1.push(&c.id),
                    None => actives.push((node.regions.clone(), vec![&c.id])),
                }
            }
        }
        let ids = |v: &[&str]| {
            v.iter()
                .map(|x| format!("`{x}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        for (from, to, delay, comps) in failovers {
            push(
                "regional-failover",
                format!(
                    "Fail {from} over to {to} while {} hold the request (copies arrive up to {delay} later), and check {effects} takes effect once.",
                    ids(&comps)
                ),
            );
        }
        for (regions, comps) in actives {
            push(
                "regional-failover",
                format!(
                    "Send copies of the same request to {} in {} at the same moment, and check only one region's claim wins and {effects} takes effect once.",
                    ids(&comps),
                    regions.join(" and ")
                ),
            );
        }
        out
    }
}
