//! Several root modules imported together (`check infra/orders
//! infra/payments`): a resource name used in more than one root (modules
//! routinely name resources `this`) gets the root's folder name in its id
//! (`orders.this`, `payments.this`), so the skeletons do not define the
//! same id twice. A name only one root uses keeps its plain id.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::rc::Rc;

use crate::import::{Node, kebab};

/// The id prefix of one root's resources whose names other roots use too.
pub(super) struct Namespace {
    /// The root's folder name, in kebab case.
    pub prefix: String,
    /// The resource names used by more than one root (one set shared by
    /// every root's namespace).
    pub taken: Rc<BTreeSet<String>>,
}

/// The namespace of each root (its folder and plan-shaped tree); none
/// when there is only one root.
pub(super) fn namespaces(roots: &[(&Path, &Node)]) -> Vec<Option<Namespace>> {
    if roots.len() < 2 {
        return roots.iter().map(|_| None).collect();
    }
    let mut users: BTreeMap<String, usize> = BTreeMap::new();
    for (_, tree) in roots {
        let mut names = BTreeSet::new();
        if let Some(m) = tree.at(&["planned_values", "root_module"]) {
            resource_names(m, &mut names, 0);
        }
        for n in names {
            *users.entry(n).or_default() += 1;
        }
    }
    let taken: Rc<BTreeSet<String>> = Rc::new(
        users
            .into_iter()
            .filter(|(_, n)| *n > 1)
            .map(|(k, _)| k)
            .collect(),
    );
    let short = |p: &Path| {
        kebab(
            &p.file_name()
                .map_or(String::new(), |n| n.to_string_lossy().into_owned()),
        )
    };
    let shorts: Vec<String> = roots.iter().map(|(p, _)| short(p)).collect();
    let mut count: BTreeMap<&str, usize> = BTreeMap::new();
    for s in &shorts {
        *count.entry(s).or_default() += 1;
    }
    roots
        .iter()
        .zip(&shorts)
        .map(|((p, _), s)| {
            // Two roots in folders of the same name: the whole path.
            let unique = count[s.as_str()] == 1;
            let prefix = match unique {
                true => s.clone(),
                false => kebab(&p.display().to_string()),
            };
            Some(Namespace {
                prefix,
                taken: Rc::clone(&taken),
            })
        })
        .collect()
}

/// The names of the resources of `module` and its child modules that
/// become components.
fn resource_names(module: &Node, out: &mut BTreeSet<String>, depth: usize) {
    if depth > 32 {
        return;
    }
    for r in module.get("resources").map(Node::items).unwrap_or(&[]) {
        // A resource that only links components has no id to share.
        let ty = r.get("type").and_then(Node::str).unwrap_or("");
        let component = super::READ.iter().any(|(t, _)| *t == ty) || ty == super::unread::OUTPUT;
        if let Some(n) = r.get("name").and_then(Node::str).filter(|_| component) {
            out.insert(n.to_string());
        }
    }
    for m in module.get("child_modules").map(Node::items).unwrap_or(&[]) {
        resource_names(m, out, depth + 1);
    }
}
