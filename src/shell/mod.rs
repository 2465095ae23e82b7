//! `shell`: an interactive session of what-if questions over one
//! architecture.
//!
//! The files are parsed once ([`Session`]); every `set`, `unset`, `undo`
//! and `redo` rebuilds the model from the edited trees and re-runs the
//! whole analysis, then prints what that step resolved and introduced.
//! On a terminal the line editor is rustyline (history, completion of
//! commands, ids, fields and rule codes); with a pipe on stdin, commands are
//! read line by line with no prompt and no escape codes, so a session can be
//! scripted.
//!
//! The rooms: `step` (the commands that change the session: `set`,
//! `unset`, `undo`, `redo`, `save`), `inspect` (those that look: `check`,
//! `horizon`, `why`, `explain`), `terminal` (reading commands from a pipe
//! or a terminal) and `complete` (tab completion).

mod complete;
mod inspect;
mod step;
mod terminal;

use replay_audit::analysis;
use replay_audit::diagnostics::{Diagnostic, echo, suggest};
use replay_audit::manifest::LoadError;
use replay_audit::policy::{Date, Policy};
use replay_audit::rules::Finding;
use replay_audit::whatif::{Built, Edited, Override, Session};

pub use terminal::{run_lines, run_terminal};

/// Command names, for `help` and completion.
pub const COMMANDS: &[(&str, &str)] = &[
    (
        "set",
        "set TARGET=VALUE   change a value (ID.FIELD, nested: ID.sends_to[0].retry.attempts)",
    ),
    (
        "unset",
        "unset TARGET       remove a field (its default applies)",
    ),
    (
        "undo",
        "undo               take back the last set, unset or redo",
    ),
    ("redo", "redo               apply again what undo took back"),
    (
        "changes",
        "changes            the changes so far: target: old → new",
    ),
    ("check", "check              every finding now"),
    (
        "horizon",
        "horizon [ID]       worst-case horizons (of one intent or component)",
    ),
    (
        "why",
        "why CODE [ID]      a finding's worst path, step by step",
    ),
    ("diff", "diff               the changes against the files"),
    ("explain", "explain CODE       a rule's page"),
    (
        "save",
        "save [--force] FILE  write the changes as an overrides file (--overrides FILE)",
    ),
    ("help", "help               this list"),
    (
        "quit",
        "quit               leave (also `exit` or end of input)",
    ),
];

/// The usage of `cmd` from its help line (`set TARGET=VALUE`).
fn usage(cmd: &str) -> String {
    COMMANDS
        .iter()
        .find(|(c, _)| *c == cmd)
        .map_or_else(String::new, |(_, h)| {
            let h = h.split("  ").next().unwrap_or(h);
            format!("`{}`", h.trim())
        })
}

/// What one line did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Reply {
    pub out: String,
    pub err: Option<String>,
    /// Said on standard error without failing the session.
    pub warning: Option<String>,
    pub quit: bool,
}

impl Reply {
    fn out(s: impl Into<String>) -> Reply {
        Reply {
            out: s.into(),
            ..Reply::default()
        }
    }
    fn err(s: impl Into<String>) -> Reply {
        Reply {
            err: Some(s.into()),
            ..Reply::default()
        }
    }
}

/// The state of a session: the history of changes and a cursor into it,
/// the current model and its findings (under the policy `check` would use).
///
/// The history is one list of overrides: the first `cursor` are applied,
/// the rest are what `undo` took back and `redo` applies again. A new `set`
/// or `unset` drops those and appends. Every state is rebuilt from the
/// parsed files with a prefix of the list, so memory grows with the text of
/// the changes, never with a copy of the model or of the list per step.
pub struct Shell {
    session: Session,
    policy: Policy,
    today: Date,
    history: Vec<Override>,
    cursor: usize,
    /// The trees with the first `cursor` overrides applied.
    edited: Edited,
    current: Built,
    findings: Vec<Finding>,
    color: bool,
    /// The changes differ from what `save` last wrote (or none was saved).
    unsaved: bool,
    /// `quit` was refused once for unsaved changes: the next one leaves.
    warned: bool,
    /// On a terminal, leaving with unsaved changes asks once; a script
    /// (commands on a pipe) does what it says.
    pub interactive: bool,
}

