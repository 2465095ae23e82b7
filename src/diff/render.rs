//! `diff` in its three formats: a table for a terminal, Markdown for a
//! pull-request comment, JSON (cli-json.md). Every manifest string is made
//! inert (table) or escaped (Markdown) before it is shown.

use serde::Serialize;

use super::{Diff, IntentDiff, Moved, Retention};
use crate::diagnostics::{SourceMap, echo};
use crate::report::json::JsonFinding;
use crate::report::markdown::escape;
use crate::rules::{Finding, Severity};
use crate::time::Dur;

/// What every format shows besides the diff itself.
pub struct Context<'a> {
    /// What the change is compared with (`REV` or the folder).
    pub base: &'a str,
    /// The policy line ([`crate::policy::Notes::policy_line`]).
    pub policy: Option<&'a str>,
    pub threshold: Severity,
    /// Where the findings of the base and of the current version stand.
    pub base_sources: &'a SourceMap,
    pub head_sources: &'a SourceMap,
}

fn dur(d: Option<Dur>) -> String {
    d.map_or_else(|| "none".to_string(), |d| d.to_string())
}

fn secs(d: Option<Dur>) -> Option<u64> {
    d.and_then(Dur::as_secs_ceil)
}

fn retention(s: Option<u64>) -> String {
    s.map_or_else(
        || "unbounded or none".to_string(),
        |s| Dur::secs(s).to_string(),
    )
}

/// One moved layer in words: "horizon 4d → 14d via payout-dlq; window 7d:
/// now expires too soon".
fn moved_text(m: &Moved) -> String {
    let pair = |(a, b): (Option<Dur>, Option<Dur>)| {
        if a == b {
            dur(b)
        } else {
            format!("{} → {}", dur(a), dur(b))
        }
    };
    let mut s = format!("horizon {}", pair(m.horizon));
    if let Some(v) = &m.via {
        s.push_str(&format!(" via {v}"));
    }
    s.push_str(&format!("; window {}", pair(m.window)));
    match m.verdict {
        (Some(_), None) => s.push_str(": no longer on the intent's paths"),
        (None, Some(v)) => s.push_str(&format!(": new layer, {v}")),
        (a, b) if a != b => s.push_str(&format!(": now {}", b.unwrap_or_default())),
        _ => {}
    }
    s
}

fn retention_text(r: &Retention) -> String {
    format!("{} → {}", retention(r.before), retention(r.after))
}

fn intent_title(id: &Option<String>) -> String {
    id.as_ref().map_or_else(
        || "architecture-wide".to_string(),
        |i| format!("intent {i}"),
    )
}

fn finding_text(f: &Finding) -> String {
    format!(
        "{} {} {} — {}{}",
        f.severity.name(),
        f.rule.code,
        f.rule.name,
        f.scope(),
        if f.is_active() { "" } else { " (accepted)" }
    )
}

pub(crate) fn summary(d: &Diff, c: &Context) -> String {
    let failing = d.introduced().filter(|f| f.fails(c.threshold)).count();
    format!(
        "{} introduced ({failing} failing at {}), {} resolved",
        d.introduced().count(),
        c.threshold.name(),
        d.resolved().count()
    )
}

/// `diff --format table`.
pub fn render_table(d: &Diff, c: &Context) -> String {
    let mut s = format!("diff against {}\n", echo(c.base));
    s.push_str(&table_intents(d));
    s.push_str(&summary(d, c));
    s.push('\n');
    if let Some(p) = c.policy {
        s.push_str(&format!("{}\n", echo(p)));
    }
    s
}

/// The intents' changes as table lines (also `drift`'s).
pub(crate) fn table_intents(d: &Diff) -> String {
    let mut s = String::new();
    if d.intents.is_empty() {
        s.push_str("no finding, horizon, window or minimum retention changed\n");
    }
    for (id, i) in &d.intents {
        s.push_str(&format!("{}\n", echo(&intent_title(id))));
        let mut line =
            |what: &str, text: String| s.push_str(&format!("  {what:<11} {}\n", echo(&text)));
        for (what, list) in [("introduced", &i.introduced), ("resolved", &i.resolved)] {
            for f in list {
                line(what, finding_text(f));
                line("", f.message.clone());
            }
        }
        for m in &i.moved {
            line(
                "layer",
                format!("{} ({}): {}", m.node, m.role, moved_text(m)),
            );
        }
        for r in &i.retentions {
            line(
                "retention",
                format!(
                    "{} ({} at {}): {}",
                    r.component,
                    r.layer,
                    r.at,
                    retention_text(r)
                ),
            );
        }
    }
    s
}

