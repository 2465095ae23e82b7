//! What the analysis reads from the manifest, computed once per run: the
//! delay and duplicate births of every edge, and the dedup layers and
//! regional behaviour of every component.

use crate::analysis::effective::{self as eff, Eff, Origin};
use crate::analysis::retry;
use crate::catalog::Generic;
use crate::diagnostics::Loc;
use crate::graph::{Adjacency, Components, Graph};
use crate::hash::IdMap;
use crate::manifest::model::{
    Claim, Component, DedupId, Delivery, Link, LinkType, Manifest, Mode, Replication,
};
use crate::time::Dur;
use std::sync::Arc;

/// Where a duplicate is born.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Birth {
    Retry,
    Redelivery,
    Redrive,
    Replay,
    Failover,
}

impl Birth {
    pub fn describe(self) -> &'static str {
        match self {
            Birth::Retry => "a retry",
            Birth::Redelivery => "an at-least-once redelivery",
            Birth::Redrive => "a dead-letter redrive",
            Birth::Replay => "a declared replay",
            Birth::Failover => "a regional failover",
        }
    }
}

/// A value the analysis had to assume (RH041).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Assumed {
    pub component: usize,
    pub field: String,
    pub value: String,
    pub loc: Loc,
}

/// One edge as the analysis sees it. How its delay adds up, in words, is
/// written only for the edges a path shows ([`Model::explain`]).
#[derive(Debug, Clone)]
pub struct EdgeModel {
    pub from: usize,
    pub to: usize,
    pub ty: LinkType,
    /// The link's position in its component's `links()` list.
    pub link: u32,
    pub loc: Loc,
    pub delay: Dur,
    /// The declared operational assumption the delay rests on, if any.
    pub assumption: Option<EdgeAssumption>,
    pub birth: Option<Birth>,
    pub passes_key: bool,
    /// `sends_to` into a transport: how its dedup id is formed.
    pub dedup_id: Option<DedupId>,
    /// `redrive`: `Some(max_times)`, where `None` inside means no bound.
    pub redrive_bound: Option<Option<u64>>,
}

/// An operational assumption an edge's delay rests on (RH005 lists them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum EdgeAssumption {
    /// The backlog of a transport (component) stays below its `max_backlog`.
    Backlog { component: usize, max_backlog: Dur },
    /// A dead-letter queue (component) is redriven within the declared time.
    RedriveWithin { component: usize, within: Dur },
}

impl EdgeAssumption {
    pub fn text(&self, m: &Manifest) -> String {
        match *self {
            EdgeAssumption::Backlog {
                component,
                max_backlog,
            } => format!(
                "max_backlog {max_backlog} on {}",
                m.components[component].id
            ),
            EdgeAssumption::RedriveWithin { component, within } => {
                format!("redrive of {} within {within}", m.components[component].id)
            }
        }
    }
}

/// A dedup layer: a guard's store, a transport window, a provider key
/// window, or a ledger's unique constraint.
#[derive(Debug, Clone)]
pub struct Layer {
    /// The component whose window applies (store, transport, provider).
    pub component: usize,
    pub window: Eff<Dur>,
    /// Stops copies whatever key they carry (a business unique constraint).
    pub any_key: bool,
    /// Stops copies that lost the key but kept the body (content dedup).
    pub content: bool,
    pub label: &'static str,
}

#[derive(Debug, Clone)]
pub struct GuardModel {
    pub layer: Layer,
    pub claim: Claim,
    pub store_regions: Vec<Arc<str>>,
    pub replication: Eff<Replication>,
}

#[derive(Debug, Clone)]
pub struct NodeModel {
    pub generic: Generic,
    /// Region names; empty when the component declares none. Shared:
    /// thousands of components name the same few regions.
    pub regions: Vec<Arc<str>>,
    pub mode: Mode,
    /// Primary region index → failover region index, delay, explanation.
    pub failover: Option<Box<(usize, usize, Dur, String)>>,
    // The optional parts are boxed: most components have none of them, and
    // inline they made every node 464 bytes.
    pub guard: Option<Box<GuardModel>>,
    /// Provider accepting our key, or a unique constraint on the component.
    pub own_layer: Option<Box<Layer>>,
    /// Transport dedup window (send side).
    pub transport_window: Option<Box<Layer>>,
}

