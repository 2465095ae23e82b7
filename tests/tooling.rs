//! `init`, `schema`, `completions` and `man`.

use assert_cmd::cargo::cargo_bin_cmd;

fn run(args: &[&str]) -> (i32, String, String) {
    let out = cargo_bin_cmd!("replay-audit")
        .args(args)
        .output()
        .expect("runs");
    (
        out.status.code().expect("exit code"),
        String::from_utf8(out.stdout).expect("utf-8"),
        String::from_utf8(out.stderr).expect("utf-8"),
    )
}

#[test]
fn init_writes_a_starter_that_passes_check() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("architecture.yaml");
    let f = file.to_str().unwrap();
    let (code, stdout, stderr) = run(&["init", "--output", f]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "");
    assert_eq!(stderr, format!("wrote {f}; run `replay-audit check {f}`\n"));
    let (code, stdout, stderr) = run(&["check", f, "--format", "json"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        v["summary"],
        serde_json::json!({"error": 0, "warning": 0, "info": 1})
    );
    assert_eq!(v["findings"][0]["code"], "RH005");
    // Never overwrites.
    let (code, _, stderr) = run(&["init", "--output", f]);
    assert_eq!(code, 2);
    assert!(stderr.contains("already exists"), "{stderr}");
}

#[test]
fn init_prints_the_starter_to_stdout() {
    let (code, stdout, _) = run(&["init"]);
    assert_eq!(code, 0);
    // The printed starter is the written one with the default path in its
    // header.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("architecture.yaml");
    let f = file.to_str().unwrap();
    assert_eq!(run(&["init", "--output", f]).0, 0);
    let written = std::fs::read_to_string(&file).unwrap();
    assert_eq!(
        stdout,
        written.replacen(f, "replay-audit/architecture.yaml", 1)
    );
    assert!(stdout.starts_with("# "), "commented");
}

#[test]
fn schema_is_json_with_the_manifest_title() {
    let (code, stdout, _) = run(&["schema"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["title"], "replay-audit manifest, version 1");
    assert_eq!(v["additionalProperties"], false);
    assert_eq!(v["required"], serde_json::json!(["version"]));
}

#[test]
fn completions_for_each_shell() {
    for (shell, marker) in [
        ("bash", "complete -F _replay__audit"),
        ("zsh", "#compdef replay-audit"),
        ("fish", "complete -c replay-audit"),
    ] {
        let (code, stdout, stderr) = run(&["completions", shell]);
        assert_eq!(code, 0, "{shell}: {stderr}");
        assert!(stdout.contains(marker), "{shell}");
        assert!(
            stdout.contains("write-baseline"),
            "{shell} completes check's options"
        );
    }
    let (code, _, _) = run(&["completions", "powershell"]);
    assert_eq!(code, 2);
}

#[test]
fn man_page_is_roff() {
    let (code, stdout, _) = run(&["man"]);
    assert_eq!(code, 0);
    assert!(
        stdout.starts_with(".ie \\n(.g .ds Aq"),
        "{}",
        &stdout[..80.min(stdout.len())]
    );
    assert!(stdout.contains(".TH replay-audit 1"), "{stdout}");
}
