//! The open list of the best-first searches: a two-level bucket queue, by f and then by g.
//!
//! f and g are small integers (moves), so instead of a binary heap the open list keeps one
//! stack of boards per `(f, g)`: a push appends to its stack, a pop takes from the stack of the
//! lowest f and, within it, the highest g (last in, first out within a stack). Both are O(1)
//! amortised and touch memory at the ends of a few stacks only, where a heap of millions of
//! entries misses the cache at every level of each sift-down. E. Burns, M. Hatem, M. J.
//! Leighton, W. Ruml, "Implementing fast heuristic search code", SoCS 2012, §4 (the 15-puzzle
//! A* study that measured it).
//!
//! The tie-break rule among entries of equal f is [`TieBreak`]: highest g first (the default,
//! the bucket queue above), or, for teaching and for reproducing other programs' counts,
//! lowest g first or first in first out, kept in a binary heap ordered by `(f, rank)` beside
//! the buckets (`Ordered`), so that the default's code stays as it is.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

/// Which of the open entries of equal f a best-first search expands first.
///
/// Every rule keeps A* optimal with an admissible heuristic; the rule changes how many nodes
/// of the last f (the optimal cost, where most ties are) are expanded before the goal, so
/// counts differ between programs that follow different rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TieBreak {
    /// Highest g first (deepest first: towards the goal), the last pushed first among equal
    /// g. npuzzle's default, and the usual choice of fast solvers.
    #[default]
    HighG,
    /// Lowest g first (shallowest first), the last pushed first among equal g.
    LowG,
    /// First in, first out: the entry pushed first, whatever its g (a priority queue that
    /// keeps insertion order among equal priorities).
    Fifo,
}

impl TieBreak {
    /// Every rule, the default first.
    pub const ALL: [TieBreak; 3] = [TieBreak::HighG, TieBreak::LowG, TieBreak::Fifo];

    /// The name on the command line and in JSON: `high-g`, `low-g`, `fifo`.
    pub fn name(self) -> &'static str {
        match self {
            TieBreak::HighG => "high-g",
            TieBreak::LowG => "low-g",
            TieBreak::Fifo => "fifo",
        }
    }
}

impl std::fmt::Display for TieBreak {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A name [`TieBreak::from_str`](std::str::FromStr) does not know.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown tie-break rule {0:?} (expected high-g, low-g or fifo)")]
pub struct UnknownTieBreak(pub String);

impl std::str::FromStr for TieBreak {
    type Err = UnknownTieBreak;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().replace('_', "-").as_str() {
            "high-g" | "highg" => Ok(TieBreak::HighG),
            "low-g" | "lowg" => Ok(TieBreak::LowG),
            "fifo" => Ok(TieBreak::Fifo),
            _ => Err(UnknownTieBreak(s.to_string())),
        }
    }
}

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

/// Boards waiting to be expanded, popped lowest f first, then highest g (or as another
/// [`TieBreak`] says).
#[derive(Clone)]
pub(crate) struct OpenList<K> {
    /// The heap of a rule other than [`TieBreak::HighG`]; the buckets are then unused.
    ordered: Option<Ordered<K>>,
    by_f: Vec<Layer<K>>,
    /// No layer below this f holds an entry.
    min_f: usize,
    len: usize,
    /// Bytes the stacks hold (their capacities), without what the keys own on the heap.
    bytes: usize,
}

impl<K> OpenList<K> {
    pub(crate) fn new() -> Self {
        OpenList::with_tie_break(TieBreak::HighG)
    }

    /// An empty list popping equal f as `tie` says.
    pub(crate) fn with_tie_break(tie: TieBreak) -> Self {
        OpenList {
            ordered: (tie != TieBreak::HighG).then(|| Ordered {
                tie,
                heap: BinaryHeap::new(),
                seq: 0,
            }),
            by_f: Vec::new(),
            min_f: 0,
            len: 0,
            bytes: 0,
        }
    }

    /// Entries (stale ones included).
    pub(crate) fn len(&self) -> usize {
        self.ordered.as_ref().map_or(self.len, |o| o.heap.len())
    }

    /// Bytes of the stacks' capacities and of the layer tables.
    pub(crate) fn bytes(&self) -> usize {
        if let Some(o) = &self.ordered {
            return o.heap.capacity() * std::mem::size_of::<Reverse<Entry<K>>>();
        }
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
        if let Some(o) = &mut self.ordered {
            return o.push(f, g, key);
        }
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
        if let Some(o) = &self.ordered {
            return o.heap.peek().map(|e| e.0.f);
        }
        (self.min_f..self.by_f.len())
            .find(|&f| self.by_f[f].len > 0)
            .map(|f| f as u32)
    }

