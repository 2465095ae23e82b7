//! `import` and `check` on infrastructure files: each fixture is imported,
//! then checked with a small overlay, and the findings are asserted exactly.

#[path = "common/imports.rs"]
mod imports;
use imports::{
    bin, check, check_overlaid, findings, import, import_clean, overlay_of, run, scratch, t,
    transcript,
};

#[test]
fn sqs_dlq_lambda_with_ttl_table() {
    let (text, err, code) = import(&["cloudformation", "sqs-dlq-lambda.yaml"]);
    assert_eq!(code, 0);
    assert!(text.contains("    visibility_timeout: 1m 30s  # from Resources.PayoutQueue.Properties.VisibilityTimeout (sqs-dlq-lambda.yaml:21)\n"), "{text}");
    assert!(text.contains("    retention: 4d  # from Resources.PayoutQueue.Properties.MessageRetentionPeriod (sqs-dlq-lambda.yaml:22)\n"), "{text}");
    assert!(text.contains("      after_receives: 3  # from Resources.PayoutQueue.Properties.RedrivePolicy.maxReceiveCount (sqs-dlq-lambda.yaml:25)\n"), "{text}");
    assert!(
        text.contains("    kind: lambda-event-source  # AWS::Serverless::Function"),
        "{text}"
    );
    assert!(text.contains("    expiry: physical-ttl  # default (an overlay's kind with a default of its own replaces it); from Resources.IdempotencyTable.Properties.TimeToLiveSpecification.Enabled (sqs-dlq-lambda.yaml:48)"), "{text}");
    assert!(
        text.contains("#   - Resources.PayoutAlarm (AWS::CloudWatch::Alarm)"),
        "{text}"
    );
    // One coverage line: the alarm is counted by type, listed in the header.
    assert_eq!(
        err,
        "coverage: 5 resources: 4 read, 1 not imported (1 AWS::CloudWatch::Alarm); 0 references unresolved\n"
    );
    // The skeleton alone is a valid manifest, and configuration rules need
    // no intent: RH015, the queue's 1m 30s is below 6 × the function's 1m
    // (F073); RH044 says no request was checked.
    assert_eq!(
        check(&["sqs-dlq-lambda.yaml"]),
        (
            vec![t("RH015", "payout-queue", "-"), t("RH044", "-", "-")],
            0
        )
    );
    assert_eq!(
        check_overlaid("sqs-dlq-lambda.yaml"),
        (
            vec![
                t("RH015", "payout-queue", "seller-payout"),
                t("RH032", "idempotency-table", "seller-payout"),
                t("RH001", "idempotency-table", "seller-payout"),
                t("RH005", "-", "seller-payout"),
                t("RH040", "-", "seller-payout")
            ],
            1
        )
    );
}

