//! A* with a closed set and a memory cap.
//!
//! P. E. Hart, N. J. Nilsson, B. Raphael, "A formal basis for the heuristic determination of
//! minimum cost paths", IEEE Trans. SSC 4 (1968). The open list is a binary heap ordered by
//! lowest f, ties broken by highest g; stale heap entries are skipped when popped. The goal test
//! is made when a node is expanded, so with an admissible heuristic the first goal popped is
//! optimal.

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::collections::hash_map::Entry;

use rustc_hash::FxHashMap;

use super::key::{Key, with_key};
use super::{
    Algorithm, Control, GhHistogram, Problem, Progress, ProgressFn, SearchError, SearchStats,
    Solution,
};
use crate::heuristic::{Heuristic, HeuristicSpec};
use crate::puzzle::{Move, move_target};

pub(crate) const ROOT: u8 = 4;

/// What the closed set knows of a board: best g so far, the move that reached it, whether it
/// has been expanded.
#[derive(Clone, Copy)]
pub(crate) struct Info {
    pub g: u32,
    pub mv: u8,
    pub closed: bool,
}

pub(crate) struct Open<K> {
    pub f: u32,
    pub g: u32,
    pub key: K,
}

impl<K> PartialEq for Open<K> {
    fn eq(&self, o: &Self) -> bool {
        self.f == o.f && self.g == o.g
    }
}
impl<K> Eq for Open<K> {}
impl<K> PartialOrd for Open<K> {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl<K> Ord for Open<K> {
    /// Max-heap order: lower f first, then higher g.
    fn cmp(&self, o: &Self) -> Ordering {
        o.f.cmp(&self.f).then(self.g.cmp(&o.g))
    }
}

/// A* from the start to the goal with the given heuristic.
///
/// # Errors
/// [`SearchError`] on cancel, time limit or memory cap.
pub(crate) fn search(
    problem: &Problem,
    heuristic: &HeuristicSpec,
    ctl: &mut Control<'_>,
    progress: &mut ProgressFn<'_>,
) -> Result<Solution, SearchError> {
    let h = heuristic.build(&problem.goal);
    with_key!(problem.start.len(), K => run::<K>(problem, h.as_ref(), ctl, progress))
}

fn run<K: Key>(
    problem: &Problem,
    h: &dyn Heuristic,
    ctl: &mut Control<'_>,
    progress: &mut ProgressFn<'_>,
) -> Result<Solution, SearchError> {
    let (rows, cols) = (problem.start.rows(), problem.start.cols());
    let n = rows * cols;
    let goal_key = K::pack(problem.goal.board().tiles());
    let mut stats = SearchStats::default();
    let mut map: FxHashMap<K, Info> = FxHashMap::default();
    let mut open: BinaryHeap<Open<K>> = BinaryHeap::new();
    let mut hist = ctl.limits().histogram.then(GhHistogram::new);
    let mut cells = ctl
        .limits()
        .histogram
        .then(|| super::CellSampler::new(problem.goal.board().tiles(), 8));
    let entry = std::mem::size_of::<(K, Info)>() + 1 + K::heap_bytes(n);
    let oentry = std::mem::size_of::<Open<K>>() + K::heap_bytes(n);
    let memory = |open: &BinaryHeap<Open<K>>, map_cap: usize| {
        (map_cap * entry * 8 / 7 + open.capacity() * oentry) as u64
    };

    let h0 = h.estimate(problem.start.tiles());
    stats.initial_h = h0;
    let start_key = K::pack(problem.start.tiles());
    map.insert(
        start_key.clone(),
        Info {
            g: 0,
            mv: ROOT,
            closed: false,
        },
    );
    open.push(Open {
        f: h0,
        g: 0,
        key: start_key,
    });
    if let Some(hh) = &mut hist {
        hh.add(0, h0 as usize);
    }
    let mut tiles = vec![0u8; n];
    let (mut last_f, mut last_g);
    loop {
        let Some(node) = open.pop() else {
            return Err(SearchError::Exhausted(Algorithm::AStar));
        };
        if let Some(hh) = &mut hist {
            hh.remove(node.g as usize, (node.f - node.g) as usize);
        }
        let Some(last) = close(&mut map, &node) else {
            continue; // stale entry
        };
        stats.closed += 1;
        if node.key == goal_key {
            break;
        }
        stats.expanded += 1;
        (last_f, last_g) = (node.f, node.g);
        node.key.unpack(&mut tiles);
        let blank = tiles.iter().position(|&t| t == 0).unwrap_or(0);
        let g2 = node.g + 1;
        for m in Move::ALL {
            if last != ROOT && m == Move::from_index(last as usize).inverse() {
                continue;
            }
            let Some(to) = move_target(rows, cols, blank, m) else {
                continue;
            };
            tiles.swap(blank, to);
            let child = K::pack(&tiles);
            stats.generated += 1;
            if map.len() == map.capacity() {
                let projected = memory(&open, 3 * map.capacity().max(16));
                if projected > ctl.limits().max_memory {
                    return Err(ctl.memory_error(stats.expanded));
                }
            }
            if relax(&mut map, &child, g2, m) {
                let hc = h.estimate(&tiles);
                if let Some(hh) = &mut hist {
                    hh.add(g2 as usize, hc as usize);
                }
                if let Some(c) = &mut cells {
                    c.offer(&tiles);
                }
                open.push(Open {
                    f: g2 + hc,
                    g: g2,
                    key: child,
                });
            }
            tiles.swap(blank, to);
        }
        stats.peak_open = stats.peak_open.max(open.len() as u64);
        if stats.expanded & 0xFFF == 0 && ctl.check()? {
            progress(&Progress {
                algorithm: Some(Algorithm::AStar),
                seconds: ctl.elapsed(),
                expanded: stats.expanded,
                generated: stats.generated,
                open: open.len() as u64,
                closed: stats.closed,
                bound: last_f,
                g: last_g,
                h: last_f - last_g,
                histogram: hist.clone(),
                misplaced: cells.as_mut().and_then(|c| c.take()),
                memory: memory(&open, map.capacity()),
                ..Progress::default()
            });
        }
    }
    let moves = walk_back(problem, &map)?;
    stats.peak_memory = memory(&open, map.capacity());
    stats.seconds = ctl.elapsed();
    Ok(Solution { moves, stats })
}

/// Marks a popped open-list entry closed; returns the move that reached it, or `None` for a
/// stale entry (already closed, or since reached more cheaply).
pub(crate) fn close<K: Key>(map: &mut FxHashMap<K, Info>, node: &Open<K>) -> Option<u8> {
    let info = map.get_mut(&node.key)?;
    if info.closed || info.g != node.g {
        return None;
    }
    info.closed = true;
    Some(info.mv)
}

/// Records `child` as reached with cost `g` by move `m`, unless it is already known at a cost
/// no higher; a closed node reached more cheaply is reopened. Returns whether the child must
/// be pushed on the open list.
pub(crate) fn relax<K: Key>(map: &mut FxHashMap<K, Info>, child: &K, g: u32, m: Move) -> bool {
    let fresh = Info {
        g,
        mv: m as u8,
        closed: false,
    };
    match map.entry(child.clone()) {
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

/// The moves from the start to the goal, read back through the closed set's parent moves.
pub(crate) fn walk_back<K: Key>(
    problem: &Problem,
    map: &FxHashMap<K, Info>,
) -> Result<Vec<Move>, SearchError> {
    let (rows, cols) = (problem.start.rows(), problem.start.cols());
    let mut tiles = problem.goal.board().tiles().to_vec();
    let mut key = K::pack(&tiles);
    let mut moves = Vec::new();
    while let Some(info) = map.get(&key).filter(|i| i.mv != ROOT) {
        let m = Move::from_index(info.mv as usize);
        moves.push(m);
        let blank = tiles.iter().position(|&t| t == 0).unwrap_or(0);
        let back = move_target(rows, cols, blank, m.inverse())
            .ok_or_else(|| SearchError::BadSolution("broken parent chain".into()))?;
        tiles.swap(blank, back);
        key = K::pack(&tiles);
        if moves.len() > map.len() {
            return Err(SearchError::BadSolution("cycle in the parent chain".into()));
        }
    }
    moves.reverse();
    Ok(moves)
}
