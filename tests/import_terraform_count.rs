//! `count` and `for_each` in Terraform configuration (one component per
//! instance, a resource with none left out, what is not known one
//! component with a TODO, the limits), the instances of a plan, and values
//! that reach a resource through a module's variables. Each fixture's
//! skeleton is a snapshot in `tests/snapshots/`, its findings with its
//! intents-only overlay are asserted with their horizons.

use std::time::{Duration, Instant};

#[path = "common/imports.rs"]
mod imports;
use imports::{findings, import, quiet, scratch, transcript};

/// (stdout, stderr, exit code) of `import terraform PATH ARGS`, whose
/// whole output is the snapshot `NAME` in `tests/snapshots/`.
fn snapshot(name: &str, path: &str) -> (String, String, i32) {
    let out = import(&["terraform", path]);
    insta::assert_snapshot!(name, transcript(&out));
    out
}

/// A finding as (code, component, intent, horizon in seconds).
type Horizon = (String, String, String, Option<u64>);

/// Every finding of `check ARGS` as a [`Horizon`], and the exit code.
fn horizons(args: &[&str]) -> (Vec<Horizon>, i32) {
    let (f, code) = findings(args);
    let s = |x: &serde_json::Value| x.as_str().unwrap_or("-").to_string();
    let f = f
        .iter()
        .map(|f| {
            let h = f["horizon_seconds"].as_u64();
            (s(&f["code"]), s(&f["component"]), s(&f["intent"]), h)
        })
        .collect();
    (f, code)
}

fn h(
    code: &str,
    comp: &str,
    intent: &str,
    secs: Option<u64>,
) -> (String, String, String, Option<u64>) {
    (code.into(), comp.into(), intent.into(), secs)
}

#[test]
fn count_and_for_each_make_one_component_per_instance() {
    let (text, err, code) = snapshot("terraform-count-for-each", "terraform-count-for-each");
    assert_eq!((code, err.as_str()), (0, quiet(&text).as_str()));
    // for_each over a map: each.value sets each queue's own numbers, and
    // each.key picks the queue's own dead-letter queue and worker.
    assert!(text.contains("  queues-refunds:\n    kind: sqs-standard  # aws_sqs_queue, from aws_sqs_queue.queues[\"refunds\"] (terraform-count-for-each/main.tf:41)\n"), "{text}");
    assert!(text.contains("    visibility_timeout: 1m  # from aws_sqs_queue.queues[\"refunds\"].visibility_timeout_seconds (terraform-count-for-each/main.tf:45)\n    dead_letter:\n      to: dlq-refunds  # "), "{text}");
    assert!(text.contains("      after_receives: 3  # from aws_sqs_queue.queues[\"refunds\"].redrive_policy (terraform-count-for-each/main.tf:46) maxReceiveCount\n"), "{text}");
    assert!(text.contains("      - to: worker-refunds  # from aws_lambda_event_source_mapping.work[\"refunds\"].function_name (terraform-count-for-each/main.tf:63)\n"), "{text}");
    // count = 0 from a conditional; count from a data source.
    assert!(text.contains("\n# aws_sqs_queue.audit is left out: its `count` is 0 (terraform-count-for-each/main.tf:67)\n"), "{text}");
    assert!(text.contains("\n# TODO: aws_sqs_queue.per_zone is repeated by `count` (terraform-count-for-each/main.tf:82), whose value is not known before apply here: one component stands for every instance\n"), "{text}");
    assert!(!text.contains("  audit"), "{text}");
    // count = 2 from terraform.tfvars, count.index in an argument.
    assert!(text.contains("    visibility_timeout: 1m  # from aws_sqs_queue.shards[1].visibility_timeout_seconds (terraform-count-for-each/main.tf:76)\n"), "{text}");
    let expected = vec![
        // 345,600 s: the queues' default retention (F003).
        h("RH038", "payment-rail", "customer-refund", Some(345_600)),
        h("RH038", "warehouse", "order-shipment", Some(345_600)),
        // 60 s < 6 x 60 s (F073); queues-orders' 360 s is not.
        h("RH015", "queues-refunds", "customer-refund", None),
        h("RH040", "-", "customer-refund", None),
        h("RH040", "-", "order-shipment", None),
    ];
    assert_eq!(horizons(&["terraform-count-for-each"]), (expected, 1));
}

