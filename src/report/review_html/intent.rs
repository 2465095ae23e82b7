//! One intent's parts of the HTML review: its section (what it reaches,
//! the checklist and each answer) and its entry in the test plan.

use std::fmt::{self, Write as _};

use super::{Codes, Esc, LEGEND, anchor};
use crate::report::draw::{self, text::Xml};
use crate::report::review::page::Page;
use crate::report::review::{Answer, IntentReview, Status};

/// The status of an answer as a badge, written where it is formatted.
struct Badge<'a>(&'a Answer);

impl fmt::Display for Badge<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let a = self.0;
        let (head, codes) = match a.status {
            Status::Satisfied => ("<span class=\"badge satisfied\">✓ satisfied", false),
            Status::Failing if a.codes.is_empty() => {
                ("<span class=\"badge failing\">✗ failing", false)
            }
            Status::Failing => ("<span class=\"badge failing\">✗ failing: ", true),
            Status::Assumed => ("<span class=\"badge assumed\">⚠ ASSUMED", false),
            // Styled as failing: a broken model is no better than a failure.
            Status::Unevaluated => ("<span class=\"badge failing\">⛔ not evaluated: ", true),
        };
        f.write_str(head)?;
        if codes {
            for (k, c) in a.codes.iter().enumerate() {
                if k > 0 {
                    f.write_str(", ")?;
                }
                f.write_str(c)?;
            }
        }
        f.write_str("</span>")
    }
}

fn class(s: Status) -> &'static str {
    match s {
        Status::Satisfied => "satisfied",
        Status::Failing | Status::Unevaluated => "failing",
        Status::Assumed => "assumed",
    }
}

/// The first letter in upper case, written where it is formatted.
struct Title<'a>(&'a str);

impl fmt::Display for Title<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut c = self.0.chars();
        match c.next() {
            Some(first) => {
                for u in first.to_uppercase() {
                    f.write_char(u)?;
                }
                f.write_str(c.as_str())
            }
            None => Ok(()),
        }
    }
}

/// The part of the architecture an intent reaches, at its natural size.
fn intent_graph(s: &mut Page<'_>, i: &IntentReview) {
    let (class, worst) = if i.graph.errors {
        ("", "Thick red edges: the worst path of each error.")
    } else {
        (
            " class=\"calm\"",
            "Thick edges: the path to the effect a copy reaches latest.",
        )
    };
    let _ = writeln!(s, "<figure{class}>");
    draw::svg_into(
        &mut s.text,
        &i.graph.view,
        &format!("What intent {} reaches", i.id),
        &format!("intent-{}-", anchor(&i.id)),
    );
    let _ = writeln!(
        s,
        "<figcaption>The components copies of <code>{}</code> reach. {LEGEND} {worst}</figcaption></figure>",
        Xml(&i.id)
    );
}

/// An intent's section: what it reaches, its checklist, then each answer.
pub(super) fn section(s: &mut Page<'_>, i: &IntentReview) {
    let anchor = anchor(&i.id);
    let _ = writeln!(
        s,
        "<section class=\"intent\" id=\"intent-{}\">\n<h2>Intent <code>{}</code></h2>",
        anchor,
        Xml(&i.id)
    );
    if let Some(d) = &i.description {
        let _ = writeln!(s, "<p>{}</p>", Xml(d));
    }
    let _ = writeln!(
        s,
        "<p class=\"muted\">Origin <code>{}</code>, effect {}; declared at <span class=\"loc\">{}</span>.</p>",
        Xml(&i.origin),
        Codes(&i.effects, ", "),
        Xml(&i.at)
    );
    intent_graph(s, i);
    if let Some(why) = &i.unevaluated {
        let _ = writeln!(s, "<p><strong>{}</strong></p>", Esc(why));
    }
    s.push_str("<table class=\"checklist\"><thead><tr><th>#</th><th>Question</th><th>Status</th></tr></thead><tbody>\n");
    for a in &i.answers {
        let _ = writeln!(
            s,
            "<tr><td>{}</td><td><a href=\"#{}-q{}\">{}</a>: {}</td><td>{}</td></tr>",
            a.number,
            anchor,
            a.number,
            Title(a.topic),
            Xml(a.question),
            Badge(a)
        );
    }
    s.push_str("</tbody></table>\n");
    for a in &i.answers {
        let _ = writeln!(
            s,
            "<div class=\"answer {}\" id=\"{}-q{}\">",
            class(a.status),
            anchor,
            a.number
        );
        let _ = writeln!(s, "<h3>{}. {} {}</h3>", a.number, Title(a.topic), Badge(a));
        let _ = writeln!(
            s,
            "<p class=\"q\">{}</p>\n<p>{}</p>",
            Xml(a.question),
            Esc(&a.answer)
        );
        if !a.evidence.is_empty() || !a.assumptions.is_empty() {
            s.push_str("<ul>");
            for e in &a.evidence {
                let _ = write!(s, "<li>{}", Esc(&e.text));
                if let Some(at) = &e.at {
                    let _ = write!(s, " <span class=\"loc\">{}</span>", Xml(at));
                }
                s.push_str("</li>");
            }
            for x in &a.assumptions {
                let _ = write!(
                    s,
                    "<li><span class=\"assumption\">ASSUMED:</span> <strong>{}</strong></li>",
                    Esc(x)
                );
            }
            s.push_str("</ul>\n");
        }
        s.push_str("</div>\n");
    }
    s.push_str("</section>\n");
}

/// An intent's entry in the failure-injection test plan.
pub(super) fn plan(s: &mut Page<'_>, i: &IntentReview) {
    let _ = writeln!(s, "<h3>Intent <code>{}</code></h3>", Xml(&i.id));
    if i.experiments.is_empty() {
        s.push_str("<p>No failure injection applies.</p>\n");
        return;
    }
    s.push_str("<ul class=\"plan\">\n");
    for e in &i.experiments {
        let mark = if e.covered {
            "<span class=\"covered\">✓ covered</span>"
        } else {
            "<span class=\"missing\">✗ missing</span>"
        };
        let _ = writeln!(
            s,
            "<li>{mark} <strong>{}</strong>: {}</li>",
            e.name,
            Esc(&e.text)
        );
    }
    s.push_str("</ul>\n");
}
