//! Several templates imported together, one stack each, as one
//! architecture: `check A.yaml B.yaml`, `import cloudformation A.yaml
//! B.yaml`, or a folder holding both.
//!
//! The templates are read into one output, so a link may start in one
//! stack and end in another (an event source mapping in stack B on a queue
//! of stack A puts `delivers_to` on A's queue). After every template's
//! components are known, [`Links`] collects what each offers the others:
//! its `Outputs` with `Export: Name:` (the name evaluated with the
//! template's own parameters and intrinsics, the value a `Ref`/`GetAtt` of
//! one of its resources) and the physical names of its resources
//! (`QueueName`, `TableName`, ...). A template's `Fn::ImportValue` then
//! resolves to the exporting stack's component, and a value that ends in
//! another stack's resource name (a `--parameter` holding the queue's ARN)
//! to that resource. An id two templates would both give (`queue` in each)
//! is prefixed with each one's stack name (`orders.queue`), as Terraform
//! module paths are; every other id stays the logical id in kebab case.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::intrinsics::{self, Cf, Links, NAME_PROPERTIES, NO_LINKS};
use super::{Node, Out, kebab};
use crate::diagnostics::{Diagnostic, SourceMap};
use crate::import::{Format, Imported};
use crate::manifest::{Limits, LoadError};

/// The templates `files` (name, text) imported as one architecture. One
/// template is read as `import_text` reads it.
pub fn import_stacks(
    files: &[(String, String)],
    params: &[(String, String)],
    limits: &Limits,
) -> Result<Imported, LoadError> {
    if let [(name, text)] = files {
        return crate::import::import_text(Format::CloudFormation, name, text, params, limits);
    }
    let mut sources = SourceMap::default();
    let mut roots = Vec::with_capacity(files.len());
    let mut errors = Vec::new();
    for (name, text) in files {
        let file = sources.add(name.clone(), text.clone());
        match crate::import::parse(text, file, limits) {
            Ok(root) => roots.push(root),
            Err(d) => errors.push(d),
        }
    }
    let names: Vec<String> = files.iter().map(|(n, _)| n.clone()).collect();
    let mut out = Out::new(&names.join(", "), Format::CloudFormation);
    out.files = names.clone().into();
    out.several = names.len() > 1;
    // Named in the header, so that `check` points into each template.
    let header = names.iter().map(|n| format!("{}{n}", INPUT_FILE));
    out.notes.extend(header);
    if errors.is_empty()
        && let Err(d) = read(&roots, &names, params, limits, &mut out)
    {
        errors.push(d);
    }
    if !errors.is_empty() {
        return Err(LoadError {
            sources,
            diagnostics: errors,
        });
    }
    crate::import::placeholders::declare_missing(&mut out);
    Ok(Imported {
        unsupported: out.unsupported.iter().map(|(w, _)| w.clone()).collect(),
        text: out.render(),
    })
}

/// The header note naming an input file, without its `# `.
const INPUT_FILE: &str = "input file: ";

/// Reads every template into `out`: components of all, then what each
/// exports and names, then the properties and links of each.
fn read(
    roots: &[Node],
    names: &[String],
    params: &[(String, String)],
    limits: &Limits,
    out: &mut Out,
) -> Result<(), Diagnostic> {
    let all: Vec<&Node> = roots.iter().collect();
    if let Some(d) = intrinsics::undeclared(&all, params) {
        return Err(d);
    }
    let mut cfs = Vec::with_capacity(roots.len());
    for root in roots {
        cfs.push(super::open(
            root,
            intrinsics::values(root, params),
            limits,
            &NO_LINKS,
        )?);
    }
    let stacks = stack_names(names);
    let shared = shared_ids(&cfs);
    for (i, cf) in cfs.iter_mut().enumerate() {
        super::missing_parameters(cf, out, &format!(" of {}", names[i]));
        let stack = &stacks[i];
        let name = |id: &str| match shared.contains(id) {
            true => format!("{stack}.{id}"),
            false => id.to_string(),
        };
        super::components(cf, out, &name);
    }
    if !shared.is_empty() {
        let which: Vec<String> = names
            .iter()
            .zip(&stacks)
            .map(|(n, s)| format!("{n} `{s}`"))
            .collect();
        out.notes.push(format!(
            "ids used by several templates ({}) take their stack's name first: {}",
            shared.iter().cloned().collect::<Vec<_>>().join(", "),
            which.join(", ")
        ));
    }
    out.notes.push(super::REGIONS_TODO.into());
    let links = links(&cfs, names, out);
    let mut invoked = super::invocation::Invocations::new();
    for cf in cfs {
        let cf = Cf {
            links: &links,
            ..cf
        };
        super::properties(&cf, out, &mut invoked);
    }
    super::invocation::resolve(out, invoked);
    Ok(())
}

