//! Terraform shapes the CloudFormation importer reads too, read into the
//! same manifest: S3 bucket notifications, functions invoked
//! asynchronously by EventBridge rules, Scheduler schedules and SNS, and
//! event source mappings naming their function by an ARN built from a
//! module's outputs or an alias. Each fixture under
//! `fixtures/import/terraform-*/` is imported (the skeleton is a snapshot
//! in `tests/snapshots/`), then checked with its intents-only overlay, the
//! findings asserted exactly and, where a template of the same
//! architecture exists, equal to the template's.

#[path = "common/imports.rs"]
mod imports;
use imports::{check, check_overlaid, import, import_clean, quiet, run, scratch, t, transcript};

/// (stdout, stderr, exit code) of `import terraform PATH`, whose whole
/// output is the snapshot `NAME` in `tests/snapshots/`.
fn snapshot(name: &str, path: &str) -> (String, String, i32) {
    let out = import(&["terraform", path]);
    insta::assert_snapshot!(name, transcript(&out));
    out
}

#[test]
fn s3_notifications_as_the_template_gives_them() {
    let (text, err, code) = snapshot("terraform-s3-notification", "terraform-s3-notification");
    assert_eq!(code, 0);
    // A bucket that notifies nothing stays not imported; the notifications
    // and the alias are read, so they are not listed.
    assert_eq!(
        err,
        "coverage: 10 resources: 9 read, 1 not imported (1 aws_s3_bucket); 0 references unresolved\n"
    );
    let at = "aws_s3_bucket_notification.upload_notifications";
    assert!(text.contains(&format!("  upload-bucket:\n    kind: topic  # aws_s3_bucket, from aws_s3_bucket.upload_bucket (terraform-s3-notification/main.tf:17)\n    delivers_to:\n      - to: scan-queue  # from {at}.queue[0].queue_arn (terraform-s3-notification/main.tf:25): s3:ObjectCreated:*\n      - to: audit-topic  # from {at}.topic[0].topic_arn (terraform-s3-notification/main.tf:30): s3:ObjectRemoved:*\n      - to: thumbnail-function  # from {at}.lambda_function[0].lambda_function_arn (terraform-s3-notification/main.tf:35): s3:ObjectCreated:Put\n    # TODO: S3 event notifications are not in the platform-facts reference")), "{text}");
    assert!(text.contains("  thumbnail-function:\n    kind: lambda-async  # aws_lambda_function, from aws_lambda_function.thumbnail_function (terraform-s3-notification/main.tf:50)\n"), "{text}");
    // The alias `live` stands for index_function.
    assert!(text.contains("      - to: index-function  # from aws_s3_bucket_notification.invoice_notifications.lambda_function[0].lambda_function_arn (terraform-s3-notification/main.tf:67): s3:ObjectCreated:*\n"), "{text}");
    assert!(text.contains("  index-function:\n    kind: lambda-async  # aws_lambda_function, from aws_lambda_function.index_function (terraform-s3-notification/main.tf:72)\n"), "{text}");
    // The findings of the template of the same architecture
    // (tests/import.rs): RH041 twice per generic bucket, an unbounded
    // horizon to each function (RH003), no dedup (RH038), untested (RH040).
    let expected = (
        vec![
            t("RH003", "index-function", "index-invoice"),
            t("RH003", "thumbnail-function", "make-thumbnail"),
            t("RH038", "index-function", "index-invoice"),
            t("RH038", "thumbnail-function", "make-thumbnail"),
            t("RH041", "invoice-bucket", "index-invoice"),
            t("RH041", "invoice-bucket", "index-invoice"),
            t("RH041", "upload-bucket", "make-thumbnail"),
            t("RH041", "upload-bucket", "make-thumbnail"),
            t("RH040", "-", "index-invoice"),
            t("RH040", "-", "make-thumbnail"),
        ],
        1,
    );
    assert_eq!(check(&["terraform-s3-notification"]), expected);
    assert_eq!(check_overlaid("s3-notifications.yaml"), expected);
}

