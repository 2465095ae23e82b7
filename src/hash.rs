//! The hash maps built from manifest ids: foldhash, seeded at random once
//! per process.
//!
//! std's SipHash was the largest single cost of building the analysis
//! model of a large manifest. A fixed fast hash (FNV, which this replaced)
//! lets a pull request choose ids that all land in one bucket and make
//! every lookup linear; foldhash is as fast and its random seed leaves
//! nothing to aim at. No output depends on the order of these maps.

use std::collections::{HashMap, HashSet};

/// Builds the hashers of [`IdMap`] and [`IdSet`].
pub type IdBuild = foldhash::fast::RandomState;

/// A `HashMap` keyed by manifest ids.
pub type IdMap<K, V> = HashMap<K, V, IdBuild>;

/// A `HashSet` of manifest ids.
pub type IdSet<K> = HashSet<K, IdBuild>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_find_what_was_inserted() {
        let mut m: IdMap<&str, usize> = IdMap::default();
        m.insert("p000001-queue", 1);
        m.insert("p000002-queue", 2);
        assert_eq!(m.get("p000002-queue"), Some(&2));
        assert_eq!(m.get("p000003-queue"), None);
    }
}
