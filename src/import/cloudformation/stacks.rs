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

use super::intrinsics::{self, Links, NAME_PROPERTIES, NO_LINKS};
use super::nested::{self, Files, Instance};
use super::{Node, Out, kebab};
use crate::diagnostics::Diagnostic;
use crate::import::{Format, Imported};
use crate::manifest::{Limits, LoadError};

/// A template to import: its name, its text, and for a stack of a CDK
/// cloud assembly its construct path (the manifest's `displayName`,
/// `Payouts` or `Audit/Archive` in a stage).
#[derive(Debug, Clone)]
pub struct Template {
    pub name: String,
    pub text: String,
    pub cdk: Option<String>,
}

/// The templates `files` (name, text) imported as one architecture. One
/// template is read as `import_text` reads it.
pub fn import_stacks(
    files: &[(String, String)],
    params: &[(String, String)],
    limits: &Limits,
) -> Result<Imported, LoadError> {
    let templates: Vec<Template> = files
        .iter()
        .map(|(name, text)| Template {
            name: name.clone(),
            text: text.clone(),
            cdk: None,
        })
        .collect();
    import_templates(&templates, params, limits)
}

/// [`import_stacks`] of templates that may come from a CDK cloud assembly.
/// One plain template without nested stacks or CDK metadata is read as
/// `import_text` reads it.
pub fn import_templates(
    templates: &[Template],
    params: &[(String, String)],
    limits: &Limits,
) -> Result<Imported, LoadError> {
    if let [t] = templates
        && t.cdk.is_none()
        && !nested::may_nest(&t.text)
        && !t.text.contains(super::cdk::PATH_KEY)
    {
        return crate::import::import_text(
            Format::CloudFormation,
            &t.name,
            &t.text,
            params,
            limits,
        );
    }
    let mut files = Files::default();
    let mut errors = Vec::new();
    for t in templates {
        if let Err(d) = files.add_top(&t.name, &t.text, limits) {
            errors.push(d);
        }
    }
    let out = match errors.is_empty() {
        true => read(&mut files, templates, params, limits).map_err(|d| vec![d]),
        false => Err(errors),
    };
    match out {
        Ok(mut out) => {
            crate::import::placeholders::declare_missing(&mut out);
            Ok(Imported {
                unsupported: out.unsupported.iter().map(|(w, _)| w.clone()).collect(),
                text: out.render(),
            })
        }
        Err(diagnostics) => Err(LoadError {
            sources: files.sources,
            diagnostics,
        }),
    }
}

/// The header note naming an input file, without its `# `.
const INPUT_FILE: &str = "input file: ";

/// Reads every template and the stacks they nest: components of all, then
/// what each exports, names and outputs, then the properties and links of
/// each.
fn read(
    files: &mut Files,
    templates: &[Template],
    params: &[(String, String)],
    limits: &Limits,
) -> Result<Out, Diagnostic> {
    let roots: Vec<&Node> = files.roots.iter().collect();
    if let Some(d) = intrinsics::undeclared(&roots, params) {
        return Err(d);
    }
    let tops = templates
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let root = &files.roots[i];
            let mut top = Instance::top(i, &t.name, i, intrinsics::values(root, params));
            top.cdk = t.cdk.clone().or_else(|| super::cdk::stack_path(root));
            top
        })
        .collect();
    let mut notes = Vec::new();
    let insts = nested::expand(files, tops, limits, &mut notes)?;
    let mut insts = drop_nested_tops(insts, files, &mut notes);
    let kept: Vec<&str> = (insts.iter())
        .filter(|i| i.stack.is_none())
        .map(|i| files.names[i.file].as_str())
        .collect();
    let mut out = Out::new(&kept.join(", "), Format::CloudFormation);
    out.files = files.names.clone().into();
    out.several = files.names.len() > 1;
    if out.several {
        // Named in the header, so that `check` points into each template.
        let header = files.names.iter().map(|n| format!("{INPUT_FILE}{n}"));
        out.notes.extend(header);
    }
    out.notes.extend(notes);
    out.notes.extend(id_rules(&insts));
    components(files, &mut insts, templates, limits, &mut out);
    out.notes.push(super::REGIONS_TODO.into());
    let mut links = links(&insts, files, limits, &mut out);
    outputs(&insts, files, limits, &mut links);
    let mut invoked = super::invocation::Invocations::new();
    for inst in &insts {
        let cf = inst.cf(files, limits, &links);
        super::properties(&cf, &mut out, &mut invoked);
    }
    super::invocation::resolve(&mut out, invoked);
    Ok(out)
}

