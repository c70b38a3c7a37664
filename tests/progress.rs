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

/// The 80-move 15-puzzle (blank-last goal; manhattan's h is 58, far beyond what a test can
/// search) and the farthest 8-puzzle board (31 moves), as a bench file.
const HARD_AND_EASY: &str = "hard 0 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1 80\n\
    far8 8 6 7 2 5 4 3 0 1 31\n";

/// The 80-move 15-puzzle as `solve` reads it.
const HARD: &str = "0 12 9 13/15 11 10 14/3 7 2 5/4 8 6 1";

/// The effective branching factor b* of `generated` nodes at `depth`, by its definition:
/// `generated = b* + b*² + … + b*^depth`, checked rather than solved.
fn is_b_star(b: f64, generated: u64, depth: u32) -> bool {
    let tree: f64 = (1..=depth).map(|i| b.powi(i as i32)).sum();
    (tree - generated as f64).abs() < 1e-6 * generated as f64
}

/// What a bench row says of what happened inside: h of the start, the iterations (which add
/// up to the row's counts), b*, and the lower bound: the length once solved, and for a row
/// the time limit cut, the threshold the finished iterations proved (shown as `≥N` in the
/// text table).
#[test]
fn bench_rows_give_iterations_b_star_and_the_lower_bound() {
    use common::bin::{npuzzle, path_of, temp_file};
    let file = temp_file(HARD_AND_EASY);
    let args = [
        "bench",
        &path_of(&file),
        "--algorithm",
        "idastar",
        "--heuristic",
        "manhattan",
        "--time-limit",
        "1",
        "--jobs",
        "1",
    ];
    let out = npuzzle(&[&args[..], &["--format", "json"]].concat(), None);
    assert_eq!(out.code, 3, "{}", out.stderr);
    let rows: Vec<serde_json::Value> = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    for row in &rows[..2] {
        let its = row["iterations"].as_array().unwrap();
        let sum = |k: &str| its.iter().map(|i| i[k].as_u64().unwrap()).sum::<u64>();
        assert_eq!(sum("expanded"), row["nodes_expanded"].as_u64().unwrap());
        assert_eq!(sum("generated"), row["nodes_generated"].as_u64().unwrap());
        // IDA*'s first threshold is h of the start; each is above the one before.
        assert_eq!(its[0]["threshold"], row["initial_h"]);
        let t: Vec<u64> = its
            .iter()
            .map(|i| i["threshold"].as_u64().unwrap())
            .collect();
        assert!(t.windows(2).all(|w| w[0] < w[1]), "{t:?}");
    }
    let (cut, solved) = (&rows[0], &rows[1]);
    assert_eq!(solved["moves"], 31);
    assert_eq!(solved["lower_bound"], 31);
    let b = solved["effective_branching_factor"].as_f64().unwrap();
    assert!(is_b_star(
        b,
        solved["nodes_generated"].as_u64().unwrap(),
        31
    ));
    assert!(cut["moves"].is_null() && cut["effective_branching_factor"].is_null());
    assert_eq!(cut["initial_h"], 58);
    let bound = cut["lower_bound"].as_u64().unwrap();
    let last = cut["iterations"].as_array().unwrap().last().unwrap()["threshold"]
        .as_u64()
        .unwrap();
    assert!(bound >= last && (58..=80).contains(&bound), "{cut}");
    let text = npuzzle(&args, None);
    assert_eq!(text.code, 3, "{}", text.stderr);
    let line = text
        .stdout
        .lines()
        .find(|l| l.starts_with("hard "))
        .unwrap();
    let moves = line.split_whitespace().nth(1).unwrap();
    let shown: u64 = moves.strip_prefix('≥').unwrap().parse().unwrap();
    assert!((58..=80).contains(&shown), "{line}");
}

/// A solve the time limit stops says the lower bound it proved, in words and in JSON; a
/// solved one has the length as its lower bound, and b*.
#[test]
fn solve_says_the_lower_bound_a_limit_left() {
    use common::bin::{npuzzle, solve_json};
    let args = [
        "solve",
        "-",
        "--algorithm",
        "idastar",
        "--heuristic",
        "manhattan",
        "--time-limit",
        "1",
    ];
    let out = npuzzle(&args, Some(HARD));
    assert_eq!(out.code, 3, "{}", out.stderr);
    let said = out
        .stderr
        .split("no answer within the time limit of 1 s; the optimum is at least ")
        .nth(1)
        .unwrap_or_else(|| panic!("{}", out.stderr));
    let n: u32 = said.split(' ').next().unwrap().parse().unwrap();
    assert!((58..=80).contains(&n), "{}", out.stderr);
    let json = npuzzle(&[&args[..], &["--format", "json"]].concat(), Some(HARD));
    assert_eq!(json.code, 3);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(v["limit"], true);
    let bound = v["lower_bound"].as_u64().unwrap();
    assert!((58..=80).contains(&bound), "{v}");
    let solved = solve_json("8 6 7/2 5 4/3 0 1", &["--heuristic", "manhattan"]);
    assert_eq!(solved["lower_bound"], 31);
    let b = solved["effective_branching_factor"].as_f64().unwrap();
    assert!(is_b_star(
        b,
        solved["nodes_generated"].as_u64().unwrap(),
        31
    ));
}
