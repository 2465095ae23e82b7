//! The rules: one file per family, every rule registered once below.
//!
//! A rule reads the manifest and the analysis and returns findings. Its
//! documentation (what it detects, why it matters, how to fix it, sources)
//! is the page `docs/rules/<CODE>.md`, embedded here so `explain` prints
//! exactly what the repository shows.

mod hygiene;
mod key;
mod mechanics;
mod reach;
mod redrive_cap;
mod regions;
mod windows;
pub use hygiene::FAILURE_MODES;
pub use windows::{margin, required_window};

/// Settings that change what the rules report (from `replay-audit.toml`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Options {
    /// The retention margin RH004 asks for.
    pub margin: Margin,
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
    /// The margin for a horizon (rounded up to a whole second).
    pub fn of(self, horizon: Dur) -> Dur {
        match horizon {
            Dur::Secs(h) => Dur::Secs(
                h.saturating_mul(self.percent)
                    .div_ceil(100)
                    .max(self.minimum),
            ),
            Dur::Unbounded => Dur::Unbounded,
        }
    }

    /// The smallest window that neither RH001 nor RH004 would flag.
    pub fn required_window(self, horizon: Dur) -> Dur {
        horizon.add(self.of(horizon))
    }
}

/// A waiver from `replay-audit.toml` that covers a finding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Waived {
    pub reason: String,
    pub ticket: Option<String>,
    /// `YYYY-MM-DD`, the last day the waiver holds.
    pub expires: Option<String>,
}

use serde::Serialize;

use crate::analysis::{Analysis, Step};
use crate::diagnostics::Loc;
use crate::time::Dur;

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
    pub code: &'static str,
    pub name: &'static str,
    pub severity: Severity,
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

macro_rules! registry {
    ($( $code:literal $name:literal $sev:ident ),* $(,)?) => {
        /// Every rule, in code order.
        pub const RULES: &[Rule] = &[
            $( Rule {
                code: $code,
                name: $name,
                severity: Severity::$sev,
                doc: include_str!(concat!("../../docs/rules/", $code, ".md")),
            }, )*
        ];
    };
}

registry! {
    "RH001" "replay-outlives-dedup-window" Error,
    "RH002" "layer-window-shorter-than-horizon" Warning,
    "RH003" "unbounded-replay-horizon" Error,
    "RH004" "thin-retention-margin" Warning,
    "RH005" "horizon-rests-on-assumption" Info,
    "RH006" "redrive-after-messages-expire" Warning,
    "RH010" "region-crossing-without-shared-state" Error,
    "RH011" "concurrent-first-claims" Error,
    "RH012" "dedup-recovery-point-mismatch" Warning,
    "RH013" "scope-narrower-than-replay" Error,
    "RH014" "dead-letter-retention-not-longer" Warning,
    "RH015" "visibility-shorter-than-processing" Warning,
    "RH016" "replay-pointer-outlives-data" Warning,
    "RH020" "key-minted-per-attempt" Error,
    "RH021" "key-not-propagated" Error,
    "RH022" "key-not-bound-to-fingerprint" Warning,
    "RH023" "fingerprint-misses-effect-fields" Warning,
    "RH024" "key-not-persisted-before-retry" Error,
    "RH025" "key-from-transport-identity" Error,
    "RH030" "send-side-dedup-only" Error,
    "RH031" "content-dedup-ignores-attributes" Warning,
    "RH032" "physical-ttl-defines-validity" Warning,
    "RH033" "unresolved-in-progress-ambiguity" Error,
    "RH034" "blind-in-progress-expiry" Error,
    "RH035" "non-atomic-claim" Error,
    "RH036" "result-not-stored" Warning,
    "RH037" "durable-step-side-effect" Error,
    "RH038" "at-least-once-without-dedup" Error,
    "RH040" "untested-failure-mode" Info,
    "RH041" "unknown-value-assumed" Info,
    "RH042" "unused-dedup-store" Warning,
    "RH043" "unreachable-effect" Error,
    "RH050" "platform-limit-violated" Error,
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
    pub message: String,
    pub intent: Option<String>,
    pub component: Option<String>,
    /// `None` where unbounded or absent (see `horizon_known`).
    pub horizon: Option<Dur>,
    pub window: Option<Dur>,
    pub path: Vec<String>,
    pub steps: Vec<Step>,
    pub assumptions: Vec<String>,
    pub loc: Option<Loc>,
    /// Other places worth showing (the worst path's links).
    pub related: Vec<(Loc, String)>,
    /// Covered by a live waiver: shown, never counted toward failure.
    pub waived: Option<Waived>,
    /// Listed in the `--baseline` file: shown, never counted toward failure.
    pub baselined: bool,
}

impl Finding {
    pub fn new(code: &str, message: impl Into<String>) -> Finding {
        let rule = rule(code).expect("registered rule code");
        Finding {
            rule,
            severity: rule.severity,
            message: message.into(),
            intent: None,
            component: None,
            horizon: None,
            window: None,
            path: Vec::new(),
            steps: Vec::new(),
            assumptions: Vec::new(),
            loc: None,
            related: Vec::new(),
            waived: None,
            baselined: false,
        }
    }

    /// Counts toward the failing severity (neither waived nor baselined).
    /// What it is about, in one phrase: "intent / component", the intent,
    /// the component, or "-".
    pub fn scope(&self) -> String {
        match (&self.intent, &self.component) {
            (Some(i), Some(c)) => format!("{i} / {c}"),
            (Some(i), None) => i.clone(),
            (None, Some(c)) => c.clone(),
            (None, None) => "-".into(),
        }
    }

    pub fn is_active(&self) -> bool {
        self.waived.is_none() && !self.baselined
    }

    /// Whether it fails a run whose threshold is `threshold`: active and
    /// at least that severe.
    pub fn fails(&self, threshold: Severity) -> bool {
        self.is_active() && self.severity >= threshold
    }

    pub fn intent(mut self, id: &str) -> Self {
        self.intent = Some(id.to_string());
        self
    }

    pub fn component(mut self, id: &str) -> Self {
        self.component = Some(id.to_string());
        self
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

    /// Stable identity for baselines and waivers (no line numbers).
    pub fn fingerprint(&self) -> String {
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
pub fn check(a: &Analysis) -> Vec<Finding> {
    check_with(a, &Options::default())
}

/// [`check`] with settings from a policy file.
pub fn check_with(a: &Analysis, options: &Options) -> Vec<Finding> {
    let mut out = Vec::new();
    windows::check(a, options, &mut out);
    regions::check(a, &mut out);
    regions::check_scope(a, &mut out);
    key::check(a, &mut out);
    key::check_binding(a, &mut out);
    mechanics::check(a, &mut out);
    mechanics::check_layers(a, &mut out);
    hygiene::check(a, &mut out);
    reach::check(a, &mut out);
    redrive_cap::check(a, &mut out);
    out.sort_by(|x, y| x.sort_key().cmp(&y.sort_key()));
    out.dedup_by(|x, y| {
        x.rule.code == y.rule.code
            && x.intent == y.intent
            && x.component == y.component
            && x.message == y.message
    });
    out
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

    #[test]
    fn rules_are_found_by_code_or_name() {
        assert_eq!(rule("RH001").unwrap().name, "replay-outlives-dedup-window");
        assert_eq!(rule("rh1").unwrap().code, "RH001");
        assert_eq!(rule("non-atomic-claim").unwrap().code, "RH035");
        assert!(rule("RH999").is_none());
    }
}
