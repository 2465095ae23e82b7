//! `--format json`: the stable contract of `cli.md`.

use std::io::{self, Write};

use serde::Serialize;

use crate::diagnostics::{Diagnostic, Location, SourceMap};
use crate::policy::Notes;
use crate::report::Summary;
use crate::report::format::{CheckRun, Format};
use crate::rules::{Finding, Waived};

#[derive(Debug, Serialize)]
pub struct JsonFinding {
    pub code: &'static str,
    pub name: &'static str,
    pub severity: &'static str,
    pub message: String,
    #[serde(flatten)]
    pub values: FindingValues,
    pub location: Option<Location>,
    /// The live waiver covering it, or null.
    pub waived: Option<Waived>,
    /// Listed in the `--baseline` file.
    pub baselined: bool,
}

impl JsonFinding {
    pub fn from(map: &SourceMap, f: &Finding) -> JsonFinding {
        JsonFinding {
            code: f.rule.code,
            name: f.rule.name,
            severity: f.severity.name(),
            message: f.message.clone(),
            values: FindingValues::of(f),
            location: f.loc.map(|l| map.location(l)),
            waived: f.waived.clone(),
            baselined: f.baselined,
        }
    }
}

/// A finding's own values, in this order: the fields of a JSON finding
/// between `message` and `location`, and SARIF's result `properties`.
#[derive(Debug, Default, Serialize)]
pub struct FindingValues {
    pub intent: Option<String>,
    pub component: Option<String>,
    pub horizon_seconds: Option<u64>,
    pub window_seconds: Option<u64>,
    pub path: Vec<String>,
    pub assumptions: Vec<String>,
}

impl FindingValues {
    pub fn of(f: &Finding) -> FindingValues {
        FindingValues {
            intent: f.intent.clone(),
            component: f.component.clone(),
            horizon_seconds: f.horizon.and_then(|h| h.secs()),
            window_seconds: f.window.and_then(|w| w.secs()),
            path: f.path.clone(),
            assumptions: f.assumptions.clone(),
        }
    }
}

/// One input error: what is wrong, where, and how to fix it.
#[derive(Debug, Clone, Serialize)]
pub struct JsonError {
    pub message: String,
    pub location: Option<Location>,
    pub help: Option<String>,
}

impl JsonError {
    pub fn from(map: &SourceMap, d: &Diagnostic) -> JsonError {
        JsonError {
            message: d.message.clone(),
            location: d.loc.map(|l| map.location(l)),
            help: d.help.clone(),
        }
    }
}

#[derive(Serialize)]
struct Report<'a> {
    version: u32,
    findings: Lazy<'a>,
    summary: Summary,
    #[serde(flatten)]
    notes: Notes,
    /// Only when the input could not be analysed (exit 2).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    errors: Vec<JsonError>,
}

/// The findings, each converted as it is written: a large report never
/// holds a second copy of every finding.
struct Lazy<'a>(&'a SourceMap, &'a [Finding]);

impl Serialize for Lazy<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.1.iter().map(|f| JsonFinding::from(self.0, f)))
    }
}

pub fn render(map: &SourceMap, findings: &[Finding]) -> String {
    render_with(map, findings, &Notes::default())
}

/// [`render`] with the policy's and the baseline's notes (`unused_waivers`,
/// `stale_baseline`).
pub fn render_with(map: &SourceMap, findings: &[Finding], notes: &Notes) -> String {
    let mut buf = Vec::new();
    write_with(&mut buf, map, findings, notes).expect("writing to memory cannot fail");
    String::from_utf8(buf).expect("serde_json writes UTF-8")
}

/// [`render_with`] straight to a writer, so a large report is never held
/// whole in memory.
pub fn write_with(
    mut w: impl std::io::Write,
    map: &SourceMap,
    findings: &[Finding],
    notes: &Notes,
) -> std::io::Result<()> {
    let r = Report {
        version: 1,
        findings: Lazy(map, findings),
        summary: Summary::of(findings),
        notes: notes.clone(),
        errors: Vec::new(),
    };
    write_pretty(&mut w, &r)?;
    w.write_all(b"\n")
}

/// The report of an input that could not be analysed: no findings, zero
/// counts, and its `errors`.
pub fn write_errors(
    mut w: impl std::io::Write,
    map: &SourceMap,
    errors: &[Diagnostic],
) -> std::io::Result<()> {
    let r = Report {
        version: 1,
        findings: Lazy(map, &[]),
        summary: Summary::default(),
        notes: Notes::default(),
        errors: errors.iter().map(|d| JsonError::from(map, d)).collect(),
    };
    write_pretty(&mut w, &r)?;
    w.write_all(b"\n")
}

/// Pretty JSON in which C1 controls, line and paragraph separators and
/// bidirectional overrides are `\uXXXX` escapes: the values stay exact
/// for a JSON reader, and a terminal or log showing the file gets no
/// one-byte CSI (U+009B) nor reordered text.
pub fn write_pretty<T: Serialize + ?Sized>(w: impl Write, value: &T) -> io::Result<()> {
    let mut ser =
        serde_json::Serializer::with_formatter(w, Inert(serde_json::ser::PrettyFormatter::new()));
    // `From` keeps an I/O error's kind (a closed pipe stays `BrokenPipe`).
    value.serialize(&mut ser).map_err(io::Error::from)
}

/// [`serde_json::ser::PrettyFormatter`] with the escapes of [`write_pretty`].
struct Inert<'a>(serde_json::ser::PrettyFormatter<'a>);

fn needs_escape(c: char) -> bool {
    matches!(c, '\u{80}'..='\u{9f}' | '\u{2028}' | '\u{2029}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

impl serde_json::ser::Formatter for Inert<'_> {
    fn write_string_fragment<W: ?Sized + Write>(
        &mut self,
        w: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        let mut rest = fragment;
        while let Some(i) = rest.find(needs_escape) {
            w.write_all(&rest.as_bytes()[..i])?;
            let c = rest[i..].chars().next().expect("found");
            write!(w, "\\u{:04x}", c as u32)?;
            rest = &rest[i + c.len_utf8()..];
        }
        w.write_all(rest.as_bytes())
    }

    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_array(w)
    }
    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_array(w)
    }
    fn begin_array_value<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.0.begin_array_value(w, first)
    }
    fn end_array_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_array_value(w)
    }
    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_object(w)
    }
    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object(w)
    }
    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.0.begin_object_key(w, first)
    }
    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_object_value(w)
    }
    fn end_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object_value(w)
    }
}

/// `--format json`, written as it is produced: a large report is never held
/// whole.
pub struct JsonFormat;

impl Format for JsonFormat {
    fn write(&self, out: &mut dyn Write, run: &CheckRun) -> io::Result<()> {
        write_with(out, run.sources(), run.findings, run.notes)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn c1_controls_and_bidi_overrides_are_escaped_and_read_back_exact() {
        let value = "a\u{9b}2J b\u{202e}c\u{2028}d é\u{1}";
        let mut out = Vec::new();
        super::write_pretty(&mut out, &[value]).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text, "[\n  \"a\\u009b2J b\\u202ec\\u2028d é\\u0001\"\n]");
        let back: Vec<String> = serde_json::from_str(&text).unwrap();
        assert_eq!(back, [value]);
    }
}
