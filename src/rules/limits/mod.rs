//! Platform limits (RH05x): values the platform documents as impossible.

mod mrsc;
pub(crate) mod rh050;
pub(crate) mod rh051;
