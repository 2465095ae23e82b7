//! Forged or broken output (issue #14, items 4-7): every string of a
//! manifest or an imported template is attacker-controlled when CI runs on
//! pull requests from anyone. Markdown opens no link, image or tag; XML
//! holds no character XML 1.0 forbids; no echoed value starts a line a CI
//! runner reads as a workflow command; an imported name never becomes a
//! field of the generated manifest.

use std::path::Path;

use assert_cmd::Command;

#[path = "common/output_safety.rs"]
mod output_safety;
use output_safety::{Text, dir_with, manifest, outcome};

/// Exit code, stdout and stderr of `replay-audit ARGS` in `dir`.
fn run(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    outcome(
        Command::cargo_bin("replay-audit")
            .unwrap()
            .current_dir(dir)
            .args(args),
    )
}

// ------------------------------------------------------------- Markdown

/// Link, image, tag, cell break and emphasis in one string.
const MD: &str = "[x](https://evil.example) ![i](https://evil.example/i.png) <img src=x> | *b*";
/// `MD` as `markdown::escape` writes it.
/// (A zero-width joiner after the scheme's colon keeps a bare URL from
/// becoming a link.)
const MD_ESCAPED: &str = "\\[x\\](https:\u{200d}//evil.example) \\!\\[i\\](https:\u{200d}//evil.example/i.png) &lt;img src=x&gt; \\| \\*b\\*";

/// A manifest whose every free-text string field holds [`MD`].
fn md_manifest() -> String {
    let quoted = format!("\"{MD}\"");
    manifest(Text {
        name: Some(MD),
        description: Some(MD),
        key_field: &quoted,
        fingerprint: Some(MD),
        replay: MD,
        service: Some(MD),
    })
}

/// `line` without its code spans (a run of n backticks up to the next run
/// of n), and whether every span closed.
fn outside_code(line: &str) -> (String, bool) {
    let (mut out, mut rest) = (String::new(), line);
    while let Some(i) = rest.find('`') {
        let escaped = rest[..i].ends_with('\\') && !rest[..i].ends_with("\\\\");
        out.push_str(&rest[..i]);
        let n = rest[i..].chars().take_while(|&c| c == '`').count();
        if escaped {
            out.push('`');
            rest = &rest[i + 1..];
            continue;
        }
        let fence = "`".repeat(n);
        let after = &rest[i + n..];
        // The closing run is exactly n backticks long.
        let mut at = 0;
        let close = loop {
            match after[at..].find(&fence) {
                None => break None,
                Some(j) => {
                    let k = at + j;
                    let more = after[k + n..].starts_with('`');
                    if !more && (k == 0 || !after[..k].ends_with('`')) {
                        break Some(k);
                    }
                    at = k + after[k..].chars().take_while(|&c| c == '`').count();
                }
            }
        };
        match close {
            Some(k) => {
                out.push_str(" CODE ");
                rest = &after[k + n..];
            }
            None => return (out + &rest[i..], false),
        }
    }
    (out + rest, true)
}

/// Unescaped occurrences of `pat` in `s` (not preceded by a backslash).
fn unescaped(s: &str, pat: &str) -> usize {
    s.match_indices(pat)
        .filter(|(i, _)| !s[..*i].ends_with('\\'))
        .count()
}

#[test]
fn review_markdown_escapes_every_manifest_string() {
    let d = dir_with("m.yaml", &md_manifest());
    let (code, out, err) = run(d.path(), &["report", "m.yaml", "--format", "markdown"]);
    assert_eq!(code, Some(0), "{err}");
    // The title, the intent's description and the waiver-free findings
    // carry the escaped text exactly as `check --format markdown` does.
    assert!(
        out.starts_with(&format!("# Idempotency review: {MD_ESCAPED}\n")),
        "{out}"
    );
    assert!(out.contains(&format!("\n{MD_ESCAPED}  \n")), "{out}");
    let mut cells = 0;
    for line in out.lines() {
        if line.starts_with("```") || line.starts_with("  n") || line.starts_with("flowchart") {
            continue; // the Mermaid block: checked by `graph` tests
        }
        let (text, closed) = outside_code(line);
        assert!(closed, "an open code span: {line}");
        for pat in ["](", "<img", "*b*"] {
            assert_eq!(unescaped(&text, pat), 0, "`{pat}` live in: {line}");
        }
        assert_eq!(unescaped(&text, "!["), 0, "an image in: {line}");
        // A table row has as many cell breaks as its table's header.
        if line.starts_with('|') {
            cells += 1;
            let bars = unescaped(&text, "|");
            assert!([4, 5, 10].contains(&bars), "{bars} cell breaks in: {line}");
        }
    }
    assert!(cells > 20, "{out}");
    // The key fields and the fingerprint appear escaped in the answers.
    assert!(out.contains(&format!("\\[{MD_ESCAPED}\\]")), "{out}");
}

