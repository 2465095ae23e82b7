//! Tab completion on a terminal: command names, then ids and field names
//! after `set` and `unset` (for a component, only the fields its kind
//! uses: [`kind_fields`]), ids after `horizon`, rule codes after `why` and
//! `explain`.

use std::borrow::Cow;
use std::collections::HashMap;

use rustyline::completion::{Completer, Pair};
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::validate::Validator;
use rustyline::{Context, Helper};

use super::{COMMANDS, Shell};
use replay_audit::analysis::effective;
use replay_audit::catalog::Generic;
use replay_audit::manifest::vocabulary::{
    BACKUP_FIELDS, GUARD_FIELDS, IN_PROGRESS_FIELDS, KEY_FIELDS, REPLAY_FIELDS, RETRY_FIELDS,
};
use replay_audit::rules;

// Fields below a link item (union of every link type's fields), and the
// component fields that are links.
use replay_audit::manifest::vocabulary::{LINK_FIELDS, LINK_ITEM_FIELDS, Obj};

/// Tab completion: command names, then ids and field names, or rule codes.
pub struct Complete {
    pub ids: Vec<String>,
    /// The fields offered after `ID.`, per id; an id not listed gets every
    /// component, intent and region field.
    pub fields: HashMap<String, Vec<&'static str>>,
}

/// The component fields a generic kind uses, in the vocabulary's order:
/// the rows that apply to it.
pub fn kind_fields(g: Generic) -> Vec<&'static str> {
    Obj::Component
        .fields()
        .iter()
        .filter(|f| f.kinds.has(g))
        .map(|f| f.name)
        .collect()
}

impl Shell {
    /// The completion of this session: its ids, and per id its fields.
    pub fn completion(&self) -> Complete {
        let m = &self.current.manifest;
        let mut fields = HashMap::new();
        for c in &m.components {
            fields.insert(c.id.as_str().to_owned(), kind_fields(effective::generic(c)));
        }
        for i in &m.intents {
            fields.insert(
                i.id.to_string(),
                replay_audit::manifest::vocabulary::INTENT_FIELDS.to_vec(),
            );
        }
        for r in &m.regions {
            fields.insert(
                r.id.clone(),
                replay_audit::manifest::vocabulary::REGION_FIELDS.to_vec(),
            );
        }
        Complete {
            ids: self.ids(),
            fields,
        }
    }
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
                    if let Some(own) = self.fields.get(id) {
                        let mut v = pick(own.iter().map(|f| format!("{head}.{f}")).collect());
                        v.sort();
                        return v;
                    }
                    replay_audit::manifest::vocabulary::COMPONENT_FIELDS
                        .iter()
                        .chain(replay_audit::manifest::vocabulary::INTENT_FIELDS)
                        .chain(replay_audit::manifest::vocabulary::REGION_FIELDS)
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
            fields: HashMap::new(),
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

    #[test]
    fn a_component_is_offered_the_fields_of_its_kind() {
        let mut fields = HashMap::new();
        fields.insert("keys".to_string(), kind_fields(Generic::Store));
        fields.insert("q".to_string(), kind_fields(Generic::Queue));
        fields.insert("bank".to_string(), kind_fields(Generic::External));
        let c = Complete {
            ids: vec!["keys".into(), "q".into(), "bank".into()],
            fields,
        };
        assert_eq!(
            c.candidates(Some("set"), "keys.re"),
            [
                "keys.regions",
                "keys.replication",
                "keys.resource",
                "keys.retention"
            ]
        );
        assert_eq!(
            c.candidates(Some("set"), "q.re"),
            ["q.redrive", "q.regions", "q.resource", "q.retention"]
        );
        assert_eq!(
            c.candidates(Some("set"), "bank.k"),
            ["bank.key_scope", "bank.key_window", "bank.kind"]
        );
        // Every kind may name the resource it stands for; a witness is a
        // store's.
        assert!(kind_fields(Generic::Queue).contains(&"resource"));
        assert!(kind_fields(Generic::Store).contains(&"witness"));
        assert!(!kind_fields(Generic::Queue).contains(&"witness"));
        assert!(
            c.candidates(Some("set"), "bank.")
                .iter()
                .all(|f| !f.contains("retention"))
        );
        // Below the component's own fields, the nested lists as before.
        assert_eq!(
            c.candidates(Some("set"), "q.redrive.wi"),
            ["q.redrive.within"]
        );
    }
}
