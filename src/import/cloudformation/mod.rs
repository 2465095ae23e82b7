//! CloudFormation and SAM templates (YAML with short intrinsic tags, or JSON).
//!
//! Intrinsic functions are evaluated as far as the template allows:
//! parameters from `--parameter` or their defaults, conditions, mappings,
//! `Sub`/`Join`/`Select`/`Split`; a `Ref`/`GetAtt` to a resource becomes a
//! link to that resource's component. What cannot be known before
//! deployment (`ImportValue`, `GetAZs`, pseudo parameters) stays unknown
//! and is reported as a TODO where it matters.
//!
//! This file reads the resources in two passes (components, then their
//! properties and links) and holds the helpers every service uses;
//! [`intrinsics`] evaluates values, and one file per service reads that
//! service's resources.

pub mod cdk;
mod conditions;
mod definition_file;
mod dynamodb;
pub(super) mod eventbridge;
mod intrinsics;
pub(super) mod invocation;
mod lambda;
mod local_file;
mod nested;
mod s3;
mod sam;
mod schedules;
mod sns;
mod sqs;
mod stacks;
mod state_machines;
mod unread;

use std::collections::{BTreeMap, BTreeSet};

use super::{F, Node, Out, V, Value, dur, kebab};
use crate::diagnostics::Diagnostic;
use intrinsics::Cf;
pub(crate) use stacks::arn_parts;
pub use stacks::{Template, import_stacks, import_templates};
pub(crate) use state_machines::deployed as deployed_state_machine;

/// Reads a template into `out`.
pub fn import(
    root: &Node,
    params: &[(String, String)],
    limits: &crate::manifest::Limits,
    out: &mut Out,
) -> Result<(), Diagnostic> {
    let params = intrinsics::parameters(root, params)?;
    let mut cf = open(root, params, limits, &intrinsics::NO_LINKS)?;
    missing_parameters(&cf, out, "");
    out.notes.push(REGIONS_TODO.into());
    components(&mut cf, out, &|lid, _| kebab(lid), &BTreeSet::new());
    let mut invoked = invocation::Invocations::new();
    properties(&cf, out, &mut invoked);
    invocation::resolve(out, invoked);
    Ok(())
}

const REGIONS_TODO: &str = "TODO: regions: a stack deploys to one region; add `regions:` to components that run in several.";

/// The template at `root` ready to read: its parameter values and resources.
fn open<'a>(
    root: &'a Node,
    params: BTreeMap<String, Node>,
    limits: &'a crate::manifest::Limits,
    links: &'a intrinsics::Links,
) -> Result<Cf<'a>, Diagnostic> {
    let Value::Map(_) = root.value else {
        return Err(root.error_at(
            "a CloudFormation template must be a mapping",
            "the top level holds `Resources:`",
        ));
    };
    let Some(resources) = root.get("Resources") else {
        return Err(root.error_at(
            "the template has no `Resources`",
            "a CloudFormation template lists its resources under `Resources:`",
        ));
    };
    let Value::Map(res) = &resources.value else {
        return Err(resources.error_at(
            "`Resources` must be a mapping of logical id to resource",
            "write `Resources:` followed by `LogicalId: {Type: ..., Properties: ...}`",
        ));
    };
    let resources = res
        .iter()
        .map(|(id, r)| {
            let ty = r.get("Type").and_then(Node::str).unwrap_or("").to_string();
            (id.key().to_string(), ty, r)
        })
        .collect();
    Ok(Cf {
        root,
        params,
        resources,
        ids: BTreeMap::new(),
        limits,
        links,
        label: String::new(),
        bound: BTreeMap::new(),
    })
}

/// A note naming the parameters without a value (`of` names the template
/// when several are read). The asset parameters of the CDK's legacy
/// synthesizer (`AssetParameters<hash>S3Bucket<hash>`, also passed on to
/// nested stacks under longer names) locate function code, which nothing
/// here reads: they are not named.
fn missing_parameters(cf: &Cf, out: &mut Out, of: &str) {
    let missing: Vec<&str> = cf
        .root
        .get("Parameters")
        .map(Node::entries)
        .unwrap_or(&[])
        .iter()
        .map(|(name, _)| name.key())
        .filter(|name| !cf.params.contains_key(*name) && !cf.bound.contains_key(*name))
        .filter(|name| !name.contains("AssetParameters"))
        .collect();
    if !missing.is_empty() {
        out.notes.push(format!(
            "TODO: parameters{of} without a default and not given with --parameter: {} (values that use them are left out)",
            missing.join(", ")
        ));
    }
}

