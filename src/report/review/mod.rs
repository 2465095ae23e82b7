//! The review checklist, answered from the manifest: the model behind
//! `report --format markdown|html`.
//!
//! For every intent, twelve questions a design review should settle before
//! calling an operation idempotent. Each answer cites the components and
//! fields it rests on (file:line) and gets a status: satisfied, failing
//! (with the codes of the findings that say why), or ASSUMED when the
//! manifest is silent or the answer leans on a declared assumption
//! (`max_backlog`, `within`) or on a value the analysis had to guess.
//! Then the horizon table, every operational assumption, the findings, and
//! a failure-injection test plan per intent.
//!
//! This file builds the [`Review`] and holds the per-intent context every
//! question reads; [`model`] is the checklist model, `keys`, `store` and
//! `recovery` answer the groups of questions, `experiments` writes the test
//! plan, and `index` lists the assumptions across intents.

mod experiments;
mod index;
mod keys;
pub mod model;
pub mod page;
mod recovery;
mod store;

use std::collections::HashMap;

use rayon::prelude::*;

use crate::analysis::effective::Eff;
use crate::analysis::{Analysis, IntentResult};
use crate::diagnostics::{Loc, SourceMap};
use crate::manifest::model::{Component, Intent, Manifest};
use crate::report::draw;
use crate::report::horizon::{self, Row};
use crate::report::{Summary, place};
use crate::rules::Finding;
use crate::time::Dur;

/// The findings a failing answer quotes as its reason.
const WHY_SHOWN: usize = 3;

pub use model::*;

use index::{assumptions, incoming, waiver_text};

/// `file:line` of a location.
fn fl(map: &SourceMap, loc: Loc) -> String {
    format!("{}:{}", map.path(loc), loc.line)
}

/// The window of a horizon row against what it must cover: `+2h` spare,
/// `-14h 20m` short.
pub fn margin_text(r: &Row) -> String {
    let need = r.needs();
    match r.window {
        None => "no window".to_string(),
        Some(w) if w >= need => match (w, need) {
            (Dur::Unbounded, _) => "unbounded".to_string(),
            (Dur::Ms(w), Dur::Ms(h)) => format!("+{}", Dur::ms(w - h)),
            _ => "-".to_string(),
        },
        Some(w) => match (w, need) {
            (Dur::Ms(w), Dur::Ms(h)) => format!("-{}", Dur::ms(h - w)),
            _ => "-unbounded".to_string(),
        },
    }
}

/// Whether a horizon row's window falls short of the horizon or of the margin policy.
pub fn row_verdict(r: &Row) -> &'static str {
    r.verdict()
}

/// Builds the review of a whole architecture.
pub fn build(a: &Analysis, findings: &[Finding]) -> Review {
    build_each(a, findings, |i| i)
}

/// Builds the review with each intent's parts already written by a format.
pub fn build_written(
    a: &Analysis,
    findings: &[Finding],
    parts: page::Parts,
) -> Review<page::Written> {
    build_each(a, findings, |i| page::Written::of(i, parts))
}

/// Builds the review, each intent's review handed to `each` where it is made.
fn build_each<I: Send>(
    a: &Analysis,
    findings: &[Finding],
    each: impl Fn(IntentReview) -> I + Sync,
) -> Review<I> {
    let m = a.manifest;
    let map = &m.sources;
    // Only an effect's worst path is shown (drawn, and listed step by step).
    let horizons = horizon::rows_with_paths(a, &|role| role == "effect");
    // Findings and rows by intent, once: filtering all of them for every
    // intent was quadratic on a hub with thousands of intents.
    let mut by_intent: HashMap<&str, Vec<usize>> = HashMap::new();
    // Findings of no intent by component: each intent takes those of the
    // components it reaches.
    let mut loose: HashMap<usize, Vec<usize>> = HashMap::new();
    for (k, f) in findings.iter().enumerate() {
        match &f.intent {
            Some(i) => by_intent.entry(i.as_str()).or_default().push(k),
            None => {
                if let Some(c) = f.component.as_deref().and_then(|c| m.component_index(c)) {
                    loose.entry(c).or_default().push(k);
                }
            }
        }
    }
    let mut rows_of: HashMap<&str, Vec<&Row>> = HashMap::new();
    for x in &horizons {
        rows_of.entry(x.intent.as_str()).or_default().push(x);
    }
    let into = incoming(a);
    let rows_of = &rows_of;
    let review_of = |r: &IntentResult| {
        let intent = &m.intents[r.intent];
        let mut mine: Vec<usize> = by_intent
            .get(intent.id.as_str())
            .cloned()
            .unwrap_or_default();
        mine.extend(
            r.horizons
                .keys()
                .filter_map(|c| loose.get(&c))
                .flatten()
                .copied(),
        );
        mine.sort_unstable();
        let review = Ctx {
            a,
            m,
            map,
            r,
            intent,
            findings: mine.into_iter().map(|k| &findings[k]).collect(),
            rows: rows_of.get(intent.id.as_str()).cloned().unwrap_or_default(),
            into: &into,
        }
        .review();
        each(review)
    };
    // Intents are reviewed independently of one another, on rayon's pool;
    // `collect` keeps their order.
    let intents = a.intents.par_iter().map(review_of).collect();
    Review {
        title: m.name.clone().unwrap_or_else(|| "architecture".to_string()),
        files: map.files.iter().map(|f| f.path.clone()).collect(),
        summary: Summary::of(findings),
        intents,
        horizons,
        assumptions: assumptions(a),
        findings: findings
            .iter()
            .map(|f| FindingEntry {
                severity: f.severity,
                code: f.rule.code,
                name: f.rule.name,
                intent: f.intent.as_deref().map(str::to_string),
                component: f.component.as_deref().map(str::to_string),
                at: place(map, f),
                message: f.message.clone(),
                path: f.path.clone(),
                assumptions: f.assumptions().map(str::to_string).collect(),
                waived: f
                    .waived
                    .as_ref()
                    .map(|w| format!("{}: {}", w.word(), waiver_text(w))),
            })
            .collect(),
        graph: draw::view(m, findings),
    }
}