/// Pass 1 over every template read, with the ids several top-level
/// templates share prefixed by their stack's name.
fn components(
    files: &Files,
    insts: &mut [Instance],
    templates: &[Template],
    limits: &Limits,
    out: &mut Out,
) {
    let names: Vec<String> = templates.iter().map(|t| t.name.clone()).collect();
    let plain = stack_names(&names);
    let stacks: Vec<String> = (insts.iter())
        .filter(|i| i.stack.is_none())
        .map(|i| match &i.cdk {
            Some(p) => super::cdk::stack_name(p),
            None => plain[i.family].clone(),
        })
        .collect();
    let families: Vec<usize> = (insts.iter())
        .filter(|i| i.stack.is_none())
        .map(|i| i.family)
        .collect();
    let shared = shared_ids(files, insts, limits);
    let several = out.several;
    let stack_of: BTreeMap<usize, &String> = families.iter().copied().zip(&stacks).collect();
    for inst in insts.iter_mut() {
        let file = &files.names[inst.file];
        let of = match &inst.stack {
            Some(stack) => format!(" of {file} (the nested stack {stack})"),
            None if several => format!(" of {file}"),
            None => String::new(),
        };
        let stack = stack_of
            .get(&inst.family)
            .copied()
            .cloned()
            .unwrap_or_default();
        let ids = {
            let inst = &*inst;
            let name = |lid: &str, r: &Node| {
                let base = base_id(inst, lid, r);
                match shared.contains(&base) {
                    true => format!("{stack}.{base}"),
                    false => base,
                }
            };
            let mut cf = inst.cf(files, limits, &NO_LINKS);
            super::missing_parameters(&cf, out, &of);
            super::components(&mut cf, out, &name, &inst.nested);
            let placeholders = super::unread::declare(&cf, &inst.prefix, &inst.nested, out);
            (std::mem::take(&mut cf.ids), placeholders)
        };
        (inst.ids, inst.placeholders) = ids;
    }
    if !shared.is_empty() {
        let which: Vec<String> = families
            .iter()
            .zip(&stacks)
            .map(|(f, s)| format!("{} `{s}`", names[*f]))
            .collect();
        out.notes.push(format!(
            "ids used by several templates ({}) take their stack's name first: {}",
            shared.iter().cloned().collect::<Vec<_>>().join(", "),
            which.join(", ")
        ));
    }
}

/// Header notes saying how the ids of CDK stacks and nested stacks are
/// made, when there are any.
fn id_rules(insts: &[Instance]) -> Vec<String> {
    let mut notes = Vec::new();
    let cdk: BTreeSet<&str> = insts.iter().filter_map(|i| i.cdk.as_deref()).collect();
    if !cdk.is_empty() {
        let stacks = cdk.into_iter().collect::<Vec<_>>().join(", ");
        notes.push(format!("ids are CDK construct paths (aws:cdk:path) below their stack ({stacks}): the parts in kebab case joined by `.`, without a last `Resource` or `Default`; a resource without a path keeps its logical id"));
    }
    let plain: BTreeSet<String> = (insts.iter())
        .filter(|i| i.stack.is_some() && i.cdk.is_none())
        .map(|i| format!("`{}`", i.prefix))
        .collect();
    if !plain.is_empty() {
        let plain: Vec<String> = plain.into_iter().collect();
        notes.push(format!(
            "ids in a nested stack start with its stack resource's id: {}",
            plain.join(", ")
        ));
    }
    notes
}

/// The id a resource's component gets before any stack prefix: its CDK
/// construct path where it has one, else its logical id in kebab case
/// after the nested stacks' prefix.
fn base_id(inst: &Instance, lid: &str, r: &Node) -> String {
    (inst.cdk.as_deref())
        .and_then(|p| super::cdk::construct_id(p, r))
        .unwrap_or_else(|| format!("{}{}", inst.prefix, kebab(lid)))
}

