//! What the analysis reads from the manifest, computed once per run: the
//! delay and duplicate births of every edge, and the dedup layers and
//! regional behaviour of every component.

use crate::analysis::effective::{self as eff, Eff, Origin};
use crate::analysis::retry;
use crate::catalog::Generic;
use crate::diagnostics::Loc;
use crate::fnv::FnvMap;
use crate::graph::{EdgeType, Graph};
use crate::manifest::model::{
    Claim, Component, DedupId, Delivery, LinkType, Manifest, Mode, Replication,
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

/// One edge as the analysis sees it.
#[derive(Debug, Clone)]
pub struct EdgeModel {
    pub from: usize,
    pub to: usize,
    pub ty: EdgeType,
    pub loc: Loc,
    pub delay: Dur,
    /// How the delay adds up. Shared: many edges say the same thing, and
    /// the model keeps one copy of each explanation.
    pub why: Arc<str>,
    /// Declared operational assumptions the delay rests on.
    pub assumptions: Vec<String>,
    pub birth: Option<Birth>,
    pub passes_key: bool,
    /// `sends_to` into a transport: how its dedup id is formed.
    pub dedup_id: Option<DedupId>,
    /// `redrive`: `Some(max_times)`, where `None` inside means no bound.
    pub redrive_bound: Option<Option<u64>>,
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
    pub assumed: Vec<Assumed>,
}

/// Outgoing edge lists of every node in two flat arrays (`out[c]` is node
/// `c`'s list): the runs walk them for every state, and a vector per node
/// cost a pointer chase, and at 100k nodes a cache miss, each time.
#[derive(Debug, Clone, Default)]
pub struct Adjacency {
    /// Node `c`'s edges are `edges[start[c]..start[c + 1]]`.
    start: Vec<usize>,
    edges: Vec<usize>,
}

impl Adjacency {
    fn from_lists(lists: Vec<Vec<usize>>) -> Adjacency {
        let mut start = Vec::with_capacity(lists.len() + 1);
        let mut edges = Vec::with_capacity(lists.iter().map(Vec::len).sum());
        start.push(0);
        for l in lists {
            edges.extend(l);
            start.push(edges.len());
        }
        Adjacency { start, edges }
    }
}

impl std::ops::Index<usize> for Adjacency {
    type Output = [usize];
    fn index(&self, c: usize) -> &[usize] {
        &self.edges[self.start[c]..self.start[c + 1]]
    }
}

impl Model {
    pub fn build(m: &Manifest, graph: &Graph) -> Model {
        let mut assumed = Vec::new();
        let mut names = Names::default();
        let nodes: Vec<NodeModel> = m
            .components
            .iter()
            .enumerate()
            .map(|(i, c)| node_model(m, i, c, &mut assumed, &mut names))
            .collect();
        let mut edges = Vec::new();
        let mut whys: FnvMap<String, Arc<str>> = FnvMap::default();
        let mut out = vec![Vec::new(); m.components.len()];
        for e in graph.g.edge_indices() {
            let (a, b) = graph.g.edge_endpoints(e).expect("edge exists");
            let edge = graph.edge(e);
            if edge.ty == EdgeType::Dedup {
                continue;
            }
            let em = edge_model(
                m,
                a.index(),
                b.index(),
                edge,
                &nodes,
                &mut assumed,
                &mut whys,
            );
            out[a.index()].push(edges.len());
            edges.push(em);
        }
        for o in &mut out {
            o.sort_by_key(|&e| (edges[e].to, edges[e].ty, e));
        }
        let out = Adjacency::from_lists(out);
        // Lists built by pushing keep spare room; at 100k components that
        // room is several megabytes.
        for e in &mut edges {
            e.assumptions.shrink_to_fit();
        }
        edges.shrink_to_fit();
        assumed.sort();
        assumed.dedup();
        Model {
            nodes,
            edges,
            out,
            assumed,
        }
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
struct Names(FnvMap<String, Arc<str>>);

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
/// `max_backlog + (max_receives - 1) * visibility_timeout`.
pub fn transport_span(
    i: usize,
    c: &Component,
    after_receives: Option<u64>,
    assumed: &mut Vec<Assumed>,
) -> (Dur, String, Vec<String>) {
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
    let Some(backlog) = c.max_backlog() else {
        return (
            retention.value,
            format!("{what} {}{}", retention.value, retention.provenance()),
            Vec::new(),
        );
    };
    let receives = after_receives
        .or_else(|| eff::count(c, "max_receives").map(|e| e.value))
        .unwrap_or(1);
    let vis = eff::dur(c, "visibility_timeout").map_or(Dur::ZERO, |v| v.value);
    let bound = backlog.value.add(vis.times(receives.saturating_sub(1)));
    let assumption = format!("max_backlog {} on {}", backlog.value, c.id);
    if bound < retention.value {
        (
            bound,
            format!(
                "max_backlog {} + ({receives} - 1) × visibility {vis} = {bound} (below retention {})",
                backlog.value, retention.value
            ),
            vec![assumption],
        )
    } else {
        (
            retention.value,
            format!(
                "retention {}{} (max_backlog does not lower it)",
                retention.value,
                retention.provenance()
            ),
            vec![assumption],
        )
    }
}

fn edge_model(
    m: &Manifest,
    a: usize,
    b: usize,
    edge: &crate::graph::Edge,
    nodes: &[NodeModel],
    assumed: &mut Vec<Assumed>,
    whys: &mut FnvMap<String, Arc<str>>,
) -> EdgeModel {
    let link = edge.link.expect("copy edges come from links");
    let (ca, cb) = (&m.components[a], &m.components[b]);
    let mut em = EdgeModel {
        from: a,
        to: b,
        ty: edge.ty,
        loc: edge.loc,
        delay: Dur::ZERO,
        why: Arc::from(""),
        assumptions: Vec::new(),
        birth: None,
        passes_key: link.passes_key(),
        dedup_id: None,
        redrive_bound: None,
    };
    let mut parts: Vec<String> = Vec::new();
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
        parts.push(format!("retry {}", s.why));
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
                parts.push(format!(
                    "async invocation keeps the event up to max_event_age {}{}",
                    age.value,
                    age.provenance()
                ));
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
            let (mut span, why, assumptions) = transport_span(a, ca, receives, assumed);
            let mut why = why;
            if let Some(max_age) = link.max_record_age()
                && max_age.value < span
            {
                span = max_age.value;
                why = format!("max_record_age {}", max_age.value);
            }
            em.delay = em.delay.add(span);
            em.assumptions.extend(assumptions);
            if link.ty == LinkType::DeliversTo {
                if delivery.value == Delivery::AtLeastOnce {
                    em.birth = Some(Birth::Redelivery);
                }
                let sem = match delivery.value {
                    Delivery::AtLeastOnce => "at-least-once delivery",
                    Delivery::AtMostOnce => "at-most-once delivery",
                    Delivery::ExactlyOnce => "exactly-once delivery",
                };
                parts.push(format!("{sem}: {why}"));
            } else {
                parts.push(format!(
                    "moved to dead-letter queue after the source's delivery span: {why}"
                ));
            }
        }
        LinkType::Redrive => {
            em.birth = Some(Birth::Redrive);
            em.redrive_bound = Some(link.max_times().map(|t| t.value));
            match link.within() {
                Some(w) => {
                    em.delay = em.delay.add(w.value);
                    em.assumptions
                        .push(format!("redrive of {} within {}", ca.id, w.value));
                    parts.push(format!("redrive within {} (declared)", w.value));
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
                    parts.push(format!(
                        "redrive any time within the dead-letter retention {}{}",
                        r.value,
                        r.provenance()
                    ));
                }
            }
        }
        LinkType::Calls | LinkType::Effects => {}
    }
    if retried && em.birth.is_none() {
        em.birth = Some(Birth::Retry);
    }
    let why = if parts.is_empty() {
        "no delay".to_string()
    } else {
        parts.join("; ")
    };
    em.why = match whys.get(&why) {
        Some(w) => Arc::clone(w),
        None => {
            let w: Arc<str> = Arc::from(why.as_str());
            whys.insert(why, Arc::clone(&w));
            w
        }
    };
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
        let (span, why, assumptions) = transport_span(0, &queue(""), None, &mut Vec::new());
        assert_eq!(span, Dur::Secs(345_600));
        assert_eq!(why, "retention 4d (sqs-standard default, F003)");
        assert!(assumptions.is_empty());
    }

    #[test]
    fn a_declared_backlog_bounds_the_span_below_retention() {
        // 30 m + (3 - 1) × 5 m = 40 m, below the 4 d retention.
        let (span, why, assumptions) = transport_span(
            0,
            &queue("    max_backlog: 30m\n"),
            Some(3),
            &mut Vec::new(),
        );
        assert_eq!(span, Dur::Secs(2_400));
        assert_eq!(
            why,
            "max_backlog 30m + (3 - 1) × visibility 5m = 40m (below retention 4d)"
        );
        assert_eq!(assumptions, vec!["max_backlog 30m on q".to_string()]);
    }

    #[test]
    fn retention_caps_a_longer_backlog() {
        let (span, _, assumptions) = transport_span(
            0,
            &queue("    retention: 1h\n    max_backlog: 2h\n"),
            Some(5),
            &mut Vec::new(),
        );
        assert_eq!(span, Dur::Secs(3_600));
        assert_eq!(assumptions.len(), 1, "the assumption is still listed");
    }

    #[test]
    fn push_transports_retry_for_their_maximum_event_age() {
        let m = crate::manifest::from_str("version: 1\ncomponents:\n  t: { kind: sns-standard }\n")
            .unwrap();
        let mut assumed = Vec::new();
        let (span, _, _) = transport_span(0, &m.components[0], None, &mut assumed);
        assert_eq!(span, Dur::Secs(23 * 86_400));
        assert!(assumed.is_empty());
    }
}