#[test]
fn s3_notification_edge_cases_keep_every_link_or_say_why() {
    // A bucket managed elsewhere (a literal name): the notification stands
    // for it. Two blocks to one queue: one link, the second a note. A
    // destination not in the configuration: a TODO. EventBridge: a TODO.
    let (_dir, tf) = scratch(
        "main.tf",
        r#"resource "aws_sqs_queue" "q" {
  name = "q"
}
resource "aws_s3_bucket_notification" "shared_uploads" {
  bucket      = "bucket-of-another-team"
  eventbridge = true
  queue {
    queue_arn     = aws_sqs_queue.q.arn
    events        = ["s3:ObjectCreated:*"]
    filter_prefix = "images/"
  }
  queue {
    queue_arn     = aws_sqs_queue.q.arn
    events        = ["s3:ObjectRemoved:*", "s3:ObjectRestore:Completed"]
    filter_prefix = "docs/"
  }
  topic {
    topic_arn = "arn:aws:sns:eu-west-1:123456789012:elsewhere"
    events    = ["s3:ObjectCreated:*"]
  }
}
"#,
    );
    let text = import_clean(&["terraform", &tf]);
    assert!(
        text.contains("  shared-uploads:\n    kind: topic  # aws_s3_bucket_notification, from aws_s3_bucket_notification.shared_uploads ("),
        "{text}"
    );
    assert!(
        text.contains("    delivers_to:\n      - to: q  # from aws_s3_bucket_notification.shared_uploads.queue[0].queue_arn ("),
        "{text}"
    );
    assert!(text.contains("): s3:ObjectCreated:*\n"), "{text}");
    assert!(text.contains("    # TODO: the bucket `bucket-of-another-team` (from aws_s3_bucket_notification.shared_uploads.bucket ("), "{text}");
    assert!(
        text.contains("is not managed in this configuration: this component stands for it\n"),
        "{text}"
    );
    assert!(text.contains("    # also s3:ObjectRemoved:*, s3:ObjectRestore:Completed to `q` (from aws_s3_bucket_notification.shared_uploads.queue[1].queue_arn ("), "{text}");
    assert!(text.contains("    # TODO: delivers_to a topic not in this configuration (from aws_s3_bucket_notification.shared_uploads.topic[0].topic_arn ("), "{text}");
    assert!(text.contains("    # TODO: the bucket also sends its events to EventBridge's default bus (from aws_s3_bucket_notification.shared_uploads.eventbridge ("), "{text}");
    assert_eq!(
        text.matches("TODO: S3 event notifications").count(),
        1,
        "{text}"
    );
    // Two notification resources of one bucket: both read, each a TODO
    // (the AWS provider documents one per bucket; S3 keeps the last).
    let (_dir, tf) = scratch(
        "main.tf",
        r#"resource "aws_sqs_queue" "q" {
  name = "q"
}
resource "aws_s3_bucket" "b" {
  bucket = "b"
}
resource "aws_s3_bucket_notification" "first" {
  bucket = aws_s3_bucket.b.id
  queue {
    queue_arn = aws_sqs_queue.q.arn
    events    = ["s3:ObjectCreated:*"]
  }
}
resource "aws_s3_bucket_notification" "second" {
  bucket = aws_s3_bucket.b.bucket
  queue {
    queue_arn = aws_sqs_queue.q.arn
    events    = ["s3:ObjectRemoved:*"]
  }
}
"#,
    );
    let text = import_clean(&["terraform", &tf]);
    for n in ["first", "second"] {
        assert!(text.contains(&format!("    # TODO: aws_s3_bucket_notification.{n} is one of 2 aws_s3_bucket_notification resources of this bucket: S3 keeps one notification configuration per bucket, the last one applied, so not all of their links hold; keep one\n")), "{text}");
    }
    assert_eq!(
        text.matches("      - to: q  # from aws_s3_bucket_notification.")
            .count(),
        2,
        "{text}"
    );
}

