//! Why a condition has no value before deployment: it names an undeclared
//! condition, refers to itself, or uses a pseudo parameter or a parameter
//! without a value. A resource under such a condition is kept with a note
//! saying why, rather than silently read as deployed.

use std::collections::BTreeSet;

use super::intrinsics::Cf;
use crate::import::{Node, Value};

const MAX_DEPTH: usize = 48;

impl Cf<'_> {
    /// Why condition `name` cannot be evaluated with these parameters.
    pub(super) fn undecided(&self, name: &str) -> String {
        let mut path = Vec::new();
        let mut done = BTreeSet::new();
        let named = Node::string(name, Default::default());
        self.cond_ref(&named, &mut path, &mut done, 0)
            .unwrap_or_else(|| "cannot be evaluated with these parameters".to_string())
    }

    /// A `Condition` reference: undeclared, a cycle, or its definition's reason.
    fn cond_ref(
        &self,
        arg: &Node,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
        d: usize,
    ) -> Option<String> {
        let name = arg.str()?;
        if path.iter().any(|p| p == name) {
            path.push(name.to_string());
            return Some(format!("refers to itself ({})", path.join(" → ")));
        }
        if done.contains(name) {
            return None;
        }
        let Some(def) = self.root.at(&["Conditions", name]) else {
            return Some(format!(
                "uses `{name}`, which is not declared under `Conditions`"
            ));
        };
        path.push(name.to_string());
        let why = self.why(def, path, done, d + 1);
        path.pop();
        done.insert(name.to_string());
        why
    }

    fn why(
        &self,
        node: &Node,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
        d: usize,
    ) -> Option<String> {
        if d > MAX_DEPTH {
            return Some("is nested too deeply".to_string());
        }
        // A tagged node is its own argument (`!Ref X`: the text `X`).
        let (f, arg) = super::intrinsics::intrinsic(node).unwrap_or((String::new(), node));
        match f.as_str() {
            "Condition" => return self.cond_ref(arg, path, done, d),
            "Ref" => return self.ref_reason(arg),
            _ => {}
        }
        match &arg.value {
            Value::Seq(items) => items.iter().find_map(|n| self.why(n, path, done, d + 1)),
            Value::Map(m) => m.iter().find_map(|(_, n)| self.why(n, path, done, d + 1)),
            _ => None,
        }
    }

    fn ref_reason(&self, arg: &Node) -> Option<String> {
        let name = arg.str()?;
        if self.params.contains_key(name) {
            None
        } else if name.starts_with("AWS::") {
            Some(format!("uses `{name}`, known only at deployment"))
        } else if self.root.at(&["Parameters", name]).is_some() {
            Some(format!(
                "uses parameter `{name}`, which has no default and no --parameter"
            ))
        } else {
            Some(format!("uses `{name}`, which is not a parameter"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn reason(template: &str, name: &str) -> String {
        let limits = Default::default();
        let root = crate::import::tree::parse(template, 0, &limits).unwrap();
        let cf = Cf {
            root: &root,
            params: super::super::intrinsics::parameters(&root, &[]).unwrap(),
            resources: Vec::new(),
            ids: BTreeMap::new(),
            limits: &limits,
            links: &super::super::intrinsics::NO_LINKS,
            label: String::new(),
            bound: BTreeMap::new(),
        };
        assert_eq!(cf.condition(name, 0), None);
        cf.undecided(name)
    }

    #[test]
    fn each_reason_is_named() {
        let t = "Parameters:\n  P: {Type: String}\nConditions:\n  A: !Equals [!Ref P, x]\n  B: !And [!Condition C, !Equals [a, a]]\n  D: !Or [!Condition E]\n  E: !Not [!Condition D]\n  F: {\"Fn::Equals\": [{\"Ref\": Q}, x]}\nResources: {}\n";
        assert_eq!(
            reason(t, "A"),
            "uses parameter `P`, which has no default and no --parameter"
        );
        assert_eq!(
            reason(t, "B"),
            "uses `C`, which is not declared under `Conditions`"
        );
        assert_eq!(reason(t, "D"), "refers to itself (D → E → D)");
        assert_eq!(reason(t, "F"), "uses `Q`, which is not a parameter");
        assert_eq!(
            reason(t, "Z"),
            "uses `Z`, which is not declared under `Conditions`"
        );
    }
}