impl NodeModel {
    pub fn region_count(&self) -> usize {
        self.regions.len().max(1)
    }
}

#[derive(Debug, Clone)]
pub struct Model {
    pub nodes: Vec<NodeModel>,
    pub edges: Vec<EdgeModel>,
    /// Outgoing copy edges of each node (indices into `edges`).
    pub out: Adjacency,
    /// The graph's strongly connected components, in topological order.
    pub components: Components,
    pub assumed: Vec<Assumed>,
}

impl Model {
    /// The model of every component and of every edge of `graph`.
    pub fn build(m: &Manifest, graph: Graph) -> Model {
        let mut assumed = Vec::new();
        let mut names = Names::default();
        let nodes: Vec<NodeModel> = m
            .components
            .iter()
            .enumerate()
            .map(|(i, c)| node_model(m, i, c, &mut assumed, &mut names))
            .collect();
        let edges: Vec<EdgeModel> = graph
            .edges
            .iter()
            .map(|e| edge_model(m, e, &nodes, &mut assumed, &mut Why(None)))
            .collect();
        assumed.sort();
        assumed.dedup();
        let components = graph.components(nodes.len());
        Model {
            nodes,
            edges,
            out: graph.out,
            components,
            assumed,
        }
    }

    /// How the delay of edge `e` adds up, in words, after the link type
    /// ("delivers_to: at-least-once delivery: retention 4d ...").
    pub fn explain(&self, m: &Manifest, e: usize) -> String {
        let em = &self.edges[e];
        let edge = crate::graph::Edge {
            from: em.from,
            to: em.to,
            ty: em.ty,
            link: em.link,
        };
        let mut why = Why(Some(Vec::new()));
        edge_model(m, &edge, &self.nodes, &mut Vec::new(), &mut why);
        let parts = why.0.unwrap_or_default();
        let text = if parts.is_empty() {
            "no delay".to_string()
        } else {
            parts.join("; ")
        };
        format!("{}: {text}", em.ty.field())
    }
}

/// The parts of an edge's explanation, collected only when asked for
/// (`Some`): formatting them for every edge of a large graph cost more
/// than computing the delays, and only the edges on a shown path need them.
struct Why(Option<Vec<String>>);

impl Why {
    fn add(&mut self, part: impl FnOnce() -> String) {
        if let Some(parts) = &mut self.0 {
            parts.push(part());
        }
    }

    fn wanted(&self) -> bool {
        self.0.is_some()
    }
}

fn assume(assumed: &mut Vec<Assumed>, component: usize, c: &Component, field: &str, value: &str) {
    assumed.push(Assumed {
        component,
        field: field.to_string(),
        value: value.to_string(),
        loc: c.kind.loc,
    });
}

/// The window of a store: its retention, else the catalog's, else assumed.
fn store_window(i: usize, c: &Component, g: Generic, assumed: &mut Vec<Assumed>) -> Eff<Dur> {
    eff::dur(c, "retention").unwrap_or_else(|| {
        let v = if g == Generic::Ledger {
            Dur::Unbounded
        } else {
            Dur::ZERO
        };
        assume(assumed, i, c, "retention", &v.to_string());
        Eff {
            value: v,
            origin: Origin::Assumed,
        }
    })
}

/// One shared copy of each region name.
#[derive(Default)]
struct Names(IdMap<String, Arc<str>>);

impl Names {
    fn get(&mut self, name: &str) -> Arc<str> {
        if let Some(n) = self.0.get(name) {
            return n.clone();
        }
        let n: Arc<str> = Arc::from(name);
        self.0.insert(name.to_string(), n.clone());
        n
    }
}

