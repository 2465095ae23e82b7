//! Organisation mode (`check --each DIR`): every manifest file directly in
//! DIR, and every sub-folder of DIR holding manifests, is an architecture of
//! its own. They are checked in parallel (rayon; `RAYON_NUM_THREADS` sets
//! the number of threads) and reported in path order, so the output does
//! not depend on scheduling.
//!
//! Each architecture is checked under its own policy, as `check` on it
//! alone would be: `replay-audit.toml` in its folder (beside it, for a
//! file directly in DIR), or the one `--config` names for all of them.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;
use serde::Serialize;

use replay_audit::diagnostics::{Diagnostic, SourceMap};
use replay_audit::manifest::{self, Limits};
use replay_audit::policy::Notes;
use replay_audit::policy::{Date, Policy};
use replay_audit::report::Summary;
use replay_audit::report::each::{self, Part};
use replay_audit::report::format::CheckFormat;
use replay_audit::report::format::{self, Shown};
use replay_audit::report::json::JsonFinding;
use replay_audit::report::root::Root;
use replay_audit::rules::Severity;
use replay_audit::{analysis, engine, report};

/// The architectures of `dir`, sorted by path: its `*.yaml`/`*.yml` files
/// and its sub-folders with such files below them. Hidden entries and
/// symbolic links are skipped, as in a folder scan.
pub fn architectures(dir: &Path) -> Result<Vec<PathBuf>, Diagnostic> {
    replay_audit::files::check_given(dir)?;
    let rd = std::fs::read_dir(dir).map_err(|e| {
        Diagnostic::new(None, format!("cannot read folder `{}`: {e}", dir.display()))
            .help("`--each` takes a folder whose manifests, or sub-folders of manifests, are separate architectures")
    })?;
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    let mut out = Vec::new();
    for path in entries {
        let hidden = path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with('.'));
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        if hidden || meta.file_type().is_symlink() {
            continue;
        }
        if meta.is_dir() {
            // A folder that cannot be read is kept: loading it reports why.
            let has_manifests = match manifest::load::discover(std::slice::from_ref(&path)) {
                Ok(files) => !files.is_empty(),
                Err(errors) => !errors
                    .iter()
                    .all(|d| d.message.starts_with(replay_audit::files::NO_MANIFESTS)),
            };
            if has_manifests {
                out.push(path);
            }
        } else if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("yaml" | "yml")
        ) {
            out.push(path);
        }
    }
    if out.is_empty() {
        return Err(Diagnostic::new(None, format!("no manifests in `{}`", dir.display()))
            .help("put each architecture's manifest (*.yaml) or folder of manifests directly in this folder"));
    }
    Ok(out)
}

/// What applies to every architecture of a run.
#[derive(Debug, Clone)]
pub struct Run {
    pub limits: Limits,
    /// `--fail-on`; else each policy's `fail_on`; else error.
    pub fail_on: Option<Severity>,
    /// `--config`: one policy for every architecture.
    pub config: Option<PathBuf>,
    /// The day waivers are judged on.
    pub today: Date,
    pub render: Render,
    /// What SARIF and GitHub paths are relative to.
    pub root: Root,
    /// `--quiet` and `--min-severity`, applied to each architecture.
    pub shown: Shown,
}

/// How each architecture's result is rendered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Render {
    Table {
        color: bool,
    },
    Json,
    /// SARIF, JUnit, GitHub, GitLab or Markdown: a [`Part`] each, put
    /// together by the format's [`format::Format::combine`].
    Parts(CheckFormat),
}

impl Render {
    fn parts(self) -> Option<CheckFormat> {
        match self {
            Render::Parts(f) => Some(f),
            _ => None,
        }
    }
}

pub use replay_audit::report::json::JsonError;

/// The result of one architecture.
#[derive(Debug)]
pub struct Outcome {
    pub path: String,
    /// 0, 1 (findings at or above the failing severity) or 2 (not loaded).
    pub code: u8,
    pub result: Result<Checked, Failed>,
}

#[derive(Debug)]
pub struct Checked {
    pub findings: Vec<JsonFinding>,
    pub summary: Summary,
    /// The table, when rendering tables.
    pub table: Option<String>,
    /// The architecture in the other formats.
    pub part: Option<Part>,
    /// The policy file that applied, as shown; `None`: the defaults.
    pub policy: Option<String>,
}

#[derive(Debug)]
pub struct Failed {
    pub errors: Vec<JsonError>,
    /// The errors as rustc-style text, when rendering tables.
    pub text: Option<String>,
    /// The errors in the other formats.
    pub part: Option<Part>,
}

/// An architecture that could not be checked: its errors, as JSON and, for
/// tables, as `check` prints them.
fn failed(
    name: String,
    sources: &SourceMap,
    errors: &[Diagnostic],
    text: Option<String>,
    run: &Run,
) -> Outcome {
    let part = run
        .render
        .parts()
        .and_then(|f| format::of(f).failed_part(&name, sources, errors, &run.root));
    Outcome {
        path: name,
        code: 2,
        result: Err(Failed {
            errors: errors.iter().map(|d| JsonError::from(sources, d)).collect(),
            text,
            part,
        }),
    }
}

