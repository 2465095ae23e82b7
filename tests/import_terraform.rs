//! `import terraform` and `check` on Terraform configuration (`.tf` files):
//! each fixture under `fixtures/import/terraform-*/` is imported (the
//! skeleton is a snapshot in `tests/snapshots/`), then checked with its
//! small overlay and the findings asserted exactly; plus the messages for a
//! file given to the wrong reader, syntax errors, and hostile input.

use std::time::{Duration, Instant};

#[path = "common/imports.rs"]
mod imports;
use imports::{bin, check, import, import_clean, locations, quiet, run, scratch, t, transcript};

/// (stdout, stderr, exit code) of `import terraform PATH`, whose whole
/// output is the snapshot `NAME` in `tests/snapshots/`.
fn snapshot(name: &str, path: &str) -> (String, String, i32) {
    let out = import(&["terraform", path]);
    insta::assert_snapshot!(name, transcript(&out));
    out
}

#[test]
fn resources_with_literal_values_and_references() {
    let (text, _, _) = snapshot("terraform-resources", "terraform-resources/main.tf");
    // The redrive policy's jsonencode names the DLQ by a reference.
    assert!(text.contains("      to: payout-dlq  # from aws_sqs_queue.payout_requests.redrive_policy (terraform-resources/main.tf:21) deadLetterTargetArn\n"), "{text}");
    let expected = (
        vec![
            // visibility 2m is below 6 x the function's 60s timeout (F073).
            t("RH015", "payout-requests", "seller-payout"),
            t("RH032", "payout-keys", "seller-payout"),
            t("RH040", "-", "seller-payout"),
        ],
        0,
    );
    // The same findings as the plan of the same architecture (plan.json).
    assert_eq!(check(&["plan.json", "plan.overlay.yaml"]), expected);
    assert_eq!(
        check(&[
            "terraform-resources/main.tf",
            "terraform-resources/overlay.yaml"
        ]),
        expected
    );
    assert_eq!(check(&["terraform-resources"]), expected);
}

#[test]
fn variables_tfvars_and_locals() {
    let (text, err, code) = snapshot("terraform-variables", "terraform-variables");
    assert_eq!((code, err.as_str()), (0, quiet(&text).as_str()));
    // 6 × var.worker_timeout (30) = 180 s; 4 days; max_receives 3 from
    // terraform.tfvars over the default 5.
    assert!(text.contains("    visibility_timeout: 3m  # from aws_sqs_queue.requests.visibility_timeout_seconds (terraform-variables/main.tf:26)\n"), "{text}");
    assert!(text.contains("    retention: 4d  # from aws_sqs_queue.requests.message_retention_seconds (terraform-variables/main.tf:27)\n"), "{text}");
    assert!(text.contains("      after_receives: 3  # from"), "{text}");
    assert!(text.contains("    timeout: 30s  # from aws_lambda_function.worker.timeout (terraform-variables/main.tf:36)\n"), "{text}");
    // --var wins over terraform.tfvars, --var-file too.
    let (text, _, _) = import(&[
        "terraform",
        "terraform-variables",
        "--var",
        "max_receives=2",
    ]);
    assert!(text.contains("      after_receives: 2  # from"), "{text}");
    let (_dir, vars) = scratch("more.tfvars", "max_receives = 7\nworker_timeout = 10\n");
    let (text, _, _) = import(&["terraform", "terraform-variables", "--var-file", &vars]);
    assert!(text.contains("      after_receives: 7  # from"), "{text}");
    assert!(
        text.contains("    visibility_timeout: 1m  # from"),
        "{text}"
    );
    let expected = vec![
        // No key-based layer could return a stored result: no RH023 (#17).
        t("RH038", "bank-rail", "seller-payout"),
        t("RH040", "-", "seller-payout"),
    ];
    assert_eq!(check(&["terraform-variables"]), (expected.clone(), 1));
    // Each finding on an imported value points at the .tf line it came from,
    // in the file of the folder that holds it.
    assert_eq!(
        locations(&["terraform-variables"]),
        vec![
            "terraform-variables/main.tf:41:1".to_string(),
            "terraform-variables/overlay.yaml:3:3".into()
        ]
    );
    // A .tfvars file among the paths is a variable file, as `-var-file`.
    assert_eq!(check(&["terraform-variables", &vars]), (expected, 1));
}

#[test]
fn a_variable_without_value_is_a_todo() {
    let (_dir, tf) = scratch(
        "main.tf",
        "variable \"timeout\" {\n  type = number\n}\nresource \"aws_lambda_function\" \"w\" {\n  function_name = \"w\"\n  timeout = var.timeout\n}\n",
    );
    let (text, _, code) = import(&["terraform", &tf]);
    assert_eq!(code, 0);
    assert!(text.contains(&format!("# TODO: variable `timeout` ({tf}:1) has no value: give `--var timeout=VALUE`, a .tfvars file, or a default\n")), "{text}");
    assert!(!text.contains("timeout: "), "{text}");
    let (text, _, _) = import(&["terraform", &tf, "--var", "timeout=90"]);
    assert!(
        text.contains("    timeout: 1m 30s  # from aws_lambda_function.w.timeout"),
        "{text}"
    );
}

#[test]
fn module_calls_data_sources_and_count() {
    let (text, err, _) = snapshot("terraform-module", "terraform-module");
    assert!(text.contains("# TODO: module `worker` (source `terraform-aws-modules/lambda/aws`, terraform-module/main.tf:15) is not read: it is not in the module cache (.terraform/modules/modules.json); run `terraform init -backend=false` in the root module's folder, or describe its components in an overlay\n"), "{text}");
    assert!(
        text.contains(
            "# TODO: regions: the aws provider runs in `eu-west-1` (terraform-module/main.tf:12)"
        ),
        "{text}"
    );
    // The data source the subscription names is a placeholder, linked.
    assert_eq!(err, quiet(&text));
    assert!(text.contains("  shared:\n    kind: queue  # data source aws_sqs_queue, from data.aws_sqs_queue.shared (terraform-module/main.tf:22)\n    # TODO: `data.aws_sqs_queue.shared` is a data source"), "{text}");
    assert!(text.contains("      - to: shared  # from aws_sns_topic_subscription.shared.endpoint (terraform-module/main.tf:42)\n"), "{text}");
    assert_eq!(
        check(&["terraform-module"]),
        (
            vec![
                t("RH021", "ledger", "payout-audit"),
                t("RH040", "-", "payout-audit"),
                t("RH041", "ledger", "payout-audit"),
            ],
            1
        )
    );
}

