//! The key (RH02x): where it is minted, whether it travels, what it binds,
//! and what it is made of.

pub(crate) mod rh020;
pub(crate) mod rh021;
pub(crate) mod rh022;
pub(crate) mod rh023;
pub(crate) mod rh024;
pub(crate) mod rh025;
