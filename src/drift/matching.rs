//! Which deployed component each code component stands for: the overlay's
//! explicit `resource`, then equal ARNs, then the code's resource name
//! equal to the name inside the deployed ARN (or to the deployed name),
//! then equal ids; each deployed component matched at most once. Linear:
//! the deployed components are indexed by resource, name and id.
//!
//! A deployed component that a link names but the export does not
//! describe (the importer's placeholder: a generic kind and nothing else,
//! [`is_placeholder`]) is matched by its id as the resource's name, but
//! it is no pair: its values are not compared, and it is listed as not
//! exported rather than as only deployed.

use std::collections::{BTreeMap, HashMap, HashSet};

use serde::Serialize;

use crate::analysis::effective::generic;
use crate::manifest::Manifest;
use crate::manifest::model::Component;
use crate::manifest::model::Field;

/// How a pair was matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum How {
    /// The overlay gives the code component `resource:`.
    Overlay,
    /// Both name the same ARN.
    Arn,
    /// The code's resource name is the deployed resource's name.
    Name,
    /// The same component id on both sides.
    Id,
}

impl How {
    pub fn word(self) -> &'static str {
        match self {
            How::Overlay => "the overlay's resource",
            How::Arn => "ARN",
            How::Name => "name",
            How::Id => "id",
        }
    }
}

/// A code component and the deployed one it stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pair {
    pub code: String,
    /// The deployed component's id as the export names it.
    pub deployed: String,
    /// What the deployed side names the resource (its ARN or name).
    pub resource: Option<String>,
    pub how: How,
}

/// The matching of the two sides.
#[derive(Debug, Default)]
pub struct Matching {
    /// In the order of the code's ids.
    pub pairs: Vec<Pair>,
    /// Code components no deployed one stands for (ids).
    pub only_code: Vec<String>,
    /// Deployed components no code component stands for (their id on the
    /// deployed side, and their resource).
    pub only_deployed: Vec<(String, Option<String>)>,
    /// Components the deployed side names (a link leads to them) but does
    /// not describe: their id on the deployed side from now on (the code's
    /// id when a code component stands for it), and the code's resource.
    /// A code component among them is described on the deployed side as
    /// the code describes it ([`Matching::borrowed`]).
    pub not_exported: Vec<(String, Option<String>)>,
    /// The code ids of [`Matching::not_exported`] that a code component
    /// stands for.
    pub borrowed: Vec<String>,
    /// Code components left unmatched because their name fits several
    /// deployed components (their ids from now on), none in the code
    /// component's Regions alone.
    pub ambiguous: Vec<(String, Vec<String>)>,
    /// Deployed id → the id it has on the deployed side from now on.
    pub renames: HashMap<String, String>,
}

/// Whether deployed component `d` is a placeholder: named by a link of an
/// imported input that does not describe it (`import/placeholders.rs`
/// declares it with a generic kind and nothing else).
pub fn is_placeholder(d: &Component) -> bool {
    let k = crate::analysis::effective::kind_of(d);
    k.id == k.generic.name()
        && d.kind.value.as_str() == k.id
        && d.regions.is_empty()
        && d.links().next().is_none()
        && d.dedup.is_none()
        && d.backup.is_none()
        && Field::ALL.iter().all(|&f| d.setting(f).is_none())
}

/// The name inside an ARN (`arn:aws:sqs:R:A:NAME` → `NAME`, a function's
/// `function:NAME[:alias]`, a table's `table/NAME`, a rule's
/// `rule/[bus/]NAME`, `stateMachine:NAME`, `stream/NAME`, `pipe/NAME`,
/// `schedule/GROUP/NAME`, a bucket's `:::NAME`), as the AWS export
/// importer names its components; a name is itself.
pub fn name_of(resource: &str) -> String {
    crate::import::aws_export::arn::parse(resource).map_or_else(|| resource.to_string(), |a| a.name)
}

