//! What a running search tells its caller: progress within one long iteration (driven by the
//! worker threads' counters, never by the clock), the estimate of an iteration's size, and the
//! lower bound a search stopped by a limit has proven.

mod common;

use std::time::Duration;

use common::goal;
use npuzzle::heuristic::HeuristicKind;
use npuzzle::puzzle::{Board, GoalSpec};
use npuzzle::search::{
    Algorithm, IdaIteration, Limits, Outcome, Problem, Progress, SearchError, solve,
};

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
    // Its size was estimated from the two before it.
    assert!(k >= 2, "{its:?}");
    let expected = IdaIteration::estimate(its[k - 2].generated, its[k - 1].generated);
    assert_eq!(first.ida.estimate, expected);
    assert!(expected.is_some());
}

/// The estimate is the last iteration's nodes times their growth over the one before.
#[test]
fn an_iterations_size_is_estimated_from_the_growth_of_the_last_two() {
    assert_eq!(IdaIteration::estimate(100, 600), Some(3600));
    assert_eq!(IdaIteration::estimate(3, 4), Some(5));
    assert_eq!(IdaIteration::estimate(0, 10), None);
}

/// A search stopped by a limit has proven its last report's `bound`: for IDA* the threshold of
/// the iteration it cut, which every finished iteration stayed below without reaching the
/// goal. Cancelled at the start of iteration 4, Korf's #1 is known to need at least that
/// iteration's threshold, and it is below the optimal 57.
#[test]
fn a_stopped_ida_reports_the_threshold_it_proved() {
    let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let limits = Limits {
        cancel: Some(cancel.clone()),
        ..Limits::default()
    };
    let mut last = Progress::default();
    let mut thresholds = Vec::new();
    let r = solve(
        &korf1(),
        Algorithm::IdaStar,
        HeuristicKind::LinearConflict,
        &limits,
        &mut |p: &Progress| {
            if p.ida.done {
                thresholds.push(p.bound);
                if thresholds.len() == 3 {
                    cancel.store(true, std::sync::atomic::Ordering::Relaxed);
                }
            }
            last = p.clone();
        },
    );
    assert_eq!(r.unwrap_err(), SearchError::Cancelled);
    assert!(last.finished);
    assert_eq!(last.ida.number, 4);
    // The next threshold: above the third's, at most the optimum.
    assert!(last.bound > thresholds[2] && last.bound <= 57, "{last:?}");
    assert_eq!(last.ida.generated, 0);
}
