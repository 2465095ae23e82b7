//! The manifest's vocabulary: every field of every object of the format,
//! declared once with where it may appear, its type, its choices, where its
//! default comes from and a one-line doc.
//!
//! Everything else that names fields reads this table: the loader's lists
//! of known fields (and so its "unknown field ... did you mean"), the JSON
//! Schema (`replay-audit schema`), the field lists of `what-if` and of the
//! shell's completion, and the generated reference in `docs/manifest.md`.
//! Each object's rows are in the order the loader lists them in its errors.
//! The readers of each field stay in the loader (a type needs code); the
//! names of typed choices are declared beside their variants
//! ([`Named`](crate::manifest::model::Named)) and referenced here.

use crate::manifest::model::{
    Claim, DedupId, Delivery, Expiry, LinkType, Minted, Mode, Named, RedriveMode, Replication,
};

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

/// One field of one object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldDef {
    pub name: &'static str,
    pub ty: Type,
    pub need: Need,
    pub default: DefaultFrom,
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

/// Whether one of `objects` declares a field `name` (checked at compile
/// time by the model's settings, which name fields of this table).
pub const fn declares(objects: &[Obj], name: &str) -> bool {
    let mut o = 0;
    while o < objects.len() {
        let fields = objects[o].fields();
        let mut i = 0;
        while i < fields.len() {
            if same(fields[i].name, name) {
                return true;
            }
            i += 1;
        }
        o += 1;
    }
    false
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

/// The values `reconciliation` takes.
/// Where a provider recognises a key (`key_scope`).
pub const KEY_SCOPE: &[&str] = &["global", "region", "zone"];

pub const RECONCILIATION: &[&str] = &[
    "none",
    "lookup",
    "transactional",
    "outbox",
    "saga",
    "manual",
    "documented-tradeoff",
];
/// The values `in_progress.on_expiry` takes.
pub const ON_EXPIRY: &[&str] = &["reconcile", "retry"];

use DefaultFrom::{Catalog, Fixed, None as No};
use Need::{Optional as Opt, Required as Req};

const fn f(
    name: &'static str,
    ty: Type,
    need: Need,
    default: DefaultFrom,
    doc: &'static str,
) -> FieldDef {
    FieldDef {
        name,
        ty,
        need,
        default,
        doc,
    }
}

const DUR: Type = Type::Duration { zero: true };
const POSITIVE: Type = Type::Duration { zero: false };
const TEXT: Type = Type::Text { examples: &[] };

#[rustfmt::skip]
const MANIFEST: &[FieldDef] = &[
    f("version", Type::Version, Req, No, "the manifest format version"),
    f("name", TEXT, Opt, No, "the architecture's name, used in reports"),
    f("regions", Type::Entries(Obj::Region), Opt, No, "region id to region settings"),
    f("intents", Type::Entries(Obj::Intent), Opt, No, "intent id to intent"),
    f("components", Type::Entries(Obj::Component), Opt, No, "component id to component"),
];

#[rustfmt::skip]
const REGION: &[FieldDef] = &[
    f("failover_to", Type::Id, Opt, No, "the region that takes over when this one fails"),
    f("detection", DUR, Opt, No, "how long a failure takes to be noticed and acted on"),
    f("catch_up", DUR, Opt, No, "how long the other region takes to catch up after a failover"),
];

#[rustfmt::skip]
const INTENT: &[FieldDef] = &[
    f("description", TEXT, Opt, No, "what the decision is, for people"),
    f("origin", Type::Id, Req, No, "the component where the decision becomes stable"),
    f("effect", Type::Ids, Need::RequiredOr("effects"), No, "the component(s) where the business effect happens"),
    f("effects", Type::Ids, Opt, No, "alias of `effect`"),
    f("key", Type::Object(Obj::Key), Opt, No, "the idempotency key"),
    f("fingerprint", Type::Texts, Opt, No, "the request fields a repeated key must match"),
    f("replays", Type::Objects(Obj::Replay), Opt, No, "replays people or batch jobs perform later"),
    f("tested", Type::Texts, Opt, No, "failure injections the team has run"),
];

#[rustfmt::skip]
const KEY: &[FieldDef] = &[
    f("fields", Type::Texts, Opt, No, "natural key fields, or [uuid] for a generated one"),
    f("minted_at", Type::Id, Opt, Fixed("the intent's origin"), "where the key is created"),
    f("minted", Type::Choice(Minted::NAMES), Opt, Fixed("per-intent"), "per-attempt: a new key on each try"),
    f("persisted_before_retry", Type::Bool, Opt, No, "the key is stored before the first attempt, so a retry reuses it"),
    f("business_assigned", Type::Texts, Opt, No, "key fields our own code assigns, though their names look like a transport's (a client-supplied `messageId` in the body)"),
];

#[rustfmt::skip]
const REPLAY: &[FieldDef] = &[
    f("name", TEXT, Opt, Fixed("replay N"), "what the replay is called in reports"),
    f("enters_at", Type::Id, Req, No, "the component the replayed copy enters at"),
    f("within", DUR, Req, No, "the latest age at which the replay happens"),
];

#[rustfmt::skip]
const COMPONENT: &[FieldDef] = &[
    f("kind", Type::Kind, Need::RequiredUnlessExtends, No, "a generic or catalog kind (`replay-audit catalog`)"),
    f("description", TEXT, Opt, No, "what the component is, for people"),
    f("regions", Type::Ids, Opt, No, "the regions it runs in; the first is the primary"),
    f("mode", Type::Choice(Mode::NAMES), Opt, Fixed("active-passive"), "how it runs in several regions"),
    f("sends_to", Type::Link { obj: Obj::SendsTo, many: true }, Opt, No, "publishes to a queue, topic, stream or bus"),
    f("delivers_to", Type::Link { obj: Obj::DeliversTo, many: true }, Opt, No, "delivery to a consumer"),
    f("calls", Type::Link { obj: Obj::Calls, many: true }, Opt, No, "synchronous requests"),
    f("dead_letter", Type::Link { obj: Obj::DeadLetter, many: false }, Opt, No, "where failed messages go"),
    f("redrive", Type::Link { obj: Obj::Redrive, many: false }, Opt, No, "moves messages back for reprocessing (on a dead-letter queue)"),
    f("dedup", Type::Object(Obj::Guard), Opt, No, "claims the key in a store before the effect"),
    f("effects", Type::Link { obj: Obj::Effects, many: true }, Opt, No, "the side effects it performs"),
    f("timeout", POSITIVE, Opt, No, "how long one invocation may run"),
    f("visibility_timeout", DUR, Opt, Catalog, "how long a received message stays hidden before it is delivered again"),
    f("retention", DUR, Opt, Catalog, "how long a message or a completed record is kept (`unbounded`: forever, 0: not kept)"),
    f("max_receives", Type::Count { min: 1 }, Opt, Catalog, "receives before a message moves to the dead-letter queue"),
    f("delivery", Type::Choice(Delivery::NAMES), Opt, Catalog, "the delivery guarantee, as the platform documents it"),
    f("dedup_window", DUR, Opt, Catalog, "for how long the transport deduplicates"),
    f("dedup_scope", Type::Text { examples: &["queue", "message-group", "account"] }, Opt, Catalog, "what the transport deduplicates within"),
    f("content_based_dedup", Type::Bool, Opt, No, "the transport deduplicates by the message body"),
    f("dlq_keeps_enqueue_time", Type::Bool, Opt, Catalog, "as a dead-letter queue, a moved message keeps its original enqueue time (SQS standard) instead of starting a new retention (SQS FIFO)"),
    f("message_attributes", Type::Texts, Opt, No, "attributes that carry business meaning"),
    f("max_backlog", DUR, Opt, No, "an operational assumption: the longest a message waits"),
    f("max_event_age", POSITIVE, Opt, Catalog, "how long an asynchronous invocation's event is kept"),
    f("expiry", Type::Choice(Expiry::NAMES), Opt, Catalog, "who decides that a record has expired"),
    f("replication", Type::Choice(Replication::NAMES), Opt, Catalog, "how the store reaches other regions"),
    f("scope", Type::Text { examples: &["global", "region", "zone", "account", "tenant", "queue", "process"] }, Opt, Catalog, "where the store's records are visible"),
    f("backup", Type::Object(Obj::Backup), Opt, No, "point-in-time backups of the store"),
    f("unique", Type::Texts, Opt, No, "a durable business identifier the store enforces"),
    f("accepts_key", Type::Bool, Opt, Catalog, "the provider deduplicates by our key"),
    f("key_window", DUR, Opt, Catalog, "for how long the provider deduplicates"),
    f("key_scope", Type::Choice(KEY_SCOPE), Opt, Catalog, "where the provider recognises a key: a copy sent through another Region's (or zone's) endpoint is new to a narrower scope"),
    f("witness", TEXT, Opt, No, "an MRSC global table's witness Region: two replicas plus a witness instead of three replicas"),
    f("lookup_by_reference", Type::Bool, Opt, No, "we can ask whether the effect already happened"),
    f("reconciliation", Type::Choice(RECONCILIATION), Opt, No, "how an ambiguous outcome is resolved"),
    f("uses", Type::Texts, Opt, No, "as an intent's effect, the request fields its outcome depends on (`[amount, currency]`): RH023 fires when the intent's fingerprint and key leave one out"),
];

#[rustfmt::skip]
const TO: FieldDef = f("to", Type::Id, Req, No, "the component the link leads to");
#[rustfmt::skip]
const LINK_RETRY: FieldDef = f("retry", Type::Object(Obj::Retry), Opt, Catalog, "how failed attempts are retried");
#[rustfmt::skip]
const PASSES_KEY: FieldDef = f("passes_key", Type::Bool, Opt, Fixed("false"), "the idempotency key travels with the request");

#[rustfmt::skip]
const NAME_FROM_KEY: FieldDef = f("name_from_key", Type::Bool, Opt, Fixed("false"), "the start carries an execution name made from the idempotency key: a workflow that dedups starts by name (Step Functions Standard F033, Lambda durable F029) stops a repeat while the name is kept");

#[rustfmt::skip]
const SENDS_TO: &[FieldDef] = &[
    TO,
    LINK_RETRY,
    f("dedup_id", Type::Choice(DedupId::NAMES), Opt, No, "what the transport deduplicates sends by"),
    NAME_FROM_KEY,
];

#[rustfmt::skip]
const DELIVERS_TO: &[FieldDef] = &[
    TO,
    LINK_RETRY,
    f("max_record_age", POSITIVE, Opt, Catalog, "the oldest record still delivered"),
    NAME_FROM_KEY,
    f("passes_key", Type::Bool, Opt, Fixed("true"), "the key reaches the target's own dedup: a message carries the request, but an HTTP endpoint (an EventBridge API destination) recognises the key only in the header the delivery sets: `false` where it sets none"),
];

#[rustfmt::skip]
const CALLS: &[FieldDef] = &[
    TO,
    f("timeout", POSITIVE, Opt, No, "the per-attempt timeout"),
    LINK_RETRY,
    PASSES_KEY,
    NAME_FROM_KEY,
];

#[rustfmt::skip]
const DEAD_LETTER: &[FieldDef] = &[
    TO,
    f("after_receives", Type::Count { min: 1 }, Opt, Fixed("the queue's max_receives"), "receives before a message moves"),
];

#[rustfmt::skip]
const REDRIVE: &[FieldDef] = &[
    TO,
    f("mode", Type::Choice(RedriveMode::NAMES), Opt, No, "who moves messages back"),
    f("within", DUR, Opt, Fixed("the dead-letter queue's retention"), "the latest age at which messages are moved back"),
    f("max_times", Type::Count { min: 0 }, Opt, No, "how often a message may go round; without it a cycle is unbounded"),
];

#[rustfmt::skip]
const EFFECTS: &[FieldDef] = &[TO, PASSES_KEY];

#[rustfmt::skip]
const RETRY: &[FieldDef] = &[
    f("attempts", Type::Count { min: 1 }, Opt, Catalog, "total attempts including the first"),
    f("timeout", POSITIVE, Opt, Fixed("the call's timeout"), "per attempt"),
    f("backoff", DUR, Opt, No, "the first delay"),
    f("multiplier", Type::Number, Opt, Fixed("2"), "each delay is the previous one times this"),
    f("max_backoff", DUR, Opt, No, "the longest delay"),
    f("max_elapsed", POSITIVE, Opt, No, "a cap on the whole sequence"),
];

#[rustfmt::skip]
const GUARD: &[FieldDef] = &[
    f("store", Type::Id, Req, No, "the store that holds the claimed keys"),
    f("claim", Type::Choice(Claim::NAMES), Opt, No, "how the key is claimed"),
    f("binds_fingerprint", Type::Bool, Opt, No, "a repeated key with another fingerprint is refused"),
    f("stores_result", Type::Bool, Opt, No, "a repeated key gets the first result back"),
    f("in_progress", Type::Object(Obj::InProgress), Opt, No, "what a copy finds while the claim is held"),
];

#[rustfmt::skip]
const IN_PROGRESS: &[FieldDef] = &[
    f("on_conflict", Type::Text { examples: &["reject"] }, Opt, No, "what a copy gets while the claim is held"),
    f("expires_after", POSITIVE, Opt, No, "when an unfinished claim expires"),
    f("on_expiry", Type::Choice(ON_EXPIRY), Opt, No, "what a copy does when an in-progress claim expires"),
];

#[rustfmt::skip]
const BACKUP: &[FieldDef] = &[
    f("rpo", DUR, Opt, No, "the recovery point objective: how much a restore may lose"),
    f("restored_with", Type::Ids, Opt, No, "stores restored together with this one"),
];
