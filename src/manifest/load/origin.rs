//! Where an imported value came from, for the places `check` prints.
//!
//! A template imported in memory is read as generated manifest text, whose
//! lines mean nothing to its reader. Every generated line that carries a
//! value names its source in its comment (`# from Resources.Q.Properties.X
//! (template.yaml:12)`); [`relocate`] moves every place of the parsed
//! generated text to that template line, and the source entry to the
//! template's path, so a finding on an imported value points at a line the
//! user can open. A line without a source of its own (`dead_letter:`, a
//! component's id) takes its first child's, else its parent's. An import of
//! several files (a Terraform module folder) lists them in its header
//! (`# input file: NAME`); each place then moves to the file its comment
//! names, a source entry of its own.

use crate::diagnostics::{Diagnostic, Loc, SourceMap};
use crate::manifest::yaml::{Node, Value};

/// The suffix `engine::read` gives the name of a text imported in memory.
pub const IMPORTED: &str = " (imported)";

/// The header line naming one of several input files.
pub const INPUT_FILE: &str = "# input file: ";

/// The input files a generated text names in its header, else `file`.
fn input_files<'a>(generated: &'a str, file: &'a str) -> Vec<&'a str> {
    let named: Vec<&str> = generated
        .lines()
        .take_while(|l| l.starts_with('#'))
        .filter_map(|l| l.strip_prefix(INPUT_FILE))
        .collect();
    if named.is_empty() { vec![file] } else { named }
}

/// The (input file, line) a generated line names in its comment.
fn own_place(line: &str, files: &[&str]) -> Option<(usize, u32)> {
    files.iter().enumerate().find_map(|(i, f)| {
        let marker = format!("({f}:");
        let rest = &line[line.find(&marker)? + marker.len()..];
        let digits = &rest[..rest.find(|c: char| !c.is_ascii_digit())?];
        digits.parse().ok().filter(|n| *n > 0).map(|n| (i, n))
    })
}

/// The (input file, template line) of every generated line (index:
/// generated line - 1).
fn template_lines(generated: &str, files: &[&str]) -> Vec<(usize, u32)> {
    let lines: Vec<&str> = generated.lines().collect();
    let own: Vec<Option<(usize, u32)>> = lines.iter().map(|l| own_place(l, files)).collect();
    let indent = |l: &str| l.len() - l.trim_start_matches([' ', '-']).len();
    let mut out = vec![(0, 0u32); lines.len()];
    // Parents for the fallback: (indent, place) of open lines.
    let mut open: Vec<(usize, (usize, u32))> = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let d = indent(l);
        while open.last().is_some_and(|(od, _)| *od >= d) {
            open.pop();
        }
        let child = || {
            lines[i + 1..]
                .iter()
                .zip(&own[i + 1..])
                .take_while(|(c, _)| indent(c) > d || c.trim_start().starts_with('#'))
                .find_map(|(_, o)| *o)
        };
        let line = own[i]
            .or_else(child)
            .or_else(|| open.last().map(|(_, p)| *p))
            .unwrap_or((0, 1));
        out[i] = line;
        if !l.trim_start().starts_with('#') {
            open.push((d, line));
        }
    }
    out
}

/// Moves every place of `n` to its template place; `ids` are the source
/// entries of the input files.
fn remap(n: &mut Node, lines: &[(usize, u32)], ids: &[u32]) {
    if let Some((f, l)) = (n.loc.line as usize)
        .checked_sub(1)
        .and_then(|i| lines.get(i))
    {
        n.loc.file = ids[*f];
        n.loc.line = *l;
        n.loc.col = 1;
    }
    match &mut n.value {
        Value::Seq(items) => items.iter_mut().for_each(|x| remap(x, lines, ids)),
        Value::Map(m) => m.iter_mut().for_each(|(k, v)| {
            remap(k, lines, ids);
            remap(v, lines, ids);
        }),
        _ => {}
    }
}

