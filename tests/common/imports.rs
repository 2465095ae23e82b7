//! What the import tests share: the binary run in `fixtures/import/`, and
//! the findings of a `check` as (code, component, intent).

use assert_cmd::Command;

/// `replay-audit` in `fixtures/import/`, without colours.
pub fn bin() -> Command {
    let mut c = Command::cargo_bin("replay-audit").unwrap();
    c.current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/import"));
    c.env("NO_COLOR", "1");
    c
}

/// A finding as (code, component, intent); `-` where it has none.
pub type Found = (String, String, String);

/// (code, component, intent) of every finding, and the exit code.
pub fn check(args: &[&str]) -> (Vec<Found>, i32) {
    let o = bin()
        .arg("check")
        .args(args)
        .args(["--format", "json"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    let v: serde_json::Value =
        serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {stderr}"));
    let s = |x: &serde_json::Value| x.as_str().unwrap_or("-").to_string();
    let f = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (s(&f["code"]), s(&f["component"]), s(&f["intent"])))
        .collect();
    (f, o.status.code().unwrap())
}

/// A [`Found`] from its parts.
pub fn t(code: &str, comp: &str, intent: &str) -> Found {
    (code.into(), comp.into(), intent.into())
}
