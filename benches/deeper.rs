//! The deeper solver's figures: the move-pruning automaton (its build; IDA* with it and with
//! "never undo"), all optimal solutions, and, when their tables are in the cache (built by
//! `npuzzle pdb build pdb78 --goal blank-last` and `npuzzle pdb build pdb6666 --goal
//! blank-first`; skipped with a line otherwise, as building them takes minutes), IDA* on one
//! thread on an 80-move 15-puzzle and on the easiest of Korf & Felner's 24-puzzles. Whole
//! sets: `npuzzle bench assets/bench/hard15.txt --goal blank-last --heuristic pdb78 --jobs 1`
//! and the benchmark table in docs/benchmarks.md.

use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use npuzzle::heuristic::pdb::PartitionSpec;
use npuzzle::heuristic::pdb::cache::PdbCache;
use npuzzle::heuristic::{HeuristicKind, HeuristicSpec, is_cached};
use npuzzle::puzzle::{Board, GoalSpec};
use npuzzle::search::{Algorithm, Limits, MoveFsm, Outcome, Problem, Pruning, solve};

fn problem(s: &str, spec: GoalSpec) -> Problem {
    let start: Board = s.parse().unwrap();
    let goal = spec.resolve(start.rows(), start.cols()).unwrap();
    Problem { start, goal }
}

/// Solves on one thread and checks the length (and, with `all`, the count of solutions).
fn check(p: &Problem, a: Algorithm, h: HeuristicSpec, limits: &Limits, len: usize) -> u64 {
    match solve(p, a, h, limits, &mut |_| {}) {
        Ok(Outcome::Solved(s)) => {
            assert_eq!(s.moves.len(), len);
            s.all.map_or(1, |all| all.count)
        }
        other => panic!("{other:?}"),
    }
}

fn pruning(c: &mut Criterion) {
    let mut group = c.benchmark_group("pruning");
    group.sample_size(10);
    group.bench_function("build_fsm_4x4_depth14", |b| {
        b.iter(|| assert!(MoveFsm::new(4, 4, 14).states() > 20_000))
    });
    // The bundled default puzzle: 50 moves.
    let default = problem("9 6 15 2/11 7 3 10/14 12 0 8/13 1 5 4", GoalSpec::BlankLast);
    for p in [Pruning::Undo, Pruning::Fsm] {
        let limits = Limits {
            pruning: p,
            ..Limits::default()
        };
        let lc = HeuristicSpec::Kind(HeuristicKind::LinearConflict);
        group.bench_function(format!("default_idastar_lc_{p}"), |b| {
            b.iter(|| check(&default, Algorithm::IdaStar, lc.clone(), &limits, 50))
        });
    }
    group.finish();
}

fn all_solutions(c: &mut Criterion) {
    let mut group = c.benchmark_group("all_solutions");
    group.sample_size(10);
    let hard8 = problem("8 6 7/2 5 4/3 0 1", GoalSpec::BlankLast);
    let limits = Limits {
        all_solutions: Some(1000),
        ..Limits::default()
    };
    for (name, a) in [("astar", Algorithm::AStar), ("idastar", Algorithm::IdaStar)] {
        let lc = HeuristicSpec::Kind(HeuristicKind::LinearConflict);
        group.bench_function(format!("hard8_{name}_lc"), |b| {
            b.iter(|| assert_eq!(check(&hard8, a, lc.clone(), &limits, 31), 40))
        });
    }
    group.finish();
}

/// The cached tables of `name` for `p`'s goal, or `None` (with a line saying how to build them).
fn cached(name: &str, p: &Problem) -> Option<HeuristicSpec> {
    let cache = PdbCache::new(None).ok()?;
    let spec = PartitionSpec::Named(name.into());
    if !is_cached(&cache, &p.goal, &spec) {
        eprintln!(
            "skipped: {name} for the {} goal is not cached (npuzzle pdb build {name} --goal {})",
            p.goal.name(),
            p.goal.name()
        );
        return None;
    }
    let (pdb, _) = cache
        .load_partition(&p.goal, &spec, u64::MAX, &|_, _, _| true, &|w| {
            eprintln!("{w}")
        })
        .ok()?;
    Some(HeuristicSpec::Pdb(Arc::clone(&pdb)))
}

fn hardest(c: &mut Criterion) {
    let mut group = c.benchmark_group("hardest");
    group.sample_size(10);
    let limits = Limits::default();
    // hard15.txt #14 (80 moves) and #1 of Korf & Felner's 24-puzzles in difficulty order (id 38).
    let b80 = problem("0 12 10 13/15 11 14 9/7 8 6 2/4 3 5 1", GoalSpec::BlankLast);
    if let Some(h) = cached("pdb78", &b80) {
        group.bench_function("hard15_14_idastar_pdb78", |b| {
            b.iter(|| check(&b80, Algorithm::IdaStar, h.clone(), &limits, 80))
        });
    }
    let k38 = problem(
        "10 3 24 12 0/7 8 11 14 21/22 23 2 1 9/17 18 6 20 4/13 15 5 19 16",
        GoalSpec::BlankFirst,
    );
    if let Some(h) = cached("pdb6666", &k38) {
        group.sample_size(10);
        group.bench_function("korf24_38_idastar_pdb6666", |b| {
            b.iter(|| check(&k38, Algorithm::IdaStar, h.clone(), &limits, 96))
        });
    }
    group.finish();
}

criterion_group!(benches, pruning, all_solutions, hardest);
criterion_main!(benches);
