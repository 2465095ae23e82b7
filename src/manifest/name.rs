//! Names that thousands of components write the same ([`Name`]: a kind, a
//! region), kept once per distinct text by the loader's [`Names`].

use std::borrow::Borrow;
use std::fmt;
use std::sync::Arc;

use crate::hash::IdSet;
use crate::manifest::spanned::Sp;

/// A shared, immutable name, read as a `str` (`Deref`, `as_str`, `==` with
/// any string). Cloning it shares the text: a 76,000-component manifest
/// holds a handful of kinds and regions, not 76,000 copies of each.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Name(Arc<str>);

impl Name {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::ops::Deref for Name {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Name {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for Name {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl From<&str> for Name {
    fn from(s: &str) -> Self {
        Name(Arc::from(s))
    }
}

/// A clone: the text is shared.
impl From<&Name> for Name {
    fn from(n: &Name) -> Self {
        n.clone()
    }
}

impl From<String> for Name {
    fn from(s: String) -> Self {
        Name(Arc::from(s))
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&*self.0, f)
    }
}

/// As a `String` prints, so debug output reads as before.
impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl PartialEq<str> for Name {
    fn eq(&self, other: &str) -> bool {
        &*self.0 == other
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, other: &&str) -> bool {
        &*self.0 == *other
    }
}

impl PartialEq<String> for Name {
    fn eq(&self, other: &String) -> bool {
        &*self.0 == other.as_str()
    }
}

impl PartialEq<Name> for str {
    fn eq(&self, other: &Name) -> bool {
        self == &*other.0
    }
}

impl PartialEq<Name> for &str {
    fn eq(&self, other: &Name) -> bool {
        *self == &*other.0
    }
}

impl PartialEq<Name> for String {
    fn eq(&self, other: &Name) -> bool {
        self.as_str() == &*other.0
    }
}

/// The names read so far, so that each distinct text is kept once.
#[derive(Default)]
pub struct Names(IdSet<Name>);

impl Names {
    /// The name with text `s`, shared with every earlier one.
    pub fn get(&mut self, s: &str) -> Name {
        if let Some(n) = self.0.get(s) {
            return n.clone();
        }
        let n = Name::from(s);
        self.0.insert(n.clone());
        n
    }

    /// A list read, each item shared.
    pub fn list(&mut self, l: Sp<Vec<String>>) -> Sp<Vec<Name>> {
        Sp::new(l.value.iter().map(|s| self.get(s)).collect(), l.loc)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_texts_share_one_name() {
        let mut names = Names::default();
        let (a, b) = (names.get("us-east-1"), names.get("us-east-1"));
        assert!(Arc::ptr_eq(&a.0, &b.0));
        assert_eq!(a, "us-east-1");
        assert_eq!(format!("{a} {a:?}"), "us-east-1 \"us-east-1\"");
        assert_ne!(names.get("eu-west-1"), a);
    }
}
