//! Pieces of the plan-shaped tree a configuration is turned into: an
//! evaluated value as an input node, a `{references}` expression, and the
//! provider a resource names.

use hcl::Value as HVal;

use super::hcl::Block;
use crate::diagnostics::Loc;
use crate::import::{Node, Value};

/// The provider a resource names by `provider = aws.ALIAS`, as
/// `aws.ALIAS`.
pub(super) fn provider_key(b: &Block) -> Option<String> {
    let hcl::Expression::Traversal(t) = &b.body.attr("provider")?.expr else {
        return None;
    };
    match (&t.expr, t.operators.as_slice()) {
        (hcl::Expression::Variable(v), [hcl::TraversalOperator::GetAttr(a)])
            if v.as_str() == "aws" =>
        {
            Some(format!("aws.{a}"))
        }
        _ => None,
    }
}

/// `{references: [...]}` as the plan's configuration writes it.
pub(super) fn refs_node(refs: &[String], loc: Loc) -> Node {
    let items = refs
        .iter()
        .map(|r| Node::new(Value::Str(r.clone()), loc))
        .collect();
    Node::new(
        Value::Map(vec![(
            "references".into(),
            Node::new(Value::Seq(items), loc),
        )]),
        loc,
    )
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
        HVal::Object(o) => Value::Map(o.iter().map(|(k, x)| (k.clone(), node(x, loc))).collect()),
    };
    Node::new(value, loc)
}
