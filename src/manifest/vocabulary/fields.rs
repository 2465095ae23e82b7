//! The vocabulary's table: the rows of every object's fields (name, type,
//! need, default source, the kinds a component field applies to, doc) in
//! the loader's order, the value lists of the choices that have no typed
//! enum, and the enums of the settings ([`Field`], [`LinkField`]) generated
//! from the rows. [`super`] holds the types of a row and the lists derived
//! from the table.

use super::{DefaultFrom, FieldDef, Kinds, Need, Obj, Type};
use crate::catalog::Generic;
use crate::manifest::model::{
    Claim, DedupId, Delivery, Expiry, Minted, Mode, Named, RedriveMode, Replication,
};

/// Where a provider recognises a key (`key_scope`).
pub const KEY_SCOPE: &[&str] = &["global", "region", "zone"];
/// The values `reconciliation` takes.
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
        kinds: Kinds::ALL,
        doc,
    }
}

impl FieldDef {
    /// The row, applying only to components of the generic kinds `kinds`.
    const fn on(self, kinds: Kinds) -> FieldDef {
        FieldDef { kinds, ..self }
    }
}

const COMPUTE: Kinds = Kinds::of(&[Generic::Service, Generic::Function, Generic::Workflow]);
const FUNCTION: Kinds = Kinds::of(&[Generic::Function]);
const WORKFLOW: Kinds = Kinds::of(&[Generic::Workflow]);
const TRANSPORT: Kinds = Kinds::of(&[Generic::Queue, Generic::Topic, Generic::Stream]);
const QUEUE: Kinds = Kinds::of(&[Generic::Queue]);
const TOPIC: Kinds = Kinds::of(&[Generic::Topic]);
const STORE: Kinds = Kinds::of(&[Generic::Store, Generic::Ledger]);
const EXTERNAL: Kinds = Kinds::of(&[Generic::External]);

/// The component's table, `COMPONENT`, and from the rows marked
/// `@Variant` the enum of the settings, [`Field`], each variant with its
/// row: one line declares a setting.
macro_rules! component {
    ($($(@$variant:ident)? $row:expr,)*) => {
        pub(super) const COMPONENT: &[FieldDef] = &[$($row,)*];

        /// A setting a component may write beyond its kind, regions, links,
        /// guard and backup: the rows of [`COMPONENT`] marked `@Variant`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Field {
            $($($variant,)?)*
        }

        impl Field {
            /// Every setting, in the order of the table.
            pub const ALL: &'static [Field] = &[$($(Field::$variant,)?)*];

            /// The setting's name in the manifest.
            pub const fn name(self) -> &'static str {
                self.def().name
            }

            /// The setting's row.
            pub const fn def(self) -> &'static FieldDef {
                match self {
                    $($(Field::$variant => {
                        const ROW: &FieldDef = &$row;
                        ROW
                    })?)*
                }
            }
        }
    };
}

/// The settings a link may write beyond `to` and `retry`, each named by
/// the row it is declared with ([`LinkField`]); a link reads a setting by
/// the row of its own object, where two objects declare one name.
macro_rules! link_fields {
    ($($variant:ident = $row:expr,)*) => {
        /// A field of a link other than `to` and `retry`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum LinkField {
            $($variant,)*
        }

        impl LinkField {
            /// Every link setting.
            pub const ALL: &'static [LinkField] = &[$(LinkField::$variant,)*];

            /// The setting's name in the manifest.
            pub const fn name(self) -> &'static str {
                self.def().name
            }

            /// The setting's row (its first, where two link objects
            /// declare the name).
            pub const fn def(self) -> &'static FieldDef {
                match self {
                    $(LinkField::$variant => &$row,)*
                }
            }
        }
    };
}

const DUR: Type = Type::Duration { zero: true };
const POSITIVE: Type = Type::Duration { zero: false };
const TEXT: Type = Type::Text { examples: &[] };

#[rustfmt::skip]
pub(super) const MANIFEST: &[FieldDef] = &[
    f("version", Type::Version, Req, No, "the manifest format version"),
    f("name", TEXT, Opt, No, "the architecture's name, used in reports"),
    f("regions", Type::Entries(Obj::Region), Opt, No, "region id to region settings"),
    f("intents", Type::Entries(Obj::Intent), Opt, No, "intent id to intent"),
    f("components", Type::Entries(Obj::Component), Opt, No, "component id to component"),
];

