//! CloudFormation and SAM templates (YAML with short intrinsic tags, or JSON).
//!
//! Intrinsic functions are evaluated as far as the template allows:
//! parameters from `--parameter` or their defaults, conditions, mappings,
//! `Sub`/`Join`/`Select`/`Split`; a `Ref`/`GetAtt` to a resource becomes a
//! link to that resource's component. What cannot be known before
//! deployment (`ImportValue`, `GetAZs`, pseudo parameters) stays unknown
//! and is reported as a TODO where it matters.

use std::collections::BTreeMap;

use super::{F, Node, Out, V, Value, dur, error_at, kebab, scalar};
use crate::diagnostics::Diagnostic;

/// An evaluated value.
#[derive(Debug, Clone)]
enum Ev {
    Lit(Node),
    /// A resource of the template (`Ref X`, `GetAtt X.Attr`).
    Res(String, Option<String>),
    /// Known only at deployment.
    Unknown(String),
}

struct Cf<'a> {
    root: &'a Node,
    params: BTreeMap<String, Node>,
    resources: Vec<(String, String, &'a Node)>,
    ids: BTreeMap<String, String>,
}

const MAX_EVAL_DEPTH: usize = 48;

fn intrinsic(node: &Node) -> Option<(String, &Node)> {
    if let Some(tag) = &node.tag {
        let name = tag.trim_start_matches('!');
        let f = match name {
            "Ref" | "Condition" => name.to_string(),
            _ => format!("Fn::{name}"),
        };
        return Some((f, node));
    }
    match &node.value {
        Value::Map(m)
            if m.len() == 1
                && (m[0].0 == "Ref" || m[0].0.starts_with("Fn::") || m[0].0 == "Condition") =>
        {
            Some((m[0].0.clone(), &m[0].1))
        }
        _ => None,
    }
}

/// The argument of a tagged node without its tag.
fn untagged(node: &Node) -> Node {
    Node {
        tag: None,
        ..node.clone()
    }
}

impl<'a> Cf<'a> {
    fn eval(&self, node: &Node) -> Ev {
        self.eval_d(node, 0)
    }

    fn eval_d(&self, node: &Node, d: usize) -> Ev {
        if d > MAX_EVAL_DEPTH {
            return Ev::Unknown("(nested too deeply)".into());
        }
        let Some((f, arg)) = intrinsic(node) else {
            return Ev::Lit(node.clone());
        };
        let arg = if node.tag.is_some() {
            untagged(arg)
        } else {
            arg.clone()
        };
        let lit = |n: &Node| match self.eval_d(n, d + 1) {
            Ev::Lit(x) => Some(x),
            _ => None,
        };
        match f.as_str() {
            "Ref" => {
                let Some(name) = arg.str() else {
                    return Ev::Unknown(arg.brief());
                };
                if let Some(p) = self.params.get(name) {
                    return Ev::Lit(p.clone());
                }
                if name == "AWS::NoValue" {
                    return Ev::Lit(Node::new(Value::Null, arg.loc));
                }
                if self.resources.iter().any(|(id, _, _)| id == name) {
                    return Ev::Res(name.to_string(), None);
                }
                Ev::Unknown(name.to_string())
            }
            "Fn::GetAtt" => {
                let (res, att) = match &arg.value {
                    Value::Str(s) => match s.split_once('.') {
                        Some((r, a)) => (r.to_string(), Some(a.to_string())),
                        None => (s.clone(), None),
                    },
                    Value::Seq(items) => (
                        items
                            .first()
                            .and_then(&lit)
                            .and_then(|n| n.text())
                            .unwrap_or_default(),
                        items.get(1).and_then(&lit).and_then(|n| n.text()),
                    ),
                    _ => return Ev::Unknown(arg.brief()),
                };
                Ev::Res(res, att)
            }
            "Fn::Sub" => {
                let (text, vars) = match &arg.value {
                    Value::Str(s) => (s.clone(), None),
                    Value::Seq(items) => (
                        items
                            .first()
                            .and_then(Node::str)
                            .unwrap_or_default()
                            .to_string(),
                        items.get(1),
                    ),
                    _ => return Ev::Unknown(arg.brief()),
                };
                self.sub(&text, vars, arg.loc, d)
            }
            "Fn::Join" => {
                let items = arg.items();
                let (Some(delim), Some(list)) =
                    (items.first().and_then(|n| n.text()), items.get(1))
                else {
                    return Ev::Unknown(arg.brief());
                };
                let Some(list) = lit(list) else {
                    return Ev::Unknown(arg.brief());
                };
                let mut parts = Vec::new();
                for item in list.items() {
                    match self.eval_d(item, d + 1) {
                        Ev::Lit(n) => parts.push(n.text().unwrap_or_default()),
                        Ev::Res(r, a) => parts.push(format!(
                            "${{{r}{}}}",
                            a.map(|a| format!(".{a}")).unwrap_or_default()
                        )),
                        Ev::Unknown(u) => parts.push(format!("${{{u}}}")),
                    }
                }
                Ev::Lit(Node::new(Value::Str(parts.join(&delim)), arg.loc))
            }
            "Fn::Select" => {
                let items = arg.items();
                let idx = items.first().and_then(&lit).and_then(|n| n.int());
                let list = items.get(1).and_then(&lit);
                match (idx, list) {
                    (Some(i), Some(l)) if i >= 0 => match l.items().get(i as usize) {
                        Some(n) => self.eval_d(n, d + 1),
                        None => Ev::Unknown(arg.brief()),
                    },
                    _ => Ev::Unknown(arg.brief()),
                }
            }
            "Fn::Split" => {
                let items = arg.items();
                match (
                    items.first().and_then(|n| n.text()),
                    items.get(1).and_then(&lit).and_then(|n| n.text()),
                ) {
                    (Some(delim), Some(s)) if !delim.is_empty() => Ev::Lit(Node::new(
                        Value::Seq(
                            s.split(&delim)
                                .map(|p| Node::new(Value::Str(p.to_string()), arg.loc))
                                .collect(),
                        ),
                        arg.loc,
                    )),
                    _ => Ev::Unknown(arg.brief()),
                }
            }
            "Fn::If" => {
                let items = arg.items();
                let (Some(c), Some(a), Some(b)) = (
                    items.first().and_then(Node::str),
                    items.get(1),
                    items.get(2),
                ) else {
                    return Ev::Unknown(arg.brief());
                };
                match self.condition(c, d + 1) {
                    Some(true) => self.eval_d(a, d + 1),
                    Some(false) => self.eval_d(b, d + 1),
                    None => Ev::Unknown(format!("Fn::If {c}")),
                }
            }
            "Fn::Equals" | "Fn::Not" | "Fn::And" | "Fn::Or" | "Condition" => {
                match self.cond_node(node, d + 1) {
                    Some(b) => Ev::Lit(Node::new(Value::Bool(b), arg.loc)),
                    None => Ev::Unknown(arg.brief()),
                }
            }
            "Fn::FindInMap" => {
                let items = arg.items();
                let keys: Vec<Option<String>> = items
                    .iter()
                    .take(3)
                    .map(|n| lit(n).and_then(|x| x.text()))
                    .collect();
                match keys.as_slice() {
                    [Some(m), Some(k1), Some(k2)] => match self.root.at(&["Mappings", m, k1, k2]) {
                        Some(n) => self.eval_d(n, d + 1),
                        None => Ev::Unknown(format!("FindInMap {m}.{k1}.{k2}")),
                    },
                    _ => Ev::Unknown(arg.brief()),
                }
            }
            "Fn::Base64" => self.eval_d(&arg, d + 1),
            _ => Ev::Unknown(format!("{f} {}", arg.brief())),
        }
    }

