//! The policy file `replay-audit.toml` (failing severity, per-rule severity,
//! margin, waivers) and baselines (`check --baseline` / `--write-baseline`).
//!
//! The file is read with the `toml` crate into `deny_unknown_fields`
//! structs; every error (syntax, unknown key, wrong type, a waiver without a
//! reason) becomes a [`Diagnostic`] at `file:line:column`, rendered like the
//! manifest's errors, and the binary exits with 2.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use toml::Spanned;

use crate::diagnostics::{Diagnostic, Loc, Location, SourceMap, suggest};
use crate::files::Origin;
use crate::rules::{self, Finding, Margin, Options, RULES, Rule, Severity, Waived};
use crate::time::Dur;

/// The policy file's name, looked for beside the manifest.
pub const FILE_NAME: &str = "replay-audit.toml";

/// The environment variable that fixes "today" for waiver expiry (tests).
pub const TODAY_VAR: &str = "REPLAY_AUDIT_TODAY";

/// The policy file (or baseline) could not be used: every error found and
/// the file to render them against.
#[derive(Debug, thiserror::Error)]
#[error("{} error(s) in `{}`", .diagnostics.len(), .path)]
pub struct PolicyError {
    pub path: String,
    pub sources: SourceMap,
    pub diagnostics: Vec<Diagnostic>,
}

impl PolicyError {
    fn one(path: &str, sources: SourceMap, d: Diagnostic) -> PolicyError {
        PolicyError {
            path: path.to_string(),
            sources,
            diagnostics: vec![d],
        }
    }

    /// Renders every error like rustc, followed by a count.
    pub fn render(&self, color: bool) -> String {
        let mut s = String::new();
        for d in &self.diagnostics {
            s.push_str(&d.render(&self.sources, color));
            s.push_str("\n\n");
        }
        let n = self.diagnostics.len();
        s.push_str(&format!(
            "error: could not use `{}`: {n} error{}\n",
            crate::diagnostics::echo(&self.path),
            if n == 1 { "" } else { "s" }
        ));
        s
    }
}

/// A calendar date, `YYYY-MM-DD`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Date {
    pub year: u16,
    pub month: u8,
    pub day: u8,
}

impl Date {
    /// Parses exactly `YYYY-MM-DD`, refusing days that do not exist.
    pub fn parse(text: &str) -> Option<Date> {
        let b = text.as_bytes();
        let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
        if b.len() != 10
            || b[4] != b'-'
            || b[7] != b'-'
            || !digits(0..4)
            || !digits(5..7)
            || !digits(8..10)
        {
            return None;
        }
        // humantime (already a dependency) knows the calendar: it refuses
        // 2025-02-30, so no date crate is needed for this one check.
        humantime::parse_rfc3339(&format!("{text}T00:00:00Z")).ok()?;
        Some(Date {
            year: text[0..4].parse().ok()?,
            month: text[5..7].parse().ok()?,
            day: text[8..10].parse().ok()?,
        })
    }

    /// Today (UTC), or the date in `REPLAY_AUDIT_TODAY`.
    pub fn today() -> Result<Date, String> {
        if let Some(v) = std::env::var_os(TODAY_VAR) {
            let v = v.to_string_lossy();
            return Date::parse(v.trim())
                .ok_or_else(|| format!("{TODAY_VAR}=`{v}` is not a date: write YYYY-MM-DD"));
        }
        let now = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
        Date::parse(&now[..10]).ok_or_else(|| format!("the system clock gives `{now}`, not a date"))
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

/// One `[[waiver]]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Waiver {
    pub rule: &'static Rule,
    /// Glob (`*`, `?`) on the finding's intent.
    pub intent: Option<String>,
    /// Glob (`*`, `?`) on the finding's component.
    pub component: Option<String>,
    pub reason: String,
    pub ticket: Option<String>,
    /// The last day the waiver holds.
    pub expires: Option<Date>,
    /// Where the `[[waiver]]` stands in the policy file.
    pub loc: Loc,
}

impl Waiver {
    pub fn matches(&self, f: &Finding) -> bool {
        let field = |pat: &Option<String>, val: &Option<String>| match (pat, val) {
            (None, _) => true,
            (Some(p), Some(v)) => glob(p, v),
            (Some(_), None) => false,
        };
        f.rule.code == self.rule.code
            && field(&self.intent, &f.intent)
            && field(&self.component, &f.component)
    }

