//! `drift CODE... --deployed FOLDER`: the code's architecture and the
//! deployed one compared ([`replay_audit::drift`]). Both sides are checked
//! under the code's policy, so the exit code (1 when the deployed side has
//! a failing finding the code does not) answers "is what runs worse than
//! what we reviewed".

use crate::cli::{DiffFormat, DriftArgs, Global};
use replay_audit::drift::{self, Drift, Sides};
use replay_audit::engine::{self, Inputs};
use replay_audit::report::format::{self, CheckFormat};
use replay_audit::report::root::Root;

use super::{Outcome, inputs, out, severity, today, write_output_with};

pub fn run(args: &DriftArgs, g: &Global) -> Outcome {
    let result = drift_once(args, g);
    // With --format json an input error is written as `check` writes it;
    // `commands::run` prints it on standard error and exits 2.
    if args.format == DiffFormat::Json
        && let Err(input) = &result
        && !matches!(input, engine::Error::Io(_))
    {
        let (map, errors) = input.diagnostics();
        let mut text = Vec::new();
        format::of(CheckFormat::Json).write_errors(&mut text, &map, &errors, &Root::current())?;
        write_output_with(None, |w| w.write_all(&text))?;
    }
    result
}

fn drift_once(args: &DriftArgs, g: &Global) -> Outcome {
    let DriftArgs {
        paths,
        deployed,
        parameters,
        format,
        fail_on,
        config,
    } = args;
    let code_inputs = inputs(g, paths, parameters, config.as_deref(), None)?;
    let deployed_inputs = Inputs {
        paths: vec![deployed.clone()],
        parameters: Vec::new(),
        ..code_inputs.clone()
    };
    let sides = Sides::load(&code_inputs, &deployed_inputs)?;
    let policy = engine::policy(&code_inputs)?;
    let today = today()?;
    let code_checked = engine::check(&sides.code, &policy, today);
    let deployed_checked = engine::check(&sides.deployed, &policy, today);
    let d = Drift::of(&sides, &code_checked, &deployed_checked);
    let threshold = policy.threshold(fail_on.map(severity));
    let notes = policy.notes();
    let line = notes.policy_line();
    let name = deployed.display().to_string();
    let c = drift::render::Context {
        deployed: &name,
        policy: Some(&line),
        threshold,
    };
    out(&match format {
        DiffFormat::Table => drift::render::render_table(&sides, &d, &c),
        DiffFormat::Markdown => drift::render::render_markdown(&sides, &d, &c),
        DiffFormat::Json => drift::render::render_json(&sides, &d, &c, notes.policy.as_deref()),
    })?;
    for w in &notes.policy_warnings {
        eprintln!("{w}");
    }
    Ok(u8::from(d.diff.fails(threshold)))
}
