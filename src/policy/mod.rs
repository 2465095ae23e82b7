//! The policy of a run: the file `replay-audit.toml` (failing severity,
//! per-rule severity, margin, waivers) and baselines (`check --baseline` /
//! `--write-baseline`).
//!
//! - this module: [`Policy`] and how it is applied to the findings of an
//!   analysis;
//! - `search`: where it is found ([`locate`]: upward from the manifests to
//!   the repository root);
//! - `file`: reading the policy file, its error messages, and `raw`: its
//!   raw shape, read section by section; `rule_codes`: the rule codes and
//!   names it accepts, and its "did you mean";
//! - `waiver`: waivers, their globs and the index that matches them;
//! - `baseline`: baseline files;
//! - `date`: dates and "today" for waiver expiry.

mod allowed;
mod baseline;
mod date;
mod file;
pub mod inline;
mod raw;
mod rule_codes;
pub mod schema;
mod search;
mod waiver;

pub use baseline::Baseline;
pub use date::{Date, TODAY_VAR};
pub use inline::Allowance;
pub use search::locate;
pub use waiver::{NeverExpiring, UnusedWaiver, Waiver, WaiverIndex, glob};

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::diagnostics::Loc;

use serde::Serialize;

use crate::diagnostics::{Diagnostic, SourceMap};
use crate::files::Origin;
use crate::rules::{self, Finding, Margin, Options, Severity, Waived};

/// The policy file's name, looked for from the manifests' folder up to
/// the repository root.
pub const FILE_NAME: &str = "replay-audit.toml";

/// The policy file (or baseline) could not be used: every error found and
/// the file to render them against.
#[derive(Debug, thiserror::Error)]
#[error("{} error(s) in `{}`", .diagnostics.len(), .path)]
pub struct PolicyError {
    pub path: String,
    pub sources: SourceMap,
    pub diagnostics: Vec<Diagnostic>,
}

impl PolicyError {
    fn one(path: &str, sources: SourceMap, d: Diagnostic) -> PolicyError {
        PolicyError {
            path: path.to_string(),
            sources,
            diagnostics: vec![d],
        }
    }

    /// Renders every error like rustc, followed by a count; one line of
    /// the file is quoted at most ([`quote_one_line`]).
    pub fn render(&self, color: bool) -> String {
        let what = format!("use `{}`", crate::diagnostics::echo(&self.path));
        let shown = quote_one_line(self.diagnostics.clone(), &self.sources);
        crate::diagnostics::render_all(&shown, &self.sources, color, &what)
    }
}

/// `errors` with only the first that points at a line quoting it: the
/// file may be any text named by mistake (a `.env` file is valid TOML, and
/// every one of its keys an unknown field), so the others name their place
/// (`file:line:column`) in the message instead of showing the line.
fn quote_one_line(errors: Vec<Diagnostic>, sources: &SourceMap) -> Vec<Diagnostic> {
    let mut quoted = false;
    errors
        .into_iter()
        .map(|mut d| {
            if quoted && let Some(at) = d.loc.take() {
                d.message = format!("{} (at {})", d.message, sources.display(at));
            }
            for (at, note) in std::mem::take(&mut d.related) {
                d.message = format!("{}; {note} (at {})", d.message, sources.display(at));
            }
            quoted |= d.loc.is_some();
            d
        })
        .collect()
}

/// A read policy; [`Policy::default`] is what applies without a file.
#[derive(Debug, Clone, Default)]
pub struct Policy {
    /// The file it was read from, if any, for messages.
    pub sources: SourceMap,
    /// The policy file's path as shown (`None`: no file, the defaults).
    pub path: Option<String>,
    pub fail_on: Option<Severity>,
    /// Per-rule severity; `None` turns the rule off.
    pub severity: BTreeMap<&'static str, Option<Severity>>,
    pub margin: Margin,
    pub waivers: Vec<Waiver>,
    /// `require_expiry = true`: a waiver without `expires` is an error.
    pub require_expiry: bool,
    /// The waivers without `expires` (their number from 1, code and
    /// place), for the "never expires" warnings.
    pub never_expire: Vec<(usize, &'static str, Loc)>,
}

/// What the policy and the baseline report besides the findings (additive
/// keys of the JSON output).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Notes {
    /// The policy file used, as shown; `null` when none was found.
    pub policy: Option<String>,
    /// Warnings about the policy itself (waivers that never expire), for
    /// stderr.
    #[serde(skip)]
    pub policy_warnings: Vec<String>,
    pub unused_waivers: Vec<UnusedWaiver>,
    /// Baseline fingerprints that no finding has any more.
    pub stale_baseline: Vec<String>,
    /// The waivers without `expires`, at their places in the policy file.
    pub never_expiring_waivers: Vec<NeverExpiring>,
}

impl Notes {
    /// The line every human-readable output ends with: which policy file
    /// applied, or that none was found.
    pub fn policy_line(&self) -> String {
        match &self.policy {
            Some(p) => format!("policy: {p}"),
            None => format!("policy: no {FILE_NAME} found; the defaults apply"),
        }
    }

    /// One warning line per note, for stderr.
    pub fn warnings(&self, baseline: Option<&str>) -> Vec<String> {
        let mut out = self.policy_warnings.clone();
        for w in &self.unused_waivers {
            out.push(format!(
                "warning: {}:{}:{}: {}",
                w.location.file,
                w.location.line,
                w.location.column,
                w.message()
            ));
        }
        for s in &self.stale_baseline {
            out.push(format!(
                "warning: baseline entry `{s}` no longer occurs{}; rewrite the baseline with --write-baseline",
                baseline.map(|b| format!(" (in {b})")).unwrap_or_default()
            ));
        }
        out
    }
}