/// The kebab-case ids more than one template would give a component.
fn shared_ids(cfs: &[Cf]) -> BTreeSet<String> {
    let mut count: BTreeMap<String, usize> = BTreeMap::new();
    for cf in cfs {
        let own: BTreeSet<String> = super::component_ids(cf).into_iter().collect();
        for id in own {
            *count.entry(id).or_default() += 1;
        }
    }
    count
        .into_iter()
        .filter(|(_, n)| *n > 1)
        .map(|(id, _)| id)
        .collect()
}

/// Each template's stack name: its file stem in kebab case; the folder's
/// name instead where the stem is SAM's `template` or shared; the position
/// (`-2`) added where that is still shared.
fn stack_names(names: &[String]) -> Vec<String> {
    fn counts(v: &[String]) -> BTreeMap<&str, usize> {
        let mut c = BTreeMap::new();
        for s in v {
            *c.entry(s.as_str()).or_default() += 1;
        }
        c
    }
    let part = |p: Option<&std::ffi::OsStr>| p.map(|s| kebab(&s.to_string_lossy()));
    let stems: Vec<String> = names
        .iter()
        .map(|n| part(Path::new(n).file_stem()).unwrap_or_else(|| "stack".into()))
        .collect();
    let c = counts(&stems);
    let first: Vec<String> = names
        .iter()
        .zip(&stems)
        .map(|(n, s)| {
            let folder = Path::new(n).parent().and_then(|p| part(p.file_name()));
            match folder {
                Some(f) if s == "template" || c[s.as_str()] > 1 => f,
                _ => s.clone(),
            }
        })
        .collect();
    let c = counts(&first);
    first
        .iter()
        .enumerate()
        .map(|(i, s)| match c[s.as_str()] > 1 {
            true => format!("{s}-{}", i + 1),
            false => s.clone(),
        })
        .collect()
}

/// What every template offers the others: its exports and the physical
/// names of its resources.
fn links(cfs: &[Cf], names: &[String], out: &mut Out) -> Links {
    let mut links = Links::default();
    for (cf, file) in cfs.iter().zip(names) {
        let key = |lid: &str| format!("{lid} (in {file})");
        for (lid, ty, r) in &cf.resources {
            let Some(id) = cf.ids.get(lid) else { continue };
            for p in NAME_PROPERTIES {
                let name = r.at(&["Properties", p]).and_then(|v| cf.lit(v));
                if let Some(name) = name.and_then(|v| v.text()) {
                    links.names.entry(name).or_default().push(key(lid));
                    links.keys.insert(key(lid), (ty.clone(), id.clone()));
                }
            }
        }
        for (oname, o) in cf.root.get("Outputs").map(Node::entries).unwrap_or(&[]) {
            let Some(en) = o.at(&["Export", "Name"]) else {
                continue;
            };
            let oname = oname.key();
            let at = out.src(&format!("Outputs.{oname}.Export.Name"), en);
            let Some(name) = cf.lit(en).and_then(|n| n.text()) else {
                out.notes.push(format!("TODO: the export name of Outputs.{oname} in {file} could not be evaluated ({at}): an ImportValue of it does not link"));
                continue;
            };
            let value = o.get("Value").map(|v| cf.target(v));
            let Some(Ok((lid, att))) = value else {
                continue;
            };
            let (Some(id), Some(ty)) = (cf.ids.get(&lid), cf.ty(&lid)) else {
                continue;
            };
            if let Some((first, _)) = links.exports.get(&name) {
                out.notes.push(format!("TODO: export `{name}` is declared twice ({at}; first by {first}): an ImportValue of it links to the first"));
                continue;
            }
            links.keys.insert(key(&lid), (ty.to_string(), id.clone()));
            links.exports.insert(name, (key(&lid), att));
        }
    }
    links
}

