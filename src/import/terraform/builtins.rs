//! The functions a Terraform expression may call here (see
//! [`super::eval`]): pure functions whose result is bounded by their
//! arguments, so the evaluation budget that charges the arguments bounds
//! them too.

use hcl::Value;
use hcl::eval::{Context, FuncArgs, FuncDef, ParamType};

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
    for (name, f) in [
        ("length", length as fn(FuncArgs) -> Result<Value, String>),
        ("toset", toset),
        ("tolist", tolist),
        ("keys", keys),
        ("values", values),
    ] {
        ctx.declare_func(name, FuncDef::builder().param(ParamType::Any).build(f));
    }
    ctx
}

/// `length(x)`: the characters of a string, the items of a list or set,
/// the keys of a map.
fn length(args: FuncArgs) -> Result<Value, String> {
    match &args[0] {
        Value::String(s) => Ok(Value::from(s.chars().count() as u64)),
        Value::Array(a) => Ok(Value::from(a.len() as u64)),
        Value::Object(o) => Ok(Value::from(o.len() as u64)),
        _ => Err("length takes a string, list, set or map".into()),
    }
}

/// `toset(list)`: the distinct items; a set of strings is ordered as
/// Terraform orders it (lexically), others keep their first occurrence.
fn toset(args: FuncArgs) -> Result<Value, String> {
    let Value::Array(a) = &args[0] else {
        return Err("toset takes a list or set".into());
    };
    let mut out: Vec<Value> = Vec::with_capacity(a.len());
    if a.iter().all(|v| matches!(v, Value::String(_))) {
        let set: std::collections::BTreeSet<&str> = a.iter().filter_map(Value::as_str).collect();
        out.extend(set.into_iter().map(Value::from));
    } else {
        for v in a {
            if !out.contains(v) {
                out.push(v.clone());
            }
        }
    }
    Ok(Value::Array(out))
}

fn tolist(args: FuncArgs) -> Result<Value, String> {
    match &args[0] {
        Value::Array(a) => Ok(Value::Array(a.clone())),
        _ => Err("tolist takes a list or set".into()),
    }
}

/// `keys(map)`: its keys in lexical order, as Terraform gives them.
fn keys(args: FuncArgs) -> Result<Value, String> {
    let Value::Object(o) = &args[0] else {
        return Err("keys takes a map or object".into());
    };
    let mut k: Vec<&String> = o.keys().collect();
    k.sort();
    Ok(Value::Array(
        k.into_iter().map(|k| Value::from(k.as_str())).collect(),
    ))
}

/// `values(map)`: its values in the lexical order of their keys.
fn values(args: FuncArgs) -> Result<Value, String> {
    let Value::Object(o) = &args[0] else {
        return Err("values takes a map or object".into());
    };
    let mut e: Vec<(&String, &Value)> = o.iter().collect();
    e.sort_by(|a, b| a.0.cmp(b.0));
    Ok(Value::Array(e.into_iter().map(|e| e.1.clone()).collect()))
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

#[cfg(test)]
mod tests {
    use hcl::eval::Evaluate;

    /// The value of HCL expression `e` with these functions.
    fn eval(e: &str) -> hcl::Value {
        let e = hcl::Expression::from(hcl::edit::parser::parse_expr(e).unwrap());
        e.evaluate(&super::context()).unwrap()
    }

    #[test]
    fn collection_functions_as_terraform_gives_them() {
        assert_eq!(eval("length([1, 2, 3])"), hcl::Value::from(3));
        assert_eq!(eval("length({a = 1})"), hcl::Value::from(1));
        assert_eq!(eval("length(\"héllo\")"), hcl::Value::from(5));
        // Sets of strings in lexical order, without repeats.
        assert_eq!(eval("toset([\"b\", \"a\", \"b\"])"), eval("[\"a\", \"b\"]"));
        assert_eq!(eval("toset([2, 1, 2])"), eval("[2, 1]"));
        assert_eq!(eval("keys({b = 1, a = 2})"), eval("[\"a\", \"b\"]"));
        assert_eq!(eval("values({b = 1, a = 2})"), eval("[2, 1]"));
        assert_eq!(eval("tolist([1])"), eval("[1]"));
    }
}
