//! `textDocument/codeAction`: the certain fixes of `check --fix` as quick
//! fixes, one per window finding (RH001, RH002, RH004) in the range:
//! "set `ID.FIELD` to at least VALUE", the edit [`crate::fix::plan`]
//! makes (the declared value replaced, or the field written under the
//! component's `kind:`), as the smallest text edit of the document.

use std::collections::HashMap;
use std::path::Path;

use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, CodeActionResponse,
    NumberOrString, Range, TextEdit, WorkspaceEdit,
};

use super::Server;
use super::analyse::{self, Checked};
use super::position::{path_of, position_at, range_of, uri_of};
use crate::rules::help;

pub fn code_actions(server: &Server, p: CodeActionParams) -> Option<CodeActionResponse> {
    let uri = p.text_document.uri;
    let path = path_of(&uri)?;
    let snapshot = analyse::snapshot(&path, &server.open, &server.limits);
    let checked = snapshot.result.ok()?;
    let mut actions = Vec::new();
    for f in &checked.findings {
        let Some(loc) = f.loc else { continue };
        let Some(file) = checked.manifest.sources.files.get(loc.file as usize) else {
            continue;
        };
        if Path::new(&file.path) != path || !overlaps(&range_of(&file.text, loc), &p.range) {
            continue;
        }
        if let Some(action) = action(&checked, f, &p.context.diagnostics) {
            actions.push(CodeActionOrCommand::CodeAction(action));
        }
    }
    Some(actions)
}

/// Whether two ranges share a line (an editor asks with the cursor's
/// place or the line's range).
fn overlaps(a: &Range, b: &Range) -> bool {
    a.start.line <= b.end.line && b.start.line <= a.end.line
}

/// The quick fix of one finding, if `check --fix` would make one.
fn action(
    c: &Checked,
    f: &crate::rules::Finding,
    asked: &[lsp_types::Diagnostic],
) -> Option<CodeAction> {
    let r = help::raise(&c.manifest, f, c.policy.margin)?;
    let fixed = crate::fix::plan(&c.manifest, std::slice::from_ref(f), c.policy.margin);
    let one = fixed.first()?;
    let edit = smallest_edit(&one.before, &one.after);
    let uri = uri_of(Path::new(&one.path))?;
    let diagnostics: Vec<lsp_types::Diagnostic> = asked
        .iter()
        .filter(|d| d.code == Some(NumberOrString::String(f.rule.code.to_string())))
        .cloned()
        .collect();
    Some(CodeAction {
        title: format!(
            "set `{}.{}` to {} ({})",
            r.component, r.field, r.at_least, f.rule.code
        ),
        kind: Some(CodeActionKind::QUICKFIX),
        diagnostics: (!diagnostics.is_empty()).then_some(diagnostics),
        edit: Some(WorkspaceEdit {
            changes: Some(HashMap::from([(uri, vec![edit])])),
            ..WorkspaceEdit::default()
        }),
        is_preferred: Some(true),
        ..CodeAction::default()
    })
}

/// The one edit that turns `before` into `after`: what lies between their
/// common start and common end.
pub fn smallest_edit(before: &str, after: &str) -> TextEdit {
    let prefix = before
        .char_indices()
        .zip(after.chars())
        .find(|((_, a), b)| a != b)
        .map_or(before.len().min(after.len()), |((i, _), _)| i);
    let (b_rest, a_rest) = (&before[prefix..], &after[prefix..]);
    let suffix = b_rest
        .chars()
        .rev()
        .zip(a_rest.chars().rev())
        .take_while(|(x, y)| x == y)
        .map(|(x, _)| x.len_utf8())
        .sum::<usize>();
    let range = Range::new(
        position_at(before, prefix),
        position_at(before, before.len() - suffix),
    );
    TextEdit::new(range, a_rest[..a_rest.len() - suffix].to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsp_types::Position;

    #[test]
    fn the_edit_is_what_changed() {
        let e = smallest_edit("a:\n  kind: x\nb\n", "a:\n  kind: x\n  retention: 2h\nb\n");
        assert_eq!(
            e.range,
            Range::new(Position::new(2, 0), Position::new(2, 0))
        );
        assert_eq!(e.new_text, "  retention: 2h\n");
        let e = smallest_edit("r: 1h # c\n", "r: 16h 57m 30s # c\n");
        // `r: 1` is common at the start and ` # c` at the end (`h` is not
        // `s`): only the `h` between them is replaced.
        assert_eq!(
            e.range,
            Range::new(Position::new(0, 4), Position::new(0, 5))
        );
        assert_eq!(e.new_text, "6h 57m 30s");
    }
}
