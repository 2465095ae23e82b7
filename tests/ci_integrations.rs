//! The CI integrations run the commands they declare: the pre-commit hook
//! (`.pre-commit-hooks.yaml`), the GitHub Action (`action.yml`) and the
//! `run:` / `script:` lines of docs/ci.md, each on an architecture split
//! across two files that refer to each other (the sound payout design of
//! fixtures/sound-payouts.yaml: RH005 only, info, so exit 0), and on one
//! with a failing RH001 (fixtures/diff/after: exit 1). Installing is not
//! run: the built binary is put first on PATH instead.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

const SOUND: &str = include_str!("../fixtures/sound-payouts.yaml");
const WORSE: &str = include_str!("../fixtures/diff/after/payouts.yaml");
const BIN: &str = env!("CARGO_BIN_EXE_replay-audit");

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A checkout with `text` split in two files under `folder/` at the
/// `payout-worker` component: the first file's components send to ids the
/// second defines.
fn split_checkout(folder: &str, text: &str) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().join(folder);
    std::fs::create_dir_all(&dir).unwrap();
    let at = text.find("  payout-worker:\n").expect("split point");
    std::fs::write(dir.join("a.yaml"), &text[..at]).unwrap();
    std::fs::write(
        dir.join("b.yaml"),
        format!("version: 1\ncomponents:\n{}", &text[at..]),
    )
    .unwrap();
    d
}

/// `script` run by bash in `dir`, the built binary first on PATH.
fn bash(dir: &Path, script: &str, env: &[(&str, &str)]) -> Output {
    let bin_dir = Path::new(BIN).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    Command::new("bash")
        .args(["-c", script])
        .current_dir(dir)
        .env("PATH", path)
        .env("NO_COLOR", "1")
        .env("REPLAY_AUDIT_TODAY", "2026-12-01")
        .envs(env.iter().copied())
        .output()
        .expect("bash runs")
}