    fn sub(&self, text: &str, vars: Option<&Node>, loc: crate::diagnostics::Loc, d: usize) -> Ev {
        let mut out = String::new();
        let mut rest = text;
        let mut single_res = None;
        while let Some(i) = rest.find("${") {
            out.push_str(&rest[..i]);
            let after = &rest[i + 2..];
            if let Some(lit) = after.strip_prefix('!') {
                out.push_str("${");
                rest = lit;
                continue;
            }
            let Some(j) = after.find('}') else {
                out.push_str(&rest[i..]);
                rest = "";
                break;
            };
            let name = &after[..j];
            let var = vars.and_then(|v| v.get(name));
            let value = match var {
                Some(n) => self.eval_d(n, d + 1),
                None => match self.params.get(name) {
                    Some(p) => Ev::Lit(p.clone()),
                    None => {
                        let (r, a) = match name.split_once('.') {
                            Some((r, a)) => (r, Some(a.to_string())),
                            None => (name, None),
                        };
                        if self.resources.iter().any(|(id, _, _)| id == r) {
                            Ev::Res(r.to_string(), a)
                        } else {
                            Ev::Unknown(name.to_string())
                        }
                    }
                },
            };
            match value {
                Ev::Lit(n) => out.push_str(&n.text().unwrap_or_default()),
                Ev::Res(r, a) => {
                    if text.trim() == format!("${{{name}}}") {
                        single_res = Some(Ev::Res(r.clone(), a.clone()));
                    }
                    out.push_str(&format!(
                        "${{{r}{}}}",
                        a.map(|a| format!(".{a}")).unwrap_or_default()
                    ));
                }
                Ev::Unknown(u) => out.push_str(&format!("${{{u}}}")),
            }
            rest = &after[j + 1..];
        }
        out.push_str(rest);
        single_res.unwrap_or_else(|| Ev::Lit(Node::new(Value::Str(out), loc)))
    }

    fn condition(&self, name: &str, d: usize) -> Option<bool> {
        if d > MAX_EVAL_DEPTH {
            return None;
        }
        let n = self.root.at(&["Conditions", name])?;
        self.cond_node(n, d + 1)
    }

    fn cond_node(&self, node: &Node, d: usize) -> Option<bool> {
        if d > MAX_EVAL_DEPTH {
            return None;
        }
        let (f, arg) = intrinsic(node)?;
        let arg = if node.tag.is_some() {
            untagged(arg)
        } else {
            arg.clone()
        };
        match f.as_str() {
            "Condition" => self.condition(arg.str()?, d + 1),
            "Fn::Equals" => {
                let items = arg.items();
                let a = self.scalar_text(items.first()?, d)?;
                let b = self.scalar_text(items.get(1)?, d)?;
                Some(a == b)
            }
            "Fn::Not" => Some(!self.cond_node(arg.items().first()?, d + 1)?),
            "Fn::And" => arg
                .items()
                .iter()
                .map(|n| self.cond_node(n, d + 1))
                .try_fold(true, |acc, b| Some(acc && b?)),
            "Fn::Or" => arg
                .items()
                .iter()
                .map(|n| self.cond_node(n, d + 1))
                .try_fold(false, |acc, b| Some(acc || b?)),
            _ => None,
        }
    }

    fn scalar_text(&self, n: &Node, d: usize) -> Option<String> {
        match self.eval_d(n, d + 1) {
            Ev::Lit(x) => x.text(),
            _ => None,
        }
    }

    /// The literal value of a node, if it evaluates to one.
    fn lit(&self, n: &Node) -> Option<Node> {
        match self.eval(n) {
            Ev::Lit(x) if x.value != Value::Null => Some(x),
            _ => None,
        }
    }

    fn ty(&self, id: &str) -> Option<&str> {
        self.resources
            .iter()
            .find(|(r, _, _)| r == id)
            .map(|(_, t, _)| t.as_str())
    }

    /// The logical id a value points at: `Ref`/`GetAtt`, `${X.Arn}`, or an
    /// ARN or name matching a resource's name property.
    fn target(&self, n: &Node) -> Result<(String, Option<String>), String> {
        match self.eval(n) {
            Ev::Res(r, a) if self.ty(&r).is_some() => Ok((r, a)),
            Ev::Res(r, _) => Err(format!("`{r}` is not a resource of this template")),
            Ev::Unknown(u) => Err(format!("`{u}` is known only at deployment")),
            Ev::Lit(x) => {
                let text = x.text().unwrap_or_else(|| x.brief());
                if let Some(inner) = text.strip_prefix("${").and_then(|t| t.strip_suffix('}')) {
                    let (r, a) = match inner.split_once('.') {
                        Some((r, a)) => (r.to_string(), Some(a.to_string())),
                        None => (inner.to_string(), None),
                    };
                    if self.ty(&r).is_some() {
                        return Ok((r, a));
                    }
                }
                let name = text.rsplit([':', '/']).next().unwrap_or(&text);
                for (id, _, res) in &self.resources {
                    for p in [
                        "QueueName",
                        "FunctionName",
                        "TopicName",
                        "TableName",
                        "Name",
                        "StateMachineName",
                        "StreamName",
                    ] {
                        if let Some(v) = res
                            .at(&["Properties", p])
                            .and_then(|v| self.lit(v))
                            .and_then(|v| v.text())
                            && v == name
                        {
                            return Ok((id.clone(), None));
                        }
                    }
                }
                Err(format!("`{text}` names no resource of this template"))
            }
        }
    }
}

