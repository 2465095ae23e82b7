//! RH050 for DynamoDB global tables with multi-Region strong consistency
//! (MRSC, `replication: sync`): three replicas, or two replicas and a
//! witness, all inside one documented Region set (F039).

use crate::catalog::catalog;
use crate::manifest::model::Field;
use crate::manifest::model::{Component, Replication};
use crate::rules::{Code, Finding};

/// The Region sets an MRSC table may span (F039), by name.
const SETS: &[(&str, &[&str])] = &[
    ("US", &["us-east-1", "us-east-2", "us-west-2"]),
    (
        "EU",
        &["eu-west-1", "eu-west-2", "eu-west-3", "eu-central-1"],
    ),
    (
        "AP",
        &["ap-northeast-1", "ap-northeast-2", "ap-northeast-3"],
    ),
];

/// The set a Region belongs to: `Ok(Some(set))`, `Ok(None)` for an AWS
/// Region code outside every set, `Err(())` for a name that is not an AWS
/// Region code (`primary`), which cannot be judged.
fn set_of(region: &str) -> Result<Option<&'static str>, ()> {
    if let Some((name, _)) = SETS.iter().find(|(_, rs)| rs.contains(&region)) {
        return Ok(Some(name));
    }
    let parts: Vec<&str> = region.split('-').collect();
    let aws_like = parts.len() == 3
        && parts[0].len() == 2
        && parts
            .iter()
            .take(2)
            .all(|p| p.bytes().all(|b| b.is_ascii_lowercase()))
        && !parts[2].is_empty()
        && parts[2].bytes().all(|b| b.is_ascii_digit());
    if aws_like { Ok(None) } else { Err(()) }
}

/// RH050: an MRSC global table whose replicas break the topology F039 allows.
pub(super) fn emit(comp: &Component, out: &mut Vec<Finding>) {
    if comp.kind.value != "dynamodb-global-table"
        || comp
            .choice::<Replication>(Field::Replication)
            .is_none_or(|r| r.value != Replication::Sync)
        || comp.regions.is_empty()
    {
        return;
    }
    let cite = catalog()
        .source("F039")
        .map_or_else(|| "F039".to_string(), |s| format!("F039: {}", s.url));
    let n = comp.regions.len();
    let witness = comp.text(Field::Witness);
    let at = witness.map_or(comp.regions[0].loc, |w| w.loc);
    let count = match witness {
        None if n != 3 => Some(format!(
            "`{}` is an MRSC global table (`replication: sync`) with {n} replica Region(s); MRSC needs exactly three replicas, or two and a `witness`",
            comp.id
        )),
        Some(w) if n != 2 => Some(format!(
            "`{}` is an MRSC global table with {n} replica Region(s) and the witness `{}`; a witness goes with exactly two replicas",
            comp.id, w.value
        )),
        Some(w) if comp.regions.iter().any(|r| r.value == w.value) => Some(format!(
            "`{}` names `{}` both as a replica and as its witness; the witness must be a third Region",
            comp.id, w.value
        )),
        _ => None,
    };
    let problem = count.or_else(|| spread(comp));
    if let Some(p) = problem {
        out.push(
            Finding::new(Code::RH050, format!("{p} ({cite})"))
                .component(&comp.id)
                .at(at),
        );
    }
}

/// The replicas and the witness must all lie in one Region set.
fn spread(comp: &Component) -> Option<String> {
    let all: Vec<&str> = comp
        .regions
        .iter()
        .map(|r| r.value.as_str())
        .chain(comp.text(Field::Witness).map(|w| w.value.as_str()))
        .collect();
    let mut sets = Vec::new();
    for r in &all {
        match set_of(r) {
            Err(()) => return None,
            Ok(None) => {
                return Some(format!(
                    "`{}` is an MRSC global table with a replica in `{r}`, which is in no MRSC Region set (US, EU or AP)",
                    comp.id
                ));
            }
            Ok(Some(s)) if !sets.contains(&s) => sets.push(s),
            Ok(Some(_)) => {}
        }
    }
    (sets.len() > 1).then(|| {
        format!(
            "`{}` is an MRSC global table across the {} Region sets ({}); all its replicas (and a witness) must lie in one set",
            comp.id,
            sets.join(" and "),
            all.join(", ")
        )
    })
}
