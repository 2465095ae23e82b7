//! Evaluating the expressions of a Terraform configuration, as far as they
//! can be known before `terraform plan`: literals, `var.*`, `local.*`,
//! references to other resources' literal attributes, operators,
//! conditionals, templates without directives and a few pure functions
//! (`jsonencode`, `tostring`, `tonumber`, `lower`, `upper`, `min`, `max`,
//! `merge`, `length`, `toset`, `tolist`, `keys`, `values`: [`super::builtins`]);
//! `count.index`, `each.key` and `each.value` of the instance being read.
//!
//! An expression is first [`scan`]ned: the references it makes and an upper
//! bound of the size of its value (each reference weighs what its value
//! weighs). `for` expressions and template directives are never evaluated
//! (nested loops multiply), nor is anything whose bound exceeds what is left
//! of the import's budget, so the work stays linear in the input however the
//! input is built.

use hcl::eval::{Context, Evaluate};
use hcl::expr::{Expression, ObjectKey, Operation, TraversalOperator};
use hcl::template::Element;
use hcl::{Template, Value};

/// What an expression refers to and how big its value can be.
#[derive(Debug, Default)]
pub(super) struct Scan {
    /// `var.X`, `local.X`, `TYPE.NAME` (a resource), `data.TYPE.NAME`,
    /// `module.NAME`, in order of appearance.
    pub refs: Vec<String>,
    /// An upper bound of the weight of its value (see [`weight`]).
    pub weight: usize,
    /// It cannot be evaluated here (a loop, an unknown function, a
    /// reference with no value).
    pub opaque: bool,
    seen: std::collections::BTreeSet<String>,
}

/// The functions an expression may call, with their output weight factor
/// (`jsonencode` escapes each byte into at most 6).
const FUNCS: &[(&str, usize)] = &[
    ("jsonencode", 6),
    ("tostring", 2),
    ("tonumber", 1),
    ("lower", 1),
    ("upper", 1),
    ("min", 1),
    ("max", 1),
    ("merge", 1),
    ("length", 1),
    ("toset", 1),
    ("tolist", 1),
    ("keys", 1),
    ("values", 1),
];

/// What a scan looks values up in: the weight of a reference's value
/// (`None` when it has none here), and the value of an index that is no
/// literal (`aws_sqs_queue.q[count.index]`), so that a reference names the
/// instance it means.
pub(super) struct Env<'a> {
    pub known: &'a dyn Fn(&str) -> Option<usize>,
    pub index: &'a dyn Fn(&Expression) -> Option<Value>,
}

/// Scans `e`; `known` gives the weight of a reference's value, or `None`
/// when it has none here. Only literal indexes are read.
pub(super) fn scan(e: &Expression, known: &dyn Fn(&str) -> Option<usize>) -> Scan {
    scan_in(
        e,
        &Env {
            known,
            index: &|_| None,
        },
    )
}

/// Scans `e` in `env`.
pub(super) fn scan_in(e: &Expression, env: &Env) -> Scan {
    let mut s = Scan::default();
    s.weight = walk(e, env, &mut s);
    s
}