/// Matches `code` to `deployed`. `from_overlay(c)`: whether the code
/// component's `resource` is written in an overlay; `shared(c)`: whether
/// the code component is defined by the overlay alone (then it is on both
/// sides and takes no part in the matching).
pub fn of(
    code: &Manifest,
    deployed: &Manifest,
    from_overlay: &dyn Fn(&Component) -> bool,
    shared: &dyn Fn(&Component) -> bool,
) -> Matching {
    let res = |c: &Component| c.text(Field::Resource).map(|r| r.value.clone());
    let mut by_resource: HashMap<String, Vec<usize>> = HashMap::new();
    let mut by_name: HashMap<String, Vec<usize>> = HashMap::new();
    for (j, d) in deployed.components.iter().enumerate() {
        if let Some(r) = res(d) {
            by_name.entry(name_of(&r)).or_default().push(j);
            by_resource.entry(r).or_default().push(j);
        } else if is_placeholder(d) {
            // Its id is the name inside the ARN the link gives.
            by_name.entry(d.id.to_string()).or_default().push(j);
        }
    }
    let candidates: Vec<usize> = (0..code.components.len())
        .filter(|&i| !shared(&code.components[i]))
        .collect();
    let mut t = Taking {
        code,
        deployed,
        taken: vec![false; deployed.components.len()],
        matched: BTreeMap::new(),
        ambiguous: BTreeMap::new(),
    };
    for &i in &candidates {
        let c = &code.components[i];
        if let Some(r) = res(c).filter(|_| from_overlay(c)) {
            let js = by_resource.get(&r).or_else(|| by_name.get(&name_of(&r)));
            t.take(i, js, How::Overlay, false);
        }
    }
    for &i in &candidates {
        if let Some(r) = res(&code.components[i]).filter(|r| r.starts_with("arn:")) {
            t.take(i, by_resource.get(&r), How::Arn, false);
        }
    }
    for &i in &candidates {
        if let Some(r) = res(&code.components[i]) {
            t.take(i, by_name.get(&name_of(&r)), How::Name, true);
        }
    }
    for &i in &candidates {
        let id = code.components[i].id.as_str();
        let j = deployed.component_index(id).map(|j| vec![j]);
        t.take(i, j.as_ref(), How::Id, true);
    }
    let mut m = finish(code, deployed, &candidates, t.matched, &t.taken);
    m.ambiguous = t
        .ambiguous
        .into_iter()
        .filter(|(i, _)| m.only_code.contains(&code.components[*i].id.to_string()))
        .map(|(i, js)| {
            let ids = js.iter().map(|&j| final_id(&m, deployed, j)).collect();
            (code.components[i].id.to_string(), ids)
        })
        .collect();
    m
}

/// The id deployed component `j` has from now on.
fn final_id(m: &Matching, deployed: &Manifest, j: usize) -> String {
    let id = deployed.components[j].id.as_str();
    m.renames.get(id).cloned().unwrap_or_else(|| id.to_string())
}

/// The matching as it is made: each code component (by index) and the
/// deployed component it took, and the code components whose name fits
/// several deployed components (with them).
struct Taking<'a> {
    code: &'a Manifest,
    deployed: &'a Manifest,
    taken: Vec<bool>,
    matched: BTreeMap<usize, (usize, How)>,
    ambiguous: BTreeMap<usize, Vec<usize>>,
}

impl Taking<'_> {
    /// Matches code component `i` to the one of `js` not taken yet (of
    /// the same generic kind when `same_kind`), unless it is matched. Of
    /// several, the one in the code component's Regions; if that does not
    /// decide, none (the same name in several Regions or accounts: the
    /// overlay's `resource: ARN` tells which).
    fn take(&mut self, i: usize, js: Option<&Vec<usize>>, how: How, same_kind: bool) {
        if self.matched.contains_key(&i) {
            return;
        }
        let c = &self.code.components[i];
        let fits = |j: &usize| {
            !self.taken[*j] && (!same_kind || generic(&self.deployed.components[*j]) == generic(c))
        };
        let mut found: Vec<usize> = js.into_iter().flatten().copied().filter(fits).collect();
        if found.len() > 1 {
            let in_regions = |j: &usize| {
                let d = &self.deployed.components[*j];
                d.regions
                    .iter()
                    .any(|r| c.regions.iter().any(|x| x.value == r.value))
            };
            let local: Vec<usize> = found.iter().copied().filter(in_regions).collect();
            if local.len() != 1 {
                self.ambiguous.insert(i, found);
                return;
            }
            found = local;
        }
        if let Some(&j) = found.first() {
            self.taken[j] = true;
            self.matched.insert(i, (j, how));
            self.ambiguous.remove(&i);
        }
    }
}

