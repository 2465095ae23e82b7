//! The checklist model: the twelve questions, the failure injections, and
//! the answers, evidence, experiments and entries a [`super::Review`] holds.

use crate::report::Summary;
use crate::report::draw::{Part, View};
use crate::report::horizon::Row;
use crate::rules::{Severity, Topic};

/// The twelve questions: topic and question (in this tool's words). The
/// rules whose findings make an answer fail are those on its topic
/// ([`Topic::codes`]).
pub const QUESTIONS: [(Topic, &str); 12] = [
    (Topic::Intent, "Which business decision does the key name?"),
    (
        Topic::KeyGeneration,
        "Where is the key minted, and is it kept before the first retry?",
    ),
    (
        Topic::Propagation,
        "Does the same key reach every dependency that has a side effect?",
    ),
    (
        Topic::Fingerprint,
        "Which request fields are bound to the key, and what happens when a copy differs?",
    ),
    (
        Topic::Concurrency,
        "What happens when two copies of the request overlap?",
    ),
    (
        Topic::Completion,
        "Does a duplicate get the original result back?",
    ),
    (
        Topic::Ambiguity,
        "How is a crash between the external effect and local completion resolved?",
    ),
    (
        Topic::Retention,
        "Is every key kept longer than the latest copy can arrive, retries, redeliveries, redrives and manual replays included?",
    ),
    (
        Topic::Scope,
        "Over which boundary does deduplication hold: process, queue, zone, region, account, global?",
    ),
    (
        Topic::Failover,
        "Can two regions each accept the first claim of the same key?",
    ),
    (
        Topic::Recovery,
        "Do backups restore the business state and its dedup history to compatible points?",
    ),
    (Topic::Testing, "Which failure injections has the team run?"),
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
    /// The part of the architecture the intent reaches, its worst path
    /// emphasised (drawn at the top of its review).
    pub graph: Part,
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
    /// Why the policy accepts it, when waived or allowed inline: `waived:`
    /// or `allowed:`, the reason, ticket, last day (and an allowance's place).
    pub waived: Option<String>,
}

/// The whole report, ready for a renderer. Each intent is its
/// [`IntentReview`], or that review already written by a format
/// ([`super::page::Written`]).
#[derive(Debug, Clone)]
pub struct Review<I = IntentReview> {
    pub title: String,
    pub files: Vec<String>,
    pub summary: Summary,
    pub intents: Vec<I>,
    pub horizons: Vec<Row>,
    pub assumptions: Vec<AssumptionEntry>,
    pub findings: Vec<FindingEntry>,
    pub graph: View,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::RULES;

    /// Every question has a rule, and every rule either answers a question
    /// or is about the model itself.
    #[test]
    fn every_topic_has_a_rule_and_every_rule_a_topic() {
        let topics: Vec<Topic> = QUESTIONS.iter().map(|q| q.0).collect();
        assert_eq!(topics, Topic::QUESTIONS);
        for &t in &topics {
            assert!(t.codes().next().is_some(), "no rule answers `{}`", t.name());
        }
        for r in RULES {
            assert!(
                r.topic == Topic::Model || topics.contains(&r.topic),
                "{} has no checklist topic",
                r.code
            );
        }
        assert_eq!(
            Topic::Retention.codes().collect::<Vec<_>>(),
            [
                "RH001", "RH002", "RH003", "RH004", "RH006", "RH014", "RH016", "RH030", "RH032",
                "RH038"
            ]
        );
    }
}