#[test]
fn parameters_and_conditions_are_evaluated() {
    let (text, _, code) = import(&[
        "cloudformation",
        "sqs-dlq-lambda.yaml",
        "--parameter",
        "Stage=dev",
        "--parameter",
        "VisibilitySeconds=45",
    ]);
    assert_eq!(code, 0);
    assert!(text.contains("    visibility_timeout: 45s  #"), "{text}");
    assert!(
        text.contains(
            "    retention: 1h  # from Resources.PayoutQueue.Properties.MessageRetentionPeriod"
        ),
        "{text}"
    );
    let (_, err, code) = import(&[
        "cloudformation",
        "sqs-dlq-lambda.yaml",
        "--parameter",
        "Stag=dev",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("the template has no parameter `Stag`")
            && err.contains("did you mean `Stage`?"),
        "{err}"
    );
}

#[test]
fn fifo_chain_with_content_dedup_and_shared_dlq() {
    let (text, _, _) = import(&["cloudformation", "fifo-chain.yaml"]);
    assert!(text.contains("    dedup_scope: message-group  # from Resources.OrdersQueue.Properties.DeduplicationScope (fifo-chain.yaml:10)\n"), "{text}");
    // A RedrivePolicy written as a JSON string, pointing at the DLQ by ARN.
    assert!(text.contains("      to: shared-dlq  # from Resources.ShipmentsQueue.Properties.RedrivePolicy.deadLetterTargetArn (fifo-chain.yaml:21)\n"), "{text}");
    assert!(text.contains("TODO: redrive: RedriveAllowPolicy allowAll and several sources (orders-queue, shipments-queue)"), "{text}");
    assert_eq!(
        check_overlaid("fifo-chain.yaml"),
        (
            vec![
                t("RH030", "warehouse", "ship-order"),
                t("RH040", "-", "ship-order")
            ],
            1
        )
    );
}

#[test]
fn kinesis_mapping_with_bisect_and_on_failure_destination() {
    let (text, _, _) = import(&["cloudformation", "kinesis-bisect.json"]);
    assert!(text.contains("          attempts: 3  # from Resources.ClickMapping.Properties.MaximumRetryAttempts (kinesis-bisect.json:22): 2 retries + the first attempt\n"), "{text}");
    assert!(text.contains("        max_record_age: 1h  # from Resources.ClickMapping.Properties.MaximumRecordAgeInSeconds (kinesis-bisect.json:23)\n"), "{text}");
    assert!(text.contains("      to: failed-records  # from Resources.ClickMapping.Properties.DestinationConfig.OnFailure.Destination (kinesis-bisect.json:25)\n"), "{text}");
    assert!(
        text.contains("# BisectBatchOnFunctionError true on the mapping to click-function"),
        "{text}"
    );
    // The on-failure destination keeps pointers 4 days; the stream keeps
    // the records they point at 24 hours.
    assert_eq!(
        check_overlaid("kinesis-bisect.json"),
        (
            vec![
                t("RH016", "failed-records", "count-click"),
                t("RH040", "-", "count-click")
            ],
            0
        )
    );
}

#[test]
fn two_region_global_table() {
    let (text, _, _) = import(&["cloudformation", "global-table.yaml"]);
    assert!(text.contains("    regions: [eu-west-1, us-east-1]  # from Resources.PaymentKeys.Properties.Replicas (global-table.yaml:14)\n"), "{text}");
    assert!(text.contains("  us-east-1: {}  # from Resources.PaymentKeys.Properties.Replicas[1].Region (global-table.yaml:15); TODO"), "{text}");
    assert!(text.contains("    replication: async  # from Resources.PaymentKeys.Properties.Replicas (global-table.yaml:14): global tables replicate asynchronously unless MultiRegionConsistency is STRONG (F038)\n    mode: active-active  # from Resources.PaymentKeys.Properties.Replicas (global-table.yaml:14): every replica accepts writes (F038)\n"), "{text}");
    assert!(text.contains("    replication: async  #"), "{text}");
    assert_eq!(
        check_overlaid("global-table.yaml"),
        (
            vec![
                t("RH011", "payment-keys", "charge"),
                t("RH032", "payment-keys", "charge"),
                t("RH040", "-", "charge")
            ],
            1
        )
    );
}

#[test]
fn eventbridge_rule_with_retry_policy() {
    let (text, _, _) = import(&["cloudformation", "eventbridge-retry.yaml"]);
    assert!(text.contains("          attempts: 5  # from Resources.InvoiceRule.Properties.Targets[0].RetryPolicy.MaximumRetryAttempts (eventbridge-retry.yaml:11): 4 retries + the first attempt\n"), "{text}");
    assert!(text.contains("        max_record_age: 2h  # from Resources.InvoiceRule.Properties.Targets[0].RetryPolicy.MaximumEventAgeInSeconds (eventbridge-retry.yaml:12)\n"), "{text}");
    assert!(text.contains("      to: invoice-dlq  # from Resources.InvoiceRule.Properties.Targets[0].DeadLetterConfig.Arn (eventbridge-retry.yaml:14)\n"), "{text}");
    assert_eq!(
        check_overlaid("eventbridge-retry.yaml"),
        (
            vec![
                // no RH023: the key never reaches `mail-provider` (RH021), the
                // only key-based layer, so no layer answers a reused key
                t("RH021", "mail-provider", "send-invoice"),
                t("RH040", "-", "send-invoice")
            ],
            1
        )
    );
}

#[test]
fn asyncapi3_with_sqs_bindings_and_extensions() {
    let (text, _, code) = import(&["asyncapi", "asyncapi3-sqs.yaml"]);
    assert_eq!(code, 0);
    assert!(text.contains("    visibility_timeout: 5m  # from channels.payoutRequests.bindings.sqs.queue.visibilityTimeout (asyncapi3-sqs.yaml:12)\n"), "{text}");
    assert!(text.contains("    origin: request-payout  #"), "{text}");
    assert!(text.contains("      - to: process-payout  # from operations.processPayout.channel (asyncapi3-sqs.yaml:32)\n"), "{text}");
    let (f, code) = check(&["asyncapi3-sqs.yaml"]);
    assert_eq!(
        f,
        vec![
            t("RH001", "payout-keys", "seller-payout"),
            t("RH033", "bank-rail", "seller-payout"),
            t("RH022", "process-payout", "seller-payout"),
            t("RH023", "-", "seller-payout"),
            t("RH040", "-", "seller-payout")
        ]
    );
    assert_eq!(code, 1);
}

#[test]
fn terraform_plan_with_child_module() {
    let (text, err, code) = import(&["terraform", "plan.json"]);
    assert_eq!(code, 0);
    assert!(text.contains("  payout-requests:\n    kind: sqs-standard  # aws_sqs_queue, from aws_sqs_queue.payout_requests (plan.json:7)\n"), "{text}");
    assert!(text.contains("      after_receives: 4  # from aws_sqs_queue.payout_requests.redrive_policy (plan.json:18) maxReceiveCount\n"), "{text}");
    assert!(text.contains("      - to: payout-worker  # from module.worker.aws_lambda_event_source_mapping.payouts.function_name (plan.json:57)\n"), "{text}");
    assert!(
        text.contains("    kind: lambda-event-source  # aws_lambda_function"),
        "{text}"
    );
    assert_eq!(
        err,
        "coverage: 6 resources: 5 read, 1 not imported (1 aws_iam_role); 0 references unresolved\n"
    );
    assert_eq!(
        check_overlaid("plan.json"),
        (
            vec![
                // 2m is below 6 × the function timeout 1m (F073)
                t("RH015", "payout-requests", "seller-payout"),
                t("RH032", "payout-keys", "seller-payout"),
                t("RH040", "-", "seller-payout")
            ],
            0
        )
    );
}

#[test]
fn bad_inputs_exit_2_with_locations() {
    let (_dir, yaml) = scratch(
        "t.yaml",
        "Resources:\n  Q:\n    Type: AWS::SQS::Queue\n    Properties: [1, 2\n",
    );
    let (_, err, code) = import(&["cloudformation", &yaml]);
    assert_eq!(code, 2);
    assert!(
        err.contains("invalid YAML") && err.contains("t.yaml:4:17"),
        "{err}"
    );
    let (_dir, json) = scratch(
        "plan.json",
        "{\n  \"planned_values\": {\n    \"root_module\": [1,,2]\n  }\n}\n",
    );
    let (_, err, code) = import(&["terraform", &json]);
    assert_eq!(code, 2);
    assert!(err.contains("plan.json:3:"), "{err}");
    std::fs::write(&json, "{\"format_version\": \"1.2\"}").unwrap();
    let (_, err, code) = import(&["terraform", &json]);
    assert_eq!(code, 2);
    assert!(err.contains("`planned_values.root_module` is missing"));
    let (_, err, code) = run(&[
        "--max-file-size",
        "10",
        "import",
        "cloudformation",
        "fifo-chain.yaml",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("more than the limit of 10 bytes"));
}

#[test]
fn step_functions_retry_blocks_become_call_retries() {
    let (text, _, code) = import(&["cloudformation", "step-functions.yaml"]);
    assert_eq!(code, 0);
    // The task names its function with `!GetAtt PayFunction.Arn`.
    assert!(text.contains("      - to: pay-function  # from Resources.PayoutFlow.Properties.Definition.States.Pay (step-functions.yaml:13)\n"), "{text}");
    assert!(text.contains("          attempts: 4  # from Resources.PayoutFlow.Properties.Definition.States.Pay.Retry[0].MaxAttempts (step-functions.yaml:20): 3 retries + the first attempt\n"), "{text}");
    assert!(text.contains("          backoff: 2s  #"), "{text}");
    assert_eq!(
        check_overlaid("step-functions.yaml"),
        (
            // No RH041: an attempt lasts up to the function's imported
            // Timeout (30 s), not an assumed 0 s.
            vec![t("RH021", "pay-function", "seller-payout")],
            1
        )
    );
}

#[test]
fn asyncapi2_kafka_and_pubsub_bindings_keep_their_units() {
    let (text, _, code) = import(&["asyncapi", "asyncapi2-kafka-pubsub.yaml"]);
    assert_eq!(code, 0);
    // Kafka's retention.ms is milliseconds; Pub/Sub's duration a "...s" string.
    assert!(text.contains("    kind: kafka-topic  #"), "{text}");
    assert!(text.contains("    retention: 7d  # from channels.orderEvents.bindings.kafka.topicConfiguration.retention.ms (asyncapi2-kafka-pubsub.yaml:9) (604800000 ms)\n"), "{text}");
    assert!(text.contains("    kind: pubsub-subscription  #"), "{text}");
    assert!(text.contains("    retention: 1d  # from channels.shipmentRequests.bindings.googlepubsub.messageRetentionDuration (asyncapi2-kafka-pubsub.yaml:19)\n"), "{text}");
    // AsyncAPI 2 `publish` is what the application receives; `subscribe` what it sends.
    assert!(text.contains("      - to: publish-order  #"), "{text}");
    assert!(text.contains("      - to: shipment-requests  #"), "{text}");
    // The skeleton is a valid manifest.
    assert_eq!(check(&["asyncapi2-kafka-pubsub.yaml"]).1, 0);
}

/// The whole output (text, warnings, exit code) of the CloudFormation
/// importer on templates that reach every path it has: SAM events,
/// intrinsics and conditions, Lambda wiring, rules, global tables, state
/// machines. Snapshots in `tests/snapshots/`.
#[test]
fn cloudformation_coverage_snapshots() {
    for (name, args) in [
        ("sam-events", &["coverage/sam-events.yaml"][..]),
        (
            "sam-events-params",
            &[
                "coverage/sam-events.yaml",
                "--parameter",
                "Env=dev",
                "--parameter",
                "NoDefault=7",
            ][..],
        ),
        ("lambda-wiring", &["coverage/lambda-wiring.yaml"][..]),
        ("state-machines", &["coverage/state-machines.yaml"][..]),
        ("intrinsics-json", &["coverage/intrinsics.json"][..]),
        (
            "intrinsics-json-params",
            &["coverage/intrinsics.json", "--parameter", "Stage=prod"][..],
        ),
    ] {
        let mut all = vec!["cloudformation"];
        all.extend_from_slice(args);
        insta::assert_snapshot!(format!("cloudformation-{name}"), transcript(&import(&all)));
    }
}

/// A DeadLetterQueue, EventInvokeConfig and DurableConfig apply to
/// asynchronous invocations only (F023-F025): on a function only an SQS
/// mapping invokes they become notes, not a dead letter on the queue's path.
#[test]
fn lambda_async_settings_stay_off_the_mapping_path() {
    let (text, _, code) = import(&["cloudformation", "lambda-async-only.yaml"]);
    assert_eq!(code, 0);
    assert!(text.contains("    kind: lambda-event-source  # AWS::Serverless::Function, from Resources.OrdersFunction (lambda-async-only.yaml:25)\n"), "{text}");
    assert!(text.contains("    # not wired: `dead_letter` (from Resources.OrdersFunction.Properties.DeadLetterQueue.TargetArn (lambda-async-only.yaml:32)) applies to asynchronous invocations only"), "{text}");
    assert!(text.contains("    # not wired: `max_event_age` (from Resources.OrdersFunction.Properties.EventInvokeConfig.MaximumEventAgeInSeconds (lambda-async-only.yaml:34))"), "{text}");
    assert!(text.contains("for 3 day(s) (from Resources.OrdersFunction.Properties.DurableConfig.RetentionPeriodInDays (lambda-async-only.yaml:38))"), "{text}");
    let orders_function = text.split("  orders-function:\n").nth(1).unwrap();
    assert!(!orders_function.contains("    dead_letter:"), "{text}");
    // 4d + 1d + 4d = 9d against keys kept 9d: RH004, not the RH001 that a
    // 1h asynchronous detour (9d 1h) gave.
    assert_eq!(
        check_overlaid("lambda-async-only.yaml"),
        (
            vec![
                t("RH004", "order-keys", "place-order"),
                t("RH005", "-", "place-order"),
                t("RH040", "-", "place-order")
            ],
            0
        )
    );
}

/// The SQS binding's `deadLetterQueue` beside `queue` is a component, so
/// `check` accepts the importer's output (it was referenced, not declared).
#[test]
fn asyncapi_sqs_dead_letter_queue_is_declared() {
    let (text, _, code) = import(&["asyncapi", "asyncapi3-sqs-dlq.yaml"]);
    assert_eq!(code, 0);
    assert!(text.contains("  refund-requests-dlq:\n    kind: sqs-standard  # SQS dead-letter queue, from channels.refundRequests.bindings.sqs.deadLetterQueue (asyncapi3-sqs-dlq.yaml:20)\n    retention: 14d  # from channels.refundRequests.bindings.sqs.deadLetterQueue.messageRetentionPeriod (asyncapi3-sqs-dlq.yaml:21)\n"), "{text}");
    assert!(text.contains("      to: refund-requests-dlq  # from channels.refundRequests.bindings.sqs.queue.redrivePolicy.deadLetterQueue (asyncapi3-sqs-dlq.yaml:17)\n"), "{text}");
    // 1d in the queue + 2d redrive within + 1d in the queue again = 4d > 1d.
    assert_eq!(
        check_overlaid("asyncapi3-sqs-dlq.yaml"),
        (
            vec![
                t("RH001", "refund-keys", "refund"),
                t("RH033", "card-network", "refund"),
                t("RH022", "process-refund", "refund"),
                t("RH023", "-", "refund"),
                t("RH005", "-", "refund"),
                t("RH040", "-", "refund")
            ],
            1
        )
    );
}

/// A dead-letter queue named only by a redrive policy (2.x binding) becomes
/// a placeholder component with a TODO: the skeleton alone is accepted.
#[test]
fn referenced_but_undescribed_ids_become_placeholders() {
    let (_dir, doc) = scratch(
        "api.yaml",
        "asyncapi: 2.6.0\ninfo: {title: t, version: '1'}\nchannels:\n  jobs:\n    bindings:\n      sqs:\n        queue:\n          name: jobs\n          redrivePolicy:\n            deadLetterQueue: {arn: 'arn:aws:sqs:eu-west-1:1:jobsDead'}\n",
    );
    let (text, _, code) = import(&["asyncapi", &doc]);
    assert_eq!(code, 0);
    assert!(text.contains("      to: jobs-dead  #"), "{text}");
    assert!(
        text.contains("  jobs-dead:\n    kind: queue  # named by `jobs` but not described in "),
        "{text}"
    );
    assert!(
        text.contains("    # TODO: `jobs-dead` is referenced by `jobs`; declare its kind"),
        "{text}"
    );
    // Valid, with no intent: only RH044.
    assert_eq!(check(&[&doc]), (vec![t("RH044", "-", "-")], 0));
}

/// A finding on an imported value points at the template line the value
/// came from, not at the generated text.
#[test]
fn findings_on_imported_values_point_at_the_template() {
    let fixture = "sqs-dlq-lambda.yaml";
    let at: Vec<String> = findings(&[fixture, &overlay_of(fixture)])
        .0
        .iter()
        .map(|f| {
            let l = &f["location"];
            format!(
                "{} {}:{}",
                f["code"].as_str().unwrap(),
                l["file"].as_str().unwrap(),
                l["line"]
            )
        })
        .collect();
    // RH032: TimeToLiveSpecification.Enabled is line 48 of the template.
    assert_eq!(
        at,
        vec![
            // The visibility timeout 90s is below 6 x the function's 60s (F073).
            "RH015 sqs-dlq-lambda.yaml:21",
            "RH032 sqs-dlq-lambda.yaml:48",
            "RH001 sqs-dlq-lambda.overlay.yaml:17",
            "RH005 sqs-dlq-lambda.overlay.yaml:4",
            "RH040 sqs-dlq-lambda.overlay.yaml:4"
        ]
    );
}

/// An API destination target is a component (`external`) with its retry
/// policy, dead letter and a note on the Idempotency-Key header; the rule
/// keeps events for its target's 60 s, not the 24 h default.
#[test]
fn eventbridge_api_destination_target() {
    let text = import_clean(&["cloudformation", "eventbridge-api-destination.yaml"]);
    assert!(text.contains("    kind: external  # AWS::Events::ApiDestination, from Resources.PartnerWebhook (eventbridge-api-destination.yaml:15)\n"), "{text}");
    assert!(text.contains("    retention: 1m  # from Resources.PaymentRule.Properties.Targets[0].RetryPolicy.MaximumEventAgeInSeconds (eventbridge-api-destination.yaml:34)"), "{text}");
    assert!(text.contains("      - to: partner-webhook  # from Resources.PaymentRule.Properties.Targets[0].Arn (eventbridge-api-destination.yaml:27)\n"), "{text}");
    assert!(text.contains("      to: partner-dlq  # from Resources.PaymentRule.Properties.Targets[0].DeadLetterConfig.Arn (eventbridge-api-destination.yaml:36)\n"), "{text}");
    assert!(text.contains("    # the rule sends header Idempotency-Key: $.detail.payment_id (from Resources.PaymentRule.Properties.Targets[0].HttpParameters.HeaderParameters.Idempotency-Key (eventbridge-api-destination.yaml:31)): the key is passed"), "{text}");
    // 1m + 1d + 1m = 1d 2m against the partner's 10m key window.
    assert_eq!(
        check_overlaid("eventbridge-api-destination.yaml"),
        (
            vec![
                t("RH001", "partner-webhook", "capture-payment"),
                t("RH005", "-", "capture-payment"),
                t("RH040", "-", "capture-payment")
            ],
            1
        )
    );
}

/// A Scheduler schedule delivers to its target with the template's retry
/// policy, dead letter and flexible window; a Pipe carries a queue to a
/// function, FIRE_AND_FORGET making the function `lambda-async`.
#[test]
fn scheduler_schedule_and_pipe() {
    let text = import_clean(&["cloudformation", "scheduler-pipe.yaml"]);
    assert!(text.contains("    kind: topic  # AWS::Scheduler::Schedule, from Resources.NightlySettlement (scheduler-pipe.yaml:9)\n    delivery: at-least-once  # UNVERIFIED:"), "{text}");
    assert!(text.contains("          attempts: 3  # from Resources.NightlySettlement.Properties.Target.RetryPolicy.MaximumRetryAttempts (scheduler-pipe.yaml:19): 2 retries + the first attempt\n"), "{text}");
    assert!(text.contains("      to: schedule-dlq  # from Resources.NightlySettlement.Properties.Target.DeadLetterConfig.Arn (scheduler-pipe.yaml:22)\n"), "{text}");
    assert!(
        text.contains("each invocation starts up to 15m after its scheduled time"),
        "{text}"
    );
    assert!(text.contains("      - to: settlement-pipe  # from Resources.SettlementPipe.Properties.Source (scheduler-pipe.yaml:33)\n"), "{text}");
    assert!(text.contains("    kind: lambda-async  # AWS::Lambda::Function, from Resources.SettleFunction (scheduler-pipe.yaml:39)\n"), "{text}");
    assert!(text.contains("    # InvocationType FIRE_AND_FORGET (from Resources.SettlementPipe.Properties.TargetParameters.LambdaFunctionParameters.InvocationType (scheduler-pipe.yaml:37)): the pipe deletes the source message"), "{text}");
    // 5m + 1d + 6h (async event queue, F024) = 1d 6h 5m against keys kept 1d.
    assert_eq!(
        check_overlaid("scheduler-pipe.yaml"),
        (
            vec![
                t("RH001", "settlement-keys", "settle-night"),
                // The fingerprint is the key field alone (#17: RH023).
                t("RH023", "-", "settle-night"),
                t("RH040", "-", "settle-night")
            ],
            1
        )
    );
}

/// `expiry: physical-ttl` from `TimeToLiveSpecification` is a default: an
/// overlay that sets the table's kind to `powertools-idempotency` (whose
/// catalog entry checks expiry, F042) drops it, so no RH032; the same kind
/// keeps it.
#[test]
fn ttl_expiry_yields_to_an_overlay_kind() {
    let text = import_clean(&["cloudformation", "ttl-powertools.yaml"]);
    assert!(text.contains("    expiry: physical-ttl  # default (an overlay's kind with a default of its own replaces it); from Resources.RefundKeys.Properties.TimeToLiveSpecification.Enabled (ttl-powertools.yaml:21): items expire by TTL on `expiration`\n"), "{text}");
    // 0s + 1d (MessageRetentionPeriod) = 1d against the Powertools 1h (F040).
    assert_eq!(
        check_overlaid("ttl-powertools.yaml"),
        (
            vec![
                // VisibilityTimeout 60 s is below 6 x the function's Timeout 30 s (F073).
                t("RH015", "refund-queue", "refund"),
                t("RH001", "refund-keys", "refund"),
                // No `in_progress`: a Powertools INPROGRESS record expires
                // with the invocation and the next attempt runs again (F042).
                t("RH034", "refund-function", "refund"),
                t("RH040", "-", "refund")
            ],
            1
        )
    );
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let overlay = dir.join("same.yaml");
    let same = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/import/ttl-powertools.overlay.yaml"
    ))
    .unwrap()
    .replace("kind: powertools-idempotency", "kind: dynamodb-table");
    std::fs::write(&overlay, same).unwrap();
    let (f, _) = check(&["ttl-powertools.yaml", overlay.to_str().unwrap()]);
    let codes: Vec<&str> = f.iter().map(|x| x.0.as_str()).collect();
    assert_eq!(codes, vec!["RH015", "RH032", "RH001", "RH040", "RH041"]);
}

