//! The formats of `check --each`: each architecture is rendered on its own
//! (in parallel, by the binary's `org` module) into a [`Part`], and the parts are put
//! together in path order: one SARIF run per architecture (told apart by
//! `automationDetails.id`), one JUnit suite per architecture, GitHub
//! annotations one after the other, a Markdown section per architecture.
//! JSON and the table keep their own layout in `org`. Each format makes
//! and combines its parts itself ([`crate::report::format::Format::part`]).

use quick_junit::TestSuite;

use crate::manifest::Manifest;
use crate::policy::Notes;
use crate::report::root::Root;
use crate::report::{gitlab, sarif};
use crate::rules::{Finding, Severity};

/// One architecture in the chosen format.
#[derive(Debug)]
pub enum Part {
    Text(String),
    Sarif(Box<sarif::Run>),
    Junit(Box<TestSuite>),
    Gitlab(Vec<gitlab::Issue>),
}

/// What an analysed architecture hands to [`checked`].
pub struct Arch<'a> {
    /// The architecture's path as `check --each` shows it.
    pub name: &'a str,
    pub manifest: &'a Manifest,
    pub findings: &'a [Finding],
    pub notes: &'a Notes,
    /// The horizon table of the Markdown section.
    pub horizons: &'a [crate::report::horizon::Row],
    pub threshold: Severity,
    pub root: &'a Root,
}
