//! `count` and `for_each`: the instances of a resource (or a module call),
//! as Terraform makes them for the values a configuration can know.
//!
//! `count = N` gives instances `[0]` .. `[N-1]` with `count.index`;
//! `for_each` over a map gives one per key, in the keys' lexical order, with
//! `each.key` and `each.value`; over a set (or list) of strings one per
//! distinct string, `each.value` the same string. `count = 0` or an empty
//! `for_each` leaves the block out. A value not known here (a reference to
//! what only apply knows, a function not evaluated) or more instances than
//! [`MAX_COUNT`] (or what is left of [`MAX_EXPANDED`] in the module) leaves
//! one instance, without index, standing for all of them, with a TODO; so
//! does a block whose instances would outweigh what is left of the
//! module's expansion budget (its size times their number, against the
//! evaluation budget's size), so the work stays linear in the input.

use hcl::Value as HVal;

use super::State;
use crate::import::terraform::eval;
use crate::import::terraform::hcl::{Attr, Block, Body};
use crate::import::terraform::nodes::place;

/// A resource or module call is expanded into at most this many instances.
pub(in crate::import::terraform) const MAX_COUNT: usize = 1000;
/// The resources of one module instance are expanded into at most this
/// many instances in all.
pub(in crate::import::terraform) const MAX_EXPANDED: usize = 10_000;

/// One instance of a resource block.
pub(super) struct Inst<'b> {
    pub b: &'b Block,
    /// `TYPE.NAME` with its index (`aws_sqs_queue.q["orders"]`), without
    /// the module's address.
    pub address: String,
    /// The index as a plan writes it (a number for `count`, a key for
    /// `for_each`); `None` for a block that is not repeated, or whose
    /// repetition is not known.
    pub index: Option<HVal>,
    /// `count.index`, or `each.key` and `each.value`.
    pub binds: Binds,
}

/// The values of `count.index`, or of `each.key` and `each.value`.
pub(super) type Binds = Vec<(&'static str, HVal)>;

/// How a block is repeated.
pub(super) enum Rep {
    /// It is not (no `count`, no `for_each`).
    Once,
    /// It is left out (`count = 0`, an empty `for_each`): why.
    Out(String),
    /// Its instances: index and keys.
    Many(Vec<(HVal, Binds)>),
    /// One instance stands for all of them: why.
    Unknown(String),
}

impl State {
    /// The instances of the resources and data sources `res`; a note for
    /// each left out or not expanded.
    pub(super) fn instances<'b>(
        &mut self,
        res: &[&'b Block],
        files: &[(String, Body, bool)],
    ) -> Vec<Inst<'b>> {
        let mut out = Vec::new();
        let mut left = MAX_EXPANDED;
        for &b in res {
            let base = super::address(b);
            let what = format!("{}{base}", self.prefix);
            let once = |b| Inst {
                b,
                address: base.clone(),
                index: None,
                binds: Vec::new(),
            };
            match self.repetition(b, files, left) {
                Rep::Once => out.push(once(b)),
                Rep::Out(why) => self.notes.push(format!("{what} is left out: {why}")),
                Rep::Unknown(why) => {
                    self.notes.push(format!(
                        "TODO: {what} is repeated by {why}: one component stands for every instance"
                    ));
                    out.push(once(b));
                }
                Rep::Many(list) => {
                    left -= list.len();
                    for (index, binds) in list {
                        let address =
                            format!("{base}{}", eval::index_text(&index).unwrap_or_default());
                        out.push(Inst {
                            b,
                            address,
                            index: Some(index),
                            binds,
                        });
                    }
                }
            }
        }
        out
    }

    /// How block `b` is repeated by its `count` or `for_each`, when at most
    /// `left` more instances may be made.
    pub(super) fn repetition(
        &mut self,
        b: &Block,
        files: &[(String, Body, bool)],
        left: usize,
    ) -> Rep {
        let Some(a) = b.body.attr("count").or(b.body.attr("for_each")) else {
            return Rep::Once;
        };
        let at = place(files, a.loc);
        let s = self.scan(&a.expr);
        let value = self.eval(&a.expr, &s);
        let (n, each) = match (a.key.as_str(), value.as_ref()) {
            ("count", Some(v)) => (count(v), None),
            (_, Some(v)) => match for_each(v) {
                Some(list) => (Some(list.len() as u64), Some(list)),
                None => (None, None),
            },
            _ => (None, None),
        };
        let Some(n) = n else {
            return Rep::Unknown(format!(
                "`{}` ({at}), whose value is not known before apply here",
                a.key
            ));
        };
        if n == 0 {
            return Rep::Out(empty(a, &at));
        }
        // Each instance is read on its own: its cost is the block's size.
        let cost = n.saturating_mul(block_size(&b.body) as u64);
        if n > MAX_COUNT.min(left) as u64 || cost > self.expand as u64 {
            return Rep::Unknown(format!(
                "`{}` ({at}) into {} instances, more than the import expands ({} for one block, {} in one module, fewer of a large block, in proportion to the input's size)",
                a.key,
                thousands(n),
                thousands(MAX_COUNT as u64),
                thousands(MAX_EXPANDED as u64)
            ));
        }
        self.expand -= cost as usize;
        Rep::Many(each.unwrap_or_else(|| {
            (0..n)
                .map(|i| (HVal::from(i), vec![("count.index", HVal::from(i))]))
                .collect()
        }))
    }
}

