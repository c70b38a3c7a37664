//! The best-first core that A* ([`super::astar`]), its greedy and weighted variants
//! ([`super::weight`]) and batched A* ([`super::batched_astar`]) share: the open list, the
//! closed set, relaxing a successor, the successor loop, the memory projection, progress
//! fields and the path walk-back.
//!
//! The open list is a bucket queue (`open_list.rs`) popped lowest f first, ties broken by
//! highest g (or by [`Limits::tie_break`](super::Limits::tie_break)'s rule); f is the search's
//! ([`Algorithm::order_f`]: g + h in A*). The closed set
//! maps every board reached to its best g so far, the move that reached it and whether it has
//! been expanded; a heap entry whose g no longer matches (or whose board is already closed) is
//! stale and skipped when popped. A closed board reached more cheaply is reopened, which batched
//! A* needs (its rounds are not in strict f order) and A* needs with a heuristic that is
//! admissible but not consistent (the pattern databases' blank-region flags); with a
//! consistent one A* never triggers it.

use std::collections::hash_map::Entry;

use super::key::{Key, KeyMap};
pub(crate) use super::open_list::Open;
use super::open_list::OpenList;
use super::{
    Algorithm, CellSampler, Control, Frontier, GhHistogram, Problem, Progress, SearchError,
    SearchStats, Solution,
};
use crate::puzzle::{Move, move_target};

/// What the closed set knows of a board: best g so far, the move that reached it (`None` for
/// the start), whether it has been expanded.
#[derive(Clone, Copy)]
struct Info {
    g: u32,
    mv: Option<Move>,
    closed: bool,
}

/// A popped entry that was not stale, now closed: the move that reached it (`None` for the
/// start), whose inverse its expansion skips.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Closed {
    pub last: Option<Move>,
}

/// Open list, closed set, statistics and the optional progress samplers of one best-first
/// search over boards packed as `K`.
pub(crate) struct BestFirst<K> {
    /// The search, whose f orders the open list ([`Algorithm::order_f`]).
    order: Algorithm,
    rows: usize,
    cols: usize,
    map: KeyMap<K, Info>,
    open: OpenList<K>,
    /// Bytes per closed-set entry (with the hash table's control byte); heap bytes a key owns.
    entry: usize,
    key_heap: usize,
    /// Bytes per successor a caller holds outside the open list until it is pushed (its
    /// board and its future open entry).
    pending_entry: usize,
    hist: Option<GhHistogram>,
    cells: Option<CellSampler>,
    /// Counters the searches report: expanded, generated, closed, peak open, initial h.
    pub stats: SearchStats,
}

impl<K: Key> BestFirst<K> {
    /// An empty search for `problem`'s board size, its open list ordered by `order`'s f
    /// (A*, batched A*: g + h). With `limits.histogram`, the `(g, h)` histogram is kept and
    /// one board in `sample_every` generated is offered to the misplaced-cells sampler.
    pub(crate) fn new(
        problem: &Problem,
        ctl: &Control<'_>,
        sample_every: u32,
        order: Algorithm,
    ) -> Self {
        let (rows, cols) = (problem.start.rows(), problem.start.cols());
        let n = rows * cols;
        let histogram = ctl.limits().histogram;
        let oentry = std::mem::size_of::<K>() + K::heap_bytes(n);
        BestFirst {
            order,
            rows,
            cols,
            map: KeyMap::default(),
            open: OpenList::with_tie_break(ctl.limits().tie_break),
            entry: std::mem::size_of::<(K, Info)>() + 1 + K::heap_bytes(n),
            key_heap: K::heap_bytes(n),
            pending_entry: n + oentry,
            hist: histogram.then(GhHistogram::new),
            cells: histogram.then(|| CellSampler::new(problem.goal.board().tiles(), sample_every)),
            stats: SearchStats::default(),
        }
    }