#[test]
fn modules_called_from_the_root_are_namespaced_and_linked() {
    let (text, _, _) = snapshot("terraform-modules", "terraform-modules");
    // `this` in two instances of ./queue: two ids, each fed to the root's
    // worker through the `consumer` argument.
    for (m, vis) in [("orders", "6m"), ("payments", "30s")] {
        assert!(text.contains(&format!("  {m}.this:\n    kind: sqs-standard  # aws_sqs_queue, from module.{m}.aws_sqs_queue.this (terraform-modules/queue/main.tf:16)\n    regions: [eu-west-1]  # from provider \"aws\" region (terraform-modules/main.tf:17): the provider's region\n    resource: {m}  # from module.{m}.aws_sqs_queue.this.name (terraform-modules/queue/main.tf:17)\n    visibility_timeout: {vis}  # from module.{m}.aws_sqs_queue.this.visibility_timeout_seconds (terraform-modules/queue/main.tf:18)\n    delivers_to:\n      - to: worker  # from module.{m}.aws_lambda_event_source_mapping.this.function_name (terraform-modules/queue/main.tf:23)\n")), "{text}");
    }
    assert!(!text.contains("is not read"), "{text}");
    let expected = vec![
        // 30 s visibility below the 60 s timeout (F073); 6m on orders.this.
        t("RH015", "payments.this", "seller-payout"),
        t("RH038", "bank-rail", "seller-payout"),
        t("RH040", "-", "seller-payout"),
    ];
    let args = ["terraform-modules"];
    assert_eq!(check(&args), (expected, 1));
    assert_eq!(
        locations(&args),
        vec![
            "terraform-modules/queue/main.tf:18:1".to_string(),
            "terraform-modules/queue/main.tf:23:1".into(),
            "terraform-modules/overlay.yaml:3:3".into()
        ]
    );
    // The module folder alone is a root of its own: no caller, no values.
    let (text, _, _) = import(&["terraform", "terraform-modules/queue"]);
    assert!(text.contains("  this:\n"), "{text}");
    assert!(text.contains("# TODO: variable `consumer`"), "{text}");
}

#[test]
fn provider_region_and_replicas_make_a_global_table() {
    let (text, _, _) = snapshot("terraform-global-table", "terraform-global-table");
    assert!(text.contains("regions:\n  eu-west-1: {}  # from provider \"aws\" region (terraform-global-table/main.tf:15); TODO: failover_to, detection, catch_up\n  us-east-1: {}  # from aws_dynamodb_table.payment_keys.replica (terraform-global-table/main.tf:35)"), "{text}");
    assert!(
        text.contains("    kind: dynamodb-global-table  # aws_dynamodb_table"),
        "{text}"
    );
    assert!(text.contains("    regions: [eu-west-1, us-east-1]  # from provider \"aws\" region (terraform-global-table/main.tf:15) (the provider's region, first)"), "{text}");
    assert!(text.contains("    # stream enabled (NEW_AND_OLD_IMAGES, from aws_dynamodb_table.payment_keys.stream_enabled (terraform-global-table/main.tf:22))"), "{text}");
    assert!(!text.contains("add the provider's own region"), "{text}");
    // The findings of the CloudFormation global table (tests/import.rs).
    let expected = vec![
        t("RH011", "payment-keys", "charge"),
        t("RH032", "payment-keys", "charge"),
        t("RH040", "-", "charge"),
    ];
    let args = ["terraform-global-table"];
    assert_eq!(check(&args), (expected, 1));
    assert_eq!(
        locations(&args),
        vec![
            "terraform-global-table/main.tf:18:1".to_string(),
            "terraform-global-table/main.tf:30:1".into(),
            "terraform-global-table/overlay.yaml:3:3".into()
        ]
    );
}

#[test]
fn redrive_allow_policy_gives_a_manual_redrive() {
    let (text, _, _) = snapshot("terraform-redrive", "terraform-redrive");
    assert!(text.contains("    redrive:  # TODO: add `within` (how late redrives happen) and `max_times`\n      to: payouts  # from aws_sqs_queue.payouts_dlq.redrive_allow_policy (terraform-redrive/main.tf:17): byQueue lets messages move back to their source\n      mode: manual  # TODO"), "{text}");
    let args = ["terraform-redrive"];
    assert_eq!(
        check(&args),
        (
            vec![
                t("RH003", "bank-rail", "seller-payout"),
                t("RH040", "-", "seller-payout")
            ],
            1
        )
    );
    assert_eq!(
        locations(&args),
        vec![
            "terraform-redrive/main.tf:17:1".to_string(),
            "terraform-redrive/overlay.yaml:3:3".into()
        ]
    );
    // denyAll: a note, no redrive.
    let (_dir, tf) = scratch(
        "main.tf",
        "resource \"aws_sqs_queue\" \"d\" {\n  redrive_allow_policy = jsonencode({ redrivePermission = \"denyAll\" })\n}\n",
    );
    let (text, _, _) = import(&["terraform", &tf]);
    assert!(
        text.contains("# redrive_allow_policy denyAll: no queue may use this one"),
        "{text}"
    );
    assert!(!text.contains("redrive:"), "{text}");
}

#[test]
fn each_reader_says_what_the_other_reads() {
    let (_dir, hcl) = scratch("main.hcl", "# q\nresource \"aws_sqs_queue\" \"q\" {}\n");
    let (_, err, code) = import(&["terraform", &hcl]);
    assert_eq!(code, 2);
    assert!(
        err.contains("is Terraform configuration (HCL), not a plan's JSON")
            && err.contains("name it *.tf")
            && err.contains("terraform show -json tfplan > plan.json"),
        "{err}"
    );
    let (_dir, plan) = scratch(
        "plan.tf",
        "{\"format_version\": \"1.2\", \"planned_values\": {}}",
    );
    for args in [vec!["import", "terraform", &plan], vec!["check", &plan]] {
        let (_, err, code) = run(&args);
        assert_eq!(code, 2);
        assert!(
            err.contains("holds a Terraform plan's JSON, not configuration (HCL)")
                && err.contains("*.json"),
            "{err}"
        );
    }
}

#[test]
fn syntax_errors_have_file_line_column() {
    let (dir, tf) = scratch(
        "main.tf",
        "resource \"aws_sqs_queue\" \"q\" {\n  name = \"q\"\n  delay_seconds = \n}\n",
    );
    for args in [
        vec!["import", "terraform", &tf],
        vec!["check", dir.path().to_str().unwrap()],
    ] {
        let (_, err, code) = run(&args);
        assert_eq!(code, 2, "{err}");
        assert!(
            err.contains("invalid HCL: invalid expression") && err.contains("main.tf:3:19"),
            "{err}"
        );
    }
    let (_dir, vars) = scratch("x.tfvars", "a = 1\n");
    let (_, err, code) = run(&["check", &vars]);
    assert_eq!(code, 2);
    assert!(
        err.contains("sets Terraform variables, but no .tf file is among the inputs"),
        "{err}"
    );
}

