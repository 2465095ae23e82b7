//! Manifests of hostile size for the output commands (tests/hostile_sizes.rs
//! and, through `#[path]`, examples/hostile_gen.rs for
//! benches/hostile_growth.sh): each is valid and small per component, but
//! its worst paths, drawings or table cells grow with N.

#![allow(dead_code)]

use std::fmt::Write;

/// The part every shape shares: the intent's worker, its dedup store and
/// the bank it pays through.
fn worker_and_bank(s: &mut String) {
    s.push_str(
        "  worker:\n    kind: function\n    dedup: { store: keys, claim: conditional-write }\n    effects: [bank]\n  keys: { kind: store, retention: 1h }\n  bank: { kind: external, accepts_key: false }\n",
    );
}

/// A ring of `n` queues `q0` … `q{n-1}`: each dead-letters into the next
/// and is redriven (at most twice, within an hour) from it, so every worst
/// path goes round the ring (`q{k}` is `k + 1` steps from `svc`). Each has
/// a 5-minute dedup window that no send uses: nothing is sent into a queue
/// with a dedup id, so `horizon` has no row for them ([`relays`] has).
pub fn ring(n: usize) -> String {
    let mut s = String::from(
        "version: 1\nintents:\n  pay:\n    origin: svc\n    effect: bank\n    key: { fields: [id] }\ncomponents:\n  svc: { kind: service, sends_to: q0 }\n",
    );
    worker_and_bank(&mut s);
    for i in 0..n {
        let (next, prev) = ((i + 1) % n, (i + n - 1) % n);
        write!(
            s,
            "  q{i}:\n    kind: queue\n    retention: 4d\n    dedup_window: 5m\n    delivers_to: worker\n    dead_letter: {{ to: q{next}, after_receives: 3 }}\n    redrive: {{ to: q{prev}, mode: manual, within: 1h, max_times: 2 }}\n"
        )
        .unwrap();
    }
    s
}

/// A line of `n` queues `q0` … `q{n-1}` with a 5-minute dedup window,
/// each delivering to a relay `r{k}` that sends on to the next queue with
/// the key as dedup id (the last queue delivers to the worker), so
/// `horizon` has a row for every queue, whose worst path is the whole line
/// up to it (`q{k}` is `2k + 1` steps from `svc`, `4d` a queue).
pub fn relays(n: usize) -> String {
    let mut s = String::from(
        "version: 1\nintents:\n  pay:\n    origin: svc\n    effect: bank\n    key: { fields: [id] }\ncomponents:\n  svc: { kind: service, sends_to: { to: q0, dedup_id: key } }\n",
    );
    worker_and_bank(&mut s);
    for i in 0..n {
        let to = if i + 1 == n {
            "worker".to_string()
        } else {
            format!("r{i}")
        };
        write!(
            s,
            "  q{i}:\n    kind: queue\n    retention: 4d\n    dedup_window: 5m\n    delivers_to: {to}\n"
        )
        .unwrap();
        if i + 1 < n {
            writeln!(
                s,
                "  r{i}: {{ kind: service, sends_to: {{ to: q{}, dedup_id: key }} }}",
                i + 1
            )
            .unwrap();
        }
    }
    s
}

/// A chain of `n` services `c0` → `c1` → … → `c{n-1}`, each calling the
/// next, the last one the worker: one intent whose path has `n + 2` hops.
pub fn chain(n: usize) -> String {
    let mut s = String::from(
        "version: 1\nintents:\n  pay:\n    origin: c0\n    effect: bank\n    key: { fields: [id] }\ncomponents:\n",
    );
    worker_and_bank(&mut s);
    for i in 0..n {
        let to = if i + 1 == n {
            "worker".to_string()
        } else {
            format!("c{}", i + 1)
        };
        writeln!(
            s,
            "  c{i}: {{ kind: service, calls: [{{ to: {to}, timeout: 1s, passes_key: true }}] }}"
        )
        .unwrap();
    }
    s
}

/// `n` intents `i0` … `i{n-1}`, each from its own service `s{k}` through one
/// hub queue to the same worker and bank.
pub fn hub(n: usize) -> String {
    let mut s = String::from("version: 1\nintents:\n");
    for k in 0..n {
        writeln!(
            s,
            "  i{k}: {{ origin: s{k}, effect: bank, key: {{ fields: [id] }} }}"
        )
        .unwrap();
    }
    s.push_str("components:\n  hub: { kind: queue, retention: 4d, delivers_to: worker }\n");
    worker_and_bank(&mut s);
    for k in 0..n {
        writeln!(s, "  s{k}: {{ kind: service, sends_to: hub }}").unwrap();
    }
    s
}

/// One unbroken word of `bytes` letters as a queue's id, so that the id
/// reaches the component cell and the path of the table's findings. (YAML
/// allows plain keys of 1,024 characters at most, hence `? key`.)
pub fn long_word(bytes: usize) -> (String, String) {
    let word = "w".repeat(bytes);
    let text = format!(
        "version: 1\nintents:\n  pay:\n    origin: svc\n    effect: bank\n    key: {{ fields: [id] }}\ncomponents:\n  svc: {{ kind: service, sends_to: {word} }}\n  ? {word}\n  : {{ kind: queue, retention: 4d, delivers_to: worker }}\n"
    );
    let mut text = text;
    worker_and_bank(&mut text);
    (text, word)
}
