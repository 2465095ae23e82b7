//! The built-in platform catalog: kinds, their documented defaults and limits.
//!
//! The data lives in `kinds.toml`; `build.rs` converts each kind and each
//! source to JSON, embedded in the binary and parsed the first time it is
//! asked for (faster than TOML, and a small check reads only the few kinds
//! its manifest names: parsing the whole catalog was a third of its work).
//! Every number cites a fact by id (`[sources.F001]` ... in `kinds.toml`),
//! and every fact carries its URL and how well it was verified. Adding a
//! kind is a data change: no code needs to move.

use std::collections::BTreeMap;
use std::ops::Deref;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::time::Dur;

#[cfg(test)]
const KINDS_TOML: &str = include_str!("kinds.toml");
// `KINDS`, `KINDS_BY_ID` and `SOURCES`: `kinds.toml` as JSON, by `build.rs`.
include!(concat!(env!("OUT_DIR"), "/catalog_parts.rs"));

/// The generic kinds every catalog kind specialises.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Generic {
    Service,
    Function,
    Workflow,
    Queue,
    Topic,
    Stream,
    Store,
    Ledger,
    External,
}

impl Generic {
    pub fn name(self) -> &'static str {
        match self {
            Generic::Service => "service",
            Generic::Function => "function",
            Generic::Workflow => "workflow",
            Generic::Queue => "queue",
            Generic::Topic => "topic",
            Generic::Stream => "stream",
            Generic::Store => "store",
            Generic::Ledger => "ledger",
            Generic::External => "external",
        }
    }

    /// Queues, topics and streams hold messages and redeliver them.
    pub fn is_transport(self) -> bool {
        matches!(self, Generic::Queue | Generic::Topic | Generic::Stream)
    }

    /// Stores and ledgers keep dedup state.
    pub fn is_store(self) -> bool {
        matches!(self, Generic::Store | Generic::Ledger)
    }

    /// Components that run code: they call, claim and perform effects.
    pub fn is_compute(self) -> bool {
        matches!(
            self,
            Generic::Service | Generic::Function | Generic::Workflow
        )
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Verified,
    Partial,
    Conflict,
    Unverified,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Source {
    pub fact: String,
    pub url: String,
    pub status: Status,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Behaviour {
    pub text: String,
    pub source: String,
}

/// A documented value of one manifest field for one kind.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct FieldFact {
    pub default: Option<toml::Value>,
    pub min: Option<toml::Value>,
    pub max: Option<toml::Value>,
    #[serde(default)]
    pub fixed: bool,
    pub source: String,
    pub note: Option<String>,
    /// `default` as a duration, parsed once when the catalog is read: the
    /// analysis asks for it for nearly every component.
    #[serde(skip)]
    pub default_dur: Option<Dur>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Kind {
    pub id: String,
    pub generic: Generic,
    pub title: Option<String>,
    pub vendor: String,
    pub summary: String,
    pub delivery: Option<String>,
    pub delivery_source: Option<String>,
    #[serde(default)]
    pub behaviours: Vec<Behaviour>,
    /// When the kind's dedup window starts counting (the key's first use, the
    /// completion of the first request, ...). The analysis counts every
    /// window from the layer's first sighting of the key, which is never
    /// later than any of these, so a window is never taken as longer than
    /// it is.
    pub window_starts: Option<Behaviour>,
    #[serde(default)]
    pub flags: Vec<Flag>,
    #[serde(default)]
    pub fields: BTreeMap<String, FieldFact>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Catalog {
    #[serde(default)]
    pub sources: BTreeMap<String, Source>,
    #[serde(rename = "kind")]
    pub kinds: Vec<Kind>,
    /// Index of `kinds` by id (built after parsing).
    #[serde(skip)]
    by_id: crate::hash::IdMap<String, usize>,
}

/// The flags a kind may carry (what rules read besides numbers); an
/// unknown flag in the catalog is refused when it is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Flag {
    DlqKeepsEnqueueTime,
    RedriveNewIdentity,
    ContentDedupBodyOnly,
    TtlDeletionAsync,
    AsyncReplication,
    SessionScopedDedup,
    RegionScopedExactlyOnce,
    StepsAtLeastOnce,
    NameDedup,
    /// The store's records carry their own expiry, which the library checks
    /// on every read (Powertools, F042): physical deletion does not decide.
    ChecksRecordExpiry,
    /// With no in-progress expiry configured, an in-progress record expires
    /// with the remaining time of the invocation that wrote it, and the
    /// next attempt runs again (Powertools, F042).
    InProgressExpiresWithInvocation,
    /// The topic's `retention` is a message archive (SNS FIFO, F015; a new
    /// EventBridge bus, F020): it bounds a declared replay, not delivery,
    /// whose span is the delivery policy's (`max_event_age`).
    RetentionIsArchive,
}

/// The ids of the built-in kinds, in the catalog's order (what `catalog`
/// and the shell completion offer).
pub fn kind_ids() -> impl Iterator<Item = &'static str> {
    KINDS.iter().map(|k| k.0)
}

/// The built-in catalog: [`Builtin::kind`] and [`Builtin::source`] parse
/// one entry on first use; the whole [`Catalog`] (through `Deref`) is
/// parsed only when something lists it.
pub fn catalog() -> &'static Builtin {
    static BUILTIN: Builtin = Builtin {
        kinds: [const { OnceLock::new() }; KINDS.len()],
        sources: [const { OnceLock::new() }; SOURCES.len()],
        all: OnceLock::new(),
    };
    &BUILTIN
}