#[test]
fn many_notification_blocks_are_read_in_linear_time() {
    // 20,000 blocks to one function: one link, the others notes; the time
    // stays far from quadratic.
    let mut tf = String::from(
        "resource \"aws_lambda_function\" \"f\" {\n  function_name = \"f\"\n}\nresource \"aws_s3_bucket_notification\" \"n\" {\n  bucket = \"elsewhere\"\n",
    );
    for i in 0..20_000 {
        tf.push_str(&format!("  lambda_function {{\n    lambda_function_arn = aws_lambda_function.f.arn\n    events = [\"e{i}\"]\n  }}\n"));
    }
    tf.push_str("}\n");
    let (_dir, path) = scratch("main.tf", &tf);
    let start = std::time::Instant::now();
    let text = import_clean(&["terraform", &path]);
    assert!(
        start.elapsed() < std::time::Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(text.matches("      - to: f  #").count(), 1);
    assert_eq!(text.matches("    # also e").count(), 19_999);
    assert!(
        text.contains("    kind: lambda-async  # aws_lambda_function"),
        "{text}"
    );
}

#[test]
fn functions_invoked_by_rules_and_schedules_are_lambda_async() {
    let (text, err, code) = snapshot("terraform-async-targets", "terraform-async-targets");
    assert_eq!((code, err.as_str()), (0, quiet(&text).as_str()));
    assert!(text.contains("  invoice-mailer:\n    kind: lambda-async  # aws_lambda_function, from aws_lambda_function.invoice_mailer (terraform-async-targets/main.tf:45)\n"), "{text}");
    assert!(text.contains("  dunning-mailer:\n    kind: lambda-async  # aws_lambda_function, from aws_lambda_function.dunning_mailer (terraform-async-targets/main.tf:81)\n"), "{text}");
    // The template of the same architecture: the same kinds.
    let cfn = import_clean(&["cloudformation", "async-targets.yaml"]);
    for f in ["InvoiceMailer", "DunningMailer"] {
        assert!(
            cfn.contains(&format!(
                "    kind: lambda-async  # AWS::Lambda::Function, from Resources.{f} ("
            )),
            "{cfn}"
        );
    }
    // Horizons: invoice 2h (the rule target's event age) + 6h (F024) = 8h,
    // dunning 1h (the schedule target's event age) + 6h (F024) = 7h; both
    // outlive the provider's 6h key window: RH001 twice.
    let expected = (
        vec![
            t("RH001", "mail-provider", "send-dunning"),
            t("RH001", "mail-provider", "send-invoice"),
            t("RH040", "-", "send-dunning"),
            t("RH040", "-", "send-invoice"),
        ],
        1,
    );
    assert_eq!(check(&["terraform-async-targets"]), expected);
    assert_eq!(
        check(&["async-targets.yaml", "terraform-async-targets/overlay.yaml"]),
        expected
    );
    for args in [
        vec!["horizon", "terraform-async-targets"],
        vec![
            "horizon",
            "async-targets.yaml",
            "terraform-async-targets/overlay.yaml",
        ],
    ] {
        let (h, _, _) = run(&args);
        assert!(
            h.contains("mail-provider (effect): horizon 7h, window 6h"),
            "{h}"
        );
        assert!(
            h.contains("mail-provider (effect): horizon 8h, window 6h"),
            "{h}"
        );
    }
}

#[test]
fn a_schedule_target_known_elsewhere_is_not_its_dead_letter_queue() {
    // The target's ARN comes from another configuration's state: it is a
    // TODO, and the dead-letter queue in the same block is no target, but
    // still the schedule's dead letter.
    let (_dir, tf) = scratch(
        "main.tf",
        r#"data "terraform_remote_state" "lambda" {
  backend = "local"
}
resource "aws_sqs_queue" "dlq" {
  name = "dlq"
}
resource "aws_scheduler_schedule" "recover" {
  schedule_expression = "rate(5 minutes)"
  flexible_time_window {
    mode = "OFF"
  }
  target {
    arn      = data.terraform_remote_state.lambda.outputs.arn
    role_arn = "arn:aws:iam::123456789012:role/scheduler"
    dead_letter_config {
      arn = aws_sqs_queue.dlq.arn
    }
  }
}
"#,
    );
    let text = import_clean(&["terraform", &tf]);
    assert!(
        text.contains("    # TODO: delivers_to a target not in this configuration (from aws_scheduler_schedule.recover.target ("),
        "{text}"
    );
    assert!(!text.contains("- to: dlq"), "{text}");
    assert!(
        text.contains("    # TODO: no retry_policy on the target (from aws_scheduler_schedule.recover.target ("),
        "{text}"
    );
    assert!(
        text.contains("    dead_letter:\n      to: dlq  # from aws_scheduler_schedule.recover.target.dead_letter_config.arn ("),
        "{text}"
    );
}

#[test]
fn mappings_reach_functions_through_module_outputs_and_aliases() {
    let (text, err, code) = snapshot("terraform-module-arns", "terraform-module-arns");
    assert_eq!((code, err.as_str()), (0, quiet(&text).as_str()));
    for (queue, line) in [
        ("refund_requests", 56),
        ("chargebacks", 61),
        ("refund_retries", 68),
        ("legacy_refunds", 73),
    ] {
        let link = format!(
            "    delivers_to:\n      - to: this  # from aws_lambda_event_source_mapping.{queue}.function_name (terraform-module-arns/main.tf:{line})\n"
        );
        assert!(text.contains(&link), "{link}\n{text}");
    }
    assert!(text.contains("  this:\n    kind: lambda-event-source  # aws_lambda_function, from module.worker.aws_lambda_function.this (terraform-module-arns/.terraform/modules/worker/main.tf:15)\n"), "{text}");
    assert!(!text.contains("placeholder"), "{text}");
    // 6 x 30 s = 180 s of visibility asked (F073), 180 s set: no RH015.
    assert_eq!(
        check(&["terraform-module-arns"]),
        (
            vec![
                t("RH038", "payment-provider", "refund"),
                t("RH040", "-", "refund"),
            ],
            1
        )
    );
}