    /// A search resumed from another's state (the stepper's A*): every board known with its
    /// best g, the move that reached it and whether it is closed; the open list as it was; the
    /// counts so far. The histogram is rebuilt from the open list.
    pub(crate) fn resume(
        problem: &Problem,
        ctl: &Control<'_>,
        sample_every: u32,
        known: impl Iterator<Item = (K, u32, Option<Move>, bool)>,
        open: OpenList<K>,
        stats: SearchStats,
    ) -> Self {
        let mut bf = BestFirst::new(problem, ctl, sample_every, Algorithm::AStar);
        for (k, g, mv, closed) in known {
            bf.map.insert(k, Info { g, mv, closed });
        }
        if let Some(hh) = &mut bf.hist {
            for (f, g, _) in open.iter() {
                hh.add(g as usize, (f - g) as usize);
            }
        }
        bf.open = open;
        bf.stats = stats;
        bf
    }

    /// The search whose f orders the open list.
    pub(crate) fn order(&self) -> Algorithm {
        self.order
    }

    /// The best g known for `key`, if it has been reached.
    pub(crate) fn g_of(&self, key: &K) -> Option<u32> {
        self.map.get(key).map(|i| i.g)
    }

    /// Estimated bytes of the tables with a closed set of capacity `map_cap` and `pending`
    /// successors held outside the open list.
    fn memory_at(&self, map_cap: usize, pending: usize) -> u64 {
        (map_cap * self.entry * 8 / 7
            + self.open.bytes()
            + self.open.len() * self.key_heap
            + pending * self.pending_entry) as u64
    }

    /// Estimated bytes of the tables now.
    pub(crate) fn memory(&self) -> u64 {
        self.memory_at(self.map.capacity(), 0)
    }

    /// Inserts the start board with heuristic `h0` (also recorded as the initial h).
    pub(crate) fn insert_root(&mut self, key: K, h0: u32) {
        self.stats.initial_h = h0;
        self.map.insert(
            key.clone(),
            Info {
                g: 0,
                mv: None,
                closed: false,
            },
        );
        // One entry on an empty list: a refusal here would refuse everything after it.
        let _ = self.push(key, 0, h0);
    }

    /// Pushes a board reached with cost `g` and heuristic `h` on the open list.
    ///
    /// # Errors
    /// When the system refuses the memory to grow the open list (nothing is pushed).
    pub(crate) fn push(
        &mut self,
        key: K,
        g: u32,
        h: u32,
    ) -> Result<(), std::collections::TryReserveError> {
        self.open.push(self.order.order_f(g, h), g, key)?;
        if let Some(hh) = &mut self.hist {
            hh.add(g as usize, h as usize);
        }
        Ok(())
    }

    /// Pops the entry with the lowest f (ties: highest g), unless the open list is empty or
    /// that f is at least `limit` (the entry then stays).
    pub(crate) fn pop(&mut self, limit: Option<u32>) -> Option<Open<K>> {
        self.open.pop(limit)
    }

    /// The lowest f on the open list.
    pub(crate) fn min_f(&self) -> Option<u32> {
        self.open.min_f()
    }

    /// Entries on the open list (stale ones included).
    pub(crate) fn open_len(&self) -> usize {
        self.open.len()
    }

    /// Records the open list's size in the peak.
    pub(crate) fn note_peak(&mut self) {
        self.stats.peak_open = self.stats.peak_open.max(self.open.len() as u64);
    }

    /// Marks a popped entry closed, or returns `None` for a stale one (already closed, or
    /// since reached more cheaply).
    pub(crate) fn close(&mut self, node: &Open<K>) -> Option<Closed> {
        if let Some(hh) = &mut self.hist {
            hh.remove(node.g as usize, self.order.h_of(node.f, node.g) as usize);
        }
        let info = self.map.get_mut(&node.key)?;
        if info.closed || info.g != node.g {
            return None;
        }
        info.closed = true;
        self.stats.closed += 1;
        Some(Closed { last: info.mv })
    }

    /// Records `child` as reached with cost `g` by move `m`, unless it is already known at a
    /// cost no higher; a closed board reached more cheaply is reopened. Returns whether the
    /// child must go on the open list.
    fn relax(&mut self, child: &K, g: u32, m: Move) -> bool {
        let fresh = Info {
            g,
            mv: Some(m),
            closed: false,
        };
        match self.map.entry(child.clone()) {
            Entry::Vacant(v) => {
                v.insert(fresh);
                true
            }
            Entry::Occupied(mut o) if o.get().g > g => {
                o.insert(fresh);
                true
            }
            Entry::Occupied(_) => false,
        }
    }

