//! Finding the resource a Terraform value points at: by ARN or name in the
//! planned values, or by the `configuration` section's expression
//! references when the value is not known until apply.
//!
//! Everything is looked up in an [`Index`] built once per plan, so that
//! resolving every resource's references stays linear in the plan (give or
//! take a logarithm) however many resources it has.

use std::collections::BTreeMap;

use super::Res;
use crate::import::{Node, Value};

/// The attributes whose planned value names a resource.
const NAMING: [&str; 6] = ["arn", "name", "function_name", "stream_arn", "url", "id"];

/// A plan's resources by what names them, and their configuration
/// expressions by address.
pub(super) struct Index<'a> {
    /// Configuration expressions by resource address (module prefix included).
    config: BTreeMap<String, &'a Node>,
    /// The first read resource with this planned ARN, name, URL or id.
    by_value: BTreeMap<String, usize>,
    /// The first read resource with this `name`.
    by_name: BTreeMap<String, usize>,
    /// The first resource with this address, with and without its index.
    by_address: BTreeMap<String, usize>,
    /// The addresses of resources read without an index: not repeated, or
    /// one component for all instances.
    whole: std::collections::BTreeSet<String>,
    /// Module outputs by full name (`module.queue.arn`), with the
    /// references of their value, as addresses.
    outputs: BTreeMap<String, Vec<String>>,
    /// The provider of each root resource that names one
    /// (`provider_config_key`), by address.
    providers: BTreeMap<String, String>,
}

/// At most this many output lookups resolve one reference (outputs that
/// refer to outputs of modules they call).
const OUTPUT_LOOKUPS: usize = 64;

/// Configuration expressions, outputs and providers of a plan's modules.
#[derive(Default)]
struct Config<'a> {
    exprs: BTreeMap<String, &'a Node>,
    outputs: BTreeMap<String, Vec<String>>,
    providers: BTreeMap<String, String>,
}

