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

/// Each output leaves accepted findings out or keeps them by its own rule:
/// SARIF leaves a waived finding out, JUnit keeps it as a skipped case,
/// whichever of them is the `--format` one.
#[test]
fn each_output_treats_accepted_findings_its_own_way() {
    let d = tempfile::tempdir().unwrap();
    incident(d.path());
    std::fs::write(
        d.path().join("replay-audit.toml"),
        "[[waiver]]\ncode = \"RH001\"\nreason = \"records move to the ledger in PAY-12\"\nexpires = \"2099-01-01\"\n",
    )
    .unwrap();
    for args in [
        [
            "m.yaml",
            "--format",
            "sarif",
            "-o",
            "r.sarif",
            "-o",
            "junit=j.xml",
        ],
        [
            "m.yaml",
            "--format",
            "junit",
            "-o",
            "j.xml",
            "-o",
            "sarif=r.sarif",
        ],
    ] {
        let (code, _, stderr) = check(d.path(), &args, None);
        assert_eq!(code, Some(0), "{stderr}");
        let sarif: Value =
            serde_json::from_str(&std::fs::read_to_string(d.path().join("r.sarif")).unwrap())
                .unwrap();
        let rules: Vec<&str> = sarif["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["ruleId"].as_str().unwrap())
            .collect();
        assert_eq!(rules, ["RH005", "RH040"], "{args:?}");
        let junit = std::fs::read_to_string(d.path().join("j.xml")).unwrap();
        assert!(
            junit.contains("RH001 replay-outlives-dedup-window") && junit.contains("<skipped"),
            "{args:?}: {junit}"
        );
    }
}

/// `check --each` writes each `-o FORMAT=FILE` too.
#[test]
fn each_writes_every_other_format() {
    let d = tempfile::tempdir().unwrap();
    for a in ["a", "b"] {
        std::fs::create_dir(d.path().join(a)).unwrap();
        incident(&d.path().join(a));
    }
    let (code, stdout, stderr) = check(
        d.path(),
        &[
            "--each",
            ".",
            "--format",
            "table",
            "-o",
            "junit=j.xml",
            "-o",
            "gitlab=gl.json",
        ],
        None,
    );
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stdout.contains("RH001"), "{stdout}");
    let junit = std::fs::read_to_string(d.path().join("j.xml")).unwrap();
    assert_eq!(junit.matches("<testsuite ").count(), 2, "{junit}");
    let gl: Value =
        serde_json::from_str(&std::fs::read_to_string(d.path().join("gl.json")).unwrap()).unwrap();
    assert_eq!(gl.as_array().unwrap().len(), 6);
}
