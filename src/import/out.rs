//! The output model every importer fills ([`Out`]: components, intents,
//! regions, notes, each field with its [`F`]/[`V`] value and source comment)
//! and its rendering as manifest YAML text, with the quoting that keeps
//! imported text from ending a line or starting a field.

use std::fmt::Write as _;

use super::{Format, Node};

/// A field of a generated component: key, value, comment.
#[derive(Debug, Clone)]
pub struct F {
    pub key: String,
    pub val: V,
    pub comment: Option<String>,
}

#[derive(Debug, Clone)]
pub enum V {
    /// Already valid YAML scalar text.
    S(String),
    /// A flow list of scalars.
    List(Vec<String>),
    Map(Vec<F>),
    /// A block list of mappings.
    Items(Vec<Vec<F>>),
}

impl F {
    pub fn new(key: &str, val: V, comment: Option<String>) -> F {
        F {
            key: key.to_string(),
            val,
            comment,
        }
    }

    /// `retry: { attempts: retries + 1 }`: platforms count retries after the
    /// first attempt; the manifest counts every attempt. `src` names where
    /// the number came from.
    pub fn retry_attempts(retries: i64, src: &str) -> F {
        F::new(
            "retry",
            V::Map(vec![F::new(
                "attempts",
                V::S((retries + 1).to_string()),
                Some(format!("{src}: {retries} retries + the first attempt")),
            )]),
            None,
        )
    }
}

/// A generated component.
#[derive(Debug, Clone)]
pub struct OutComp {
    pub id: String,
    pub kind: String,
    pub from: String,
    pub fields: Vec<F>,
    /// Comment lines under the component (notes, TODOs).
    pub notes: Vec<String>,
    /// Inline allowance comments written above the component, each with
    /// its source ([`super::allow`]).
    pub allow: Vec<String>,
}

/// A generated intent (AsyncAPI extensions).
#[derive(Debug, Clone)]
pub struct OutIntent {
    pub id: String,
    pub fields: Vec<F>,
    pub notes: Vec<String>,
}

/// Everything an importer found, in the order found.
#[derive(Debug, Clone)]
pub struct Out {
    pub file: String,
    /// The input files by `Loc::file`, when more than one was read
    /// (a Terraform module folder); else every place is in `file`. Shared
    /// by every output of one run: roots read together each name all the
    /// inputs, and a copy each would grow with the square of their number.
    pub files: std::sync::Arc<[String]>,
    /// The header names several inputs of the format (templates read
    /// together); a plan read beside others names only itself.
    pub several: bool,
    pub format: Format,
    pub comps: Vec<OutComp>,
    pub intents: Vec<OutIntent>,
    pub regions: Vec<(String, String)>,
    pub unsupported: Vec<(String, String)>,
    pub notes: Vec<String>,
    /// What of the input was read, left out and left unresolved (the
    /// coverage line of the header).
    pub coverage: super::coverage::Coverage,
    /// Position in `comps` by id: lookups stay constant-time however many
    /// templates one output holds.
    index: std::collections::HashMap<String, usize>,
}

impl Out {
    pub fn new(file: &str, format: Format) -> Out {
        Out {
            file: file.to_string(),
            files: std::sync::Arc::from(Vec::new()),
            several: false,
            format,
            comps: Vec::new(),
            intents: Vec::new(),
            regions: Vec::new(),
            unsupported: Vec::new(),
            notes: Vec::new(),
            coverage: super::coverage::Coverage::default(),
            index: std::collections::HashMap::new(),
        }
    }

    /// `# from PATH (file:line)`.
    pub fn src(&self, path: &str, node: &Node) -> String {
        let file = self.input(node.loc.file);
        if node.loc.line > 0 {
            format!("from {path} ({file}:{})", node.loc.line)
        } else {
            format!("from {path} ({file})")
        }
    }

    /// The input file of `Loc::file` number `file`.
    pub fn input(&self, file: u32) -> &str {
        self.files.get(file as usize).unwrap_or(&self.file)
    }

    pub fn comp(&mut self, id: &str) -> Option<&mut OutComp> {
        let i = *self.index.get(id)?;
        self.comps.get_mut(i)
    }

    pub fn has(&self, id: &str) -> bool {
        self.index.contains_key(id)
    }

    /// Adds a component (a second one with the same id gets a suffix).
    pub fn add(&mut self, id: &str, kind: &str, from: String) -> String {
        let mut id = id.to_string();
        let mut n = 2;
        while self.has(&id) {
            id = format!(
                "{}-{n}",
                id.trim_end_matches(|c: char| c.is_ascii_digit() || c == '-')
            );
            n += 1;
        }
        self.index.insert(id.clone(), self.comps.len());
        self.comps.push(OutComp {
            id: id.clone(),
            kind: kind.to_string(),
            from,
            fields: Vec::new(),
            notes: Vec::new(),
            allow: Vec::new(),
        });
        id
    }