/// `diff --format markdown`: a pull-request comment.
pub fn render_markdown(d: &Diff, c: &Context) -> String {
    let mut s = format!(
        "### replay-audit: what this change does to the replay horizons\n\nCompared with `{}`: {}.\n",
        escape(c.base),
        summary(d, c)
    );
    s.push_str(&markdown_intents(d));
    if let Some(p) = c.policy {
        s.push_str(&format!("\n<sub>{}</sub>\n", escape(p)));
    }
    s
}

/// The intents' changes as Markdown sections (also `drift`'s).
pub(crate) fn markdown_intents(d: &Diff) -> String {
    let mut s = String::new();
    for (id, i) in &d.intents {
        s.push_str(&format!("\n#### {}\n\n", escape(&intent_title(id))));
        for (what, list) in [("introduced", &i.introduced), ("resolved", &i.resolved)] {
            for f in list {
                s.push_str(&format!(
                    "- **{what}** {}: {}\n",
                    escape(&finding_text(f)),
                    escape(&f.message)
                ));
            }
        }
        for m in &i.moved {
            s.push_str(&format!(
                "- **{}** ({}): {}\n",
                escape(&m.node),
                m.role,
                escape(&moved_text(m))
            ));
        }
        for r in &i.retentions {
            s.push_str(&format!(
                "- minimum retention of **{}** ({} at {}): {}\n",
                escape(&r.component),
                r.layer,
                escape(&r.at),
                retention_text(r)
            ));
        }
    }
    s
}

#[derive(Serialize)]
struct JsonMoved<'a> {
    node: &'a str,
    role: &'static str,
    before_horizon_seconds: Option<u64>,
    after_horizon_seconds: Option<u64>,
    before_window_seconds: Option<u64>,
    after_window_seconds: Option<u64>,
    before_verdict: Option<&'static str>,
    after_verdict: Option<&'static str>,
    via: Option<&'a str>,
}

#[derive(Serialize)]
struct JsonRetention<'a> {
    component: &'a str,
    layer: &'static str,
    at: &'a str,
    before_seconds: Option<u64>,
    after_seconds: Option<u64>,
}

#[derive(Serialize)]
pub(crate) struct JsonIntent<'a> {
    intent: Option<&'a str>,
    introduced: Vec<JsonFinding>,
    resolved: Vec<JsonFinding>,
    layers: Vec<JsonMoved<'a>>,
    retentions: Vec<JsonRetention<'a>>,
}

pub(crate) fn json_intent<'a>(
    id: &'a Option<String>,
    i: &'a IntentDiff,
    c: &Context,
) -> JsonIntent<'a> {
    JsonIntent {
        intent: id.as_deref(),
        introduced: i
            .introduced
            .iter()
            .map(|f| JsonFinding::from(c.head_sources, f))
            .collect(),
        resolved: i
            .resolved
            .iter()
            .map(|f| JsonFinding::from(c.base_sources, f))
            .collect(),
        layers: i
            .moved
            .iter()
            .map(|m| JsonMoved {
                node: &m.node,
                role: m.role,
                before_horizon_seconds: secs(m.horizon.0),
                after_horizon_seconds: secs(m.horizon.1),
                before_window_seconds: secs(m.window.0),
                after_window_seconds: secs(m.window.1),
                before_verdict: m.verdict.0,
                after_verdict: m.verdict.1,
                via: m.via.as_deref(),
            })
            .collect(),
        retentions: i
            .retentions
            .iter()
            .map(|r| JsonRetention {
                component: &r.component,
                layer: r.layer,
                at: &r.at,
                before_seconds: r.before,
                after_seconds: r.after,
            })
            .collect(),
    }
}

/// `diff --format json` (cli-json.md).
pub fn render_json(d: &Diff, c: &Context, policy_file: Option<&str>) -> String {
    #[derive(Serialize)]
    struct Out<'a> {
        version: u32,
        base: &'a str,
        policy: Option<&'a str>,
        intents: Vec<JsonIntent<'a>>,
        introduced: usize,
        resolved: usize,
        failing: usize,
    }
    let out = Out {
        version: 1,
        base: c.base,
        policy: policy_file,
        intents: d
            .intents
            .iter()
            .map(|(id, i)| json_intent(id, i, c))
            .collect(),
        introduced: d.introduced().count(),
        resolved: d.resolved().count(),
        failing: d.introduced().filter(|f| f.fails(c.threshold)).count(),
    };
    serde_json::to_string_pretty(&out).expect("serialises") + "\n"
}
