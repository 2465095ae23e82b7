//! Gaps found auditing issues #16 (clocks) and #17 (rules as units)
//! against their "Done when": each test pins one bullet that no other test
//! pinned. Fixtures under `fixtures/audit/` state their arithmetic with
//! fact ids and, on `# clocks:` lines, the exact horizon and window of a
//! row (`# clocks: NODE ROLE horizon=SECS window=SECS|none`); their
//! `# expect:` lines are checked by tests/fixtures.rs.

use std::path::{Path, PathBuf};

use replay_audit::analysis::Birth;
use replay_audit::report::horizon::rows;
use replay_audit::{Manifest, analyse, manifest, rules};

#[path = "common/clock_rows.rs"]
mod clock_rows;

fn path(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

fn load_text(text: &str) -> Manifest {
    manifest::from_str(text).unwrap_or_else(|e| panic!("{}", e.render(false)))
}

fn load(rel: &str) -> Manifest {
    load_text(&std::fs::read_to_string(path(rel)).expect("readable fixture"))
}

/// Items 4 and 6 of #16 with exact seconds: every `# clocks:` row of every
/// fixture under `fixtures/audit/`.
#[test]
fn every_audit_fixture_has_its_exact_horizons() {
    let mut checked = 0;
    let mut failures = Vec::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(path("fixtures/audit"))
        .expect("fixtures/audit")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("readable");
        let m = load_text(&text);
        let a = analyse(&m);
        checked += clock_rows::check(&text, &a, &file, &mut failures);
    }
    assert!(checked >= 3, "no `# clocks:` rows under fixtures/audit");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// #16 item 4: the async event age (F024) is waited after the event left
/// the transport, so a topic's retention does not cut it short:
/// 1h (declared) + 6h (F024) = 25,200 s, not min(1h, 1h + 6h).
#[test]
fn the_event_age_is_not_capped_by_the_transport_that_pushed_it() {
    let m = load("fixtures/audit/async-invocations.yaml");
    let a = analyse(&m);
    let row = rows(&a, None, Some("settler"))
        .into_iter()
        .find(|r| r.role == "guard")
        .expect("settler guard row");
    assert_eq!(row.horizon_seconds, Some(25_200));
    assert_eq!(
        row.steps[1].why,
        "delivers_to: at-least-once delivery: retention 1h; async invocation keeps the event up to max_event_age 6h (lambda-async default, F024)"
    );
}

/// #16 item 4: an asynchronous Express start is at-least-once (F032), a
/// birth point of duplicates; a Standard start without retries is not
/// (F032: exactly-once execution).
#[test]
fn an_async_express_start_is_a_birth_point_and_a_standard_one_is_not() {
    let m = load_text(
        "version: 1\ncomponents:\n  api:\n    kind: service\n    calls: [express, standard]\n  express: { kind: step-functions-express-async }\n  standard: { kind: step-functions-standard }\n",
    );
    let a = analyse(&m);
    let births: Vec<(&str, Option<Birth>)> = a
        .model
        .edges
        .iter()
        .map(|e| (m.components[e.to()].id.as_str(), e.birth))
        .collect();
    assert_eq!(
        births,
        vec![("express", Some(Birth::Redelivery)), ("standard", None)]
    );
}

fn codes(m: &Manifest) -> Vec<(&'static str, Option<String>)> {
    let a = analyse(m);
    let mut got: Vec<_> = rules::run(&a)
        .into_iter()
        .map(|f| (f.rule.code, f.component.map(|c| c.to_string())))
        .collect();
    got.sort();
    got
}

/// #17 "configuration rules run without intents": the fires fixtures of
/// RH014, RH016, RH050 and RH051 with their intents removed still report
/// them (RH015's fixtures declare no intent at all).
#[test]
fn configuration_rules_fire_without_intents() {
    for (file, code, component) in [
        ("fixtures/rules/RH014-fires.yaml", "RH014", None),
        ("fixtures/rules/RH016-fires.yaml", "RH016", None),
        (
            "fixtures/rules/RH050-fires-mrsc.yaml",
            "RH050",
            Some("payout-keys"),
        ),
        (
            "fixtures/rules/RH015-fires-lambda-six-times.yaml",
            "RH015",
            Some("orders"),
        ),
    ] {
        let mut m = load(file);
        m.intents.clear();
        let got = codes(&m);
        assert!(
            got.iter()
                .any(|(c, comp)| *c == code && component.is_none_or(|w| comp.as_deref() == Some(w))),
            "{file}: {got:?}"
        );
    }
}

/// #17 RH015 (F073): below one times the function timeout Lambda refuses
/// the mapping (error); below six times it is AWS's guidance (warning).
#[test]
fn rh015_severity_follows_f073() {
    for (file, severity) in [
        (
            "fixtures/rules/RH015-fires-lambda-below-timeout.yaml",
            "error",
        ),
        (
            "fixtures/rules/RH015-fires-lambda-six-times.yaml",
            "warning",
        ),
    ] {
        let m = load(file);
        let a = analyse(&m);
        let found: Vec<String> = rules::run(&a)
            .into_iter()
            .filter(|f| f.rule.code == "RH015")
            .map(|f| format!("{:?}", f.severity).to_lowercase())
            .collect();
        assert_eq!(found, vec![severity.to_string()], "{file}");
    }
}

/// #17 RH003: the printed path shows the cycle (the redriven queue twice).
#[test]
fn rh003_path_shows_the_cycle() {
    let m = load("fixtures/rules/RH003-fires.yaml");
    let a = analyse(&m);
    let f = rules::run(&a)
        .into_iter()
        .find(|f| f.rule.code == "RH003")
        .expect("RH003");
    assert_eq!(
        f.path,
        [
            "refund-api",
            "refund-requests",
            "refund-dlq",
            "refund-requests",
            "refund-worker",
            "card-network"
        ]
    );
}

/// #17 RH020: with a guard but no key, the message says that no key is
/// declared (not that one is minted downstream).
#[test]
fn rh020_without_a_key_says_no_key_is_declared() {
    let m = load("fixtures/rules/RH020-fires-nokey.yaml");
    let a = analyse(&m);
    let f = rules::run(&a)
        .into_iter()
        .find(|f| f.rule.code == "RH020")
        .expect("RH020");
    assert!(
        f.message
            .contains("because `seller-payout` declares no key"),
        "{}",
        f.message
    );
    assert!(!f.message.contains("minted"), "{}", f.message);
}
