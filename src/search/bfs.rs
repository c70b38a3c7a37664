//! Breadth-first search: optimal for unit-cost moves, exhaustive, memory-bound; for small
//! boards and as an independent check of the heuristic searches.

use std::collections::VecDeque;

use super::key::{Key, KeyMap, with_key};
use super::rank::{factorial, rank, unrank};
use super::{
    Algorithm, Control, Frontier, Problem, Progress, ProgressFn, SearchError, SearchStats, Solution,
};
use crate::puzzle::{Goal, Move};

/// When breadth-first search tests a board for the goal.
///
/// Tested when generated, the search stops as soon as the goal is reached: it expands the
/// boards less than d − 1 moves from the start and those at d − 1 taken up to the goal's
/// parent (a solution of d moves). Tested when expanded (popped), as A* does, it expands every board less than d moves
/// from the start and those at d taken before the goal: about b times as many. Both find an
/// optimal solution. Russell & Norvig's breadth-first search (*Artificial Intelligence: A
/// Modern Approach*) tests when a node is generated (their "early goal test"); their A* and
/// uniform-cost search test when a node is expanded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BfsGoalTest {
    /// When a board is generated (the default).
    #[default]
    Generate,
    /// When a board is taken from the queue to be expanded (it is then not expanded).
    Expand,
}

impl BfsGoalTest {
    /// Both, the default first.
    pub const ALL: [BfsGoalTest; 2] = [BfsGoalTest::Generate, BfsGoalTest::Expand];

    /// The name on the command line and in JSON: `generate`, `expand`.
    pub fn name(self) -> &'static str {
        match self {
            BfsGoalTest::Generate => "generate",
            BfsGoalTest::Expand => "expand",
        }
    }
}

impl std::fmt::Display for BfsGoalTest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A name [`BfsGoalTest::from_str`](std::str::FromStr) does not know.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown goal test {0:?} (expected generate or expand)")]
pub struct UnknownGoalTest(pub String);

impl std::str::FromStr for BfsGoalTest {
    type Err = UnknownGoalTest;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "generate" | "generation" => Ok(BfsGoalTest::Generate),
            "expand" | "expansion" => Ok(BfsGoalTest::Expand),
            _ => Err(UnknownGoalTest(s.to_string())),
        }
    }
}

/// Sentinel "no move" in the parent table.
const ROOT: u8 = 4;

/// Breadth-first search from the start until the goal is generated (or popped, as
/// [`Limits::bfs_goal_test`](super::Limits::bfs_goal_test) says).
///
/// # Errors
/// [`SearchError`] on cancel, time limit or memory cap.
pub(crate) fn search(
    problem: &Problem,
    ctl: &mut Control<'_>,
    progress: &mut ProgressFn<'_>,
) -> Result<Solution, SearchError> {
    with_key!(problem.start.len(), K => run::<K>(problem, ctl, progress))
}

