//! The rules: one file per rule under its family's folder (`windows/`
//! RH00x, `regions/` RH01x, `key/` RH02x, `mechanics/` RH03x, `hygiene/`
//! RH04x, `limits/` RH05x), every rule declared once in [`registry`].
//!
//! A rule reads the precomputed [`Ctx`] and returns findings. Its
//! documentation (what it detects, why it matters, how to fix it, sources)
//! is the page `docs/rules/<CODE>.md`, embedded by the registry so
//! `explain` prints exactly what the repository shows.

mod context;
pub mod help;
mod hygiene;
mod key;
mod limits;
mod mechanics;
mod regions;
mod registry;
mod surviving;
mod topic;
mod windows;
pub use context::{Ctx, Values};
pub use hygiene::FAILURE_MODES;
pub use registry::{Code, Codes, RULES};
pub use topic::Topic;
pub use windows::{margin, required_window};

/// Settings that change what the rules report (from `replay-audit.toml`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Options {
    /// The retention margin RH004 asks for.
    pub margin: Margin,
    /// Rules turned `off`: not run, and none of their findings reported.
    pub off: Codes,
}

/// The margin policy of RH004: `percent` of the horizon or `minimum`
/// seconds, whichever is larger.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Margin {
    pub percent: u64,
    pub minimum: u64,
}

impl Default for Margin {
    fn default() -> Self {
        Margin {
            percent: 10,
            minimum: 300,
        }
    }
}

impl Margin {
    /// The margin for a horizon: `percent` of it, computed in milliseconds
    /// and rounded up to a whole second, and at least `minimum`.
    pub fn of(self, horizon: Dur) -> Dur {
        match horizon {
            Dur::Ms(h) => {
                // In u128, so that no product is cut short.
                let ms = (u128::from(h) * u128::from(self.percent)).div_ceil(100);
                u64::try_from(ms)
                    .map_or(Dur::Unbounded, Dur::ms)
                    .ceil_to_secs()
                    .max(Dur::secs(self.minimum))
            }
            Dur::Unbounded => Dur::Unbounded,
        }
    }

    /// The smallest window that neither RH001 nor RH004 would flag.
    pub fn required_window(self, horizon: Dur) -> Dur {
        horizon.add(self.of(horizon))
    }
}

/// A waiver from `replay-audit.toml`, or an inline allowance in a
/// manifest, that covers a finding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Waived {
    pub reason: String,
    pub ticket: Option<String>,
    /// `YYYY-MM-DD`, the last day the waiver holds.
    pub expires: Option<String>,
    /// Where the inline allowance that covers it stands (JSON `inline`);
    /// `None` for a waiver of the policy file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inline: Option<crate::diagnostics::Location>,
}

impl Waived {
    /// What the text formats call it: `allowed` (inline) or `waived`.
    pub fn word(&self) -> &'static str {
        if self.inline.is_some() {
            "allowed"
        } else {
            "waived"
        }
    }
}

use serde::Serialize;

use crate::analysis::{Analysis, Step};
use crate::diagnostics::Loc;
use crate::manifest::model::Component;
use crate::manifest::name::Name;
use crate::time::Dur;
use context::Eff;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    pub fn name(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }

    pub fn parse(s: &str) -> Option<Severity> {
        match s {
            "info" => Some(Severity::Info),
            "warning" => Some(Severity::Warning),
            "error" => Some(Severity::Error),
            _ => None,
        }
    }
}

/// A rule's identity and documentation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    pub id: Code,
    /// `id` as text (`RH001`).
    pub code: &'static str,
    pub name: &'static str,
    pub severity: Severity,
    /// The checklist question its findings answer.
    pub topic: Topic,
    /// The page `docs/rules/<code>.md`.
    pub doc: &'static str,
}

impl Rule {
    /// The one-line summary: the first paragraph after the severity line.
    pub fn summary(&self) -> &'static str {
        self.doc
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with("Default severity"))
            .unwrap_or(self.name)
    }
}

/// Finds a rule by code (`RH001`, `rh1`) or name.
pub fn rule(code_or_name: &str) -> Option<&'static Rule> {
    let q = code_or_name.trim();
    RULES
        .iter()
        .find(|r| r.code.eq_ignore_ascii_case(q) || r.name == q)
        .or_else(|| {
            let digits = q.strip_prefix("RH").or_else(|| q.strip_prefix("rh"))?;
            let n: u32 = digits.parse().ok()?;
            let code = format!("RH{n:03}");
            RULES.iter().find(|r| r.code == code)
        })
}

