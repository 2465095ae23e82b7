//! The values of matched components compared: every manifest field of the
//! component and of its links, effective values where a side leaves a
//! field to its kind's default (a template without
//! `MessageRetentionPeriod` has the SQS default), each with where it
//! comes from.

use crate::analysis::effective::{self, kind_of};
use crate::diagnostics::Loc;
use crate::manifest::Manifest;
use crate::manifest::model::{
    Component, Field, Link, LinkField, LinkType, Named, Retry, Setting, SettingField, Sp,
};
use crate::manifest::vocabulary::Type;

/// Where one side's value comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// Written at this place (a template line, an export file, an overlay).
    At(Loc),
    /// Not written: the documented default of the kind (fact id).
    Default { kind: String, fact: String },
    /// Not written, and no default.
    Unset,
}

/// One side of a difference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Side {
    /// `None`: not set.
    pub value: Option<String>,
    pub source: Source,
}

/// A field whose effective value differs between the code and the
/// deployed resource.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// The component (its code id).
    pub component: String,
    /// `retention`, `delivers_to[worker].retry.attempts`, ...
    pub field: String,
    pub code: Side,
    pub deployed: Side,
}

fn choice<T: Named + PartialEq>(v: T) -> String {
    T::ALL
        .iter()
        .position(|x| *x == v)
        .map_or_else(String::new, |i| T::NAMES[i].to_string())
}

/// Setting `s` of field `f` as text (durations in the manifest's units,
/// a choice by its name).
fn text(f: impl SettingField, s: &Setting) -> (String, Loc) {
    match s {
        Setting::Dur(v) => (v.value.to_string(), v.loc),
        Setting::Count(v) => (v.value.to_string(), v.loc),
        Setting::Bool(v) => (v.value.to_string(), v.loc),
        Setting::Text(v) => (v.value.clone(), v.loc),
        Setting::List(v) => (format!("[{}]", v.value.join(", ")), v.loc),
        Setting::Choice(v) => {
            let name = match f.def().ty {
                Type::Choice(names) => names.get(usize::from(v.value)).copied(),
                _ => None,
            };
            (name.unwrap_or_default().to_string(), v.loc)
        }
    }
}

fn written(text: String, loc: Loc) -> Side {
    Side {
        value: Some(text),
        source: Source::At(loc),
    }
}

const UNSET: Side = Side {
    value: None,
    source: Source::Unset,
};

/// The documented default of `field` for the kinds `of` (the first that
/// has one), as text.
fn default(of: &[&Component], field: &str) -> Side {
    for c in of {
        let k = kind_of(c);
        if let Some(f) = k.fields.get(field)
            && let Some(v) = &f.default
        {
            let value = match (f.default_dur, v) {
                (Some(d), _) => d.to_string(),
                (None, toml::Value::String(s)) => s.clone(),
                (None, v) => v.to_string(),
            };
            return Side {
                value: Some(value),
                source: Source::Default {
                    kind: c.kind.value.to_string(),
                    fact: f.source.clone(),
                },
            };
        }
    }
    UNSET
}

/// The effective value of component field `f`: as written, else the
/// kind's default (a value the platform fixes is its default).
fn component_field(c: &Component, f: Field) -> Side {
    let fixed = kind_of(c).fields.get(f.name()).is_some_and(|x| x.fixed);
    if f == Field::Delivery && c.setting(Field::Delivery).is_none() {
        let e = effective::delivery(c);
        return match e.origin {
            effective::Origin::Catalog { kind, source } => Side {
                value: Some(choice(e.value)),
                source: Source::Default {
                    kind: kind.to_string(),
                    fact: source.to_string(),
                },
            },
            _ => UNSET,
        };
    }
    match c.setting(f).filter(|_| !fixed) {
        Some(s) => {
            let (t, loc) = text(f, s);
            written(t, loc)
        }
        None => default(&[c], f.name()),
    }
}

/// Collects the differences of matched components.
pub struct Compare<'a> {
    pub code: &'a Manifest,
    pub deployed: &'a Manifest,
    pub out: Vec<Difference>,
}

