//! What a running search tells its caller: progress within one long iteration (driven by the
//! worker threads' counters, never by the clock), the estimate of an iteration's size, and the
//! lower bound a search stopped by a limit has proven.

mod common;

use std::time::Duration;

use common::goal;
use npuzzle::heuristic::HeuristicKind;
use npuzzle::puzzle::{Board, GoalSpec};
use npuzzle::search::{Algorithm, Limits, Outcome, Problem, Progress, forecast, solve};

/// Korf's #1 (57 moves, blank-first goal): with linear conflict, iterations of up to about a
/// million nodes, many times the nodes between two publications of a thread's counts.
fn korf1() -> Problem {
    let start: Board = "14 13 15 7/11 12 9 5/6 0 2 1/4 8 10 3".parse().unwrap();
    let goal = goal(&GoalSpec::BlankFirst, 4, 4);
    Problem { start, goal }
}

/// The "spinner advancing during one long iteration": on two threads, with a zero
/// progress interval (every publication of a thread's counts is reported, so the reports
/// follow the counters, not the clock), one iteration is reported many times before its end,
/// with its threshold, counts that only grow and stay within the iteration's total, and the
/// estimate from the iterations before it.
#[test]
fn parallel_ida_reports_progress_within_an_iteration() {
    let limits = Limits {
        threads: 2,
        progress_interval: Duration::ZERO,
        ..Limits::default()
    };
    let mut reports: Vec<Progress> = Vec::new();
    let r = solve(
        &korf1(),
        Algorithm::IdaStar,
        HeuristicKind::LinearConflict,
        &limits,
        &mut |p: &Progress| reports.push(p.clone()),
    );
    let Ok(Outcome::Solved(s)) = r else {
        panic!("{r:?}")
    };
    assert_eq!(s.moves.len(), 57);
    let its = &s.stats.iterations;
    // The largest finished iteration (the last one stops at the goal).
    let (k, big) = its[..its.len() - 1]
        .iter()
        .enumerate()
        .max_by_key(|(_, it)| it.expanded)
        .unwrap();
    assert_eq!(big.expanded, 1_062_264, "{its:?}");
    let number = k as u32 + 1;
    let within: Vec<&Progress> = reports
        .iter()
        .filter(|p| p.ida.number == number && !p.ida.done)
        .collect();
    // A thread publishes every 65,536 expansions: the iteration's 1,062,264 expansions on two
    // threads make at least 14 publications, each reported.
    assert!(within.len() >= 8, "{} reports within", within.len());
    for w in within.windows(2) {
        assert!(w[0].generated <= w[1].generated);
        assert!(w[0].ida.generated <= w[1].ida.generated);
    }
    let (first, last) = (within[0], within[within.len() - 1]);
    assert!(first.ida.generated < last.ida.generated);
    for p in &within {
        assert_eq!(p.bound, big.threshold);
        assert!(p.ida.generated <= big.generated && p.ida.expanded <= big.expanded);
        // The totals are the finished iterations' and this one's so far.
        let before: u64 = its[..k].iter().map(|i| i.generated).sum();
        assert_eq!(p.generated, before + p.ida.generated);
    }
    // The iteration's end carries its counts, as the answer's statistics give them.
    let end = reports
        .iter()
        .find(|p| p.ida.number == number && p.ida.done)
        .unwrap();
    assert_eq!(
        (end.ida.expanded, end.ida.generated),
        (big.expanded, big.generated)
    );
    // Its size was estimated from the growth of the ones before it.
    assert!(k >= 2, "{its:?}");
    let finished: Vec<u64> = its[..k].iter().map(|i| i.generated).collect();
    let expected = forecast::next_nodes(&finished).map(|(_, n)| n.round() as u64);
    assert_eq!(first.ida.estimate, expected);
    assert!(expected.is_some());
}

/// The estimate is the last iteration's nodes times the mean growth of the last ones of at
/// least `MIN_NODES` nodes.
#[test]
fn an_iterations_size_is_estimated_from_the_growth_of_the_last_ones() {
    let (growth, nodes) = forecast::next_nodes(&[5, 1_000, 6_000, 36_000]).unwrap();
    assert!((growth - 6.0).abs() < 1e-9);
    assert!((nodes - 216_000.0).abs() < 1e-6);
    assert_eq!(forecast::next_nodes(&[10, 600, 3_600]), None);
}
