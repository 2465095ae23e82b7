//! `drift` on an AWS export: the code (fixtures/drift/shop: a
//! CloudFormation template and its overlay) against the live configuration
//! exported by the AWS CLI (fixtures/import/aws-export/drift, the folder
//! `export-aws`'s script writes), matched by the names in the ARNs.
//!
//! The arithmetic (facts of the platform-facts reference, via the catalog):
//! - `orders` retention: the template says 1,209,600 s = 14 d (the SQS
//!   maximum, F003), the export 345,600 s = 4 × 86,400 s = 4 d (the SQS
//!   default, F003). The horizon of `place-order` at the guard, its store
//!   and the effect is 2 h (EventBridge MaximumEventAgeInSeconds 7,200 s,
//!   F017) + 23 d (SNS delivery retries to SQS, F016) + the queue's
//!   retention: 37 d 2 h in the code, 27 d 2 h deployed; the store's
//!   minimum safe retention (the horizon + the default RH004 margin of
//!   10%) 40 d 19 h → 29 d 19 h (3,204,000 s × 1.1 = 3,524,400 s → 2,340,000 s × 1.1 = 2,574,000 s). The DLQ's
//!   14 d no longer equals the queue's retention: RH014 goes.
//! - `order-events` → `project-orders` retries: MaximumRetryAttempts 2 in
//!   the template = 3 attempts; 10 in the export (raised in the console) =
//!   11 attempts (-1..10,000, F027). The horizon of `project-order` stays
//!   1 h: MaximumRecordAgeInSeconds 3,600 s (F027) bounds it on both sides.
//! - `payments-dedup` expiry: the template has no TimeToLiveSpecification;
//!   the export's TTL is ENABLED, so keys expire by physical deletion,
//!   which runs late (F037): RH032 (a warning) on the deployed side only.
//! - `events-dlq`: the rule's dead-letter queue, named by the export's
//!   targets file but not exported: not compared, checked deployed as the
//!   template describes it.

use std::path::{Path, PathBuf};

use serde_json::Value;

#[path = "common/policy.rs"]
mod policy;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

const TEMPLATE: &str = "fixtures/drift/shop/template.yaml";
const OVERLAY: &str = "fixtures/drift/shop/overlay.yaml";
const EXPORT: &str = "fixtures/import/aws-export/drift";

/// `replay-audit drift ARGS` in the repository root.
fn drift(args: &[&str]) -> policy::Run {
    let all: Vec<&str> = std::iter::once("drift")
        .chain(args.iter().copied())
        .collect();
    policy::run(root(), &all)
}

fn shop(extra: &[&str]) -> policy::Run {
    let mut args = vec![TEMPLATE, OVERLAY, "--deployed", EXPORT];
    args.extend_from_slice(extra);
    drift(&args)
}

fn json(run: &policy::Run) -> Value {
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {}", run.stderr))
}

/// A copy of the export folder in a temporary folder, `edit` applied to
/// each file's text (by name), with `extra` files added.
fn export_copy(
    edit: &dyn Fn(&str, String) -> Option<String>,
    extra: &[(&str, &str)],
) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for e in std::fs::read_dir(root().join(EXPORT)).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_str().unwrap().to_string();
        if let Some(text) = edit(&name, std::fs::read_to_string(&p).unwrap()) {
            std::fs::write(dir.path().join(&name), text).unwrap();
        }
    }
    for (name, text) in extra {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    dir
}

/// The fixture template with `from` replaced by `to`, in a temporary file.
fn template_with(replacements: &[(&str, &str)]) -> (tempfile::TempDir, PathBuf) {
    let mut text = std::fs::read_to_string(root().join(TEMPLATE)).unwrap();
    for (from, to) in replacements {
        assert!(text.contains(from), "{from}");
        text = text.replace(from, to);
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("template.yaml");
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

fn pair<'v>(v: &'v Value, id: &str) -> &'v Value {
    v["matched"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["component"] == id)
        .unwrap_or_else(|| panic!("{id} not matched: {v}"))
}

#[test]
fn the_table_shows_the_three_drifts_with_template_and_export_lines() {
    let run = shop(&[]);
    assert_eq!(run.code, 0, "RH032 is a warning: {}", run.stdout);
    insta::assert_snapshot!("drift-export-table", run.stdout);
    assert_eq!(
        run.stderr,
        "fixtures/drift/shop/template.yaml: coverage: 13 resources: 13 read, 0 not imported; 0 references unresolved\n\
         fixtures/import/aws-export/drift: coverage: 12 resources: 12 read, 0 not imported; 1 reference unresolved (each a TODO: in the skeleton)\n"
    );
}

#[test]
fn markdown_of_the_export_drift_is_a_ticket_comment() {
    let run = shop(&["--format", "markdown"]);
    assert_eq!(run.code, 0);
    insta::assert_snapshot!("drift-export-markdown", run.stdout);
}

