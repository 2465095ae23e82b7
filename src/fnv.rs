//! FNV-1a, a small non-cryptographic hash for the maps the analysis builds
//! from manifest ids and texts it made itself.
//!
//! std's SipHash defends against hash flooding; these maps are keyed by ids
//! the parser has already accepted and read once per run, and SipHash was
//! the largest single cost of building the analysis model of a large
//! manifest. FNV-1a is a dozen lines, so it is written here rather than
//! added as a dependency.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

#[derive(Clone, Copy)]
pub struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// Builds [`Fnv`] hashers.
pub type FnvBuild = BuildHasherDefault<Fnv>;

/// A `HashMap` with FNV-1a.
pub type FnvMap<K, V> = HashMap<K, V, FnvBuild>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values_and_map_use() {
        // FNV-1a test vectors.
        let h = |s: &str| {
            let mut f = Fnv::default();
            f.write(s.as_bytes());
            f.finish()
        };
        assert_eq!(h(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(h("a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(h("foobar"), 0x8594_4171_f739_67e8);
        let mut m: FnvMap<&str, usize> = FnvMap::default();
        m.insert("p000001-queue", 1);
        m.insert("p000002-queue", 2);
        assert_eq!(m.get("p000002-queue"), Some(&2));
        assert_eq!(m.get("p000003-queue"), None);
    }
}
