//! The concrete fix a finding states, carried by the finding itself so
//! that every format prints the same `help` (the terminal's `= help:`,
//! JSON's `help`, SARIF's message, Markdown, JUnit).

use crate::analysis::effective;
use crate::manifest::Manifest;
use crate::rules::{Finding, Margin};

/// The concrete fix where the finding's values give one: for a window the
/// horizon outlives or nearly reaches, the field to set and the minimum
/// safe retention under the policy's `margin`. Else `None`, and
/// [`Finding::help`] points at the rule's page.
pub fn of(m: &Manifest, f: &Finding, margin: Margin) -> Option<String> {
    let windowed = matches!(f.rule.code, "RH001" | "RH002" | "RH004");
    if let (true, Some(h), Some(_), Some(id)) = (windowed, f.horizon, f.window, &f.component)
        && !h.is_unbounded()
        && let Some(c) = m.component(id)
    {
        let field = if effective::generic(c).is_transport() {
            "dedup_window"
        } else if !effective::generic(c).is_store()
            && effective::boolean(c, "accepts_key").is_some_and(|a| a.value)
        {
            "key_window"
        } else {
            "retention"
        };
        if effective::kind_of(c)
            .fields
            .get(field)
            .is_some_and(|f| f.fixed)
        {
            // A platform constant is never the fix: a layer the team sets is.
            return Some(format!(
                "`{id}.{field}` is fixed by the platform: claim the key in front of `{id}` in a store that keeps it at least {} (the latest copy {h} after the first sighting + margin {}), or bound how late copies arrive",
                margin.required_window(h),
                margin.of(h)
            ));
        }
        return Some(format!(
            "set `{id}.{field}` to at least {} (the latest copy {h} after its first sighting + margin {})",
            margin.required_window(h),
            margin.of(h)
        ));
    }
    None
}
