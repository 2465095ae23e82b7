//! Review and manifest hygiene: RH041 unknown-value-assumed.

use crate::analysis::Analysis;
use crate::rules::Finding;

pub(crate) fn check(a: &Analysis, out: &mut Vec<Finding>) {
    let m = a.manifest;
    if a.model.assumed.is_empty() {
        return;
    }
    let first = a.first_intent_reaching();
    for asm in &a.model.assumed {
        // Only what some intent's analysis actually read.
        let Some(r) = first[asm.component].map(|i| &a.intents[i]) else { continue };
        let c = &m.components[asm.component];
        out.push(
            Finding::new(
                "RH041",
                format!(
                    "`{}.{}` is not given and kind `{}` has no documented default: the analysis assumed {}",
                    c.id, asm.field, c.kind.value, asm.value
                ),
            )
            .intent(&m.intents[r.intent].id)
            .component(&c.id)
            .at(asm.loc),
        );
    }
}