/// Reads a template into `out`.
pub fn import(root: &Node, params: &[(String, String)], out: &mut Out) -> Result<(), Diagnostic> {
    let Value::Map(_) = root.value else {
        return Err(error_at(
            root,
            "a CloudFormation template must be a mapping",
            "the top level holds `Resources:`",
        ));
    };
    let Some(resources) = root.get("Resources") else {
        return Err(error_at(
            root,
            "the template has no `Resources`",
            "a CloudFormation template lists its resources under `Resources:`",
        ));
    };
    let Value::Map(res) = &resources.value else {
        return Err(error_at(
            resources,
            "`Resources` must be a mapping of logical id to resource",
            "write `Resources:` followed by `LogicalId: {Type: ..., Properties: ...}`",
        ));
    };
    // Parameters: --parameter wins, then Default.
    let mut pvals = BTreeMap::new();
    for (name, p) in root.get("Parameters").map(Node::entries).unwrap_or(&[]) {
        if let Some((_, v)) = params.iter().find(|(k, _)| k == name) {
            pvals.insert(name.clone(), Node::new(Value::Str(v.clone()), p.loc));
        } else if let Some(d) = p.get("Default") {
            pvals.insert(name.clone(), d.clone());
        }
    }
    for (k, _) in params {
        if root.at(&["Parameters", k]).is_none() {
            let known: Vec<&str> = root
                .get("Parameters")
                .map(Node::entries)
                .unwrap_or(&[])
                .iter()
                .map(|(k, _)| k.as_str())
                .collect();
            let help = match crate::diagnostics::suggest(k, known.iter().copied()) {
                Some(s) => format!("did you mean `{s}`?"),
                None if known.is_empty() => "the template declares no parameters".to_string(),
                None => format!("the template's parameters are: {}", known.join(", ")),
            };
            return Err(Diagnostic::new(
                None,
                format!("`--parameter {k}=...`: the template has no parameter `{k}`"),
            )
            .help(help));
        }
    }
    let mut cf = Cf {
        root,
        params: pvals,
        resources: Vec::new(),
        ids: BTreeMap::new(),
    };
    for (id, r) in res {
        let ty = r.get("Type").and_then(Node::str).unwrap_or("").to_string();
        cf.resources.push((id.clone(), ty, r));
    }
    let mut missing_params: Vec<String> = Vec::new();
    for (name, _) in root.get("Parameters").map(Node::entries).unwrap_or(&[]) {
        if !cf.params.contains_key(name) {
            missing_params.push(name.clone());
        }
    }
    if !missing_params.is_empty() {
        out.notes.push(format!(
            "TODO: parameters without a default and not given with --parameter: {} (values that use them are left out)",
            missing_params.join(", ")
        ));
    }
    out.notes.push("TODO: regions: a stack deploys to one region; add `regions:` to components that run in several.".into());

    // Pass 1: components.
    let mut fn_hint: BTreeMap<String, &'static str> = BTreeMap::new();
    for (lid, ty, r) in &cf.resources {
        if let Some(c) = r.get("Condition").and_then(Node::str)
            && cf.condition(c, 0) == Some(false)
        {
            out.notes.push(format!(
                "{lid} is left out: its condition `{c}` is false with these parameters"
            ));
            continue;
        }
        let from = out.src(&format!("Resources.{lid}"), r.get("Type").unwrap_or(r));
        let from = format!("{ty}, {from}");
        let kind = match ty.as_str() {
            "AWS::SQS::Queue" => {
                if prop(&cf, r, "FifoQueue").and_then(|n| n.boolean()) == Some(true) {
                    "sqs-fifo"
                } else {
                    "sqs-standard"
                }
            }
            "AWS::SNS::Topic" => {
                if prop(&cf, r, "FifoTopic").and_then(|n| n.boolean()) == Some(true) {
                    "sns-fifo"
                } else {
                    "sns-standard"
                }
            }
            "AWS::Lambda::Function" | "AWS::Serverless::Function" => "function",
            "AWS::DynamoDB::Table" => "dynamodb-table",
            "AWS::DynamoDB::GlobalTable" => "dynamodb-global-table",
            "AWS::Kinesis::Stream" => "kinesis",
            "AWS::Events::Rule" => "eventbridge",
            "AWS::StepFunctions::StateMachine" | "AWS::Serverless::StateMachine" => {
                if prop(&cf, r, "StateMachineType")
                    .or_else(|| prop(&cf, r, "Type"))
                    .and_then(|n| n.text())
                    .as_deref()
                    == Some("EXPRESS")
                {
                    "step-functions-express-async"
                } else {
                    "step-functions-standard"
                }
            }
            "AWS::Lambda::EventSourceMapping"
            | "AWS::Lambda::EventInvokeConfig"
            | "AWS::SNS::Subscription" => continue,
            _ => {
                out.unsupported(
                    format!("Resources.{lid} ({ty})"),
                    out.src(&format!("Resources.{lid}"), r),
                );
                continue;
            }
        };
        let id = out.add(&kebab(lid), kind, from);
        cf.ids.insert(lid.clone(), id);
    }

    // Pass 2: properties and links.
    for (lid, ty, r) in &cf.resources {
        let Some(id) = cf.ids.get(lid).cloned() else {
            match ty.as_str() {
                "AWS::Lambda::EventSourceMapping" => esm(&cf, out, lid, r, &mut fn_hint),
                "AWS::Lambda::EventInvokeConfig" => {
                    let base = format!("Resources.{lid}.Properties");
                    match r.at(&["Properties", "FunctionName"]).map(|n| cf.target(n)) {
                        Some(Ok((f, _))) if cf.ids.contains_key(&f) => {
                            let fid = cf.ids[&f].clone();
                            invoke_config(&cf, out, &fid, r.get("Properties").unwrap_or(r), &base);
                            fn_hint.insert(fid, "lambda-async");
                        }
                        Some(Err(why)) => out.unsupported(
                            format!("Resources.{lid} (EventInvokeConfig): function {why}"),
                            out.src(&base, r),
                        ),
                        _ => out.unsupported(
                            format!("Resources.{lid} (EventInvokeConfig): no FunctionName"),
                            out.src(&base, r),
                        ),
                    }
                }
                "AWS::SNS::Subscription" => {
                    let base = format!("Resources.{lid}.Properties");
                    let topic = r.at(&["Properties", "TopicArn"]).map(|n| cf.target(n));
                    let endpoint = r.at(&["Properties", "Endpoint"]);
                    match (topic, endpoint) {
                        (Some(Ok((t, _))), Some(e)) if cf.ids.contains_key(&t) => {
                            let tid = cf.ids[&t].clone();
                            subscription(&cf, out, &tid, e, &format!("{base}.Endpoint"));
                            if let Some(dlq) = r.at(&["Properties", "RedrivePolicy", "deadLetterTargetArn"]) {
                                dead_letter(&cf, out, &tid, dlq, &format!("{base}.RedrivePolicy.deadLetterTargetArn"), None);
                            }
                        }
                        _ => out.unsupported(format!("Resources.{lid} (SNS subscription): topic or endpoint not in this template"), out.src(&base, r)),
                    }
                }
                _ => {}
            }
            continue;
        };
        let base = format!("Resources.{lid}.Properties");
        let p = |k: &str| r.at(&["Properties", k]);
        match ty.as_str() {
            "AWS::SQS::Queue" => {
                duration(
                    &cf,
                    out,
                    &id,
                    "visibility_timeout",
                    p("VisibilityTimeout"),
                    &format!("{base}.VisibilityTimeout"),
                    1,
                );
                duration(
                    &cf,
                    out,
                    &id,
                    "retention",
                    p("MessageRetentionPeriod"),
                    &format!("{base}.MessageRetentionPeriod"),
                    1,
                );
                boolean(
                    &cf,
                    out,
                    &id,
                    "content_based_dedup",
                    p("ContentBasedDeduplication"),
                    &format!("{base}.ContentBasedDeduplication"),
                );
                if let Some(n) = p("DeduplicationScope")
                    && let Some(v) = cf.lit(n).and_then(|v| v.text())
                {
                    let scope = if v == "messageGroup" {
                        "message-group".to_string()
                    } else {
                        kebab(&v)
                    };
                    let c = out.src(&format!("{base}.DeduplicationScope"), n);
                    out.set(&id, F::new("dedup_scope", V::S(scalar(&scope)), Some(c)));
                }
                if let Some(rp) = p("RedrivePolicy").and_then(|n| json_object(&cf, n)) {
                    let rpath = format!("{base}.RedrivePolicy");
                    let count = rp
                        .get("maxReceiveCount")
                        .and_then(|n| cf.lit(n))
                        .and_then(|n| n.int())
                        .map(|c| (c, rp.get("maxReceiveCount").unwrap_or(&rp).clone()));
                    match rp.get("deadLetterTargetArn") {
                        Some(t) => dead_letter(
                            &cf,
                            out,
                            &id,
                            t,
                            &format!("{rpath}.deadLetterTargetArn"),
                            count.map(|(c, n)| (c, n, format!("{rpath}.maxReceiveCount"))),
                        ),
                        None => out.note(
                            &id,
                            format!(
                                "TODO: RedrivePolicy without deadLetterTargetArn ({})",
                                out.src(&rpath, &rp)
                            ),
                        ),
                    }
                }
                if let Some(rap) = p("RedriveAllowPolicy").and_then(|n| json_object(&cf, n)) {
                    redrive_allow(
                        &cf,
                        out,
                        &id,
                        lid,
                        &rap,
                        &format!("{base}.RedriveAllowPolicy"),
                    );
                }
            }
            "AWS::SNS::Topic" => {
                boolean(
                    &cf,
                    out,
                    &id,
                    "content_based_dedup",
                    p("ContentBasedDeduplication"),
                    &format!("{base}.ContentBasedDeduplication"),
                );
                for (i, s) in p("Subscription")
                    .and_then(|n| cf.lit(n))
                    .map(|n| n.items().to_vec())
                    .unwrap_or_default()
                    .iter()
                    .enumerate()
                {
                    if let Some(e) = s.get("Endpoint") {
                        subscription(
                            &cf,
                            out,
                            &id,
                            e,
                            &format!("{base}.Subscription[{i}].Endpoint"),
                        );
                    }
                }
            }
            "AWS::Lambda::Function" => {
                duration(
                    &cf,
                    out,
                    &id,
                    "timeout",
                    p("Timeout"),
                    &format!("{base}.Timeout"),
                    1,
                );
                if let Some(t) = p("DeadLetterConfig").and_then(|n| n.get("TargetArn")) {
                    dead_letter(
                        &cf,
                        out,
                        &id,
                        t,
                        &format!("{base}.DeadLetterConfig.TargetArn"),
                        None,
                    );
                }
            }
            "AWS::Serverless::Function" => sam_function(&cf, out, &id, lid, r, &mut fn_hint),
            "AWS::DynamoDB::Table" | "AWS::DynamoDB::GlobalTable" => {
                table(&cf, out, &id, lid, r, ty == "AWS::DynamoDB::GlobalTable")
            }
            "AWS::Kinesis::Stream" => {
                if let Some(n) = p("RetentionPeriodHours")
                    && let Some(h) = cf.lit(n).and_then(|n| n.int())
                    && h > 0
                {
                    let c = out.src(&format!("{base}.RetentionPeriodHours"), n);
                    out.set(
                        &id,
                        F::new("retention", V::S(dur(h as u64 * 3600)), Some(c)),
                    );
                }
            }
            "AWS::Events::Rule" => {
                for (i, t) in p("Targets")
                    .and_then(|n| cf.lit(n))
                    .map(|n| n.items().to_vec())
                    .unwrap_or_default()
                    .iter()
                    .enumerate()
                {
                    event_target(&cf, out, &id, t, &format!("{base}.Targets[{i}]"));
                }
            }
            "AWS::StepFunctions::StateMachine" | "AWS::Serverless::StateMachine" => {
                state_machine(&cf, out, &id, r, &base)
            }
            _ => {}
        }
    }
    for (fid, kind) in fn_hint {
        if let Some(c) = out.comp(&fid)
            && c.kind == "function"
        {
            c.kind = kind.to_string();
        }
    }
    Ok(())
}

