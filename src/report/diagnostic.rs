//! `--format human`: findings as rustc-style diagnostics (annotate-snippets,
//! as load errors print), grouped by intent, the summary line and then
//! which policy applied last:
//!
//! ```text
//! error[RH001]: a dead-letter redrive can reach `bank-rail` 15h 25m after
//!               the intent, but `payout-idempotency` forgets the key …
//!   --> examples/payouts.yaml:50:11
//!    |
//! 50 |     kind: powertools-idempotency
//!    |           ^^^^^^^^^^^^^^^^^^^^^^ window 1h
//!    = path: settlement-scheduler → payout-requests → … → bank-rail
//!    = note: horizon 15h 25m = 45m dead_letter + 14h redrive + 40m delivers_to > window 1h
//!    = help: set `payout-idempotency.retention` to at least 16h 57m 30s (horizon 15h 25m + margin 1h 32m 30s)
//! ```
//!
//! The message is the title, as rustc and ruff print it; the mark under
//! the manifest's value carries a short label (the window, else the rule's
//! name). Every text wraps on word boundaries at the terminal's width
//! ([`crate::report::table::width`]: `COLUMNS`, else the terminal, else 160
//! columns), continuation lines aligned by the renderer. Every manifest
//! string goes through [`shown`]: one inert line, each overlong token cut as
//! the table cuts it.

use crate::diagnostics::{Diagnostic, SourceMap};
use crate::report::format::Each;
use crate::report::root::Root;
use std::collections::HashMap;
use std::io::{self, Write};

use annotate_snippets::{Group, Level, Renderer};

use crate::diagnostics::{SnippetText, echo};
use crate::manifest::Manifest;
use crate::report::Summary;
use crate::report::format::{CheckRun, Format};
use crate::report::table::cell;
use crate::rules::{Finding, Severity};
use crate::time::Dur;

/// Terms of the horizon arithmetic shown before the rest are counted.
const TERMS_SHOWN: usize = 12;
/// Rule-given related places shown under a finding.
const RELATED_SHOWN: usize = 3;

/// `--format human`.
pub struct Human;

impl Format for Human {
    fn write(&self, out: &mut dyn Write, run: &CheckRun) -> io::Result<()> {
        let width = usize::from(crate::report::table::width());
        out.write_all(render(run.manifest, run.findings, run.color, width).as_bytes())?;
        writeln!(out, "{}", echo(&run.notes.policy_line()))
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
        Each::Refused
    }
}

/// Every finding as a diagnostic under a line per intent, then the counts,
/// its texts wrapped to `width` columns.
pub fn render(m: &Manifest, findings: &[Finding], color: bool, width: usize) -> String {
    if findings.is_empty() {
        return "No findings.\n".to_string();
    }
    let renderer = if color {
        Renderer::styled()
    } else {
        Renderer::plain()
    }
    .term_width(width);
    let mut out = String::new();
    for (intent, group) in by_intent(findings) {
        let s = Summary::of(group.iter().copied());
        let head = match intent {
            Some(i) => format!("intent `{}`: {}", shown(i), s.line()),
            None => format!("not tied to an intent: {}", s.line()),
        };
        out.push_str(&if color {
            format!("\x1b[1m{head}\x1b[0m\n\n")
        } else {
            format!("{head}\n\n")
        });
        for f in group {
            out.push_str(&one(m, f, &renderer, width));
            out.push_str("\n\n");
        }
    }
    out.push_str(&Summary::of(findings).line());
    out.push('\n');
    out
}

/// The findings of each intent in the order the intents first appear, those
/// of no intent last; each group keeps the rules' order.
fn by_intent(findings: &[Finding]) -> Vec<(Option<&str>, Vec<&Finding>)> {
    let mut groups: Vec<(Option<&str>, Vec<&Finding>)> = Vec::new();
    let mut index: HashMap<Option<&str>, usize> = HashMap::new();
    for f in findings {
        let key = f.intent.as_deref();
        let at = *index.entry(key).or_insert_with(|| {
            groups.push((key, Vec::new()));
            groups.len() - 1
        });
        groups[at].1.push(f);
    }
    groups.sort_by_key(|(k, _)| k.is_none());
    groups
}

/// Manifest text for the renderer: overlong tokens cut ([`cell`]), then
/// one inert line ([`echo`]).
fn shown(text: &str) -> String {
    echo(&cell(text))
}

fn level(s: Severity) -> Level<'static> {
    match s {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
        Severity::Info => Level::INFO,
    }
}

