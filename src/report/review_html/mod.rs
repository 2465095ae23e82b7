//! `report --format html`: the review checklist as one self-contained HTML
//! file: inline CSS, the graph as inline SVG, no script, no font, no
//! network. Light and dark (prefers-color-scheme) and printable. Every
//! string from the manifest goes through [`esc`].

mod intent;

use std::fmt::{self, Write as _};
use std::io;

use crate::report::draw::text::Xml;
use crate::report::draw::{self, xml_escape};
use crate::report::review::page::{self, Intent, Page, Parts};
use crate::report::review::{Review, Status, margin_text, row_verdict};
use crate::rules::{Severity, required_window};

/// [`esc`] where it is formatted (`{}`), without a copy.
struct Esc<'a>(&'a str);

impl fmt::Display for Esc<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Backticks pair up; an odd last one stays as it is. Escaping
        // leaves backticks alone, so the text between them is escaped
        // piece by piece.
        let pairs = self.0.matches('`').count() / 2 * 2;
        let mut inside = false;
        for (k, piece) in self.0.split('`').enumerate() {
            if k > pairs {
                f.write_str("`")?;
            } else if k > 0 {
                f.write_str(if inside { "</code>" } else { "<code>" })?;
                inside = !inside;
            }
            fmt::Display::fmt(&Xml(piece), f)?;
        }
        Ok(())
    }
}

/// HTML-escapes text, then shows `code spans` as `<code>`.
pub fn esc(s: &str) -> String {
    Esc(s).to_string()
}