    pub fn expired(&self, today: Date) -> bool {
        self.expires.is_some_and(|e| today > e)
    }
}

/// A read policy; [`Policy::default`] is what applies without a file.
#[derive(Debug, Clone, Default)]
pub struct Policy {
    /// The file it was read from, if any, for messages.
    pub sources: SourceMap,
    pub fail_on: Option<Severity>,
    /// Per-rule severity; `None` turns the rule off.
    pub severity: BTreeMap<&'static str, Option<Severity>>,
    pub margin: Margin,
    pub waivers: Vec<Waiver>,
}

/// A waiver that matched no finding (JSON `unused_waivers`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UnusedWaiver {
    pub code: &'static str,
    pub intent: Option<String>,
    pub component: Option<String>,
    pub reason: String,
    pub location: Location,
}

/// What the policy and the baseline report besides the findings (additive
/// keys of the JSON output).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Notes {
    pub unused_waivers: Vec<UnusedWaiver>,
    /// Baseline fingerprints that no finding has any more.
    pub stale_baseline: Vec<String>,
}

impl Notes {
    /// One warning line per note, for stderr.
    pub fn warnings(&self, baseline: Option<&str>) -> Vec<String> {
        let mut out = Vec::new();
        for w in &self.unused_waivers {
            let mut target = w.code.to_string();
            for (k, v) in [("intent", &w.intent), ("component", &w.component)] {
                if let Some(v) = v {
                    target.push_str(&format!(" {k}={v}"));
                }
            }
            out.push(format!(
                "warning: {}:{}:{}: waiver for {target} matched no finding; remove it or fix its code, intent or component",
                w.location.file, w.location.line, w.location.column
            ));
        }
        for s in &self.stale_baseline {
            out.push(format!(
                "warning: baseline entry `{s}` no longer occurs{}; rewrite the baseline with --write-baseline",
                baseline.map(|b| format!(" (in {b})")).unwrap_or_default()
            ));
        }
        out
    }
}