#[test]
fn check_markdown_and_review_markdown_escape_alike() {
    let d = dir_with("m.yaml", &md_manifest());
    let (_, check, _) = run(d.path(), &["check", "m.yaml", "--format", "markdown"]);
    let (_, review, _) = run(d.path(), &["report", "m.yaml", "--format", "markdown"]);
    // The replay's assumption: the same escaped text in both.
    assert!(
        review.contains(&format!("replay \\`{MD_ESCAPED}\\` within 30d")),
        "{review}"
    );
    assert!(
        check.contains(&format!("replay \\`{MD_ESCAPED}\\`")),
        "{check}"
    );
}

// ------------------------------------------------------------------ XML

/// U+FFFE, U+FFFF and C0 controls XML 1.0 forbids, in YAML escapes.
const FORBIDDEN: &str = r"bad \uFFFE \uFFFF \x01 \x0B end";

fn xml_manifest() -> String {
    md_manifest().replace(MD, FORBIDDEN)
}

/// Every character is one XML 1.0 allows.
fn assert_xml_chars(what: &str, s: &str) {
    for (i, c) in s.char_indices() {
        let ok =
            matches!(c, '\t' | '\n' | '\r') || (c >= ' ' && c != '\u{fffe}' && c != '\u{ffff}');
        assert!(ok, "{what}: {c:?} at byte {i}");
    }
}

/// Start and end tags pair up (no tag is opened by text, none left open).
fn assert_tags_balance(what: &str, s: &str) {
    let mut open: Vec<String> = Vec::new();
    for piece in s.split('<').skip(1) {
        let tag = piece.split('>').next().unwrap();
        if tag.starts_with('?') || tag.starts_with('!') || tag.ends_with('/') {
            continue;
        }
        let name: String = tag
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect();
        if tag.starts_with('/') {
            assert_eq!(
                open.pop().as_deref(),
                Some(name.as_str()),
                "{what}: </{name}>"
            );
        } else if !["br", "meta", "link"].contains(&name.as_str()) {
            open.push(name);
        }
    }
    assert!(open.is_empty(), "{what}: left open: {open:?}");
}

#[test]
fn junit_holds_no_character_xml_forbids() {
    let d = dir_with("m.yaml", &xml_manifest());
    let (code, out, err) = run(d.path(), &["check", "m.yaml", "--format", "junit"]);
    assert_eq!(code, Some(1), "{err}");
    assert_xml_chars("junit", &out);
    assert_tags_balance("junit", &out);
    // A real XML reader (quick-junit's, on quick-xml) takes the document.
    quick_junit::Report::deserialize_from_str(&out).expect("well-formed JUnit XML");
    // Shown, not dropped: the assumption quotes the replay name.
    assert!(
        out.contains("  assumes: replay `bad \\u{fffe} \\u{ffff} ␁ ␋ end` within 30d"),
        "{out}"
    );
}

#[test]
fn html_report_and_its_svg_hold_no_character_xml_forbids() {
    let d = dir_with("m.yaml", &xml_manifest());
    let (code, out, err) = run(d.path(), &["report", "m.yaml", "--format", "html"]);
    assert_eq!(code, Some(0), "{err}");
    assert_xml_chars("html", &out);
    let svg = &out[out.find("<svg").unwrap()..out.find("</svg>").unwrap() + 6];
    assert_xml_chars("svg", svg);
    assert_tags_balance("svg", svg);
    assert!(out.contains("bad \\u{fffe} \\u{ffff} ␁ ␋ end"), "{out}");
}

// ------------------------------------------------- workflow commands

