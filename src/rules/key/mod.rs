//! The key (RH02x): where it is minted, whether it travels, what it binds,
//! and what it is made of.

pub(crate) mod rh020;
pub(crate) mod rh021;
pub(crate) mod rh022;
pub(crate) mod rh023;
pub(crate) mod rh024;
pub(crate) mod rh025;

use crate::manifest::model::Field;
use crate::manifest::model::{Intent, Manifest};

/// Whether the intent has effects and each declares that its outcome
/// depends on no request field (`uses: []`): a fingerprint would then bind
/// nothing the effect reads, and a reused key cannot change its outcome.
pub(super) fn uses_no_request_field(m: &Manifest, intent: &Intent) -> bool {
    !intent.effects.is_empty()
        && intent.effects.iter().all(|e| {
            m.target(e)
                .and_then(|c| c.texts(Field::Uses))
                .is_some_and(|u| u.value.is_empty())
        })
}