/// The weight bound of `e`, recording its references and opacity in `s`.
/// The parser bounds the nesting of expressions, so the recursion is bounded.
fn walk(e: &Expression, env: &Env, s: &mut Scan) -> usize {
    let sum = |es: &mut dyn Iterator<Item = &Expression>, s: &mut Scan| {
        es.fold(1usize, |w, x| w.saturating_add(walk(x, env, s)))
    };
    match e {
        Expression::Null | Expression::Bool(_) | Expression::Number(_) => 1,
        Expression::String(t) => t.len() + 1,
        Expression::Array(items) => sum(&mut items.iter(), s),
        Expression::Object(o) => {
            let mut w = 1usize;
            for (k, v) in o {
                w = w.saturating_add(match k {
                    ObjectKey::Identifier(i) => i.len() + 1,
                    ObjectKey::Expression(x) => walk(x, env, s),
                    _ => opaque(s),
                });
                w = w.saturating_add(walk(v, env, s));
            }
            w
        }
        Expression::TemplateExpr(t) => match Template::from_expr(t) {
            Ok(tpl) => template(&tpl, env, s),
            Err(_) => opaque(s),
        },
        Expression::Traversal(t) => {
            let mut w = reference(&t.expr, &t.operators, env, s);
            for op in &t.operators {
                if let TraversalOperator::Index(x) = op {
                    w = w.saturating_add(walk(x, env, s));
                }
            }
            w
        }
        Expression::FuncCall(f) => match FUNCS.iter().find(|(n, _)| *n == f.name.name.as_str()) {
            Some((_, factor)) if f.name.namespace.is_empty() => {
                sum(&mut f.args.iter(), s).saturating_mul(*factor)
            }
            _ => {
                sum(&mut f.args.iter(), s);
                opaque(s)
            }
        },
        Expression::Parenthesis(x) => walk(x, env, s),
        Expression::Conditional(c) => sum(
            &mut [&c.cond_expr, &c.true_expr, &c.false_expr].into_iter(),
            s,
        ),
        Expression::Operation(op) => match op.as_ref() {
            Operation::Unary(u) => walk(&u.expr, env, s).saturating_add(1),
            Operation::Binary(b) => sum(&mut [&b.lhs_expr, &b.rhs_expr].into_iter(), s),
        },
        // A bare variable (`var` alone) or a loop: not evaluated here.
        Expression::Variable(_) | Expression::ForExpr(_) => opaque(s),
        _ => opaque(s),
    }
}

fn opaque(s: &mut Scan) -> usize {
    s.opaque = true;
    0
}

/// The weight of a template: its literals and interpolations; a directive
/// (`%{ for }`, `%{ if }`) makes it opaque.
fn template(t: &Template, env: &Env, s: &mut Scan) -> usize {
    let mut w = 1usize;
    for el in t.elements() {
        w = w.saturating_add(match el {
            Element::Literal(l) => l.len(),
            Element::Interpolation(i) => walk(&i.expr, env, s),
            Element::Directive(_) => opaque(s),
        });
    }
    w
}

/// The weight of the value a traversal starts from, recording what it
/// refers to: `var.X`, `local.X`, `count.index`, `each.key`, `each.value`,
/// `TYPE.NAME` (`TYPE.NAME[0]`, `TYPE.NAME["k"]` when the index is
/// known), `data.TYPE.NAME`, `module.NAME.OUTPUT` (`module.NAME[0].OUTPUT`).
fn reference(root: &Expression, ops: &[TraversalOperator], env: &Env, s: &mut Scan) -> usize {
    let Expression::Variable(root) = root else {
        return walk(root, env, s);
    };
    let attr = |i: usize| match ops.get(i) {
        Some(TraversalOperator::GetAttr(a)) => Some(a.as_str()),
        _ => None,
    };
    // The instance an index at `i` names: `Some("")` without an index,
    // `None` for an unknown one (it stands for the resource).
    let at = |i: usize| match ops.get(i) {
        Some(TraversalOperator::Index(x)) => index_of(x, env.index),
        _ => Some(String::new()),
    };
    let name = match (root.as_str(), attr(0), attr(1)) {
        (r @ ("var" | "local" | "count" | "each"), Some(a), _) => format!("{r}.{a}"),
        ("data", Some(t), Some(n)) => format!("data.{t}.{n}{}", at(2).unwrap_or_default()),
        ("module", Some(m), Some(o)) => format!("module.{m}.{o}"),
        ("module", Some(m), None) => match (at(1), attr(2)) {
            (Some(i), Some(o)) => format!("module.{m}{i}.{o}"),
            (Some(i), None) => format!("module.{m}{i}"),
            (None, _) => format!("module.{m}"),
        },
        (t, Some(n), _) if t.contains('_') => format!("{t}.{n}{}", at(1).unwrap_or_default()),
        _ => return opaque(s),
    };
    if s.seen.insert(name.clone()) {
        s.refs.push(name);
    }
    let root = Expression::Variable(root.clone());
    match lookup_key(&root, ops, env.index).and_then(|(k, _)| (env.known)(&k)) {
        Some(w) => w,
        None => opaque(s),
    }
}