/// The component ids pass 1 will give (before any `-2` suffix), for the
/// ids several templates share; `name` as for [`components`].
fn component_ids(cf: &Cf, name: &Naming) -> Vec<String> {
    cf.resources
        .iter()
        .filter(|(_, ty, _)| ty != CDK_METADATA)
        .filter(|(_, _, r)| {
            r.get("Condition")
                .and_then(Node::str)
                .is_none_or(|c| cf.condition(c, 0) != Some(false))
        })
        .filter(|(_, ty, r)| kind(cf, ty, r).is_some())
        .map(|(lid, _, r)| name(lid, r))
        .collect()
}

/// The id of a resource's component from its logical id and node.
type Naming<'n> = dyn Fn(&str, &Node) -> String + 'n;

/// The CDK's own bookkeeping resource (analytics), never a component
/// and never worth a line.
const CDK_METADATA: &str = "AWS::CDK::Metadata";

/// Pass 1: a component for every resource this importer reads, unless its
/// condition is false; `name` gives the id (the kebab-case logical id,
/// perhaps prefixed, or the CDK construct path). `nested` are the stack
/// resources whose templates were read (not listed as not imported).
fn components(cf: &mut Cf, out: &mut Out, name: &Naming, nested: &BTreeSet<String>) {
    out.coverage.total += cf.resources.len();
    for (lid, ty, r) in &cf.resources {
        if ty == CDK_METADATA {
            continue;
        }
        if let Some(c) = r.get("Condition").and_then(Node::str) {
            match cf.condition(c, 0) {
                Some(false) => {
                    out.notes.push(format!(
                        "{lid} is left out: its condition `{c}` is false with these parameters"
                    ));
                    continue;
                }
                Some(true) => {}
                None => out.notes.push(format!(
                    "TODO: {lid} is imported, but its condition `{c}` {}: check whether the stack creates it",
                    cf.undecided(c)
                )),
            }
        }
        let from = out.src(&format!("Resources.{lid}"), r.get("Type").unwrap_or(r));
        let from = format!("{ty}, {from}");
        let Some(kind) = kind(cf, ty, r) else {
            if !LINKING.contains(&ty.as_str()) && !nested.contains(lid) {
                let at = out.src(&format!("Resources.{lid}"), r);
                out.unsupported(ty, format!("Resources.{lid} ({ty})"), at);
            }
            continue;
        };
        let id = out.add(&name(lid, r), kind, from);
        let allow = crate::import::allow::from_metadata(out, lid, r);
        out.allow(&id, allow);
        cf.ids.insert(lid.clone(), id);
    }
}

/// The resources that only link others (read in pass 2).
const LINKING: [&str; 4] = [
    "AWS::Lambda::EventSourceMapping",
    "AWS::Lambda::EventInvokeConfig",
    "AWS::Events::Connection",
    "AWS::SNS::Subscription",
];

/// The component kind of a resource; none for the [`LINKING`] resources and
/// for those this importer does not read.
fn kind(cf: &Cf, ty: &str, r: &Node) -> Option<&'static str> {
    let kind = match ty {
        "AWS::SQS::Queue" => {
            if prop(cf, r, "FifoQueue").and_then(|n| n.boolean()) == Some(true) {
                "sqs-fifo"
            } else {
                "sqs-standard"
            }
        }
        "AWS::SNS::Topic" => {
            if prop(cf, r, "FifoTopic").and_then(|n| n.boolean()) == Some(true) {
                "sns-fifo"
            } else {
                "sns-standard"
            }
        }
        "AWS::Lambda::Function" | "AWS::Serverless::Function" => "function",
        // SAM's SimpleTable is a table without TTL, streams or indexes.
        "AWS::DynamoDB::Table" | "AWS::Serverless::SimpleTable" => "dynamodb-table",
        "AWS::DynamoDB::GlobalTable" => "dynamodb-global-table",
        "AWS::Kinesis::Stream" => "kinesis",
        "AWS::Events::Rule" => "eventbridge",
        "AWS::StepFunctions::StateMachine" | "AWS::Serverless::StateMachine" => {
            if prop(cf, r, "StateMachineType")
                .or_else(|| prop(cf, r, "Type"))
                .and_then(|n| n.text())
                .as_deref()
                == Some("EXPRESS")
            {
                "step-functions-express-async"
            } else {
                "step-functions-standard"
            }
        }
        "AWS::Events::ApiDestination" => "external",
        "AWS::Scheduler::Schedule" => "topic",
        "AWS::Pipes::Pipe" => "service",
        // A bucket is read only as the source of event notifications.
        "AWS::S3::Bucket" if s3::notifies(cf, r) => "topic",
        _ => return None,
    };
    Some(kind)
}