struct Ctx<'a, 'm> {
    a: &'a Analysis<'m>,
    m: &'m Manifest,
    map: &'m SourceMap,
    r: &'a IntentResult,
    intent: &'m Intent,
    /// The intent's findings, waived ones included: the answers state the
    /// facts; only the status takes a waiver into account.
    findings: Vec<&'a Finding>,
    rows: Vec<&'a Row>,
    /// The model's edges into each component, ascending.
    into: &'a [Vec<usize>],
}

/// What a question's builder returns before the status is settled.
#[derive(Default)]
struct Draft {
    answer: String,
    evidence: Vec<Evidence>,
    assumptions: Vec<String>,
    /// The manifest does not say.
    silent: bool,
}

impl Draft {
    fn ev(&mut self, text: impl Into<String>, at: Option<String>) {
        self.evidence.push(Evidence {
            text: text.into(),
            at,
        });
    }
}

impl<'m> Ctx<'_, 'm> {
    fn at(&self, loc: Loc) -> Option<String> {
        Some(fl(self.map, loc))
    }

    fn reached(&self, c: usize) -> bool {
        self.r.horizons.contains_key(c)
    }

    /// Reached components, in manifest (id) order.
    fn components(&self) -> impl Iterator<Item = (usize, &'m Component)> + '_ {
        // Horizons are keyed by component index, ascending: manifest order.
        self.r.horizons.keys().map(|i| (i, &self.m.components[i]))
    }

    /// The model's edges out of reached components (by component, then edge).
    fn reached_edges(&self) -> impl Iterator<Item = &crate::analysis::model::EdgeModel> + '_ {
        let model = &self.a.model;
        self.r
            .horizons
            .keys()
            .flat_map(move |c| model.out[c].iter().map(move |&k| &model.edges[k]))
    }

    /// Reached components that claim keys (guards), with their store.
    fn guards(
        &self,
    ) -> Vec<(
        &'m Component,
        &'m crate::manifest::model::Guard,
        Option<&'m Component>,
    )> {
        self.components()
            .filter_map(|(_, c)| c.dedup.as_deref().map(|g| (c, g, self.m.target(&g.store))))
            .collect()
    }

    fn effects(&self) -> Vec<(usize, &'m Component)> {
        self.intent
            .effects
            .iter()
            .filter_map(|e| e.index().map(|i| (i, &self.m.components[i])))
            .collect()
    }

    fn eff_at(&self, e: &Eff<impl Sized>, c: &Component) -> Option<String> {
        Some(fl(self.map, e.loc().unwrap_or(c.kind.loc)))
    }

    fn review(&self) -> IntentReview {
        let drafts = [
            self.q_intent(),
            self.q_generation(),
            self.q_propagation(),
            self.q_fingerprint(),
            self.q_concurrency(),
            self.q_completion(),
            self.q_ambiguity(),
            self.q_retention(),
            self.q_scope(),
            self.q_failover(),
            self.q_recovery(),
        ];
        let experiments = self.experiments();
        let mut answers: Vec<Answer> = drafts
            .into_iter()
            .enumerate()
            .map(|(i, d)| self.settle(i, d, false))
            .collect();
        let (testing, untested) = self.q_testing(&experiments);
        answers.push(self.settle(11, testing, untested));
        let unevaluated = self.unevaluated(&mut answers);
        IntentReview {
            id: self.intent.id.to_string(),
            description: self.intent.description.clone(),
            at: fl(self.map, self.intent.loc),
            origin: self.intent.origin.value.as_str().to_owned(),
            effects: self
                .intent
                .effects
                .iter()
                .map(|e| e.value.as_str().to_owned())
                .collect(),
            unevaluated,
            answers,
            experiments,
            graph: self.graph(),
        }
    }

    /// The reached part of the architecture, drawn with the intent's own
    /// findings; without an error, the path to its latest effect is the
    /// one emphasised.
    fn graph(&self) -> draw::Part {
        let reached: Vec<usize> = self.r.horizons.keys().collect();
        let worst = self
            .rows
            .iter()
            .filter(|row| row.role == "effect")
            .max_by_key(|row| row.horizon)
            .map_or(&[][..], |row| row.path.as_slice());
        draw::part(self.m, &self.a.model, &reached, &self.findings, worst)
    }

    /// Where an effect of the intent is not reached (RH043), no answer can
    /// be satisfied or merely assumed: each that is not failing for its own
    /// codes becomes "not evaluated" (RH043), and the reason is returned.
    /// A waived RH043 makes the answers rest on the waiver (ASSUMED).
    fn unevaluated(&self, answers: &mut [Answer]) -> Option<String> {
        let unreached: Vec<&&Finding> = self
            .findings
            .iter()
            .filter(|f| f.rule.code == "RH043")
            .collect();
        let active: Vec<&str> = unreached
            .iter()
            .filter(|f| f.waived.is_none())
            .filter_map(|f| f.component.as_deref())
            .collect();
        for a in answers.iter_mut().filter(|a| a.status != Status::Failing) {
            if active.is_empty() {
                for w in unreached.iter().filter_map(|f| f.waived.as_ref()) {
                    a.assumptions
                        .push(format!("RH043 {}: {}", w.word(), waiver_text(w)));
                    a.status = Status::Assumed;
                }
                a.assumptions.sort();
                a.assumptions.dedup();
            } else {
                a.status = Status::Unevaluated;
                a.codes = vec!["RH043"];
            }
        }
        if active.is_empty() {
            return None;
        }
        let effects: Vec<String> = active.iter().map(|e| format!("`{e}`")).collect();
        Some(format!(
            "The checklist could not be evaluated for this intent: effect {} is not reached from its origin `{}` or any declared replay (RH043), so nothing below was checked against it. Add a link from `{}` (or a component it reaches) to the effect, or declare the replay entry point that reaches it.",
            effects.join(", "),
            self.intent.origin.value,
            self.intent.origin.value
        ))
    }

    /// Status: failing where a finding says so (its message then ends the
    /// answer), else ASSUMED where the
    /// manifest is silent or the answer rests on an assumption.
    fn settle(&self, i: usize, mut d: Draft, failing_without_code: bool) -> Answer {
        let (topic, question) = QUESTIONS[i];
        // A waived finding does not fail the answer: the answer rests on
        // the waiver instead, and says so.
        let mut codes: Vec<&'static str> = Vec::new();
        let mut why: Vec<String> = Vec::new();
        for f in self.findings.iter().filter(|f| f.rule.topic == topic) {
            match &f.waived {
                None => {
                    codes.push(f.rule.code);
                    if why.len() < WHY_SHOWN {
                        why.push(format!("{}: {}", f.rule.code, f.message));
                    }
                }
                Some(w) => {
                    d.assumptions
                        .push(format!("{} {}: {}", f.rule.code, w.word(), waiver_text(w)))
                }
            }
        }
        codes.sort_unstable();
        codes.dedup();
        d.assumptions.sort();
        d.assumptions.dedup();
        let status = if !codes.is_empty() || failing_without_code {
            Status::Failing
        } else if d.silent || !d.assumptions.is_empty() {
            Status::Assumed
        } else {
            Status::Satisfied
        };
        // A failing answer says why, in the findings' own words.
        let mut answer = d.answer;
        if status == Status::Failing && !why.is_empty() {
            answer.push_str(&format!(" Why it fails: {}.", why.join("; ")));
        }
        Answer {
            number: i + 1,
            topic: topic.name(),
            question,
            status,
            codes,
            answer,
            evidence: d.evidence,
            assumptions: d.assumptions,
        }
    }
}
