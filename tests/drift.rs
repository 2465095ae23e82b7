//! `drift`: the fixtures under fixtures/drift (the code, its overlay, and a
//! deployed side) through every format, the matching, the exit codes and
//! bad input.
//!
//! The arithmetic of the fixture (facts of docs/platform-facts via the
//! catalog):
//! - `orders-queue` retention: the template says 1,209,600 s = 14d, the
//!   deployed queue 345,600 s = 4d (F003: SQS default 4d, maximum 14d).
//!   The copies of `place-order` can arrive at most 14d late in the code
//!   and 4d late deployed, so the horizon of the guard's store, the guard
//!   and the effect moves 14d → 4d, and the store's minimum safe
//!   retention (the horizon plus the default RH004 margin of 10%)
//!   15d 9h 36m → 4d 9h 36m (1,330,560 s → 380,160 s).
//! - `click-stream` → `click-counter` retry: MaximumRetryAttempts 2 in the
//!   template is 3 attempts; 10 deployed is 11 attempts (F027: -1..10,000).
//! - `idempotency-table` expiry: the template has no
//!   TimeToLiveSpecification (no expiry set, the kind has no default);
//!   deployed TTL is enabled, so keys expire by physical deletion, which
//!   runs late (F037): RH032 appears on the deployed side only.

use std::path::Path;

use serde_json::Value;

#[path = "common/policy.rs"]
mod policy;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `replay-audit drift ARGS` in the repository root.
fn drift(args: &[&str]) -> (i32, String, String) {
    let all: Vec<&str> = std::iter::once("drift")
        .chain(args.iter().copied())
        .collect();
    let run = policy::run(root(), &all);
    (run.code, run.stdout, run.stderr)
}

const CODE: [&str; 4] = [
    "fixtures/drift/code",
    "fixtures/drift/overlay.yaml",
    "--deployed",
    "fixtures/drift/deployed",
];

fn with(extra: &[&'static str]) -> Vec<&'static str> {
    CODE.iter().chain(extra).copied().collect()
}

#[test]
fn the_table_shows_each_drift_with_both_sources_and_what_it_does() {
    let (code, stdout, _) = drift(&CODE);
    assert_eq!(code, 0, "RH032 is a warning: nothing fails at error");
    insta::assert_snapshot!("drift-table", stdout);
}

#[test]
fn markdown_is_a_pull_request_or_ticket_comment() {
    let (code, stdout, _) = drift(&with(&["--format", "markdown"]));
    assert_eq!(code, 0);
    insta::assert_snapshot!("drift-markdown", stdout);
}

#[test]
fn a_finding_only_the_deployed_side_has_fails_at_its_severity() {
    let (code, stdout, _) = drift(&with(&["--fail-on", "warning"]));
    assert_eq!(code, 1);
    assert!(
        stdout.contains("1 finding the code does not have (1 failing at warning)"),
        "{stdout}"
    );
}

#[test]
fn json_gives_pairs_differences_one_side_only_and_findings() {
    let (code, stdout, _) = drift(&with(&["--format", "json"]));
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        (
            v["differences"].as_u64(),
            v["introduced"].as_u64(),
            v["resolved"].as_u64(),
            v["failing"].as_u64()
        ),
        (Some(3), Some(1), Some(1), Some(0))
    );
    let pair = |id: &str| {
        v["matched"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["component"] == id)
            .unwrap()
            .clone()
    };
    let q = pair("orders-queue");
    assert_eq!(q["deployed_id"], "queue1");
    assert_eq!(q["resource"], "orders");
    assert_eq!(q["matched_by"], "name");
    let d = &q["differences"][0];
    assert_eq!(d["field"], "retention");
    assert_eq!(d["code"]["value"], "14d");
    assert_eq!(
        d["code"]["location"]["file"],
        "fixtures/drift/code/template.yaml"
    );
    assert_eq!(d["code"]["location"]["line"], 14);
    assert_eq!(d["deployed"]["value"], "4d");
    assert_eq!(d["deployed"]["location"]["line"], 11);
    let s = pair("click-stream");
    assert_eq!(
        s["differences"][0]["field"],
        "delivers_to[click-counter].retry.attempts"
    );
    assert_eq!(
        (
            s["differences"][0]["code"]["value"].as_str(),
            s["differences"][0]["deployed"]["value"].as_str()
        ),
        (Some("3"), Some("11"))
    );
    let t = pair("idempotency-table");
    assert_eq!(t["differences"][0]["field"], "expiry");
    assert_eq!(t["differences"][0]["code"]["value"], Value::Null);
    assert_eq!(t["differences"][0]["deployed"]["value"], "physical-ttl");
    assert_eq!(v["only_code"], serde_json::json!([]));
    assert_eq!(
        v["only_deployed"],
        serde_json::json!([{ "component": "queue4", "resource": "orders-replay" }])
    );
    let i = &v["intents"][0];
    assert_eq!(i["intent"], "place-order");
    assert_eq!(i["introduced"][0]["code"], "RH032");
    assert_eq!(i["resolved"][0]["code"], "RH014");
    let store = i["retentions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["component"] == "idempotency-table")
        .unwrap();
    // 15d 9h 36m → 4d 9h 36m
    assert_eq!(store["before_seconds"], 1_330_560);
    assert_eq!(store["after_seconds"], 380_160);
}

#[test]
fn a_default_is_compared_as_the_effective_value_with_its_fact() {
    // Without MessageRetentionPeriod the code's queue keeps the SQS
    // default, 4d (F003): the same as deployed, so no drift is shown.
    let dir = tempfile::tempdir().unwrap();
    let code = dir.path().join("code.yaml");
    let text = std::fs::read_to_string(root().join("fixtures/drift/code/template.yaml"))
        .unwrap()
        .replace(
            "      MessageRetentionPeriod: 1209600  # 14 d, the SQS maximum (F003)\n",
            "",
        );
    std::fs::write(&code, text).unwrap();
    let (_, stdout, stderr) = drift(&[
        code.to_str().unwrap(),
        "fixtures/drift/overlay.yaml",
        "--deployed",
        "fixtures/drift/deployed",
        "--format",
        "json",
    ]);
    let v: Value = serde_json::from_str(&stdout).unwrap_or_else(|_| panic!("{stderr}"));
    assert_eq!(v["differences"], 2, "{stdout}");
    // The code's DLQ keeps 14d: a deployed DLQ of 4d would be "default of
    // sqs-standard (F003)" on the code's side.
    let q = v["matched"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["component"] == "orders-queue")
        .unwrap();
    assert_eq!(q["differences"], serde_json::json!([]));
}

#[test]
fn code_without_a_template_or_plan_is_an_input_error() {
    let (code, stdout, stderr) = drift(&[
        "fixtures/drift/overlay.yaml",
        "--deployed",
        "fixtures/drift/deployed",
    ]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(
        stderr.contains("error: `drift` reads the code from templates or plans"),
        "{stderr}"
    );
}

#[test]
fn a_bad_deployed_file_is_an_error_with_its_place_and_json_writes_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("deployed.yaml"),
        "version: 1\ncomponents:\n  q:\n    kind: sqs-standard\n    retention: forever\n",
    )
    .unwrap();
    let deployed = dir.path().to_str().unwrap().to_string();
    let args = [
        "fixtures/drift/code",
        "fixtures/drift/overlay.yaml",
        "--deployed",
        &deployed,
        "--format",
        "json",
    ];
    let run = policy::run(
        root(),
        &std::iter::once("drift").chain(args).collect::<Vec<_>>(),
    );
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("deployed.yaml:5:"), "{}", run.stderr);
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    assert!(
        v["errors"][0]["message"]
            .as_str()
            .unwrap()
            .contains("forever"),
        "{}",
        run.stdout
    );
}

