//! Review and manifest hygiene (RH04x): what the team has tested, what the
//! analysis had to assume, stores that protect nothing, effects no copy
//! reaches, a manifest with no intent.

pub(crate) mod rh040;
pub(crate) mod rh041;
pub(crate) mod rh042;
pub(crate) mod rh043;
pub(crate) mod rh044;

pub use rh040::FAILURE_MODES;
