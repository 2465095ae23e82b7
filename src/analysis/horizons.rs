//! [`Horizons`]: the horizon of every component an intent reaches, kept
//! with its result for the whole run.

use std::collections::BTreeMap;

use crate::time::Dur;

/// Component → horizon, sorted by component.
#[derive(Clone, Default, PartialEq)]
pub struct Horizons {
    entries: Box<[(usize, Dur)]>,
}

impl Horizons {
    /// The horizon of component `c`, if reached.
    pub fn get(&self, c: usize) -> Option<Dur> {
        let i = self.entries.binary_search_by_key(&c, |e| e.0).ok()?;
        Some(self.entries[i].1)
    }

    pub fn contains_key(&self, c: usize) -> bool {
        self.get(c).is_some()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The components, ascending.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = usize> + ExactSizeIterator + Clone + '_ {
        self.entries.iter().map(|e| e.0)
    }

    /// (component, horizon), by component.
    pub fn iter(
        &self,
    ) -> impl DoubleEndedIterator<Item = (usize, Dur)> + ExactSizeIterator + Clone + '_ {
        self.entries.iter().copied()
    }
}

impl From<BTreeMap<usize, Dur>> for Horizons {
    fn from(m: BTreeMap<usize, Dur>) -> Self {
        Horizons {
            entries: m.into_iter().collect(),
        }
    }
}

impl PartialEq<BTreeMap<usize, Dur>> for Horizons {
    fn eq(&self, other: &BTreeMap<usize, Dur>) -> bool {
        self.len() == other.len() && self.iter().zip(other).all(|(a, (c, h))| a == (*c, *h))
    }
}

impl std::fmt::Debug for Horizons {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_back_the_map_it_was_made_from() {
        let b: BTreeMap<usize, Dur> = [(7, Dur::Unbounded), (2, Dur::ms(u64::MAX)), (5, Dur::ZERO)]
            .into_iter()
            .collect();
        let h = Horizons::from(b.clone());
        assert_eq!(h, b);
        assert_eq!((h.len(), h.is_empty()), (3, false));
        assert_eq!(h.get(7), Some(Dur::Unbounded));
        assert_eq!(h.get(2), Some(Dur::ms(u64::MAX)));
        assert_eq!(h.get(4), None);
        assert!(h.contains_key(5) && !h.contains_key(3));
        assert_eq!(h.keys().collect::<Vec<_>>(), vec![2, 5, 7]);
        assert_eq!(h.iter().next_back(), Some((7, Dur::Unbounded)));
        assert_eq!(
            format!("{h:?}"),
            "{2: Ms(18446744073709551615), 5: Ms(0), 7: Unbounded}"
        );
        assert!(Horizons::default().is_empty());
    }
}
