//! `textDocument/definition`: from an id used as a value (`to:
//! payout-worker`, `store:`, `origin:`, `effect:`, a region) to where the
//! component, intent or region is defined: the overlay's or the
//! template's line.

use std::path::Path;

use lsp_types::{GotoDefinitionParams, GotoDefinitionResponse, Location};

use super::Server;
use super::analyse::Checked;
use super::position::{range_of, uri_of};
use crate::diagnostics::Loc;

pub fn definition(server: &Server, p: GotoDefinitionParams) -> Option<GotoDefinitionResponse> {
    let at = p.text_document_position_params;
    let (checked, word) = super::hover::at_word(server, &at)?;
    let loc = defined_at(&checked, &word)?;
    let sources = &checked.manifest.sources;
    let file = sources.files.get(loc.file as usize)?;
    let range = range_of(&file.text, loc);
    Some(GotoDefinitionResponse::Scalar(Location::new(
        uri_of(Path::new(&file.path))?,
        range,
    )))
}

/// Where the component, intent or region `id` is defined.
pub fn defined_at(c: &Checked, id: &str) -> Option<Loc> {
    let m = &c.manifest;
    m.component(id)
        .map(|c| c.loc)
        .or_else(|| {
            m.intents
                .iter()
                .find(|i| i.id.as_str() == id)
                .map(|i| i.loc)
        })
        .or_else(|| m.regions.iter().find(|r| r.id == id).map(|r| r.loc))
}
