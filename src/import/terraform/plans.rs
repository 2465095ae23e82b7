//! Several plans given together (`check orders.json payments.json`): each
//! plan is one skeleton, and a resource name used in more than one plan
//! gets the plan's file name first (`orders.this`, `payments.this`), as
//! the root folders of configuration do ([`super::roots`]), so the
//! skeletons do not define the same id twice.

use std::path::{Path, PathBuf};

use super::roots;
use crate::diagnostics::SourceMap;
use crate::import::{Format, Node, Out};
use crate::manifest::load::origin;
use crate::manifest::{Limits, LoadError};

/// The plans `files` (name, JSON text) imported: (name, manifest text),
/// one per plan, in their order. One plan is read as `import_text` reads it.
pub fn import_plans(
    files: &[(String, String)],
    params: &[(String, String)],
    limits: &Limits,
) -> Result<Vec<(String, String)>, LoadError> {
    let named = |n: &str| format!("{n}{}", origin::IMPORTED);
    if let [(name, text)] = files {
        let one = crate::import::import_text(Format::Terraform, name, text, params, limits)?;
        return Ok(vec![(named(name), one.text)]);
    }
    let mut sources = SourceMap::default();
    let mut trees = Vec::with_capacity(files.len());
    let mut errors = Vec::new();
    for (name, text) in files {
        let file = sources.add(name.clone(), text.clone());
        if let Some(d) = super::hcl_given_to_plan(name, text) {
            errors.push(d);
            continue;
        }
        match crate::import::tree::parse(text, file, limits) {
            Ok(root) => trees.push(root),
            Err(d) => errors.push(d),
        }
    }
    let names: std::sync::Arc<[String]> = files.iter().map(|(n, _)| n.clone()).collect();
    // The namespace of a plan is its file name without `.json`.
    let stems: Vec<PathBuf> = names
        .iter()
        .map(|n| Path::new(n).with_extension(""))
        .collect();
    let mut imported = Vec::with_capacity(files.len());
    if errors.is_empty() {
        let keyed: Vec<_> = stems.iter().map(PathBuf::as_path).zip(&trees).collect();
        let spaces = roots::namespaces(&keyed);
        let mut outs = Vec::with_capacity(trees.len());
        let mut regions = Vec::with_capacity(trees.len());
        for ((tree, name), ns) in trees.iter().zip(names.iter()).zip(&spaces) {
            let mut out = Out::new(name, Format::Terraform);
            out.files = names.clone();
            if let Some(ns) = ns.as_ref().filter(|n| !n.taken.is_empty()) {
                out.notes.push(format!("several plans are imported together: the id of a resource whose name another plan uses too starts with `{}.`", ns.prefix));
            }
            match super::plan_start(tree, &mut out) {
                Ok(r) => regions.push(r),
                Err(d) => errors.push(d),
            }
            outs.push(out);
        }
        if !errors.is_empty() {
            return Err(LoadError {
                sources,
                diagnostics: errors,
            });
        }
        let nodes: Vec<&Node> = trees.iter().collect();
        let aliased = super::across::read(&nodes, &mut outs, &spaces);
        for (((tree, out), region), aliased) in
            trees.iter().zip(&mut outs).zip(regions).zip(&aliased)
        {
            super::plan_regions(tree, out, region, aliased);
        }
        super::across::declare_missing(&mut outs);
        let mut declared = std::collections::BTreeSet::new();
        for (name, mut out) in names.iter().zip(outs) {
            // A region another plan's skeleton declares is declared once.
            out.regions.retain(|(r, _)| declared.insert(r.clone()));
            imported.push((named(name), out.render()));
        }
    }
    match errors.is_empty() {
        true => Ok(imported),
        false => Err(LoadError {
            sources,
            diagnostics: errors,
        }),
    }
}
