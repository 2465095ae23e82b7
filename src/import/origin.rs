//! Where an imported value came from, for the places `check` prints.
//!
//! A template imported in memory is read as generated manifest text, whose
//! lines mean nothing to its reader. Every generated line that carries a
//! value names its source in its comment (`# from Resources.Q.Properties.X
//! (template.yaml:12)`); [`relocate`] moves every place of the parsed
//! generated text to that template line, and the source entry to the
//! template's path, so a finding on an imported value points at a line the
//! user can open. A line without a source of its own (`dead_letter:`, a
//! component's id) takes its first child's, else its parent's.

use crate::diagnostics::SourceFile;
use crate::manifest::yaml::{Node, Value};

/// The suffix `engine::read` gives the name of a text imported in memory.
pub const IMPORTED: &str = " (imported)";

/// The template line of every generated line (index: generated line - 1).
fn template_lines(generated: &str, file: &str) -> Vec<u32> {
    let marker = format!("({file}:");
    let lines: Vec<&str> = generated.lines().collect();
    let own: Vec<Option<u32>> = lines
        .iter()
        .map(|l| {
            let rest = &l[l.find(&marker)? + marker.len()..];
            let digits = &rest[..rest.find(|c: char| !c.is_ascii_digit())?];
            digits.parse().ok().filter(|n| *n > 0)
        })
        .collect();
    let indent = |l: &str| l.len() - l.trim_start_matches([' ', '-']).len();
    let mut out = vec![0u32; lines.len()];
    // Parents for the fallback: (indent, template line) of open lines.
    let mut open: Vec<(usize, u32)> = Vec::new();
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
            .unwrap_or(1);
        out[i] = line;
        if !l.trim_start().starts_with('#') {
            open.push((d, line));
        }
    }
    out
}

fn remap(n: &mut Node, lines: &[u32]) {
    if let Some(l) = (n.loc.line as usize)
        .checked_sub(1)
        .and_then(|i| lines.get(i))
    {
        n.loc.line = *l;
        n.loc.col = 1;
    }
    match &mut n.value {
        Value::Seq(items) => items.iter_mut().for_each(|x| remap(x, lines)),
        Value::Map(m) => m.iter_mut().for_each(|(k, v)| {
            remap(k, lines);
            remap(v, lines);
        }),
        _ => {}
    }
}

/// Moves the places of `node`, parsed from text imported in memory, to the
/// template lines its comments name, and names the template in `source`.
/// The template's text is not at hand here, so the entry keeps none (a
/// snippet then shows the place without the line). Other sources, and a
/// skeleton saved by `import` (a file the user can open), are left alone.
pub fn relocate(source: &mut SourceFile, node: &mut Node) {
    let Some(file) = source.path.strip_suffix(IMPORTED) else {
        return;
    };
    let lines = template_lines(&source.text, file);
    remap(node, &lines);
    source.path = file.to_string();
    source.text = String::new();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_come_from_comments_children_and_parents() {
        let text = "version: 1\ncomponents:\n  q:\n    kind: sqs  # from Resources.Q (t.yaml:5)\n    dead_letter:\n      to: d  # from X (t.yaml:9)\n    # a note\n    retention: 4d\n";
        assert_eq!(template_lines(text, "t.yaml"), vec![1, 5, 5, 5, 9, 9, 5, 5]);
    }
}