/// The embedded catalog, each kind and source parsed when first asked for.
pub struct Builtin {
    kinds: [OnceLock<Kind>; KINDS.len()],
    sources: [OnceLock<Source>; SOURCES.len()],
    all: OnceLock<Catalog>,
}

impl Builtin {
    /// The kind `id`, parsed on first use.
    pub fn kind(&self, id: &str) -> Option<&Kind> {
        let at = KINDS_BY_ID.binary_search_by(|&i| KINDS[i].0.cmp(id)).ok()?;
        Some(self.kind_at(KINDS_BY_ID[at]))
    }

    fn kind_at(&self, i: usize) -> &Kind {
        self.kinds[i].get_or_init(|| {
            let kind = serde_json::from_str::<Kind>(KINDS[i].1)
                .expect("the embedded catalog is validated by tests");
            kind.with_durations()
        })
    }

    /// The source (platform fact) `id`, parsed on first use.
    pub fn source(&self, id: &str) -> Option<&Source> {
        let i = SOURCES.binary_search_by(|(s, _)| (*s).cmp(id)).ok()?;
        Some(self.sources[i].get_or_init(|| {
            serde_json::from_str::<Source>(SOURCES[i].1)
                .expect("the embedded catalog is validated by tests")
        }))
    }
}

/// The whole catalog, for what lists every kind or source.
impl Deref for Builtin {
    type Target = Catalog;

    fn deref(&self) -> &Catalog {
        self.all.get_or_init(|| {
            Catalog {
                sources: SOURCES
                    .iter()
                    .filter_map(|(id, _)| Some((id.to_string(), self.source(id)?.clone())))
                    .collect(),
                // Each kind as `kind_at` parsed it, durations included.
                kinds: (0..KINDS.len()).map(|i| self.kind_at(i).clone()).collect(),
                by_id: Default::default(),
            }
            .indexed()
        })
    }
}

pub fn parse(text: &str) -> Result<Catalog, String> {
    let mut catalog = toml::from_str::<Catalog>(text).map_err(|e| e.to_string())?;
    catalog.kinds = catalog
        .kinds
        .into_iter()
        .map(Kind::with_durations)
        .collect();
    Ok(catalog.indexed())
}

/// A catalog value together with the fact it comes from.
#[derive(Debug, Clone, Copy)]
pub struct Cited<'a, T> {
    pub value: T,
    pub kind: &'a Kind,
    pub field: &'a str,
    pub fact: &'a FieldFact,
}

