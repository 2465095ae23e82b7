//! `graph PATHS`: the dependency graph in DOT or Mermaid, findings marked.

use crate::cli::{Global, GraphArgs, GraphFormat};
use replay_audit::{engine, report};

use super::{Outcome, inputs, today, write_output};

pub fn run(args: &GraphArgs, g: &Global) -> Outcome {
    let GraphArgs {
        paths,
        parameters,
        format,
        output,
        config,
    } = args;
    let inputs = inputs(g, paths, parameters, config.as_deref(), None)?;
    let m = engine::load(&inputs)?;
    let policy = engine::policy(&inputs)?;
    let checked = engine::check(&m, &policy, today()?);
    let view = report::draw::view(&m, &checked.findings);
    let text = match format {
        GraphFormat::Dot => report::draw::dot(&view, m.name.as_deref().unwrap_or("architecture")),
        GraphFormat::Mermaid => report::draw::mermaid(&view),
    };
    write_output(output.as_deref(), &text)
}
