//! The GPU evaluator against the CPU, on lavapipe in CI (`NPUZZLE_REQUIRE_GPU=1` makes a
//! missing adapter a failure; elsewhere the tests say loudly that they were skipped).
#![cfg(feature = "gpu")]

mod common;

use std::sync::Arc;

use common::goal;
use common::gpu::context;
use npuzzle::eval::gpu::{GpuContext, GpuError, GpuEvaluator};
use npuzzle::eval::{BatchEvaluator, CpuEvaluator};
use npuzzle::heuristic::HeuristicKind;
use npuzzle::puzzle::GoalSpec;
use npuzzle::puzzle::random::{random_solvable, random_walk};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn boards(spec: &GoalSpec, rows: usize, cols: usize, count: usize, seed: u64) -> Vec<u8> {
    let g = goal(spec, rows, cols);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut flat = Vec::with_capacity(count * rows * cols);
    for i in 0..count {
        // Half uniform, half short walks (many tiles in their lines: linear conflicts).
        let b = if i % 2 == 0 {
            random_solvable(&g, &mut rng)
        } else {
            let k = rng.random_range(0..60);
            random_walk(&g, k, &mut rng)
        };
        flat.extend_from_slice(b.tiles());
    }
    flat
}

fn compare(ctx: &Arc<GpuContext>, rows: usize, cols: usize, count: usize) {
    let n = rows * cols;
    for (i, spec) in [GoalSpec::BlankLast, GoalSpec::BlankFirst]
        .iter()
        .enumerate()
    {
        let g = goal(spec, rows, cols);
        let flat = boards(spec, rows, cols, count, (rows * 100 + cols * 10 + i) as u64);
        for kind in HeuristicKind::ALL {
            if GpuEvaluator::kind_code(kind).is_none() {
                // Refused with a clear error, not computed wrongly.
                let e = GpuEvaluator::new(ctx.clone(), kind, &g).err().unwrap();
                assert!(matches!(e, GpuError::Unsupported(_)), "{e}");
                continue;
            }
            let mut cpu = CpuEvaluator::new(kind, &g, 2);
            let mut gpu = GpuEvaluator::new(ctx.clone(), kind, &g).unwrap();
            assert_eq!(gpu.kind().name(), "gpu");
            let (mut a, mut b) = (Vec::new(), Vec::new());
            cpu.evaluate(&flat, &mut a).unwrap();
            gpu.evaluate(&flat, &mut b).unwrap();
            assert_eq!(a.len(), count);
            assert_eq!(a, b, "{rows}×{cols} {kind} {}", spec.name());
            // Batch sizes that are not multiples of the workgroup size, and a batch of one,
            // on the same (already grown) buffers.
            for m in [1usize, 63, 65, 1000, 4097] {
                let m = m.min(count);
                gpu.evaluate(&flat[..m * n], &mut b).unwrap();
                assert_eq!(&a[..m], &b[..], "{rows}×{cols} {kind} batch {m}");
            }
        }
    }
}

#[test]
fn gpu_equals_cpu_3x3() {
    if let Some(ctx) = context("gpu_equals_cpu_3x3") {
        compare(&ctx, 3, 3, 100_000);
    }
}

#[test]
fn gpu_equals_cpu_4x4() {
    if let Some(ctx) = context("gpu_equals_cpu_4x4") {
        compare(&ctx, 4, 4, 100_000);
    }
}

#[test]
fn gpu_equals_cpu_5x5() {
    if let Some(ctx) = context("gpu_equals_cpu_5x5") {
        compare(&ctx, 5, 5, 100_000);
    }
}

#[test]
fn gpu_equals_cpu_other_shapes() {
    if let Some(ctx) = context("gpu_equals_cpu_other_shapes") {
        for (r, c) in [
            (2, 2),
            (2, 3),
            (3, 4),
            (4, 3),
            (2, 8),
            (6, 6),
            (8, 8),
            (7, 5),
        ] {
            compare(&ctx, r, c, 5_000);
        }
    }
}

#[test]
fn gpu_rejects_boards_above_its_limit_and_ragged_batches() {
    if let Some(ctx) = context("gpu_rejects_boards_above_its_limit") {
        let g = goal(&GoalSpec::BlankLast, 9, 9);
        assert!(matches!(
            GpuEvaluator::new(ctx.clone(), HeuristicKind::Manhattan, &g),
            Err(GpuError::TooLarge(9, 9))
        ));
        let g = goal(&GoalSpec::BlankLast, 3, 3);
        let mut e = GpuEvaluator::new(ctx, HeuristicKind::Manhattan, &g).unwrap();
        let mut out = Vec::new();
        assert!(e.evaluate(&[1, 2, 3], &mut out).is_err());
        e.evaluate(&[], &mut out).unwrap();
        assert!(out.is_empty());
        assert!(!e.describe().is_empty());
    }
}

#[test]
fn gpu_equals_cpu_for_pattern_databases() {
    use npuzzle::heuristic::HeuristicSpec;
    use npuzzle::heuristic::pdb::builder::build_partition;
    use npuzzle::heuristic::pdb::{AdditivePdb, contiguous_partition};
    let Some(ctx) = context("gpu_equals_cpu_for_pattern_databases") else {
        return;
    };
    for (r, c, sizes, spec) in [
        (3, 3, vec![4, 4], GoalSpec::BlankLast),
        (3, 3, vec![8], GoalSpec::BlankFirst),
        (4, 4, vec![5, 5, 5], GoalSpec::BlankLast),
        (4, 4, vec![5, 5, 5], GoalSpec::BlankFirst),
        (3, 4, vec![4, 4, 3], GoalSpec::BlankLast),
        (5, 5, vec![3; 8], GoalSpec::BlankFirst),
    ] {
        let g = goal(&spec, r, c);
        let parts = contiguous_partition(&g, &sizes).unwrap();
        let tables = build_partition(&g, &parts, 1 << 30, &|_| true).unwrap();
        let pdb = Arc::new(
            AdditivePdb::new("t", &g, tables.into_iter().map(Arc::new).collect()).unwrap(),
        );
        let h = HeuristicSpec::Pdb(pdb.clone());
        let flat = boards(&spec, r, c, 20_000, (r * 10 + c) as u64);
        let mut cpu = CpuEvaluator::with_heuristic(h.build(&g), r * c, 2);
        let mut gpu = GpuEvaluator::for_spec(ctx.clone(), &h, &g).unwrap();
        let (mut a, mut b) = (Vec::new(), Vec::new());
        cpu.evaluate(&flat, &mut a).unwrap();
        gpu.evaluate(&flat, &mut b).unwrap();
        assert_eq!(a, b, "{r}×{c} {sizes:?} {}", spec.name());
        assert_eq!(gpu.heuristic(), "t");
        gpu.evaluate(&flat[..r * c], &mut b).unwrap();
        assert_eq!(b, a[..1]);
    }
}
