//! Finding the resource a Terraform value points at: by ARN or name in the
//! planned values, or by the `configuration` section's expression
//! references when the value is not known until apply.

use super::Res;
use crate::import::{Node, Value};

/// References of `address`'s attribute `attr` in the configuration section.
pub(super) fn config_refs(root: &Node, address: &str, attr: &str) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(m) = root.at(&["configuration", "root_module"]) {
        walk(m, "", address, attr, &mut out, 0);
    }
    out
}

/// Collects the references of `address`'s `attr` in `module` and the
/// modules it calls, whose resources' addresses carry `prefix`.
fn walk(
    module: &Node,
    prefix: &str,
    address: &str,
    attr: &str,
    out: &mut Vec<String>,
    depth: usize,
) {
    if depth > 32 {
        return;
    }
    for r in module.get("resources").map(Node::items).unwrap_or(&[]) {
        let a = format!(
            "{prefix}{}",
            r.get("address").and_then(Node::str).unwrap_or("")
        );
        let base = address.split('[').next().unwrap_or(address);
        if a == base
            && let Some(e) = r.at(&["expressions", attr])
        {
            refs_in(e, out);
        }
    }
    for (name, call) in module.get("module_calls").map(Node::entries).unwrap_or(&[]) {
        if let Some(m) = call.get("module") {
            walk(
                m,
                &format!("{prefix}module.{name}."),
                address,
                attr,
                out,
                depth + 1,
            );
        }
    }
}

/// Every `references` list anywhere under an expression.
fn refs_in(n: &Node, out: &mut Vec<String>) {
    if let Some(r) = n.get("references") {
        out.extend(r.items().iter().filter_map(|x| x.text()));
    }
    for (_, v) in n.entries() {
        refs_in(v, out);
    }
    for v in n.items() {
        refs_in(v, out);
    }
}

/// The resource a value (ARN, name) or a configuration reference points at.
pub(super) fn find(
    res: &[Res],
    root: &Node,
    from: &str,
    attr: &str,
    value: Option<&Node>,
) -> Option<usize> {
    if let Some(text) = value.and_then(Node::text).filter(|t| !t.is_empty()) {
        for (i, r) in res.iter().enumerate().filter(|(_, r)| r.id.is_some()) {
            for k in ["arn", "name", "function_name", "stream_arn", "url", "id"] {
                if r.values.get(k).and_then(Node::text).as_deref() == Some(text.as_str()) {
                    return Some(i);
                }
            }
        }
        let name = text.rsplit([':', '/']).next().unwrap_or(&text);
        if let Some(i) = res.iter().position(|r| {
            r.id.is_some() && r.values.get("name").and_then(Node::text).as_deref() == Some(name)
        }) {
            return Some(i);
        }
    }
    for reference in config_refs(root, from, attr) {
        let target = reference
            .trim_end_matches(".arn")
            .trim_end_matches(".stream_arn")
            .trim_end_matches(".function_name")
            .trim_end_matches(".name");
        if let Some(i) = res
            .iter()
            .position(|r| r.address == target || r.address.starts_with(&format!("{target}[")))
        {
            return Some(i);
        }
    }
    None
}

/// The first block of a nested block list (or the block itself).
pub(super) fn first(n: Option<&Node>) -> Option<&Node> {
    match n.map(|n| &n.value) {
        Some(Value::Seq(items)) => items.first(),
        Some(Value::Map(_)) => n,
        _ => None,
    }
}
