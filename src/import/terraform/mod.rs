//! Terraform: plans (the JSON of `terraform show -json PLAN`) and
//! configuration (`.tf` files, read by [`config`] into the tree a plan
//! would give, so that one reader reads both).
//!
//! Resources come from `planned_values.root_module` and its
//! `child_modules`. A resource's id is its name in kebab case
//! (`aws_sqs_queue.payout_requests` → `payout-requests`). References between
//! resources are found from ARNs and names in the planned values, or, where
//! a value is not known until apply, from the `configuration` section's
//! expression references.

//!
//! This file collects the resources, makes a component of each one it
//! reads, and then hands every resource to the reader of its type:
//! [`properties`] for the components' own settings, [`links`] for the
//! resources that wire components together, [`refs`] to find the resource
//! a value points at.

mod across;
mod builtins;
mod cache;
mod config;
mod eval;
mod functions;
mod hcl;
mod inputs;
mod links;
mod modules;
mod nodes;
mod plans;
mod properties;
mod refs;
mod resource;
mod roots;
mod s3;
mod schedules;
mod subscriptions;
mod unread;

pub use hcl::{looks_like_hcl, looks_like_plan};
pub use inputs::{
    Modules, hcl_given_to_plan, import_dir, import_hcl, is_config_file, is_found_input,
    is_vars_file, read_dir,
};
pub use plans::import_plans;

use super::{F, Node, Out, V, Value, dur, kebab};
use crate::diagnostics::Diagnostic;

/// One resource of the plan, with the id of its component once it has one.
#[derive(Clone)]
struct Res<'a> {
    address: String,
    /// The address of its module (`module.orders`), empty in the root.
    module: String,
    ty: String,
    values: &'a Node,
    node: &'a Node,
    id: Option<String>,
    /// A resource of another root (or plan) given together, which this
    /// one's literal ARNs and names may point at ([`across`]).
    foreign: bool,
}

/// The resource types that become components, with their default kind.
const READ: &[(&str, &str)] = &[
    ("aws_sqs_queue", "sqs-standard"),
    ("aws_sns_topic", "sns-standard"),
    ("aws_lambda_function", "function"),
    ("aws_dynamodb_table", "dynamodb-table"),
    ("aws_kinesis_stream", "kinesis"),
    ("aws_cloudwatch_event_rule", "eventbridge"),
    ("aws_sfn_state_machine", "step-functions-standard"),
    ("aws_scheduler_schedule", "topic"),
    ("aws_pipes_pipe", "service"),
];
/// The resource types that only link components.
const LINKS: &[&str] = &[
    "aws_lambda_event_source_mapping",
    "aws_lambda_function_event_invoke_config",
    "aws_sns_topic_subscription",
    "aws_cloudwatch_event_target",
    "aws_sqs_queue_redrive_policy",
    "aws_sqs_queue_redrive_allow_policy",
    "aws_lambda_alias",
    "aws_s3_bucket_notification",
];

/// The managed resources of `module` and its child modules.
fn collect<'a>(module: &'a Node, out: &mut Vec<Res<'a>>, depth: usize) {
    let at = module.get("address").and_then(Node::str).unwrap_or("");
    if depth > 32 {
        return;
    }
    for r in module.get("resources").map(Node::items).unwrap_or(&[]) {
        let ty = r.get("type").and_then(Node::str).unwrap_or("").to_string();
        let address = r
            .get("address")
            .and_then(Node::str)
            .unwrap_or("")
            .to_string();
        let empty: &Node = r;
        out.push(Res {
            address,
            module: at.to_string(),
            ty,
            values: r.get("values").unwrap_or(empty),
            node: r,
            id: None,
            foreign: false,
        });
    }
    for m in module.get("child_modules").map(Node::items).unwrap_or(&[]) {
        collect(m, out, depth + 1);
    }
}

/// Reads a plan into `out`.
pub fn import(root: &Node, out: &mut Out) -> Result<(), Diagnostic> {
    import_in(root, out, None)
}

/// Reads a plan into `out`; `ns` namespaces its ids among several plans.
fn import_in(root: &Node, out: &mut Out, ns: Option<&roots::Namespace>) -> Result<(), Diagnostic> {
    let region = plan_start(root, out)?;
    let aliased = read_resources(root, out, ns);
    plan_regions(root, out, region, &aliased);
    Ok(())
}