/// Moves the places of `node`, parsed from the text of source `file`
/// imported in memory, to the template lines its comments name, and names
/// the template in that source (the first input file, when the header
/// names several; each other one is added to `sources`). The template's
/// text is not at hand here, so the entries keep none (a snippet then
/// shows the place without the line). Other sources, and a skeleton saved
/// by `import` (a file the user can open), are left alone (`None`);
/// else the lines' new places, for what else was read from the text
/// (its inline allowances).
pub fn relocate(sources: &mut SourceMap, file: u32, node: &mut Node) -> Option<Places> {
    let name = sources
        .files
        .get(file as usize)
        .and_then(|s| s.path.strip_suffix(IMPORTED))
        .map(str::to_string)?;
    let text = std::mem::take(&mut sources.files[file as usize].text);
    let names: Vec<String> = input_files(&text, &name)
        .into_iter()
        .map(str::to_string)
        .collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let lines = template_lines(&text, &refs);
    let mut ids = vec![file];
    for n in &names[1..] {
        ids.push(sources.add(n.clone(), String::new()));
    }
    remap(node, &lines, &ids);
    sources.files[file as usize].path = names[0].clone();
    Some(Places { lines, ids })
}

/// Where [`relocate`] moved the lines of one generated text.
pub struct Places {
    /// (input file, template line) of each generated line.
    lines: Vec<(usize, u32)>,
    /// The source entry of each input file.
    ids: Vec<u32>,
}

impl Places {
    /// `loc` of the generated text at its template place (column 1, as
    /// every relocated place).
    pub fn loc(&self, loc: Loc) -> Loc {
        match (loc.line as usize)
            .checked_sub(1)
            .and_then(|i| self.lines.get(i))
        {
            Some(&(f, line)) => Loc {
                file: self.ids[f],
                line,
                col: 1,
            },
            None => loc,
        }
    }
}

/// Reads the allowances of source `file`, parsed as `node`, into
/// `sources`, and moves the places of a text imported in memory (its
/// node's and its allowances') to the template lines
/// ([`relocate`]); the errors of the comments that are not
/// valid allowances, at their template places. The template's text is not
/// kept, so no snippet would show such a place: the message names it.
pub fn read_relocating(sources: &mut SourceMap, file: u32, node: &mut Node) -> Vec<Diagnostic> {
    let source = &sources.files[file as usize];
    let generated = source.path.ends_with(IMPORTED);
    let (mut allowed, mut bad) = crate::policy::inline::scan(&source.text, file, generated);
    if let Some(places) = relocate(sources, file, node) {
        allowed.iter_mut().for_each(|a| a.loc = places.loc(a.loc));
        for d in &mut bad {
            if let Some(l) = d.loc.as_mut() {
                *l = places.loc(*l);
                d.message = format!("{} (at {})", d.message, sources.display(*l));
            }
        }
    }
    sources.allowances.extend(allowed);
    bad
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_come_from_comments_children_and_parents() {
        let text = "version: 1\ncomponents:\n  q:\n    kind: sqs  # from Resources.Q (t.yaml:5)\n    dead_letter:\n      to: d  # from X (t.yaml:9)\n    # a note\n    retention: 4d\n";
        let lines: Vec<u32> = template_lines(text, &["t.yaml"])
            .iter()
            .map(|p| p.1)
            .collect();
        assert_eq!(lines, vec![1, 5, 5, 5, 9, 9, 5, 5]);
    }

    #[test]
    fn several_input_files_each_keep_their_places() {
        let text = "# input file: d/a.tf\n# input file: d/b.tf\nversion: 1\ncomponents:\n  q:\n    kind: sqs  # from q (d/b.tf:5)\n    timeout: 1s  # from t (d/a.tf:2)\n";
        let files = input_files(text, "d");
        assert_eq!(files, vec!["d/a.tf", "d/b.tf"]);
        let places = template_lines(text, &files);
        assert_eq!(places[5], (1, 5));
        assert_eq!(places[6], (0, 2));
        assert_eq!(places[4], (1, 5));
    }
}