/// A `CommaDelimitedList` parameter is a list: `!Select` picks the replica
/// Regions of a global table. `!Split` feeds `!Select`, `!Join` builds a
/// name; a condition that cannot be evaluated keeps its resource with a note.
#[test]
fn list_parameters_and_undecided_conditions() {
    let text = import_clean(&["cloudformation", "list-parameters.yaml"]);
    assert!(text.contains("    regions: [eu-west-1, us-east-1]  # from Resources.PaymentKeys.Properties.Replicas (list-parameters.yaml:28)\n"), "{text}");
    assert!(text.contains("  us-east-1: {}  # from Resources.PaymentKeys.Properties.Replicas[1].Region (list-parameters.yaml:29); TODO"), "{text}");
    assert!(text.contains("    visibility_timeout: 45s  # from Resources.HomeQueue.Properties.VisibilityTimeout (list-parameters.yaml:35)\n"), "{text}");
    assert!(text.contains("# TODO: HomeQueue is imported, but its condition `InHome` uses `AWS::Region`, known only at deployment: check whether the stack creates it\n"), "{text}");
    assert!(text.contains("# TODO: LoopQueue is imported, but its condition `Loop` refers to itself (Loop → Loop): check whether the stack creates it\n"), "{text}");
    assert!(!text.contains("known only at deployment (from"), "{text}");
    assert_eq!(
        check_overlaid("list-parameters.yaml"),
        (
            vec![
                t("RH011", "payment-keys", "charge"),
                t("RH032", "payment-keys", "charge"),
                t("RH040", "-", "charge")
            ],
            1
        )
    );
}

