//! Greedy best-first search, weighted A* and the heuristic that overestimates (issue 43 §4):
//! every answer replayed move by move, never shorter than the optimum (BFS's, an independent
//! search), weighted A* within w times it, and the shipped example longer than the optimum.

use npuzzle::heuristic::HeuristicKind;
use npuzzle::puzzle::{Board, GoalSpec};
use npuzzle::search::{Algorithm, Limits, Outcome, Problem, Weight, replay, solve};

fn length(p: &Problem, a: Algorithm, h: HeuristicKind) -> usize {
    let Outcome::Solved(s) = solve(p, a, h, &Limits::default(), &mut |_| {}).unwrap() else {
        panic!("solvable")
    };
    replay(&p.start, p.goal.board(), &s.moves).expect("replays to the goal");
    s.moves.len()
}

#[test]
fn lengths_are_at_least_the_optimum_and_weighted_within_w() {
    let goal = GoalSpec::BlankLast.resolve(3, 3).unwrap();
    for b in [
        "2 7 0/8 1 5/3 6 4",
        "4 5 6/8 2 7/1 0 3",
        "6 4 0/8 5 3/1 2 7",
        "8 6 7/2 5 4/3 0 1",
        "1 2 3/4 5 6/7 0 8",
    ] {
        let p = Problem {
            start: b.parse::<Board>().unwrap(),
            goal: goal.clone(),
        };
        let optimum = length(&p, Algorithm::Bfs, HeuristicKind::Manhattan);
        assert!(
            length(&p, Algorithm::Greedy, HeuristicKind::Manhattan) >= optimum,
            "{b}"
        );
        for t in [10, 15, 20, 30, 50] {
            let w = Weight::from_tenths(t);
            let n = length(
                &p,
                Algorithm::WeightedAStar(w),
                HeuristicKind::LinearConflict,
            );
            assert!(
                n >= optimum && n * 10 <= optimum * t as usize,
                "{b} w {w}: {n} vs {optimum}"
            );
        }
        let over = length(&p, Algorithm::AStar, HeuristicKind::OverestimatingManhattan);
        assert!(over >= optimum, "{b}");
    }
}

#[test]
fn the_shipped_example_gets_a_longer_path_with_the_overestimate() {
    let text = std::fs::read_to_string("assets/examples/overestimate.txt").unwrap();
    let inst = npuzzle::puzzle::parse::parse_puzzles(&text, "overestimate.txt", None).unwrap();
    let goal = GoalSpec::BlankLast.resolve(3, 3).unwrap();
    let p = Problem {
        start: inst[0].board.clone(),
        goal,
    };
    let optimum = length(&p, Algorithm::Bfs, HeuristicKind::Manhattan);
    assert_eq!(Some(optimum as u32), inst[0].optimal);
    assert_eq!(
        length(&p, Algorithm::AStar, HeuristicKind::LinearConflict),
        optimum
    );
    assert_eq!(
        length(&p, Algorithm::AStar, HeuristicKind::OverestimatingManhattan),
        34
    );
    assert!(optimum < 34);
}
