//! `report --format markdown`: the review checklist as GitHub-flavoured
//! Markdown: a Mermaid drawing (which GitHub draws) of the part each intent
//! reaches, and of the whole architecture.
//!
//! Every string from the manifest goes through the escaping of
//! `check --format markdown`: [`escape`] for free text, [`code`] for an
//! id or place shown as code, [`spans`] for the review's sentences, whose
//! `code spans` quote manifest values. So no manifest text opens a link,
//! an image, a tag or a table cell in the rendered comment.

use std::fmt::Write as _;
use std::io;

use crate::report::draw;
use crate::report::markdown::{code, escape, spans};
use crate::report::review::page::{self, Intent, Page, Parts};
use crate::report::review::{Answer, IntentReview, Review, Status, margin_text, row_verdict};
use crate::rules::required_window;

pub fn status_md(a: &Answer) -> String {
    match a.status {
        Status::Satisfied => "✅ satisfied".to_string(),
        Status::Failing if a.codes.is_empty() => "❌ failing".to_string(),
        Status::Failing => format!("❌ failing ({})", a.codes.join(", ")),
        Status::Assumed => "⚠️ **ASSUMED**".to_string(),
        Status::Unevaluated => format!("⛔ **not evaluated** ({})", a.codes.join(", ")),
    }
}

fn title_case(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or_else(String::new, |f| {
        f.to_uppercase().collect::<String>() + c.as_str()
    })
}

/// How this format writes an intent's parts.
pub const PARTS: Parts = Parts {
    section: intent,
    plan,
};

/// The page as one string (for tests and small reviews; the command
/// writes it with [`render_to`]).
pub fn render<I: Intent>(r: &Review<I>) -> String {
    page::string(|p| write_page(p, r))
}

/// Writes the page into `out` as it is made; the first failed write ends
/// it. A review built with [`PARTS`] ([`crate::report::review::build_written`])
/// has its intents' parts written already.
pub fn render_to<I: Intent>(r: &Review<I>, out: &mut dyn io::Write) -> io::Result<()> {
    page::write_to(out, |p| write_page(p, r))
}

fn write_page<I: Intent>(s: &mut Page<'_>, r: &Review<I>) -> io::Result<()> {
    header(s, r);
    s.spill()?;
    for i in &r.intents {
        i.section(s, PARTS);
        s.spill()?;
    }
    horizons(s, r)?;
    assumptions(s, r)?;
    findings(s, r)?;
    test_plan(s, r)
}

/// The title, the counts, the legend and the graph.
fn header<I: Intent>(s: &mut Page<'_>, r: &Review<I>) {
    let _ = writeln!(s, "# Idempotency review: {}\n", escape(&r.title));
    let files: Vec<String> = r.files.iter().map(|f| code(f)).collect();
    let _ = writeln!(s, "Manifest: {}  ", files.join(", "));
    let _ = writeln!(s, "Findings: {}.  ", r.summary.line());
    let count = |st: Status| r.intents.iter().map(|i| i.count(st)).sum::<usize>();
    let unevaluated = match count(Status::Unevaluated) {
        0 => String::new(),
        n => format!(", {n} **not evaluated**"),
    };
    let _ = writeln!(
        s,
        "Checklist: {} satisfied, {} failing, {} **ASSUMED**{unevaluated}.\n",
        count(Status::Satisfied),
        count(Status::Failing),
        count(Status::Assumed)
    );
    s.push_str(
        "Each question is answered from the manifest. **failing** means a finding contradicts the answer (its codes are given); \
**ASSUMED** means the manifest does not say, or the answer rests on a declared assumption or a guessed value: \
a guarantee that rests on \"we assume\" is not finished.\n\n",
    );

    s.push_str("## Graph\n\nThe whole architecture. Red nodes carry findings (codes in the label); thick red edges are the worst paths of the errors.\n\n```mermaid\n");
    s.push_str(&draw::mermaid(&r.graph));
    s.push_str("```\n\n");
}

/// The part of the architecture an intent reaches, its worst path
/// emphasised (as the HTML review draws it).
fn intent_graph(s: &mut Page<'_>, i: &IntentReview) {
    let worst = if i.graph.errors {
        "thick red edges are the worst path of each error"
    } else {
        "thick edges are the path to the effect a copy reaches latest"
    };
    let _ = writeln!(
        s,
        "What copies of {} reach; {worst}.\n\n```mermaid",
        code(&i.id)
    );
    s.push_str(&draw::mermaid(&i.graph.view));
    s.push_str("```\n\n");
}

/// One intent: its drawing, its checklist table, then each answer with
/// its evidence.
fn intent(s: &mut Page<'_>, i: &IntentReview) {
    let _ = writeln!(s, "## Intent {}\n", code(&i.id));
    if let Some(d) = &i.description {
        let _ = writeln!(s, "{}  ", escape(d));
    }
    let effects: Vec<String> = i.effects.iter().map(|e| code(e)).collect();
    let _ = writeln!(
        s,
        "Origin {}, effect {}; declared at {}.\n",
        code(&i.origin),
        effects.join(", "),
        code(&i.at)
    );
    if let Some(why) = &i.unevaluated {
        let _ = writeln!(s, "**{}**\n", spans(why));
    }
    intent_graph(s, i);
    s.push_str("| # | Question | Status |\n|---|---|---|\n");
    for a in &i.answers {
        let _ = writeln!(
            s,
            "| {} | {}: {} | {} |",
            a.number,
            title_case(a.topic),
            spans(a.question),
            status_md(a)
        );
    }
    s.push('\n');
    for a in &i.answers {
        let _ = writeln!(
            s,
            "### {}. {} — {}\n",
            a.number,
            title_case(a.topic),
            status_md(a)
        );
        let _ = writeln!(s, "_{}_\n", spans(a.question));
        let _ = writeln!(s, "{}\n", spans(&a.answer));
        for e in &a.evidence {
            match &e.at {
                Some(at) => {
                    let _ = writeln!(s, "- {} ({})", spans(&e.text), code(at));
                }
                None => {
                    let _ = writeln!(s, "- {}", spans(&e.text));
                }
            }
        }
        for x in &a.assumptions {
            let _ = writeln!(s, "- **ASSUMED:** {}", spans(x));
        }
        if !a.evidence.is_empty() || !a.assumptions.is_empty() {
            s.push('\n');
        }
    }
}

