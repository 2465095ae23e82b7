//! The one list of rules. Each line declares a rule's code, name, default
//! severity and checklist topic; each group names the function that emits
//! its codes. From it come the typed [`Code`], [`RULES`] (with every page
//! `docs/rules/<CODE>.md` embedded) and the dispatch [`EMITTERS`].
//!
//! A group holds several codes only where they come from one traversal
//! (RH001–RH005 read the same surviving copies and layer reaches, and
//! RH002 depends on what RH001 flagged).

use super::context::Ctx;
use super::topic::Topic;
use super::{Finding, Rule, Severity};

/// A function that emits the findings of its group's codes.
pub(crate) type Emit = fn(&Ctx, &mut Vec<Finding>);

macro_rules! rules {
    ($( [$emit:path] { $( $code:ident $name:literal $sev:ident $topic:ident ),+ $(,)? } )*) => {
        /// A rule's code, typed: the only way a rule names what it reports.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code {
            $( $( $code, )+ )*
        }

        impl Code {
            /// Every code, in code order.
            pub const ALL: &'static [Code] = &[ $( $( Code::$code, )+ )* ];

            /// `RH001`.
            pub fn as_str(self) -> &'static str {
                match self {
                    $( $( Code::$code => stringify!($code), )+ )*
                }
            }
        }

        /// Every rule, in code order (the order of [`Code`]).
        pub const RULES: &[Rule] = &[
            $( $( Rule {
                id: Code::$code,
                code: stringify!($code),
                name: $name,
                severity: Severity::$sev,
                topic: Topic::$topic,
                doc: include_str!(concat!("../../docs/rules/", stringify!($code), ".md")),
            }, )+ )*
        ];

        /// Each emitting function with the codes it emits.
        pub(crate) const EMITTERS: &[(Emit, &[Code])] = &[
            $( ($emit, &[ $( Code::$code, )+ ]), )*
        ];
    };
}

rules! {
    [super::windows::horizons] {
        RH001 "replay-outlives-dedup-window" Error Retention,
        RH002 "layer-window-shorter-than-horizon" Warning Retention,
        RH003 "unbounded-replay-horizon" Error Retention,
        RH004 "thin-retention-margin" Warning Retention,
        RH005 "horizon-rests-on-assumption" Info Model,
    }
    [super::windows::rh006::emit] { RH006 "redrive-after-messages-expire" Warning Retention }
    [super::regions::rh010::emit] { RH010 "region-crossing-without-shared-state" Error Failover }
    [super::regions::rh011::emit] { RH011 "concurrent-first-claims" Error Failover }
    [super::regions::rh012::emit] { RH012 "dedup-recovery-point-mismatch" Warning Recovery }
    [super::regions::rh013::emit] { RH013 "scope-narrower-than-replay" Error Scope }
    [super::regions::rh014::emit] { RH014 "dead-letter-retention-not-longer" Warning Retention }
    [super::regions::rh015::emit] { RH015 "visibility-shorter-than-processing" Warning Concurrency }
    [super::regions::rh016::emit] { RH016 "replay-pointer-outlives-data" Warning Retention }
    [super::key::rh020::emit] { RH020 "key-minted-per-attempt" Error KeyGeneration }
    [super::key::rh021::emit] { RH021 "key-not-propagated" Error Propagation }
    [super::key::rh022::emit] { RH022 "key-not-bound-to-fingerprint" Warning Fingerprint }
    [super::key::rh023::emit] { RH023 "fingerprint-misses-effect-fields" Warning Fingerprint }
    [super::key::rh024::emit] { RH024 "key-not-persisted-before-retry" Error KeyGeneration }
    [super::key::rh025::emit] { RH025 "key-from-transport-identity" Error Intent }
    [super::mechanics::rh030::emit] { RH030 "send-side-dedup-only" Error Retention }
    [super::mechanics::rh031::emit] { RH031 "content-dedup-ignores-attributes" Warning Fingerprint }
    [super::mechanics::rh032::emit] { RH032 "physical-ttl-defines-validity" Warning Retention }
    [super::mechanics::rh033::emit] { RH033 "unresolved-in-progress-ambiguity" Error Ambiguity }
    [super::mechanics::rh034::emit] { RH034 "blind-in-progress-expiry" Error Ambiguity }
    [super::mechanics::rh035::emit] { RH035 "non-atomic-claim" Error Concurrency }
    [super::mechanics::rh036::emit] { RH036 "result-not-stored" Warning Completion }
    [super::mechanics::rh037::emit] { RH037 "durable-step-side-effect" Error Propagation }
    [super::mechanics::rh038::emit] { RH038 "at-least-once-without-dedup" Error Retention }
    [super::mechanics::rh039::emit] { RH039 "in-progress-expires-during-call" Error Concurrency }
    [super::hygiene::rh040::emit] { RH040 "untested-failure-mode" Info Testing }
    [super::hygiene::rh041::emit] { RH041 "unknown-value-assumed" Info Model }
    [super::hygiene::rh042::emit] { RH042 "unused-dedup-store" Warning Model }
    [super::hygiene::rh043::emit] { RH043 "unreachable-effect" Error Model }
    [super::hygiene::rh044::emit] { RH044 "no-intent" Warning Model }
    [super::limits::rh050::emit] { RH050 "platform-limit-violated" Error Model }
    [super::limits::rh051::emit] { RH051 "delivery-policy-not-applied" Warning Model }
}

impl Code {
    /// The rule this code names.
    pub fn rule(self) -> &'static Rule {
        &RULES[self as usize]
    }

    /// The code `RH001` (exactly, as written in `RULES`).
    pub fn parse(s: &str) -> Option<Code> {
        RULES.iter().find(|r| r.code == s).map(|r| r.id)
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A set of codes (the rules a policy turns off).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Codes(std::collections::BTreeSet<Code>);

impl Codes {
    pub fn insert(&mut self, c: Code) {
        self.0.insert(c);
    }

    pub fn contains(&self, c: Code) -> bool {
        self.0.contains(&c)
    }
}

impl FromIterator<Code> for Codes {
    fn from_iter<I: IntoIterator<Item = Code>>(iter: I) -> Codes {
        Codes(iter.into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_index_rules_in_code_order() {
        for (i, r) in RULES.iter().enumerate() {
            assert_eq!(r.id as usize, i);
            assert_eq!(r.id.as_str(), r.code);
            assert_eq!(Code::parse(r.code), Some(r.id));
        }
        assert!(RULES.windows(2).all(|w| w[0].code < w[1].code));
        assert_eq!(Code::parse("RH999"), None);
    }

    #[test]
    fn every_code_has_exactly_one_emitter() {
        let mut seen = Codes::default();
        for (_, codes) in EMITTERS {
            for &c in *codes {
                assert!(!seen.contains(c), "{c} emitted twice");
                seen.insert(c);
            }
        }
        assert!(Code::ALL.iter().all(|&c| seen.contains(c)));
    }
}
