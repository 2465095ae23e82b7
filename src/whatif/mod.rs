//! What-if questions: the same architecture with some values changed.
//!
//! The manifest files are parsed once into span-carrying YAML trees
//! ([`Session`]). A change (`--set TARGET=VALUE`, `--unset TARGET`, a line of
//! an overrides file, a `set` in the shell) edits a copy of those trees, and
//! the copy is read by the normal loader and validator: a changed value is
//! checked exactly like a value written in the manifest, with the same
//! messages and "did you mean" suggestions. Each change is kept as a small
//! source file of its own (the argument text), so an error in it is shown
//! pointing into the argument, and findings about it name it.
//!
//! The rooms, in the order a change passes through them:
//!
//! - `input`: reading a change (`--set`, `--unset`, an overrides file) into
//!   an [`Override`];
//! - `target`: resolving its target (`ID.field[0].field`) against the ids of
//!   the files, with the `ID.retry.FIELD` shorthand;
//! - `tree`: setting or removing the value in the YAML trees;
//! - `session`: the parsed files, the edited copies and the rebuilt
//!   manifest with its list of [`Change`]s;
//! - `changes`: changes as text (flow values, the overrides file `save`
//!   writes, the list and the diff);
//! - `delta`: findings before and after matched ([`compare`]) and the
//!   `what-if` output;
//! - `required`: the minimum safe retention of every dedup layer
//!   (`horizon --required`, [`required`]).

mod changes;
mod delta;
mod input;
mod required;
mod session;
mod target;
mod tree;
mod unified;

use serde::Serialize;

use crate::diagnostics::Loc;
use crate::manifest::yaml::Node;

pub use changes::{flow, overrides_yaml, quote, render_changes, render_diff, render_diff_with};
pub use delta::dur;
pub use delta::{Delta, compare, render_json, render_text};
pub use input::set_without_value;
pub use required::{
    RequiredRow, each_required, render_required_json, render_required_text, required,
    write_required_json, write_required_text,
};
pub use session::{Built, Edited, Session};

/// One requested change: `value` `None` removes the field.
#[derive(Debug, Clone, PartialEq)]
pub struct Override {
    /// The target as written (`payout-idempotency.retention`).
    pub target: String,
    /// Where the target is written (an argument, a shell line, an overrides file).
    pub loc: Loc,
    pub value: Option<Node>,
}

/// A change as shown to the user: the target in its canonical spelling and
/// the value in the files and after the change (`None`: not set).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Change {
    pub target: String,
    pub old: Option<String>,
    pub new: Option<String>,
    /// Where the old value (or the element) stands in the files.
    #[serde(skip)]
    pub loc: Option<Loc>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::yaml::Limits;
    use crate::time::Dur;

    const M: &str = "version: 1\nintents:\n  pay:\n    origin: api\n    effect: bank\ncomponents:\n  api:\n    kind: service\n    sends_to: q\n  q:\n    kind: sqs-standard\n    delivers_to: w\n  w:\n    kind: function\n    dedup: {store: keys, claim: conditional-write}\n    effects: [bank]\n  keys:\n    kind: dynamodb-table\n    retention: 1h\n  bank:\n    kind: external\n";

    fn session() -> Session {
        Session::from_texts(vec![("m.yaml".into(), M.into())], &Limits::default()).unwrap()
    }

    fn set(s: &mut Session, arg: &str) -> Result<Built, String> {
        let o = s.parse_set("--set", arg).map_err(|e| e.render(false))?;
        s.build(&[o]).map_err(|e| e.render(false))
    }

    #[test]
    fn sets_a_field_and_reports_old_and_new() {
        let mut s = session();
        let b = set(&mut s, "keys.retention=2d").unwrap();
        assert_eq!(
            b.changes,
            vec![Change {
                target: "keys.retention".into(),
                old: Some("1h".into()),
                new: Some("2d".into()),
                loc: b.changes[0].loc
            }]
        );
        assert_eq!(
            b.manifest
                .component("keys")
                .unwrap()
                .dur(crate::manifest::model::Field::Retention)
                .unwrap()
                .value,
            Dur::secs(172_800)
        );
    }

    #[test]
    fn a_link_written_as_an_id_becomes_a_mapping() {
        let mut s = session();
        let b = set(&mut s, "api.sends_to[0].retry.attempts=5").unwrap();
        let l = &b.manifest.component("api").unwrap().sends_to()[0];
        assert_eq!(l.to.value, "q");
        assert_eq!(
            l.retry.as_ref().unwrap().attempts.as_ref().unwrap().value,
            5
        );
        assert_eq!(b.changes[0].old, None);
        // The shorthand names the only link that retries.
        let b = set(&mut s, "q.retry.attempts=4").unwrap();
        assert_eq!(b.changes[0].target, "q.delivers_to.retry.attempts");
    }

    #[test]
    fn errors_are_the_loaders_with_suggestions() {
        let mut s = session();
        let e = set(&mut s, "kyes.retention=2d").unwrap_err();
        assert!(
            e.contains("no intent, component or region `kyes`")
                && e.contains("did you mean `keys`?"),
            "{e}"
        );
        let e = set(&mut s, "keys.retentoin=2d").unwrap_err();
        assert!(
            e.contains("unknown field `retentoin` in `components.keys`")
                && e.contains("did you mean `retention`?"),
            "{e}"
        );
        let e = set(&mut s, "keys.retention=2x").unwrap_err();
        assert!(
            e.contains("`components.keys.retention`: `2x` is not a duration"),
            "{e}"
        );
        assert!(e.contains("--set:1:16"), "{e}");
    }

    #[test]
    fn unset_removes_and_flow_round_trips() {
        let mut s = session();
        let o = s.parse_unset("--unset", "keys.retention");
        let b = s.build(&[o]).unwrap();
        assert_eq!(b.changes[0].new, None);
        assert_eq!(quote("1h 30m"), "1h 30m");
        assert_eq!(quote("true"), "\"true\"");
        assert_eq!(quote("a[0].b"), "\"a[0].b\"");
    }
}