#[test]
fn json_of_the_export_drift_gives_both_places_and_the_seconds() {
    let run = shop(&["--format", "json"]);
    assert_eq!(run.code, 0);
    insta::assert_snapshot!("drift-export-json", run.stdout);
    let v = json(&run);
    assert_eq!(
        (
            &v["differences"],
            &v["introduced"],
            &v["resolved"],
            &v["failing"]
        ),
        (&3.into(), &1.into(), &1.into(), &0.into())
    );
    let q = pair(&v, "orders");
    assert_eq!(q["resource"], "arn:aws:sqs:eu-west-1:111122223333:orders");
    assert_eq!(q["matched_by"], "name");
    let d = &q["differences"][0];
    assert_eq!(
        (&d["field"], &d["code"]["value"], &d["deployed"]["value"]),
        (&"retention".into(), &"14d".into(), &"4d".into())
    );
    assert_eq!(d["code"]["location"]["file"], TEMPLATE);
    assert_eq!(d["code"]["location"]["line"], 63);
    assert_eq!(
        d["deployed"]["location"]["file"],
        format!("{EXPORT}/sqs.orders.json")
    );
    assert_eq!(d["deployed"]["location"]["line"], 11);
    let s = &pair(&v, "order-events")["differences"][0];
    assert_eq!(s["field"], "delivers_to[project-orders].retry.attempts");
    assert_eq!(
        (&s["code"]["value"], &s["deployed"]["value"]),
        (&"3".into(), &"11".into())
    );
    assert_eq!(s["deployed"]["location"]["line"], 21);
    let t = &pair(&v, "payments-dedup")["differences"][0];
    assert_eq!(
        (&t["field"], &t["code"]["value"], &t["deployed"]["value"]),
        (&"expiry".into(), &Value::Null, &"physical-ttl".into())
    );
    assert_eq!(
        t["deployed"]["location"]["file"],
        format!("{EXPORT}/dynamodb-ttl.payments-dedup.json")
    );
    assert_eq!(v["only_code"], serde_json::json!([]));
    assert_eq!(v["only_deployed"], serde_json::json!([]));
    assert_eq!(
        v["not_exported"],
        serde_json::json!([{ "component": "events-dlq", "resource": "events-dlq" }])
    );
    let i = &v["intents"][0];
    assert_eq!(i["intent"], "place-order");
    assert_eq!(i["introduced"][0]["code"], "RH032");
    assert_eq!(i["resolved"][0]["code"], "RH014");
    let store = i["retentions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["component"] == "payments-dedup")
        .unwrap();
    // 40d 19h → 29d 19h
    assert_eq!(store["before_seconds"], 3_524_400);
    assert_eq!(store["after_seconds"], 2_574_000);
    // The raised retries leave `project-order` as it was: no entry.
    assert!(
        v["intents"]
            .as_array()
            .unwrap()
            .iter()
            .all(|i| i["intent"] != "project-order"),
        "{v}"
    );
}

#[test]
fn the_deployed_ttl_fails_at_warning() {
    let run = shop(&["--fail-on", "warning"]);
    assert_eq!(run.code, 1);
    assert!(
        run.stdout.contains("deployed side: 1 finding the code does not have (1 failing at warning), 1 of the code's it does not have"),
        "{}",
        run.stdout
    );
}

#[test]
fn logical_ids_other_than_the_names_match_through_the_resource_name() {
    // `Orders` becomes `OrdersQueue` (id `orders-queue`): the export's
    // `orders` (arn:...:orders) takes the code's id by its QueueName.
    let (_dir, t) = template_with(&[
        ("  Orders:\n", "  OrdersQueue:\n"),
        ("!GetAtt Orders.Arn", "!GetAtt OrdersQueue.Arn"),
    ]);
    let run = drift(&[
        t.to_str().unwrap(),
        OVERLAY,
        "--deployed",
        EXPORT,
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = json(&run);
    let q = pair(&v, "orders-queue");
    assert_eq!(
        (&q["deployed_id"], &q["matched_by"]),
        (&"orders".into(), &"name".into())
    );
    assert_eq!(q["differences"][0]["field"], "retention");
    assert_eq!(v["only_deployed"], serde_json::json!([]));
    // The overlay's guard and intents reach the renamed component.
    assert_eq!(v["intents"][0]["introduced"][0]["code"], "RH032");
}

#[test]
fn a_link_target_missing_from_both_the_export_and_the_code_is_not_exported() {
    // Without EventsDlq in the template the rule has no dead letter in the
    // code; the export's rule names `events-dlq` but does not describe it:
    // a link difference, and `events-dlq` not exported, not "only deployed".
    let (_dir, t) = template_with(&[
        (
            "          DeadLetterConfig:\n            Arn: !GetAtt EventsDlq.Arn\n",
            "",
        ),
        (
            "  EventsDlq:\n    Type: AWS::SQS::Queue\n    Properties:\n      QueueName: events-dlq\n      MessageRetentionPeriod: 1209600  # 14 d (F003)\n",
            "",
        ),
    ]);
    let run = drift(&[
        t.to_str().unwrap(),
        OVERLAY,
        "--deployed",
        EXPORT,
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = json(&run);
    assert_eq!(v["only_deployed"], serde_json::json!([]));
    assert_eq!(
        v["not_exported"],
        serde_json::json!([{ "component": "events-dlq", "resource": null }])
    );
    let rule = pair(&v, "order-placed-to-topic");
    assert_eq!(rule["differences"][0]["field"], "dead_letter[events-dlq]");
    assert_eq!(rule["differences"][0]["deployed"]["value"], "linked");
}

#[test]
fn a_name_in_two_regions_is_left_to_the_overlay() {
    // A second `orders` queue in us-east-1: the export's ids become
    // `eu-west-1.orders` and `us-east-1.orders`; the template's `orders`
    // names both, so it matches neither until the overlay gives its ARN.
    let us = "{\n    \"Attributes\": {\n        \"QueueArn\": \"arn:aws:sqs:us-east-1:111122223333:orders\",\n        \"MessageRetentionPeriod\": \"1209600\"\n    }\n}\n";
    let dir = export_copy(&|_, t| Some(t), &[("sqs.orders-us.json", us)]);
    let d = dir.path().to_str().unwrap().to_string();
    let run = drift(&[TEMPLATE, OVERLAY, "--deployed", &d, "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = json(&run);
    assert_eq!(
        v["ambiguous"],
        serde_json::json!([{ "component": "orders", "deployed": ["eu-west-1.orders", "us-east-1.orders"] }])
    );
    assert!(
        v["only_code"]
            .as_array()
            .unwrap()
            .iter()
            .any(|o| o["component"] == "orders")
    );
    let table = drift(&[TEMPLATE, OVERLAY, "--deployed", &d]);
    assert!(
        table.stdout.contains("only in the code because several deployed resources have their name (give the code component `resource: ARN` in the overlay):\n  orders: eu-west-1.orders, us-east-1.orders\n"),
        "{}",
        table.stdout
    );
    // The overlay names the ARN: matched; its 14 d is no drift, what the
    // us-east-1 queue lacks is.
    let other = tempfile::tempdir().unwrap();
    let overlay = other.path().join("overlay.yaml");
    let text = std::fs::read_to_string(root().join(OVERLAY))
        .unwrap()
        .replace(
            "  payments:\n",
            "  orders:\n    resource: arn:aws:sqs:us-east-1:111122223333:orders\n  payments:\n",
        );
    std::fs::write(&overlay, text).unwrap();
    let run = drift(&[
        TEMPLATE,
        overlay.to_str().unwrap(),
        "--deployed",
        &d,
        "--format",
        "json",
    ]);
    let v = json(&run);
    let q = pair(&v, "orders");
    assert_eq!(
        (&q["deployed_id"], &q["matched_by"]),
        (&"us-east-1.orders".into(), &"overlay".into())
    );
    let fields: Vec<&str> = q["differences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["field"].as_str().unwrap())
        .collect();
    assert_eq!(
        fields,
        [
            "visibility_timeout",
            "delivers_to[process-order]",
            "dead_letter[orders-dlq]"
        ]
    );
    assert_eq!(q["differences"][0]["deployed"]["fact"], "F002");
    assert_eq!(v["ambiguous"], serde_json::json!([]));
}

#[test]
fn a_broken_export_file_is_an_error_at_its_place_and_nothing_is_written() {
    let dir = export_copy(
        &|name, t| {
            Some(if name == "sqs.orders.json" {
                t.replace("\"345600\",", "\"345600\"")
            } else {
                t
            })
        },
        &[],
    );
    let d = dir.path().to_str().unwrap().to_string();
    let run = drift(&[TEMPLATE, OVERLAY, "--deployed", &d]);
    assert_eq!((run.code, run.stdout.as_str()), (2, ""));
    let file = dir.path().join("sqs.orders.json");
    assert!(
        run.stderr.contains(&format!("{}:12:9", file.display())),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("error: invalid JSON: expected `,` or `}`"),
        "{}",
        run.stderr
    );
}

#[test]
fn an_exported_name_is_inert_in_markdown_and_the_table() {
    // A queue named by hand in the console (only deployed), its name
    // carrying Markdown, HTML and a terminal escape.
    let q = "{\n    \"Attributes\": {\n        \"QueueArn\": \"arn:aws:sqs:eu-west-1:111122223333:x<script>|`y`\\u001b[31m\",\n        \"MessageRetentionPeriod\": \"60\"\n    }\n}\n";
    let dir = export_copy(&|_, t| Some(t), &[("sqs.hand-made.json", q)]);
    let d = dir.path().to_str().unwrap().to_string();
    let md = drift(&[TEMPLATE, OVERLAY, "--deployed", &d, "--format", "markdown"]);
    assert!(
        md.stdout.contains("Only deployed"),
        "{}{}",
        md.stdout,
        md.stderr
    );
    assert!(!md.stdout.contains("<script>"), "{}", md.stdout);
    assert!(!md.stdout.contains("|`y`"), "{}", md.stdout);
    let table = drift(&[TEMPLATE, OVERLAY, "--deployed", &d]);
    assert!(table.stdout.contains("only deployed:"), "{}", table.stdout);
    assert!(!table.stdout.contains('\u{1b}'), "{}", table.stdout);
}

#[test]
fn terraform_code_matches_an_export_by_its_names() {
    // fixtures/drift/terraform: the orders queue, its DLQ and worker as a
    // Terraform configuration (`name`, `function_name` → `resource:`),
    // against the export's files of the same resources.
    let files = [
        "replay-audit-export.txt",
        "sqs.orders.json",
        "sqs.orders-dlq.json",
        "lambda-function.process-order.json",
        "lambda-mappings.process-order.json",
    ];
    let dir = export_copy(&|name, t| files.contains(&name).then_some(t), &[]);
    let d = dir.path().to_str().unwrap().to_string();
    let run = drift(&[
        "fixtures/drift/terraform",
        "--deployed",
        &d,
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = json(&run);
    let ids: Vec<(&str, &str)> = v["matched"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["component"].as_str().unwrap(),
                p["matched_by"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        ids,
        [
            ("orders", "name"),
            ("orders-dlq", "name"),
            ("process-order", "name")
        ]
    );
    assert_eq!(v["differences"], 1, "{v}");
    let d = &pair(&v, "orders")["differences"][0];
    // 1,209,600 s = 14 d in the configuration; 345,600 s = 4 d deployed (F003).
    assert_eq!(
        (&d["field"], &d["code"]["value"], &d["deployed"]["value"]),
        (&"retention".into(), &"14d".into(), &"4d".into())
    );
    assert_eq!(
        d["code"]["location"]["file"],
        "fixtures/drift/terraform/main.tf"
    );
    assert_eq!(d["code"]["location"]["line"], 18);
    assert_eq!(
        (&v["only_code"], &v["only_deployed"]),
        (&serde_json::json!([]), &serde_json::json!([]))
    );
    // The DLQ's 14 d no longer equals the queue's: RH014 goes.
    assert_eq!(v["resolved"], 1);
    assert_eq!(v["introduced"], 0);
}

/// The `$ replay-audit ...` commands of the ```console blocks of `doc`,
/// each with the lines shown after it (`...` stands for lines left out).
fn documented(doc: &str) -> Vec<(Vec<String>, Vec<String>)> {
    let text = std::fs::read_to_string(root().join(doc)).unwrap();
    let mut out: Vec<(Vec<String>, Vec<String>)> = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        if line.starts_with("```") {
            inside = line == "```console";
            continue;
        }
        if !inside {
            continue;
        }
        if let Some(cmd) = line.strip_prefix("$ replay-audit ") {
            out.push((
                cmd.split_whitespace().map(String::from).collect(),
                Vec::new(),
            ));
        } else if let Some((_, shown)) = out.last_mut() {
            shown.push(line.to_string());
        }
    }
    out
}

#[test]
fn the_documented_loop_prints_what_the_docs_show() {
    let mut ran = 0;
    for doc in ["docs/drift.md", "docs/import.md"] {
        for (args, shown) in documented(doc) {
            let a: Vec<&str> = args.iter().map(String::as_str).collect();
            let run = policy::run(root(), &a);
            assert_ne!(run.code, 2, "{doc}: {args:?}: {}", run.stderr);
            let lines: Vec<&str> = run.stdout.lines().collect();
            // Each line shown, in order; `...` skips lines.
            let mut at = 0;
            let mut gap = true;
            for s in &shown {
                if s == "..." {
                    gap = true;
                    continue;
                }
                let found = if gap {
                    lines[at..].iter().position(|l| l == s).map(|p| at + p)
                } else {
                    (lines.get(at) == Some(&s.as_str())).then_some(at)
                };
                let Some(i) = found else {
                    panic!(
                        "{doc}: {args:?}: `{s}` is not printed where shown:\n{}",
                        run.stdout
                    );
                };
                at = i + 1;
                gap = false;
            }
            ran += 1;
        }
    }
    assert!(ran >= 3, "the docs show the loop's commands");
}
