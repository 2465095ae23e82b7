//! Several outputs in one `check`: `-o FORMAT=FILE` besides the `--format`
//! output, the Markdown summary appended to GitHub's step summary, input
//! errors in every machine file.

use assert_cmd::Command;
use serde_json::Value;

fn check(
    dir: &std::path::Path,
    args: &[&str],
    summary: Option<&std::path::Path>,
) -> (Option<i32>, String, String) {
    let mut c = Command::cargo_bin("replay-audit").unwrap();
    c.current_dir(dir)
        .env_remove("GITHUB_STEP_SUMMARY")
        .arg("check")
        .args(args);
    if let Some(s) = summary {
        c.env("GITHUB_STEP_SUMMARY", s);
    }
    let out = c.output().unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn incident(dir: &std::path::Path) {
    std::fs::copy(
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/incident-dlq-redrive.yaml"
        ),
        dir.join("m.yaml"),
    )
    .unwrap();
}

#[test]
fn one_run_writes_the_log_and_every_machine_file() {
    let d = tempfile::tempdir().unwrap();
    incident(d.path());
    let summary = d.path().join("summary.md");
    std::fs::write(&summary, "earlier step\n").unwrap();
    let (code, stdout, stderr) = check(
        d.path(),
        &[
            "m.yaml",
            "--format",
            "concise",
            "-o",
            "sarif=r.sarif",
            "-o",
            "junit=j.xml",
            "-o",
            "gitlab=gl.json",
        ],
        Some(&summary),
    );
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stdout.contains("RH001"), "{stdout}");
    let sarif: Value =
        serde_json::from_str(&std::fs::read_to_string(d.path().join("r.sarif")).unwrap()).unwrap();
    assert_eq!(sarif["runs"][0]["results"].as_array().unwrap().len(), 3);
    let junit = std::fs::read_to_string(d.path().join("j.xml")).unwrap();
    assert!(
        junit.contains("RH001 replay-outlives-dedup-window"),
        "{junit}"
    );
    let gl: Value =
        serde_json::from_str(&std::fs::read_to_string(d.path().join("gl.json")).unwrap()).unwrap();
    assert_eq!(gl.as_array().unwrap().len(), 3);
    // Appended after what the job's earlier steps wrote.
    let s = std::fs::read_to_string(&summary).unwrap();
    assert!(
        s.starts_with("earlier step\n## replay-audit\n\n**3 findings**"),
        "{s}"
    );
}

#[test]
fn two_plain_files_are_a_usage_error() {
    let d = tempfile::tempdir().unwrap();
    incident(d.path());
    let (code, _, stderr) = check(d.path(), &["m.yaml", "-o", "a.txt", "-o", "b.txt"], None);
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains("`-o b.txt`: the `--format` output already goes to another file"),
        "{stderr}"
    );
    assert!(!d.path().join("a.txt").exists());
}

#[test]
fn an_input_error_reaches_every_machine_file() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("m.yaml"), "version: 1\ncomponents: [\n").unwrap();
    let (code, _, _) = check(
        d.path(),
        &[
            "m.yaml",
            "--format",
            "human",
            "-o",
            "sarif=r.sarif",
            "-o",
            "gitlab=gl.json",
        ],
        None,
    );
    assert_eq!(code, Some(2));
    let sarif: Value =
        serde_json::from_str(&std::fs::read_to_string(d.path().join("r.sarif")).unwrap()).unwrap();
    assert_eq!(
        sarif["runs"][0]["invocations"][0]["executionSuccessful"],
        false
    );
    let gl: Value =
        serde_json::from_str(&std::fs::read_to_string(d.path().join("gl.json")).unwrap()).unwrap();
    assert_eq!(gl[0]["severity"], "blocker");
}