#[cfg(unix)]
#[test]
fn links_under_a_folder_are_not_followed() {
    let (dir, _) = scratch("main.tf", "resource \"aws_sqs_queue\" \"q\" {}\n");
    let (_outside, secret) = scratch("secret.tf", "resource \"aws_sqs_queue\" \"secret\" {}\n");
    std::os::unix::fs::symlink(&secret, dir.path().join("link.tf")).unwrap();
    // A folder scan skips links, as it does for YAML: `import` reads a
    // folder as `check` does.
    let (text, err, code) = import(&["terraform", dir.path().to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(!text.contains("secret"), "{text}");
    assert!(text.contains("  q:\n"), "{text}");
    let (text, err, code) = run(&["check", dir.path().to_str().unwrap(), "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    assert!(!text.contains("secret"), "{text}");
}

/// A module folder is named by the configuration, which a pull request
/// writes: one outside the repository (and outside the folder given) is
/// not read; one elsewhere in the repository is.
#[test]
fn a_module_source_out_of_the_repository_is_not_read() {
    let t = tempfile::tempdir().unwrap();
    let repo = t.path().join("repo");
    for d in ["repo/.git", "repo/infra", "repo/modules/q", "outside"] {
        std::fs::create_dir_all(t.path().join(d)).unwrap();
    }
    let main = "module \"x\" {\n  source = \"../../outside\"\n}\nmodule \"q\" {\n  source = \"../modules/q\"\n}\n";
    std::fs::write(repo.join("infra/main.tf"), main).unwrap();
    let q = "resource \"aws_sqs_queue\" \"inrepo\" {}\n";
    std::fs::write(repo.join("modules/q/main.tf"), q).unwrap();
    let canary = "resource \"aws_sqs_queue\" \"canary\" {}\n";
    std::fs::write(t.path().join("outside/main.tf"), canary).unwrap();
    let o = bin()
        .current_dir(&repo)
        .args(["import", "terraform", "infra"])
        .output()
        .unwrap();
    let text = String::from_utf8(o.stdout).unwrap();
    assert_eq!(o.status.code(), Some(0), "{text}");
    assert!(!text.contains("canary"), "{text}");
    assert!(text.contains("# TODO: module `x` (source `../../outside`, infra/main.tf:1) is not read: import its folder too, or describe its components in an overlay\n"), "{text}");
    assert!(text.contains("  inrepo:\n    kind: sqs-standard  # aws_sqs_queue, from module.q.aws_sqs_queue.inrepo (modules/q/main.tf:1)\n"), "{text}");
}

/// Input built to overflow the stack, explode the values or loop for
/// long: every case ends in well under the time limit with exit 0 or 2
/// and no panic.
#[test]
fn hostile_hcl_neither_panics_nor_hangs() {
    let n = 100_000;
    let mut doubling = String::from("locals {\n  l0 = \"");
    doubling.push_str(&"x".repeat(1000));
    doubling.push_str("\"\n");
    for i in 1..40 {
        doubling.push_str(&format!(
            "  l{i} = [local.l{p}, local.l{p}, local.l{p}, local.l{p}]\n",
            p = i - 1
        ));
    }
    doubling.push_str("}\nresource \"aws_sqs_queue\" \"q\" {\n  name = jsonencode(local.l39)\n}\n");
    let list: Vec<String> = (0..300).map(|i| i.to_string()).collect();
    let loops = format!(
        "locals {{\n  x = [{}]\n  y = [for a in local.x : [for b in local.x : [for c in local.x : [a, b, c]]]]\n}}\nresource \"aws_sqs_queue\" \"q\" {{\n  name = jsonencode(local.y)\n}}\n",
        list.join(", ")
    );
    let chain: String = (0..2000)
        .map(|i| {
            format!(
                "resource \"aws_sqs_queue\" \"q{i}\" {{\n  name = aws_sqs_queue.q{}.name\n}}\n",
                i + 1
            )
        })
        .collect();
    let cases = [
        format!("a = {}1{}\n", "[".repeat(n), "]".repeat(n)),
        format!("a = {}1\n", "1 + ".repeat(n)),
        format!("a = {}true\n", "!".repeat(n)),
        format!("a = {}\n", "\"${".repeat(n)),
        format!("{}\n", "b {\n".repeat(n)),
        format!("a = {}\n", "(".repeat(n)),
        "a = <<EOT\nno end\n".to_string(),
        "resource \"aws_sqs_queue\" {}\nresource {}\nresource \"a\" \"b\" \"c\" {}\n".into(),
        "resource \"aws_sqs_queue\" \"q\" {\n  visibility_timeout_seconds = 1e400\n  message_retention_seconds = -99999999999999999999\n  redrive_policy = \"{not json\"\n}\n".into(),
        "locals {\n  a = local.b\n  b = local.a\n}\nresource \"aws_lambda_function\" \"f\" {\n  timeout = local.a\n}\n".into(),
        doubling,
        loops,
        chain,
    ];
    let dir = tempfile::tempdir().unwrap();
    for (i, text) in cases.iter().enumerate() {
        let tf = dir.path().join(format!("case{i}.tf"));
        std::fs::write(&tf, text).unwrap();
        let start = Instant::now();
        let (_, err, code) = import(&["terraform", tf.to_str().unwrap()]);
        let took = start.elapsed();
        assert!(code == 0 || code == 2, "case {i}: exit {code}: {err}");
        assert!(!err.contains("panicked"), "case {i}: {err}");
        assert!(took < Duration::from_secs(20), "case {i} took {took:?}");
    }
}

#[test]
fn scheduler_schedule_and_pipe_as_the_template_gives_them() {
    let (text, _, _) = snapshot("terraform-scheduler-pipe", "terraform-scheduler-pipe");
    let at = "aws_scheduler_schedule.nightly_settlement.target";
    assert!(text.contains("    kind: topic  # aws_scheduler_schedule, from aws_scheduler_schedule.nightly_settlement (terraform-scheduler-pipe/main.tf:18)\n    resource: nightly-settlement  # from aws_scheduler_schedule.nightly_settlement.name (terraform-scheduler-pipe/main.tf:19)\n    delivery: at-least-once  # UNVERIFIED:"), "{text}");
    assert!(text.contains(&format!("          attempts: 3  # from {at}.retry_policy.maximum_retry_attempts (terraform-scheduler-pipe/main.tf:32): 2 retries + the first attempt\n        max_record_age: 5m  # from {at}.retry_policy.maximum_event_age_in_seconds (terraform-scheduler-pipe/main.tf:33)\n")), "{text}");
    assert!(text.contains(&format!("      to: schedule-dlq  # from {at}.dead_letter_config.arn (terraform-scheduler-pipe/main.tf:37)\n")), "{text}");
    assert!(
        text.contains("each invocation starts up to 15m after its scheduled time"),
        "{text}"
    );
    assert!(text.contains("      - to: settlement-pipe  # from aws_pipes_pipe.settlement_pipe.source (terraform-scheduler-pipe/main.tf:54)\n"), "{text}");
    assert!(text.contains("    kind: lambda-async  # aws_lambda_function, from aws_lambda_function.settle_function (terraform-scheduler-pipe/main.tf:70)\n"), "{text}");
    assert!(text.contains("    # invocation_type FIRE_AND_FORGET (from aws_pipes_pipe.settlement_pipe.target_parameters.lambda_function_parameters.invocation_type (terraform-scheduler-pipe/main.tf:65)): the pipe deletes the source message"), "{text}");
    // 5m + 1d + 6h (async event queue, F024) = 1d 6h 5m against keys kept
    // 1d: the findings of scheduler-pipe.yaml (tests/import.rs).
    let expected = vec![
        t("RH001", "settlement-keys", "settle-night"),
        t("RH023", "-", "settle-night"),
        t("RH040", "-", "settle-night"),
    ];
    assert_eq!(check(&["terraform-scheduler-pipe"]), (expected.clone(), 1));
    assert_eq!(
        check(&["scheduler-pipe.yaml", "scheduler-pipe.overlay.yaml"]),
        (expected, 1)
    );
    let (h, _, _) = run(&["horizon", "terraform-scheduler-pipe"]);
    assert!(h.contains("horizon 1d 6h 5m, window 1d"), "{h}");
    // A stream source: its retries, record age and dead letter on the
    // source's link to the pipe; no retry policy on a schedule is a TODO.
    let (_dir, tf) = scratch(
        "main.tf",
        "resource \"aws_kinesis_stream\" \"s\" {\n  name = \"s\"\n}\nresource \"aws_sqs_queue\" \"d\" {\n  name = \"d\"\n}\nresource \"aws_pipes_pipe\" \"p\" {\n  source = aws_kinesis_stream.s.arn\n  target = \"arn:aws:states:eu-west-1:1:stateMachine:x\"\n  source_parameters {\n    kinesis_stream_parameters {\n      maximum_retry_attempts = 4\n      maximum_record_age_in_seconds = 600\n      dead_letter_config {\n        arn = aws_sqs_queue.d.arn\n      }\n    }\n  }\n}\nresource \"aws_scheduler_schedule\" \"n\" {\n  target {\n    arn = aws_sqs_queue.d.arn\n  }\n}\n",
    );
    let text = import_clean(&["terraform", &tf]);
    assert!(
        text.contains("    delivers_to:\n      - to: p  # from aws_pipes_pipe.p.source"),
        "{text}"
    );
    assert!(text.contains("          attempts: 5  # from aws_pipes_pipe.p.source_parameters.kinesis_stream_parameters.maximum_retry_attempts"), "{text}");
    assert!(text.contains("        max_record_age: 10m  # from aws_pipes_pipe.p.source_parameters.kinesis_stream_parameters.maximum_record_age_in_seconds"), "{text}");
    assert!(text.contains("      to: d  # from aws_pipes_pipe.p.source_parameters.kinesis_stream_parameters.dead_letter_config.arn"), "{text}");
    assert!(
        text.contains("# TODO: calls a target not in this configuration (aws_pipes_pipe.p.target)"),
        "{text}"
    );
    assert!(
        text.contains(
            "# TODO: no retry_policy on the target (from aws_scheduler_schedule.n.target"
        ),
        "{text}"
    );
}

#[test]
fn sns_subscription_delivery_and_redrive_policies() {
    let (text, _, _) = snapshot("terraform-sns-policies", "terraform-sns-policies");
    let at = "aws_sns_topic_subscription.partner_hook.delivery_policy (terraform-sns-policies/main.tf:48)";
    assert!(text.contains(&format!("      - to: partner-hook  # from aws_sns_topic_subscription.partner_hook.endpoint (terraform-sns-policies/main.tf:47)\n        retry:\n          attempts: 6  # from {at} numRetries: 5 retries + the first attempt\n          backoff: 2m  # from {at} maxDelayTarget: every retry waits at most this long, an upper bound (minDelayTarget 20, backoffFunction exponential shape the delays below it)\n          multiplier: 1  # the upper bound does not grow\n          max_elapsed: 1h  # HTTP/S total retry time is capped at 3,600 s (F016)\n        max_record_age: 1h  # https subscription: HTTP/S total retry time is capped at 3,600 s (F016)\n")), "{text}");
    assert!(text.contains("    dead_letter:\n      to: order-events-dlq  # from aws_sns_topic_subscription.fulfilment.redrive_policy (terraform-sns-policies/main.tf:39) deadLetterTargetArn: undeliverable messages once the delivery policy is exhausted (F016)\n"), "{text}");
    assert!(text.contains("    # the sqs subscription's delivery_policy (from aws_sns_topic_subscription.fulfilment.delivery_policy (terraform-sns-policies/main.tf:38)) is not used: only HTTP/S delivery policies can be customised (F016)\n"), "{text}");
    // The webhook is outside AWS: external, without the provider's region.
    assert!(text.contains("  partner-hook:\n    kind: external  # https endpoint `https://hooks.partner.example/orders`, from aws_sns_topic_subscription.partner_hook.endpoint (terraform-sns-policies/main.tf:47)\n    # TODO: accepts_key"), "{text}");
    // min(5 x 2m, 1h) = 10m against the partner's 5m key window: the
    // findings of asyncapi3-sns-kafka.yaml (tests/import.rs).
    let expected = vec![
        t("RH001", "partner-hook", "notify-partner"),
        t("RH040", "-", "notify-partner"),
    ];
    assert_eq!(check(&["terraform-sns-policies"]), (expected, 1));
    let (h, _, _) = run(&["horizon", "terraform-sns-policies"]);
    assert!(h.contains("horizon 10m, window 5m"), "{h}");
}

#[test]
fn standalone_redrive_resources_read_as_the_inline_attributes() {
    let (text, err, _) = snapshot("terraform-redrive-resources", "terraform-redrive-resources");
    assert!(text.contains("      to: payouts-dlq  # from aws_sqs_queue_redrive_policy.payouts.redrive_policy (terraform-redrive-resources/main.tf:35) deadLetterTargetArn\n      after_receives: 5  # from aws_sqs_queue_redrive_policy.payouts.redrive_policy (terraform-redrive-resources/main.tf:35) maxReceiveCount\n"), "{text}");
    assert!(text.contains("      to: payouts  # from aws_sqs_queue_redrive_allow_policy.payouts_dlq.redrive_allow_policy (terraform-redrive-resources/main.tf:21): byQueue lets messages move back to their source\n"), "{text}");
    assert_eq!(err, quiet(&text));
    let expected = vec![
        t("RH003", "bank-rail", "seller-payout"),
        t("RH040", "-", "seller-payout"),
    ];
    assert_eq!(
        check(&["terraform-redrive-resources"]),
        (expected.clone(), 1)
    );
    assert_eq!(check(&["terraform-redrive"]), (expected, 1));
    assert_eq!(
        locations(&["terraform-redrive-resources"]),
        vec![
            "terraform-redrive-resources/main.tf:21:1".to_string(),
            "terraform-redrive-resources/overlay.yaml:3:3".into()
        ]
    );
}

#[test]
fn provider_alias_sets_the_region_of_its_resources() {
    let (text, _, _) = snapshot("terraform-provider-alias", "terraform-provider-alias");
    assert!(text.contains("  us-west-2: {}  # from provider \"aws\" alias \"west\" region (terraform-provider-alias/main.tf:18)"), "{text}");
    assert!(text.contains("    regions: [us-west-2]  # from provider \"aws\" alias \"west\" region (terraform-provider-alias/main.tf:18) (`provider = aws.west`): the provider's region\n    resource: refunds  # from aws_sqs_queue.refunds.name (terraform-provider-alias/main.tf:33)\n    visibility_timeout: 3m"), "{text}");
    assert!(text.contains("  refund-keys:\n    kind: dynamodb-table  # aws_dynamodb_table, from aws_dynamodb_table.refund_keys (terraform-provider-alias/main.tf:21)\n    regions: [eu-west-1]  # from provider \"aws\" region (terraform-provider-alias/main.tf:13)"), "{text}");
    let args = ["terraform-provider-alias"];
    assert_eq!(
        check(&args),
        (
            vec![
                // The guard runs in us-west-2, its store only in eu-west-1.
                t("RH010", "refund-worker", "refund"),
                t("RH040", "-", "refund")
            ],
            1
        )
    );
    // A plan: the resource's provider_config_key and the provider_config.
    let (_dir, plan) = scratch(
        "plan.json",
        r#"{"format_version": "1.2", "planned_values": {"root_module": {"resources": [
      {"address": "aws_sqs_queue.a", "mode": "managed", "type": "aws_sqs_queue", "name": "a", "values": {"name": "a"}},
      {"address": "aws_sqs_queue.b", "mode": "managed", "type": "aws_sqs_queue", "name": "b", "values": {"name": "b"}}]}},
      "configuration": {"provider_config": {
        "aws": {"name": "aws", "expressions": {"region": {"constant_value": "eu-west-1"}}},
        "aws.west": {"name": "aws", "alias": "west", "expressions": {"region": {"constant_value": "us-west-2"}}}},
        "root_module": {"resources": [{"address": "aws_sqs_queue.b", "provider_config_key": "aws.west", "expressions": {}}]}}}"#,
    );
    let text = import_clean(&["terraform", &plan]);
    let p = &plan;
    assert!(text.contains(&format!("  a:\n    kind: sqs-standard  # aws_sqs_queue, from aws_sqs_queue.a ({p}:2)\n    regions: [eu-west-1]  # from configuration.provider_config.aws.region ({p}:5)")), "{text}");
    assert!(text.contains(&format!("  b:\n    kind: sqs-standard  # aws_sqs_queue, from aws_sqs_queue.b ({p}:3)\n    regions: [us-west-2]  # from configuration.provider_config.aws.west.region ({p}:6) (`provider = aws.west`)")), "{text}");
    // An alias whose region is not set: a TODO on the resource.
    let (_dir, tf) = scratch(
        "main.tf",
        "provider \"aws\" {\n  region = \"eu-west-1\"\n}\nresource \"aws_sqs_queue\" \"q\" {\n  provider = aws.east\n}\n",
    );
    let (text, _, _) = import(&["terraform", &tf]);
    assert!(text.contains("    # TODO: regions: `provider = aws.east`, a provider whose region this input does not set\n"), "{text}");
    assert!(!text.contains("    regions:"), "{text}");
}