const CSS: &str = r#"
:root { --bg:#ffffff; --fg:#1f2328; --muted:#59636e; --line:#d1d9e0; --panel:#f6f8fa;
  --ok:#1a7f37; --ok-bg:#dafbe1; --bad:#cf222e; --bad-bg:#ffebe9; --warn:#9a6700; --warn-bg:#fff8c5;
  --info:#0969da; --node:#ffffff; --transport:#ddf4ff; --store:#fff8c5; --external:#dafbe1; --cluster:#f6f8fa; }
@media (prefers-color-scheme: dark) {
  :root { --bg:#0d1117; --fg:#e6edf3; --muted:#9198a1; --line:#3d444d; --panel:#151b23;
    --ok:#3fb950; --ok-bg:#12261e; --bad:#ff7b72; --bad-bg:#301a1f; --warn:#d29922; --warn-bg:#2e2a1a;
    --info:#4493f8; --node:#151b23; --transport:#0c2d4b; --store:#2e2a1a; --external:#12261e; --cluster:#151b23; }
}
* { box-sizing: border-box; }
body { margin:0 auto; max-width:1200px; padding:24px; background:var(--bg); color:var(--fg);
  font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif; }
h1 { font-size:1.7em; margin:0 0 .3em; } h2 { border-bottom:1px solid var(--line); padding-bottom:.2em; margin-top:1.8em; }
h3 { margin:1.2em 0 .3em; font-size:1.05em; }
code { font:0.9em ui-monospace,SFMono-Regular,Menlo,Consolas,monospace; background:var(--panel); padding:0 .25em; border-radius:4px; }
.muted { color:var(--muted); }
table { border-collapse:collapse; width:100%; margin:.6em 0 1em; font-size:.93em; }
th, td { border:1px solid var(--line); padding:.35em .55em; text-align:left; vertical-align:top; }
th { background:var(--panel); }
.badge { display:inline-block; padding:.05em .55em; border-radius:1em; font-size:.85em; font-weight:600; white-space:nowrap; border:1px solid transparent; }
.badge.satisfied { color:var(--ok); background:var(--ok-bg); border-color:var(--ok); }
.badge.failing { color:var(--bad); background:var(--bad-bg); border-color:var(--bad); }
.badge.assumed { color:var(--warn); background:var(--warn-bg); border:2px solid var(--warn); font-weight:800; letter-spacing:.04em; }
.badge.error { color:var(--bad); background:var(--bad-bg); } .badge.warning { color:var(--warn); background:var(--warn-bg); }
.badge.info { color:var(--info); background:var(--panel); }
.answer { border:1px solid var(--line); border-left:5px solid var(--line); border-radius:6px; padding:.5em .9em; margin:.6em 0; break-inside:avoid; }
.answer.satisfied { border-left-color:var(--ok); } .answer.failing { border-left-color:var(--bad); }
.answer.assumed { border-left-color:var(--warn); background:var(--warn-bg); }
.answer h3 { margin:.1em 0 .2em; } .answer .q { font-style:italic; color:var(--muted); margin:0 0 .3em; }
.answer ul { margin:.3em 0; padding-left:1.3em; } .answer li { margin:.1em 0; }
.assumption { font-weight:700; color:var(--warn); }
.loc { color:var(--muted); font-size:.88em; white-space:nowrap; }
tr.short td { color:var(--bad); font-weight:600; }
ul.plan { list-style:none; padding-left:0; } ul.plan li { margin:.35em 0; padding-left:1.6em; text-indent:-1.6em; }
.covered { color:var(--ok); font-weight:700; } .missing { color:var(--bad); font-weight:700; }
figure { margin:0; overflow-x:auto; background:var(--panel); border:1px solid var(--line); border-radius:8px; padding:8px; }
figcaption { font-size:.88em; color:var(--muted); margin-top:.3em; }
svg.graph { max-width:none; display:block; margin:0; font-family:system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif; }
svg.graph .node rect, svg.graph .node path, svg.graph .node polygon { fill:var(--node); stroke:var(--fg); stroke-width:1.3; }
svg.graph .node.transport rect { fill:var(--transport); } svg.graph .node.store path { fill:var(--store); }
svg.graph .node.store path.lid { fill:none; } svg.graph .node.external polygon { fill:var(--external); }
svg.graph .node.error rect, svg.graph .node.error path, svg.graph .node.error polygon { stroke:var(--bad); stroke-width:3.5; }
svg.graph .node.warning rect, svg.graph .node.warning path, svg.graph .node.warning polygon { stroke:var(--warn); stroke-width:2.5; }
svg.graph text { fill:var(--fg); text-anchor:middle; font-size:12px; }
svg.graph text.id { font-weight:600; font-size:12.5px; } svg.graph text.kind { fill:var(--muted); font-size:10.5px; }
svg.graph text.codes { fill:var(--bad); font-weight:700; text-anchor:end; font-size:11px; paint-order:stroke; stroke:var(--panel); stroke-width:4px; stroke-linejoin:round; }
svg.graph .edge path { fill:none; stroke:var(--muted); stroke-width:1.4; }
svg.graph .edge text { font-size:10px; fill:var(--muted); paint-order:stroke; stroke:var(--panel); stroke-width:4px; stroke-linejoin:round; }
svg.graph .edge.dead_letter path, svg.graph .edge.redrive path { stroke-dasharray:6 4; }
svg.graph .edge.dedup path { stroke-dasharray:2 3; } svg.graph .edge.effects path { stroke-width:2.2; }
svg.graph .edge.hot path { stroke:var(--bad); stroke-width:3.2; } svg.graph .edge.hot text { fill:var(--bad); font-weight:700; }
svg.graph .arrowhead { fill:var(--muted); } svg.graph .arrowhead.hot { fill:var(--bad); }
figure.calm svg.graph .edge.hot path { stroke:var(--fg); } figure.calm svg.graph .edge.hot text { fill:var(--fg); }
figure.calm svg.graph .arrowhead.hot { fill:var(--fg); }
svg.graph .cluster rect { fill:var(--cluster); stroke:var(--muted); stroke-dasharray:5 4; }
svg.graph .cluster text { text-anchor:start; fill:var(--muted); font-size:11px; font-weight:600; }
nav ul { padding-left:1.2em; }
@media print {
  :root { --bg:#fff; --fg:#000; --muted:#444; --line:#999; --panel:#f3f3f3; --node:#fff; --cluster:#fafafa; }
  body { max-width:none; padding:0; font-size:11pt; }
  nav { display:none; }
  h2 { break-after:avoid; } section.intent { break-before:page; }
  figure { overflow:visible; border:none; } svg.graph { max-width:100%; height:auto; max-height:24cm; }
  a { color:inherit; text-decoration:none; }
}
"#;

/// Items written one after another, each as `<code>ITEM</code>` (escaped),
/// with `sep` between them.
struct Codes<'a, T>(&'a [T], &'a str);

impl<T: AsRef<str>> fmt::Display for Codes<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, x) in self.0.iter().enumerate() {
            if k > 0 {
                f.write_str(self.1)?;
            }
            write!(f, "<code>{}</code>", Xml(x.as_ref()))?;
        }
        Ok(())
    }
}