/// An instance's index as an address writes it (`[0]`, `["orders"]`):
/// a literal, or what `index` evaluates it to; `None` when unknown.
fn index_of(x: &Expression, index: &dyn Fn(&Expression) -> Option<Value>) -> Option<String> {
    let v = match x {
        Expression::Number(n) => Value::Number(*n),
        Expression::String(t) => Value::String(t.clone()),
        _ => index(x)?,
    };
    index_text(&v)
}

/// `[0]` for a whole non-negative number, `["k"]` for a string (quoted
/// as Terraform quotes it in an address); `None` otherwise.
pub(super) fn index_text(v: &Value) -> Option<String> {
    match v {
        Value::Number(n) => n.as_u64().map(|i| format!("[{i}]")),
        Value::String(t) => serde_json::to_string(t).ok().map(|q| format!("[{q}]")),
        _ => None,
    }
}

/// The size of an expression: one per node (a template's parts count as
/// nodes), what reading it once costs. The parser bounds the nesting, so
/// the recursion is bounded.
pub(super) fn size(e: &Expression) -> usize {
    let sum = |es: &mut dyn Iterator<Item = &Expression>| {
        es.fold(1usize, |n, x| n.saturating_add(size(x)))
    };
    match e {
        Expression::Array(items) => sum(&mut items.iter()),
        Expression::Object(o) => o.iter().fold(1usize, |n, (k, v)| {
            let k = match k {
                ObjectKey::Expression(x) => size(x),
                _ => 1,
            };
            n.saturating_add(k).saturating_add(size(v))
        }),
        Expression::TemplateExpr(t) => Template::from_expr(t).map_or(1, |t| {
            t.elements().iter().fold(1usize, |n, el| {
                n.saturating_add(match el {
                    Element::Interpolation(i) => size(&i.expr),
                    _ => 1,
                })
            })
        }),
        Expression::Traversal(t) => t.operators.iter().fold(size(&t.expr), |n, op| {
            n.saturating_add(match op {
                TraversalOperator::Index(x) => size(x),
                _ => 1,
            })
        }),
        Expression::FuncCall(f) => sum(&mut f.args.iter()),
        Expression::Parenthesis(x) => size(x).saturating_add(1),
        Expression::Conditional(c) => {
            sum(&mut [&c.cond_expr, &c.true_expr, &c.false_expr].into_iter())
        }
        Expression::Operation(op) => match op.as_ref() {
            Operation::Unary(u) => size(&u.expr).saturating_add(1),
            Operation::Binary(b) => sum(&mut [&b.lhs_expr, &b.rhs_expr].into_iter()),
        },
        Expression::ForExpr(f) => {
            let parts = [
                Some(&f.collection_expr),
                f.key_expr.as_ref(),
                Some(&f.value_expr),
                f.cond_expr.as_ref(),
            ];
            parts
                .into_iter()
                .flatten()
                .fold(1usize, |n, x| n.saturating_add(size(x)))
        }
        _ => 1,
    }
}

/// The weight of a value: one per node, plus the bytes of its strings and
/// keys. Every evaluated value is charged its weight against the budget.
pub(super) fn weight(v: &Value) -> usize {
    match v {
        Value::String(s) => s.len() + 1,
        Value::Array(a) => a.iter().fold(1usize, |w, x| w.saturating_add(weight(x))),
        Value::Object(o) => o.iter().fold(1usize, |w, (k, x)| {
            w.saturating_add(k.len() + 1).saturating_add(weight(x))
        }),
        _ => 1,
    }
}

/// The value of `e`, when its scan `s` allows an evaluation within
/// `budget` (which is charged the scan's bound). References are replaced
/// by their values (`values`) before the evaluation, so that evaluating
/// one never copies a whole `var` or resource-type object.
pub(super) fn eval(
    e: &Expression,
    s: &Scan,
    values: &dyn Fn(&str) -> Option<Value>,
    ctx: &Context,
    budget: &mut usize,
) -> Option<Value> {
    if s.opaque || s.weight > *budget {
        return None;
    }
    *budget -= s.weight;
    let mut e = e.clone();
    substitute(&mut e, values, ctx)?;
    e.evaluate(ctx).ok()
}