/// Pass 2: properties and links of every resource.
fn properties(cf: &Cf, out: &mut Out, fn_hint: &mut invocation::Invocations) {
    for (lid, ty, r) in &cf.resources {
        let Some(id) = cf.ids.get(lid).cloned() else {
            match ty.as_str() {
                "AWS::Lambda::EventSourceMapping" => lambda::esm(cf, out, lid, r, fn_hint),
                "AWS::Lambda::EventInvokeConfig" => {
                    lambda::event_invoke_config(cf, out, lid, r, fn_hint)
                }
                "AWS::SNS::Subscription" => sns::subscription_resource(cf, out, lid, r),
                _ => {}
            }
            continue;
        };
        let base = format!("Resources.{lid}.Properties");
        resource_name(cf, out, &id, ty, r, &base);
        let p = |k: &str| r.at(&["Properties", k]);
        match ty.as_str() {
            "AWS::SQS::Queue" => sqs::queue(cf, out, &id, lid, r, &base),
            "AWS::SNS::Topic" => sns::topic(cf, out, &id, r, &base),
            "AWS::Lambda::Function" => lambda::function(cf, out, &id, r, &base),
            "AWS::Serverless::Function" => sam::function(cf, out, &id, lid, r, fn_hint),
            "AWS::DynamoDB::Table"
            | "AWS::DynamoDB::GlobalTable"
            | "AWS::Serverless::SimpleTable" => {
                dynamodb::table(cf, out, &id, lid, r, ty == "AWS::DynamoDB::GlobalTable")
            }
            "AWS::Kinesis::Stream" => {
                if let Some(n) = p("RetentionPeriodHours")
                    && let Some(h) = cf.lit(n).and_then(|n| n.int())
                    && h > 0
                {
                    let c = out.src(&format!("{base}.RetentionPeriodHours"), n);
                    out.set(
                        &id,
                        F::new("retention", V::S(dur(h as u64 * 3600)), Some(c)),
                    );
                }
            }
            "AWS::Events::Rule" => eventbridge::rule(cf, out, &id, r, &base),
            "AWS::Events::ApiDestination" => eventbridge::api_destination(cf, out, &id, r, &base),
            "AWS::Scheduler::Schedule" => schedules::schedule(cf, out, &id, r, &base, fn_hint),
            "AWS::Pipes::Pipe" => schedules::pipe(cf, out, &id, r, &base),
            "AWS::StepFunctions::StateMachine" => {
                state_machines::state_machine(cf, out, &id, r, &base)
            }
            "AWS::Serverless::StateMachine" => {
                state_machines::state_machine(cf, out, &id, r, &base);
                sam::state_machine_events(cf, out, &id, lid, r, fn_hint);
            }
            "AWS::S3::Bucket" => s3::bucket(cf, out, &id, r, &base, fn_hint),
            _ => {}
        }
    }
}

/// The property that names the deployed resource of each type read.
fn name_property(ty: &str) -> Option<&'static str> {
    Some(match ty {
        "AWS::SQS::Queue" => "QueueName",
        "AWS::SNS::Topic" => "TopicName",
        "AWS::Lambda::Function" | "AWS::Serverless::Function" => "FunctionName",
        "AWS::DynamoDB::Table" | "AWS::DynamoDB::GlobalTable" | "AWS::Serverless::SimpleTable" => {
            "TableName"
        }
        "AWS::StepFunctions::StateMachine" => "StateMachineName",
        "AWS::Kinesis::Stream"
        | "AWS::Events::Rule"
        | "AWS::Events::ApiDestination"
        | "AWS::Scheduler::Schedule"
        | "AWS::Pipes::Pipe"
        | "AWS::Serverless::StateMachine" => "Name",
        "AWS::S3::Bucket" => "BucketName",
        _ => return None,
    })
}