fn prop(cf: &Cf, r: &Node, k: &str) -> Option<Node> {
    r.at(&["Properties", k]).and_then(|n| cf.lit(n))
}

/// An object written as a mapping or as a JSON string (RedrivePolicy).
fn json_object(cf: &Cf, n: &Node) -> Option<Node> {
    let v = cf.lit(n)?;
    match &v.value {
        Value::Map(_) => Some(v),
        Value::Str(s) => serde_json::from_str::<serde_json::Value>(s).ok().map(|j| {
            let mut node = super::from_json(j, v.loc.file);
            relocate(&mut node, v.loc);
            node
        }),
        _ => None,
    }
}

fn relocate(n: &mut Node, loc: crate::diagnostics::Loc) {
    n.loc = loc;
    match &mut n.value {
        Value::Seq(items) => items.iter_mut().for_each(|x| relocate(x, loc)),
        Value::Map(m) => m.iter_mut().for_each(|(_, x)| relocate(x, loc)),
        _ => {}
    }
}

fn duration(cf: &Cf, out: &mut Out, id: &str, key: &str, n: Option<&Node>, path: &str, unit: u64) {
    let Some(n) = n else { return };
    match cf.lit(n).and_then(|v| v.int()) {
        Some(v) if v >= 0 => {
            let c = out.src(path, n);
            out.set(id, F::new(key, V::S(dur(v as u64 * unit)), Some(c)));
        }
        _ => out.note(
            id,
            format!(
                "TODO: {key}: `{}` could not be evaluated ({})",
                n.brief(),
                out.src(path, n)
            ),
        ),
    }
}

