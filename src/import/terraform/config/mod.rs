//! A Terraform configuration (the `.tf` files of one module folder, its
//! `.tfvars` files and `--var` values) turned into the tree a plan's JSON
//! would give, so that the plan reader reads both.
//!
//! Values are evaluated in the order Terraform would know them: variables
//! (default, then `.tfvars` files in order, then `--var`), locals (in
//! dependency order, at most [`MAX_LOCAL_LEVELS`] deep), then the
//! attributes of every resource instance ([`repeat`]: `count` and
//! `for_each`; [`resources`]), twice: first those that only variables,
//! locals and the instance's keys decide, then those that refer to
//! another resource's attribute; an attribute only
//! apply knows (`arn`, `id`, `url`, ...) stands for its resource by a
//! placeholder. What stays unknown leaves the attribute out of `values`,
//! and its references go into `configuration`, where the plan reader looks
//! for them.

use std::collections::{BTreeMap, BTreeSet};

use hcl::Value as HVal;

mod repeat;
mod resources;

use super::eval::{self, Scan};
use super::hcl::{Attr, Block, Body};
use super::nodes::{self, Passed, place, refs_node};
use crate::diagnostics::Loc;
use crate::import::Node;

/// Deeper chains of locals than this stay unknown.
const MAX_LOCAL_LEVELS: usize = 16;
/// Attributes only `terraform apply` knows: a reference to one names the
/// resource by a placeholder of this attribute.
const COMPUTED: [&str; 6] = ["arn", "id", "url", "stream_arn", "name", "invoke_arn"];
/// Meta-arguments, not settings of the resource.
const META: [&str; 5] = ["count", "for_each", "depends_on", "provider", "lifecycle"];

/// The plan-shaped tree of a configuration and what it says beyond its
/// resources.
pub(super) struct Read {
    /// The resources as `planned_values` and `configuration` list them.
    pub planned: Vec<Node>,
    pub config: Vec<Node>,
    pub notes: Vec<String>,
    /// The `aws` provider's region and where it is set.
    pub region: Option<(String, String)>,
    /// The aliased `aws` providers' regions: (`aws.ALIAS`, region, place).
    pub aliases: Vec<(String, String, String)>,
    /// The module's `output` blocks, as the plan's configuration lists
    /// them: `{NAME: {expression: {references}}}`, names with the module's
    /// address.
    pub outputs: Vec<(String, Node)>,
    /// The module's `module` blocks.
    pub calls: Vec<Call>,
    /// Its `resource` blocks: the unit of the coverage line.
    pub blocks: usize,
}

/// A `module` block: its name, literal `source`, the TODO for when its
/// folder is not read, and the values of its arguments (the called
/// module's variables).
pub(super) struct Call {
    /// The block's name, which keys it in the module cache.
    pub name: String,
    /// Its name with the instance's index (`queues["orders"]`, `shard[0]`)
    /// when the block has `count` or `for_each`.
    pub address: String,
    pub source: Option<String>,
    pub note: String,
    pub args: BTreeMap<String, HVal>,
    /// The arguments it sets to a value not known here, with their place.
    pub unknown: Vec<(String, String)>,
    /// The providers it passes, as the root names them.
    pub providers: Passed,
    /// Where the block is.
    pub loc: Loc,
}

/// Which module a configuration is: the root (`args` is `None`: variables
/// come from `.tfvars` files and `--var`), or one called with `args`,
/// whose resources' addresses start with `prefix` (`module.NAME.`).
pub(super) struct Instance {
    pub prefix: String,
    pub args: Option<BTreeMap<String, HVal>>,
    /// The arguments its caller sets to a value not known here, with
    /// their place: such a variable has no value, not its default.
    pub unknown: Vec<(String, String)>,
    /// The providers its caller passed (`providers = {...}`).
    pub providers: Passed,
}