/// The resource of another template (key, attribute) that an ARN, URL or
/// name ends with: the resource whose physical name it is, of the ARN's
/// service; none when no resource, or several, have that name. A DynamoDB
/// stream ARN (`table/T/stream/...`) names the stream of table `T`.
pub(super) fn named(links: &Links, text: &str) -> Option<(String, Option<String>)> {
    if links.names.is_empty() {
        return None;
    }
    let (service, name, att) = arn_parts(text);
    let of_service = |k: &&String| {
        service.is_none_or(|s| {
            links
                .keys
                .get(*k)
                .is_some_and(|(ty, _)| service_of(ty) == s)
        })
    };
    let mut found = links.names.get(name)?.iter().filter(of_service);
    let one = found.next()?;
    match found.next() {
        Some(_) => None,
        None => Some((one.clone(), att)),
    }
}

/// (service, resource name, attribute) of an ARN or SQS URL; a plain name
/// has no service.
pub(crate) fn arn_parts(text: &str) -> (Option<&str>, &str, Option<String>) {
    if let Some(rest) = text.strip_prefix("arn:") {
        let parts: Vec<&str> = rest.splitn(5, ':').collect();
        if let [_, service, _, _, resource] = parts.as_slice() {
            if let Some(table) = resource.strip_prefix("table/") {
                let mut seg = table.split('/');
                let name = seg.next().unwrap_or(table);
                let stream = (seg.next() == Some("stream")).then(|| "StreamArn".to_string());
                return (Some(service), name, stream);
            }
            return (Some(service), last(resource), None);
        }
    }
    if text.starts_with("https://sqs.") {
        return (Some("sqs"), last(text), None);
    }
    (None, last(text), None)
}

/// The part of `s` after its last `:` or `/`.
fn last(s: &str) -> &str {
    s.rsplit([':', '/']).next().unwrap_or(s)
}

/// The service an ARN of a resource of type `ty` names (`AWS::SQS::Queue`
/// → `sqs`, a state machine → `states`).
fn service_of(ty: &str) -> String {
    match ty {
        "AWS::Serverless::Function" => "lambda".into(),
        "AWS::StepFunctions::StateMachine" | "AWS::Serverless::StateMachine" => "states".into(),
        _ => ty
            .split("::")
            .nth(1)
            .unwrap_or_default()
            .to_ascii_lowercase(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arns_name_their_resource() {
        assert_eq!(
            arn_parts("arn:aws:sqs:eu-west-1:123:orders"),
            (Some("sqs"), "orders", None)
        );
        assert_eq!(
            arn_parts("arn:aws:dynamodb:eu-west-1:123:table/Orders/stream/2026-01-01T00:00:00.000"),
            (Some("dynamodb"), "Orders", Some("StreamArn".into()))
        );
        assert_eq!(
            arn_parts("arn:aws:lambda:eu-west-1:123:function:pay"),
            (Some("lambda"), "pay", None)
        );
        assert_eq!(
            arn_parts("https://sqs.eu-west-1.amazonaws.com/123/orders"),
            (Some("sqs"), "orders", None)
        );
        assert_eq!(arn_parts("orders"), (None, "orders", None));
        assert_eq!(service_of("AWS::SQS::Queue"), "sqs");
        assert_eq!(service_of("AWS::Serverless::StateMachine"), "states");
    }

    #[test]
    fn stack_names_come_from_files_then_folders() {
        let n = |v: &[&str]| stack_names(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(
            n(&["a/orders.yaml", "b/Payments.yaml"]),
            vec!["orders", "payments"]
        );
        assert_eq!(
            n(&["orders/template.yaml", "pay/template.yaml"]),
            vec!["orders", "pay"]
        );
        assert_eq!(n(&["x/t.yaml", "x/t.json"]), vec!["x-1", "x-2"]);
        assert_eq!(n(&["template.yaml", "b.yaml"]), vec!["template", "b"]);
    }
}
