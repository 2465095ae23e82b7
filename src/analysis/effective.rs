//! Effective values: what the manifest says, else the catalog's documented
//! default, each with where it came from.

use std::borrow::Cow;

use crate::catalog::{Generic, Kind, catalog};
use crate::diagnostics::Loc;
use crate::manifest::model::{Component, Delivery, Expiry, Field, Replication, Sp};
use crate::manifest::vocabulary::{DefaultFrom, Type};
use crate::time::Dur;

/// Where an effective value comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// Written in the manifest.
    Manifest(Loc),
    /// The catalog default of the component's kind (fact id). Borrowed
    /// from the built-in catalog where it can be: every layer of every
    /// intent carries its window's origin, and owned strings made those
    /// copies a large part of the analysis of a big manifest.
    Catalog {
        kind: Cow<'static, str>,
        source: &'static str,
    },
    /// Neither says: the analysis assumed it (RH041).
    Assumed,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Eff<T> {
    pub value: T,
    pub origin: Origin,
}

impl<T> Eff<T> {
    pub fn manifest(sp: &Sp<T>) -> Self
    where
        T: Clone,
    {
        Eff {
            value: sp.value.clone(),
            origin: Origin::Manifest(sp.loc),
        }
    }

    pub fn loc(&self) -> Option<Loc> {
        match self.origin {
            Origin::Manifest(l) => Some(l),
            _ => None,
        }
    }

    /// " (catalog default of sqs-standard, F003)" and the like.
    pub fn provenance(&self) -> String {
        match &self.origin {
            Origin::Manifest(_) => String::new(),
            Origin::Catalog { kind, source } => format!(" ({kind} default, {source})"),
            Origin::Assumed => " (assumed: not given)".to_string(),
        }
    }
}

/// The catalog kind of a component (validated to exist at load).
pub fn kind_of(c: &Component) -> &'static Kind {
    c.catalog_kind.0.unwrap_or_else(|| {
        let cat = catalog();
        cat.kind(&c.kind.value)
            .or_else(|| cat.kind("service"))
            .expect("the catalog has the generic kinds")
    })
}

/// The component's kind as written, borrowed from the catalog when it names
/// a catalog kind.
fn kind_name(c: &Component) -> Cow<'static, str> {
    match c.catalog_kind.0 {
        Some(k) if k.id == c.kind.value => Cow::Borrowed(k.id.as_str()),
        _ => Cow::Owned(c.kind.value.to_string()),
    }
}

pub fn generic(c: &Component) -> Generic {
    kind_of(c).generic
}

fn from_catalog<T>(c: &Component, v: Option<crate::catalog::Cited<'static, T>>) -> Option<Eff<T>> {
    let cited = v?;
    Some(Eff {
        value: cited.value,
        origin: Origin::Catalog {
            kind: kind_name(c),
            source: cited.fact.source.as_str(),
        },
    })
}

/// The catalog kind's documented value of `field`, where the field's row
/// takes its default from the catalog.
fn catalog_default<T>(
    c: &Component,
    field: Field,
    get: impl FnOnce(&'static Kind, &str) -> Option<crate::catalog::Cited<'static, T>>,
) -> Option<crate::catalog::Cited<'static, T>> {
    (field.def().default == DefaultFrom::Catalog)
        .then(|| get(kind_of(c), field.name()))
        .flatten()
}

/// A duration field: manifest, else catalog default.
pub fn dur(c: &Component, field: Field) -> Option<Eff<Dur>> {
    let documented = catalog_default(c, field, |k, name| k.default_dur(name));
    // A value the platform fixes cannot be overridden (RH050 reports the try).
    if let Some(fixed) = documented.filter(|d| d.fact.fixed) {
        return from_catalog(c, Some(fixed));
    }
    match c.dur(field) {
        Some(sp) => Some(Eff::manifest(sp)),
        None => from_catalog(c, documented),
    }
}

