//! A small architecture description that always prints as a manifest the
//! loader accepts (generic kinds and a few catalog kinds, every link to a
//! component of a fitting kind), for the property tests and the `analysis`
//! fuzz target (fuzz/src/lib.rs includes this file with `#[path]`).
//!
//! Every field is a plain number so proptest strategies and
//! `arbitrary::Unstructured` can both fill it.

#![allow(dead_code)]

use std::fmt::Write;

/// Kinds and their role: P produces/consumes, T transports, S stores, E is
/// an external effect.
pub const KINDS: &[(&str, char)] = &[
    ("service", 'P'),
    ("function", 'P'),
    ("workflow", 'P'),
    ("queue", 'T'),
    ("topic", 'T'),
    ("stream", 'T'),
    ("store", 'S'),
    ("ledger", 'S'),
    ("external", 'E'),
    ("sqs-standard", 'T'),
    ("dynamodb-table", 'S'),
    ("powertools-idempotency", 'S'),
    ("lambda-async", 'P'),
    ("sns-standard", 'T'),
];

/// Number of seconds, or one of the spellings below.
pub const UNBOUNDED: u64 = u64::MAX;

#[derive(Debug, Clone, Default)]
pub struct Retry {
    pub attempts: u8,
    pub timeout: u64,
    pub backoff: u64,
    pub multiplier: u8,
    pub max_backoff: Option<u64>,
    pub max_elapsed: Option<u64>,
}

#[derive(Debug, Clone, Default)]
pub struct Link {
    /// Which link, by the role of the component (see [`Arch::texts`]).
    pub ty: u8,
    /// Index among the components of the fitting role.
    pub to: u8,
    pub retry: Option<Retry>,
    /// `within` on a redrive; `max_record_age` on a stream's delivery into
    /// a function (an event-source mapping, F027).
    pub within: Option<u64>,
    pub max_times: Option<u8>,
    pub passes_key: bool,
    pub claim: u8,
}

#[derive(Debug, Clone, Default)]
pub struct Comp {
    pub kind: u8,
    /// Bit mask over the declared regions.
    pub regions: u8,
    pub active_active: bool,
    pub links: Vec<Link>,
    pub retention: Option<u64>,
    /// `dedup_window` on a transport, `key_window` on an external,
    /// `max_event_age` on an asynchronously invoked Lambda function.
    pub window: Option<u64>,
    pub visibility: Option<u64>,
    pub max_receives: Option<u8>,
    pub max_backlog: Option<u64>,
    pub accepts_key: bool,
    pub replication: u8,
}

#[derive(Debug, Clone, Default)]
pub struct Replay {
    pub enters_at: u8,
    pub within: u64,
}

#[derive(Debug, Clone, Default)]
pub struct Intent {
    pub origin: u8,
    pub effect: u8,
    pub per_attempt: bool,
    pub replays: Vec<Replay>,
}

#[derive(Debug, Clone, Default)]
pub struct Arch {
    /// 0 to 3 regions.
    pub regions: u8,
    pub detection: u64,
    pub catch_up: u64,
    pub comps: Vec<Comp>,
    pub intents: Vec<Intent>,
}

pub fn dur(s: u64) -> String {
    if s == UNBOUNDED {
        "unbounded".to_string()
    } else {
        format!("{s}s")
    }
}

fn role(c: &Comp) -> char {
    KINDS[c.kind as usize % KINDS.len()].1
}

fn kind(c: &Comp) -> &'static str {
    KINDS[c.kind as usize % KINDS.len()].0
}

/// SQS and Lambda document their limits; keep generated values inside them.
fn clamp(kind: &str, field: &str, v: u64) -> u64 {
    if v == UNBOUNDED {
        return match kind {
            "lambda-async" => 21_600,
            k if k.starts_with("sqs") => 1_209_600,
            _ => v,
        };
    }
    match (kind, field) {
        ("sqs-standard", "retention") => v.clamp(60, 1_209_600),
        ("sqs-standard", "visibility_timeout") => v.min(43_200),
        // Lambda's maximum event age: 60 s to 6 h (F024).
        ("lambda-async", "max_event_age") => v.clamp(60, 21_600),
        _ => v,
    }
}

impl Arch {
    pub fn n(&self) -> usize {
        self.comps.len()
    }

    fn of_role(&self, roles: &str, except: Option<usize>) -> Vec<usize> {
        (0..self.n())
            .filter(|&i| roles.contains(role(&self.comps[i])) && Some(i) != except)
            .collect()
    }

    fn pick(&self, roles: &str, except: Option<usize>, k: u8) -> Option<usize> {
        let c = self.of_role(roles, except);
        (!c.is_empty()).then(|| c[k as usize % c.len()])
    }

