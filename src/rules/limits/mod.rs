//! Platform limits (RH05x): values the platform documents as impossible.

pub(crate) mod rh050;
