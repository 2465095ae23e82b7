//! The manifest: typed model, loading with spans and limits, validation.

pub mod load;
pub mod model;
pub mod validate;
pub mod yaml;

use std::path::PathBuf;

pub use model::Manifest;
pub use yaml::Limits;

use crate::diagnostics::{Diagnostic, SourceMap};

/// Input that could not be analysed: every error found, and the files to
/// render them against.
#[derive(Debug, thiserror::Error)]
#[error("{} error(s) in the manifest", .diagnostics.len())]
pub struct LoadError {
    pub sources: SourceMap,
    pub diagnostics: Vec<Diagnostic>,
}

impl LoadError {
    /// Renders every error like rustc, followed by a count.
    pub fn render(&self, color: bool) -> String {
        let mut s = String::new();
        for d in &self.diagnostics {
            s.push_str(&d.render(&self.sources, color));
            s.push_str("\n\n");
        }
        let n = self.diagnostics.len();
        s.push_str(&format!(
            "error: could not analyse the manifest: {n} error{}\n",
            if n == 1 { "" } else { "s" }
        ));
        s
    }
}

/// Loads and validates files or folders as one architecture.
pub fn load(paths: &[PathBuf], limits: &Limits) -> Result<Manifest, LoadError> {
    let loaded = load::load_files(paths, limits).map_err(|(sources, diagnostics)| LoadError {
        sources,
        diagnostics,
    })?;
    check(loaded)
}

/// Loads and validates in-memory texts (file name, content).
pub fn load_texts(texts: Vec<(String, String)>, limits: &Limits) -> Result<Manifest, LoadError> {
    check(load::load_texts(texts, limits))
}

/// Validates even a partly read manifest, so one run reports every error;
/// a reference to an id that is defined but failed to read is not reported
/// again as dangling.
fn check(loaded: load::Loaded) -> Result<Manifest, LoadError> {
    let load::Loaded {
        manifest: m,
        mut errors,
        defined,
    } = loaded;
    errors.extend(validate::validate(&m, &|id| defined.contains(id)));
    if errors.is_empty() {
        Ok(m)
    } else {
        Err(LoadError {
            sources: m.sources,
            diagnostics: errors,
        })
    }
}

/// Convenience for tests and tools: one text as `manifest.yaml`.
pub fn from_str(text: &str) -> Result<Manifest, LoadError> {
    load_texts(
        vec![("manifest.yaml".to_string(), text.to_string())],
        &Limits::default(),
    )
}

#[doc(hidden)]
pub fn _paths(p: &[&str]) -> Vec<PathBuf> {
    p.iter().map(PathBuf::from).collect()
}
