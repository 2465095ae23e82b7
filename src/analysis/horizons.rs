//! [`Horizons`]: the horizon of every component an intent reaches, kept
//! with its result for the whole run.

use std::collections::BTreeMap;

use crate::time::Dur;

/// Component → horizon, sorted by component, 12 bytes an entry (a map of
/// `usize` to [`Dur`] takes 24): the component's top bit says the
/// horizon is unbounded, else `ms` holds it (milliseconds).
#[derive(Clone, Default, PartialEq)]
pub struct Horizons {
    entries: Box<[Entry]>,
}

#[derive(Clone, Copy, PartialEq)]
#[repr(C, packed(4))]
struct Entry {
    comp: u32,
    ms: u64,
}

const UNBOUNDED: u32 = 1 << 31;

impl Entry {
    fn new(c: usize, h: Dur) -> Entry {
        let comp = u32::try_from(c)
            .ok()
            .filter(|&c| c < UNBOUNDED)
            .expect("fewer than 2^31 components");
        match h {
            Dur::Ms(ms) => Entry { comp, ms },
            Dur::Unbounded => Entry {
                comp: comp | UNBOUNDED,
                ms: 0,
            },
        }
    }

    #[inline]
    fn comp(self) -> usize {
        (self.comp & !UNBOUNDED) as usize
    }

    #[inline]
    fn horizon(self) -> Dur {
        if self.comp & UNBOUNDED != 0 {
            Dur::Unbounded
        } else {
            Dur::ms(self.ms)
        }
    }
}

impl Horizons {
    /// The horizon of component `c`, if reached.
    pub fn get(&self, c: usize) -> Option<Dur> {
        let i = self.entries.binary_search_by_key(&c, |e| e.comp()).ok()?;
        Some(self.entries[i].horizon())
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
        self.entries.iter().map(|e| e.comp())
    }

    /// (component, horizon), by component.
    pub fn iter(
        &self,
    ) -> impl DoubleEndedIterator<Item = (usize, Dur)> + ExactSizeIterator + Clone + '_ {
        self.entries.iter().map(|e| (e.comp(), e.horizon()))
    }
}

impl From<BTreeMap<usize, Dur>> for Horizons {
    fn from(m: BTreeMap<usize, Dur>) -> Self {
        // In key order, allocated once at its size.
        Horizons {
            entries: m.into_iter().map(|(c, h)| Entry::new(c, h)).collect(),
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
        assert_eq!(std::mem::size_of::<Entry>(), 12);
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
