//! Reading a manifest's sections into the model: the top level, regions,
//! intents (keys, replays), components with their settings, links, retries,
//! guards and backups, one entry at a time, from the stream or a tree.

use crate::diagnostics::{Diagnostic, Loc};
use crate::manifest::model::*;
use crate::manifest::yaml::{Node, Value};

use super::*;
use crate::manifest::vocabulary::{FieldDef, Obj, Type};
use crate::time::Dur;

impl Reader {
    /// Reads the parsed tree of file `file`, as [`stream_texts`] reads text.
    pub(super) fn tree(&mut self, file: u32, node: &Node, out: &mut Collected) {
        let mut doc = Doc::new(file);
        Piece::of(node, SECTIONS, |p| self.piece(p, &mut doc, out));
        self.end_doc(&doc);
    }

    /// Reads one piece of a document (see [`Piece`]).
    pub(super) fn piece(&mut self, piece: Piece, doc: &mut Doc, out: &mut Collected) {
        match piece {
            Piece::Document(node) => {
                doc.reported = true;
                if node.value == Value::Null {
                    self.err(
                        Diagnostic::at(
                            Loc {
                                file: doc.file,
                                line: 1,
                                col: 1,
                            },
                            "the manifest is empty: `version` is missing",
                        )
                        .help("start the file with `version: 1`"),
                    );
                } else {
                    self.fields(node, "manifest", TOP_FIELDS);
                }
            }
            Piece::Field(k, v) => {
                doc.first.get_or_insert(k.loc);
                let Some(name) = self.field_name(k, "manifest", TOP_FIELDS) else {
                    return;
                };
                match name.as_str() {
                    "version" => {
                        doc.version = true;
                        self.version(v);
                    }
                    "name" => {
                        if let Some(n) = self.string(v, "name") {
                            out.name.get_or_insert(n.value);
                        }
                    }
                    section => {
                        doc.section = SECTIONS.iter().position(|s| *s == section).unwrap_or(0);
                        if matches!(v.value, Value::Map(_) | Value::Null) {
                            for (id, v) in self.entries(v, section) {
                                self.entry(id, v, doc.section, out);
                            }
                        } else {
                            // Reported at the key: the parser gives no
                            // location to a section value it streams.
                            let expected = "a mapping of id to settings";
                            self.err(
                                Diagnostic::at(
                                    k.loc,
                                    format!(
                                        "`{section}` must be {expected}, found {}",
                                        v.value.type_name()
                                    ),
                                )
                                .label(format!("expected {expected}")),
                            );
                        }
                    }
                }
            }
            Piece::Section(k) => {
                doc.first.get_or_insert(k.loc);
                let name = k.value.scalar_text().unwrap_or_default();
                doc.section = SECTIONS.iter().position(|s| *s == name).unwrap_or(0);
            }
            Piece::Entry(k, v) => {
                // A key that is not a scalar cannot be an id; `fields`
                // of the section's entries never see it.
                if let Some(id) = k.value.scalar_text() {
                    self.entry(Sp::new(id, k.loc), v, doc.section, out);
                }
            }
        }
    }

    /// Reports a document that never said `version`.
    pub(super) fn end_doc(&mut self, doc: &Doc) {
        if !doc.reported && !doc.version {
            let at = doc.first.unwrap_or(Loc {
                file: doc.file,
                line: 1,
                col: 1,
            });
            self.err(
                Diagnostic::at(at, "`version` is missing")
                    .help("add `version: 1` at the top of the file"),
            );
        }
    }

    pub(super) fn version(&mut self, v: &Node) {
        if v.value == Value::Int(1) || v.value == Value::Str("1".into()) {
            return;
        }
        self.err(
            Diagnostic::at(
                v.loc,
                format!(
                    "unsupported manifest version `{}`",
                    v.value.scalar_text().unwrap_or_default()
                ),
            )
            .help("this replay-audit reads `version: 1`"),
        );
    }

    /// One `id: settings` entry of section `SECTIONS[section]`.
    pub(super) fn entry(&mut self, id: Sp<String>, v: &Node, section: usize, out: &mut Collected) {
        let name = Sp::new(crate::manifest::name::Name::from(id.value.as_str()), id.loc);
        match SECTIONS[section] {
            "regions" => {
                if self.define(&name, "region")
                    && let Some(r) = self.region(id, v)
                {
                    out.regions.push(r);
                }
            }
            "intents" => {
                if self.define(&name, "intent")
                    && let Some(i) = self.intent(id, v)
                {
                    out.intents.push(i);
                }
            }
            _ => {
                if self.define(&name, "component")
                    && let Some(c) = self.component(id, v)
                {
                    out.components.push(c);
                }
            }
        }
    }

