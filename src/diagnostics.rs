//! Source files, locations and the rendering of input errors.
//!
//! Every element of a manifest that a finding or an error can point at keeps
//! a [`Loc`]: an index into the [`SourceMap`] plus a 1-based line and column.
//! Input errors are [`Diagnostic`]s, rendered with `annotate-snippets`
//! (rustc's renderer) so they look like the compiler's.

use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};
use serde::Serialize;
use std::sync::OnceLock;

/// Where something stands in a manifest file: file index, 1-based line and column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Loc {
    pub file: u32,
    pub line: u32,
    pub col: u32,
}

/// A loaded file and its text (kept to render snippets).
#[derive(Debug, Clone, Default)]
pub struct SourceFile {
    pub path: String,
    pub text: String,
    /// Where each line of `text` starts, found the first time a snippet
    /// needs a line: one scan of the text however many snippets it shows
    /// (finding a line by counting from the top made the human output of
    /// a large manifest quadratic).
    line_starts: OnceLock<Vec<usize>>,
}

impl SourceFile {
    pub fn new(path: String, text: String) -> Self {
        SourceFile {
            path,
            text,
            line_starts: OnceLock::new(),
        }
    }

    /// Line `index` (from 0) as `text.lines().nth(index)` gives it.
    pub fn line(&self, index: usize) -> Option<&str> {
        let starts = self.line_starts.get_or_init(|| {
            std::iter::once(0)
                .chain(self.text.match_indices('\n').map(|(i, _)| i + 1))
                .filter(|&start| start < self.text.len())
                .collect()
        });
        let start = *starts.get(index)?;
        let rest = &self.text[start..];
        Some(match rest.find('\n') {
            Some(end) => rest[..end].strip_suffix('\r').unwrap_or(&rest[..end]),
            None => rest,
        })
    }
}

/// All files of one architecture.
#[derive(Debug, Clone, Default)]
pub struct SourceMap {
    pub files: Vec<SourceFile>,
    /// The inline allowances read from the files' comments (read when a
    /// file is loaded: an imported text is not kept).
    pub allowances: Vec<crate::policy::Allowance>,
}

/// A location resolved to a file name, as printed in JSON and SARIF.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Location {
    pub file: String,
    pub line: u32,
    pub column: u32,
}

impl SourceMap {
    pub fn add(&mut self, path: String, text: String) -> u32 {
        self.files.push(SourceFile::new(path, text));
        (self.files.len() - 1) as u32
    }

    /// Frees the texts, keeping the paths: for reports that show no
    /// snippet, so a large manifest's text is not held through the analysis.
    pub fn forget_texts(&mut self) {
        for f in &mut self.files {
            *f = SourceFile::new(std::mem::take(&mut f.path), String::new());
        }
    }

    pub fn path(&self, loc: Loc) -> &str {
        self.files
            .get(loc.file as usize)
            .map_or("<unknown>", |f| f.path.as_str())
    }

    pub fn location(&self, loc: Loc) -> Location {
        Location {
            file: self.path(loc).to_string(),
            line: loc.line,
            column: loc.col,
        }
    }

    /// `file:line:column`
    pub fn display(&self, loc: Loc) -> String {
        format!("{}:{}:{}", self.path(loc), loc.line, loc.col)
    }
}

/// An input error (or note) tied to a place in a manifest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub message: String,
    pub loc: Option<Loc>,
    /// Label under the caret.
    pub label: String,
    /// Secondary places (the first definition of a duplicate id, ...).
    pub related: Vec<(Loc, String)>,
    /// How to fix it ("did you mean ...").
    pub help: Option<String>,
}

impl Diagnostic {
    pub fn new(loc: Option<Loc>, message: impl Into<String>) -> Self {
        Diagnostic {
            message: message.into(),
            loc,
            label: String::new(),
            related: Vec::new(),
            help: None,
        }
    }

    pub fn at(loc: Loc, message: impl Into<String>) -> Self {
        Self::new(Some(loc), message)
    }

