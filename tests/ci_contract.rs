//! The CI contract of `check`, through the binary: an input that does not
//! load is reported in every machine format (exit 2); SARIF and annotation
//! paths are relative to the repository root from any folder; JUnit has a
//! case per finding; `-o FILE`, `-` (standard input), `--quiet`,
//! `--min-severity`, and `--each` in every format.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

const INCIDENT: &str = "fixtures/incident-dlq-redrive.yaml";

struct Out {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn run_in(dir: &Path, args: &[&str], stdin: Option<&str>) -> Out {
    let mut child = Command::new(env!("CARGO_BIN_EXE_replay-audit"))
        .current_dir(dir)
        .args(args)
        .args(["--color", "never"])
        .env("REPLAY_AUDIT_TODAY", "2026-12-01")
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    if let Some(text) = stdin {
        use std::io::Write;
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(text.as_bytes())
            .expect("writes");
    }
    let out = child.wait_with_output().expect("finishes");
    Out {
        code: out.status.code(),
        stdout: String::from_utf8(out.stdout).expect("UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("UTF-8"),
    }
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A repository (a `.git` folder) with the incident fixture and a manifest
/// that does not load under `infra/payments/`.
fn repo() -> tempfile::TempDir {
    let d = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir(d.path().join(".git")).expect(".git");
    let sub = d.path().join("infra/payments");
    std::fs::create_dir_all(&sub).expect("folders");
    std::fs::copy(root().join(INCIDENT), sub.join("payouts.yaml")).expect("copy");
    std::fs::write(
        sub.join("broken.yaml"),
        "version: 1\ncomponents:\n  q:\n    kind: sqs-standart\n",
    )
    .expect("write");
    d
}

/// `::CMD k=v,k=v::DATA` → (CMD, properties, DATA), the properties
/// unescaped as the runner reads them.
fn annotation(line: &str) -> (String, Vec<(String, String)>, String) {
    let rest = line.strip_prefix("::").expect("a workflow command");
    let (head, data) = rest.split_once("::").expect("`::` before the data");
    let (cmd, props) = head.split_once(' ').unwrap_or((head, ""));
    let unescape = |s: &str| {
        s.replace("%3A", ":")
            .replace("%2C", ",")
            .replace("%0A", "\n")
            .replace("%0D", "\r")
            .replace("%25", "%")
    };
    let props = props
        .split(',')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').expect("k=v");
            (k.to_string(), unescape(v))
        })
        .collect();
    (cmd.to_string(), props, unescape(data))
}

fn prop<'a>(props: &'a [(String, String)], key: &str) -> Option<&'a str> {
    props
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

// --- load errors ------------------------------------------------------------

