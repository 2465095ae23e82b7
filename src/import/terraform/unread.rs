//! The outputs of modules that are not read (a registry or remote module
//! without the cache `terraform init` writes, or a local folder not given)
//! as placeholder components, so that nothing built inside them vanishes:
//! every output a resource refers to (`module.queue.queue_arn`) becomes a
//! resource of the pseudo type [`OUTPUT`] in the plan-shaped tree, which
//! the plan reader makes a component of a generic kind (guessed from the
//! output's name, the attribute that uses it, or the module's source) with
//! a TODO; the mapping, subscription, target or permission that refers to
//! it links to it like to any resource.

use std::collections::BTreeMap;

use super::modules::Unread;
use crate::import::Node;

/// The pseudo resource type of an unread module's output.
pub(super) const OUTPUT: &str = "terraform_module_output";

/// The placeholder resources for the outputs of `unread` modules that the
/// resources' configuration (`config`, as the plan lists it) refers to.
pub(super) fn placeholders(unread: &[Unread], config: &[Node]) -> Vec<Node> {
    let mut uses: BTreeMap<String, (String, &Unread, String)> = BTreeMap::new();
    for c in config.iter().filter(|c| read(c)) {
        for (attr, e) in c.get("expressions").map(Node::entries).unwrap_or(&[]) {
            if !LINKING.contains(&attr.key()) {
                continue;
            }
            let mut refs = Vec::new();
            refs_under(e, attr.key(), &mut refs, 0);
            for (used_as, r) in refs {
                let Some(m) = owner(unread, &r) else {
                    continue;
                };
                let rest = &r[m.address.len() + 1..];
                let output = rest.split(['.', '[']).next().unwrap_or(rest).to_string();
                let address = trimmed(&format!("{}.{output}", m.address));
                uses.entry(address).or_insert((output, m, used_as));
            }
        }
    }
    uses.into_iter()
        .map(|(address, (output, m, used_as))| {
            let loc = m.loc;
            let s = |t: &str| Node::string(t, loc);
            let module = m
                .address
                .trim_start_matches("module.")
                .replace(".module.", ".");
            let kind = guess(&output, &used_as, &m.source);
            let values = Node::map(
                [
                    ("module", s(&m.address)),
                    ("source", s(&m.source)),
                    ("output", s(&output)),
                    ("used_as", s(&used_as)),
                    ("kind", s(kind)),
                    (
                        "limited",
                        Node::new(crate::import::Value::Bool(m.limited), loc),
                    ),
                ],
                loc,
            );
            Node::map(
                [
                    ("address", s(&address)),
                    ("mode", s("managed")),
                    ("type", s(OUTPUT)),
                    ("name", s(&id(&module, &output))),
                    ("values", values),
                ],
                loc,
            )
        })
        .collect()
}

/// The attributes the readers of links look up (`Ctx::find`): a module
/// output used elsewhere (a KMS key, a role) makes no placeholder.
const LINKING: [&str; 12] = [
    "event_source_arn",
    "function_name",
    "arn",
    "dead_letter_config",
    "destination_config",
    "endpoint",
    "queue_url",
    "redrive_policy",
    "rule",
    "target",
    "topic_arn",
    "source",
];

/// Whether configuration resource `c` is of a type read as a component or
/// a link (a managed resource: a data source's references link nothing).
fn read(c: &Node) -> bool {
    let address = c.get("address").and_then(Node::str).unwrap_or("");
    let mut parts = address.split('.');
    let ty = loop {
        match parts.next() {
            Some("module") => {
                parts.next();
            }
            other => break other.unwrap_or(""),
        }
    };
    super::READ.iter().any(|(t, _)| *t == ty) || super::LINKS.contains(&ty)
}

/// The unread module whose output reference `r` names (the deepest, for
/// a module an unread module calls).
fn owner<'a>(unread: &'a [Unread], r: &str) -> Option<&'a Unread> {
    unread
        .iter()
        .filter(|m| {
            r.strip_prefix(m.address.as_str())
                .is_some_and(|rest| rest.starts_with('.') && rest.len() > 1)
        })
        .max_by_key(|m| m.address.len())
}