/// One problem found in an architecture.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    pub rule: &'static Rule,
    pub severity: Severity,
    /// Listed in the `--baseline` file: shown, never counted toward failure.
    pub baselined: bool,
    pub message: String,
    /// Shared with the manifest's intent and component ids.
    pub intent: Option<Name>,
    pub component: Option<Name>,
    /// The assumptions the message itself lists (RH005, one per intent);
    /// [`Finding::assumptions`] reads them.
    listed: Vec<String>,
    pub loc: Option<Loc>,
    /// `None` where unbounded or absent (see `horizon_known`).
    pub horizon: Option<Dur>,
    pub window: Option<Dur>,
    pub path: Vec<String>,
    pub steps: Vec<Step>,
    /// Other places worth showing (the worst path's links).
    pub related: Vec<(Loc, String)>,
    /// Covered by a live waiver: shown, never counted toward failure.
    pub waived: Option<Waived>,
    /// What the finding rests on that its message does not list (see
    /// [`Finding::assumptions`]).
    pub rests_on: Vec<String>,
    /// The field or link the finding is about, where one component can have
    /// several findings of one rule (RH041's field, RH051's subscription):
    /// part of its identity ([`Finding::fingerprint`]).
    pub subject: Option<String>,
    /// The concrete fix ([`help::of`]); [`Finding::help`] reads it.
    pub fix: Option<String>,
}

/// What [`Finding::new`] accepts as the rule: a [`Code`], or (for tests
/// and tools outside the rules) its text, which must be registered.
pub trait IntoCode {
    fn into_code(self) -> Code;
}

impl IntoCode for Code {
    fn into_code(self) -> Code {
        self
    }
}

impl IntoCode for &str {
    fn into_code(self) -> Code {
        rule(self).expect("registered rule code").id
    }
}

impl Finding {
    pub fn new(code: impl IntoCode, message: impl Into<String>) -> Finding {
        let rule = code.into_code().rule();
        Finding {
            rule,
            severity: rule.severity,
            baselined: false,
            message: message.into(),
            intent: None,
            component: None,
            listed: Vec::new(),
            loc: None,
            horizon: None,
            window: None,
            path: Vec::new(),
            steps: Vec::new(),
            related: Vec::new(),
            waived: None,
            rests_on: Vec::new(),
            subject: None,
            fix: None,
        }
    }

    /// How to fix it, as every format prints it: the concrete change where
    /// the finding's values give one, else where the rule's page is.
    pub fn help(&self) -> String {
        match &self.fix {
            Some(fix) => fix.clone(),
            None => format!(
                "`replay-audit explain {}` says how to fix it",
                self.rule.code
            ),
        }
    }

    /// A finding whose message ends with the assumptions it rests on,
    /// `prefix` then each of `items` joined by "; ".
    pub fn listing(code: impl IntoCode, prefix: &str, items: &[String]) -> Finding {
        let mut f = Finding::new(code, format!("{prefix}{}", items.join("; ")));
        f.listed = items.to_vec();
        f
    }

