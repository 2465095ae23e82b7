//! `--format markdown`: a pull-request comment. A summary line, a table of
//! findings, and a collapsible `<details>` per finding with its worst path
//! and the assumptions it rests on.
//!
//! Every string that comes from a manifest (ids, messages, paths, file
//! names) goes through [`escape`]: a PR comment is rendered as GitHub
//! Flavored Markdown with inline HTML, so an id must not be able to open a
//! tag, a code span, a link or a table cell.

use crate::diagnostics::Diagnostic;
use crate::report::each::{Arch, Part};
use crate::report::format::Each;
use crate::report::root::Root;
use std::io::{self, Write};

use crate::diagnostics::SourceMap;
use crate::manifest::Manifest;
use crate::report::format::{CheckRun, Format};
use crate::report::{Summary, place, related};
use crate::rules::Finding;

/// Escapes text for a table cell or a line of GitHub Markdown: HTML-special
/// characters become entities, inline-syntax characters get a backslash,
/// and line breaks become `<br>` so a cell stays on its row.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\r' => {
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
                out.push_str("<br>");
            }
            '\n' => out.push_str("<br>"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '|' | '~' | '#' | '!' | '$' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push(' '),
            // Bidirectional overrides could reorder what a reviewer reads.
            '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => out.push('\u{fffd}'),
            // `@org/team` in a comment would notify the team: a zero-width
            // joiner after `@` keeps the text and breaks the mention.
            '@' => out.push_str("@\u{200d}"),
            // A bare URL (`https://…`, `www.…`) would become a live link:
            // a zero-width joiner after the scheme's colon or `www` breaks
            // the autolink and keeps the text.
            ':' if chars.clone().take(2).eq("//".chars()) => out.push_str(":\u{200d}"),
            '.' if out.len() >= 3 && out[out.len() - 3..].eq_ignore_ascii_case("www") => {
                out.push_str("\u{200d}.")
            }
            c => out.push(c),
        }
    }
    out
}

/// An id, place or value shown as code. Text with nothing a renderer
/// could take for markup (ids, file places) is a plain `code span`; any
/// other text goes through [`escape`] with its backticks, which then show
/// as written, as `check --format markdown` shows it (inside a code span
/// `<b>` and `@team` would stay as written, and a backtick in the text
/// would end the span).
pub fn code(s: &str) -> String {
    let plain = !s.is_empty()
        && !s.chars().any(|c| {
            matches!(c, '`' | '<' | '>' | '&' | '@' | '|' | '\\')
                || c.is_control()
                || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
        });
    if plain {
        format!("`{s}`")
    } else {
        escape(&format!("`{s}`"))
    }
}

/// Text in which the tool marks ids and values as `code spans`: each pair
/// of backticks becomes a [`code`] span and everything else goes through
/// [`escape`]. A manifest string holding a backtick only moves where a
/// span ends; every piece, code or text, stays inert. An unpaired last
/// backtick is text.
pub fn spans(s: &str) -> String {
    let pieces: Vec<&str> = s.split('`').collect();
    let mut out = String::with_capacity(s.len() + 8);
    let closed = if pieces.len() % 2 == 1 {
        pieces.len()
    } else {
        pieces.len() - 1
    };
    for (i, p) in pieces[..closed].iter().enumerate() {
        if i % 2 == 0 {
            out.push_str(&escape(p));
        } else {
            out.push_str(&code(p));
        }
    }
    if closed < pieces.len() {
        out.push_str(&escape(&format!("`{}", pieces[closed])));
    }
    out
}

