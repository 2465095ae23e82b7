//! Which CLI output a JSON file holds, told by its top-level keys, and the
//! file-naming convention that gives the resource an output does not name.

use super::Node;
use crate::diagnostics::Diagnostic;

/// The CLI outputs (and Config rows) the importer reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    /// `aws sqs get-queue-attributes --attribute-names All`: `Attributes`.
    SqsAttributes,
    /// `aws sns list-subscriptions-by-topic`: `Subscriptions`.
    SnsSubscriptions,
    /// `aws sns get-subscription-attributes`: `Attributes` with `SubscriptionArn`.
    SnsSubscriptionAttributes,
    /// A Config row of an `AWS::SNS::Topic`.
    SnsTopic,
    /// `aws events list-rules`: `Rules`.
    EventsRules,
    /// `aws events list-targets-by-rule`: `Targets`.
    EventsTargets,
    /// A Config row of an `AWS::Events::Rule`.
    EventsRule,
    /// `aws pipes describe-pipe`: `Arn`, `Source`, `Target`.
    Pipe,
    /// `aws scheduler get-schedule`: `Arn`, `Target`, `FlexibleTimeWindow`.
    Schedule,
    /// `aws lambda get-function-configuration`: `FunctionArn`, `FunctionName`.
    LambdaFunction,
    /// `aws lambda list-event-source-mappings`: `EventSourceMappings`.
    LambdaMappings,
    /// `aws lambda get-function-event-invoke-config`: `FunctionArn` and
    /// the asynchronous settings, no `FunctionName`.
    LambdaInvokeConfig,
    /// `aws dynamodb describe-table`: `Table`.
    DynamoTable,
    /// `aws dynamodb describe-time-to-live`: `TimeToLiveDescription`.
    DynamoTtl,
    /// `aws dynamodb describe-continuous-backups`: `ContinuousBackupsDescription`.
    DynamoBackups,
    /// `aws stepfunctions describe-state-machine`: `stateMachineArn`.
    StateMachine,
    /// `aws kinesis describe-stream-summary`: `StreamDescriptionSummary`.
    Kinesis,
    /// `aws configservice select-resource-config` (or
    /// `select-aggregate-resource-config`): `Results` and `QueryInfo`.
    ConfigQuery,
}

/// The file names the export script writes, for outputs that do not name
/// their resource: (prefix, command, what the name part is).
pub const NAMING: &[(&str, &str, &str)] = &[
    (
        "sqs",
        "aws sqs get-queue-attributes --attribute-names All",
        "queue name",
    ),
    (
        "sns-subscriptions",
        "aws sns list-subscriptions-by-topic",
        "topic name",
    ),
    (
        "sns-subscription",
        "aws sns get-subscription-attributes",
        "topic name, a number",
    ),
    ("events-rules", "aws events list-rules", "event bus name"),
    (
        "events-targets",
        "aws events list-targets-by-rule",
        "rule name",
    ),
    ("pipes", "aws pipes describe-pipe", "pipe name"),
    ("scheduler", "aws scheduler get-schedule", "schedule name"),
    (
        "lambda-function",
        "aws lambda get-function-configuration",
        "function name",
    ),
    (
        "lambda-mappings",
        "aws lambda list-event-source-mappings",
        "function name",
    ),
    (
        "lambda-invoke-config",
        "aws lambda get-function-event-invoke-config",
        "function name",
    ),
    (
        "dynamodb-table",
        "aws dynamodb describe-table",
        "table name",
    ),
    (
        "dynamodb-ttl",
        "aws dynamodb describe-time-to-live",
        "table name",
    ),
    (
        "dynamodb-backups",
        "aws dynamodb describe-continuous-backups",
        "table name",
    ),
    (
        "states",
        "aws stepfunctions describe-state-machine",
        "state machine name",
    ),
    (
        "kinesis",
        "aws kinesis describe-stream-summary",
        "stream name",
    ),
    (
        "config",
        "aws configservice select-resource-config",
        "(none)",
    ),
];

/// The shape of a parsed file, by its top-level keys.
pub(super) fn of(root: &Node) -> Option<Shape> {
    let has = |k: &str| root.get(k).is_some();
    let shape = if has("Results") && has("QueryInfo") {
        Shape::ConfigQuery
    } else if let Some(a) = root.get("Attributes") {
        if a.get("SubscriptionArn").is_some() {
            Shape::SnsSubscriptionAttributes
        } else {
            Shape::SqsAttributes
        }
    } else if has("EventSourceMappings") {
        Shape::LambdaMappings
    } else if has("Table") {
        Shape::DynamoTable
    } else if has("TimeToLiveDescription") {
        Shape::DynamoTtl
    } else if has("ContinuousBackupsDescription") {
        Shape::DynamoBackups
    } else if has("Subscriptions") {
        Shape::SnsSubscriptions
    } else if has("Rules") {
        Shape::EventsRules
    } else if has("Targets") {
        Shape::EventsTargets
    } else if has("stateMachineArn") {
        Shape::StateMachine
    } else if has("StreamDescriptionSummary") {
        Shape::Kinesis
    } else if has("FunctionArn") && has("FunctionName") {
        Shape::LambdaFunction
    } else if has("FunctionArn") {
        Shape::LambdaInvokeConfig
    } else if has("Arn") && has("Source") && has("Target") {
        Shape::Pipe
    } else if has("Arn") && has("Target") && has("FlexibleTimeWindow") {
        Shape::Schedule
    } else {
        return None;
    };
    Some(shape)
}

/// The resource name a file name gives: the part between the prefix and
/// `.json` (`events-targets.order-placed.json` → `order-placed`).
pub(super) fn hint(path: &str) -> Option<String> {
    let file = std::path::Path::new(path).file_name()?.to_str()?;
    let stem = file.strip_suffix(".json")?;
    let (_, name) = stem.split_once('.')?;
    (!name.is_empty()).then(|| name.to_string())
}

/// The error of a JSON file of no known shape.
pub(super) fn unknown(root: &Node, name: &str) -> Diagnostic {
    let keys: Vec<&str> = root
        .entries()
        .iter()
        .map(|(k, _)| k.key())
        .take(5)
        .collect();
    let found = if keys.is_empty() {
        format!("no top-level keys ({})", root.value.type_name())
    } else {
        format!("top-level keys {}", keys.join(", "))
    };
    let commands: Vec<&str> = NAMING.iter().map(|(_, c, _)| *c).collect();
    root.error_at(
        crate::diagnostics::echo(&format!(
            "`{name}` is not an AWS CLI output the aws-export importer reads ({found})"
        )),
        format!(
            "move it out of the folder, or save the JSON of one of: {}",
            commands.join("; ")
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_name_comes_from_the_file_name() {
        assert_eq!(
            hint("x/events-targets.order.placed.json").as_deref(),
            Some("order.placed")
        );
        assert_eq!(
            hint("dynamodb-ttl.payments.json").as_deref(),
            Some("payments")
        );
        assert_eq!(hint("config.json"), None);
    }
}