/// A definition in a file beside the template (SAM `DefinitionUri`) is read
/// with its `DefinitionSubstitutions`: the Task's Retry becomes the call's
/// retry, an `sqs:sendMessage` task a `sends_to`, and the Catch that leads
/// to it a note (a dead letter the workflow writes). A path leaving the
/// template's folder is refused with a note.
#[test]
fn state_machine_definition_file_with_catch_to_a_queue() {
    let text = import_clean(&["cloudformation", "step-functions-file.yaml"]);
    let src = "Resources.RefundFlow.Properties.DefinitionUri[statemachine/refund.asl.json].States";
    assert!(
        text.contains(&format!(
            "      - to: refund-function  # from {src}.Refund (step-functions-file.yaml:11)\n"
        )),
        "{text}"
    );
    assert!(text.contains(&format!("          attempts: 5  # from {src}.Refund.Retry[0].MaxAttempts (step-functions-file.yaml:11): 4 retries + the first attempt\n          backoff: 5s  # from {src}.Refund.Retry[0].IntervalSeconds (step-functions-file.yaml:11)\n          multiplier: 3  #")), "{text}");
    assert!(text.contains("          max_backoff: 1m  #"), "{text}");
    assert!(text.contains(&format!("    sends_to:\n      - to: refund-dlq  # from {src}.ToDeadLetter.Parameters.QueueUrl (step-functions-file.yaml:11): task ToDeadLetter sends a message (sqs:sendMessage)\n")), "{text}");
    assert!(text.contains("    # task Refund catches States.ALL and goes to ToDeadLetter, which sends to `refund-dlq`"), "{text}");
    assert!(
        text.contains("    # task Refund: JitterStrategy FULL"),
        "{text}"
    );
    assert!(text.contains("    # TODO: the definition file `../outside.asl.json` is not read: it leaves the template's folder (from Resources.EscapingFlow.Properties.DefinitionS3Location (step-functions-file.yaml:18))\n"), "{text}");
    assert_eq!(
        check_overlaid("step-functions-file.yaml"),
        (
            vec![
                // No RH041: an attempt lasts up to the function's
                // imported Timeout, not an assumed 0 s.
                t("RH021", "refund-function", "refund"),
                t("RH040", "-", "refund")
            ],
            1
        )
    );
    // Each attempt up to the function's Timeout 30 s: 4 × 30s + 5s + 15s
    // + 45s + min(135s, 60s) = 245s.
    let fixture = "step-functions-file.yaml";
    let (h, _, _) = run(&["horizon", fixture, &overlay_of(fixture)]);
    assert!(
        h.contains("calls: each attempt up to `refund-function`'s timeout 30s; retry 5 attempts: (30s + 5s) + (30s + 15s) + (30s + 45s) + (30s + 1m) = 4m 5s"),
        "{h}"
    );
}

