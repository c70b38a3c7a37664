//! IDA*'s move pruning (`Limits::pruning`): the duplicate-sequence automaton (Taylor & Korf
//! 1993) against "never undo" on whole small spaces: the same optimal lengths (against an
//! independent breadth-first search), solutions that replay to the goal, the automaton passing
//! every board's lexicographically first optimal path (the path its proof keeps), never more
//! nodes in an iteration of the same threshold, and fewer nodes over the whole space; on 4×4
//! and 5×5 boards, the same lengths with fewer nodes.

mod common;

use common::{board, exact_distances, goal, korf100};
use npuzzle::heuristic::HeuristicKind;
use npuzzle::puzzle::random::random_walk;
use npuzzle::puzzle::{Board, GoalSpec, Move};
use npuzzle::search::move_fsm::fsm_depth;
use npuzzle::search::{Algorithm, Limits, MoveFsm, Outcome, Problem, Pruning, Solution, solve};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn ida(p: &Problem, h: HeuristicKind, pruning: Pruning, threads: usize) -> Solution {
    let limits = Limits {
        pruning,
        threads,
        ..Limits::default()
    };
    match solve(p, Algorithm::IdaStar, h, &limits, &mut |_| {}).unwrap() {
        Outcome::Solved(s) => s,
        Outcome::Unsolvable(_) => panic!("{} is solvable", p.start),
    }
}

/// The lexicographically first optimal solution (in [`Move::ALL`] order): the one the search
/// for all optimal solutions lists first.
fn first_optimal(p: &Problem) -> Vec<Move> {
    let limits = Limits {
        all_solutions: Some(1),
        ..Limits::default()
    };
    match solve(
        p,
        Algorithm::IdaStar,
        HeuristicKind::Manhattan,
        &limits,
        &mut |_| {},
    )
    .unwrap()
    {
        Outcome::Solved(s) => s.all.expect("all solutions asked for").solutions[0].clone(),
        Outcome::Unsolvable(_) => panic!("{} is solvable", p.start),
    }
}

/// The board reached from `start` by the blank's `moves`.
fn replay(start: &Board, moves: &[Move]) -> Board {
    moves
        .iter()
        .fold(start.clone(), |b, &m| b.moved(m).expect("a legal move"))
}

/// Compares the two prunings on every board of the space of `rows × cols` (every `stride`-th
/// for 3×3), both goals; returns the nodes expanded by each over the space.
fn whole_space(rows: usize, cols: usize, stride: usize, h: HeuristicKind) -> (u64, u64) {
    let (mut undo_total, mut fsm_total) = (0, 0);
    let machine = MoveFsm::new(rows, cols, fsm_depth(rows * cols));
    for spec in [GoalSpec::BlankLast, GoalSpec::BlankFirst] {
        let g = goal(&spec, rows, cols);
        let mut boards: Vec<(Vec<u8>, u32)> = exact_distances(g.board()).into_iter().collect();
        boards.sort();
        for (tiles, dist) in boards.into_iter().step_by(stride) {
            let p = Problem {
                start: board(rows, cols, &tiles),
                goal: g.clone(),
            };
            let undo = ida(&p, h, Pruning::Undo, 1);
            let fsm = ida(&p, h, Pruning::Fsm, 1);
            assert_eq!(fsm.moves.len() as u32, dist, "{}: length", p.start);
            assert_eq!(undo.moves.len() as u32, dist, "{}: length", p.start);
            for s in [&fsm, &undo] {
                assert_eq!(replay(&p.start, &s.moves), *g.board(), "{}", p.start);
            }
            // The lexicographically first optimal path (the first that the search for all
            // solutions lists) passes the automaton.
            assert!(machine.accepts(&first_optimal(&p)), "{}", p.start);
            // The iterations below the optimal cost are complete: the same tree, less what
            // the automaton prunes. (The last one stops at the first goal it meets, which
            // depends on the order of the search.)
            let complete = fsm
                .stats
                .iterations
                .split_last()
                .map_or(&[][..], |(_, c)| c);
            for f in complete {
                if let Some(u) = undo
                    .stats
                    .iterations
                    .iter()
                    .find(|u| u.threshold == f.threshold)
                {
                    assert!(
                        f.expanded <= u.expanded && f.generated <= u.generated,
                        "{}: threshold {}: fsm {f:?} > undo {u:?}",
                        p.start,
                        f.threshold
                    );
                }
            }
            undo_total += undo.stats.expanded;
            fsm_total += fsm.stats.expanded;
        }
    }
    (undo_total, fsm_total)
}

#[test]
fn automaton_keeps_the_optimum_on_whole_small_spaces() {
    for (rows, cols, stride) in [(2, 3, 1), (3, 2, 1), (2, 4, 1), (4, 2, 1), (3, 3, 7)] {
        let (undo, fsm) = whole_space(rows, cols, stride, HeuristicKind::Manhattan);
        assert!(
            fsm < undo,
            "{rows}×{cols}: {fsm} expanded with the automaton, {undo} without"
        );
    }
}

#[test]
fn automaton_keeps_the_optimum_with_linear_conflict_on_3x3() {
    let (undo, fsm) = whole_space(3, 3, 11, HeuristicKind::LinearConflict);
    assert!(fsm < undo);
}

#[test]
fn automaton_saves_nodes_on_4x4_and_5x5() {
    let k = korf100();
    let g = goal(&GoalSpec::BlankFirst, 4, 4);
    let (mut undo_total, mut fsm_total) = (0, 0);
    // The three shortest Korf instances, and 5×5 walks.
    let mut shortest: Vec<_> = k.iter().collect();
    shortest.sort_by_key(|(_, _, opt)| *opt);
    for (id, tiles, opt) in shortest.into_iter().take(3) {
        let p = Problem {
            start: board(4, 4, tiles),
            goal: g.clone(),
        };
        let undo = ida(&p, HeuristicKind::LinearConflict, Pruning::Undo, 1);
        let fsm = ida(&p, HeuristicKind::LinearConflict, Pruning::Fsm, 2);
        assert_eq!(fsm.moves.len() as u32, *opt, "Korf #{id}");
        assert_eq!(undo.moves.len() as u32, *opt, "Korf #{id}");
        undo_total += undo.stats.expanded;
        fsm_total += fsm.stats.expanded;
    }
    // Fewer than two thirds of the nodes (measured: about half).
    assert!(
        3 * fsm_total < 2 * undo_total,
        "{fsm_total} vs {undo_total}"
    );
    let g5 = goal(&GoalSpec::BlankLast, 5, 5);
    let mut rng = ChaCha8Rng::seed_from_u64(25);
    for _ in 0..3 {
        let start: Board = random_walk(&g5, 60, &mut rng);
        let p = Problem {
            start: start.clone(),
            goal: g5.clone(),
        };
        let undo = ida(&p, HeuristicKind::LinearConflict, Pruning::Undo, 1);
        let fsm = ida(&p, HeuristicKind::LinearConflict, Pruning::Fsm, 1);
        assert_eq!(fsm.moves.len(), undo.moves.len(), "{start}");
        assert_eq!(replay(&start, &fsm.moves), *g5.board(), "{start}");
        assert!(fsm.stats.expanded <= undo.stats.expanded, "{start}");
    }
}
