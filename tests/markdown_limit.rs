//! A Markdown comment stays under GitHub's 65,536-character limit: with
//! 600 findings it shows as many as fit and says how many it left out.

use assert_cmd::Command;

#[test]
fn a_large_comment_is_cut_with_the_count() {
    let mut text = String::from("version: 1\nintents:\n");
    for i in 0..600 {
        text.push_str(&format!(
            "  i{i:03}: {{ origin: api, effect: bank, key: {{ fields: [id{i}] }} }}\n"
        ));
    }
    text.push_str(
        "components:\n  api: { kind: service, effects: [bank] }\n  bank: { kind: external }\n",
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.yaml");
    std::fs::write(&path, text).unwrap();
    let out = Command::cargo_bin("replay-audit")
        .unwrap()
        .args(["check", "--format", "markdown"])
        .arg(&path)
        .output()
        .unwrap();
    let md = String::from_utf8(out.stdout).unwrap();
    // RH040 for each of the 600 intents.
    assert!(
        md.starts_with("## replay-audit\n\n**600 findings**"),
        "{}",
        &md[..200]
    );
    assert!(
        md.chars().count() <= 65_536,
        "{} characters",
        md.chars().count()
    );
    let shown = md
        .lines()
        .filter(|l| l.starts_with("| ") && l.contains(" RH0"))
        .count();
    assert!(shown > 50 && shown < 600, "{shown} rows");
    assert!(
        md.contains(&format!(
            "… {} more findings, 600 in all: GitHub keeps a comment under 65,536 characters; `replay-audit check` lists every finding.",
            600 - shown
        )),
        "{}",
        &md[md.len() - 600..]
    );
    assert_eq!(md.matches("<details>").count(), shown);
}
