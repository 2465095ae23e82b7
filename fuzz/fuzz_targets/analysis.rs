//! Structured input: a valid architecture (random kinds, links, retries,
//! regions, guards, intents), analysed, checked and rendered in every format.
#![no_main]

use libfuzzer_sys::fuzz_target;
use replay_audit::manifest::{self, Limits};

fuzz_target!(|data: &[u8]| {
    let mut u = arbitrary::Unstructured::new(data);
    let Ok(arch) = replay_audit_fuzz::arch(&mut u) else {
        return;
    };
    let order: Vec<usize> = (0..arch.n()).rev().collect();
    let split = data.first().map_or(0, |b| *b as usize % (arch.n() + 1));
    let texts = arch.texts(&order, split, data.len().is_multiple_of(2));
    match manifest::load_texts(texts, &Limits::default()) {
        Ok(m) => {
            replay_audit_fuzz::run_all(&m, data.len() as u8 ^ data.last().copied().unwrap_or(0));
        }
        Err(e) => {
            let _ = e.render(false);
        }
    }
});
