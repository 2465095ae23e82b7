//! Findings before and after a change: matched by identity ([`compare`])
//! into resolved, introduced and unchanged, and the `what-if` output in
//! text and JSON.

use std::collections::HashMap;

use serde::Serialize;

use super::{Change, render_changes};
use crate::diagnostics::SourceMap;
use crate::report::json::JsonFinding;
use crate::rules::{Finding, Severity};
use crate::time::Dur;

/// Findings before and after a change, matched by identity.
#[derive(Debug, Clone, Default)]
pub struct Delta {
    pub resolved: Vec<Finding>,
    pub introduced: Vec<Finding>,
    /// (before, after)
    pub unchanged: Vec<(Finding, Finding)>,
}

/// Matches findings by `Finding::fingerprint()` (code, intent, component):
/// first with the same message, then with the same path, then any, so a
/// finding whose numbers changed is the same finding.
pub fn compare(old: &[Finding], new: &[Finding]) -> Delta {
    let mut taken = vec![false; new.len()];
    let mut matched: Vec<Option<usize>> = vec![None; old.len()];
    type Same = dyn Fn(&Finding, &Finding) -> bool;
    let passes: [&Same; 3] = [
        &|a, b| a.message == b.message,
        &|a, b| a.path == b.path,
        &|_, _| true,
    ];
    // New findings by fingerprint, so matching stays linear on large
    // architectures (thousands of findings).
    let mut by_fp: HashMap<String, Vec<usize>> = HashMap::new();
    for (j, f) in new.iter().enumerate() {
        by_fp.entry(f.fingerprint()).or_default().push(j);
    }
    let old_fp: Vec<String> = old.iter().map(Finding::fingerprint).collect();
    for same in passes {
        for (i, o) in old.iter().enumerate() {
            if matched[i].is_some() {
                continue;
            }
            let Some(cands) = by_fp.get(&old_fp[i]) else {
                continue;
            };
            if let Some(&j) = cands.iter().find(|&&j| !taken[j] && same(o, &new[j])) {
                taken[j] = true;
                matched[i] = Some(j);
            }
        }
    }
    let mut d = Delta::default();
    let mut back = vec![None; new.len()];
    for (i, m) in matched.iter().enumerate() {
        match m {
            Some(j) => back[*j] = Some(i),
            None => d.resolved.push(old[i].clone()),
        }
    }
    for (j, f) in new.iter().enumerate() {
        match back[j] {
            Some(i) => d.unchanged.push((old[i].clone(), f.clone())),
            None => d.introduced.push(f.clone()),
        }
    }
    d
}

impl Delta {
    /// Whether any finding that remains is at or above `threshold`.
    pub fn fails(&self, threshold: Severity) -> bool {
        self.introduced
            .iter()
            .chain(self.unchanged.iter().map(|(_, n)| n))
            .any(|f| f.fails(threshold))
    }
}

/// A duration, or `none` where there is none.
pub fn dur(d: Option<Dur>) -> String {
    d.map_or_else(|| "none".to_string(), |d| d.to_string())
}

fn finding_line(f: &Finding) -> String {
    format!(
        "{:<7} {} {} — {}{}",
        f.severity.name(),
        f.rule.code,
        f.rule.name,
        f.scope(),
        f.waived
            .as_ref()
            .map_or(String::new(), |w| format!(" ({})", w.word()))
    )
}

fn numbers(before: Option<&Finding>, f: &Finding) -> String {
    let pair = |a: Option<Dur>, b: Option<Dur>| {
        if a == b {
            dur(b)
        } else {
            format!("{} → {}", dur(a), dur(b))
        }
    };
    if f.horizon.is_none()
        && f.window.is_none()
        && before.is_none_or(|b| b.horizon.is_none() && b.window.is_none())
    {
        return String::new();
    }
    match before {
        Some(b) => format!(
            "\n          horizon {}, window {}",
            pair(b.horizon, f.horizon),
            pair(b.window, f.window)
        ),
        None => format!(
            "\n          horizon {}, window {}",
            dur(f.horizon),
            dur(f.window)
        ),
    }
}

/// `what-if` as text: changes, then resolved, introduced and unchanged findings.
pub fn render_text(changes: &[Change], d: &Delta) -> String {
    let mut s = format!("changes:\n{}", render_changes(changes));
    let mut section = |title: &str, items: Vec<(Option<&Finding>, &Finding)>| {
        if items.is_empty() {
            s.push_str(&format!("{title}: none\n"));
            return;
        }
        s.push_str(&format!("{title} ({}):\n", items.len()));
        for (before, f) in items {
            s.push_str(&format!(
                "  {}{}\n          {}\n",
                crate::diagnostics::echo(&finding_line(f)),
                numbers(before, f),
                crate::diagnostics::echo(&f.message)
            ));
        }
    };
    section("resolved", d.resolved.iter().map(|f| (None, f)).collect());
    section(
        "introduced",
        d.introduced.iter().map(|f| (None, f)).collect(),
    );
    section(
        "unchanged",
        d.unchanged.iter().map(|(b, f)| (Some(b), f)).collect(),
    );
    s
}

#[derive(Debug, Serialize)]
struct JsonUnchanged {
    #[serde(flatten)]
    finding: JsonFinding,
    /// The numbers before the change (the finding shows those after it).
    previous_horizon_seconds: Option<u64>,
    previous_window_seconds: Option<u64>,
}

/// `what-if --format json` (cli.md). Resolved findings are located in the
/// files before the change, the others after it.
pub fn render_json(before: &SourceMap, after: &SourceMap, changes: &[Change], d: &Delta) -> String {
    #[derive(Serialize)]
    struct Out<'a> {
        version: u32,
        changes: &'a [Change],
        resolved: Vec<JsonFinding>,
        introduced: Vec<JsonFinding>,
        unchanged: Vec<JsonUnchanged>,
    }
    let out = Out {
        version: 1,
        changes,
        resolved: d
            .resolved
            .iter()
            .map(|f| JsonFinding::from(before, f))
            .collect(),
        introduced: d
            .introduced
            .iter()
            .map(|f| JsonFinding::from(after, f))
            .collect(),
        unchanged: d
            .unchanged
            .iter()
            .map(|(b, f)| JsonUnchanged {
                finding: JsonFinding::from(after, f),
                previous_horizon_seconds: b.horizon.and_then(Dur::as_secs_ceil),
                previous_window_seconds: b.window.and_then(Dur::as_secs_ceil),
            })
            .collect(),
    };
    serde_json::to_string_pretty(&out).expect("serialises") + "\n"
}
