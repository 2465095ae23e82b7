//! `--format table`: findings for a person at a terminal (comfy-table).

use comfy_table::presets::UTF8_FULL_CONDENSED;
use comfy_table::{Cell, Color, ContentArrangement, Table};

use crate::diagnostics::{SourceMap, inert};
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
            msg.push_str(&format!("\npath: {}", f.path.join(" → ")));
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
            Cell::new(inert(f.intent.as_deref().unwrap_or("-"))),
            Cell::new(inert(f.component.as_deref().unwrap_or("-"))),
            // Manifest text never reaches the terminal raw.
            Cell::new(inert(&place(map, f))),
            Cell::new(inert(&msg)),
        ]);
    }
    format!("{t}\n{}\n", s.line())
}
