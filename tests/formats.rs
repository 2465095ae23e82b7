//! `check --format sarif|junit|github|markdown`: exact output for the
//! incident fixture (snapshots in `tests/snapshots/`), escaping of hostile
//! manifest strings, and byte-identical output across runs.

use std::process::Command;

use replay_audit::diagnostics::{Loc, SourceMap};
use replay_audit::report::{github, junit, markdown, sarif};
use replay_audit::rules::{Finding, RULES, Severity};
use serde_json::Value;

const FIXTURE: &str = "fixtures/incident-dlq-redrive.yaml";
const FORMATS: [&str; 4] = ["sarif", "junit", "github", "markdown"];

/// `replay-audit check FIXTURE --format F`: stdout; exit code 1 (an error finding).
fn check(format: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_replay-audit"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["check", FIXTURE, "--format", format, "--color", "never"])
        .output()
        .expect("runs");
    assert_eq!(
        out.status.code(),
        Some(1),
        "{format}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{format}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

#[test]
fn github_snapshot() {
    insta::assert_snapshot!("github", check("github"));
}

#[test]
fn markdown_snapshot() {
    insta::assert_snapshot!("markdown", check("markdown"));
}

/// The minimum safe retention the terminal's `= help:` names travels in
/// every machine format: 15h 25m horizon + 10 % margin 1h 32m 30s =
/// 16h 57m 30s (examples/payouts.yaml's arithmetic, F040 window).
#[test]
fn every_machine_format_carries_the_fix() {
    let fix = "set `payout-idempotency.retention` to at least 16h 57m 30s (the latest copy 15h 25m after its first sighting + margin 1h 32m 30s)";
    let json: Value = serde_json::from_str(&check("json")).expect("JSON");
    assert_eq!(json["findings"][0]["code"], "RH001");
    assert_eq!(json["findings"][0]["help"], fix);
    assert_eq!(
        json["findings"][1]["help"],
        "`replay-audit explain RH005` says how to fix it"
    );
    let sarif: Value = serde_json::from_str(&check("sarif")).expect("JSON");
    let text = sarif["runs"][0]["results"][0]["message"]["text"]
        .as_str()
        .unwrap();
    assert!(text.ends_with(&format!("twice\nhelp: {fix}")), "{text}");
    assert!(check("junit").contains(&format!("  help: {fix}</failure>")));
    assert!(check("markdown").contains(&format!("- help: {}\n", fix.replace('`', "\\`"))));
}

#[test]
fn junit_snapshot() {
    insta::assert_snapshot!("junit", check("junit"));
}

/// The output as printed, except that the rule descriptors (made from the
/// rule pages, which change on their own schedule) are cut down to their
/// ids (checked against `RULES`) and left out of the snapshot;
/// `descriptors_come_from_the_rules` checks them field by field.
#[test]
fn sarif_snapshot() {
    let out = check("sarif");
    let v: Value = serde_json::from_str(&out).expect("JSON");
    let ids: Vec<&str> = v["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .expect("rules")
        .iter()
        .map(|r| r["id"].as_str().expect("id"))
        .collect();
    assert_eq!(ids, RULES.iter().map(|r| r.code).collect::<Vec<_>>());
    let open = "          \"rules\": [\n";
    let close = "\n          ]\n";
    let start = out.find(open).expect("rules array") + open.len();
    let end = start + out[start..].find(close).expect("end of rules");
    // Adding a rule must not change this snapshot: its ids are checked above.
    let cut = format!(
        "{}            \"<every rule of RULES>\"{}",
        &out[..start],
        &out[end..]
    );
    // The root's absolute URI depends on where the repository is.
    let root =
        replay_audit::report::root::Root::of(std::path::Path::new(env!("CARGO_MANIFEST_DIR")));
    assert_eq!(cut.matches(&root.uri()).count(), 1, "{cut}");
    let cut = cut.replace(&root.uri(), "file:///<repository root>/");
    insta::assert_snapshot!("sarif", cut);
}

#[test]
fn descriptors_come_from_the_rules() {
    let log = sarif::log(&SourceMap::default(), &[], None, &[]);
    let driver = &log.runs[0].tool.driver;
    assert_eq!(driver.name, "replay-audit");
    assert_eq!(driver.version, env!("CARGO_PKG_VERSION"));
    assert_eq!(
        driver.information_uri,
        "https://github.com/replay-audit/replay-audit"
    );
    assert_eq!(driver.rules.len(), RULES.len());
    for (d, r) in driver.rules.iter().zip(RULES) {
        assert_eq!((d.id, d.name), (r.code, r.name));
        assert_eq!(d.short_description.text, r.summary());
        assert_eq!(
            d.help_uri.as_deref(),
            Some(
                format!(
                    "https://github.com/replay-audit/replay-audit/blob/main/docs/rules/{}.md",
                    r.code
                )
                .as_str()
            )
        );
        let level = match r.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "note",
        };
        assert_eq!(d.default_configuration.level, level, "{}", r.code);
        // The page once: as Markdown; the plain text is its first paragraph.
        assert_eq!(d.help.markdown.as_deref(), Some(r.doc), "{}", r.code);
        assert!(!d.full_description.text.is_empty());
        assert_eq!(
            d.help.text,
            format!(
                "{}\n\nThe rule's page (docs/rules/{}.md) says how to fix it.",
                d.full_description.text, r.code
            )
        );
        assert!(d.help.text.len() < r.doc.len(), "{}", r.code);
    }
    // The whole log of a clean run holds each page once.
    let text = sarif::render(&SourceMap::default(), &[]);
    let pages = RULES
        .iter()
        .filter(|r| r.doc.contains("\n## Why it matters\n"))
        .count();
    assert!(pages > 0);
    assert_eq!(text.matches("\\n## Why it matters\\n").count(), pages);
    // ruleIndex points at the rule's own descriptor.
    let f = Finding::new("RH035", "m");
    let log = sarif::log(&SourceMap::default(), &[f], None, &[]);
    let i = log.runs[0].results[0].rule_index;
    assert_eq!(log.runs[0].tool.driver.rules[i].id, "RH035");
}

#[test]
fn every_format_is_byte_identical_across_runs() {
    for format in FORMATS {
        assert_eq!(check(format), check(format), "{format}");
    }
}

#[test]
fn a_clean_architecture_in_every_format() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("clean.yaml");
    // A sound design with an intent: a manifest without one is RH044.
    std::fs::copy("fixtures/rules/RH044-quiet.yaml", &path).expect("copy");
    for format in FORMATS {
        let out = Command::new(env!("CARGO_BIN_EXE_replay-audit"))
            .args(["check", "--format", format])
            .arg(&path)
            .output()
            .expect("runs");
        let stdout = String::from_utf8(out.stdout).expect("UTF-8");
        assert_eq!(
            out.status.code(),
            Some(0),
            "{format}: {stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        match format {
            "github" => assert_eq!(
                stdout,
                "::notice title=replay-audit policy::policy: no replay-audit.toml found; the defaults apply\n"
            ),
            "markdown" => assert_eq!(
                stdout,
                "## replay-audit\n\nNo findings.\n\n### Horizons\n\n\
                 | intent | component | role | horizon | latest copy to stop, after first sighting | window | minimum safe retention | verdict |\n\
                 |---|---|---|---|---|---|---|---|\n\
                 | seller-payout | bank-rail | effect | 4d | - | - | 4d 9h 36m | no window |\n\
                 | seller-payout | payout-ledger | store | 4d | 4d | unbounded | 4d 9h 36m | covered |\n\
                 | seller-payout | payout-worker | guard | 4d | 4d | unbounded | 4d 9h 36m | covered |\n\n\
                 <sub>policy: no replay-audit.toml found; the defaults apply</sub>\n"
            ),
            "sarif" => {
                let v: Value = serde_json::from_str(&stdout).expect("JSON");
                assert_eq!(v["runs"][0]["results"], serde_json::json!([]));
                assert_eq!(
                    v["runs"][0]["invocations"],
                    serde_json::json!([{"executionSuccessful": true}])
                );
            }
            _ => {
                // No finding, no test case: no padding of passing cases;
                // one empty suite carries the policy property.
                assert_eq!(
                    stdout,
                    concat!(
                        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n",
                        "<testsuites name=\"replay-audit\" tests=\"0\" skipped=\"0\" failures=\"0\" errors=\"0\">\n",
                        "    <testsuite name=\"replay-audit\" tests=\"0\" skipped=\"0\" errors=\"0\" failures=\"0\">\n",
                        "        <properties>\n",
                        "            <property name=\"replay-audit.policy\" value=\"none: the defaults apply\"/>\n",
                        "        </properties>\n",
                        "    </testsuite>\n",
                        "</testsuites>\n"
                    )
                );
            }
        }
    }
}

// --- escaping -------------------------------------------------------------

const NASTY: &str = "<script>alert(1)</script> ]]> a::b 100% x|y `z`\nline two\r\nline three";
const NASTY_INTENT: &str = "pay<script>|1";
const NASTY_COMPONENT: &str = "c::d,e%";
const NASTY_FILE: &str = "a,b:c%.yaml";

fn nasty() -> (SourceMap, Vec<Finding>) {
    let mut map = SourceMap::default();
    map.add(NASTY_FILE.into(), String::new());
    let at = Loc {
        file: 0,
        line: 3,
        col: 7,
    };
    let mut error = Finding::new("RH035", NASTY)
        .intent(NASTY_INTENT)
        .component(NASTY_COMPONENT)
        .at(at);
    error.path = vec!["a<b>".into(), "]]>".into()];
    error.rests_on = vec!["x|y\nz".into()];
    let mut warning = Finding::new("RH002", "w: 50%").at(at);
    warning.severity = Severity::Warning;
    let info = Finding::new("RH005", "i,j").intent(NASTY_INTENT);
    (map, vec![error, warning, info])
}

#[test]
fn github_escapes_data_and_properties() {
    let (map, findings) = nasty();
    assert_eq!(
        github::render(&map, &findings),
        "::error file=a%2Cb%3Ac%25.yaml,line=3,col=7,title=RH035 non-atomic-claim::\
<script>alert(1)</script> ]]> a::b 100%25 x|y `z`%0Aline two%0D%0Aline three\n\
::warning file=a%2Cb%3Ac%25.yaml,line=3,col=7,title=RH002 layer-window-shorter-than-horizon::w: 50%25\n\
::notice title=RH005 horizon-rests-on-assumption::i,j\n"
    );
    assert_eq!(
        github::escape_property("a:b,c%d\re\nf"),
        "a%3Ab%2Cc%25d%0De%0Af"
    );
    assert_eq!(github::escape_data("a:b,c%d\re\nf"), "a:b,c%25d%0De%0Af");
}

/// `|` not preceded by a backslash: the cell separators of a table row.
fn cell_separators(line: &str) -> usize {
    let b = line.as_bytes();
    (0..b.len())
        .filter(|&i| b[i] == b'|' && (i == 0 || b[i - 1] != b'\\'))
        .count()
}

#[test]
fn markdown_escapes_manifest_strings() {
    let (map, findings) = nasty();
    let out = markdown::render(&map, &findings);
    let row = "| error | RH035 non-atomic-claim | pay&lt;script&gt;\\|1 | c::d,e% | a,b:c%.yaml:3:7 | \
&lt;script&gt;alert(1)&lt;/script&gt; \\]\\]&gt; a::b 100% x\\|y \\`z\\`<br>line two<br>line three |";
    assert!(out.lines().any(|l| l == row), "{out}");
    assert!(
        out.starts_with("## replay-audit\n\n**3 findings**: 1 error, 1 warning, 1 info.\n\n"),
        "{out}"
    );
    let rows: Vec<&str> = out.lines().filter(|l| l.starts_with("| ")).collect();
    assert_eq!(rows.len(), 4, "header and one row per finding: {out}");
    for r in rows {
        assert_eq!(cell_separators(r), 7, "{r}");
    }
    assert!(!out.contains("<script"), "{out}");
    assert!(!out.contains("]]>"), "{out}");
    assert!(
        out.contains("<summary>RH035 non-atomic-claim — pay&lt;script&gt;\\|1 / c::d,e%</summary>"),
        "{out}"
    );
    assert!(out.contains("- path: a&lt;b&gt; → \\]\\]&gt;\n"), "{out}");
    assert!(out.contains("- assumptions:\n  - x\\|y<br>z\n"), "{out}");
    assert_eq!(out.matches("<details>").count(), 3);
    assert_eq!(out.matches("</details>").count(), 3);
    assert_eq!(
        markdown::escape("a\\b *c* _d_ [e](f) ~g~ #h !i $j &k \"l\""),
        "a\\\\b \\*c\\* \\_d\\_ \\[e\\](f) \\~g\\~ \\#h \\!i \\$j &amp;k &quot;l&quot;"
    );
}

#[test]
fn junit_escapes_and_round_trips() {
    let (map, findings) = nasty();
    let xml = junit::render(&map, &findings);
    assert!(!xml.contains("<script"), "{xml}");
    assert!(!xml.contains("]]>"), "{xml}");
    let report = quick_junit::Report::deserialize_from_str(&xml).expect("well-formed JUnit XML");
    let names: Vec<&str> = report.test_suites.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, [NASTY_INTENT, junit::NO_INTENT]);
    // One case per finding: the error and the info of the intent, the
    // warning without one; only the error fails (at the default error).
    let suite = &report.test_suites[0];
    assert_eq!((suite.test_cases.len(), suite.failures), (2, 1));
    let case = &suite.test_cases[0];
    // No line number in the name: a moved line is the same case; the place
    // is in the `file` and `line` attributes.
    assert_eq!(case.name.as_str(), "RH035 non-atomic-claim: c::d,e%");
    assert_eq!(
        (
            case.extra.get("file").map(|v| v.as_str()),
            case.extra.get("line").map(|v| v.as_str())
        ),
        (Some("a,b:c%.yaml"), Some("3"))
    );
    match &case.status {
        quick_junit::TestCaseStatus::NonSuccess {
            kind,
            message,
            ty,
            description,
            ..
        } => {
            assert_eq!(*kind, quick_junit::NonSuccessKind::Failure);
            assert_eq!(
                message.as_ref().map(|m| m.as_str()),
                Some("<script>alert(1)</script> ]]> a::b 100% x|y `z` line two line three")
            );
            assert_eq!(ty.as_ref().map(|t| t.as_str()), Some("error"));
            assert_eq!(
                description.as_ref().map(|d| d.as_str()),
                Some(
                    "a,b:c%.yaml:3:7: error: <script>alert(1)</script> ]]> a::b 100% x|y `z`\nline two\nline three\n  \
component: c::d,e%\n  path: a<b> → ]]>\n  assumes: x|y\nz\n  help: `replay-audit explain RH035` says how to fix it"
                )
            );
        }
        other => panic!("RH035 should fail: {other:?}"),
    }
    let info = &suite.test_cases[1];
    assert_eq!(info.name.as_str(), "RH005 horizon-rests-on-assumption");
    assert!(
        matches!(info.status, quick_junit::TestCaseStatus::Success { .. }),
        "{:?}",
        info.status
    );
    assert_eq!(
        info.system_out.as_ref().map(|o| o.as_str()),
        Some("-: info: i,j\n  help: `replay-audit explain RH005` says how to fix it")
    );
    let no_intent = &report.test_suites[1];
    assert_eq!(no_intent.test_cases.len(), 1);
    assert_eq!(no_intent.failures, 0, "a warning passes at --fail-on error");
}

