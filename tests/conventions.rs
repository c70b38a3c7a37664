//! The conventions that make counts differ between programs and textbooks: A*'s tie-break rule
//! among entries of equal f ([`TieBreak`]) and when breadth-first search tests for the goal
//! ([`BfsGoalTest`]). Each rule's counts against a second implementation written here (a
//! binary-heap A* and a plain queue BFS, with the library's move order and "never undo"), and
//! a depth-2 board counted by hand.

mod common;

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet, VecDeque};

use common::goal;
use npuzzle::heuristic::{HeuristicKind, HeuristicSpec};
use npuzzle::puzzle::{Board, GoalSpec, Move};
use npuzzle::search::{
    Algorithm, BfsGoalTest, Limits, Outcome, Problem, SearchStats, TieBreak, solve,
};
use rand::SeedableRng;

/// The board the blank's move `m` makes from `t` (`cols` wide), if it stays on the board.
fn moved(t: &[u8], rows: usize, cols: usize, m: Move) -> Option<Vec<u8>> {
    let b = t.iter().position(|&x| x == 0)?;
    let (r, c) = (b / cols, b % cols);
    let to = match m {
        Move::Up if r > 0 => b - cols,
        Move::Down if r + 1 < rows => b + cols,
        Move::Left if c > 0 => b - 1,
        Move::Right if c + 1 < cols => b + 1,
        _ => return None,
    };
    let mut n = t.to_vec();
    n.swap(b, to);
    Some(n)
}

/// A* with a binary heap: f, then the rule's rank; the closed set keeps each board's best g
/// and the move that reached it (whose undo is not generated). Returns (expanded, generated).
fn reference_astar(p: &Problem, h: &HeuristicSpec, tie: TieBreak) -> (u64, u64) {
    let (rows, cols) = (p.start.rows(), p.start.cols());
    let h = h.build(&p.goal);
    let goal = p.goal.board().tiles().to_vec();
    let mut known: HashMap<Vec<u8>, (u32, Option<Move>, bool)> = HashMap::new();
    let mut heap = BinaryHeap::new();
    let mut seq = 0u64;
    let rank = |g: u32, seq: u64| match tie {
        TieBreak::HighG => (u64::from(u32::MAX - g), u64::MAX - seq),
        TieBreak::LowG => (u64::from(g), u64::MAX - seq),
        TieBreak::Fifo => (0, seq),
    };
    let start = p.start.tiles().to_vec();
    known.insert(start.clone(), (0, None, false));
    heap.push(Reverse((h.estimate(&start), rank(0, 0), 0u32, start)));
    let (mut expanded, mut generated) = (0, 0);
    while let Some(Reverse((_, _, g, t))) = heap.pop() {
        let info = known.get_mut(&t).unwrap();
        if info.2 || info.0 != g {
            continue;
        }
        info.2 = true;
        if t == goal {
            return (expanded, generated);
        }
        let last = info.1;
        expanded += 1;
        for m in Move::ALL {
            if Some(m.inverse()) == last {
                continue;
            }
            let Some(c) = moved(&t, rows, cols, m) else {
                continue;
            };
            generated += 1;
            if known.get(&c).is_some_and(|k| k.0 <= g + 1) {
                continue;
            }
            known.insert(c.clone(), (g + 1, Some(m), false));
            seq += 1;
            heap.push(Reverse((
                g + 1 + h.estimate(&c),
                rank(g + 1, seq),
                g + 1,
                c,
            )));
        }
    }
    panic!("no path")
}

