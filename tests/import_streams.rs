//! `import` and `check` on DynamoDB tables whose stream is read (by a
//! Lambda mapping or a pipe) and on Step Functions tasks that write a
//! table: the table `sends_to` its stream, the stream's retention is left
//! to the user (not in the platform facts), and a DynamoDB task `calls`
//! the table its `TableName` names.

#[path = "common/imports.rs"]
mod imports;
use imports::{check, findings, quiet, run, t};

/// The messages of the findings `check` prints with `code`.
fn messages(args: &[&str], code: &str) -> Vec<String> {
    findings(args)
        .0
        .iter()
        .filter(|f| f["code"] == code)
        .map(|f| f["message"].as_str().unwrap().to_string())
        .collect()
}

const STREAM_TODO: &str = "    # TODO: retention: how long the stream keeps a record (not in the platform facts); until it is declared the analysis assumes one (RH041)\n";

/// The findings both importers give for the table, its stream and the
/// function of `ddb-stream-origin`: the effect is reached from the table
/// (no RH043), and the undeclared retention is an assumption, stated.
fn stream_origin_findings() -> (Vec<imports::Found>, i32) {
    (
        vec![
            t("RH003", "confirmations", "order-placed"),
            t("RH041", "orders-stream", "order-placed"),
            t("RH041", "orders-stream", "order-placed"),
            t("RH040", "-", "order-placed"),
        ],
        1,
    )
}

/// A SAM DynamoDB event on `!GetAtt Orders.StreamArn`: the table sends to
/// `orders-stream` (cited at its StreamSpecification), which delivers to
/// the function with the event's retries; no retention is invented.
#[test]
fn a_table_sends_to_the_stream_its_function_reads() {
    let (text, err, code) = run(&["import", "cloudformation", "ddb-stream-origin.yaml"]);
    assert_eq!((code, err.as_str()), (0, quiet(&text).as_str()));
    assert!(text.contains("  orders:\n    kind: dynamodb-table  # AWS::DynamoDB::Table, from Resources.Orders (ddb-stream-origin.yaml:27)\n    sends_to:\n      - to: orders-stream  # from Resources.Orders.Properties.StreamSpecification (ddb-stream-origin.yaml:38)\n"), "{text}");
    assert!(text.contains("  orders-stream:\n    kind: stream  # DynamoDB stream of Resources.Orders\n    delivers_to:\n      - to: on-insert  # from Resources.OnInsert.Properties.Events.Inserts (event of OnInsert) (ddb-stream-origin.yaml:17)\n        retry:\n          attempts: 3  # from Resources.OnInsert.Properties.Events.Inserts.Properties.MaximumRetryAttempts (ddb-stream-origin.yaml:22): 2 retries + the first attempt\n"), "{text}");
    assert!(text.contains(STREAM_TODO), "{text}");
    assert!(!text.contains("\n    retention:"), "{text}");
    let args = ["ddb-stream-origin.yaml", "ddb-stream-origin.overlay.yaml"];
    assert_eq!(check(&args), stream_origin_findings());
    assert_eq!(
        messages(&args, "RH041"),
        [
            "`orders-stream.delivery` is not given and kind `stream` has no documented default: the analysis assumed at-least-once",
            "`orders-stream.retention` is not given and kind `stream` has no documented default: the analysis assumed unbounded",
        ]
    );
}

/// The same architecture in Terraform (`stream_enabled`, a mapping on
/// `stream_arn`): the same links, the same TODO and the same findings.
#[test]
fn a_terraform_table_sends_to_its_stream() {
    let (text, err, code) = run(&["import", "terraform", "terraform-table-stream/main.tf"]);
    assert_eq!((code, err.as_str()), (0, quiet(&text).as_str()));
    assert!(text.contains("    sends_to:\n      - to: orders-stream  # from aws_dynamodb_table.orders.stream_enabled (terraform-table-stream/main.tf:22)\n"), "{text}");
    assert!(
        text.contains(
            "  orders-stream:\n    kind: stream  # DynamoDB stream of aws_dynamodb_table.orders\n"
        ),
        "{text}"
    );
    assert!(text.contains(STREAM_TODO), "{text}");
    assert!(!text.contains("\n    retention:"), "{text}");
    assert_eq!(check(&["terraform-table-stream"]), stream_origin_findings());
}