impl<T> Cited<'_, T> {
    pub fn source(&self) -> Option<&'static Source> {
        catalog().source(&self.fact.source)
    }
}

impl Catalog {
    pub fn kind(&self, id: &str) -> Option<&Kind> {
        if self.by_id.is_empty() {
            return self.kinds.iter().find(|k| k.id == id);
        }
        self.by_id.get(id).map(|&i| &self.kinds[i])
    }

    /// Indexes the kinds by id: the analysis looks a kind up for nearly
    /// every field of every component.
    fn indexed(mut self) -> Catalog {
        self.by_id = self
            .kinds
            .iter()
            .enumerate()
            .map(|(i, k)| (k.id.clone(), i))
            .collect();
        self
    }

    pub fn source(&self, id: &str) -> Option<&Source> {
        self.sources.get(id)
    }
}

/// Reads a TOML duration (`"30s"`, `"unbounded"`, or a number of seconds).
pub fn toml_dur(v: &toml::Value) -> Option<Dur> {
    match v {
        toml::Value::String(s) => Dur::parse(s).ok(),
        toml::Value::Integer(i) if *i >= 0 => Some(Dur::secs(*i as u64)),
        _ => None,
    }
}

impl Kind {
    /// Parses each field's `default` as a duration once: the analysis asks
    /// for it for nearly every component.
    fn with_durations(mut self) -> Kind {
        for fact in self.fields.values_mut() {
            fact.default_dur = fact.default.as_ref().and_then(toml_dur);
        }
        self
    }

    pub fn has_flag(&self, flag: Flag) -> bool {
        self.flags.contains(&flag)
    }

    fn default_of(&self, field: &str) -> Option<(&str, &FieldFact, &toml::Value)> {
        let (name, fact) = self.fields.get_key_value(field)?;
        Some((name.as_str(), fact, fact.default.as_ref()?))
    }