fn run<K: Key>(
    problem: &Problem,
    ctl: &mut Control<'_>,
    progress: &mut ProgressFn<'_>,
) -> Result<Solution, SearchError> {
    let (rows, cols) = (problem.start.rows(), problem.start.cols());
    let n = rows * cols;
    let goal_key = K::pack(problem.goal.board().tiles());
    let start_key = K::pack(problem.start.tiles());
    let mut stats = SearchStats::default();
    let mut parent: KeyMap<K, u8> = KeyMap::default();
    parent.insert(start_key.clone(), ROOT);
    let mut queue: VecDeque<(K, u32)> = VecDeque::new();
    queue.push_back((start_key.clone(), 0));
    let entry = std::mem::size_of::<(K, u8)>() + 1 + K::heap_bytes(n);
    let qentry = std::mem::size_of::<(K, u32)>() + K::heap_bytes(n);
    let mut tiles = vec![0u8; n];
    let mut found = start_key == goal_key;
    let at_generation = ctl.limits().bfs_goal_test == BfsGoalTest::Generate;
    while !found {
        let Some((key, depth)) = queue.pop_front() else {
            break;
        };
        if !at_generation && key == goal_key {
            found = true;
            break;
        }
        key.unpack(&mut tiles);
        let blank = tiles.iter().position(|&t| t == 0).unwrap_or(0);
        let last = parent.get(&key).copied().unwrap_or(ROOT);
        stats.expanded += 1;
        for m in Move::ALL {
            if last != ROOT && m == Move::from_index(last as usize).inverse() {
                continue;
            }
            let Some(to) = crate::puzzle::move_target(rows, cols, blank, m) else {
                continue;
            };
            tiles.swap(blank, to);
            let child = K::pack(&tiles);
            tiles.swap(blank, to);
            stats.generated += 1;
            if parent.contains_key(&child) {
                continue;
            }
            make_room(
                &mut parent,
                &mut queue,
                (entry, qentry),
                ctl,
                &stats,
                depth,
                progress,
            )?;
            let is_goal = child == goal_key;
            parent.insert(child.clone(), m as u8);
            queue.push_back((child, depth + 1));
            if is_goal && at_generation {
                found = true;
                break;
            }
        }
        stats.peak_open = stats.peak_open.max(queue.len() as u64);
        if stats.expanded & 0x3FFF == 0 {
            let due = ctl.check();
            if due != Ok(false) {
                // Due, or the last report: the counts at the stop.
                progress(&Progress {
                    finished: due.is_err(),
                    ..snapshot(ctl, &stats, queue.len(), parent.len(), depth)
                });
            }
            due?;
        }
    }
    if !found {
        return Err(SearchError::Exhausted(Algorithm::Bfs));
    }
    answer(
        problem,
        &parent,
        &queue,
        (entry, qentry),
        ctl,
        stats,
        progress,
    )
}

/// The answer of a BFS that found the goal: the moves read back through `parent`, every
/// optimal solution when asked for, a last report and the final statistics.
///
/// # Errors
/// [`SearchError::BadSolution`] when the parent chain is broken.
fn answer<K: Key>(
    problem: &Problem,
    parent: &KeyMap<K, u8>,
    queue: &VecDeque<(K, u32)>,
    (entry, qentry): (usize, usize),
    ctl: &mut Control<'_>,
    mut stats: SearchStats,
    progress: &mut ProgressFn<'_>,
) -> Result<Solution, SearchError> {
    let (rows, cols) = (problem.start.rows(), problem.start.cols());
    let moves = path_to(parent, rows, cols, problem.goal.board().tiles())
        .ok_or_else(|| SearchError::BadSolution("broken parent chain".into()))?;
    let all = ctl.limits().all_solutions.map(|keep| {
        // Every board within `moves.len() - 1` moves has been reached, at its BFS depth: the
        // length of its parent chain.
        let depth = |t: &[u8]| path_to(parent, rows, cols, t).map(|p| p.len() as u32);
        super::all::from_distances(
            rows,
            cols,
            problem.start.tiles(),
            problem.goal.board().tiles(),
            moves.len() as u32,
            keep,
            &depth,
        )
    });
    // The final counts, so that a view's last frame is the search's end.
    progress(&Progress {
        finished: true,
        ..snapshot(ctl, &stats, queue.len(), parent.len(), moves.len() as u32)
    });
    stats.closed = parent.len() as u64;
    stats.peak_memory = (parent.capacity() * entry * 8 / 7 + queue.capacity() * qentry) as u64;
    stats.seconds = ctl.elapsed();
    Ok(Solution { moves, stats, all })
}