/// One finding: the message as title, the manifest line marked, path,
/// arithmetic, help, each wrapped to `width` columns.
fn one(m: &Manifest, f: &Finding, renderer: &Renderer, width: usize) -> String {
    let map = &m.sources;
    let level_name = f.severity.name();
    // `error[RH001]: ` before the title's first line.
    let title_text = wrap(
        &shown(&f.message),
        width,
        level_name.len() + f.rule.code.len() + 4,
    );
    let label = match f.window {
        Some(w) => format!("window {w}"),
        None => f.rule.name.to_string(),
    };
    let place = f.loc.and_then(|l| SnippetText::of_span(map, l, value_len));
    // A label that would run past the width is left out: the title says it.
    let label = match &place {
        Some(p) if p.caret_end() + 1 + label.chars().count() > width => String::new(),
        _ => label,
    };
    let related: Vec<(SnippetText, String)> = f
        .related
        .iter()
        .take(RELATED_SHOWN)
        .filter_map(|(l, t)| Some((SnippetText::of(map, *l)?, shown(t))))
        .collect();
    let mut notes: Vec<(Option<&str>, String)> = Vec::new();
    if !f.path.is_empty() {
        notes.push((
            Some("path"),
            shown(&crate::report::table::path_text(&f.path)),
        ));
    }
    if let Some(a) = arithmetic(f) {
        notes.push((None, shown(&a)));
    }
    let assumed = f.assumptions_joined();
    // RH005's message is the list itself.
    if !assumed.is_empty() && !f.message.contains(&assumed) {
        notes.push((Some("assumes"), shown(&assumed)));
    }
    if let Some(w) = accepted(f) {
        notes.push((None, shown(&w)));
    }
    let help = wrap(&shown(&f.help()), width, "   = help: ".len());
    let title = level(f.severity).primary_title(title_text).id(f.rule.code);
    let mut group = Group::with_title(title);
    if let Some(p) = &place {
        group = group.element(p.snippet(&label, true));
    }
    for (text, note) in &related {
        group = group.element(text.snippet(note, false));
    }
    let notes: Vec<(Option<&str>, String)> = notes
        .into_iter()
        .map(|(name, text)| {
            // `   = note: `, or the note's own name in its place.
            let indent = "   = : ".len() + name.unwrap_or("note").len();
            (name, wrap(&text, width, indent))
        })
        .collect();
    for (name, text) in &notes {
        let l = match name {
            Some(n) => Level::NOTE.with_name(*n),
            None => Level::NOTE,
        };
        group = group.element(l.message(text.as_str()));
    }
    group = group.element(Level::HELP.message(help.as_str()));
    renderer.render(&[group])
}

/// `text` broken into lines at spaces so that none, after the `indent`
/// columns before it, is wider than `width` (a word longer than that keeps
/// its own line whole); at least 20 columns are always left for the text.
pub fn wrap(text: &str, width: usize, indent: usize) -> String {
    let room = width.saturating_sub(indent).max(20);
    let mut out = String::with_capacity(text.len());
    let mut line = 0usize;
    for (i, word) in text.split(' ').enumerate() {
        let len = word.chars().count();
        if i > 0 && line + 1 + len > room {
            out.push('\n');
            line = 0;
        } else if i > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(word);
        line += len;
    }
    out
}

/// `prefix` then `text` wrapped to `width` columns, every further line
/// indented under the text's first (`  - a long behaviour …`).
pub fn hanging(prefix: &str, text: &str, width: usize) -> String {
    let indent = prefix.chars().count();
    let pad = format!("\n{}", " ".repeat(indent));
    format!("{prefix}{}", wrap(text, width, indent).replace('\n', &pad))
}

/// The length in bytes of the value that starts `rest` (the line from a
/// finding's place on), so the underline covers all of `1h 10m`: a quoted
/// value to its closing quote; else up to a comment (` #`), a mapping's
/// `: ` (or a key's last `:`), ` = ` (HCL, TOML), `,`, `{`, `[`, `]` or
/// `}`, trailing spaces left out.
pub(crate) fn value_len(rest: &str) -> usize {
    let b = rest.as_bytes();
    if let Some(&q @ (b'"' | b'\'')) = b.first() {
        let mut i = 1;
        while i < b.len() {
            match b[i] {
                b'\\' if q == b'"' => i += 1,
                b'\'' if q == b'\'' && b.get(i + 1) == Some(&b'\'') => i += 1,
                c if c == q => return i + 1,
                _ => {}
            }
            i += 1;
        }
        return rest.len();
    }
    if let Some(open @ (b'[' | b'{')) = b.first().copied() {
        return flow_len(rest, open);
    }
    let mut end = rest.len();
    for (i, c) in rest.char_indices() {
        let next = b.get(i + 1).copied();
        let stop = match c {
            ',' | '{' | '[' | ']' | '}' => true,
            ':' => matches!(next, None | Some(b' ' | b'\t')),
            ' ' | '\t' => matches!(next, Some(b'#' | b'=')),
            _ => false,
        };
        if stop {
            end = i;
            break;
        }
    }
    rest[..end].trim_end().len()
}

