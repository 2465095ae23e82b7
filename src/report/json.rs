//! `--format json`: the stable contract of `cli.md`.

use crate::report::format::Each;
use crate::report::root::Root;
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
    /// How to fix it (what the terminal prints after `= help:`).
    pub help: String,
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
            help: f.help(),
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
            intent: f.intent.as_deref().map(str::to_string),
            component: f.component.as_deref().map(str::to_string),
            horizon_seconds: f.horizon.and_then(|h| h.as_secs_ceil()),
            window_seconds: f.window.and_then(|w| w.as_secs_ceil()),
            path: f.path.clone(),
            assumptions: f.assumptions().map(str::to_string).collect(),
        }
    }
}

/// [`Location`] with its file name borrowed from the source map.
#[derive(Serialize)]
struct LocationRef<'a> {
    file: &'a str,
    line: u32,
    column: u32,
}

/// A finding as [`JsonFinding`] writes it, every string borrowed: the
/// report of `check` writes each finding's text straight from the finding.
/// Its fields are [`JsonFinding`]'s, with [`FindingValues`] inline.
#[derive(Serialize)]
struct JsonFindingRef<'a> {
    code: &'static str,
    name: &'static str,
    severity: &'static str,
    message: &'a str,
    help: String,
    intent: Option<&'a str>,
    component: Option<&'a str>,
    horizon_seconds: Option<u64>,
    window_seconds: Option<u64>,
    path: &'a [String],
    assumptions: Vec<&'a str>,
    location: Option<LocationRef<'a>>,
    waived: Option<&'a Waived>,
    baselined: bool,
}

impl<'a> JsonFindingRef<'a> {
    fn of(map: &'a SourceMap, f: &'a Finding) -> JsonFindingRef<'a> {
        JsonFindingRef {
            code: f.rule.code,
            name: f.rule.name,
            severity: f.severity.name(),
            message: &f.message,
            help: f.help(),
            intent: f.intent.as_deref(),
            component: f.component.as_deref(),
            horizon_seconds: f.horizon.and_then(|h| h.as_secs_ceil()),
            window_seconds: f.window.and_then(|w| w.as_secs_ceil()),
            path: &f.path,
            assumptions: f.assumptions().collect(),
            location: f.loc.map(|l| LocationRef {
                file: map.path(l),
                line: l.line,
                column: l.col,
            }),
            waived: f.waived.as_ref(),
            baselined: f.baselined,
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

/// The findings, each written from the finding itself: a large report
/// never holds a second copy of a finding nor of its text.
struct Lazy<'a>(&'a SourceMap, &'a [Finding]);

impl Serialize for Lazy<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.1.iter().map(|f| JsonFindingRef::of(self.0, f)))
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
    let mut ser = serde_json::Serializer::with_formatter(w, Inert::new());
    // `From` keeps an I/O error's kind (a closed pipe stays `BrokenPipe`).
    value.serialize(&mut ser).map_err(io::Error::from)
}

/// The output of [`serde_json::ser::PrettyFormatter`] (two spaces a level)
/// with the escapes of [`write_pretty`], each line break and its
/// indentation written in one call rather than one call per level.
struct Inert {
    depth: usize,
    has_value: bool,
}

impl Inert {
    fn new() -> Inert {
        Inert {
            depth: 0,
            has_value: false,
        }
    }

    /// `,` when not `first`, a line break and the indentation of `depth`.
    fn line<W: ?Sized + Write>(&self, w: &mut W, first: bool) -> io::Result<()> {
        const LINE: &[u8] = b",\n                                                                ";
        let from = usize::from(first);
        let to = 2 + 2 * self.depth;
        if to <= LINE.len() {
            return w.write_all(&LINE[from..to]);
        }
        w.write_all(&LINE[from..2])?;
        let mut spaces = 2 * self.depth;
        while spaces > 0 {
            let n = spaces.min(LINE.len() - 2);
            w.write_all(&LINE[2..2 + n])?;
            spaces -= n;
        }
        Ok(())
    }