/// An id safe for `id=` and `href="#..."` (component ids are already
/// restricted, this keeps it so whatever they become).
fn anchor(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect()
}

/// How this format writes an intent's parts.
pub const PARTS: Parts = Parts {
    section: intent::section,
    plan: intent::plan,
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
    contents(s, r)?;
    intents(s, r)?;
    horizons(s, r)?;
    assumptions(s, r)?;
    findings(s, r)?;
    test_plan(s, r)
}

/// The document head and the header: title, files, counts and the legend.
fn header<I: Intent>(s: &mut Page<'_>, r: &Review<I>) {
    s.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    s.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<meta name=\"color-scheme\" content=\"light dark\">\n");
    let _ = writeln!(
        s,
        "<title>Idempotency review: {}</title>",
        esc(&r.title).replace("<code>", "").replace("</code>", "")
    );
    let _ = writeln!(s, "<style>{CSS}</style>\n</head>\n<body>");
    let _ = writeln!(
        s,
        "<header>\n<h1>Idempotency review: {}</h1>",
        Xml(&r.title)
    );
    let _ = writeln!(
        s,
        "<p class=\"muted\">Manifest: {}</p>",
        Codes(&r.files, ", ")
    );
    let count = |st: Status| r.intents.iter().map(|i| i.count(st)).sum::<usize>();
    let _ = writeln!(
        s,
        "<p>Findings: <span class=\"badge error\">{} error(s)</span> <span class=\"badge warning\">{} warning(s)</span> <span class=\"badge info\">{} info</span>{} — checklist: <span class=\"badge satisfied\">{} satisfied</span> <span class=\"badge failing\">{} failing</span> <span class=\"badge assumed\">{} ASSUMED</span>{}</p>",
        r.summary.error,
        r.summary.warning,
        r.summary.info,
        if r.summary.waived > 0 {
            format!(" <span class=\"badge\">{} waived</span>", r.summary.waived)
        } else {
            String::new()
        },
        count(Status::Satisfied),
        count(Status::Failing),
        count(Status::Assumed),
        match count(Status::Unevaluated) {
            0 => String::new(),
            n => format!(" <span class=\"badge failing\">{n} not evaluated</span>"),
        }
    );
    s.push_str("<p>Each question is answered from the manifest. <strong>failing</strong>: a finding contradicts the answer (codes given). <span class=\"badge assumed\">⚠ ASSUMED</span>: the manifest does not say, or the answer rests on a declared assumption or a guessed value; a guarantee that rests on “we assume” is not finished.</p>\n</header>\n");
}

