//! Writes synthetic manifests for benchmarks and scale tests.
//!
//! ```text
//! cargo run --release --example generate -- --components 10000 --seed 1 --out target/m10k.yaml
//! cargo run --release --example generate -- --each-dir target/org --manifests 1000 --components 40 --seed 1
//! ```
//!
//! The same seed always gives the same bytes (see `synth::SplitMix64`).
//! With `--each-dir`, `--components` is the size of each manifest
//! (default 40) and DIR receives `arch-0001.yaml` ... .

#[path = "synth/mod.rs"]
mod synth;

use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str =
    "usage: generate --components N [--seed S] (--out FILE | --each-dir DIR --manifests K)";

fn main() -> ExitCode {
    match run(std::env::args().skip(1).collect()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

fn run(args: Vec<String>) -> Result<(), String> {
    let mut components: Option<usize> = None;
    let mut seed = 1u64;
    let mut out: Option<PathBuf> = None;
    let mut each_dir: Option<PathBuf> = None;
    let mut manifests: Option<usize> = None;
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        let mut value = |name: &str| it.next().ok_or_else(|| format!("{name} needs a value"));
        match a.as_str() {
            "--components" => components = Some(parse(&value("--components")?, "--components")?),
            "--seed" => seed = parse(&value("--seed")?, "--seed")?,
            "--out" => out = Some(PathBuf::from(value("--out")?)),
            "--each-dir" => each_dir = Some(PathBuf::from(value("--each-dir")?)),
            "--manifests" => manifests = Some(parse(&value("--manifests")?, "--manifests")?),
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(());
            }
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    match (out, each_dir) {
        (Some(out), None) => {
            let n = components.ok_or("--components is required with --out")?;
            let (text, stats) = synth::generate(&synth::Config::new(n, seed));
            std::fs::write(&out, &text)
                .map_err(|e| format!("cannot write `{}`: {e}", out.display()))?;
            eprintln!(
                "{}: {} components, {} intents, {} pipelines, {} hubs, {} hazards, {} bytes",
                out.display(),
                stats.components,
                stats.intents,
                stats.pipelines,
                stats.hubs,
                stats.hazards.len(),
                text.len()
            );
            Ok(())
        }
        (None, Some(dir)) => {
            let k = manifests.ok_or("--manifests is required with --each-dir")?;
            let n = components.unwrap_or(40);
            std::fs::create_dir_all(&dir)
                .map_err(|e| format!("cannot create `{}`: {e}", dir.display()))?;
            let mut bytes = 0;
            for (name, text) in synth::generate_many(k, n, seed) {
                let path = dir.join(name);
                std::fs::write(&path, &text)
                    .map_err(|e| format!("cannot write `{}`: {e}", path.display()))?;
                bytes += text.len();
            }
            eprintln!(
                "{}: {k} manifests of about {n} components, {bytes} bytes",
                dir.display()
            );
            Ok(())
        }
        _ => Err("give exactly one of --out FILE or --each-dir DIR".into()),
    }
}

fn parse<T: std::str::FromStr>(s: &str, name: &str) -> Result<T, String> {
    s.parse()
        .map_err(|_| format!("{name}: `{s}` is not a whole number"))
}
