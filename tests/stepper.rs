//! The stepped search (what the app's Step drives): one node per step, the fates of the
//! successors, the open list's order, the tree, and node counts equal to the fast searches'.

mod common;

use common::{board, goal, replay};
use npuzzle::heuristic::{HeuristicKind, HeuristicSpec};
use npuzzle::puzzle::random::{random_solvable, random_walk};
use npuzzle::puzzle::{Board, GoalSpec, Move};
use npuzzle::search::stepper::{Fate, Step, Stepper, TREE_LIMIT};
use npuzzle::search::{Algorithm, Limits, Outcome, Problem, Pruning, SearchStats, solve};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn problem(start: Board, spec: GoalSpec) -> Problem {
    let goal = goal(&spec, start.rows(), start.cols());
    Problem { start, goal }
}

fn fast(p: &Problem, a: Algorithm, h: HeuristicKind) -> (Vec<Move>, SearchStats) {
    // The stepper prunes with "never undo".
    let limits = Limits {
        pruning: Pruning::Undo,
        ..Limits::default()
    };
    let Outcome::Solved(s) = solve(p, a, h, &limits, &mut |_| {}).unwrap() else {
        panic!("solvable")
    };
    (s.moves, s.stats)
}

/// Steps to the end; the steps that expanded a node (never more than one a step), and the
/// IDA* iteration ends seen.
fn run(st: &mut Stepper) -> (u64, Vec<u32>) {
    let (mut expanded, mut next) = (0, Vec::new());
    loop {
        let before = st.expanded();
        let step = st.step().unwrap();
        let d = st.expanded() - before;
        assert!(d <= 1, "{d} nodes in one step");
        assert_eq!(
            d == 1,
            step == Step::Expanded || (step == Step::Solved && d == 1)
        );
        expanded += d;
        match step {
            Step::Expanded => {}
            Step::NextIteration(t) => next.push(t),
            Step::Solved => return (expanded, next),
        }
        if let Some(e) = st.last() {
            assert_eq!(e.number, st.expanded());
        }
    }
}

#[test]
fn a_step_expands_one_node_and_names_each_successors_fate() {
    // Blank in the middle; two moves from the goal (Down, then Right). Manhattan h = 2.
    let p = problem(
        board(3, 3, &[1, 2, 3, 4, 0, 6, 7, 5, 8]),
        GoalSpec::BlankLast,
    );
    let spec = HeuristicSpec::Kind(HeuristicKind::Manhattan);
    let mut a = Stepper::new(&p, Algorithm::AStar, &spec, 1 << 30).unwrap();
    assert_eq!(a.step().unwrap(), Step::Expanded);
    assert_eq!(a.expanded(), 1, "one node, not the whole search");
    let e = a.last().unwrap();
    assert_eq!((e.g, e.h, e.number), (0, 2, 1));
    let got: Vec<_> = e
        .successors
        .iter()
        .map(|s| (s.mv, s.g, s.h, s.fate))
        .collect();
    assert_eq!(
        got,
        [
            (Move::Up, 1, 3, Fate::Pushed),
            (Move::Down, 1, 1, Fate::Pushed),
            (Move::Left, 1, 3, Fate::Pushed),
            (Move::Right, 1, 3, Fate::Pushed),
        ]
    );
    // Pop order: f = 2 first, then the three f = 4 boards, last pushed first.
    let open: Vec<_> = a
        .open_top(10)
        .iter()
        .map(|o| (o.g + o.h, o.board.blank()))
        .collect();
    assert_eq!(open, [(2, 7), (4, 5), (4, 3), (4, 1)]);
    assert_eq!((a.open_len(), a.closed_len()), (4, 1));

    assert_eq!(a.step().unwrap(), Step::Expanded);
    let e = a.last().unwrap();
    assert_eq!((e.g, e.h, e.path.as_slice()), (1, 1, &[Move::Down][..]));
    let got: Vec<_> = e.successors.iter().map(|s| (s.mv, s.h, s.fate)).collect();
    assert_eq!(
        got,
        [
            (Move::Up, 2, Fate::Parent),
            (Move::Left, 2, Fate::Pushed),
            (Move::Right, 0, Fate::Pushed),
        ]
    );
    assert_eq!(a.step().unwrap(), Step::Solved);
    assert_eq!(a.solution(), Some(&[Move::Down, Move::Right][..]));
    assert_eq!(a.expanded(), 2);
    assert_eq!(a.tree().len(), 2);
    assert_eq!(a.tree()[1].parent, Some(0));

    // IDA*: the same board; the threshold is h = 2, so three successors are over it.
    let mut i = Stepper::new(&p, Algorithm::IdaStar, &spec, 1 << 30).unwrap();
    assert_eq!(i.step().unwrap(), Step::Expanded);
    let fates: Vec<_> = i
        .last()
        .unwrap()
        .successors
        .iter()
        .map(|s| (s.mv, s.fate))
        .collect();
    use Fate::{OverThreshold as O, Pushed as P};
    // IDA*'s order: the moves whose tile comes nearer its goal cell first (Down slides the 5
    // home), then the others in move order.
    use Move::{Down, Left, Right, Up};
    assert_eq!(fates, [(Down, P), (Up, O), (Left, O), (Right, O)]);
    assert_eq!(i.bound(), 2);
    assert_eq!(i.step().unwrap(), Step::Expanded);
    assert_eq!(i.last().unwrap().path, [Move::Down]);
    assert_eq!(i.step().unwrap(), Step::Solved);
    assert_eq!(i.solution(), Some(&[Move::Down, Move::Right][..]));

    // BFS finds the goal when it is generated: the third expansion (Up, Down, … in order).
    let mut b = Stepper::new(&p, Algorithm::Bfs, &spec, 1 << 30).unwrap();
    run(&mut b);
    let last = b.last().unwrap();
    assert_eq!(last.successors.last().unwrap().fate, Fate::Goal);
    assert_eq!(b.solution().map(<[Move]>::len), Some(2));
}