fn boolean(cf: &Cf, out: &mut Out, id: &str, key: &str, n: Option<&Node>, path: &str) {
    let Some(n) = n else { return };
    if let Some(b) = cf.lit(n).and_then(|v| v.boolean()) {
        let c = out.src(path, n);
        out.set(id, F::new(key, V::S(b.to_string()), Some(c)));
    }
}

/// The component a reference leads to, or a TODO note on `on`.
fn link_target(
    cf: &Cf,
    out: &mut Out,
    on: &str,
    n: &Node,
    path: &str,
    what: &str,
) -> Option<String> {
    match cf.target(n) {
        Ok((r, _)) => match cf.ids.get(&r) {
            Some(id) => Some(id.clone()),
            None => {
                out.note(
                    on,
                    format!(
                        "TODO: {what} {r} ({}), a resource this importer does not read",
                        out.src(path, n)
                    ),
                );
                None
            }
        },
        Err(why) => {
            out.note(on, format!("TODO: {what} {why} ({})", out.src(path, n)));
            None
        }
    }
}

fn dead_letter(
    cf: &Cf,
    out: &mut Out,
    id: &str,
    target: &Node,
    path: &str,
    count: Option<(i64, Node, String)>,
) {
    let Some(to) = link_target(cf, out, id, target, path, "dead_letter to") else {
        return;
    };
    let mut fields = vec![F::new("to", V::S(to), Some(out.src(path, target)))];
    if let Some((c, n, p)) = count
        && c >= 1
    {
        fields.push(F::new(
            "after_receives",
            V::S(c.to_string()),
            Some(out.src(&p, &n)),
        ));
    }
    out.set(id, F::new("dead_letter", V::Map(fields), None));
}

fn redrive_allow(cf: &Cf, out: &mut Out, id: &str, lid: &str, rap: &Node, path: &str) {
    let perm = rap
        .get("redrivePermission")
        .and_then(|n| cf.lit(n))
        .and_then(|n| n.text())
        .unwrap_or_else(|| "allowAll".into());
    if perm == "denyAll" {
        out.note(id, format!("RedriveAllowPolicy denyAll: no queue may use this one as its dead-letter queue ({})", out.src(path, rap)));
        return;
    }
    // The sources: queues whose RedrivePolicy points here.
    let sources: Vec<String> = cf
        .resources
        .iter()
        .filter(|(_, t, _)| t == "AWS::SQS::Queue")
        .filter(|(_, _, r)| {
            r.at(&["Properties", "RedrivePolicy"])
                .and_then(|n| json_object(cf, n))
                .and_then(|rp| rp.get("deadLetterTargetArn").map(|t| cf.target(t)))
                .is_some_and(|t| matches!(t, Ok((ref x, _)) if x == lid))
        })
        .filter_map(|(l, _, _)| cf.ids.get(l).cloned())
        .collect();
    match sources.as_slice() {
        [src] => {
            let c = out.src(&format!("{path}.redrivePermission"), rap);
            out.set(
                id,
                F::new(
                    "redrive",
                    V::Map(vec![
                        F::new("to", V::S(src.clone()), Some(format!("{c}: {perm} lets messages move back to their source"))),
                        F::new("mode", V::S("manual".into()), Some("TODO: manual or automatic? the template cannot tell".into())),
                    ]),
                    Some("TODO: add `within` (how late redrives happen) and `max_times`".into()),
                ),
            );
        }
        [] => out.note(id, format!("RedriveAllowPolicy {perm}: no queue of this template uses this one as its dead-letter queue ({})", out.src(path, rap))),
        many => out.note(
            id,
            format!("TODO: redrive: RedriveAllowPolicy {perm} and several sources ({}); declare the redrive you perform ({})", many.join(", "), out.src(path, rap)),
        ),
    }
}

fn subscription(cf: &Cf, out: &mut Out, topic: &str, endpoint: &Node, path: &str) {
    if let Some(to) = link_target(cf, out, topic, endpoint, path, "delivers_to") {
        let c = out.src(path, endpoint);
        out.push_link(topic, "delivers_to", vec![F::new("to", V::S(to), Some(c))]);
    }
}

/// Lambda event source mapping: the source delivers to the function.
fn esm(cf: &Cf, out: &mut Out, lid: &str, r: &Node, fn_hint: &mut BTreeMap<String, &'static str>) {
    let base = format!("Resources.{lid}.Properties");
    let Some(props) = r.get("Properties") else {
        out.unsupported(
            format!("Resources.{lid} (EventSourceMapping without Properties)"),
            out.src(&base, r),
        );
        return;
    };
    let source = props.get("EventSourceArn").map(|n| (cf.target(n), n));
    let func = props.get("FunctionName").map(|n| (cf.target(n), n));
    match (source, func) {
        (Some((Ok((s, att)), sn)), Some((Ok((f, _)), _))) if cf.ids.contains_key(&f) => {
            let Some(sid) = source_component(cf, out, &s, att.as_deref()) else {
                out.unsupported(format!("Resources.{lid} (EventSourceMapping): source {s} is not read"), out.src(&base, r));
                return;
            };
            let fid = cf.ids[&f].clone();
            fn_hint.entry(fid.clone()).or_insert("lambda-event-source");
            let to_src = out.src(&format!("{base}.FunctionName"), props.get("FunctionName").unwrap_or(sn));
            mapping_link(cf, out, &sid, &fid, props, &base, to_src);
        }
        _ => out.unsupported(
            format!("Resources.{lid} (EventSourceMapping): source or function is not a resource of this template"),
            out.src(&base, r),
        ),
    }
}

/// The component of an event source: a queue or stream, or the stream of a
/// DynamoDB table (created on first use as `<table>-stream`).
fn source_component(cf: &Cf, out: &mut Out, res: &str, att: Option<&str>) -> Option<String> {
    let id = cf.ids.get(res)?.clone();
    if matches!(
        cf.ty(res),
        Some("AWS::DynamoDB::Table" | "AWS::DynamoDB::GlobalTable")
    ) || att == Some("StreamArn")
    {
        let sid = format!("{id}-stream");
        if !out.has(&sid) {
            let from = format!("DynamoDB stream of Resources.{res}");
            out.add(&sid, "stream", from);
            out.set(
                &sid,
                F::new(
                    "retention",
                    V::S("24h".into()),
                    Some("DynamoDB Streams keep records for 24 hours".into()),
                ),
            );
        }
        return Some(sid);
    }
    Some(id)
}