/// The length of the flow collection that starts `rest` (`[a, b]`,
/// `{k: v}`), to its matching bracket, or the whole rest when it does not
/// close on this line.
fn flow_len(rest: &str, open: u8) -> usize {
    let close = if open == b'[' { b']' } else { b'}' };
    let mut depth = 0usize;
    for (i, &c) in rest.as_bytes().iter().enumerate() {
        if c == open {
            depth += 1;
        } else if c == close {
            depth -= 1;
            if depth == 0 {
                return i + 1;
            }
        }
    }
    rest.trim_end().len()
}

/// `waived: reason [ticket] (until date)` (`allowed: ...` for an inline
/// allowance) or `baselined`.
fn accepted(f: &Finding) -> Option<String> {
    if let Some(w) = &f.waived {
        let mut s = format!("{}: {}", w.word(), w.reason);
        if let Some(t) = &w.ticket {
            s.push_str(&format!(" [{t}]"));
        }
        if let Some(e) = &w.expires {
            s.push_str(&format!(" (until {e})"));
        }
        return Some(s);
    }
    f.baselined
        .then(|| "baselined: listed in the baseline file".to_string())
}

/// The horizon as the sum of its worst path's delays, against the window:
/// `horizon 15h 25m = 45m dead_letter + 14h redrive + 40m delivers_to > window 1h`.
/// Steps that add nothing are left out; past [`TERMS_SHOWN`] terms the
/// rest are counted.
fn arithmetic(f: &Finding) -> Option<String> {
    let h = f.horizon?;
    let mut terms = Vec::new();
    let mut sum = Dur::ZERO;
    let mut more = 0usize;
    for s in &f.steps {
        sum = sum.add(s.adds);
        if s.adds == Dur::ZERO {
            continue;
        }
        if terms.len() < TERMS_SHOWN {
            terms.push(format!("{} {}", s.adds, field_of(&s.why)));
        } else {
            more += 1;
        }
    }
    let mut s = format!("horizon {h}");
    if !terms.is_empty() && sum == h {
        s.push_str(" = ");
        s.push_str(&terms.join(" + "));
        if more > 0 {
            s.push_str(&format!(" + {more} more"));
        }
    }
    if let Some(w) = f.window {
        let cmp = if h > w { ">" } else { "≤" };
        s.push_str(&format!(" {cmp} window {w}"));
    }
    Some(s)
}

/// The link field a step's explanation starts with (`dead_letter: …`).
pub(crate) fn field_of(why: &str) -> &str {
    match why.split_once(':') {
        Some((f, _)) if !f.is_empty() && f.chars().all(|c| c.is_ascii_lowercase() || c == '_') => f,
        _ => "link",
    }
}

#[cfg(test)]
mod tests {
    use super::value_len;

    #[test]
    fn the_underline_covers_the_whole_value() {
        fn len(s: &str) -> &str {
            &s[..value_len(s)]
        }
        assert_eq!(len("1h 10m"), "1h 10m");
        assert_eq!(len("1h 10m   # the TTL (F040)"), "1h 10m");
        assert_eq!(len("powertools-idempotency"), "powertools-idempotency");
        assert_eq!(len("seller-payout:"), "seller-payout");
        assert_eq!(len("retry: {attempts: 5}"), "retry");
        assert_eq!(len("[a, [b]], c"), "[a, [b]]");
        assert_eq!(len("{k: v} # x"), "{k: v}");
        assert_eq!(len("[open, "), "[open,");
        assert_eq!(len("2h, attempts: 3}"), "2h");
        assert_eq!(len("\"1h 10m\" # quoted"), "\"1h 10m\"");
        assert_eq!(len("'it''s' x"), "'it''s'");
        assert_eq!(len("\"open"), "\"open");
        assert_eq!(len("30 = x"), "30");
        assert_eq!(len("a:b"), "a:b");
        assert_eq!(len(""), "");
    }
}
