//! The checklist topic of every rule: which of the review's twelve
//! questions a finding of the rule makes fail, or [`Topic::Model`] for the
//! rules about the manifest itself (assumed values, unused stores,
//! unreachable effects, platform limits), which answer no question.

/// A checklist topic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Topic {
    Intent,
    KeyGeneration,
    Propagation,
    Fingerprint,
    Concurrency,
    Completion,
    Ambiguity,
    Retention,
    Scope,
    Failover,
    Recovery,
    Testing,
    /// The manifest as a model: no checklist question.
    Model,
}

impl Topic {
    /// The topics the review asks a question about, in its order.
    pub const QUESTIONS: [Topic; 12] = [
        Topic::Intent,
        Topic::KeyGeneration,
        Topic::Propagation,
        Topic::Fingerprint,
        Topic::Concurrency,
        Topic::Completion,
        Topic::Ambiguity,
        Topic::Retention,
        Topic::Scope,
        Topic::Failover,
        Topic::Recovery,
        Topic::Testing,
    ];

    /// The name the review prints.
    pub fn name(self) -> &'static str {
        match self {
            Topic::Intent => "intent",
            Topic::KeyGeneration => "key generation",
            Topic::Propagation => "propagation",
            Topic::Fingerprint => "fingerprint",
            Topic::Concurrency => "concurrency",
            Topic::Completion => "completion",
            Topic::Ambiguity => "ambiguity",
            Topic::Retention => "retention",
            Topic::Scope => "scope",
            Topic::Failover => "failover",
            Topic::Recovery => "recovery",
            Topic::Testing => "testing",
            Topic::Model => "model",
        }
    }

    /// The codes of the rules on this topic, in code order.
    pub fn codes(self) -> impl Iterator<Item = &'static str> {
        super::RULES
            .iter()
            .filter(move |r| r.topic == self)
            .map(|r| r.code)
    }
}
