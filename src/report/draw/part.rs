//! The part of the architecture one intent reaches, for the drawing at the
//! top of its review: the components its copies reach (and the dedup stores
//! they claim keys in), the links between them, the intent's own findings,
//! and its worst path emphasised. Built from the reached components alone
//! (and, for a component with more links than the part has members, from
//! its links to them), so drawing every intent of a hub or of a topic
//! costs the sum of their parts, not the architecture once per intent.

use std::collections::{HashMap, HashSet};

use super::{Edge, View, node_of};
use crate::analysis::Model;
use crate::manifest::model::Manifest;
use crate::rules::{Finding, Severity};

/// An intent's drawing: the view, and whether its emphasised edges are
/// the worst paths of errors (else the path to the latest effect).
#[derive(Debug, Clone, PartialEq)]
pub struct Part {
    pub view: View,
    pub errors: bool,
}

/// The view of the components `reached` (indices into the manifest), marked
/// with `findings` that are not waived. The emphasised edges are the worst
/// paths of the error findings, or when there is none, `worst` (the ids of
/// the path to the intent's latest-reached effect).
pub fn part(
    m: &Manifest,
    model: &Model,
    reached: &[usize],
    findings: &[&Finding],
    worst: &[String],
) -> Part {
    let mut members: Vec<usize> = reached.to_vec();
    for &c in reached {
        if let Some(j) = m.components[c].dedup.as_ref().and_then(|g| g.store.index()) {
            members.push(j);
        }
    }
    members.sort_unstable();
    members.dedup();
    let index: HashMap<usize, usize> = members.iter().enumerate().map(|(k, &c)| (c, k)).collect();
    let mut view = View {
        nodes: members.iter().map(|&c| node_of(&m.components[c])).collect(),
        ..View::default()
    };
    for (k, &c) in members.iter().enumerate() {
        let comp = &m.components[c];
        let dedup = comp
            .dedup
            .as_ref()
            .and_then(|g| g.store.index())
            .map(|j| (j, "dedup"));
        for (j, ty) in links_among(m, model, c, &members).chain(dedup) {
            if let Some(&to) = index.get(&j) {
                view.edges.push(Edge {
                    from: k,
                    to,
                    ty,
                    hot: false,
                });
            }
        }
    }
    let live: Vec<&&Finding> = findings.iter().filter(|f| f.waived.is_none()).collect();
    for f in &live {
        let Some(&k) = f
            .component
            .as_deref()
            .and_then(|c| m.component_index(c))
            .and_then(|c| index.get(&c))
        else {
            continue;
        };
        let n = &mut view.nodes[k];
        if !n.codes.contains(&f.rule.code) {
            n.codes.push(f.rule.code);
        }
        n.severity = n.severity.max(Some(f.severity));
    }
    let errors: Vec<&[String]> = live
        .iter()
        .filter(|f| f.severity == Severity::Error && !f.path.is_empty())
        .map(|f| f.path.as_slice())
        .collect();
    let from_errors = !errors.is_empty();
    let paths = if from_errors { errors } else { vec![worst] };
    emphasise(m, &index, &mut view, &paths);
    for n in &mut view.nodes {
        n.codes.sort_unstable();
    }
    view.clusters = super::clusters_of(&mut view.nodes);
    Part {
        view,
        errors: from_errors,
    }
}

/// The links of component `c` (target, link field), in link order, or
/// only those to `members` (ascending) where `c` has more links than
/// there are members: then each member is looked up in `c`'s edges
/// (sorted by target), so a topic with thousands of subscribers costs
/// each intent's drawing its own part, not every subscription.
fn links_among<'a>(
    m: &'a Manifest,
    model: &'a Model,
    c: usize,
    members: &[usize],
) -> Box<dyn Iterator<Item = (usize, &'static str)> + 'a> {
    let out = &model.out[c];
    if out.len() <= members.len() {
        let links = m.components[c].links();
        return Box::new(links.filter_map(|l| Some((l.to.index()?, l.ty.field()))));
    }
    let to = |e: usize| model.edges[e].to();
    let mut found: Vec<usize> = Vec::new();
    for &j in members {
        let from = out.partition_point(|&e| to(e) < j);
        found.extend(out[from..].iter().take_while(|&&e| to(e) == j));
    }
    // Edges are numbered in link order within a component.
    found.sort_unstable();
    Box::new(
        found
            .into_iter()
            .map(|e| (model.edges[e].to(), model.edges[e].ty.field())),
    )
}

/// Marks the links (not dedup claims) along `paths`, lists of ids: one
/// pass over the edges, whatever the number of paths.
fn emphasise(m: &Manifest, index: &HashMap<usize, usize>, view: &mut View, paths: &[&[String]]) {
    let at = |id: &String| m.component_index(id).and_then(|c| index.get(&c)).copied();
    let steps: HashSet<(usize, usize)> = paths
        .iter()
        .flat_map(|p| p.windows(2))
        .filter_map(|w| Some((at(&w[0])?, at(&w[1])?)))
        .collect();
    for e in &mut view.edges {
        if e.ty != "dedup" && steps.contains(&(e.from, e.to)) {
            e.hot = true;
        }
    }
}
