//! [`SortedMap`]: the small map an [`IntentResult`](super::IntentResult)
//! keeps per intent, a vector sorted by key.

use std::collections::BTreeMap;

/// A map stored as a vector sorted by key: what the analysis keeps per
/// intent, read with a `BTreeMap`'s methods but without its nodes (an
/// intent reaches a handful of entries, and a `BTreeMap` node has room for
/// eleven).
#[derive(Clone, PartialEq)]
pub struct SortedMap<K, V> {
    entries: Box<[(K, V)]>,
}

/// Iterator over a [`SortedMap`]'s entries in key order.
pub type SortedIter<'a, K, V> =
    std::iter::Map<std::slice::Iter<'a, (K, V)>, fn(&'a (K, V)) -> (&'a K, &'a V)>;

impl<K: Ord, V> SortedMap<K, V> {
    fn position(&self, k: &K) -> Option<usize> {
        self.entries.binary_search_by(|(x, _)| x.cmp(k)).ok()
    }

    pub fn get(&self, k: &K) -> Option<&V> {
        self.position(k).map(|i| &self.entries[i].1)
    }

    pub fn contains_key(&self, k: &K) -> bool {
        self.position(k).is_some()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Entries in key order.
    pub fn iter(&self) -> SortedIter<'_, K, V> {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &K> + ExactSizeIterator + Clone {
        self.entries.iter().map(|(k, _)| k)
    }

    pub fn values(&self) -> impl DoubleEndedIterator<Item = &V> + ExactSizeIterator + Clone {
        self.entries.iter().map(|(_, v)| v)
    }
}

impl<K, V> Default for SortedMap<K, V> {
    fn default() -> Self {
        SortedMap {
            entries: Box::new([]),
        }
    }
}

impl<K: Ord, V> From<BTreeMap<K, V>> for SortedMap<K, V> {
    fn from(m: BTreeMap<K, V>) -> Self {
        // A BTreeMap iterates in key order and knows its length, so the
        // slice is sorted and allocated once, at its size.
        SortedMap {
            entries: m.into_iter().collect(),
        }
    }
}

impl<K: Ord, V> std::ops::Index<&K> for SortedMap<K, V> {
    type Output = V;

    fn index(&self, k: &K) -> &V {
        self.get(k).expect("key in SortedMap")
    }
}

impl<'a, K: Ord, V> IntoIterator for &'a SortedMap<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = SortedIter<'a, K, V>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<K: PartialEq, V: PartialEq> PartialEq<BTreeMap<K, V>> for SortedMap<K, V> {
    fn eq(&self, other: &BTreeMap<K, V>) -> bool {
        self.entries.len() == other.len()
            && self
                .entries
                .iter()
                .zip(other)
                .all(|((a, b), (c, d))| a == c && b == d)
    }
}

impl<K: std::fmt::Debug, V: std::fmt::Debug> std::fmt::Debug for SortedMap<K, V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map()
            .entries(self.entries.iter().map(|(k, v)| (k, v)))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_like_the_btreemap_it_was_made_from() {
        let b: BTreeMap<usize, &str> = [(7, "g"), (2, "b"), (5, "e")].into_iter().collect();
        let s = SortedMap::from(b.clone());
        assert_eq!(s, b);
        assert_eq!(s.len(), 3);
        assert!(!s.is_empty());
        assert_eq!(s.get(&5), Some(&"e"));
        assert_eq!(s.get(&4), None);
        assert!(s.contains_key(&2) && !s.contains_key(&3));
        assert_eq!(s[&7], "g");
        assert_eq!(s.keys().copied().collect::<Vec<_>>(), vec![2, 5, 7]);
        assert_eq!(
            s.values().rev().copied().collect::<Vec<_>>(),
            vec!["g", "e", "b"]
        );
        assert_eq!(
            (&s).into_iter().map(|(k, v)| (*k, *v)).collect::<Vec<_>>(),
            b.into_iter().collect::<Vec<_>>()
        );
        assert_eq!(format!("{s:?}"), r#"{2: "b", 5: "e", 7: "g"}"#);
        assert!(SortedMap::<usize, ()>::default().is_empty());
    }
}