#[test]
fn module_outputs_link_the_resources_they_name() {
    let (text, err, _) = snapshot("terraform-module-outputs", "terraform-module-outputs");
    // module.orders.queue_arn -> output "queue_arn" -> aws_sqs_queue.this.
    assert!(text.contains("  orders.this:\n    kind: sqs-standard  # aws_sqs_queue, from module.orders.aws_sqs_queue.this (terraform-module-outputs/queue/main.tf:13)\n    resource: orders  # from module.orders.aws_sqs_queue.this.name (terraform-module-outputs/queue/main.tf:14)\n    delivers_to:\n      - to: worker  # from aws_lambda_event_source_mapping.orders.function_name (terraform-module-outputs/main.tf:48)\n"), "{text}");
    // module.refunds.queue_url names the queue the redrive policy is for.
    assert!(text.contains("  refunds.this:\n    kind: sqs-standard  # aws_sqs_queue, from module.refunds.aws_sqs_queue.this (terraform-module-outputs/queue/main.tf:13)\n    resource: refunds  # from module.refunds.aws_sqs_queue.this.name (terraform-module-outputs/queue/main.tf:14)\n    dead_letter:\n      to: refunds-dlq  # from aws_sqs_queue_redrive_policy.refunds.redrive_policy (terraform-module-outputs/main.tf:35) deadLetterTargetArn\n      after_receives: 3"), "{text}");
    assert_eq!(err, quiet(&text));
    assert_eq!(
        check(&["terraform-module-outputs"]),
        (
            vec![
                t("RH038", "bank-rail", "seller-payout"),
                t("RH015", "refunds.this", "seller-payout"),
                t("RH040", "-", "seller-payout"),
            ],
            1
        )
    );
}