/// Breadth-first search with a queue, testing for the goal as `test` says. Returns
/// (expanded, generated).
fn reference_bfs(p: &Problem, test: BfsGoalTest) -> (u64, u64) {
    let (rows, cols) = (p.start.rows(), p.start.cols());
    let goal = p.goal.board().tiles().to_vec();
    let start = p.start.tiles().to_vec();
    let mut seen = HashSet::from([start.clone()]);
    let mut queue = VecDeque::from([(start.clone(), None::<Move>)]);
    let (mut expanded, mut generated) = (0, 0);
    if start == goal {
        return (0, 0);
    }
    while let Some((t, last)) = queue.pop_front() {
        if test == BfsGoalTest::Expand && t == goal {
            return (expanded, generated);
        }
        expanded += 1;
        for m in Move::ALL {
            if Some(m.inverse()) == last {
                continue;
            }
            let Some(c) = moved(&t, rows, cols, m) else {
                continue;
            };
            generated += 1;
            if !seen.insert(c.clone()) {
                continue;
            }
            if test == BfsGoalTest::Generate && c == goal {
                return (expanded, generated);
            }
            queue.push_back((c, Some(m)));
        }
    }
    panic!("no path")
}

/// The library's counts of `algorithm` on `p` with `limits`.
fn counts(p: &Problem, algorithm: Algorithm, h: HeuristicKind, limits: &Limits) -> SearchStats {
    match solve(p, algorithm, h, limits, &mut |_| {}).unwrap() {
        Outcome::Solved(s) => s.stats,
        Outcome::Unsolvable(_) => panic!("unsolvable"),
    }
}

fn problem(start: &str) -> Problem {
    Problem {
        start: start.parse::<Board>().unwrap(),
        goal: goal(&GoalSpec::BlankLast, 3, 3),
    }
}

#[test]
fn bfs_goal_tests_on_a_depth_two_board_counted_by_hand() {
    // Blank bottom left, two moves from blank-last. Generated in the order up, down, left,
    // right: the start gives A (blank up) and B (blank right); A gives A1 (up) and A2
    // (right); B gives B1 (up) and then the goal (right).
    let p = problem("1 2 3/4 5 6/0 7 8");
    let at = |test| {
        let s = counts(
            &p,
            Algorithm::Bfs,
            HeuristicKind::Manhattan,
            &Limits {
                bfs_goal_test: test,
                ..Limits::default()
            },
        );
        (s.expanded, s.generated)
    };
    // Tested when generated: the start, A and B expanded; 2 + 2 + 2 generated.
    assert_eq!(at(BfsGoalTest::Generate), (3, 6));
    // Tested when popped: every board less than 2 moves away (3), and the boards at 2 popped
    // before the goal (A1, A2, B1): 6 expanded; B's 2, then A1's 1 (its blank is in a
    // corner), A2's 3 and B1's 3 more generated.
    assert_eq!(at(BfsGoalTest::Expand), (6, 13));
    assert_eq!(
        at(BfsGoalTest::default()),
        (3, 6),
        "the default is unchanged"
    );
}

#[test]
fn each_rule_counts_as_a_second_implementation_does() {
    let g = goal(&GoalSpec::BlankLast, 3, 3);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(43);
    let mut differ = HashSet::new();
    for _ in 0..12 {
        let start = npuzzle::puzzle::random::random_solvable(&g, &mut rng);
        let p = Problem {
            start,
            goal: g.clone(),
        };
        for test in BfsGoalTest::ALL {
            let limits = Limits {
                bfs_goal_test: test,
                ..Limits::default()
            };
            let s = counts(&p, Algorithm::Bfs, HeuristicKind::Manhattan, &limits);
            assert_eq!(
                (s.expanded, s.generated),
                reference_bfs(&p, test),
                "bfs {test} on {}",
                p.start
            );
        }
        for kind in [HeuristicKind::Hamming, HeuristicKind::Manhattan] {
            let mut by_rule = Vec::new();
            for tie in TieBreak::ALL {
                let limits = Limits {
                    tie_break: tie,
                    ..Limits::default()
                };
                let s = counts(&p, Algorithm::AStar, kind, &limits);
                let want = reference_astar(&p, &HeuristicSpec::Kind(kind), tie);
                assert_eq!(
                    (s.expanded, s.generated),
                    want,
                    "{kind:?} {tie} on {}",
                    p.start
                );
                by_rule.push(s.expanded);
            }
            differ.insert(by_rule[0] != by_rule[1] || by_rule[1] != by_rule[2]);
        }
    }
    assert!(differ.contains(&true), "the rules never changed a count");
}