impl Policy {
    /// The options the rules take from this policy.
    pub fn options(&self) -> Options {
        Options {
            margin: self.margin,
            off: self
                .severity
                .iter()
                .filter(|(_, s)| s.is_none())
                .filter_map(|(code, _)| rules::rule(code))
                .map(|r| r.id)
                .collect(),
        }
    }

    /// What the outputs say about this policy: its file and its warnings
    /// ([`Notes::policy`], [`Notes::policy_warnings`]).
    pub fn notes(&self) -> Notes {
        Notes {
            policy: self.path.clone(),
            policy_warnings: self.warnings(),
            never_expiring_waivers: self.never_expiring(),
            ..Notes::default()
        }
    }

    /// One `warning:` line per waiver that never expires.
    pub fn warnings(&self) -> Vec<String> {
        self.never_expiring()
            .iter()
            .map(|w| {
                let l = &w.location;
                format!(
                    "warning: {}:{}:{}: {}",
                    l.file,
                    l.line,
                    l.column,
                    w.message()
                )
            })
            .collect()
    }

    /// The waivers without `expires`, placed in the policy file.
    pub fn never_expiring(&self) -> Vec<NeverExpiring> {
        self.never_expire
            .iter()
            .map(|&(waiver, code, loc)| NeverExpiring {
                waiver,
                code,
                location: self.sources.location(loc),
            })
            .collect()
    }

    /// The policy for `paths`: the file `config` names, else the nearest
    /// replay-audit.toml from the first path up to the repository root
    /// ([`locate`]), else the defaults.
    pub fn find(paths: &[PathBuf], config: Option<&Path>) -> Result<Policy, PolicyError> {
        let origin = if config.is_some() {
            Origin::Given
        } else {
            Origin::Found
        };
        locate(paths, config)
            .map_or_else(|| Ok(Policy::default()), |p| Policy::read_from(&p, origin))
    }

    /// The lowest severity that fails a run: `flag` (`--fail-on`), else the
    /// policy's `fail_on`, else error.
    pub fn threshold(&self, flag: Option<Severity>) -> Severity {
        flag.or(self.fail_on).unwrap_or(Severity::Error)
    }

    /// The findings of an analysis under this policy: the rules run with
    /// its options, then [`Policy::apply_with`] with the manifest's inline
    /// allowances.
    pub fn findings(
        &self,
        a: &crate::analysis::Analysis,
        today: Date,
    ) -> (Vec<Finding>, Vec<UnusedWaiver>) {
        let findings = rules::run_with(a, &self.options());
        self.apply_with(findings, today, &a.manifest.sources)
    }

    /// [`Policy::apply_with`] without inline allowances.
    pub fn apply(&self, findings: Vec<Finding>, today: Date) -> (Vec<Finding>, Vec<UnusedWaiver>) {
        self.apply_with(findings, today, &SourceMap::default())
    }

    /// Applies severity overrides (dropping rules that are `off`), waivers
    /// and the inline allowances of `manifest` (placed by its files). A
    /// waived or allowed finding stays, marked (a policy waiver first); an
    /// expired waiver or allowance leaves the finding active and says so in
    /// its message. The unused waivers come first, then the unused
    /// allowances.
    pub fn apply_with(
        &self,
        findings: Vec<Finding>,
        today: Date,
        manifest: &SourceMap,
    ) -> (Vec<Finding>, Vec<UnusedWaiver>) {
        let mut used = vec![false; self.waivers.len()];
        let index = WaiverIndex::new(&self.waivers);
        let mut inline = allowed::Marker::new(&manifest.allowances, manifest, today);
        // Collected in place (same element type): a second array of every
        // finding would be alive beside the first at the peak of a check.
        let keep = |mut f: Finding| {
            match self.severity.get(f.rule.code) {
                Some(None) => return None,
                Some(Some(sev)) => f.severity = *sev,
                None => {}
            }
            let mut expired = None;
            // The waivers that may match, in file order (see [`WaiverIndex`]).
            for i in index.candidates(&f) {
                let w = &self.waivers[i];
                if !w.matches(&f) {
                    continue;
                }
                used[i] = true;
                if w.expired(today) {
                    expired.get_or_insert(w);
                } else if f.waived.is_none() {
                    f.waived = Some(Waived {
                        reason: w.reason.clone(),
                        ticket: w.ticket.clone(),
                        expires: w.expires.map(|d| d.to_string()),
                        inline: None,
                    });
                }
            }
            inline.mark(&mut f);
            if f.waived.is_none()
                && let Some(w) = expired
            {
                f.message.push_str(&format!(
                    " (waiver expired on {}: {}{})",
                    w.expires.map(|d| d.to_string()).unwrap_or_default(),
                    w.reason,
                    w.ticket
                        .as_ref()
                        .map(|t| format!(", {t}"))
                        .unwrap_or_default()
                ));
            }
            Some(f)
        };
        let out: Vec<Finding> = findings.into_iter().filter_map(keep).collect();
        let mut unused: Vec<UnusedWaiver> = self
            .waivers
            .iter()
            .zip(used)
            .filter(|(_, u)| !u)
            .map(|(w, _)| UnusedWaiver {
                code: w.rule.code,
                intent: w.intent.clone(),
                component: w.component.clone(),
                reason: w.reason.clone(),
                location: self.sources.location(w.loc),
                inline: false,
            })
            .collect();
        unused.extend(inline.unused());
        (out, unused)
    }
}
