//! The failure-injection test plan of an intent: the experiments its
//! graph calls for, each marked when the `tested` list records it.

use std::collections::{BTreeSet, HashSet};

use crate::analysis::effective as eff;
use crate::manifest::model::{LinkType, Mode};
use crate::time::Dur;

use super::{Ctx, Experiment};
use crate::manifest::model::{Field, LinkField};

/// The experiments so far, each marked when the intent's `tested` list
/// records it.
struct Plan<'t> {
    tested: BTreeSet<&'t str>,
    out: Vec<Experiment>,
}

impl Plan<'_> {
    fn push(&mut self, name: &'static str, text: String) {
        self.out.push(Experiment {
            name,
            text,
            covered: self.tested.contains(name),
        })
    }
}

impl Ctx<'_, '_> {
    /// Retries and timeouts around each effect, then dead-letter redrives,
    /// then regional failovers.
    pub(super) fn experiments(&self) -> Vec<Experiment> {
        let tested = self
            .intent
            .tested
            .as_ref()
            .map(|t| t.value.iter().map(|s| s.as_str()).collect())
            .unwrap_or_default();
        let mut plan = Plan {
            tested,
            out: Vec::new(),
        };
        self.retry_experiments(&mut plan, &self.performers());
        self.dlq_experiments(&mut plan);
        self.region_experiments(&mut plan);
        plan.out
    }

    /// Who performs each effect: (performer, effect), each pair once.
    fn performers(&self) -> Vec<(usize, usize)> {
        let model = &self.a.model;
        let mut performers: Vec<(usize, usize)> = Vec::new();
        for (e, _) in self.effects() {
            for &k in &self.into[e] {
                let em = &model.edges[k];
                if self.reached(em.from()) && matches!(em.ty, LinkType::Effects | LinkType::Calls) {
                    performers.push((em.from(), e));
                }
            }
        }
        performers.sort_unstable();
        performers.dedup();
        performers
    }

    fn id(&self, c: usize) -> &str {
        self.m.components[c].id.as_str()
    }

    /// What sends performer `p` a copy again.
    fn again(&self, p: usize) -> String {
        let model = &self.a.model;
        let incoming: Vec<&crate::analysis::model::EdgeModel> = self.into[p]
            .iter()
            .map(|&k| &model.edges[k])
            .filter(|e| e.birth.is_some() && self.reached(e.from()))
            .collect();
        match incoming.first() {
            Some(e) if e.ty == LinkType::DeliversTo => {
                let vis = eff::dur(&self.m.components[e.from()], Field::VisibilityTimeout)
                    .map_or_else(String::new, |v| {
                        format!(" after its {} visibility timeout", v.value)
                    });
                format!("let `{}` deliver the message again{vis}", self.id(e.from()))
            }
            Some(e) => format!("let `{}` retry", self.id(e.from())),
            None => "send the request again".to_string(),
        }
    }

    /// The dedup store performer `p` claims keys in.
    fn guard_of(&self, p: usize) -> Option<String> {
        self.m.components[p]
            .dedup
            .as_ref()
            .map(|g| g.store.value.as_str().to_owned())
    }

    /// " (past its 30s timeout)" of performer `p`, or nothing.
    fn timeout_of(&self, p: usize) -> String {
        eff::dur(&self.m.components[p], Field::Timeout)
            .map_or_else(String::new, |t| format!(" (past its {} timeout)", t.value))
    }