#[test]
fn stepped_searches_count_the_nodes_the_fast_searches_count() {
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    // Uniform boards of the small shapes; 40-move walks on 4×4 (BFS only up to 3×3).
    let shapes = [(3, 3, 30), (2, 4, 10), (4, 2, 10), (2, 3, 10), (4, 4, 4)];
    let mut checked = 0;
    for (rows, cols, count) in shapes {
        for spec in [GoalSpec::BlankLast, GoalSpec::BlankFirst] {
            let g = goal(&spec, rows, cols);
            for _ in 0..count {
                let start = if rows * cols > 9 {
                    random_walk(&g, 40, &mut rng)
                } else {
                    random_solvable(&g, &mut rng)
                };
                let p = problem(start.clone(), spec.clone());
                for algo in [Algorithm::Bfs, Algorithm::AStar, Algorithm::IdaStar] {
                    if algo == Algorithm::Bfs && rows * cols > 9 {
                        continue;
                    }
                    let kinds: &[HeuristicKind] = if algo == Algorithm::Bfs {
                        &[HeuristicKind::Manhattan]
                    } else {
                        &[HeuristicKind::Manhattan, HeuristicKind::LinearConflict]
                    };
                    for &h in kinds {
                        let (moves, stats) = fast(&p, algo, h);
                        let mut st =
                            Stepper::new(&p, algo, &HeuristicSpec::Kind(h), 1 << 32).unwrap();
                        let (steps, next) = run(&mut st);
                        let what = format!("{rows}×{cols} {start} {algo} {h}");
                        let sol = st.solution().unwrap();
                        assert_eq!(sol.len(), moves.len(), "{what}");
                        assert_eq!(&replay(&start, sol), p.goal.board(), "{what}");
                        assert_eq!(
                            (st.expanded(), st.generated()),
                            (stats.expanded, stats.generated),
                            "{what}"
                        );
                        assert_eq!(steps, stats.expanded, "{what}: one node a step");
                        if algo == Algorithm::IdaStar {
                            assert_eq!(
                                st.iterations(),
                                &stats.iterations[..stats.iterations.len() - 1],
                                "{what}"
                            );
                            let thresholds: Vec<u32> =
                                stats.iterations[1..].iter().map(|i| i.threshold).collect();
                            assert_eq!(next, thresholds, "{what}");
                        } else if algo == Algorithm::AStar {
                            // Consistent heuristics: nothing is reopened, each close is a board.
                            assert_eq!(st.closed_len() as u64, stats.closed, "{what}");
                        }
                        if algo != Algorithm::Bfs {
                            assert_eq!(st.stats().iterations, stats.iterations, "{what}");
                        }
                        if st.tree_complete() && algo != Algorithm::IdaStar {
                            assert_eq!(st.tree().len() as u64, st.expanded(), "{what}");
                        }
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 250, "{checked}");
}

#[test]
fn the_open_list_is_listed_in_pop_order_and_the_tree_links_parents() {
    let p = problem(
        board(3, 3, &[8, 6, 7, 2, 5, 4, 3, 0, 1]),
        GoalSpec::BlankLast,
    );
    let spec = HeuristicSpec::Kind(HeuristicKind::Manhattan);
    let mut st = Stepper::new(&p, Algorithm::AStar, &spec, 1 << 30).unwrap();
    for _ in 0..200 {
        st.step().unwrap();
        let top = st.open_top(20);
        let keys: Vec<(u32, std::cmp::Reverse<u32>)> = top
            .iter()
            .map(|o| (o.g + o.h, std::cmp::Reverse(o.g)))
            .collect();
        assert!(keys.is_sorted(), "{keys:?}");
        assert_eq!(
            st.open_top(usize::MAX).len(),
            st.open_len(),
            "live entries counted"
        );
        // The first entry is the next one expanded.
        let next = top[0].board.clone();
        st.step().unwrap();
        assert_eq!(st.last().unwrap().board, next);
        for o in &top {
            assert_eq!(o.h, st.h(o.board.tiles()));
        }
    }
    // Every tree node's parent is one move away and one g less.
    let tree = st.tree();
    for n in tree.iter().skip(1) {
        let p = &tree[n.parent.unwrap()];
        assert_eq!(p.g + 1, n.g);
        assert!(
            p.board
                .legal_moves()
                .any(|m| p.board.moved(m).as_ref() == Some(&n.board))
        );
    }
    assert!(tree.len() <= TREE_LIMIT);
}

#[test]
fn batched_a_star_goes_on_optimally_from_a_stepped_a_star() {
    use npuzzle::eval::CpuEvaluator;
    use npuzzle::search::{Batch, Engine, run};
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    let mut resumed = 0;
    for spec in [GoalSpec::BlankLast, GoalSpec::BlankFirst] {
        let g = goal(&spec, 3, 3);
        for i in 0..20 {
            let start = random_solvable(&g, &mut rng);
            let p = problem(start.clone(), spec.clone());
            let want = common::bfs_distance(&start, g.board()).unwrap();
            let h = HeuristicSpec::Kind(HeuristicKind::Manhattan);
            let mut st = Stepper::new(&p, Algorithm::AStar, &h, 1 << 30).unwrap();
            for _ in 0..[1, 5, 50, 300][i % 4] {
                st.step().unwrap();
            }
            if st.solution().is_some() {
                continue;
            }
            let before = st.expanded();
            let mut e = CpuEvaluator::new(HeuristicKind::Manhattan, &g, 1);
            let batch = Batch {
                evaluator: &mut e,
                size: 64,
            };
            let r = run(
                &p,
                Engine::Batched {
                    batch,
                    from: Some(Box::new(st)),
                },
                &Limits::default(),
                &mut |_| {},
            )
            .unwrap();
            let Outcome::Solved(s) = r else { panic!() };
            assert_eq!(s.moves.len() as u32, want, "{start}");
            assert_eq!(&replay(&start, &s.moves), p.goal.board());
            assert!(
                s.stats.expanded >= before,
                "the counts go on from the steps'"
            );
            resumed += 1;
        }
    }
    assert!(resumed > 30, "{resumed}");
}

#[test]
fn ida_star_on_two_threads_expands_what_the_stepper_does_on_a_small_tree() {
    // The trial's board: two threads expanded 76 nodes and the app (one thread, the
    // stepper) 37; small iterations now run on one thread, so all three agree.
    let p = problem(
        board(3, 3, &[0, 8, 3, 2, 5, 6, 1, 4, 7]),
        GoalSpec::BlankLast,
    );
    let mut st = Stepper::new(
        &p,
        Algorithm::IdaStar,
        &HeuristicSpec::Kind(HeuristicKind::Manhattan),
        u64::MAX,
    )
    .unwrap();
    run(&mut st);
    for threads in [1, 2, 4] {
        let limits = Limits {
            pruning: Pruning::Undo,
            threads,
            ..Limits::default()
        };
        let Outcome::Solved(s) = solve(
            &p,
            Algorithm::IdaStar,
            HeuristicKind::Manhattan,
            &limits,
            &mut |_| {},
        )
        .unwrap() else {
            panic!("solvable")
        };
        assert_eq!(&replay(&p.start, &s.moves), p.goal.board());
        assert_eq!(s.moves.len(), 14);
        assert_eq!(
            (s.stats.expanded, st.expanded()),
            (37, 37),
            "{threads} threads"
        );
        assert_eq!(s.stats.generated, st.generated(), "{threads} threads");
    }
}
