//! `resource: NAME` (or `ARN`) on each component read from a resource whose
//! name the configuration or plan knows: its `arn` when known (a plan of a
//! resource that exists), else its name attribute (`name`, a function's
//! `function_name`, a bucket's `bucket`) when it is a literal or evaluated
//! here. `drift` matches the component to the deployed resource by it.

use super::{F, Node, Out, Res, V};

/// The attribute that names the deployed resource of type `ty`.
fn name_attribute(ty: &str) -> &'static str {
    match ty {
        "aws_lambda_function" => "function_name",
        "aws_s3_bucket" => "bucket",
        _ => "name",
    }
}

/// Sets `resource` on component `id` from resource `r`.
pub(super) fn set(out: &mut Out, r: &Res, id: &str) {
    let known = |attr: &str| {
        r.values.get(attr).and_then(Node::str).filter(|v| {
            !v.is_empty() && !v.contains("${") && !v.contains(super::config::KNOWN_AFTER_APPLY)
        })
    };
    let arn = known("arn").filter(|a| a.starts_with("arn:"));
    let attr = if arn.is_some() {
        "arn"
    } else {
        name_attribute(&r.ty)
    };
    let (Some(value), Some(node)) = (known(attr), r.values.get(attr)) else {
        return;
    };
    let c = out.src(&format!("{}.{attr}", r.address), node);
    out.set(id, F::new("resource", V::S(value.to_string()), Some(c)));
}
