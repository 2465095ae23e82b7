//! One hostile manifest through every command in every format (issue #38,
//! item 3): each free-text field holds a terminal escape that sets the
//! clipboard (OSC 52), a screen clear, a lone CR, a bell, a bidirectional
//! override, a newline starting a forged `::error` line, old-style
//! `##[error]` and `##[add-mask]` commands and a bare URL. Every byte
//! stream that reaches a terminal or a CI log (stdout and stderr of every
//! command and format) must hold none of them raw.

use std::path::Path;

use assert_cmd::Command;

#[path = "common/output_safety.rs"]
mod output_safety;
use output_safety::{Text, manifest};

/// The hostile text, as a YAML double-quoted string's content.
const HOSTILE: &str = r"a\e]52;c;ZXZpbA==\a\e[2J\rb\x07\u202eZ\u009b\n::error::forged ##[error]old ##[add-mask]x https://evil.example/p";

fn hostile_manifest() -> String {
    manifest(text())
}

fn text() -> Text<'static> {
    Text {
        name: Some(HOSTILE),
        description: Some(HOSTILE),
        key_field: "id",
        fingerprint: Some(HOSTILE),
        replay: HOSTILE,
        service: Some(HOSTILE),
    }
}

/// What `stream` of `what` must not hold. `genuine` allows the lines of
/// `--format github` (our own workflow commands); `markdown` also forbids
/// a live URL.
fn assert_inert(what: &str, stream: &[u8], genuine: bool, markdown: bool) {
    let s = String::from_utf8_lossy(stream);
    for (raw, name) in [
        ('\u{1b}', "ESC"),
        ('\u{7}', "BEL"),
        ('\u{9b}', "CSI"),
        ('\u{202e}', "RLO"),
    ] {
        assert!(!s.contains(raw), "{what}: a raw {name} in:\n{s}");
    }
    assert!(
        !s.replace("\r\n", "\n").contains('\r'),
        "{what}: a lone CR in:\n{s}"
    );
    assert!(!s.contains("##["), "{what}: `##[` in:\n{s}");
    for line in s.lines() {
        let t = line.trim_start();
        if genuine
            && (t.starts_with("::error file=")
                || t.starts_with("::warning file=")
                || t.starts_with("::notice "))
        {
            // One line of ours: the forged text stays inside its message.
            continue;
        }
        assert!(!t.starts_with("::"), "{what}: a workflow command: {line}");
    }
    if markdown {
        assert!(!s.contains("https://evil"), "{what}: a live URL in:\n{s}");
    }
}

fn run(dir: &Path, args: &[&str], stdin: &str) -> (Option<i32>, Vec<u8>, Vec<u8>) {
    let out = Command::cargo_bin("replay-audit")
        .unwrap()
        .current_dir(dir)
        .args(args)
        .write_stdin(stdin)
        .output()
        .unwrap();
    (out.status.code(), out.stdout, out.stderr)
}

#[test]
fn every_command_in_every_format_keeps_hostile_text_inert() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("m.yaml"), hostile_manifest()).unwrap();
    std::fs::create_dir(d.path().join("base")).unwrap();
    // The base keeps keys 60 days: against it the change introduces RH001.
    std::fs::write(
        d.path().join("base/m.yaml"),
        hostile_manifest().replace("retention: 1h", "retention: 60d"),
    )
    .unwrap();
    let mut runs: Vec<(Vec<&str>, &str, Option<i32>)> = Vec::new();
    for f in [
        "table", "human", "concise", "junit", "markdown", "github", "sarif", "json",
    ] {
        runs.push((
            vec!["check", "m.yaml", "--format", f, "--color", "never"],
            "",
            Some(1),
        ));
    }
    for f in ["text", "json"] {
        runs.push((vec!["horizon", "m.yaml", "--format", f], "", Some(0)));
        runs.push((
            vec!["horizon", "m.yaml", "--required", "--format", f],
            "",
            Some(0),
        ));
        runs.push((
            vec![
                "what-if",
                "m.yaml",
                "--set",
                "keys.retention=2h",
                "--format",
                f,
            ],
            "",
            Some(1),
        ));
    }
    for f in ["table", "markdown", "json"] {
        runs.push((
            vec!["diff", "m.yaml", "--base-dir", "base", "--format", f],
            "",
            Some(1),
        ));
    }
    for f in ["markdown", "html"] {
        runs.push((vec!["report", "m.yaml", "--format", f], "", Some(0)));
    }
    for f in ["dot", "mermaid"] {
        runs.push((vec!["graph", "m.yaml", "--format", f], "", Some(0)));
    }
    runs.push((
        vec!["shell", "m.yaml"],
        "check\nhorizon\nwhy RH001\nset keys.retention=2h\ndiff\nchanges\ncheck\n",
        Some(0),
    ));
    for (args, stdin, want) in &runs {
        let (code, out, err) = run(d.path(), args, stdin);
        let what = args.join(" ");
        assert_eq!(code, *want, "{what}: {}", String::from_utf8_lossy(&err));
        // `--required` lists layers and numbers only, Mermaid ids, `diff` what
        // changed (here RH001, whose message quotes no free text); every
        // other output shows the hostile text somewhere.
        let quiet = args.contains(&"--required") || args.contains(&"mermaid") || args[0] == "diff";
        assert!(
            quiet || String::from_utf8_lossy(&out).contains("evil.example"),
            "{what}: the hostile text is not shown at all"
        );
        let genuine = args.contains(&"github");
        let markdown = args.contains(&"markdown");
        // JSON and SARIF carry the exact text as escaped data: their
        // control characters are `\u` escapes, checked by parsing.
        if args.contains(&"json") || args.contains(&"sarif") {
            let v: serde_json::Value = serde_json::from_slice(&out).expect(&what);
            assert!(quiet || v.to_string().contains("##[add-mask]"), "{what}");
            assert!(!out.contains(&0x1b), "{what}: a raw ESC");
            // The data is exact, and the log shows no `##[`: the second
            // `#` is the escape `\u0023`.
            assert!(
                !String::from_utf8_lossy(&out).contains("##["),
                "{what}: `##[` in the JSON"
            );
        } else {
            assert_inert(&format!("{what} (stdout)"), &out, genuine, markdown);
        }
        assert_inert(&format!("{what} (stderr)"), &err, false, false);
    }
}

#[test]
fn an_input_error_echoing_hostile_text_is_inert_in_every_format() {
    // The hostile text as an id: refused, and echoed in the error.
    let text = format!(
        "version: 1\ncomponents:\n  svc:\n    kind: service\n    sends_to: \"{HOSTILE}\"\n"
    );
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("m.yaml"), text).unwrap();
    for f in [
        "table", "human", "concise", "junit", "markdown", "github", "sarif", "json",
    ] {
        let (code, out, err) = run(d.path(), &["check", "m.yaml", "--format", f], "");
        assert_eq!(code, Some(2), "{f}");
        let err_text = String::from_utf8_lossy(&err);
        assert!(err_text.contains("is not a valid id"), "{f}: {err_text}");
        assert!(
            err_text.contains("#\u{200b}#[add-mask]x"),
            "{f}: {err_text}"
        );
        assert_inert(&format!("{f} (stderr)"), &err, false, false);
        if f != "json" && f != "sarif" {
            assert_inert(
                &format!("{f} (stdout)"),
                &out,
                f == "github",
                f == "markdown",
            );
        }
    }
}