    fn begin<W: ?Sized + Write>(&mut self, w: &mut W, open: &[u8]) -> io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        w.write_all(open)
    }

    fn end<W: ?Sized + Write>(&mut self, w: &mut W, close: &[u8]) -> io::Result<()> {
        self.depth -= 1;
        if self.has_value {
            self.line(w, true)?;
        }
        w.write_all(close)
    }
}

fn needs_escape(c: char) -> bool {
    matches!(c, '\u{80}'..='\u{9f}' | '\u{2028}' | '\u{2029}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

impl serde_json::ser::Formatter for Inert {
    fn write_string_fragment<W: ?Sized + Write>(
        &mut self,
        w: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        // Almost every fragment is ASCII: one word-at-a-time check instead
        // of decoding every character.
        if fragment.is_ascii() {
            return w.write_all(fragment.as_bytes());
        }
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
        self.begin(w, b"[")
    }
    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.end(w, b"]")
    }
    fn begin_array_value<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.line(w, first)
    }
    fn end_array_value<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.begin(w, b"{")
    }
    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.end(w, b"}")
    }
    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.line(w, first)
    }
    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b": ")
    }
    fn end_object_value<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

/// `--format json`, written as it is produced: a large report is never held
/// whole.
pub struct JsonFormat;

impl Format for JsonFormat {
    fn write(&self, out: &mut dyn Write, run: &CheckRun) -> io::Result<()> {
        write_with(out, run.sources(), run.findings, run.notes)
    }

    fn write_errors(
        &self,
        out: &mut dyn Write,
        map: &SourceMap,
        errors: &[Diagnostic],
        _root: &Root,
    ) -> io::Result<()> {
        write_errors(out, map, errors)
    }

    fn each(&self) -> Each {
        Each::Json
    }
}

#[cfg(test)]
mod tests {
    use crate::diagnostics::{Loc, SourceFile, SourceMap};
    use crate::rules::{Code, Finding, Waived};
    use crate::time::Dur;

    /// The borrowed finding `check` writes is the owned one other reports
    /// hold, byte for byte, every field filled in.
    #[test]
    fn a_borrowed_finding_writes_as_the_owned_one() {
        let map = SourceMap {
            files: vec![SourceFile::new("a/b.yaml".into(), String::new())],
            ..SourceMap::default()
        };
        let mut f = Finding::new(Code::RH001, "late \u{9b} copy")
            .intent("pay")
            .component("keys")
            .horizon(Dur::secs(45_131))
            .window(Dur::Unbounded)
            .at(Loc {
                file: 0,
                line: 7,
                col: 3,
            });
        f.path = vec!["q".into(), "w".into()];
        f.rests_on = vec!["max_backlog 1h on q".into()];
        f.waived = Some(Waived {
            reason: "known".into(),
            ticket: Some("T-1".into()),
            expires: None,
            inline: None,
        });
        f.baselined = true;
        let mut owned = Vec::new();
        super::write_pretty(&mut owned, &super::JsonFinding::from(&map, &f)).unwrap();
        let mut borrowed = Vec::new();
        super::write_pretty(&mut borrowed, &super::JsonFindingRef::of(&map, &f)).unwrap();
        let text = String::from_utf8(borrowed).unwrap();
        assert_eq!(text, String::from_utf8(owned).unwrap());
        assert!(text.contains("\"horizon_seconds\": 45131,\n  \"window_seconds\": null,"));
        assert!(text.contains("\"file\": \"a/b.yaml\",\n    \"line\": 7,"));
        assert!(text.contains("\"message\": \"late \\u009b copy\""));
    }

    /// The layout is serde_json's pretty one, empty and deeply nested
    /// values included.
    #[test]
    fn the_layout_is_serde_jsons_pretty_layout() {
        let mut deep = serde_json::json!([]);
        for n in 0..40 {
            deep = serde_json::json!([n, {"k": deep, "e": {}, "a": []}]);
        }
        let value = serde_json::json!({"x": [1, "two", null, {"y": [[]]}], "deep": deep});
        let mut out = Vec::new();
        super::write_pretty(&mut out, &value).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text, serde_json::to_string_pretty(&value).unwrap());
        // The innermost key is 81 levels deep: beyond one write of spaces.
        assert!(text.contains(&format!("\n{}\"k\": []", " ".repeat(162))));
    }

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
