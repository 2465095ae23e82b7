//! Output safety: strings a manifest author controls (names, descriptions,
//! replay names, kind typos, file names) reach every output format inert.
//! No tag opens in HTML or Markdown, no CDATA or element closes in XML, no
//! workflow command starts in a GitHub annotation, no `@team` is pinged and
//! no ESC byte from the manifest reaches a terminal.

use std::path::Path;

use assert_cmd::Command;

#[path = "common/output_safety.rs"]
mod output_safety;
use output_safety::{Text, dir_with, manifest, outcome};

/// The payment manifest with hostile text in every free-text field. YAML
/// escapes: `\e` is ESC; `\n` a newline inside the string.
fn evil() -> String {
    manifest(Text {
        name: Some(r"evil \e[31mred\e[0m <script>alert(1)</script> ]]> :: % @org/team\nline2"),
        description: Some(r"desc \e[2J <script>x</script> ]]> @org/team\n::error::pwned"),
        key_field: "id",
        fingerprint: None,
        replay: r"replay \e[2J <b>bold</b> ]]> %0A ::warning::x @org/team\n::error::pwned \u202eevil",
        service: Some(r"svc \e]0;title\a <img src=x onerror=alert(1)>"),
    })
}

/// Exit code, stdout and stderr of `replay-audit ARGS` in `dir`, with
/// colours left to the command line.
fn run(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    outcome(
        Command::cargo_bin("replay-audit")
            .unwrap()
            .current_dir(dir)
            .env_remove("NO_COLOR")
            .args(args),
    )
}

/// A fresh folder holding [`evil`] as `file`.
fn evil_dir(file: &str) -> tempfile::TempDir {
    dir_with(file, &evil())
}

/// No control character other than newline (and tab) in `s`.
fn assert_no_controls(what: &str, s: &str) {
    for (i, c) in s.char_indices() {
        assert!(
            !c.is_control() || c == '\n' || c == '\t',
            "{what}: control character {c:?} at byte {i}: {:?}",
            s[..i].chars().rev().take(60).collect::<String>()
        );
    }
}

/// Text a person reads (terminal, HTML, Markdown, annotations) also holds
/// no bidirectional override that could reorder what they see. Machine
/// formats (JSON, SARIF, JUnit) keep the manifest's text exactly.
fn assert_for_people(what: &str, s: &str) {
    assert_no_controls(what, s);
    for (i, c) in s.char_indices() {
        assert!(
            !matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'),
            "{what}: bidirectional override at byte {i}"
        );
    }
}

/// The manifest's `@org/team` never appears as a mention.
fn assert_no_mention(what: &str, s: &str) {
    assert!(!s.contains("@org"), "{what}: a mention of @org survives");
    assert!(s.contains("@\u{200d}org/team"), "{what}: the text is kept");
}

#[test]
fn table_and_json_carry_no_escape_byte() {
    let d = evil_dir("m.yaml");
    let (code, out, err) = run(d.path(), &["check", "m.yaml", "--color", "never"]);
    assert_eq!(code, Some(1), "{err}");
    assert_for_people("table", &out);
    assert!(out.contains("␛[2J <b>bold</b>"), "{out}");
    // With colours on, the only escapes are the table's own styling.
    let (_, out, _) = run(d.path(), &["check", "m.yaml", "--color", "always"]);
    assert!(!out.contains("\x1b[2J"), "{out}");
    assert!(out.contains("␛[2J"));
    let (_, out, _) = run(d.path(), &["check", "m.yaml", "--format", "json"]);
    assert_no_controls("json", &out);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    // JSON escapes, and the string decodes to what the manifest says.
    let a = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["code"] == "RH005")
        .unwrap();
    assert!(
        a["assumptions"][0]
            .as_str()
            .unwrap()
            .starts_with("replay `replay \x1b[2J <b>bold</b> ]]> %0A ::warning::x @org/team\n::error::pwned \u{202e}evil`"),
        "{a}"
    );
    let (_, out, _) = run(d.path(), &["horizon", "m.yaml"]);
    assert_for_people("horizon", &out);
    assert!(out.contains("replay `replay ␛[2J"), "{out}");
}