/// `files` are parsed bodies: (file name, body, is a `.tfvars` file), in
/// precedence order; `params` the `--var` values; `budget` bounds the
/// weight of everything evaluated.
pub(super) fn read(
    files: &[(String, Body, bool)],
    params: &[(String, String)],
    module: &Instance,
    budget: usize,
) -> Read {
    let mut st = State {
        values: BTreeMap::new(),
        budget,
        expand: budget,
        notes: Vec::new(),
        ctx: super::builtins::context(),
        prefix: module.prefix.clone(),
        providers: module.providers.clone(),
    };
    let configs: Vec<&Body> = files.iter().filter(|f| !f.2).map(|f| &f.1).collect();
    let blocks = || configs.iter().flat_map(|b| b.blocks.iter());
    match &module.args {
        None => st.variables(blocks(), files, params),
        Some(args) => st.arguments(blocks(), files, args, &module.unknown),
    }
    st.locals(blocks());
    let region = st.region(blocks(), files);
    let aliases = st.aliases(blocks(), files);
    let resources: Vec<&Block> = blocks()
        .filter(|b| matches!(b.ident.as_str(), "resource" | "data") && b.labels.len() == 2)
        .collect();
    let blocks_read = resources.iter().filter(|b| b.ident == "resource").count();
    let (planned, config) = st.resources(&resources, files);
    let calls = blocks()
        .filter(|b| b.ident == "module")
        .flat_map(|b| st.calls(b, files))
        .collect();
    let outputs = blocks()
        .filter(|b| b.ident == "output" && b.labels.len() == 1)
        .filter_map(|b| st.output(b))
        .collect();
    Read {
        planned,
        config,
        notes: st.notes,
        region,
        aliases,
        outputs,
        calls,
        blocks: blocks_read,
    }
}

/// The TODO of a `module` block, naming it and its source.
fn module_note(b: &Block, files: &[(String, Body, bool)]) -> String {
    let name = b.labels.first().map_or("", String::as_str);
    let source = b
        .body
        .attr("source")
        .and_then(|a| match &a.expr {
            hcl::Expression::String(s) => Some(s.as_str()),
            _ => None,
        })
        .unwrap_or("?");
    if source.starts_with("./") || source.starts_with("../") || source == "?" {
        return format!(
            "TODO: module `{name}` (source `{source}`, {}) is not read: import its folder too, or describe its components in an overlay",
            place(files, b.loc)
        );
    }
    format!(
        "TODO: module `{name}` (source `{source}`, {}) is not read: it is not in the module cache ({}); run `terraform init -backend=false` in the root module's folder, or describe its components in an overlay",
        place(files, b.loc),
        super::cache::MANIFEST
    )
}

/// What is known while a module is read.
struct State {
    /// Every known value and its weight, by reference (`var.X`,
    /// `local.X`, `TYPE.NAME.ATTR`, `TYPE.NAME[0].ATTR`, and the
    /// `count.index` or `each.key`/`each.value` of the instance read).
    values: BTreeMap<String, (HVal, usize)>,
    /// What is left of the evaluation budget.
    budget: usize,
    /// What is left of the budget for the instances of `count` and
    /// `for_each` (each costs its block's size), as big as the evaluation
    /// budget at first.
    expand: usize,
    notes: Vec<String>,
    /// The functions expressions may call.
    ctx: hcl::eval::Context<'static>,
    /// The module address of the resources (`module.NAME.`, or empty).
    prefix: String,
    /// The providers the module's caller passed.
    providers: Passed,
}

impl State {
    /// The value of reference `k` and its weight. An instance of a
    /// resource read as one component, its repetition unknown
    /// (`aws_sqs_queue.q[0].arn`), is that component (a resource expanded
    /// into instances has no value without an index).
    fn get(&self, k: &str) -> Option<&(HVal, usize)> {
        self.values.get(k).or_else(|| {
            let (head, rest) = k.split_once('[')?;
            let (_, attr) = rest.split_once("].")?;
            self.values.get(&format!("{head}.{attr}"))
        })
    }