    fn retry_text(r: &Retry) -> String {
        let mut s = format!(
            "{{ attempts: {}, timeout: {}, backoff: {}, multiplier: {}",
            1 + r.attempts % 5,
            dur(r.timeout.max(1)),
            dur(r.backoff),
            1 + r.multiplier % 3
        );
        if let Some(m) = r.max_backoff {
            let _ = write!(s, ", max_backoff: {}", dur(m.max(1)));
        }
        if let Some(m) = r.max_elapsed {
            let _ = write!(s, ", max_elapsed: {}", dur(m.max(1)));
        }
        s.push_str(" }");
        s
    }

    /// The fields of component `i`, each as one YAML line (`key: value`).
    fn fields(&self, i: usize) -> Vec<String> {
        let c = &self.comps[i];
        let k = kind(c);
        let mut out = vec![format!("kind: {k}")];
        let nregions = self.regions.min(3) as usize;
        let regs: Vec<String> = (0..nregions)
            .filter(|r| c.regions & (1 << r) != 0)
            .map(|r| format!("r{r}"))
            .collect();
        if !regs.is_empty() {
            out.push(format!("regions: [{}]", regs.join(", ")));
            if regs.len() > 1 && c.active_active {
                out.push("mode: active-active".into());
            }
        }
        let mut sends = Vec::new();
        let mut delivers = Vec::new();
        let mut calls = Vec::new();
        let mut effects = Vec::new();
        let mut dead_letter = None;
        let mut redrive = None;
        let mut dedup = None;
        for l in &c.links {
            let retry = l
                .retry
                .as_ref()
                .map(|r| format!(", retry: {}", Self::retry_text(r)))
                .unwrap_or_default();
            match role(c) {
                'P' => match l.ty % 4 {
                    0 => {
                        if let Some(t) = self.pick("T", Some(i), l.to) {
                            sends.push(format!("{{ to: c{t}{retry} }}"));
                        }
                    }
                    1 => {
                        if let Some(t) = self.pick("PE", Some(i), l.to) {
                            calls.push(format!(
                                "{{ to: c{t}, timeout: 10s, passes_key: {}{retry} }}",
                                l.passes_key
                            ));
                        }
                    }
                    2 => {
                        if let Some(t) = self.pick("ES", Some(i), l.to) {
                            effects.push(format!("{{ to: c{t}, passes_key: {} }}", l.passes_key));
                        }
                    }
                    _ => {
                        if let Some(t) = self.pick("S", Some(i), l.to) {
                            let claim = ["conditional-write", "read-then-write", "none"]
                                [l.claim as usize % 3];
                            dedup = Some(format!(
                                "{{ store: c{t}, claim: {claim}, binds_fingerprint: {}, stores_result: true }}",
                                l.passes_key
                            ));
                        }
                    }
                },
                'T' => match l.ty % 3 {
                    0 => {
                        if let Some(t) = self.pick("P", Some(i), l.to) {
                            let age = match (k, kind(&self.comps[t]), l.within) {
                                ("stream", "function" | "lambda-async", Some(w)) => {
                                    format!(", max_record_age: {}", dur(w.max(1)))
                                }
                                _ => String::new(),
                            };
                            delivers.push(format!("{{ to: c{t}{age}{retry} }}"));
                        }
                    }
                    1 => {
                        if let Some(t) = self.pick("T", Some(i), l.to) {
                            dead_letter = Some(format!(
                                "{{ to: c{t}, after_receives: {} }}",
                                1 + l.claim % 5
                            ));
                        }
                    }
                    _ => {
                        if let Some(t) = self.pick("T", None, l.to) {
                            let mut s = format!("{{ to: c{t}, mode: manual");
                            if let Some(w) = l.within {
                                let _ = write!(s, ", within: {}", dur(w.max(1)));
                            }
                            if let Some(m) = l.max_times {
                                let _ = write!(s, ", max_times: {}", 1 + m % 3);
                            }
                            s.push_str(" }");
                            redrive = Some(s);
                        }
                    }
                },
                _ => {}
            }
        }
        let list = |name: &str, v: &[String]| format!("{name}: [{}]", v.join(", "));
        if !sends.is_empty() {
            out.push(list("sends_to", &sends));
        }
        if !delivers.is_empty() {
            out.push(list("delivers_to", &delivers));
        }
        if !calls.is_empty() {
            out.push(list("calls", &calls));
        }
        if !effects.is_empty() {
            out.push(list("effects", &effects));
        }
        if let Some(d) = dead_letter {
            out.push(format!("dead_letter: {d}"));
        }
        if let Some(r) = redrive {
            out.push(format!("redrive: {r}"));
        }
        if let Some(d) = dedup {
            out.push(format!("dedup: {d}"));
        }
        match role(c) {
            // SNS keeps no backlog: its delivery span is the catalog's
            // endpoint policy (F016), so none of a queue's fields apply.
            'T' if k == "sns-standard" => {}
            'T' => {
                if let Some(r) = c.retention {
                    out.push(format!("retention: {}", dur(clamp(k, "retention", r))));
                }
                if let Some(v) = c.visibility {
                    out.push(format!(
                        "visibility_timeout: {}",
                        dur(clamp(k, "visibility_timeout", v.max(1)))
                    ));
                }
                if let Some(m) = c.max_receives {
                    out.push(format!("max_receives: {}", 1 + m % 10));
                }
                if let Some(b) = c.max_backlog {
                    out.push(format!("max_backlog: {}", dur(b.max(1))));
                }
                if let (Some(w), false) = (c.window, k.starts_with("sqs")) {
                    out.push(format!("dedup_window: {}", dur(w)));
                }
            }
            'S' => {
                if let Some(r) = c.retention {
                    out.push(format!("retention: {}", dur(r)));
                }
                out.push(format!(
                    "replication: {}",
                    ["none", "async", "sync"][c.replication as usize % 3]
                ));
            }
            'P' if k == "lambda-async" => {
                if let Some(w) = c.window {
                    out.push(format!(
                        "max_event_age: {}",
                        dur(clamp(k, "max_event_age", w))
                    ));
                }
            }
            'E' => {
                out.push(format!("accepts_key: {}", c.accepts_key));
                if let (Some(w), true) = (c.window, c.accepts_key) {
                    out.push(format!("key_window: {}", dur(w.max(1))));
                }
            }
            _ => {}
        }
        out
    }