/// Whether `root` is a plan, with the region TODO of `out`; the
/// provider's region, if the plan sets it.
fn plan_start<'a>(root: &'a Node, out: &mut Out) -> Result<Option<&'a Node>, Diagnostic> {
    if root.at(&["planned_values", "root_module"]).is_none() {
        return Err(root.error_at(
                        "not a Terraform plan: `planned_values.root_module` is missing",
            "give the JSON of `terraform show -json PLANFILE` (a saved plan), not the HCL or the state",
        ));
    };
    let region = root
        .at(&[
            "configuration",
            "provider_config",
            "aws",
            "expressions",
            "region",
            "constant_value",
        ])
        .filter(|n| n.str().is_some_and(|s| !s.is_empty()));
    match region {
        None => out.notes.push("TODO: regions: a plan does not say where the provider runs; add `regions:` where it matters.".into()),
        Some(_) => out.notes.push("TODO: regions: the provider's region is the region of every component; add its failover settings.".into()),
    }
    Ok(region)
}

/// The regions of a plan's components: the provider's `region`, and the
/// aliased providers' of the `aliased` ones.
fn plan_regions(root: &Node, out: &mut Out, region: Option<&Node>, aliased: &Aliased) {
    if let Some(n) = region {
        let at = out.src("configuration.provider_config.aws.region", n);
        provider_region(out, n.str().unwrap_or_default(), &at, aliased);
    }
    alias_regions(out, aliased, |out, key| {
        let n = root
            .at(&[
                "configuration",
                "provider_config",
                key,
                "expressions",
                "region",
            ])?
            .get("constant_value")?;
        let at = out.src(&format!("configuration.provider_config.{key}.region"), n);
        Some((n.text()?, at))
    });
}

/// The components whose resource names a provider other than the default
/// one (`provider = aws.west`), with that provider's key.
pub(super) type Aliased = std::collections::BTreeMap<String, String>;

/// The provider's region `r` (read `at`) as the region of every component
/// the input manages (not data sources, nor endpoints outside AWS) but those
/// of an `aliased` provider: a global table's first region, every other
/// component's only one.
pub(super) fn provider_region(out: &mut Out, r: &str, at: &str, aliased: &Aliased) {
    if !out.regions.iter().any(|(x, _)| x == r) {
        out.regions.insert(0, (r.to_string(), at.to_string()));
    }
    for c in out.comps.iter_mut().filter(|c| {
        !c.from.starts_with("data source") && c.kind != "external" && !aliased.contains_key(&c.id)
    }) {
        set_region(c, r, at);
    }
}

/// The region of each component of an `aliased` provider: `region_of`
/// gives the provider's region and where it is set, or a TODO says it is
/// unknown.
pub(super) fn alias_regions(
    out: &mut Out,
    aliased: &Aliased,
    region_of: impl Fn(&Out, &str) -> Option<(String, String)>,
) {
    for (id, key) in aliased {
        match region_of(out, key) {
            Some((r, at)) => {
                out.region(&r, at.clone());
                if let Some(c) = out.comp(id) {
                    set_region(c, &r, &format!("{at} (`provider = {key}`)"));
                }
            }
            None => out.note(id, format!("TODO: regions: `provider = {key}`, a provider whose region this input does not set")),
        }
    }
}

/// Region `r` (read `at`) first among component `c`'s regions.
fn set_region(c: &mut super::OutComp, r: &str, at: &str) {
    c.notes
        .retain(|n| !n.starts_with("TODO: add the provider's own region"));
    match c.fields.iter_mut().find(|f| f.key == "regions") {
        Some(F {
            val: V::List(rs),
            comment,
            ..
        }) => {
            if !rs.iter().any(|x| x == r) {
                rs.insert(0, r.to_string());
                *comment = Some(format!(
                    "{at} (the provider's region, first) and {}",
                    comment.clone().unwrap_or_default()
                ));
            }
        }
        _ => c.fields.insert(
            0,
            F::new(
                "regions",
                V::List(vec![r.to_string()]),
                Some(format!("{at}: the provider's region")),
            ),
        ),
    }
}

/// Reads the resources of a plan-shaped tree (a plan, or the tree
/// [`config`] makes of a configuration) into `out`; returns the components
/// of aliased providers.
/// `ns` namespaces the ids of one root among several.
fn read_resources(root: &Node, out: &mut Out, ns: Option<&roots::Namespace>) -> Aliased {
    let res = prepare(root, out, ns);
    read_links(root, &res, out)
}

/// The first pass over a plan-shaped tree: its resources, with a
/// component in `out` for each one read.
fn prepare<'a>(root: &'a Node, out: &mut Out, ns: Option<&roots::Namespace>) -> Vec<Res<'a>> {
    let mut res = Vec::new();
    if let Some(module) = root.at(&["planned_values", "root_module"]) {
        collect(module, &mut res, 0);
    }
    components(&mut res, out, ns);
    res
}

