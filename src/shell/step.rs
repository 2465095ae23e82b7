//! The commands that move the session: `set` and `unset` (a new change
//! on top of the current trees), `undo` and `redo` (a prefix of the
//! history rebuilt from the parsed files), and `save` (the changes as an
//! overrides file).

use std::collections::{HashMap, HashSet};

use super::inspect::{counts, numbers, short};
use super::{Reply, Shell, usage};
use replay_audit::analysis;
use replay_audit::manifest::LoadError;
use replay_audit::rules::Finding;
use replay_audit::whatif::{self, Change, Delta, Edited, dur};

impl Shell {
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
            .findings(&analysis::analyse(&built.manifest), self.today)
            .0;
        let delta = whatif::compare(&self.findings, &findings);
        self.cursor = cursor;
        self.unsaved = true;
        self.warned = false;
        self.edited = edited;
        self.current = built;
        self.findings = findings;
        Ok(self.step_report(&delta))
    }

    fn step_report(&self, d: &Delta) -> String {
        let mut s = String::new();
        // A finding of one rule and intent that left one component and
        // reached another moved: one line, not a resolved and a new one.
        // The introduced ones by rule and intent, in order, so each resolved
        // finding looks only at its own rule and intent's.
        let mut introduced: Vec<Option<&Finding>> = d.introduced.iter().map(Some).collect();
        let mut by_scope: HashMap<(&str, &str), Vec<usize>> = HashMap::new();
        for (k, g) in d.introduced.iter().enumerate() {
            if let Some(intent) = g.intent.as_deref() {
                by_scope.entry((g.rule.code, intent)).or_default().push(k);
            }
        }
        for f in &d.resolved {
            let scope = f
                .intent
                .as_deref()
                .and_then(|i| by_scope.get_mut(&(f.rule.code, i)));
            let to = scope.and_then(|ks| {
                let at = ks
                    .iter()
                    .position(|&k| d.introduced[k].component != f.component)?;
                Some(ks.remove(at))
            });
            match to.and_then(|k| introduced[k].take()) {
                Some(g) => s.push_str(&format!(
                    "moved      {} {} {}: from `{}` to `{}`{}\n",
                    g.rule.code,
                    g.rule.name,
                    g.intent.as_deref().unwrap_or("-"),
                    f.component.as_deref().unwrap_or("-"),
                    g.component.as_deref().unwrap_or("-"),
                    numbers(g)
                )),
                None => s.push_str(&format!("resolved   {}\n", short(f))),
            }
        }
        for f in introduced.into_iter().flatten() {
            s.push_str(&format!("introduced {}\n", short(f)));
        }
        for (b, f) in &d.unchanged {
            if b.horizon != f.horizon || b.window != f.window {
                s.push_str(&format!(
                    "changed    {} {} (horizon {} → {}, window {} → {})\n",
                    f.rule.code,
                    f.scope(),
                    dur(b.horizon),
                    dur(f.horizon),
                    dur(b.window),
                    dur(f.window)
                ));
            }
        }
        s.push_str(&format!("now: {}\n", counts(&self.findings)));
        s
    }

    /// `set TARGET=VALUE` or `unset TARGET`: only the new change is
    /// applied, to the current trees; what `undo` took back is dropped.
    pub(super) fn set_or_unset(&mut self, cmd: &str, rest: &str) -> Reply {
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
                        s.push_str(&self.change_line(c));
                        s.push('\n');
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

    /// `undo` or `redo`: the parsed files rebuilt with one change fewer or
    /// one more of the history.
    pub(super) fn undo_or_redo(&mut self, cmd: &str) -> Reply {
        let next = if cmd == "undo" {
            self.cursor.checked_sub(1)
        } else {
            (self.cursor < self.history.len()).then_some(self.cursor + 1)
        };
        let Some(next) = next else {
            return Reply::err(format!("error: nothing to {cmd}"));
        };
        let edited = self.session.edit(&self.history[..next]);
        match self.rebuild(edited, next) {
            Ok(report) => Reply::out(format!(
                "{cmd}: {} change(s) now\n{report}",
                self.current.changes.len()
            )),
            Err(e) => Reply::err(e),
        }
    }

    /// `save [--force] FILE`: the changes as an overrides file, written
    /// whole or not at all ([`replay_audit::files::write_atomic`]); an existing
    /// file is replaced only with `--force`, and never an input of the
    /// session (its manifests, its policy) nor through a link.
    pub(super) fn save(&mut self, rest: &str) -> Reply {
        let (force, path) = strip_flag(rest, "--force");
        if path.is_empty() {
            return Reply::err(format!(
                "error: `save` needs a file name: {}",
                usage("save")
            ));
        }
        let text = whatif::overrides_yaml(&self.current.changes);
        let mode = if force {
            replay_audit::files::Mode::Replace
        } else {
            replay_audit::files::Mode::CreateNew
        };
        match replay_audit::files::write_atomic(std::path::Path::new(path), text.as_bytes(), mode) {
            Ok(()) => {
                self.unsaved = false;
                Reply::out(format!(
                    "saved {} change(s) to {path}; use it with `--overrides {path}`\n",
                    self.current.changes.len()
                ))
            }
            Err(e) => {
                let e = match e.kind {
                    replay_audit::files::WriteErrorKind::Exists => e.help(format!(
                        "give another file name, or replace it with `save --force {path}`"
                    )),
                    _ => e,
                };
                Reply::err(e.to_string())
            }
        }
    }
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