#[test]
fn a_manifest_that_does_not_load_is_reported_in_every_format() {
    let dir = root().join("fixtures/invalid");
    let args = |f: &'static str| ["check", "many-errors.yaml", "--format", f];
    let json = run_in(&dir, &args("json"), None);
    assert_eq!(json.code, Some(2), "{}", json.stderr);
    assert!(
        json.stderr.contains("sqs-standart"),
        "stderr keeps the text"
    );
    let v: Value = serde_json::from_str(&json.stdout).expect("JSON");
    assert_eq!(v["findings"], serde_json::json!([]));
    let errors = v["errors"].as_array().expect("errors");
    assert_eq!(errors.len(), 7, "{}", json.stdout);
    assert_eq!(
        errors[1],
        serde_json::json!({
            "message": "components.payout-requests.kind: unknown kind `sqs-standart`",
            "location": {"file": "many-errors.yaml", "line": 12, "column": 11},
            "help": "did you mean `sqs-standard`? (`replay-audit catalog` lists the kinds)"
        })
    );

    let gh = run_in(&dir, &args("github"), None);
    assert_eq!(gh.code, Some(2));
    let lines: Vec<_> = gh.stdout.lines().map(annotation).collect();
    assert_eq!(lines.len(), 7, "{}", gh.stdout);
    let (cmd, props, data) = &lines[1];
    assert_eq!(cmd, "error");
    // Relative to the repository root, not to the folder it ran in.
    assert_eq!(
        prop(props, "file"),
        Some("fixtures/invalid/many-errors.yaml")
    );
    assert_eq!(
        (prop(props, "line"), prop(props, "col")),
        (Some("12"), Some("11"))
    );
    assert_eq!(prop(props, "title"), Some("replay-audit input error"));
    assert_eq!(
        data,
        "components.payout-requests.kind: unknown kind `sqs-standart`\nhelp: did you mean `sqs-standard`? (`replay-audit catalog` lists the kinds)"
    );

    let junit = run_in(&dir, &args("junit"), None);
    assert_eq!(junit.code, Some(2));
    let report = quick_junit::Report::deserialize_from_str(&junit.stdout).expect("XML");
    assert_eq!((report.tests, report.failures), (7, 7), "{}", junit.stdout);
    assert_eq!(
        report.test_suites[0].test_cases[1].name.as_str(),
        "input error at many-errors.yaml:12:11"
    );

    let md = run_in(&dir, &args("markdown"), None);
    assert_eq!(md.code, Some(2));
    assert!(
        md.stdout
            .starts_with("## replay-audit\n\n**The input could not be analysed**: 7 error(s).\n\n- many-errors.yaml:4:13: "),
        "{}",
        md.stdout
    );

    let sarif = run_in(&dir, &args("sarif"), None);
    assert_eq!(sarif.code, Some(2));
    let v: Value = serde_json::from_str(&sarif.stdout).expect("JSON");
    let run = &v["runs"][0];
    assert_eq!(run["results"].as_array().map(Vec::len), Some(7));
    assert_eq!(run["invocations"][0]["executionSuccessful"], false);
    let notes = &run["invocations"][0]["toolExecutionNotifications"];
    assert_eq!(notes.as_array().map(Vec::len), Some(7));
    let loc = &run["results"][1]["locations"][0]["physicalLocation"];
    assert_eq!(
        loc["artifactLocation"],
        serde_json::json!({"uri": "fixtures/invalid/many-errors.yaml", "uriBaseId": "%SRCROOT%"})
    );
    assert_eq!(
        loc["region"],
        serde_json::json!({"startLine": 12, "startColumn": 11})
    );
    assert_eq!(run["results"][1]["ruleId"], "input-error");
    assert_eq!(run["tool"]["driver"]["rules"][0]["id"], "input-error");
    // SARIF1001: a rule's name differs from its id.
    assert_eq!(
        run["tool"]["driver"]["rules"][0]["name"],
        "input-could-not-be-analysed"
    );

    // The table prints the errors on standard error only.
    let table = run_in(&dir, &["check", "many-errors.yaml"], None);
    assert_eq!((table.code, table.stdout.as_str()), (Some(2), ""));
}

#[test]
fn a_policy_that_does_not_load_is_reported_too() {
    let d = tempfile::tempdir().expect("tempdir");
    std::fs::copy(root().join(INCIDENT), d.path().join("m.yaml")).expect("copy");
    std::fs::write(d.path().join("replay-audit.toml"), "fail_on = \"loud\"\n").expect("write");
    let out = run_in(d.path(), &["check", "m.yaml", "--format", "json"], None);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    let v: Value = serde_json::from_str(&out.stdout).expect("JSON");
    let e = &v["errors"][0];
    assert_eq!(e["location"]["file"], "replay-audit.toml");
    assert_eq!(e["location"]["line"], 1);
}

// --- paths --------------------------------------------------------------------

#[test]
fn sarif_and_annotation_paths_are_the_same_from_any_folder() {
    let d = repo();
    let top = d.path().to_path_buf();
    let sub = top.join("infra/payments");
    let abs = sub.join("payouts.yaml").display().to_string();
    let runs: [(&Path, &str); 4] = [
        (&top, "infra/payments/payouts.yaml"),
        (&top, "./infra/payments/../payments/payouts.yaml"),
        (&sub, "payouts.yaml"),
        (&sub, &abs),
    ];
    let canonical = top.canonicalize().expect("canonical");
    let want_base = format!("file://{}/", canonical.display());
    for (dir, path) in runs {
        let sarif = run_in(dir, &["check", path, "--format", "sarif"], None);
        assert_eq!(sarif.code, Some(1), "{path}: {}", sarif.stderr);
        let v: Value = serde_json::from_str(&sarif.stdout).expect("JSON");
        let run = &v["runs"][0];
        assert_eq!(
            run["originalUriBaseIds"]["%SRCROOT%"]["uri"],
            want_base.as_str()
        );
        let results = run["results"].as_array().expect("results");
        assert_eq!(results.len(), 3);
        for r in results {
            assert_eq!(
                r["locations"][0]["physicalLocation"]["artifactLocation"],
                serde_json::json!({"uri": "infra/payments/payouts.yaml", "uriBaseId": "%SRCROOT%"}),
                "{path}"
            );
        }
        let gh = run_in(dir, &["check", path, "--format", "github"], None);
        // The last line is the policy notice, which has no place.
        for line in gh
            .stdout
            .lines()
            .filter(|l| !l.contains("title=replay-audit policy::"))
        {
            let (_, props, _) = annotation(line);
            assert_eq!(
                prop(&props, "file"),
                Some("infra/payments/payouts.yaml"),
                "{line}"
            );
        }
        // Three findings and the policy notice.
        assert_eq!(gh.stdout.lines().count(), 4);
    }
}

