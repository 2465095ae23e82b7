//! The SARIF 2.1.0 objects replay-audit writes, as serde structs: the
//! subset it fills in, checked against the official schema in
//! `tests/sarif_schema.rs`.

use std::collections::BTreeMap;

use serde::Serialize;

/// A log; its runs' results are `R` (a list of values by default, or
/// [`Results`], written as they are made).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Log<R = Vec<SarifResult>> {
    #[serde(rename = "$schema")]
    pub schema: &'static str,
    pub version: &'static str,
    pub runs: Vec<Run<R>>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Run<R = Vec<SarifResult>> {
    pub tool: Tool,
    /// One invocation: whether the input could be analysed, and if not why.
    pub invocations: Vec<Invocation>,
    /// `%SRCROOT%`, the repository root that artifact URIs are relative to.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub original_uri_base_ids: BTreeMap<&'static str, BaseUri>,
    /// Which architecture this run is (`check --each` writes one run each).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub automation_details: Option<AutomationDetails>,
    /// Our columns count characters (Unicode scalar values), not UTF-16 units.
    pub column_kind: &'static str,
    pub results: R,
    /// Which policy file applied (`"policy"`: its path, or `null` when
    /// none was found and the defaults applied).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub properties: Option<RunProperties>,
}

/// The run's property bag.
#[derive(Debug, Serialize)]
pub struct RunProperties {
    pub policy: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct BaseUri {
    pub uri: String,
}

#[derive(Debug, Serialize)]
pub struct AutomationDetails {
    pub id: String,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Invocation {
    pub execution_successful: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tool_execution_notifications: Vec<Notification>,
}

/// An input error as the invocation reports it.
#[derive(Debug, Serialize)]
pub struct Notification {
    pub level: &'static str,
    pub message: Text,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub locations: Vec<Location>,
}

#[derive(Debug, Serialize)]
pub struct Tool {
    pub driver: Driver,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Driver {
    pub name: &'static str,
    pub version: &'static str,
    pub semantic_version: &'static str,
    pub information_uri: &'static str,
    pub rules: Vec<Descriptor>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Descriptor {
    pub id: &'static str,
    pub name: &'static str,
    pub short_description: Text,
    pub full_description: Text,
    pub help: Help,
    /// The rule's page, only when there is one to point at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help_uri: Option<String>,
    pub default_configuration: Configuration,
}

#[derive(Debug, Serialize)]
pub struct Text {
    pub text: String,
}

#[derive(Debug, Serialize)]
pub struct Help {
    pub text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub markdown: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct Configuration {
    pub level: &'static str,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SarifResult {
    pub rule_id: &'static str,
    pub rule_index: usize,
    pub level: &'static str,
    pub message: Text,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub locations: Vec<Location>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub related_locations: Vec<Location>,
    pub partial_fingerprints: BTreeMap<&'static str, String>,
    /// Empty: no suppression applies. A waived finding has one `external` entry.
    pub suppressions: Vec<Suppression>,
    /// `unchanged` for a finding the baseline lists (kept in the log only
    /// with `--include-accepted`); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline_state: Option<&'static str>,
    pub properties: Properties,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Location {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<usize>,
    pub physical_location: PhysicalLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<Text>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PhysicalLocation {
    pub artifact_location: ArtifactLocation,
    pub region: Region,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ArtifactLocation {
    pub uri: String,
    /// [`SRCROOT`] when `uri` is relative to the repository root.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uri_base_id: Option<&'static str>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Region {
    pub start_line: u32,
    pub start_column: u32,
}

#[derive(Debug, Serialize)]
pub struct Suppression {
    pub kind: &'static str,
    pub justification: String,
}

/// replay-audit's own values, as in `--format json`.
pub type Properties = crate::report::json::FindingValues;