/// The second pass: the settings of each component and the resources
/// that link them; `res` may end with other roots' resources, which are
/// looked up but not read.
fn read_links(root: &Node, res: &[Res], out: &mut Out) -> Aliased {
    let ix = refs::Index::new(res, root);
    let inv = functions::Invoked::default();
    let buckets = s3::Buckets::new(res);
    for r in res.iter().filter(|r| !r.foreign) {
        let cx = Ctx {
            res,
            ix: &ix,
            r,
            inv: &inv,
        };
        match (r.ty.as_str(), r.id.clone()) {
            ("aws_sqs_queue", Some(id)) => properties::sqs_queue(&cx, out, &id),
            ("aws_lambda_function", Some(id)) => cx.set_dur(out, &id, "timeout", "timeout", 1),
            ("aws_kinesis_stream", Some(id)) => {
                cx.set_dur(out, &id, "retention", "retention_period", 3600)
            }
            ("aws_dynamodb_table", Some(id)) => properties::dynamodb_table(&cx, out, &id),
            ("aws_lambda_event_source_mapping", _) => links::event_source_mapping(&cx, out),
            ("aws_lambda_function_event_invoke_config", _) => links::event_invoke_config(&cx, out),
            ("aws_sns_topic_subscription", _) => subscriptions::sns_subscription(&cx, out),
            ("aws_cloudwatch_event_target", _) => links::event_target(&cx, out),
            ("aws_scheduler_schedule", Some(id)) => schedules::schedule(&cx, out, &id),
            ("aws_pipes_pipe", Some(id)) => schedules::pipe(&cx, out, &id),
            ("aws_sqs_queue_redrive_policy", _) => subscriptions::queue_redrive_policy(&cx, out),
            ("aws_s3_bucket_notification", _) => s3::notification(&cx, out, &buckets),
            _ => {}
        }
    }
    // A redrive-allow policy needs every queue's dead letter.
    for r in res.iter().filter(|r| !r.foreign) {
        let cx = Ctx {
            res,
            ix: &ix,
            r,
            inv: &inv,
        };
        let queue = match r.ty.as_str() {
            "aws_sqs_queue" => r.id.clone(),
            "aws_sqs_queue_redrive_allow_policy" => subscriptions::queue_of(&cx),
            _ => continue,
        };
        match queue {
            Some(id) => properties::redrive_allow(&cx, out, &id),
            None => cx.unsupported(out, "queue not in this plan"),
        }
    }
    functions::resolve(out, inv);
    res.iter()
        .filter(|r| !r.foreign)
        .filter_map(|r| {
            let managed = r.node.get("mode").and_then(Node::str) != Some("data");
            let key = ix.provider(&r.address).filter(|k| *k != "aws" && managed)?;
            Some((r.id.clone()?, key.to_string()))
        })
        .collect()
}

/// The id a resource's name gives: the name, or, when resources of that
/// name are in several modules, the module path and the name
/// (`module.orders.aws_sqs_queue.this` → `orders.this`); a root resource
/// keeps its name. Among several roots (`ns`), a name another root uses
/// too gets the root's folder name first (`payments.this`).
fn names(res: &[Res], ns: Option<&roots::Namespace>) -> Vec<String> {
    let base = |r: &Res| {
        r.node
            .get("name")
            .and_then(Node::str)
            .unwrap_or(&r.address)
            .to_string()
    };
    let mut instances: std::collections::BTreeMap<&str, usize> = Default::default();
    for r in res {
        *instances.entry(unindexed(&r.address)).or_default() += 1;
    }
    // An instance's name: `dlq-0`, `queues-orders`; the only instance of
    // a `count` (`count = var.create ? 1 : 0`) keeps the resource's.
    let name = |r: &Res| {
        let n = base(r);
        match r.node.get("index").map(|i| &i.value) {
            Some(Value::Str(k)) => format!("{n}-{k}"),
            Some(Value::Int(i)) if instances[unindexed(&r.address)] > 1 => format!("{n}-{i}"),
            _ => n,
        }
    };
    let mut modules: std::collections::BTreeMap<String, std::collections::BTreeSet<&str>> =
        Default::default();
    for r in res {
        modules
            .entry(name(r))
            .or_default()
            .insert(r.module.as_str());
    }
    let local = |r: &Res, n: String| {
        if r.module.is_empty() || modules[&n].len() < 2 {
            return n;
        }
        // An instance of a repeated call: `module.q["a"]` → `q-a`.
        let path: Vec<String> = r
            .module
            .split('.')
            .filter(|p| *p != "module")
            .map(|p| match p.split_once('[') {
                Some((m, i)) => format!("{m}-{}", i.trim_end_matches(']').trim_matches('"')),
                None => p.to_string(),
            })
            .collect();
        format!("{}.{n}", path.join("."))
    };
    res.iter()
        .map(|r| match ns {
            Some(ns) if ns.taken.contains(&base(r)) => {
                format!("{}.{}", ns.prefix, local(r, name(r)))
            }
            _ => local(r, name(r)),
        })
        .collect()
}