#[test]
fn root_modules_given_together_namespace_the_names_they_share() {
    let expected = vec![
        t("RH040", "-", "seller-payout"),
        // 30 s visibility below the settle function's 60 s timeout (F073).
        t("RH015", "payments.this", "seller-payout"),
        t("RH038", "bank-rail", "seller-payout"),
    ];
    assert_eq!(check(&["terraform-roots"]), (expected, 1));
    let (f, code) = check(&[
        "terraform-roots/orders",
        "terraform-roots/payments",
        "terraform-roots/overlay.yaml",
    ]);
    assert_eq!((f.len(), code), (3, 1));
    // One root alone keeps the plain names.
    let (text, _, _) = import(&["terraform", "terraform-roots/payments"]);
    assert!(text.contains("\n  this:\n"), "{text}");
    assert!(!text.contains("several root modules"), "{text}");
    // Together: `this` in both roots gets the folder; `worker` and
    // `settle` are each one root's, and keep their names; the region both
    // providers name is declared once.
    let (_, err, _) = run(&["check", "terraform-roots", "--format", "json"]);
    assert!(!err.contains("defined twice"));
    let dir = tempfile::tempdir().unwrap();
    for (d, name) in [("x", "this"), ("y", "this")] {
        let p = dir.path().join(d);
        std::fs::create_dir(&p).unwrap();
        std::fs::write(p.join("main.tf"), format!("resource \"aws_sqs_queue\" \"{name}\" {{}}\nresource \"aws_sns_topic\" \"{d}_only\" {{}}\n")).unwrap();
    }
    let (text, err, code) = run(&["check", dir.path().to_str().unwrap(), "--format", "json"]);
    assert_eq!(code, 0, "{err}{text}");
}

