//! Cross-reference checks: every id a manifest names must exist, with the
//! right kind of thing behind it, and a suggestion when it is a typo.

use crate::catalog::{Generic, Kind, catalog};
use crate::diagnostics::{Diagnostic, suggest};
use crate::hash::IdMap;
use crate::manifest::model::{Component, LinkType, Manifest, Name, Ref, Sp};

/// Resolves every reference to a component to the component's index, with
/// one hash lookup each. [`validate`] then reports those that found none,
/// and the graph and the analysis never look an id up again (at 100k
/// components those lookups missed the cache at every link).
pub fn resolve(m: &mut Manifest) {
    // A reference found takes its target's id, so the text is kept once per
    // component and not once more per reference to it.
    let ids: Vec<Name> = m.components.iter().map(|c| c.id.clone()).collect();
    let index: IdMap<&str, usize> = ids
        .iter()
        .enumerate()
        .map(|(i, id)| (id.as_str(), i))
        .collect();
    let find = |r: &mut Ref| {
        let i = index.get(r.value.as_str()).copied();
        if let Some(i) = i {
            r.value = ids[i].clone();
        }
        r.resolve(i);
    };
    m.components
        .iter_mut()
        .flat_map(|c| c.refs_mut())
        .for_each(find);
    m.intents
        .iter_mut()
        .flat_map(|i| i.refs_mut())
        .for_each(find);
}

/// Checks the loaded manifest, whose references [`resolve`] has resolved;
/// returns every problem found. `defined` tells whether an id was defined
/// at all (its body may have failed to read).
pub fn validate(m: &Manifest, defined: &dyn Fn(&str) -> bool) -> Vec<Diagnostic> {
    let mut v = Validator {
        m,
        defined,
        comp_ids: m.components.iter().map(|c| c.id.as_str()).collect(),
        region_ids: m.regions.iter().map(|r| r.id.as_str()).collect(),
        errs: Vec::new(),
    };
    v.regions();
    v.intents();
    for c in &m.components {
        v.component(c);
    }
    v.errs
}

/// The manifest being checked and the problems found so far.
struct Validator<'a> {
    m: &'a Manifest,
    defined: &'a dyn Fn(&str) -> bool,
    comp_ids: Vec<&'a str>,
    region_ids: Vec<&'a str>,
    errs: Vec<Diagnostic>,
}

