//! The resources of a module as the plan's `planned_values` and
//! `configuration` list them: one entry per instance ([`super::repeat`]),
//! each with its evaluated values (placeholders for what only apply
//! knows) and the references of every attribute.

use std::collections::{BTreeMap, BTreeSet};

use hcl::Value as HVal;

use super::repeat::Inst;
use super::{COMPUTED, META, State, placeholder};
use crate::diagnostics::Loc;
use crate::import::allow::ALLOW_KEY;
use crate::import::terraform::hcl::{Attr, Block, Body};
use crate::import::terraform::nodes::{self, node, place, refs_node};
use crate::import::{Node, Value};

/// References an attribute may make and still be known before the other
/// resources' attributes are: inputs and the instance's own keys.
const INPUTS: [&str; 4] = ["var.", "local.", "count.", "each."];

/// The attributes of a resource block that are settings, not
/// meta-arguments.
fn settings(b: &Block) -> impl Iterator<Item = &Attr> {
    b.body
        .attrs
        .iter()
        .filter(|a| !META.contains(&a.key.as_str()))
}

impl State {
    /// The resources as the plan's `planned_values` and `configuration`
    /// list them.
    pub(super) fn resources(
        &mut self,
        res: &[&Block],
        files: &[(String, Body, bool)],
    ) -> (Vec<Node>, Vec<Node>) {
        let insts = self.instances(res, files);
        for i in insts.iter().filter(|i| i.b.ident == "resource") {
            for k in COMPUTED {
                let p = HVal::String(placeholder(&self.full(i), k));
                self.know(format!("{}.{k}", i.address), &p);
            }
        }
        let mut values: Vec<BTreeMap<String, HVal>> = vec![BTreeMap::new(); insts.len()];
        // First what variables, locals and the instance's keys decide, then
        // what other resources' attributes decide.
        for pass in 0..2 {
            for (i, v) in insts.iter().zip(values.iter_mut()) {
                self.bind(&i.binds);
                for a in settings(i.b) {
                    let s = self.scan(&a.expr);
                    let inputs_only = s
                        .refs
                        .iter()
                        .all(|r| INPUTS.iter().any(|p| r.starts_with(p)));
                    if inputs_only != (pass == 0) {
                        continue;
                    }
                    if let Some(x) = self.eval(&a.expr, &s) {
                        self.know(format!("{}.{}", i.address, a.key), &x);
                        v.insert(a.key.clone(), x);
                    }
                }
            }
        }
        // The resources repeated into instances, by address without index,
        // with their first instance's.
        let mut repeated = BTreeMap::new();
        for i in insts.iter().filter(|i| i.index.is_some()) {
            repeated
                .entry(super::address(i.b))
                .or_insert_with(|| i.address.clone());
        }
        let mut planned = Vec::new();
        let mut config = Vec::new();
        for (i, v) in insts.iter().zip(&values) {
            self.bind(&i.binds);
            let (p, c) = self.resource_nodes(i, v, files, &repeated);
            planned.push(p);
            config.push(c);
        }
        self.unbind();
        (planned, config)
    }

    /// Makes `count.index`, `each.key` and `each.value` those of an
    /// instance (none for a block that is not repeated).
    pub(super) fn bind(&mut self, binds: &super::repeat::Binds) {
        self.unbind();
        for (k, v) in binds {
            self.know(k.to_string(), v);
        }
    }

    /// Forgets the keys of the last instance bound.
    pub(super) fn unbind(&mut self) {
        for k in ["count.index", "each.key", "each.value"] {
            self.values.remove(k);
        }
    }

    /// The address of an instance in this module.
    pub(super) fn full(&self, i: &Inst) -> String {
        format!("{}{}", self.prefix, i.address)
    }

