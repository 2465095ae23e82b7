//! Reading the policy file `replay-audit.toml`.
//!
//! The file is read section by section (`raw`); every error (syntax,
//! unknown key, wrong type, a waiver without a reason, a waiver code that
//! is not exactly a rule's code or name) becomes a [`Diagnostic`] at
//! `file:line:column`, rendered like the manifest's errors, and the binary
//! exits with 2. Every error of the file is collected, not just the first.
//! A waiver without `expires` is a warning ([`Policy::warnings`]), or an
//! error under `require_expiry = true`.

use std::collections::BTreeMap;
use std::path::Path;

use toml::Spanned;

use super::raw::{self, Level, Locate, RawMargin, RawWaiver, Threshold};
use super::rule_codes::find_rule;
use super::{Date, Policy, PolicyError, Waiver};
use crate::diagnostics::{Diagnostic, Loc, SourceMap};
use crate::files::Origin;
use crate::rules::{Margin, Severity};
use crate::time::Dur;

impl Policy {
    /// Reads a policy file named by the user (`--config`, links followed);
    /// every error is collected.
    pub fn read(path: &Path) -> Result<Policy, PolicyError> {
        Policy::read_from(path, Origin::Given)
    }

    /// Reads a policy file as [`crate::files::read`] does for `origin`: a
    /// policy found beside the manifests is never read through a link.
    pub fn read_from(path: &Path, origin: Origin) -> Result<Policy, PolicyError> {
        let name = path.display().to_string();
        // The same reader as manifests: regular files only, size-limited, text.
        let max = crate::manifest::Limits::default().max_file_bytes;
        let text = crate::files::read(path, origin, max).map_err(|d| {
            let link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
            let d = match origin {
                Origin::Found if link => d.help(
                    "commit the policy as a regular file, or name the policy to use with --config FILE",
                ),
                _ => d,
            };
            PolicyError::one(&name, SourceMap::default(), d)
        })?;
        Policy::parse(&name, &text)
    }

    /// Reads policy text; `name` is used in messages.
    pub fn parse(name: &str, text: &str) -> Result<Policy, PolicyError> {
        let mut sources = SourceMap::default();
        // Errors show one line of the file at most, cut short
        // (crate::files::excerpt): the file may be any text named by mistake.
        let file = sources.add(name.to_string(), crate::files::excerpt(text));
        let lines = Lines::new(text, file);
        let mut errors = Vec::new();
        let raw = raw::read(text, &lines, &mut errors);
        let mut p = Policy {
            path: Some(name.to_string()),
            fail_on: raw.fail_on.map(Threshold::severity),
            severity: severities(raw.severity, &lines, &mut errors),
            require_expiry: raw.require_expiry,
            ..Policy::default()
        };
        if let Some(m) = raw.margin {
            p.margin = margin(m, &lines, &mut errors);
        }
        for (i, (start, w)) in raw.waivers.into_iter().enumerate() {
            let at = lines.loc(start);
            if let Some(w) = waiver(i + 1, at, w, &lines, &mut errors) {
                if w.expires.is_none() {
                    let what = format!("waiver #{} ({})", i + 1, w.rule.code);
                    if p.require_expiry {
                        errors.push(
                            Diagnostic::at(at, format!("{what} has no `expires`, and the policy sets `require_expiry = true`"))
                                .label("this waiver")
                                .help("add the last day the waiver holds, e.g. expires = 2027-03-31"),
                        );
                    } else {
                        p.never_expire.push((i + 1, w.rule.code, at));
                    }
                }
                p.waivers.push(w);
            }
        }
        p.sources = sources;
        if errors.is_empty() {
            Ok(p)
        } else {
            Err(PolicyError {
                path: name.to_string(),
                sources: p.sources,
                diagnostics: errors,
            })
        }
    }
}

/// `[severity]`: rule code or name → level; unknown rules are errors.
fn severities(
    raw: Vec<(Spanned<String>, Level)>,
    lines: &Lines,
    errors: &mut Vec<Diagnostic>,
) -> BTreeMap<&'static str, Option<Severity>> {
    let mut out = BTreeMap::new();
    for (key, level) in raw {
        match find_rule(key.get_ref()) {
            Ok(rule) => {
                out.insert(rule.code, level.severity_or_off());
            }
            Err(help) => errors.push(
                Diagnostic::at(
                    lines.loc(key.span().start),
                    format!("`[severity]`: no rule `{}`", key.get_ref()),
                )
                .label("not a rule code or name")
                .help(help),
            ),
        }
    }
    out
}

