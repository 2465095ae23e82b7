//! `what-if PATHS --set ...`: the findings resolved, introduced and
//! unchanged by changed values.

use crate::cli::{Global, TextFormat, WhatIfArgs};
use replay_audit::{engine, whatif};

use super::{Outcome, inputs, out, severity, today};

pub fn run(args: &WhatIfArgs, g: &Global) -> Outcome {
    let WhatIfArgs {
        paths,
        parameters,
        set,
        unset,
        overrides,
        format,
        fail_on,
        config,
    } = args;
    if set.is_empty() && unset.is_empty() && overrides.is_none() {
        return Err(engine::Error::usage(
            "what-if needs a change",
            "give --set ID.FIELD=VALUE, --unset ID.FIELD or --overrides FILE",
        ));
    }
    if let Some((message, help)) = whatif::set_without_value(set, paths) {
        return Err(engine::Error::usage(message, help));
    }
    let inputs = inputs(g, paths, parameters, config.as_deref(), None)?;
    let mut session = engine::session(&inputs)?;
    let base = session.build(&[]).map_err(engine::Error::from)?;
    let mut list = Vec::new();
    if let Some(o) = overrides {
        list.extend(session.read_overrides(o).map_err(engine::Error::from)?);
    }
    for s in set {
        list.push(session.parse_set("--set", s).map_err(engine::Error::from)?);
    }
    for u in unset {
        list.push(session.parse_unset("--unset", u));
    }
    let built = session.build(&list).map_err(engine::Error::from)?;
    let policy = engine::policy(&inputs)?;
    let today = today()?;
    let before = engine::check(&base.manifest, &policy, today).findings;
    let after = engine::check(&built.manifest, &policy, today).findings;
    let delta = whatif::compare(&before, &after);
    out(&match format {
        TextFormat::Text => whatif::render_text(&built.changes, &delta),
        TextFormat::Json => whatif::render_json(
            &base.manifest.sources,
            &built.manifest.sources,
            &built.changes,
            &delta,
        ),
    })?;
    Ok(u8::from(
        delta.fails(policy.threshold(fail_on.map(severity))),
    ))
}
