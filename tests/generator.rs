//! The synthetic manifests of `examples/generate.rs` load and check, are
//! deterministic, carry the hazards they claim, and `check --each` treats a
//! folder of them as separate architectures.

#[path = "../examples/synth/mod.rs"]
mod synth;

use std::collections::BTreeSet;

use assert_cmd::Command;
use replay_audit::{analysis, manifest, report, rules};

fn codes(text: &str) -> (Vec<rules::Finding>, BTreeSet<&'static str>) {
    let m = manifest::load_texts(
        vec![("synthetic.yaml".into(), text.into())],
        &manifest::Limits::default(),
    )
    .unwrap_or_else(|e| panic!("generated manifest does not load:\n{}", e.render(false)));
    let a = analysis::analyse(&m);
    let findings = rules::run(&a);
    let codes = findings.iter().map(|f| f.rule.code).collect();
    (findings, codes)
}

#[test]
fn same_seed_same_bytes_other_seed_other_bytes() {
    let a = synth::generate(&synth::Config::new(300, 7));
    let b = synth::generate(&synth::Config::new(300, 7));
    let c = synth::generate(&synth::Config::new(300, 8));
    assert_eq!(a, b);
    assert_ne!(a.0, c.0);
}

#[test]
fn sizes_are_close_to_what_was_asked() {
    for n in [40, 300, 2_000] {
        let (_, stats) = synth::generate(&synth::Config::new(n, 1));
        assert!(
            stats.components >= n && stats.components < n + 7,
            "{n}: {}",
            stats.components
        );
    }
    let (_, stats) = synth::generate(&synth::Config::new(2_000, 1));
    assert_eq!(stats.hubs, 2);
    assert_eq!(stats.intents, stats.pipelines + 3 * stats.hubs);
}

#[test]
fn every_small_manifest_loads_and_checks() {
    for seed in 0..12 {
        for n in [10, 40, 250] {
            let (text, stats) = synth::generate(&synth::Config::new(n, seed));
            let m = manifest::load_texts(
                vec![("s.yaml".into(), text.clone())],
                &manifest::Limits::default(),
            )
            .unwrap_or_else(|e| panic!("seed {seed} n {n}:\n{}", e.render(false)));
            assert_eq!(m.components.len(), stats.components, "seed {seed} n {n}");
            assert_eq!(m.intents.len(), stats.intents, "seed {seed} n {n}");
            let a = analysis::analyse(&m);
            let json = report::json::render(&m.sources, &rules::run(&a));
            assert!(
                json.starts_with("{\n  \"version\": 1,"),
                "seed {seed} n {n}"
            );
        }
    }
}

#[test]
fn the_hazards_are_found() {
    let (text, stats) = synth::generate(&synth::Config::new(2_000, 3));
    let (findings, found) = codes(&text);
    for code in ["RH001", "RH011", "RH020", "RH021"] {
        assert!(found.contains(code), "{code} missing from {found:?}");
    }
    // Every hazard shows in its own intent's findings with the code it plants.
    for (intent, hazard) in &stats.hazards {
        let want = match hazard {
            synth::Hazard::ShortRetention => "RH001",
            synth::Hazard::PerAttemptKey => "RH020",
            synth::Hazard::MissingPassesKey => "RH021",
            synth::Hazard::ActiveActiveAsync => "RH011",
        };
        assert!(
            findings
                .iter()
                .any(|f| f.rule.code == want && f.intent.as_deref() == Some(intent.as_str())),
            "{intent}: {hazard:?} should give {want}"
        );
    }
    let share = stats.hazards.len() * 100 / stats.pipelines;
    assert!((5..=15).contains(&share), "hazard share {share}%");
}

#[test]
fn the_binary_exits_0_or_1_on_generated_manifests() {
    let dir = tempfile::tempdir().unwrap();
    for seed in 0..4 {
        let (text, _) = synth::generate(&synth::Config::new(120, seed));
        let path = dir.path().join(format!("m{seed}.yaml"));
        std::fs::write(&path, text).unwrap();
        let out = Command::cargo_bin("replay-audit")
            .unwrap()
            .arg("check")
            .arg(&path)
            .args(["--format", "json"])
            .output()
            .unwrap();
        let code = out.status.code();
        assert!(
            matches!(code, Some(0 | 1)),
            "seed {seed}: exit {code:?}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn check_each_reports_every_architecture_in_path_order() {
    let dir = tempfile::tempdir().unwrap();
    let many = synth::generate_many(5, 40, 11);
    for (name, text) in &many {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    // A sub-folder is one architecture; a broken file is reported, not fatal.
    std::fs::create_dir(dir.path().join("b-team")).unwrap();
    std::fs::write(dir.path().join("b-team/one.yaml"), &many[0].1).unwrap();
    std::fs::write(
        dir.path().join("broken.yaml"),
        "version: 1\ncomponents:\n  a: {kind: nope}\n",
    )
    .unwrap();

    let out = Command::cargo_bin("replay-audit")
        .unwrap()
        .args(["check", "--format", "json", "--each"])
        .arg(dir.path())
        .env("RAYON_NUM_THREADS", "2")
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stderr.is_empty(), "no progress bar without a terminal");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["version"], 1);
    let archs = v["architectures"].as_array().unwrap();
    let names: Vec<String> = archs
        .iter()
        .map(|a| {
            std::path::Path::new(a["path"].as_str().unwrap())
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    assert_eq!(
        names,
        [
            "arch-0001.yaml",
            "arch-0002.yaml",
            "arch-0003.yaml",
            "arch-0004.yaml",
            "arch-0005.yaml",
            "b-team",
            "broken.yaml"
        ]
    );
    let broken = &archs[6];
    assert!(broken.get("findings").is_none());
    assert_eq!(
        broken["errors"][0]["message"],
        "components.a.kind: unknown kind `nope`"
    );
    assert_eq!(broken["errors"][0]["location"]["line"], 3);

    // Each architecture's findings are exactly those of checking it alone.
    let alone = Command::cargo_bin("replay-audit")
        .unwrap()
        .args(["check", "--format", "json"])
        .arg(dir.path().join("arch-0002.yaml"))
        .output()
        .unwrap();
    let alone: serde_json::Value = serde_json::from_slice(&alone.stdout).unwrap();
    assert_eq!(archs[1]["findings"], alone["findings"]);
    assert_eq!(archs[1]["summary"], alone["summary"]);

    // Without the broken file, the exit code is the worst of the findings.
    std::fs::remove_file(dir.path().join("broken.yaml")).unwrap();
    let worst = archs[..6]
        .iter()
        .map(|a| u8::from(a["summary"]["error"].as_u64().unwrap() > 0))
        .max()
        .unwrap();
    let out = Command::cargo_bin("replay-audit")
        .unwrap()
        .args(["check", "--format", "json", "--each"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(i32::from(worst)));
}

#[test]
fn check_each_refuses_paths_too_and_empty_folders() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::cargo_bin("replay-audit")
        .unwrap()
        .args(["check", "--each"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no manifests in"));
    let out = Command::cargo_bin("replay-audit")
        .unwrap()
        .args(["check", "x.yaml", "--each"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