    /// The value of an index expression (`[count.index]`, `[each.key]`,
    /// `[var.i]`), evaluated apart from the budget: an index is small, and
    /// its bound is charged with the expression that holds it.
    fn index(&self, x: &hcl::Expression) -> Option<HVal> {
        let s = eval::scan(x, &|r| self.get(r).map(|v| v.1));
        let mut budget = 4096;
        let lookup = |k: &str| self.get(k).map(|v| v.0.clone());
        eval::eval(x, &s, &lookup, &self.ctx, &mut budget)
    }

    fn scan(&self, e: &hcl::Expression) -> Scan {
        let env = eval::Env {
            known: &|r| self.get(r).map(|v| v.1),
            index: &|x| self.index(x),
        };
        eval::scan_in(e, &env)
    }

    /// The value of `e` (scanned as `s`), if it can be known here.
    fn eval(&mut self, e: &hcl::Expression, s: &Scan) -> Option<HVal> {
        let mut budget = self.budget;
        let lookup = |k: &str| self.get(k).map(|v| v.0.clone());
        let v = eval::eval(e, s, &lookup, &self.ctx, &mut budget);
        self.budget = budget;
        v
    }

    /// Remembers the value of reference `key`.
    fn know(&mut self, key: String, v: &HVal) {
        self.values.insert(key, (v.clone(), eval::weight(v)));
    }

