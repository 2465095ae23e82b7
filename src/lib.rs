//! replay-audit: finds where a replay can outlive the dedup state that
//! should stop it, or arrive where that state cannot be seen.
//!
//! The pipeline: [`manifest`] (load, resolve references, validate) →
//! [`graph`] (components and links as flat edge lists) → [`analysis`] (horizons and duplicate
//! propagation) → [`rules`] (findings) → [`report`] (output formats).

pub mod analysis;
pub mod catalog;
pub mod diagnostics;
pub mod diff;
pub mod drift;
pub mod engine;
pub mod files;
pub mod fix;
pub mod graph;
pub mod hash;
pub mod import;
pub mod lsp;
pub mod manifest;
pub mod policy;
pub mod report;
pub mod rules;
pub mod schema;
pub mod time;
pub mod whatif;

pub use analysis::{Analysis, analyse};
pub use manifest::{LoadError, Manifest};
pub use rules::{Finding, Severity};