    pub(super) fn region(&mut self, id: Sp<String>, node: &Node) -> Option<Region> {
        let path = format!("regions.{}", id.value);
        let mut r = Region::new(id);
        if node.value == Value::Null {
            return Some(r);
        }
        let f = self.fields(node, &path, REGION_FIELDS)?;
        r.failover_to = f
            .get("failover_to")
            .and_then(|n| self.id_ref(n, &format!("{path}.failover_to")));
        r.detection = f
            .get("detection")
            .and_then(|n| self.dur_row(Obj::Region, n, &path, "detection"));
        r.catch_up = f
            .get("catch_up")
            .and_then(|n| self.dur_row(Obj::Region, n, &path, "catch_up"));
        Some(r)
    }

    pub(super) fn intent(&mut self, id: Sp<String>, node: &Node) -> Option<Intent> {
        let path = format!("intents.{}", id.value);
        let f = self.fields(node, &path, INTENT_FIELDS)?;
        let origin = match f.get("origin") {
            Some(n) => self.component_ref(n, &format!("{path}.origin")),
            None => {
                self.err(
                    Diagnostic::at(id.loc, format!("`{path}` has no `origin`"))
                        .help("name the component where the decision becomes stable: `origin: <component id>`"),
                );
                None
            }
        };
        let mut effects = Vec::new();
        let effect_node = f.get("effect").or_else(|| f.get("effects"));
        match effect_node {
            Some(n) => {
                for (i, item) in Self::items(n) {
                    if let Some(e) = self.component_ref(item, &format!("{path}.effect[{i}]")) {
                        effects.push(e);
                    }
                }
            }
            None => self.err(
                Diagnostic::at(id.loc, format!("`{path}` has no `effect`"))
                    .help("name the component where the business effect happens: `effect: <component id>`"),
            ),
        }
        let key = match f.get("key") {
            Some(n) => self.key(n, &format!("{path}.key")),
            None => Key::default(),
        };
        let fingerprint = f
            .get("fingerprint")
            .and_then(|n| self.string_list(n, &format!("{path}.fingerprint")))
            .map(|l| self.names.list(l));
        let mut replays = Vec::new();
        if let Some(n) = f.get("replays") {
            for (i, item) in Self::items(n) {
                if let Some(r) = self.replay(item, &format!("{path}.replays[{i}]"), i) {
                    replays.push(r);
                }
            }
        }
        let tested = f
            .get("tested")
            .and_then(|n| self.string_list(n, &format!("{path}.tested")))
            .map(|l| self.names.list(l));
        let description = f
            .get("description")
            .and_then(|n| self.string(n, &format!("{path}.description")))
            .map(|s| s.value);
        Some(Intent {
            id: id.value.into(),
            loc: id.loc,
            description,
            origin: origin?,
            effects: effects.into(),
            key,
            fingerprint,
            replays: replays.into(),
            tested,
        })
    }

    pub(super) fn key(&mut self, node: &Node, path: &str) -> Key {
        let mut k = Key {
            loc: Some(node.loc),
            ..Key::default()
        };
        let Some(f) = self.fields(node, path, KEY_FIELDS) else {
            return k;
        };
        k.fields = f
            .get("fields")
            .and_then(|n| self.string_list(n, &format!("{path}.fields")))
            .map(|l| self.names.list(l));
        k.minted_at = f
            .get("minted_at")
            .and_then(|n| self.component_ref(n, &format!("{path}.minted_at")));
        k.minted = f
            .get("minted")
            .and_then(|n| self.choice(n, &format!("{path}.minted")));
        k.persisted_before_retry = f
            .get("persisted_before_retry")
            .and_then(|n| self.boolean(n, &format!("{path}.persisted_before_retry")));
        k.business_assigned = f
            .get("business_assigned")
            .and_then(|n| self.string_list(n, &format!("{path}.business_assigned")))
            .map(|l| self.names.list(l));
        k
    }

    pub(super) fn replay(&mut self, node: &Node, path: &str, i: usize) -> Option<Replay> {
        let f = self.fields(node, path, REPLAY_FIELDS)?;
        let name = f
            .get("name")
            .and_then(|n| self.string(n, &format!("{path}.name")))
            .map_or_else(|| format!("replay {}", i + 1), |s| s.value);
        let enters_at = self.required(&f, node, path, "enters_at", |r, n, p| r.component_ref(n, p));
        let within = self.required(&f, node, path, "within", |r, n, _| {
            r.dur_row(Obj::Replay, n, path, "within")
        });
        Some(Replay {
            name,
            loc: node.loc,
            enters_at: enters_at?,
            within: within?,
        })
    }