    /// The value of every variable that has one, as `var.X`.
    fn variables<'a>(
        &mut self,
        blocks: impl Iterator<Item = &'a Block>,
        files: &[(String, Body, bool)],
        params: &[(String, String)],
    ) {
        let mut vars = BTreeMap::new();
        let mut declared = Vec::new();
        for b in blocks.filter(|b| b.ident == "variable") {
            let Some(name) = b.labels.first() else {
                continue;
            };
            let string = matches!(b.body.attr("type").map(|a| &a.expr),
                Some(hcl::Expression::Variable(t)) if t.as_str() == "string");
            declared.push((name.clone(), string, b.loc));
            if let Some(d) = b.body.attr("default") {
                let s = self.scan(&d.expr);
                if let Some(v) = self.eval(&d.expr, &s) {
                    vars.insert(name.clone(), v);
                }
            }
        }
        for (_, body, _) in files.iter().filter(|f| f.2) {
            for a in &body.attrs {
                let s = self.scan(&a.expr);
                if let Some(v) = self.eval(&a.expr, &s) {
                    vars.insert(a.key.clone(), v);
                }
            }
        }
        let declared_names: BTreeMap<&str, bool> =
            declared.iter().map(|d| (d.0.as_str(), d.1)).collect();
        for (k, v) in params {
            if let Some(string) = declared_names.get(k.as_str()) {
                vars.insert(k.clone(), param_value(v, *string, &self.ctx));
            }
        }
        for (name, _, loc) in &declared {
            if !vars.contains_key(name) {
                self.notes.push(format!(
                    "TODO: variable `{name}` ({}) has no value: give `--var {name}=VALUE`, a .tfvars file, or a default",
                    place(files, *loc)
                ));
            }
        }
        for (k, v) in vars {
            self.know(format!("var.{k}"), &v);
        }
    }

    /// A called module's variables: their defaults, then the caller's
    /// arguments.
    fn arguments<'a>(
        &mut self,
        blocks: impl Iterator<Item = &'a Block>,
        files: &[(String, Body, bool)],
        args: &BTreeMap<String, HVal>,
        unknown: &[(String, String)],
    ) {
        let module = self.prefix.trim_end_matches('.').to_string();
        let mut vars = BTreeMap::new();
        for b in blocks.filter(|b| b.ident == "variable") {
            let Some(name) = b.labels.first() else {
                continue;
            };
            let at = place(files, b.loc);
            if let Some(v) = args.get(name) {
                vars.insert(name.clone(), v.clone());
            } else if let Some((_, set)) = unknown.iter().find(|u| u.0 == *name) {
                self.notes.push(format!(
                    "TODO: variable `{name}` of {module} ({at}) is set by the call ({set}) to a value not known before apply here: the values that use it are left out; set them in an overlay"
                ));
            } else if let Some(d) = b.body.attr("default") {
                let s = self.scan(&d.expr);
                match self.eval(&d.expr, &s) {
                    Some(v) => {
                        vars.insert(name.clone(), v);
                    }
                    None => self.notes.push(format!(
                        "TODO: variable `{name}` of {module} ({at}) is not set by the call, and its default is not known here: the values that use it are left out; set them in an overlay"
                    )),
                }
            } else {
                self.notes.push(format!(
                    "TODO: variable `{name}` of {module} ({at}) has no value: its caller does not set it"
                ));
            }
        }
        for (k, v) in vars {
            self.know(format!("var.{k}"), &v);
        }
    }

    /// A `module` block's instances (one, or one per `count` or
    /// `for_each` instance) with the values of their arguments.
    fn calls(&mut self, b: &Block, files: &[(String, Body, bool)]) -> Vec<Call> {
        let name = b.labels.first().cloned().unwrap_or_default();
        let what = format!("{}module.{name}", self.prefix);
        let instances = match self.repetition(b, files, repeat::MAX_COUNT) {
            repeat::Rep::Once => vec![(String::new(), Vec::new())],
            repeat::Rep::Out(why) => {
                self.notes.push(format!("{what} is left out: {why}"));
                Vec::new()
            }
            repeat::Rep::Unknown(why) => {
                self.notes.push(format!(
                    "TODO: {what} is repeated by {why}: one instance of the module stands for every instance"
                ));
                vec![(String::new(), Vec::new())]
            }
            repeat::Rep::Many(list) => list
                .into_iter()
                .map(|(i, binds)| (eval::index_text(&i).unwrap_or_default(), binds))
                .collect(),
        };
        let calls = instances
            .into_iter()
            .map(|(index, binds)| {
                self.bind(&binds);
                self.call(b, files, format!("{name}{index}"))
            })
            .collect();
        self.unbind();
        calls
    }

    /// One instance of a `module` block (`address`: its name and index)
    /// with the values of its arguments.
    fn call(&mut self, b: &Block, files: &[(String, Body, bool)], address: String) -> Call {
        const NOT_ARGS: [&str; 4] = ["source", "version", "providers", "depends_on"];
        let mut args = BTreeMap::new();
        let mut unknown = Vec::new();
        for a in b
            .body
            .attrs
            .iter()
            .filter(|a| !NOT_ARGS.contains(&a.key.as_str()) && !META.contains(&a.key.as_str()))
        {
            let s = self.scan(&a.expr);
            match self.eval(&a.expr, &s) {
                Some(v) => {
                    args.insert(a.key.clone(), v);
                }
                None => unknown.push((a.key.clone(), place(files, a.loc))),
            }
        }
        let source = b.body.attr("source").and_then(|a| match &a.expr {
            hcl::Expression::String(s) => Some(s.clone()),
            _ => None,
        });
        Call {
            name: b.labels.first().cloned().unwrap_or_default(),
            address,
            source,
            note: module_note(b, files),
            args,
            unknown,
            providers: nodes::passed(b, &self.providers),
            loc: b.loc,
        }
    }

    /// References as addresses of this module: a resource's gets the
    /// module's prefix; variables, locals and the like stay as they are.
    fn qualify(&self, refs: &[String]) -> Vec<String> {
        const LOCAL: [&str; 7] = [
            "var.",
            "local.",
            "count.",
            "each.",
            "path.",
            "self.",
            "terraform.",
        ];
        refs.iter()
            .map(|r| match LOCAL.iter().any(|p| r.starts_with(p)) {
                true => r.clone(),
                false => format!("{}{r}", self.prefix),
            })
            .collect()
    }

    /// The region of the default `aws` provider (the one without `alias`).
    fn region<'a>(
        &mut self,
        mut blocks: impl Iterator<Item = &'a Block>,
        files: &[(String, Body, bool)],
    ) -> Option<(String, String)> {
        let b = blocks.find(|b| {
            b.ident == "provider"
                && b.labels.first().is_some_and(|l| l == "aws")
                && b.body.attr("alias").is_none()
        })?;
        let a = b.body.attr("region")?;
        let s = self.scan(&a.expr);
        match self.eval(&a.expr, &s)? {
            HVal::String(r) => Some((r, place(files, a.loc))),
            _ => None,
        }
    }

    /// The regions of the aliased `aws` providers (`alias = "west"`), as
    /// (`aws.west`, region, place); an alias without a literal region is
    /// left out.
    fn aliases<'a>(
        &mut self,
        blocks: impl Iterator<Item = &'a Block>,
        files: &[(String, Body, bool)],
    ) -> Vec<(String, String, String)> {
        let mut out = Vec::new();
        for b in
            blocks.filter(|b| b.ident == "provider" && b.labels.first().is_some_and(|l| l == "aws"))
        {
            let Some(HVal::String(alias)) = b.body.attr("alias").and_then(|a| {
                let s = self.scan(&a.expr);
                self.eval(&a.expr, &s)
            }) else {
                continue;
            };
            let Some(a) = b.body.attr("region") else {
                continue;
            };
            let s = self.scan(&a.expr);
            if let Some(HVal::String(r)) = self.eval(&a.expr, &s) {
                out.push((format!("aws.{alias}"), r, place(files, a.loc)));
            }
        }
        out
    }

    /// An `output` block as the plan's configuration lists it, its
    /// references qualified with the module's address.
    fn output(&self, b: &Block) -> Option<(String, Node)> {
        let a = b.body.attr("value")?;
        let refs = self.qualify(&self.scan(&a.expr).refs);
        let e = Node::map([("expression", refs_node(&refs, a.loc))], b.loc);
        Some((format!("{}{}", self.prefix, b.labels[0]), e))
    }

    /// The value of every local that can be known, as `local.X`, in
    /// dependency order.
    fn locals<'a>(&mut self, blocks: impl Iterator<Item = &'a Block>) {
        let mut pending: Vec<&Attr> = blocks
            .filter(|b| b.ident == "locals")
            .flat_map(|b| b.body.attrs.iter())
            .collect();
        for _ in 0..MAX_LOCAL_LEVELS {
            let names: BTreeSet<String> =
                pending.iter().map(|a| format!("local.{}", a.key)).collect();
            let before = pending.len();
            let mut next = Vec::new();
            let mut found = Vec::new();
            for a in pending {
                let s = self.scan(&a.expr);
                if s.refs.iter().any(|r| names.contains(r)) {
                    next.push(a);
                } else if let Some(v) = self.eval(&a.expr, &s) {
                    found.push((a.key.clone(), v));
                }
            }
            for (k, v) in found {
                self.know(format!("local.{k}"), &v);
            }
            pending = next;
            if pending.is_empty() || pending.len() == before {
                break;
            }
        }
    }
}

/// A `--var` value: text for a string variable, else read as an HCL
/// literal (`30`, `true`, `["a"]`) when it is one, as Terraform does.
fn param_value(v: &str, string: bool, ctx: &hcl::eval::Context) -> HVal {
    if !string
        && v.len() <= 4096
        && let Ok(e) = hcl::edit::parser::parse_expr(v)
    {
        let e = hcl::Expression::from(e);
        let s = eval::scan(&e, &|_| None);
        let mut budget = 4 * 4096;
        if let Some(x) = eval::eval(&e, &s, &|_| None, ctx, &mut budget) {
            return x;
        }
    }
    HVal::String(v.to_string())
}

/// A resource's address: `TYPE.NAME`, `data.TYPE.NAME`.
fn address(b: &Block) -> String {
    let prefix = if b.ident == "data" { "data." } else { "" };
    format!("{prefix}{}.{}", b.labels[0], b.labels[1])
}

/// What stands for an attribute only apply knows.
fn placeholder(address: &str, attr: &str) -> String {
    format!("{KNOWN_AFTER_APPLY}{address}.{attr})")
}

/// How [`placeholder`] begins: a value that holds it is not known here.
pub(in crate::import::terraform) const KNOWN_AFTER_APPLY: &str = "(known after apply: ";
