//! Regions and scope (RH01x): regions, failover, recovery points, the scope
//! of each dedup layer, and what transports keep.

pub(crate) mod rh010;
pub(crate) mod rh011;
pub(crate) mod rh012;
pub(crate) mod rh013;
pub(crate) mod rh014;
pub(crate) mod rh015;
pub(crate) mod rh016;
mod scopes;
