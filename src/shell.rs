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

use std::borrow::Cow;
use std::collections::HashSet;
use std::io::{BufRead, Write};
use std::path::PathBuf;

use rustyline::completion::{Completer, Pair};
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::validate::Validator;
use rustyline::{Context, Editor, Helper};

use crate::analysis::{self, Analysis, Step};
use crate::diagnostics::{Diagnostic, SourceMap, echo, suggest};
use crate::manifest::LoadError;
use crate::manifest::load::{
    BACKUP_FIELDS, GUARD_FIELDS, IN_PROGRESS_FIELDS, KEY_FIELDS, REPLAY_FIELDS, RETRY_FIELDS,
};
use crate::policy::{Date, Policy};
use crate::report;
use crate::rules::{self, Finding, margin, required_window};
use crate::time::Dur;
use crate::whatif::{self, Built, Change, Delta, Edited, Override, Session};

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

// Fields below a link item (union of every link type's fields), and the
// component fields that are links.
use crate::manifest::vocabulary::{LINK_FIELDS, LINK_ITEM_FIELDS};

/// What one line did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Reply {
    pub out: String,
    pub err: Option<String>,
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
        let findings = policy.check(&analysis::analyse(&current.manifest), today).0;
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

    /// Moves to `edited` (the trees with the first `cursor` overrides of
    /// the history applied): reads the model, and reports the findings that
    /// step resolved and introduced. On failure nothing changes.
    fn rebuild(
        &mut self,
        edited: Result<Edited, LoadError>,
        cursor: usize,
    ) -> Result<String, String> {
        let edited = edited.map_err(|e| self.render_error(&e))?;
        let built = self
            .session
            .finish(&edited)
            .map_err(|e| self.render_error(&e))?;
        let findings = self
            .policy
            .check(&analysis::analyse(&built.manifest), self.today)
            .0;
        let delta = whatif::compare(&self.findings, &findings);
        self.cursor = cursor;
        self.edited = edited;
        self.current = built;
        self.findings = findings;
        Ok(self.step_report(&delta))
    }

    fn step_report(&self, d: &Delta) -> String {
        let mut s = String::new();
        for f in &d.resolved {
            s.push_str(&format!("resolved   {}\n", short(f)));
        }
        for f in &d.introduced {
            s.push_str(&format!("introduced {}\n", short(f)));
        }
        for (b, f) in &d.unchanged {
            if b.horizon != f.horizon || b.window != f.window {
                s.push_str(&format!(
                    "changed    {} {} (horizon {} → {}, window {} → {})\n",
                    f.rule.code,
                    f.scope(),
                    opt(b.horizon),
                    opt(f.horizon),
                    opt(b.window),
                    opt(f.window)
                ));
            }
        }
        s.push_str(&format!("now: {}\n", counts(&self.findings)));
        s
    }

    /// Runs one command line.
    pub fn exec(&mut self, line: &str) -> Reply {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return Reply::default();
        }
        let (cmd, rest) = line
            .split_once(char::is_whitespace)
            .map_or((line, ""), |(c, r)| (c, r.trim()));
        match cmd {
            "set" | "unset" => {
                if rest.is_empty() {
                    return Reply::err(format!("error: `{cmd}` needs a target: {}", usage(cmd)));
                }
                let o = if cmd == "set" {
                    match self.session.parse_set("set", rest) {
                        Ok(o) => o,
                        Err(e) => return Reply::err(self.render_error(&e)),
                    }
                } else {
                    self.session.parse_unset("unset", rest)
                };
                // Only the new change is applied, to the current trees.
                let edited = self.session.edit_more(&self.edited, &o);
                let before = std::mem::take(&mut self.current.changes);
                match self.rebuild(edited, self.cursor + 1) {
                    Ok(report) => {
                        // What `undo` took back cannot be redone any more.
                        self.history.truncate(self.cursor - 1);
                        self.history.push(o);
                        let before: HashSet<&Change> = before.iter().collect();
                        let mut s = String::new();
                        for c in &self.current.changes {
                            if !before.contains(c) {
                                s.push_str(&format!(
                                    "{}: {} → {}\n",
                                    c.target,
                                    show(&c.old),
                                    show(&c.new)
                                ));
                            }
                        }
                        if s.is_empty() {
                            s.push_str("no change: the value is the one in the files\n");
                        }
                        Reply::out(s + &report)
                    }
                    Err(e) => {
                        self.current.changes = before;
                        Reply::err(e)
                    }
                }
            }
            "undo" | "redo" => {
                let next = if cmd == "undo" {
                    self.cursor.checked_sub(1)
                } else {
                    (self.cursor < self.history.len()).then_some(self.cursor + 1)
                };
                let Some(next) = next else {
                    return Reply::err(format!("error: nothing to {cmd}"));
                };
                // Rebuilt from the parsed files with the first `next` changes.
                let edited = self.session.edit(&self.history[..next]);
                match self.rebuild(edited, next) {
                    Ok(report) => Reply::out(format!(
                        "{cmd}: {} change(s) now\n{report}",
                        self.current.changes.len()
                    )),
                    Err(e) => Reply::err(e),
                }
            }
            "changes" => Reply::out(whatif::render_changes(&self.current.changes)),
            "diff" => Reply::out(whatif::render_diff(
                &self.current.manifest.sources,
                &self.session.files(),
                &self.current.changes,
            )),
            "check" => Reply::out(render_findings(
                &self.current.manifest.sources,
                &self.findings,
            )),
            "horizon" => self.horizon(rest),
            "why" => self.why(rest),
            "explain" => match rules::rule(rest) {
                Some(r) if !r.doc.is_empty() => Reply::out(r.doc.to_string()),
                Some(r) => Reply::out(format!(
                    "{} {} (default severity {})\n",
                    r.code,
                    r.name,
                    r.severity.name()
                )),
                None => Reply::err(self.plain_error(unknown_rule(rest))),
            },
            "save" => self.save(rest),
            "help" | "?" => Reply::out(
                COMMANDS
                    .iter()
                    .map(|(_, h)| format!("  {h}\n"))
                    .collect::<String>(),
            ),
            "quit" | "exit" => Reply {
                quit: true,
                ..Reply::default()
            },
            other => {
                let names: Vec<&str> = COMMANDS.iter().map(|(c, _)| *c).collect();
                let hint = suggest(other, names.iter().copied()).map_or_else(
                    || "`help` lists the commands".to_string(),
                    |s| format!("did you mean `{s}`?"),
                );
                Reply::err(format!(
                    "error: unknown command `{}`\nhelp: {}",
                    echo(other),
                    echo(&hint)
                ))
            }
        }
    }

    /// `save [--force] FILE`: the changes as an overrides file, written
    /// whole or not at all ([`crate::files::write_atomic`]); an existing
    /// file is replaced only with `--force`, and never an input of the
    /// session (its manifests, its policy) nor through a link.
    fn save(&self, rest: &str) -> Reply {
        let (force, path) = strip_flag(rest, "--force");
        if path.is_empty() {
            return Reply::err(format!(
                "error: `save` needs a file name: {}",
                usage("save")
            ));
        }
        let text = whatif::overrides_yaml(&self.current.changes);
        let mode = if force {
            crate::files::Mode::Replace
        } else {
            crate::files::Mode::CreateNew
        };
        match crate::files::write_atomic(std::path::Path::new(path), text.as_bytes(), mode) {
            Ok(()) => Reply::out(format!(
                "saved {} change(s) to {path}; use it with `--overrides {path}`\n",
                self.current.changes.len()
            )),
            Err(e) => {
                let e = match e.kind {
                    crate::files::WriteErrorKind::Exists => e.help(format!(
                        "give another file name, or replace it with `save --force {path}`"
                    )),
                    _ => e,
                };
                Reply::err(e.to_string())
            }
        }
    }

    fn horizon(&self, id: &str) -> Reply {
        let m = &self.current.manifest;
        let a = analysis::analyse(m);
        let rows = if id.is_empty() {
            report::horizon::rows(&a, None, None)
        } else if m.intent(id).is_some() {
            report::horizon::rows(&a, Some(id), None)
        } else if m.component(id).is_some() {
            report::horizon::rows(&a, None, Some(id))
        } else {
            return Reply::err(unknown_id(id, self.session.ids()));
        };
        Reply::out(report::horizon::render_text(&rows))
    }

    fn why(&self, args: &str) -> Reply {
        let mut words = args.split_whitespace();
        let Some(code) = words.next() else {
            return Reply::err(format!("error: `why` needs a rule code: {}", usage("why")));
        };
        let Some(rule) = rules::rule(code) else {
            return Reply::err(self.plain_error(unknown_rule(code)));
        };
        let id = words.next();
        let m = &self.current.manifest;
        if let Some(id) = id
            && !self.session.ids().any(|x| x == id)
        {
            return Reply::err(unknown_id(id, self.session.ids()));
        }
        let matching: Vec<&Finding> = self
            .findings
            .iter()
            .filter(|f| f.rule.code == rule.code)
            .filter(|f| {
                id.is_none_or(|id| {
                    f.intent.as_deref() == Some(id) || f.component.as_deref() == Some(id)
                })
            })
            .collect();
        if matching.is_empty() {
            return Reply::out(format!(
                "no {} finding{} now\n",
                rule.code,
                id.map(|i| format!(" about `{i}`")).unwrap_or_default()
            ));
        }
        let a = analysis::analyse(m);
        let mut s = String::new();
        for f in matching {
            s.push_str(&format!("{}\n  {}\n", short(f), f.message));
            if let Some(l) = f.loc {
                s.push_str(&format!("  at {}\n", m.sources.display(l)));
            }
            let steps = if f.steps.is_empty() {
                steps_for(&a, f)
            } else {
                f.steps.clone()
            };
            if !steps.is_empty() {
                s.push_str("  worst path:\n");
                s.push_str(&render_steps(&a, &steps));
            }
            if let Some(h) = f.horizon {
                let need = required_window(h);
                match f.window {
                    Some(w) => s.push_str(&format!(
                        "  window {w} against horizon {h}: {}; the policy asks for {h} + margin {} = {need}\n",
                        if w < h {
                            format!("forgets {} too early", Dur::Secs(h.secs().unwrap_or(0).saturating_sub(w.secs().unwrap_or(0))))
                        } else {
                            format!("margin {}", Dur::Secs(w.secs().unwrap_or(0).saturating_sub(h.secs().unwrap_or(0))))
                        },
                        margin(h)
                    )),
                    None => s.push_str(&format!("  horizon {h}; minimum safe retention {need}\n")),
                }
            }
            if !f.assumptions.is_empty() {
                s.push_str(&format!("  rests on: {}\n", f.assumptions.join("; ")));
            }
        }
        Reply::out(s)
    }
}

