//! Search behaviour beyond optimal lengths: limits, cancellation, progress, unsolvable boards,
//! batch evaluation.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use common::{board, goal};
use npuzzle::eval::{BatchEvaluator, CpuEvaluator, EvalError};
use npuzzle::heuristic::HeuristicKind;
use npuzzle::puzzle::random::random_solvable;
use npuzzle::puzzle::{Board, GoalSpec};
use npuzzle::search::{Algorithm, Limits, Outcome, Problem, Progress, SearchError, solve};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The 80-move 15-puzzle (blank-last goal): far beyond what a test can finish.
const HARD: &str = "0 12 9 13/15 11 10 14/3 7 2 5/4 8 6 1";

fn problem(s: &str, spec: GoalSpec) -> Problem {
    let start: Board = s.parse().unwrap();
    let goal = goal(&spec, start.rows(), start.cols());
    Problem { start, goal }
}

#[test]
fn astar_stops_at_the_memory_cap() {
    let limits = Limits {
        max_memory: 1 << 20,
        ..Limits::default()
    };
    for algo in [Algorithm::AStar, Algorithm::Bfs] {
        let r = solve(
            &problem(HARD, GoalSpec::BlankLast),
            algo,
            HeuristicKind::Manhattan,
            &limits,
            &mut |_| {},
        );
        match r {
            Err(SearchError::MemoryLimit {
                cap,
                expanded,
                refused,
            }) => {
                assert_eq!(cap, 1 << 20);
                assert!(expanded > 0);
                assert!(!refused, "{algo}: the cap, not the system, stopped it");
            }
            other => panic!("{algo}: expected the memory cap, got {other:?}"),
        }
    }
}

#[test]
fn time_limit_stops_ida() {
    let limits = Limits {
        time_limit: Some(Duration::from_millis(50)),
        ..Limits::default()
    };
    let r = solve(
        &problem(HARD, GoalSpec::BlankLast),
        Algorithm::IdaStar,
        HeuristicKind::Hamming,
        &limits,
        &mut |_| {},
    );
    assert!(matches!(r, Err(SearchError::TimeLimit(_))), "{r:?}");
}

#[test]
fn cancel_flag_stops_every_search() {
    for algo in [Algorithm::IdaStar, Algorithm::AStar, Algorithm::Bfs] {
        let cancel = Arc::new(AtomicBool::new(false));
        let limits = Limits {
            cancel: Some(cancel.clone()),
            progress_interval: Duration::ZERO,
            ..Limits::default()
        };
        let mut reports: Vec<Progress> = Vec::new();
        let r = solve(
            &problem(HARD, GoalSpec::BlankLast),
            algo,
            HeuristicKind::Manhattan,
            &limits,
            &mut |p: &Progress| {
                reports.push(p.clone());
                cancel.store(true, Ordering::Relaxed);
            },
        );
        assert_eq!(r, Err(SearchError::Cancelled), "{algo}");
        // The search stops at its next check after the first report, and sends one last
        // report with the counts of that moment (IDA*: between iterations), marked finished.
        assert_eq!(reports.len(), 2, "{algo}");
        let last = reports.last().unwrap();
        assert!(last.finished && !reports[0].finished, "{algo}");
        assert!(last.expanded >= reports[0].expanded, "{algo}");
        assert!(last.generated >= last.expanded, "{algo}");
    }
}

