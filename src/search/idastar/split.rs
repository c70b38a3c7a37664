//! The top of an iteration's tree, searched by the coordinator down to a split depth; the
//! nodes there ([`SplitNodes`]) go to the worker threads (parallel IDA*) or to a device (GPU
//! IDA*), which search below them with the same threshold.

use super::parallel::{Shared, expand_level};
use super::watch::Watch;
use super::{Dfs, Halt, IterationEnd, Tally};
use crate::heuristic::Incremental;
use crate::puzzle::Move;
use crate::search::move_fsm::MoveFsm;
use crate::search::{Limits, SearchError};

/// Fewest nodes in a level for [`split_top`] to search it on several threads.
const PARALLEL_LEVEL: usize = 2048;

/// The nodes of one depth of the tree (all `depth` moves from the start), stored flat: their
/// boards (row-major, `0` = blank, `cells` each), their paths from the start (`depth` moves
/// each), blanks, heuristic values and states, and states in the pruning automaton. Flat, so
/// that collecting hundreds of thousands of them for a device allocates nothing per node.
pub(in crate::search) struct SplitNodes<S> {
    cells: usize,
    depth: u32,
    tiles: Vec<u8>,
    paths: Vec<Move>,
    /// Per node: the blank's cell, h, the automaton's state.
    meta: Vec<(u16, u32, u16)>,
    /// Per node: the heuristic's state.
    pub(super) states: Vec<S>,
}

impl<S: Clone> SplitNodes<S> {
    /// No nodes, for boards of `cells` cells.
    pub(super) fn new(cells: usize) -> Self {
        SplitNodes {
            cells,
            depth: 0,
            tiles: Vec::new(),
            paths: Vec::new(),
            meta: Vec::new(),
            states: Vec::new(),
        }
    }

    /// Removes every node, keeping the allocations; the next nodes are `depth` moves deep.
    pub(super) fn clear(&mut self, depth: u32) {
        self.depth = depth;
        self.tiles.clear();
        self.paths.clear();
        self.meta.clear();
        self.states.clear();
    }

    /// Adds a node (its board, blank cell, heuristic state, h, automaton state and path,
    /// which is `depth` moves long).
    pub(super) fn push(
        &mut self,
        tiles: &[u8],
        blank: usize,
        state: &S,
        h: u32,
        fsm: u16,
        path: &[Move],
    ) {
        debug_assert_eq!(path.len(), self.depth as usize);
        self.tiles.extend_from_slice(tiles);
        self.paths.extend_from_slice(path);
        self.meta.push((blank as u16, h, fsm));
        self.states.push(state.clone());
    }

    /// Adds `other`'s nodes after these (of the same depth).
    pub(super) fn append(&mut self, other: &SplitNodes<S>) {
        debug_assert_eq!(other.depth, self.depth);
        self.tiles.extend_from_slice(&other.tiles);
        self.paths.extend_from_slice(&other.paths);
        self.meta.extend_from_slice(&other.meta);
        self.states.extend_from_slice(&other.states);
    }

    /// How many nodes there are.
    pub(in crate::search) fn len(&self) -> usize {
        self.meta.len()
    }

    /// Whether there are none.
    pub(in crate::search) fn is_empty(&self) -> bool {
        self.meta.is_empty()
    }

    /// Their depth: g, in moves from the start.
    pub(in crate::search) fn depth(&self) -> u32 {
        self.depth
    }

    /// Node `i`'s board.
    pub(in crate::search) fn tiles(&self, i: usize) -> &[u8] {
        &self.tiles[i * self.cells..(i + 1) * self.cells]
    }

    /// Node `i`'s moves from the start.
    pub(in crate::search) fn path(&self, i: usize) -> &[Move] {
        let d = self.depth as usize;
        &self.paths[i * d..(i + 1) * d]
    }

    /// Node `i`'s blank cell.
    pub(super) fn blank(&self, i: usize) -> usize {
        usize::from(self.meta[i].0)
    }

    /// Node `i`'s h.
    pub(super) fn h(&self, i: usize) -> u32 {
        self.meta[i].1
    }

    /// Node `i`'s state in the pruning automaton.
    pub(in crate::search) fn fsm(&self, i: usize) -> u16 {
        self.meta[i].2
    }
}

/// The top of an iteration's tree, searched by the coordinator.
pub(in crate::search) enum Top<S> {
    /// The iteration ended there: the goal was reached above the split depth, or every node
    /// was pruned before it.
    Done(IterationEnd),
    /// The nodes at the split depth (to be searched below), and the smallest f above the
    /// threshold seen above them (`u32::MAX`: none).
    Split(SplitNodes<S>, u32),
}