/// The worst path to a finding's component, where the finding carries none.
fn steps_for(a: &Analysis, f: &Finding) -> Vec<Step> {
    let (Some(intent), Some(comp)) = (&f.intent, &f.component) else {
        return Vec::new();
    };
    report::horizon::rows(a, Some(intent), Some(comp))
        .into_iter()
        .next()
        .map(|r| {
            r.steps
                .iter()
                .filter_map(|s| {
                    Some(Step {
                        from: a.manifest.component_index(&s.from)?,
                        to: a.manifest.component_index(&s.to)?,
                        adds: s.adds_seconds.map_or(Dur::Unbounded, Dur::Secs),
                        why: s.why.clone(),
                        assumptions: Vec::new(),
                    })
                })
                .collect()
        })
        .unwrap_or_default()
}

fn render_steps(a: &Analysis, steps: &[Step]) -> String {
    let id = |c: usize| a.manifest.components[c].id.as_str();
    let mut s = String::new();
    let mut total = Dur::ZERO;
    for st in steps {
        total = total.add(st.adds);
        s.push_str(&format!(
            "    {:>12}  {} → {}: {}\n",
            format!("+{}", st.adds),
            id(st.from),
            id(st.to),
            st.why
        ));
    }
    s.push_str(&format!("    {:>12}  total\n", format!("= {total}")));
    s
}

