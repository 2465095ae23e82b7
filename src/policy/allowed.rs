//! Which inline allowances ([`super::inline`]) may cover a finding, found
//! without testing every allowance against every finding: by the
//! finding's component and intent id (a map lookup each), and by its line
//! among the allowed blocks of its file.
//!
//! The blocks of one file are nested or disjoint (each is a line and the
//! lines indented deeper after it), so sorted by first line, each with the
//! nearest block that encloses it, the blocks holding a line are the last
//! block starting at or before it, or its nearest enclosing block that
//! still holds the line, and every block enclosing that one: a walk as
//! long as the nesting is deep, never a scan of the file's blocks.

use std::collections::HashMap;

use super::inline::Allowance;
use super::{Date, UnusedWaiver};
use crate::diagnostics::SourceMap;
use crate::rules::{Finding, Waived};

/// One allowed block: its first and last line, its allowances by code,
/// and the index of the nearest enclosing block of its file. Allowances on
/// one entry share its block, so a walk is as long as the nesting is deep
/// however many comments stand above an entry.
#[derive(Debug)]
struct Block {
    first: u32,
    last: u32,
    by_code: HashMap<&'static str, Vec<usize>>,
    parent: Option<usize>,
}

/// The allowances of a manifest, filed for matching.
#[derive(Debug, Default)]
pub struct AllowIndex {
    by_component: HashMap<(&'static str, String), Vec<usize>>,
    by_intent: HashMap<(&'static str, String), Vec<usize>>,
    /// Per file, its blocks sorted by first line (enclosing block first).
    blocks: HashMap<u32, Vec<Block>>,
}

impl AllowIndex {
    pub fn new(allowances: &[Allowance]) -> AllowIndex {
        let mut index = AllowIndex::default();
        let mut blocks: HashMap<(u32, u32, u32), HashMap<&'static str, Vec<usize>>> =
            HashMap::new();
        for (i, a) in allowances.iter().enumerate() {
            if let Some(c) = &a.component {
                let key = (a.rule.code, c.clone());
                index.by_component.entry(key).or_default().push(i);
            }
            if let Some(id) = &a.intent {
                let key = (a.rule.code, id.clone());
                index.by_intent.entry(key).or_default().push(i);
            }
            if let Some((first, last)) = a.lines {
                let block = blocks.entry((a.loc.file, first, last)).or_default();
                block.entry(a.rule.code).or_default().push(i);
            }
        }
        for ((file, first, last), by_code) in blocks {
            index.blocks.entry(file).or_default().push(Block {
                first,
                last,
                by_code,
                parent: None,
            });
        }
        for blocks in index.blocks.values_mut() {
            blocks.sort_by_key(|b| (b.first, std::cmp::Reverse(b.last)));
            let mut open: Vec<usize> = Vec::new();
            for i in 0..blocks.len() {
                while open
                    .last()
                    .is_some_and(|&o| blocks[o].last < blocks[i].first)
                {
                    open.pop();
                }
                blocks[i].parent = open.last().copied();
                open.push(i);
            }
        }
        index
    }

    /// The allowances that may cover `f` (same code, and its component,
    /// intent or line), ascending, each once.
    pub fn candidates(&self, f: &Finding) -> Vec<usize> {
        let code = f.rule.code;
        let mut out = Vec::new();
        for (map, id) in [
            (&self.by_component, f.component.as_deref()),
            (&self.by_intent, f.intent.as_deref()),
        ] {
            if let Some(ids) = id.and_then(|id| map.get(&(code, id.to_string()))) {
                out.extend_from_slice(ids);
            }
        }
        if let Some(loc) = f.loc
            && let Some(blocks) = self.blocks.get(&loc.file)
        {
            let before = blocks.partition_point(|b| b.first <= loc.line);
            let mut at = before.checked_sub(1);
            while let Some(i) = at {
                if blocks[i].last >= loc.line {
                    break;
                }
                at = blocks[i].parent;
            }
            while let Some(i) = at {
                if let Some(ids) = blocks[i].by_code.get(code) {
                    out.extend_from_slice(ids);
                }
                at = blocks[i].parent;
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// Marks findings with the inline allowances that cover them, remembering
/// which allowances were used.
pub struct Marker<'a> {
    allowances: &'a [Allowance],
    sources: &'a SourceMap,
    today: Date,
    index: AllowIndex,
    used: Vec<bool>,
}

impl<'a> Marker<'a> {
    pub fn new(allowances: &'a [Allowance], sources: &'a SourceMap, today: Date) -> Self {
        Marker {
            allowances,
            sources,
            today,
            index: AllowIndex::new(allowances),
            used: vec![false; allowances.len()],
        }
    }

    /// Marks `f` allowed by the first live allowance that covers it (in
    /// file order) unless a policy waiver already did; every allowance
    /// that covers it counts as used. A finding covered only by expired
    /// ones says so in its message.
    pub fn mark(&mut self, f: &mut Finding) {
        if self.allowances.is_empty() {
            return;
        }
        let mut expired = None;
        for i in self.index.candidates(f) {
            let a = &self.allowances[i];
            self.used[i] = true;
            if a.expired(self.today) {
                expired.get_or_insert(a);
            } else if f.waived.is_none() {
                f.waived = Some(Waived {
                    reason: a.reason.clone(),
                    ticket: None,
                    expires: a.until.map(|d| d.to_string()),
                    inline: Some(self.sources.location(a.loc)),
                });
            }
        }
        if f.waived.is_none()
            && let Some(a) = expired
        {
            f.message.push_str(&format!(
                " (inline allowance expired on {}: {}, at {})",
                a.until.map(|d| d.to_string()).unwrap_or_default(),
                a.reason,
                self.sources.display(a.loc)
            ));
        }
    }

    /// The allowances that covered no finding.
    pub fn unused(&self) -> Vec<UnusedWaiver> {
        self.allowances
            .iter()
            .zip(&self.used)
            .filter(|(_, u)| !**u)
            .map(|(a, _)| UnusedWaiver {
                code: a.rule.code,
                intent: a.intent.clone(),
                component: a.component.clone(),
                reason: a.reason.clone(),
                location: self.sources.location(a.loc),
                inline: true,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostics::Loc;
    use crate::rules::{Code, rule};

    fn allowance(code: &str, lines: (u32, u32), component: Option<&str>) -> Allowance {
        Allowance {
            rule: rule(code).expect("a rule"),
            reason: "r".into(),
            until: None,
            loc: Loc {
                file: 0,
                line: lines.0 - 1,
                col: 3,
            },
            component: component.map(str::to_string),
            intent: None,
            lines: Some(lines),
        }
    }

    fn at(code: Code, line: u32) -> Finding {
        Finding::new(code, "m").at(Loc {
            file: 0,
            line,
            col: 5,
        })
    }

    /// Nested and disjoint blocks: a line finds every block that holds it
    /// (walking up from the last block starting before it), of its code.
    #[test]
    fn a_line_finds_every_enclosing_block_of_its_code() {
        let all = [
            allowance("RH001", (1, 10), Some("a")),
            allowance("RH001", (3, 5), None),
            allowance("RH004", (7, 8), None),
            allowance("RH001", (3, 5), None),
            allowance("RH001", (12, 12), None),
        ];
        let index = AllowIndex::new(&all);
        assert_eq!(index.candidates(&at(Code::RH001, 4)), vec![0, 1, 3]);
        assert_eq!(index.candidates(&at(Code::RH001, 6)), vec![0]);
        assert_eq!(index.candidates(&at(Code::RH001, 8)), vec![0]);
        assert_eq!(index.candidates(&at(Code::RH004, 8)), vec![2]);
        assert_eq!(index.candidates(&at(Code::RH001, 11)), Vec::<usize>::new());
        assert_eq!(index.candidates(&at(Code::RH001, 12)), vec![4]);
        // Outside every block, by its component only.
        let f = at(Code::RH001, 40).component("a");
        assert_eq!(index.candidates(&f), vec![0]);
        let f = at(Code::RH004, 40).component("a");
        assert_eq!(index.candidates(&f), Vec::<usize>::new());
    }
}
