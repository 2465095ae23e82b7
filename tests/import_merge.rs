//! Overlays over imported components: link lists merge by `to` (an
//! imported Task Retry survives an overlay that adds `passes_key`), and a
//! SAM SNS event with `SqsSubscription` goes through its SQS queue.

#[path = "common/imports.rs"]
mod imports;
use imports::{bin, check, t};

fn run(args: &[&str]) -> (String, i32) {
    let o = bin().args(args).output().unwrap();
    (
        String::from_utf8(o.stdout).unwrap() + &String::from_utf8(o.stderr).unwrap(),
        o.status.code().unwrap(),
    )
}

const SFN: [&str; 2] = [
    "step-functions.yaml",
    "merge/step-functions-links.overlay.yaml",
];

/// The overlay restates the call to pay-function with `passes_key: true`:
/// the imported retry (4 attempts, 2s doubling, each attempt up to the
/// function's imported Timeout 30 s: (30s + 2s) + (30s + 4s) + (30s + 8s)
/// = 104 s) stays,
/// RH021 no longer fires, and the new call to audit-function is appended.
#[test]
fn an_overlay_link_keeps_the_imported_task_retry() {
    let (f, code) = check(&SFN);
    assert_eq!(f, vec![]);
    assert_eq!(code, 0);
    let (h, code) = run(&["horizon", SFN[0], SFN[1]]);
    assert_eq!(code, 0, "{h}");
    assert!(
        h.contains("  bank-rail (effect): horizon 1m 44s, window none"),
        "{h}"
    );
    assert!(h.contains("+1m 44s  payout-flow → pay-function: calls: each attempt up to `pay-function`'s timeout 30s; retry 4 attempts: (30s + 2s) + (30s + 4s) + (30s + 8s) = 1m 44s\n"), "{h}");
    let (g, code) = run(&["graph", SFN[0], SFN[1]]);
    assert_eq!(code, 0, "{g}");
    let calls: Vec<&str> = g
        .lines()
        .filter(|l| l.contains("label=\"calls\""))
        .collect();
    assert_eq!(calls.len(), 2, "{g}");
    assert!(
        calls[0].starts_with("  \"payout-flow\" -> \"pay-function\""),
        "{g}"
    );
    assert!(
        calls[1].starts_with("  \"payout-flow\" -> \"audit-function\""),
        "{g}"
    );
    // The merged link is located where the overlay writes it.
    let (r, _) = run(&["report", SFN[0], SFN[1]]);
    assert!(r.contains("- `payout-flow` → `pay-function` (calls): passes\\_key: true (the target deduplicates by the key) (`merge/step-functions-links.overlay.yaml:23`)\n"), "{r}");
    // Without the overlay link the importer's `passes_key: false` stands.
    let (f, _) = check(&["step-functions.yaml", "step-functions.overlay.yaml"]);
    assert_eq!(
        f,
        vec![
            t("RH021", "pay-function", "seller-payout"),
            // No RH041: the attempts last up to the function's Timeout.
        ]
    );
}

/// `SqsSubscription: true` creates a standard queue between the topic and
/// the function, polled by a mapping; an object names an existing queue.
#[test]
fn sam_sns_sqs_subscription_goes_through_its_queue() {
    let (text, code) = run(&["import", "cloudformation", "sam-sns-sqs-subscription.yaml"]);
    insta::assert_snapshot!("sam-sns-sqs-subscription", format!("exit {code}\n{text}"));
    assert_eq!(code, 0);
    // 23d (F016) + 4d (F003) = 27d > 26d: RH001; the created queue's 30s
    // visibility (F002) is under six times the 20s timeout (F073): RH015.
    let (f, code) = check(&[
        "sam-sns-sqs-subscription.yaml",
        "sam-sns-sqs-subscription.overlay.yaml",
    ]);
    assert_eq!(
        f,
        vec![
            t("RH015", "order-function-on-order-queue", "place-order"),
            t("RH001", "order-keys", "place-order"),
            t("RH040", "-", "place-order"),
        ]
    );
    assert_eq!(code, 1);
    let (h, _) = run(&[
        "horizon",
        "sam-sns-sqs-subscription.yaml",
        "sam-sns-sqs-subscription.overlay.yaml",
    ]);
    assert!(
        h.contains("  ledger (effect): horizon 27d, window none"),
        "{h}"
    );
    assert!(h.contains("+4d  order-function-on-order-queue → order-function: delivers_to: at-least-once delivery: retention 4d (sqs-standard default, F003)\n"), "{h}");
}
