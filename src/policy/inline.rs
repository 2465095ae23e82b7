//! Inline allowances: a comment in a manifest that accepts one or more
//! rules' findings at one place, with the rules a policy waiver follows (a
//! reason is required, an expiry date optional):
//!
//! ```yaml
//! components:
//!   # replay-audit: allow RH001, RH004 until 2027-03-31 -- redrive is manual and audited
//!   payout-idempotency:
//!     kind: powertools-idempotency
//!     retention: 1h   # replay-audit: allow RH041 -- set by the platform team
//! ```
//!
//! A comment on its own line applies to the entry that starts on the next
//! line that is neither blank nor a comment; a comment after a value applies
//! to the entry of its own line. An entry is its line and every following
//! line indented deeper (its whole block). An allowance covers a finding of
//! one of its codes that is placed inside that block, or, for an entry of
//! `components:` or `intents:`, whose component or intent is the entry's id
//! (so an imported component, whose findings point at template lines, is
//! covered too: the importers write a template's allowances as these
//! comments above the component).
//!
//! [`scan`] reads them from a text in one pass over its lines; a text
//! without the marker costs one substring search.

use crate::diagnostics::{Diagnostic, Loc, SourceMap};
use crate::rules::Rule;

use super::Date;

/// What starts an inline allowance comment (after `#` and spaces).
pub const MARKER: &str = "replay-audit:";

/// Where an importer's comment names the template place of the line; what
/// follows it on an allowance line is not part of the reason.
const FROM: &str = "  # from ";

/// One rule accepted at one place of a manifest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Allowance {
    pub rule: &'static Rule,
    pub reason: String,
    /// The last day it holds.
    pub until: Option<Date>,
    /// Where the comment stands.
    pub loc: Loc,
    /// The id of the `components:` entry it applies to.
    pub component: Option<String>,
    /// The id of the `intents:` entry it applies to.
    pub intent: Option<String>,
    /// The entry's lines (first, last), in the comment's file; `None` in a
    /// generated text, whose lines are moved to the template's.
    pub lines: Option<(u32, u32)>,
}

impl Allowance {
    pub fn expired(&self, today: Date) -> bool {
        self.until.is_some_and(|e| today > e)
    }
}

/// One line of the text, as the scan needs it.
struct Line<'a> {
    text: &'a str,
    indent: usize,
    /// Neither blank nor only a comment.
    content: bool,
}

fn lines_of(text: &str) -> Vec<Line<'_>> {
    text.lines()
        .map(|l| {
            let l = l.strip_suffix('\r').unwrap_or(l);
            let rest = l.trim_start_matches(' ');
            Line {
                text: l,
                indent: l.len() - rest.len(),
                content: !rest.trim().is_empty() && !rest.starts_with('#'),
            }
        })
        .collect()
}

/// The byte offset of the allowance comment's `#` in `line`, if it has
/// one: a `#` at the start or after a space, followed by spaces and
/// [`MARKER`].
fn comment_at(line: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = line[from..].find('#').map(|i| i + from) {
        let starts = i == 0 || line[..i].ends_with([' ', '\t']);
        if starts && line[i + 1..].trim_start().starts_with(MARKER) {
            return Some(i);
        }
        from = i + 1;
    }
    None
}

/// The last line of the block each content line starts (index of the last
/// line before the next content line indented no deeper), in one pass.
fn block_ends(lines: &[Line]) -> Vec<usize> {
    let mut end: Vec<usize> = (0..lines.len()).collect();
    let mut open: Vec<usize> = Vec::new();
    let mut last_content = 0;
    for (i, l) in lines.iter().enumerate().filter(|(_, l)| l.content) {
        while let Some(&o) = open.last() {
            if lines[o].indent < l.indent {
                break;
            }
            end[o] = last_content;
            open.pop();
        }
        open.push(i);
        last_content = i;
    }
    for o in open {
        end[o] = last_content;
    }
    end
}

/// The section (`components`, `intents`) each content line is a direct
/// entry of, with the entry's id.
fn entry_ids<'a>(lines: &[Line<'a>]) -> Vec<Option<(&'a str, String)>> {
    let mut out = vec![None; lines.len()];
    let mut section: Option<&str> = None;
    let mut child: Option<usize> = None;
    for (i, l) in lines.iter().enumerate().filter(|(_, l)| l.content) {
        if l.indent == 0 {
            let key = l.text.split(':').next().unwrap_or("").trim();
            section = ["components", "intents"].into_iter().find(|s| *s == key);
            child = None;
            continue;
        }
        let Some(s) = section else { continue };
        let at = *child.get_or_insert(l.indent);
        if l.indent == at
            && let Some((key, _)) = l.text.trim_start().split_once(':')
        {
            let id = key.trim().trim_matches(['"', '\'']);
            out[i] = Some((s, id.to_string()));
        }
    }
    out
}

