//! Output formats: one file per format.

pub mod concise;
pub mod diagnostic;
pub mod each;
pub mod errors;
pub mod format;
pub mod github;
pub mod gitlab;
pub mod horizon;
pub mod json;
pub mod junit;
pub mod markdown;
pub mod no_commands;
pub mod related;
pub mod root;
pub mod sarif;
pub mod table;
pub mod xml;

use crate::diagnostics::SourceMap;
use crate::rules::{Finding, Severity};

/// Counts by severity of the active findings (neither waived nor
/// baselined), and how many were waived or baselined (those two keys
/// appear in JSON only when not zero).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Summary {
    pub error: usize,
    pub warning: usize,
    pub info: usize,
    #[serde(skip_serializing_if = "is_zero")]
    pub waived: usize,
    #[serde(skip_serializing_if = "is_zero")]
    pub baselined: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Summary {
    /// "1 error(s), 0 warning(s), 2 info, 1 waived": the accepted counts
    /// only when there are any.
    pub fn line(&self) -> String {
        let mut s = format!(
            "{} error(s), {} warning(s), {} info",
            self.error, self.warning, self.info
        );
        if self.waived > 0 {
            s.push_str(&format!(", {} waived", self.waived));
        }
        if self.baselined > 0 {
            s.push_str(&format!(", {} baselined", self.baselined));
        }
        s
    }

    pub fn of<'a>(findings: impl IntoIterator<Item = &'a Finding>) -> Summary {
        let mut s = Summary::default();
        for f in findings {
            if f.waived.is_some() {
                s.waived += 1;
                continue;
            }
            if f.baselined {
                s.baselined += 1;
                continue;
            }
            match f.severity {
                Severity::Error => s.error += 1,
                Severity::Warning => s.warning += 1,
                Severity::Info => s.info += 1,
            }
        }
        s
    }
}

/// `file:line:column` of a finding, or `-`.
/// Each finding's identity in one report: its fingerprint, which holds no
/// line number, so a tool that compares reports (GitHub code scanning's
/// `primaryLocationLineHash`, GitLab's Code Quality `fingerprint`) tracks
/// it across edits; a second finding with the same fingerprint in the
/// report gets `#2`, and so on, so no two share one.
#[derive(Default)]
pub struct Identities(std::collections::HashMap<String, u32>);

impl Identities {
    pub fn next(&mut self, f: &Finding) -> String {
        let fp = f.fingerprint();
        let n = self.0.entry(fp.clone()).or_insert(0);
        *n += 1;
        if *n == 1 { fp } else { format!("{fp}#{n}") }
    }
}

pub fn place(map: &SourceMap, f: &Finding) -> String {
    f.loc.map_or_else(|| "-".to_string(), |l| map.display(l))
}

pub mod catalog;
pub mod draw;
pub mod review;
pub mod review_html;
pub mod review_md;

/// `rules`: every rule with its default severity and one line.
pub fn rules_list(json: bool) -> String {
    use crate::rules::RULES;
    if json {
        #[derive(serde::Serialize)]
        struct R {
            code: &'static str,
            name: &'static str,
            severity: &'static str,
            summary: &'static str,
        }
        let list: Vec<R> = RULES
            .iter()
            .map(|r| R {
                code: r.code,
                name: r.name,
                severity: r.severity.name(),
                summary: r.summary(),
            })
            .collect();
        return serde_json::to_string_pretty(&list).expect("serialises") + "\n";
    }
    let mut t = table::listing(vec!["code", "name", "severity", "summary"]);
    for r in RULES {
        t.add_row(vec![r.code, r.name, r.severity.name(), r.summary()]);
    }
    format!("{t}\n")
}
