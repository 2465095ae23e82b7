//! Baselines (`check --baseline FILE` / `--write-baseline FILE`): the
//! fingerprints of findings accepted once, as a JSON file, so that a run
//! reports only what is new.

use std::collections::BTreeSet;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::PolicyError;
use crate::diagnostics::{Diagnostic, Loc, SourceMap};
use crate::rules::Finding;

/// A baseline: the fingerprints of accepted findings.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Baseline {
    pub version: u32,
    /// Sorted, without repeats ([`Finding::fingerprint`]).
    pub fingerprints: BTreeSet<String>,
}

impl Baseline {
    /// The non-waived findings of a run.
    pub fn of(findings: &[Finding]) -> Baseline {
        Baseline {
            version: 1,
            fingerprints: findings
                .iter()
                .filter(|f| f.waived.is_none())
                .map(Finding::fingerprint)
                .collect(),
        }
    }

    /// Pretty JSON, one fingerprint a line, ending in a newline.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a baseline serialises") + "\n"
    }

    pub fn read(path: &Path) -> Result<Baseline, PolicyError> {
        let name = path.display().to_string();
        let max = crate::manifest::Limits::default().max_file_bytes;
        // Its own help, not the one below for a file that is no baseline.
        crate::files::check_given(path)
            .and_then(|()| crate::files::not_in_git(path))
            .map_err(|d| PolicyError::one(&name, SourceMap::default(), d))?;
        let text = crate::files::read_given(path, max).map_err(|d| {
            PolicyError::one(
                &name,
                SourceMap::default(),
                d.help("create it with `replay-audit check --write-baseline FILE ...`"),
            )
        })?;
        Baseline::parse(&name, &text)
    }

    pub fn parse(name: &str, text: &str) -> Result<Baseline, PolicyError> {
        let mut sources = SourceMap::default();
        let file = sources.add(name.to_string(), crate::files::excerpt(text));
        let b: Baseline = serde_json::from_str(text).map_err(|e| {
            let at = Loc { file, line: e.line() as u32, col: e.column().max(1) as u32 };
            PolicyError::one(
                name,
                sources.clone(),
                Diagnostic::at(at, format!("not a replay-audit baseline: {e}"))
                    .help("a baseline is {\"version\": 1, \"fingerprints\": [...]}; rewrite it with --write-baseline"),
            )
        })?;
        if b.version != 1 {
            return Err(PolicyError::one(
                name,
                sources,
                Diagnostic::new(
                    None,
                    format!(
                        "baseline `{name}` has version {}, this replay-audit reads version 1",
                        b.version
                    ),
                )
                .help("rewrite it with --write-baseline"),
            ));
        }
        Ok(b)
    }

    /// Marks the findings listed here as baselined; returns the entries
    /// that no finding has any more.
    pub fn apply(&self, findings: &mut [Finding]) -> Vec<String> {
        let mut seen = BTreeSet::new();
        for f in findings.iter_mut() {
            // A baseline written before subjects were part of an identity
            // lists the shorter form: it still matches.
            let found = [f.fingerprint(), f.legacy_fingerprint()]
                .into_iter()
                .find(|fp| self.fingerprints.contains(fp));
            if let Some(fp) = found {
                seen.insert(fp);
                if f.waived.is_none() {
                    f.baselined = true;
                }
            }
        }
        self.fingerprints.difference(&seen).cloned().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_baseline_reads_back_what_it_wrote() {
        let b = Baseline {
            version: 1,
            fingerprints: ["RH001:a".to_string(), "RH002:b".to_string()].into(),
        };
        assert_eq!(Baseline::parse("b.json", &b.to_json()).unwrap(), b);
    }

    #[test]
    fn another_version_or_shape_is_refused() {
        let e = Baseline::parse("b.json", "{\"version\": 2, \"fingerprints\": []}").unwrap_err();
        assert_eq!(
            e.diagnostics[0].one_line(&e.sources),
            "error: baseline `b.json` has version 2, this replay-audit reads version 1; help: rewrite it with --write-baseline"
        );
        let e = Baseline::parse("b.json", "{\"fingerprints\": []}").unwrap_err();
        assert!(
            e.diagnostics[0]
                .message
                .starts_with("not a replay-audit baseline: missing field `version`"),
            "{}",
            e.diagnostics[0].message
        );
    }
}
