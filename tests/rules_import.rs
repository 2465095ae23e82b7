//! Rules on imported templates: an EventBridge API destination target
//! without an `Idempotency-Key` header is imported as a `delivers_to` link
//! with `passes_key: false`, and RH021 fires once an overlay says the
//! endpoint deduplicates by a key; with the header the link passes it.

use std::path::PathBuf;

use assert_cmd::Command;

/// A rule delivering to an API destination, with `headers` on the target.
fn template(headers: &str) -> String {
    format!(
        "AWSTemplateFormatVersion: '2010-09-09'
Resources:
  Products:
    Type: AWS::Events::ApiDestination
    Properties:
      ConnectionArn: arn:aws:events:eu-west-1:123456789012:connection/stripe/1
      InvocationEndpoint: https://api.stripe.com/v1/products
      HttpMethod: POST
  ProductRule:
    Type: AWS::Events::Rule
    Properties:
      EventPattern: {{source: [catalog]}}
      Targets:
        - Id: products
          Arn: !GetAtt Products.Arn
          RoleArn: arn:aws:iam::123456789012:role/invoke
{headers}          RetryPolicy: {{MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 3600}}
"
    )
}

const OVERLAY: &str = "version: 1
intents:
  create-product:
    origin: catalog-service
    effect: products
    key: { fields: [product_id] }
    fingerprint: [product_id, name]
    tested: [timeout-before-effect, timeout-after-effect, lost-ack, concurrent-retry,
             expired-key, dlq-redrive, regional-failover]
components:
  catalog-service: { kind: service, sends_to: product-rule }
  products: { accepts_key: true, key_window: 24h, uses: [product_id, name] }
";

/// Writes the template and overlay into a fresh folder; `import` of the
/// template and the codes `check` finds with the overlay.
fn run(name: &str, headers: &str) -> (String, Vec<String>) {
    let dir: PathBuf =
        std::env::temp_dir().join(format!("ra-rules-import-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("t.yaml"), template(headers)).unwrap();
    std::fs::write(dir.join("o.yaml"), OVERLAY).unwrap();
    let bin = || {
        let mut c = Command::cargo_bin("replay-audit").unwrap();
        c.current_dir(&dir).env("NO_COLOR", "1");
        c
    };
    let imported = bin()
        .args(["import", "cloudformation", "t.yaml"])
        .output()
        .unwrap();
    let text = String::from_utf8(imported.stdout).unwrap();
    let checked = bin()
        .args(["check", "t.yaml", "o.yaml", "--format", "json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&checked.stdout).unwrap();
    let codes = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            format!(
                "{} {} {}",
                f["code"].as_str().unwrap(),
                f["component"].as_str().unwrap_or("-"),
                f["location"]["line"]
            )
        })
        .collect();
    std::fs::remove_dir_all(&dir).unwrap();
    (text, codes)
}

#[test]
fn api_destination_without_header_does_not_pass_the_key() {
    let (text, codes) = run("bare", "");
    assert!(
        text.contains("      - to: products  # from Resources.ProductRule.Properties.Targets[0].Arn (t.yaml:15)\n        passes_key: false  # no Idempotency-Key header in the target's HttpParameters: the endpoint is sent no key\n"),
        "{text}"
    );
    // The link is the rule's target at t.yaml:15.
    assert_eq!(codes, ["RH021 products 15"]);
}

#[test]
fn api_destination_with_header_passes_the_key() {
    let headers = "          HttpParameters:\n            HeaderParameters: {Idempotency-Key: $.detail.product_id}\n";
    let (text, codes) = run("header", headers);
    assert!(!text.contains("passes_key"), "{text}");
    assert!(
        text.contains("the rule sends header Idempotency-Key: $.detail.product_id"),
        "{text}"
    );
    // Stripe-like 24 h window against the rule's 1 h event age: quiet.
    assert_eq!(codes, Vec::<String>::new());
}