/// `delivers_to` with the mapping's retry settings, and its failure destination.
fn mapping_link(
    cf: &Cf,
    out: &mut Out,
    source: &str,
    func: &str,
    props: &Node,
    base: &str,
    to_src: String,
) {
    let mut link = vec![F::new("to", V::S(func.to_string()), Some(to_src))];
    if let Some(n) = props.get("MaximumRetryAttempts")
        && let Some(v) = cf.lit(n).and_then(|x| x.int())
    {
        let c = out.src(&format!("{base}.MaximumRetryAttempts"), n);
        if v >= 0 {
            link.push(F::retry_attempts(v, &c));
        } else {
            out.note(source, format!("MaximumRetryAttempts -1 on the mapping to {func}: retried until the record expires ({c})"));
        }
    }
    if let Some(n) = props.get("MaximumRecordAgeInSeconds")
        && let Some(v) = cf.lit(n).and_then(|x| x.int())
    {
        let c = out.src(&format!("{base}.MaximumRecordAgeInSeconds"), n);
        if v > 0 {
            link.push(F::new("max_record_age", V::S(dur(v as u64)), Some(c)));
        } else {
            out.note(source, format!("MaximumRecordAgeInSeconds {v} on the mapping to {func}: records are retried until they expire ({c})"));
        }
    }
    if let Some(n) = props.get("BisectBatchOnFunctionError")
        && cf.lit(n).and_then(|x| x.boolean()) == Some(true)
    {
        let c = out.src(&format!("{base}.BisectBatchOnFunctionError"), n);
        out.note(source, format!("BisectBatchOnFunctionError true on the mapping to {func}: a failing batch is split and its good records are processed again ({c})"));
    }
    out.push_link(source, "delivers_to", link);
    if let Some(d) = props.at(&["DestinationConfig", "OnFailure", "Destination"]) {
        dead_letter(
            cf,
            out,
            source,
            d,
            &format!("{base}.DestinationConfig.OnFailure.Destination"),
            None,
        );
        out.note(source, format!("the on-failure destination of the mapping to {func} receives a record pointing at the failed batch, not its data"));
    }
}

fn invoke_config(cf: &Cf, out: &mut Out, fid: &str, props: &Node, base: &str) {
    if let Some(n) = props.get("MaximumEventAgeInSeconds") {
        duration(
            cf,
            out,
            fid,
            "max_event_age",
            Some(n),
            &format!("{base}.MaximumEventAgeInSeconds"),
            1,
        );
    }
    if let Some(n) = props.get("MaximumRetryAttempts")
        && let Some(v) = cf.lit(n).and_then(|x| x.int())
    {
        let c = out.src(&format!("{base}.MaximumRetryAttempts"), n);
        out.note(fid, format!("asynchronous invocation retries a failed event {v} time(s) ({c}); duplicates arrive for up to max_event_age"));
    }
    for (kind, key) in [("OnFailure", "dead_letter"), ("OnSuccess", "")] {
        if let Some(d) = props.at(&["DestinationConfig", kind, "Destination"]) {
            let p = format!("{base}.DestinationConfig.{kind}.Destination");
            if key.is_empty() {
                if let Some(to) = link_target(cf, out, fid, d, &p, "on-success destination") {
                    let c = out.src(&p, d);
                    out.push_link(fid, "sends_to", vec![F::new("to", V::S(to), Some(c))]);
                }
            } else {
                dead_letter(cf, out, fid, d, &p, None);
            }
        }
    }
}

fn sam_function(
    cf: &Cf,
    out: &mut Out,
    id: &str,
    lid: &str,
    r: &Node,
    fn_hint: &mut BTreeMap<String, &'static str>,
) {
    let base = format!("Resources.{lid}.Properties");
    let p = |k: &str| r.at(&["Properties", k]);
    match p("Timeout") {
        Some(n) => duration(
            cf,
            out,
            id,
            "timeout",
            Some(n),
            &format!("{base}.Timeout"),
            1,
        ),
        None => {
            if let Some(n) = cf.root.at(&["Globals", "Function", "Timeout"]) {
                duration(
                    cf,
                    out,
                    id,
                    "timeout",
                    Some(n),
                    "Globals.Function.Timeout",
                    1,
                );
            }
        }
    }
    if let Some(dlq) = p("DeadLetterQueue").and_then(|n| n.get("TargetArn")) {
        dead_letter(
            cf,
            out,
            id,
            dlq,
            &format!("{base}.DeadLetterQueue.TargetArn"),
            None,
        );
    }
    if let Some(eic) = p("EventInvokeConfig") {
        invoke_config(cf, out, id, eic, &format!("{base}.EventInvokeConfig"));
        fn_hint.insert(id.to_string(), "lambda-async");
    }
    for (ename, ev) in p("Events").map(Node::entries).unwrap_or(&[]) {
        let epath = format!("{base}.Events.{ename}");
        let ety = ev
            .get("Type")
            .and_then(|n| cf.lit(n))
            .and_then(|n| n.text())
            .unwrap_or_default();
        let props = ev
            .get("Properties")
            .cloned()
            .unwrap_or_else(|| Node::new(Value::Map(Vec::new()), ev.loc));
        let ppath = format!("{epath}.Properties");
        match ety.as_str() {
            "SQS" | "Kinesis" | "DynamoDB" => {
                let key = if ety == "SQS" { "Queue" } else { "Stream" };
                let Some(sn) = props.get(key) else {
                    out.note(
                        id,
                        format!(
                            "TODO: event {ename} ({ety}) has no {key} ({})",
                            out.src(&epath, ev)
                        ),
                    );
                    continue;
                };
                match cf.target(sn) {
                    Ok((s, att)) => match source_component(cf, out, &s, att.as_deref()) {
                        Some(sid) => {
                            fn_hint
                                .entry(id.to_string())
                                .or_insert("lambda-event-source");
                            let to_src = out.src(&format!("{epath} (event of {lid})"), ev);
                            mapping_link(cf, out, &sid, id, &props, &ppath, to_src);
                        }
                        None => out.note(
                            id,
                            format!(
                                "TODO: event {ename}: source {s} is not read ({})",
                                out.src(&format!("{ppath}.{key}"), sn)
                            ),
                        ),
                    },
                    Err(why) => out.note(
                        id,
                        format!(
                            "TODO: event {ename}: source {why} ({})",
                            out.src(&format!("{ppath}.{key}"), sn)
                        ),
                    ),
                }
            }
            "SNS" => match props.get("Topic").map(|t| (cf.target(t), t)) {
                Some((Ok((t, _)), tn)) if cf.ids.contains_key(&t) => {
                    let tid = cf.ids[&t].clone();
                    let c = out.src(&format!("{ppath}.Topic"), tn);
                    out.push_link(
                        &tid,
                        "delivers_to",
                        vec![F::new("to", V::S(id.to_string()), Some(c))],
                    );
                    fn_hint.insert(id.to_string(), "lambda-async");
                }
                _ => out.note(
                    id,
                    format!(
                        "TODO: event {ename} (SNS): topic not in this template ({})",
                        out.src(&epath, ev)
                    ),
                ),
            },
            "EventBridgeRule" | "CloudWatchEvent" => {
                let rid = out.add(
                    &kebab(&format!("{lid}{ename}")),
                    "eventbridge",
                    format!("{ety} event of {lid}, {}", out.src(&epath, ev)),
                );
                let mut link = vec![F::new(
                    "to",
                    V::S(id.to_string()),
                    Some(out.src(&epath, ev)),
                )];
                retry_policy(cf, out, &rid, &props, &ppath, &mut link);
                out.push_link(&rid, "delivers_to", link);
                if let Some(d) = props.at(&["DeadLetterConfig", "Arn"]) {
                    dead_letter(
                        cf,
                        out,
                        &rid,
                        d,
                        &format!("{ppath}.DeadLetterConfig.Arn"),
                        None,
                    );
                } else if props.at(&["DeadLetterConfig", "Type"]).is_some() {
                    out.note(&rid, format!("TODO: SAM creates a dead-letter queue for this rule; declare it as a component ({})", out.src(&format!("{ppath}.DeadLetterConfig"), &props)));
                }
                fn_hint.insert(id.to_string(), "lambda-async");
            }
            _ => out.unsupported(format!("{epath} (event type {ety})"), out.src(&epath, ev)),
        }
    }
}

