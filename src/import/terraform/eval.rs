//! Evaluating the expressions of a Terraform configuration, as far as they
//! can be known before `terraform plan`: literals, `var.*`, `local.*`,
//! references to other resources' literal attributes, operators,
//! conditionals, templates without directives and a few pure functions
//! (`jsonencode`, `tostring`, `tonumber`, `lower`, `upper`, `min`, `max`).
//!
//! An expression is first [`scan`]ned: the references it makes and an upper
//! bound of the size of its value (each reference weighs what its value
//! weighs). `for` expressions and template directives are never evaluated
//! (nested loops multiply), nor is anything whose bound exceeds what is left
//! of the import's budget, so the work stays linear in the input however the
//! input is built.

use hcl::eval::{Context, Evaluate, FuncArgs, FuncDef, ParamType};
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
];

/// Scans `e`; `known` gives the weight of a reference's value, or `None`
/// when it has none here.
pub(super) fn scan(e: &Expression, known: &dyn Fn(&str) -> Option<usize>) -> Scan {
    let mut s = Scan::default();
    s.weight = walk(e, known, &mut s);
    s
}

/// The weight bound of `e`, recording its references and opacity in `s`.
/// The parser bounds the nesting of expressions, so the recursion is bounded.
fn walk(e: &Expression, known: &dyn Fn(&str) -> Option<usize>, s: &mut Scan) -> usize {
    let sum = |es: &mut dyn Iterator<Item = &Expression>, s: &mut Scan| {
        es.fold(1usize, |w, x| w.saturating_add(walk(x, known, s)))
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
                    ObjectKey::Expression(x) => walk(x, known, s),
                    _ => opaque(s),
                });
                w = w.saturating_add(walk(v, known, s));
            }
            w
        }
        Expression::TemplateExpr(t) => match Template::from_expr(t) {
            Ok(tpl) => template(&tpl, known, s),
            Err(_) => opaque(s),
        },
        Expression::Traversal(t) => {
            let mut w = reference(&t.expr, &t.operators, known, s);
            for op in &t.operators {
                if let TraversalOperator::Index(x) = op {
                    w = w.saturating_add(walk(x, known, s));
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
        Expression::Parenthesis(x) => walk(x, known, s),
        Expression::Conditional(c) => sum(
            &mut [&c.cond_expr, &c.true_expr, &c.false_expr].into_iter(),
            s,
        ),
        Expression::Operation(op) => match op.as_ref() {
            Operation::Unary(u) => walk(&u.expr, known, s).saturating_add(1),
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
fn template(t: &Template, known: &dyn Fn(&str) -> Option<usize>, s: &mut Scan) -> usize {
    let mut w = 1usize;
    for el in t.elements() {
        w = w.saturating_add(match el {
            Element::Literal(l) => l.len(),
            Element::Interpolation(i) => walk(&i.expr, known, s),
            Element::Directive(_) => opaque(s),
        });
    }
    w
}

/// The weight of the value a traversal starts from, recording what it
/// refers to: `var.X`, `local.X`, `TYPE.NAME.ATTR`, `data.TYPE.NAME`,
/// `module.NAME`.
fn reference(
    root: &Expression,
    ops: &[TraversalOperator],
    known: &dyn Fn(&str) -> Option<usize>,
    s: &mut Scan,
) -> usize {
    let Expression::Variable(root) = root else {
        return walk(root, known, s);
    };
    let attr = |i: usize| match ops.get(i) {
        Some(TraversalOperator::GetAttr(a)) => Some(a.as_str()),
        _ => None,
    };
    let name = match (root.as_str(), attr(0), attr(1)) {
        (r @ ("var" | "local"), Some(a), _) => format!("{r}.{a}"),
        ("data", Some(t), Some(n)) => format!("data.{t}.{n}"),
        ("module", Some(m), Some(o)) => format!("module.{m}.{o}"),
        ("module", Some(m), None) => format!("module.{m}"),
        (t, Some(n), _) if t.contains('_') => format!("{t}.{n}"),
        _ => return opaque(s),
    };
    if s.seen.insert(name.clone()) {
        s.refs.push(name);
    }
    let root = Expression::Variable(root.clone());
    match lookup_key(&root, ops).and_then(|(k, _)| known(&k)) {
        Some(w) => w,
        None => opaque(s),
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

/// An evaluation context with the functions of [`FUNCS`] declared.
pub(super) fn context() -> Context<'static> {
    let mut ctx = Context::new();
    ctx.declare_func(
        "jsonencode",
        FuncDef::builder().param(ParamType::Any).build(jsonencode),
    );
    ctx.declare_func(
        "tostring",
        FuncDef::builder().param(ParamType::Any).build(tostring),
    );
    ctx.declare_func(
        "tonumber",
        FuncDef::builder().param(ParamType::Any).build(tonumber),
    );
    ctx.declare_func(
        "lower",
        FuncDef::builder().param(ParamType::String).build(lower),
    );
    ctx.declare_func(
        "upper",
        FuncDef::builder().param(ParamType::String).build(upper),
    );
    let nums = || FuncDef::builder().variadic_param(ParamType::Number);
    ctx.declare_func("min", nums().build(min));
    ctx.declare_func("max", nums().build(max));
    ctx.declare_func(
        "merge",
        FuncDef::builder()
            .variadic_param(ParamType::Any)
            .build(merge),
    );
    ctx
}

/// `merge(a, b, ...)`: the objects' keys, a later object's value winning
/// (as the registry modules merge a caller's `redrive_policy` over their
/// defaults); `null` arguments are skipped.
fn merge(args: FuncArgs) -> Result<Value, String> {
    let mut out = hcl::Map::new();
    for a in args.iter() {
        match a {
            Value::Object(o) => out.extend(o.iter().map(|(k, v)| (k.clone(), v.clone()))),
            Value::Null => {}
            _ => return Err("merge takes objects".into()),
        }
    }
    Ok(Value::Object(out))
}

fn jsonencode(args: FuncArgs) -> Result<Value, String> {
    serde_json::to_string(&args[0])
        .map(Value::String)
        .map_err(|e| e.to_string())
}

fn tostring(args: FuncArgs) -> Result<Value, String> {
    match &args[0] {
        Value::String(s) => Ok(Value::String(s.clone())),
        Value::Number(n) => Ok(Value::String(n.to_string())),
        Value::Bool(b) => Ok(Value::String(b.to_string())),
        _ => Err("tostring takes a string, number or bool".into()),
    }
}

fn tonumber(args: FuncArgs) -> Result<Value, String> {
    match &args[0] {
        Value::Number(n) => Ok(Value::Number(*n)),
        Value::String(s) => s
            .trim()
            .parse::<i64>()
            .map(Value::from)
            .or_else(|_| s.trim().parse::<f64>().map(Value::from))
            .map_err(|_| format!("`{s}` is not a number")),
        _ => Err("tonumber takes a string or number".into()),
    }
}

fn lower(args: FuncArgs) -> Result<Value, String> {
    Ok(Value::String(args[0].as_str().unwrap_or("").to_lowercase()))
}

fn upper(args: FuncArgs) -> Result<Value, String> {
    Ok(Value::String(args[0].as_str().unwrap_or("").to_uppercase()))
}

fn numbers(args: &FuncArgs) -> Vec<f64> {
    args.iter().filter_map(|v| v.as_f64()).collect()
}

fn min(args: FuncArgs) -> Result<Value, String> {
    pick(numbers(&args).into_iter().reduce(f64::min))
}

fn max(args: FuncArgs) -> Result<Value, String> {
    pick(numbers(&args).into_iter().reduce(f64::max))
}

/// A number as Terraform prints it: an integer when it is one.
fn pick(n: Option<f64>) -> Result<Value, String> {
    let n = n.ok_or("needs at least one number")?;
    if n.fract() == 0.0 && n.abs() < 9.0e15 {
        Ok(Value::from(n as i64))
    } else {
        Ok(Value::from(n))
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
                }
            }
            let (key, used) = lookup_key(&t.expr, &t.operators)?;
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
/// `TYPE.NAME.ATTR`) and how many of its operators the key takes.
fn lookup_key(root: &Expression, ops: &[TraversalOperator]) -> Option<(String, usize)> {
    let Expression::Variable(root) = root else {
        return None;
    };
    let attr = |i: usize| match ops.get(i) {
        Some(TraversalOperator::GetAttr(a)) => Some(a.as_str()),
        _ => None,
    };
    match (root.as_str(), attr(0), attr(1)) {
        (r @ ("var" | "local"), Some(a), _) => Some((format!("{r}.{a}"), 1)),
        ("data" | "module", _, _) => None,
        (t, Some(n), Some(a)) if t.contains('_') => Some((format!("{t}.{n}.{a}"), 2)),
        // One instance of a resource repeated by `count` or `for_each`
        // (`aws_sqs_queue.dlq[0].arn`): the one component stands for all.
        (t, Some(n), None) if t.contains('_') => match (ops.get(1), attr(2)) {
            (Some(TraversalOperator::Index(_)), Some(a)) => Some((format!("{t}.{n}.{a}"), 3)),
            _ => None,
        },
        _ => None,
    }
}
