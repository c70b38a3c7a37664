//! Boards per second of the batch evaluators (CPU 1 and 2 threads, GPU) at batch sizes 1k,
//! 16k, 256k and 1M on 4×4 boards, per heuristic; and batched A* against A* on 15-puzzles.
//! Set `NPUZZLE_BENCH_QUICK=1` to run only 1k and 16k.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use npuzzle::eval::gpu::{GpuContext, GpuEvaluator};
use npuzzle::eval::{BatchEvaluator, CpuEvaluator};
use npuzzle::heuristic::HeuristicKind;
use npuzzle::puzzle::random::random_solvable;
use npuzzle::puzzle::{Board, GoalSpec};
use npuzzle::search::{Algorithm, Batch, Engine, Limits, Outcome, Problem, run, solve};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn evaluators(c: &mut Criterion) {
    let ctx = GpuContext::new().ok();
    match &ctx {
        Some(ctx) => eprintln!("GPU adapter: {}", ctx.describe()),
        None => eprintln!("no GPU adapter: GPU rows skipped"),
    }
    let goal = GoalSpec::BlankFirst.resolve(4, 4).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let sizes: &[usize] = if std::env::var_os("NPUZZLE_BENCH_QUICK").is_some() {
        &[1 << 10, 1 << 14]
    } else {
        &[1 << 10, 1 << 14, 1 << 18, 1 << 20]
    };
    let max = *sizes.last().unwrap();
    let flat: Vec<u8> = (0..max)
        .flat_map(|_| random_solvable(&goal, &mut rng).tiles().to_vec())
        .collect();
    for kind in HeuristicKind::ALL {
        let mut group = c.benchmark_group(format!("eval_4x4_{}", kind.name()));
        group.sample_size(10);
        for &n in sizes {
            let boards = &flat[..n * 16];
            group.throughput(Throughput::Elements(n as u64));
            let mut out = Vec::new();
            for threads in [1, 2] {
                let mut e = CpuEvaluator::new(kind, &goal, threads);
                group.bench_with_input(BenchmarkId::new(format!("cpu{threads}"), n), &n, |b, _| {
                    b.iter(|| e.evaluate(black_box(boards), &mut out).unwrap())
                });
            }
            if let Some(ctx) = ctx
                .as_ref()
                .filter(|_| GpuEvaluator::kind_code(kind).is_some())
            {
                let mut e = GpuEvaluator::new(ctx.clone(), kind, &goal).unwrap();
                group.bench_with_input(BenchmarkId::new("gpu", n), &n, |b, _| {
                    b.iter(|| e.evaluate(black_box(boards), &mut out).unwrap())
                });
            }
        }
        group.finish();
    }
}

fn searches(c: &mut Criterion) {
    let ctx = GpuContext::new().ok();
    let mut group = c.benchmark_group("batched_vs_astar");
    group.sample_size(10);
    // Korf #12 (45 moves) and #9 (46 moves), blank-first goal.
    for (name, s, len) in [
        ("korf12", "14 1 9 6/4 8 12 5/7 2 3 0/10 11 13 15", 45),
        ("korf9", "3 14 9 11/5 4 8 2/13 12 6 7/10 1 15 0", 46),
    ] {
        let start: Board = s.parse().unwrap();
        let goal = GoalSpec::BlankFirst.resolve(4, 4).unwrap();
        let p = Problem { start, goal };
        let kind = HeuristicKind::LinearConflict;
        let len_of = |o: Outcome| match o {
            Outcome::Solved(s) => s.moves.len(),
            Outcome::Unsolvable(_) => 0,
        };
        group.bench_function(format!("{name}_astar"), |b| {
            b.iter(|| {
                let o = solve(&p, Algorithm::AStar, kind, &Limits::default(), &mut |_| {});
                assert_eq!(len_of(o.unwrap()), len)
            })
        });
        let mut cpu = CpuEvaluator::new(kind, &p.goal, 2);
        group.bench_function(format!("{name}_batched_cpu2"), |b| {
            b.iter(|| {
                let batch = Batch {
                    evaluator: &mut cpu,
                    size: npuzzle::search::batched_astar::DEFAULT_BATCH_SIZE,
                };
                let o = run(
                    &p,
                    Engine::Batched { batch, from: None },
                    &Limits::default(),
                    &mut |_| {},
                );
                assert_eq!(len_of(o.unwrap()), len)
            })
        });
        if let Some(ctx) = &ctx {
            let mut gpu = GpuEvaluator::new(ctx.clone(), kind, &p.goal).unwrap();
            group.bench_function(format!("{name}_batched_gpu"), |b| {
                b.iter(|| {
                    let batch = Batch {
                        evaluator: &mut gpu,
                        size: npuzzle::search::batched_astar::DEFAULT_BATCH_SIZE,
                    };
                    let o = run(
                        &p,
                        Engine::Batched { batch, from: None },
                        &Limits::default(),
                        &mut |_| {},
                    );
                    assert_eq!(len_of(o.unwrap()), len)
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, evaluators, searches);
criterion_main!(benches);
