//! Values with the place they were written ([`Sp`]), and references to
//! components ([`Ref`]) that carry the component's index once resolved.

use crate::diagnostics::Loc;
use crate::manifest::name::Name;

/// A value and where it was written.
#[derive(Debug, Clone, PartialEq)]
pub struct Sp<T> {
    pub value: T,
    pub loc: Loc,
}

impl<T: Default> Default for Sp<T> {
    fn default() -> Self {
        Sp {
            value: T::default(),
            loc: Loc::default(),
        }
    }
}

impl<T> Sp<T> {
    pub fn new(value: T, loc: Loc) -> Self {
        Sp { value, loc }
    }
}

/// A reference to a component: its id as written (`value`, shared with
/// the target component's id once resolved) and where (`loc`), as on any
/// [`Sp`], and the index of the component in the sorted manifest once
/// [`crate::manifest::validated`] has resolved it.
#[derive(Debug, Clone, PartialEq)]
pub struct Ref {
    pub value: Name,
    pub loc: Loc,
    index: Option<usize>,
}

impl Ref {
    /// A reference not resolved yet.
    pub fn new(id: Sp<String>) -> Self {
        Ref {
            value: id.value.into(),
            loc: id.loc,
            index: None,
        }
    }

    /// The index of the component it names; `None` until resolved, and for
    /// an id no component has.
    pub fn index(&self) -> Option<usize> {
        self.index
    }

    /// Records the index found for the id (`None`: no such component).
    pub fn resolve(&mut self, index: Option<usize>) {
        self.index = index;
    }
}

impl std::fmt::Display for Ref {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.value.fmt(f)
    }
}