    pub fn label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }

    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    pub fn related(mut self, loc: Loc, note: impl Into<String>) -> Self {
        self.related.push((loc, note.into()));
        self
    }

    /// One line: `file:line:col: error: message (help: ...)`.
    pub fn one_line(&self, map: &SourceMap) -> String {
        let mut s = match self.loc {
            Some(l) => format!("{}: error: {}", map.display(l), self.message),
            None => format!("error: {}", self.message),
        };
        for (l, note) in &self.related {
            s.push_str(&format!("; {} ({})", note, map.display(*l)));
        }
        if let Some(h) = &self.help {
            s.push_str(&format!("; help: {h}"));
        }
        echo(&s)
    }

    /// Renders like rustc, with the offending line of the manifest.
    pub fn render(&self, map: &SourceMap, color: bool) -> String {
        let renderer = if color {
            Renderer::styled()
        } else {
            Renderer::plain()
        };
        let mut groups: Vec<Group> = Vec::new();
        // Every text the renderer prints may echo manifest values: each is
        // made one inert line first (see [`echo`]).
        let message = echo(&self.message);
        let label = echo(&self.label);
        let related: Vec<(Loc, String)> = self
            .related
            .iter()
            .map(|(l, note)| (*l, echo(note)))
            .collect();
        let help = self.help.as_deref().map(echo);
        let lines: Vec<Option<SnippetText>> = std::iter::once(self.loc)
            .chain(related.iter().map(|(l, _)| Some(*l)))
            .map(|l| l.and_then(|l| SnippetText::of(map, l)))
            .collect();
        let mut title = Group::with_title(Level::ERROR.primary_title(message.as_str()));
        let bare = lines.iter().all(Option::is_none);
        if let Some(snippet) = lines[0].as_ref().map(|t| t.snippet(&label, true)) {
            title = title.element(snippet);
        }
        for ((_, note), text) in related.iter().zip(&lines[1..]) {
            if let Some(snippet) = text.as_ref().map(|t| t.snippet(note, false)) {
                title = title.element(snippet);
            }
        }
        groups.push(title);
        if let Some(h) = &help {
            groups.push(Group::with_title(Level::HELP.secondary_title(h.as_str())));
        }
        if bare {
            // Without a snippet there is no gutter: the renderer would draw
            // a lone `|` between the title and the help.
            return groups
                .into_iter()
                .map(|g| renderer.render(&[g]))
                .collect::<Vec<_>>()
                .join("\n");
        }
        renderer.render(&groups)
    }
}

/// The source line a snippet shows, already made inert (see [`echo`]),
/// with the span to underline in bytes of that inert text.
pub(crate) struct SnippetText {
    path: String,
    line: usize,
    text: String,
    span: std::ops::Range<usize>,
}

impl SnippetText {
    /// The line of `loc` (at most 200 bytes of it), or `None` past the end;
    /// the span is the token at `loc` (up to a space, `,`, `}`, `]` or `:`).
    pub(crate) fn of(map: &SourceMap, loc: Loc) -> Option<SnippetText> {
        SnippetText::of_span(map, loc, |rest| {
            rest.find([' ', ',', '}', ']', ':']).unwrap_or(rest.len())
        })
    }

    /// [`SnippetText::of`] with the span's length in bytes given by `len`
    /// from the rest of the line at `loc` (at least one character).
    pub(crate) fn of_span(
        map: &SourceMap,
        loc: Loc,
        len: impl Fn(&str) -> usize,
    ) -> Option<SnippetText> {
        let file = map.files.get(loc.file as usize)?;
        // An empty file has no line 1; the snippet still names the file.
        // So does a file read through a symbolic link: no line of it is
        // quoted (the link may lead to a file its author cannot read), only
        // a caret at its column.
        let blank;
        let line_text = match file.line(loc.line.checked_sub(1)? as usize) {
            Some(_) if crate::files::through_link(&file.path) => {
                blank = " ".repeat((loc.col as usize).clamp(1, 200));
                blank.as_str()
            }
            Some(l) => l,
            None if loc.line == 1 => "",
            None => return None,
        };
        let line_text = if line_text.len() > 200 {
            let mut end = 200;
            while !line_text.is_char_boundary(end) {
                end -= 1;
            }
            &line_text[..end]
        } else {
            line_text
        };
        // Column is counted in characters; the renderer wants byte offsets.
        let start = line_text
            .char_indices()
            .nth(loc.col.saturating_sub(1) as usize)
            .map_or(line_text.len(), |(i, _)| i);
        let mut end = (start + len(&line_text[start..])).min(line_text.len());
        while !line_text.is_char_boundary(end) {
            end -= 1;
        }
        let first = line_text[start..].chars().next().map_or(0, char::len_utf8);
        let end = end.max(start + first);
        // `echo` maps character by character, so a prefix's echo is the
        // echo's prefix: the span moves with the text.
        let (start, end) = (
            echo(&line_text[..start]).len(),
            echo(&line_text[..end]).len(),
        );
        Some(SnippetText {
            path: echo(&file.path),
            line: loc.line as usize,
            text: echo(line_text),
            span: start..end,
        })
    }