#[test]
fn var_values_change_the_instances() {
    let run = |var: &str| {
        let (text, err, code) = import(&["terraform", "terraform-count-for-each", "--var", var]);
        assert_eq!((code, err.as_str()), (0, quiet(&text).as_str()), "{text}");
        text
    };
    let text = run("shard_count=0");
    assert!(text.contains("\n# aws_sqs_queue.shards is left out: its `count` is 0 (terraform-count-for-each/main.tf:73)\n"), "{text}");
    assert!(!text.contains("  shards"), "{text}");
    // 30 x (2 + 1) = 90 s.
    let text = run("shard_count=3");
    assert!(text.contains("  shards-2:\n    kind: sqs-standard  # aws_sqs_queue, from aws_sqs_queue.shards[2] (terraform-count-for-each/main.tf:72)\n"), "{text}");
    assert!(text.contains("    visibility_timeout: 1m 30s  # from aws_sqs_queue.shards[2].visibility_timeout_seconds (terraform-count-for-each/main.tf:76)\n"), "{text}");
    // A name given: `count = 1`, its one instance keeps the plain id.
    let text = run("audit_queue_name=audit");
    assert!(text.contains("  audit:\n    kind: sqs-standard  # aws_sqs_queue, from aws_sqs_queue.audit[0] (terraform-count-for-each/main.tf:66)\n"), "{text}");
    assert!(!text.contains("audit is left out"), "{text}");
}

#[test]
fn a_reference_without_its_instance_links_the_first_with_a_todo() {
    let (_dir, tf) = scratch(
        "main.tf",
        "variable \"which\" {\n  type = string\n}\n\
         resource \"aws_sqs_queue\" \"q\" {\n  for_each = toset([\"b\", \"a\"])\n  name = each.key\n}\n\
         resource \"aws_sns_topic\" \"t\" {\n  name = \"t\"\n}\n\
         resource \"aws_sns_topic_subscription\" \"first\" {\n  topic_arn = aws_sns_topic.t.arn\n  protocol = \"sqs\"\n  endpoint = values(aws_sqs_queue.q)[0].arn\n}\n\
         resource \"aws_sns_topic_subscription\" \"chosen\" {\n  topic_arn = aws_sns_topic.t.arn\n  protocol = \"sqs\"\n  endpoint = aws_sqs_queue.q[var.which].arn\n}\n",
    );
    let (text, _, code) = import(&["terraform", &tf]);
    assert_eq!(code, 0);
    // Instances in the set's order: a, then b.
    assert!(text.contains(&format!("  q-a:\n    kind: sqs-standard  # aws_sqs_queue, from aws_sqs_queue.q[\"a\"] ({tf}:4)\n")), "{text}");
    assert!(text.contains(&format!("# TODO: aws_sns_topic_subscription.first.endpoint ({tf}:14) refers to `aws_sqs_queue.q` without saying which of its instances: it links to the first, `aws_sqs_queue.q[\"a\"]`\n")), "{text}");
    assert!(text.contains(&format!("# TODO: aws_sns_topic_subscription.chosen.endpoint ({tf}:19) refers to `aws_sqs_queue.q` without saying which of its instances: it links to the first, `aws_sqs_queue.q[\"a\"]`\n")), "{text}");
    assert!(text.contains(&format!("    delivers_to:\n      - to: q-a  # from aws_sns_topic_subscription.first.endpoint ({tf}:11)\n      - to: q-a  # from aws_sns_topic_subscription.chosen.endpoint ({tf}:16)\n")), "{text}");
    // With the index known, the instance it names.
    let (text, _, _) = import(&["terraform", &tf, "--var", "which=b"]);
    assert!(
        text.contains(&format!(
            "      - to: q-b  # from aws_sns_topic_subscription.chosen.endpoint ({tf}:19)\n"
        )),
        "{text}"
    );
    assert!(!text.contains("chosen.endpoint ({tf}:19) refers"), "{text}");
}