fn node_model(
    m: &Manifest,
    i: usize,
    c: &Component,
    assumed: &mut Vec<Assumed>,
    names: &mut Names,
) -> NodeModel {
    let generic = eff::generic(c);
    let regions: Vec<Arc<str>> = c.regions.iter().map(|r| names.get(&r.value)).collect();
    let mode = c.mode();
    let failover = if mode == Mode::ActivePassive && regions.len() > 1 {
        m.region(&regions[0]).and_then(|r| {
            let to = r.failover_to.as_ref()?;
            let ti = regions.iter().position(|x| **x == *to.value)?;
            let det = r.detection.as_ref().map_or(Dur::ZERO, |d| d.value);
            let cu = r.catch_up.as_ref().map_or(Dur::ZERO, |d| d.value);
            Some(Box::new((
                0,
                ti,
                det.add(cu),
                format!(
                    "failover {} → {}: detection {det} + catch-up {cu}",
                    r.id, to.value
                ),
            )))
        })
    } else {
        None
    };
    let guard = c.dedup.as_ref().and_then(|g| {
        let si = g.store.index()?;
        let s = &m.components[si];
        let sg = eff::generic(s);
        Some(Box::new(GuardModel {
            layer: Layer {
                component: si,
                window: store_window(si, s, sg, assumed),
                any_key: s.unique().is_some_and(|u| !u.value.is_empty()),
                content: false,
                label: "guard store",
            },
            claim: g
                .claim
                .as_ref()
                .map_or(Claim::ConditionalWrite, |c| c.value),
            store_regions: s.regions.iter().map(|r| names.get(&r.value)).collect(),
            replication: eff::replication(s),
        }))
    });
    let own_layer = if generic.is_store() && c.unique().is_some_and(|u| !u.value.is_empty()) {
        Some(Box::new(Layer {
            component: i,
            window: store_window(i, c, generic, assumed),
            any_key: true,
            content: false,
            label: "unique constraint",
        }))
    } else if eff::boolean(c, "accepts_key").is_some_and(|a| a.value) {
        let window = eff::dur(c, "key_window").unwrap_or_else(|| {
            assume(assumed, i, c, "key_window", "0s");
            Eff {
                value: Dur::ZERO,
                origin: Origin::Assumed,
            }
        });
        Some(Box::new(Layer {
            component: i,
            window,
            any_key: false,
            content: false,
            label: "provider key window",
        }))
    } else {
        None
    };
    let transport_window = if generic.is_transport() {
        eff::dur(c, "dedup_window")
            .filter(|w| w.value > Dur::ZERO)
            .map(|window| {
                Box::new(Layer {
                    component: i,
                    window,
                    any_key: false,
                    content: eff::boolean(c, "content_based_dedup").is_some_and(|b| b.value),
                    label: "transport dedup window",
                })
            })
    } else {
        None
    };
    NodeModel {
        generic,
        regions,
        mode,
        failover,
        guard,
        own_layer,
        transport_window,
    }
}

/// How long a transport may still deliver a message: its retention, or with
/// a declared `max_backlog` the smaller of the retention and
/// `max_backlog + (max_receives - 1) * visibility_timeout`. Returns the span,
/// its explanation (only when `explain`; empty otherwise) and the backlog
/// assumption it rests on.
pub fn transport_span(
    i: usize,
    c: &Component,
    after_receives: Option<u64>,
    assumed: &mut Vec<Assumed>,
    explain: bool,
) -> (Dur, String, Option<EdgeAssumption>) {
    // A push transport (SNS, EventBridge) keeps no backlog but retries a
    // delivery for up to its maximum event age.
    let (retention, what) = match (eff::dur(c, "retention"), eff::dur(c, "max_event_age")) {
        (Some(r), _) => (r, "retention"),
        (None, Some(age)) => (age, "delivery retried for up to max_event_age"),
        (None, None) => {
            assume(assumed, i, c, "retention", "unbounded");
            let unbounded = Eff {
                value: Dur::Unbounded,
                origin: Origin::Assumed,
            };
            (unbounded, "retention")
        }
    };
    let text = |f: &dyn Fn() -> String| if explain { f() } else { String::new() };
    let Some(backlog) = c.max_backlog() else {
        let why = text(&|| format!("{what} {}{}", retention.value, retention.provenance()));
        return (retention.value, why, None);
    };
    let receives = after_receives
        .or_else(|| eff::count(c, "max_receives").map(|e| e.value))
        .unwrap_or(1);
    let vis = eff::dur(c, "visibility_timeout").map_or(Dur::ZERO, |v| v.value);
    let bound = backlog.value.add(vis.times(receives.saturating_sub(1)));
    let assumption = Some(EdgeAssumption::Backlog {
        component: i,
        max_backlog: backlog.value,
    });
    if bound < retention.value {
        let why = text(&|| {
            format!(
                "max_backlog {} + ({receives} - 1) × visibility {vis} = {bound} (below retention {})",
                backlog.value, retention.value
            )
        });
        (bound, why, assumption)
    } else {
        let why = text(&|| {
            format!(
                "retention {}{} (max_backlog does not lower it)",
                retention.value,
                retention.provenance()
            )
        });
        (retention.value, why, assumption)
    }
}

