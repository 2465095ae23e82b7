//! Waivers: one `[[waiver]]` of the policy file ([`Waiver`]), how it
//! matches a finding (rule code plus `*`/`?` globs on the intent and the
//! component), and the index that files waivers for matching
//! ([`WaiverIndex`]).
//!
//! The index makes applying W waivers to F findings cost about F + W
//! instead of F × W. A glob can only match text that starts with its
//! literal prefix (the characters before the first `*` or `?`), so each
//! waiver is filed under its rule code and one literal prefix: the
//! intent's if it has one, else the component's, else under "any". A
//! finding then looks only at the waivers filed under its code and under a
//! prefix of its own intent or component, and every candidate is still
//! tested with [`Waiver::matches`]: the index only narrows the search, it
//! never decides.
//!
//! Candidates come back in policy-file order, so which waiver marks a
//! finding (the first live one) and which expired one is reported (the
//! first) are exactly what a scan of every waiver in order gives.

use std::collections::HashMap;

use serde::Serialize;

use super::Date;
use crate::diagnostics::{Loc, Location};
use crate::rules::{Finding, Rule};

/// One `[[waiver]]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Waiver {
    pub rule: &'static Rule,
    /// Glob (`*`, `?`) on the finding's intent.
    pub intent: Option<String>,
    /// Glob (`*`, `?`) on the finding's component.
    pub component: Option<String>,
    pub reason: String,
    pub ticket: Option<String>,
    /// The last day the waiver holds.
    pub expires: Option<Date>,
    /// Where the `[[waiver]]` stands in the policy file.
    pub loc: Loc,
}

impl Waiver {
    pub fn matches(&self, f: &Finding) -> bool {
        let field = |pat: &Option<String>, val: Option<&str>| match (pat, val) {
            (None, _) => true,
            (Some(p), Some(v)) => glob(p, v),
            (Some(_), None) => false,
        };
        f.rule.code == self.rule.code
            && field(&self.intent, f.intent.as_deref())
            && field(&self.component, f.component.as_deref())
    }

    pub fn expired(&self, today: Date) -> bool {
        self.expires.is_some_and(|e| today > e)
    }
}

/// A waiver that matched no finding (JSON `unused_waivers`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UnusedWaiver {
    pub code: &'static str,
    pub intent: Option<String>,
    pub component: Option<String>,
    pub reason: String,
    pub location: Location,
    /// An inline allowance in a manifest rather than a policy waiver.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub inline: bool,
}

impl UnusedWaiver {
    /// The warning without its place: what stderr and annotations say.
    pub fn message(&self) -> String {
        let mut target = self.code.to_string();
        for (k, v) in [("intent", &self.intent), ("component", &self.component)] {
            if let Some(v) = v {
                target.push_str(&format!(" {k}={v}"));
            }
        }
        if self.inline {
            format!(
                "inline allowance for {target} covers no finding; remove it, or fix its code or place"
            )
        } else {
            format!(
                "waiver for {target} matched no finding; remove it or fix its code, intent or component"
            )
        }
    }
}

/// A waiver without `expires` (JSON `never_expiring_waivers`, a GitHub
/// `::warning` at its place): it would hold for ever.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NeverExpiring {
    /// Its number among the policy file's waivers, from 1.
    pub waiver: usize,
    pub code: &'static str,
    /// Where its `[[waiver]]` stands in the policy file.
    pub location: Location,
}

impl NeverExpiring {
    /// The warning without its place: what stderr and annotations say.
    pub fn message(&self) -> String {
        format!(
            "waiver #{} ({}) never expires; add expires = YYYY-MM-DD, the last day it holds (require_expiry = true makes this an error)",
            self.waiver, self.code
        )
    }
}

/// Matches `*` (any run of characters) and `?` (one character); nothing
/// else is special. Hand-written: waivers need only these two, and none of
/// the approved crates offers a glob matcher.
pub fn glob(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == t[ti]) {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some((pi, ti));
            pi += 1;
        } else if let Some((sp, st)) = star {
            pi = sp + 1;
            ti = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

/// The finding field a waiver is filed under.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Field {
    Intent,
    Component,
}

/// Waivers of one code filed under one field, by literal prefix.
#[derive(Debug, Default)]
struct Prefixes {
    /// Prefix → indices of the waivers filed under it, ascending.
    by_prefix: HashMap<String, Vec<usize>>,
    /// The distinct prefix lengths in bytes, ascending: a finding's value
    /// is cut at these lengths only.
    lengths: Vec<usize>,
}

/// The waivers of a policy, filed by code and literal prefix.
#[derive(Debug, Default)]
pub struct WaiverIndex {
    prefixes: HashMap<(&'static str, Field), Prefixes>,
    /// Waivers with no literal prefix on either field, by code.
    any: HashMap<&'static str, Vec<usize>>,
}

/// The characters of a glob before its first wildcard.
fn literal_prefix(pattern: &str) -> &str {
    &pattern[..pattern.find(['*', '?']).unwrap_or(pattern.len())]
}

impl WaiverIndex {
    pub fn new(waivers: &[Waiver]) -> WaiverIndex {
        let mut index = WaiverIndex::default();
        for (i, w) in waivers.iter().enumerate() {
            let filed = [
                (Field::Intent, w.intent.as_deref()),
                (Field::Component, w.component.as_deref()),
            ]
            .into_iter()
            .find_map(|(field, pat)| {
                let prefix = literal_prefix(pat?);
                (!prefix.is_empty()).then_some((field, prefix))
            });
            match filed {
                Some((field, prefix)) => {
                    let p = index.prefixes.entry((w.rule.code, field)).or_default();
                    p.by_prefix.entry(prefix.to_string()).or_default().push(i);
                    p.lengths.push(prefix.len());
                }
                None => index.any.entry(w.rule.code).or_default().push(i),
            }
        }
        for p in index.prefixes.values_mut() {
            p.lengths.sort_unstable();
            p.lengths.dedup();
        }
        index
    }

    /// Indices of the waivers that may match `f`, ascending (policy-file
    /// order); a superset of those that do.
    pub fn candidates(&self, f: &Finding) -> Vec<usize> {
        let code = f.rule.code;
        let mut out: Vec<usize> = self.any.get(code).cloned().unwrap_or_default();
        for (field, value) in [
            (Field::Intent, f.intent.as_deref()),
            (Field::Component, f.component.as_deref()),
        ] {
            let (Some(value), Some(p)) = (value, self.prefixes.get(&(code, field))) else {
                continue;
            };
            for &len in &p.lengths {
                if len > value.len() {
                    break;
                }
                if let Some(ids) = value.get(..len).and_then(|prefix| p.by_prefix.get(prefix)) {
                    out.extend_from_slice(ids);
                }
            }
        }
        // Each waiver is filed once, so there are no repeats to remove.
        out.sort_unstable();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_star_and_question_mark() {
        assert!(glob("payout-*", "payout-idempotency"));
        assert!(glob("*", ""));
        assert!(glob("a?c", "abc"));
        assert!(!glob("a?c", "ac"));
        assert!(glob("*-keys*", "payout-keys-eu"));
        assert!(!glob("payout", "payout-keys"));
        assert!(glob("p*t*s", "payouts"));
    }

    #[test]
    fn a_literal_prefix_ends_at_the_first_wildcard() {
        assert_eq!(literal_prefix("payout-*"), "payout-");
        assert_eq!(literal_prefix("a?c*"), "a");
        assert_eq!(literal_prefix("*x"), "");
        assert_eq!(literal_prefix("exact"), "exact");
    }
}
