//! What the core says of its heuristics and searches (`about`, `is_admissible`,
//! `is_consistent`, `is_optimal`: the app's menus show them), checked against what the code
//! does: each claim holds on every 8-puzzle board, and each claim denied is broken somewhere.

mod common;

use common::{board, exact_distances, goal, neighbours};
use npuzzle::heuristic::{HeuristicChoice, HeuristicKind};
use npuzzle::puzzle::random::random_walk;
use npuzzle::puzzle::{Board, GoalSpec};
use npuzzle::search::{Algorithm, Limits, Outcome, Problem, Weight, solve};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Every heuristic kind, the teaching one included.
fn every_kind() -> Vec<HeuristicKind> {
    let mut all = HeuristicKind::ALL.to_vec();
    all.push(HeuristicKind::OverestimatingManhattan);
    all
}

/// Over the whole 3×3 space: whether `kind` never passes the exact distance, and whether it
/// changes by at most 1 on every move.
fn observed(kind: HeuristicKind, dist: &std::collections::HashMap<Vec<u8>, u32>) -> (bool, bool) {
    let g = goal(&GoalSpec::BlankLast, 3, 3);
    let h = kind.build(&g);
    let (mut admissible, mut consistent) = (true, true);
    for (tiles, &d) in dist {
        let a = h.estimate(tiles);
        admissible &= a <= d;
        for n in neighbours(tiles, 3, 3) {
            consistent &= a.abs_diff(h.estimate(&n)) <= 1;
        }
    }
    (admissible, consistent)
}

#[test]
fn each_kinds_admissible_and_consistent_claims_hold_on_every_8_puzzle_board() {
    let g = goal(&GoalSpec::BlankLast, 3, 3);
    let dist = exact_distances(g.board());
    assert_eq!(dist.len(), 181_440);
    for kind in every_kind() {
        let (admissible, consistent) = observed(kind, &dist);
        assert_eq!(kind.is_admissible(), admissible, "{kind:?} admissible");
        assert_eq!(kind.is_consistent(), consistent, "{kind:?} consistent");
        let choice = HeuristicChoice::Kind(kind);
        assert_eq!(choice.is_admissible(), admissible);
        assert_eq!(choice.is_consistent(), consistent);
        assert_eq!(choice.about(), kind.about());
    }
}

#[test]
fn the_consistent_kinds_change_by_at_most_one_per_move_on_15_puzzle_walks() {
    let g = goal(&GoalSpec::BlankLast, 4, 4);
    let mut rng = ChaCha8Rng::seed_from_u64(40);
    let kinds: Vec<_> = every_kind()
        .into_iter()
        .filter(|k| k.is_consistent())
        .collect();
    assert_eq!(kinds.len(), 5);
    let hs: Vec<_> = kinds.iter().map(|k| k.build(&g)).collect();
    for _ in 0..200 {
        let b = random_walk(&g, 80, &mut rng);
        for n in neighbours(b.tiles(), 4, 4) {
            for (k, h) in kinds.iter().zip(&hs) {
                let (a, c) = (h.estimate(b.tiles()), h.estimate(&n));
                assert!(a.abs_diff(c) <= 1, "{k:?}: {a} then {c}");
            }
        }
    }
}

#[test]
fn every_heuristic_and_search_has_its_words() {
    for kind in every_kind() {
        assert!(kind.about().len() > 30, "{kind:?}");
    }
    for c in [
        HeuristicChoice::Auto,
        "pdb78".parse::<HeuristicChoice>().unwrap(),
    ] {
        assert!(c.about().len() > 30);
        // Admissible always; not said to be consistent (the blank-region flags).
        assert!(c.is_admissible() && !c.is_consistent());
    }
    for a in [
        Algorithm::Auto,
        Algorithm::Bfs,
        Algorithm::AStar,
        Algorithm::IdaStar,
        Algorithm::BatchedAStar,
        Algorithm::GpuIdaStar,
        Algorithm::Greedy,
        Algorithm::WeightedAStar(Weight::DEFAULT),
    ] {
        let about = a.about();
        assert!(about.len() > 30, "{a:?}");
        // The words on optimality agree with the flag.
        assert_eq!(!about.contains(" not "), a.is_optimal(), "{a:?}: {about}");
    }
    assert!(Algorithm::IdaStar.about().contains("little memory"));
}

/// The length `algorithm` finds from `start` to the 3×3 blank-last goal with Manhattan.
fn length(algorithm: Algorithm, start: &Board) -> usize {
    let problem = Problem {
        start: start.clone(),
        goal: goal(&GoalSpec::BlankLast, 3, 3),
    };
    let outcome = solve(
        &problem,
        algorithm,
        HeuristicKind::Manhattan,
        &Limits::default(),
        &mut |_| {},
    )
    .unwrap();
    let Outcome::Solved(s) = outcome else {
        panic!("{start} is solvable")
    };
    s.moves.len()
}

#[test]
fn the_searches_called_optimal_find_optimal_answers_and_the_others_do_not_always() {
    let g = goal(&GoalSpec::BlankLast, 3, 3);
    let dist = exact_distances(g.board());
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let boards: Vec<Board> = (0..40)
        .map(|_| random_walk(&g, 60, &mut rng))
        .chain([board(3, 3, &[8, 6, 7, 2, 5, 4, 3, 0, 1])])
        .collect();
    let heavy = Algorithm::WeightedAStar(Weight::from_tenths(50));
    for a in [
        Algorithm::Bfs,
        Algorithm::AStar,
        Algorithm::IdaStar,
        Algorithm::BatchedAStar,
        Algorithm::GpuIdaStar,
        Algorithm::Greedy,
        heavy,
    ] {
        let longer = boards
            .iter()
            .filter(|b| length(a, b) as u32 > dist[b.tiles()])
            .count();
        if a.is_optimal() {
            assert_eq!(longer, 0, "{a:?} called optimal");
        } else {
            assert!(longer > 0, "{a:?} called not optimal, yet always optimal");
        }
    }
}
