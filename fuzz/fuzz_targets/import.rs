//! Every importer (CloudFormation YAML/JSON, Terraform JSON, AsyncAPI) on
//! arbitrary text; what an import produces is loaded back and analysed.
#![no_main]

use libfuzzer_sys::fuzz_target;
use replay_audit::import::{self, Format};
use replay_audit::manifest::{self, Limits};

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let format = match sel % 3 {
        0 => Format::CloudFormation,
        1 => Format::Terraform,
        _ => Format::AsyncApi,
    };
    let limits = Limits::default();
    let _ = import::detect(text, &limits);
    let params = [("Env".to_string(), "prod".to_string())];
    match import::import_text(format, "input", text, &params, &limits) {
        Ok(out) => {
            if let Ok(m) = manifest::load_texts_merging(
                vec![("imported.yaml".to_string(), out.text, true)],
                &limits,
            ) {
                replay_audit_fuzz::run_all(&m, sel >> 2);
            }
        }
        Err(e) => {
            let _ = e.render(false);
        }
    }
});
