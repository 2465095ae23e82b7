//! What the import tests share: the binary run in `fixtures/import/`, a
//! fixture imported, the transcript a snapshot of it holds, and the
//! findings of a `check` (most often of a fixture with its overlay) as
//! (code, component, intent) or as `file:line:column`.

// Each test file includes this module and uses the part it needs.
#![allow(dead_code)]

use assert_cmd::Command;

/// `replay-audit` in `fixtures/import/`, without colours.
pub fn bin() -> Command {
    let mut c = Command::cargo_bin("replay-audit").unwrap();
    c.current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/import"));
    c.env("NO_COLOR", "1");
    c
}

/// (stdout, stderr, exit code) of `replay-audit ARGS`.
pub fn run(args: &[&str]) -> (String, String, i32) {
    let o = bin().args(args).output().unwrap();
    (
        String::from_utf8(o.stdout).unwrap(),
        String::from_utf8(o.stderr).unwrap(),
        o.status.code().unwrap(),
    )
}

/// (stdout, stderr, exit code) of `replay-audit import ARGS`.
pub fn import(args: &[&str]) -> (String, String, i32) {
    run(&[&["import"], args].concat())
}

/// The skeleton `import ARGS` writes, asserting that it exits 0 and
/// prints only its coverage line, every resource imported.
#[track_caller]
pub fn import_clean(args: &[&str]) -> String {
    let (text, err, code) = import(args);
    assert_eq!((code, err.as_str()), (0, quiet(&text).as_str()), "{text}");
    text
}

/// The stderr of an import that warns of nothing: its coverage line (the
/// one in the skeleton's header), asserted to say that every resource
/// was imported.
#[track_caller]
pub fn quiet(skeleton: &str) -> String {
    let line = skeleton
        .lines()
        .find_map(|l| l.strip_prefix("# coverage: "))
        .unwrap_or_else(|| panic!("no coverage line: {skeleton}"));
    assert!(line.contains(" read, 0 not imported;"), "{line}");
    format!("coverage: {line}\n")
}

/// What a snapshot of a run holds: its exit code, stderr and stdout.
pub fn transcript((text, err, code): &(String, String, i32)) -> String {
    format!("exit {code}\n--- stderr\n{err}--- stdout\n{text}")
}

/// The `findings` of `check ARGS --format json`, and the exit code.
pub fn findings(args: &[&str]) -> (Vec<serde_json::Value>, i32) {
    let o = bin()
        .arg("check")
        .args(args)
        .args(["--format", "json"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    let mut v: serde_json::Value =
        serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {stderr}"));
    let serde_json::Value::Array(f) = v["findings"].take() else {
        panic!("no findings array: {v}")
    };
    (f, o.status.code().unwrap())
}

/// A finding as (code, component, intent); `-` where it has none.
pub type Found = (String, String, String);

/// (code, component, intent) of every finding, and the exit code.
pub fn check(args: &[&str]) -> (Vec<Found>, i32) {
    let (f, code) = findings(args);
    let s = |x: &serde_json::Value| x.as_str().unwrap_or("-").to_string();
    let f = f
        .iter()
        .map(|f| (s(&f["code"]), s(&f["component"]), s(&f["intent"])))
        .collect();
    (f, code)
}

/// The overlay beside a fixture: `NAME.overlay.yaml` for `NAME.yaml` or
/// `NAME.json`.
pub fn overlay_of(fixture: &str) -> String {
    let stem = fixture
        .strip_suffix(".yaml")
        .or_else(|| fixture.strip_suffix(".json"))
        .unwrap_or_else(|| panic!("{fixture}: neither .yaml nor .json"));
    format!("{stem}.overlay.yaml")
}

/// [`check`] of a fixture with the overlay beside it ([`overlay_of`]).
pub fn check_overlaid(fixture: &str) -> (Vec<Found>, i32) {
    check(&[fixture, &overlay_of(fixture)])
}

/// `file:line:column` of every finding of `check ARGS`.
pub fn locations(args: &[&str]) -> Vec<String> {
    findings(args)
        .0
        .iter()
        .map(|f| {
            let l = &f["location"];
            format!(
                "{}:{}:{}",
                l["file"].as_str().unwrap_or("-"),
                l["line"],
                l["column"]
            )
        })
        .collect()
}

/// A fresh folder holding the file `name` with `text`, and the file's
/// path; the folder is removed when the guard is dropped.
pub fn scratch(name: &str, text: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    let path = path.to_str().unwrap().to_string();
    (dir, path)
}

/// A [`Found`] from its parts.
pub fn t(code: &str, comp: &str, intent: &str) -> Found {
    (code.into(), comp.into(), intent.into())
}