    /// Writes allowance `lines` ([`super::allow`]) above component `id`.
    pub fn allow(&mut self, id: &str, lines: Vec<String>) {
        if let Some(c) = self.comp(id) {
            c.allow.extend(lines);
        }
    }

    /// Sets a field of a component (replacing one of the same key).
    pub fn set(&mut self, id: &str, f: F) {
        if let Some(c) = self.comp(id) {
            match c.fields.iter_mut().find(|x| x.key == f.key) {
                Some(x) => *x = f,
                None => c.fields.push(f),
            }
        }
    }

    /// Appends an item to a list-of-links field (`delivers_to`, `effects`, ...).
    pub fn push_link(&mut self, id: &str, key: &str, item: Vec<F>) {
        if let Some(c) = self.comp(id) {
            match c.fields.iter_mut().find(|x| x.key == key) {
                Some(F {
                    val: V::Items(items),
                    ..
                }) => items.push(item),
                _ => c.fields.push(F::new(key, V::Items(vec![item]), None)),
            }
        }
    }

    /// Takes the components `drop` says out of the output, keeping the
    /// others' order.
    pub fn remove(&mut self, drop: impl Fn(&OutComp) -> bool) -> Vec<OutComp> {
        let (gone, kept) = std::mem::take(&mut self.comps)
            .into_iter()
            .partition(|c| drop(c));
        self.comps = kept;
        self.index = (self.comps.iter().enumerate())
            .map(|(i, c)| (c.id.clone(), i))
            .collect();
        gone
    }

    pub fn note(&mut self, id: &str, note: String) {
        if let Some(c) = self.comp(id) {
            c.notes.push(note);
        }
    }

    /// A unit of the input (a resource of type `ty`) that is not imported:
    /// listed in the header and counted by type in the coverage line.
    pub fn unsupported(&mut self, ty: &str, what: String, src: String) {
        self.coverage.not_imported(ty, None);
        self.unsupported.push((what, src));
    }

    /// [`Out::unsupported`] of a unit listed once per instance (a
    /// Terraform resource with `count`): counted once per `key`.
    pub fn unsupported_unit(&mut self, ty: &str, key: &str, what: String, src: String) {
        self.coverage.not_imported(ty, Some(key));
        self.unsupported.push((what, src));
    }

    /// A part of a read unit that is not imported (an event of a SAM
    /// function of a type not read): listed, and counted apart.
    pub fn unsupported_part(&mut self, what: String, src: String) {
        self.coverage.parts += 1;
        self.unsupported.push((what, src));
    }

    /// A `TODO:` note on component `id` for a reference left unresolved,
    /// counted in the coverage line; in the header when there is no such
    /// component, so that it is never lost.
    pub fn unresolved(&mut self, id: &str, note: String) {
        self.coverage.unresolved += 1;
        match self.comp(id) {
            Some(c) => c.notes.push(note),
            None => self.notes.push(note),
        }
    }

    pub fn region(&mut self, id: &str, src: String) {
        if !self.regions.iter().any(|(r, _)| r == id) {
            self.regions.push((id.to_string(), src));
        }
    }

    /// The manifest text.
    pub fn render(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "# Generated by `replay-audit import` from {} ({}).",
            comment_text(&self.file),
            if self.several {
                self.format.plural()
            } else {
                self.format.name()
            }
        );
        s.push_str("# Every imported value names its source; review every `TODO:` before relying on the findings.\n");
        s.push_str("# The input cannot tell intents, keys, effects and dedup guards: add them here or in an\n");
        s.push_str("# overlay manifest given to `check` with the original file (same ids extend these components).\n");
        let _ = writeln!(s, "# {}", comment_text(&self.coverage.line(self.format)));
        for n in &self.notes {
            let _ = writeln!(s, "# {}", comment_text(n));
        }
        if !self.unsupported.is_empty() {
            s.push_str("#\n# Not imported (unsupported):\n");
            for (what, src) in &self.unsupported {
                let _ = writeln!(s, "#   - {} ({})", comment_text(what), comment_text(src));
            }
        }
        s.push_str("version: 1\n");
        if !self.regions.is_empty() {
            s.push_str("\nregions:\n");
            for (r, src) in &self.regions {
                let _ = writeln!(
                    s,
                    "  {}: {{}}  # {}; TODO: failover_to, detection, catch_up",
                    scalar(r),
                    comment_text(src)
                );
            }
        }
        if self.intents.is_empty() {
            s.push_str(
                "\n# TODO: declare the intents (business decisions) these components carry, e.g.\n",
            );
            s.push_str("# intents:\n#   my-intent:\n#     origin: <component where the decision becomes stable>\n");
            s.push_str("#     effect: <component where the business effect happens>\n");
            s.push_str("#     key: { fields: [<natural key fields>] }\n");
        } else {
            s.push_str("\nintents:\n");
            for i in &self.intents {
                let _ = writeln!(s, "  {}:", scalar(&i.id));
                for n in &i.notes {
                    let _ = writeln!(s, "    # {}", comment_text(n));
                }
                write_fields(&mut s, &i.fields, 4);
            }
        }
        if self.comps.is_empty() {
            s.push_str("\n# TODO: nothing was imported; declare the components\ncomponents: {}\n");
            return s;
        }
        s.push_str("\ncomponents:\n");
        for c in &self.comps {
            for a in &c.allow {
                let _ = writeln!(s, "  # {}", comment_text(a));
            }
            let _ = writeln!(s, "  {}:", scalar(&c.id));
            let _ = writeln!(
                s,
                "    kind: {}  # {}",
                written(&c.kind),
                comment_text(&c.from)
            );
            write_fields(&mut s, &c.fields, 4);
            for n in &c.notes {
                let _ = writeln!(s, "    # {}", comment_text(n));
            }
        }
        s
    }
}

