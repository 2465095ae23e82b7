//! Reading the policy file `replay-audit.toml`.
//!
//! The file is read with the `toml` crate into `deny_unknown_fields`
//! structs (its raw shape, below); every error (syntax, unknown key, wrong
//! type, a waiver without a reason) becomes a [`Diagnostic`] at
//! `file:line:column`, rendered like the manifest's errors, and the binary
//! exits with 2. Every error of the file is collected, not just the first.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;
use toml::Spanned;

use super::{Date, Policy, PolicyError, Waiver};
use crate::diagnostics::{Diagnostic, Loc, SourceMap, did_you_mean};
use crate::files::Origin;
use crate::rules::{self, Margin, RULES, Rule, Severity};
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
        let raw: RawPolicy = match toml::from_str(text) {
            Ok(r) => r,
            Err(e) => return Err(PolicyError::one(name, sources, toml_diagnostic(&e, &lines))),
        };
        let mut errors = Vec::new();
        let mut p = Policy {
            fail_on: raw.fail_on.map(|s| s.into_inner().severity()),
            severity: severities(raw.severity, &lines, &mut errors),
            ..Policy::default()
        };
        if let Some(m) = raw.margin {
            p.margin = margin(m, &lines, &mut errors);
        }
        for (i, w) in raw.waivers.into_iter().enumerate() {
            if let Some(w) = waiver(i + 1, w, &lines, &mut errors) {
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
    raw: BTreeMap<Spanned<String>, Spanned<Level>>,
    lines: &Lines,
    errors: &mut Vec<Diagnostic>,
) -> BTreeMap<&'static str, Option<Severity>> {
    let mut out = BTreeMap::new();
    for (key, level) in raw {
        match find_rule(key.get_ref()) {
            Ok(rule) => {
                out.insert(rule.code, level.get_ref().severity_or_off());
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
            Ok(Dur::Secs(s)) => m.minimum = s,
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
    raw: Spanned<RawWaiver>,
    lines: &Lines,
    errors: &mut Vec<Diagnostic>,
) -> Option<Waiver> {
    let at = lines.loc(raw.span().start);
    let w = raw.into_inner();
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

// ---- the file's raw shape ------------------------------------------------

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPolicy {
    fail_on: Option<Spanned<Threshold>>,
    #[serde(default)]
    severity: BTreeMap<Spanned<String>, Spanned<Level>>,
    margin: Option<RawMargin>,
    #[serde(default, rename = "waiver")]
    waivers: Vec<Spanned<RawWaiver>>,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Threshold {
    Error,
    Warning,
    Info,
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

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Level {
    Error,
    Warning,
    Info,
    Off,
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

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMargin {
    percent: Option<u64>,
    /// A duration string (`"5m"`) or a number of seconds.
    minimum: Option<Spanned<toml::Value>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawWaiver {
    code: Spanned<String>,
    intent: Option<Spanned<String>>,
    component: Option<Spanned<String>>,
    reason: Option<Spanned<String>>,
    /// A TOML date (`2026-06-30`) or the same as a string.
    expires: Option<Spanned<toml::Value>>,
    ticket: Option<String>,
}

fn duration(v: &toml::Value) -> Result<Dur, String> {
    match v {
        toml::Value::Integer(i) if *i < 0 => {
            Err(format!("`{i}` is negative: durations cannot be negative"))
        }
        toml::Value::Integer(i) => Ok(Dur::Secs(*i as u64)),
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

/// The rule a code or name stands for; else the help to show.
fn find_rule(code: &str) -> Result<&'static Rule, String> {
    rules::rule(code).ok_or_else(|| {
        let names = RULES
            .iter()
            .map(|r| r.code)
            .chain(RULES.iter().map(|r| r.name));
        did_you_mean(code, names, || {
            "`replay-audit rules` lists every rule".to_string()
        })
    })
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

/// The backticked words of a serde message: the offending name first, then
/// the expected ones.
fn backticked(msg: &str) -> Vec<&str> {
    msg.split('`').skip(1).step_by(2).collect()
}

/// A toml error as a diagnostic, with "did you mean" for unknown keys and
/// values.
fn toml_diagnostic(e: &toml::de::Error, lines: &Lines) -> Diagnostic {
    let msg = e.message().trim().to_string();
    let first_line = msg.lines().next().unwrap_or_default().to_string();
    let at = e.span().map(|s| lines.loc(s.start));
    let mut d = Diagnostic::new(at, first_line.clone());
    for (prefix, what) in [("unknown field", "keys"), ("unknown variant", "values")] {
        if first_line.starts_with(prefix) {
            let words = backticked(&first_line);
            if let Some((name, expected)) = words.split_first() {
                d.message = format!("{prefix} `{name}`");
                d.label = format!("not one of the {what} here");
                d = d.help(did_you_mean(name, expected.iter().copied(), || {
                    format!("the {what} here are: {}", expected.join(", "))
                }));
            }
            return d;
        }
    }
    if first_line.starts_with("missing field") {
        d.label = "in this table".to_string();
        d = d.help("add the field; see docs/ci.md for the policy file's keys");
    } else if first_line.starts_with("invalid type") {
        d.label = "wrong type".to_string();
    }
    d
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
        assert_eq!(p.options().margin.of(Dur::Secs(3600)), Dur::Secs(720));
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
        assert_eq!(
            err("[severity]\nRH999 = \"off\"\n"),
            "replay-audit.toml:2:1: error: `[severity]`: no rule `RH999`; help: `replay-audit rules` lists every rule"
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
                "replay-audit.toml:2:1: error: `[severity]`: no rule `RH999`; help: `replay-audit rules` lists every rule",
                "replay-audit.toml:4:11: error: `margin.minimum` cannot be `unbounded`; help: give a duration such as \"5m\", or a number of seconds",
                "replay-audit.toml:6:8: error: waiver #1 (RH00): no rule `RH00`; help: did you mean `RH001`?",
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
            Some("2026-09-30")
        );
    }
}