/// The table of contents and the drawn graph.
fn contents<I: Intent>(s: &mut Page<'_>, r: &Review<I>) -> io::Result<()> {
    s.push_str("<nav><h2>Contents</h2><ul><li><a href=\"#graph\">Architecture</a></li>");
    for i in &r.intents {
        let _ = write!(
            s,
            "<li><a href=\"#intent-{}\">Intent {}</a></li>",
            anchor(i.id()),
            Xml(i.id())
        );
        s.spill()?;
    }
    s.push_str("<li><a href=\"#horizons\">Horizons</a></li><li><a href=\"#assumptions\">Operational assumptions</a></li><li><a href=\"#findings\">Findings</a></li><li><a href=\"#test-plan\">Failure-injection test plan</a></li></ul></nav>\n");

    s.push_str("<section id=\"graph\"><h2>Architecture</h2>\n<p class=\"muted\">Every component and link; each intent's section draws the part it reaches. Scroll sideways for the rest of a wide drawing.</p>\n<figure>\n");
    draw::svg_into(
        &mut s.text,
        &r.graph,
        &format!("Dependency graph of {}", r.title),
        "",
    );
    let _ = writeln!(
        s,
        "<figcaption>{LEGEND} Thick red edges: the worst path of each error.</figcaption></figure></section>"
    );
    s.spill()
}

/// What the shapes and lines of a drawing mean.
const LEGEND: &str = "Boxes: compute; rounded: queues, topics, streams; cylinders: stores and ledgers; hexagons: external effects; dashed frames: regions. Red outlines and the codes under them: components a finding names. Dashed edges: dead-letter and redrive; dotted: dedup claims.";

/// Each intent's checklist.
fn intents<I: Intent>(s: &mut Page<'_>, r: &Review<I>) -> io::Result<()> {
    for i in &r.intents {
        i.section(s, PARTS);
        s.spill()?;
    }
    Ok(())
}

/// A row's window, or `none`.
struct Window(Option<crate::time::Dur>);

impl fmt::Display for Window {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(w) => fmt::Display::fmt(&w, f),
            None => f.write_str("none"),
        }
    }
}

/// `-` where `empty`, else the text.
struct Or<T>(T, bool);

impl<T: fmt::Display> fmt::Display for Or<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.1 {
            f.write_str("-")
        } else {
            self.0.fmt(f)
        }
    }
}

/// The horizon table.
fn horizons<I: Intent>(s: &mut Page<'_>, r: &Review<I>) -> io::Result<()> {
    s.push_str("<section id=\"horizons\"><h2>Horizons</h2>\n");
    if r.horizons.is_empty() {
        s.push_str("<p>No guard, store or effect is reached.</p>\n");
    } else {
        s.push_str("<table><thead><tr><th>Intent</th><th>Component</th><th>Role</th><th>Horizon</th><th>Latest copy to stop, after first sighting</th><th>Window</th><th>Minimum safe retention</th><th>Margin</th><th>Verdict</th></tr></thead><tbody>\n");
        for row in &r.horizons {
            let verdict = row_verdict(row);
            let short = if verdict == crate::report::horizon::TOO_SOON {
                " class=\"short\""
            } else {
                ""
            };
            let _ = writeln!(
                s,
                "<tr{short}><td><code>{}</code></td><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{verdict}</td></tr>",
                Xml(&row.intent),
                Xml(&row.node),
                row.role,
                row.horizon,
                row.span.map_or_else(|| "-".to_string(), |s| s.to_string()),
                Window(row.window),
                required_window(row.needs()),
                margin_text(row)
            );
            s.spill()?;
        }
        s.push_str("</tbody></table>\n");
    }
    s.push_str("</section>\n");
    s.spill()
}