    /// The width of the snippet's line up to the end of the caret, gutter
    /// (`50 | `) included: where a label after the caret would start.
    pub(crate) fn caret_end(&self) -> usize {
        self.line.to_string().len() + 3 + self.text[..self.span.end].chars().count()
    }

    /// A one-line snippet with a caret under the span.
    pub(crate) fn snippet<'a>(
        &'a self,
        label: &'a str,
        primary: bool,
    ) -> Snippet<'a, annotate_snippets::Annotation<'a>> {
        let kind = if primary {
            AnnotationKind::Primary
        } else {
            AnnotationKind::Context
        };
        Snippet::source(self.text.as_str())
            .line_start(self.line)
            .path(self.path.as_str())
            .annotation(kind.span(self.span.clone()).label(label))
    }
}

/// Text from an input made inert for a terminal or a CI log, keeping its
/// line breaks (a table cell, a drawing label, a line of `horizon`): see
/// [`neutralise`].
pub fn inert(s: &str) -> String {
    neutralise(s, Breaks::Keep)
}

/// Text from an input echoed in a message on one line (stderr, a CI log,
/// a one-line error): as [`inert`], and line breaks shown as `\n`/`\r`,
/// so that no echoed value starts a line of its own.
pub fn echo(s: &str) -> String {
    neutralise(s, Breaks::Escape)
}

/// What [`neutralise`] does with LF and CR.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Breaks {
    /// LF and CR LF stay (the output is several lines); a lone CR (which
    /// would overwrite the line on a terminal) is shown as `\r`.
    Keep,
    /// LF and CR are shown as `\n` and `\r`.
    Escape,
}

/// The one function that makes input text inert wherever a terminal or a
/// CI runner reads it:
///
/// - C0 controls other than tab (and LF with [`Breaks::Keep`]) become their
///   visible Unicode pictures (`\x1b` shows as `␛`, BEL as `␇`), DEL `␡`:
///   ESC and BEL start and end the sequences that recolour, clear, retitle
///   the terminal or set its clipboard;
/// - CR, C1 controls (U+009B is a one-byte CSI), the line and paragraph
///   separators and the bidirectional overrides that reorder what a reader
///   sees (U+202A..U+202E, U+2066..U+2069) are shown as escapes (`\r`,
///   `\u{9b}`, `\u{202e}`);
/// - a `##[` (GitHub's old-style workflow commands, `##[error]`,
///   `##[add-mask]`, read anywhere in a line) gets a zero-width space after
///   its first `#`, and so does a `::` that starts a line of the text (a
///   workflow command, leading spaces allowed): both still read the same,
///   neither is a command.
pub fn neutralise(s: &str, breaks: Breaks) -> String {
    const ZWSP: char = '\u{200b}';
    let mut out = String::with_capacity(s.len());
    let mut line_start = true;
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\t' => out.push(c),
            '\n' if breaks == Breaks::Keep => out.push(c),
            '\n' => out.push_str("\\n"),
            '\r' if breaks == Breaks::Keep && chars.peek() == Some(&'\n') => out.push(c),
            '\r' => out.push_str("\\r"),
            '\u{0}'..='\u{1f}' => out.push(char::from_u32(0x2400 + c as u32).unwrap_or('\u{fffd}')),
            '\u{7f}' => out.push('\u{2421}'),
            '\u{80}'..='\u{9f}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2066}'..='\u{2069}' => {
                out.push_str(&format!("\\u{{{:x}}}", c as u32));
            }
            '#' if out.ends_with('#') && chars.peek() == Some(&'[') => {
                out.push(ZWSP);
                out.push(c);
            }
            ':' if line_start && chars.peek() == Some(&':') => {
                out.push(c);
                out.push(ZWSP);
            }
            c => out.push(c),
        }
        line_start = match c {
            '\n' => breaks == Breaks::Keep,
            ' ' | '\t' => line_start,
            _ => false,
        };
    }
    out
}

/// `word` with its indefinite article: `an external`, `a queue`,
/// `an AsyncAPI document`.
pub fn a(word: &str) -> String {
    let vowel = word
        .chars()
        .next()
        .is_some_and(|c| "aeiouAEIOU".contains(c));
    format!("{} {word}", if vowel { "an" } else { "a" })
}

/// Levenshtein distance, for "did you mean" suggestions.
pub fn edit_distance(a: &str, b: &str) -> usize {
    strsim::levenshtein(a, b)
}

