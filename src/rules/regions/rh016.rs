//! RH016 replay-pointer-outlives-data: failure records that point into a
//! stream outlive its data (page `docs/rules/RH016.md`).

use crate::analysis::Analysis;
use crate::analysis::effective as eff;
use crate::rules::{Code, Ctx, Finding};

pub(crate) fn emit(ctx: &Ctx, out: &mut Vec<Finding>) {
    // A configuration rule: it needs no intent, so an imported template
    // alone is checked; the finding names the first intent reaching the
    // component where there is one.
    for c in 0..ctx.m.components.len() {
        component(ctx.a, c, ctx.reached_by(c), out);
    }
}

/// RH016: a failure record that only points into a stream outlives the stream's data.
fn component(a: &Analysis, c: usize, intent: Option<&str>, out: &mut Vec<Finding>) {
    let m = a.manifest;
    let comp = &m.components[c];
    if a.model.nodes[c].generic == crate::catalog::Generic::Stream
        && let Some(dl) = &comp.dead_letter
        && let Some(dest) = m.target(&dl.to)
        && let (Some(data), Some(pointer)) =
            (eff::dur(comp, "retention"), eff::dur(dest, "retention"))
        && pointer.value > data.value
    {
        out.push(
            Finding::new(
                Code::RH016,
                format!(
                    "`{}` keeps failure records for {} but they only point at records of `{}`, which are gone after {}{}: a late replay finds nothing to read",
                    dest.id,
                    pointer.value,
                    comp.id,
                    data.value,
                    data.provenance()
                ),
            )
            .maybe_intent(intent)
            .component(&dest.id)
            .at(pointer.loc().unwrap_or(dest.kind.loc)),
        );
    }
}