/// Replaces every reference in `e` by its value; `None` when one has none.
/// A template's interpolations are substituted and the template evaluated
/// in place (templates are text, not expressions, until parsed).
fn substitute(
    e: &mut Expression,
    values: &dyn Fn(&str) -> Option<Value>,
    ctx: &Context,
) -> Option<()> {
    let each = |es: &mut dyn Iterator<Item = &mut Expression>| {
        for x in es {
            substitute(x, values, ctx)?;
        }
        Some(())
    };
    match e {
        Expression::Array(items) => each(&mut items.iter_mut()),
        Expression::Object(o) => each(&mut o.values_mut()),
        Expression::TemplateExpr(t) => {
            let mut tpl = Template::from_expr(t).ok()?;
            for el in tpl.elements_mut() {
                if let Element::Interpolation(i) = el {
                    substitute(&mut i.expr, values, ctx)?;
                }
            }
            *e = Expression::String(tpl.evaluate(ctx).ok()?);
            Some(())
        }
        Expression::Traversal(t) => {
            for op in t.operators.iter_mut() {
                if let TraversalOperator::Index(x) = op {
                    substitute(x, values, ctx)?;
                    // `[count.index + 1]`: an index is a literal from here.
                    *x = Expression::from(x.evaluate(ctx).ok()?);
                }
            }
            // A value traversed (`{a = 1}.a`, an `each.value` replaced).
            if !matches!(t.expr, Expression::Variable(_)) {
                return substitute(&mut t.expr, values, ctx);
            }
            let (key, used) = lookup_key(&t.expr, &t.operators, &|_| None)?;
            let v = values(&key)?;
            let rest: Vec<TraversalOperator> = t.operators.drain(used..).collect();
            *e = if rest.is_empty() {
                Expression::from(v)
            } else {
                Expression::Traversal(Box::new(hcl::expr::Traversal::new(
                    Expression::from(v),
                    rest,
                )))
            };
            Some(())
        }
        Expression::FuncCall(f) => each(&mut f.args.iter_mut()),
        Expression::Parenthesis(x) => substitute(x, values, ctx),
        Expression::Conditional(c) => {
            each(&mut [&mut c.cond_expr, &mut c.true_expr, &mut c.false_expr].into_iter())
        }
        Expression::Operation(op) => match op.as_mut() {
            Operation::Unary(u) => substitute(&mut u.expr, values, ctx),
            Operation::Binary(b) => each(&mut [&mut b.lhs_expr, &mut b.rhs_expr].into_iter()),
        },
        _ => Some(()),
    }
}

/// The key of the value a traversal starts from (`var.X`, `local.X`,
/// `count.index`, `each.key`, `each.value`, `TYPE.NAME.ATTR`,
/// `TYPE.NAME[0].ATTR`, `TYPE.NAME["k"].ATTR`) and how many of its
/// operators the key takes; `index` evaluates an index that is no literal.
fn lookup_key(
    root: &Expression,
    ops: &[TraversalOperator],
    index: &dyn Fn(&Expression) -> Option<Value>,
) -> Option<(String, usize)> {
    let Expression::Variable(root) = root else {
        return None;
    };
    let attr = |i: usize| match ops.get(i) {
        Some(TraversalOperator::GetAttr(a)) => Some(a.as_str()),
        _ => None,
    };
    match (root.as_str(), attr(0), attr(1)) {
        (r @ ("var" | "local" | "count" | "each"), Some(a), _) => Some((format!("{r}.{a}"), 1)),
        ("data" | "module", _, _) => None,
        (t, Some(n), Some(a)) if t.contains('_') => Some((format!("{t}.{n}.{a}"), 2)),
        // One instance (`aws_sqs_queue.dlq[0].arn`); an index not known
        // here names the resource (`TYPE.NAME.ATTR`), which only a
        // resource read as one component has.
        (t, Some(n), None) if t.contains('_') => match (ops.get(1), attr(2)) {
            (Some(TraversalOperator::Index(x)), Some(a)) => {
                let i = index_of(x, index).unwrap_or_default();
                Some((format!("{t}.{n}{i}.{a}"), 3))
            }
            _ => None,
        },
        _ => None,
    }
}