/// EventBridge RetryPolicy on a target: `retry` and `max_record_age` on the link.
fn retry_policy(cf: &Cf, out: &mut Out, rule: &str, t: &Node, path: &str, link: &mut Vec<F>) {
    match t.get("RetryPolicy") {
        Some(rp) => {
            if let Some(n) = rp.get("MaximumRetryAttempts")
                && let Some(v) = cf.lit(n).and_then(|x| x.int())
                && v >= 0
            {
                let c = out.src(&format!("{path}.RetryPolicy.MaximumRetryAttempts"), n);
                link.push(F::retry_attempts(v, &c));
            }
            if let Some(n) = rp.get("MaximumEventAgeInSeconds")
                && let Some(v) = cf.lit(n).and_then(|x| x.int())
                && v > 0
            {
                let c = out.src(&format!("{path}.RetryPolicy.MaximumEventAgeInSeconds"), n);
                link.push(F::new(
                    "max_record_age",
                    V::S(dur(v as u64)),
                    Some(c.clone()),
                ));
                out.set(
                    rule,
                    F::new("max_event_age", V::S(dur(v as u64)), Some(c.clone())),
                );
                out.set(
                    rule,
                    F::new(
                        "retention",
                        V::S(dur(v as u64)),
                        Some(format!(
                            "{c}: EventBridge keeps retrying an event this long"
                        )),
                    ),
                );
            }
        }
        None => {
            link.push(F::new(
                "max_record_age",
                V::S("24h".into()),
                Some("EventBridge default maximum event age (no RetryPolicy)".into()),
            ));
        }
    }
}

fn event_target(cf: &Cf, out: &mut Out, rule: &str, t: &Node, path: &str) {
    let Some(arn) = t.get("Arn") else { return };
    if out
        .comp(rule)
        .is_some_and(|c| !c.fields.iter().any(|f| f.key == "delivery"))
    {
        out.set(
            rule,
            F::new(
                "delivery",
                V::S("at-least-once".into()),
                Some("EventBridge delivers to targets at least once".into()),
            ),
        );
        out.set(
            rule,
            F::new(
                "retention",
                V::S("24h".into()),
                Some("EventBridge default maximum event age".into()),
            ),
        );
    }
    let Some(to) = link_target(cf, out, rule, arn, &format!("{path}.Arn"), "delivers_to") else {
        return;
    };
    let mut link = vec![F::new(
        "to",
        V::S(to.clone()),
        Some(out.src(&format!("{path}.Arn"), arn)),
    )];
    retry_policy(cf, out, rule, t, path, &mut link);
    if !link.iter().any(|f| f.key == "max_record_age") {
        link.push(F::new(
            "max_record_age",
            V::S("24h".into()),
            Some("EventBridge default maximum event age".into()),
        ));
    }
    out.push_link(rule, "delivers_to", link);
    if let Some(d) = t.at(&["DeadLetterConfig", "Arn"]) {
        dead_letter(
            cf,
            out,
            rule,
            d,
            &format!("{path}.DeadLetterConfig.Arn"),
            None,
        );
    }
}

fn table(cf: &Cf, out: &mut Out, id: &str, lid: &str, r: &Node, global: bool) {
    let base = format!("Resources.{lid}.Properties");
    let ttl = r.at(&["Properties", "TimeToLiveSpecification"]);
    if let Some(t) = ttl {
        let enabled = t
            .get("Enabled")
            .and_then(|n| cf.lit(n))
            .and_then(|n| n.boolean())
            .unwrap_or(false);
        let attr = t
            .get("AttributeName")
            .and_then(|n| cf.lit(n))
            .and_then(|n| n.text())
            .unwrap_or_default();
        let path = format!("{base}.TimeToLiveSpecification");
        if enabled {
            let c = out.src(&format!("{path}.Enabled"), t.get("Enabled").unwrap_or(t));
            out.set(
                id,
                F::new(
                    "expiry",
                    V::S("physical-ttl".into()),
                    Some(format!("{c}: items expire by TTL on `{attr}`")),
                ),
            );
            out.note(
                id,
                "TODO: retention: how long the application sets the TTL attribute after a claim"
                    .into(),
            );
        }
    } else {
        out.note(
            id,
            "TODO: retention and expiry (application | physical-ttl): the template sets no TTL"
                .into(),
        );
    }
    if global {
        let replicas = r
            .at(&["Properties", "Replicas"])
            .and_then(|n| cf.lit(n))
            .map(|n| n.items().to_vec())
            .unwrap_or_default();
        let mut regions = Vec::new();
        for (i, rep) in replicas.iter().enumerate() {
            match rep
                .get("Region")
                .map(|n| (cf.lit(n).and_then(|x| x.text()), n))
            {
                Some((Some(reg), n)) if crate::manifest::load::is_valid_id(&reg) => {
                    let c = out.src(&format!("{base}.Replicas[{i}].Region"), n);
                    out.region(&reg, c);
                    regions.push(reg);
                }
                Some((_, n)) => out.note(
                    id,
                    format!(
                        "TODO: replica region `{}` is known only at deployment ({})",
                        n.brief(),
                        out.src(&format!("{base}.Replicas[{i}].Region"), n)
                    ),
                ),
                None => {}
            }
        }
        if !regions.is_empty() {
            let c = out.src(
                &format!("{base}.Replicas"),
                r.at(&["Properties", "Replicas"]).unwrap_or(r),
            );
            out.set(id, F::new("regions", V::List(regions), Some(c)));
        }
        let strong = r
            .at(&["Properties", "MultiRegionConsistency"])
            .and_then(|n| cf.lit(n))
            .and_then(|n| n.text());
        let (rep, why) = match strong.as_deref() {
            Some("STRONG") => (
                "sync",
                format!(
                    "MultiRegionConsistency STRONG ({})",
                    out.src(&format!("{base}.MultiRegionConsistency"), r)
                ),
            ),
            _ => (
                "async",
                "global tables replicate asynchronously unless MultiRegionConsistency is STRONG"
                    .to_string(),
            ),
        };
        out.set(id, F::new("replication", V::S(rep.into()), Some(why)));
        if rep == "async" {
            out.set(
                id,
                F::new(
                    "mode",
                    V::S("active-active".into()),
                    Some("every replica accepts writes".into()),
                ),
            );
        }
    }
}