/// A definition file reached through a symbolic link, or missing, is not
/// read: a note says why and the rest of the template imports.
#[cfg(unix)]
#[test]
fn state_machine_definition_file_is_never_read_through_a_link() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let real = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/import/statemachine");
    std::os::unix::fs::symlink(real, d.join("sm")).unwrap();
    std::fs::write(
        d.join("t.yaml"),
        "Resources:\n  A:\n    Type: AWS::Serverless::StateMachine\n    Properties:\n      DefinitionUri: sm/refund.asl.json\n  B:\n    Type: AWS::Serverless::StateMachine\n    Properties:\n      DefinitionUri: missing.json\n",
    )
    .unwrap();
    let o = bin()
        .current_dir(d)
        .args(["import", "cloudformation", "t.yaml"])
        .output()
        .unwrap();
    let text = String::from_utf8(o.stdout).unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert!(text.contains("    # TODO: the definition file `sm/refund.asl.json` is not read: `sm` is a symbolic link, which is not followed (from Resources.A.Properties.DefinitionUri (t.yaml:5))\n"), "{text}");
    assert!(
        text.contains("    # TODO: the definition file is not read: cannot read `missing.json`: "),
        "{text}"
    );
}

/// AsyncAPI SNS consumers become the topic's deliveries: an HTTP/S
/// `deliveryPolicy` an upper-bound retry with the 1h cap (F016), another
/// protocol's a note, a `redrivePolicy` the topic's dead letter; Kafka
/// `cleanup.policy: compact` keeps no retention (compaction has no age).
#[test]
fn asyncapi_sns_delivery_policies_and_kafka_compaction() {
    let text = import_clean(&["asyncapi", "asyncapi3-sns-kafka.yaml"]);
    let c = "operations.publishOrder.bindings.sns.consumers";
    assert!(text.contains(&format!("      - to: fulfilment-queue  # from {c}[0].endpoint (asyncapi3-sns-kafka.yaml:39)\n      - to: partner-hook  # from {c}[1].endpoint (asyncapi3-sns-kafka.yaml:44)\n        retry:\n          attempts: 6  # from {c}[1].deliveryPolicy.numRetries (asyncapi3-sns-kafka.yaml:47): 5 retries + the first attempt\n          backoff: 2m  # from {c}[1].deliveryPolicy.maxDelayTarget (asyncapi3-sns-kafka.yaml:47): every retry waits at most this long, an upper bound (minDelayTarget 20, backoffFunction exponential shape the delays below it)\n          multiplier: 1  # the upper bound does not grow\n          max_elapsed: 1h  # HTTP/S total retry time is capped at 3,600 s (F016)\n        max_record_age: 1h  # https consumer: HTTP/S total retry time is capped at 3,600 s (F016)\n")), "{text}");
    assert!(text.contains(&format!("    dead_letter:\n      to: order-events-dlq  # from {c}[0].redrivePolicy.deadLetterQueue (asyncapi3-sns-kafka.yaml:43): undeliverable messages once the delivery policy is exhausted (F016)\n")), "{text}");
    assert!(text.contains("    # the sqs consumer's deliveryPolicy (from operations.publishOrder.bindings.sns.consumers[0].deliveryPolicy (asyncapi3-sns-kafka.yaml:41)) is not used: only HTTP/S delivery policies can be customised (F016)\n"), "{text}");
    // Compaction alone: no retention; compact and delete: retention.ms stays.
    assert!(text.contains("  order-log:\n    kind: kafka-topic  # channel, from channels.orderLog (asyncapi3-sns-kafka.yaml:17)\n    # TODO: retention: cleanup.policy compact (from channels.orderLog.bindings.kafka.topicConfiguration.cleanup.policy (asyncapi3-sns-kafka.yaml:23)) keeps the latest record"), "{text}");
    assert!(text.contains("    retention: 1d  # from channels.auditLog.bindings.kafka.topicConfiguration.retention.ms (asyncapi3-sns-kafka.yaml:30) (86400000 ms)\n    # cleanup.policy compact and delete"), "{text}");
    // min(5 x 2m, 1h) = 10m against the partner's 5m key window.
    assert_eq!(
        check_overlaid("asyncapi3-sns-kafka.yaml"),
        (
            vec![
                t("RH001", "partner-hook", "notify-partner"),
                t("RH040", "-", "notify-partner")
            ],
            1
        )
    );
    let fixture = "asyncapi3-sns-kafka.yaml";
    let (h, _, _) = run(&["horizon", fixture, &overlay_of(fixture)]);
    assert!(h.contains("horizon 10m, window 5m"), "{h}");
}