/// `*(waived: reason)* ` (`allowed` for an inline allowance) or `*(baselined)* ` before an accepted finding.
fn accepted(f: &Finding) -> String {
    match (&f.waived, f.baselined) {
        (Some(w), _) => format!("*({}: {})* ", w.word(), escape(&w.reason)),
        (None, true) => "*(baselined)* ".to_string(),
        (None, false) => String::new(),
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The comment, without the worst paths' links placed.
pub fn render(map: &SourceMap, findings: &[Finding]) -> String {
    render_with(map, findings, None)
}

/// The comment; with the manifest, each finding's details list the links of
/// its worst path with their places and what each adds.
pub fn render_with(map: &SourceMap, findings: &[Finding], manifest: Option<&Manifest>) -> String {
    render_full(map, findings, manifest, &[])
}

/// The comment with, after the findings, the horizon table (`horizon`'s
/// rows) so a pull request shows what a change did to every window.
pub fn render_full(
    map: &SourceMap,
    findings: &[Finding],
    manifest: Option<&Manifest>,
    horizons: &[crate::report::horizon::Row],
) -> String {
    let mut out = findings_part(map, findings, manifest);
    if !horizons.is_empty() {
        out.push_str("\n### Horizons\n\n");
        out.push_str(
            "| intent | component | role | horizon | latest copy to stop, after first sighting | window | minimum safe retention | verdict |\n",
        );
        out.push_str("|---|---|---|---|---|---|---|---|\n");
        for (n, r) in horizons.iter().enumerate() {
            let window = r.window.map_or_else(|| "-".to_string(), |w| w.to_string());
            let verdict = match r.verdict() {
                crate::report::horizon::TOO_SOON => "**expires too soon**",
                v => v,
            };
            out.push_str(&format!(
                "| {} | {} | {} | {} | {} | {} | {} | {} |\n",
                escape(&r.intent),
                escape(&r.node),
                r.role,
                r.horizon,
                r.span.map_or_else(|| "-".to_string(), |s| s.to_string()),
                window,
                crate::rules::required_window(r.needs()),
                verdict
            ));
            if out.len() > COMMENT_BUDGET && n + 1 < horizons.len() {
                out.push_str(&format!(
                    "\n… {} more rows: `replay-audit horizon` prints them all.\n",
                    horizons.len() - n - 1
                ));
                break;
            }
        }
    }
    out
}

fn findings_part(map: &SourceMap, findings: &[Finding], manifest: Option<&Manifest>) -> String {
    let s = Summary::of(findings);
    let mut out = String::from("## replay-audit\n\n");
    if findings.is_empty() {
        out.push_str("No findings.\n");
        return out;
    }
    out.push_str(&format!(
        "**{}**: {}, {}, {}.\n\n",
        plural(findings.len(), "finding", "findings"),
        plural(s.error, "error", "errors"),
        plural(s.warning, "warning", "warnings"),
        plural(s.info, "info", "info")
    ));
    out.push_str("| severity | code | intent | component | location | message |\n");
    out.push_str("|---|---|---|---|---|---|\n");
    let dash = |v: Option<&str>| v.map_or_else(|| "-".to_string(), escape);
    let mut rows = Vec::with_capacity(findings.len());
    for f in findings {
        rows.push(format!(
            "| {} | {} {} | {} | {} | {} | {} |\n",
            f.severity.name(),
            f.rule.code,
            escape(f.rule.name),
            dash(f.intent.as_deref()),
            dash(f.component.as_deref()),
            escape(&place(map, f)),
            accepted(f) + &escape(&f.message)
        ));
    }
    let mut details = Vec::with_capacity(findings.len());
    for f in findings {
        let mut out = String::new();
        out.push_str(&format!(
            "\n<details>\n<summary>{} {} — {} / {}</summary>\n\n",
            f.rule.code,
            escape(f.rule.name),
            dash(f.intent.as_deref()),
            dash(f.component.as_deref())
        ));
        out.push_str(&format!("- location: {}\n", escape(&place(map, f))));
        out.push_str(&format!("- message: {}\n", escape(&f.message)));
        if let Some(h) = f.horizon {
            out.push_str(&format!("- horizon: {h}\n"));
        }
        if let Some(w) = f.window {
            out.push_str(&format!("- window: {w}\n"));
        }
        if f.path.is_empty() {
            out.push_str("- path: -\n");
        } else {
            let ids: Vec<String> = f.path.iter().map(|p| escape(p)).collect();
            out.push_str(&format!("- path: {}\n", ids.join(" → ")));
        }
        for h in related::hops(manifest, f) {
            let at = h.loc.map_or_else(|| "-".to_string(), |l| map.display(l));
            out.push_str(&format!("  - {} ({})\n", escape(&h.text), escape(&at)));
        }
        if !f.has_assumptions() {
            out.push_str("- assumptions: none\n");
        } else {
            out.push_str("- assumptions:\n");
            for a in f.assumptions() {
                out.push_str(&format!("  - {}\n", escape(a)));
            }
        }
        out.push_str(&format!("- help: {}\n", escape(&f.help())));
        out.push_str(&format!(
            "- rule: [{} {}]({})\n",
            f.rule.code,
            escape(f.rule.name),
            crate::report::sarif::help_uri(f.rule.code)
        ));
        out.push_str("\n</details>\n");
        details.push(out);
    }
    // The most findings whose rows and details fit the comment's budget.
    let mut used = out.len();
    let mut shown = 0;
    for (r, d) in rows.iter().zip(&details) {
        if used + r.len() + d.len() > FINDINGS_BUDGET {
            break;
        }
        used += r.len() + d.len();
        shown += 1;
    }
    for r in &rows[..shown] {
        out.push_str(r);
    }
    if shown < findings.len() {
        out.push_str(&format!(
            "\n… {} more {}, {} in all: GitHub keeps a comment under 65,536 characters; `replay-audit check` lists every finding.\n",
            findings.len() - shown,
            if findings.len() - shown == 1 { "finding" } else { "findings" },
            findings.len()
        ));
    }
    for d in &details[..shown] {
        out.push_str(d);
    }
    out
}

/// GitHub refuses a comment or step summary of more than 65,536
/// characters: the findings get this much (counted in bytes, never fewer
/// than the characters), the horizon table what is left below
/// [`COMMENT_BUDGET`].
pub const FINDINGS_BUDGET: usize = 56_000;
pub const COMMENT_BUDGET: usize = 64_000;

/// `--format markdown`, with the worst paths' links and the horizon table.
pub struct MarkdownFormat;

impl Format for MarkdownFormat {
    fn write(&self, out: &mut dyn Write, run: &CheckRun) -> io::Result<()> {
        let text = render_full(
            run.sources(),
            run.findings,
            Some(run.manifest),
            run.horizon_rows,
        );
        out.write_all(text.as_bytes())?;
        // Which policy applied (a file, or none found).
        writeln!(out, "\n<sub>{}</sub>", escape(&run.notes.policy_line()))
    }

    fn write_errors(
        &self,
        out: &mut dyn Write,
        map: &SourceMap,
        errors: &[Diagnostic],
        _root: &Root,
    ) -> io::Result<()> {
        out.write_all(crate::report::errors::markdown_text(map, errors).as_bytes())
    }

    fn each(&self) -> Each {
        Each::Parts
    }

    fn part(&self, a: &Arch) -> Option<Part> {
        let map = &a.manifest.sources;
        let text = render_full(map, a.findings, Some(a.manifest), a.horizons);
        Some(Part::Text(section(a.name, &text)))
    }

    fn failed_part(
        &self,
        name: &str,
        map: &SourceMap,
        errors: &[Diagnostic],
        _root: &Root,
    ) -> Option<Part> {
        let text = crate::report::errors::markdown_text(map, errors);
        Some(Part::Text(section(name, &text)))
    }
}

/// A Markdown comment of one architecture of `check --each` under its own
/// heading.
fn section(name: &str, comment: &str) -> String {
    let body = comment.strip_prefix("## replay-audit\n").unwrap_or(comment);
    format!("## replay-audit: {}\n{body}\n", escape(name))
}
