//! Evaluating a template's intrinsic functions (`Ref`, `GetAtt`, `Sub`,
//! `Join`, `Select`, `Split`, `If`, `FindInMap`), its conditions and its
//! parameters, and finding the resource a value points at.

use std::collections::BTreeMap;

use crate::diagnostics::{Diagnostic, Loc};
use crate::import::{Node, Value};

/// An evaluated value.
#[derive(Debug, Clone)]
pub(super) enum Ev {
    Lit(Node),
    /// A resource of the template (`Ref X`, `GetAtt X.Attr`).
    Res(String, Option<String>),
    /// Known only at deployment.
    Unknown(String),
}

/// A template being read: its root, the parameter values in force, its
/// resources (logical id, type, node) and the component id of each
/// resource that became one.
pub(super) struct Cf<'a> {
    pub(super) root: &'a Node,
    pub(super) params: BTreeMap<String, Node>,
    pub(super) resources: Vec<(String, String, &'a Node)>,
    pub(super) ids: BTreeMap<String, String>,
    /// The limits for files the template names (state machine definitions).
    pub(super) limits: &'a crate::manifest::Limits,
    /// What the other templates imported with this one export and name.
    pub(super) links: &'a Links,
    /// This template's place among those read together (`(in LABEL)` in
    /// the keys of its resources): its file, and for a nested stack the
    /// stack resources leading to it.
    pub(super) label: String,
    /// Parameters a parent stack sets to one of its resources (or of
    /// another template): name → (key, attribute).
    pub(super) bound: BTreeMap<String, (String, Option<String>)>,
}

/// The key of resource `lid` of the template labelled `label`.
pub(super) fn key(label: &str, lid: &str) -> String {
    format!("{lid} (in {label})")
}

/// The resources of other templates this one may refer to, by key (the
/// logical id and its template, `Queue (in a.yaml)`: never a logical id,
/// which is alphanumeric): exports by name, and resources by the physical
/// name an ARN ends with.
#[derive(Debug, Default)]
pub(super) struct Links {
    /// Export name → (key, attribute of the exported `GetAtt`).
    pub(super) exports: BTreeMap<String, (String, Option<String>)>,
    /// Physical name (`QueueName`, `TableName`, ...) → keys.
    pub(super) names: BTreeMap<String, Vec<String>>,
    /// Key → (resource type, component id).
    pub(super) keys: BTreeMap<String, (String, String)>,
    /// A nested stack read (by the key of its stack resource) → its
    /// outputs by name, evaluated in the nested template (resources by
    /// key), so `!GetAtt Stack.Outputs.X` is the value the child gives.
    pub(super) outputs: BTreeMap<String, BTreeMap<String, Ev>>,
}

/// No other template.
pub(super) static NO_LINKS: Links = Links {
    exports: BTreeMap::new(),
    names: BTreeMap::new(),
    keys: BTreeMap::new(),
    outputs: BTreeMap::new(),
};

/// The properties a resource's physical name is read from, for a match
/// with the last part of an ARN or URL.
pub(super) const NAME_PROPERTIES: [&str; 7] = [
    "QueueName",
    "FunctionName",
    "TopicName",
    "TableName",
    "Name",
    "StateMachineName",
    "StreamName",
];

const MAX_EVAL_DEPTH: usize = 48;