impl Compare<'_> {
    fn push(&mut self, component: &str, field: String, code: Side, deployed: Side) {
        if code.value != deployed.value {
            self.out.push(Difference {
                component: component.to_string(),
                field,
                code,
                deployed,
            });
        }
    }

    /// Every difference of the pair `c` (code) and `d` (deployed).
    pub fn pair(&mut self, c: &Component, d: &Component) {
        let id = c.id.as_str();
        let kind = |x: &Component| written(x.kind.value.to_string(), x.kind.loc);
        self.push(id, "kind".into(), kind(c), kind(d));
        let regions = |x: &Component| match x.regions.first() {
            Some(first) => written(
                format!(
                    "[{}]",
                    x.regions
                        .iter()
                        .map(|r| r.value.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                first.loc,
            ),
            None => UNSET,
        };
        // A side without regions runs in one (a stack deploys to one
        // Region): the other side's single Region is no drift.
        if c.regions.len() + d.regions.len() != 1 {
            self.push(id, "regions".into(), regions(c), regions(d));
        }
        for &f in Field::ALL {
            // How the two were matched, not a value of the resource.
            if f == Field::Resource {
                continue;
            }
            self.push(
                id,
                f.name().into(),
                component_field(c, f),
                component_field(d, f),
            );
        }
        for ty in LinkType::ALL {
            self.links(c, d, ty);
        }
        let rpo = |x: &Component| match &x.backup {
            Some(b) => match &b.rpo {
                Some(r) => written(r.value.to_string(), r.loc),
                None => written("kept, no rpo".into(), b.loc),
            },
            None => UNSET,
        };
        self.push(id, "backup.rpo".into(), rpo(c), rpo(d));
    }

    /// The links of type `ty`, paired by target.
    fn links(&mut self, c: &Component, d: &Component, ty: LinkType) {
        let id = c.id.as_str();
        let key = |l: &Link| l.to.value.to_string();
        for lc in c.links_of(ty) {
            let field = format!("{}[{}]", ty.field(), key(lc));
            match d.links_of(ty).iter().find(|ld| key(ld) == key(lc)) {
                Some(ld) => self.link(id, &field, (c, lc), (d, ld)),
                None => self.push(id, field, written("linked".into(), lc.loc), UNSET),
            }
        }
        for ld in d.links_of(ty) {
            if !c.links_of(ty).iter().any(|lc| key(lc) == key(ld)) {
                let field = format!("{}[{}]", ty.field(), key(ld));
                self.push(id, field, UNSET, written("linked".into(), ld.loc));
            }
        }
    }

    /// The settings and retry of a link present on both sides.
    fn link(&mut self, id: &str, field: &str, c: (&Component, &Link), d: (&Component, &Link)) {
        for &f in LinkField::ALL {
            let side = |(src, l): (&Component, &Link), m: &Manifest| match l.setting(f) {
                Some(s) => {
                    let (t, loc) = text(f, s);
                    written(t, loc)
                }
                None => default(&ends(src, l, m), f.name()),
            };
            let (a, b) = (side(c, self.code), side(d, self.deployed));
            self.push(id, format!("{field}.{}", f.name()), a, b);
        }
        let retry = |(src, l): (&Component, &Link), m: &Manifest, name: &str| {
            let r: Option<&Retry> = l.retry.as_deref();
            match (name, r.and_then(|r| retry_field(r, name))) {
                (_, Some((t, loc))) => written(t, loc),
                ("attempts", None) => default(&ends(src, l, m), "retry_attempts"),
                _ => UNSET,
            }
        };
        for name in [
            "attempts",
            "timeout",
            "backoff",
            "multiplier",
            "max_backoff",
            "max_elapsed",
        ] {
            let (a, b) = (retry(c, self.code, name), retry(d, self.deployed, name));
            self.push(id, format!("{field}.retry.{name}"), a, b);
        }
    }
}

/// A link's source component and its target (where a link field's
/// default may be documented).
fn ends<'m>(src: &'m Component, l: &Link, m: &'m Manifest) -> Vec<&'m Component> {
    std::iter::once(src).chain(m.target(&l.to)).collect()
}

fn retry_field(r: &Retry, name: &str) -> Option<(String, Loc)> {
    let d = |s: &Option<Sp<crate::time::Dur>>| s.as_ref().map(|s| (s.value.to_string(), s.loc));
    match name {
        "timeout" => d(&r.timeout),
        "backoff" => d(&r.backoff),
        "max_backoff" => d(&r.max_backoff),
        "max_elapsed" => d(&r.max_elapsed),
        "multiplier" => r.multiplier.as_ref().map(|s| (s.value.to_string(), s.loc)),
        "attempts" => r.attempts.as_ref().map(|s| (s.value.to_string(), s.loc)),
        _ => None,
    }
}