/// `resource: NAME` where the template names the resource with a value it
/// knows (literal, or resolved from parameters): `drift` matches the
/// component to the deployed resource by it.
fn resource_name(cf: &Cf, out: &mut Out, id: &str, ty: &str, r: &Node, base: &str) {
    let Some(key) = name_property(ty) else {
        return;
    };
    if let Some(n) = r.at(&["Properties", key])
        && let Some(v) = cf.lit(n).and_then(|v| v.text())
    {
        let c = out.src(&format!("{base}.{key}"), n);
        out.set(
            id,
            F::new("resource", V::S(crate::import::scalar(&v)), Some(c)),
        );
    }
}

fn prop(cf: &Cf, r: &Node, k: &str) -> Option<Node> {
    r.at(&["Properties", k]).and_then(|n| cf.lit(n))
}

/// An object written as a mapping or as a JSON string (RedrivePolicy).
fn json_object(cf: &Cf, n: &Node) -> Option<Node> {
    let v = cf.lit(n)?;
    match &v.value {
        Value::Map(_) => Some(v),
        Value::Str(s) => serde_json::from_str::<serde_json::Value>(s).ok().map(|j| {
            let mut node = super::tree::from_json(j, v.loc.file);
            relocate(&mut node, v.loc);
            node
        }),
        _ => None,
    }
}

fn relocate(n: &mut Node, loc: crate::diagnostics::Loc) {
    n.loc = loc;
    match &mut n.value {
        Value::Seq(items) => items.iter_mut().for_each(|x| relocate(x, loc)),
        Value::Map(m) => m.iter_mut().for_each(|(_, x)| relocate(x, loc)),
        _ => {}
    }
}

fn duration(cf: &Cf, out: &mut Out, id: &str, key: &str, n: Option<&Node>, path: &str, unit: u64) {
    let Some(n) = n else { return };
    match cf.lit(n).and_then(|v| v.int()) {
        Some(v) if v >= 0 => {
            let c = out.src(path, n);
            out.set(id, F::new(key, V::S(dur(v as u64 * unit)), Some(c)));
        }
        _ => out.note(
            id,
            format!(
                "TODO: {key}: `{}` could not be evaluated ({})",
                n.brief(),
                out.src(path, n)
            ),
        ),
    }
}

fn boolean(cf: &Cf, out: &mut Out, id: &str, key: &str, n: Option<&Node>, path: &str) {
    let Some(n) = n else { return };
    if let Some(b) = cf.lit(n).and_then(|v| v.boolean()) {
        let c = out.src(path, n);
        out.set(id, F::new(key, V::S(b.to_string()), Some(c)));
    }
}

/// The component a reference leads to, or a TODO note on `on`.
fn link_target(
    cf: &Cf,
    out: &mut Out,
    on: &str,
    n: &Node,
    path: &str,
    what: &str,
) -> Option<String> {
    match cf.target(n) {
        Ok((r, _)) => match cf.id(&r) {
            Some(id) => Some(id.clone()),
            None => {
                out.unresolved(
                    on,
                    format!(
                        "TODO: {what} {r} ({}), a resource this importer does not read",
                        out.src(path, n)
                    ),
                );
                None
            }
        },
        Err(why) => {
            out.unresolved(on, format!("TODO: {what} {why} ({})", out.src(path, n)));
            None
        }
    }
}

fn dead_letter(
    cf: &Cf,
    out: &mut Out,
    id: &str,
    target: &Node,
    path: &str,
    count: Option<(i64, Node, String)>,
) {
    let Some(to) = link_target(cf, out, id, target, path, "dead_letter to") else {
        return;
    };
    let mut fields = vec![F::new("to", V::S(to), Some(out.src(path, target)))];
    if let Some((c, n, p)) = count
        && c >= 1
    {
        fields.push(F::new(
            "after_receives",
            V::S(c.to_string()),
            Some(out.src(&p, &n)),
        ));
    }
    out.set(id, F::new("dead_letter", V::Map(fields), None));
}
