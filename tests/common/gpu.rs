//! The GPU context for tests: lavapipe in CI, where `NPUZZLE_REQUIRE_GPU=1` makes a missing
//! adapter a failure; elsewhere a test without an adapter says loudly that it was skipped.

use std::io::Write;
use std::sync::Arc;

use npuzzle::eval::gpu::GpuContext;
use npuzzle::eval::ida::IdaDevice;
use npuzzle::heuristic::HeuristicSpec;
use npuzzle::puzzle::{Board, Goal};
use npuzzle::search::{
    Algorithm, Engine, Limits, Outcome, Problem, Pruning, SearchError, Solution, run, solve,
};

/// The GPU context, or `None` (with a loud note on the real stderr, bypassing test capture)
/// when there is no adapter and `NPUZZLE_REQUIRE_GPU` is not set.
pub fn context(test: &str) -> Option<Arc<GpuContext>> {
    match GpuContext::new() {
        Ok(c) => Some(c),
        Err(e) => {
            if std::env::var_os("NPUZZLE_REQUIRE_GPU").is_some_and(|v| v != "0") {
                panic!("NPUZZLE_REQUIRE_GPU is set but {e}");
            }
            let _ = writeln!(
                std::io::stderr(),
                "\n*** SKIPPED {test}: {e} (install a Vulkan driver, e.g. mesa-vulkan-drivers) ***\n"
            );
            None
        }
    }
}

/// The solution of a search that must have found one.
pub fn solved(o: Result<Outcome, SearchError>) -> Solution {
    match o.unwrap() {
        Outcome::Solved(s) => s,
        Outcome::Unsolvable(v) => panic!("unsolvable: {}", v.reason()),
    }
}

/// [`check_with`] with the default pruning, the duplicate-sequence automaton.
pub fn check(
    dev: &mut dyn IdaDevice,
    spec: &HeuristicSpec,
    start: &Board,
    g: &Goal,
    what: &str,
) -> (u64, u32) {
    check_with(dev, spec, start, g, what, Pruning::Fsm)
}

/// Solves `start` with GPU IDA* on `dev` (the host on two threads) and with the CPU IDA*
/// (one thread), both pruning with `pruning`, and checks lengths, the solution's replay and every completed iteration's counts; returns
/// the GPU's rounds and solution length.
pub fn check_with(
    dev: &mut dyn IdaDevice,
    spec: &HeuristicSpec,
    start: &Board,
    g: &Goal,
    what: &str,
    pruning: Pruning,
) -> (u64, u32) {
    let problem = Problem {
        start: start.clone(),
        goal: g.clone(),
    };
    let limits = Limits {
        pruning,
        ..Limits::default()
    };
    let cpu = solved(solve(
        &problem,
        Algorithm::IdaStar,
        spec.clone(),
        &limits,
        &mut |_| {},
    ));
    // The host's top of the tree on two threads (levels of 2,048 nodes and more; the split
    // must give the same nodes, in the same order, as one thread).
    let two = Limits {
        threads: 2,
        ..limits.clone()
    };
    let gpu = solved(run(
        &problem,
        Engine::Device {
            device: dev,
            heuristic: spec.clone(),
        },
        &two,
        &mut |_| {},
    ));
    assert_eq!(gpu.moves.len(), cpu.moves.len(), "{what}: length");
    assert_eq!(&super::replay(start, &gpu.moves), g.board(), "{what}");
    let (c, d) = (&cpu.stats.iterations, &gpu.stats.iterations);
    assert_eq!(c.len(), d.len(), "{what}: iterations");
    for (a, b) in c.iter().zip(d).take(c.len() - 1) {
        assert_eq!(a, b, "{what}: iteration with threshold {}", a.threshold);
    }
    assert_eq!(c.last().unwrap().threshold, d.last().unwrap().threshold);
    (gpu.stats.rounds, gpu.moves.len() as u32)
}