/// The pairs, the components of one side only, and the renames: a
/// matched deployed component takes its code id; an unmatched one whose
/// id a code component has takes `ID-deployed` (or `ID-deployed-2`, ...).
fn finish(
    code: &Manifest,
    deployed: &Manifest,
    candidates: &[usize],
    matched: BTreeMap<usize, (usize, How)>,
    taken: &[bool],
) -> Matching {
    let mut m = Matching::default();
    let mut used: HashSet<String> = code.components.iter().map(|c| c.id.to_string()).collect();
    for &i in candidates {
        let c = &code.components[i];
        match matched.get(&i) {
            Some(&(j, _)) if is_placeholder(&deployed.components[j]) => {
                let d = &deployed.components[j];
                m.renames.insert(d.id.to_string(), c.id.to_string());
                let r = c.text(Field::Resource).map(|r| r.value.clone());
                m.not_exported.push((c.id.to_string(), r));
                m.borrowed.push(c.id.to_string());
            }
            Some(&(j, how)) => {
                let d = &deployed.components[j];
                m.pairs.push(Pair {
                    code: c.id.to_string(),
                    deployed: d.id.to_string(),
                    resource: d.text(Field::Resource).map(|r| r.value.clone()),
                    how,
                });
                m.renames.insert(d.id.to_string(), c.id.to_string());
            }
            None => m.only_code.push(c.id.to_string()),
        }
    }
    for (j, d) in deployed.components.iter().enumerate() {
        if taken[j] {
            continue;
        }
        let mut id = d.id.to_string();
        if used.contains(&id) {
            let base = format!("{id}-deployed");
            id = base.clone();
            let mut n = 2;
            while used.contains(&id) || deployed.component(&id).is_some() {
                id = format!("{base}-{n}");
                n += 1;
            }
            m.renames.insert(d.id.to_string(), id.clone());
        }
        used.insert(id.clone());
        let r = d.text(Field::Resource).map(|r| r.value.clone());
        if is_placeholder(d) {
            m.not_exported.push((id, r));
        } else {
            m.only_deployed.push((id, r));
        }
    }
    m.renames.retain(|from, to| from != to);
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_name_inside_each_documented_arn() {
        for (arn, name) in [
            ("arn:aws:sqs:eu-west-1:111122223333:orders", "orders"),
            (
                "arn:aws:lambda:eu-west-1:111122223333:function:worker",
                "worker",
            ),
            (
                "arn:aws:lambda:eu-west-1:111122223333:function:worker:live",
                "worker",
            ),
            ("arn:aws:dynamodb:eu-west-1:111122223333:table/keys", "keys"),
            (
                "arn:aws:dynamodb:eu-west-1:111122223333:table/keys/stream/2024",
                "keys",
            ),
            ("arn:aws:sns:eu-west-1:111122223333:events", "events"),
            (
                "arn:aws:events:eu-west-1:111122223333:rule/orders-bus/route",
                "route",
            ),
            ("arn:aws:events:eu-west-1:111122223333:rule/route", "route"),
            (
                "arn:aws:states:eu-west-1:111122223333:stateMachine:flow",
                "flow",
            ),
            (
                "arn:aws:kinesis:eu-west-1:111122223333:stream/clicks",
                "clicks",
            ),
            ("arn:aws:pipes:eu-west-1:111122223333:pipe/p", "p"),
            (
                "arn:aws:scheduler:eu-west-1:111122223333:schedule/default/nightly",
                "nightly",
            ),
            ("arn:aws:s3:::bucket", "bucket"),
            ("orders", "orders"),
            ("arn:broken", "arn:broken"),
        ] {
            assert_eq!(name_of(arn), name, "{arn}");
        }
    }
}
