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

use std::collections::{BTreeSet, HashMap, HashSet};

use crate::analysis::effective::{self as eff, Eff};
use crate::analysis::{Analysis, IntentResult};
use crate::diagnostics::{Loc, SourceMap};
use crate::manifest::model::{Claim, Component, Intent, LinkType, Manifest, Mode};
use crate::report::draw::{self, View};
use crate::report::horizon::{self, Row};
use crate::report::{Summary, place};
use crate::rules::{Finding, Severity, required_window};
use crate::time::Dur;

/// The twelve questions: topic, question (in this tool's words), and the
/// rule codes whose findings make the answer fail.
pub const QUESTIONS: [(&str, &str, &[&str]); 12] = [
    (
        "intent",
        "Which business decision does the key name?",
        &["RH025"],
    ),
    (
        "key generation",
        "Where is the key minted, and is it kept before the first retry?",
        &["RH020", "RH024"],
    ),
    (
        "propagation",
        "Does the same key reach every dependency that has a side effect?",
        &["RH021", "RH037"],
    ),
    (
        "fingerprint",
        "Which request fields are bound to the key, and what happens when a copy differs?",
        &["RH022", "RH023", "RH031"],
    ),
    (
        "concurrency",
        "What happens when two copies of the request overlap?",
        &["RH035", "RH015"],
    ),
    (
        "completion",
        "Does a duplicate get the original result back?",
        &["RH036"],
    ),
    (
        "ambiguity",
        "How is a crash between the external effect and local completion resolved?",
        &["RH033", "RH034"],
    ),
    (
        "retention",
        "Is every key kept longer than the latest copy can arrive, retries, redeliveries, redrives and manual replays included?",
        &[
            "RH001", "RH002", "RH003", "RH004", "RH014", "RH016", "RH030", "RH032", "RH038",
        ],
    ),
    (
        "scope",
        "Over which boundary does deduplication hold: process, queue, zone, region, account, global?",
        &["RH013"],
    ),
    (
        "failover",
        "Can two regions each accept the first claim of the same key?",
        &["RH010", "RH011"],
    ),
    (
        "recovery",
        "Do backups restore the business state and its dedup history to compatible points?",
        &["RH012"],
    ),
    (
        "testing",
        "Which failure injections has the team run?",
        &["RH040"],
    ),
];

/// The failure injections, by the names `tested` uses (RH040 reads the same list).
pub use crate::rules::FAILURE_MODES as EXPERIMENTS;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    Satisfied,
    Assumed,
    /// The intent's model is broken (RH043: an effect no copy reaches), so
    /// the answer says nothing about the design.
    Unevaluated,
    Failing,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Satisfied => "satisfied",
            Status::Assumed => "ASSUMED",
            Status::Unevaluated => "not evaluated",
            Status::Failing => "failing",
        }
    }
}

/// One fact an answer rests on, and where the manifest says it.
#[derive(Debug, Clone, PartialEq)]
pub struct Evidence {
    pub text: String,
    /// `file:line`
    pub at: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    pub number: usize,
    pub topic: &'static str,
    pub question: &'static str,
    pub status: Status,
    /// Codes of the findings that make it fail.
    pub codes: Vec<&'static str>,
    pub answer: String,
    pub evidence: Vec<Evidence>,
    /// What the answer takes on trust (declared assumptions, guessed values).
    pub assumptions: Vec<String>,
}

