//! Test helpers, written for the tests with no code shared with the library's searches: an
//! independent breadth-first search, a replay of move letters, the benchmark sets, and (in
//! submodules) a runner for the `npuzzle` binary and the GPU context that skips loudly.
#![allow(dead_code)]

pub mod bin;
#[cfg(feature = "gpu")]
pub mod gpu;
#[cfg(feature = "gui")]
pub mod harness;
pub mod parse;

use std::collections::{HashMap, VecDeque};

use npuzzle::puzzle::{Board, Goal, GoalSpec, Move};

/// Breadth-first search from `from` (row-major tiles, `0` = blank, `rows × cols`): the distance
/// in moves of every board reached, stopping early once `stop` is reached.
fn breadth_first(
    from: &[u8],
    rows: usize,
    cols: usize,
    stop: Option<&[u8]>,
) -> HashMap<Vec<u8>, u32> {
    let mut dist = HashMap::new();
    let mut queue = VecDeque::new();
    dist.insert(from.to_vec(), 0u32);
    queue.push_back(from.to_vec());
    while let Some(t) = queue.pop_front() {
        if stop == Some(t.as_slice()) {
            break;
        }
        let d = dist[&t];
        for n in neighbours(&t, rows, cols) {
            if !dist.contains_key(&n) {
                dist.insert(n.clone(), d + 1);
                queue.push_back(n);
            }
        }
    }
    dist
}

/// Distances (moves) from every reachable board to `goal`.
pub fn exact_distances(goal: &Board) -> HashMap<Vec<u8>, u32> {
    breadth_first(goal.tiles(), goal.rows(), goal.cols(), None)
}

/// Exact distance in moves from `start` to `goal` (small boards only), or `None` if the goal is
/// unreachable.
pub fn bfs_distance(start: &Board, goal: &Board) -> Option<u32> {
    breadth_first(
        start.tiles(),
        start.rows(),
        start.cols(),
        Some(goal.tiles()),
    )
    .get(goal.tiles())
    .copied()
}

/// Boards one move away (blank swapped with an orthogonal neighbour, no wrapping).
pub fn neighbours(t: &[u8], rows: usize, cols: usize) -> Vec<Vec<u8>> {
    let b = t.iter().position(|&x| x == 0).unwrap();
    let (r, c) = (b / cols, b % cols);
    let mut out = Vec::new();
    let mut push = |to: usize| {
        let mut n = t.to_vec();
        n.swap(b, to);
        out.push(n);
    };
    if r > 0 {
        push(b - cols);
    }
    if r + 1 < rows {
        push(b + cols);
    }
    if c > 0 {
        push(b - 1);
    }
    if c + 1 < cols {
        push(b + 1);
    }
    out
}

/// All permutations of `0..n` (Heap's algorithm), for n ≤ 9.
pub fn all_permutations(n: usize) -> Vec<Vec<u8>> {
    let mut a: Vec<u8> = (0..n as u8).collect();
    let mut out = vec![a.clone()];
    let mut c = vec![0usize; n];
    let mut i = 0;
    while i < n {
        if c[i] < i {
            if i % 2 == 0 {
                a.swap(0, i);
            } else {
                a.swap(c[i], i);
            }
            out.push(a.clone());
            c[i] += 1;
            i = 0;
        } else {
            c[i] = 0;
            i += 1;
        }
    }
    out
}

pub fn goal(spec: &GoalSpec, rows: usize, cols: usize) -> Goal {
    spec.resolve(rows, cols).unwrap()
}

pub fn board(rows: usize, cols: usize, tiles: &[u8]) -> Board {
    Board::from_u8(rows, cols, tiles).unwrap()
}

/// Applies moves to a copy of `start` and returns the board reached; panics on an illegal move.
pub fn replay(start: &Board, moves: &[Move]) -> Board {
    let letters: String = moves.iter().map(|m| m.to_string()).collect();
    let (boards, _) = replay_letters(start, &letters, false);
    board(
        start.rows(),
        start.cols(),
        boards.last().expect("the start board"),
    )
}