// --- JUnit ------------------------------------------------------------------

#[test]
fn junit_has_a_case_per_finding_failing_at_fail_on() {
    let json = run_in(&root(), &["check", INCIDENT, "--format", "json"], None);
    let v: Value = serde_json::from_str(&json.stdout).expect("JSON");
    let findings = v["findings"].as_array().expect("findings");
    let severities: Vec<&str> = findings
        .iter()
        .map(|f| f["severity"].as_str().expect("severity"))
        .collect();
    assert_eq!(severities, ["error", "info", "info"]);
    for (fail_on, code, failures) in [("error", 1, 1), ("warning", 1, 1), ("info", 1, 3)] {
        let out = run_in(
            &root(),
            &["check", INCIDENT, "--format", "junit", "--fail-on", fail_on],
            None,
        );
        assert_eq!(out.code, Some(code));
        let r = quick_junit::Report::deserialize_from_str(&out.stdout).expect("XML");
        assert_eq!(
            (r.tests, r.failures, r.skipped),
            (3, failures, 0),
            "{fail_on}"
        );
        assert_eq!(r.test_suites.len(), 1, "no `(no intent)` padding");
        assert_eq!(r.test_suites[0].name.as_str(), "seller-payout");
    }
}

// --- -o, stdin, --quiet, --min-severity ---------------------------------------

#[test]
fn output_file_holds_what_stdout_would() {
    let d = tempfile::tempdir().expect("tempdir");
    for format in ["table", "json", "sarif", "junit", "github", "markdown"] {
        let file = d.path().join(format!("out.{format}"));
        let file_s = file.display().to_string();
        let to_file = run_in(
            &root(),
            &["check", INCIDENT, "--format", format, "-o", &file_s],
            None,
        );
        assert_eq!(
            (to_file.code, to_file.stdout.as_str()),
            (Some(1), ""),
            "{format}"
        );
        let stdout = run_in(&root(), &["check", INCIDENT, "--format", format], None);
        let written = std::fs::read_to_string(&file).expect("written");
        assert_eq!(written, stdout.stdout, "{format}");
    }
    // An input error is written to the file too.
    let file = d.path().join("errors.sarif");
    let file_s = file.display().to_string();
    let out = run_in(
        &root(),
        &[
            "check",
            "fixtures/invalid/syntax.yaml",
            "--format",
            "sarif",
            "-o",
            &file_s,
        ],
        None,
    );
    assert_eq!(out.code, Some(2));
    let v: Value =
        serde_json::from_str(&std::fs::read_to_string(&file).expect("written")).expect("JSON");
    assert_eq!(v["runs"][0]["invocations"][0]["executionSuccessful"], false);
    // A file that cannot be written is exit 2.
    let out = run_in(
        &root(),
        &[
            "check",
            INCIDENT,
            "-o",
            "/nonexistent-folder/x.json",
            "--format",
            "json",
        ],
        None,
    );
    assert_eq!(out.code, Some(2), "{}", out.stderr);
}

