//! A reader that stops early (`replay-audit check | head`) ends the output
//! quietly: no "Broken pipe" error on stderr, and the exit code is the
//! run's own (1 for findings), in every format.

use std::process::{Command, Stdio};

/// Runs the binary with standard output a pipe whose reading end is
/// already closed, so its first write fails with a closed pipe.
fn closed_stdout(args: &[&str]) -> (Option<i32>, String) {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = Command::new(env!("CARGO_BIN_EXE_replay-audit"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const MANIFEST: &str = "fixtures/incident-dlq-redrive.yaml";

/// `n` copies of a pipeline whose one-hour idempotency records are shorter
/// than the queue's retention (RH001 each), so the output of every format
/// is larger than the writers' buffers and a write fails mid-report.
fn many_findings(n: usize) -> tempfile::TempDir {
    let mut text = String::from("version: 1\nintents:\n");
    for i in 0..n {
        text += &format!(
            "  pay-{i}: {{origin: s-{i}, effect: rail-{i}, key: {{fields: [id], persisted_before_retry: true}}}}\n"
        );
    }
    text += "components:\n";
    for i in 0..n {
        text += &format!(
            "  s-{i}: {{kind: service, sends_to: q-{i}}}\n  q-{i}: {{kind: sqs-standard, delivers_to: w-{i}}}\n  w-{i}: {{kind: function, dedup: {{store: d-{i}, claim: conditional-write}}, effects: [rail-{i}]}}\n  d-{i}: {{kind: powertools-idempotency}}\n  rail-{i}: {{kind: external, accepts_key: false}}\n"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("many.yaml"), text).unwrap();
    dir
}

#[test]
fn check_in_every_format_ends_quietly() {
    let dir = many_findings(120);
    let manifest = dir.path().join("many.yaml");
    let manifest = manifest.to_str().unwrap();
    for format in [
        "table", "json", "sarif", "junit", "github", "markdown", "gitlab", "human", "concise",
    ] {
        let whole = Command::new(env!("CARGO_BIN_EXE_replay-audit"))
            .args(["check", manifest, "--format", format])
            .output()
            .unwrap();
        // A Markdown comment is cut under GitHub's 65,536 characters; the
        // closed pipe still fails its first write.
        assert!(
            format == "markdown" || whole.stdout.len() > 64 * 1024,
            "--format {format} writes only {} bytes: the pipe would not fill",
            whole.stdout.len()
        );
        for path in [manifest, MANIFEST] {
            let (code, stderr) = closed_stdout(&["check", path, "--format", format]);
            assert_eq!(
                (code, stderr.as_str()),
                (Some(1), ""),
                "check {path} --format {format}"
            );
        }
    }
}

#[test]
fn other_commands_end_quietly() {
    for args in [
        &["horizon", MANIFEST, "--format", "json"][..],
        &["horizon", MANIFEST],
        &["explain", "RH001"],
        &["schema"],
        &["graph", MANIFEST],
    ] {
        let (code, stderr) = closed_stdout(args);
        assert_eq!((code, stderr.as_str()), (Some(0), ""), "{args:?}");
    }
}