/// The first word of `rest` when it is `flag`, and what follows.
fn strip_flag<'a>(rest: &'a str, flag: &str) -> (bool, &'a str) {
    match rest.strip_prefix(flag) {
        Some(after) if after.is_empty() || after.starts_with(char::is_whitespace) => {
            (true, after.trim_start())
        }
        _ => (false, rest),
    }
}

fn usage(cmd: &str) -> String {
    COMMANDS
        .iter()
        .find(|(c, _)| *c == cmd)
        .map_or_else(String::new, |(_, h)| {
            let h = h.split("  ").next().unwrap_or(h);
            format!("`{}`", h.trim())
        })
}

fn unknown_rule(code: &str) -> Diagnostic {
    let codes: Vec<&str> = rules::RULES
        .iter()
        .map(|r| r.code)
        .chain(rules::RULES.iter().map(|r| r.name))
        .collect();
    let d = Diagnostic::new(None, format!("no rule `{code}`"));
    match suggest(code, codes.iter().copied()) {
        Some(s) => d.help(format!("did you mean `{s}`?")),
        None => d.help("`replay-audit rules` lists every rule"),
    }
}

fn unknown_id<'a>(id: &str, ids: impl Iterator<Item = &'a str> + Clone) -> String {
    let hint = suggest(id, ids.clone()).map_or_else(
        || format!("ids: {}", ids.take(20).collect::<Vec<_>>().join(", ")),
        |s| format!("did you mean `{s}`?"),
    );
    format!(
        "error: no intent, component or region `{}`\nhelp: {}",
        echo(id),
        echo(&hint)
    )
}