fn comment(c: &Option<String>) -> String {
    c.as_ref()
        .map_or_else(String::new, |c| format!("  # {}", comment_text(c)))
}

fn write_fields(s: &mut String, fields: &[F], indent: usize) {
    for f in fields {
        write_field(s, f, indent, "");
    }
}

fn write_field(s: &mut String, f: &F, indent: usize, first_prefix: &str) {
    let pad = " ".repeat(indent);
    let lead = if first_prefix.is_empty() {
        pad.clone()
    } else {
        format!("{}{first_prefix}", " ".repeat(indent - first_prefix.len()))
    };
    match &f.val {
        V::S(v) => {
            let _ = writeln!(s, "{lead}{}: {}{}", f.key, written(v), comment(&f.comment));
        }
        V::List(items) => {
            let _ = writeln!(
                s,
                "{lead}{}: [{}]{}",
                f.key,
                items
                    .iter()
                    .map(|v| written(v))
                    .collect::<Vec<_>>()
                    .join(", "),
                comment(&f.comment)
            );
        }
        V::Map(fields) => {
            let _ = writeln!(s, "{lead}{}:{}", f.key, comment(&f.comment));
            write_fields(s, fields, indent + 2);
        }
        V::Items(items) => {
            let _ = writeln!(s, "{lead}{}:{}", f.key, comment(&f.comment));
            for item in items {
                for (i, x) in item.iter().enumerate() {
                    write_field(s, x, indent + 4, if i == 0 { "- " } else { "" });
                }
            }
        }
    }
}

/// Text for a `#` comment, on one line whatever the input holds: YAML ends
/// a comment at a line break (LF, CR; NEL, U+2028 and U+2029 in YAML 1.1),
/// after which imported text would be read as a field (`max_backlog: 1s`).
/// Line breaks and other controls are shown as escapes (`\n`, `\u{85}`),
/// as in error messages.
pub fn comment_text(s: &str) -> String {
    crate::diagnostics::echo(s)
}

/// A value as the manifest writes it. The importers build values from
/// numbers, durations, kebab-case ids, keywords and [`scalar`]; text of that
/// shape stays as it is, and anything else (an imported string that was
/// not passed through [`scalar`]) is quoted here, so that no imported text
/// can end the line or start a field.
fn written(v: &str) -> std::borrow::Cow<'_, str> {
    let quoted = v.starts_with('"') && serde_json::from_str::<String>(v).is_ok();
    let built = !v.is_empty()
        && v.trim() == v
        && !v.starts_with("- ")
        && v.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, ' ' | '.' | '-' | '_' | '/' | '+'));
    if quoted || built {
        std::borrow::Cow::Borrowed(v)
    } else {
        std::borrow::Cow::Owned(scalar(v))
    }
}

/// A string as a YAML scalar (quoted where plain text would be misread).
pub fn scalar(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/'))
        && !matches!(
            text,
            "true" | "false" | "null" | "yes" | "no" | "on" | "off" | "~"
        )
        && text.parse::<f64>().is_err();
    if plain {
        text.to_string()
    } else {
        // JSON's quoting is YAML's (`\n`, `\"`, `\u001b`); besides, the
        // characters YAML does not take raw (DEL, C1, the BOM, U+FFFE,
        // U+FFFF) or may read as a line break (NEL, U+2028, U+2029) are
        // written as `\uXXXX`, which both read back as the same text.
        let json = serde_json::to_string(text).unwrap_or_else(|_| "\"\"".into());
        let mut out = String::with_capacity(json.len());
        for c in json.chars() {
            match c {
                '\u{7f}'..='\u{9f}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{feff}'
                | '\u{fffe}'
                | '\u{ffff}' => {
                    out.push_str(&format!("\\u{:04x}", c as u32));
                }
                c => out.push(c),
            }
        }
        out
    }
}