#[rustfmt::skip]
pub(super) const REGION: &[FieldDef] = &[
    f("failover_to", Type::Id, Opt, No, "the region that takes over when this one fails"),
    f("detection", DUR, Opt, No, "how long a failure takes to be noticed and acted on"),
    f("catch_up", DUR, Opt, No, "how long the other region takes to catch up after a failover"),
];

#[rustfmt::skip]
pub(super) const INTENT: &[FieldDef] = &[
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
pub(super) const KEY: &[FieldDef] = &[
    f("fields", Type::Texts, Opt, No, "natural key fields, or [uuid] for a generated one"),
    f("minted_at", Type::Id, Opt, Fixed("the intent's origin"), "where the key is created"),
    f("minted", Type::Choice(Minted::NAMES), Opt, Fixed("per-intent"), "per-attempt: a new key on each try"),
    f("persisted_before_retry", Type::Bool, Opt, No, "the key is stored before the first attempt, so a retry reuses it"),
    f("business_assigned", Type::Texts, Opt, No, "key fields our own code assigns, though their names look like a transport's (a client-supplied `messageId` in the body)"),
];

#[rustfmt::skip]
pub(super) const REPLAY: &[FieldDef] = &[
    f("name", TEXT, Opt, Fixed("replay N"), "what the replay is called in reports"),
    f("enters_at", Type::Id, Req, No, "the component the replayed copy enters at"),
    f("within", DUR, Req, No, "the latest age at which the replay happens"),
];

// A component's fields; `@Variant` marks a setting, a field of [`Field`].
component! {
    f("kind", Type::Kind, Need::RequiredUnlessExtends, No, "a generic or catalog kind (`replay-audit catalog`)"),
    f("description", TEXT, Opt, No, "what the component is, for people"),
    f("regions", Type::Ids, Opt, No, "the regions it runs in; the first is the primary"),
    f("mode", Type::Choice(Mode::NAMES), Opt, Fixed("active-passive"), "how it runs in several regions"),
    f("sends_to", Type::Link { obj: Obj::SendsTo, many: true }, Opt, No, "publishes to a queue, topic, stream or bus").on(COMPUTE.or(TRANSPORT)),
    f("delivers_to", Type::Link { obj: Obj::DeliversTo, many: true }, Opt, No, "delivery to a consumer").on(FUNCTION.or(TRANSPORT)),
    f("calls", Type::Link { obj: Obj::Calls, many: true }, Opt, No, "synchronous requests").on(COMPUTE),
    f("dead_letter", Type::Link { obj: Obj::DeadLetter, many: false }, Opt, No, "where failed messages go").on(FUNCTION.or(TRANSPORT)),
    f("redrive", Type::Link { obj: Obj::Redrive, many: false }, Opt, No, "moves messages back for reprocessing (on a dead-letter queue)").on(TRANSPORT),
    f("dedup", Type::Object(Obj::Guard), Opt, No, "claims the key in a store before the effect").on(COMPUTE),
    f("effects", Type::Link { obj: Obj::Effects, many: true }, Opt, No, "the side effects it performs").on(COMPUTE),
    @Timeout f("timeout", POSITIVE, Opt, No, "how long one invocation may run").on(COMPUTE),
    @VisibilityTimeout f("visibility_timeout", DUR, Opt, Catalog, "how long a received message stays hidden before it is delivered again").on(TRANSPORT),
    @Retention f("retention", DUR, Opt, Catalog, "how long a message or a completed record is kept (`unbounded`: forever, 0: not kept)").on(FUNCTION.or(TRANSPORT).or(STORE).or(WORKFLOW)),
    @MaxReceives f("max_receives", Type::Count { min: 1 }, Opt, Catalog, "receives before a message moves to the dead-letter queue").on(FUNCTION.or(TRANSPORT)),
    @Delivery f("delivery", Type::Choice(Delivery::NAMES), Opt, Catalog, "the delivery guarantee, as the platform documents it").on(TRANSPORT),
    @DedupWindow f("dedup_window", DUR, Opt, Catalog, "for how long the transport deduplicates").on(TRANSPORT),
    @DedupScope f("dedup_scope", Type::Text { examples: &["queue", "message-group", "account"] }, Opt, Catalog, "what the transport deduplicates within").on(TRANSPORT.or(EXTERNAL).or(WORKFLOW)),
    @ContentBasedDedup f("content_based_dedup", Type::Bool, Opt, No, "the transport deduplicates by the message body").on(TRANSPORT),
    @DlqKeepsEnqueueTime f("dlq_keeps_enqueue_time", Type::Bool, Opt, Catalog, "as a dead-letter queue, a moved message keeps its original enqueue time (SQS standard) instead of starting a new retention (SQS FIFO)").on(QUEUE),
    @MessageAttributes f("message_attributes", Type::Texts, Opt, No, "attributes that carry business meaning").on(TRANSPORT),
    @MaxBacklog f("max_backlog", DUR, Opt, No, "an operational assumption: the longest a message waits").on(TRANSPORT),
    @MaxEventAge f("max_event_age", POSITIVE, Opt, Catalog, "how long an asynchronous invocation's event is kept").on(FUNCTION.or(TOPIC)),
    @Expiry f("expiry", Type::Choice(Expiry::NAMES), Opt, Catalog, "who decides that a record has expired").on(STORE),
    @Replication f("replication", Type::Choice(Replication::NAMES), Opt, Catalog, "how the store reaches other regions").on(STORE),
    @Scope f("scope", Type::Text { examples: &["global", "region", "zone", "account", "tenant", "queue", "process"] }, Opt, Catalog, "where the store's records are visible").on(STORE),
    f("backup", Type::Object(Obj::Backup), Opt, No, "point-in-time backups of the store").on(STORE),
    @Unique f("unique", Type::Texts, Opt, No, "a durable business identifier the store enforces").on(STORE),
    @AcceptsKey f("accepts_key", Type::Bool, Opt, Catalog, "the provider deduplicates by our key").on(EXTERNAL),
    @KeyWindow f("key_window", DUR, Opt, Catalog, "for how long the provider deduplicates").on(EXTERNAL),
    @KeyScope f("key_scope", Type::Choice(KEY_SCOPE), Opt, Catalog, "where the provider recognises a key: a copy sent through another Region's (or zone's) endpoint is new to a narrower scope").on(EXTERNAL),
    @Witness f("witness", TEXT, Opt, No, "an MRSC global table's witness Region: two replicas plus a witness instead of three replicas").on(STORE),
    @LookupByReference f("lookup_by_reference", Type::Bool, Opt, No, "we can ask whether the effect already happened").on(EXTERNAL),
    @Reconciliation f("reconciliation", Type::Choice(RECONCILIATION), Opt, No, "how an ambiguous outcome is resolved").on(EXTERNAL),
    @Uses f("uses", Type::Texts, Opt, No, "as an intent's effect, the request fields its outcome depends on (`[amount, currency]`): RH023 fires when the intent's fingerprint and key leave one out; `[]` when it reads none, and RH022 and RH023 stay quiet").on(STORE.or(EXTERNAL)),
    @Resource f("resource", Type::Text { examples: &["arn:aws:sqs:eu-west-1:111122223333:orders"] }, Opt, No, "the deployed resource the component stands for: its ARN, or its name where the code names it without an ARN; `drift` matches the code's components to the deployed ones by it"),
}

#[rustfmt::skip]
const TO: FieldDef = f("to", Type::Id, Req, No, "the component the link leads to");
#[rustfmt::skip]
const LINK_RETRY: FieldDef = f("retry", Type::Object(Obj::Retry), Opt, Catalog, "how failed attempts are retried");
#[rustfmt::skip]
const PASSES_KEY: FieldDef = f("passes_key", Type::Bool, Opt, Fixed("false"), "the idempotency key travels with the request");

#[rustfmt::skip]
const NAME_FROM_KEY: FieldDef = f("name_from_key", Type::Bool, Opt, Fixed("false"), "the start carries an execution name made from the idempotency key: a workflow that dedups starts by name (Step Functions Standard F033, Lambda durable F029) stops a repeat while the name is kept");

#[rustfmt::skip]
const DEDUP_ID: FieldDef = f("dedup_id", Type::Choice(DedupId::NAMES), Opt, No, "what the transport deduplicates sends by");
#[rustfmt::skip]
const MAX_RECORD_AGE: FieldDef = f("max_record_age", POSITIVE, Opt, Catalog, "the oldest record still delivered");
#[rustfmt::skip]
const DELIVERY_PASSES_KEY: FieldDef = f("passes_key", Type::Bool, Opt, Fixed("true"), "the key reaches the target's own dedup: a message carries the request, but an HTTP endpoint (an EventBridge API destination) recognises the key only in the header the delivery sets: `false` where it sets none");
#[rustfmt::skip]
const CALL_TIMEOUT: FieldDef = f("timeout", POSITIVE, Opt, No, "the per-attempt timeout");
#[rustfmt::skip]
const AFTER_RECEIVES: FieldDef = f("after_receives", Type::Count { min: 1 }, Opt, Fixed("the queue's max_receives"), "receives before a message moves");
#[rustfmt::skip]
const REDRIVE_MODE: FieldDef = f("mode", Type::Choice(RedriveMode::NAMES), Opt, No, "who moves messages back");
#[rustfmt::skip]
const WITHIN: FieldDef = f("within", DUR, Opt, Fixed("the dead-letter queue's retention"), "the latest age at which messages are moved back");
#[rustfmt::skip]
const MAX_TIMES: FieldDef = f("max_times", Type::Count { min: 0 }, Opt, No, "how often a message may go round; without it a cycle is unbounded");

link_fields! {
    Timeout = CALL_TIMEOUT,
    PassesKey = PASSES_KEY,
    DedupId = DEDUP_ID,
    MaxRecordAge = MAX_RECORD_AGE,
    AfterReceives = AFTER_RECEIVES,
    Mode = REDRIVE_MODE,
    Within = WITHIN,
    MaxTimes = MAX_TIMES,
    NameFromKey = NAME_FROM_KEY,
}

pub(super) const SENDS_TO: &[FieldDef] = &[TO, LINK_RETRY, DEDUP_ID, NAME_FROM_KEY];

#[rustfmt::skip]
pub(super) const DELIVERS_TO: &[FieldDef] = &[TO, LINK_RETRY, MAX_RECORD_AGE, NAME_FROM_KEY, DELIVERY_PASSES_KEY];

#[rustfmt::skip]
pub(super) const CALLS: &[FieldDef] = &[TO, CALL_TIMEOUT, LINK_RETRY, PASSES_KEY, NAME_FROM_KEY];

pub(super) const DEAD_LETTER: &[FieldDef] = &[TO, AFTER_RECEIVES];

pub(super) const REDRIVE: &[FieldDef] = &[TO, REDRIVE_MODE, WITHIN, MAX_TIMES];

#[rustfmt::skip]
pub(super) const EFFECTS: &[FieldDef] = &[TO, PASSES_KEY];

#[rustfmt::skip]
pub(super) const RETRY: &[FieldDef] = &[
    f("attempts", Type::Count { min: 1 }, Opt, Catalog, "total attempts including the first"),
    f("timeout", POSITIVE, Opt, Fixed("the call's timeout"), "per attempt"),
    f("backoff", DUR, Opt, No, "the first delay"),
    f("multiplier", Type::Number, Opt, Fixed("2"), "each delay is the previous one times this"),
    f("max_backoff", DUR, Opt, No, "the longest delay"),
    f("max_elapsed", POSITIVE, Opt, No, "a cap on the whole sequence"),
];

#[rustfmt::skip]
pub(super) const GUARD: &[FieldDef] = &[
    f("store", Type::Id, Req, No, "the store that holds the claimed keys"),
    f("claim", Type::Choice(Claim::NAMES), Opt, No, "how the key is claimed"),
    f("binds_fingerprint", Type::Bool, Opt, No, "a repeated key with another fingerprint is refused"),
    f("stores_result", Type::Bool, Opt, No, "a repeated key gets the first result back"),
    f("in_progress", Type::Object(Obj::InProgress), Opt, No, "what a copy finds while the claim is held"),
];

#[rustfmt::skip]
pub(super) const IN_PROGRESS: &[FieldDef] = &[
    f("on_conflict", Type::Text { examples: &["reject"] }, Opt, No, "what a copy gets while the claim is held"),
    f("expires_after", POSITIVE, Opt, No, "when an unfinished claim expires"),
    f("on_expiry", Type::Choice(ON_EXPIRY), Opt, No, "what a copy does when an in-progress claim expires"),
];

#[rustfmt::skip]
pub(super) const BACKUP: &[FieldDef] = &[
    f("rpo", DUR, Opt, No, "the recovery point objective: how much a restore may lose"),
    f("restored_with", Type::Ids, Opt, No, "stores restored together with this one"),
];