/// The horizon table.
fn horizons<I: Intent>(s: &mut Page<'_>, r: &Review<I>) -> io::Result<()> {
    s.push_str("## Horizons\n\n");
    if r.horizons.is_empty() {
        s.push_str("No guard, store or effect is reached.\n\n");
    } else {
        s.push_str("| Intent | Component | Role | Horizon | Latest copy to stop, after first sighting | Window | Minimum safe retention | Margin | Verdict |\n|---|---|---|---|---|---|---|---|---|\n");
        for row in &r.horizons {
            let verdict = row_verdict(row);
            let verdict = if verdict == crate::report::horizon::TOO_SOON {
                "**expires too soon**".to_string()
            } else {
                verdict.to_string()
            };
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} | {} | {} | {} | {verdict} |",
                code(&row.intent),
                code(&row.node),
                row.role,
                row.horizon,
                row.span.map_or_else(|| "-".to_string(), |s| s.to_string()),
                row.window
                    .map_or_else(|| "none".to_string(), |w| w.to_string()),
                required_window(row.needs()),
                margin_text(row),
            );
            s.spill()?;
        }
        s.push('\n');
    }
    Ok(())
}

/// The operational assumptions the verdicts rest on.
fn assumptions<I: Intent>(s: &mut Page<'_>, r: &Review<I>) -> io::Result<()> {
    s.push_str("## Operational assumptions\n\n");
    if r.assumptions.is_empty() {
        s.push_str("None: no verdict rests on a declared bound or a guessed value.\n\n");
    } else {
        s.push_str("| Source | Assumption | Where | Intents |\n|---|---|---|---|\n");
        for x in &r.assumptions {
            let intents: Vec<String> = x.intents.iter().map(|i| code(i)).collect();
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} |",
                if x.source == "declared" {
                    "declared"
                } else {
                    "**assumed value**"
                },
                spans(&x.text),
                x.at.as_deref().map_or_else(|| "-".to_string(), code),
                if intents.is_empty() {
                    "-".to_string()
                } else {
                    intents.join(", ")
                }
            );
            s.spill()?;
        }
        s.push('\n');
    }
    Ok(())
}

/// Every finding, waived ones marked.
fn findings<I: Intent>(s: &mut Page<'_>, r: &Review<I>) -> io::Result<()> {
    s.push_str("## Findings\n\n");
    if r.findings.is_empty() {
        s.push_str("No findings.\n\n");
    }
    for f in &r.findings {
        let mut scope = Vec::new();
        if let Some(i) = &f.intent {
            scope.push(format!("intent {}", code(i)));
        }
        if let Some(c) = &f.component {
            scope.push(format!("component {}", code(c)));
        }
        scope.push(code(&f.at));
        let accepted = f
            .waived
            .as_ref()
            .map_or_else(String::new, |w| format!("*({})* ", escape(w)));
        let _ = writeln!(
            s,
            "- {accepted}**{}** {} {} — {}  ",
            f.severity.name(),
            f.code,
            f.name,
            scope.join(", ")
        );
        let _ = writeln!(s, "  {}", spans(&f.message));
        if !f.path.is_empty() {
            let path: Vec<String> = f.path.iter().map(|p| code(p)).collect();
            let _ = writeln!(s, "  \n  path: {}", path.join(" → "));
        }
        if !f.assumptions.is_empty() {
            let _ = writeln!(s, "  \n  rests on: {}", spans(&f.assumptions.join("; ")));
        }
        s.spill()?;
    }
    if !r.findings.is_empty() {
        s.push('\n');
    }
    Ok(())
}

/// An intent's entry in the failure-injection test plan.
fn plan(s: &mut Page<'_>, i: &IntentReview) {
    let _ = writeln!(s, "### {}\n", code(&i.id));
    if i.experiments.is_empty() {
        s.push_str("No failure injection applies.\n\n");
        return;
    }
    for e in &i.experiments {
        let _ = writeln!(
            s,
            "- [{}] **{}** ({}): {}",
            if e.covered { "x" } else { " " },
            escape(e.name),
            if e.covered { "covered" } else { "missing" },
            spans(&e.text)
        );
    }
    s.push('\n');
}

/// The failure-injection test plan per intent.
fn test_plan<I: Intent>(s: &mut Page<'_>, r: &Review<I>) -> io::Result<()> {
    s.push_str("## Failure-injection test plan\n\n");
    s.push_str("Only the experiments that apply to each intent's graph; checked ones are named in the intent's `tested` list.\n\n");
    for i in &r.intents {
        i.plan(s, PARTS);
        s.spill()?;
    }
    Ok(())
}