/// The model of one edge. Its explanation goes to `why`, when wanted.
fn edge_model(
    m: &Manifest,
    edge: &crate::graph::Edge,
    nodes: &[NodeModel],
    assumed: &mut Vec<Assumed>,
    why: &mut Why,
) -> EdgeModel {
    let (a, b) = (edge.from, edge.to);
    let link: &Link = Graph::link(m, edge);
    let (ca, cb) = (&m.components[a], &m.components[b]);
    let mut em = EdgeModel {
        from: a,
        to: b,
        ty: link.ty,
        link: edge.link,
        loc: link.loc,
        delay: Dur::ZERO,
        assumption: None,
        birth: None,
        passes_key: link.passes_key(),
        dedup_id: None,
        redrive_bound: None,
    };
    let mut retried = false;
    if let Some(r) = &link.retry {
        let fallback = link.timeout().map(|t| t.value);
        if r.attempts.as_ref().is_some_and(|a| a.value > 1)
            && r.timeout.is_none()
            && fallback.is_none()
            && link.ty == LinkType::Calls
        {
            assume(
                assumed,
                a,
                ca,
                &format!("{}.timeout", link.ty.field()),
                "0s",
            );
        }
        let s = retry::span(r, fallback);
        em.delay = em.delay.add(s.adds);
        retried = s.attempts > 1;
        why.add(|| format!("retry {}", s.why));
    }
    match link.ty {
        LinkType::SendsTo => {
            em.dedup_id = Some(link.dedup_id().map_or_else(
                || {
                    if eff::boolean(cb, "content_based_dedup").is_some_and(|x| x.value) {
                        DedupId::Content
                    } else {
                        DedupId::None
                    }
                },
                |d| d.value,
            ));
            // An asynchronously invoked function queues the event itself.
            if nodes[b].generic == Generic::Function
                && let Some(age) = eff::dur(cb, "max_event_age")
            {
                em.delay = em.delay.add(age.value);
                em.birth = Some(Birth::Redelivery);
                why.add(|| {
                    format!(
                        "async invocation keeps the event up to max_event_age {}{}",
                        age.value,
                        age.provenance()
                    )
                });
            }
        }
        LinkType::DeliversTo | LinkType::DeadLetter => {
            let receives = ca
                .dead_letter
                .as_ref()
                .and_then(|d| d.after_receives())
                .map(|x| x.value);
            let delivery = eff::delivery(ca);
            if delivery.origin == Origin::Assumed && nodes[a].generic.is_transport() {
                assume(assumed, a, ca, "delivery", "at-least-once");
            }
            let (mut span, mut span_why, assumption) =
                transport_span(a, ca, receives, assumed, why.wanted());
            if let Some(max_age) = link.max_record_age()
                && max_age.value < span
            {
                span = max_age.value;
                if why.wanted() {
                    span_why = format!("max_record_age {}", max_age.value);
                }
            }
            em.delay = em.delay.add(span);
            em.assumption = assumption;
            if link.ty == LinkType::DeliversTo {
                if delivery.value == Delivery::AtLeastOnce {
                    em.birth = Some(Birth::Redelivery);
                }
                let sem = match delivery.value {
                    Delivery::AtLeastOnce => "at-least-once delivery",
                    Delivery::AtMostOnce => "at-most-once delivery",
                    Delivery::ExactlyOnce => "exactly-once delivery",
                };
                why.add(|| format!("{sem}: {span_why}"));
            } else {
                why.add(|| {
                    format!(
                        "moved to dead-letter queue after the source's delivery span: {span_why}"
                    )
                });
            }
        }
        LinkType::Redrive => {
            em.birth = Some(Birth::Redrive);
            em.redrive_bound = Some(link.max_times().map(|t| t.value));
            match link.within() {
                Some(w) => {
                    em.delay = em.delay.add(w.value);
                    em.assumption = Some(EdgeAssumption::RedriveWithin {
                        component: a,
                        within: w.value,
                    });
                    why.add(|| format!("redrive within {} (declared)", w.value));
                }
                None => {
                    let r = eff::dur(ca, "retention").unwrap_or_else(|| {
                        assume(assumed, a, ca, "retention", "unbounded");
                        Eff {
                            value: Dur::Unbounded,
                            origin: Origin::Assumed,
                        }
                    });
                    em.delay = em.delay.add(r.value);
                    why.add(|| {
                        format!(
                            "redrive any time within the dead-letter retention {}{}",
                            r.value,
                            r.provenance()
                        )
                    });
                }
            }
        }
        LinkType::Calls | LinkType::Effects => {}
    }
    if retried && em.birth.is_none() {
        em.birth = Some(Birth::Retry);
    }
    em
}

