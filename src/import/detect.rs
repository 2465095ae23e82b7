//! Telling which importer reads a file, if any, cheaply enough to ask of
//! every manifest `check` is given.

use serde::de;

use super::{Format, Node, Value, parse};
use crate::manifest::Limits;

/// Which importer reads `text`, if any: a CloudFormation template (has
/// `AWSTemplateFormatVersion`, or `Resources` with `AWS::` types), a
/// Terraform plan (`format_version` with `planned_values`), or an AsyncAPI
/// document (`asyncapi`). A replay-audit manifest (`version`) is none.
///
/// `check` asks this of every file, so a manifest must be recognised
/// without building its tree: a file that names none of the formats' top
/// keys is skipped after a text search, and otherwise only the top-level
/// keys are read, unless `Resources` needs a look at its types.
pub fn detect(text: &str, limits: &Limits) -> Option<Format> {
    const MARKERS: [&str; 5] = [
        "asyncapi",
        "planned_values",
        "terraform_version",
        "AWSTemplateFormatVersion",
        "Resources",
    ];
    if !MARKERS.iter().any(|m| text.contains(m)) {
        return None;
    }
    let options = serde_saphyr::options! {
        budget: Some(limits.budget(text.len())),
        with_snippet: false,
    };
    let keys: Option<std::collections::BTreeMap<String, de::IgnoredAny>> =
        serde_saphyr::from_str_with_options(text, options).ok();
    if let Some(keys) = keys
        && !keys.contains_key("Resources")
    {
        return classify(|k| keys.contains_key(k), false);
    }
    let Ok(root) = parse(text, 0, limits) else {
        return by_lines(text);
    };
    let Value::Map(_) = root.value else {
        return None;
    };
    let aws_resources = matches!(
        root.get("Resources").map(|r| &r.value),
        Some(Value::Map(res)) if res.iter().any(|(_, r)| {
            r.get("Type")
                .and_then(Node::str)
                .is_some_and(|t| t.starts_with("AWS::"))
        })
    );
    classify(|k| root.get(k).is_some(), aws_resources)
}

/// A document that does not parse, told by a top-level key on a line of
/// its own (`asyncapi: 3.0.0`, or `"asyncapi": "3.0.0",` in JSON), so its
/// importer reports the syntax error at its place rather than the folder
/// scan skipping it as no manifest.
fn by_lines(text: &str) -> Option<Format> {
    text.lines().find_map(|line| {
        // YAML: an unquoted key at column 0; JSON: a quoted key at the
        // first level of indentation.
        let json = line.trim_start();
        let key = if line.len() - json.len() <= 4 && json.starts_with('"') {
            json[1..].split('"').next()?
        } else {
            line.split(':')
                .next()
                .filter(|k| !k.starts_with([' ', '\t', '"']))?
        };
        match key {
            "asyncapi" => Some(Format::AsyncApi),
            "AWSTemplateFormatVersion" => Some(Format::CloudFormation),
            _ => None,
        }
    })
}

/// Which importer reads the file at `path` holding `text`: a `.tf` file is
/// Terraform configuration, whatever it holds (its reader says so when it
/// holds a plan's JSON); any other file is told by [`detect`].
pub fn detect_path(path: &std::path::Path, text: &str, limits: &Limits) -> Option<Format> {
    if super::terraform::is_config_file(path) {
        return Some(Format::TerraformHcl);
    }
    detect(text, limits)
}

/// The format a document's top-level keys name (`has`), given whether its
/// `Resources` hold `AWS::` types.
fn classify(has: impl Fn(&str) -> bool, aws_resources: bool) -> Option<Format> {
    if has("version") && has("components") && !has("asyncapi") {
        return None;
    }
    if has("asyncapi") {
        return Some(Format::AsyncApi);
    }
    if has("planned_values") || (has("format_version") && has("terraform_version")) {
        return Some(Format::Terraform);
    }
    if has("AWSTemplateFormatVersion") || aws_resources {
        return Some(Format::CloudFormation);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_formats() {
        let l = Limits::default();
        assert_eq!(
            detect(
                "AWSTemplateFormatVersion: '2010-09-09'\nResources: {}\n",
                &l
            ),
            Some(Format::CloudFormation)
        );
        assert_eq!(
            detect("Resources:\n  Q:\n    Type: AWS::SQS::Queue\n", &l),
            Some(Format::CloudFormation)
        );
        assert_eq!(
            detect(
                "{\"format_version\":\"1.2\",\"terraform_version\":\"1.9.0\",\"planned_values\":{}}",
                &l
            ),
            Some(Format::Terraform)
        );
        assert_eq!(detect("asyncapi: 3.0.0\n", &l), Some(Format::AsyncApi));
        // Broken documents are still told apart, so their error is shown.
        assert_eq!(
            detect("asyncapi: 2.6.0\nchannels: { a: *b }\n", &l),
            Some(Format::AsyncApi)
        );
        assert_eq!(
            detect("{\n  \"asyncapi\": \"3.0.0\",\n  x\n", &l),
            Some(Format::AsyncApi)
        );
        assert_eq!(
            detect("AWSTemplateFormatVersion: '2010-09-09'\nResources: [\n", &l),
            Some(Format::CloudFormation)
        );
        assert_eq!(
            detect("version: 1\nResources: [\n  asyncapi: x\n", &l),
            None
        );
        assert_eq!(detect("version: 1\ncomponents: {}\n", &l), None);
        assert_eq!(detect("version: 1\n", &l), None);
    }
}
