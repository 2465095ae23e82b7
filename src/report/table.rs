//! `--format table`: findings for a person at a terminal (comfy-table).

use crate::diagnostics::Diagnostic;
use crate::report::format::Each;
use crate::report::root::Root;
use std::io::{self, Write};

use comfy_table::presets::UTF8_FULL_CONDENSED;
use comfy_table::{Cell, Color, ColumnConstraint, ContentArrangement, Table, Width};

use crate::diagnostics::{SourceMap, inert};
use crate::report::format::{CheckRun, Format};
use crate::report::{Summary, place};
use crate::rules::{Finding, Severity};

/// Width of a table nobody's terminal sets (logs, pipes).
pub const DEFAULT_WIDTH: u16 = 160;

/// The table as wide as [`width`] says.
pub fn render(map: &SourceMap, findings: &[Finding], color: bool) -> String {
    render_width(map, findings, color, width())
}

/// The width to fit: `COLUMNS` when set to a number, else the terminal's
/// when standard output is one, else [`DEFAULT_WIDTH`].
pub fn width() -> u16 {
    let columns = std::env::var("COLUMNS").ok();
    columns_or(columns.as_deref(), || Table::new().width())
}

/// `COLUMNS` (at least 40), else the terminal's width, else [`DEFAULT_WIDTH`].
fn columns_or(columns: Option<&str>, terminal: impl FnOnce() -> Option<u16>) -> u16 {
    match columns.and_then(|c| c.trim().parse::<u16>().ok()) {
        Some(c) => c.max(40),
        None => terminal().unwrap_or(DEFAULT_WIDTH),
    }
}

/// A borderless table of plain text (the lists of `rules` and `catalog`)
/// under `header`, its long cells wrapped on word boundaries to [`width`].
pub fn listing(header: Vec<&str>) -> Table {
    let mut t = Table::new();
    t.load_style(comfy_table::presets::NOTHING)
        .force_no_tty()
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_width(width())
        .set_header(header);
    // Every column but the last (the prose) keeps its words whole.
    let columns = t.column_count();
    for i in 0..columns.saturating_sub(1) {
        if let Some(c) = t.column_mut(i) {
            c.set_constraint(ColumnConstraint::ContentWidth);
        }
    }
    t
}

/// Below this width the intent, component and rule name move into the
/// message cell: six columns of 80 characters split every word.
pub const NARROW: u16 = 120;

/// The table fitted to `width` columns; a `file:line:col` is never split.
pub fn render_width(map: &SourceMap, findings: &[Finding], color: bool, width: u16) -> String {
    let s = Summary::of(findings);
    if findings.is_empty() {
        return "No findings.\n".to_string();
    }
    let narrow = width < NARROW;
    let mut t = Table::new();
    t.load_style(UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_width(width)
        .set_header(if narrow {
            vec!["severity", "code", "location", "message"]
        } else {
            vec![
                "severity",
                "code",
                "intent",
                "component",
                "location",
                "message",
            ]
        });
    if !color {
        t.force_no_tty();
    } else {
        t.enforce_styling();
    }
    for f in findings {
        t.add_row(row(map, f, color, narrow));
    }
    // The longest place keeps its column whole (with its two spaces of
    // padding), up to half the width.
    let longest = findings
        .iter()
        .map(|f| cell(&place(map, f)).chars().count())
        .max()
        .unwrap_or(0);
    let keep = u16::try_from(longest + 2)
        .unwrap_or(u16::MAX)
        .min(width / 2);
    if let Some(c) = t.column_mut(if narrow { 2 } else { 4 }) {
        c.set_constraint(ColumnConstraint::LowerBoundary(Width::Fixed(keep)));
    }
    // So does the rule (`RH001 replay-outlives-dedup-window`), up to a quarter.
    if !narrow {
        let rule = findings
            .iter()
            .map(|f| f.rule.code.len() + 1 + f.rule.name.len())
            .max()
            .unwrap_or(0);
        let keep = u16::try_from(rule + 2).unwrap_or(u16::MAX).min(width / 4);
        if let Some(c) = t.column_mut(1) {
            c.set_constraint(ColumnConstraint::LowerBoundary(Width::Fixed(keep)));
        }
    }
    format!("{t}\n{}\n", s.line())
}

/// One finding's cells, every manifest text made inert ([`cell`]).
fn row(map: &SourceMap, f: &Finding, color: bool, narrow: bool) -> Vec<Cell> {
    let sev = Cell::new(match (&f.waived, f.baselined) {
        (Some(w), _) => format!("{}\n({})", f.severity.name(), w.word()),
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
    let mut msg = if narrow {
        let mut m = format!("{}\n{}", f.rule.name, f.message);
        for (name, v) in [("intent", &f.intent), ("component", &f.component)] {
            if let Some(v) = v {
                m.push_str(&format!("\n{name}: {v}"));
            }
        }
        m
    } else {
        f.message.clone()
    };
    if !f.path.is_empty() {
        msg.push_str(&format!("\npath: {}", path_text(&f.path)));
    }
    if let Some(w) = &f.waived {
        msg.push_str(&format!("\n{}: {}", w.word(), w.reason));
        if let Some(t) = &w.ticket {
            msg.push_str(&format!(" [{t}]"));
        }
        if let Some(e) = &w.expires {
            msg.push_str(&format!(" (until {e})"));
        }
    }
    let place = Cell::new(cell(&place(map, f)));
    let msg = Cell::new(cell(&msg));
    if narrow {
        return vec![sev, Cell::new(f.rule.code), place, msg];
    }
    vec![
        sev,
        Cell::new(format!("{} {}", f.rule.code, f.rule.name)),
        Cell::new(cell(f.intent.as_deref().unwrap_or("-"))),
        Cell::new(cell(f.component.as_deref().unwrap_or("-"))),
        place,
        msg,
    ]
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
pub(crate) fn cell(text: &str) -> String {
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
pub(crate) fn path_text(path: &[String]) -> String {
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

    fn write_errors(
        &self,
        _out: &mut dyn Write,
        _map: &SourceMap,
        _errors: &[Diagnostic],
        _root: &Root,
    ) -> io::Result<()> {
        // On a terminal the errors are on standard error only.
        Ok(())
    }

    fn each(&self) -> Each {
        Each::Table
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_win_over_the_terminal_and_the_default() {
        assert_eq!(columns_or(Some("80"), || Some(200)), 80);
        assert_eq!(columns_or(Some("12"), || None), 40);
        assert_eq!(columns_or(Some("wide"), || Some(100)), 100);
        assert_eq!(columns_or(None, || None), DEFAULT_WIDTH);
    }
}