/// A value the catalog documents for the component's kind that no
/// manifest field sets (`http_retry_span`, `retry_attempts`), read by
/// `get` (`Kind::default_dur`, ...).
pub fn documented<T>(
    c: &Component,
    fact: &str,
    get: impl FnOnce(&'static Kind, &str) -> Option<crate::catalog::Cited<'static, T>>,
) -> Option<Eff<T>> {
    from_catalog(c, get(kind_of(c), fact))
}

pub fn count(c: &Component, field: Field) -> Option<Eff<u64>> {
    match c.count(field) {
        Some(sp) => Some(Eff::manifest(sp)),
        None => from_catalog(
            c,
            catalog_default(c, field, |k, name| k.default_count(name)),
        ),
    }
}

pub fn boolean(c: &Component, field: Field) -> Option<Eff<bool>> {
    match c.flag(field) {
        Some(sp) => Some(Eff::manifest(sp)),
        None => from_catalog(c, catalog_default(c, field, |k, name| k.default_bool(name))),
    }
}

/// A text or a choice kept by name: manifest, else catalog default.
fn string(c: &Component, field: Field) -> Option<Eff<String>> {
    let written = match field.def().ty {
        Type::Choice(_) => c.choice_name(field).map(|s| (s.value.to_string(), s.loc)),
        _ => c.text(field).map(|s| (s.value.clone(), s.loc)),
    };
    match written {
        Some((value, loc)) => Some(Eff {
            value,
            origin: Origin::Manifest(loc),
        }),
        None => {
            from_catalog(c, catalog_default(c, field, |k, name| k.default_str(name))).map(|e| Eff {
                value: e.value.to_string(),
                origin: e.origin,
            })
        }
    }
}

pub fn scope(c: &Component) -> Option<Eff<String>> {
    string(c, Field::Scope)
}

/// Where a provider recognises a key (`global`, `region`, `zone`).
pub fn key_scope(c: &Component) -> Option<Eff<String>> {
    string(c, Field::KeyScope)
}

pub fn dedup_scope(c: &Component) -> Option<Eff<String>> {
    string(c, Field::DedupScope)
}

/// Delivery semantics: manifest, else catalog, else at-least-once for
/// transports (assumed, the conservative choice).
pub fn delivery(c: &Component) -> Eff<Delivery> {
    if let Some(d) = c.choice(Field::Delivery) {
        return Eff::manifest(&d);
    }
    let k = kind_of(c);
    let parsed = k.delivery.as_deref().and_then(|d| match d {
        "at-least-once" => Some(Delivery::AtLeastOnce),
        "at-most-once" => Some(Delivery::AtMostOnce),
        "exactly-once" => Some(Delivery::ExactlyOnce),
        _ => None,
    });
    match parsed {
        Some(value) => Eff {
            value,
            origin: Origin::Catalog {
                kind: Cow::Borrowed(k.id.as_str()),
                source: k.delivery_source.as_deref().unwrap_or_default(),
            },
        },
        // A documented delivery retry policy means copies can repeat.
        None => match k
            .fields
            .get(Field::MaxEventAge.name())
            .or_else(|| k.fields.get("retry_attempts"))
        {
            Some(f) => Eff {
                value: Delivery::AtLeastOnce,
                origin: Origin::Catalog {
                    kind: Cow::Borrowed(k.id.as_str()),
                    source: f.source.as_str(),
                },
            },
            None => Eff {
                value: Delivery::AtLeastOnce,
                origin: Origin::Assumed,
            },
        },
    }
}

pub fn expiry(c: &Component) -> Option<Eff<Expiry>> {
    if let Some(e) = c.choice(Field::Expiry) {
        return Some(Eff::manifest(&e));
    }
    let v = kind_of(c).default_str(Field::Expiry.name())?;
    let value = match v.value {
        "application" => Expiry::Application,
        "physical-ttl" => Expiry::PhysicalTtl,
        _ => return None,
    };
    Some(Eff {
        value,
        origin: Origin::Catalog {
            kind: kind_name(c),
            source: v.fact.source.as_str(),
        },
    })
}

pub fn replication(c: &Component) -> Eff<Replication> {
    if let Some(r) = c.choice(Field::Replication) {
        return Eff::manifest(&r);
    }
    let v = kind_of(c).default_str(Field::Replication.name());
    match v.map(|v| (v.value, v.fact.source.as_str())) {
        Some(("async", s)) => Eff {
            value: Replication::Async,
            origin: Origin::Catalog {
                kind: kind_name(c),
                source: s,
            },
        },
        Some(("sync", s)) => Eff {
            value: Replication::Sync,
            origin: Origin::Catalog {
                kind: kind_name(c),
                source: s,
            },
        },
        Some(("none", s)) => Eff {
            value: Replication::None,
            origin: Origin::Catalog {
                kind: kind_name(c),
                source: s,
            },
        },
        _ => Eff {
            value: Replication::None,
            origin: Origin::Assumed,
        },
    }
}