/// A pipe whose source is a table's stream (`!GetAtt T.StreamArn`) reads
/// the `<table>-stream` component, as a mapping does: the table itself
/// delivers nothing (`check` refused that output) but `sends_to` its
/// stream; the stream's retention is not in the platform facts, so none is
/// written and the analysis states its assumption (arithmetic in the
/// overlay).
#[test]
fn pipe_from_a_table_stream_reads_the_stream() {
    let (text, _, code) = import(&["cloudformation", "pipe-ddb-stream.yaml"]);
    assert_eq!(code, 0);
    assert!(
        text.contains(
            "  scores-table-stream:\n    kind: stream  # DynamoDB stream of Resources.ScoresTable\n"
        ),
        "{text}"
    );
    assert!(text.contains("    delivers_to:\n      - to: scores-pipe  # from Resources.ScoresPipe.Properties.Source (pipe-ddb-stream.yaml:26)\n        retry:\n          attempts: 3  #"), "{text}");
    assert!(text.contains("    # TODO: retention: how long the stream keeps a record (not in the platform facts); until it is declared the analysis assumes one (RH041)\n"), "{text}");
    assert!(!text.contains("24h"), "{text}");
    let table =
        &text[text.find("  scores-table:\n").unwrap()..text.find("  scores-pipe:\n").unwrap()];
    assert!(!table.contains("delivers_to"), "{table}");
    assert!(table.contains("    sends_to:\n      - to: scores-table-stream  # from Resources.ScoresTable.Properties.StreamSpecification (pipe-ddb-stream.yaml:20)\n"), "{table}");
    assert_eq!(
        check_overlaid("pipe-ddb-stream.yaml"),
        (
            vec![
                t("RH003", "leaderboard", "score-update"),
                t("RH041", "scores-table-stream", "score-update"),
                t("RH041", "scores-table-stream", "score-update"),
                t("RH040", "-", "score-update")
            ],
            1
        )
    );
}