/// Checks one architecture (files or a folder) completely.
pub fn check_one(path: &Path, run: &Run) -> Outcome {
    let name = path.display().to_string();
    let paths = [path.to_path_buf()];
    let color = match run.render {
        Render::Table { color } => Some(color),
        _ => None,
    };
    let policy = match Policy::find(&paths, run.config.as_deref()) {
        Ok(p) => p,
        Err(e) => {
            let text = color.map(|c| e.render(c));
            return failed(name, &e.sources, &e.diagnostics, text, run);
        }
    };
    let inputs = engine::Inputs {
        paths: paths.to_vec(),
        limits: run.limits,
        ..engine::Inputs::default()
    };
    // Templates, plans and AsyncAPI documents are imported as `check` does.
    match engine::load(&inputs) {
        Err(e) => {
            let text = color.map(|c| e.render(c));
            let (sources, diagnostics) = e.diagnostics();
            failed(name, &sources, &diagnostics, text, run)
        }
        Ok(m) => {
            let a = analysis::analyse(&m);
            let (mut findings, unused_waivers) = policy.findings(&a, run.today);
            let threshold = policy.threshold(run.fail_on);
            let code = u8::from(findings.iter().any(|f| f.fails(threshold)));
            findings.retain(|f| run.shown.shows(f, threshold));
            let table = match run.render {
                Render::Table { color } => {
                    Some(report::table::render(&m.sources, &findings, color))
                }
                _ => None,
            };
            let part = run.render.parts().and_then(|format| {
                let horizons = match format {
                    CheckFormat::Markdown => report::horizon::rows(&a, None, None),
                    _ => Vec::new(),
                };
                let notes = run.shown.notes(Notes {
                    unused_waivers,
                    ..policy.notes()
                });
                let arch = each::Arch {
                    name: &name,
                    manifest: &m,
                    findings: &findings,
                    notes: &notes,
                    horizons: &horizons,
                    threshold,
                    root: &run.root,
                };
                format::of(format).part(&arch)
            });
            Outcome {
                path: name,
                code,
                result: Ok(Checked {
                    findings: findings
                        .iter()
                        .map(|f| JsonFinding::from(&m.sources, f))
                        .collect(),
                    summary: Summary::of(&findings),
                    table,
                    part,
                    policy: policy.path.clone(),
                }),
            }
        }
    }
}

/// Checks every architecture in parallel; results in the order given.
/// `progress` is called with the number finished so far, from any thread.
pub fn check_all(
    paths: &[PathBuf],
    settings: &Run,
    progress: &(dyn Fn(usize) + Sync),
) -> Vec<Outcome> {
    let done = AtomicUsize::new(0);
    let run = || {
        paths
            .par_iter()
            .map(|p| {
                let o = check_one(p, settings);
                progress(done.fetch_add(1, Ordering::Relaxed) + 1);
                o
            })
            .collect()
    };
    // Worker threads get the main thread's stack size: parsing recurses once
    // per nesting level (bounded by `Limits::max_depth`), and rayon's default
    // of 2 MiB is tighter than what a single-architecture run has.
    match rayon::ThreadPoolBuilder::new().stack_size(8 << 20).build() {
        Ok(pool) => pool.install(run),
        Err(_) => run(),
    }
}

/// A `\r` counter on stderr ("checked 120/1000"), for a terminal only.
///
/// Hand-written rather than taken from a progress-bar crate: it is one
/// line that is rewritten, about ten lines of code, and keeps the binary's
/// dependencies to those the project lists.
pub struct Progress {
    total: usize,
    step: usize,
    lock: std::sync::Mutex<()>,
}

impl Progress {
    pub fn new(total: usize) -> Self {
        Progress {
            total,
            step: (total / 100).max(1),
            lock: std::sync::Mutex::new(()),
        }
    }

    pub fn tick(&self, done: usize) {
        if !done.is_multiple_of(self.step) && done != self.total {
            return;
        }
        let _guard = self.lock.lock();
        eprint!("\rchecked {done}/{} architectures", self.total);
        if done == self.total {
            eprint!("\r\x1b[2K");
        }
    }
}

/// The architectures in a format of [`Render::Parts`], in order; GitHub
/// annotations end with the policy notices ([`policy_lines`]).
pub fn render_parts(format: CheckFormat, outcomes: Vec<Outcome>) -> String {
    let notices: String = match format {
        CheckFormat::Github => policy_lines(&outcomes)
            .iter()
            .map(|l| report::github::policy_notice(l))
            .collect(),
        _ => String::new(),
    };
    let parts = outcomes
        .into_iter()
        .filter_map(|o| match o.result {
            Ok(c) => c.part,
            Err(f) => f.part,
        })
        .collect();
    format::of(format).combine(parts) + &notices
}

