//! Reading `.tf` and `.tfvars` files (HCL, with the hcl-rs crate) into
//! bodies of attributes and blocks that remember their file and line.
//!
//! The parser (hcl-edit) bounds the nesting of expressions, blocks and
//! operators, so neither parsing nor the walks over what it returns can
//! overflow the stack; a syntax error is reported at its file:line:column.

use hcl::Expression;
use hcl::edit::Span;
use hcl::edit::structure::{Body as EditBody, Structure};

use crate::diagnostics::{Diagnostic, Loc};

/// An attribute: key, value expression, place.
pub(super) struct Attr {
    pub key: String,
    pub expr: Expression,
    pub loc: Loc,
}

/// A block: type, labels, body, place.
pub(super) struct Block {
    pub ident: String,
    pub labels: Vec<String>,
    pub body: Body,
    pub loc: Loc,
    /// The inline allowance comments directly above a top-level block
    /// (line, text from `replay-audit:`), [`crate::import::allow`].
    pub allow: Vec<(u32, String)>,
}

/// The attributes and blocks of a file or a block, in file order.
#[derive(Default)]
pub(super) struct Body {
    pub attrs: Vec<Attr>,
    pub blocks: Vec<Block>,
}

impl Body {
    pub fn attr(&self, key: &str) -> Option<&Attr> {
        self.attrs.iter().find(|a| a.key == key)
    }
}

/// Parses the HCL `text` of file number `file`.
pub(super) fn parse(text: &str, file: u32) -> Result<Body, Diagnostic> {
    let body = hcl::edit::parser::parse_body(text).map_err(|e| {
        let l = e.location();
        Diagnostic::at(
            Loc {
                file,
                line: l.line() as u32,
                col: l.column() as u32,
            },
            format!("invalid HCL: {}", one_line(e.message())),
        )
        .label("here")
        .help("fix the Terraform syntax at this place (`terraform validate` shows the same)")
    })?;
    let lines = LineIndex::new(text);
    let mut out = convert(&body, file, &lines);
    if text.contains(crate::policy::inline::MARKER) {
        let raw: Vec<&str> = text.lines().collect();
        for b in &mut out.blocks {
            b.allow = crate::import::allow::comment_above(&raw, b.loc.line)
                .into_iter()
                .map(|(line, t)| (line, t.to_string()))
                .collect();
        }
    }
    Ok(out)
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn convert(body: &EditBody, file: u32, lines: &LineIndex) -> Body {
    let mut out = Body::default();
    for s in body.iter() {
        match s {
            Structure::Attribute(a) => out.attrs.push(Attr {
                key: a.key.as_str().to_string(),
                expr: Expression::from(a.value.clone()),
                loc: lines.loc(file, a.span()),
            }),
            Structure::Block(b) => out.blocks.push(Block {
                ident: b.ident.as_str().to_string(),
                labels: b.labels.iter().map(|l| l.as_str().to_string()).collect(),
                body: convert(&b.body, file, lines),
                loc: lines.loc(file, b.span()),
                allow: Vec::new(),
            }),
        }
    }
    out
}

/// Byte offsets of line starts, to turn a span into a line and column.
struct LineIndex(Vec<usize>);

impl LineIndex {
    fn new(text: &str) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex(starts)
    }

    fn loc(&self, file: u32, span: Option<std::ops::Range<usize>>) -> Loc {
        let Some(at) = span.map(|s| s.start) else {
            return Loc {
                file,
                line: 0,
                col: 0,
            };
        };
        let line = self.0.partition_point(|&s| s <= at);
        Loc {
            file,
            line: line as u32,
            col: (at - self.0[line - 1] + 1) as u32,
        }
    }
}

/// Whether `text` reads as Terraform configuration (HCL) rather than JSON
/// or YAML: its first line that is not blank or a comment opens a
/// top-level Terraform block.
pub fn looks_like_hcl(text: &str) -> bool {
    const OPENERS: [&str; 8] = [
        "resource ",
        "data ",
        "variable ",
        "locals ",
        "module ",
        "provider ",
        "terraform ",
        "output ",
    ];
    let first = text.lines().map(str::trim).find(|l| {
        !l.is_empty() && !l.starts_with('#') && !l.starts_with("//") && !l.starts_with("/*")
    });
    first.is_some_and(|l| {
        OPENERS.iter().any(|o| {
            l.strip_prefix(o.trim_end())
                .is_some_and(|rest| rest.starts_with([' ', '{', '"']))
        })
    })
}

/// Whether `text` is the JSON of a Terraform plan (or state).
pub fn looks_like_plan(text: &str) -> bool {
    text.trim_start().starts_with('{')
        && (text.contains("\"planned_values\"") || text.contains("\"format_version\""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_columns() {
        let b = parse("# c\nresource \"a_b\" \"x\" {\n  n = 1\n}\n", 3).unwrap();
        let r = &b.blocks[0];
        assert_eq!((r.loc.file, r.loc.line, r.loc.col), (3, 2, 1));
        assert_eq!((r.body.attrs[0].loc.line, r.body.attrs[0].loc.col), (3, 3));
        let e = parse("resource \"a\" \"b\" {\n  n = \n}\n", 0).err();
        let at = e.and_then(|e| e.loc).map(|l| (l.line, l.col));
        assert_eq!(at, Some((2, 7)));
    }

    #[test]
    fn tells_hcl_from_plans() {
        assert!(looks_like_hcl(
            "# x\n\nresource \"aws_sqs_queue\" \"q\" {}\n"
        ));
        assert!(looks_like_hcl("terraform {\n}\n"));
        assert!(!looks_like_hcl("version: 1\nresources: []\n"));
        assert!(!looks_like_hcl("{\"planned_values\": {}}"));
        assert!(looks_like_plan("{\"format_version\": \"1.2\"}"));
        assert!(!looks_like_plan("resource \"a\" \"b\" {}"));
    }
}
