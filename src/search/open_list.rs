//! The open list of the best-first searches: a two-level bucket queue, by f and then by g.
//!
//! f and g are small integers (moves), so instead of a binary heap the open list keeps one
//! stack of boards per `(f, g)`: a push appends to its stack, a pop takes from the stack of the
//! lowest f and, within it, the highest g (last in, first out within a stack). Both are O(1)
//! amortised and touch memory at the ends of a few stacks only, where a heap of millions of
//! entries misses the cache at every level of each sift-down. E. Burns, M. Hatem, M. J.
//! Leighton, W. Ruml, "Implementing fast heuristic search code", SoCS 2012, §4 (the 15-puzzle
//! A* study that measured it).

/// An open-list entry: a board (packed) with its f and g, in moves.
#[derive(Clone)]
pub(crate) struct Open<K> {
    pub f: u32,
    pub g: u32,
    pub key: K,
}

/// The stacks of one f, by g.
#[derive(Clone)]
struct Layer<K> {
    by_g: Vec<Vec<K>>,
    len: usize,
    /// No stack above this g holds an entry.
    top_g: usize,
}

impl<K> Default for Layer<K> {
    fn default() -> Self {
        Layer {
            by_g: Vec::new(),
            len: 0,
            top_g: 0,
        }
    }
}

/// Boards waiting to be expanded, popped lowest f first, then highest g.
#[derive(Clone)]
pub(crate) struct OpenList<K> {
    by_f: Vec<Layer<K>>,
    /// No layer below this f holds an entry.
    min_f: usize,
    len: usize,
    /// Bytes the stacks hold (their capacities), without what the keys own on the heap.
    bytes: usize,
}

impl<K> OpenList<K> {
    pub(crate) fn new() -> Self {
        OpenList {
            by_f: Vec::new(),
            min_f: 0,
            len: 0,
            bytes: 0,
        }
    }

    /// Entries (stale ones included).
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Bytes of the stacks' capacities and of the layer tables.
    pub(crate) fn bytes(&self) -> usize {
        self.bytes + self.by_f.capacity() * std::mem::size_of::<Layer<K>>()
    }

    /// Pushes `key` with `f` and `g`.
    ///
    /// # Errors
    /// When the system refuses the memory to grow a stack (nothing is pushed then).
    pub(crate) fn push(
        &mut self,
        f: u32,
        g: u32,
        key: K,
    ) -> Result<(), std::collections::TryReserveError> {
        let (fi, gi) = (f as usize, g as usize);
        if self.by_f.len() <= fi {
            self.by_f.resize_with(fi + 1, Layer::default);
        }
        let layer = &mut self.by_f[fi];
        if layer.by_g.len() <= gi {
            let old = layer.by_g.capacity();
            layer.by_g.resize_with(gi + 1, Vec::new);
            self.bytes += (layer.by_g.capacity() - old) * std::mem::size_of::<Vec<K>>();
        }
        let stack = &mut layer.by_g[gi];
        let old = stack.capacity();
        if stack.len() == old {
            // The stacks of a large search reach gigabytes: a refused doubling is a clean
            // stop, not an abort.
            stack.try_reserve(old.max(4))?;
        }
        stack.push(key);
        self.bytes += (stack.capacity() - old) * std::mem::size_of::<K>();
        layer.len += 1;
        layer.top_g = layer.top_g.max(gi);
        self.min_f = self.min_f.min(fi);
        self.len += 1;
        Ok(())
    }

    /// The lowest f of any entry.
    pub(crate) fn min_f(&self) -> Option<u32> {
        (self.min_f..self.by_f.len())
            .find(|&f| self.by_f[f].len > 0)
            .map(|f| f as u32)
    }

    /// The same list with every key turned into another type (the order kept exactly).
    pub(crate) fn map_keys<K2>(self, mut f: impl FnMut(K) -> K2) -> OpenList<K2> {
        let scale = |b: usize| b / std::mem::size_of::<K>().max(1) * std::mem::size_of::<K2>();
        OpenList {
            by_f: self
                .by_f
                .into_iter()
                .map(|l| Layer {
                    by_g: l
                        .by_g
                        .into_iter()
                        .map(|st| st.into_iter().map(&mut f).collect())
                        .collect(),
                    len: l.len,
                    top_g: l.top_g,
                })
                .collect(),
            min_f: self.min_f,
            len: self.len,
            bytes: scale(self.bytes),
        }
    }

