//! The what-if value parser: `TARGET=VALUE` overrides (and `unset`) applied
//! to the DLQ-redrive incident, then analysed. Lines of the input are
//! separate overrides; a line starting with `-` is an unset.
#![no_main]

use libfuzzer_sys::fuzz_target;
use replay_audit::manifest::Limits;
use replay_audit::whatif::Session;
use std::sync::OnceLock;

const BASE: &str = include_str!("../../fixtures/incident-dlq-redrive.yaml");

/// The incident, parsed once (each input works on a clone).
fn base() -> &'static Session {
    static BASE_SESSION: OnceLock<Session> = OnceLock::new();
    BASE_SESSION.get_or_init(|| {
        Session::from_texts(
            vec![("incident.yaml".to_string(), BASE.to_string())],
            &Limits::default(),
        )
        .expect("the fixture loads")
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut s = base().clone();
    let mut overrides = Vec::new();
    for line in text.lines().take(8) {
        if let Some(t) = line.strip_prefix('-') {
            overrides.push(s.parse_unset("--unset", t));
        } else {
            match s.parse_set("--set", line) {
                Ok(o) => overrides.push(o),
                Err(e) => {
                    let _ = e.render(false);
                }
            }
        }
    }
    match s.build(&overrides) {
        Ok(built) => {
            let _ = replay_audit::whatif::render_changes(&built.changes);
            // Every format for one input in sixteen; the findings and JSON
            // for all.
            if data.len().is_multiple_of(16) {
                replay_audit_fuzz::run_all(&built.manifest, data.len() as u8);
            } else {
                let a = replay_audit::analysis::analyse(&built.manifest);
                let f = replay_audit::rules::run(&a);
                let _ = replay_audit::report::json::render(&built.manifest.sources, &f);
            }
        }
        Err(e) => {
            let _ = e.render(false);
        }
    }
});
