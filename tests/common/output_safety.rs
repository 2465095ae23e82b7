//! What the output-safety tests share: the one-intent payment manifest
//! they fill with hostile text, a scratch folder holding a file, and the
//! outcome of a run.
//!
//! In the manifest a service sends to a queue that delivers to a function,
//! which claims keys in a store kept 1h and pays a bank that takes no key;
//! the queue keeps messages 4d and a replay within 30d enters at it, so
//! `check` finds errors (exit 1) and every output format has findings to
//! print. Each free-text field is written between double quotes exactly as
//! given, so YAML escapes such as `\e` reach the loader.

// Each test file includes this module and uses the part it needs.
#![allow(dead_code)]

use assert_cmd::Command;

/// A fresh folder holding the file `name` with `text`; it is removed when
/// the guard is dropped.
pub fn dir_with(name: &str, text: &str) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join(name), text).unwrap();
    d
}

/// Exit code, stdout and stderr of `cmd`.
pub fn outcome(cmd: &mut Command) -> (Option<i32>, String, String) {
    let out = cmd.output().unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The free text of [`manifest`]; a field that is `None` is left out.
#[derive(Clone, Copy)]
pub struct Text<'a> {
    /// The manifest's `name`.
    pub name: Option<&'a str>,
    /// The intent's `description`.
    pub description: Option<&'a str>,
    /// The intent's one key field, as YAML (`id`, or a quoted string).
    pub key_field: &'a str,
    /// The intent's one `fingerprint` field, quoted.
    pub fingerprint: Option<&'a str>,
    /// The replay's `name`.
    pub replay: &'a str,
    /// The service's `description`.
    pub service: Option<&'a str>,
}

/// The manifest with `text` in its free-text fields.
pub fn manifest(text: Text) -> String {
    let line = |field: &str, indent: &str, value: Option<&str>| {
        value.map_or(String::new(), |v| format!("{indent}{field}: \"{v}\"\n"))
    };
    let fingerprint = text
        .fingerprint
        .map_or(String::new(), |f| format!("    fingerprint: [\"{f}\"]\n"));
    format!(
        r#"version: 1
{name}intents:
  pay:
{description}    origin: svc
    effect: bank
    key: {{ fields: [{key}] }}
{fingerprint}    replays:
      - name: "{replay}"
        enters_at: q
        within: 30d
components:
  svc:
    kind: service
{service}    sends_to: q
  q:
    kind: queue
    retention: 4d
    delivers_to: worker
  worker:
    kind: function
    dedup: {{ store: keys, claim: conditional-write }}
    effects: [bank]
  keys:
    kind: store
    retention: 1h
  bank:
    kind: external
    accepts_key: false
"#,
        name = line("name", "", text.name),
        description = line("description", "    ", text.description),
        key = text.key_field,
        replay = text.replay,
        service = line("description", "    ", text.service),
    )
}
