//! Batched A*: optimal with any batch size, on the CPU evaluator everywhere and on the GPU
//! evaluator where there is an adapter (lavapipe in CI).

mod common;

use common::{exact_distances, goal, replay};
use npuzzle::eval::{BatchEvaluator, CpuEvaluator};
use npuzzle::heuristic::HeuristicKind;
use npuzzle::puzzle::random::{random_solvable, random_walk};
use npuzzle::puzzle::{Board, GoalSpec};
use npuzzle::search::{
    Algorithm, Batch, Engine, Limits, Outcome, Problem, Progress, SearchError, run, solve,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn batched(p: &Problem, e: &mut dyn BatchEvaluator, size: usize) -> Result<Outcome, SearchError> {
    run(
        p,
        Engine::Batched {
            batch: Batch { evaluator: e, size },
            from: None,
        },
        &Limits::default(),
        &mut |_| {},
    )
}

fn length(p: &Problem, e: &mut dyn BatchEvaluator, size: usize) -> usize {
    match batched(p, e, size) {
        Ok(Outcome::Solved(s)) => {
            assert_eq!(&replay(&p.start, &s.moves), p.goal.board());
            s.moves.len()
        }
        other => panic!("{}: {other:?}", p.start),
    }
}

/// Every batch size gives the exact distance; large batches expand out of f order, so this
/// fails if a goal found in a round were accepted before the open list's f reached its cost.
fn check_3x3(
    mut make: impl FnMut(HeuristicKind, &npuzzle::puzzle::Goal) -> Box<dyn BatchEvaluator>,
    boards: usize,
) {
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    for spec in [GoalSpec::BlankLast, GoalSpec::BlankFirst] {
        let g = goal(&spec, 3, 3);
        let dist = exact_distances(g.board());
        for kind in HeuristicKind::ALL {
            let mut e = make(kind, &g);
            for (i, size) in (0..boards).zip([1usize, 3, 16, 100, 1000, 8192].iter().cycle()) {
                let start = if i % 3 == 0 {
                    random_walk(&g, 25, &mut rng)
                } else {
                    random_solvable(&g, &mut rng)
                };
                let d = dist[start.tiles()] as usize;
                let p = Problem {
                    start,
                    goal: g.clone(),
                };
                assert_eq!(
                    length(&p, e.as_mut(), *size),
                    d,
                    "{} batch {size} {kind}",
                    p.start
                );
            }
        }
    }
}

#[test]
fn cpu_batched_astar_is_optimal_on_3x3() {
    check_3x3(|k, g| Box::new(CpuEvaluator::new(k, g, 1)), 120);
}

#[test]
fn cpu_batched_astar_matches_ida_on_4x4() {
    let g = goal(&GoalSpec::BlankLast, 4, 4);
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    let mut e = CpuEvaluator::new(HeuristicKind::LinearConflict, &g, 2);
    for _ in 0..4 {
        let start = random_walk(&g, 60, &mut rng);
        let p = Problem {
            start,
            goal: g.clone(),
        };
        let ida = match solve(
            &p,
            Algorithm::IdaStar,
            HeuristicKind::LinearConflict,
            &Limits::default(),
            &mut |_| {},
        ) {
            Ok(Outcome::Solved(s)) => s.moves.len(),
            other => panic!("{other:?}"),
        };
        assert_eq!(length(&p, &mut e, 512), ida, "{}", p.start);
    }
}

#[test]
fn batched_progress_reports_rounds_and_open_histogram() {
    let g = goal(&GoalSpec::BlankFirst, 4, 4);
    // Korf #9 (46 moves).
    let start: Board = "3 14 9 11/5 4 8 2/13 12 6 7/10 1 15 0".parse().unwrap();
    let p = Problem {
        start,
        goal: g.clone(),
    };
    let mut e = CpuEvaluator::new(HeuristicKind::LinearConflict, &g, 2);
    let limits = Limits {
        histogram: true,
        progress_interval: std::time::Duration::ZERO,
        ..Limits::default()
    };
    let mut reports: Vec<Progress> = Vec::new();
    let r = run(
        &p,
        Engine::Batched {
            batch: Batch {
                evaluator: &mut e,
                size: 256,
            },
            from: None,
        },
        &limits,
        &mut |p| reports.push(p.clone()),
    );
    let Ok(Outcome::Solved(s)) = r else {
        panic!("{r:?}")
    };
    assert_eq!(s.moves.len(), 46);
    // One report a round, and the final one (the end's counts and open list).
    assert_eq!(reports.len() as u64, s.stats.rounds + 1);
    let last = reports.pop().unwrap();
    assert_eq!(
        (last.rounds.count, last.expanded),
        (s.stats.rounds, s.stats.expanded)
    );
    assert_eq!(last.histogram.as_ref().unwrap().total(), last.frontier.open);
    for (i, rep) in reports.iter().enumerate() {
        assert_eq!(rep.rounds.count, i as u64 + 1);
        assert_eq!(rep.histogram.as_ref().unwrap().total(), rep.frontier.open);
        assert!(rep.rounds.batch_boards > 0);
    }
    // The best f never decreases by more than the out-of-order slack, and ends at the optimum.
    assert!(reports.last().unwrap().bound >= 46);
}

#[test]
fn batched_rejects_unsolvable_and_obeys_the_memory_cap() {
    let g = goal(&GoalSpec::BlankLast, 3, 3);
    let mut e = CpuEvaluator::new(HeuristicKind::Manhattan, &g, 1);
    let p = Problem {
        start: "1 2 3/4 5 6/8 7 0".parse().unwrap(),
        goal: g,
    };
    assert!(matches!(
        batched(&p, &mut e, 64),
        Ok(Outcome::Unsolvable(_))
    ));
    let g = goal(&GoalSpec::BlankLast, 4, 4);
    let mut e = CpuEvaluator::new(HeuristicKind::Manhattan, &g, 1);
    let p = Problem {
        start: "0 12 9 13/15 11 10 14/3 7 2 5/4 8 6 1".parse().unwrap(),
        goal: g,
    };
    let r = run(
        &p,
        Engine::Batched {
            batch: Batch {
                evaluator: &mut e,
                size: 1024,
            },
            from: None,
        },
        &Limits {
            max_memory: 8 << 20,
            ..Limits::default()
        },
        &mut |_| {},
    );
    assert!(matches!(r, Err(SearchError::MemoryLimit { .. })), "{r:?}");
}

#[cfg(feature = "gpu")]
mod gpu {
    use super::*;
    use common::gpu::context;
    use npuzzle::eval::gpu::GpuEvaluator;

    #[test]
    fn gpu_batched_astar_is_optimal_on_3x3() {
        if let Some(ctx) = context("gpu_batched_astar_is_optimal_on_3x3") {
            check_3x3(
                |k, g| match GpuEvaluator::kind_code(k) {
                    Some(_) => Box::new(GpuEvaluator::new(ctx.clone(), k, g).unwrap()),
                    // Kinds the shader does not compute: batched A* on the CPU evaluator.
                    None => Box::new(CpuEvaluator::new(k, g, 1)),
                },
                36,
            );
        }
    }

    #[test]
    fn gpu_batched_astar_matches_ida_on_4x4_boards_of_30_to_45_moves() {
        let Some(ctx) = context("gpu_batched_astar_matches_ida_on_4x4") else {
            return;
        };
        let g = goal(&GoalSpec::BlankFirst, 4, 4);
        let mut e = GpuEvaluator::new(ctx, HeuristicKind::LinearConflict, &g).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(30);
        let mut tried = 0;
        while tried < 4 {
            let start = random_walk(&g, 80, &mut rng);
            let p = Problem {
                start,
                goal: g.clone(),
            };
            let ida = match solve(
                &p,
                Algorithm::IdaStar,
                HeuristicKind::LinearConflict,
                &Limits::default(),
                &mut |_| {},
            ) {
                Ok(Outcome::Solved(s)) => s.moves.len(),
                other => panic!("{other:?}"),
            };
            if !(30..=45).contains(&ida) {
                continue;
            }
            tried += 1;
            assert_eq!(length(&p, &mut e, 4096), ida, "{}", p.start);
        }
    }
}