/// `[margin]`, over the defaults for the keys it leaves out.
fn margin(raw: RawMargin, lines: &Lines, errors: &mut Vec<Diagnostic>) -> Margin {
    let mut m = Margin::default();
    if let Some(pc) = raw.percent {
        m.percent = pc;
    }
    if let Some(min) = raw.minimum {
        let at = lines.loc(min.span().start);
        match duration(min.get_ref()) {
            // The minimum is whole seconds: a finer one is rounded up.
            Ok(d @ Dur::Ms(_)) => m.minimum = d.as_secs_ceil().unwrap_or(0),
            Ok(Dur::Unbounded) => errors.push(
                Diagnostic::at(at, "`margin.minimum` cannot be `unbounded`")
                    .help("give a duration such as \"5m\", or a number of seconds"),
            ),
            Err(msg) => errors
                .push(Diagnostic::at(at, format!("`margin.minimum`: {msg}")).label("bad duration")),
        }
    }
    m
}

/// The `n`th `[[waiver]]` (from 1), or `None` when it has errors, which
/// are all pushed onto `errors`.
fn waiver(
    n: usize,
    at: Loc,
    w: RawWaiver,
    lines: &Lines,
    errors: &mut Vec<Diagnostic>,
) -> Option<Waiver> {
    let what = format!("waiver #{n} ({})", w.code.get_ref());
    let rule = match find_rule(w.code.get_ref()) {
        Ok(r) => Some(r),
        Err(help) => {
            errors.push(
                Diagnostic::at(
                    lines.loc(w.code.span().start),
                    format!("{what}: no rule `{}`", w.code.get_ref()),
                )
                .label("not a rule code or name")
                .help(help),
            );
            None
        }
    };
    let reason = waiver_reason(&what, w.reason.as_ref(), at, lines, errors);
    let expires = w.expires.as_ref().and_then(|v| {
        let d = date(v.get_ref());
        if d.is_none() {
            errors.push(
                Diagnostic::at(
                    lines.loc(v.span().start),
                    format!("{what}: `expires` is not a date"),
                )
                .label("expected YYYY-MM-DD")
                .help("write the last day the waiver holds, e.g. expires = 2026-06-30"),
            );
        }
        d
    });
    for (field, pat) in [("intent", &w.intent), ("component", &w.component)] {
        if let Some(pat) = pat
            && pat.get_ref().is_empty()
        {
            errors.push(
                Diagnostic::at(
                    lines.loc(pat.span().start),
                    format!("{what}: `{field}` is empty"),
                )
                .help(format!(
                    "give an id or a glob with `*` and `?`, or leave `{field}` out to match any"
                )),
            );
        }
    }
    Some(Waiver {
        rule: rule?,
        intent: w.intent.map(Spanned::into_inner),
        component: w.component.map(Spanned::into_inner),
        reason: reason?,
        ticket: w.ticket,
        expires,
        loc: at,
    })
}

/// A waiver's reason, trimmed; missing or blank is an error.
fn waiver_reason(
    what: &str,
    reason: Option<&Spanned<String>>,
    at: Loc,
    lines: &Lines,
    errors: &mut Vec<Diagnostic>,
) -> Option<String> {
    match reason {
        Some(r) if !r.get_ref().trim().is_empty() => Some(r.get_ref().trim().to_string()),
        Some(r) => {
            errors.push(
                Diagnostic::at(lines.loc(r.span().start), format!("{what}: `reason` is empty"))
                    .label("empty reason")
                    .help("say why the finding is accepted, e.g. reason = \"the provider deduplicates for 30 days, see ADR-12\""),
            );
            None
        }
        None => {
            errors.push(
                Diagnostic::at(at, format!("{what} has no `reason`"))
                    .label("this waiver")
                    .help("every waiver needs a reason: add reason = \"why this finding is accepted\""),
            );
            None
        }
    }
}

impl Threshold {
    fn severity(self) -> Severity {
        match self {
            Threshold::Error => Severity::Error,
            Threshold::Warning => Severity::Warning,
            Threshold::Info => Severity::Info,
        }
    }
}