impl<'a> Index<'a> {
    pub(super) fn new(res: &[Res], root: &'a Node) -> Index<'a> {
        let mut config = Config::default();
        if let Some(m) = root.at(&["configuration", "root_module"]) {
            walk(m, "", &mut config, 0);
        }
        let mut ix = Index {
            config: config.exprs,
            by_value: BTreeMap::new(),
            by_name: BTreeMap::new(),
            by_address: BTreeMap::new(),
            whole: Default::default(),
            outputs: config.outputs,
            providers: config.providers,
        };
        for (i, r) in res.iter().enumerate() {
            // Another root's addresses are not this one's to reference.
            if r.foreign {
                ix.index_names(r, i);
                continue;
            }
            ix.by_address.entry(r.address.clone()).or_insert(i);
            let base = super::unindexed(&r.address);
            ix.by_address.entry(base.to_string()).or_insert(i);
            if base == r.address {
                ix.whole.insert(base.to_string());
            }
            ix.index_names(r, i);
        }
        ix
    }

    /// Resource `i` (`r`) by its ARN, name, URL and id, if it is read;
    /// a value already taken stays with the first resource.
    fn index_names(&mut self, r: &Res, i: usize) {
        if r.id.is_none() {
            return;
        }
        for k in NAMING {
            if let Some(t) = r.values.get(k).and_then(Node::text) {
                self.by_value.entry(t).or_insert(i);
            }
        }
        if let Some(t) = r.values.get("name").and_then(Node::text) {
            self.by_name.entry(t).or_insert(i);
        }
    }

    /// References of `address`'s attribute `attr` in the configuration section.
    /// A configuration lists each instance of a repeated resource
    /// (`aws_sqs_queue.q["a"]`), a plan the resource once.
    pub(super) fn config_refs(&self, address: &str, attr: &str) -> Vec<String> {
        let base = super::unindexed(address);
        let mut out = Vec::new();
        let config = self.config.get(address).or(self.config.get(base));
        if let Some(e) = config.and_then(|x| x.get(attr)) {
            refs_in(e, &mut out, 0);
        }
        out
    }

    /// The resource a value (ARN, name) or a configuration reference of
    /// `from`'s `attr` points at.
    pub(super) fn find(&self, from: &str, attr: &str, value: Option<&Node>) -> Option<usize> {
        if let Some(text) = value.and_then(Node::text).filter(|t| !t.is_empty()) {
            if let Some(&i) = self.by_value.get(&text) {
                return Some(i);
            }
            let name = text.rsplit([':', '/']).next().unwrap_or(&text);
            if let Some(&i) = self.by_name.get(name) {
                return Some(i);
            }
            if let Some(&i) = unqualified(&text).and_then(|f| self.by_value.get(f)) {
                return Some(i);
            }
        }
        let mut lookups = OUTPUT_LOOKUPS;
        self.config_refs(from, attr)
            .iter()
            .find_map(|r| self.target(r, &mut lookups))
    }

    /// The resource a reference names: directly, or through the module
    /// output it names (at most `lookups` outputs followed in all).
    fn target(&self, reference: &str, lookups: &mut usize) -> Option<usize> {
        let t = reference
            .trim_end_matches(".arn")
            .trim_end_matches(".stream_arn")
            .trim_end_matches(".function_name")
            .trim_end_matches(".name");
        if let Some(&i) = self.by_address.get(t) {
            return Some(i);
        }
        // An instance of a resource read as one component, its
        // repetition unknown (`aws_sqs_queue.q[0]`): that component.
        let base = super::unindexed(t);
        if base != t
            && self.whole.contains(base)
            && let Some(&i) = self.by_address.get(base)
        {
            return Some(i);
        }
        let refs = self.outputs.get(reference)?;
        for r in refs {
            if *lookups == 0 {
                return None;
            }
            *lookups -= 1;
            if let Some(i) = self.target(r, lookups) {
                return Some(i);
            }
        }
        None
    }

    /// The provider a root resource names (`aws.west`), if any.
    pub(super) fn provider(&self, address: &str) -> Option<&str> {
        let base = super::unindexed(address);
        let p = self.providers.get(address).or(self.providers.get(base));
        p.map(String::as_str)
    }
}

/// The function name of a qualified Lambda ARN
/// (`arn:aws:lambda:REGION:ACCOUNT:function:NAME:ALIAS-OR-VERSION`): it
/// names the function, as an unqualified ARN does.
fn unqualified(arn: &str) -> Option<&str> {
    match arn.split(':').collect::<Vec<_>>().as_slice() {
        ["arn", _, "lambda", _, _, "function", name, _] => Some(name),
        _ => None,
    }
}

/// Collects the resources' expressions and the outputs of `module` and
/// the modules it calls, whose addresses carry `prefix`; the providers of
/// the root's resources.
fn walk<'a>(module: &'a Node, prefix: &str, out: &mut Config<'a>, depth: usize) {
    if depth > 32 {
        return;
    }
    for r in module.get("resources").map(Node::items).unwrap_or(&[]) {
        let a = format!(
            "{prefix}{}",
            r.get("address").and_then(Node::str).unwrap_or("")
        );
        let key = r.get("provider_config_key").and_then(Node::str);
        if let Some(k) = key.filter(|_| depth == 0) {
            out.providers.entry(a.clone()).or_insert(k.to_string());
        }
        if let Some(e) = r.get("expressions") {
            out.exprs.entry(a).or_insert(e);
        }
    }
    for (name, o) in module.get("outputs").map(Node::entries).unwrap_or(&[]) {
        let mut refs = Vec::new();
        if let Some(e) = o.get("expression") {
            refs_in(e, &mut refs, 0);
        }
        let refs = refs.into_iter().map(|r| format!("{prefix}{r}")).collect();
        out.outputs
            .entry(format!("{prefix}{}", name.key()))
            .or_insert(refs);
    }
    for (name, call) in module.get("module_calls").map(Node::entries).unwrap_or(&[]) {
        if let Some(m) = call.get("module") {
            walk(
                m,
                &format!("{prefix}module.{}.", name.key()),
                out,
                depth + 1,
            );
        }
    }
}

/// Every `references` list anywhere under an expression (the input's
/// nesting is bounded by its parser; the walk stops at 64 levels anyway).
fn refs_in(n: &Node, out: &mut Vec<String>, depth: usize) {
    if depth > 64 {
        return;
    }
    if let Some(r) = n.get("references") {
        out.extend(r.items().iter().filter_map(|x| x.text()));
    }
    for (_, v) in n.entries() {
        refs_in(v, out, depth + 1);
    }
    for v in n.items() {
        refs_in(v, out, depth + 1);
    }
}

/// The first block of a nested block list (or the block itself).
pub(super) fn first(n: Option<&Node>) -> Option<&Node> {
    match n.map(|n| &n.value) {
        Some(Value::Seq(items)) => items.first(),
        Some(Value::Map(_)) => n,
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::unqualified;

    #[test]
    fn a_qualified_function_arn_names_its_function() {
        let arn = "arn:aws:lambda:eu-west-1:123456789012:function:refund-worker:live";
        assert_eq!(unqualified(arn), Some("refund-worker"));
        // Unqualified, another service, or a layer: not a qualified function.
        assert_eq!(
            unqualified("arn:aws:lambda:eu-west-1:123456789012:function:refund-worker"),
            None
        );
        assert_eq!(unqualified("arn:aws:sqs:eu-west-1:1:a:b:c"), None);
        assert_eq!(unqualified("arn:aws:lambda:eu-west-1:1:layer:deps:3"), None);
    }
}
