//! The commands that look without changing anything: `check`, `horizon`,
//! `why` and `explain`, and how findings and worst paths are shown.

use super::{Reply, Shell, usage};
use replay_audit::analysis::{self, Analysis, Step};
use replay_audit::diagnostics::{Diagnostic, echo, suggest};
use replay_audit::report;
use replay_audit::rules::{self, Finding, margin, required_window};
use replay_audit::time::Dur;
use replay_audit::whatif::{self, Change, dur};

impl Shell {
    /// `explain CODE`: a rule's page.
    pub(super) fn explain(&self, code: &str) -> Reply {
        match rules::rule(code) {
            Some(r) if !r.doc.is_empty() => Reply::out(r.doc.to_string()),
            Some(r) => Reply::out(format!(
                "{} {} (default severity {})\n",
                r.code,
                r.name,
                r.severity.name()
            )),
            None => Reply::err(self.plain_error(unknown_rule(code))),
        }
    }

    /// `horizon [ID]`: the worst-case horizons, of one intent or component.
    pub(super) fn horizon(&self, id: &str) -> Reply {
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

    /// `why CODE [ID]`: each matching finding with its worst path.
    pub(super) fn why(&self, args: &str) -> Reply {
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
            if f.loc.is_some() {
                s.push_str(&format!("  at {}\n", self.place(f)));
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
                            format!("forgets {} too early", h.saturating_sub(w))
                        } else {
                            format!("margin {}", w.saturating_sub(h))
                        },
                        margin(h)
                    )),
                    None => s.push_str(&format!("  horizon {h}; minimum safe retention {need}\n")),
                }
            }
            if f.has_assumptions() {
                s.push_str(&format!("  rests on: {}\n", f.assumptions_joined()));
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
                        adds: s.adds,
                        why: s.why.clone(),
                        assumptions: Vec::new(),
                    })
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Steps of a worst path, each with the delay it adds, then the total.
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

/// No rule `code`: the nearest code or name.
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

/// No id `id`: the nearest id, or the first ones.
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

/// ` (horizon H, window W)` of a finding that has either, else nothing.
pub(super) fn numbers(f: &Finding) -> String {
    if f.horizon.is_some() || f.window.is_some() {
        format!(" (horizon {}, window {})", dur(f.horizon), dur(f.window))
    } else {
        String::new()
    }
}

/// A finding on one line: severity, code, name, scope, numbers.
pub(super) fn short(f: &Finding) -> String {
    let mut s = format!(
        "{} {} {} {}",
        f.severity.name(),
        f.rule.code,
        f.rule.name,
        f.scope()
    );
    s.push_str(&numbers(f));
    if let Some(w) = &f.waived {
        s.push_str(&format!(" ({})", w.word()));
    }
    s
}

/// `N error(s), N warning(s), N info`.
pub(super) fn counts(findings: &[Finding]) -> String {
    report::Summary::of(findings).line()
}

impl Shell {
    /// `changes`: `target: old → new`, one a line; a field the files do
    /// not set shows the value that applied, the catalog default with its
    /// source (`(not set: 1h, powertools-idempotency default, F040)`).
    pub(super) fn render_changes(&self) -> String {
        let changes = &self.current.changes;
        if changes.is_empty() {
            return "no changes\n".into();
        }
        changes
            .iter()
            .map(|c| format!("  {}\n", self.change_line(c)))
            .collect()
    }

    /// `target: old → new`; a field the files do not set shows the value
    /// that applied (`(not set: 1h, powertools-idempotency default, F040)`).
    pub(super) fn change_line(&self, c: &Change) -> String {
        let old = match &c.old {
            Some(v) => v.clone(),
            None => self
                .default_of(&c.target)
                .map_or_else(|| "(not set)".to_string(), |d| format!("(not set: {d})")),
        };
        let new = c.new.as_deref().unwrap_or("(not set)");
        format!("{}: {old} → {new}", c.target)
    }

    /// `diff`: the changes as a unified diff, an added field naming the
    /// default it replaces.
    pub(super) fn render_diff(&self) -> String {
        whatif::render_diff_with(
            &self.current.manifest.sources,
            &self.session.files(),
            &self.current.changes,
            &|c| self.default_of(&c.target),
        )
    }

    /// The catalog default of `ID.FIELD` (a duration field of a component),
    /// with its kind and source.
    pub(super) fn default_of(&self, target: &str) -> Option<String> {
        let (id, field) = target.split_once('.')?;
        if field.contains(['.', '[']) {
            return None;
        }
        let c = self.current.manifest.component(id)?;
        let kind = analysis::effective::kind_of(c);
        let d = kind.default_dur(field)?;
        Some(format!(
            "{}, {} default, {}",
            d.value, kind.id, d.fact.source
        ))
    }

    /// `check`: every finding with its message and place, then the counts.
    pub(super) fn render_findings(&self) -> String {
        let mut s = String::new();
        for f in &self.findings {
            s.push_str(&format!(
                "{}\n  {}\n  at {}\n",
                short(f),
                f.message,
                self.place(f)
            ));
        }
        s.push_str(&format!("{}\n", counts(&self.findings)));
        s
    }

    /// Where a finding stands in the manifest files. A value this session
    /// wrote has its place in the text of the `set` line: the finding is
    /// then placed where the changed field (or its component) stands in
    /// the files, and the change is named.
    pub(super) fn place(&self, f: &Finding) -> String {
        let map = &self.current.manifest.sources;
        let Some(loc) = f.loc else {
            return "-".to_string();
        };
        if (loc.file as usize) < self.session.files().len() {
            return map.display(loc);
        }
        let changed = f.component.as_deref().and_then(|id| {
            self.current.changes.iter().rev().find(|c| {
                c.target
                    .strip_prefix(id)
                    .is_some_and(|t| t.starts_with('.'))
            })
        });
        let at = changed
            .and_then(|c| c.loc)
            .or_else(|| {
                let id = f.component.as_deref()?;
                Some(self.current.manifest.component(id)?.loc)
            })
            .filter(|l| (l.file as usize) < self.session.files().len());
        match (at, changed) {
            (Some(l), Some(c)) => format!(
                "{} (changed: {})",
                map.display(l),
                echo(&self.change_line(c))
            ),
            (Some(l), None) => map.display(l),
            (None, _) => map.display(loc),
        }
    }
}
