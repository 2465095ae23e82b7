//! Terraform plans: the JSON of `terraform show -json PLAN`.
//!
//! Resources come from `planned_values.root_module` and its
//! `child_modules`. A resource's id is its name in kebab case
//! (`aws_sqs_queue.payout_requests` → `payout-requests`). References between
//! resources are found from ARNs and names in the planned values, or, where
//! a value is not known until apply, from the `configuration` section's
//! expression references.

use super::{F, Node, Out, V, Value, dur, error_at, kebab, scalar};
use crate::diagnostics::Diagnostic;

struct Res<'a> {
    address: String,
    ty: String,
    values: &'a Node,
    node: &'a Node,
    id: Option<String>,
}

const READ: &[(&str, &str)] = &[
    ("aws_sqs_queue", "sqs-standard"),
    ("aws_sns_topic", "sns-standard"),
    ("aws_lambda_function", "function"),
    ("aws_dynamodb_table", "dynamodb-table"),
    ("aws_kinesis_stream", "kinesis"),
    ("aws_cloudwatch_event_rule", "eventbridge"),
    ("aws_sfn_state_machine", "step-functions-standard"),
];
const LINKS: &[&str] = &[
    "aws_lambda_event_source_mapping",
    "aws_lambda_function_event_invoke_config",
    "aws_sns_topic_subscription",
    "aws_cloudwatch_event_target",
];

fn collect<'a>(module: &'a Node, out: &mut Vec<Res<'a>>, depth: usize) {
    if depth > 32 {
        return;
    }
    for r in module.get("resources").map(Node::items).unwrap_or(&[]) {
        if r.get("mode").and_then(Node::str) == Some("data") {
            continue;
        }
        let ty = r.get("type").and_then(Node::str).unwrap_or("").to_string();
        let address = r
            .get("address")
            .and_then(Node::str)
            .unwrap_or("")
            .to_string();
        let empty: &Node = r;
        out.push(Res {
            address,
            ty,
            values: r.get("values").unwrap_or(empty),
            node: r,
            id: None,
        });
    }
    for m in module.get("child_modules").map(Node::items).unwrap_or(&[]) {
        collect(m, out, depth + 1);
    }
}

/// References of `address`'s attribute `attr` in the configuration section.
fn config_refs(root: &Node, address: &str, attr: &str) -> Vec<String> {
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
    let mut out = Vec::new();
    if let Some(m) = root.at(&["configuration", "root_module"]) {
        walk(m, "", address, attr, &mut out, 0);
    }
    out
}