impl Shell {
    /// Starts on the unchanged architecture (errors if it does not load);
    /// findings are made under `policy`, waivers judged on `today`.
    pub fn new(
        session: Session,
        policy: Policy,
        today: Date,
        color: bool,
    ) -> Result<Shell, LoadError> {
        let edited = session.edit(&[])?;
        let current = session.finish(&edited)?;
        let findings = policy
            .findings(&analysis::analyse(&current.manifest), today)
            .0;
        Ok(Shell {
            session,
            policy,
            today,
            history: Vec::new(),
            cursor: 0,
            edited,
            current,
            findings,
            color,
            unsaved: false,
            warned: false,
            interactive: false,
        })
    }

    /// Ids of intents, components and regions.
    pub fn ids(&self) -> Vec<String> {
        self.session.ids().map(str::to_string).collect()
    }

    fn render_error(&self, e: &LoadError) -> String {
        e.diagnostics
            .iter()
            .map(|d| d.render(&e.sources, self.color))
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn plain_error(&self, d: Diagnostic) -> String {
        match d.help {
            Some(h) => format!("error: {}\nhelp: {}", echo(&d.message), echo(&h)),
            None => format!("error: {}", echo(&d.message)),
        }
    }

    /// Leaving without `quit` (end of input on a terminal): the first time
    /// with unsaved changes, the warning instead.
    pub fn leave(&mut self) -> Option<String> {
        let w = self.unsaved_warning().filter(|_| !self.warned)?;
        self.warned = true;
        Some(format!("{w}; end the input again to leave without saving"))
    }

    /// The warning for changes that would be lost on leaving, if any.
    pub fn unsaved_warning(&self) -> Option<String> {
        let n = self.current.changes.len();
        (self.unsaved && n > 0).then(|| {
            format!(
                "warning: {n} change(s) not saved: `save FILE` writes them as an overrides file"
            )
        })
    }

    /// Runs one command line.
    pub fn exec(&mut self, line: &str) -> Reply {
        let mut r = self.run_command(line);
        // Manifest text reaches the terminal or a CI log in almost every
        // reply (messages, ids, replay names): all of it is made inert in
        // this one place. Errors are rendered inert where they are made.
        r.out = replay_audit::diagnostics::inert(&r.out);
        r
    }

    fn run_command(&mut self, line: &str) -> Reply {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return Reply::default();
        }
        let (cmd, rest) = line
            .split_once(char::is_whitespace)
            .map_or((line, ""), |(c, r)| (c, r.trim()));
        match cmd {
            "set" | "unset" => self.set_or_unset(cmd, rest),
            "undo" | "redo" => self.undo_or_redo(cmd),
            "changes" => Reply::out(self.render_changes()),
            "diff" => Reply::out(self.render_diff()),
            "check" => Reply::out(self.render_findings()),
            "horizon" => self.horizon(rest),
            "why" => self.why(rest),
            "explain" => self.explain(rest),
            "save" => self.save(rest),
            "help" | "?" => Reply::out(
                COMMANDS
                    .iter()
                    .map(|(_, h)| format!("  {h}\n"))
                    .collect::<String>(),
            ),
            "quit" | "exit" => match self.unsaved_warning() {
                Some(w) if self.interactive && !self.warned => {
                    self.warned = true;
                    Reply {
                        warning: Some(format!("{w}; `{cmd}` again leaves without saving")),
                        ..Reply::default()
                    }
                }
                _ => Reply {
                    quit: true,
                    ..Reply::default()
                },
            },
            other => Reply::err(unknown_command(other)),
        }
    }
}

/// An unknown command, with the nearest command name.
fn unknown_command(cmd: &str) -> String {
    let names: Vec<&str> = COMMANDS.iter().map(|(c, _)| *c).collect();
    let hint = suggest(cmd, names.iter().copied()).map_or_else(
        || "`help` lists the commands".to_string(),
        |s| format!("did you mean `{s}`?"),
    );
    format!(
        "error: unknown command `{}`\nhelp: {}",
        echo(cmd),
        echo(&hint)
    )
}
