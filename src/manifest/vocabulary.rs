//! The manifest's vocabulary: every field of every object of the format,
//! declared once with where it may appear, its type, its choices, where its
//! default comes from and a one-line doc. The rows are in `fields.rs`;
//! this file holds what a row is and the lists derived from the rows.
//!
//! Everything else that names fields reads this table: the loader's lists
//! of known fields (and so its "unknown field ... did you mean"), the JSON
//! Schema (`replay-audit schema`), the field lists of `what-if` and of the
//! shell's completion, and the generated reference in `docs/manifest.md`.
//! Each object's rows are in the order the loader lists them in its errors.
//! The settings of components and links ([`Field`], [`LinkField`]) are
//! generated from their rows, and the loader reads each by its row's type;
//! the fields with a structure of their own (links, keys, guards, ...) are
//! read by the loader's code for them. The names of typed choices are
//! declared beside their variants ([`Named`](crate::manifest::model::Named))
//! and referenced here.

use crate::catalog::Generic;
use crate::manifest::model::LinkType;

mod fields;

use fields::{
    BACKUP, CALLS, COMPONENT, DEAD_LETTER, DELIVERS_TO, EFFECTS, GUARD, IN_PROGRESS, INTENT, KEY,
    MANIFEST, REDRIVE, REGION, REPLAY, RETRY, SENDS_TO,
};
pub use fields::{Field, KEY_SCOPE, LinkField, ON_EXPIRY, RECONCILIATION};

/// What a field's value is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Type {
    /// The format version: `1`.
    Version,
    /// A string (a number or a boolean is read as its text); `examples`
    /// lists common values where the set is open.
    Text { examples: &'static [&'static str] },
    /// A string or a list of strings.
    Texts,
    /// A generic or catalog kind (`replay-audit catalog`).
    Kind,
    /// The id of a component or region.
    Id,
    /// One id or a list of ids.
    Ids,
    /// A duration; `zero` where zero means something ("not kept").
    Duration { zero: bool },
    /// A whole number, at least `min`.
    Count { min: u64 },
    /// A positive number.
    Number,
    /// `true` or `false`.
    Bool,
    /// One of a closed list of names.
    Choice(&'static [&'static str]),
    /// A nested object.
    Object(Obj),
    /// One nested object or a list of them.
    Objects(Obj),
    /// A link: an id, or an object with `to`; `many`: one or a list.
    Link { obj: Obj, many: bool },
    /// A mapping of id to objects (the sections of the top level).
    Entries(Obj),
}

/// Whether a field must be written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Need {
    Optional,
    Required,
    /// Required, except on a component that extends one an imported file
    /// defines (an overlay completing `import` output).
    RequiredUnlessExtends,
    /// Required unless the named alias is written instead.
    RequiredOr(&'static str),
}

/// Where the value of a field left out comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DefaultFrom {
    /// Nothing: the analysis treats it as not declared.
    None,
    /// The catalog entry of the component's kind, where it documents one.
    Catalog,
    /// A fixed value or rule, as written.
    Fixed(&'static str),
}

/// The generic kinds a component field applies to (what the shell
/// offers on a component of each kind); every kind for the fields of the
/// other objects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Kinds(u16);

impl Kinds {
    pub const ALL: Kinds = Kinds(u16::MAX);

    pub const fn of(generics: &[Generic]) -> Kinds {
        let (mut bits, mut i) = (0, 0);
        while i < generics.len() {
            bits |= 1 << generics[i] as u16;
            i += 1;
        }
        Kinds(bits)
    }

    pub const fn or(self, other: Kinds) -> Kinds {
        Kinds(self.0 | other.0)
    }

    pub fn has(self, g: Generic) -> bool {
        self.0 & (1 << g as u16) != 0
    }
}

/// One field of one object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldDef {
    pub name: &'static str,
    pub ty: Type,
    pub need: Need,
    pub default: DefaultFrom,
    pub kinds: Kinds,
    pub doc: &'static str,
}

