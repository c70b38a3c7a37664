//! Test helpers: an independent breadth-first search over whole state spaces.
#![allow(dead_code)]

use std::collections::{HashMap, VecDeque};

use npuzzle::puzzle::{Board, Goal, GoalSpec, Move};

/// Distances (moves) from every reachable board to `goal`, by a plain BFS written for the
/// tests (no code shared with the library's searches).
pub fn exact_distances(goal: &Board) -> HashMap<Vec<u8>, u32> {
    let (rows, cols) = (goal.rows(), goal.cols());
    let mut dist = HashMap::new();
    let mut queue = VecDeque::new();
    dist.insert(goal.tiles().to_vec(), 0u32);
    queue.push_back(goal.tiles().to_vec());
    while let Some(t) = queue.pop_front() {
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

/// Applies moves to a copy of `start`; panics on an illegal move.
pub fn replay(start: &Board, moves: &[Move]) -> Board {
    let mut b = start.clone();
    for &m in moves {
        assert!(b.apply(m).is_some(), "illegal move {m} on {b}");
    }
    b
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