    /// What the finding takes on trust (declared assumptions, guessed
    /// values), in order: those its message lists, then [`Finding::rests_on`].
    pub fn assumptions(&self) -> impl Iterator<Item = &str> + '_ {
        self.listed.iter().chain(&self.rests_on).map(String::as_str)
    }

    pub fn has_assumptions(&self) -> bool {
        !self.listed.is_empty() || !self.rests_on.is_empty()
    }

    /// [`Finding::assumptions`] joined by "; ".
    pub fn assumptions_joined(&self) -> String {
        self.assumptions().collect::<Vec<_>>().join("; ")
    }

    /// What it is about, in one phrase: "intent / component", the intent,
    /// the component, or "-".
    pub fn scope(&self) -> String {
        match (&self.intent, &self.component) {
            (Some(i), Some(c)) => format!("{i} / {c}"),
            (Some(i), None) => i.to_string(),
            (None, Some(c)) => c.to_string(),
            (None, None) => "-".into(),
        }
    }

    /// Counts toward the failing severity (neither waived nor baselined).
    pub fn is_active(&self) -> bool {
        self.waived.is_none() && !self.baselined
    }

    /// Whether it fails a run whose threshold is `threshold`: active and
    /// at least that severe.
    pub fn fails(&self, threshold: Severity) -> bool {
        self.is_active() && self.severity >= threshold
    }

    pub fn intent(mut self, id: impl Into<Name>) -> Self {
        self.intent = Some(id.into());
        self
    }

    /// The intent, where there is one (configuration rules need none).
    pub fn maybe_intent(mut self, id: Option<impl Into<Name>>) -> Self {
        self.intent = id.map(Into::into);
        self
    }

    pub fn component(mut self, id: impl Into<Name>) -> Self {
        self.component = Some(id.into());
        self
    }

    /// About component `comp`, located where `value` is written, else at
    /// the component's kind (a catalog default has no line of its own).
    pub fn on_value<T>(self, comp: &Component, value: &Eff<T>) -> Self {
        let loc = value.loc().unwrap_or(comp.kind.loc);
        self.component(&comp.id).at(loc)
    }

    pub fn at(mut self, loc: Loc) -> Self {
        self.loc = Some(loc);
        self
    }

    pub fn horizon(mut self, h: Dur) -> Self {
        self.horizon = Some(h);
        self
    }

    pub fn window(mut self, w: Dur) -> Self {
        self.window = Some(w);
        self
    }

    /// The field or link the finding is about (see [`Finding::subject`]).
    pub fn subject(mut self, s: impl Into<String>) -> Self {
        self.subject = Some(s.into());
        self
    }

    /// Stable identity for baselines and waivers (no line numbers):
    /// `CODE:intent:component`, then `:subject` where the finding has one.
    pub fn fingerprint(&self) -> String {
        let mut s = self.legacy_fingerprint();
        if let Some(subject) = &self.subject {
            s.push(':');
            s.push_str(subject);
        }
        s
    }

    /// The identity baselines written before subjects were part of it
    /// hold: still accepted, so an existing baseline keeps working.
    pub fn legacy_fingerprint(&self) -> String {
        format!(
            "{}:{}:{}",
            self.rule.code,
            self.intent.as_deref().unwrap_or("-"),
            self.component.as_deref().unwrap_or("-")
        )
    }

    /// Borrows its strings: sorting many findings must not allocate for
    /// every comparison.
    fn sort_key(&self) -> impl Ord + '_ {
        (
            self.loc.map(|l| l.file),
            std::cmp::Reverse(self.severity),
            self.rule.code,
            self.intent.as_deref(),
            self.component.as_deref(),
            self.loc,
            self.message.as_str(),
        )
    }
}

/// Runs every rule; findings come back sorted and without repeats.
pub fn run(a: &Analysis) -> Vec<Finding> {
    run_with(a, &Options::default())
}

/// [`run`] with settings from a policy file: every emitter with a code
/// that is not `off` runs on one [`Ctx`].
pub fn run_with(a: &Analysis, options: &Options) -> Vec<Finding> {
    let ctx = Ctx::new(a, options);
    let mut out = Vec::new();
    for (emit, codes) in registry::EMITTERS {
        if codes.iter().any(|&c| !options.off.contains(c)) {
            emit(&ctx, &mut out);
        }
    }
    out.retain(|f| !options.off.contains(f.rule.id));
    for f in &mut out {
        if let Some(fix) = help::of(ctx.m, f, options.margin) {
            f.fix = Some(fix);
        }
    }
    sort(&mut out);
    out.dedup_by(|x, y| {
        x.rule.code == y.rule.code
            && x.intent == y.intent
            && x.component == y.component
            && x.message == y.message
    });
    out
}

