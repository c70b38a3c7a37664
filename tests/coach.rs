//! The app's coach and captions, driven with egui_kittest: the board caption's value of each
//! heuristic, the hint's moves to solve after every move, the comparison table and the
//! textbook experiment, a pattern database's values once loaded.
#![cfg(feature = "gui")]

mod common;

use common::bin::HARD8;
use common::goal;
use common::harness::{harness, set, step_until};
use egui_kittest::kittest::Queryable;
use npuzzle::app::{HeuristicChoice, RunState};
use npuzzle::heuristic::{HeuristicKind, HeuristicSpec};
use npuzzle::puzzle::{Board, GoalSpec, Move};
use npuzzle::search::{Algorithm, Limits, Outcome, Problem, solve};

/// Blank in the middle, two moves from the goal (Down, Right); Manhattan h = 2.
const NEAR: &str = "1 2 3/4 0 6/7 5 8";

#[test]
fn the_board_caption_gives_each_heuristics_value() {
    let g = goal(&GoalSpec::BlankLast, 3, 3);
    let b: Board = HARD8.parse().unwrap();
    use npuzzle::heuristic::{Hamming, Heuristic, LinearConflict, Manhattan};
    let (hm, md, lc) = (
        Hamming::new(&g).estimate(b.tiles()),
        Manhattan::new(&g).estimate(b.tiles()),
        LinearConflict::new(&g).estimate(b.tiles()),
    );
    for (kind, text) in [
        (
            HeuristicKind::Hamming,
            format!("Hamming h = {hm}: the ringed tiles are out of place"),
        ),
        (
            HeuristicKind::Manhattan,
            format!("Manhattan h = {md}: each tile"),
        ),
        (
            HeuristicKind::LinearConflict,
            format!("linear conflict h = {lc} = Manhattan {md} + {}", lc - md),
        ),
    ] {
        let mut h = harness(HARD8);
        set(&mut h.state_mut().st, Algorithm::AStar, kind);
        h.step();
        h.get_by_label_contains(&text);
    }
}

/// Steps frames until the coach has answered for the board shown.
fn coached(h: &mut egui_kittest::Harness<'_, common::harness::TestApp>) -> u32 {
    step_until(h, |s| s.play.to_go(s.board()).is_some());
    h.state().st.play.to_go(h.state().st.board()).unwrap()
}

#[test]
fn the_coach_counts_moves_to_solve_after_every_move_and_its_hint_keeps_the_optimum() {
    let g = goal(&GoalSpec::BlankLast, 3, 3);
    let mut h = harness(NEAR);
    h.step();
    assert_eq!(coached(&mut h), 2);
    assert_eq!(h.state().st.play.start_optimum(), Some(2));
    h.get_by_label_contains("2 moves to solve from here (exact");
    // A move away: the coach says what it cost.
    assert!(h.state_mut().st.move_blank(Move::Up));
    let n = coached(&mut h);
    let b = h.state().st.board().clone();
    assert_eq!(Some(n), common::bfs_distance(&b, g.board()));
    assert_eq!(n, 3);
    assert!(h.state().st.play.verdict().unwrap().contains("added 2"));
    assert!(h.state().st.play.verdict_is_costly());
    // Hints from here on: each keeps the optimum (one less each time) to the goal.
    for left in (1..=3).rev() {
        h.get_by_label("Hint").click();
        h.step();
        let b = h.state().st.board().clone();
        let m = h.state().st.play.hint(&b).unwrap_or_else(|| {
            panic!(
                "no hint at {left}: to_go {:?}, answer for {:?}, board {b}",
                h.state().st.play.to_go(&b),
                h.state().st.play.answer().map(|a| a.board.to_string())
            )
        });
        assert_eq!(
            common::bfs_distance(&b.moved(m).unwrap(), g.board()),
            Some(left - 1)
        );
        assert!(h.state_mut().st.move_blank(m));
        if left > 1 {
            assert_eq!(coached(&mut h), left - 1);
        }
    }
    h.step();
    let st = &h.state().st;
    assert_eq!(st.board(), g.board());
    assert_eq!(st.play.moves(), 4);
    assert_eq!(
        st.play.verdict(),
        Some("Solved in 4 moves (optimal from the start was 2)")
    );
}

#[test]
fn the_coach_answers_15_puzzles_exactly() {
    // 30 moves from the goal (the window test's board); the coach uses what is ready.
    let mut h = harness("1 3 7 6/5 2 4 0/13 12 14 8/15 9 10 11");
    h.step();
    assert_eq!(coached(&mut h), 30);
    let before = h.state().st.board().clone();
    let m = before.legal_moves().next().unwrap();
    assert!(h.state_mut().st.move_blank(m));
    let n = coached(&mut h);
    assert!(n == 29 || n == 31, "{n}");
}

