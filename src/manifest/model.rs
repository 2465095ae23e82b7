//! The typed manifest: every field of `manifest.md`, each with its location.
//!
//! A reference to a component is a [`Ref`]: the id as written, and the
//! component's index once [`crate::manifest::validated`] has resolved it, so the
//! graph and the analysis never look an id up again. A field the manifest
//! leaves out is `None`: the catalog or the analysis decides
//! what that means, and says so (RH041) when it has to assume.

use crate::diagnostics::{Loc, SourceMap};
use crate::time::Dur;

pub use super::name::Name;
pub use super::spanned::{Ref, Sp};

// The component's accessors and the constructors the loaders use.
mod component;

pub use crate::manifest::vocabulary::{Field, LinkField};
use crate::manifest::vocabulary::{FieldDef, Type};

/// A field of a component or a link that is stored in its [`Settings`]:
/// the enums the vocabulary generates from its rows.
pub trait SettingField: Copy + Ord + std::fmt::Debug + 'static {
    /// Every field, in the order the loader reads them.
    const ALL: &'static [Self];
    /// The field's row in the vocabulary.
    fn def(self) -> &'static FieldDef;
    /// The field's name in the manifest.
    fn name(self) -> &'static str {
        self.def().name
    }
}

impl SettingField for Field {
    const ALL: &'static [Self] = Field::ALL;
    fn def(self) -> &'static FieldDef {
        Field::def(self)
    }
}

impl SettingField for LinkField {
    const ALL: &'static [Self] = LinkField::ALL;
    fn def(self) -> &'static FieldDef {
        LinkField::def(self)
    }
}

/// An enumeration whose values the manifest writes by name.
pub trait Named: Copy + 'static {
    /// The names, in the order of [`Named::ALL`] (and of error messages).
    const NAMES: &'static [&'static str];
    /// Every value.
    const ALL: &'static [Self];
}

/// A choice of the manifest: each variant with its name, once.
macro_rules! named {
    ($ty:ident { $($variant:ident = $name:literal,)* }) => {
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum $ty {
            $($variant,)*
        }

        impl Named for $ty {
            const NAMES: &'static [&'static str] = &[$($name,)*];
            const ALL: &'static [Self] = &[$($ty::$variant,)*];
        }
    };
}

/// The typed reading of the settings of `$owner` (a component or a link),
/// keyed by the field enum: `c.dur(Field::Retention)` is `Some` where the
/// manifest writes `retention`.
macro_rules! setting_accessors {
    ($owner:ident, $fields:ident) => {
        impl $owner {
            /// The value of `f`, if written, whatever its type.
            pub fn setting(&self, f: $fields) -> Option<&Setting> {
                self.settings.get(f)
            }

            /// A duration setting, if written.
            pub fn dur(&self, f: $fields) -> Option<&Sp<Dur>> {
                self.settings.dur(f)
            }

            /// A count setting, if written.
            pub fn count(&self, f: $fields) -> Option<&Sp<u64>> {
                self.settings.count(f)
            }

            /// A boolean setting, if written.
            pub fn flag(&self, f: $fields) -> Option<&Sp<bool>> {
                self.settings.flag(f)
            }

            /// A text setting, if written.
            pub fn text(&self, f: $fields) -> Option<&Sp<String>> {
                self.settings.text(f)
            }

            /// A list of texts, if written.
            pub fn texts(&self, f: $fields) -> Option<&Sp<Vec<String>>> {
                self.settings.texts(f)
            }

            /// A choice with a typed enum, if written.
            pub fn choice<T: Named>(&self, f: $fields) -> Option<Sp<T>> {
                self.settings.choice(f)
            }

            /// A choice by its name, if written.
            pub fn choice_name(&self, f: $fields) -> Option<Sp<&'static str>> {
                self.settings.choice_name(f)
            }
        }
    };
}