    pub(super) fn required<T>(
        &mut self,
        f: &Fields,
        node: &Node,
        path: &str,
        field: &str,
        read: impl FnOnce(&mut Self, &Node, &str) -> Option<T>,
    ) -> Option<T> {
        match f.get(field) {
            Some(n) => read(self, n, &format!("{path}.{field}")),
            None => {
                self.err(
                    Diagnostic::at(node.loc, format!("`{path}` needs `{field}`"))
                        .label(format!("`{field}` missing")),
                );
                None
            }
        }
    }

    pub(super) fn component(&mut self, id: Sp<String>, node: &Node) -> Option<Component> {
        let path = format!("components.{}", id.value);
        let f = self.fields(node, &path, COMPONENT_FIELDS)?;
        let p = |field: &str| format!("{path}.{field}");
        let kind = self.required(&f, node, &path, "kind", |r, n, p| r.string(n, p));
        let kind = kind.map(|k| Sp::new(self.names.get(&k.value), k.loc));
        let mut c = Component::new(id.value.clone(), id.loc);
        let description = f
            .get("description")
            .and_then(|n| self.string(n, &p("description")))
            .map(|s| s.value.into());
        if let Some(n) = f.get("regions") {
            let mut regions = Vec::new();
            for (i, item) in Self::items(n) {
                if let Some(r) = self.id_ref(item, &format!("{path}.regions[{i}]")) {
                    regions.push(Sp::new(self.names.get(&r.value), r.loc));
                }
            }
            c.regions = regions.into();
        }
        let mode = f.get("mode").and_then(|n| self.choice(n, &p("mode")));
        c.set_description(description);
        c.set_mode(mode);
        let links = LinkType::ALL
            .iter()
            .flat_map(|&ty| self.links(&f, &path, ty))
            .collect();
        c.set_links(links);
        c.dedup = f
            .get("dedup")
            .and_then(|n| self.guard(n, &p("dedup")))
            .map(Box::new);
        c.backup = f
            .get("backup")
            .and_then(|n| self.backup(n, &p("backup")))
            .map(Box::new);
        c.set_settings(self.settings(&f, &path, |s: Field| Some(s.def())));
        c.kind = kind?;
        c.catalog_kind = CatalogKind::of(&c.kind.value);
        Some(c)
    }

    /// The settings `f` writes, each read by the type of its row (`row`:
    /// the row of a field where the object declares it), in the order of
    /// `F::ALL`.
    pub(super) fn settings<F: SettingField>(
        &mut self,
        f: &Fields,
        path: &str,
        row: impl Fn(F) -> Option<&'static FieldDef>,
    ) -> Settings<F> {
        let mut out = Vec::new();
        for &field in F::ALL {
            if let Some(n) = f.get(field.name())
                && let Some(def) = row(field)
                && let Some(v) = self.setting(def.ty, n, &format!("{path}.{}", def.name))
            {
                out.push((field, v));
            }
        }
        out.into_iter().collect()
    }

    /// Duration `name` of `obj` at `path`, read by its row: whether zero
    /// means something is the row's to say.
    fn dur_row(&mut self, obj: Obj, n: &Node, path: &str, name: &str) -> Option<Sp<Dur>> {
        match self.row(obj, n, path, name)? {
            Setting::Dur(d) => Some(d),
            _ => None,
        }
    }

    /// Count `name` of `obj` at `path`, read by its row (and its minimum).
    fn count_row(&mut self, obj: Obj, n: &Node, path: &str, name: &str) -> Option<Sp<u64>> {
        match self.row(obj, n, path, name)? {
            Setting::Count(c) => Some(c),
            _ => None,
        }
    }

    /// Field `name` of `obj`, written as `n` at `path`, read by the type of
    /// its vocabulary row (`vocabulary` tests: every such name has a row).
    fn row(&mut self, obj: Obj, n: &Node, path: &str, name: &str) -> Option<Setting> {
        let def = obj.field(name)?;
        self.setting(def.ty, n, &format!("{path}.{name}"))
    }

    /// A setting's value, read by the type of its row.
    fn setting(&mut self, ty: Type, n: &Node, p: &str) -> Option<Setting> {
        match ty {
            Type::Duration { zero } => self.duration(n, p, zero).map(Setting::Dur),
            Type::Count { min } => self.count(n, p, min).map(Setting::Count),
            Type::Bool => self.boolean(n, p).map(Setting::Bool),
            Type::Text { .. } => self.string(n, p).map(Setting::Text),
            Type::Texts => self.string_list(n, p).map(Setting::List),
            Type::Choice(names) => {
                let (i, loc) = self.choice_index(n, p, names)?;
                // A list of choices is short: `vocabulary` tests hold it
                // under 256.
                Some(Setting::Choice(Sp::new(i as u8, loc)))
            }
            // No setting has a row of these types (`vocabulary` tests).
            _ => None,
        }
    }

