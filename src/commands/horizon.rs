//! `horizon PATHS`: the worst-case horizon at each guard, store and effect,
//! with the arithmetic of the worst path; `--required` the minimum safe
//! retention of each layer.

use crate::cli::{Global, HorizonArgs, TextFormat};
use replay_audit::{analysis, engine, report, whatif};

use super::{Outcome, inputs, not_found, out_with};

pub fn run(args: &HorizonArgs, g: &Global) -> Outcome {
    let HorizonArgs {
        paths,
        parameters,
        intent,
        at,
        format,
        required,
    } = args;
    let m = engine::load(&inputs(g, paths, parameters, None, None)?)?;
    if let Some(i) = intent
        && m.intent(i).is_none()
    {
        let ids: Vec<&str> = m.intents.iter().map(|i| i.id.as_str()).collect();
        let listed = ids.join(", ");
        return Err(not_found("intent", i, ids, || format!("intents: {listed}")));
    }
    if let Some(c) = at
        && m.component(c).is_none()
    {
        let ids = m.components.iter().map(|c| c.id.as_str());
        return Err(not_found("component", c, ids, || {
            "give a component id".into()
        }));
    }
    let a = analysis::analyse(&m);
    let (intent, at) = (intent.as_deref(), at.as_deref());
    if let Some(c) = at {
        not_a_layer(&a, intent, c)?;
    }
    // Written as the rows are made: the output of a large manifest is never
    // held whole.
    if *required {
        out_with(|w| match format {
            TextFormat::Text => whatif::write_required_text(&a, intent, at, w),
            TextFormat::Json => whatif::write_required_json(&a, intent, at, w),
        })?;
        return Ok(0);
    }
    out_with(|w| match format {
        TextFormat::Text => report::horizon::write_text(&a, intent, at, w),
        TextFormat::Json => report::horizon::write_json(&a, intent, at, w),
    })?;
    Ok(0)
}

/// `--at` names a component no row is about (a queue, a function without a
/// window): say so, and which components the rows are about, rather than
/// print that nothing is reached.
fn not_a_layer(
    a: &analysis::Analysis,
    intent: Option<&str>,
    at: &str,
) -> Result<(), engine::Error> {
    let rows = report::horizon::rows(a, intent, None);
    if rows.iter().any(|r| r.node == at) {
        return Ok(());
    }
    let mut layers: Vec<&str> = rows.iter().map(|r| r.node.as_str()).collect();
    layers.sort_unstable();
    layers.dedup();
    let scope = intent.map_or_else(|| "an intent".to_string(), |i| format!("`{i}`"));
    Err(engine::Error::usage(
        format!(
            "`{at}` is not a guard, store, dedup window or effect that {scope} reaches, so it has no horizon row"
        ),
        if layers.is_empty() {
            "no intent reaches a guard, store or effect: declare the intents and their `guarded_by`"
                .to_string()
        } else {
            format!("`--at` takes one of: {}", layers.join(", "))
        },
    ))
}
