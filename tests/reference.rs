//! The man pages render with the man program and the bash completion
//! completes after the subcommand in a real bash (the generated reference
//! itself is tested beside its generator, `src/manual/tests.rs`).

use std::process::Command;

use assert_cmd::cargo::CommandCargoExt;

#[test]
fn man_renders_with_the_man_program_when_installed() {
    if Command::new("man").arg("--version").output().is_err() {
        eprintln!("man is not installed: rendering not checked");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let status = Command::cargo_bin("replay-audit")
        .unwrap()
        .args(["man", "--out-dir"])
        .arg(dir.path())
        .status()
        .unwrap();
    assert!(status.success());
    let out = Command::new("man")
        .arg("-l")
        .arg(dir.path().join("replay-audit-check.1"))
        .env("MANWIDTH", "100")
        .env("MAN_KEEP_FORMATTING", "")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("EXIT STATUS"), "{text}");
    assert!(text.contains("--write-baseline"), "{text}");
    let unknown = Command::cargo_bin("replay-audit")
        .unwrap()
        .args(["man", "chek"])
        .output()
        .unwrap();
    assert_eq!(unknown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("did you mean `check`"));
}

/// What bash completes for `words`, the last being the word under the cursor.
fn complete(script: &std::path::Path, words: &[&str]) -> Vec<String> {
    let cword = words.len() - 1;
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let prev = if cword > 0 { words[cword - 1] } else { "" };
    let program = format!(
        "source '{}'\nCOMP_WORDS=({})\nCOMP_CWORD={cword}\nCOMP_LINE='{}'\nCOMP_POINT=${{#COMP_LINE}}\n_replay__audit replay-audit '{}' '{prev}'\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"\n",
        script.display(),
        quoted.join(" "),
        words.join(" "),
        words[cword]
    );
    let out = Command::new("bash")
        .args(["--norc", "-c", &program])
        .output()
        .expect("bash");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect()
}

#[test]
fn bash_completes_after_the_subcommand() {
    if Command::new("bash").arg("--version").output().is_err() {
        eprintln!("bash is not installed: completion not checked");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("replay-audit.bash");
    let bash = Command::cargo_bin("replay-audit")
        .unwrap()
        .args(["completions", "bash"])
        .output()
        .unwrap();
    assert!(bash.status.success());
    std::fs::write(&script, bash.stdout).unwrap();
    let formats = [
        "table", "json", "sarif", "junit", "github", "markdown", "gitlab", "human", "concise",
    ];
    assert_eq!(
        complete(&script, &["replay-audit", "check", "--format", ""]),
        formats
    );
    assert_eq!(
        complete(&script, &["replay-audit", "check", "--fail-on", "w"]),
        ["warning"]
    );
    assert_eq!(
        complete(&script, &["replay-audit", "what-if", "--format", ""]),
        ["text", "json"]
    );
    assert_eq!(
        complete(&script, &["replay-audit", "graph", "--format", "m"]),
        ["mermaid"]
    );
    assert_eq!(complete(&script, &["replay-audit", "ch"]), ["check"]);
    // Rule codes and names after `explain`, kinds after `catalog`.
    assert_eq!(
        complete(&script, &["replay-audit", "explain", "RH00"]),
        ["RH001", "RH002", "RH003", "RH004", "RH005", "RH006"]
    );
    assert_eq!(
        complete(&script, &["replay-audit", "explain", "replay-out"]),
        ["replay-outlives-dedup-window"]
    );
    assert_eq!(
        complete(&script, &["replay-audit", "catalog", "sqs-"]),
        ["sqs-standard", "sqs-fifo"]
    );
    let opts = complete(&script, &["replay-audit", "check", "--wr"]);
    assert_eq!(opts, ["--write-baseline"]);
}
