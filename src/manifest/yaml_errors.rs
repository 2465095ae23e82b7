//! serde-saphyr's errors in replay-audit's words.
//!
//! serde-saphyr's own texts are written for the programmer who calls it
//! (`budget breached: ScalarBytes { total_scalar_bytes: 160010 }`, "set
//! ignore_binary_tag_for_string in Options") and repeat the location that the
//! diagnostic shows apart. Every error of the manifest parser (and of the
//! `import` readers' budget) is turned into a message here, from the error's
//! variant rather than its text: what was exceeded, the count reached where
//! the parser gives it, the limit, and what to do. The remaining variants
//! take serde-saphyr's user-facing wording ([`UserMessageFormatter`]), which
//! names no option or API and carries no location.

use serde_saphyr::budget::BudgetBreach;
use serde_saphyr::{Budget, Error, MessageFormatter, UserMessageFormatter};

use super::limits::{
    ALIAS_BYTES, ALIASES_FLOOR, ANCHORS_FLOOR, MERGE_KEY_BYTES, MERGE_KEYS_FLOOR, NODES_FLOOR,
};

/// What a user can do when a budget that grows with the file is passed by
/// honest input: each file of an architecture has a budget of its own.
const SPLIT: &str = "or split the manifest into several files (each file has its own limit)";

/// The message (after "invalid YAML: ") and the help for a parser error on a
/// text of `len` bytes parsed under `budget`.
pub fn describe(e: &Error, budget: &Budget, len: usize) -> (String, Option<String>) {
    match e {
        // The use site of an alias: the error is the original one.
        Error::AliasError { error, .. } => describe(error, budget, len),
        Error::WithSnippet { error, .. } => describe(error, budget, len),
        Error::Budget { breach, .. } => breach_words(breach, budget, len),
        Error::MultipleDocuments { .. } => (
            "the file holds several YAML documents (`---`)".into(),
            Some(
                "put each document in a file of its own; several files form one architecture"
                    .into(),
            ),
        ),
        Error::UnsupportedTag { tag, .. } => (
            format!("the tag `{tag}` is not supported in a manifest"),
            Some("replay-audit does not evaluate YAML tags: write the value itself (a CloudFormation template is read by `replay-audit import cloudformation`)".into()),
        ),
        Error::DuplicateMappingKey { key, .. } => (
            match key {
                Some(k) => format!("`{k}` is defined twice in the same mapping"),
                None => "a key is defined twice in the same mapping".into(),
            },
            Some("keep one of the two entries".into()),
        ),
        Error::UnknownAnchor { .. } => (
            "this alias names no anchor defined before it".into(),
            Some("define the anchor (`&name`) before the first alias (`*name`) that uses it".into()),
        ),
        Error::BinaryNotUtf8 { .. } | Error::InvalidBinaryBase64 { .. } => (
            "a `!!binary` value cannot be read".into(),
            Some("a manifest holds text: write the value itself, without `!!binary`".into()),
        ),
        other => {
            let text = UserMessageFormatter.format_message(other);
            if text.contains("recursion limit") {
                return depth_words(None, budget);
            }
            // The scanner looks at most this far for the `:` of a key.
            if text.contains("simple key expected") {
                return (
                    format!("this key has no `:` after it within {} characters", budget.simple_key_max_lookahead),
                    Some("write `key: value` on one line; ids and field names are short".into()),
                );
            }
            (text.into_owned(), None)
        }
    }
}

/// A count over its limit: "more than LIMIT WHAT (REACHED reached)".
fn over(what: &str, limit: usize, reached: usize, len: usize) -> String {
    format!(
        "the document has more than {limit} {what} ({reached} reached), the limit for a file of {len} bytes"
    )
}

fn depth_words(depth: Option<usize>, budget: &Budget) -> (String, Option<String>) {
    let reached = depth.map(|d| format!(" ({d} reached)")).unwrap_or_default();
    (
        format!(
            "the document is nested more than {} levels deep{reached}",
            budget.max_depth
        ),
        Some("a manifest needs fewer than 10 levels of nesting; the limit is fixed".into()),
    )
}