fn yaml(path: &Path) -> Value {
    serde_saphyr::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn the_pre_commit_hook_checks_a_split_architecture_in_one_run() {
    let hooks = yaml(&root().join(".pre-commit-hooks.yaml"));
    let hook = &hooks[0];
    assert_eq!(hook["id"], "replay-audit");
    assert_eq!(hook["pass_filenames"], false);
    assert_eq!(hook["require_serial"], true);
    let entry = hook["entry"].as_str().unwrap();
    let args: Vec<&str> = hook["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    assert_eq!(args, ["replay-audit/"]);
    let command = format!("{entry} {}", args.join(" "));
    let d = split_checkout("replay-audit", SOUND);
    let out = bash(d.path(), &command, &[]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("0 error(s), 0 warning(s), 1 info"),
        "{stdout}"
    );
    // What pre-commit would do with pass_filenames: the folder and its
    // files; each file is read once, so nothing is "defined twice".
    let out = bash(
        d.path(),
        &format!("{command} replay-audit/a.yaml replay-audit/b.yaml"),
        &[],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // One batch alone is what the hook avoids: ids of the other file are missing.
    let out = bash(d.path(), &format!("{entry} replay-audit/a.yaml"), &[]);
    assert_eq!(out.status.code(), Some(2));
}

/// The `run:` script of the action step named `name`.
fn action_step(action: &Value, name: &str) -> String {
    action["runs"]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == name)
        .and_then(|s| s["run"].as_str())
        .unwrap_or_else(|| panic!("no step `{name}`"))
        .to_string()
}

#[test]
fn the_action_installs_from_its_checkout_checks_uploads_and_fails_after() {
    let action = yaml(&root().join("action.yml"));
    assert_eq!(action["runs"]["using"], "composite");
    assert_eq!(
        action_step(&action, "Install replay-audit"),
        "cargo install --locked --path \"$GITHUB_ACTION_PATH\""
    );
    assert!(
        std::fs::read_to_string(root().join("Cargo.toml"))
            .unwrap()
            .contains("name = \"replay-audit\"")
    );
    let steps = action["runs"]["steps"].as_array().unwrap();
    assert!(steps.iter().any(|s| {
        s["uses"]
            .as_str()
            .is_some_and(|u| u.starts_with("github/codeql-action/upload-sarif@"))
    }));
    let check = action_step(&action, "Check the architecture");
    let fail = action_step(&action, "Fail on findings or input errors");
    // The upload runs whenever the check wrote a report, input errors
    // included.
    let upload = steps
        .iter()
        .find(|s| s["name"] == "Upload findings")
        .expect("an upload step");
    assert_eq!(
        upload["if"],
        "${{ !cancelled() && inputs.upload == 'true' && steps.check.outputs.report == 'true' }}"
    );
    {
        let d = split_checkout("replay-audit", SOUND);
        std::fs::write(
            d.path().join("replay-audit/a.yaml"),
            "version: 1\ncomponents: [\n",
        )
        .unwrap();
        let output = d.path().join("github-output");
        let env = [
            ("PATHS", "replay-audit/"),
            ("ARGS", ""),
            ("SARIF", "replay-audit.sarif"),
            ("GITHUB_OUTPUT", output.to_str().unwrap()),
        ];
        let out = bash(d.path(), &check, &env);
        assert_eq!(out.status.code(), Some(0));
        assert_eq!(
            std::fs::read_to_string(&output).unwrap(),
            "code=2\nreport=true\n"
        );
        let sarif: Value = serde_json::from_str(
            &std::fs::read_to_string(d.path().join("replay-audit.sarif")).unwrap(),
        )
        .unwrap();
        assert_eq!(
            sarif["runs"][0]["invocations"][0]["executionSuccessful"],
            false
        );
    }
    for (text, code) in [(SOUND, "0"), (WORSE, "1")] {
        let d = split_checkout("replay-audit", text);
        let output = d.path().join("github-output");
        let env = [
            ("PATHS", "replay-audit/"),
            ("ARGS", ""),
            ("SARIF", "replay-audit.sarif"),
            ("GITHUB_OUTPUT", output.to_str().unwrap()),
        ];
        let out = bash(d.path(), &check, &env);
        assert_eq!(
            out.status.code(),
            Some(0),
            "the check step records the code and goes on"
        );
        assert_eq!(
            std::fs::read_to_string(&output).unwrap(),
            format!("code={code}\nreport=true\n")
        );
        let sarif: Value = serde_json::from_str(
            &std::fs::read_to_string(d.path().join("replay-audit.sarif")).unwrap(),
        )
        .unwrap();
        assert_eq!(sarif["version"], "2.1.0");
        let results = sarif["runs"][0]["results"].as_array().unwrap();
        assert!(
            results
                .iter()
                .any(|r| r["ruleId"] == if code == "1" { "RH001" } else { "RH005" })
        );
        let out = bash(d.path(), &fail, &[("CODE", code)]);
        assert_eq!(out.status.code(), Some(code.parse().unwrap()));
    }
}

/// The commands of the YAML blocks of docs/ci.md: `run:` values and
/// `script:` items that call replay-audit (installing and fetching are not
/// run).
fn documented_commands() -> Vec<String> {
    let doc = std::fs::read_to_string(root().join("docs/ci.md")).unwrap();
    let mut out = Vec::new();
    for block in doc.split("```yaml\n").skip(1) {
        let block = &block[..block.find("```").unwrap()];
        for line in block.lines() {
            let t = line.trim_start();
            let cmd = t
                .strip_prefix("run: ")
                .or_else(|| t.strip_prefix("- run: "))
                .or_else(|| t.strip_prefix("- "));
            if let Some(c) = cmd.filter(|c| c.starts_with("replay-audit ")) {
                out.push(c.to_string());
            }
        }
    }
    out
}

#[test]
fn the_documented_ci_commands_run_as_written() {
    let commands = documented_commands();
    assert_eq!(commands.len(), 6, "{commands:?}");
    let d = split_checkout("replay-audit", WORSE);
    let git = |args: &[&str]| {
        let ok = Command::new("git")
            .args([
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@t",
                "-c",
                "commit.gpgsign=false",
            ])
            .args(args)
            .current_dir(d.path())
            .output()
            .unwrap()
            .status
            .success();
        assert!(ok, "git {args:?}");
    };
    // The base branch holds the sound design; the change makes it worse.
    let sound = split_checkout("replay-audit", SOUND);
    for f in ["a.yaml", "b.yaml"] {
        std::fs::copy(
            sound.path().join("replay-audit").join(f),
            d.path().join("replay-audit").join(f),
        )
        .unwrap();
    }
    git(&["init", "-q"]);
    git(&["add", "-A"]);
    git(&["commit", "-qm", "base"]);
    git(&["update-ref", "refs/remotes/origin/main", "HEAD"]);
    let worse = split_checkout("replay-audit", WORSE);
    for f in ["a.yaml", "b.yaml"] {
        std::fs::copy(
            worse.path().join("replay-audit").join(f),
            d.path().join("replay-audit").join(f),
        )
        .unwrap();
    }
    let env = [("CI_MERGE_REQUEST_TARGET_BRANCH_NAME", "main")];
    let mut seen: Vec<(String, Option<i32>)> = Vec::new();
    for c in &commands {
        // GitHub's expression syntax, as the runner substitutes it.
        let c = c.replace("${{ github.base_ref }}", "main");
        let out = bash(d.path(), &c, &env);
        seen.push((c.clone(), out.status.code()));
    }
    assert_eq!(
        seen,
        [
            ("replay-audit check replay-audit/ --format sarif > results.sarif".to_string(), Some(1)),
            ("replay-audit check replay-audit/ --format github -o junit=replay-audit-junit.xml".to_string(), Some(1)),
            ("replay-audit diff --base origin/main replay-audit/ --format markdown > diff.md".to_string(), Some(1)),
            ("replay-audit check replay-audit/ --format junit > replay-audit-junit.xml".to_string(), Some(1)),
            ("replay-audit check replay-audit/ --format gitlab -o gl-code-quality.json".to_string(), Some(1)),
            ("replay-audit diff --base \"origin/$CI_MERGE_REQUEST_TARGET_BRANCH_NAME\" replay-audit/".to_string(), Some(1)),
        ]
    );
    let junit = std::fs::read_to_string(d.path().join("replay-audit-junit.xml")).unwrap();
    assert!(
        junit.starts_with("<?xml") && junit.contains("RH001"),
        "{junit}"
    );
    let gl: Value = serde_json::from_str(
        &std::fs::read_to_string(d.path().join("gl-code-quality.json")).unwrap(),
    )
    .unwrap();
    assert!(
        gl.as_array()
            .unwrap()
            .iter()
            .any(|i| i["check_name"] == "RH001 replay-outlives-dedup-window"),
        "{gl}"
    );
    let md = std::fs::read_to_string(d.path().join("diff.md")).unwrap();
    assert!(
        md.contains("Compared with `origin/main`: 2 introduced (1 failing at error), 0 resolved."),
        "{md}"
    );
}