/// Searches the top of the tree to the shallowest depth that gives at least `target` nodes
/// (or depth 64), collecting them; the counts are those of the top (the nodes at the split
/// depth are generated there and expanded by whoever searches below them).
///
/// The top is searched a level at a time: each node of a level is searched one move deeper,
/// in order, so the top is searched once (its cost is its nodes, not its nodes times its
/// depth) and the nodes of the last level come in the order a depth-first search meets them.
/// A tree that narrows before it reaches the target splits at the first narrowing level with
/// at least a sixteenth of it (and 64 nodes), rather than being searched to the end here. The
/// current board is the start again on return, unless the goal was found.
///
/// With `helpers` (the limits the threads watch, and how many threads), a level of at least
/// [`PARALLEL_LEVEL`] nodes is searched on that many threads ([`expand_level`]), unless the
/// search collects all solutions or keeps the histogram.
pub(in crate::search) fn split_top<H: Incremental + Sync, W: Watch>(
    dfs: &mut Dfs<'_, H, W>,
    h0: u32,
    target: usize,
    limits: &Limits,
    helpers: Option<(&Shared, usize)>,
) -> Result<Top<H::State>, SearchError>
where
    H::State: Send + Sync,
{
    dfs.tally = Tally::default();
    dfs.watch.restart(h0);
    if let Some(c) = &mut dfs.found {
        c.clear();
    }
    let mut start = SplitNodes::new(dfs.tiles.len());
    start.push(&dfs.tiles, dfs.blank, &dfs.state, h0, MoveFsm::ROOT, &[]);
    let mut level = SplitNodes::new(dfs.tiles.len());
    level.push(&dfs.tiles, dfs.blank, &dfs.state, h0, MoveFsm::ROOT, &[]);
    let mut next = u32::MAX;
    let mut widest = 0;
    let halt = loop {
        let depth = level.depth();
        dfs.split.clear(depth + 1);
        dfs.split_at = depth + 1;
        let mut halt = None;
        let parallel = helpers.filter(|&(_, threads)| {
            threads > 1
                && level.len() >= PARALLEL_LEVEL
                && dfs.found.is_none()
                && !dfs.watch.exact()
        });
        if let Some((shared, threads)) = parallel {
            let (deeper, probe) = expand_level(dfs, &level, threads, shared, next);
            dfs.split = deeper;
            match probe {
                Ok(n) => next = n,
                Err(h) => halt = Some(h),
            }
        } else {
            for i in 0..level.len() {
                dfs.load(&level, i);
                match dfs.dfs(depth, level.h(i), level.fsm(i), next) {
                    Ok(n) => next = n,
                    Err(h) => {
                        halt = Some(h);
                        break;
                    }
                }
            }
        }
        dfs.split_at = u32::MAX;
        if halt.is_some() {
            break halt;
        }
        // The new level; the old one's buffers take the next.
        std::mem::swap(&mut level, &mut dfs.split);
        let len = level.len();
        if len >= target
            || len == 0
            || level.depth() >= 64
            || (len < widest && len >= (target / 16).max(64))
        {
            break None;
        }
        widest = widest.max(len);
    };
    dfs.split = SplitNodes::new(dfs.tiles.len());
    match halt {
        Some(Halt::Found) => {
            return Ok(Top::Done(IterationEnd::Found(std::mem::take(
                &mut dfs.path,
            ))));
        }
        Some(halt) => {
            dfs.load(&start, 0);
            return Err(halt.error(limits));
        }
        None => dfs.load(&start, 0),
    }
    if level.is_empty() {
        // Everything below the split depth was pruned: the iteration is complete.
        return Ok(Top::Done(IterationEnd::Next(next)));
    }
    Ok(Top::Split(level, next))
}

#[cfg(test)]
mod tests {
    use super::super::moves::MoveTables;
    use super::*;
    use crate::heuristic::Manhattan;
    use crate::puzzle::{Board, GoalSpec};

    /// A level searched on several threads ([`expand_level`]) gives the nodes, in the order,
    /// the counts and the next threshold of one thread, for several thresholds of Korf's #1
    /// (levels of up to tens of thousands of nodes, cut at a target of 20,000).
    #[test]
    fn levels_on_several_threads_give_the_nodes_of_one_thread() {
        let goal = GoalSpec::BlankFirst.resolve(4, 4).unwrap();
        let start = Board::from_u8(
            4,
            4,
            &[14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3],
        )
        .unwrap();
        let h = Manhattan::new(&goal);
        let machine = MoveFsm::shared(4, 4, 2, None);
        let tables = MoveTables::new(4, 4, goal.board().tiles(), machine, Default::default());
        let moves = tables.moves();
        let shared = Shared::new(None, None);
        let (state, h0) = h.init(start.tiles());
        let limits = Limits::default();
        let mut tops = Vec::new();
        for helpers in [None, Some((&shared, 3))] {
            let mut dfs = Dfs {
                h: &h,
                moves,
                goal: goal.board().tiles(),
                tiles: start.tiles().to_vec(),
                blank: start.blank(),
                state,
                path: Vec::new(),
                bound: h0,
                tally: Tally::default(),
                countdown: super::super::CHECK_EVERY,
                split_at: u32::MAX,
                split: SplitNodes::new(16),
                found: None,
                watch: &shared,
            };
            let mut runs = Vec::new();
            for bound in (h0 + 6..=h0 + 14).step_by(2) {
                dfs.bound = bound;
                let top = split_top(&mut dfs, h0, 20_000, &limits, helpers);
                let Ok(Top::Split(nodes, next)) = top else {
                    panic!("threshold {bound}: no split");
                };
                // The board is the start again.
                assert_eq!(dfs.tiles, start.tiles());
                assert!(dfs.path.is_empty());
                let listed: Vec<(Vec<u8>, Vec<Move>, u16, u32)> = (0..nodes.len())
                    .map(|i| {
                        let (t, p) = (nodes.tiles(i).to_vec(), nodes.path(i).to_vec());
                        (t, p, nodes.fsm(i), nodes.h(i))
                    })
                    .collect();
                let (e, g) = (dfs.tally.expanded, dfs.tally.generated);
                runs.push((bound, nodes.depth(), listed, next, e, g));
            }
            tops.push(runs);
        }
        let widest = tops[0].iter().map(|r| r.2.len()).max().unwrap();
        assert!(
            widest >= 2 * PARALLEL_LEVEL,
            "levels of {widest} nodes at most"
        );
        for (one, three) in tops[0].iter().zip(&tops[1]) {
            assert_eq!(one.2.len(), three.2.len(), "threshold {}: nodes", one.0);
            assert!(
                one == three,
                "threshold {}: nodes, counts or next differ",
                one.0
            );
        }
    }
}
