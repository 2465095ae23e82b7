//! Bytes in, `manifest::load_texts` out: never a panic, whatever the text.
//! A NUL byte splits the input into two files (one architecture).
#![no_main]

use libfuzzer_sys::fuzz_target;
use replay_audit::manifest::{self, Limits};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let texts: Vec<(String, String)> = text
        .splitn(2, '\0')
        .enumerate()
        .map(|(i, t)| (format!("f{i}.yaml"), t.to_string()))
        .collect();
    match manifest::load_texts(texts, &Limits::default()) {
        Ok(m) => {
            replay_audit_fuzz::run_all(&m, data.len() as u8);
        }
        Err(e) => {
            let _ = e.render(false);
            let _ = e.render(true);
        }
    }
});