/// One architecture, read from one or more files.
#[derive(Debug, Clone, Default)]
pub struct Manifest {
    pub sources: SourceMap,
    pub name: Option<String>,
    /// Sorted by id, so that output never depends on file or key order.
    pub regions: Vec<Region>,
    pub intents: Vec<Intent>,
    pub components: Vec<Component>,
}

impl Manifest {
    pub fn component(&self, id: &str) -> Option<&Component> {
        self.components
            .binary_search_by(|c| c.id.as_str().cmp(id))
            .ok()
            .map(|i| &self.components[i])
    }

    /// The component a resolved reference names.
    pub fn target(&self, r: &Ref) -> Option<&Component> {
        r.index().map(|i| &self.components[i])
    }

    pub fn component_index(&self, id: &str) -> Option<usize> {
        self.components
            .binary_search_by(|c| c.id.as_str().cmp(id))
            .ok()
    }

    pub fn region(&self, id: &str) -> Option<&Region> {
        self.regions
            .binary_search_by(|r| r.id.as_str().cmp(id))
            .ok()
            .map(|i| &self.regions[i])
    }

    pub fn intent(&self, id: &str) -> Option<&Intent> {
        self.intents.iter().find(|i| i.id == id)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Region {
    pub id: String,
    pub loc: Loc,
    pub failover_to: Option<Sp<String>>,
    pub detection: Option<Sp<Dur>>,
    pub catch_up: Option<Sp<Dur>>,
}

impl Region {
    /// A region with only its id: no failover, no clocks given.
    pub fn new(id: Sp<String>) -> Self {
        Region {
            id: id.value,
            loc: id.loc,
            failover_to: None,
            detection: None,
            catch_up: None,
        }
    }
}

named! {
    Minted {
        PerIntent = "per-intent",
        PerAttempt = "per-attempt",
    }
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Key {
    /// Where `key:` is written; `None` when the intent declares no key.
    pub loc: Option<Loc>,
    /// Each field name shared with every intent that writes it.
    pub fields: Option<Sp<Vec<Name>>>,
    pub minted_at: Option<Ref>,
    pub minted: Option<Sp<Minted>>,
    pub persisted_before_retry: Option<Sp<bool>>,
    /// Key fields declared business-assigned: never a transport identity.
    pub business_assigned: Option<Sp<Vec<Name>>>,
}

impl Key {
    /// A generated key (`uuid`) is random: minting it again gives another one.
    pub fn is_generated(&self) -> bool {
        self.fields.as_ref().is_some_and(|f| {
            f.value.iter().any(|x| {
                matches!(
                    x.to_ascii_lowercase().as_str(),
                    "uuid" | "ulid" | "random" | "nonce"
                )
            })
        })
    }

    pub fn per_attempt(&self) -> bool {
        self.minted
            .as_ref()
            .is_some_and(|m| m.value == Minted::PerAttempt)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Replay {
    pub name: String,
    pub loc: Loc,
    pub enters_at: Ref,
    pub within: Sp<Dur>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Intent {
    pub id: Name,
    pub loc: Loc,
    pub description: Option<String>,
    pub origin: Ref,
    pub effects: Box<[Ref]>,
    pub key: Key,
    /// The field names shared, as the key's and `tested`'s: thousands of
    /// intents write the same few.
    pub fingerprint: Option<Sp<Vec<Name>>>,
    pub replays: Box<[Replay]>,
    pub tested: Option<Sp<Vec<Name>>>,
}

impl Intent {
    /// Every reference to a component: origin, effects, where the key is
    /// minted, where replays enter.
    pub fn refs_mut(&mut self) -> impl Iterator<Item = &mut Ref> {
        std::iter::once(&mut self.origin)
            .chain(self.effects.iter_mut())
            .chain(self.key.minted_at.as_mut())
            .chain(self.replays.iter_mut().map(|r| &mut r.enters_at))
    }

    /// Where the key is minted: `key.minted_at`, else the origin.
    pub fn minted_at(&self) -> &Ref {
        self.key.minted_at.as_ref().unwrap_or(&self.origin)
    }
}

// Links: their types, retry and settings.
mod link;
pub use link::{DedupId, Link, LinkType, RedriveMode, Retry};

named! {
    Claim {
        ConditionalWrite = "conditional-write",
        ReadThenWrite = "read-then-write",
        None = "none",
    }
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct InProgress {
    pub loc: Loc,
    pub on_conflict: Option<Sp<String>>,
    pub expires_after: Option<Sp<Dur>>,
    pub on_expiry: Option<Sp<String>>,
}

/// The `dedup` link: the component claims the key in `store` before its effect.
#[derive(Debug, Clone, PartialEq)]
pub struct Guard {
    pub loc: Loc,
    pub store: Ref,
    pub claim: Option<Sp<Claim>>,
    pub binds_fingerprint: Option<Sp<bool>>,
    pub stores_result: Option<Sp<bool>>,
    pub in_progress: Option<InProgress>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Backup {
    pub loc: Loc,
    pub rpo: Option<Sp<Dur>>,
    pub restored_with: Vec<Ref>,
}

named! {
    Mode {
        ActiveActive = "active-active",
        ActivePassive = "active-passive",
    }
}

named! {
    Delivery {
        AtLeastOnce = "at-least-once",
        AtMostOnce = "at-most-once",
        ExactlyOnce = "exactly-once",
    }
}

named! {
    Expiry {
        Application = "application",
        PhysicalTtl = "physical-ttl",
    }
}

named! {
    Replication {
        None = "none",
        Async = "async",
        Sync = "sync",
    }
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Component {
    pub id: Name,
    pub loc: Loc,
    /// Shared with every component of the same kind.
    pub kind: Sp<Name>,
    /// The catalog kind `kind` names, found once when the component is read
    /// (`None` for a kind the catalog does not know): the analysis asks for
    /// it for nearly every field of every component.
    pub catalog_kind: CatalogKind,
    /// Each name shared with every component in the same region.
    pub regions: Box<[Sp<Name>]>,
    /// Read through [`Component::description`].
    description: Option<Box<str>>,
    /// Read through [`Component::mode`].
    mode: Option<Sp<Mode>>,
    /// Every outgoing link, sorted by type in the order of [`LinkType::ALL`]
    /// and in the order written within a type; read through
    /// [`Component::sends_to`] and the other accessors. One slice instead
    /// of a `Vec` per type and a box per single link keeps `Component`
    /// small: a 100k-component manifest holds 100k of them.
    links: Box<[Link]>,
    /// Boxed, as `backup`: a quarter of the components of a typical
    /// architecture have a guard, and inline the two made every component
    /// 300 bytes larger, which took `check`'s peak memory past 10x the
    /// file (docs/performance.md).
    pub dedup: Option<Box<Guard>>,
    pub backup: Option<Box<Backup>>,
    /// Every other field the component writes (timeouts, retention, windows,
    /// store and provider settings), read through the accessors below.
    settings: Settings<Field>,
}

/// A component's entry in the built-in catalog, compared and printed by id.
#[derive(Clone, Copy, Default)]
pub struct CatalogKind(pub Option<&'static crate::catalog::Kind>);

impl CatalogKind {
    /// Looks `id` up in the built-in catalog.
    pub fn of(id: &str) -> CatalogKind {
        CatalogKind(crate::catalog::catalog().kind(id))
    }
}

impl PartialEq for CatalogKind {
    fn eq(&self, other: &Self) -> bool {
        self.0.map(|k| &k.id) == other.0.map(|k| &k.id)
    }
}

impl std::fmt::Debug for CatalogKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some(k) => write!(f, "CatalogKind({})", k.id),
            None => f.write_str("CatalogKind(unknown)"),
        }
    }
}

/// The value of a [`Field`], with where it was written: one variant per
/// kind of row type (a choice is kept as its index among the row's names).
#[derive(Debug, Clone, PartialEq)]
pub enum Setting {
    Dur(Sp<Dur>),
    Count(Sp<u64>),
    Bool(Sp<bool>),
    Text(Sp<String>),
    List(Sp<Vec<String>>),
    Choice(Sp<u8>),
}

/// The settings read for a component or a link: each field written and
/// its value, by position in `F::ALL`, the first written where one is
/// written twice. A kind accepts about twenty settings and a component
/// writes a handful, so they are a short list rather than a slot for each.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings<F = Field> {
    values: Box<[(F, Setting)]>,
}

impl<F> Default for Settings<F> {
    fn default() -> Self {
        Settings {
            values: Box::default(),
        }
    }
}

impl<F: SettingField> FromIterator<(F, Setting)> for Settings<F> {
    fn from_iter<I: IntoIterator<Item = (F, Setting)>>(items: I) -> Self {
        let mut read: Vec<(F, Setting)> = items.into_iter().collect();
        // Stable: of a field written twice, the first stays first; the
        // enum's order is its table's.
        read.sort_by_key(|(f, _)| *f);
        read.dedup_by_key(|(f, _)| *f);
        Settings {
            values: read.into(),
        }
    }
}

impl<F: SettingField> Settings<F> {
    /// The value of `field`, if written.
    pub fn get(&self, field: F) -> Option<&Setting> {
        self.values
            .iter()
            .find(|(f, _)| *f == field)
            .map(|(_, s)| s)
    }

    pub fn dur(&self, f: F) -> Option<&Sp<Dur>> {
        debug_assert!(matches!(f.def().ty, Type::Duration { .. }), "{f:?}");
        match self.get(f)? {
            Setting::Dur(v) => Some(v),
            _ => None,
        }
    }

    pub fn count(&self, f: F) -> Option<&Sp<u64>> {
        debug_assert!(matches!(f.def().ty, Type::Count { .. }), "{f:?}");
        match self.get(f)? {
            Setting::Count(v) => Some(v),
            _ => None,
        }
    }

    pub fn flag(&self, f: F) -> Option<&Sp<bool>> {
        debug_assert!(matches!(f.def().ty, Type::Bool), "{f:?}");
        match self.get(f)? {
            Setting::Bool(v) => Some(v),
            _ => None,
        }
    }

    pub fn text(&self, f: F) -> Option<&Sp<String>> {
        debug_assert!(matches!(f.def().ty, Type::Text { .. }), "{f:?}");
        match self.get(f)? {
            Setting::Text(v) => Some(v),
            _ => None,
        }
    }

    pub fn texts(&self, f: F) -> Option<&Sp<Vec<String>>> {
        debug_assert!(matches!(f.def().ty, Type::Texts), "{f:?}");
        match self.get(f)? {
            Setting::List(v) => Some(v),
            _ => None,
        }
    }

    /// A choice as the variant of `T`, whose names are the row's.
    pub fn choice<T: Named>(&self, f: F) -> Option<Sp<T>> {
        debug_assert!(
            matches!(f.def().ty, Type::Choice(n) if n == T::NAMES),
            "{f:?}"
        );
        match self.get(f)? {
            Setting::Choice(i) => Some(Sp::new(*T::ALL.get(usize::from(i.value))?, i.loc)),
            _ => None,
        }
    }

    /// A choice as its name in the row.
    pub fn choice_name(&self, f: F) -> Option<Sp<&'static str>> {
        let Type::Choice(names) = f.def().ty else {
            debug_assert!(false, "{f:?} is no choice");
            return None;
        };
        match self.get(f)? {
            Setting::Choice(i) => Some(Sp::new(*names.get(usize::from(i.value))?, i.loc)),
            _ => None,
        }
    }
}

impl Component {
    /// Sets the settings read.
    pub fn set_settings(&mut self, s: Settings) {
        self.settings = s;
    }
}

setting_accessors!(Component, Field);