/// Every error like rustc, then one line: `error: could not WHAT: N error(s)`.
pub fn render_all(
    diagnostics: &[Diagnostic],
    sources: &SourceMap,
    color: bool,
    what: &str,
) -> String {
    let mut s = String::new();
    for d in diagnostics {
        s.push_str(&d.render(sources, color));
        s.push_str("\n\n");
    }
    let n = diagnostics.len();
    s.push_str(&format!(
        "error: could not {what}: {n} error{}\n",
        if n == 1 { "" } else { "s" }
    ));
    s
}

/// The closest candidate within a distance that scales with the word;
/// else, for a word of [`PART`] characters or more, the shortest
/// candidate that holds it (`replay-outlives` → `replay-outlives-dedup-window`).
/// Case is ignored.
pub fn suggest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (word.chars().count() / 3).max(2);
    let lower = word.to_lowercase();
    let mut near: Option<(usize, &str)> = None;
    let mut holds: Option<(usize, &str)> = None;
    for c in candidates {
        let cl = c.to_lowercase();
        let d = edit_distance(&lower, &cl);
        if d <= limit && near.is_none_or(|n| (d, c) < n) {
            near = Some((d, c));
        }
        if lower.chars().count() >= PART
            && cl.contains(&lower)
            && holds.is_none_or(|h| (c.len(), c) < h)
        {
            holds = Some((c.len(), c));
        }
    }
    near.or(holds).map(|(_, c)| c)
}

/// The shortest word [`suggest`] looks for inside the candidates.
pub const PART: usize = 4;

/// The help for a word not among `candidates`: "did you mean `x`?" for
/// the nearest ([`suggest`]), else what `fallback` says.
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    fallback: impl FnOnce() -> String,
) -> String {
    suggest(word, candidates).map_or_else(fallback, |s| format!("did you mean `{s}`?"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `SourceFile::line` is `str::lines().nth`, line endings and all.
    #[test]
    fn a_line_by_index_is_the_nth_of_lines() {
        let texts = [
            "",
            "\n",
            "a",
            "a\n",
            "a\nb",
            "a\r\nb\r\n",
            "a\rb\n\n\nc\r",
            "\r\n\r",
            "x: 1\n  y: é\r\n\n",
            "\n\na",
        ];
        for text in texts {
            let file = SourceFile::new("f".into(), text.into());
            for i in 0..6 {
                assert_eq!(file.line(i), text.lines().nth(i), "{text:?} line {i}");
            }
        }
    }

    #[test]
    fn articles_follow_the_sound_of_the_first_letter() {
        assert_eq!(a("external"), "an external");
        assert_eq!(a("intent"), "an intent");
        assert_eq!(a("queue"), "a queue");
        assert_eq!(a("AsyncAPI document"), "an AsyncAPI document");
    }

    #[test]
    fn suggests_the_nearest_name() {
        let fields = ["retention", "replication", "regions"];
        assert_eq!(suggest("retension", fields), Some("retention"));
        assert_eq!(suggest("zzz", fields), None);
        assert_eq!(suggest("REGIONS", fields), Some("regions"));
        let names = ["replay-outlives-dedup-window", "unbounded-replay-horizon"];
        assert_eq!(
            suggest("replay-outlive", names),
            Some("replay-outlives-dedup-window")
        );
        assert_eq!(suggest("horizon", names), Some("unbounded-replay-horizon"));
        assert_eq!(suggest("rep", names), None);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }

    #[test]
    fn did_you_mean_names_the_nearest_or_falls_back() {
        let fields = ["retention", "replication"];
        let fallback = || "see the docs".to_string();
        assert_eq!(
            did_you_mean("retension", fields, fallback),
            "did you mean `retention`?"
        );
        assert_eq!(did_you_mean("zzz", fields, fallback), "see the docs");
    }

    #[test]
    fn renders_file_line_and_caret() {
        let mut map = SourceMap::default();
        map.add("a.yaml".into(), "version: 1\nfoo: bar\n".into());
        let d = Diagnostic::at(
            Loc {
                file: 0,
                line: 2,
                col: 1,
            },
            "unknown field `foo`",
        )
        .label("not a manifest field")
        .help("remove it");
        let out = d.render(&map, false);
        assert!(out.contains("error: unknown field `foo`"), "{out}");
        assert!(out.contains("a.yaml:2:1"), "{out}");
        assert!(out.contains("help: remove it"), "{out}");
        assert_eq!(
            d.one_line(&map),
            "a.yaml:2:1: error: unknown field `foo`; help: remove it"
        );
    }
}
