//! The settings a component or a link writes ([`Settings`]), each value
//! ([`Setting`]) stored with its field in 32 bytes.

use super::*;

/// The value of a [`Field`], with where it was written.
///
/// Text and lists are boxed: few settings are, and unboxed they made every
/// setting 48 bytes instead of 32.
#[derive(Debug, Clone, PartialEq)]
pub enum Setting {
    Dur(Sp<Dur>),
    Count(Sp<u64>),
    Bool(Sp<bool>),
    Text(Box<Sp<String>>),
    List(Box<Sp<Vec<String>>>),
    Delivery(Sp<Delivery>),
    Expiry(Sp<Expiry>),
    Replication(Sp<Replication>),
    DedupId(Sp<DedupId>),
    Mode(Sp<RedriveMode>),
}

/// A [`Setting`] and its field, one enum so that the field sits in the
/// padding after the variant's tag: 32 bytes, where `(F, Setting)` is 40.
macro_rules! entry {
    ($($variant:ident($ty:ty),)*) => {
        #[derive(Debug, Clone, PartialEq)]
        pub(super) enum Entry<F> {
            $($variant(F, $ty),)*
        }

        impl<F: Copy> Entry<F> {
            fn new(field: F, s: Setting) -> Self {
                match s {
                    $(Setting::$variant(v) => Entry::$variant(field, v),)*
                }
            }

            fn field(&self) -> F {
                match self {
                    $(Entry::$variant(f, _) => *f,)*
                }
            }
        }
    };
}

entry! {
    Dur(Sp<Dur>),
    Count(Sp<u64>),
    Bool(Sp<bool>),
    Text(Box<Sp<String>>),
    List(Box<Sp<Vec<String>>>),
    Delivery(Sp<Delivery>),
    Expiry(Sp<Expiry>),
    Replication(Sp<Replication>),
    DedupId(Sp<DedupId>),
    Mode(Sp<RedriveMode>),
}

/// The settings a component writes, as a short list.
///
/// A kind accepts about twenty settings and a component writes a handful:
/// a slot for each (an `Option<Sp<..>>` of up to 40 bytes) made
/// `Component` 824 bytes, most of them empty, and at 100k components the
/// largest part of the model. Lookups scan at most the fields written.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings<F = Field>(Box<[Entry<F>]>);

impl<F> Default for Settings<F> {
    fn default() -> Self {
        Settings(Box::default())
    }
}

impl<F: Copy + Eq> Settings<F> {
    pub(super) fn get(&self, field: F) -> Option<&Entry<F>> {
        self.0.iter().find(|e| e.field() == field)
    }
}

impl<F: Copy> FromIterator<(F, Setting)> for Settings<F> {
    fn from_iter<I: IntoIterator<Item = (F, Setting)>>(items: I) -> Self {
        Settings(items.into_iter().map(|(f, s)| Entry::new(f, s)).collect())
    }
}
