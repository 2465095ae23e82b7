//! Pieces of the plan-shaped tree a configuration is turned into: an
//! evaluated value as an input node, a `{references}` expression, and the
//! provider a resource runs with (its own, or the one its module's caller
//! passed in `providers`), and the `file:line` of a place in a folder.

use std::collections::BTreeMap;

use hcl::Value as HVal;

use super::hcl::{Block, Body};
use crate::diagnostics::Loc;
use crate::import::{Node, Value};

/// The provider a resource names by `provider = aws.ALIAS`, as
/// `aws.ALIAS`.
pub(super) fn provider_key(b: &Block) -> Option<String> {
    provider_name(&b.body.attr("provider")?.expr).filter(|k| k != "aws")
}

/// An `aws` provider reference (`aws`, `aws.ALIAS`) as text.
fn provider_name(e: &hcl::Expression) -> Option<String> {
    match e {
        hcl::Expression::Variable(v) if v.as_str() == "aws" => Some("aws".into()),
        hcl::Expression::Traversal(t) => match (&t.expr, t.operators.as_slice()) {
            (hcl::Expression::Variable(v), [hcl::TraversalOperator::GetAttr(a)])
                if v.as_str() == "aws" =>
            {
                Some(format!("aws.{a}"))
            }
            _ => None,
        },
        _ => None,
    }
}

/// The providers a module instance was given, by the name the module
/// uses (`aws`, `aws.east`), as the root module names them (`aws.west`).
pub(super) type Passed = BTreeMap<String, String>;

/// The providers a `module` block passes (`providers = { aws = aws.west
/// }`), as the root names them: the caller's own names go through what
/// the caller was given (`outer`). Without `providers`, the module
/// inherits its caller's default `aws` (and no alias), as Terraform does.
pub(super) fn passed(b: &Block, outer: &Passed) -> Passed {
    let Some(hcl::Expression::Object(o)) = b.body.attr("providers").map(|a| &a.expr) else {
        return outer
            .iter()
            .filter(|(k, _)| *k == "aws")
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
    };
    o.iter()
        .filter_map(|(k, v)| {
            let inner = match k {
                hcl::ObjectKey::Identifier(i) if i.as_str() == "aws" => "aws".to_string(),
                hcl::ObjectKey::Expression(hcl::Expression::String(k)) if k.starts_with("aws") => {
                    k.clone()
                }
                hcl::ObjectKey::Expression(e) => provider_name(e)?,
                _ => return None,
            };
            let theirs = provider_name(v)?;
            let root = outer.get(&theirs).cloned().unwrap_or(theirs);
            Some((inner, root))
        })
        .collect()
}

/// The aliased root provider a resource runs with: its own `provider =
/// aws.ALIAS` in the root; in a called module, the provider its caller
/// passed for the name it uses (the default `aws` if it names none).
pub(super) fn provider_of(b: &Block, root: bool, given: &Passed) -> Option<String> {
    let own = provider_key(b);
    let key = match given.get(own.as_deref().unwrap_or("aws")) {
        Some(k) => Some(k.clone()),
        None if root => own,
        None => None,
    };
    key.filter(|k| k != "aws")
}

/// `{references: [...]}` as the plan's configuration writes it.
pub(super) fn refs_node(refs: &[String], loc: Loc) -> Node {
    let items = refs.iter().map(|r| Node::string(r.clone(), loc)).collect();
    Node::map([("references", Node::new(Value::Seq(items), loc))], loc)
}

/// An evaluated value as an input node at `loc`. Values are built from
/// the parsed (depth-bounded) expressions and the locals' levels, so the
/// recursion is bounded.
pub(super) fn node(v: &HVal, loc: Loc) -> Node {
    let value = match v {
        HVal::Null => Value::Null,
        HVal::Bool(b) => Value::Bool(*b),
        HVal::Number(n) => match n.as_i64() {
            Some(i) => Value::Int(i),
            None => Value::Float(n.as_f64().unwrap_or(0.0)),
        },
        HVal::String(s) => Value::Str(s.clone()),
        HVal::Array(a) => Value::Seq(a.iter().map(|x| node(x, loc)).collect()),
        HVal::Object(o) => {
            return Node::map(o.iter().map(|(k, x)| (k.clone(), node(x, loc))), loc);
        }
    };
    Node::new(value, loc)
}

/// `file:line` of `loc`, in the one of `files` (numbered among every
/// input, not only this folder's) that holds it.
pub(super) fn place(files: &[(String, Body, bool)], loc: Loc) -> String {
    let first = |b: &Body| {
        let a = b.attrs.first().map(|a| a.loc.file);
        a.or_else(|| b.blocks.first().map(|x| x.loc.file))
    };
    let file = files.iter().find(|f| first(&f.1) == Some(loc.file));
    format!("{}:{}", file.map_or("?", |f| f.0.as_str()), loc.line)
}
