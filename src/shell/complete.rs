//! Tab completion on a terminal: command names, then ids and field names
//! after `set` and `unset`, ids after `horizon`, rule codes after `why` and
//! `explain`.

use std::borrow::Cow;

use rustyline::completion::{Completer, Pair};
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::validate::Validator;
use rustyline::{Context, Helper};

use super::COMMANDS;
use crate::manifest::load::{
    BACKUP_FIELDS, GUARD_FIELDS, IN_PROGRESS_FIELDS, KEY_FIELDS, REPLAY_FIELDS, RETRY_FIELDS,
};
use crate::rules;

// Fields below a link item (union of every link type's fields), and the
// component fields that are links.
use crate::manifest::vocabulary::{LINK_FIELDS, LINK_ITEM_FIELDS};

/// Tab completion: command names, then ids and field names, or rule codes.
pub struct Complete {
    pub ids: Vec<String>,
}

impl Complete {
    /// Candidates for the word `word` after command `cmd` (`None`: the word
    /// is the command).
    pub fn candidates(&self, cmd: Option<&str>, word: &str) -> Vec<String> {
        let pick = |list: Vec<String>| {
            list.into_iter()
                .filter(|c| c.starts_with(word))
                .collect::<Vec<_>>()
        };
        match cmd {
            None => pick(
                COMMANDS
                    .iter()
                    .map(|(c, _)| c.to_string())
                    .chain(["exit".to_string()])
                    .collect(),
            ),
            Some("why" | "explain") => {
                pick(rules::RULES.iter().map(|r| r.code.to_string()).collect())
            }
            Some("horizon") => pick(self.ids.clone()),
            Some("set" | "unset") => {
                // The longest id the word starts with, then fields.
                let id = self
                    .ids
                    .iter()
                    .filter(|id| word.starts_with(&format!("{id}.")))
                    .max_by_key(|id| id.len());
                let Some(id) = id else {
                    return pick(self.ids.iter().map(|i| format!("{i}.")).collect());
                };
                let (head, _) = word.rsplit_once('.').unwrap_or((word, ""));
                let parent = head.rsplit(['.']).next().unwrap_or("");
                let parent = parent.split('[').next().unwrap_or(parent);
                let fields: Vec<&str> = if head == id.as_str() {
                    crate::manifest::load::COMPONENT_FIELDS
                        .iter()
                        .chain(crate::manifest::load::INTENT_FIELDS)
                        .chain(crate::manifest::load::REGION_FIELDS)
                        .copied()
                        .collect()
                } else {
                    match parent {
                        "retry" => RETRY_FIELDS.to_vec(),
                        "dedup" => GUARD_FIELDS.to_vec(),
                        "in_progress" => IN_PROGRESS_FIELDS.to_vec(),
                        "backup" => BACKUP_FIELDS.to_vec(),
                        "key" => KEY_FIELDS.to_vec(),
                        "replays" => REPLAY_FIELDS.to_vec(),
                        p if LINK_FIELDS.contains(&p) => LINK_ITEM_FIELDS.to_vec(),
                        _ => Vec::new(),
                    }
                };
                let mut v = pick(fields.iter().map(|f| format!("{head}.{f}")).collect());
                v.sort();
                v.dedup();
                v
            }
            _ => Vec::new(),
        }
    }
}

impl Completer for Complete {
    type Candidate = Pair;
    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let before = &line[..pos];
        let start = before.rfind(char::is_whitespace).map_or(0, |i| i + 1);
        let word = &before[start..];
        let cmd = if start == 0 {
            None
        } else {
            before.split_whitespace().next()
        };
        let list = self.candidates(cmd, word.split('=').next().unwrap_or(word));
        Ok((
            start,
            list.into_iter()
                .map(|c| Pair {
                    display: c.clone(),
                    replacement: c,
                })
                .collect(),
        ))
    }
}

impl Hinter for Complete {
    type Hint = String;
}

impl Highlighter for Complete {
    fn highlight<'l>(&self, line: &'l str, _pos: usize) -> Cow<'l, str> {
        Cow::Borrowed(line)
    }
}

impl Validator for Complete {}

impl Helper for Complete {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completes_commands_ids_and_fields() {
        let c = Complete {
            ids: vec![
                "payout-dlq".into(),
                "payout-requests".into(),
                "seller-payout".into(),
            ],
        };
        assert_eq!(
            c.candidates(None, "he"),
            vec!["help", "horizon"]
                .into_iter()
                .filter(|x| x.starts_with("he"))
                .map(String::from)
                .collect::<Vec<_>>()
        );
        assert_eq!(
            c.candidates(Some("set"), "payout-d"),
            vec!["payout-dlq.".to_string()]
        );
        assert_eq!(
            c.candidates(Some("set"), "payout-dlq.redr"),
            vec!["payout-dlq.redrive".to_string()]
        );
        assert_eq!(
            c.candidates(Some("set"), "payout-dlq.redrive.wi"),
            vec!["payout-dlq.redrive.within".to_string()]
        );
        assert_eq!(
            c.candidates(Some("set"), "payout-requests.sends_to[0].retry.att"),
            vec!["payout-requests.sends_to[0].retry.attempts".to_string()]
        );
        assert_eq!(
            c.candidates(Some("why"), "RH00"),
            (1..=6).map(|i| format!("RH00{i}")).collect::<Vec<_>>()
        );
    }
}