/// The size of a block's attributes and nested blocks ([`eval::size`]).
/// Nesting is bounded by the parser.
fn block_size(body: &Body) -> usize {
    let attrs = body.attrs.iter().map(|a| eval::size(&a.expr));
    let blocks = body.blocks.iter().map(|b| block_size(&b.body));
    attrs.chain(blocks).fold(1usize, usize::saturating_add)
}

/// Why a block with no instance is left out.
fn empty(a: &Attr, at: &str) -> String {
    match a.key.as_str() {
        "count" => format!("its `count` is 0 ({at})"),
        _ => format!("its `for_each` is empty ({at})"),
    }
}

/// The number of instances `count = v` makes: a whole number from 0 (a
/// string of one too, as Terraform converts it); `None` for anything else.
fn count(v: &HVal) -> Option<u64> {
    match v {
        HVal::Number(n) => n.as_u64().or_else(|| {
            let f = n.as_f64()?;
            (f.fract() == 0.0 && f >= 0.0).then_some(u64::MAX)
        }),
        HVal::String(t) => t.trim().parse::<u64>().ok(),
        _ => None,
    }
}

/// The instances of `for_each = v`: a map's keys (in lexical order) with
/// their values, or a set of strings (a list of them is read as the set it
/// would be converted to); `None` for anything else, as Terraform refuses.
fn for_each(v: &HVal) -> Option<Vec<(HVal, Binds)>> {
    let one = |k: &str, v: HVal| {
        (
            HVal::from(k),
            vec![("each.key", HVal::from(k)), ("each.value", v)],
        )
    };
    match v {
        HVal::Object(o) => {
            let mut keys: Vec<(&String, &HVal)> = o.iter().collect();
            keys.sort_by(|a, b| a.0.cmp(b.0));
            Some(keys.into_iter().map(|(k, v)| one(k, v.clone())).collect())
        }
        HVal::Array(items) => {
            let set: std::collections::BTreeSet<&str> =
                items.iter().map(HVal::as_str).collect::<Option<_>>()?;
            Some(set.into_iter().map(|k| one(k, HVal::from(k))).collect())
        }
        _ => None,
    }
}

/// `n` with a comma between thousands, as the docs write numbers.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn count_takes_whole_numbers_from_zero() {
        assert_eq!(count(&HVal::from(3)), Some(3));
        assert_eq!(count(&HVal::from("2")), Some(2));
        assert_eq!(count(&HVal::from(-1)), None);
        assert_eq!(count(&HVal::from(1.5)), None);
        assert_eq!(count(&HVal::from(1e30)), Some(u64::MAX));
        assert_eq!(count(&HVal::Bool(true)), None);
    }

    #[test]
    fn for_each_takes_maps_and_sets_of_strings() {
        let keys = |v: &HVal| for_each(v).map(|l| l.into_iter().map(|x| x.0).collect::<Vec<_>>());
        let mut m = hcl::Map::new();
        m.insert("b".to_string(), HVal::from(1));
        m.insert("a".to_string(), HVal::from(2));
        assert_eq!(
            keys(&HVal::Object(m)),
            Some(vec![HVal::from("a"), HVal::from("b")])
        );
        let set = HVal::Array(vec![HVal::from("y"), HVal::from("x"), HVal::from("y")]);
        assert_eq!(keys(&set), Some(vec![HVal::from("x"), HVal::from("y")]));
        assert_eq!(keys(&HVal::Array(vec![HVal::from(1)])), None);
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(100_000_000_000), "100,000,000,000");
        assert_eq!(thousands(999), "999");
    }
}