    /// The manifest as files: the first holds the header, regions, intents
    /// and the components `order[..split]`; a second (when `split <
    /// order.len()`) the rest. `reverse` writes every component's fields in
    /// the opposite order.
    pub fn texts(&self, order: &[usize], split: usize, reverse: bool) -> Vec<(String, String)> {
        let mut head = String::from("version: 1\nname: generated\n");
        let nregions = self.regions.min(3) as usize;
        if nregions > 0 {
            head.push_str("regions:\n");
            for r in 0..nregions {
                let mut f = format!(
                    "detection: {}, catch_up: {}",
                    dur(self.detection.max(1)),
                    dur(self.catch_up)
                );
                if nregions > 1 {
                    let _ = write!(f, ", failover_to: r{}", (r + 1) % nregions);
                }
                let _ = writeln!(head, "  r{r}: {{ {f} }}");
            }
        }
        let mut intents = String::new();
        for (j, it) in self.intents.iter().enumerate() {
            let (Some(o), Some(e)) = (
                self.pick("P", None, it.origin),
                self.pick("ES", None, it.effect),
            ) else {
                continue;
            };
            let _ = writeln!(intents, "  i{j}:\n    origin: c{o}\n    effect: c{e}");
            let minted = if it.per_attempt {
                "per-attempt"
            } else {
                "per-intent"
            };
            let _ = writeln!(
                intents,
                "    key: {{ fields: [k{j}], minted: {minted}, persisted_before_retry: true }}"
            );
            let mut replays = Vec::new();
            for (r, rp) in it.replays.iter().enumerate() {
                let at = rp.enters_at as usize % self.n().max(1);
                replays.push(format!(
                    "{{ name: replay {r}, enters_at: c{at}, within: {} }}",
                    dur(rp.within.max(1))
                ));
            }
            if !replays.is_empty() {
                let _ = writeln!(intents, "    replays: [{}]", replays.join(", "));
            }
        }
        if !intents.is_empty() {
            head.push_str("intents:\n");
            head.push_str(&intents);
        }
        let comps = |ids: &[usize]| {
            let mut s = String::from("components:\n");
            for &i in ids {
                let _ = writeln!(s, "  c{i}:");
                let mut f = self.fields(i);
                if reverse {
                    f.reverse();
                }
                for line in f {
                    let _ = writeln!(s, "    {line}");
                }
            }
            s
        };
        let split = split.min(order.len());
        let mut files = Vec::new();
        if split > 0 || order.is_empty() {
            head.push_str(&comps(&order[..split]));
        }
        files.push(("a.yaml".to_string(), head));
        if split < order.len() {
            files.push((
                "b.yaml".to_string(),
                format!("version: 1\n{}", comps(&order[split..])),
            ));
        }
        files
    }

    /// One file, components in their own order.
    pub fn text(&self) -> String {
        let order: Vec<usize> = (0..self.n()).collect();
        self.texts(&order, order.len(), false).remove(0).1
    }
}
