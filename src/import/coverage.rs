//! What an import read of its input, what it did not import, and how many
//! references it left unresolved: the coverage line every import ends with
//! (on stderr, and in the skeleton's header).
//!
//! The unit counted is the one each format is made of: a CloudFormation
//! resource (every `Resources` entry of every template read, nested
//! stacks' and CDK stacks' included), a Terraform resource (a `resource`
//! or `data` block of every module read, once whatever its `count` or
//! `for_each`; in a plan, each resource instance `planned_values` lists),
//! an AsyncAPI channel or operation. Each unit is either read (a
//! component, a link, or left out with a note saying why: a false
//! condition, `count = 0`) or not imported (listed in the header, counted
//! here by type), so `read + not imported` is every unit of the input.

use std::collections::{BTreeMap, BTreeSet};

use super::Format;

/// The prefix of the coverage line, in the header and on stderr.
pub const PREFIX: &str = "coverage: ";

/// What one import covered.
#[derive(Debug, Clone, Default)]
pub struct Coverage {
    /// The units of the input.
    pub total: usize,
    /// The units not imported, by type.
    by_type: BTreeMap<String, usize>,
    /// The units already counted as not imported (a Terraform resource
    /// whose instances are listed one by one counts once).
    counted: BTreeSet<String>,
    /// Parts of read units not imported (a SAM event of an unknown type).
    pub parts: usize,
    /// References left unresolved, each a `TODO:` in the skeleton.
    pub unresolved: usize,
}

impl Coverage {
    /// Counts a unit of type `ty` as not imported; with a `key`, once per
    /// key.
    pub fn not_imported(&mut self, ty: &str, key: Option<&str>) {
        let ty = if ty.is_empty() { "without a Type" } else { ty };
        if key.is_none_or(|k| self.counted.insert(k.to_string())) {
            *self.by_type.entry(ty.to_string()).or_default() += 1;
        }
    }

    /// The number of units not imported.
    pub fn missed(&self) -> usize {
        self.by_type.values().sum()
    }

    /// The number of units read.
    pub fn read(&self) -> usize {
        self.total.saturating_sub(self.missed())
    }

    /// `coverage: 15 resources: 12 read, 3 not imported (2
    /// AWS::IAM::Role, 1 AWS::Logs::LogGroup); 4 references unresolved
    /// (each a TODO: in the skeleton)`.
    pub fn line(&self, format: Format) -> String {
        let unit = match format {
            Format::AsyncApi => ("channel or operation", "channels and operations"),
            _ => ("resource", "resources"),
        };
        let mut s = format!(
            "{PREFIX}{} {}: {} read, {} not imported",
            self.total,
            if self.total == 1 { unit.0 } else { unit.1 },
            self.read(),
            self.missed()
        );
        if !self.by_type.is_empty() {
            let each: Vec<String> = self
                .by_type
                .iter()
                .map(|(t, n)| format!("{n} {t}"))
                .collect();
            s.push_str(&format!(" ({})", each.join(", ")));
        }
        if self.parts > 0 {
            s.push_str(&format!(
                "; {} {} not imported",
                self.parts,
                if self.parts == 1 { "event" } else { "events" }
            ));
        }
        s.push_str(&format!(
            "; {} {} unresolved",
            self.unresolved,
            if self.unresolved == 1 {
                "reference"
            } else {
                "references"
            }
        ));
        if self.unresolved > 0 {
            s.push_str(" (each a TODO: in the skeleton)");
        }
        s
    }
}

/// The coverage line of a generated skeleton's header, without `# `.
pub fn of_skeleton(text: &str) -> Option<&str> {
    text.lines()
        .take_while(|l| l.starts_with('#'))
        .find_map(|l| l.strip_prefix("# ").filter(|l| l.starts_with(PREFIX)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_counts_by_type_and_sums() {
        let mut c = Coverage {
            total: 15,
            ..Coverage::default()
        };
        c.not_imported("AWS::IAM::Role", None);
        c.not_imported("AWS::IAM::Role", Some("Resources.B"));
        c.not_imported("AWS::IAM::Role", Some("Resources.B"));
        c.not_imported("AWS::Logs::LogGroup", None);
        c.unresolved = 4;
        assert_eq!(
            c.line(Format::CloudFormation),
            "coverage: 15 resources: 12 read, 3 not imported (2 AWS::IAM::Role, 1 AWS::Logs::LogGroup); 4 references unresolved (each a TODO: in the skeleton)"
        );
        let one = Coverage {
            total: 1,
            unresolved: 1,
            parts: 1,
            ..Coverage::default()
        };
        assert_eq!(
            one.line(Format::AsyncApi),
            "coverage: 1 channel or operation: 1 read, 0 not imported; 1 event not imported; 1 reference unresolved (each a TODO: in the skeleton)"
        );
    }

    #[test]
    fn line_is_found_in_the_header() {
        let text =
            "# Generated\n# coverage: 1 resource: 1 read\n# other\nversion: 1\n# coverage: no\n";
        assert_eq!(of_skeleton(text), Some("coverage: 1 resource: 1 read"));
        assert_eq!(of_skeleton("version: 1\n"), None);
    }
}