impl Level {
    fn severity_or_off(self) -> Option<Severity> {
        match self {
            Level::Error => Some(Severity::Error),
            Level::Warning => Some(Severity::Warning),
            Level::Info => Some(Severity::Info),
            Level::Off => None,
        }
    }
}

fn duration(v: &toml::Value) -> Result<Dur, String> {
    match v {
        toml::Value::Integer(i) if *i < 0 => {
            Err(format!("`{i}` is negative: durations cannot be negative"))
        }
        toml::Value::Integer(i) => Ok(Dur::secs(*i as u64)),
        toml::Value::String(s) => Dur::parse(s),
        other => Err(format!(
            "expected a duration such as \"5m\" or a number of seconds, found {}",
            other.type_str()
        )),
    }
}

fn date(v: &toml::Value) -> Option<Date> {
    match v {
        toml::Value::String(s) => Date::parse(s.trim()),
        toml::Value::Datetime(dt) if dt.time.is_none() && dt.offset.is_none() => {
            Date::parse(&dt.date?.to_string())
        }
        _ => None,
    }
}

// ---- locations and toml errors ---------------------------------------------

/// The line starts of a policy text, found once: a policy of 20,000
/// waivers asks for a location per waiver, and counting lines from the top
/// each time made reading it quadratic.
struct Lines<'a> {
    text: &'a str,
    /// The byte offsets where the lines of `text` begin.
    starts: Vec<usize>,
    file: u32,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str, file: u32) -> Lines<'a> {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Lines { text, starts, file }
    }
}

