//! The concrete fix a finding states, carried by the finding itself so
//! that every format prints the same `help` (the terminal's `= help:`,
//! JSON's `help`, SARIF's message, Markdown, JUnit), and, where it is
//! certain, applied by `check --fix` ([`crate::fix`]).

use crate::analysis::effective;
use crate::manifest::Manifest;
use crate::manifest::model::Field;
use crate::rules::{Finding, Margin};
use crate::time::Dur;

/// A window too short for the latest copy: the field of the layer the
/// team sets and the least it must hold.
#[derive(Debug, Clone, PartialEq)]
pub struct Raise {
    pub component: String,
    pub field: &'static str,
    /// The latest copy after the layer's first sighting.
    pub horizon: Dur,
    /// The horizon plus the policy's margin.
    pub at_least: Dur,
    pub margin: Dur,
    /// The platform fixes the field: the fix is another layer, not this
    /// value.
    pub fixed_by_platform: bool,
}

/// The window to raise for a window finding (RH001, RH002, RH004) whose
/// horizon is bounded.
pub fn raise(m: &Manifest, f: &Finding, margin: Margin) -> Option<Raise> {
    let windowed = matches!(f.rule.code, "RH001" | "RH002" | "RH004");
    let (true, Some(h), Some(_), Some(id)) = (windowed, f.horizon, f.window, &f.component) else {
        return None;
    };
    let c = m.component(id).filter(|_| !h.is_unbounded())?;
    let field = if effective::generic(c).is_transport() {
        "dedup_window"
    } else if !effective::generic(c).is_store()
        && effective::boolean(c, Field::AcceptsKey).is_some_and(|a| a.value)
    {
        "key_window"
    } else {
        "retention"
    };
    let fixed_by_platform = effective::kind_of(c)
        .fields
        .get(field)
        .is_some_and(|f| f.fixed);
    Some(Raise {
        component: id.to_string(),
        field,
        horizon: h,
        at_least: margin.required_window(h),
        margin: margin.of(h),
        fixed_by_platform,
    })
}

/// The concrete fix where the finding's values give one: for a window the
/// horizon outlives or nearly reaches, the field to set and the minimum
/// safe retention under the policy's `margin`. Else `None`, and
/// [`Finding::help`] points at the rule's page.
pub fn of(m: &Manifest, f: &Finding, margin: Margin) -> Option<String> {
    let r = raise(m, f, margin)?;
    let (id, field, h) = (&r.component, r.field, r.horizon);
    Some(if r.fixed_by_platform {
        // A platform constant is never the fix: a layer the team sets is.
        format!(
            "`{id}.{field}` is fixed by the platform: claim the key in front of `{id}` in a store that keeps it at least {} (the latest copy {h} after the first sighting + margin {}), or bound how late copies arrive",
            r.at_least, r.margin
        )
    } else {
        format!(
            "set `{id}.{field}` to at least {} (the latest copy {h} after its first sighting + margin {})",
            r.at_least, r.margin
        )
    })
}