    pub fn default_dur(&self, field: &str) -> Option<Cited<'_, Dur>> {
        let (field, fact) = self.fields.get_key_value(field)?;
        Some(Cited {
            value: fact.default_dur?,
            kind: self,
            field: field.as_str(),
            fact,
        })
    }

    /// The documented maximum of a duration field, where the catalog gives
    /// one: what the analysis takes when only a cap is known.
    pub fn max_dur(&self, field: &str) -> Option<Cited<'_, Dur>> {
        let (field, fact) = self.fields.get_key_value(field)?;
        Some(Cited {
            value: toml_dur(fact.max.as_ref()?)?,
            kind: self,
            field: field.as_str(),
            fact,
        })
    }

    pub fn default_count(&self, field: &str) -> Option<Cited<'_, u64>> {
        let (field, fact, v) = self.default_of(field)?;
        let n = v.as_integer().filter(|i| *i >= 0)? as u64;
        Some(Cited {
            value: n,
            kind: self,
            field,
            fact,
        })
    }

    pub fn default_bool(&self, field: &str) -> Option<Cited<'_, bool>> {
        let (field, fact, v) = self.default_of(field)?;
        Some(Cited {
            value: v.as_bool()?,
            kind: self,
            field,
            fact,
        })
    }

    pub fn default_str(&self, field: &str) -> Option<Cited<'_, &str>> {
        let (field, fact, v) = self.default_of(field)?;
        Some(Cited {
            value: v.as_str()?,
            kind: self,
            field,
            fact,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The JSON the binary reads is the TOML people edit, value for value.
    #[test]
    fn build_time_json_is_the_toml_catalog() {
        let from_toml = parse(KINDS_TOML).expect("kinds.toml parses");
        let show = |c: &Catalog| format!("{:?}\n{:?}", c.sources, c.kinds);
        assert_eq!(show(catalog()), show(&from_toml));
        assert!(catalog().kinds.len() >= 40, "{}", catalog().kinds.len());
    }

    /// Each kind and source read on its own is the one the TOML gives, and
    /// every id is found (the index is sorted); an unknown id is none.
    #[test]
    fn each_entry_parsed_alone_is_the_toml_one() {
        let from_toml = parse(KINDS_TOML).expect("kinds.toml parses");
        assert_eq!(KINDS.len(), from_toml.kinds.len());
        for k in &from_toml.kinds {
            let lazy = catalog()
                .kind(&k.id)
                .unwrap_or_else(|| panic!("{} not found", k.id));
            assert_eq!(format!("{lazy:?}"), format!("{k:?}"));
        }
        assert_eq!(SOURCES.len(), from_toml.sources.len());
        for (id, s) in &from_toml.sources {
            let lazy = catalog()
                .source(id)
                .unwrap_or_else(|| panic!("{id} not found"));
            assert_eq!(format!("{lazy:?}"), format!("{s:?}"));
        }
        assert!(catalog().kind("sqs-standrd").is_none());
        assert!(catalog().kind("").is_none());
        assert!(catalog().source("F999").is_none());
    }

    #[test]
    fn embedded_catalog_is_valid_and_cited() {
        let c = parse(KINDS_TOML).expect("kinds.toml parses");
        let mut ids = std::collections::BTreeSet::new();
        for k in &c.kinds {
            assert!(ids.insert(k.id.clone()), "kind {} defined twice", k.id);
            if k.delivery.is_some() {
                let s = k
                    .delivery_source
                    .as_ref()
                    .unwrap_or_else(|| panic!("{}: delivery without source", k.id));
                assert!(c.sources.contains_key(s), "{}: unknown source {s}", k.id);
            }
            for b in &k.behaviours {
                assert!(
                    c.sources.contains_key(&b.source),
                    "{}: unknown source {}",
                    k.id,
                    b.source
                );
            }
            for (name, fact) in &k.fields {
                let src = c
                    .sources
                    .get(&fact.source)
                    .unwrap_or_else(|| panic!("{}.{name}: unknown source {}", k.id, fact.source));
                assert!(
                    src.url.starts_with("https://"),
                    "{}.{name}: source without URL",
                    k.id
                );
                assert_ne!(
                    src.status,
                    Status::Unverified,
                    "{}.{name}: an unverified fact is used as a number",
                    k.id
                );
            }
        }
        for (id, s) in &c.sources {
            assert!(
                s.url.starts_with("https://") || s.status == Status::Unverified,
                "{id}: no URL"
            );
        }
        for generic in [
            "service", "function", "workflow", "queue", "topic", "stream", "store", "ledger",
            "external",
        ] {
            assert!(c.kind(generic).is_some(), "generic kind {generic} missing");
        }
    }

    #[test]
    fn issue_kinds_have_their_documented_defaults() {
        let c = catalog();
        let sqs = c.kind("sqs-standard").unwrap();
        assert_eq!(
            sqs.default_dur("visibility_timeout").unwrap().value,
            Dur::secs(30)
        );
        assert_eq!(
            sqs.default_dur("retention").unwrap().value,
            Dur::secs(345_600)
        );
        let fifo = c.kind("sqs-fifo").unwrap();
        let w = fifo.default_dur("dedup_window").unwrap();
        assert_eq!(w.value, Dur::secs(300));
        assert!(w.fact.fixed);
        let pt = c.kind("powertools-idempotency").unwrap();
        assert_eq!(pt.default_dur("retention").unwrap().value, Dur::secs(3600));
        assert_eq!(pt.generic, Generic::Store);
        assert_eq!(
            c.kind("dynamodb-global-table")
                .unwrap()
                .default_str("replication")
                .unwrap()
                .value,
            "async"
        );
        assert_eq!(c.kind("dynamodb-table").unwrap().generic, Generic::Store);
    }
}

#[cfg(test)]
mod flag_tests {
    #[test]
    fn an_unknown_flag_is_refused() {
        let text = "[[kind]]\nid = \"x\"\ngeneric = \"service\"\nvendor = \"v\"\nsummary = \"s\"\nflags = [\"no_such_flag\"]\n";
        let e = super::parse(text).unwrap_err();
        assert!(e.contains("unknown variant `no_such_flag`"), "{e}");
    }
}