#[test]
fn a_plans_instances_are_components_of_their_own() {
    let r = |address: &str, index: &str, vis: u32| {
        format!(
            "{{\"address\": \"{address}\", \"mode\": \"managed\", \"type\": \"aws_sqs_queue\", \"name\": \"{}\", \"index\": {index}, \"values\": {{\"visibility_timeout_seconds\": {vis}}}}}",
            address.split(['.', '[']).nth(1).unwrap()
        )
    };
    let plan = format!(
        "{{\"planned_values\": {{\"root_module\": {{\"resources\": [{}, {}, {}, {}]}}}}}}",
        r("aws_sqs_queue.shard[0]", "0", 30),
        r("aws_sqs_queue.shard[1]", "1", 60),
        r("aws_sqs_queue.q[\\\"orders\\\"]", "\"orders\"", 90),
        r("aws_sqs_queue.one[0]", "0", 120),
    );
    let (_dir, path) = scratch("plan.json", &plan);
    let (text, _, code) = import(&["terraform", &path]);
    assert_eq!(code, 0, "{text}");
    for (id, address, vis) in [
        ("shard-0", "aws_sqs_queue.shard[0]", "30s"),
        ("shard-1", "aws_sqs_queue.shard[1]", "1m"),
        ("q-orders", "aws_sqs_queue.q[\"orders\"]", "1m 30s"),
        // The only instance of a count keeps the resource's name.
        ("one", "aws_sqs_queue.one[0]", "2m"),
    ] {
        let want = format!(
            "  {id}:\n    kind: sqs-standard  # aws_sqs_queue, from {address} ({path}:1)\n    visibility_timeout: {vis}  # from {address}.visibility_timeout_seconds ({path}:1)\n"
        );
        assert!(text.contains(&want), "{want}\n{text}");
    }
}

#[test]
fn module_blocks_with_count_and_for_each_are_read_per_instance() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir(root.join("q")).unwrap();
    std::fs::write(
        root.join("main.tf"),
        "module \"queues\" {\n  for_each = {orders = 120, refunds = 60}\n  source = \"./q\"\n  name = each.key\n  visibility = each.value\n}\n\
         module \"spare\" {\n  count = 0\n  source = \"./q\"\n  name = \"spare\"\n}\n\
         resource \"aws_lambda_function\" \"w\" {\n  function_name = \"w\"\n}\n\
         resource \"aws_lambda_event_source_mapping\" \"m\" {\n  event_source_arn = module.queues[\"refunds\"].queue_arn\n  function_name = aws_lambda_function.w.arn\n}\n",
    )
    .unwrap();
    std::fs::write(
        root.join("q/main.tf"),
        "variable \"name\" {\n  type = string\n}\nvariable \"visibility\" {\n  type = number\n}\n\
         resource \"aws_sqs_queue\" \"this\" {\n  name = var.name\n  visibility_timeout_seconds = var.visibility\n}\n\
         output \"queue_arn\" {\n  value = aws_sqs_queue.this.arn\n}\n",
    )
    .unwrap();
    let d = root.to_str().unwrap();
    let (text, err, code) = import(&["terraform", d]);
    assert_eq!((code, err.as_str()), (0, quiet(&text).as_str()), "{text}");
    assert!(
        text.contains(&format!(
            "\n# module.spare is left out: its `count` is 0 ({d}/main.tf:8)\n"
        )),
        "{text}"
    );
    assert!(text.contains(&format!("  queues-orders.this:\n    kind: sqs-standard  # aws_sqs_queue, from module.queues[\"orders\"].aws_sqs_queue.this ({d}/q/main.tf:7)\n")), "{text}");
    assert!(text.contains(&format!("    visibility_timeout: 2m  # from module.queues[\"orders\"].aws_sqs_queue.this.visibility_timeout_seconds ({d}/q/main.tf:9)\n")), "{text}");
    // The mapping reads the output of the refunds instance.
    assert!(text.contains(&format!("  queues-refunds.this:\n    kind: sqs-standard  # aws_sqs_queue, from module.queues[\"refunds\"].aws_sqs_queue.this ({d}/q/main.tf:7)\n    resource: refunds  # from module.queues[\"refunds\"].aws_sqs_queue.this.name ({d}/q/main.tf:8)\n    delivers_to:\n      - to: w  # from aws_lambda_event_source_mapping.m.function_name ({d}/main.tf:17)\n    visibility_timeout: 1m  #")), "{text}");
    assert!(!text.contains("spare.this"), "{text}");
}