#[test]
fn ida_progress_reports_iterations_and_histogram() {
    // Korf #9 (46 moves, blank-first goal).
    let p = problem(
        "3 14 9 11/5 4 8 2/13 12 6 7/10 1 15 0",
        GoalSpec::BlankFirst,
    );
    let limits = Limits {
        histogram: true,
        ..Limits::default()
    };
    let mut done: Vec<Progress> = Vec::new();
    let r = solve(
        &p,
        Algorithm::IdaStar,
        HeuristicKind::LinearConflict,
        &limits,
        &mut |p: &Progress| {
            if p.ida.done {
                done.push(p.clone());
            }
        },
    );
    let Ok(Outcome::Solved(s)) = r else {
        panic!("{r:?}")
    };
    assert_eq!(s.moves.len(), 46);
    assert_eq!(done.len(), s.stats.iterations.len());
    for (rep, it) in done.iter().zip(&s.stats.iterations) {
        assert_eq!(rep.bound, it.threshold);
        let hist = rep.histogram.as_ref().unwrap();
        // The root plus every generated node, each counted once at its (g, h).
        assert_eq!(hist.total(), it.generated + 1);
        // Nothing generated beyond f = bound + 2 (children of nodes with f ≤ bound).
        assert!(
            hist.cells()
                .all(|(g, h, _)| (g + h) as u32 <= it.threshold + 2)
        );
    }
    assert_eq!(done.last().unwrap().expanded, s.stats.expanded);
}

#[test]
fn astar_histogram_tracks_the_open_list() {
    let p = problem("8 6 7/2 5 4/3 0 1", GoalSpec::BlankLast);
    let limits = Limits {
        histogram: true,
        progress_interval: Duration::ZERO,
        ..Limits::default()
    };
    let mut last: Option<Progress> = None;
    let r = solve(
        &p,
        Algorithm::AStar,
        HeuristicKind::Manhattan,
        &limits,
        &mut |p| last = Some(p.clone()),
    );
    assert!(matches!(r, Ok(Outcome::Solved(ref s)) if s.moves.len() == 31));
    let last = last.expect("at least one report on a 31-move 3×3 with Manhattan");
    assert_eq!(last.histogram.unwrap().total(), last.frontier.open);
}