/// Grows the parent table (`entry` bytes a board) and the queue (`qentry`) ahead of an insert.
///
/// # Errors
/// [`SearchError::MemoryLimit`] when the table would pass the memory cap, or the system's
/// refusal: a clean stop, after a last report with the counts at the stop.
fn make_room<K: Key>(
    parent: &mut KeyMap<K, u8>,
    queue: &mut VecDeque<(K, u32)>,
    (entry, qentry): (usize, usize),
    ctl: &mut Control<'_>,
    stats: &SearchStats,
    depth: u32,
    progress: &mut ProgressFn<'_>,
) -> Result<(), SearchError> {
    let mut refused = None;
    if parent.len() == parent.capacity() {
        let projected =
            (3 * parent.capacity().max(16) * entry * 8 / 7 + queue.capacity() * qentry) as u64;
        if projected > ctl.limits().max_memory {
            refused = Some(ctl.memory_error(stats.expanded));
        } else if parent.try_reserve(parent.capacity().max(16)).is_err() {
            // The system may refuse before the cap.
            refused = Some(ctl.out_of_memory(stats.expanded));
        }
    }
    if refused.is_none()
        && queue.len() == queue.capacity()
        && queue.try_reserve(queue.len().max(16)).is_err()
    {
        refused = Some(ctl.out_of_memory(stats.expanded));
    }
    match refused {
        None => Ok(()),
        Some(e) => {
            progress(&Progress {
                finished: true,
                ..snapshot(ctl, stats, queue.len(), parent.len(), depth)
            });
            Err(e)
        }
    }
}

/// The moves from the start to `tiles` (`rows × cols`), read back through the parent table;
/// `None` when the board was never reached or its chain is broken.
fn path_to<K: Key>(
    parent: &KeyMap<K, u8>,
    rows: usize,
    cols: usize,
    tiles: &[u8],
) -> Option<Vec<Move>> {
    let mut tiles = tiles.to_vec();
    let mut moves = Vec::new();
    loop {
        let m = *parent.get(&K::pack(&tiles))?;
        if m == ROOT {
            moves.reverse();
            return Some(moves);
        }
        let m = Move::from_index(m as usize);
        moves.push(m);
        let blank = tiles.iter().position(|&t| t == 0).unwrap_or(0);
        let back = crate::puzzle::move_target(rows, cols, blank, m.inverse())?;
        tiles.swap(blank, back);
    }
}

/// A progress report of breadth-first search at depth `depth`.
fn snapshot(
    ctl: &Control<'_>,
    stats: &SearchStats,
    open: usize,
    closed: usize,
    depth: u32,
) -> Progress {
    Progress {
        algorithm: Some(Algorithm::Bfs),
        seconds: ctl.elapsed(),
        expanded: stats.expanded,
        generated: stats.generated,
        frontier: Frontier {
            open: open as u64,
            closed: closed as u64,
        },
        bound: depth,
        g: depth,
        ..Progress::default()
    }
}

/// Largest board (in cells) for [`distance_table`]: 10! = 3,628,800 entries.
pub const MAX_TABLE_CELLS: usize = 10;

/// Exact distance, in moves, from every board to `goal`, by one breadth-first search from the
/// goal. Indexed by [`rank`](super::rank::rank()) of the board's tiles (row-major, `0` = blank);
/// `u8::MAX` marks boards that cannot reach the goal (the other parity class).
///
/// Returns `None` for boards of more than [`MAX_TABLE_CELLS`] cells.
pub fn distance_table(goal: &Goal) -> Option<Vec<u8>> {
    let b = goal.board();
    let (rows, cols, n) = (b.rows(), b.cols(), b.len());
    if n > MAX_TABLE_CELLS {
        return None;
    }
    let mut dist = vec![u8::MAX; factorial(n) as usize];
    let mut queue = VecDeque::new();
    let r0 = rank(b.tiles());
    dist[r0 as usize] = 0;
    queue.push_back(r0);
    let mut tiles = vec![0u8; n];
    while let Some(r) = queue.pop_front() {
        unrank(r, &mut tiles);
        let d = dist[r as usize];
        let blank = tiles.iter().position(|&t| t == 0).unwrap_or(0);
        for m in Move::ALL {
            if let Some(to) = crate::puzzle::move_target(rows, cols, blank, m) {
                tiles.swap(blank, to);
                let c = rank(&tiles) as usize;
                tiles.swap(blank, to);
                if dist[c] == u8::MAX {
                    dist[c] = d + 1;
                    queue.push_back(c as u64);
                }
            }
        }
    }
    Some(dist)
}