#[cfg(test)]
mod tests {
    use super::*;

    fn queue(extra: &str) -> Component {
        let m = crate::manifest::from_str(&format!(
            "version: 1\ncomponents:\n  q:\n    kind: sqs-standard\n    visibility_timeout: 5m\n{extra}"
        ))
        .unwrap_or_else(|e| panic!("{}", e.render(false)));
        m.components[0].clone()
    }

    #[test]
    fn retention_is_the_span_without_a_declared_backlog() {
        let (span, why, assumption) = transport_span(0, &queue(""), None, &mut Vec::new(), true);
        assert_eq!(span, Dur::Secs(345_600));
        assert_eq!(why, "retention 4d (sqs-standard default, F003)");
        assert_eq!(assumption, None);
        let (_, unexplained, _) = transport_span(0, &queue(""), None, &mut Vec::new(), false);
        assert_eq!(unexplained, "", "no words unless asked for");
    }

    #[test]
    fn a_declared_backlog_bounds_the_span_below_retention() {
        // 30 m + (3 - 1) × 5 m = 40 m, below the 4 d retention.
        let m = crate::manifest::from_str(
            "version: 1\ncomponents:\n  q: { kind: sqs-standard, visibility_timeout: 5m, max_backlog: 30m }\n",
        )
        .unwrap();
        let (span, why, assumption) =
            transport_span(0, &m.components[0], Some(3), &mut Vec::new(), true);
        assert_eq!(span, Dur::Secs(2_400));
        assert_eq!(
            why,
            "max_backlog 30m + (3 - 1) × visibility 5m = 40m (below retention 4d)"
        );
        let assumption = assumption.expect("the backlog is an assumption");
        assert_eq!(
            assumption,
            EdgeAssumption::Backlog {
                component: 0,
                max_backlog: Dur::Secs(1_800)
            }
        );
        assert_eq!(assumption.text(&m), "max_backlog 30m on q");
    }

    #[test]
    fn retention_caps_a_longer_backlog() {
        let (span, _, assumption) = transport_span(
            0,
            &queue("    retention: 1h\n    max_backlog: 2h\n"),
            Some(5),
            &mut Vec::new(),
            true,
        );
        assert_eq!(span, Dur::Secs(3_600));
        assert!(assumption.is_some(), "the assumption is still listed");
    }

    #[test]
    fn push_transports_retry_for_their_maximum_event_age() {
        let m = crate::manifest::from_str("version: 1\ncomponents:\n  t: { kind: sns-standard }\n")
            .unwrap();
        let mut assumed = Vec::new();
        let (span, _, _) = transport_span(0, &m.components[0], None, &mut assumed, true);
        assert_eq!(span, Dur::Secs(23 * 86_400));
        assert!(assumed.is_empty());
    }
}