    /// A resource instance as the plan's `planned_values` and
    /// `configuration` list it: its known values (placeholders for the
    /// computed ones) and the references of every attribute.
    fn resource_nodes(
        &mut self,
        i: &Inst,
        v: &BTreeMap<String, HVal>,
        files: &[(String, Body, bool)],
        repeated: &BTreeMap<String, String>,
    ) -> (Node, Node) {
        let b = i.b;
        let mut fields = Vec::new();
        let mut exprs = Vec::new();
        for a in settings(b) {
            if let Some(x) = v.get(&a.key) {
                fields.push((a.key.clone(), node(x, a.loc)));
            }
            let refs = self.scan(&a.expr).refs;
            self.loose(i, &a.key, &refs, repeated, place(files, a.loc));
            exprs.push((a.key.clone(), refs_node(&self.qualify(&refs), a.loc)));
        }
        self.nested(&b.body, &mut fields, &mut exprs);
        let full = self.full(i);
        if b.ident == "resource" {
            for k in COMPUTED {
                if !fields.iter().any(|(f, _)| f == k) {
                    let p = HVal::String(placeholder(&full, k));
                    fields.push((k.to_string(), node(&p, b.loc)));
                }
            }
        }
        let loc = b.loc;
        let s = |t: &str| Node::string(t, loc);
        let mode = if b.ident == "data" { "data" } else { "managed" };
        let mut planned = vec![
            ("address", s(&full)),
            ("mode", s(mode)),
            ("type", s(&b.labels[0])),
            ("name", s(&b.labels[1])),
        ];
        if let Some(x) = &i.index {
            planned.push(("index", node(x, loc)));
        }
        planned.push(("values", Node::map(fields, loc)));
        if !b.allow.is_empty() {
            // The allowance comments above the block, at their lines
            // (read by `terraform::components`).
            let at = |line| Loc {
                line,
                col: 1,
                ..loc
            };
            let items = b
                .allow
                .iter()
                .map(|(l, t)| Node::string(t, at(*l)))
                .collect();
            planned.push((ALLOW_KEY, Node::new(Value::Seq(items), loc)));
        }
        let mut config = vec![
            ("address", s(&full)),
            ("expressions", Node::map(exprs, loc)),
        ];
        // A called module's providers are those its caller passes.
        if let Some(key) = nodes::provider_of(b, self.prefix.is_empty(), &self.providers) {
            config.push(("provider_config_key", s(&key)));
        }
        (Node::map(planned, loc), Node::map(config, loc))
    }

    /// A TODO for each reference of attribute `attr` of instance `i` to a
    /// resource repeated into instances that does not say which one (a
    /// splat `q[*].arn`, an index not known here): it links to the first.
    /// Only for resources that are read, whose links this decides.
    fn loose(
        &mut self,
        i: &Inst,
        attr: &str,
        refs: &[String],
        repeated: &BTreeMap<String, String>,
        at: String,
    ) {
        let ty = i.b.labels[0].as_str();
        let read = crate::import::terraform::READ.iter().any(|(t, _)| *t == ty)
            || crate::import::terraform::LINKS.contains(&ty);
        if !read {
            return;
        }
        let mut seen = BTreeSet::new();
        for r in refs.iter().filter(|r| !r.contains('[')) {
            if let Some(first) = repeated.get(r.as_str())
                && seen.insert(r)
            {
                self.notes.push(format!(
                    "TODO: {}.{attr} ({at}) refers to `{r}` without saying which of its instances: it links to the first, `{}{first}`",
                    self.full(i),
                    self.prefix
                ));
            }
        }
    }

    /// The nested blocks of a resource (`redrive_policy {}`, `ttl {}`,
    /// `replica {}`, ...): each kind a list of objects, as in a plan.
    fn nested(
        &mut self,
        body: &Body,
        fields: &mut Vec<(String, Node)>,
        exprs: &mut Vec<(String, Node)>,
    ) {
        let mut kinds: Vec<(String, Vec<Node>, Vec<String>, Loc)> = Vec::new();
        let mut index: BTreeMap<String, usize> = BTreeMap::new();
        for b in body
            .blocks
            .iter()
            .filter(|b| !META.contains(&b.ident.as_str()) && b.ident != "dynamic")
        {
            let mut f = Vec::new();
            let mut e = Vec::new();
            for a in &b.body.attrs {
                let s = self.scan(&a.expr);
                if let Some(x) = self.eval(&a.expr, &s) {
                    f.push((a.key.clone(), node(&x, a.loc)));
                }
                e.push((a.key.clone(), refs_node(&self.qualify(&s.refs), a.loc)));
            }
            self.nested(&b.body, &mut f, &mut e);
            let item = Node::map(f, b.loc);
            let refs: Vec<String> = e
                .iter()
                .flat_map(|(_, n)| n.get("references").map(Node::items).unwrap_or(&[]))
                .filter_map(Node::text)
                .collect();
            match index.get(&b.ident) {
                Some(&i) => {
                    kinds[i].1.push(item);
                    kinds[i].2.extend(refs);
                }
                None => {
                    index.insert(b.ident.clone(), kinds.len());
                    kinds.push((b.ident.clone(), vec![item], refs, b.loc));
                }
            }
        }
        for (k, items, refs, loc) in kinds {
            fields.push((k.clone(), Node::new(Value::Seq(items), loc)));
            exprs.push((k, refs_node(&refs, loc)));
        }
    }
}