/// A top-level template that another one nests is read as that nested
/// stack only (a folder scan finds both), with a note.
fn drop_nested_tops(insts: Vec<Instance>, files: &Files, notes: &mut Vec<String>) -> Vec<Instance> {
    // The first nested instance of each file, by file number.
    let mut nested: BTreeMap<usize, &Instance> = BTreeMap::new();
    for i in insts.iter().filter(|i| i.stack.is_some()) {
        nested.entry(i.file).or_insert(i);
    }
    let mut dropped = BTreeSet::new();
    for top in insts.iter().filter(|i| i.stack.is_none()) {
        if let Some(by) = nested.get(&top.file).filter(|by| by.family != top.family) {
            dropped.insert(top.family);
            notes.push(format!(
                "{} is read as a nested stack ({}), not on its own",
                files.names[top.file], by.label
            ));
        }
    }
    insts
        .into_iter()
        .filter(|i| !dropped.contains(&i.family))
        .collect()
}

/// The ids more than one top-level template (with the stacks it nests)
/// would give a component.
fn shared_ids(files: &Files, insts: &[Instance], limits: &Limits) -> BTreeSet<String> {
    let mut by_family: BTreeMap<usize, BTreeSet<String>> = BTreeMap::new();
    for inst in insts {
        let cf = inst.cf(files, limits, &NO_LINKS);
        let name = |lid: &str, r: &Node| base_id(inst, lid, r);
        let ids = super::component_ids(&cf, &name);
        by_family.entry(inst.family).or_default().extend(ids);
    }
    let mut count: BTreeMap<String, usize> = BTreeMap::new();
    for id in by_family.into_values().flatten() {
        *count.entry(id).or_default() += 1;
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

/// What every template offers the others: its exports, the physical names
/// of its resources, and every resource's component by key.
fn links(insts: &[Instance], files: &Files, limits: &Limits, out: &mut Out) -> Links {
    let mut links = Links::default();
    for inst in insts {
        let cf = inst.cf(files, limits, &NO_LINKS);
        let file = &files.names[inst.file];
        let key = |lid: &str| intrinsics::key(&inst.label, lid);
        for (output, id) in &inst.placeholders {
            let ty = nested::STACK_TYPES[0].to_string();
            links.keys.insert(key(output), (ty, id.clone()));
        }
        for (lid, ty, r) in &cf.resources {
            let Some(id) = cf.ids.get(lid) else { continue };
            links.keys.insert(key(lid), (ty.clone(), id.clone()));
            for p in NAME_PROPERTIES {
                let name = r.at(&["Properties", p]).and_then(|v| cf.lit(v));
                if let Some(name) = name.and_then(|v| v.text()) {
                    links.names.entry(name).or_default().push(key(lid));
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
            if !cf.ids.contains_key(&lid) || cf.ty(&lid).is_none() {
                continue;
            }
            if let Some((first, _)) = links.exports.get(&name) {
                out.notes.push(format!("TODO: export `{name}` is declared twice ({at}; first by {first}): an ImportValue of it links to the first"));
                continue;
            }
            links.exports.insert(name, (key(&lid), att));
        }
    }
    links
}

/// The outputs of every nested stack read, deepest first, so an output
/// that passes on a grandchild's output (`!GetAtt Inner.Outputs.X`) is
/// that output's value.
fn outputs(insts: &[Instance], files: &Files, limits: &Limits, links: &mut Links) {
    for inst in insts.iter().rev() {
        let Some(stack) = &inst.stack else { continue };
        let values: BTreeMap<String, intrinsics::Ev> = {
            let cf = inst.cf(files, limits, links);
            (cf.root.get("Outputs").map(Node::entries).unwrap_or(&[]))
                .iter()
                .filter_map(|(name, o)| {
                    let v = o.get("Value")?;
                    Some((name.key().to_string(), nested::global(&cf, cf.eval(v))))
                })
                .collect()
        };
        links.outputs.insert(stack.clone(), values);
    }
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