/// Which policy applied, for the outputs that say it once for the run:
/// one `policy: …` line when every analysed architecture had the same
/// (`--config`, or none anywhere), else one `PATH: policy: …` line per
/// analysed architecture.
pub fn policy_lines(outcomes: &[Outcome]) -> Vec<String> {
    let checked: Vec<(&str, &Option<String>)> = outcomes
        .iter()
        .filter_map(|o| o.result.as_ref().ok().map(|c| (o.path.as_str(), &c.policy)))
        .collect();
    let line = |policy: &Option<String>| {
        Notes {
            policy: policy.clone(),
            ..Notes::default()
        }
        .policy_line()
    };
    match checked.first() {
        None => Vec::new(),
        Some((_, first)) if checked.iter().all(|(_, p)| p == first) => vec![line(first)],
        Some(_) => checked
            .iter()
            .map(|(path, p)| format!("{path}: {}", line(p)))
            .collect(),
    }
}

/// The exit code of the whole run: the worst of the architectures.
pub fn exit_code(outcomes: &[Outcome]) -> u8 {
    outcomes.iter().map(|o| o.code).max().unwrap_or(0)
}

#[derive(Serialize)]
#[serde(untagged)]
enum JsonArch<'a> {
    Checked {
        path: &'a str,
        findings: &'a [JsonFinding],
        summary: Summary,
        /// The policy file that applied, or `null`.
        policy: Option<&'a str>,
    },
    Failed {
        path: &'a str,
        errors: &'a [JsonError],
    },
}

#[derive(Serialize)]
struct JsonOrg<'a> {
    version: u32,
    architectures: Vec<JsonArch<'a>>,
}

/// `{"version":1,"architectures":[{"path","findings","summary"} | {"path","errors"}]}`
pub fn render_json(outcomes: &[Outcome]) -> String {
    let architectures = outcomes
        .iter()
        .map(|o| match &o.result {
            Ok(c) => JsonArch::Checked {
                path: &o.path,
                findings: &c.findings,
                summary: c.summary,
                policy: c.policy.as_deref(),
            },
            Err(f) => JsonArch::Failed {
                path: &o.path,
                errors: &f.errors,
            },
        })
        .collect();
    serde_json::to_string_pretty(&JsonOrg {
        version: 1,
        architectures,
    })
    .expect("results serialise")
        + "\n"
}

/// Each architecture under a `== path ==` heading, then a one-line total
/// and which policy applied ([`policy_lines`]).
pub fn render_table(outcomes: &[Outcome]) -> String {
    let mut s = String::new();
    let (mut failed, mut total) = (0, Summary::default());
    for o in outcomes {
        s.push_str(&format!("== {} ==\n", o.path));
        match &o.result {
            Ok(c) => {
                s.push_str(c.table.as_deref().unwrap_or(""));
                total.error += c.summary.error;
                total.warning += c.summary.warning;
                total.info += c.summary.info;
            }
            Err(f) => {
                failed += 1;
                s.push_str(f.text.as_deref().unwrap_or(""));
            }
        }
        s.push('\n');
    }
    s.push_str(&format!(
        "{} architecture{}: {} could not be analysed; {} error(s), {} warning(s), {} info\n",
        outcomes.len(),
        if outcomes.len() == 1 { "" } else { "s" },
        failed,
        total.error,
        total.warning,
        total.info
    ));
    for line in policy_lines(outcomes) {
        s.push_str(&replay_audit::diagnostics::echo(&line));
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_files_and_folders_with_manifests_sorted() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join("b.yaml"), "version: 1\n").unwrap();
        std::fs::write(d.path().join("a.yml"), "version: 1\n").unwrap();
        std::fs::write(d.path().join("notes.txt"), "x").unwrap();
        std::fs::write(d.path().join(".hidden.yaml"), "version: 1\n").unwrap();
        std::fs::create_dir_all(d.path().join("c/deep")).unwrap();
        std::fs::write(d.path().join("c/deep/x.yaml"), "version: 1\n").unwrap();
        std::fs::create_dir(d.path().join("empty")).unwrap();
        let names: Vec<String> = architectures(d.path())
            .unwrap()
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["a.yml", "b.yaml", "c"]);
    }

    #[test]
    fn a_folder_without_manifests_is_an_error() {
        let d = tempfile::tempdir().unwrap();
        let e = architectures(d.path()).unwrap_err();
        assert!(e.message.starts_with("no manifests in"), "{}", e.message);
    }

    #[test]
    fn exit_code_is_the_worst() {
        let o = |code| Outcome {
            path: String::new(),
            code,
            result: Err(Failed {
                errors: vec![],
                text: None,
                part: None,
            }),
        };
        assert_eq!(exit_code(&[o(0), o(1), o(0)]), 1);
        assert_eq!(exit_code(&[o(1), o(2)]), 2);
        assert_eq!(exit_code(&[]), 0);
    }
}