/// A value that, echoed raw, starts a GitHub workflow command.
const FORGED: &str = r"q\n::error file=README.md::forged\u009b";

/// No line, spaces trimmed, starts with `::` unless it is one of the
/// `--format github` annotations (`genuine`).
fn assert_no_command(what: &str, s: &str, genuine: bool) {
    for line in s.lines() {
        let t = line.trim_start_matches(' ');
        if genuine {
            assert!(
                t == line
                    && (t.starts_with("::error file=")
                        || t.starts_with("::warning file=")
                        || t.starts_with("::notice file=")
                        || t.starts_with("::notice title=replay-audit policy::")),
                "{what}: {line}"
            );
        } else {
            assert!(
                !t.starts_with("::"),
                "{what}: a line starts a command: {line}"
            );
        }
    }
    assert!(!s.contains('\u{9b}'), "{what}: a raw CSI");
}

#[test]
fn a_load_error_echoing_a_forged_id_starts_no_command() {
    // The source line also holds a raw bidi override: the snippet shows it
    // as an escape.
    let text = format!(
        "version: 1\ncomponents:\n  svc:\n    kind: service\n    sends_to: \"{FORGED}\" # \u{202e}x\n"
    );
    let d = dir_with("m.yaml", &text);
    for format in ["table", "github", "json"] {
        let (code, out, err) = run(
            d.path(),
            &["check", "m.yaml", "--format", format, "--color", "never"],
        );
        assert_eq!(code, Some(2));
        // The error is also in the machine format, inert there too.
        match format {
            "table" => assert!(out.is_empty(), "{out}"),
            "github" => {
                assert_no_command("github", &out, true);
                assert_eq!(out.lines().count(), 1, "{out}");
                assert!(
                    out.contains("`q%0A::error file=README.md::forged\\u{9b}`"),
                    "{out}"
                );
            }
            _ => {
                assert_no_command("json", &out, false);
                let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
                let message = v["errors"][0]["message"].as_str().expect("message");
                assert!(
                    message.contains("`q\n::error file=README.md::forged"),
                    "{message}"
                );
            }
        }
        assert_no_command("stderr", &err, false);
        assert!(
            err.starts_with(
                "error: `components.svc.sends_to`: `q\\n::error file=README.md::forged\\u{9b}` is not a valid id\n"
            ),
            "{err}"
        );
        assert!(err.contains(" # \\u{202e}x\n"), "{err}");
        assert!(!err.contains('\u{202e}'), "{err}");
    }
}

#[test]
fn a_finding_echoing_a_forged_value_starts_no_command() {
    let text = md_manifest().replace(MD, &FORGED.replace(r"\u009b", r"\r::warning::x"));
    let d = dir_with("m.yaml", &text);
    for args in [
        &["check", "m.yaml", "--format", "table"][..],
        &["check", "m.yaml", "--format", "markdown"],
        &["check", "m.yaml", "--format", "junit"],
        &["check", "m.yaml", "--format", "json"],
        &["check", "m.yaml", "--format", "sarif"],
        &["horizon", "m.yaml"],
        &["report", "m.yaml", "--format", "markdown"],
        &["report", "m.yaml", "--format", "html"],
        &["graph", "m.yaml", "--format", "dot"],
        &["graph", "m.yaml", "--format", "mermaid"],
    ] {
        let (code, out, err) = run(d.path(), args);
        assert!(code == Some(0) || code == Some(1), "{args:?}: {err}");
        assert_no_command(&format!("{args:?}"), &out, false);
        assert_no_command(&format!("{args:?} stderr"), &err, false);
    }
    // GitHub annotations: one line per finding, the value %-escaped.
    let (_, out, _) = run(d.path(), &["check", "m.yaml", "--format", "github"]);
    assert_no_command("github", &out, true);
    assert!(
        out.contains("replay `q%0A::error file=README.md::forged%0D::warning::x` within 30d"),
        "{out}"
    );
}

#[test]
fn github_properties_escape_colon_and_comma() {
    let text = md_manifest();
    let d = dir_with("a:b,c%d.yaml", &text);
    let (_, out, _) = run(d.path(), &["check", "a:b,c%d.yaml", "--format", "github"]);
    assert_no_command("github", &out, true);
    assert!(
        out.contains("::error file=a%3Ab%2Cc%25d.yaml,line="),
        "{out}"
    );
}