#[test]
fn a_dash_reads_the_manifest_from_standard_input() {
    let text = std::fs::read_to_string(root().join(INCIDENT)).expect("fixture");
    let out = run_in(&root(), &["check", "-", "--format", "json"], Some(&text));
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    let v: Value = serde_json::from_str(&out.stdout).expect("JSON");
    assert_eq!(v["findings"].as_array().map(Vec::len), Some(3));
    assert_eq!(v["findings"][0]["location"]["file"], "<stdin>");
    let bad = run_in(
        &root(),
        &["check", "-", "--format", "github"],
        Some("version: [\n"),
    );
    assert_eq!(bad.code, Some(2));
    // `<stdin>` is no file of the repository: the place leads the message.
    assert_eq!(
        bad.stdout,
        "::error title=replay-audit input error::<stdin>:1:10: invalid YAML: unclosed bracket '['\n"
    );
}

#[test]
fn quiet_and_min_severity_choose_what_is_shown() {
    let codes = |args: &[&str]| -> (Option<i32>, Vec<String>) {
        let mut all = vec!["check", INCIDENT, "--format", "json"];
        all.extend_from_slice(args);
        let out = run_in(&root(), &all, None);
        let v: Value = serde_json::from_str(&out.stdout).expect("JSON");
        let codes = v["findings"]
            .as_array()
            .expect("findings")
            .iter()
            .map(|f| f["code"].as_str().expect("code").to_string())
            .collect();
        (out.code, codes)
    };
    assert_eq!(
        codes(&[]),
        (
            Some(1),
            vec!["RH001".into(), "RH005".into(), "RH040".into()]
        )
    );
    assert_eq!(codes(&["--quiet"]), (Some(1), vec!["RH001".into()]));
    assert_eq!(
        codes(&["--min-severity", "warning"]),
        (Some(1), vec!["RH001".into()])
    );
    assert_eq!(
        codes(&["--quiet", "--fail-on", "info"]).1,
        ["RH001", "RH005", "RH040"]
    );
}

// --- --each -------------------------------------------------------------------

#[test]
fn each_writes_every_format() {
    let d = repo();
    let org = d.path().join("infra");
    let each = |format: &str| run_in(&org, &["check", "--each", ".", "--format", format], None);
    // One architecture: the folder `payments` (a broken manifest in it).
    let sarif = each("sarif");
    assert_eq!(sarif.code, Some(2), "{}", sarif.stderr);
    let v: Value = serde_json::from_str(&sarif.stdout).expect("JSON");
    assert_eq!(v["runs"].as_array().map(Vec::len), Some(1));
    assert_eq!(
        v["runs"][0]["automationDetails"]["id"],
        "replay-audit/infra/payments/"
    );

    std::fs::remove_file(org.join("payments/broken.yaml")).expect("rm");
    std::fs::create_dir(org.join("orders")).expect("mkdir");
    std::fs::write(org.join("orders/o.yaml"), "version: [\n").expect("write");
    std::fs::copy(root().join(INCIDENT), org.join("single.yaml")).expect("copy");
    let sarif = each("sarif");
    assert_eq!(sarif.code, Some(2));
    let v: Value = serde_json::from_str(&sarif.stdout).expect("JSON");
    let ids: Vec<&str> = v["runs"]
        .as_array()
        .expect("runs")
        .iter()
        .map(|r| r["automationDetails"]["id"].as_str().expect("id"))
        .collect();
    assert_eq!(
        ids,
        [
            "replay-audit/infra/orders/",
            "replay-audit/infra/payments/",
            "replay-audit/infra/single.yaml/"
        ]
    );
    assert_eq!(v["runs"][0]["invocations"][0]["executionSuccessful"], false);
    assert_eq!(v["runs"][1]["results"].as_array().map(Vec::len), Some(3));

    let junit = each("junit");
    let r = quick_junit::Report::deserialize_from_str(&junit.stdout).expect("XML");
    let names: Vec<&str> = r.test_suites.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["./orders", "./payments", "./single.yaml"]);
    assert_eq!((r.tests, r.failures), (7, 3), "{}", junit.stdout);

    let gh = each("github");
    // 7 annotations, then one policy notice: no architecture has a policy.
    assert_eq!(gh.stdout.lines().count(), 8, "{}", gh.stdout);
    assert_eq!(
        gh.stdout.lines().last(),
        Some(
            "::notice title=replay-audit policy::policy: no replay-audit.toml found; the defaults apply"
        )
    );
    let md = each("markdown");
    assert_eq!(
        md.stdout.matches("## replay-audit: ").count(),
        3,
        "{}",
        md.stdout
    );
}