fn show(v: &Option<String>) -> &str {
    v.as_deref().unwrap_or("(not set)")
}

fn opt(d: Option<Dur>) -> String {
    d.map_or_else(|| "none".into(), |d| d.to_string())
}

fn short(f: &Finding) -> String {
    let mut s = format!(
        "{} {} {} {}",
        f.severity.name(),
        f.rule.code,
        f.rule.name,
        f.scope()
    );
    if f.horizon.is_some() || f.window.is_some() {
        s.push_str(&format!(
            " (horizon {}, window {})",
            opt(f.horizon),
            opt(f.window)
        ));
    }
    if f.waived.is_some() {
        s.push_str(" (waived)");
    }
    s
}

fn counts(findings: &[Finding]) -> String {
    report::Summary::of(findings).line()
}

fn render_findings(map: &SourceMap, findings: &[Finding]) -> String {
    let mut s = String::new();
    for f in findings {
        s.push_str(&format!(
            "{}\n  {}\n  at {}\n",
            short(f),
            f.message,
            report::place(map, f)
        ));
    }
    s.push_str(&format!("{}\n", counts(findings)));
    s
}

/// Runs commands read line by line (no prompt, no escape codes). Returns
/// the exit code: 0, or 2 when a command failed.
pub fn run_lines(
    shell: &mut Shell,
    input: impl BufRead,
    out: &mut impl Write,
    err: &mut impl Write,
) -> u8 {
    let mut failed = false;
    for line in input.lines() {
        let Ok(line) = line else {
            let _ = writeln!(err, "error: standard input is not UTF-8 text");
            return 2;
        };
        let r = shell.exec(&line);
        let _ = out.write_all(r.out.as_bytes());
        let _ = out.flush();
        if let Some(e) = r.err {
            failed = true;
            let _ = writeln!(err, "{}", e.trim_end());
            let _ = err.flush();
        }
        if r.quit {
            break;
        }
    }
    u8::from(failed) * 2
}

/// `$XDG_STATE_HOME/replay-audit/history`, else `~/.local/state/...`.
fn history_path() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_STATE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|v| !v.is_empty())
                .map(|h| PathBuf::from(h).join(".local/state"))
        })?;
    Some(base.join("replay-audit").join("history"))
}

/// Runs on a terminal with rustyline: history and tab completion. History
/// that cannot be read or written is skipped silently.
pub fn run_terminal(shell: &mut Shell) -> u8 {
    let helper = Complete { ids: shell.ids() };
    let Ok(mut rl) = Editor::<Complete, rustyline::history::DefaultHistory>::new() else {
        let stdin = std::io::stdin();
        return run_lines(
            shell,
            stdin.lock(),
            &mut std::io::stdout(),
            &mut std::io::stderr(),
        );
    };
    rl.set_helper(Some(helper));
    let history = history_path();
    if let Some(h) = &history {
        let _ = rl.load_history(h);
    }
    println!(
        "replay-audit shell: {}; `help` lists the commands",
        counts(&shell.findings)
    );
    loop {
        match rl.readline("what-if> ") {
            Ok(line) => {
                if !line.trim().is_empty() {
                    let _ = rl.add_history_entry(line.as_str());
                }
                let r = shell.exec(&line);
                print!("{}", r.out);
                let _ = std::io::stdout().flush();
                if let Some(e) = r.err {
                    eprintln!("{}", e.trim_end());
                }
                if r.quit {
                    break;
                }
            }
            Err(ReadlineError::Interrupted) => continue,
            Err(_) => break,
        }
    }
    if let Some(h) = &history {
        if let Some(dir) = h.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let _ = rl.save_history(h);
    }
    0
}

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
            (1..=5).map(|i| format!("RH00{i}")).collect::<Vec<_>>()
        );
    }
}