fn breach_words(breach: &BudgetBreach, budget: &Budget, len: usize) -> (String, Option<String>) {
    let bomb = "write the values out instead of nesting aliases of aliases";
    match breach {
        BudgetBreach::Nodes { nodes } => (
            over("nodes", budget.max_nodes, *nodes, len) + " (an alias bomb?)",
            Some(format!(
                "the limit is {NODES_FLOOR} plus one node per byte of the file; {bomb}"
            )),
        ),
        BudgetBreach::Events { events } => (
            over("parser events", budget.max_events, *events, len) + " (an alias bomb?)",
            Some(format!(
                "the limit is twice {NODES_FLOOR} plus two events per byte of the file; {bomb}"
            )),
        ),
        BudgetBreach::Aliases { aliases } => (
            over("aliases (`*name`)", budget.max_aliases, *aliases, len),
            Some(format!(
                "the limit is {ALIASES_FLOOR} plus one alias per {ALIAS_BYTES} bytes of the file; write the values out instead of aliasing them, {SPLIT}"
            )),
        ),
        BudgetBreach::Anchors { anchors } => (
            over("anchors (`&name`)", budget.max_anchors, *anchors, len),
            Some(format!(
                "the limit is {ANCHORS_FLOOR} plus one anchor per {ALIAS_BYTES} bytes of the file; {SPLIT}"
            )),
        ),
        BudgetBreach::MergeKeys { merge_keys } => (
            over("merge keys (`<<`)", budget.max_merge_keys, *merge_keys, len),
            Some(format!(
                "the limit is {MERGE_KEYS_FLOOR} plus one merge key per {MERGE_KEY_BYTES} bytes of the file; write the merged values out, {SPLIT}"
            )),
        ),
        BudgetBreach::ScalarBytes { total_scalar_bytes } => (
            format!(
                "the document's values add up to more than {} bytes of text ({total_scalar_bytes} reached), the limit for a file of {len} bytes",
                budget.max_total_scalar_bytes
            ),
            Some(format!(
                "the limit is twice the file's size plus {NODES_FLOOR} bytes, which only aliases of long values pass; write those values out instead of repeating them through aliases"
            )),
        ),
        BudgetBreach::RecordedAnchorEvents {
            recorded_anchor_events,
        } => (
            over(
                "copies of anchored nodes",
                budget.max_recorded_anchor_events,
                *recorded_anchor_events,
                len,
            ),
            Some(format!(
                "anchors inside anchors are copied once per level; {bomb}"
            )),
        ),
        BudgetBreach::RecordedAnchorBytes {
            recorded_anchor_bytes,
        } => (
            over(
                "bytes of anchored text",
                budget.max_recorded_anchor_bytes,
                *recorded_anchor_bytes,
                len,
            ),
            Some(format!(
                "anchors inside anchors are copied once per level; {bomb}"
            )),
        ),
        BudgetBreach::AliasAnchorRatio { aliases, anchors } => (
            format!("the document has {aliases} aliases for {anchors} anchors (an alias bomb?)"),
            Some(bomb.into()),
        ),
        BudgetBreach::Depth { depth } => depth_words(Some(*depth), budget),
        BudgetBreach::Documents { .. } => (
            "the file holds several YAML documents (`---`)".into(),
            Some(
                "put each document in a file of its own; several files form one architecture"
                    .into(),
            ),
        ),
        BudgetBreach::InputBytes { input_bytes } => (
            format!(
                "the file is larger than {} bytes ({input_bytes} read)",
                budget.max_reader_input_bytes.unwrap_or(0)
            ),
            Some("raise the limit with --max-file-size BYTES if the file is genuine".into()),
        ),
        BudgetBreach::SequenceUnbalanced => (
            "a list or mapping ends that never began (a truncated file?)".into(),
            None,
        ),
        // Includes, properties and comments are not used by replay-audit.
        _ => (
            "the document passes a limit of the YAML reader".into(),
            Some(format!(
                "write the values out instead of aliasing them, {SPLIT}"
            )),
        ),
    }
}