    /// Timeouts before and after each effect, lost replies, concurrent
    /// copies, and a copy just after the key expires.
    fn retry_experiments(&self, plan: &mut Plan, performers: &[(usize, usize)]) {
        let model = &self.a.model;
        let births_reached = self.reached_edges().any(|e| e.birth.is_some());
        if births_reached {
            for &(p, e) in performers {
                let claim = self.guard_of(p).map_or_else(String::new, |s| {
                    format!(" after it claims the key in `{s}` and")
                });
                plan.push(
                    "timeout-before-effect",
                    format!(
                        "Stop `{}`{claim} before it calls `{}`{}; {}, and check `{}` takes effect exactly once.",
                        self.id(p),
                        self.id(e),
                        self.timeout_of(p),
                        self.again(p),
                        self.id(e)
                    ),
                );
            }
            for &(p, e) in performers {
                let record = self.guard_of(p).map_or_else(
                    || "before it acknowledges".to_string(),
                    |s| format!("before it records completion in `{s}`"),
                );
                plan.push(
                    "timeout-after-effect",
                    format!(
                        "Let `{}` call `{}`, then stop it {record}; {}, and check `{}` does not take effect a second time.",
                        self.id(p),
                        self.id(e),
                        self.again(p),
                        self.id(e)
                    ),
                );
            }
        }
        for &(p, e) in performers {
            plan.push(
                "lost-ack",
                format!(
                    "Let `{}` perform the effect but drop its reply to `{}`; check the retry finds the first outcome and `{}` takes effect once.",
                    self.id(e),
                    self.id(p),
                    self.id(e)
                ),
            );
        }
        if births_reached {
            for &(p, e) in performers {
                let claim = self.guard_of(p).map_or_else(String::new, |s| {
                    format!(", check only one claims the key in `{s}`")
                });
                plan.push(
                    "concurrent-retry",
                    format!(
                        "Hand two copies of the same request to `{}` at the same moment{claim}, and check `{}` takes effect once.",
                        self.id(p),
                        self.id(e)
                    ),
                );
            }
        }
        for &(p, e) in performers {
            let Some(g) = &model.nodes[p].guard else {
                continue;
            };
            let w = g.layer.window.value;
            if w.is_unbounded() {
                continue;
            }
            let store = self.id(g.layer.component);
            let at = w.add(Dur::secs(1));
            plan.push(
                "expired-key",
                format!(
                    "Hand a copy to `{}` {at} after the first attempt, just after `{store}` forgets the key (retention {}{}), and check `{}` does not take effect twice.",
                    self.id(p),
                    g.layer.window.value,
                    g.layer.window.provenance(),
                    self.id(e)
                ),
            );
        }
    }

    /// Redrives of the dead-letter queues on the path.
    fn dlq_experiments(&self, plan: &mut Plan) {
        let m = self.m;
        let model = &self.a.model;
        let mut dlqs: Vec<usize> = self
            .reached_edges()
            .filter(|e| e.ty == LinkType::DeadLetter)
            .map(|e| e.to())
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
                let h = self.r.horizons.get(e).unwrap_or(Dur::ZERO);
                let when = if via {
                    format!(
                        "at the latest the manifest allows, so its copy reaches `{}` {h} after the first attempt",
                        self.id(e)
                    )
                } else {
                    match m.components[q].redrive() {
                        Some(l) => match l.dur(LinkField::Within) {
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
                plan.push(
                    "dlq-redrive",
                    format!(
                        "Redrive `{}` {when}, and check `{}` does not take effect twice.",
                        self.id(q),
                        self.id(e)
                    ),
                );
            }
        }
    }

    /// One experiment per failover (or active-active set) of regions.
    fn region_experiments(&self, plan: &mut Plan) {
        let model = &self.a.model;
        let effects: Vec<String> = self
            .effects()
            .iter()
            .map(|(_, c)| format!("`{}`", c.id))
            .collect();
        let effects = effects.join(", ");
        let mut failovers: Vec<(String, String, Dur, Vec<&str>)> = Vec::new();
        let mut actives: Vec<(Vec<crate::manifest::name::Name>, Vec<&str>)> = Vec::new();
        for (i, c) in self.components() {
            let node = &model.nodes[i];
            if let Some((from, to, delay)) = node.failover.as_ref() {
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
                match actives.iter_mut().find(|a| a.0[..] == node.regions[..]) {
                    Some(a) => a.1.push(&c.id),
                    None => actives.push((node.regions.to_vec(), vec![&c.id])),
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
            plan.push(
                "regional-failover",
                format!(
                    "Fail {from} over to {to} while {} hold the request (copies arrive up to {delay} later), and check {effects} takes effect once.",
                    ids(&comps)
                ),
            );
        }
        for (regions, comps) in actives {
            plan.push(
                "regional-failover",
                format!(
                    "Send copies of the same request to {} in {} at the same moment, and check only one region's claim wins and {effects} takes effect once.",
                    ids(&comps),
                    regions.join(" and ")
                ),
            );
        }
    }
}