impl Policy {
    /// The options the rules take from this policy.
    pub fn options(&self) -> Options {
        Options {
            margin: self.margin,
        }
    }

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
        // Line starts found once: a policy of 20,000 waivers asks for a
        // location per waiver, and counting lines from the top each time
        // made reading it quadratic.
        let starts: Vec<usize> = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        let loc = |offset: usize| offset_loc(text, &starts, file, offset);
        let raw: RawPolicy = match toml::from_str(text) {
            Ok(r) => r,
            Err(e) => {
                let d = toml_diagnostic(&e, &loc);
                return Err(PolicyError::one(name, sources, d));
            }
        };
        let mut errors = Vec::new();
        let mut p = Policy {
            fail_on: raw.fail_on.map(|s| s.into_inner().severity()),
            ..Policy::default()
        };
        for (key, level) in raw.severity {
            match find_rule(key.get_ref()) {
                Ok(rule) => {
                    p.severity
                        .insert(rule.code, level.get_ref().severity_or_off());
                }
                Err(help) => errors.push(
                    Diagnostic::at(
                        loc(key.span().start),
                        format!("`[severity]`: no rule `{}`", key.get_ref()),
                    )
                    .label("not a rule code or name")
                    .help(help),
                ),
            }
        }
        if let Some(m) = raw.margin {
            if let Some(pc) = m.percent {
                p.margin.percent = pc;
            }
            if let Some(min) = m.minimum {
                match duration(min.get_ref()) {
                    Ok(Dur::Secs(s)) => p.margin.minimum = s,
                    Ok(Dur::Unbounded) => errors.push(
                        Diagnostic::at(
                            loc(min.span().start),
                            "`margin.minimum` cannot be `unbounded`",
                        )
                        .help("give a duration such as \"5m\", or a number of seconds"),
                    ),
                    Err(msg) => errors.push(
                        Diagnostic::at(loc(min.span().start), format!("`margin.minimum`: {msg}"))
                            .label("bad duration"),
                    ),
                }
            }
        }
        for (i, w) in raw.waivers.into_iter().enumerate() {
            let at = loc(w.span().start);
            let w = w.into_inner();
            let what = format!("waiver #{} ({})", i + 1, w.code.get_ref());
            let rule = match find_rule(w.code.get_ref()) {
                Ok(r) => Some(r),
                Err(help) => {
                    errors.push(
                        Diagnostic::at(
                            loc(w.code.span().start),
                            format!("{what}: no rule `{}`", w.code.get_ref()),
                        )
                        .label("not a rule code or name")
                        .help(help),
                    );
                    None
                }
            };
            let reason = match &w.reason {
                Some(r) if !r.get_ref().trim().is_empty() => Some(r.get_ref().trim().to_string()),
                Some(r) => {
                    errors.push(
                        Diagnostic::at(loc(r.span().start), format!("{what}: `reason` is empty"))
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
            };
            let expires = match &w.expires {
                None => None,
                Some(v) => {
                    match date(v.get_ref()) {
                        Some(d) => Some(d),
                        None => {
                            errors.push(
                            Diagnostic::at(loc(v.span().start), format!("{what}: `expires` is not a date"))
                                .label("expected YYYY-MM-DD")
                                .help("write the last day the waiver holds, e.g. expires = 2026-06-30"),
                        );
                            None
                        }
                    }
                }
            };
            for (field, pat) in [("intent", &w.intent), ("component", &w.component)] {
                if let Some(pat) = pat
                    && pat.get_ref().is_empty()
                {
                    errors.push(
                        Diagnostic::at(loc(pat.span().start), format!("{what}: `{field}` is empty"))
                            .help(format!("give an id or a glob with `*` and `?`, or leave `{field}` out to match any")),
                    );
                }
            }
            if let (Some(rule), Some(reason)) = (rule, reason) {
                p.waivers.push(Waiver {
                    rule,
                    intent: w.intent.map(Spanned::into_inner),
                    component: w.component.map(Spanned::into_inner),
                    reason,
                    ticket: w.ticket,
                    expires,
                    loc: at,
                });
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

    /// The policy for `paths`: the file `config` names, else
    /// replay-audit.toml beside the first path ([`locate`]), else the
    /// defaults.
    pub fn find(paths: &[PathBuf], config: Option<&Path>) -> Result<Policy, PolicyError> {
        let origin = if config.is_some() {
            Origin::Given
        } else {
            Origin::Found
        };
        locate(paths, config)
            .map_or_else(|| Ok(Policy::default()), |p| Policy::read_from(&p, origin))
    }

    /// The lowest severity that fails a run: `flag` (`--fail-on`), else the
    /// policy's `fail_on`, else error.
    pub fn threshold(&self, flag: Option<Severity>) -> Severity {
        flag.or(self.fail_on).unwrap_or(Severity::Error)
    }

    /// The findings of an analysis under this policy: the rules run with
    /// its options, then [`Policy::apply`].
    pub fn check(
        &self,
        a: &crate::analysis::Analysis,
        today: Date,
    ) -> (Vec<Finding>, Vec<UnusedWaiver>) {
        self.apply(rules::check_with(a, &self.options()), today)
    }

    /// Applies severity overrides (dropping rules that are `off`) and
    /// waivers. Waived findings stay, marked; an expired waiver leaves the
    /// finding active and says so in its message.
    pub fn apply(&self, findings: Vec<Finding>, today: Date) -> (Vec<Finding>, Vec<UnusedWaiver>) {
        let mut used = vec![false; self.waivers.len()];
        let index = crate::waiver_index::WaiverIndex::new(&self.waivers);
        let mut out = Vec::with_capacity(findings.len());
        for mut f in findings {
            match self.severity.get(f.rule.code) {
                Some(None) => continue,
                Some(Some(sev)) => f.severity = *sev,
                None => {}
            }
            let mut expired = None;
            // The waivers that may match, in file order (see `waiver_index`).
            for i in index.candidates(&f) {
                let w = &self.waivers[i];
                if !w.matches(&f) {
                    continue;
                }
                used[i] = true;
                if w.expired(today) {
                    expired.get_or_insert(w);
                } else if f.waived.is_none() {
                    f.waived = Some(Waived {
                        reason: w.reason.clone(),
                        ticket: w.ticket.clone(),
                        expires: w.expires.map(|d| d.to_string()),
                    });
                }
            }
            if f.waived.is_none()
                && let Some(w) = expired
            {
                f.message.push_str(&format!(
                    " (waiver expired on {}: {}{})",
                    w.expires.map(|d| d.to_string()).unwrap_or_default(),
                    w.reason,
                    w.ticket
                        .as_ref()
                        .map(|t| format!(", {t}"))
                        .unwrap_or_default()
                ));
            }
            out.push(f);
        }
        let unused = self
            .waivers
            .iter()
            .zip(used)
            .filter(|(_, u)| !u)
            .map(|(w, _)| UnusedWaiver {
                code: w.rule.code,
                intent: w.intent.clone(),
                component: w.component.clone(),
                reason: w.reason.clone(),
                location: self.sources.location(w.loc),
            })
            .collect();
        (out, unused)
    }
}

/// The policy file for a run: the one given with `--config`, else
/// `replay-audit.toml` beside the first manifest path (in the folder when a
/// folder is given), if there is one. A symbolic link of that name is
/// located too, for [`Policy::find`] to refuse (never read, never ignored).
pub fn locate(paths: &[PathBuf], config: Option<&Path>) -> Option<PathBuf> {
    if let Some(c) = config {
        return Some(c.to_path_buf());
    }
    let first = paths.first()?;
    let dir = if first.is_dir() {
        first.clone()
    } else {
        match first.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        }
    };
    let candidate = dir.join(FILE_NAME);
    let entry = std::fs::symlink_metadata(&candidate).ok()?;
    (entry.is_file() || entry.file_type().is_symlink()).then_some(candidate)
}

/// Matches `*` (any run of characters) and `?` (one character); nothing
/// else is special. Hand-written: waivers need only these two, and none of
/// the approved crates offers a glob matcher.
pub fn glob(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == t[ti]) {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some((pi, ti));
            pi += 1;
        } else if let Some((sp, st)) = star {
            pi = sp + 1;
            ti = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

// ---- baseline ---------------------------------------------------------

/// A baseline: the fingerprints of accepted findings.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Baseline {
    pub version: u32,
    /// Sorted, without repeats ([`Finding::fingerprint`]).
    pub fingerprints: BTreeSet<String>,
}

impl Baseline {
    /// The non-waived findings of a run.
    pub fn of(findings: &[Finding]) -> Baseline {
        Baseline {
            version: 1,
            fingerprints: findings
                .iter()
                .filter(|f| f.waived.is_none())
                .map(Finding::fingerprint)
                .collect(),
        }
    }

    /// Pretty JSON, one fingerprint a line, ending in a newline.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a baseline serialises") + "\n"
    }

    pub fn read(path: &Path) -> Result<Baseline, PolicyError> {
        let name = path.display().to_string();
        let max = crate::manifest::Limits::default().max_file_bytes;
        let text = crate::files::read_given(path, max).map_err(|d| {
            PolicyError::one(
                &name,
                SourceMap::default(),
                d.help("create it with `replay-audit check --write-baseline FILE ...`"),
            )
        })?;
        Baseline::parse(&name, &text)
    }

    pub fn parse(name: &str, text: &str) -> Result<Baseline, PolicyError> {
        let mut sources = SourceMap::default();
        let file = sources.add(name.to_string(), crate::files::excerpt(text));
        let b: Baseline = serde_json::from_str(text).map_err(|e| {
            let at = Loc { file, line: e.line() as u32, col: e.column().max(1) as u32 };
            PolicyError::one(
                name,
                sources.clone(),
                Diagnostic::at(at, format!("not a replay-audit baseline: {e}"))
                    .help("a baseline is {\"version\": 1, \"fingerprints\": [...]}; rewrite it with --write-baseline"),
            )
        })?;
        if b.version != 1 {
            return Err(PolicyError::one(
                name,
                sources,
                Diagnostic::new(
                    None,
                    format!(
                        "baseline `{name}` has version {}, this replay-audit reads version 1",
                        b.version
                    ),
                )
                .help("rewrite it with --write-baseline"),
            ));
        }
        Ok(b)
    }

    /// Marks the findings listed here as baselined; returns the entries
    /// that no finding has any more.
    pub fn apply(&self, findings: &mut [Finding]) -> Vec<String> {
        let mut seen = BTreeSet::new();
        for f in findings.iter_mut() {
            let fp = f.fingerprint();
            if self.fingerprints.contains(&fp) {
                seen.insert(fp);
                if f.waived.is_none() {
                    f.baselined = true;
                }
            }
        }
        self.fingerprints.difference(&seen).cloned().collect()
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

fn find_rule(code: &str) -> Result<&'static Rule, String> {
    rules::rule(code).ok_or_else(|| {
        let names = RULES
            .iter()
            .map(|r| r.code)
            .chain(RULES.iter().map(|r| r.name));
        suggest(code, names).map_or_else(
            || "`replay-audit rules` lists every rule".to_string(),
            |s| format!("did you mean `{s}`?"),
        )
    })
}

/// Line and column (1-based, in characters) of a byte offset; `starts` are
/// the byte offsets where the lines of `text` begin.
fn offset_loc(text: &str, starts: &[usize], file: u32, offset: usize) -> Loc {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let line = starts.partition_point(|&s| s <= offset).max(1);
    let col = text[starts[line - 1]..offset].chars().count() as u32 + 1;
    Loc {
        file,
        line: line as u32,
        col,
    }
}

/// The backticked words of a serde message: the offending name first, then
/// the expected ones.
fn backticked(msg: &str) -> Vec<&str> {
    msg.split('`').skip(1).step_by(2).collect()
}

/// A toml error as a diagnostic, with "did you mean" for unknown keys and
/// values.
fn toml_diagnostic(e: &toml::de::Error, loc: &dyn Fn(usize) -> Loc) -> Diagnostic {
    let msg = e.message().trim().to_string();
    let first_line = msg.lines().next().unwrap_or_default().to_string();
    let at = e.span().map(|s| loc(s.start));
    let mut d = Diagnostic::new(at, first_line.clone());
    for (prefix, what) in [("unknown field", "keys"), ("unknown variant", "values")] {
        if first_line.starts_with(prefix) {
            let words = backticked(&first_line);
            if let Some((name, expected)) = words.split_first() {
                d.message = format!("{prefix} `{name}`");
                d.label = format!("not one of the {what} here");
                d = match suggest(name, expected.iter().copied()) {
                    Some(s) => d.help(format!("did you mean `{s}`?")),
                    None => d.help(format!("the {what} here are: {}", expected.join(", "))),
                };
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
    fn globs_match_star_and_question_mark() {
        assert!(glob("payout-*", "payout-idempotency"));
        assert!(glob("*", ""));
        assert!(glob("a?c", "abc"));
        assert!(!glob("a?c", "ac"));
        assert!(glob("*-keys*", "payout-keys-eu"));
        assert!(!glob("payout", "payout-keys"));
        assert!(glob("p*t*s", "payouts"));
    }

    #[test]
    fn dates_are_strict() {
        assert_eq!(
            Date::parse("2026-02-28"),
            Some(Date {
                year: 2026,
                month: 2,
                day: 28
            })
        );
        assert_eq!(Date::parse("2026-02-30"), None);
        assert_eq!(Date::parse("2026-2-28"), None);
        assert!(Date::parse("2026-01-31").unwrap() < Date::parse("2026-02-01").unwrap());
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
    fn the_documented_policy_file_is_valid() {
        let doc = include_str!("../docs/ci.md");
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