    /// The same list with every key turned into another type (the order kept exactly).
    pub(crate) fn map_keys<K2>(self, mut f: impl FnMut(K) -> K2) -> OpenList<K2> {
        let scale = |b: usize| b / std::mem::size_of::<K>().max(1) * std::mem::size_of::<K2>();
        let ordered = self.ordered.map(|o| Ordered {
            tie: o.tie,
            seq: o.seq,
            heap: o
                .heap
                .into_iter()
                .map(|Reverse(e)| {
                    Reverse(Entry {
                        f: e.f,
                        rank: e.rank,
                        g: e.g,
                        key: f(e.key),
                    })
                })
                .collect(),
        });
        OpenList {
            ordered,
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
    pub(crate) fn iter(&self) -> Box<dyn Iterator<Item = (u32, u32, &K)> + '_> {
        if let Some(o) = &self.ordered {
            let mut all: Vec<&Entry<K>> = o.heap.iter().map(|e| &e.0).collect();
            all.sort_unstable();
            return Box::new(all.into_iter().map(|e| (e.f, e.g, &e.key)));
        }
        Box::new(
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
                }),
        )
    }

    /// Pops the entry with the lowest f (ties: highest g), unless the list is empty or that f
    /// is at least `limit` (the entry then stays).
    pub(crate) fn pop(&mut self, limit: Option<u32>) -> Option<Open<K>> {
        if let Some(o) = &mut self.ordered {
            return o.pop(limit);
        }
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

/// The open list of a [`TieBreak`] other than the default: a binary heap by f, then the
/// rule's rank (O(log n) a push or pop, slower than the buckets; for experiments).
#[derive(Clone)]
struct Ordered<K> {
    tie: TieBreak,
    heap: BinaryHeap<Reverse<Entry<K>>>,
    /// Entries pushed so far: the next entry's insertion number.
    seq: u64,
}

impl<K> Ordered<K> {
    fn push(&mut self, f: u32, g: u32, key: K) -> Result<(), std::collections::TryReserveError> {
        if self.heap.len() == self.heap.capacity() {
            self.heap.try_reserve(self.heap.len().max(16))?;
        }
        // Smallest rank first: lowest g then latest pushed, or earliest pushed.
        let rank = match self.tie {
            TieBreak::LowG => {
                (u64::from(g) << 40) | ((1u64 << 40) - 1 - (self.seq & ((1 << 40) - 1)))
            }
            TieBreak::Fifo | TieBreak::HighG => self.seq,
        };
        self.seq += 1;
        self.heap.push(Reverse(Entry { f, rank, g, key }));
        Ok(())
    }

    fn pop(&mut self, limit: Option<u32>) -> Option<Open<K>> {
        if limit.is_some_and(|c| self.heap.peek().is_some_and(|e| e.0.f >= c)) {
            return None;
        }
        let Reverse(e) = self.heap.pop()?;
        Some(Open {
            f: e.f,
            g: e.g,
            key: e.key,
        })
    }
}

/// An entry of [`Ordered`], compared by `(f, rank)` alone.
#[derive(Clone)]
struct Entry<K> {
    f: u32,
    rank: u64,
    g: u32,
    key: K,
}

impl<K> PartialEq for Entry<K> {
    fn eq(&self, other: &Self) -> bool {
        (self.f, self.rank) == (other.f, other.rank)
    }
}

impl<K> Eq for Entry<K> {}

impl<K> PartialOrd for Entry<K> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<K> Ord for Entry<K> {
    fn cmp(&self, other: &Self) -> Ordering {
        (self.f, self.rank).cmp(&(other.f, other.rank))
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
    fn low_g_and_fifo_break_ties_as_they_say() {
        let pushes = [
            (4, 3, 1u64),
            (4, 1, 2),
            (5, 0, 3),
            (4, 3, 4),
            (4, 1, 5),
            (3, 3, 6),
        ];
        let order = |tie| {
            let mut open = OpenList::with_tie_break(tie);
            for (f, g, k) in pushes {
                open.push(f, g, k).expect("memory for a test");
            }
            let listed: Vec<u64> = open.iter().map(|(_, _, &k)| k).collect();
            assert_eq!(open.min_f(), Some(3));
            let mut popped = Vec::new();
            while let Some(o) = open.pop(Some(5)) {
                popped.push(o.key);
            }
            assert_eq!(
                listed[..5],
                popped[..],
                "{tie}: iter lists them in pop order"
            );
            assert_eq!(open.len(), 1, "{tie}: f 5 stays at the limit");
            popped
        };
        assert_eq!(order(TieBreak::HighG), [6, 4, 1, 5, 2]);
        assert_eq!(order(TieBreak::LowG), [6, 5, 2, 4, 1]);
        assert_eq!(order(TieBreak::Fifo), [6, 1, 2, 4, 5]);
        for t in TieBreak::ALL {
            assert_eq!(t.name().parse::<TieBreak>(), Ok(t));
        }
        assert!("lifo".parse::<TieBreak>().is_err());
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
