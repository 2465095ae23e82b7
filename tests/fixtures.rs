//! Every manifest under `fixtures/` states the findings it must produce in
//! `# expect:` lines; this test asserts that set exactly (code, intent,
//! component), plus horizon, window and location where the line gives them.
//! A finding that is not expected fails the test as much as a missing one.
//!
//! Line format: `# expect: CODE INTENT|- COMPONENT|- [horizon=SECS|unbounded]
//! [window=SECS] [at=LINE:COL]`. A fixture with no `expect` line must
//! produce no finding at all.

use std::path::{Path, PathBuf};

use replay_audit::{analyse, rules};

#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Expected {
    code: String,
    intent: String,
    component: String,
    horizon: Option<String>,
    window: Option<String>,
    at: Option<String>,
}

fn expectations(text: &str) -> Vec<Expected> {
    text.lines()
        .filter_map(|l| l.trim().strip_prefix("# expect:"))
        .map(|rest| {
            let mut words = rest.split_whitespace();
            let mut e = Expected {
                code: words.next().expect("code").to_string(),
                intent: words.next().expect("intent").to_string(),
                component: words.next().unwrap_or("-").to_string(),
                horizon: None,
                window: None,
                at: None,
            };
            for w in words {
                match w.split_once('=') {
                    Some(("horizon", v)) => e.horizon = Some(v.to_string()),
                    Some(("window", v)) => e.window = Some(v.to_string()),
                    Some(("at", v)) => e.at = Some(v.to_string()),
                    _ => panic!("bad expect word `{w}`"),
                }
            }
            e
        })
        .collect()
}

fn fixture_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            if p.file_name()
                .is_some_and(|n| n == "invalid" || n == "import" || n == "drift")
            {
                continue;
            }
            fixture_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "yaml") {
            out.push(p);
        }
    }
}

#[test]
fn every_fixture_produces_exactly_its_expected_findings() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut files = Vec::new();
    fixture_files(&root, &mut files);
    assert!(files.len() >= 2, "fixtures missing");
    let mut failures = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let expected = expectations(&text);
        let inputs = replay_audit::engine::Inputs {
            paths: vec![file.clone()],
            ..Default::default()
        };
        let m = match replay_audit::engine::load(&inputs) {
            Ok(m) => m,
            Err(e) => {
                failures.push(format!(
                    "{}: does not load:\n{}",
                    file.display(),
                    e.render(false)
                ));
                continue;
            }
        };
        let a = analyse(&m);
        let findings = rules::run(&a);
        let mut got: Vec<(String, String, String)> = findings
            .iter()
            .map(|f| {
                (
                    f.rule.code.to_string(),
                    f.intent.as_deref().unwrap_or("-").to_string(),
                    f.component.as_deref().unwrap_or("-").to_string(),
                )
            })
            .collect();
        got.sort();
        let mut want: Vec<(String, String, String)> = expected
            .iter()
            .map(|e| (e.code.clone(), e.intent.clone(), e.component.clone()))
            .collect();
        want.sort();
        if got != want {
            let detail: Vec<String> = findings
                .iter()
                .map(|f| {
                    format!(
                        "  {} {:?} {:?} {:?}: {}",
                        f.rule.code,
                        f.intent,
                        f.component,
                        f.loc.map(|l| (l.line, l.col)),
                        f.message
                    )
                })
                .collect();
            failures.push(format!(
                "{}:\n want {want:?}\n  got {got:?}\n{}",
                file.display(),
                detail.join("\n")
            ));
            continue;
        }
        for e in &expected {
            let f = findings
                .iter()
                .find(|f| {
                    f.rule.code == e.code
                        && f.intent.as_deref().unwrap_or("-") == e.intent
                        && f.component.as_deref().unwrap_or("-") == e.component
                })
                .unwrap();
            let secs = |d: Option<replay_audit::time::Dur>| {
                d.map_or("none".to_string(), |d| {
                    d.as_secs_ceil()
                        .map_or("unbounded".into(), |s| s.to_string())
                })
            };
            if let Some(h) = &e.horizon
                && secs(f.horizon) != *h
            {
                failures.push(format!(
                    "{}: {} horizon {} != {h}",
                    file.display(),
                    e.code,
                    secs(f.horizon)
                ));
            }
            if let Some(w) = &e.window
                && secs(f.window) != *w
            {
                failures.push(format!(
                    "{}: {} window {} != {w}",
                    file.display(),
                    e.code,
                    secs(f.window)
                ));
            }
            if let Some(at) = &e.at {
                let got = f
                    .loc
                    .map(|l| format!("{}:{}", l.line, l.col))
                    .unwrap_or_default();
                if got != *at {
                    failures.push(format!("{}: {} at {got} != {at}", file.display(), e.code));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Every rule has a fixture that fires it and one that stays quiet:
/// `<CODE>-fires*.yaml` expecting the code and `<CODE>-quiet*.yaml` not
/// expecting it, anywhere under `fixtures/`.
#[test]
fn every_rule_has_a_fires_and_a_quiet_fixture() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut files = Vec::new();
    fixture_files(&root, &mut files);
    let mut missing = Vec::new();
    for r in rules::RULES {
        for (kind, expects_code) in [("fires", true), ("quiet", false)] {
            let prefix = format!("{}-{kind}", r.code);
            let ok = files.iter().any(|f| {
                f.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with(&prefix))
                    && expectations(&std::fs::read_to_string(f).unwrap())
                        .iter()
                        .any(|e| e.code == r.code)
                        == expects_code
            });
            if !ok {
                missing.push(format!(
                    "{}: no {prefix}*.yaml {} {}",
                    r.code,
                    if expects_code { "expecting" } else { "without" },
                    r.code
                ));
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}