/// Step Functions: each Task state's Retry becomes the retry of a `calls`
/// link to the resource it invokes.
fn state_machine(cf: &Cf, out: &mut Out, id: &str, r: &Node, base: &str) {
    let subs: BTreeMap<String, Node> = r
        .at(&["Properties", "DefinitionSubstitutions"])
        .map(Node::entries)
        .unwrap_or(&[])
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let (def, path) = if let Some(d) = r.at(&["Properties", "Definition"]) {
        (cf.lit(d), format!("{base}.Definition"))
    } else if let Some(d) = r.at(&["Properties", "DefinitionString"]) {
        let text = cf.lit(d).and_then(|n| n.text());
        let node = text
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .map(|j| {
                let mut n = super::from_json(j, d.loc.file);
                relocate(&mut n, d.loc);
                n
            });
        (node, format!("{base}.DefinitionString"))
    } else {
        out.note(id, "TODO: the definition is not inline (DefinitionS3Location / DefinitionUri): retries not imported".into());
        return;
    };
    let Some(def) = def else {
        out.note(
            id,
            format!("TODO: the definition could not be read ({path})"),
        );
        return;
    };
    let mut calls: Vec<(String, Vec<F>)> = Vec::new();
    walk_states(cf, out, id, &def, &path, &subs, &mut calls, 0);
    for (_, link) in calls {
        out.push_link(id, "calls", link);
    }
}

#[allow(clippy::too_many_arguments)]
fn walk_states(
    cf: &Cf,
    out: &mut Out,
    id: &str,
    def: &Node,
    path: &str,
    subs: &BTreeMap<String, Node>,
    calls: &mut Vec<(String, Vec<F>)>,
    depth: usize,
) {
    if depth > 16 {
        return;
    }
    for (name, st) in def.get("States").map(Node::entries).unwrap_or(&[]) {
        let spath = format!("{path}.States.{name}");
        for (i, b) in st
            .get("Branches")
            .map(Node::items)
            .unwrap_or(&[])
            .iter()
            .enumerate()
        {
            walk_states(
                cf,
                out,
                id,
                b,
                &format!("{spath}.Branches[{i}]"),
                subs,
                calls,
                depth + 1,
            );
        }
        for k in ["Iterator", "ItemProcessor"] {
            if let Some(inner) = st.get(k) {
                walk_states(
                    cf,
                    out,
                    id,
                    inner,
                    &format!("{spath}.{k}"),
                    subs,
                    calls,
                    depth + 1,
                );
            }
        }
        if st.get("Type").and_then(Node::str) != Some("Task") {
            continue;
        }
        let target = st
            .at(&["Parameters", "FunctionName"])
            .or_else(|| st.at(&["Arguments", "FunctionName"]))
            .or_else(|| st.get("Resource"));
        let resolved = target.and_then(|t| {
            // An intrinsic (`!GetAtt PayFunction.Arn`, `!Ref`) names the resource itself.
            if let Ok((r, _)) = cf.target(t) {
                return Some(r);
            }
            let text = t.text()?;
            let text = match text.strip_prefix("${").and_then(|x| x.strip_suffix('}')) {
                Some(var) if subs.contains_key(var) => {
                    return cf.target(&subs[var]).ok().map(|(r, _)| r);
                }
                _ => text,
            };
            cf.target(&Node::new(Value::Str(text), t.loc))
                .ok()
                .map(|(r, _)| r)
        });
        let to = resolved.and_then(|r| cf.ids.get(&r).cloned());
        let retriers = st.get("Retry").map(Node::items).unwrap_or(&[]);
        let best = retriers
            .iter()
            .enumerate()
            .max_by_key(|(_, r)| r.get("MaxAttempts").and_then(Node::int).unwrap_or(3));
        let Some(to) = to else {
            let t = target.map(Node::brief).unwrap_or_else(|| "?".into());
            out.note(
                id,
                format!(
                    "TODO: task {name} calls `{t}`, not a resource of this template ({})",
                    out.src(&spath, st)
                ),
            );
            continue;
        };
        let mut link = vec![F::new("to", V::S(to.clone()), Some(out.src(&spath, st)))];
        if let Some((i, r)) = best {
            let rp = format!("{spath}.Retry[{i}]");
            let get = |k: &str| r.get(k);
            let attempts = get("MaxAttempts").and_then(Node::int).unwrap_or(3);
            let interval = get("IntervalSeconds").and_then(Node::int).unwrap_or(1);
            let rate = get("BackoffRate").and_then(Node::float).unwrap_or(2.0);
            let src = |k: &str, dflt: &str| match get(k) {
                Some(n) => out.src(&format!("{rp}.{k}"), n),
                None => format!("Step Functions default {dflt}"),
            };
            let mut rf = vec![
                F::new(
                    "attempts",
                    V::S((attempts.max(0) + 1).to_string()),
                    Some(format!(
                        "{}: {attempts} retries + the first attempt",
                        src("MaxAttempts", "3")
                    )),
                ),
                F::new(
                    "backoff",
                    V::S(dur(interval.max(0) as u64)),
                    Some(src("IntervalSeconds", "1s")),
                ),
                F::new(
                    "multiplier",
                    V::S(if rate >= 1.0 {
                        format!("{rate}")
                    } else {
                        "1".into()
                    }),
                    Some(src("BackoffRate", "2.0")),
                ),
            ];
            if let Some(n) = get("MaxDelaySeconds")
                && let Some(v) = n.int()
            {
                rf.push(F::new(
                    "max_backoff",
                    V::S(dur(v.max(0) as u64)),
                    Some(out.src(&format!("{rp}.MaxDelaySeconds"), n)),
                ));
            }
            link.push(F::new("retry", V::Map(rf), None));
            if retriers.len() > 1 {
                out.note(id, format!("task {name} has {} retriers; the one with the most attempts is imported ({})", retriers.len(), out.src(&spath, st)));
            }
        }
        link.push(F::new(
            "passes_key",
            V::S("false".into()),
            Some("TODO: does the task pass the idempotency key?".into()),
        ));
        if !calls.iter().any(|(t, _)| t == &to) {
            calls.push((to, link));
        }
    }
}