/// The objects of the format: each has its own fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Obj {
    Manifest,
    Region,
    Intent,
    Key,
    Replay,
    Component,
    SendsTo,
    DeliversTo,
    Calls,
    DeadLetter,
    Redrive,
    Effects,
    Retry,
    Guard,
    InProgress,
    Backup,
}

impl Obj {
    /// Every object, in the order of the reference.
    pub const ALL: &'static [Obj] = &[
        Obj::Manifest,
        Obj::Region,
        Obj::Intent,
        Obj::Key,
        Obj::Replay,
        Obj::Component,
        Obj::SendsTo,
        Obj::DeliversTo,
        Obj::Calls,
        Obj::DeadLetter,
        Obj::Redrive,
        Obj::Effects,
        Obj::Retry,
        Obj::Guard,
        Obj::InProgress,
        Obj::Backup,
    ];

    /// The object's fields, in the loader's order.
    pub const fn fields(self) -> &'static [FieldDef] {
        match self {
            Obj::Manifest => MANIFEST,
            Obj::Region => REGION,
            Obj::Intent => INTENT,
            Obj::Key => KEY,
            Obj::Replay => REPLAY,
            Obj::Component => COMPONENT,
            Obj::SendsTo => SENDS_TO,
            Obj::DeliversTo => DELIVERS_TO,
            Obj::Calls => CALLS,
            Obj::DeadLetter => DEAD_LETTER,
            Obj::Redrive => REDRIVE,
            Obj::Effects => EFFECTS,
            Obj::Retry => RETRY,
            Obj::Guard => GUARD,
            Obj::InProgress => IN_PROGRESS,
            Obj::Backup => BACKUP,
        }
    }

    /// The names of the object's fields, in the loader's order.
    pub fn names(self) -> &'static [&'static str] {
        match self {
            Obj::Manifest => TOP_FIELDS,
            Obj::Region => REGION_FIELDS,
            Obj::Intent => INTENT_FIELDS,
            Obj::Key => KEY_FIELDS,
            Obj::Replay => REPLAY_FIELDS,
            Obj::Component => COMPONENT_FIELDS,
            Obj::SendsTo => SENDS_TO_FIELDS,
            Obj::DeliversTo => DELIVERS_TO_FIELDS,
            Obj::Calls => CALLS_FIELDS,
            Obj::DeadLetter => DEAD_LETTER_FIELDS,
            Obj::Redrive => REDRIVE_FIELDS,
            Obj::Effects => EFFECTS_FIELDS,
            Obj::Retry => RETRY_FIELDS,
            Obj::Guard => GUARD_FIELDS,
            Obj::InProgress => IN_PROGRESS_FIELDS,
            Obj::Backup => BACKUP_FIELDS,
        }
    }

    /// The object's name in the schema's `$defs` and in the reference.
    pub fn def(self) -> &'static str {
        match self {
            Obj::Manifest => "manifest",
            Obj::Region => "region",
            Obj::Intent => "intent",
            Obj::Key => "key",
            Obj::Replay => "replay",
            Obj::Component => "component",
            Obj::SendsTo => "sends_to",
            Obj::DeliversTo => "delivers_to",
            Obj::Calls => "calls",
            Obj::DeadLetter => "dead_letter",
            Obj::Redrive => "redrive",
            Obj::Effects => "effects",
            Obj::Retry => "retry",
            Obj::Guard => "guard",
            Obj::InProgress => "in_progress",
            Obj::Backup => "backup",
        }
    }

    /// Where the object is written, as a path with placeholders.
    pub fn place(self) -> &'static str {
        match self {
            Obj::Manifest => "<file>",
            Obj::Region => "regions.<id>",
            Obj::Intent => "intents.<id>",
            Obj::Key => "intents.<id>.key",
            Obj::Replay => "intents.<id>.replays[]",
            Obj::Component => "components.<id>",
            Obj::SendsTo => "components.<id>.sends_to[]",
            Obj::DeliversTo => "components.<id>.delivers_to[]",
            Obj::Calls => "components.<id>.calls[]",
            Obj::DeadLetter => "components.<id>.dead_letter",
            Obj::Redrive => "components.<id>.redrive",
            Obj::Effects => "components.<id>.effects[]",
            Obj::Retry => "components.<id>.<sends_to|delivers_to|calls>[].retry",
            Obj::Guard => "components.<id>.dedup",
            Obj::InProgress => "components.<id>.dedup.in_progress",
            Obj::Backup => "components.<id>.backup",
        }
    }

    /// What the object is, in one line.
    pub fn doc(self) -> &'static str {
        match self {
            Obj::Manifest => {
                "version, name and the three sections; several files form one architecture"
            }
            Obj::Region => {
                "a region components run in, and how a failover to another one goes; may be empty"
            }
            Obj::Intent => "a business decision the idempotency key names",
            Obj::Key => "the idempotency key of an intent",
            Obj::Replay => "a replay people or batch jobs perform later",
            Obj::Component => "a node of the architecture: its kind, regions, links and settings",
            Obj::SendsTo => "publishes to a queue, topic, stream or bus",
            Obj::DeliversTo => "a transport's delivery to a consumer",
            Obj::Calls => "a synchronous request",
            Obj::DeadLetter => "where failed messages go",
            Obj::Redrive => "moves messages of a dead-letter queue back for reprocessing",
            Obj::Effects => "the side effect itself",
            Obj::Retry => "a retry policy",
            Obj::Guard => "the dedup guard: claims the key in a store before the effect",
            Obj::InProgress => "what a copy finds while another one holds the claim",
            Obj::Backup => "point-in-time backups of a store",
        }
    }

    /// The link object of a link type.
    pub fn link(ty: LinkType) -> Obj {
        match ty {
            LinkType::SendsTo => Obj::SendsTo,
            LinkType::DeliversTo => Obj::DeliversTo,
            LinkType::Calls => Obj::Calls,
            LinkType::DeadLetter => Obj::DeadLetter,
            LinkType::Redrive => Obj::Redrive,
            LinkType::Effects => Obj::Effects,
        }
    }

    /// The row of field `name`, if the object has one.
    pub fn field(self, name: &str) -> Option<&'static FieldDef> {
        self.fields().iter().find(|f| f.name == name)
    }
}