#[test]
fn command_line_values_are_echoed_inert() {
    let d = dir_with("m.yaml", &md_manifest());
    let (code, out, err) = run(d.path(), &["explain", "RH\n::error::x\u{9b}"]);
    assert_eq!(code, Some(2));
    assert!(out.is_empty());
    assert_no_command("explain", &err, false);
    assert!(
        err.starts_with("error: no rule `RH\\n::error::x\\u{9b}`\nhelp: "),
        "{err}"
    );
    let (code, _, err) = run(
        d.path(),
        &["horizon", "m.yaml", "--intent", "p\n::error::x"],
    );
    assert_eq!(code, Some(2));
    assert_no_command("horizon --intent", &err, false);
    assert_eq!(
        err,
        "error: no intent `p\\n::error::x`\nhelp: intents: pay\n"
    );
}

// --------------------------------------------------------------- import

/// An imported name or value that, written raw after `#` or as a value,
/// would start a field of the generated component.
const FIELD: &str = r"x\n    max_backlog: 1s\r    max_backlog: 2s\u0085    max_backlog: 3s";

/// Imports `file`, then loads the result again: it loads, and no line of it
/// sets `max_backlog`.
fn imports_without_the_field(format: &str, file: &str, text: &str) -> String {
    let d = dir_with(file, text);
    let (code, out, err) = run(d.path(), &["import", format, file]);
    assert_eq!(code, Some(0), "{err}");
    assert_no_command("import stderr", &err, false);
    for line in out.lines() {
        assert!(!line.trim_start().starts_with("max_backlog"), "{out}");
        assert!(!line.contains(['\r', '\u{85}', '\u{2028}']), "{out}");
    }
    std::fs::write(d.path().join("out.yaml"), &out).unwrap();
    let (code, json, err) = run(d.path(), &["check", "out.yaml", "--format", "json"]);
    assert_eq!(code, Some(0), "{err}\n{out}");
    assert!(!json.contains("max_backlog"), "{json}");
    out
}

#[test]
fn cloudformation_names_never_become_fields() {
    let template = format!(
        "Resources:\n  \"Payout{FIELD}\":\n    Type: AWS::SQS::Queue\n    Properties:\n      QueueName: \"q{FIELD}\"\n      MessageRetentionPeriod: 3600\n  Alarm{{}}:\n    Type: \"AWS::CloudWatch::Alarm{FIELD}\"\n"
    );
    let template = template.replace("Alarm{}", "\"Alarm\\n    max_backlog: 4s\"");
    let out = imports_without_the_field("cloudformation", "t.yaml", &template);
    assert!(
        out.contains(
            "    retention: 1h  # from Resources.Payoutx\\n    max_backlog: 1s\\r    max_backlog: 2s\\u{85}    max_backlog: 3s.Properties.MessageRetentionPeriod (t.yaml:6)\n"
        ),
        "{out}"
    );
}

#[test]
fn terraform_names_never_become_fields() {
    let plan = format!(
        r#"{{"format_version": "1.2", "planned_values": {{"root_module": {{"resources": [
  {{"address": "aws_sqs_queue.q{FIELD}", "mode": "managed", "type": "aws_sqs_queue", "name": "q{FIELD}",
    "values": {{"name": "q{FIELD}", "message_retention_seconds": 3600}}}},
  {{"address": "aws_thing.t{FIELD}", "mode": "managed", "type": "aws_thing{FIELD}", "name": "t", "values": {{}}}}
]}}}}}}"#
    );
    imports_without_the_field("terraform", "plan.json", &plan);
}

#[test]
fn asyncapi_names_never_become_fields() {
    let doc = format!(
        r#"asyncapi: 3.0.0
info: {{title: "P{FIELD}", version: 1.0.0}}
channels:
  "c{FIELD}":
    address: "c{FIELD}"
    bindings:
      sqs:
        queue:
          name: "c{FIELD}"
          messageRetentionPeriod: 3600
operations:
  "o{FIELD}":
    action: "send{FIELD}"
    channel: {{$ref: '#/channels/nowhere{FIELD}'}}
"#
    );
    imports_without_the_field("asyncapi", "a.yaml", &doc);
}
