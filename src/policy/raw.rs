//! The policy file's raw shape, read section by section so that every error
//! of the file is reported in one run.
//!
//! `toml::from_str` into one `deny_unknown_fields` struct stops at the
//! first unknown key or wrong type. Instead the document is parsed into a
//! spanned table (`toml::de::DeTable`), every key is checked against the
//! keys its table allows (unknown ones with "did you mean"), and each
//! value is deserialized on its own, so a misspelt key in one waiver and a
//! wrong type in another are both reported.

use serde::Deserialize;
use serde::de::DeserializeOwned;
use toml::Spanned;
use toml::de::{DeTable, DeValue, ValueDeserializer};

use crate::diagnostics::{Diagnostic, Loc, did_you_mean};

/// The keys at the top of the file.
pub(super) const TOP_KEYS: &[&str] = &["fail_on", "require_expiry", "severity", "margin", "waiver"];
pub(super) const MARGIN_KEYS: &[&str] = &["percent", "minimum"];
pub(super) const WAIVER_KEYS: &[&str] =
    &["code", "intent", "component", "reason", "expires", "ticket"];

#[derive(Debug, Default)]
pub(super) struct RawPolicy {
    pub fail_on: Option<Threshold>,
    pub require_expiry: bool,
    pub severity: Vec<(Spanned<String>, Level)>,
    pub margin: Option<RawMargin>,
    /// Each waiver with the offset of its `[[waiver]]`.
    pub waivers: Vec<(usize, RawWaiver)>,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum Threshold {
    Error,
    Warning,
    Info,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum Level {
    Error,
    Warning,
    Info,
    Off,
}

#[derive(Debug, Deserialize)]
pub(super) struct RawMargin {
    pub percent: Option<u64>,
    /// A duration string (`"5m"`) or a number of seconds.
    pub minimum: Option<Spanned<toml::Value>>,
}

#[derive(Debug, Deserialize)]
pub(super) struct RawWaiver {
    pub code: Spanned<String>,
    pub intent: Option<Spanned<String>>,
    pub component: Option<Spanned<String>>,
    pub reason: Option<Spanned<String>>,
    /// A TOML date (`2026-06-30`) or the same as a string.
    pub expires: Option<Spanned<toml::Value>>,
    pub ticket: Option<String>,
}

/// Where a byte offset of the policy text stands.
pub(super) trait Locate {
    fn loc(&self, offset: usize) -> Loc;
}

/// Reads the raw policy; every error is pushed onto `errors`. Syntax
/// errors leave no table to check, so only they are reported then.
pub(super) fn read(text: &str, at: &dyn Locate, errors: &mut Vec<Diagnostic>) -> RawPolicy {
    let (doc, syntax) = DeTable::parse_recoverable(text);
    let mut raw = RawPolicy::default();
    if !syntax.is_empty() {
        errors.extend(syntax.iter().map(|e| toml_diagnostic(e, at)));
        return raw;
    }
    for (key, value) in in_file_order(doc.into_inner(), TOP_KEYS, at, errors) {
        match key.as_str() {
            "fail_on" => raw.fail_on = value_of(value, at, errors),
            "require_expiry" => raw.require_expiry = value_of(value, at, errors).unwrap_or(false),
            "severity" => raw.severity = severities(value, at, errors),
            "margin" => raw.margin = table_of(value, "margin", MARGIN_KEYS, at, errors),
            _ => raw.waivers = waivers(value, at, errors),
        }
    }
    raw
}

/// The entries of `table` whose keys are among `allowed`, in file order;
/// every other key is an error with "did you mean".
fn in_file_order<'i>(
    table: DeTable<'i>,
    allowed: &[&str],
    at: &dyn Locate,
    errors: &mut Vec<Diagnostic>,
) -> Vec<(String, Spanned<DeValue<'i>>)> {
    let mut entries: Vec<_> = table.into_iter().collect();
    entries.sort_by_key(|(k, _)| k.span().start);
    let mut out = Vec::with_capacity(entries.len());
    for (key, value) in entries {
        let name = key.get_ref().to_string();
        if allowed.contains(&name.as_str()) {
            out.push((name, value));
        } else {
            errors.push(
                Diagnostic::at(at.loc(key.span().start), format!("unknown field `{name}`"))
                    .label("not one of the keys here")
                    .help(did_you_mean(&name, allowed.iter().copied(), || {
                        format!("the keys here are: {}", allowed.join(", "))
                    })),
            );
        }
    }
    out
}

/// One value deserialized on its own; an error is pushed and gives `None`.
fn value_of<T: DeserializeOwned>(
    value: Spanned<DeValue<'_>>,
    at: &dyn Locate,
    errors: &mut Vec<Diagnostic>,
) -> Option<T> {
    T::deserialize(ValueDeserializer::from(value))
        .map_err(|e| errors.push(toml_diagnostic(&e, at)))
        .ok()
}

/// A table whose unknown keys are reported, then deserialized.
fn table_of<T: DeserializeOwned>(
    value: Spanned<DeValue<'_>>,
    name: &str,
    allowed: &[&str],
    at: &dyn Locate,
    errors: &mut Vec<Diagnostic>,
) -> Option<T> {
    let span = value.span();
    let DeValue::Table(table) = value.get_ref() else {
        errors.push(
            Diagnostic::at(at.loc(span.start), format!("`{name}` must be a table"))
                .label("wrong type")
                .help(format!("write it as a `[{name}]` section")),
        );
        return None;
    };
    let known = in_file_order(table.clone(), allowed, at, errors);
    let mut kept = DeTable::new();
    for (k, v) in table.iter() {
        if known.iter().any(|(n, _)| n == k.get_ref().as_ref()) {
            kept.insert(k.clone(), v.clone());
        }
    }
    value_of(Spanned::new(span, DeValue::Table(kept)), at, errors)
}

/// `[severity]`: every entry read on its own, so each bad level is reported.
fn severities(
    value: Spanned<DeValue<'_>>,
    at: &dyn Locate,
    errors: &mut Vec<Diagnostic>,
) -> Vec<(Spanned<String>, Level)> {
    let span = value.span();
    let DeValue::Table(table) = value.into_inner() else {
        errors.push(
            Diagnostic::at(at.loc(span.start), "`severity` must be a table")
                .label("wrong type")
                .help("write it as a `[severity]` section of `CODE = \"level\"` lines"),
        );
        return Vec::new();
    };
    let mut entries: Vec<_> = table.into_iter().collect();
    entries.sort_by_key(|(k, _)| k.span().start);
    entries
        .into_iter()
        .filter_map(|(k, v)| {
            let level = value_of(v, at, errors)?;
            Some((Spanned::new(k.span(), k.into_inner().into_owned()), level))
        })
        .collect()
}

/// `[[waiver]]`: each table checked and read on its own.
fn waivers(
    value: Spanned<DeValue<'_>>,
    at: &dyn Locate,
    errors: &mut Vec<Diagnostic>,
) -> Vec<(usize, RawWaiver)> {
    let span = value.span();
    let DeValue::Array(items) = value.into_inner() else {
        errors.push(
            Diagnostic::at(at.loc(span.start), "`waiver` must be a list of tables")
                .label("wrong type")
                .help("write each waiver as a `[[waiver]]` section"),
        );
        return Vec::new();
    };
    items
        .into_iter()
        .filter_map(|item| {
            let start = item.span().start;
            table_of(item, "[waiver]", WAIVER_KEYS, at, errors).map(|w| (start, w))
        })
        .collect()
}

/// The backticked words of a serde message: the offending name first, then
/// the expected ones.
fn backticked(msg: &str) -> Vec<&str> {
    msg.split('`').skip(1).step_by(2).collect()
}

/// A toml error as a diagnostic, with "did you mean" for unknown values.
pub(super) fn toml_diagnostic(e: &toml::de::Error, at: &dyn Locate) -> Diagnostic {
    let msg = e.message().trim().to_string();
    let first_line = msg.lines().next().unwrap_or_default().to_string();
    let loc = e.span().map(|s| at.loc(s.start));
    let mut d = Diagnostic::new(loc, first_line.clone());
    if first_line.starts_with("unknown variant") {
        let words = backticked(&first_line);
        if let Some((name, expected)) = words.split_first() {
            d.message = format!("unknown variant `{name}`");
            d.label = "not one of the values here".to_string();
            d = d.help(did_you_mean(name, expected.iter().copied(), || {
                format!("the values here are: {}", expected.join(", "))
            }));
        }
    } else if first_line.starts_with("missing field") {
        d.label = "in this table".to_string();
        d = d.help("add the field; see docs/ci.md for the policy file's keys");
    } else if first_line.starts_with("invalid type") {
        d.label = "wrong type".to_string();
    }
    d
}