/// The names of `fields`, for the lists the loader checks keys against.
const fn names<const N: usize>(fields: &[FieldDef]) -> [&'static str; N] {
    let mut out = [""; N];
    let mut i = 0;
    while i < N {
        out[i] = fields[i].name;
        i += 1;
    }
    out
}

const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Which component or top-level fields a derived list holds.
#[derive(Clone, Copy)]
enum Pick {
    Entries,
    Links,
    RetryLinks,
}

const fn picked(field: &FieldDef, pick: Pick) -> bool {
    match (pick, field.ty) {
        (Pick::Entries, Type::Entries(_)) => true,
        (Pick::Links, Type::Link { .. }) => true,
        (Pick::RetryLinks, Type::Link { obj, .. }) => has(obj.fields(), "retry"),
        _ => false,
    }
}

const fn has(fields: &[FieldDef], name: &str) -> bool {
    let mut i = 0;
    while i < fields.len() {
        if same(fields[i].name, name) {
            return true;
        }
        i += 1;
    }
    false
}

const fn count(fields: &[FieldDef], pick: Pick) -> usize {
    let (mut i, mut n) = (0, 0);
    while i < fields.len() {
        if picked(&fields[i], pick) {
            n += 1;
        }
        i += 1;
    }
    n
}

const fn select<const N: usize>(fields: &[FieldDef], pick: Pick) -> [&'static str; N] {
    let mut out = [""; N];
    let (mut i, mut n) = (0, 0);
    while i < fields.len() {
        if picked(&fields[i], pick) {
            out[n] = fields[i].name;
            n += 1;
        }
        i += 1;
    }
    out
}