/// Every operational assumption.
fn assumptions<I: Intent>(s: &mut Page<'_>, r: &Review<I>) -> io::Result<()> {
    s.push_str("<section id=\"assumptions\"><h2>Operational assumptions</h2>\n");
    if r.assumptions.is_empty() {
        s.push_str("<p>None: no verdict rests on a declared bound or a guessed value.</p>\n");
    } else {
        s.push_str("<table><thead><tr><th>Source</th><th>Assumption</th><th>Where</th><th>Intents</th></tr></thead><tbody>\n");
        for x in &r.assumptions {
            let _ = writeln!(
                s,
                "<tr><td><span class=\"badge assumed\">{}</span></td><td>{}</td><td class=\"loc\">{}</td><td>{}</td></tr>",
                if x.source == "declared" {
                    "declared"
                } else {
                    "assumed value"
                },
                Esc(&x.text),
                x.at.as_deref().map_or_else(|| "-".to_string(), xml_escape),
                Or(Codes(&x.intents, ", "), x.intents.is_empty())
            );
            s.spill()?;
        }
        s.push_str("</tbody></table>\n");
    }
    s.push_str("</section>\n");
    s.spill()
}

/// The findings.
fn findings<I: Intent>(s: &mut Page<'_>, r: &Review<I>) -> io::Result<()> {
    s.push_str("<section id=\"findings\"><h2>Findings</h2>\n");
    if r.findings.is_empty() {
        s.push_str("<p>No findings.</p>\n");
    } else {
        s.push_str("<table><thead><tr><th>Severity</th><th>Rule</th><th>Intent / component</th><th>Location</th><th>Message</th></tr></thead><tbody>\n");
        for f in &r.findings {
            let sev = match f.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Info => "info",
            };
            let _ = write!(
                s,
                "<tr><td><span class=\"badge {sev}\">{sev}</span></td><td><strong>{}</strong> {}</td><td>",
                f.code, f.name
            );
            match &f.intent {
                Some(i) => {
                    let _ = write!(s, "<code>{}</code> ", Xml(i));
                }
                None => s.push_str("- "),
            }
            if let Some(c) = &f.component {
                let _ = write!(s, "/ <code>{}</code>", Xml(c));
            }
            let _ = write!(
                s,
                "</td><td class=\"loc\">{}</td><td>{}",
                Xml(&f.at),
                Esc(&f.message)
            );
            if !f.path.is_empty() {
                let _ = write!(
                    s,
                    "<br><span class=\"muted\">path:</span> {}",
                    Codes(&f.path, " → ")
                );
            }
            if !f.assumptions.is_empty() {
                let _ = write!(
                    s,
                    "<br><span class=\"assumption\">rests on:</span> {}",
                    Esc(&f.assumptions.join("; "))
                );
            }
            if let Some(w) = &f.waived {
                let (word, text) = w.split_once(": ").unwrap_or(("waived", w));
                let _ = write!(s, "<br><span class=\"muted\">{word}:</span> {}", Esc(text));
            }
            s.push_str("</td></tr>\n");
            s.spill()?;
        }
        s.push_str("</tbody></table>\n");
    }
    s.push_str("</section>\n");
    s.spill()
}

/// The failure-injection test plan of each intent, and the end of the document.
fn test_plan<I: Intent>(s: &mut Page<'_>, r: &Review<I>) -> io::Result<()> {
    s.push_str("<section id=\"test-plan\"><h2>Failure-injection test plan</h2>\n<p>Only the experiments that apply to each intent's graph; <span class=\"covered\">✓ covered</span> ones are named in the intent's <code>tested</code> list.</p>\n");
    for i in &r.intents {
        i.plan(s, PARTS);
        s.spill()?;
    }
    s.push_str("</section>\n</body>\n</html>\n");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_spans_after_escaping() {
        assert_eq!(esc("a `b<c>` d"), "a <code>b&lt;c&gt;</code> d");
        assert_eq!(esc("`x` and `y`"), "<code>x</code> and <code>y</code>");
        assert_eq!(esc("odd ` tick"), "odd ` tick");
        assert_eq!(esc("a `b` c ` d"), "a <code>b</code> c ` d");
        assert_eq!(esc("``&`"), "<code></code>&amp;`");
        assert_eq!(
            esc("<script>alert(1)</script>"),
            "&lt;script&gt;alert(1)&lt;/script&gt;"
        );
    }
}