#[test]
fn unsolvable_boards_are_answered_without_search() {
    let p = problem("1 2 3/4 5 6/8 7 0", GoalSpec::BlankLast);
    for algo in [Algorithm::Bfs, Algorithm::AStar, Algorithm::IdaStar] {
        match solve(
            &p,
            algo,
            HeuristicKind::Manhattan,
            &Limits::default(),
            &mut |_| {},
        ) {
            Ok(Outcome::Unsolvable(v)) => {
                assert!(!v.solvable);
                assert_eq!(v.start_inversions, 1);
                assert!(v.reason().contains("unsolvable"));
            }
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn goal_board_needs_zero_moves() {
    let p = problem("1 2 3/4 5 6/7 8 0", GoalSpec::BlankLast);
    for algo in [Algorithm::Bfs, Algorithm::AStar, Algorithm::IdaStar] {
        let r = solve(
            &p,
            algo,
            HeuristicKind::LinearConflict,
            &Limits::default(),
            &mut |_| {},
        );
        assert!(
            matches!(r, Ok(Outcome::Solved(ref s)) if s.moves.is_empty()),
            "{algo}"
        );
    }
}

#[test]
fn size_mismatch_is_an_error() {
    let start: Board = "1 2 3/4 5 6/7 8 0".parse().unwrap();
    let goal = goal(&GoalSpec::BlankLast, 4, 4);
    let r = solve(
        &Problem { start, goal },
        Algorithm::AStar,
        HeuristicKind::Manhattan,
        &Limits::default(),
        &mut |_| {},
    );
    assert!(matches!(r, Err(SearchError::SizeMismatch(3, 3, 4, 4))));
}

#[test]
fn replay_rejects_wrong_solutions() {
    use npuzzle::puzzle::Move;
    let start: Board = "1 2 3/4 5 6/7 0 8".parse().unwrap();
    let goal: Board = "1 2 3/4 5 6/7 8 0".parse().unwrap();
    assert!(npuzzle::search::replay(&start, &goal, &[Move::Right]).is_ok());
    assert!(npuzzle::search::replay(&start, &goal, &[Move::Left]).is_err());
    assert!(npuzzle::search::replay(&start, &goal, &[Move::Down]).is_err());
}

#[test]
fn cpu_batch_evaluator_equals_direct_evaluation() {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    for (r, c) in [(3, 3), (4, 4), (5, 5), (3, 5)] {
        let g = goal(&GoalSpec::BlankFirst, r, c);
        let boards: Vec<Board> = (0..1001).map(|_| random_solvable(&g, &mut rng)).collect();
        let flat: Vec<u8> = boards.iter().flat_map(|b| b.tiles().to_vec()).collect();
        for kind in HeuristicKind::ALL {
            if kind.supports(r, c).is_err() {
                continue;
            }
            let h = kind.build(&g);
            let expect: Vec<u32> = boards.iter().map(|b| h.estimate(b.tiles())).collect();
            for threads in [1, 2] {
                let mut e = CpuEvaluator::new(kind, &g, threads);
                let mut out = vec![7; 3];
                e.evaluate(&flat, &mut out).unwrap();
                assert_eq!(out, expect, "{kind} {threads} threads");
                assert_eq!(e.kind().name(), "cpu");
            }
        }
        let mut e = CpuEvaluator::new(HeuristicKind::Manhattan, &g, 1);
        let mut out = Vec::new();
        assert!(matches!(
            e.evaluate(&flat[..flat.len() - 1], &mut out),
            Err(EvalError::Ragged { .. })
        ));
        e.evaluate(&[], &mut out).unwrap();
        assert!(out.is_empty());
    }
    let _ = board(2, 2, &[1, 2, 3, 0]);
}

#[test]
fn parallel_ida_is_optimal_and_cancellable() {
    let korf = common::korf100();
    let g = goal(&GoalSpec::BlankFirst, 4, 4);
    for (id, tiles, opt) in korf.iter().filter(|k| [2, 5, 6, 8, 9, 12].contains(&k.0)) {
        let p = Problem {
            start: board(4, 4, tiles),
            goal: g.clone(),
        };
        for threads in [2, 3] {
            let limits = Limits {
                threads,
                ..Limits::default()
            };
            let r = solve(
                &p,
                Algorithm::IdaStar,
                HeuristicKind::LinearConflict,
                &limits,
                &mut |_| {},
            );
            let Ok(Outcome::Solved(s)) = r else {
                panic!("{r:?}")
            };
            assert_eq!(
                s.moves.len() as u32,
                *opt,
                "Korf #{id} on {threads} threads"
            );
            assert!(s.stats.expanded > 0);
        }
    }
    // A pattern database prunes so hard that early iterations leave nothing at the split depth.
    let pdb = {
        use npuzzle::heuristic::pdb::builder::build_partition;
        use npuzzle::heuristic::pdb::{AdditivePdb, contiguous_partition};
        let parts = contiguous_partition(&g, &[5, 5, 5]).unwrap();
        let tables = build_partition(&g, &parts, 1 << 30, &|_| true).unwrap();
        Arc::new(AdditivePdb::new("t", &g, tables.into_iter().map(Arc::new).collect()).unwrap())
    };
    for (id, tiles, opt) in korf.iter().filter(|k| [1, 3, 9, 12].contains(&k.0)) {
        let p = Problem {
            start: board(4, 4, tiles),
            goal: g.clone(),
        };
        let limits = Limits {
            threads: 2,
            ..Limits::default()
        };
        let r = solve(&p, Algorithm::IdaStar, pdb.clone(), &limits, &mut |_| {});
        let Ok(Outcome::Solved(s)) = r else {
            panic!("{r:?}")
        };
        assert_eq!(
            s.moves.len() as u32,
            *opt,
            "Korf #{id} with a PDB on 2 threads"
        );
    }
    // Limits stop every thread.
    let p = problem(HARD, GoalSpec::BlankLast);
    let limits = Limits {
        threads: 2,
        time_limit: Some(Duration::from_millis(200)),
        ..Limits::default()
    };
    let r = solve(
        &p,
        Algorithm::IdaStar,
        HeuristicKind::Manhattan,
        &limits,
        &mut |_| {},
    );
    assert!(matches!(r, Err(SearchError::TimeLimit(_))), "{r:?}");
    let cancel = Arc::new(AtomicBool::new(true));
    let limits = Limits {
        threads: 2,
        cancel: Some(cancel),
        ..Limits::default()
    };
    let r = solve(
        &p,
        Algorithm::IdaStar,
        HeuristicKind::Manhattan,
        &limits,
        &mut |_| {},
    );
    assert_eq!(r, Err(SearchError::Cancelled));
}

#[test]
fn internal_errors_are_faults_with_their_own_messages() {
    let replay = SearchError::BadSolution("ends on 1 2 3/4 5 6/7 0 8".into());
    let exhausted = SearchError::Exhausted(Algorithm::IdaStar);
    let panicked = SearchError::WorkerPanicked("index out of bounds".into());
    for e in [&replay, &exhausted, &panicked] {
        assert!(!e.is_limit(), "{e}");
        assert!(e.to_string().starts_with("internal error: "), "{e}");
    }
    assert!(replay.to_string().contains("failed to replay"));
    assert!(
        exhausted
            .to_string()
            .contains("idastar searched every reachable board")
    );
    assert!(!exhausted.to_string().contains("replay"));
    assert!(
        panicked
            .to_string()
            .contains("search thread panicked: index out of bounds")
    );
    assert!(!panicked.to_string().contains("replay"));
}

#[test]
fn parallel_idastar_iterations_match_the_sequential_ones() {
    // The next threshold flows back from every thread: the thresholds, and the work of every
    // iteration but the last (which stops when a thread finds the goal), are the sequential ones.
    let g = goal(&GoalSpec::BlankLast, 4, 4);
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    for _ in 0..3 {
        let p = Problem {
            start: npuzzle::puzzle::random::random_walk(&g, 200, &mut rng),
            goal: g.clone(),
        };
        let run = |threads| {
            let limits = Limits {
                threads,
                ..Limits::default()
            };
            match solve(
                &p,
                Algorithm::IdaStar,
                HeuristicKind::LinearConflict,
                &limits,
                &mut |_| {},
            ) {
                Ok(Outcome::Solved(s)) => s,
                other => panic!("{other:?}"),
            }
        };
        let (one, three) = (run(1), run(3));
        assert_eq!(one.moves.len(), three.moves.len());
        let thresholds = |s: &npuzzle::search::Solution| -> Vec<u32> {
            s.stats.iterations.iter().map(|i| i.threshold).collect()
        };
        assert_eq!(thresholds(&one), thresholds(&three));
        let done = one.stats.iterations.len() - 1;
        assert!(done >= 2, "{done} iterations before the last");
        assert_eq!(one.stats.iterations[..done], three.stats.iterations[..done]);
    }
}

/// Manhattan distance of `b` to `goal` (row-major tiles, `0` = blank not counted), computed
/// here independently of the library's heuristics.
fn manhattan(b: &Board, goal: &Board) -> u32 {
    let cols = b.cols();
    let mut home = vec![0usize; b.len()];
    for (c, &t) in goal.tiles().iter().enumerate() {
        home[t as usize] = c;
    }
    b.tiles()
        .iter()
        .enumerate()
        .filter(|&(_, &t)| t != 0)
        .map(|(c, &t)| {
            let h = home[t as usize];
            ((c / cols).abs_diff(h / cols) + (c % cols).abs_diff(h % cols)) as u32
        })
        .sum()
}

/// The largest boards of every shape (sides up to 16: 16×16 has a real cell 255, which IDA*
/// once took for "no neighbour" and never returned): random walks of k moves whose Manhattan
/// distance is k have optimum k, which every algorithm and heuristic that takes the shape must
/// find, for both goals. A time limit turns a hang into a failure.
#[test]
fn largest_boards_of_every_shape_are_solved_by_every_search() {
    let mut rng = ChaCha8Rng::seed_from_u64(16);
    let limits = Limits {
        time_limit: Some(Duration::from_secs(60)),
        ..Limits::default()
    };
    for (rows, cols) in [(16, 16), (16, 15), (15, 16), (16, 2), (2, 16), (16, 3)] {
        for spec in [GoalSpec::BlankLast, GoalSpec::BlankFirst] {
            let g = goal(&spec, rows, cols);
            let mut tried = 0;
            for k in [1usize, 6, 12] {
                // A walk whose Manhattan distance equals its length: optimum exactly k.
                let start = (0..200)
                    .map(|_| npuzzle::puzzle::random::random_walk(&g, k, &mut rng))
                    .find(|b| manhattan(b, g.board()) == k as u32)
                    .expect("a walk without detours");
                let problem = Problem {
                    start: start.clone(),
                    goal: g.clone(),
                };
                for (algorithm, heuristics) in [
                    (Algorithm::Bfs, &[HeuristicKind::Manhattan][..]),
                    (Algorithm::AStar, &HeuristicKind::ALL[..]),
                    (Algorithm::IdaStar, &HeuristicKind::ALL[..]),
                    (
                        Algorithm::BatchedAStar,
                        &[HeuristicKind::LinearConflict][..],
                    ),
                ] {
                    for &h in heuristics {
                        if h.supports(rows, cols).is_err() || (algorithm == Algorithm::Bfs && k > 6)
                        {
                            continue;
                        }
                        let what = format!("{rows}×{cols} {spec:?} k={k} {algorithm} {}", h.name());
                        match solve(&problem, algorithm, h, &limits, &mut |_| {}) {
                            Ok(Outcome::Solved(s)) => {
                                assert_eq!(s.moves.len(), k, "{what}: {start}");
                                tried += 1;
                            }
                            other => panic!("{what}: {other:?}"),
                        }
                    }
                }
            }
            assert!(tried >= 20, "{rows}×{cols}: {tried} solves");
        }
    }
}

/// IDA*'s move order: on boards of up to 16 cells the moves whose tile comes nearer its goal
/// cell first (each group in U < D < L < R order), on larger ones U < D < L < R; always every
/// legal move once.
#[test]
fn ida_tries_the_moves_that_bring_a_tile_nearer_first_up_to_16_cells() {
    use npuzzle::puzzle::Move;
    use npuzzle::search::idastar::{NEARER_FIRST_MAX_CELLS, move_order};
    let mut rng = ChaCha8Rng::seed_from_u64(16);
    for (rows, cols) in [(3, 3), (4, 4), (5, 5)] {
        let g = goal(&GoalSpec::BlankLast, rows, cols);
        let mut reordered = 0;
        for _ in 0..50 {
            let b = random_solvable(&g, &mut rng);
            let legal: Vec<Move> = Move::ALL
                .into_iter()
                .filter(|&m| b.target(m).is_some())
                .collect();
            let order = move_order(&b, g.board());
            let mut sorted = order.clone();
            sorted.sort_by_key(|m| m.index());
            assert_eq!(sorted, legal, "{b}");
            if rows * cols > NEARER_FIRST_MAX_CELLS {
                assert_eq!(order, legal, "{b}");
                continue;
            }
            // The tile each move slides, and whether it comes nearer its goal cell.
            let nearer = |m: Move| {
                let to = b.target(m).unwrap();
                let home = g
                    .board()
                    .tiles()
                    .iter()
                    .position(|&t| t == b.tiles()[to])
                    .unwrap();
                let d =
                    |c: usize| (c / cols).abs_diff(home / cols) + (c % cols).abs_diff(home % cols);
                d(b.blank()) < d(to)
            };
            let first: Vec<Move> = legal.iter().copied().filter(|&m| nearer(m)).collect();
            let rest: Vec<Move> = legal.iter().copied().filter(|&m| !nearer(m)).collect();
            assert_eq!(order, [first, rest].concat(), "{b}");
            reordered += usize::from(order != legal);
        }
        if rows * cols <= NEARER_FIRST_MAX_CELLS {
            assert!(reordered > 5, "{rows}×{cols}: {reordered}");
        }
    }
}
