//! Converts the platform catalog (`src/catalog/kinds.toml`) to JSON at build
//! time. The TOML stays the file people edit and review; the binary parses
//! the JSON copy, which is several times faster to read than TOML, so a
//! small manifest is checked in about the time the process takes to start.

use std::path::PathBuf;

fn main() {
    let src = "src/catalog/kinds.toml";
    println!("cargo::rerun-if-changed={src}");
    let text = std::fs::read_to_string(src).expect("src/catalog/kinds.toml is readable");
    let value: toml::Value = toml::from_str(&text).unwrap_or_else(|e| panic!("{src}: {e}"));
    let json = serde_json::to_string(&value).expect("TOML values convert to JSON");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(out.join("kinds.json"), json).expect("OUT_DIR is writable");
}