pub(super) fn intrinsic(node: &Node) -> Option<(String, &Node)> {
    if let Some(tag) = node.tag() {
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
                && (matches!(m[0].0.key(), "Ref" | "Condition")
                    || m[0].0.key().starts_with("Fn::")) =>
        {
            Some((m[0].0.key().to_string(), &m[0].1))
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

/// The parameter values: `--parameter` wins, then `Default`. A
/// `--parameter` the template does not declare is an error.
pub(super) fn parameters(
    root: &Node,
    params: &[(String, String)],
) -> Result<BTreeMap<String, Node>, Diagnostic> {
    match undeclared(&[root], params) {
        Some(d) => Err(d),
        None => Ok(values(root, params)),
    }
}

/// The values of the parameters `root` declares: `--parameter` wins, then
/// `Default`; a parameter without either has none.
pub(super) fn values(root: &Node, params: &[(String, String)]) -> BTreeMap<String, Node> {
    let mut pvals = BTreeMap::new();
    for (name, p) in root.get("Parameters").map(Node::entries).unwrap_or(&[]) {
        let value = if let Some((_, v)) = params.iter().find(|(k, _)| k == name.key()) {
            Node::string(v.clone(), p.loc)
        } else if let Some(d) = p.get("Default") {
            d.clone()
        } else {
            continue;
        };
        pvals.insert(name.key().to_string(), list_parameter(p, value));
    }
    pvals
}

/// The error for the first `--parameter` that none of `roots` declares
/// (several templates: each takes the parameters it declares).
pub(super) fn undeclared(roots: &[&Node], params: &[(String, String)]) -> Option<Diagnostic> {
    let declared = |root: &Node, k: &str| root.at(&["Parameters", k]).is_some();
    let (k, _) = params
        .iter()
        .find(|(k, _)| !roots.iter().any(|r| declared(r, k)))?;
    let known: Vec<&str> = roots
        .iter()
        .flat_map(|r| r.get("Parameters").map(Node::entries).unwrap_or(&[]))
        .map(|(k, _)| k.key())
        .collect();
    let (what, none) = if roots.len() == 1 {
        ("the template has no", "the template declares no parameters")
    } else {
        ("no template has a", "the templates declare no parameters")
    };
    let help = match crate::diagnostics::suggest(k, known.iter().copied()) {
        Some(s) => format!("did you mean `{s}`?"),
        None if known.is_empty() => none.to_string(),
        None if roots.len() == 1 => format!("the template's parameters are: {}", known.join(", ")),
        None => format!("the templates' parameters are: {}", known.join(", ")),
    };
    Some(
        Diagnostic::new(
            None,
            format!("`--parameter {k}=...`: {what} parameter `{k}`"),
        )
        .help(help),
    )
}

/// The value of a `CommaDelimitedList` or `List<...>` parameter as a list:
/// its text split at commas, each member space-trimmed as CloudFormation
/// does, so `!Select [1, !Ref Regions]` picks a member.
pub(super) fn list_parameter(decl: &Node, value: Node) -> Node {
    let ty = decl.get("Type").and_then(Node::str).unwrap_or_default();
    let is_list = ty == "CommaDelimitedList" || ty.starts_with("List<");
    match &value.value {
        Value::Str(text) if is_list => Node::new(
            Value::Seq(
                text.split(',')
                    .map(|m| Node::new(Value::Str(m.trim().to_string()), value.loc))
                    .collect(),
            ),
            value.loc,
        ),
        _ => value,
    }
}

impl<'a> Cf<'a> {
    pub(super) fn eval(&self, node: &Node) -> Ev {
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
        match f.as_str() {
            "Ref" => self.reference(&arg),
            "Fn::GetAtt" => self.get_att(&arg, d),
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
            "Fn::Join" => self.join(&arg, d),
            "Fn::Select" => self.select(&arg, d),
            "Fn::Split" => self.split(&arg, d),
            "Fn::If" => self.if_(&arg, d),
            "Fn::Equals" | "Fn::Not" | "Fn::And" | "Fn::Or" | "Condition" => {
                match self.cond_node(node, d + 1) {
                    Some(b) => Ev::Lit(Node::new(Value::Bool(b), arg.loc)),
                    None => Ev::Unknown(arg.brief()),
                }
            }
            "Fn::FindInMap" => self.find_in_map(&arg, d),
            "Fn::Base64" => self.eval_d(&arg, d + 1),
            "Fn::ImportValue" => self.import_value(&arg, d),
            _ => Ev::Unknown(format!("{f} {}", arg.brief())),
        }
    }

    /// The literal an argument of a function at depth `d` evaluates to.
    fn lit_at(&self, n: &Node, d: usize) -> Option<Node> {
        match self.eval_d(n, d + 1) {
            Ev::Lit(x) => Some(x),
            _ => None,
        }
    }

    /// `Ref`: a parameter, `AWS::NoValue`, or a resource.
    fn reference(&self, arg: &Node) -> Ev {
        let Some(name) = arg.str() else {
            return Ev::Unknown(arg.brief());
        };
        if let Some(p) = self.params.get(name) {
            return Ev::Lit(p.clone());
        }
        if let Some((k, a)) = self.bound.get(name) {
            return self.via_outputs(k.clone(), a.clone());
        }
        if name == "AWS::NoValue" {
            return Ev::Lit(Node::new(Value::Null, arg.loc));
        }
        if self.resources.iter().any(|(id, _, _)| id == name) {
            return Ev::Res(name.to_string(), None);
        }
        Ev::Unknown(name.to_string())
    }

    fn get_att(&self, arg: &Node, d: usize) -> Ev {
        let (res, att) = match &arg.value {
            Value::Str(s) => match s.split_once('.') {
                Some((r, a)) => (r.to_string(), Some(a.to_string())),
                None => (s.clone(), None),
            },
            Value::Seq(items) => (
                items
                    .first()
                    .and_then(|n| self.lit_at(n, d))
                    .and_then(|n| n.text())
                    .unwrap_or_default(),
                items
                    .get(1)
                    .and_then(|n| self.lit_at(n, d))
                    .and_then(|n| n.text()),
            ),
            _ => return Ev::Unknown(arg.brief()),
        };
        self.via_outputs(res, att)
    }

    /// `GetAtt Stack.Outputs.X` of a nested stack that was read: the
    /// value its template gives output `X`; any other reference as it is.
    /// `res` is a logical id of this template or a key.
    pub(super) fn via_outputs(&self, res: String, att: Option<String>) -> Ev {
        let Some(name) = att.as_deref().and_then(|a| a.strip_prefix("Outputs.")) else {
            return Ev::Res(res, att);
        };
        let local = self.resources.iter().any(|(id, _, _)| *id == res);
        let k = if local {
            key(&self.label, &res)
        } else {
            res.clone()
        };
        if let Some(ev) = self.links.outputs.get(&k).and_then(|o| o.get(name)) {
            return ev.clone();
        }
        // A stack not read: the placeholder of that output, if a link reads it.
        let placeholder = key(&self.label, &format!("{res}.Outputs.{name}"));
        match local && self.links.keys.contains_key(&placeholder) {
            true => Ev::Res(placeholder, None),
            false => Ev::Res(res, att),
        }
    }

    /// `ImportValue`: the resource another template given with this one
    /// exports under that name, else known only at deployment.
    fn import_value(&self, arg: &Node, d: usize) -> Ev {
        let name = self.lit_at(arg, d).and_then(|n| n.text());
        match name.and_then(|n| self.links.exports.get(&n)) {
            Some((key, att)) => Ev::Res(key.clone(), att.clone()),
            None => Ev::Unknown(format!("Fn::ImportValue {}", arg.brief())),
        }
    }

    fn join(&self, arg: &Node, d: usize) -> Ev {
        let items = arg.items();
        let (Some(delim), Some(list)) = (items.first().and_then(|n| n.text()), items.get(1)) else {
            return Ev::Unknown(arg.brief());
        };
        let Some(list) = self.lit_at(list, d) else {
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
        Ev::Lit(Node::string(parts.join(&delim), arg.loc))
    }

    fn select(&self, arg: &Node, d: usize) -> Ev {
        let items = arg.items();
        let idx = items
            .first()
            .and_then(|n| self.lit_at(n, d))
            .and_then(|n| n.int());
        let list = items.get(1).and_then(|n| self.lit_at(n, d));
        match (idx, list) {
            (Some(i), Some(l)) if i >= 0 => match l.items().get(i as usize) {
                Some(n) => self.eval_d(n, d + 1),
                None => Ev::Unknown(arg.brief()),
            },
            _ => Ev::Unknown(arg.brief()),
        }
    }

    fn split(&self, arg: &Node, d: usize) -> Ev {
        let items = arg.items();
        match (
            items.first().and_then(|n| n.text()),
            items
                .get(1)
                .and_then(|n| self.lit_at(n, d))
                .and_then(|n| n.text()),
        ) {
            (Some(delim), Some(s)) if !delim.is_empty() => Ev::Lit(Node::new(
                Value::Seq(s.split(&delim).map(|p| Node::string(p, arg.loc)).collect()),
                arg.loc,
            )),
            _ => Ev::Unknown(arg.brief()),
        }
    }

    fn if_(&self, arg: &Node, d: usize) -> Ev {
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

    fn find_in_map(&self, arg: &Node, d: usize) -> Ev {
        let items = arg.items();
        let keys: Vec<Option<String>> = items
            .iter()
            .take(3)
            .map(|n| self.lit_at(n, d).and_then(|x| x.text()))
            .collect();
        match keys.as_slice() {
            [Some(m), Some(k1), Some(k2)] => match self.root.at(&["Mappings", m, k1, k2]) {
                Some(n) => self.eval_d(n, d + 1),
                None => Ev::Unknown(format!("FindInMap {m}.{k1}.{k2}")),
            },
            _ => Ev::Unknown(arg.brief()),
        }
    }

    fn sub(&self, text: &str, vars: Option<&Node>, loc: Loc, d: usize) -> Ev {
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
                    None if self.bound.contains_key(name) => {
                        let (k, a) = &self.bound[name];
                        self.via_outputs(k.clone(), a.clone())
                    }
                    None => {
                        let (r, a) = match name.split_once('.') {
                            Some((r, a)) => (r, Some(a.to_string())),
                            None => (name, None),
                        };
                        if self.resources.iter().any(|(id, _, _)| id == r) {
                            self.via_outputs(r.to_string(), a)
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
        single_res.unwrap_or_else(|| Ev::Lit(Node::string(out, loc)))
    }

    pub(super) fn condition(&self, name: &str, d: usize) -> Option<bool> {
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
    pub(super) fn lit(&self, n: &Node) -> Option<Node> {
        match self.eval(n) {
            Ev::Lit(x) if x.value != Value::Null => Some(x),
            _ => None,
        }
    }

    /// The type of a resource of this template, or of another's by key.
    pub(super) fn ty(&self, id: &str) -> Option<&str> {
        self.resources
            .iter()
            .find(|(r, _, _)| r == id)
            .map(|(_, t, _)| t.as_str())
            .or_else(|| self.links.keys.get(id).map(|(t, _)| t.as_str()))
    }

    /// The component of a resource of this template, or of another's by key.
    pub(super) fn id(&self, res: &str) -> Option<&String> {
        self.ids
            .get(res)
            .or_else(|| self.links.keys.get(res).map(|(_, c)| c))
    }

    /// The logical id a value points at: `Ref`/`GetAtt`, `${X.Arn}`, or an
    /// ARN or name matching a resource's name property.
    pub(super) fn target(&self, n: &Node) -> Result<(String, Option<String>), String> {
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
                    for p in NAME_PROPERTIES {
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
                if let Some(found) = super::stacks::named(self.links, &text) {
                    return Ok(found);
                }
                Err(format!("`{text}` names no resource of this template"))
            }
        }
    }
}