/// A Terraform pipe whose source is a table's `stream_arn` reads the
/// table's stream: the table itself delivered to the pipe before, and
/// `check` refused the importer's output ("a store does not deliver").
#[test]
fn a_terraform_pipe_reads_the_table_stream() {
    let dir = tempfile::tempdir().unwrap();
    let tf = dir.path().join("main.tf");
    std::fs::write(&tf, "resource \"aws_dynamodb_table\" \"t\" {\n  name = \"t\"\n  hash_key = \"id\"\n  stream_enabled = true\n}\nresource \"aws_sfn_state_machine\" \"w\" {\n  name = \"w\"\n  definition = \"{}\"\n  role_arn = \"r\"\n}\nresource \"aws_pipes_pipe\" \"p\" {\n  source = aws_dynamodb_table.t.stream_arn\n  target = aws_sfn_state_machine.w.arn\n  role_arn = \"r\"\n}\n").unwrap();
    let (text, err, code) = run(&["import", "terraform", tf.to_str().unwrap()]);
    assert_eq!((code, err.as_str()), (0, quiet(&text).as_str()));
    assert!(text.contains("  t-stream:\n    kind: stream  # DynamoDB stream of aws_dynamodb_table.t\n    delivers_to:\n      - to: p  # from aws_pipes_pipe.p.source ("), "{text}");
    assert!(
        text.contains(
            "    sends_to:\n      - to: t-stream  # from aws_dynamodb_table.t.stream_enabled ("
        ),
        "{text}"
    );
    let out = dir.path().join("out.yaml");
    std::fs::write(&out, &text).unwrap();
    let (c, e, code) = run(&["check", out.to_str().unwrap(), "--format", "concise"]);
    // Valid: the only finding is RH044 (no intent is declared).
    assert_eq!(
        (code, e.as_str(), c.lines().find(|l| l.ends_with(" info"))),
        (0, "", Some("0 error(s), 1 warning(s), 0 info"))
    );
}

/// Step Functions DynamoDB writes (`putItem`, `deleteItem`) call the table
/// their `TableName` names, with the Task's Retry; `getItem` only reads
/// and stays a TODO. Arithmetic in the overlay: 3 s + 6 s = 9 s.
#[test]
fn step_functions_dynamodb_tasks_call_their_table() {
    let (text, err, code) = run(&["import", "cloudformation", "step-functions-dynamodb.yaml"]);
    assert_eq!((code, err.as_str()), (0, quiet(&text).as_str()));
    assert!(text.contains("    calls:\n      - to: payments  # from Resources.RecordFlow.Properties.Definition.States.Record (step-functions-dynamodb.yaml:43): task Record writes the table (dynamodb:putItem)\n        retry:\n          attempts: 3  # from Resources.RecordFlow.Properties.Definition.States.Record.Retry[0].MaxAttempts (step-functions-dynamodb.yaml:52): 2 retries + the first attempt\n          backoff: 3s  # from Resources.RecordFlow.Properties.Definition.States.Record.Retry[0].IntervalSeconds (step-functions-dynamodb.yaml:51)\n          multiplier: 2  # from Resources.RecordFlow.Properties.Definition.States.Record.Retry[0].BackoffRate (step-functions-dynamodb.yaml:53)\n        passes_key: false  # TODO: does the task pass the idempotency key?\n"), "{text}");
    assert!(text.contains("      - to: holds  # from Resources.RecordFlow.Properties.Definition.States.Release (step-functions-dynamodb.yaml:56): task Release writes the table (dynamodb:deleteItem)\n        passes_key: false  #"), "{text}");
    assert!(text.contains("    # TODO: task Lookup calls `arn:aws:states:::dynamodb:getItem`, not a resource of this template"), "{text}");
    let args = [
        "step-functions-dynamodb.yaml",
        "step-functions-dynamodb.overlay.yaml",
    ];
    assert_eq!(
        check(&args),
        (
            vec![
                t("RH041", "record-flow", "record-payment"),
                t("RH040", "-", "record-payment")
            ],
            0
        )
    );
    let (h, _, _) = run(&[&["horizon"], &args[..]].concat());
    assert!(
        h.contains("payments (effect): horizon 9s, window unbounded"),
        "{h}"
    );
    assert!(
        h.contains("calls: retry 3 attempts: (0s + 3s) + (0s + 6s) = 9s"),
        "{h}"
    );
}

/// One template's header names its format in the singular, several name
/// every template and say "templates".
#[test]
fn the_header_names_every_template() {
    let (one, _, _) = run(&["import", "cloudformation", "step-functions-dynamodb.yaml"]);
    assert!(one.starts_with("# Generated by `replay-audit import` from step-functions-dynamodb.yaml (CloudFormation template).\n"), "{one}");
    let (two, err, code) = run(&[
        "import",
        "cloudformation",
        "ddb-stream-origin.yaml",
        "step-functions-dynamodb.yaml",
    ]);
    assert_eq!((code, err.as_str()), (0, quiet(&two).as_str()));
    assert!(two.starts_with("# Generated by `replay-audit import` from ddb-stream-origin.yaml, step-functions-dynamodb.yaml (CloudFormation templates).\n"), "{two}");
}
