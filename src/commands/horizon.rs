//! `horizon PATHS`: the worst-case horizon at each guard, store and effect,
//! with the arithmetic of the worst path; `--required` the minimum safe
//! retention of each layer.

use replay_audit::cli::{Cli, Command, TextFormat};
use replay_audit::{analysis, engine, report, whatif};

use super::{inputs, not_found, out};

pub fn run(cli: &Cli) -> anyhow::Result<u8> {
    let Command::Horizon {
        paths,
        parameters,
        intent,
        at,
        format,
        required,
    } = &cli.command
    else {
        unreachable!("dispatched on Horizon")
    };
    let m = engine::load(&inputs(cli, paths, parameters, None, None)?)?;
    if let Some(i) = intent
        && m.intent(i).is_none()
    {
        let ids: Vec<&str> = m.intents.iter().map(|i| i.id.as_str()).collect();
        let listed = ids.join(", ");
        return Err(not_found("intent", i, ids, || format!("intents: {listed}")).into());
    }
    if let Some(c) = at
        && m.component(c).is_none()
    {
        let ids = m.components.iter().map(|c| c.id.as_str());
        return Err(not_found("component", c, ids, || "give a component id".into()).into());
    }
    let a = analysis::analyse(&m);
    if *required {
        let rows = whatif::required(&a, intent.as_deref(), at.as_deref());
        out(&match format {
            TextFormat::Text => whatif::render_required_text(&rows),
            TextFormat::Json => whatif::render_required_json(&rows),
        })?;
        return Ok(0);
    }
    let rows = report::horizon::rows(&a, intent.as_deref(), at.as_deref());
    out(&match format {
        TextFormat::Text => report::horizon::render_text(&rows),
        TextFormat::Json => report::horizon::render_json(&rows),
    })?;
    Ok(0)
}