#[test]
fn junit_fails_at_the_threshold() {
    let (map, findings) = nasty();
    for (threshold, failures) in [
        (Severity::Error, 1),
        (Severity::Warning, 2),
        (Severity::Info, 3),
    ] {
        let report = junit::report(junit::suites(&map, &findings, &[], threshold));
        let xml = junit::to_text(&report);
        let back = quick_junit::Report::deserialize_from_str(&xml).expect("XML");
        assert_eq!((back.tests, back.failures), (3, failures), "{threshold:?}");
    }
}

#[test]
fn junit_marks_waived_findings_skipped() {
    let (map, findings) = nasty();
    let xml = junit::render_with(
        &map,
        &findings,
        &[Some("accepted: PAY-12"), None, Some("known")],
    );
    let report = quick_junit::Report::deserialize_from_str(&xml).expect("XML");
    let names: Vec<&str> = report.test_suites.iter().map(|s| s.name.as_str()).collect();
    // A clean intent adds no suite and no case.
    assert_eq!(names, [NASTY_INTENT, junit::NO_INTENT]);
    let s = &report.test_suites[0];
    assert_eq!((s.tests, s.failures, s.skipped), (2, 0, 2));
    match &s.test_cases[0].status {
        quick_junit::TestCaseStatus::Skipped {
            message,
            description,
            ..
        } => {
            assert_eq!(
                message.as_ref().map(|m| m.as_str()),
                Some("waived: accepted: PAY-12")
            );
            assert!(
                description
                    .as_ref()
                    .is_some_and(|d| d.as_str().ends_with("\n  waived: accepted: PAY-12")),
                "{description:?}"
            );
        }
        other => panic!("RH035 is waived: {other:?}"),
    }
    assert_eq!(
        (report.test_suites[1].tests, report.test_suites[1].failures),
        (1, 0)
    );
}