/// The resource a value (ARN, name) or a configuration reference points at.
fn find(res: &[Res], root: &Node, from: &str, attr: &str, value: Option<&Node>) -> Option<usize> {
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

fn first(n: Option<&Node>) -> Option<&Node> {
    match n.map(|n| &n.value) {
        Some(Value::Seq(items)) => items.first(),
        Some(Value::Map(_)) => n,
        _ => None,
    }
}

pub fn import(root: &Node, out: &mut Out) -> Result<(), Diagnostic> {
    let Some(module) = root.at(&["planned_values", "root_module"]) else {
        return Err(error_at(
            root,
            "not a Terraform plan: `planned_values.root_module` is missing",
            "give the JSON of `terraform show -json PLANFILE` (a saved plan), not the HCL or the state",
        ));
    };
    let mut res = Vec::new();
    collect(module, &mut res, 0);
    out.notes.push("TODO: regions: a plan does not say where the provider runs; add `regions:` where it matters.".into());
    for r in res.iter_mut() {
        let name = r
            .node
            .get("name")
            .and_then(Node::str)
            .unwrap_or(&r.address)
            .to_string();
        if let Some((_, kind)) = READ.iter().find(|(t, _)| *t == r.ty) {
            let mut kind = *kind;
            if r.ty == "aws_sqs_queue"
                && r.values.get("fifo_queue").and_then(Node::boolean) == Some(true)
            {
                kind = "sqs-fifo";
            }
            if r.ty == "aws_sns_topic"
                && r.values.get("fifo_topic").and_then(Node::boolean) == Some(true)
            {
                kind = "sns-fifo";
            }
            if r.ty == "aws_dynamodb_table"
                && !r
                    .values
                    .get("replica")
                    .map(Node::items)
                    .unwrap_or(&[])
                    .is_empty()
            {
                kind = "dynamodb-global-table";
            }
            if r.ty == "aws_sfn_state_machine"
                && r.values.get("type").and_then(Node::str) == Some("EXPRESS")
            {
                kind = "step-functions-express-async";
            }
            let from = format!("{}, {}", r.ty, out.src(&r.address, r.node));
            r.id = Some(out.add(&kebab(&name), kind, from));
        } else if !LINKS.contains(&r.ty.as_str()) {
            let src = out.src(&r.address, r.node);
            out.unsupported(format!("{} ({})", r.address, r.ty), src);
        }
    }
    for i in 0..res.len() {
        let r = &res[i];
        let v = |k: &str| r.values.get(k);
        let path = |k: &str| format!("{}.{k}", r.address);
        let set_dur = |out: &mut Out, id: &str, key: &str, attr: &str, unit: u64| {
            if let Some(n) = v(attr)
                && let Some(x) = n.int()
                && x >= 0
            {
                let c = out.src(&path(attr), n);
                out.set(id, F::new(key, V::S(dur(x as u64 * unit)), Some(c)));
            }
        };
        match (r.ty.as_str(), r.id.clone()) {
            ("aws_sqs_queue", Some(id)) => {
                set_dur(
                    out,
                    &id,
                    "visibility_timeout",
                    "visibility_timeout_seconds",
                    1,
                );
                set_dur(out, &id, "retention", "message_retention_seconds", 1);
                if let Some(n) = v("content_based_deduplication")
                    && let Some(b) = n.boolean()
                    && r.values.get("fifo_queue").and_then(Node::boolean) == Some(true)
                {
                    let c = out.src(&path("content_based_deduplication"), n);
                    out.set(
                        &id,
                        F::new("content_based_dedup", V::S(b.to_string()), Some(c)),
                    );
                }
                if let Some(n) = v("deduplication_scope")
                    && let Some(s) = n.str().filter(|s| !s.is_empty())
                {
                    let scope = if s == "messageGroup" {
                        "message-group".to_string()
                    } else {
                        kebab(s)
                    };
                    let c = out.src(&path("deduplication_scope"), n);
                    out.set(&id, F::new("dedup_scope", V::S(scalar(&scope)), Some(c)));
                }
                let policy = v("redrive_policy")
                    .and_then(Node::str)
                    .and_then(|s| serde_json::from_str::<serde_json::Value>(s).ok());
                let arn = policy
                    .as_ref()
                    .and_then(|p| p.get("deadLetterTargetArn"))
                    .and_then(|a| a.as_str())
                    .map(|s| Node::new(Value::Str(s.into()), r.node.loc));
                let count = policy
                    .as_ref()
                    .and_then(|p| p.get("maxReceiveCount"))
                    .and_then(|c| {
                        c.as_i64()
                            .or_else(|| c.as_str().and_then(|s| s.parse().ok()))
                    });
                if policy.is_some() || !config_refs(root, &r.address, "redrive_policy").is_empty() {
                    match find(&res, root, &r.address, "redrive_policy", arn.as_ref()).and_then(|j| res[j].id.clone()) {
                        Some(dlq) => {
                            let c = out.src(&path("redrive_policy"), v("redrive_policy").unwrap_or(r.node));
                            let mut f = vec![F::new("to", V::S(dlq), Some(format!("{c} deadLetterTargetArn")))];
                            if let Some(n) = count.filter(|n| *n >= 1) {
                                f.push(F::new("after_receives", V::S(n.to_string()), Some(format!("{c} maxReceiveCount"))));
                            }
                            out.set(&id, F::new("dead_letter", V::Map(f), None));
                        }
                        None => out.note(&id, format!("TODO: dead_letter: the redrive policy's target is not in this plan ({})", path("redrive_policy"))),
                    }
                }
            }
            ("aws_lambda_function", Some(id)) => set_dur(out, &id, "timeout", "timeout", 1),
            ("aws_kinesis_stream", Some(id)) => {
                set_dur(out, &id, "retention", "retention_period", 3600)
            }
            ("aws_dynamodb_table", Some(id)) => {
                match first(v("ttl")) {
                    Some(t) if t.get("enabled").and_then(Node::boolean) == Some(true) => {
                        let attr = t.get("attribute_name").and_then(Node::text).unwrap_or_default();
                        let c = out.src(&path("ttl"), t);
                        out.set(&id, F::new("expiry", V::S("physical-ttl".into()), Some(format!("{c}: items expire by TTL on `{attr}`"))));
                        out.note(&id, "TODO: retention: how long the application sets the TTL attribute after a claim".into());
                    }
                    _ => out.note(&id, "TODO: retention and expiry (application | physical-ttl): the plan sets no TTL".into()),
                }
                let replicas = v("replica").map(Node::items).unwrap_or(&[]);
                if !replicas.is_empty() {
                    let mut regions = Vec::new();
                    for rep in replicas {
                        if let Some(reg) = rep.get("region_name").and_then(Node::text) {
                            out.region(&reg, out.src(&path("replica"), rep));
                            regions.push(reg);
                        }
                    }
                    out.note(&id, "TODO: add the provider's own region to `regions` (the plan lists only the replicas)".into());
                    let c = out.src(&path("replica"), v("replica").unwrap_or(r.node));
                    out.set(&id, F::new("regions", V::List(regions), Some(c)));
                    out.set(
                        &id,
                        F::new(
                            "replication",
                            V::S("async".into()),
                            Some("global tables replicate asynchronously by default".into()),
                        ),
                    );
                    out.set(
                        &id,
                        F::new(
                            "mode",
                            V::S("active-active".into()),
                            Some("every replica accepts writes".into()),
                        ),
                    );
                }
            }
            ("aws_lambda_event_source_mapping", _) => {
                let src = find(
                    &res,
                    root,
                    &r.address,
                    "event_source_arn",
                    v("event_source_arn"),
                );
                let func = find(&res, root, &r.address, "function_name", v("function_name"));
                match (
                    src.and_then(|j| res[j].id.clone()),
                    func.and_then(|j| res[j].id.clone()),
                ) {
                    (Some(s), Some(f)) => {
                        let s = if res[src.unwrap_or(0)].ty == "aws_dynamodb_table" {
                            let sid = format!("{s}-stream");
                            if !out.has(&sid) {
                                out.add(
                                    &sid,
                                    "stream",
                                    format!("DynamoDB stream of {}", res[src.unwrap_or(0)].address),
                                );
                                out.set(
                                    &sid,
                                    F::new(
                                        "retention",
                                        V::S("24h".into()),
                                        Some("DynamoDB Streams keep records for 24 hours".into()),
                                    ),
                                );
                            }
                            sid
                        } else {
                            s
                        };
                        let mut link =
                            vec![F::new(
                                "to",
                                V::S(f.clone()),
                                Some(out.src(
                                    &path("function_name"),
                                    v("function_name").unwrap_or(r.node),
                                )),
                            )];
                        if let Some(n) = v("maximum_retry_attempts")
                            && let Some(x) = n.int()
                        {
                            let c = out.src(&path("maximum_retry_attempts"), n);
                            if x >= 0 {
                                link.push(F::retry_attempts(x, &c));
                            } else {
                                out.note(&s, format!("maximum_retry_attempts -1 on the mapping to {f}: retried until the record expires ({c})"));
                            }
                        }
                        if let Some(n) = v("maximum_record_age_in_seconds")
                            && let Some(x) = n.int()
                            && x > 0
                        {
                            let c = out.src(&path("maximum_record_age_in_seconds"), n);
                            link.push(F::new("max_record_age", V::S(dur(x as u64)), Some(c)));
                        }
                        if v("bisect_batch_on_function_error").and_then(Node::boolean) == Some(true)
                        {
                            out.note(&s, format!("bisect_batch_on_function_error true on the mapping to {f}: a failing batch is split and its good records are processed again ({})", path("bisect_batch_on_function_error")));
                        }
                        out.push_link(&s, "delivers_to", link);
                        let dest = first(v("destination_config"))
                            .and_then(|d| first(d.get("on_failure")))
                            .and_then(|o| o.get("destination_arn"));
                        if let Some(d) = dest
                            && let Some(to) =
                                find(&res, root, &r.address, "destination_config", Some(d))
                                    .and_then(|j| res[j].id.clone())
                        {
                            let c =
                                out.src(&path("destination_config.on_failure.destination_arn"), d);
                            out.set(
                                &s,
                                F::new(
                                    "dead_letter",
                                    V::Map(vec![F::new("to", V::S(to), Some(c))]),
                                    None,
                                ),
                            );
                        }
                        if res[func.unwrap_or(0)].ty == "aws_lambda_function"
                            && let Some(c) = out.comp(&f)
                            && c.kind == "function"
                        {
                            c.kind = "lambda-event-source".into();
                        }
                    }
                    _ => out.unsupported(
                        format!("{} (source or function not in this plan)", r.address),
                        out.src(&r.address, r.node),
                    ),
                }
            }
            ("aws_lambda_function_event_invoke_config", _) => {
                match find(&res, root, &r.address, "function_name", v("function_name"))
                    .and_then(|j| res[j].id.clone())
                {
                    Some(f) => {
                        if let Some(c) = out.comp(&f) {
                            c.kind = "lambda-async".into();
                        }
                        set_dur(out, &f, "max_event_age", "maximum_event_age_in_seconds", 1);
                        if let Some(n) = v("maximum_retry_attempts")
                            && let Some(x) = n.int()
                        {
                            let c = out.src(&path("maximum_retry_attempts"), n);
                            out.note(&f, format!("asynchronous invocation retries a failed event {x} time(s) ({c})"));
                        }
                        let dest = first(v("destination_config"))
                            .and_then(|d| first(d.get("on_failure")))
                            .and_then(|o| o.get("destination"));
                        if let Some(d) = dest
                            && let Some(to) =
                                find(&res, root, &r.address, "destination_config", Some(d))
                                    .and_then(|j| res[j].id.clone())
                        {
                            let c = out.src(&path("destination_config.on_failure.destination"), d);
                            out.set(
                                &f,
                                F::new(
                                    "dead_letter",
                                    V::Map(vec![F::new("to", V::S(to), Some(c))]),
                                    None,
                                ),
                            );
                        }
                    }
                    None => out.unsupported(
                        format!("{} (function not in this plan)", r.address),
                        out.src(&r.address, r.node),
                    ),
                }
            }
            ("aws_sns_topic_subscription", _) => {
                let t = find(&res, root, &r.address, "topic_arn", v("topic_arn"))
                    .and_then(|j| res[j].id.clone());
                let e = find(&res, root, &r.address, "endpoint", v("endpoint"))
                    .and_then(|j| res[j].id.clone());
                match (t, e) {
                    (Some(t), Some(e)) => {
                        let c = out.src(&path("endpoint"), v("endpoint").unwrap_or(r.node));
                        out.push_link(&t, "delivers_to", vec![F::new("to", V::S(e), Some(c))]);
                    }
                    _ => out.unsupported(
                        format!("{} (topic or endpoint not in this plan)", r.address),
                        out.src(&r.address, r.node),
                    ),
                }
            }
            ("aws_cloudwatch_event_target", _) => {
                let rule = v("rule").and_then(Node::text).and_then(|name| {
                    res.iter().find(|x| {
                        x.ty == "aws_cloudwatch_event_rule"
                            && x.values.get("name").and_then(Node::text).as_deref()
                                == Some(name.as_str())
                    })
                });
                let rule = rule.and_then(|x| x.id.clone()).or_else(|| {
                    find(&res, root, &r.address, "rule", None).and_then(|j| res[j].id.clone())
                });
                let target =
                    find(&res, root, &r.address, "arn", v("arn")).and_then(|j| res[j].id.clone());
                match (rule, target) {
                    (Some(rule), Some(target)) => {
                        let mut link = vec![F::new(
                            "to",
                            V::S(target),
                            Some(out.src(&path("arn"), v("arn").unwrap_or(r.node))),
                        )];
                        match first(v("retry_policy")) {
                            Some(rp) => {
                                if let Some(n) = rp.get("maximum_retry_attempts")
                                    && let Some(x) = n.int()
                                {
                                    let c =
                                        out.src(&path("retry_policy.maximum_retry_attempts"), n);
                                    link.push(F::retry_attempts(x, &c));
                                }
                                if let Some(n) = rp.get("maximum_event_age_in_seconds")
                                    && let Some(x) = n.int()
                                    && x > 0
                                {
                                    let c = out
                                        .src(&path("retry_policy.maximum_event_age_in_seconds"), n);
                                    link.push(F::new(
                                        "max_record_age",
                                        V::S(dur(x as u64)),
                                        Some(c.clone()),
                                    ));
                                    out.set(
                                        &rule,
                                        F::new("max_event_age", V::S(dur(x as u64)), Some(c)),
                                    );
                                }
                            }
                            None => link.push(F::new(
                                "max_record_age",
                                V::S("24h".into()),
                                Some(
                                    "EventBridge default maximum event age (no retry_policy)"
                                        .into(),
                                ),
                            )),
                        }
                        out.push_link(&rule, "delivers_to", link);
                        if let Some(d) = first(v("dead_letter_config")).and_then(|d| d.get("arn"))
                            && let Some(to) =
                                find(&res, root, &r.address, "dead_letter_config", Some(d))
                                    .and_then(|j| res[j].id.clone())
                        {
                            let c = out.src(&path("dead_letter_config.arn"), d);
                            out.set(
                                &rule,
                                F::new(
                                    "dead_letter",
                                    V::Map(vec![F::new("to", V::S(to), Some(c))]),
                                    None,
                                ),
                            );
                        }
                    }
                    _ => out.unsupported(
                        format!("{} (rule or target not in this plan)", r.address),
                        out.src(&r.address, r.node),
                    ),
                }
            }
            _ => {}
        }
    }
    Ok(())
}
