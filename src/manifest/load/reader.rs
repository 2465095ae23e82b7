//! The reader's primitives: a mapping's fields against the known names
//! ("unknown field ... did you mean"), and typed values (text, ids,
//! booleans, counts, numbers, durations, choices, lists) with their
//! locations; every wrong value is an error and reading goes on.

use crate::diagnostics::{Diagnostic, Loc, suggest};
use crate::manifest::model::*;
use crate::manifest::yaml::{Node, Value};
use crate::time::Dur;

use super::values::{self, CountError, DurationError, NumberError};
use super::*;

impl Reader {
    pub(super) fn err(&mut self, d: Diagnostic) {
        self.errors.push(d);
    }

    /// A mapping with only `known` fields; unknown ones are errors with a
    /// suggestion.
    pub fn fields<'n>(&mut self, node: &'n Node, path: &str, known: &[&str]) -> Option<Fields<'n>> {
        let Value::Map(entries) = &node.value else {
            self.err(
                Diagnostic::at(
                    node.loc,
                    format!(
                        "`{path}` must be a mapping, found {}",
                        node.value.type_name()
                    ),
                )
                .label("expected `field: value` pairs"),
            );
            return None;
        };
        let mut out = Vec::new();
        for (k, v) in entries {
            if let Some(name) = self.field_name(k, path, known) {
                out.push((name, k, v));
            }
        }
        Some(Fields { entries: out })
    }

    /// The name of a field key, if it is one of `known`; errors otherwise.
    pub(super) fn field_name(&mut self, k: &Node, path: &str, known: &[&str]) -> Option<String> {
        let Some(name) = k.value.scalar_text() else {
            self.err(Diagnostic::at(
                k.loc,
                format!("`{path}` has a key that is {}", k.value.type_name()),
            ));
            return None;
        };
        if !known.contains(&name.as_str()) {
            let mut d = Diagnostic::at(k.loc, format!("unknown field `{name}` in `{path}`"))
                .label("not a field here");
            d = match suggest(&name, known.iter().copied()) {
                Some(s) => d.help(format!("did you mean `{s}`?")),
                None => d.help(format!("the fields of `{path}` are: {}", known.join(", "))),
            };
            self.err(d);
            return None;
        }
        Some(name)
    }

    pub(super) fn type_error(&mut self, node: &Node, path: &str, expected: &str) {
        self.err(
            Diagnostic::at(
                node.loc,
                format!(
                    "`{path}` must be {expected}, found {}",
                    node.value.type_name()
                ),
            )
            .label(format!("expected {expected}")),
        );
    }

    pub fn string(&mut self, node: &Node, path: &str) -> Option<Sp<String>> {
        match values::string_of(&node.value) {
            Some(s) => Some(Sp::new(s.into_owned(), node.loc)),
            None => {
                self.type_error(node, path, "a string");
                None
            }
        }
    }

    pub fn id_ref(&mut self, node: &Node, path: &str) -> Option<Sp<String>> {
        let s = self.string(node, path)?;
        if !is_valid_id(&s.value) {
            self.err(
                Diagnostic::at(s.loc, format!("`{path}`: `{}` is not a valid id", s.value))
                    .help("ids are lower-case letters, digits, `.`, `_` and `-`, starting with a letter or digit"),
            );
            return None;
        }
        Some(s)
    }

    /// A reference to a component (resolved later, by `check`).
    pub fn component_ref(&mut self, node: &Node, path: &str) -> Option<Ref> {
        self.id_ref(node, path).map(Ref::new)
    }

    pub fn boolean(&mut self, node: &Node, path: &str) -> Option<Sp<bool>> {
        match values::bool_of(&node.value) {
            Some(b) => Some(Sp::new(b, node.loc)),
            None => {
                self.type_error(node, path, "`true` or `false`");
                None
            }
        }
    }

    pub fn count(&mut self, node: &Node, path: &str, min: u64) -> Option<Sp<u64>> {
        match values::count_of(&node.value, min) {
            Ok(n) => Some(Sp::new(n, node.loc)),
            Err(CountError::Below(i)) => {
                self.err(
                    Diagnostic::at(
                        node.loc,
                        format!("`{path}` is {i}, it must be at least {min}"),
                    )
                    .label("out of range"),
                );
                None
            }
            Err(CountError::NotWhole) => {
                self.type_error(node, path, "a whole number");
                None
            }
        }
    }

    pub fn number(&mut self, node: &Node, path: &str) -> Option<Sp<f64>> {
        match values::number_of(&node.value) {
            Ok(f) => Some(Sp::new(f, node.loc)),
            Err(NumberError::NotPositive) => {
                self.err(Diagnostic::at(
                    node.loc,
                    format!("`{path}` must be a positive number"),
                ));
                None
            }
            Err(NumberError::NotNumber) => {
                self.type_error(node, path, "a number");
                None
            }
        }
    }

    /// A duration; `allow_zero` where zero means something ("not kept").
    pub fn duration(&mut self, node: &Node, path: &str, allow_zero: bool) -> Option<Sp<Dur>> {
        match values::duration_of(&node.value, allow_zero) {
            Err(DurationError::NotDuration) => {
                self.type_error(node, path, "a duration");
                None
            }
            Err(DurationError::Zero) => {
                self.err(
                    Diagnostic::at(
                        node.loc,
                        format!("`{path}` is zero, which makes no sense here"),
                    )
                    .help("give a positive duration, e.g. `30s`"),
                );
                None
            }
            Ok(d) => Some(Sp::new(d, node.loc)),
            Err(DurationError::Bad(msg)) => {
                self.err(
                    Diagnostic::at(node.loc, format!("`{path}`: {msg}")).label("bad duration"),
                );
                None
            }
        }
    }

    /// One of the names of `T` (declared with its variants).
    pub fn choice<T: Named>(&mut self, node: &Node, path: &str) -> Option<Sp<T>> {
        let (i, loc) = self.choice_index(node, path, T::NAMES)?;
        Some(Sp::new(T::ALL[i], loc))
    }

    /// One of `names`, kept as text.
    pub fn choice_text(&mut self, node: &Node, path: &str, names: &[&str]) -> Option<Sp<String>> {
        let (i, loc) = self.choice_index(node, path, names)?;
        Some(Sp::new(names[i].to_string(), loc))
    }

    pub(super) fn choice_index(
        &mut self,
        node: &Node,
        path: &str,
        names: &[&str],
    ) -> Option<(usize, Loc)> {
        let s = self.string(node, path)?;
        if let Some(i) = values::choice_of(&s.value, names) {
            return Some((i, s.loc));
        }
        let mut d = Diagnostic::at(
            s.loc,
            format!("`{path}`: `{}` is not one of {}", s.value, names.join(", ")),
        );
        if let Some(sugg) = suggest(&s.value, names.iter().copied()) {
            d = d.help(format!("did you mean `{sugg}`?"));
        }
        self.err(d);
        None
    }

    pub fn string_list(&mut self, node: &Node, path: &str) -> Option<Sp<Vec<String>>> {
        match &node.value {
            Value::Seq(items) => {
                let v = items
                    .iter()
                    .enumerate()
                    .filter_map(|(i, n)| self.string(n, &format!("{path}[{i}]")).map(|s| s.value))
                    .collect::<Vec<_>>();
                Some(Sp::new(v, node.loc))
            }
            Value::Str(s) => Some(Sp::new(vec![s.clone()], node.loc)),
            _ => {
                self.type_error(node, path, "a list of strings");
                None
            }
        }
    }

    /// Items of a field that takes one item or a list of them.
    pub(super) fn items(node: &Node) -> Vec<(usize, &Node)> {
        match &node.value {
            Value::Seq(items) => items.iter().enumerate().collect(),
            _ => vec![(0, node)],
        }
    }

    pub(super) fn define(
        &mut self,
        id: &Sp<crate::manifest::name::Name>,
        what: &'static str,
    ) -> bool {
        if !is_valid_id(&id.value) {
            self.err(
                Diagnostic::at(id.loc, format!("`{}` is not a valid {what} id", id.value))
                    .help("ids are lower-case letters, digits, `.`, `_` and `-`, starting with a letter or digit"),
            );
            return false;
        }
        // One hash and one probe per id (a lookup then an insert cost two
        // cache misses each on a table of 90,000 ids).
        let (first, first_what) = match self.ids.entry(id.value.clone()) {
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert((id.loc, what));
                return true;
            }
            std::collections::hash_map::Entry::Occupied(slot) => *slot.get(),
        };
        let d = Diagnostic::at(id.loc, format!("id `{}` {DEFINED_TWICE}", id.value))
            .label(format!("this {what}"))
            .related(first, format!("first defined here as a {first_what}"))
            .help(
                "intents, components and regions share one namespace across all files: rename one",
            );
        self.err(d);
        false
    }

    /// Entries of a top-level `id: {...}` mapping.
    pub(super) fn entries<'n>(
        &mut self,
        node: &'n Node,
        path: &str,
    ) -> Vec<(Sp<String>, &'n Node)> {
        match &node.value {
            Value::Map(entries) => entries
                .iter()
                .filter_map(|(k, v)| {
                    let id = k.value.scalar_text()?;
                    Some((Sp::new(id, k.loc), v))
                })
                .collect(),
            Value::Null => Vec::new(),
            _ => {
                self.type_error(node, path, "a mapping of id to settings");
                Vec::new()
            }
        }
    }
}
