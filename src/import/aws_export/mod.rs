//! The JSON the AWS CLI prints about deployed resources, saved to a folder
//! (by the script `replay-audit export-aws` prints, or by hand), read into
//! the manifest model: what is deployed, as the other importers read what
//! the code declares.
//!
//! Every `*.json` file of the folder is one CLI output, told by its
//! top-level keys ([`shape`]); outputs that do not name their resource
//! (`list-targets-by-rule`, `describe-time-to-live`, ...) take it from the
//! file name (`events-targets.<rule>.json`, [`shape::NAMING`]). An AWS
//! Config advanced query's output ([`config`]) holds configuration items of
//! several accounts and Regions, read by the same service readers. The
//! Region and account of every resource come from its ARN ([`arn`]).
//!
//! Reading is two passes: every resource is declared first (so a link can
//! name a resource of a later file), then each file's values and links are
//! read ([`ctx::Ctx`]). A value of the wrong type is an error at its place
//! (file, line, column, JSON path), and nothing is written.

pub(crate) mod arn;
mod config;
mod ctx;
mod dynamodb;
mod events;
mod kinesis;
mod lambda;
mod shape;
mod sns;
mod sqs;
mod stepfunctions;

use std::path::Path;

use super::{Format, Imported, Node};
use crate::diagnostics::{Diagnostic, SourceMap};
use crate::files::Origin;
use crate::manifest::{Limits, LoadError};
use ctx::{Ctx, Decl};
pub use shape::NAMING;
use shape::Shape;

/// The file the export script writes into its folder: a folder holding it
/// is read as an export by `check` (and by its folder scan).
pub const MARKER: &str = "replay-audit-export.txt";

/// Whether `dir` is an export folder `check` reads: it holds [`MARKER`].
pub fn is_export(dir: &Path) -> bool {
    std::fs::symlink_metadata(dir.join(MARKER)).is_ok_and(|m| m.is_file())
}

/// One CLI output of the folder, parsed, with its shape.
pub(super) struct Doc {
    pub root: Node,
    pub shape: Shape,
    /// The resource name the file name gives (`dynamodb-ttl.<table>.json`).
    pub hint: Option<String>,
}

/// One resource description to read: a CLI output, or a row of a Config
/// query (with its node and JSON path).
pub(super) struct Item<'a> {
    pub shape: Shape,
    pub node: &'a Node,
    /// The JSON path of `node` (`$`, or `$.Results[3].configuration`).
    pub base: String,
    pub hint: Option<&'a str>,
    /// The ARN a Config row gives beside its configuration: text, node, path.
    pub arn: Option<(String, Node, String)>,
}

/// Imports the export folder `dir`: its `*.json` files (sorted; links and
/// sub-folders are not read).
pub fn import_dir(dir: &Path, limits: &Limits) -> Result<Imported, LoadError> {
    let fail = |d: Diagnostic| LoadError {
        sources: SourceMap::default(),
        diagnostics: vec![d],
    };
    let paths = crate::files::list_dir(dir, |p| p.extension().is_some_and(|e| e == "json"))
        .map_err(fail)?;
    if paths.is_empty() {
        return Err(fail(
            Diagnostic::new(
                None,
                crate::diagnostics::echo(&format!("no .json file in `{}`", dir.display())),
            )
            .help("run the script `replay-audit export-aws` prints, then give its folder"),
        ));
    }
    let mut files = Vec::new();
    for p in paths {
        let text = crate::files::read(&p, Origin::Found, limits.max_file_bytes).map_err(fail)?;
        files.push((p.display().to_string(), text));
    }
    import_files(&dir.display().to_string(), &files, limits)
}