#[test]
fn tf_json_files_say_how_to_give_them() {
    let (dir, j) = scratch(
        "main.tf.json",
        "{\"resource\": {\"aws_sqs_queue\": {\"q\": {}}}}\n",
    );
    for args in [
        vec!["import", "terraform", &j],
        vec!["check", &j],
        vec!["check", dir.path().to_str().unwrap()],
    ] {
        let (_, err, code) = run(&args);
        assert_eq!(code, 2, "{err}");
        assert!(
            err.contains("is Terraform configuration in JSON syntax (.tf.json), which is not read")
                && err.contains("in a .tf file")
                && err.contains("terraform show -json tfplan > plan.json"),
            "{err}"
        );
    }
}

#[test]
fn plans_given_together_namespace_the_names_they_share() {
    let dir = "terraform-plans";
    let files = [
        "terraform-plans/orders.json",
        "terraform-plans/payments.json",
        "terraform-plans/overlay.yaml",
    ];
    let expected = vec![
        // 30 s visibility below the settle function's 60 s timeout (F073).
        t("RH015", "payments.this", "seller-payout"),
        t("RH038", "bank-rail", "seller-payout"),
        t("RH040", "-", "seller-payout"),
    ];
    assert_eq!(check(&files), (expected, 1), "{dir}");
    // The finding points at the plan's own line.
    assert_eq!(locations(&files)[0], "terraform-plans/payments.json:15:1");
    // The skeletons, one per plan, as `check` reads them.
    let read = |f: &str| {
        let p = format!("fixtures/import/{f}");
        (p.clone(), std::fs::read_to_string(p).unwrap())
    };
    let plans = [read(files[0]), read(files[1])];
    let limits = replay_audit::manifest::Limits::default();
    let each = replay_audit::import::terraform::import_plans(&plans, &[], &limits).unwrap();
    let text: Vec<String> = each.iter().map(|(n, t)| format!("=== {n}\n{t}")).collect();
    insta::assert_snapshot!("terraform-plans", text.join("\n"));
    // One plan alone keeps its plain names.
    let (text, _, _) = import(&["terraform", "terraform-plans/orders.json"]);
    assert!(text.contains("\n  this:\n"), "{text}");
    assert!(!text.contains("several plans"), "{text}");
}

#[test]
fn module_calls_pass_their_providers() {
    snapshot("terraform-module-providers", "terraform-module-providers");
    let args = ["terraform-module-providers"];
    assert_eq!(
        check(&args),
        (
            vec![
                // The module's worker runs in us-west-2 (aws.west), its
                // store only in eu-west-1.
                t("RH010", "refund-worker", "refund"),
                t("RH040", "-", "refund")
            ],
            1
        )
    );
    // Passed on through a module that calls another one, under another
    // name, or inherited without `providers`; a module given the default
    // `aws` stays in the default region.
    let dir = tempfile::tempdir().unwrap();
    let w = |p: &str, t: &str| {
        let p = dir.path().join(p);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, t).unwrap();
    };
    w(
        "root/main.tf",
        "provider \"aws\" {\n  region = \"eu-west-1\"\n}\nprovider \"aws\" {\n  alias  = \"west\"\n  region = \"us-west-2\"\n}\nmodule \"mid\" {\n  source    = \"../mid\"\n  providers = { aws = aws.west }\n}\nmodule \"home\" {\n  source    = \"../leaf\"\n  providers = { aws = aws }\n}\n",
    );
    w(
        "mid/main.tf",
        "module \"leaf\" {\n  source    = \"../leaf\"\n  providers = { aws.far = aws }\n}\nmodule \"plain\" {\n  source = \"../plain\"\n}\n",
    );
    w(
        "leaf/main.tf",
        "resource \"aws_sqs_queue\" \"q\" {\n  provider = aws.far\n}\n",
    );
    w("plain/main.tf", "resource \"aws_sns_topic\" \"t\" {}\n");
    let root = dir.path().join("root");
    let (text, err, code) = import(&["terraform", root.to_str().unwrap()]);
    assert_eq!((code, err.as_str()), (0, quiet(&text).as_str()), "{text}");
    let region = |id: &str| {
        let at = text
            .find(&format!("\n  {id}:\n"))
            .unwrap_or_else(|| panic!("{id}: {text}"));
        let line = text[at..].lines().nth(3).unwrap_or("").trim().to_string();
        line.split("  #").next().unwrap().to_string()
    };
    assert_eq!(region("mid.leaf.q"), "regions: [us-west-2]", "{text}");
    assert_eq!(region("home.q"), "regions: [eu-west-1]", "{text}");
    // Without `providers`, the caller's default `aws` (here aws.west).
    assert_eq!(region("t"), "regions: [us-west-2]", "{text}");
}

