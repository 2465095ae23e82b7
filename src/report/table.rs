//! `--format table`: findings for a person at a terminal (comfy-table).

use std::io::{self, Write};

use comfy_table::presets::UTF8_FULL_CONDENSED;
use comfy_table::{Cell, Color, ContentArrangement, Table};

use crate::diagnostics::{SourceMap, inert};
use crate::report::format::{CheckRun, Format};
use crate::report::{Summary, place};
use crate::rules::{Finding, Severity};

pub fn render(map: &SourceMap, findings: &[Finding], color: bool) -> String {
    let s = Summary::of(findings);
    if findings.is_empty() {
        return "No findings.\n".to_string();
    }
    let mut t = Table::new();
    t.load_style(UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_width(160)
        .set_header(vec![
            "severity",
            "code",
            "intent",
            "component",
            "location",
            "message",
        ]);
    if !color {
        t.force_no_tty();
    } else {
        t.enforce_styling();
    }
    for f in findings {
        let sev = Cell::new(match (&f.waived, f.baselined) {
            (Some(_), _) => format!("{}\n(waived)", f.severity.name()),
            (None, true) => format!("{}\n(baselined)", f.severity.name()),
            (None, false) => f.severity.name().to_string(),
        });
        let sev = if color {
            sev.fg(match f.severity {
                Severity::Error => Color::Red,
                Severity::Warning => Color::Yellow,
                Severity::Info => Color::Blue,
            })
        } else {
            sev
        };
        let mut msg = f.message.clone();
        if !f.path.is_empty() {
            msg.push_str(&format!("\npath: {}", path_text(&f.path)));
        }
        if let Some(w) = &f.waived {
            msg.push_str(&format!("\nwaived: {}", w.reason));
            if let Some(t) = &w.ticket {
                msg.push_str(&format!(" [{t}]"));
            }
            if let Some(e) = &w.expires {
                msg.push_str(&format!(" (until {e})"));
            }
        }
        t.add_row(vec![
            sev,
            Cell::new(format!("{} {}", f.rule.code, f.rule.name)),
            Cell::new(cell(f.intent.as_deref().unwrap_or("-"))),
            Cell::new(cell(f.component.as_deref().unwrap_or("-"))),
            // Manifest text never reaches the terminal raw.
            Cell::new(cell(&place(map, f))),
            Cell::new(cell(&msg)),
        ]);
    }
    format!("{t}\n{}\n", s.line())
}

/// A token (a run without spaces or line breaks) longer than this is cut
/// before comfy-table sees it: its wrapping of one long word is quadratic
/// (a 1.6 MB id took minutes), and no terminal shows such a word anyway.
pub const MAX_TOKEN: usize = 120;
/// How much of a cut token is kept.
const KEPT: usize = 48;
/// Ids of a longer path are shown as its first and last [`PATH_ENDS`].
const PATH_SHOWN: usize = 20;
const PATH_ENDS: usize = 8;

/// Cell text made inert, every overlong token cut to its first [`KEPT`]
/// characters and the count of the rest: `aaaa…(+1,599,952 characters)`.
fn cell(text: &str) -> String {
    let text = inert(text);
    let mut out = String::with_capacity(text.len().min(1 << 16));
    let mut rest = text.as_str();
    while !rest.is_empty() {
        let end = rest.find([' ', '\n']).map_or(rest.len(), |i| i + 1);
        let (piece, tail) = rest.split_at(end);
        let word = piece.trim_end_matches([' ', '\n']);
        let chars = word.chars().count();
        if chars > MAX_TOKEN {
            out.extend(word.chars().take(KEPT));
            out.push_str(&format!(
                "…(+{} characters)",
                crate::report::horizon::thousands(chars - KEPT)
            ));
            out.push_str(&piece[word.len()..]);
        } else {
            out.push_str(piece);
        }
        rest = tail;
    }
    out
}

/// `a → b → c`, or for a path of more than [`PATH_SHOWN`] ids its ends
/// around `… N more …`.
fn path_text(path: &[String]) -> String {
    if path.len() <= PATH_SHOWN {
        return path.join(" → ");
    }
    format!(
        "{} → … {} more … → {}",
        path[..PATH_ENDS].join(" → "),
        crate::report::horizon::thousands(path.len() - 2 * PATH_ENDS),
        path[path.len() - PATH_ENDS..].join(" → ")
    )
}

/// `--format table`.
pub struct TableFormat;

impl Format for TableFormat {
    fn write(&self, out: &mut dyn Write, run: &CheckRun) -> io::Result<()> {
        out.write_all(render(run.sources(), run.findings, run.color).as_bytes())?;
        // Which policy applied (a file, or none found), shown inert.
        writeln!(out, "{}", inert(&run.notes.policy_line()))
    }
}