impl Validator<'_> {
    /// Whether reference `r` (the field `what`) names a component; reports
    /// it unless it does or its id was defined with a body that failed.
    fn reference(&mut self, r: &Ref, what: &str) -> bool {
        if r.index().is_some() {
            return true;
        }
        if (self.defined)(&r.value) {
            return false;
        }
        let mut d = Diagnostic::at(r.loc, format!("{what} `{}` is not a component", r.value))
            .label("unknown id");
        d = match suggest(&r.value, self.comp_ids.iter().copied()) {
            Some(s) => d.help(format!("did you mean `{s}`?")),
            None => d.help("define it under `components:` (in any of the files given)"),
        };
        self.errs.push(d);
        false
    }

    /// Reports region `r` (the field `what`) unless it is declared.
    fn region<T: std::ops::Deref<Target = str>>(&mut self, r: &Sp<T>, what: &str) {
        let (value, loc) = (&*r.value, r.loc);
        // Region ids are free-form when the manifest declares no regions.
        if self.m.regions.is_empty() || self.m.region(value).is_some() {
            return;
        }
        let mut d = Diagnostic::at(loc, format!("{what} `{value}` is not a declared region"))
            .label("unknown region");
        d = match suggest(value, self.region_ids.iter().copied()) {
            Some(s) => d.help(format!("did you mean `{s}`?")),
            None => d.help(format!("declared regions: {}", self.region_ids.join(", "))),
        };
        self.errs.push(d);
    }

    /// Every region's failover target.
    fn regions(&mut self) {
        for r in &self.m.regions {
            if let Some(f) = &r.failover_to {
                self.region(f, &format!("regions.{}.failover_to", r.id));
                if f.value == r.id {
                    self.errs.push(Diagnostic::at(
                        f.loc,
                        format!("region `{}` fails over to itself", r.id),
                    ));
                }
            }
        }
    }

    /// Every component an intent names.
    fn intents(&mut self) {
        for i in &self.m.intents {
            let p = format!("intents.{}", i.id);
            self.reference(&i.origin, &format!("{p}.origin"));
            for e in &i.effects {
                self.reference(e, &format!("{p}.effect"));
            }
            if let Some(at) = &i.key.minted_at {
                self.reference(at, &format!("{p}.key.minted_at"));
            }
            for r in &i.replays {
                self.reference(&r.enters_at, &format!("{p}.replays `{}`.enters_at", r.name));
            }
            self.business_assigned(&i.key, &p);
        }
    }

    /// A field declared business-assigned must be one of the key's fields:
    /// otherwise it exempts nothing, and a typo would go unnoticed.
    fn business_assigned(&mut self, key: &crate::manifest::model::Key, p: &str) {
        let Some(ba) = &key.business_assigned else {
            return;
        };
        let fields: &[Name] = key.fields.as_ref().map_or(&[], |f| &f.value);
        for name in ba.value.iter().filter(|n| !fields.contains(n)) {
            let help =
                crate::diagnostics::did_you_mean(name, fields.iter().map(Name::as_str), || {
                    "list only fields of `key.fields` here".into()
                });
            self.errs.push(
                Diagnostic::at(
                    ba.loc,
                    format!("{p}.key.business_assigned: `{name}` is not a key field"),
                )
                .help(help),
            );
        }
    }

    /// One component: its kind, regions, links, dedup store, backup and
    /// whether its kind may be redriven or deliver.
    fn component(&mut self, c: &Component) {
        let p = format!("components.{}", c.id);
        let kind = self.kind(c, &p);
        for r in &c.regions {
            self.region(r, &format!("{p}.regions"));
        }
        for l in c.links() {
            let what = format!("{p}.{}", l.ty.field());
            if self.reference(&l.to, &what) && l.to.value == c.id && l.ty != LinkType::Redrive {
                self.errs.push(Diagnostic::at(
                    l.to.loc,
                    format!("{what}: `{}` links to itself", c.id),
                ));
            }
        }
        self.dedup_store(c, &p, kind);
        if let Some(b) = &c.backup {
            for r in &b.restored_with {
                self.reference(r, &format!("{p}.backup.restored_with"));
            }
        }
        if let Some(k) = kind {
            self.transport_only(c, &p, k);
        }
    }

    /// The catalog kind of component `c` (at `p`); reports it when the
    /// catalog has no such kind.
    fn kind(&mut self, c: &Component, p: &str) -> Option<&'static Kind> {
        let kind = catalog().kind(&c.kind.value);
        if kind.is_none() {
            let kinds = catalog().kinds.iter().map(|k| k.id.as_str());
            let mut d = Diagnostic::at(
                c.kind.loc,
                format!("{p}.kind: unknown kind `{}`", c.kind.value),
            )
            .label("not in the catalog");
            d = match suggest(&c.kind.value, kinds) {
                Some(s) => d.help(format!("did you mean `{s}`? (`replay-audit catalog` lists the kinds)")),
                None => d.help("use a generic kind (service, function, workflow, queue, topic, stream, store, ledger, external) or one listed by `replay-audit catalog`"),
            };
            self.errs.push(d);
        }
        kind
    }

    /// Component `c`'s dedup store must be a component, and a store when
    /// both kinds are known.
    fn dedup_store(&mut self, c: &Component, p: &str, kind: Option<&Kind>) {
        if let Some(g) = &c.dedup
            && self.reference(&g.store, &format!("{p}.dedup.store"))
            && let (Some(store), Some(_)) = (self.m.target(&g.store), kind)
            && let Some(sk) = catalog().kind(&store.kind.value)
            && !sk.generic.is_store()
        {
            self.errs.push(
                Diagnostic::at(g.store.loc, format!("{p}.dedup.store: `{}` is {}, not a store", store.id, crate::diagnostics::a(sk.generic.name())))
                    .help("point `store` at a component of kind store, ledger or a store kind such as dynamodb-table"),
            );
        }
    }

    /// Only a transport may be redriven, and only a transport or a function
    /// delivers messages.
    fn transport_only(&mut self, c: &Component, p: &str, k: &Kind) {
        if let Some(r) = c.redrive()
            && !k.generic.is_transport()
        {
            self.errs.push(
                Diagnostic::at(
                    r.loc,
                    format!(
                        "{p}.redrive: `{}` is {}; only a queue, topic or stream can be redriven",
                        c.id,
                        crate::diagnostics::a(k.generic.name())
                    ),
                )
                .help("put `redrive` on the dead-letter queue"),
            );
        }
        if !c.delivers_to().is_empty()
            && !k.generic.is_transport()
            && k.generic != Generic::Function
        {
            self.errs.push(
                Diagnostic::at(
                    c.delivers_to()[0].loc,
                    format!(
                        "{p}.delivers_to: {} does not deliver messages",
                        crate::diagnostics::a(k.generic.name())
                    ),
                )
                .help("a producer uses `sends_to` (to a queue, topic or stream) or `calls`"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::manifest::from_str;

    #[test]
    fn check_resolves_every_reference_to_the_sorted_index() {
        // Components sort by id: api 0, keys 1, queue 2, worker 3.
        let m = from_str(
            "version: 1
components:
  worker:
    kind: function
    dedup: { store: keys }
    calls: [api]
  queue: { kind: sqs-standard, delivers_to: [worker] }
  keys: { kind: dynamodb-table }
  api: { kind: external }
intents:
  pay:
    origin: queue
    effects: [api]
    key: { fields: [id], minted_at: queue }
    replays:
      - { name: backfill, enters_at: worker, within: 1h }
",
        )
        .unwrap_or_else(|e| panic!("{}", e.render(false)));
        let ids: Vec<&str> = m.components.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, ["api", "keys", "queue", "worker"]);
        let worker = &m.components[3];
        assert_eq!(worker.calls()[0].to.index(), Some(0));
        assert_eq!(worker.dedup.as_ref().unwrap().store.index(), Some(1));
        assert_eq!(m.components[2].delivers_to()[0].to.index(), Some(3));
        let i = &m.intents[0];
        assert_eq!(i.origin.index(), Some(2));
        assert_eq!(i.effects[0].index(), Some(0));
        assert_eq!(i.minted_at().index(), Some(2));
        assert_eq!(i.replays[0].enters_at.index(), Some(3));
    }

    #[test]
    fn an_unresolved_reference_is_reported_with_a_suggestion() {
        let e = from_str(
            "version: 1\ncomponents:\n  worker: { kind: function, calls: [apii] }\n  api: { kind: external }\n",
        )
        .unwrap_err();
        let text = e.render(false);
        assert!(
            text.contains("components.worker.calls `apii` is not a component"),
            "{text}"
        );
        assert!(text.contains("did you mean `api`?"), "{text}");
    }

    #[test]
    fn a_business_assigned_field_must_be_a_key_field() {
        let e = from_str(
            "version: 1
components:
  api: { kind: service }
intents:
  pay:
    origin: api
    key: { fields: [messageId, order_id], business_assigned: [mesageId] }
",
        )
        .unwrap_err();
        let text = e.render(false);
        assert!(
            text.contains("intents.pay.key.business_assigned: `mesageId` is not a key field"),
            "{text}"
        );
        assert!(text.contains("did you mean `messageId`?"), "{text}");
        assert!(text.contains(":7:62"), "{text}");
    }
}