    /// Expands a closed node: every move but the one undoing `closed.last`, each successor
    /// relaxed. For each successor that must go on the open list, `on_child(key, tiles, g)`
    /// (`tiles`: the successor's board) returns its h to push it now, or `None` when the
    /// caller holds it (counted in the memory projection as pending, on top of `pending`, until
    /// it pushes it with [`BestFirst::push`]). `tiles` is scratch space of the board's size.
    ///
    /// # Errors
    /// [`SearchError::MemoryLimit`] when growing the closed set would pass the memory cap.
    pub(crate) fn expand(
        &mut self,
        node: &Open<K>,
        closed: Closed,
        tiles: &mut [u8],
        mut pending: usize,
        ctl: &Control<'_>,
        mut on_child: impl FnMut(&K, &[u8], u32) -> Option<u32>,
    ) -> Result<(), SearchError> {
        self.stats.expanded += 1;
        node.key.unpack(tiles);
        let blank = tiles.iter().position(|&t| t == 0).unwrap_or(0);
        let g2 = node.g + 1;
        let undo = closed.last.map(Move::inverse);
        for m in Move::ALL {
            if Some(m) == undo {
                continue;
            }
            let Some(to) = move_target(self.rows, self.cols, blank, m) else {
                continue;
            };
            tiles.swap(blank, to);
            let child = K::pack(tiles);
            self.stats.generated += 1;
            if self.map.len() == self.map.capacity() {
                let projected = self.memory_at(3 * self.map.capacity().max(16), pending);
                if projected > ctl.limits().max_memory {
                    return Err(ctl.memory_error(self.stats.expanded));
                }
                // The system may refuse before the cap (a `ulimit -v`, a cgroup): a clean
                // stop, not an abort.
                if self.map.try_reserve(self.map.capacity().max(16)).is_err() {
                    return Err(ctl.out_of_memory(self.stats.expanded));
                }
            }
            if self.relax(&child, g2, m) {
                if let Some(c) = &mut self.cells {
                    c.offer(tiles);
                }
                match on_child(&child, tiles, g2) {
                    Some(h) => self
                        .push(child, g2, h)
                        .map_err(|_| ctl.out_of_memory(self.stats.expanded))?,
                    None => pending += 1,
                }
            }
            tiles.swap(blank, to);
        }
        Ok(())
    }

    /// A progress snapshot with the fields every best-first search reports (counters, open
    /// and closed sizes, histogram, misplaced cells, memory, the least f open as the bound);
    /// the caller adds its own.
    pub(crate) fn progress(&mut self, ctl: &Control<'_>, algorithm: Algorithm) -> Progress {
        Progress {
            algorithm: Some(algorithm),
            seconds: ctl.elapsed(),
            expanded: self.stats.expanded,
            generated: self.stats.generated,
            frontier: Frontier {
                open: self.open.len() as u64,
                closed: self.stats.closed,
            },
            histogram: self.hist.clone(),
            misplaced: self.cells.as_mut().and_then(|c| c.take()),
            memory: self.memory(),
            // The least f on the open list (a lower bound on the optimum); the searches put
            // the f of the node they expand instead where they have it.
            bound: self.min_f().map_or(0, |f| self.order.bound_of(f)),
            ..Progress::default()
        }
    }

    /// The solution after the goal has been reached: the moves walked back from the goal,
    /// with the statistics (peak memory and seconds filled in).
    ///
    /// # Errors
    /// [`SearchError::BadSolution`] when the parent chain is broken (a bug).
    pub(crate) fn finish(
        mut self,
        problem: &Problem,
        ctl: &Control<'_>,
    ) -> Result<Solution, SearchError> {
        let moves = self.walk_back(problem.goal.board().tiles())?;
        self.stats.peak_memory = self.memory();
        self.stats.seconds = ctl.elapsed();
        Ok(Solution {
            moves,
            stats: self.stats,
            all: None,
        })
    }