/// Sorts findings by [`Finding::sort_key`], stably, through a permutation
/// of their indices: sorting the findings themselves took scratch room for
/// up to 8 MB of them, at the peak of a large check.
fn sort(out: &mut [Finding]) {
    let mut order: Vec<usize> = (0..out.len()).collect();
    order.sort_by(|&x, &y| out[x].sort_key().cmp(&out[y].sort_key()));
    // Position `i` takes the finding at `order[i]`, cycle by cycle; a
    // position done is marked `order[i] == i`.
    for start in 0..out.len() {
        let mut i = start;
        while order[i] != i {
            let j = std::mem::replace(&mut order[i], i);
            if j == start {
                break;
            }
            out.swap(i, j);
            i = j;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_has_its_page() {
        for r in RULES {
            let first = r.doc.lines().next().unwrap_or("");
            assert_eq!(
                first,
                format!("# {} {}", r.code, r.name),
                "docs/rules/{}.md title",
                r.code
            );
            assert!(
                r.doc
                    .contains(&format!("Default severity: {}", r.severity.name())),
                "{} severity",
                r.code
            );
            for h in [
                "## What it detects",
                "## Why it matters",
                "## How to fix",
                "## Example",
                "## Sources",
            ] {
                assert!(r.doc.contains(h), "{} lacks {h}", r.code);
            }
            assert!(!r.summary().is_empty());
        }
    }

    /// The permutation sort gives what a stable sort of the findings gives,
    /// ties (equal keys, different horizons) in their first order.
    #[test]
    fn findings_sort_as_a_stable_sort_does() {
        let codes = [Code::RH040, Code::RH001, Code::RH005, Code::RH021];
        let findings: Vec<Finding> = (0..97u64)
            .map(|i| {
                let code = codes[(i * 7 % 4) as usize];
                Finding::new(code, format!("m{}", i * 13 % 5))
                    .intent(format!("i{}", i * 3 % 4))
                    .horizon(Dur::secs(i))
            })
            .collect();
        let mut want = findings.clone();
        want.sort_by(|x, y| x.sort_key().cmp(&y.sort_key()));
        let mut got = findings;
        sort(&mut got);
        assert_eq!(got, want);
        let mut none: Vec<Finding> = Vec::new();
        sort(&mut none);
        assert!(none.is_empty());
    }

    /// A message that lists its assumptions keeps them as a list: they read
    /// back exactly, whatever they contain, and text appended to the
    /// message later (an expired waiver) leaves them be.
    #[test]
    fn assumptions_listed_in_the_message_read_back_exactly() {
        let items = ["max_backlog 1h on q".to_string(), "a; b `c`".to_string()];
        let mut f = Finding::listing(Code::RH005, "rests on 2: ", &items);
        assert_eq!(f.message, "rests on 2: max_backlog 1h on q; a; b `c`");
        f.message.push_str(" (waiver expired on 2026-01-01: x)");
        assert_eq!(
            f.assumptions().collect::<Vec<_>>(),
            ["max_backlog 1h on q", "a; b `c`"]
        );
        assert_eq!(f.assumptions_joined(), "max_backlog 1h on q; a; b `c`");
        assert!(f.has_assumptions());
        let mut own = Finding::new(Code::RH001, "m");
        assert!(!own.has_assumptions());
        own.rests_on = vec!["redrive of d within 1d".into()];
        assert_eq!(
            own.assumptions().collect::<Vec<_>>(),
            ["redrive of d within 1d"]
        );
        assert_eq!(Finding::listing(Code::RH005, "p", &[]).message, "p");
    }

    #[test]
    fn rules_are_found_by_code_or_name() {
        assert_eq!(rule("RH001").unwrap().name, "replay-outlives-dedup-window");
        assert_eq!(rule("rh1").unwrap().code, "RH001");
        assert_eq!(rule("non-atomic-claim").unwrap().code, "RH035");
        assert!(rule("RH999").is_none());
    }
}

#[cfg(test)]
mod off_tests {
    use super::*;

    /// A rule turned off reports nothing, and the others still run.
    #[test]
    fn a_rule_turned_off_is_not_reported() {
        let text = include_str!("../../fixtures/rules/RH030-fires.yaml");
        let m = crate::manifest::from_str(text).unwrap();
        let a = crate::analysis::analyse(&m);
        let all: Vec<Code> = run(&a).iter().map(|f| f.rule.id).collect();
        assert!(all.contains(&Code::RH030));
        let options = Options {
            off: [Code::RH030].into_iter().collect(),
            ..Options::default()
        };
        let some: Vec<Code> = run_with(&a, &options).iter().map(|f| f.rule.id).collect();
        let mut want = all.clone();
        want.retain(|&c| c != Code::RH030);
        assert!(!want.is_empty(), "the fixture has other findings");
        assert_eq!(some, want);
    }
}