/// SAM's `AWS::Serverless::SimpleTable` is a DynamoDB table (no TTL: a
/// TODO asks for its retention), so an overlay can make it a dedup store
/// by id alone (arithmetic in the overlay).
#[test]
fn sam_simple_table_is_a_dynamodb_table() {
    let text = import_clean(&["cloudformation", "sam-simple-table.yaml"]);
    assert!(text.contains("  keys:\n    kind: dynamodb-table  # AWS::Serverless::SimpleTable, from Resources.Keys (sam-simple-table.yaml:30)\n    resource: order-keys  # from Resources.Keys.Properties.TableName (sam-simple-table.yaml:32)\n    # TODO: retention and expiry (application | physical-ttl): the template sets no TTL\n"), "{text}");
    assert_eq!(
        check_overlaid("sam-simple-table.yaml"),
        (
            vec![
                t("RH001", "keys", "place-order"),
                t("RH040", "-", "place-order")
            ],
            1
        )
    );
}

/// `AWS::Serverless::StateMachine` `Events` start executions the way a
/// SAM function's events invoke it: EventBridgeRule (and Schedule) events
/// are rules delivering to the workflow with their RetryPolicy and
/// dead-letter queue, ScheduleV2 a Scheduler schedule, Api an API Gateway
/// method that calls it.
#[test]
fn sam_state_machine_events_deliver_to_the_workflow() {
    let text = import_clean(&["cloudformation", "sam-state-machine-events.yaml"]);
    insta::assert_snapshot!(
        "cloudformation-sam-state-machine-events",
        transcript(&(text.clone(), String::new(), 0))
    );
    assert!(text.contains("  settle-flow-order-placed:\n    kind: eventbridge  # EventBridgeRule event of SettleFlow"), "{text}");
    assert!(text.contains("          attempts: 5  # from Resources.SettleFlow.Properties.Events.OrderPlaced.Properties.RetryPolicy.MaximumRetryAttempts (sam-state-machine-events.yaml:33): 4 retries + the first attempt\n        max_record_age: 2h  #"), "{text}");
    assert!(text.contains("      to: settle-dlq  # from Resources.SettleFlow.Properties.Events.OrderPlaced.Properties.DeadLetterConfig.Arn (sam-state-machine-events.yaml:36)\n"), "{text}");
    assert!(text.contains("        max_record_age: 24h  # EventBridge default maximum event age (no RetryPolicy, F017)\n"), "{text}");
    assert!(text.contains("  settle-flow-hourly:\n    kind: topic  # AWS::Scheduler::Schedule SAM creates for event Hourly (ScheduleV2)"), "{text}");
    assert!(
        text.contains("  settle-flow-manual:\n    kind: service  # API Gateway method"),
        "{text}"
    );
    // The overlay's comments give the arithmetic: 5 attempts within 2 h.
    assert_eq!(
        check_overlaid("sam-state-machine-events.yaml"),
        (
            vec![
                t("RH038", "settle-function", "settle-order"),
                t("RH040", "-", "settle-order")
            ],
            1
        )
    );
    let (h, _, _) = run(&[
        "horizon",
        "sam-state-machine-events.yaml",
        "sam-state-machine-events.overlay.yaml",
    ]);
    assert!(
        h.contains("settle-function (effect): horizon 2h, window none"),
        "{h}"
    );
}