    /// The moves from the start to `goal`, read back through the closed set's parent moves.
    fn walk_back(&self, goal: &[u8]) -> Result<Vec<Move>, SearchError> {
        let mut tiles = goal.to_vec();
        let mut key = K::pack(&tiles);
        let mut moves = Vec::new();
        while let Some(m) = self.map.get(&key).and_then(|i| i.mv) {
            moves.push(m);
            let blank = tiles.iter().position(|&t| t == 0).unwrap_or(0);
            let back = move_target(self.rows, self.cols, blank, m.inverse())
                .ok_or_else(|| SearchError::BadSolution("broken parent chain".into()))?;
            tiles.swap(blank, back);
            key = K::pack(&tiles);
            if moves.len() > self.map.len() {
                return Err(SearchError::BadSolution("cycle in the parent chain".into()));
            }
        }
        moves.reverse();
        Ok(moves)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::{Board, GoalSpec};

    use crate::search::Limits;

    fn problem(start: &str) -> Problem {
        Problem {
            start: start.parse::<Board>().unwrap(),
            goal: GoalSpec::BlankLast.resolve(3, 3).unwrap(),
        }
    }

    #[test]
    fn relax_keeps_the_cheapest_and_reopens() {
        let limits = Limits::default();
        let ctl = Control::new(&limits);
        let mut bf =
            BestFirst::<u64>::new(&problem("1 2 3/4 5 6/7 0 8"), &ctl, 1, Algorithm::AStar);
        assert!(bf.relax(&7, 5, Move::Up), "new board");
        assert!(!bf.relax(&7, 5, Move::Down), "same cost");
        assert!(!bf.relax(&7, 6, Move::Down), "dearer");
        bf.push(7, 5, 1).expect("memory for a test");
        let node = bf.pop(None).unwrap();
        assert_eq!(
            bf.close(&node),
            Some(Closed {
                last: Some(Move::Up)
            })
        );
        assert_eq!(bf.close(&node), None, "closed twice");
        assert!(bf.relax(&7, 3, Move::Left), "cheaper: reopened");
        assert_eq!(bf.close(&node), None, "the g-5 entry is stale");
        assert_eq!(bf.stats.closed, 1);
    }

    #[test]
    fn pop_leaves_entries_at_or_above_the_limit() {
        let limits = Limits::default();
        let ctl = Control::new(&limits);
        let mut bf =
            BestFirst::<u64>::new(&problem("1 2 3/4 5 6/7 0 8"), &ctl, 1, Algorithm::AStar);
        bf.push(1, 2, 3).expect("memory for a test");
        assert!(bf.pop(Some(5)).is_none());
        assert_eq!(bf.min_f(), Some(5));
        assert_eq!(bf.pop(Some(6)).map(|o| o.key), Some(1));
        assert!(bf.pop(None).is_none());
    }

    #[test]
    fn expansion_skips_the_undo_and_walk_back_replays() {
        let limits = Limits::default();
        let ctl = Control::new(&limits);
        let p = problem("1 2 3/4 5 6/0 7 8");
        let mut bf = BestFirst::<u64>::new(&p, &ctl, 1, Algorithm::AStar);
        bf.insert_root(u64::pack(p.start.tiles()), 2);
        let goal = u64::pack(p.goal.board().tiles());
        let mut tiles = vec![0u8; 9];
        let mut seen = Vec::new();
        while let Some(node) = bf.pop(None) {
            let Some(closed) = bf.close(&node) else {
                continue;
            };
            if node.key == goal {
                break;
            }
            let kept = seen.len();
            bf.expand(&node, closed, &mut tiles, 0, &ctl, |_, t, g| {
                seen.push((g, t.to_vec()));
                Some(0)
            })
            .unwrap();
            // The undo of the move that reached a node is never generated.
            if let Some(last) = closed.last {
                let mut b = vec![0u8; 9];
                node.key.unpack(&mut b);
                let blank = b.iter().position(|&t| t == 0).unwrap();
                let back = move_target(3, 3, blank, last.inverse()).unwrap();
                b.swap(blank, back);
                assert!(seen[kept..].iter().all(|(_, t)| *t != b), "undo generated");
            }
        }
        assert_eq!(bf.stats.initial_h, 2);
        let moves = bf.finish(&p, &ctl).unwrap().moves;
        assert_eq!(moves, [Move::Right, Move::Right]);
    }
}