/// Imports CLI outputs `files` (name, text) as one architecture; `label`
/// names them in the skeleton's header.
pub fn import_files(
    label: &str,
    files: &[(String, String)],
    limits: &Limits,
) -> Result<Imported, LoadError> {
    let mut sources = SourceMap::default();
    let mut docs = Vec::new();
    let mut errors = Vec::new();
    for (name, text) in files {
        let file = sources.add(name.clone(), text.clone());
        match super::parse(text, file, limits) {
            Ok(root) => match shape::of(&root) {
                Some(shape) => docs.push(Doc {
                    shape,
                    hint: shape::hint(name),
                    root,
                }),
                None => errors.push(shape::unknown(&root, name)),
            },
            Err(d) => errors.push(d),
        }
    }
    if !errors.is_empty() {
        return Err(LoadError {
            sources,
            diagnostics: errors,
        });
    }
    let rows = match config::rows(&docs, limits) {
        Ok(rows) => rows,
        Err(diagnostics) => {
            return Err(LoadError {
                sources,
                diagnostics,
            });
        }
    };
    let mut items: Vec<Item> = docs
        .iter()
        .filter(|d| d.shape != Shape::ConfigQuery)
        .map(|d| Item {
            shape: d.shape,
            node: &d.root,
            base: "$".into(),
            hint: d.hint.as_deref(),
            arn: None,
        })
        .collect();
    let mut out = super::Out::new(label, Format::AwsExport);
    out.files = sources.files.iter().map(|f| f.path.clone()).collect();
    out.several = files.len() > 1;
    // Named in the header, so that `check` points into each file.
    out.notes
        .extend(files.iter().map(|(n, _)| format!("input file: {n}")));
    items.extend(config::items(&rows, &mut out));
    let mut decls = Vec::new();
    for item in &items {
        if let Err(d) = declare(item, &mut decls) {
            errors.push(d);
        }
    }
    let mut cx = Ctx::new(out, decls, rows.clone());
    for item in &items {
        if let Err(d) = read(&mut cx, item) {
            errors.push(d);
        }
    }
    if !errors.is_empty() {
        return Err(LoadError {
            sources,
            diagnostics: errors,
        });
    }
    let mut out = cx.finish();
    super::placeholders::declare_missing(&mut out);
    Ok(Imported {
        unsupported: out.unsupported.iter().map(|(w, _)| w.clone()).collect(),
        text: out.render(),
    })
}

/// Pass 1: the resources `item` describes.
fn declare(item: &Item, decls: &mut Vec<Decl>) -> Result<(), Diagnostic> {
    match item.shape {
        Shape::SqsAttributes => sqs::declare(item, decls),
        Shape::SnsSubscriptions | Shape::SnsSubscriptionAttributes | Shape::SnsTopic => {
            sns::declare(item, decls)
        }
        Shape::EventsRules | Shape::EventsTargets | Shape::EventsRule => {
            events::declare_rules(item, decls)
        }
        Shape::Pipe | Shape::Schedule => events::declare_other(item, decls),
        Shape::LambdaFunction | Shape::LambdaMappings | Shape::LambdaInvokeConfig => {
            lambda::declare(item, decls)
        }
        Shape::DynamoTable | Shape::DynamoTtl | Shape::DynamoBackups => {
            dynamodb::declare(item, decls)
        }
        Shape::StateMachine => stepfunctions::declare(item, decls),
        Shape::Kinesis => kinesis::declare(item, decls),
        Shape::ConfigQuery => Ok(()),
    }
}

/// Pass 2: the values and links `item` gives.
fn read(cx: &mut Ctx, item: &Item) -> Result<(), Diagnostic> {
    match item.shape {
        Shape::SqsAttributes => sqs::read(cx, item),
        Shape::SnsSubscriptions | Shape::SnsSubscriptionAttributes | Shape::SnsTopic => {
            sns::read(cx, item)
        }
        Shape::EventsRules | Shape::EventsTargets | Shape::EventsRule => {
            events::read_rules(cx, item)
        }
        Shape::Pipe => events::pipe(cx, item),
        Shape::Schedule => events::schedule(cx, item),
        Shape::LambdaFunction => lambda::function(cx, item),
        Shape::LambdaMappings => lambda::mappings(cx, item),
        Shape::LambdaInvokeConfig => lambda::invoke_config(cx, item),
        Shape::DynamoTable => dynamodb::table(cx, item),
        Shape::DynamoTtl => dynamodb::ttl(cx, item),
        Shape::DynamoBackups => dynamodb::backups(cx, item),
        Shape::StateMachine => stepfunctions::read(cx, item),
        Shape::Kinesis => kinesis::read(cx, item),
        Shape::ConfigQuery => Ok(()),
    }
}