#[test]
fn literal_arns_link_roots_given_together() {
    let expected = vec![
        t("RH040", "-", "order-payout"),
        // 30 s visibility below the worker's 60 s timeout (F073).
        t("RH015", "orders", "order-payout"),
        t("RH038", "bank-rail", "order-payout"),
    ];
    assert_eq!(check(&["terraform-cross-roots"]), (expected, 1));
    assert_eq!(
        locations(&["terraform-cross-roots"])[1],
        "terraform-cross-roots/queues/main.tf:12:1"
    );
    // The skeletons: the queue's `delivers_to` is in the queues root's,
    // from the mapping of the workers root; no placeholder for either.
    let mut modules = replay_audit::import::terraform::Modules::default();
    for f in ["queues/main.tf", "workers/main.tf"] {
        let p = format!("fixtures/import/terraform-cross-roots/{f}");
        let text = std::fs::read_to_string(&p).unwrap();
        modules.add(
            std::path::Path::new(&p),
            replay_audit::files::Origin::Given,
            text,
            0,
        );
    }
    let each = modules.import(&[]).unwrap();
    let text: Vec<String> = each
        .iter()
        .map(|(_, n, t)| format!("=== {n}\n{t}"))
        .collect();
    let text = text.join("\n");
    assert!(!text.contains("not described in"), "{text}");
    assert!(!text.contains("#   - "), "{text}");
    assert!(!text.contains("references unresolved (each"), "{text}");
    insta::assert_snapshot!("terraform-cross-roots", text);
    // The same across plans, by a queue URL.
    let dir = tempfile::tempdir().unwrap();
    let plan = |name: &str, res: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, format!(r#"{{"format_version": "1.2", "planned_values": {{"root_module": {{"resources": [{res}]}}}}}}"#)).unwrap();
        p.display().to_string()
    };
    let a = plan(
        "a.json",
        r#"{"address": "aws_sqs_queue.q", "mode": "managed", "type": "aws_sqs_queue", "name": "q", "values": {"name": "jobs", "visibility_timeout_seconds": 30}}"#,
    );
    let b = plan(
        "b.json",
        r#"{"address": "aws_lambda_function.f", "mode": "managed", "type": "aws_lambda_function", "name": "f", "values": {"function_name": "job-runner", "timeout": 60}},
      {"address": "aws_lambda_event_source_mapping.m", "mode": "managed", "type": "aws_lambda_event_source_mapping", "name": "m", "values": {"event_source_arn": "https://sqs.eu-west-1.amazonaws.com/123456789012/jobs", "function_name": "job-runner"}}"#,
    );
    let (f, code) = check(&[&a, &b]);
    // 30 s visibility below the 60 s timeout (F073); no intent is declared
    // (RH044).
    assert_eq!(
        (f, code),
        (vec![t("RH015", "q", "-"), t("RH044", "-", "-")], 1)
    );
    // A name of another service does not link: a topic named `jobs`.
    let c = plan(
        "c.json",
        r#"{"address": "aws_sns_topic.q", "mode": "managed", "type": "aws_sns_topic", "name": "t", "values": {"name": "jobs"}}"#,
    );
    let (f, code) = check(&[&c, &b]);
    assert_eq!((f, code), (vec![t("RH044", "-", "-")], 0));
}

#[test]
fn an_example_calling_its_module_upwards_reads_it() {
    let here = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/import/terraform-upward-source"
    );
    let o = bin()
        .current_dir(here)
        .args(["import", "terraform", "examples/basic"])
        .output()
        .unwrap();
    let text = String::from_utf8(o.stdout).unwrap();
    // `count = 1`: one instance, `this[0]`, which keeps the id `this`.
    assert!(!text.contains("repeated by"), "{text}");
    assert!(text.contains("  this:\n    kind: sqs-standard  # aws_sqs_queue, from module.queue.aws_sqs_queue.this[0] (./main.tf:12)\n"), "{text}");
    assert!(text.contains("    visibility_timeout: 30s  # from module.queue.aws_sqs_queue.this[0].visibility_timeout_seconds (./main.tf:15)"), "{text}");
    let (_dir, skeleton) = scratch("basic.yaml", &text);
    let overlay = format!("{here}/overlay.yaml");
    let (f, code) = check(&[&skeleton, &overlay]);
    let expected = vec![
        // 30 s visibility below the consumer's 60 s timeout (F073).
        t("RH015", "this", "job"),
        t("RH038", "consumer", "job"),
        t("RH040", "-", "job"),
    ];
    assert_eq!((f, code), (expected, 1));
}

/// Copies folder (or file) `from` (under `fixtures/import/`) to `to`,
/// hidden folders included.
fn copy_fixture(from: &str, to: &std::path::Path) {
    fn copy(from: &std::path::Path, to: &std::path::Path) {
        std::fs::create_dir_all(to).unwrap();
        for e in std::fs::read_dir(from).unwrap() {
            let e = e.unwrap();
            let target = to.join(e.file_name());
            match e.file_type().unwrap().is_dir() {
                true => copy(&e.path(), &target),
                false => {
                    std::fs::copy(e.path(), target).unwrap();
                }
            }
        }
    }
    let base = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/import");
    match base.join(from).is_dir() {
        true => copy(&base.join(from), to),
        false => {
            std::fs::copy(base.join(from), to).unwrap();
        }
    }
}

#[test]
fn registry_and_remote_modules_are_read_from_the_module_cache() {
    let (text, err, code) = snapshot("terraform-module-cache", "terraform-module-cache");
    assert_eq!((code, err.as_str()), (0, quiet(&text).as_str()));
    // The registry module's queue, its DLQ and the caller's maxReceiveCount
    // 4 merged over the module's 5; the zip module's function; the root's
    // mapping links them through the modules' outputs.
    assert!(text.contains("# module `queue` (source `terraform-aws-modules/sqs/aws`) is read from the module cache `terraform init` wrote: terraform-module-cache/.terraform/modules/queue\n"), "{text}");
    assert!(text.contains("  queue.this:\n    kind: sqs-standard  # aws_sqs_queue, from module.queue.aws_sqs_queue.this (terraform-module-cache/.terraform/modules/queue/main.tf:35)\n"), "{text}");
    assert!(text.contains("      - to: worker.this  # from aws_lambda_event_source_mapping.requests.function_name (terraform-module-cache/main.tf:44)\n"), "{text}");
    assert!(text.contains("      after_receives: 4  # from module.queue.aws_sqs_queue_redrive_policy.this[0].redrive_policy (terraform-module-cache/.terraform/modules/queue/main.tf:52) maxReceiveCount\n"), "{text}");
    assert!(!text.contains("placeholder"), "{text}");
    let expected = (
        vec![
            // at-least-once (F001), no dedup layer before the bank rail.
            t("RH038", "bank-rail", "seller-payout"),
            // visibility 120 s < 6 x 60 s = 360 s (F073).
            t("RH015", "queue.this", "seller-payout"),
            t("RH040", "-", "seller-payout"),
        ],
        1,
    );
    assert_eq!(check(&["terraform-module-cache"]), expected);
    // The root's file named alone: its folder's cache is read too.
    assert_eq!(
        check(&[
            "terraform-module-cache/main.tf",
            "terraform-module-cache/overlay.yaml"
        ]),
        expected
    );
    // A parent of the root: the walk finds the root, whose cache is read.
    let d = tempfile::tempdir().unwrap();
    copy_fixture("terraform-module-cache", &d.path().join("infra/payouts"));
    let parent = d.path().join("infra");
    assert_eq!(check(&[parent.to_str().unwrap()]), expected);
}

