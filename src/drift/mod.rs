//! `drift`: the architecture read from the code (templates, plans) and the
//! one read from what is deployed (an export of the live configuration),
//! compared component by component.
//!
//! - this module: loading both sides through the engine's reading, the
//!   deployed components renamed to the code's ids and the overlay merged
//!   into both ([`Sides::load`]), and the comparison ([`Drift`]);
//! - `matching`: which deployed component each code component stands for;
//! - `refs`: the ids a manifest tree references (renaming, leaving out);
//! - `compare`: the values of matched components;
//! - `render`: table, Markdown and JSON.
//!
//! What the difference does to the findings and horizons is the `diff`
//! comparison ([`crate::diff::Diff`]) with the code as the base and the
//! deployed side as the current version.

pub mod compare;
pub mod matching;
pub mod refs;
pub mod render;

use std::collections::{BTreeSet, HashSet};

pub use compare::{Difference, Side, Source};
pub use matching::{How, Matching, Pair};

use crate::diff::Diff;
use crate::engine::{self, Checked, Error, Inputs};
use crate::manifest::model::Field;
use crate::manifest::{self, Manifest};

/// Both architectures, read and matched.
pub struct Sides {
    pub code: Manifest,
    pub deployed: Manifest,
    pub matching: Matching,
    /// What the overlay says that the deployed side leaves out, because it
    /// names a component only the code has (`intent ID`, `ID.FIELD`, `ID`).
    pub left_out: Vec<String>,
}

impl Sides {
    /// Reads the code (`code`: templates or plans, and hand-written
    /// manifests as their overlay) and the deployed side (`deployed`),
    /// matches them, and reads the deployed side again with its components
    /// renamed to the code's ids and the overlay merged into it.
    pub fn load(code: &Inputs, deployed: &Inputs) -> Result<Sides, Error> {
        let code_texts = engine::read(code)?;
        if !code_texts.iter().any(|t| t.imported) {
            return Err(Error::usage(
                "`drift` reads the code from templates or plans, and none of the code's files is one",
                "give the CloudFormation or SAM templates, Terraform plans or folders the architecture \
                 is deployed from, and the hand-written manifest with them as their overlay",
            ));
        }
        let overlay: Vec<(String, String, bool)> = code_texts
            .iter()
            .filter(|t| !t.imported)
            .map(|t| (t.name.clone(), t.text.clone(), false))
            .collect();
        let imported_code: Vec<(String, String, bool)> = code_texts
            .iter()
            .filter(|t| t.imported)
            .map(|t| (t.name.clone(), t.text.clone(), true))
            .collect();
        let overlay_names: HashSet<String> = overlay.iter().map(|t| t.0.clone()).collect();
        let code_manifest = manifest::load_texts_merging(
            code_texts
                .into_iter()
                .map(|t| (t.name, t.text, t.imported))
                .collect(),
            &code.limits,
        )?;
        let deployed_texts: Vec<(String, String, bool)> = engine::read(deployed)?
            .into_iter()
            .map(|t| (t.name, t.text, true))
            .collect();
        let raw = manifest::load_texts_merging(deployed_texts.clone(), &deployed.limits)?;
        let in_overlay =
            |loc: crate::diagnostics::Loc| overlay_names.contains(code_manifest.sources.path(loc));
        let matching = matching::of(
            &code_manifest,
            &raw,
            &|c| c.text(Field::Resource).is_some_and(|r| in_overlay(r.loc)),
            &|c| in_overlay(c.loc),
        );
        let missing: BTreeSet<String> = matching.only_code.iter().cloned().collect();
        let borrowed: BTreeSet<String> = matching.borrowed.iter().cloned().collect();
        let mut left_out = Vec::new();
        // The deployed texts, then the code's description of what the
        // export names but lacks (`borrowed`), then the overlay.
        let n_deployed = deployed_texts.len();
        let n_code = if borrowed.is_empty() {
            0
        } else {
            imported_code.len()
        };
        let texts = deployed_texts
            .into_iter()
            .chain(imported_code.into_iter().take(n_code))
            .chain(overlay)
            .collect();
        let mut regions: BTreeSet<String> = BTreeSet::new();
        let deployed_manifest =
            manifest::load_texts_merging_with(texts, &deployed.limits, &mut |i, _, tree| {
                if i < n_deployed {
                    refs::rename(tree, &matching.renames);
                    refs::remove(tree, &borrowed);
                    regions.extend(refs::ids(tree, "regions"));
                } else {
                    if i < n_deployed + n_code {
                        refs::keep_only(tree, &borrowed, &regions);
                    }
                    left_out.extend(refs::leave_out(tree, &missing));
                }
            })?;
        Ok(Sides {
            code: code_manifest,
            deployed: deployed_manifest,
            matching,
            left_out,
        })
    }
}

/// The drift of the deployed side from the code.
pub struct Drift {
    pub differences: Vec<Difference>,
    /// The code's findings and horizons as the base, the deployed side's
    /// as the current version.
    pub diff: Diff,
}

impl Drift {
    /// Compares the matched components of `sides` and the checked sides.
    pub fn of(sides: &Sides, code: &Checked, deployed: &Checked) -> Drift {
        let mut cmp = compare::Compare {
            code: &sides.code,
            deployed: &sides.deployed,
            out: Vec::new(),
        };
        for p in &sides.matching.pairs {
            // What the code names but does not describe is not compared.
            if let (Some(c), Some(d)) = (
                sides.code.component(&p.code),
                sides.deployed.component(&p.code),
            ) && !matching::is_placeholder(c)
            {
                cmp.pair(c, d);
            }
        }
        Drift {
            differences: cmp.out,
            diff: Diff::of(code, deployed),
        }
    }
}