#[test]
fn module_variables_take_the_callers_value_else_the_default_else_a_todo() {
    let (text, err, code) = snapshot("terraform-module-variables", "terraform-module-variables");
    assert_eq!((code, err.as_str()), (0, quiet(&text).as_str()));
    // (a) the caller omits visibility_timeout_seconds: the default 360 s.
    assert!(text.contains("    visibility_timeout: 6m  # from module.payouts.aws_sqs_queue.this.visibility_timeout_seconds (terraform-module-variables/queue/main.tf:31)\n"), "{text}");
    // The caller's 4 over the default 5.
    assert!(text.contains("      after_receives: 4  # from module.payouts.aws_sqs_queue.this.redrive_policy (terraform-module-variables/queue/main.tf:32) maxReceiveCount\n"), "{text}");
    // (b) set from a data source: a TODO names the variable and the call,
    // and the queue says what is missing; the default 5 is not used.
    assert!(text.contains("\n# TODO: variable `max_receive_count` of module.refunds (terraform-module-variables/queue/main.tf:14) is set by the call (terraform-module-variables/main.tf:45) to a value not known before apply here: the values that use it are left out; set them in an overlay\n"), "{text}");
    assert!(text.contains("      to: refunds.dlq  # from module.refunds.aws_sqs_queue.this.redrive_policy (terraform-module-variables/queue/main.tf:29) deadLetterTargetArn\n    # TODO: dead_letter.after_receives: the redrive policy's maxReceiveCount is not known here (module.refunds.aws_sqs_queue.this.redrive_policy (terraform-module-variables/queue/main.tf:29)); set it here or in an overlay\n"), "{text}");
    assert_eq!(text.matches("      after_receives: ").count(), 1, "{text}");
    let expected = vec![
        // 345,600 s: each queue's default retention (F003).
        h("RH038", "card-refunds", "customer-refund", Some(345_600)),
        h("RH038", "bank-rail", "seller-payout", Some(345_600)),
        // The caller's 30 s < 6 x 60 s (F073); payouts' default 360 s is not.
        h("RH015", "refunds.this", "customer-refund", None),
        h("RH040", "-", "customer-refund", None),
        h("RH040", "-", "seller-payout", None),
    ];
    assert_eq!(horizons(&["terraform-module-variables"]), (expected, 1));
}

#[test]
fn hostile_counts_are_bounded() {
    // Far more than a block expands, values Terraform refuses, and many
    // blocks that together pass the module's limit.
    let mut tf = String::from(
        "resource \"aws_sqs_queue\" \"huge\" {\n  count = 100000000000\n}\n\
         resource \"aws_sqs_queue\" \"negative\" {\n  count = -1\n}\n\
         resource \"aws_sqs_queue\" \"half\" {\n  count = 1.5\n}\n\
         resource \"aws_sqs_queue\" \"numbers\" {\n  for_each = [1, 2]\n}\n\
         resource \"aws_sqs_queue\" \"nothing\" {\n  for_each = {}\n}\n",
    );
    for i in 0..11 {
        tf.push_str(&format!(
            "resource \"aws_sqs_queue\" \"many{i}\" {{\n  count = 1000\n  name = \"q-${{count.index}}\"\n}}\n"
        ));
    }
    let (_dir, path) = scratch("main.tf", &tf);
    let start = Instant::now();
    let (text, err, code) = import(&["terraform", &path]);
    assert!(
        start.elapsed() < Duration::from_secs(60),
        "{:?}",
        start.elapsed()
    );
    assert_eq!((code, err.as_str()), (0, quiet(&text).as_str()));
    assert!(text.contains(&format!("# TODO: aws_sqs_queue.huge is repeated by `count` ({path}:2) into 100,000,000,000 instances, more than the import expands (1,000 for one block, 10,000 in one module, fewer of a large block, in proportion to the input's size): one component stands for every instance\n")), "{text}");
    for (name, line, key) in [
        ("negative", 5, "count"),
        ("half", 8, "count"),
        ("numbers", 11, "for_each"),
    ] {
        let want = format!(
            "# TODO: aws_sqs_queue.{name} is repeated by `{key}` ({path}:{line}), whose value is not known before apply here: one component stands for every instance\n"
        );
        assert!(text.contains(&want), "{want}\n{text}");
    }
    assert!(
        text.contains(&format!(
            "# aws_sqs_queue.nothing is left out: its `for_each` is empty ({path}:14)\n"
        )),
        "{text}"
    );
    // Ten blocks of 1,000 fill the module's 10,000; the eleventh is one.
    assert!(text.contains("  many9-999:\n"), "{text}");
    assert!(text.contains(&format!("# TODO: aws_sqs_queue.many10 is repeated by `count` ({path}:57) into 1,000 instances, more than the import expands (1,000 for one block, 10,000 in one module, fewer of a large block, in proportion to the input's size): one component stands for every instance\n")), "{text}");
    assert!(text.contains("  many10:\n"), "{text}");
    assert_eq!(
        text.matches("kind: sqs-standard").count(),
        10_000 + 5,
        "{}",
        &text[..2000]
    );
}

