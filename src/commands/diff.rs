//! `diff PATHS --base REV | --base-dir DIR`: what a change does to the
//! replay horizons ([`replay_audit::diff`]). Both versions are checked
//! under the current version's policy, so the exit code (1 when the change
//! introduces a failing finding) answers "does this change make it worse".

use crate::cli::{DiffArgs, DiffFormat, Global};
use replay_audit::diagnostics::SourceMap;
use replay_audit::diff::{self, Diff, git};
use replay_audit::engine::{self, Inputs};
use replay_audit::manifest::LoadError;

use super::{Outcome, inputs, out, severity, today};

pub fn run(args: &DiffArgs, g: &Global) -> Outcome {
    let DiffArgs {
        paths,
        base,
        base_dir,
        parameters,
        format,
        fail_on,
        config,
    } = args;
    let head_inputs = inputs(g, paths, parameters, config.as_deref(), None)?;
    let (base_name, base_manifest) = match (base, base_dir) {
        (_, Some(dir)) => {
            let i = Inputs {
                paths: vec![dir.clone()],
                ..head_inputs.clone()
            };
            (dir.display().to_string(), engine::load(&i)?)
        }
        (Some(rev), None) => {
            let files =
                git::read_revision(rev, paths, head_inputs.limits.max_file_bytes).map_err(|d| {
                    engine::Error::from(LoadError {
                        sources: SourceMap::default(),
                        diagnostics: vec![d],
                    })
                })?;
            (rev.clone(), engine::load_texts(&head_inputs, files)?)
        }
        (None, None) => unreachable!("clap requires --base or --base-dir"),
    };
    let head_manifest = engine::load(&head_inputs)?;
    let policy = engine::policy(&head_inputs)?;
    let today = today()?;
    let base_checked = engine::check(&base_manifest, &policy, today);
    let head_checked = engine::check(&head_manifest, &policy, today);
    let d = Diff::of(&base_checked, &head_checked);
    let threshold = policy.threshold(fail_on.map(severity));
    let notes = policy.notes();
    let line = notes.policy_line();
    let c = diff::Context {
        base: &base_name,
        policy: Some(&line),
        threshold,
        base_sources: &base_manifest.sources,
        head_sources: &head_manifest.sources,
    };
    out(&match format {
        DiffFormat::Table => diff::render_table(&d, &c),
        DiffFormat::Markdown => diff::render_markdown(&d, &c),
        DiffFormat::Json => diff::render_json(&d, &c, notes.policy.as_deref()),
    })?;
    for w in &notes.policy_warnings {
        eprintln!("{w}");
    }
    Ok(u8::from(d.fails(threshold)))
}