/// Applies move letters to `start`; `tile_notation` inverts them first (the tile's direction).
/// Returns every board on the way, start included, and the tiles that slid. Panics on a move
/// off the board or on a letter other than U, D, L, R.
pub fn replay_letters(
    start: &Board,
    letters: &str,
    tile_notation: bool,
) -> (Vec<Vec<u8>>, Vec<u8>) {
    let (rows, cols) = (start.rows() as isize, start.cols() as isize);
    let mut tiles = start.tiles().to_vec();
    let mut blank = tiles.iter().position(|&t| t == 0).expect("blank");
    let mut boards = vec![tiles.clone()];
    let mut slid = Vec::new();
    for (i, c) in letters.chars().enumerate() {
        let c = if tile_notation {
            match c {
                'U' => 'D',
                'D' => 'U',
                'L' => 'R',
                'R' => 'L',
                other => other,
            }
        } else {
            c
        };
        let (dr, dc) = match c {
            'U' => (-1, 0),
            'D' => (1, 0),
            'L' => (0, -1),
            'R' => (0, 1),
            other => panic!("bad move letter {other:?} at {i} in {letters}"),
        };
        let (r, col) = (blank as isize / cols + dr, blank as isize % cols + dc);
        assert!(
            (0..rows).contains(&r) && (0..cols).contains(&col),
            "move {i} ({c}) of {letters} leaves the board {start}"
        );
        let to = (r * cols + col) as usize;
        slid.push(tiles[to]);
        tiles.swap(blank, to);
        blank = to;
        boards.push(tiles.clone());
    }
    (boards, slid)
}

/// Korf's 100 (blank-first goal) from assets/bench/korf100.txt: (id, tiles, optimal).
pub fn korf100() -> Vec<(u32, Vec<u8>, u32)> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/bench/korf100.txt"
    ))
    .expect("assets/bench/korf100.txt");
    text.lines()
        .filter(|l| !l.trim_start().starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let v: Vec<u32> = l.split_whitespace().map(|t| t.parse().unwrap()).collect();
            (v[0], v[1..17].iter().map(|&t| t as u8).collect(), v[17])
        })
        .collect()
}

/// For every board that reaches `goal`: its distance in moves and the number of distinct
/// shortest move sequences to the goal, by one breadth-first search from the goal that adds
/// up the counts of each board's parents in the layer before (moves are reversible, so the
/// shortest paths from the goal to a board, reversed, are its shortest paths to the goal).
pub fn shortest_path_counts(goal: &Board) -> HashMap<Vec<u8>, (u32, u64)> {
    let (rows, cols) = (goal.rows(), goal.cols());
    let mut seen: HashMap<Vec<u8>, (u32, u64)> = HashMap::new();
    seen.insert(goal.tiles().to_vec(), (0, 1));
    let mut layer = vec![goal.tiles().to_vec()];
    let mut depth = 0;
    while !layer.is_empty() {
        depth += 1;
        let mut next = Vec::new();
        for t in &layer {
            let paths = seen[t].1;
            for n in neighbours(t, rows, cols) {
                match seen.get_mut(&n) {
                    Some((d, c)) if *d == depth => *c += paths,
                    Some(_) => {}
                    None => {
                        seen.insert(n.clone(), (depth, paths));
                        next.push(n);
                    }
                }
            }
        }
        layer = next;
    }
    seen
}

/// An additive pattern database over `g`'s tiles in goal order, cut into patterns of `sizes`
/// tiles (e.g. `[5, 5, 5]` is pdb555 on 4×4), built here.
pub fn pdb(g: &Goal, sizes: &[usize]) -> npuzzle::heuristic::HeuristicSpec {
    use npuzzle::heuristic::pdb::builder::build_partition;
    use npuzzle::heuristic::pdb::{AdditivePdb, contiguous_partition};
    use std::sync::Arc;
    let parts = contiguous_partition(g, sizes).unwrap();
    let tables = build_partition(g, &parts, 1 << 30, &|_| true).unwrap();
    npuzzle::heuristic::HeuristicSpec::Pdb(Arc::new(
        AdditivePdb::new("test", g, tables.into_iter().map(Arc::new).collect()).unwrap(),
    ))
}

/// The maximum over the catalogue `text` (e.g. `pdbmax:5,5,5|1 4 5 8 9/2 3 6 7 10/11 12 13
/// 14 15`) for `g`, its tables built here.
pub fn catalogue(g: &Goal, text: &str) -> std::sync::Arc<npuzzle::heuristic::pdb::PdbMax> {
    use npuzzle::heuristic::pdb::builder::build_partition;
    use npuzzle::heuristic::pdb::{CatalogueSpec, PdbMax};
    let spec = CatalogueSpec::parse(text).unwrap();
    let layout = spec.layout(g).unwrap();
    let tables = build_partition(g, &layout.tables, 1 << 30, &|_| true).unwrap();
    let tables = tables.into_iter().map(std::sync::Arc::new).collect();
    std::sync::Arc::new(PdbMax::new(&spec.name(), g, tables, layout.partitions).unwrap())
}