/// The inline allowances of `text` (source `file`), and an error for each
/// comment that is not a valid one. `generated`: an importer's output,
/// whose allowances apply by id only.
pub fn scan(text: &str, file: u32, generated: bool) -> (Vec<Allowance>, Vec<Diagnostic>) {
    let (mut found, mut errors) = (Vec::new(), Vec::new());
    if !text.contains(MARKER) {
        return (found, errors);
    }
    let lines = lines_of(text);
    let ends = block_ends(&lines);
    let ids = entry_ids(&lines);
    for (i, l) in lines.iter().enumerate() {
        let Some(hash) = comment_at(l.text) else {
            continue;
        };
        let loc = Loc {
            file,
            line: i as u32 + 1,
            col: l.text[..hash].chars().count() as u32 + 1,
        };
        let target = if l.content {
            Some(i)
        } else {
            (i + 1..lines.len()).find(|&j| lines[j].content)
        };
        let Some(target) = target else {
            errors.push(
                Diagnostic::at(loc, "this inline allowance is followed by no entry")
                    .label("applies to nothing")
                    .help("put it on the line above the entry it accepts, or after its value"),
            );
            continue;
        };
        let parsed = match parse(&l.text[hash + 1..], loc) {
            Ok(p) => p,
            Err(d) => {
                errors.push(*d);
                continue;
            }
        };
        let (component, intent) = match &ids[target] {
            Some(("components", id)) => (Some(id.clone()), None),
            Some((_, id)) => (None, Some(id.clone())),
            None => (None, None),
        };
        let lines = (!generated).then_some((target as u32 + 1, ends[target] as u32 + 1));
        found.extend(parsed.rules.into_iter().map(|rule| Allowance {
            rule,
            reason: parsed.reason.clone(),
            until: parsed.until,
            loc,
            component: component.clone(),
            intent: intent.clone(),
            lines,
        }));
    }
    (found, errors)
}

/// Reads the allowances of source `file` (a manifest the user wrote, its
/// text at hand) into `sources`; the errors of the comments that are not
/// valid ones.
pub fn read(sources: &mut SourceMap, file: u32) -> Vec<Diagnostic> {
    let (allowed, bad) = scan(&sources.files[file as usize].text, file, false);
    sources.allowances.extend(allowed);
    bad
}

/// A comment's allowance before it is placed.
struct Parsed {
    rules: Vec<&'static Rule>,
    reason: String,
    until: Option<Date>,
}

/// The example every error's help shows.
const EXAMPLE: &str =
    "# replay-audit: allow RH001 until 2027-03-31 -- redrive is manual and audited";