    /// Every entry as `(f, g, key)` in the order [`OpenList::pop`] takes them (stale ones
    /// included): lowest f, then highest g, last pushed first.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (u32, u32, &K)> {
        self.by_f
            .iter()
            .enumerate()
            .skip(self.min_f)
            .flat_map(|(f, layer)| {
                layer
                    .by_g
                    .iter()
                    .enumerate()
                    .rev()
                    .flat_map(move |(g, stack)| {
                        stack.iter().rev().map(move |k| (f as u32, g as u32, k))
                    })
            })
    }

    /// Pops the entry with the lowest f (ties: highest g), unless the list is empty or that f
    /// is at least `limit` (the entry then stays).
    pub(crate) fn pop(&mut self, limit: Option<u32>) -> Option<Open<K>> {
        while self.min_f < self.by_f.len() && self.by_f[self.min_f].len == 0 {
            // An emptied layer below every entry: give its memory back.
            let layer = std::mem::take(&mut self.by_f[self.min_f]);
            self.bytes -= layer.by_g.capacity() * std::mem::size_of::<Vec<K>>()
                + layer
                    .by_g
                    .iter()
                    .map(|s| s.capacity() * std::mem::size_of::<K>())
                    .sum::<usize>();
            self.min_f += 1;
        }
        let f = self.min_f;
        if f >= self.by_f.len() || limit.is_some_and(|c| f as u32 >= c) {
            return None;
        }
        let layer = &mut self.by_f[f];
        while layer.by_g[layer.top_g].is_empty() {
            layer.top_g -= 1;
        }
        let g = layer.top_g;
        let key = layer.by_g[g].pop()?;
        layer.len -= 1;
        self.len -= 1;
        Some(Open {
            f: f as u32,
            g: g as u32,
            key,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_lowest_f_then_highest_g_and_respects_the_limit() {
        let mut open = OpenList::new();
        for (f, g, k) in [(5, 1, 1u64), (4, 0, 2), (4, 3, 3), (6, 6, 4), (4, 3, 5)] {
            open.push(f, g, k).expect("memory for a test");
        }
        assert_eq!(open.len(), 5);
        assert_eq!(open.min_f(), Some(4));
        let listed: Vec<_> = open.iter().map(|(f, g, &k)| (f, g, k)).collect();
        let mut order = Vec::new();
        while let Some(o) = open.pop(Some(6)) {
            order.push((o.f, o.g, o.key));
        }
        // Last in, first out within one (f, g).
        assert_eq!(order, [(4, 3, 5), (4, 3, 3), (4, 0, 2), (5, 1, 1)]);
        assert_eq!(listed[..4], order[..], "iter lists them in pop order");
        assert_eq!(listed[4], (6, 6, 4));
        assert_eq!(open.min_f(), Some(6), "at the limit: stays");
        // A push below the current lowest f (batched A*'s rounds are not in f order).
        open.push(2, 1, 9).expect("memory for a test");
        assert_eq!(open.pop(None).map(|o| (o.f, o.key)), Some((2, 9)));
        assert_eq!(open.pop(None).map(|o| (o.f, o.key)), Some((6, 4)));
        assert!(open.pop(None).is_none());
        assert_eq!(open.len(), 0);
    }

    #[test]
    fn memory_is_counted_and_given_back() {
        let mut open = OpenList::new();
        for i in 0..1000u64 {
            open.push(10, 3, i).expect("memory for a test");
        }
        let full = open.bytes();
        assert!(full >= 1000 * 8, "{full}");
        while open.pop(None).is_some() {}
        open.push(11, 0, 0).expect("memory for a test");
        open.pop(None);
        assert!(open.bytes() < full / 2, "{} of {full}", open.bytes());
    }
}