/// One failure injection for an intent.
#[derive(Debug, Clone, PartialEq)]
pub struct Experiment {
    pub name: &'static str,
    pub text: String,
    /// Named in the intent's `tested` list.
    pub covered: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct IntentReview {
    pub id: String,
    pub description: Option<String>,
    pub at: String,
    pub origin: String,
    pub effects: Vec<String>,
    /// Why the checklist could not be evaluated (an effect no copy of the
    /// request reaches, RH043); `None` when it could.
    pub unevaluated: Option<String>,
    pub answers: Vec<Answer>,
    pub experiments: Vec<Experiment>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct AssumptionEntry {
    /// `declared` (the team's bound) or `assumed value` (the tool's guess).
    pub source: &'static str,
    pub text: String,
    pub at: Option<String>,
    /// Intents whose analysis reads it.
    pub intents: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct FindingEntry {
    pub severity: Severity,
    pub code: &'static str,
    pub name: &'static str,
    pub intent: Option<String>,
    pub component: Option<String>,
    pub at: String,
    pub message: String,
    pub path: Vec<String>,
    pub assumptions: Vec<String>,
    /// Why the policy accepts it (`reason`, ticket, last day), when waived.
    pub waived: Option<String>,
}

/// The whole report, ready for a renderer.
#[derive(Debug, Clone)]
pub struct Review {
    pub title: String,
    pub files: Vec<String>,
    pub summary: Summary,
    pub intents: Vec<IntentReview>,
    pub horizons: Vec<Row>,
    pub assumptions: Vec<AssumptionEntry>,
    pub findings: Vec<FindingEntry>,
    pub graph: View,
}

/// `file:line` of a location.
fn fl(map: &SourceMap, loc: Loc) -> String {
    format!("{}:{}", map.path(loc), loc.line)
}

/// The window of a horizon row against its horizon: `+2h` spare, `-14h 20m` short.
pub fn margin_text(r: &Row) -> String {
    match r.window {
        None => "no window".to_string(),
        Some(w) if w >= r.horizon => match (w, r.horizon) {
            (Dur::Unbounded, _) => "unbounded".to_string(),
            (Dur::Secs(w), Dur::Secs(h)) => format!("+{}", Dur::Secs(w - h)),
            _ => "-".to_string(),
        },
        Some(w) => match (w, r.horizon) {
            (Dur::Secs(w), Dur::Secs(h)) => format!("-{}", Dur::Secs(h - w)),
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
    let m = a.manifest;
    let map = &m.sources;
    let horizons = horizon::rows(a, None, None);
    // Findings and rows by intent, once: filtering all of them for every
    // intent was quadratic on a hub with thousands of intents.
    let mut by_intent: HashMap<&str, Vec<usize>> = HashMap::new();
    let mut loose: Vec<(usize, usize)> = Vec::new();
    for (k, f) in findings.iter().enumerate() {
        match &f.intent {
            Some(i) => by_intent.entry(i.as_str()).or_default().push(k),
            None => {
                if let Some(c) = f.component.as_deref().and_then(|c| m.component_index(c)) {
                    loose.push((k, c));
                }
            }
        }
    }
    let mut rows_of: HashMap<&str, Vec<&Row>> = HashMap::new();
    for x in &horizons {
        rows_of.entry(x.intent.as_str()).or_default().push(x);
    }
    let into = incoming(a);
    let intents = a
        .intents
        .iter()
        .map(|r| {
            let intent = &m.intents[r.intent];
            let mut mine: Vec<usize> = by_intent
                .get(intent.id.as_str())
                .cloned()
                .unwrap_or_default();
            mine.extend(
                loose
                    .iter()
                    .filter(|(_, c)| r.horizons.contains_key(c))
                    .map(|&(k, _)| k),
            );
            mine.sort_unstable();
            Ctx {
                a,
                m,
                map,
                r,
                intent,
                findings: mine.into_iter().map(|k| &findings[k]).collect(),
                rows: rows_of.remove(intent.id.as_str()).unwrap_or_default(),
                into: &into,
            }
            .review()
        })
        .collect();
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
                intent: f.intent.clone(),
                component: f.component.clone(),
                at: place(map, f),
                message: f.message.clone(),
                path: f.path.clone(),
                assumptions: f.assumptions.clone(),
                waived: f.waived.as_ref().map(waiver_text),
            })
            .collect(),
        graph: draw::view(m, findings),
    }
}

/// "reason (ticket PAY-12, until 2027-01-31)".
fn waiver_text(w: &crate::rules::Waived) -> String {
    let mut extra = Vec::new();
    if let Some(t) = &w.ticket {
        extra.push(format!("ticket {t}"));
    }
    if let Some(e) = &w.expires {
        extra.push(format!("until {e}"));
    }
    if extra.is_empty() {
        w.reason.clone()
    } else {
        format!("{} ({})", w.reason, extra.join(", "))
    }
}

/// Every declared operational assumption and every value the analysis had
/// to guess, with where it is written.
fn assumptions(a: &Analysis) -> Vec<AssumptionEntry> {
    let m = a.manifest;
    let map = &m.sources;
    // The intents reaching each component (in intent order), once.
    let mut reaching: Vec<Vec<usize>> = vec![Vec::new(); m.components.len()];
    for (k, r) in a.intents.iter().enumerate() {
        for &c in r.horizons.keys() {
            reaching[c].push(k);
        }
    }
    let users = |c: usize| -> Vec<String> {
        reaching[c]
            .iter()
            .map(|&k| m.intents[a.intents[k].intent].id.clone())
            .collect()
    };
    let mut out = Vec::new();
    for (i, c) in m.components.iter().enumerate() {
        if let Some(b) = c.max_backlog() {
            out.push(AssumptionEntry {
                source: "declared",
                text: format!(
                    "`{}` never holds a backlog older than {} (max_backlog)",
                    c.id, b.value
                ),
                at: Some(fl(map, b.loc)),
                intents: users(i),
            });
        }
        if let Some(l) = &c.redrive
            && let Some(w) = l.within()
        {
            out.push(AssumptionEntry {
                source: "declared",
                text: format!(
                    "`{}` is redriven to `{}` within {} of the move (redrive within)",
                    c.id, l.to.value, w.value
                ),
                at: Some(fl(map, w.loc)),
                intents: users(i),
            });
        }
    }
    for intent in &m.intents {
        for rp in &intent.replays {
            out.push(AssumptionEntry {
                source: "declared",
                text: format!(
                    "replay `{}` enters at `{}` within {} (replay within)",
                    rp.name, rp.enters_at.value, rp.within.value
                ),
                at: Some(fl(map, rp.within.loc)),
                intents: vec![intent.id.clone()],
            });
        }
    }
    for asm in &a.model.assumed {
        let c = &m.components[asm.component];
        out.push(AssumptionEntry {
            source: "assumed value",
            text: format!(
                "`{}.{}` is not given and kind `{}` documents no default: taken as {}",
                c.id, asm.field, c.kind.value, asm.value
            ),
            at: Some(fl(map, asm.loc)),
            intents: users(asm.component),
        });
    }
    out
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

/// For each component, the model's edges into it (ascending), so that the
/// test plan does not scan every edge for every intent.
fn incoming(a: &Analysis) -> Vec<Vec<usize>> {
    let mut into = vec![Vec::new(); a.model.nodes.len()];
    for (k, e) in a.model.edges.iter().enumerate() {
        into[e.to].push(k);
    }
    into
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
        self.r.horizons.contains_key(&c)
    }

    /// Reached components, in manifest (id) order.
    fn components(&self) -> impl Iterator<Item = (usize, &'m Component)> + '_ {
        // Horizons are keyed by component index, ascending: manifest order.
        self.r.horizons.keys().map(|&i| (i, &self.m.components[i]))
    }

    /// The model's edges out of reached components (by component, then edge).
    fn reached_edges(&self) -> impl Iterator<Item = &crate::analysis::model::EdgeModel> + '_ {
        let model = &self.a.model;
        self.r
            .horizons
            .keys()
            .flat_map(move |&c| model.out[c].iter().map(move |&k| &model.edges[k]))
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
            id: self.intent.id.clone(),
            description: self.intent.description.clone(),
            at: fl(self.map, self.intent.loc),
            origin: self.intent.origin.value.clone(),
            effects: self
                .intent
                .effects
                .iter()
                .map(|e| e.value.clone())
                .collect(),
            unevaluated,
            answers,
            experiments,
        }
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
                        .push(format!("RH043 waived: {}", waiver_text(w)));
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

    /// Status: failing where a finding says so, else ASSUMED where the
    /// manifest is silent or the answer rests on an assumption.
    fn settle(&self, i: usize, mut d: Draft, failing_without_code: bool) -> Answer {
        let (topic, question, codes_of) = QUESTIONS[i];
        // A waived finding does not fail the answer: the answer rests on
        // the waiver instead, and says so.
        let mut codes: Vec<&'static str> = Vec::new();
        for f in self
            .findings
            .iter()
            .filter(|f| codes_of.contains(&f.rule.code))
        {
            match &f.waived {
                None => codes.push(f.rule.code),
                Some(w) => {
                    d.assumptions
                        .push(format!("{} waived: {}", f.rule.code, waiver_text(w)))
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
        Answer {
            number: i + 1,
            topic,
            question,
            status,
            codes,
            answer: d.answer,
            evidence: d.evidence,
            assumptions: d.assumptions,
        }
    }

    fn q_intent(&self) -> Draft {
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

    fn q_generation(&self) -> Draft {
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

    fn q_propagation(&self) -> Draft {
        let mut d = Draft::default();
        if self.intent.key.loc.is_none() {
            d.silent = true;
            d.answer = "No key is declared, so none can be passed on.".into();
            return d;
        }
        let mut needing = 0;
        for (_, c) in self.components() {
            for l in c.calls.iter().chain(&c.effects) {
                let passes = match l.passes_key_written() {
                    Some(p) => format!("passes_key: {}", p.value),
                    None => "passes_key not given: the key is not passed".into(),
                };
                let target = self.m.target(&l.to);
                let wants = target
                    .and_then(|t| eff::boolean(t, "accepts_key"))
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

    fn q_fingerprint(&self) -> Draft {
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

    fn q_concurrency(&self) -> Draft {
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

    fn q_completion(&self) -> Draft {
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

    fn q_ambiguity(&self) -> Draft {
        let mut d = Draft::default();
        let mut resolved = Vec::new();
        for (_, c) in self.effects() {
            let mut ways = Vec::new();
            if let Some(a) = eff::boolean(c, "accepts_key") {
                d.ev(
                    format!("`{}` accepts_key: {}{}", c.id, a.value, a.provenance()),
                    self.eff_at(&a, c),
                );
                if a.value {
                    ways.push("the provider deduplicates by our key");
                }
            }
            if let Some(l) = eff::boolean(c, "lookup_by_reference") {
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
            if let Some(r) = c.reconciliation() {
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

    fn q_retention(&self) -> Draft {
        let mut d = Draft::default();
        for row in &self.rows {
            if row.role == "guard" {
                continue;
            }
            let c = &self.m.components[self.m.component_index(&row.node).unwrap_or(0)];
            let field = match row.role {
                "transport" => "dedup_window",
                "effect"
                    if eff::boolean(c, "accepts_key").is_some_and(|a| a.value)
                        && c.unique().is_none() =>
                {
                    "key_window"
                }
                _ => "retention",
            };
            let (prov, at) = match eff::dur(c, field) {
                Some(e) => (e.provenance(), self.eff_at(&e, c)),
                None => (String::new(), self.at(c.kind.loc)),
            };
            let window = row
                .window
                .map_or_else(|| "no window".to_string(), |w| format!("{field} {w}{prov}"));
            d.ev(
                format!(
                    "`{}` ({}): {window}; latest copy at {}; minimum safe retention {} ({})",
                    row.node,
                    row.role,
                    row.horizon,
                    required_window(row.horizon),
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
                    let adds = st.adds_seconds.map_or(Dur::Unbounded, Dur::Secs);
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
            d.assumptions.extend(f.assumptions.iter().cloned());
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
            .any(|f| QUESTIONS[7].2.contains(&f.rule.code));
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

    fn q_scope(&self) -> Draft {
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

    fn q_failover(&self) -> Draft {
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
            if let Some((_, _, _, why)) = self.a.model.nodes[i].failover.as_deref() {
                d.ev(why.clone(), None);
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
            .any(|f| QUESTIONS[9].2.contains(&f.rule.code));
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

    fn q_recovery(&self) -> Draft {
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

    fn q_testing(&self, plan: &[Experiment]) -> (Draft, bool) {
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
            .map(String::as_str)
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

    // ------------------------------------------------------------ test plan

    fn experiments(&self) -> Vec<Experiment> {
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

fn claim_name(c: Claim) -> &'static str {
    match c {
        Claim::ConditionalWrite => "conditional-write",
        Claim::ReadThenWrite => "read-then-write",
        Claim::None => "none",
    }
}
