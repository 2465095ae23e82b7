//! RH041 unknown-value-assumed: values the analysis had to assume where some
//! intent's analysis read them (page `docs/rules/RH041.md`).

use crate::rules::{Code, Ctx, Finding};

/// RH041: values the analysis had to assume, reported only where some
/// intent's analysis actually read them.
pub(crate) fn emit(ctx: &Ctx, out: &mut Vec<Finding>) {
    let (a, first) = (ctx.a, |c| ctx.a.first_intent_reaching(c));
    let m = a.manifest;
    for asm in &a.model.assumed {
        let Some(r) = first(asm.component).map(|i| &a.intents[i]) else {
            continue;
        };
        let c = &m.components[asm.component];
        out.push(
            Finding::new(
                Code::RH041,
                format!(
                    "`{}.{}` is not given and kind `{}` has no documented default: the analysis assumed {}",
                    c.id, asm.field, c.kind.value, asm.value
                ),
            )
            .intent(&m.intents[r.intent].id)
            .component(&c.id)
            .subject(&asm.field)
            .at(asm.loc),
        );
    }
}