#[test]
fn without_the_module_cache_module_outputs_become_placeholders() {
    let (text, err, code) = snapshot("terraform-module-no-cache", "terraform-module-no-cache");
    assert_eq!((code, err.as_str()), (0, quiet(&text).as_str()));
    assert!(text.contains("# TODO: module `queue` (source `terraform-aws-modules/sqs/aws`, terraform-module-no-cache/main.tf:28) is not read: it is not in the module cache (.terraform/modules/modules.json); run `terraform init -backend=false` in the root module's folder, or describe its components in an overlay\n"), "{text}");
    // module.queue.queue_arn, used as event_source_arn: a queue, linked to
    // the function module.worker.function_name stands for.
    assert!(text.contains("  queue:\n    kind: queue  # placeholder for output `queue_arn` of module.queue (terraform-module-no-cache/main.tf:28)\n"), "{text}");
    assert!(text.contains("    delivers_to:\n      - to: worker-function  # from aws_lambda_event_source_mapping.requests.function_name (terraform-module-no-cache/main.tf:47)\n"), "{text}");
    assert!(text.contains("    # TODO: placeholder for `module.queue.queue_arn` (used as `event_source_arn`): module.queue is not read, its source `terraform-aws-modules/sqs/aws` is not in the module cache (.terraform/modules/modules.json): run `terraform init -backend=false`"), "{text}");
    assert!(text.contains("  worker-function:\n    kind: function  # placeholder for output `function_name` of module.worker (terraform-module-no-cache/main.tf:40)\n"), "{text}");
    assert_eq!(
        check(&["terraform-module-no-cache"]),
        (
            vec![
                // The placeholder queue has no retention: assumed unbounded.
                t("RH003", "bank-rail", "seller-payout"),
                t("RH038", "bank-rail", "seller-payout"),
                t("RH041", "queue", "seller-payout"),
                t("RH041", "queue", "seller-payout"),
                t("RH040", "-", "seller-payout"),
            ],
            1
        )
    );
}

#[cfg(unix)]
#[test]
fn a_cached_module_through_a_link_or_outside_the_root_is_not_read() {
    let d = tempfile::tempdir().unwrap();
    let root = d.path().join("root");
    copy_fixture("terraform-module-cache", &root);
    // The queue module's folder replaced by a link to a copy elsewhere.
    let modules = root.join(".terraform/modules");
    std::fs::rename(modules.join("queue"), d.path().join("queue")).unwrap();
    std::os::unix::fs::symlink(d.path().join("queue"), modules.join("queue")).unwrap();
    // The worker's Dir leaves the root's folder.
    let json = std::fs::read_to_string(modules.join("modules.json")).unwrap();
    std::fs::write(
        modules.join("modules.json"),
        json.replace("\".terraform/modules/worker\"", "\"../worker\""),
    )
    .unwrap();
    copy_fixture(
        "terraform-module-cache/.terraform/modules/worker",
        &d.path().join("worker"),
    );
    let (text, _, code) = import(&["terraform", root.to_str().unwrap()]);
    assert_eq!(code, 0, "{text}");
    assert!(!text.contains("queue.this"), "{text}");
    assert!(!text.contains("worker.this"), "{text}");
    assert!(
        text.contains("  queue:\n    kind: queue  # placeholder"),
        "{text}"
    );
    assert!(
        text.contains("  worker-function:\n    kind: function  # placeholder"),
        "{text}"
    );
    // modules.json itself a link: not read either.
    std::fs::rename(modules.join("modules.json"), d.path().join("m.json")).unwrap();
    std::os::unix::fs::symlink(d.path().join("m.json"), modules.join("modules.json")).unwrap();
    let (text, _, _) = import(&["terraform", root.to_str().unwrap()]);
    assert!(
        text.contains("  queue:\n    kind: queue  # placeholder"),
        "{text}"
    );
}

#[test]
fn only_outputs_that_link_become_placeholders() {
    let (_dir, path) = scratch(
        "main.tf",
        r#"
module "events" {
  source = "git::https://example.com/events.git?ref=v1"
}

module "keys" {
  source = "terraform-aws-modules/kms/aws"
}

resource "aws_sqs_queue" "audit" {
  name              = "audit"
  kms_master_key_id = module.keys.key_arn
}

resource "aws_sns_topic_subscription" "audit" {
  topic_arn = module.events.topic_arn
  protocol  = "sqs"
  endpoint  = aws_sqs_queue.audit.arn
}
"#,
    );
    let text = import_clean(&["terraform", &path]);
    // The topic the subscription names: a placeholder linked to the queue.
    assert!(text.contains("  events-topic:\n    kind: topic  # placeholder for output `topic_arn` of module.events"), "{text}");
    assert!(
        text.contains(
            "    delivers_to:\n      - to: audit  # from aws_sns_topic_subscription.audit.endpoint"
        ),
        "{text}"
    );
    // A KMS key is no component: no placeholder for it.
    assert!(!text.contains("module.keys.key_arn"), "{text}");
}

#[test]
fn placeholders_of_several_roots_are_namespaced() {
    let d = tempfile::tempdir().unwrap();
    for root in ["orders", "refunds"] {
        let to = d.path().join(root);
        std::fs::create_dir_all(&to).unwrap();
        copy_fixture("terraform-module-no-cache/main.tf", &to.join("main.tf"));
    }
    let (out, err, code) = run(&["check", "--format", "concise", d.path().to_str().unwrap()]);
    assert!(!err.contains("defined twice"), "{err}");
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("origin: orders.queue"), "{out}");
}

/// `import terraform DIR` reads the module in DIR, as `check` reads a
/// folder: its sub-folders are the modules it calls, so a folder holding
/// only sub-folders is no module.
#[test]
fn a_folder_of_module_folders_is_no_module() {
    let t = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(t.path().join("modules/q")).unwrap();
    std::fs::write(
        t.path().join("modules/q/main.tf"),
        "resource \"aws_sqs_queue\" \"q\" {}\n",
    )
    .unwrap();
    let dir = t.path().to_str().unwrap();
    let (text, err, code) = import(&["terraform", dir]);
    assert_eq!((text.as_str(), code), ("", 2), "{err}");
    assert_eq!(
        err,
        format!(
            "error: no .tf file in `{dir}`\nhelp: give the folder of a Terraform module (its sub-folders are the modules it calls), or a plan's JSON\n"
        )
    );
    // The module folder itself imports.
    let (text, err, code) = import(&["terraform", &format!("{dir}/modules/q")]);
    assert_eq!(code, 0, "{err}");
    assert!(text.contains("  q:\n    kind: sqs-standard"), "{text}");
}
