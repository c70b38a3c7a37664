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

/// Pattern databases: building the 5-5-5 tables, and IDA* with them on Korf #12 and #9 (one
/// search thread, so figures compare across machines).
fn pattern_databases(c: &mut Criterion) {
    use npuzzle::heuristic::pdb::builder::build_partition;
    use npuzzle::heuristic::pdb::{AdditivePdb, PartitionSpec};
    use std::sync::Arc;
    let mut group = c.benchmark_group("pdb");
    group.sample_size(10);
    let goal = GoalSpec::BlankFirst.resolve(4, 4).unwrap();
    let parts = PartitionSpec::Named("pdb555".into())
        .patterns(&goal)
        .unwrap();
    group.bench_function("build_pdb555", |b| {
        b.iter(|| build_partition(&goal, &parts, 1 << 30, &|_| true).unwrap())
    });
    let tables = build_partition(&goal, &parts, 1 << 30, &|_| true).unwrap();
    let pdb = Arc::new(
        AdditivePdb::new("pdb555", &goal, tables.into_iter().map(Arc::new).collect()).unwrap(),
    );
    let limits = Limits {
        threads: 1,
        ..Limits::default()
    };
    for (name, board, len) in [
        ("korf12", "14 1 9 6/4 8 12 5/7 2 3 0/10 11 13 15", 45),
        ("korf9", "3 14 9 11/5 4 8 2/13 12 6 7/10 1 15 0", 46),
    ] {
        let p = problem(board, GoalSpec::BlankFirst);
        group.bench_function(format!("{name}_idastar_pdb555"), |b| {
            b.iter(
                || match solve(&p, Algorithm::IdaStar, pdb.clone(), &limits, &mut |_| {}) {
                    Ok(Outcome::Solved(s)) => assert_eq!(s.moves.len(), len),
                    other => panic!("{other:?}"),
                },
            )
        });
    }
    group.finish();
}

criterion_group!(benches, searches, pattern_databases);
criterion_main!(benches);
