//! Solvability against breadth-first reachability, for every shape parity and both goals.

mod common;

use common::{all_permutations, board, exact_distances, goal};
use npuzzle::puzzle::random::random_walk;
use npuzzle::puzzle::{Board, GoalSpec, Move, Solvability};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const GOALS: [GoalSpec; 2] = [GoalSpec::BlankLast, GoalSpec::BlankFirst];

/// Checks the verdict on every permutation against BFS reachability from the goal; returns the
/// boards with their reachability for further checks.
fn check_exhaustive(rows: usize, cols: usize, spec: &GoalSpec) -> Vec<(Vec<u8>, bool)> {
    let g = goal(spec, rows, cols);
    let reach = exact_distances(g.board());
    let n = rows * cols;
    let mut out = Vec::new();
    let mut solvable = 0;
    for p in all_permutations(n) {
        let b = board(rows, cols, &p);
        let truth = reach.contains_key(&p);
        assert_eq!(
            Solvability::of(&b, &g).solvable,
            truth,
            "{rows}×{cols} {} goal: {b}",
            spec.name()
        );
        solvable += usize::from(truth);
        out.push((p, truth));
    }
    // Exactly half of all boards are reachable.
    assert_eq!(solvable * 2, out.len());
    out
}

#[test]
fn exhaustive_2x2_2x3_3x2_2x4_4x2_both_goals() {
    for (r, c) in [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2)] {
        for spec in &GOALS {
            check_exhaustive(r, c, spec);
        }
    }
}

#[test]
fn exhaustive_3x3_both_goals() {
    for spec in &GOALS {
        check_exhaustive(3, 3, spec);
    }
}

/// The textbook rule with the blank's row counted from the bottom (1-based), as usually copied
/// for a blank-last goal: even width → solvable iff inversions + row-from-bottom is odd.
fn row_from_bottom_rule(b: &Board) -> bool {
    let tiles: Vec<usize> = b
        .tiles()
        .iter()
        .filter(|&&t| t != 0)
        .map(|&t| t as usize)
        .collect();
    let inv = npuzzle::puzzle::parity::count_inversions(&tiles);
    if b.cols() % 2 == 1 {
        inv.is_multiple_of(2)
    } else {
        let from_bottom = b.rows() - b.blank() / b.cols();
        (inv + from_bottom as u64) % 2 == 1
    }
}

#[test]
fn row_from_bottom_rule_fails_for_blank_first_goal() {
    // Sanity: the rule is right for blank-last on these shapes …
    for (r, c) in [(2, 2), (3, 2), (2, 4), (4, 2)] {
        for (p, truth) in check_exhaustive(r, c, &GoalSpec::BlankLast) {
            assert_eq!(row_from_bottom_rule(&board(r, c, &p)), truth);
        }
    }
    // … and wrong for blank-first: it rejects solvable boards (with an even number of rows,
    // the blank-first goal itself has its blank an even number of rows from the bottom).
    for (r, c) in [(2, 2), (2, 4), (4, 2)] {
        let wrong_rejects = check_exhaustive(r, c, &GoalSpec::BlankFirst)
            .into_iter()
            .filter(|(p, truth)| *truth && !row_from_bottom_rule(&board(r, c, p)))
            .count();
        assert!(
            wrong_rejects > 0,
            "{r}×{c}: the copied rule should reject solvable boards"
        );
    }
}

#[test]
fn odd_side_rule_is_wrong_for_4_wide_3_high() {
    let g = goal(&GoalSpec::BlankLast, 3, 4);
    let b: Board = "1 2 3 4/5 6 7 0/9 10 11 8".parse().unwrap();
    // One move from the goal.
    let mut one = b.clone();
    one.apply(Move::Down).unwrap();
    assert_eq!(&one, g.board());
    let v = Solvability::of(&b, &g);
    assert!(v.solvable);
    // "Solvable iff the inversion count is even whenever a side is odd" says no (3 inversions).
    assert_eq!(v.start_inversions, 3);
    assert!(!v.reason().is_empty());
}

/// 4×3 and 3×4: random walks are solvable, and swapping two tiles flips the verdict.
#[test]
fn rectangular_4x3_and_3x4_sampled() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for (r, c) in [(4, 3), (3, 4)] {
        for spec in &GOALS {
            let g = goal(spec, r, c);
            for _ in 0..500 {
                let k = rng.random_range(0..80);
                let b = random_walk(&g, k, &mut rng);
                assert!(
                    Solvability::of(&b, &g).solvable,
                    "{b} is a walk from the goal"
                );
                let mut t = b.tiles().to_vec();
                let nz: Vec<usize> = (0..t.len()).filter(|&i| t[i] != 0).collect();
                let (i, j) = (nz[0], nz[rng.random_range(1..nz.len())]);
                t.swap(i, j);
                let swapped = board(r, c, &t);
                assert!(
                    !Solvability::of(&swapped, &g).solvable,
                    "{swapped} is one transposition away from a solvable board"
                );
            }
        }
    }
}

#[test]
fn custom_goal_and_size_mismatch() {
    let custom: Board = "1 2 3/4 0 5/6 7 8".parse().unwrap();
    let g = GoalSpec::Board(custom.clone()).resolve(3, 3).unwrap();
    assert!(Solvability::of(&custom, &g).solvable);
    let mut near = custom.clone();
    near.apply(Move::Left).unwrap();
    assert!(Solvability::of(&near, &g).solvable);
    assert!(GoalSpec::Board(custom.clone()).resolve(4, 4).is_err());
    // A goal board is named by the spec it is, for any shape.
    assert_eq!(GoalSpec::of_board(&custom), GoalSpec::Board(custom));
    for (r, c) in [(3, 3), (4, 4), (2, 5)] {
        for spec in GOALS {
            let g = spec.resolve(r, c).unwrap();
            assert_eq!(GoalSpec::of_board(g.board()), spec, "{r}×{c}");
        }
    }
}
