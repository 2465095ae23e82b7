//! Inline allowances written in infrastructure, carried into the skeleton
//! as the comment the manifest reader understands
//! ([`crate::policy::inline`]), above the component they accept findings
//! of: one mechanism for manifests, templates and Terraform.
//!
//! - CloudFormation: a resource's `Metadata: { replay-audit: { allow: [{
//!   code: RH001, reason: ..., until: 2027-03-31 }] } }` (`code` may be a
//!   list of codes);
//! - Terraform: a `# replay-audit: allow ...` (or `//`) comment on the
//!   lines directly above a `resource` block ([`comment_above`]).
//!
//! Each written comment ends with the source of the line (`# from ...
//! (template.yaml:12)`), so its place, and any error in it, moves to the
//! template line ([`crate::manifest::load::origin`]). Nothing is checked here: the manifest
//! reader checks every allowance the same way.

use super::Out;
use crate::manifest::yaml::{Node, Value};
use crate::policy::inline::MARKER;

/// The key under which a Terraform configuration's resource carries the
/// allowance comments above its block into its plan-shaped node; no plan
/// has it.
pub const ALLOW_KEY: &str = "replay_audit_allow";

/// Writes the allowances a Terraform resource (plan-shaped `node`, at
/// `address`) carries under [`ALLOW_KEY`] above its component `id`.
pub fn terraform(out: &mut Out, node: &Node, address: &str, id: &str) {
    let Some(list) = node.get(ALLOW_KEY) else {
        return;
    };
    let lines = (list.items().iter())
        .filter_map(|n| Some(format!("{}  # {}", n.str()?, out.src(address, n))))
        .collect();
    out.allow(id, lines);
}

/// The allowance lines of a CloudFormation resource `r` (logical id `lid`),
/// each with its source.
pub fn from_metadata(out: &Out, lid: &str, r: &Node) -> Vec<String> {
    let Some(list) = r.at(&["Metadata", "replay-audit", "allow"]) else {
        return Vec::new();
    };
    let path = format!("Resources.{lid}.Metadata.replay-audit.allow");
    let items: Vec<&Node> = match &list.value {
        Value::Seq(items) => items.iter().collect(),
        _ => vec![list],
    };
    items
        .into_iter()
        .enumerate()
        .map(|(i, item)| {
            let codes: Vec<String> = match item.get("code") {
                Some(c) if matches!(c.value, Value::Seq(_)) => {
                    c.items().iter().filter_map(Node::text).collect()
                }
                Some(c) => c.text().into_iter().collect(),
                None => item.text().into_iter().collect(),
            };
            let mut line = format!("{MARKER} allow {}", words(&codes.join(", ")));
            if let Some(until) = item.get("until").and_then(Node::text) {
                line.push_str(&format!(" until {}", words(&until)));
            }
            if let Some(reason) = item.get("reason").and_then(Node::text) {
                line.push_str(&format!(" -- {reason}"));
            }
            format!("{line}  # {}", out.src(&format!("{path}[{i}]"), item))
        })
        .collect()
}

/// A code or date as one comment word: no `--` that would start the
/// reason, no `#` or line break.
fn words(s: &str) -> String {
    s.replace("--", "- -").replace(['#', '\n', '\r'], " ")
}

/// The text after `#` or `//` of each allowance comment in the run of
/// comment lines directly above line `line` (from 1) of `text`, top first,
/// with its line. The walk stops at the first line that is not a comment,
/// so each line is looked at for one block at most.
pub fn comment_above<'t>(lines: &[&'t str], line: u32) -> Vec<(u32, &'t str)> {
    let mut out = Vec::new();
    let mut i = (line as usize).saturating_sub(1);
    while i > 0 {
        let l = lines[i - 1].trim();
        let Some(body) = l.strip_prefix('#').or_else(|| l.strip_prefix("//")) else {
            break;
        };
        let body = body.trim_start();
        if body.starts_with(MARKER) {
            out.push((i as u32, body));
        }
        i -= 1;
    }
    out.reverse();
    out
}