#[test]
fn compare_fills_a_table_equal_to_separate_solves() {
    let mut h = harness(HARD8);
    set(
        &mut h.state_mut().st,
        Algorithm::AStar,
        HeuristicKind::Manhattan,
    );
    h.step();
    h.get_by_label("Compare").click();
    h.step();
    h.get_by_label("Compare heuristics").click();
    step_until(&mut h, |s| {
        !s.compare.is_running() && !s.compare.rows().is_empty()
    });
    let st = &h.state().st;
    let rows = st.compare.rows().to_vec();
    // BFS, the five plain heuristics and pdb8.
    let names: Vec<&str> = rows.iter().map(|r| r.heuristic.as_str()).collect();
    assert_eq!(
        names,
        [
            "none",
            "hamming",
            "manhattan",
            "linear-conflict",
            "walking-distance",
            "wd-lc",
            "pdb8"
        ]
    );
    let p = Problem {
        start: HARD8.parse().unwrap(),
        goal: goal(&GoalSpec::BlankLast, 3, 3),
    };
    for r in &rows {
        assert_eq!(r.moves, Some(31), "{r:?}");
        let (algo, kind) = match r.heuristic.as_str() {
            "none" => (Algorithm::Bfs, HeuristicKind::Manhattan),
            "pdb8" => continue,
            k => (Algorithm::AStar, k.parse().unwrap()),
        };
        let Outcome::Solved(s) = solve(&p, algo, kind, &Limits::default(), &mut |_| {}).unwrap()
        else {
            panic!()
        };
        assert_eq!(
            (r.expanded, r.generated),
            (s.stats.expanded, s.stats.generated),
            "{r:?}"
        );
    }
    h.get_by_label_contains("Every search that finished found 31 moves");
}

#[test]
fn the_textbook_experiment_charts_every_depth_and_can_be_cancelled() {
    let mut h = harness(HARD8);
    h.step();
    h.get_by_label("Compare").click();
    h.step();
    h.get_by_label("Textbook experiment").click();
    h.step();
    step_until(&mut h, |s| !s.compare.depth_rows().is_empty());
    h.get_by_label("Cancel").click();
    step_until(&mut h, |s| !s.compare.is_running());
    let n = h.state().st.compare.depth_rows().len();
    assert!((1..12).contains(&n), "{n} rows after a cancel");
    // Run it to the end this time.
    h.get_by_label("Textbook experiment").click();
    step_until(&mut h, |s| {
        !s.compare.is_running() && s.compare.depth_rows().len() == 12
    });
    // The chart names the boards' shape (and says when the board shown is another one).
    assert_eq!(h.state().st.compare.experiment_shape(), Some((3, 3)));
    let rows = h.state().st.compare.depth_rows();
    for r in rows {
        // All of them where fewer than 20 exist (4 at depth 2, 16 at depth 4).
        let want = match r.depth {
            2 => 4,
            4 => 16,
            _ => 20,
        };
        assert_eq!(r.boards, want, "depth {}", r.depth);
        // Stronger heuristics, fewer nodes: BFS ≥ Hamming ≥ Manhattan (means over the same boards).
        let e: Vec<f64> = r.methods.iter().map(|c| c.expanded).collect();
        assert!(e[0] >= e[1] && e[1] >= e[2], "depth {}: {e:?}", r.depth);
    }
}

#[test]
fn a_pattern_database_caption_gives_each_patterns_value_once_loaded() {
    let b = "1 3 7 6/5 2 4 0/13 12 14 8/15 9 10 11";
    let mut h = harness(b);
    {
        let st = &mut h.state_mut().st;
        // No coach here: only the search loads the tables.
        st.play.enabled = false;
        st.settings.algorithm = Algorithm::IdaStar;
        st.settings.heuristic =
            HeuristicChoice::Pdb(npuzzle::heuristic::pdb::PartitionSpec::parse("pdb555").unwrap());
    }
    // (The harness's first frame may have asked the coach already: a new puzzle forgets it.)
    h.state_mut().st.set_board(b.parse().unwrap(), "test");
    h.step();
    h.get_by_label_contains("pdb555: 3 patterns, one colour each");
    h.get_by_label("Start").click();
    step_until(&mut h, |s| *s.run.state() == RunState::Done);
    h.step();
    let st = &h.state().st;
    let Some(HeuristicSpec::Pdb(pdb)) = st.run.heuristic() else {
        panic!("the run's heuristic is kept")
    };
    use npuzzle::heuristic::Heuristic;
    let board: Board = b.parse().unwrap();
    let (direct, _) = pdb.pattern_values(board.tiles());
    let terms: Vec<String> = direct.iter().map(u8::to_string).collect();
    let want = format!(
        "pdb555 h = {}: the patterns' table values (one colour each) {}",
        pdb.estimate(board.tiles()),
        terms.join(" + ")
    );
    h.get_by_label_contains(&want);
}