#[test]
fn html_report_opens_no_tag() {
    let d = evil_dir("m.yaml");
    let (code, out, err) = run(d.path(), &["report", "m.yaml", "--format", "html"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(!out.contains("<script"), "the report holds a script tag");
    assert!(!out.contains("<b>bold"));
    assert!(!out.contains("<img"));
    assert!(out.contains(
        "<title>Idempotency review: evil ␛[31mred␛[0m &lt;script&gt;alert(1)&lt;/script&gt; ]]&gt; :: % @org/team"
    ));
    assert_for_people("html", &out);
}

#[test]
fn markdown_outputs_are_inert() {
    let d = evil_dir("m.yaml");
    for args in [
        ["check", "m.yaml", "--format", "markdown"],
        ["report", "m.yaml", "--format", "markdown"],
    ] {
        let (_, out, err) = run(d.path(), &args);
        assert!(err.is_empty(), "{err}");
        let what = format!("{args:?}");
        assert!(!out.contains("<script"), "{what}");
        assert!(!out.contains("<b>"), "{what}");
        assert!(!out.contains("<img"), "{what}");
        assert_for_people(&what, &out);
        assert_no_mention(&what, &out);
        // The manifest's newline never starts a line of the comment.
        assert!(!out.lines().any(|l| l.starts_with("::error")), "{what}");
    }
    let (_, out, _) = run(d.path(), &["check", "m.yaml", "--format", "markdown"]);
    assert!(
        out.contains("replay \\`replay  \\[2J &lt;b&gt;bold&lt;/b&gt; \\]\\]&gt; %0A ::warning::x @\u{200d}org/team<br>::error::pwned"),
        "{out}"
    );
}

#[test]
fn junit_is_well_formed_xml_text() {
    let d = evil_dir("m.yaml");
    let (_, out, _) = run(d.path(), &["check", "m.yaml", "--format", "junit"]);
    assert_no_controls("junit", &out);
    assert!(!out.contains("<script"));
    assert!(!out.contains("<b>"));
    assert!(!out.contains("]]>"), "a CDATA end in the XML");
    assert!(out.contains("&lt;b&gt;bold&lt;/b&gt; ]]&gt;"), "{out}");
    // Every `<` opens a tag of the JUnit vocabulary.
    for tag in out.split('<').skip(1) {
        let name: String = tag
            .trim_start_matches(['/', '?'])
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect();
        assert!(
            [
                "xml",
                "testsuites",
                "testsuite",
                "testcase",
                "failure",
                "skipped",
                "properties",
                "property",
                "system-out",
                "system-err"
            ]
            .contains(&name.as_str()),
            "unexpected tag `{name}`"
        );
    }
}

#[test]
fn sarif_is_json_escaped() {
    let d = evil_dir("m.yaml");
    let (_, out, _) = run(d.path(), &["check", "m.yaml", "--format", "sarif"]);
    assert_no_controls("sarif", &out);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let results = v["runs"][0]["results"].as_array().unwrap();
    assert!(results.iter().any(|r| {
        r["message"]["text"]
            .as_str()
            .unwrap()
            .contains("<b>bold</b> ]]> %0A ::warning::x @org/team\n::error::pwned")
    }));
}

#[test]
fn github_annotations_cannot_start_a_command() {
    let d = evil_dir("m.yaml");
    let (_, out, _) = run(d.path(), &["check", "m.yaml", "--format", "github"]);
    assert_for_people("github", &out);
    for line in out.lines() {
        assert!(
            line.starts_with("::error ")
                || line.starts_with("::warning ")
                || line.starts_with("::notice "),
            "{line}"
        );
    }
    assert!(
        out.contains("%250A ::warning::x @org/team%0A::error::pwned"),
        "{out}"
    );
}

#[cfg(unix)]
#[test]
fn odd_file_names_are_escaped_everywhere() {
    let name = "<script> ]]> @org::%0A\n::error::pwned \x1b[2J.yaml";
    let d = evil_dir(name);
    let (_, out, _) = run(d.path(), &["check", name, "--format", "github"]);
    assert_for_people("github", &out);
    assert!(out.lines().all(|l| l.starts_with("::")), "{out}");
    assert!(
        out.contains("file=<script> ]]> @org%3A%3A%250A%0A%3A%3Aerror%3A%3Apwned ␛[2J.yaml,"),
        "{out}"
    );
    for format in ["table", "markdown", "junit", "sarif", "json"] {
        let (_, out, _) = run(
            d.path(),
            &["check", name, "--format", format, "--color", "never"],
        );
        assert!(!out.contains('\x1b'), "{format}");
        // JSON and SARIF carry the name as data (checked above: escaped).
        if matches!(format, "table" | "json" | "sarif") {
            continue;
        }
        assert!(!out.contains("<script"), "{format}");
        assert!(!out.contains("]]>"), "{format}");
        if format == "markdown" {
            assert!(!out.lines().any(|l| l.starts_with("::error")), "{format}");
        }
    }
    let (_, out, _) = run(d.path(), &["check", name, "--format", "markdown"]);
    assert_no_mention("markdown file name", &out);
    let (_, out, _) = run(d.path(), &["report", name, "--format", "html"]);
    assert!(!out.contains("<script"));
    assert_for_people("html", &out);
}

#[test]
fn error_messages_show_escapes_instead_of_sending_them() {
    let d = dir_with(
        "m.yaml",
        "version: 1\ncomponents:\n  svc:\n    kind: \"serv\\e[31mice\"\n  \"\\e[2Jbad\": { kind: service }\n",
    );
    for color in ["never", "always"] {
        let (code, out, err) = run(d.path(), &["check", "m.yaml", "--color", color]);
        assert_eq!(code, Some(2));
        assert!(out.is_empty());
        assert!(!err.contains("\x1b[31mice"), "{err}");
        assert!(!err.contains("\x1b[2J"), "{err}");
        assert!(err.contains("unknown kind `serv␛[31mice`"), "{err}");
        assert!(
            err.contains("`␛[2Jbad` is not a valid component id"),
            "{err}"
        );
        if color == "never" {
            assert_for_people("stderr", &err);
        }
    }
}

#[test]
fn graph_outputs_carry_no_escape_byte() {
    let d = evil_dir("m.yaml");
    for format in ["dot", "mermaid"] {
        let (code, out, err) = run(d.path(), &["graph", "m.yaml", "--format", format]);
        assert_eq!(code, Some(0), "{err}");
        assert_for_people(format, &out);
        if format == "mermaid" {
            assert!(!out.contains("<script"), "{format}");
        }
    }
}
