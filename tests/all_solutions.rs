//! All optimal solutions (`Limits::all_solutions`, `npuzzle solve --all`): the count against an
//! independent breadth-first search that counts shortest paths, over samples of whole small
//! spaces for both goals; every listed solution distinct, optimal and replayed; the same list
//! from IDA* (one and two threads), A* and BFS; IDA* with pattern databases on 4×4 against IDA*
//! with linear conflict and A*.

mod common;

use common::{board, goal, pdb, replay, shortest_path_counts};
use npuzzle::heuristic::{HeuristicKind, HeuristicSpec};
use npuzzle::puzzle::random::random_walk;
use npuzzle::puzzle::{Board, GoalSpec, Move};
use npuzzle::search::{Algorithm, AllSolutions, Limits, Outcome, Problem, solve};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn all(
    problem: &Problem,
    algorithm: Algorithm,
    h: impl Into<HeuristicSpec>,
    keep: usize,
    threads: usize,
) -> (Vec<Move>, AllSolutions) {
    let limits = Limits {
        all_solutions: Some(keep),
        threads,
        ..Limits::default()
    };
    match solve(problem, algorithm, h, &limits, &mut |_| {}).unwrap() {
        Outcome::Solved(s) => (s.moves, s.all.expect("all solutions asked for")),
        Outcome::Unsolvable(_) => panic!("{} is solvable", problem.start),
    }
}

/// Checks `found` for `start`: the count, and every listed solution distinct, of the optimal
/// length, replaying to the goal, in move order, as many as asked (or all).
fn check(start: &Board, goal: &Board, found: &AllSolutions, dist: u32, count: u64, keep: usize) {
    assert_eq!(found.count, count, "{start}: count");
    assert!(found.count_is_exact);
    assert_eq!(
        found.solutions.len() as u64,
        count.min(keep as u64),
        "{start}"
    );
    for s in &found.solutions {
        assert_eq!(s.len() as u32, dist, "{start}: {s:?}");
        assert_eq!(&replay(start, s), goal, "{start}: {s:?} does not replay");
    }
    assert!(
        found.solutions.windows(2).all(|w| w[0] < w[1]),
        "{start}: not distinct and in move order"
    );
}

/// A sample of every `stride`-th board of the whole space of `goal`'s shape.
fn sample(goal: &Board, stride: usize) -> Vec<(Vec<u8>, u32, u64)> {
    let counts = shortest_path_counts(goal);
    let mut boards: Vec<_> = counts.into_iter().map(|(t, (d, c))| (t, d, c)).collect();
    boards.sort();
    boards.into_iter().step_by(stride).collect()
}

#[test]
fn counts_equal_the_breadth_first_path_counts_on_3x3_and_2x4() {
    let mut checked = 0;
    let mut many = 0;
    for spec in [GoalSpec::BlankLast, GoalSpec::BlankFirst] {
        for (rows, cols, stride) in [(3, 3, 1500), (2, 4, 150)] {
            let g = goal(&spec, rows, cols);
            for (tiles, dist, count) in sample(g.board(), stride) {
                let start = board(rows, cols, &tiles);
                let p = Problem {
                    start: start.clone(),
                    goal: g.clone(),
                };
                let keep = 3;
                let (moves, ida) = all(
                    &p,
                    Algorithm::IdaStar,
                    HeuristicKind::LinearConflict,
                    keep,
                    1,
                );
                check(&start, g.board(), &ida, dist, count, keep);
                assert_eq!(
                    Some(&moves),
                    ida.solutions.first(),
                    "{start}: first solution"
                );
                // The same list from every search.
                let (_, ida2) = all(&p, Algorithm::IdaStar, HeuristicKind::Manhattan, keep, 2);
                let (_, astar) = all(&p, Algorithm::AStar, HeuristicKind::Manhattan, keep, 1);
                let (_, bfs) = all(&p, Algorithm::Bfs, HeuristicKind::Manhattan, keep, 1);
                for (name, other) in [("ida* on 2 threads", ida2), ("a*", astar), ("bfs", bfs)] {
                    assert_eq!(other, ida, "{start}: {name} differs from IDA*");
                }
                checked += 1;
                many += usize::from(count > keep as u64);
            }
        }
    }
    assert!(checked > 500, "{checked} boards");
    assert!(
        many > 50,
        "only {many} boards with more solutions than listed"
    );
}

#[test]
fn every_solution_is_listed_when_the_list_is_long_enough() {
    let g = goal(&GoalSpec::BlankLast, 3, 3);
    // 31 moves, the farthest 3×3 boards.
    for s in ["8 6 7/2 5 4/3 0 1", "6 4 7/8 5 0/3 2 1"] {
        let start: Board = s.parse().unwrap();
        let counts = shortest_path_counts(g.board());
        let (dist, count) = counts[start.tiles()];
        let p = Problem {
            start: start.clone(),
            goal: g.clone(),
        };
        let (_, found) = all(
            &p,
            Algorithm::IdaStar,
            HeuristicKind::LinearConflict,
            100_000,
            2,
        );
        check(&start, g.board(), &found, dist, count, 100_000);
        // None listed: still counted, and the answer is still the first of them.
        for algorithm in [Algorithm::AStar, Algorithm::Bfs, Algorithm::IdaStar] {
            let (moves, none) = all(&p, algorithm, HeuristicKind::LinearConflict, 0, 1);
            assert_eq!(none.count, count, "{algorithm}");
            assert!(none.solutions.is_empty(), "{algorithm}");
            assert_eq!(moves, found.solutions[0], "{algorithm}");
        }
    }
}

#[test]
fn pattern_databases_count_as_linear_conflict_and_astar_on_4x4() {
    let g = goal(&GoalSpec::BlankFirst, 4, 4);
    let pdb = pdb(&g, &[5, 5, 5]);
    let mut rng = ChaCha8Rng::seed_from_u64(15);
    for walk in [24, 30, 36] {
        let start = random_walk(&g, walk, &mut rng);
        let p = Problem {
            start: start.clone(),
            goal: g.clone(),
        };
        let (_, by_pdb) = all(&p, Algorithm::IdaStar, pdb.clone(), 50, 2);
        let (_, by_lc) = all(&p, Algorithm::IdaStar, HeuristicKind::LinearConflict, 50, 1);
        let (_, by_astar) = all(&p, Algorithm::AStar, HeuristicKind::LinearConflict, 50, 1);
        assert_eq!(by_pdb, by_lc, "{start}");
        assert_eq!(by_astar, by_lc, "{start}");
        assert!(by_pdb.count >= 1);
    }
}