#[test]
fn the_overlay_maps_a_component_the_names_cannot_and_code_only_is_listed() {
    // The deployed queue is named differently from the code's; the
    // overlay's `resource:` maps it. The code's `click-failures` is missing
    // deployed: it is only in the code.
    let dir = tempfile::tempdir().unwrap();
    let deployed = std::fs::read_to_string(root().join("fixtures/drift/deployed/stack.yaml"))
        .unwrap()
        .replace("QueueName: orders\n", "QueueName: orders-v2\n");
    std::fs::write(dir.path().join("stack.yaml"), deployed).unwrap();
    let overlay = std::fs::read_to_string(root().join("fixtures/drift/overlay.yaml"))
        .unwrap()
        .replace(
            "  storefront:\n",
            "  orders-queue:\n    resource: orders-v2\n  storefront:\n",
        );
    let other = tempfile::tempdir().unwrap();
    let overlay_path = other.path().join("overlay.yaml");
    std::fs::write(&overlay_path, overlay).unwrap();
    let d = dir.path().to_str().unwrap().to_string();
    let o = overlay_path.to_str().unwrap().to_string();
    let (_, stdout, stderr) = drift(&[
        "fixtures/drift/code",
        &o,
        "--deployed",
        &d,
        "--format",
        "json",
    ]);
    let v: Value = serde_json::from_str(&stdout).unwrap_or_else(|_| panic!("{stderr}"));
    let q = v["matched"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["component"] == "orders-queue")
        .unwrap();
    assert_eq!(q["matched_by"], "overlay");
    assert_eq!(q["resource"], "orders-v2");
}

#[test]
fn every_echoed_string_is_inert_in_markdown() {
    let dir = tempfile::tempdir().unwrap();
    let deployed = std::fs::read_to_string(root().join("fixtures/drift/deployed/stack.yaml"))
        .unwrap()
        .replace("QueueName: orders-replay", "QueueName: \"<script>|`x`\"");
    std::fs::write(dir.path().join("stack.yaml"), deployed).unwrap();
    let d = dir.path().to_str().unwrap().to_string();
    let (_, stdout, _) = drift(&[
        "fixtures/drift/code",
        "fixtures/drift/overlay.yaml",
        "--deployed",
        &d,
        "--format",
        "markdown",
    ]);
    assert!(!stdout.contains("<script>"), "{stdout}");
    assert!(!stdout.contains("|`x`"), "{stdout}");
}
