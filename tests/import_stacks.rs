//! `import` and `check` on several CloudFormation templates read together
//! as one architecture (stacks linked by exports and ARNs), on the pair in
//! `fixtures/import/multistack/`.

#[path = "common/imports.rs"]
mod imports;
use imports::{bin, check, findings, import, t, transcript};

/// The refund queue's ARN, as stack B's deployment would pass it.
const REFUND_ARN: &str = "RefundQueueArn=arn:aws:sqs:eu-west-1:123456789012:refunds";

/// Two templates read together: stack B's SAM SQS event reaches stack A's
/// queue through `Fn::ImportValue` of A's export (a `!Sub` over Stage), its
/// mapping reaches A's refund queue through an ARN given as a parameter,
/// and the `DeadLetterQueue` both declare gets each stack's name. The
/// arithmetic of the findings is in `multistack/payouts.overlay.yaml`.
#[test]
fn several_templates_link_by_export_and_arn() {
    let out = import(&[
        "cloudformation",
        "multistack/orders.yaml",
        "multistack/payments.yaml",
        "--parameter",
        REFUND_ARN,
    ]);
    insta::assert_snapshot!("cloudformation-multistack", transcript(&out));
    let text = out.0;
    assert!(text.contains("    delivers_to:\n      - to: payout-function  # from Resources.PayoutFunction.Properties.Events.Payouts (event of PayoutFunction) (multistack/payments.yaml:27)\n"), "{text}");
    assert!(
        text.contains("      to: orders.dead-letter-queue  #"),
        "{text}"
    );
    assert!(text.contains("  payments.dead-letter-queue:\n"), "{text}");
    // No placeholder for an id another template owns.
    assert!(!text.contains("not described in"), "{text}");
    let dir = "multistack";
    let args = |more: &[&str]| {
        let mut a: Vec<String> = ["orders.yaml", "payments.yaml", "payouts.overlay.yaml"]
            .iter()
            .map(|f| format!("{dir}/{f}"))
            .collect();
        a.extend(more.iter().map(|s| s.to_string()));
        a
    };
    let with_arn = args(&["--parameter", REFUND_ARN]);
    let with_arn: Vec<&str> = with_arn.iter().map(String::as_str).collect();
    assert_eq!(
        check(&with_arn),
        (
            vec![
                t("RH015", "refund-queue", "-"),
                t("RH001", "idempotency-keys", "seller-payout"),
                t("RH040", "-", "seller-payout")
            ],
            1
        )
    );
    let plain = args(&[]);
    let plain: Vec<&str> = plain.iter().map(String::as_str).collect();
    assert_eq!(
        check(&plain),
        (
            vec![
                t("RH001", "idempotency-keys", "seller-payout"),
                t("RH040", "-", "seller-payout")
            ],
            1
        )
    );
    // The horizon crosses the stacks: 345,600 s of the queue's retention.
    let o = bin()
        .arg("horizon")
        .args(&plain)
        .args(["--format", "json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let effect = v["horizons"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["node"] == "bank-rail")
        .unwrap();
    assert_eq!(effect["horizon_seconds"], 345600);
    assert_eq!(effect["required_retention_seconds"], 380160);
    assert_eq!(
        effect["path"],
        serde_json::json!([
            "payout-scheduler",
            "payout-queue",
            "payout-function",
            "bank-rail"
        ])
    );
    // RH015 points into stack A, where the queue's visibility timeout is.
    let (f, _) = findings(&with_arn);
    let l = &f[0]["location"];
    assert_eq!(
        (l["file"].as_str(), l["line"].as_u64()),
        (Some("multistack/orders.yaml"), Some(32))
    );
}

/// A folder holding both templates and the overlay is one architecture,
/// for `check DIR` and for `check --each` on its parent.
#[test]
fn a_folder_of_templates_is_one_architecture() {
    let expected = vec![
        t("RH001", "idempotency-keys", "seller-payout"),
        t("RH040", "-", "seller-payout"),
    ];
    assert_eq!(check(&["multistack"]), (expected.clone(), 1));
    let parent = tempfile::tempdir().unwrap();
    let stacks = parent.path().join("stacks");
    std::fs::create_dir_all(&stacks).unwrap();
    for f in ["orders.yaml", "payments.yaml", "payouts.overlay.yaml"] {
        let from = format!(
            "{}/fixtures/import/multistack/{f}",
            env!("CARGO_MANIFEST_DIR")
        );
        std::fs::copy(from, stacks.join(f)).unwrap();
    }
    let o = bin()
        .args(["check", "--each"])
        .arg(parent.path())
        .args(["--format", "json"])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    let codes: Vec<&str> = v["architectures"][0]["findings"]
        .as_array()
        .unwrap_or_else(|| panic!("{out}"))
        .iter()
        .map(|f| f["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, vec!["RH001", "RH040"], "{out}");
    assert_eq!(o.status.code(), Some(1));
}

/// Several templates: a `--parameter` goes to every template declaring
/// it, and one none declares is an error; an export no template declares
/// leaves the mapping a TODO; two templates at once are not the
/// Terraform or AsyncAPI importers' input.
#[test]
fn several_templates_parameters_and_unresolved_imports() {
    let (_, err, code) = import(&[
        "cloudformation",
        "multistack/orders.yaml",
        "multistack/payments.yaml",
        "--parameter",
        "Stag=dev",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("`--parameter Stag=...`: no template has a parameter `Stag`"),
        "{err}"
    );
    assert!(err.contains("did you mean `Stage`?"), "{err}");
    // Stage=dev renames the export and the import alike: they still link.
    let (text, _, code) = import(&[
        "cloudformation",
        "multistack/orders.yaml",
        "multistack/payments.yaml",
        "--parameter",
        "Stage=dev",
    ]);
    assert_eq!(code, 0);
    assert!(text.contains("      - to: payout-function  #"), "{text}");
    // Stack B alone: the export is not among the inputs.
    let (text, _, code) = import(&["cloudformation", "multistack/payments.yaml"]);
    assert_eq!(code, 0);
    assert!(
        text.contains("TODO: event Payouts: source `Fn::ImportValue"),
        "{text}"
    );
    let (_, err, code) = import(&["asyncapi", "asyncapi3-sqs.yaml", "asyncapi3-sqs-dlq.yaml"]);
    assert_eq!(code, 2);
    assert!(err.contains("`import asyncapi` reads one file"), "{err}");
}