/// Reads ` replay-audit: allow CODE[, CODE] [until DATE] -- reason` (the
/// comment after its `#`; `at` is the `#`).
fn parse(comment: &str, at: Loc) -> Result<Parsed, Box<Diagnostic>> {
    let col_of = |part: &str| {
        let offset = part.as_ptr() as usize - comment.as_ptr() as usize;
        at.col + 1 + comment[..offset].chars().count() as u32
    };
    let err = |part: &str, message: String, label: &str, help: String| {
        let loc = Loc {
            col: col_of(part),
            ..at
        };
        Box::new(Diagnostic::at(loc, message).label(label).help(help))
    };
    let body = comment.trim_start()[MARKER.len()..].trim_start();
    let Some(rest) = body
        .strip_prefix("allow")
        .filter(|r| r.is_empty() || r.starts_with([' ', '\t']))
    else {
        let word = body.split_whitespace().next().unwrap_or("");
        return Err(err(
            body,
            format!("unknown replay-audit directive `{word}`; only `allow` is known"),
            "not `allow`",
            format!("write `{EXAMPLE}`"),
        ));
    };
    let rest = rest.split(FROM).next().unwrap_or(rest);
    let Some((head, reason)) = rest
        .split_once("--")
        .map(|(h, r)| (h, r.trim()))
        .filter(|(_, r)| !r.is_empty())
    else {
        return Err(err(
            body,
            "inline allowance without a reason".to_string(),
            "no reason",
            format!(
                "say why the finding is accepted after ` -- ` (`{EXAMPLE}`), or, in a template's `Metadata: replay-audit: allow:` entry, as `reason:`"
            ),
        ));
    };
    let mut words = head
        .split([' ', '\t', ','])
        .filter(|w| !w.is_empty())
        .peekable();
    let mut rules = Vec::new();
    let mut until = None;
    while let Some(w) = words.next() {
        if w == "until" {
            let date = words.next().unwrap_or("");
            until = Some(Date::parse(date).ok_or_else(|| {
                err(
                    if date.is_empty() { w } else { date },
                    format!("`{date}` is not a date"),
                    "expected YYYY-MM-DD",
                    "write the last day the allowance holds as `until YYYY-MM-DD`".to_string(),
                )
            })?);
            if let Some(extra) = words.next() {
                return Err(err(
                    extra,
                    format!("unexpected `{extra}` after the date"),
                    "unexpected",
                    format!("write the codes before `until`: `{EXAMPLE}`"),
                ));
            }
            continue;
        }
        let rule = super::rule_codes::find_rule(w).map_err(|help| {
            err(
                w,
                format!("unknown rule `{w}` in an inline allowance"),
                "no such rule",
                help,
            )
        })?;
        if !rules.contains(&rule) {
            rules.push(rule);
        }
    }
    if rules.is_empty() {
        return Err(err(
            body,
            "inline allowance names no rule".to_string(),
            "no rule code",
            format!("name the codes it accepts after `allow`: `{EXAMPLE}`"),
        ));
    }
    Ok(Parsed {
        rules,
        reason: reason.to_string(),
        until,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "version: 1\ncomponents:\n  # replay-audit: allow RH001, RH004 until 2027-03-31 -- redrive is audited\n  keys:\n    kind: sqs\n    retention: 1h  # replay-audit: allow RH041 -- platform default\n\n  other: { kind: service }\nintents:\n  pay:   # replay-audit: allow RH020 -- legacy\n    origin: a\n";

    #[test]
    fn an_allowance_applies_to_the_next_entry_or_its_own_line() {
        let (found, errors) = scan(TEXT, 0, false);
        assert!(errors.is_empty(), "{errors:?}");
        let got: Vec<_> = found
            .iter()
            .map(|a| {
                (
                    a.rule.code,
                    a.loc.line,
                    a.loc.col,
                    a.component.as_deref(),
                    a.intent.as_deref(),
                    a.lines,
                    a.until.map(|d| d.to_string()),
                )
            })
            .collect();
        let until = Some("2027-03-31".to_string());
        assert_eq!(
            got,
            vec![
                (
                    "RH001",
                    3,
                    3,
                    Some("keys"),
                    None,
                    Some((4, 6)),
                    until.clone()
                ),
                ("RH004", 3, 3, Some("keys"), None, Some((4, 6)), until),
                ("RH041", 6, 20, None, None, Some((6, 6)), None),
                ("RH020", 10, 10, None, Some("pay"), Some((10, 11)), None),
            ]
        );
        assert_eq!(found[0].reason, "redrive is audited");
    }

    #[test]
    fn a_bad_comment_is_an_error_at_its_place() {
        let text = "components:\n  a: {}  # replay-audit: allow RH01 -- x\n  # replay-audit: allow RH001\n  b: {}\n  # replay-audit: allow RH001 until 2027-02-30 -- y\n  c: {}\n";
        let (found, errors) = scan(text, 0, false);
        assert!(found.is_empty());
        let got: Vec<_> = errors
            .iter()
            .map(|d| (d.loc.map(|l| (l.line, l.col)), d.message.as_str()))
            .collect();
        assert_eq!(
            got,
            vec![
                (Some((2, 32)), "unknown rule `RH01` in an inline allowance"),
                (Some((3, 19)), "inline allowance without a reason"),
                (Some((5, 37)), "`2027-02-30` is not a date"),
            ]
        );
    }

    #[test]
    fn text_without_the_marker_or_with_a_hash_in_a_value_has_none() {
        assert_eq!(scan("a: b # c\n", 0, false), (vec![], vec![]));
        let (found, errors) = scan("a: 'x#replay-audit: allow RH001'\n", 0, false);
        assert!(found.is_empty() && errors.is_empty());
    }
}