impl Locate for Lines<'_> {
    /// Line and column (1-based, in characters) of a byte offset.
    fn loc(&self, offset: usize) -> Loc {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset).max(1);
        let col = self.text[self.starts[line - 1]..offset].chars().count() as u32 + 1;
        Loc {
            file: self.file,
            line: line as u32,
            col,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        let e = Policy::parse("replay-audit.toml", text).unwrap_err();
        e.diagnostics
            .iter()
            .map(|d| d.one_line(&e.sources))
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn reads_every_key() {
        let p = Policy::parse(
            "replay-audit.toml",
            "fail_on = \"warning\"\n[severity]\nRH005 = \"off\"\nthin-retention-margin = \"error\"\n[margin]\npercent = 20\nminimum = \"10m\"\n\n[[waiver]]\ncode = \"RH001\"\nintent = \"seller-*\"\nreason = \"bank dedups\"\nexpires = 2026-06-30\nticket = \"PAY-1\"\n",
        )
        .unwrap();
        assert_eq!(p.fail_on, Some(Severity::Warning));
        assert_eq!(p.severity.get("RH005"), Some(&None));
        assert_eq!(p.severity.get("RH004"), Some(&Some(Severity::Error)));
        assert_eq!(
            p.margin,
            Margin {
                percent: 20,
                minimum: 600
            }
        );
        assert_eq!(p.waivers.len(), 1);
        let w = &p.waivers[0];
        assert_eq!(
            (w.rule.code, w.intent.as_deref(), w.ticket.as_deref()),
            ("RH001", Some("seller-*"), Some("PAY-1"))
        );
        assert_eq!(
            w.expires.map(|d| d.to_string()).as_deref(),
            Some("2026-06-30")
        );
        assert_eq!(
            w.loc,
            Loc {
                file: 0,
                line: 9,
                col: 1
            }
        );
        assert_eq!(p.options().margin.of(Dur::secs(3600)), Dur::secs(720));
    }

    #[test]
    fn errors_name_line_column_and_fix() {
        assert_eq!(
            err("fale_on = \"error\"\n"),
            "replay-audit.toml:1:1: error: unknown field `fale_on`; help: did you mean `fail_on`?"
        );
        assert_eq!(
            err("[severity]\nRH004 = \"warnin\"\n"),
            "replay-audit.toml:2:9: error: unknown variant `warnin`; help: did you mean `warning`?"
        );
        assert_eq!(
            err("[severity]\nthin-retention-margn = \"off\"\n"),
            "replay-audit.toml:2:1: error: `[severity]`: no rule `thin-retention-margn`; help: did you mean `thin-retention-margin`?"
        );
        // RH039 is two edits from RH999, within what `did you mean` allows.
        assert_eq!(
            err("[severity]\nRH999 = \"off\"\n"),
            "replay-audit.toml:2:1: error: `[severity]`: no rule `RH999`; help: did you mean `RH039`?"
        );
        assert_eq!(
            err("[severity]\nRH9999 = \"off\"\n"),
            "replay-audit.toml:2:1: error: `[severity]`: no rule `RH9999`; help: `replay-audit rules` lists every rule"
        );
        assert_eq!(
            err("[margin]\npercent = \"ten\"\n"),
            "replay-audit.toml:2:11: error: invalid type: string \"ten\", expected u64"
        );
        assert_eq!(
            err("[[waiver]]\ncode = \"RH001\"\n"),
            "replay-audit.toml:1:1: error: waiver #1 (RH001) has no `reason`; help: every waiver needs a reason: add reason = \"why this finding is accepted\""
        );
        assert_eq!(
            err("[[waiver]]\ncode = \"RH001\"\nreason = \"  \"\n"),
            "replay-audit.toml:3:10: error: waiver #1 (RH001): `reason` is empty; help: say why the finding is accepted, e.g. reason = \"the provider deduplicates for 30 days, see ADR-12\""
        );
        assert_eq!(
            err("[[waiver]]\ncode = \"RH001\"\nreason = \"x\"\nexpires = \"soon\"\n"),
            "replay-audit.toml:4:11: error: waiver #1 (RH001): `expires` is not a date; help: write the last day the waiver holds, e.g. expires = 2026-06-30"
        );
        assert!(
            err("fail_on = \n").starts_with("replay-audit.toml:1:"),
            "{}",
            err("fail_on = \n")
        );
    }

    #[test]
    fn every_error_of_the_file_is_reported_in_file_order() {
        assert_eq!(
            err("[severity]\nRH999 = \"off\"\n[margin]\nminimum = \"unbounded\"\n[[waiver]]\ncode = \"RH00\"\nexpires = \"soon\"\nintent = \"\"\n"),
            [
                "replay-audit.toml:2:1: error: `[severity]`: no rule `RH999`; help: did you mean `RH039`?",
                "replay-audit.toml:4:11: error: `margin.minimum` cannot be `unbounded`; help: give a duration such as \"5m\", or a number of seconds",
                "replay-audit.toml:6:8: error: waiver #1 (RH00): no rule `RH00`; help: did you mean one of `RH001`, `RH002`, `RH003`, `RH004`, `RH005` (or 6 more)? `replay-audit rules` lists every rule",
                "replay-audit.toml:5:1: error: waiver #1 (RH00) has no `reason`; help: every waiver needs a reason: add reason = \"why this finding is accepted\"",
                "replay-audit.toml:7:11: error: waiver #1 (RH00): `expires` is not a date; help: write the last day the waiver holds, e.g. expires = 2026-06-30",
                "replay-audit.toml:8:10: error: waiver #1 (RH00): `intent` is empty; help: give an id or a glob with `*` and `?`, or leave `intent` out to match any",
            ]
            .join("\n")
        );
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        let lines = Lines::new("a = 1\né = \"x\"\n", 0);
        assert_eq!(
            lines.loc(9),
            Loc {
                file: 0,
                line: 2,
                col: 3
            }
        );
        // Past the end, or inside a character, is clamped back.
        assert_eq!(
            lines.loc(7),
            Loc {
                file: 0,
                line: 2,
                col: 1
            }
        );
        assert_eq!(lines.loc(999).line, 3);
    }

    #[test]
    fn the_documented_policy_file_is_valid() {
        let doc = include_str!("../../docs/ci.md");
        let start = doc.find("```toml\n").expect("a toml block in docs/ci.md") + "```toml\n".len();
        let end = start + doc[start..].find("```").expect("closed block");
        let p = Policy::parse("docs/ci.md", &doc[start..end])
            .unwrap_or_else(|e| panic!("{}", e.render(false)));
        assert_eq!(p.fail_on, Some(Severity::Warning));
        assert_eq!(p.margin, Margin::default());
        assert_eq!(p.waivers.len(), 1);
        assert_eq!(
            p.waivers[0].expires.map(|d| d.to_string()).as_deref(),
            Some("2027-03-31")
        );
    }

    #[test]
    fn waiver_codes_are_exact_codes_or_names() {
        let waiver = |code: &str| {
            format!("[[waiver]]\ncode = \"{code}\"\nreason = \"x\"\nexpires = 2027-01-31\n")
        };
        for ok in ["RH001", "replay-outlives-dedup-window"] {
            let p = Policy::parse("replay-audit.toml", &waiver(ok)).unwrap();
            assert_eq!(p.waivers[0].rule.code, "RH001");
        }
        let got: Vec<String> = [
            "RH01",
            "RH1",
            "rh001",
            "rh010",
            "replay-outlives-dedup-windows",
        ]
        .iter()
        .map(|c| err(&waiver(c)))
        .collect();
        let many = "did you mean one of `RH001`, `RH010`, `RH011`, `RH012`, `RH013` (or 7 more)? `replay-audit rules` lists every rule";
        assert_eq!(
            got,
            [
                format!("replay-audit.toml:2:8: error: waiver #1 (RH01): no rule `RH01`; help: {many}"),
                format!("replay-audit.toml:2:8: error: waiver #1 (RH1): no rule `RH1`; help: {many}"),
                "replay-audit.toml:2:8: error: waiver #1 (rh001): no rule `rh001`; help: did you mean `RH001`?".to_string(),
                "replay-audit.toml:2:8: error: waiver #1 (rh010): no rule `rh010`; help: did you mean `RH010`?".to_string(),
                "replay-audit.toml:2:8: error: waiver #1 (replay-outlives-dedup-windows): no rule `replay-outlives-dedup-windows`; help: did you mean `replay-outlives-dedup-window`?".to_string(),
            ]
        );
    }

    #[test]
    fn severity_keys_are_exact_too() {
        assert_eq!(
            err("[severity]\nrh005 = \"off\"\nRH5 = \"off\"\n"),
            "replay-audit.toml:2:1: error: `[severity]`: no rule `rh005`; help: did you mean `RH005`?\nreplay-audit.toml:3:1: error: `[severity]`: no rule `RH5`; help: did you mean one of `RH005`, `RH015`, `RH025`, `RH035`, `RH050` (or 1 more)? `replay-audit rules` lists every rule"
        );
    }

    #[test]
    fn a_waiver_without_expiry_warns_or_with_require_expiry_fails() {
        let text = "[[waiver]]\ncode = \"RH001\"\nreason = \"x\"\n\n[[waiver]]\ncode = \"RH005\"\nreason = \"y\"\nexpires = 2027-01-31\n";
        let p = Policy::parse("replay-audit.toml", text).unwrap();
        assert_eq!(
            p.warnings(),
            [
                "warning: replay-audit.toml:1:1: waiver #1 (RH001) never expires; add expires = YYYY-MM-DD, the last day it holds (require_expiry = true makes this an error)"
            ]
        );
        assert_eq!(p.notes().policy.as_deref(), Some("replay-audit.toml"));
        assert_eq!(
            err(&format!("require_expiry = true\n{text}")),
            "replay-audit.toml:2:1: error: waiver #1 (RH001) has no `expires`, and the policy sets `require_expiry = true`; help: add the last day the waiver holds, e.g. expires = 2027-03-31"
        );
    }

    #[test]
    fn unknown_keys_and_bad_values_of_every_table_are_all_reported() {
        assert_eq!(
            err("fial_on = \"error\"\nrequire_expiry = \"yes\"\n[severity]\nRH001 = \"loud\"\nRH004 = \"warnin\"\n[margin]\npercnt = 5\n[[waiver]]\ncode = \"RH001\"\nreason = \"x\"\nexpire = 2027-01-31\n[[waiver]]\ncode = \"RH005\"\nreasn = \"y\"\n"),
            [
                "replay-audit.toml:1:1: error: unknown field `fial_on`; help: did you mean `fail_on`?",
                "replay-audit.toml:2:18: error: invalid type: string \"yes\", expected a boolean",
                "replay-audit.toml:4:9: error: unknown variant `loud`; help: the values here are: error, warning, info, off",
                "replay-audit.toml:5:9: error: unknown variant `warnin`; help: did you mean `warning`?",
                "replay-audit.toml:7:1: error: unknown field `percnt`; help: did you mean `percent`?",
                "replay-audit.toml:11:1: error: unknown field `expire`; help: did you mean `expires`?",
                "replay-audit.toml:14:1: error: unknown field `reasn`; help: did you mean `reason`?",
                "replay-audit.toml:12:1: error: waiver #2 (RH005) has no `reason`; help: every waiver needs a reason: add reason = \"why this finding is accepted\"",
            ]
            .join("\n")
        );
    }
}