#[test]
fn sarif_keeps_strings_exact_and_uris_valid() {
    let (map, findings) = nasty();
    let v: Value = serde_json::from_str(&sarif::render(&map, &findings)).expect("JSON");
    let r = &v["runs"][0]["results"][0];
    assert_eq!(r["message"]["text"], NASTY);
    assert_eq!(r["properties"]["intent"], NASTY_INTENT);
    assert_eq!(r["properties"]["component"], NASTY_COMPONENT);
    assert_eq!(
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "a%2Cb%3Ac%25.yaml"
    );
    assert_eq!(
        r["partialFingerprints"]["replayAudit/v1"],
        "RH035:pay<script>|1:c::d,e%"
    );
    assert_eq!(
        sarif::uri("dir with space\\x ü.yaml"),
        "dir%20with%20space/x%20%C3%BC.yaml"
    );
    let levels: Vec<&str> = v["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| r["level"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(levels, ["error", "warning", "note"]);
}

/// Each `--format` through the one [`format::Format`] interface writes what
/// that format's own functions render.
#[test]
fn the_format_interface_writes_each_format() {
    use replay_audit::policy::Notes;
    use replay_audit::report::format::CheckFormat;
    use replay_audit::report::format::{self, CheckRun};
    use replay_audit::report::root::Root;
    use replay_audit::report::{horizon, json, table};
    use replay_audit::{analysis, manifest, rules};

    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/incident-dlq-redrive.yaml"
    );
    let text = std::fs::read_to_string(path).expect("fixture");
    let m = manifest::load_texts(
        vec![(FIXTURE.to_string(), text)],
        &manifest::Limits::default(),
    )
    .expect("loads");
    let a = analysis::analyse(&m);
    let findings = rules::run(&a);
    let rows = horizon::rows(&a, None, None);
    let notes = Notes::default();
    let accepted = format::accepted(&findings);
    let run = CheckRun {
        manifest: &m,
        findings: &findings,
        notes: &notes,
        accepted: &accepted,
        horizon_rows: &rows,
        color: false,
        threshold: Severity::Error,
        root: Root::of(std::path::Path::new(env!("CARGO_MANIFEST_DIR"))),
    };
    let s = &m.sources;
    let cx = sarif::Context {
        manifest: Some(&m),
        waived: &accepted,
        root: Some(&run.root),
        architecture: None,
        policy: Some(None),
    };
    let expected = [
        (
            CheckFormat::Table,
            table::render(s, &findings, false) + &format!("{}\n", notes.policy_line()),
        ),
        (CheckFormat::Json, json::render_with(s, &findings, &notes)),
        (
            CheckFormat::Sarif,
            sarif::to_text(&sarif::log_of(vec![sarif::run(s, &findings, &cx)])),
        ),
        (
            CheckFormat::Junit,
            junit::to_text(&junit::report(junit::suites_with_policy(
                s,
                &findings,
                &accepted,
                Severity::Error,
                None,
            ))),
        ),
        (
            CheckFormat::Github,
            github::render(s, &findings) + &github::policy_notice(&notes.policy_line()),
        ),
        (
            CheckFormat::Markdown,
            markdown::render_full(s, &findings, Some(&m), &rows)
                + &format!("\n<sub>{}</sub>\n", markdown::escape(&notes.policy_line())),
        ),
    ];
    for (f, want) in expected {
        let mut out = Vec::new();
        format::of(f).write(&mut out, &run).expect("writes");
        assert_eq!(String::from_utf8(out).expect("UTF-8"), want, "{f:?}");
    }
}