#[test]
fn how_a_function_is_invoked_decides_its_kind_whatever_the_order() {
    // An SNS subscription with protocol `lambda` invokes asynchronously;
    // an invoke config on a function only a mapping invokes is not wired
    // (F023-F025), written before or after the mapping alike.
    let (_dir, tf) = scratch(
        "main.tf",
        r#"resource "aws_sns_topic" "t" {
  name = "t"
}
resource "aws_lambda_function" "notified" {
  function_name = "notified"
}
resource "aws_sns_topic_subscription" "s" {
  topic_arn = aws_sns_topic.t.arn
  protocol  = "lambda"
  endpoint  = aws_lambda_function.notified.arn
}
resource "aws_lambda_function_event_invoke_config" "before" {
  function_name                = aws_lambda_function.polled.function_name
  maximum_event_age_in_seconds = 600
}
resource "aws_sqs_queue" "q" {
  name = "q"
}
resource "aws_lambda_function" "polled" {
  function_name = "polled"
}
resource "aws_lambda_event_source_mapping" "m" {
  event_source_arn = aws_sqs_queue.q.arn
  function_name    = aws_lambda_function.polled.arn
}
"#,
    );
    let text = import_clean(&["terraform", &tf]);
    assert!(
        text.contains("  notified:\n    kind: lambda-async  # aws_lambda_function"),
        "{text}"
    );
    assert!(
        text.contains("  polled:\n    kind: lambda-event-source  # aws_lambda_function"),
        "{text}"
    );
    assert!(text.contains("    # not wired: `max_event_age` (from aws_lambda_function_event_invoke_config.before.maximum_event_age_in_seconds ("), "{text}");
    assert!(!text.contains("max_event_age: 10m"), "{text}");
}

#[test]
fn a_plan_gives_the_s3_notification_the_configuration_gives() {
    // In a plan the destinations' ARNs are known only after apply: the
    // configuration section's references name them.
    let (_dir, plan) = scratch(
        "plan.json",
        r#"{"format_version":"1.2","planned_values":{"root_module":{"resources":[
{"address":"aws_s3_bucket.up","mode":"managed","type":"aws_s3_bucket","name":"up","values":{"bucket":"example-up"}},
{"address":"aws_s3_bucket_notification.n","mode":"managed","type":"aws_s3_bucket_notification","name":"n","values":{"bucket":"example-up","queue":[{"events":["s3:ObjectCreated:*"]}],"lambda_function":[{"events":["s3:ObjectCreated:Put"]}]}},
{"address":"aws_sqs_queue.q","mode":"managed","type":"aws_sqs_queue","name":"q","values":{"name":"q"}},
{"address":"aws_lambda_function.f","mode":"managed","type":"aws_lambda_function","name":"f","values":{"function_name":"f"}}
]}},
"configuration":{"root_module":{"resources":[
{"address":"aws_s3_bucket_notification.n","expressions":{"bucket":{"references":["aws_s3_bucket.up.id","aws_s3_bucket.up"]},"queue":[{"queue_arn":{"references":["aws_sqs_queue.q.arn","aws_sqs_queue.q"]}}],"lambda_function":[{"lambda_function_arn":{"references":["aws_lambda_function.f.arn","aws_lambda_function.f"]}}]}}
]}}}
"#,
    );
    let text = import_clean(&["terraform", &plan]);
    assert!(text.contains(&format!("  up:\n    kind: topic  # aws_s3_bucket, from aws_s3_bucket.up ({plan}:2)\n    delivers_to:\n      - to: q  # from aws_s3_bucket_notification.n.queue[0].queue_arn ({plan}:3): s3:ObjectCreated:*\n      - to: f  # from aws_s3_bucket_notification.n.lambda_function[0].lambda_function_arn ({plan}:3): s3:ObjectCreated:Put\n")), "{text}");
    assert!(
        text.contains(&format!("  f:\n    kind: lambda-async  # aws_lambda_function, from aws_lambda_function.f ({plan}:5)\n")),
        "{text}"
    );
}
