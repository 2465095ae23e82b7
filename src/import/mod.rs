//! Importing real infrastructure descriptions into manifest skeletons.
//!
//! Three readers (CloudFormation/SAM templates, Terraform plan JSON,
//! AsyncAPI documents) fill one [`Out`] model, which is written as manifest
//! YAML text: every imported value carries a comment naming where it came
//! from, and everything the input cannot tell is marked `# TODO:`.
//!
//! `check` and `horizon` accept these inputs directly: [`load`] imports them
//! in memory and loads the generated text together with the overlay
//! manifests, where a component with the id of an imported one extends it
//! (see `manifest::load::load_texts_merging`).

//!
//! The input is read by [`tree`] into the tool's one span tree of [`Node`]s
//! (the manifest reader's, with tags kept), the format found by
//! [`detect`], and the output model and its text live in [`out`].

pub mod allow;
pub mod asyncapi;
pub mod aws_export;
pub mod cloudformation;
pub mod coverage;
pub mod delivery_policy;
mod detect;
pub mod out;
mod placeholders;
pub mod terraform;
pub mod tree;

use std::path::Path;

use crate::diagnostics::SourceMap;
use crate::manifest::{self, Limits, LoadError};

pub use crate::manifest::node::{Node, Value};
pub use detect::{detect, detect_path};
pub use out::{F, Out, OutComp, OutIntent, V, comment_text, scalar};
pub use tree::parse;

/// The input formats `import` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    CloudFormation,
    Terraform,
    /// Terraform configuration: `.tf` files (HCL).
    TerraformHcl,
    AsyncApi,
    /// The JSON the AWS CLI prints about deployed resources (a folder).
    AwsExport,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::CloudFormation => "CloudFormation template",
            Format::Terraform => "Terraform plan",
            Format::TerraformHcl => "Terraform configuration",
            Format::AsyncApi => "AsyncAPI document",
            Format::AwsExport => "AWS CLI export",
        }
    }

    /// The name of several inputs of this format read as one architecture
    /// (the header of a multi-file import).
    pub fn plural(self) -> &'static str {
        match self {
            Format::CloudFormation => "CloudFormation templates",
            Format::Terraform => "Terraform plans",
            Format::TerraformHcl => "Terraform configuration",
            Format::AsyncApi => "AsyncAPI documents",
            Format::AwsExport => "AWS CLI export",
        }
    }
}

/// The result of an import: manifest text and what was left out.
#[derive(Debug, Clone)]
pub struct Imported {
    pub text: String,
    /// Resources or elements the importer does not read (also listed as
    /// comments in `text`).
    pub unsupported: Vec<String>,
}

/// Imports `text` (read from `path`) as `format`. Errors carry a source map
/// holding the input, so they render with file:line:column.
pub fn import_text(
    format: Format,
    path: &str,
    text: &str,
    params: &[(String, String)],
    limits: &Limits,
) -> Result<Imported, LoadError> {
    if format == Format::AwsExport {
        let files = [(path.to_string(), text.to_string())];
        return aws_export::import_files(path, &files, limits);
    }
    if format == Format::TerraformHcl {
        let files = [(path.to_string(), text.to_string())];
        return terraform::import_hcl(path, &files, params);
    }
    let mut sources = SourceMap::default();
    let file = sources.add(path.to_string(), text.to_string());
    if format == Format::Terraform
        && let Some(d) = terraform::hcl_given_to_plan(path, text)
    {
        return Err(LoadError {
            sources,
            diagnostics: vec![d],
        });
    }
    let result = parse(text, file, limits).and_then(|root| {
        let mut out = Out::new(path, format);
        match format {
            Format::CloudFormation => cloudformation::import(&root, params, limits, &mut out)?,
            Format::Terraform | Format::TerraformHcl => terraform::import(&root, &mut out)?,
            Format::AsyncApi => asyncapi::import(&root, &mut out)?,
            Format::AwsExport => unreachable!("read above"),
        }
        placeholders::declare_missing(&mut out);
        Ok(out)
    });
    match result {
        Ok(out) => Ok(Imported {
            unsupported: out.unsupported.iter().map(|(w, _)| w.clone()).collect(),
            text: out.render(),
        }),
        Err(d) => Err(LoadError {
            sources,
            diagnostics: vec![d],
        }),
    }
}

/// Reads a file for import, under the size limit, as UTF-8.
pub fn read_file(path: &Path, limits: &Limits) -> Result<String, LoadError> {
    manifest::load::read_text(path, limits).map_err(|d| LoadError {
        sources: SourceMap::default(),
        diagnostics: vec![d],
    })
}

/// Parses `key=value` command-line parameters.
pub fn parse_params(items: &[String]) -> Result<Vec<(String, String)>, String> {
    items
        .iter()
        .map(|s| match s.split_once('=') {
            Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_string(), v.to_string())),
            _ => Err(format!("`--parameter {s}` is not KEY=VALUE")),
        })
        .collect()
}

/// The manifest id of an imported name: `PayoutQueue` → `payout-queue`,
/// `payout_requests` → `payout-requests`, `orders.created` → `orders.created`,
/// `HTTPApi2` → `http-api2`. Word boundaries are a lower-to-upper change, an
/// upper-case run followed by a capitalised word, and `_`, space, `/`, `:`;
/// other characters outside `[a-z0-9.-]` become `-`; repeated and edge `-`
/// are dropped.
pub fn kebab(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_uppercase() {
            let prev = i.checked_sub(1).map(|j| chars[j]);
            let next = chars.get(i + 1).copied();
            let boundary = match prev {
                Some(p) if p.is_ascii_lowercase() || p.is_ascii_digit() => true,
                Some(p) if p.is_ascii_uppercase() => next.is_some_and(|n| n.is_ascii_lowercase()),
                _ => false,
            };
            if boundary {
                out.push('-');
            }
            out.push(c.to_ascii_lowercase());
        } else if c.is_ascii_lowercase() || c.is_ascii_digit() || c == '.' {
            out.push(c);
        } else {
            out.push('-');
        }
    }
    let mut clean = String::new();
    for c in out.chars() {
        if c == '-' && (clean.is_empty() || clean.ends_with('-')) {
            continue;
        }
        clean.push(c);
    }
    while clean.ends_with('-') || clean.ends_with('.') {
        clean.pop();
    }
    let clean = clean.trim_start_matches('.').to_string();
    if clean.is_empty() {
        "unnamed".to_string()
    } else {
        clean
    }
}

/// A duration in seconds as the manifest writes it (`300` → `5m`).
pub fn dur(secs: u64) -> String {
    crate::time::Dur::secs(secs).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kebab_rule() {
        assert_eq!(kebab("PayoutQueue"), "payout-queue");
        assert_eq!(kebab("payout_requests"), "payout-requests");
        assert_eq!(kebab("HTTPApi2"), "http-api2");
        assert_eq!(kebab("DLQ"), "dlq");
        assert_eq!(kebab("orders.created"), "orders.created");
        assert_eq!(kebab("user/{id}/signup"), "user-id-signup");
        assert_eq!(kebab("__"), "unnamed");
    }
}