/// An address without its last index: `aws_sqs_queue.q["a"]` →
/// `aws_sqs_queue.q` (a module's index stays: `module.m[0].aws_sqs_queue.q`).
pub(super) fn unindexed(address: &str) -> &str {
    match address.rfind('[') {
        Some(i) if address.ends_with(']') && !address[i..].contains('.') => &address[..i],
        _ => address,
    }
}

/// First pass: a component for every resource type in [`READ`], an
/// unsupported entry for every type neither read nor a link.
fn components(res: &mut [Res], out: &mut Out, ns: Option<&roots::Namespace>) {
    let names = names(res, ns);
    let buckets = s3::Buckets::new(res);
    let mut outputs = std::collections::BTreeMap::new();
    if out.format == super::Format::Terraform {
        // A plan's unit is the resource instance it lists; a
        // configuration's, its block, counted as it is read.
        let managed = |r: &&Res| r.node.get("mode").and_then(Node::str) != Some("data");
        out.coverage.total += (res.iter())
            .filter(|r| r.ty != unread::OUTPUT)
            .filter(managed)
            .count();
    }
    for (i, (r, name)) in res.iter_mut().zip(names).enumerate() {
        let data = r.node.get("mode").and_then(Node::str) == Some("data");
        if r.ty == unread::OUTPUT {
            module_output(r, &name, out, &mut outputs);
        } else if data {
            data_source(r, &name, out);
        } else if let Some((_, kind)) = READ.iter().find(|(t, _)| *t == r.ty) {
            let kind = kind_of(r, kind);
            let from = format!("{}, {}", r.ty, out.src(&r.address, r.node));
            let id = out.add(&kebab(&name), kind, from);
            resource::set(out, r, &id);
            crate::import::allow::terraform(out, r.node, &r.address, &id);
            r.id = Some(id);
        } else if buckets.notifies(i) {
            // A bucket that notifies (or a notification whose bucket is
            // not here, standing for it): an event source.
            r.id = Some(s3::component(out, r, &name));
        } else if !LINKS.contains(&r.ty.as_str()) {
            let src = out.src(&r.address, r.node);
            let key = unit(out, &r.address).to_string();
            out.unsupported_unit(&r.ty, &key, format!("{} ({})", r.address, r.ty), src);
        }
    }
}

/// An output of a module that is not read ([`unread`]): a placeholder
/// component of the kind its name or use suggests, with a TODO; outputs
/// with the same id (`queue_arn`, `queue_url` of module `queue`) share it.
fn module_output(
    r: &mut Res,
    name: &str,
    out: &mut Out,
    seen: &mut std::collections::BTreeMap<String, String>,
) {
    if let Some(id) = seen.get(name) {
        r.id = Some(id.clone());
        return;
    }
    let v = |k: &str| r.values.get(k).and_then(Node::str).unwrap_or("");
    let (module, source, output) = (v("module"), v("source"), v("output"));
    let from = format!(
        "placeholder for output `{output}` of {}",
        out.src(module, r.node).trim_start_matches("from ")
    );
    let id = out.add(&kebab(name), v("kind"), from);
    let remote = !(source.starts_with("./") || source.starts_with("../"));
    let limited = r.values.get("limited").and_then(Node::boolean) == Some(true);
    let why = match remote {
        _ if limited => format!(
            "the import follows module calls {} deep and {} instances at most",
            modules::MAX_DEPTH,
            modules::MAX_INSTANCES
        ),
        true => format!(
            "its source `{source}` is not in the module cache ({}): run `terraform init -backend=false` in the root module's folder, then import again",
            cache::MANIFEST
        ),
        false => format!("its folder `{source}` is not among the inputs: import it too"),
    };
    out.unresolved(
        &id,
        format!(
            "TODO: placeholder for `{module}.{output}` (used as `{}`): {module} is not read, {why}; or declare its kind and settings here or in an overlay",
            v("used_as")
        ),
    );
    seen.insert(name.to_string(), id.clone());
    r.id = Some(id);
}

