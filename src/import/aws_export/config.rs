//! AWS Config advanced query output (`aws configservice
//! select-resource-config` or `select-aggregate-resource-config`):
//! `Results` is a list of JSON *strings*, each a configuration item with
//! `resourceType`, `arn`, `awsRegion`, `accountId`, `configuration` and
//! `supplementaryConfiguration`. Each is parsed and its configuration read
//! by the service's reader, as the CLI's output is; so one query exports
//! the resources of every account and Region an aggregator sees.

use super::ctx::relocate;
use super::shape::Shape;
use super::{Doc, Item, Node};
use crate::diagnostics::Diagnostic;
use crate::import::{Out, Value};
use crate::manifest::Limits;

/// One configuration item, parsed, with its JSON path.
#[derive(Clone)]
pub(super) struct Row {
    pub node: Node,
    pub base: String,
}

/// The rows of every Config query output among `docs`.
pub(super) fn rows(docs: &[Doc], limits: &Limits) -> Result<Vec<Row>, Vec<Diagnostic>> {
    let mut rows = Vec::new();
    let mut errors = Vec::new();
    for d in docs.iter().filter(|d| d.shape == Shape::ConfigQuery) {
        let results = d.root.get("Results").expect("the shape has Results");
        let Value::Seq(items) = &results.value else {
            errors.push(results.error_at(
                format!(
                    "`$.Results` must be a list, found {}",
                    results.value.type_name()
                ),
                "give the JSON `aws configservice select-resource-config` printed, unchanged",
            ));
            continue;
        };
        for (i, r) in items.iter().enumerate() {
            let base = format!("$.Results[{i}]");
            match row(r, &base, limits) {
                Ok(node) => rows.push(Row { node, base }),
                Err(e) => errors.push(e),
            }
        }
    }
    if errors.is_empty() {
        Ok(rows)
    } else {
        Err(errors)
    }
}

/// A row's string parsed as a JSON object, its nodes at the string's place.
fn row(r: &Node, base: &str, limits: &Limits) -> Result<Node, Diagnostic> {
    let help =
        "each of `Results` is a configuration item as a JSON string, as the AWS CLI prints it";
    let Value::Str(s) = &r.value else {
        return Err(r.error_at(
            format!(
                "`{base}` must be a string holding a JSON object, found {}",
                r.value.type_name()
            ),
            help,
        ));
    };
    if s.len() as u64 > limits.max_file_bytes {
        return Err(r.error_at(format!("`{base}` is larger than the file size limit"), help));
    }
    match serde_json::from_str::<serde_json::Value>(s) {
        Ok(j @ serde_json::Value::Object(_)) => {
            let mut node = crate::import::tree::from_json(j, r.loc.file);
            relocate(&mut node, r.loc);
            Ok(node)
        }
        Ok(_) => Err(r.error_at(format!("`{base}` must hold a JSON object"), help)),
        Err(e) => Err(r.error_at(format!("`{base}` is not valid JSON: {e}"), help)),
    }
}

/// The shape the reader of a Config resource type reads its configuration as.
fn shape_of(ty: &str) -> Option<Shape> {
    Some(match ty {
        "AWS::SQS::Queue" => Shape::SqsAttributes,
        "AWS::SNS::Topic" => Shape::SnsTopic,
        "AWS::Lambda::Function" => Shape::LambdaFunction,
        "AWS::DynamoDB::Table" => Shape::DynamoTable,
        "AWS::Events::Rule" => Shape::EventsRule,
        "AWS::Kinesis::Stream" => Shape::Kinesis,
        "AWS::StepFunctions::StateMachine" => Shape::StateMachine,
        "AWS::Pipes::Pipe" => Shape::Pipe,
        "AWS::Scheduler::Schedule" => Shape::Schedule,
        _ => return None,
    })
}

/// The items the rows describe; a row of a type no reader reads is listed
/// as not imported.
pub(super) fn items<'a>(rows: &'a [Row], out: &mut Out) -> Vec<Item<'a>> {
    let mut items = Vec::new();
    for r in rows {
        let ty = r.node.get("resourceType").and_then(Node::str).unwrap_or("");
        let arn = r
            .node
            .get("arn")
            .and_then(|n| Some((n.str()?.to_string(), n.clone(), format!("{}.arn", r.base))));
        let Some(shape) = shape_of(ty) else {
            out.coverage.total += 1;
            let what = format!(
                "{} ({})",
                r.base,
                if ty.is_empty() { "no resourceType" } else { ty }
            );
            out.unsupported(ty, what, out.src(&r.base, &r.node));
            continue;
        };
        let Some(arn) = arn else {
            out.coverage.total += 1;
            out.unsupported(
                ty,
                format!(
                    "{} ({ty} without an arn; select `arn` in the query)",
                    r.base
                ),
                out.src(&r.base, &r.node),
            );
            continue;
        };
        let (node, base) = match r.node.get("configuration") {
            Some(c) => (c, format!("{}.configuration", r.base)),
            None => {
                out.notes.push(format!("TODO: {} ({ty}): the query selected no `configuration`; select it to read the settings", r.base));
                (&r.node, r.base.clone())
            }
        };
        items.push(Item {
            shape,
            node,
            base,
            hint: None,
            arn: Some(arn.clone()),
        });
        if shape == Shape::DynamoTable
            && let Some(b) = r
                .node
                .at(&["supplementaryConfiguration", "ContinuousBackupsDescription"])
        {
            let base = format!(
                "{}.supplementaryConfiguration.ContinuousBackupsDescription",
                r.base
            );
            items.push(Item {
                shape: Shape::DynamoBackups,
                node: b,
                base,
                hint: None,
                arn: Some(arn),
            });
        }
    }
    items
}

/// `path`, when it leads into a Config row of file `file`, with each key as
/// the row writes it: the readers ask for the CLI's `Timeout` and take the
/// item's `timeout` ([`super::ctx::get`]), and a comment must name the key
/// the file holds.
pub(super) fn written_path(rows: &[Row], path: &str, file: u32) -> Option<String> {
    let (row, rest) = rows.iter().find_map(|r| {
        let rest = path.strip_prefix(r.base.as_str())?.strip_prefix('.')?;
        (r.node.loc.file == file).then_some((r, rest))
    })?;
    let mut node = Some(&row.node);
    let mut out = row.base.clone();
    for seg in rest.split('.') {
        let (key, index) = seg.split_at(seg.find('[').unwrap_or(seg.len()));
        let lower = lower_first(key);
        let written = match node {
            Some(n) if n.get(key).is_none() && n.get(&lower).is_some() => lower.as_str(),
            _ => key,
        };
        node = node.and_then(|n| super::ctx::get(n, key));
        let at = index.strip_prefix('[').and_then(|i| i.strip_suffix(']'));
        if let Some(i) = at.and_then(|i| i.parse::<usize>().ok()) {
            node = node.and_then(|n| n.items().get(i));
        }
        out.push('.');
        out.push_str(written);
        out.push_str(index);
    }
    Some(out)
}

/// `key` with its first letter in lower case (`TableName` → `tableName`).
pub(super) fn lower_first(key: &str) -> String {
    let mut c = key.chars();
    c.next()
        .map(|f| f.to_ascii_lowercase())
        .into_iter()
        .chain(c)
        .collect()
}
