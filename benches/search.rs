//! Searches on fixed boards: IDA* on 15-puzzles, A* and IDA* on the hardest 8-puzzle.

use criterion::{Criterion, criterion_group, criterion_main};
use npuzzle::heuristic::HeuristicKind;
use npuzzle::puzzle::{Board, GoalSpec};
use npuzzle::search::{Algorithm, Limits, Outcome, Problem, solve};

fn problem(s: &str, spec: GoalSpec) -> Problem {
    let start: Board = s.parse().unwrap();
    let goal = spec.resolve(start.rows(), start.cols()).unwrap();
    Problem { start, goal }
}

fn length(p: &Problem, a: Algorithm, h: HeuristicKind) -> usize {
    match solve(p, a, h, &Limits::default(), &mut |_| {}) {
        Ok(Outcome::Solved(s)) => s.moves.len(),
        other => panic!("{other:?}"),
    }
}

fn searches(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    let hard8 = problem("8 6 7/2 5 4/3 0 1", GoalSpec::BlankLast);
    for (name, a) in [("astar", Algorithm::AStar), ("idastar", Algorithm::IdaStar)] {
        group.bench_function(format!("hard8_{name}_lc"), |b| {
            b.iter(|| assert_eq!(length(&hard8, a, HeuristicKind::LinearConflict), 31))
        });
    }
    // Korf #12 (45 moves) and #9 (46 moves), blank-first goal.
    let k12 = problem(
        "14 1 9 6/4 8 12 5/7 2 3 0/10 11 13 15",
        GoalSpec::BlankFirst,
    );
    let k9 = problem(
        "3 14 9 11/5 4 8 2/13 12 6 7/10 1 15 0",
        GoalSpec::BlankFirst,
    );
    for (name, p, len) in [("korf12", &k12, 45), ("korf9", &k9, 46)] {
        for h in [HeuristicKind::Manhattan, HeuristicKind::LinearConflict] {
            group.bench_function(format!("{name}_idastar_{}", h.name()), |b| {
                b.iter(|| assert_eq!(length(p, Algorithm::IdaStar, h), len))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, searches);
criterion_main!(benches);
