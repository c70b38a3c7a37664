//! Heuristic evaluation: one board at a time and in CPU batches.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use npuzzle::eval::{BatchEvaluator, CpuEvaluator};
use npuzzle::heuristic::HeuristicKind;
use npuzzle::puzzle::GoalSpec;
use npuzzle::puzzle::random::random_solvable;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;

fn single(c: &mut Criterion) {
    let mut group = c.benchmark_group("estimate");
    for (r, cols) in [(3, 3), (4, 4), (5, 5)] {
        let goal = GoalSpec::BlankLast.resolve(r, cols).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let boards: Vec<Vec<u8>> = (0..1024)
            .map(|_| random_solvable(&goal, &mut rng).tiles().to_vec())
            .collect();
        group.throughput(Throughput::Elements(boards.len() as u64));
        for kind in HeuristicKind::ALL {
            if kind.supports(r, cols).is_err() {
                continue;
            }
            let h = kind.build(&goal);
            group.bench_with_input(
                BenchmarkId::new(kind.name(), format!("{r}x{cols}")),
                &boards,
                |b, boards| b.iter(|| boards.iter().map(|t| h.estimate(black_box(t))).sum::<u32>()),
            );
        }
    }
    group.finish();
}

fn batch(c: &mut Criterion) {
    let mut group = c.benchmark_group("cpu_batch_4x4");
    let goal = GoalSpec::BlankFirst.resolve(4, 4).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let n = 16 * 1024;
    let flat: Vec<u8> = (0..n)
        .flat_map(|_| random_solvable(&goal, &mut rng).tiles().to_vec())
        .collect();
    group.throughput(Throughput::Elements(n as u64));
    for kind in [HeuristicKind::Manhattan, HeuristicKind::LinearConflict] {
        for threads in [1, 2] {
            let mut e = CpuEvaluator::new(kind, &goal, threads);
            let mut out = Vec::new();
            group.bench_function(BenchmarkId::new(kind.name(), threads), |b| {
                b.iter(|| e.evaluate(black_box(&flat), &mut out).unwrap())
            });
        }
    }
    group.finish();
}

criterion_group!(benches, single, batch);
criterion_main!(benches);