/// Whether field `i` of link object `o` is the first with its name.
const fn first_link_item(o: usize, i: usize) -> bool {
    let name = LINKS[o].fields()[i].name;
    let mut p = 0;
    while p <= o {
        let fields = LINKS[p].fields();
        let end = if p == o { i } else { fields.len() };
        let mut j = 0;
        while j < end {
            if same(fields[j].name, name) {
                return false;
            }
            j += 1;
        }
        p += 1;
    }
    true
}

/// The fields of the link objects, each once, in the order first met
/// (`N` = 0 counts them).
const fn link_items<const N: usize>() -> ([&'static str; N], usize) {
    let mut out = [""; N];
    let (mut o, mut n) = (0, 0);
    while o < LINKS.len() {
        let mut i = 0;
        while i < LINKS[o].fields().len() {
            if first_link_item(o, i) {
                if n < N {
                    out[n] = LINKS[o].fields()[i].name;
                }
                n += 1;
            }
            i += 1;
        }
        o += 1;
    }
    (out, n)
}

/// The sections of the top level (mappings of id to objects), in order.
pub const SECTIONS: &[&str] =
    &select::<{ count(MANIFEST, Pick::Entries) }>(MANIFEST, Pick::Entries);
/// The component fields that are links (an id there names a component).
pub const LINK_FIELDS: &[&str] =
    &select::<{ count(COMPONENT, Pick::Links) }>(COMPONENT, Pick::Links);
/// The component fields whose links take a `retry` policy.
pub const RETRY_LINKS: &[&str] =
    &select::<{ count(COMPONENT, Pick::RetryLinks) }>(COMPONENT, Pick::RetryLinks);
/// Every field a link item may have (any link type's), each once.
pub const LINK_ITEM_FIELDS: &[&str] = &link_items::<{ link_items::<0>().1 }>().0;

/// The link objects, for the settings a link may write.
pub const LINKS: &[Obj] = &[
    Obj::SendsTo,
    Obj::DeliversTo,
    Obj::Calls,
    Obj::DeadLetter,
    Obj::Redrive,
    Obj::Effects,
];

pub const TOP_FIELDS: &[&str] = &names::<{ MANIFEST.len() }>(MANIFEST);
pub const REGION_FIELDS: &[&str] = &names::<{ REGION.len() }>(REGION);
pub const INTENT_FIELDS: &[&str] = &names::<{ INTENT.len() }>(INTENT);
pub const KEY_FIELDS: &[&str] = &names::<{ KEY.len() }>(KEY);
pub const REPLAY_FIELDS: &[&str] = &names::<{ REPLAY.len() }>(REPLAY);
pub const COMPONENT_FIELDS: &[&str] = &names::<{ COMPONENT.len() }>(COMPONENT);
pub const SENDS_TO_FIELDS: &[&str] = &names::<{ SENDS_TO.len() }>(SENDS_TO);
pub const DELIVERS_TO_FIELDS: &[&str] = &names::<{ DELIVERS_TO.len() }>(DELIVERS_TO);
pub const CALLS_FIELDS: &[&str] = &names::<{ CALLS.len() }>(CALLS);
pub const DEAD_LETTER_FIELDS: &[&str] = &names::<{ DEAD_LETTER.len() }>(DEAD_LETTER);
pub const REDRIVE_FIELDS: &[&str] = &names::<{ REDRIVE.len() }>(REDRIVE);
pub const EFFECTS_FIELDS: &[&str] = &names::<{ EFFECTS.len() }>(EFFECTS);
pub const RETRY_FIELDS: &[&str] = &names::<{ RETRY.len() }>(RETRY);
pub const GUARD_FIELDS: &[&str] = &names::<{ GUARD.len() }>(GUARD);
pub const IN_PROGRESS_FIELDS: &[&str] = &names::<{ IN_PROGRESS.len() }>(IN_PROGRESS);
pub const BACKUP_FIELDS: &[&str] = &names::<{ BACKUP.len() }>(BACKUP);