/// A bucket's `NotificationConfiguration` and a SAM function's `S3` event
/// make the bucket a `topic` delivering to the queue, topic or function;
/// a function S3 notifies is `lambda-async`. No S3 fact is in the
/// reference: the bucket carries a TODO and the analysis assumes the
/// generic values (RH041).
#[test]
fn s3_notifications_deliver_from_the_bucket() {
    let (text, err, code) = import(&["cloudformation", "s3-notifications.yaml"]);
    insta::assert_snapshot!(
        "cloudformation-s3-notifications",
        transcript(&(text.clone(), err.clone(), code))
    );
    assert_eq!(code, 0);
    // A bucket that notifies nothing is still not imported.
    assert_eq!(
        err,
        "coverage: 7 resources: 6 read, 1 not imported (1 AWS::S3::Bucket); 0 references unresolved\n"
    );
    assert!(text.contains("  upload-bucket:\n    kind: topic  # AWS::S3::Bucket, from Resources.UploadBucket (s3-notifications.yaml:11)\n    delivers_to:\n      - to: scan-queue  # from Resources.UploadBucket.Properties.NotificationConfiguration.QueueConfigurations[0].Queue (s3-notifications.yaml:16): s3:ObjectCreated:*\n      - to: audit-topic  #"), "{text}");
    assert!(
        text.contains(
            "    kind: lambda-async  # AWS::Lambda::Function, from Resources.ThumbnailFunction"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "    kind: lambda-async  # AWS::Serverless::Function, from Resources.IndexFunction"
        ),
        "{text}"
    );
    assert!(text.contains("      - to: index-function  # from Resources.IndexFunction.Properties.Events.NewInvoice"), "{text}");
    assert!(
        text.contains("# TODO: S3 event notifications are not in the platform-facts reference"),
        "{text}"
    );
    assert_eq!(
        check_overlaid("s3-notifications.yaml"),
        (
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
                t("RH040", "-", "make-thumbnail")
            ],
            1
        )
    );
}

/// A Task state's `TimeoutSeconds` is the timeout of each attempt of its
/// retry: the horizon counts 20 s per attempt, not an assumed 0 s (no
/// RH041); `HeartbeatSeconds` is a note.
#[test]
fn state_machine_task_timeout_is_the_attempt_timeout() {
    let text = import_clean(&["cloudformation", "step-functions-timeout.yaml"]);
    insta::assert_snapshot!(
        "cloudformation-step-functions-timeout",
        transcript(&(text.clone(), String::new(), 0))
    );
    assert!(text.contains("          attempts: 3  # from Resources.RecordFlow.Properties.Definition.States.Record.Retry[0].MaxAttempts (step-functions-timeout.yaml:41): 2 retries + the first attempt\n          timeout: 20s  # from Resources.RecordFlow.Properties.Definition.States.Record.TimeoutSeconds (step-functions-timeout.yaml:33): Step Functions fails each attempt with States.Timeout after it"), "{text}");
    assert!(
        text.contains("    # task Approve: HeartbeatSeconds 5m"),
        "{text}"
    );
    assert!(text.contains("    # task Approve: TimeoutSeconds 1h (from Resources.RecordFlow.Properties.Definition.States.Approve.TimeoutSeconds (step-functions-timeout.yaml:47)) and no Retry: the task is not retried\n"), "{text}");
    assert_eq!(
        check_overlaid("step-functions-timeout.yaml"),
        (
            vec![
                t("RH038", "payments", "record-payment"),
                t("RH040", "-", "record-payment")
            ],
            1
        )
    );
    let (h, _, _) = run(&[
        "horizon",
        "step-functions-timeout.yaml",
        "step-functions-timeout.overlay.yaml",
    ]);
    assert!(
        h.contains("calls: retry 3 attempts: (20s + 3s) + (20s + 6s) = 49s"),
        "{h}"
    );
}