/// A data source of a type read here: a placeholder component of the
/// generic kind, with a TODO, since what it describes is managed elsewhere
/// and its settings cannot be seen; other data sources are no components.
fn data_source(r: &mut Res, name: &str, out: &mut Out) {
    const GENERIC: &[(&str, &str)] = &[
        ("aws_sqs_queue", "queue"),
        ("aws_sns_topic", "topic"),
        ("aws_lambda_function", "function"),
        ("aws_dynamodb_table", "store"),
        ("aws_kinesis_stream", "stream"),
        ("aws_cloudwatch_event_rule", "topic"),
        ("aws_sfn_state_machine", "workflow"),
    ];
    let Some((_, kind)) = GENERIC.iter().find(|(t, _)| *t == r.ty) else {
        return;
    };
    let from = format!("data source {}, {}", r.ty, out.src(&r.address, r.node));
    let id = out.add(&kebab(name), kind, from);
    out.note(
        &id,
        format!(
            "TODO: `{}` is a data source: it is managed elsewhere and its settings are not in this configuration; set its kind (`{}` is read as `{}`) and settings here or in an overlay, or import the configuration that manages it",
            r.address, r.ty, READ.iter().find(|(t, _)| *t == r.ty).map_or(*kind, |k| k.1)
        ),
    );
    r.id = Some(id);
}

/// The kind of a read resource: its type's default unless its values say
/// FIFO, global table or express workflow.
fn kind_of(r: &Res, default: &'static str) -> &'static str {
    let mut kind = default;
    if r.ty == "aws_sqs_queue" && r.values.get("fifo_queue").and_then(Node::boolean) == Some(true) {
        kind = "sqs-fifo";
    }
    if r.ty == "aws_sns_topic" && r.values.get("fifo_topic").and_then(Node::boolean) == Some(true) {
        kind = "sns-fifo";
    }
    if r.ty == "aws_dynamodb_table"
        && !r
            .values
            .get("replica")
            .map(Node::items)
            .unwrap_or(&[])
            .is_empty()
    {
        kind = "dynamodb-global-table";
    }
    if r.ty == "aws_sfn_state_machine"
        && r.values.get("type").and_then(Node::str) == Some("EXPRESS")
    {
        kind = "step-functions-express-async";
    }
    kind
}

/// The resource being read in the second pass, with everything its reader
/// needs to look at it and at the others.
struct Ctx<'a> {
    res: &'a [Res<'a>],
    ix: &'a refs::Index<'a>,
    r: &'a Res<'a>,
    /// How the resources read so far invoke each function.
    inv: &'a functions::Invoked,
}

impl<'a> Ctx<'a> {
    /// The planned value of attribute `k`.
    fn v(&self, k: &str) -> Option<&'a Node> {
        self.r.values.get(k)
    }

    /// The address of attribute `k`, for source comments.
    fn path(&self, k: &str) -> String {
        format!("{}.{k}", self.r.address)
    }

    /// Sets `key` on component `id` to the duration in attribute `attr`
    /// (`unit` seconds each), when it is a non-negative integer.
    fn set_dur(&self, out: &mut Out, id: &str, key: &str, attr: &str, unit: u64) {
        if let Some(n) = self.v(attr)
            && let Some(x) = n.int()
            && x >= 0
        {
            let c = out.src(&self.path(attr), n);
            out.set(id, F::new(key, V::S(dur(x as u64 * unit)), Some(c)));
        }
    }

    /// The index of the resource `value` (or the configuration of `attr`)
    /// points at; a function alias stands for its function.
    fn find(&self, attr: &str, value: Option<&Node>) -> Option<usize> {
        let j = self.ix.find(&self.r.address, attr, value)?;
        Some(functions::through_alias(self, j))
    }

    /// The component id of the resource `value` (or the configuration of
    /// `attr`) points at.
    fn find_id(&self, attr: &str, value: Option<&Node>) -> Option<String> {
        self.find(attr, value).and_then(|j| self.res[j].id.clone())
    }

    /// Records the resource as unsupported, saying why.
    fn unsupported(&self, out: &mut Out, why: &str) {
        let why = match out.format {
            super::Format::TerraformHcl => why.replace("this plan", "this configuration"),
            _ => why.to_string(),
        };
        let key = unit(out, &self.r.address).to_string();
        out.unsupported_unit(
            &self.r.ty,
            &key,
            format!("{} ({why})", self.r.address),
            out.src(&self.r.address, self.r.node),
        );
    }
}

/// The unit of the coverage line a resource instance belongs to: in a
/// plan, the instance; in a configuration, its block (`count` and
/// `for_each` make instances of one resource).
fn unit<'a>(out: &Out, address: &'a str) -> &'a str {
    match out.format {
        super::Format::TerraformHcl => unindexed(address),
        _ => address,
    }
}