#[test]
fn each_instance_of_an_unread_module_has_its_own_placeholders() {
    let (_dir, tf) = scratch(
        "main.tf",
        "module \"worker\" {\n  count  = 2\n  source = \"terraform-aws-modules/lambda/aws\"\n}\n\
         resource \"aws_sqs_queue\" \"q\" {\n  count = 2\n}\n\
         resource \"aws_lambda_event_source_mapping\" \"m\" {\n  count = 2\n  event_source_arn = aws_sqs_queue.q[count.index].arn\n  function_name    = module.worker[count.index].lambda_function_name\n}\n",
    );
    let (text, err, code) = import(&["terraform", &tf]);
    assert_eq!((code, err.as_str()), (0, quiet(&text).as_str()), "{text}");
    // The call's TODO once, a placeholder per instance, each queue linked
    // to its own instance's function.
    assert_eq!(text.matches("# TODO: module `worker`").count(), 1, "{text}");
    for i in 0..2 {
        assert!(text.contains(&format!("  q-{i}:\n    kind: sqs-standard  # aws_sqs_queue, from aws_sqs_queue.q[{i}] ({tf}:5)\n    delivers_to:\n      - to: worker-{i}-lambda-function  # from aws_lambda_event_source_mapping.m[{i}].function_name ({tf}:8)\n")), "{text}");
        assert!(text.contains(&format!("  worker-{i}-lambda-function:\n    kind: function  # placeholder for output `lambda_function_name` of module.worker[{i}] ({tf}:1)\n")), "{text}");
    }
}

#[test]
fn a_large_block_is_expanded_in_proportion_to_the_input() {
    // 1,000 copies of a block of some 6,000 expression nodes would read
    // 6,000,000 nodes from an input of some 36 KB: more than 16 times the
    // input (at least 1 MiB) allows.
    let tags: String = (0..3000).map(|i| format!("k{i} = \"v\"\n")).collect();
    let tf = format!(
        "resource \"aws_sqs_queue\" \"big\" {{\n  count = 1000\n  tags = {{\n{tags}  }}\n}}\n"
    );
    let (_dir, path) = scratch("main.tf", &tf);
    let start = Instant::now();
    let (text, err, code) = import(&["terraform", &path]);
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "{:?}",
        start.elapsed()
    );
    assert_eq!((code, err.as_str()), (0, quiet(&text).as_str()));
    assert!(text.contains(&format!("# TODO: aws_sqs_queue.big is repeated by `count` ({path}:2) into 1,000 instances, more than the import expands (1,000 for one block, 10,000 in one module, fewer of a large block, in proportion to the input's size): one component stands for every instance\n")), "{}", &text[..1500]);
    assert_eq!(text.matches("kind: sqs-standard").count(), 1);
    // Ten copies are read.
    let (_dir, path) = scratch("main.tf", &tf.replace("count = 1000", "count = 10"));
    let (text, _, _) = import(&["terraform", &path]);
    assert!(text.contains("  big-9:\n"), "{}", &text[..1500]);
}