/// The address a reference is looked up by (as `refs::Index::target`
/// trims it): `module.q.arn` stands for `module.q`.
fn trimmed(r: &str) -> String {
    r.trim_end_matches(".arn")
        .trim_end_matches(".stream_arn")
        .trim_end_matches(".function_name")
        .trim_end_matches(".name")
        .to_string()
}

/// Every reference under expression `e`, with the innermost attribute it
/// is the value of (`destination_arn` in `destination_config {
/// on_failure { ... } }`).
fn refs_under(e: &Node, attr: &str, out: &mut Vec<(String, String)>, depth: usize) {
    if depth > 64 {
        return;
    }
    if let Some(r) = e.get("references") {
        out.extend(
            r.items()
                .iter()
                .filter_map(|x| Some((attr.to_string(), x.text()?))),
        );
    }
    for (k, v) in e.entries() {
        if k.key() != "references" {
            refs_under(v, k.key(), out, depth + 1);
        }
    }
    for v in e.items() {
        refs_under(v, attr, out, depth + 1);
    }
}

/// The id stem of output `output` of module `module` (`a.b` when nested):
/// the module's name when the output names only what it is
/// (`queue_arn` of module `queue`, `arn`), else both.
fn id(module: &str, output: &str) -> String {
    let stem = ["_arn", "_url", "_id", "_name", "_invoke_arn"]
        .iter()
        .fold(output, |o, s| o.strip_suffix(s).unwrap_or(o));
    let stem = match stem {
        "arn" | "url" | "id" | "name" | "this" => "",
        s => s,
    };
    let last = module.rsplit('.').next().unwrap_or(module);
    match stem.is_empty() || stem == last {
        true => module.to_string(),
        false => format!("{module}-{stem}"),
    }
}

/// The generic kind of an output: by its name, else by the attribute
/// that uses it, else by the module's source.
pub(super) fn guess(output: &str, used_as: &str, source: &str) -> &'static str {
    const BY_NAME: &[(&str, &str)] = &[
        ("dead_letter", "queue"),
        ("dlq", "queue"),
        ("queue", "queue"),
        ("sqs", "queue"),
        ("topic", "topic"),
        ("sns", "topic"),
        ("function", "function"),
        ("lambda", "function"),
        ("stream", "stream"),
        ("kinesis", "stream"),
        ("table", "store"),
        ("dynamodb", "store"),
        ("state_machine", "workflow"),
        ("sfn", "workflow"),
        ("event_bus", "topic"),
        ("eventbridge", "topic"),
    ];
    const BY_USE: &[(&str, &str)] = &[
        ("event_source_arn", "queue"),
        ("function_name", "function"),
        ("function_arn", "function"),
        ("topic_arn", "topic"),
        ("queue_url", "queue"),
        ("source_arn", "topic"),
        ("dead_letter_config", "queue"),
        ("deadLetterTargetArn", "queue"),
    ];
    let name = output.to_ascii_lowercase();
    let source = source.to_ascii_lowercase();
    BY_NAME
        .iter()
        .find(|(k, _)| name.contains(k))
        .or_else(|| BY_USE.iter().find(|(k, _)| *k == used_as))
        .or_else(|| {
            BY_NAME
                .iter()
                .find(|(k, _)| source.split(['/', '-', '.', '_']).any(|p| p == *k))
        })
        .map_or("service", |(_, kind)| kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_by_name_then_use_then_source() {
        assert_eq!(guess("queue_arn", "arn", ""), "queue");
        assert_eq!(guess("arn", "event_source_arn", ""), "queue");
        assert_eq!(guess("arn", "function_name", ""), "function");
        assert_eq!(
            guess("arn", "endpoint", "terraform-aws-modules/sns/aws"),
            "topic"
        );
        assert_eq!(
            guess("out", "x", "git::https://example.com/m.git"),
            "service"
        );
    }

    #[test]
    fn ids_name_the_module() {
        assert_eq!(id("queue", "queue_arn"), "queue");
        assert_eq!(
            id("queue", "dead_letter_queue_arn"),
            "queue-dead_letter_queue"
        );
        assert_eq!(
            id("worker", "lambda_function_arn"),
            "worker-lambda_function"
        );
        assert_eq!(id("q", "arn"), "q");
    }
}