    pub(super) fn links(&mut self, f: &Fields, path: &str, ty: LinkType) -> Vec<Link> {
        let Some(node) = f.get(ty.field()) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (i, item) in Self::items(node) {
            let lp = if matches!(node.value, Value::Seq(_)) {
                format!("{path}.{}[{i}]", ty.field())
            } else {
                format!("{path}.{}", ty.field())
            };
            if let Some(l) = self.link(item, &lp, ty) {
                out.push(l);
            }
        }
        out
    }

    pub(super) fn link(&mut self, node: &Node, path: &str, ty: LinkType) -> Option<Link> {
        if let Value::Str(_) = node.value {
            let to = self.component_ref(node, path)?;
            return Some(Link::new(ty, node.loc, to));
        }
        let f = self.fields(node, path, link_fields(ty))?;
        let to = self.required(&f, node, path, "to", |r, n, p| r.component_ref(n, p))?;
        let mut l = Link::new(ty, node.loc, to);
        let p = |field: &str| format!("{path}.{field}");
        l.retry = f
            .get("retry")
            .and_then(|n| self.retry(n, &p("retry")))
            .map(Box::new);
        l.set_settings(self.settings(&f, path, |s: LinkField| Obj::link(ty).field(s.name())));
        Some(l)
    }

    pub(super) fn retry(&mut self, node: &Node, path: &str) -> Option<Retry> {
        let f = self.fields(node, path, RETRY_FIELDS)?;
        let p = |field: &str| format!("{path}.{field}");
        Some(Retry {
            loc: node.loc,
            attempts: f
                .get("attempts")
                .and_then(|n| self.count_row(Obj::Retry, n, path, "attempts")),
            timeout: f
                .get("timeout")
                .and_then(|n| self.dur_row(Obj::Retry, n, path, "timeout")),
            backoff: f
                .get("backoff")
                .and_then(|n| self.dur_row(Obj::Retry, n, path, "backoff")),
            multiplier: f
                .get("multiplier")
                .and_then(|n| self.number(n, &p("multiplier"))),
            max_backoff: f
                .get("max_backoff")
                .and_then(|n| self.dur_row(Obj::Retry, n, path, "max_backoff")),
            max_elapsed: f
                .get("max_elapsed")
                .and_then(|n| self.dur_row(Obj::Retry, n, path, "max_elapsed")),
        })
    }

    pub(super) fn guard(&mut self, node: &Node, path: &str) -> Option<Guard> {
        let f = self.fields(node, path, GUARD_FIELDS)?;
        let p = |field: &str| format!("{path}.{field}");
        let store = self.required(&f, node, path, "store", |r, n, p| r.component_ref(n, p))?;
        let in_progress = match f.get("in_progress") {
            Some(n) => {
                let ip = self.fields(n, &p("in_progress"), IN_PROGRESS_FIELDS);
                ip.map(|ip| InProgress {
                    loc: n.loc,
                    on_conflict: ip
                        .get("on_conflict")
                        .and_then(|x| self.string(x, &p("in_progress.on_conflict"))),
                    expires_after: ip.get("expires_after").and_then(|x| {
                        self.dur_row(Obj::InProgress, x, &p("in_progress"), "expires_after")
                    }),
                    on_expiry: ip.get("on_expiry").and_then(|x| {
                        self.choice_text(x, &p("in_progress.on_expiry"), vocabulary::ON_EXPIRY)
                    }),
                })
            }
            None => None,
        };
        Some(Guard {
            loc: node.loc,
            store,
            claim: f.get("claim").and_then(|n| self.choice(n, &p("claim"))),
            binds_fingerprint: f
                .get("binds_fingerprint")
                .and_then(|n| self.boolean(n, &p("binds_fingerprint"))),
            stores_result: f
                .get("stores_result")
                .and_then(|n| self.boolean(n, &p("stores_result"))),
            in_progress,
        })
    }

    pub(super) fn backup(&mut self, node: &Node, path: &str) -> Option<Backup> {
        let f = self.fields(node, path, BACKUP_FIELDS)?;
        let mut b = Backup {
            loc: node.loc,
            ..Backup::default()
        };
        b.rpo = f
            .get("rpo")
            .and_then(|n| self.dur_row(Obj::Backup, n, path, "rpo"));
        if let Some(n) = f.get("restored_with") {
            for (i, item) in Self::items(n) {
                if let Some(id) = self.component_ref(item, &format!("{path}.restored_with[{i}]")) {
                    b.restored_with.push(id);
                }
            }
        }
        Some(b)
    }
}
