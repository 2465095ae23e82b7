//! `diff`: what a change does to the replay horizons. The same question
//! `what-if` asks of one architecture and a changed copy, asked of two
//! versions of the files (a git revision or a folder, and the working
//! tree): findings matched by identity ([`crate::whatif::compare`]), and
//! per intent the layers whose horizon, window or verdict moved and the
//! minimum safe retentions that changed.
//!
//! - this module: the comparison ([`Diff`]), linear in the rows and
//!   findings of both sides (rows are matched through a map by key);
//! - `git`: the files at a revision;
//! - `render`: table, Markdown (a pull-request comment) and JSON.

pub mod git;
pub mod render;

pub use render::{Context, render_json, render_markdown, render_table};

use std::collections::{BTreeMap, HashMap};

use crate::engine::Checked;
use crate::report::horizon::{self, Row};
use crate::rules::{Finding, Severity};
use crate::time::Dur;
use crate::whatif::{self, RequiredRow};

/// What changed, by intent (findings without an intent under `None`).
#[derive(Debug, Default)]
pub struct Diff {
    pub intents: BTreeMap<Option<String>, IntentDiff>,
}

/// The changes of one intent.
#[derive(Debug, Default)]
pub struct IntentDiff {
    pub introduced: Vec<Finding>,
    pub resolved: Vec<Finding>,
    pub moved: Vec<Moved>,
    pub retentions: Vec<Retention>,
}

/// A layer (a row of `horizon`) whose horizon, window or verdict moved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Moved {
    pub node: String,
    pub role: &'static str,
    /// `None`: the layer is not on the intent's paths in that version.
    pub horizon: (Option<Dur>, Option<Dur>),
    pub window: (Option<Dur>, Option<Dur>),
    pub verdict: (Option<&'static str>, Option<&'static str>),
    /// The first component of the new worst path that the old one did not
    /// pass through.
    pub via: Option<String>,
}

/// A dedup layer whose minimum safe retention changed (`None`: unbounded,
/// or the layer is absent in that version).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Retention {
    pub component: String,
    pub layer: &'static str,
    pub at: String,
    pub before: Option<u64>,
    pub after: Option<u64>,
}

impl Diff {
    /// Compares the base and the current version, both checked.
    pub fn of(base: &Checked, head: &Checked) -> Diff {
        let mut d = Diff::default();
        let delta = whatif::compare(&base.findings, &head.findings);
        for f in delta.introduced {
            d.intent(f.intent.as_deref()).introduced.push(f);
        }
        for f in delta.resolved {
            d.intent(f.intent.as_deref()).resolved.push(f);
        }
        let rows = |c: &Checked| horizon::rows(&c.analysis, None, None);
        for (intent, m) in moved(rows(base), rows(head)) {
            d.intent(Some(&intent)).moved.push(m);
        }
        let req = |c: &Checked| whatif::required(&c.analysis, None, None);
        for (intent, r) in retentions(req(base), req(head)) {
            d.intent(Some(&intent)).retentions.push(r);
        }
        d
    }

    fn intent(&mut self, id: Option<&str>) -> &mut IntentDiff {
        self.intents.entry(id.map(str::to_string)).or_default()
    }

    /// Whether the change introduces an active finding at or above
    /// `threshold` (what fails the run).
    pub fn fails(&self, threshold: Severity) -> bool {
        self.introduced().any(|f| f.fails(threshold))
    }

    pub fn introduced(&self) -> impl Iterator<Item = &Finding> {
        self.intents.values().flat_map(|i| &i.introduced)
    }

    pub fn resolved(&self) -> impl Iterator<Item = &Finding> {
        self.intents.values().flat_map(|i| &i.resolved)
    }
}

/// The layers that moved, by intent, in the current version's order (then
/// the layers only the base has).
fn moved(base: Vec<Row>, head: Vec<Row>) -> Vec<(String, Moved)> {
    let key = |r: &Row| (r.intent.clone(), r.node.clone(), r.role);
    let mut old: HashMap<_, Row> = base.into_iter().map(|r| (key(&r), r)).collect();
    let mut out = Vec::new();
    for r in head {
        let b = old.remove(&key(&r));
        let m = Moved {
            node: r.node.clone(),
            role: r.role,
            horizon: (b.as_ref().map(|b| b.horizon), Some(r.horizon)),
            window: (b.as_ref().and_then(|b| b.window), r.window),
            verdict: (b.as_ref().map(Row::verdict), Some(r.verdict())),
            via: b
                .as_ref()
                .and_then(|b| r.path.iter().find(|id| !b.path.contains(id)).cloned()),
        };
        if m.horizon.0 != m.horizon.1 || m.window.0 != m.window.1 || m.verdict.0 != m.verdict.1 {
            out.push((r.intent, m));
        }
    }
    let mut gone: Vec<Row> = old.into_values().collect();
    gone.sort_by(|a, b| key(a).cmp(&key(b)));
    out.extend(gone.into_iter().map(|b| {
        let m = Moved {
            node: b.node.clone(),
            role: b.role,
            horizon: (Some(b.horizon), None),
            window: (b.window, None),
            verdict: (Some(b.verdict()), None),
            via: None,
        };
        (b.intent, m)
    }));
    out
}

/// The dedup layers whose minimum safe retention changed, by intent.
fn retentions(base: Vec<RequiredRow>, head: Vec<RequiredRow>) -> Vec<(String, Retention)> {
    let key = |r: &RequiredRow| (r.intent.clone(), r.component.clone(), r.layer, r.at.clone());
    let mut old: HashMap<_, RequiredRow> = base.into_iter().map(|r| (key(&r), r)).collect();
    let mut out = Vec::new();
    let mut push = |k: (String, String, &'static str, String), before, after| {
        if before != after {
            let (intent, component, layer, at) = k;
            out.push((
                intent,
                Retention {
                    component,
                    layer,
                    at,
                    before,
                    after,
                },
            ));
        }
    };
    for r in head {
        let k = key(&r);
        let before = old.remove(&k).map(|b| b.required_retention_seconds);
        push(k, before.flatten(), r.required_retention_seconds);
    }
    let mut gone: Vec<_> = old.into_iter().collect();
    gone.sort_by(|a, b| a.0.cmp(&b.0));
    for (k, b) in gone {
        push(k, b.required_retention_seconds, None);
    }
    out
}
