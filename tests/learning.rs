//! The app as a learning tool, driven with egui_kittest: Step expands one node and the
//! inspector shows its successors and their fates, the open list in pop order, the tree, the
//! IDA* iterations; and the fixes of the trial's list (§7 of the learning issue).
#![cfg(feature = "gui")]

mod common;

use common::harness::{expanded, harness, harness_sized, painted_texts, set, step_until};
use common::{goal, replay};
use egui_kittest::kittest::Queryable;
use npuzzle::app::{AppState, HeuristicChoice, Level, LowerView, RunState};
use npuzzle::heuristic::{HeuristicKind, HeuristicSpec};
use npuzzle::puzzle::{Board, GoalSpec, Move};
use npuzzle::search::stepper::{Fate, Stepper};
use npuzzle::search::{Algorithm, Limits, Outcome, Problem, Pruning, solve};

/// Blank in the middle, two moves from the goal (Down, Right); Manhattan h = 2.
const NEAR: &str = "1 2 3/4 0 6/7 5 8";
/// The 31-move 8-puzzle.
const HARD8: &str = "8 6 7/2 5 4/3 0 1";

/// BFS has no heuristic: the inspector shows its nodes' depth g alone, not a g/h/f with h 0,
/// and the Stats panel its depth.
#[test]
fn the_inspector_shows_bfs_nodes_by_depth_alone() {
    let mut h = harness(NEAR);
    set(
        &mut h.state_mut().st,
        Algorithm::Bfs,
        HeuristicKind::Manhattan,
    );
    h.step();
    h.get_by_label("Step").click();
    step_until(&mut h, |s| expanded(s) == 1 && s.run.is_idle());
    h.step();
    h.get_by_label("g 0");
    assert!(h.query_all_by_label_contains("new: queued").count() >= 2);
    assert!(h.query_by_label_contains("h 0").is_none());
    assert!(h.query_by_label_contains("  f ").is_none());
    // Nor do the Stats: its depth, no g / h / f.
    h.get_by_label("depth");
    assert!(h.query_by_label("g / h / f").is_none());
}

#[test]
fn step_expands_one_node_and_the_inspector_shows_its_successors_and_fates() {
    let mut h = harness(NEAR);
    set(
        &mut h.state_mut().st,
        Algorithm::AStar,
        HeuristicKind::Manhattan,
    );
    h.step();
    h.get_by_label("Step").click();
    step_until(&mut h, |s| expanded(s) == 1 && s.run.is_idle());
    // Never runs ahead: still one node after more frames.
    for _ in 0..5 {
        h.step();
    }
    let st = &h.state().st;
    assert!(st.run.is_stepped() && st.is_paused());
    let v = st.run.inspect().unwrap();
    let e = v.last.as_ref().unwrap();
    assert_eq!((e.number, e.g, e.h), (1, 0, 2));
    let fates: Vec<(Move, u32, Fate)> = e.successors.iter().map(|s| (s.mv, s.h, s.fate)).collect();
    assert_eq!(
        fates,
        [
            (Move::Up, 3, Fate::Pushed),
            (Move::Down, 1, Fate::Pushed),
            (Move::Left, 3, Fate::Pushed),
            (Move::Right, 3, Fate::Pushed),
        ]
    );
    assert_eq!((v.open, v.closed), (4, 1));
    // The panel says so.
    h.get_by_label("Expansion #1");
    assert_eq!(h.query_all_by_label("new: pushed to open").count(), 4);
    h.get_by_label_contains("1 state expanded out of 181 440 reachable");
    // The second step expands the f = 2 board; its parent is named as such.
    h.get_by_label("Step").click();
    step_until(&mut h, |s| expanded(s) == 2 && s.run.is_idle());
    h.get_by_label("the parent: never undo the last move");
    assert_eq!(h.query_all_by_label("new: pushed to open").count(), 2);
    // The third pops the goal: solved, in two moves.
    h.get_by_label("Step").click();
    step_until(&mut h, |s| *s.run.state() == RunState::Done);
    let sol = h.state().st.run.solution().unwrap();
    assert_eq!(sol.moves, [Move::Down, Move::Right]);
    assert_eq!(sol.stats.expanded, 2);
}

#[test]
fn the_open_list_is_shown_in_pop_order_and_clicking_a_board_shows_it() {
    let mut h = harness(HARD8);
    set(
        &mut h.state_mut().st,
        Algorithm::AStar,
        HeuristicKind::Manhattan,
    );
    h.step();
    h.get_by_label("×10").click();
    step_until(&mut h, |s| expanded(s) == 10 && s.run.is_idle());
    // The same ten steps, taken directly: the same open list, in the same order.
    let g = goal(&GoalSpec::BlankLast, 3, 3);
    let p = Problem {
        start: HARD8.parse().unwrap(),
        goal: g,
    };
    let spec = HeuristicSpec::Kind(HeuristicKind::Manhattan);
    let mut direct = Stepper::new(&p, Algorithm::AStar, &spec, 1 << 30).unwrap();
    for _ in 0..10 {
        direct.step().unwrap();
    }
    let v = h.state().st.run.inspect().unwrap().clone();
    assert_eq!(v.open_top, direct.open_top(v.open_top.len()));
    assert!(!v.open_top.is_empty());
    let keys: Vec<(u32, std::cmp::Reverse<u32>)> = v
        .open_top
        .iter()
        .map(|o| (o.g + o.h, std::cmp::Reverse(o.g)))
        .collect();
    assert!(keys.is_sorted(), "{keys:?}");
    // The tree holds every node expanded.
    assert_eq!(v.tree.len(), 10);
    // A click on the first open entry's caption's board puts it on the main board.
    let first = &v.open_top[0];
    h.state_mut().st.view.focus = Some(first.board.clone());
    h.step();
    assert_eq!(&h.state().st.shown_board(), &first.board);
    h.get_by_label("Back to the puzzle").click();
    h.step();
    assert_eq!(h.state().st.shown_board(), *h.state().st.board());
}

#[test]
fn a_stepped_search_runs_to_the_same_answer_and_counts_as_the_fast_one() {
    for algo in [Algorithm::AStar, Algorithm::IdaStar, Algorithm::Bfs] {
        let mut h = harness(HARD8);
        set(&mut h.state_mut().st, algo, HeuristicKind::Manhattan);
        h.step();
        h.get_by_label("Step").click();
        step_until(&mut h, |s| expanded(s) == 1 && s.run.is_idle());
        h.get_by_label("Run").click();
        step_until(&mut h, |s| *s.run.state() == RunState::Done);
        let st = &h.state().st;
        let sol = st.run.solution().unwrap();
        let g = goal(&GoalSpec::BlankLast, 3, 3);
        assert_eq!(sol.moves.len(), 31, "{algo}");
        assert_eq!(&replay(st.board(), &sol.moves), g.board(), "{algo}");
        let p = Problem {
            start: HARD8.parse().unwrap(),
            goal: g,
        };
        let Outcome::Solved(fast) = solve(
            &p,
            algo,
            HeuristicKind::Manhattan,
            // The app's IDA* prunes as the stepper does: "never undo".
            &Limits {
                pruning: Pruning::Undo,
                ..Limits::default()
            },
            &mut |_| {},
        )
        .unwrap() else {
            panic!()
        };
        assert_eq!(sol.stats.expanded, fast.stats.expanded, "{algo}");
        // The tree: every node expanded (BFS's 181,000 are past the limit: not drawn).
        let v = st.run.inspect().unwrap();
        // IDA*'s tree is the last iteration's.
        let in_tree = if algo == Algorithm::IdaStar {
            fast.stats.iterations.last().unwrap().expanded
        } else {
            fast.stats.expanded
        };
        if in_tree <= npuzzle::search::stepper::TREE_LIMIT as u64 {
            assert!(v.tree_complete, "{algo}");
            assert_eq!(v.tree.len() as u64, in_tree, "{algo}");
        } else {
            assert!(!v.tree_complete, "{algo}");
        }
        // The Stats panel's figures are the final ones.
        let pr = st.run.progress().unwrap();
        assert_eq!(pr.expanded, fast.stats.expanded, "{algo}");
    }
}

#[test]
fn ida_star_iterations_are_charted_and_each_finished_one_keeps_its_heatmap() {
    let mut h = harness(HARD8);
    set(
        &mut h.state_mut().st,
        Algorithm::IdaStar,
        HeuristicKind::Manhattan,
    );
    h.step();
    h.get_by_label("Next iteration").click();
    step_until(&mut h, |s| s.run.iterations().len() == 1 && s.run.is_idle());
    let it = h.state().st.run.iterations()[0].clone();
    // Manhattan of the start is 21: the first threshold.
    assert_eq!(it.threshold, 21);
    assert!(it.histogram.is_some());
    // The Stats panel shows the new threshold; the Inspector's last expansion is of the ended
    // iteration, and says so.
    h.step();
    let next = h.state().st.run.progress().unwrap().bound;
    assert!(next > 21);
    h.get_by_label_contains(&format!(
        "Iteration with threshold 21 ended; the one with threshold {next} has expanded nothing yet"
    ));
    h.get_by_label("threshold 21");
    h.get_by_label("Next iteration").click();
    step_until(&mut h, |s| s.run.iterations().len() == 2 && s.run.is_idle());
    // Run the rest at full speed (not stepped): every iteration recorded, equal to IDA*'s own.
    h.get_by_label("Stop").click();
    h.step();
    h.get_by_label("Start").click();
    step_until(&mut h, |s| *s.run.state() == RunState::Done);
    let st = &h.state().st;
    let sol = st.run.solution().unwrap();
    let got: Vec<(u32, u64)> = st
        .run
        .iterations()
        .iter()
        .map(|i| (i.threshold, i.expanded))
        .collect();
    let want: Vec<(u32, u64)> = sol
        .stats
        .iterations
        .iter()
        .map(|i| (i.threshold, i.expanded))
        .collect();
    assert_eq!(got, want);
    assert_eq!(got[0].0, 21);
    // The chart view: a finished iteration's bar tells its figures on hover, and a click on it
    // shows its heatmap.
    h.get_by_label("Iterations").click();
    h.step();
    assert_eq!(h.state().st.view.lower, LowerView::Iterations);
    // The chart, once drawn, asks for no more frames (no animation).
    for _ in 0..30 {
        h.step();
    }
    let delay = h.output().viewport_output[&egui::ViewportId::ROOT].repaint_delay;
    assert!(delay > std::time::Duration::from_secs(1), "{delay:?}");
    let (t, n) = got[1];
    let tick = painted_lowest(&h, &t.to_string())
        .unwrap_or_else(|| panic!("no tick label {t} among {:?}", painted_texts(&h)));
    let over = egui::pos2(tick.center().x, tick.top() - 12.0);
    h.hover_at(over);
    // egui shows a tooltip after the pointer has rested a moment (frames of 1/60 s here).
    for _ in 0..60 {
        h.step();
    }
    let want = format!(
        "threshold {t}: {} nodes expanded · click for its heatmap",
        npuzzle::text::group_digits(n)
    );
    let texts = painted_texts(&h);
    assert!(texts.contains(&want), "no {want:?} among {texts:?}");
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos: over,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
    }
    h.step();
    assert_eq!(h.state().st.view.picked_iteration, Some(1));
    assert_eq!(h.state().st.view.lower, LowerView::Heatmap);
    h.step();
    h.get_by_label("iteration 2: back to live").click();
    h.step();
    assert_eq!(h.state().st.view.picked_iteration, None);
}

#[test]
fn the_stats_panel_shows_no_mixed_g_h_f_for_ida_star() {
    // The trial saw "f 84" beside "threshold 52": the start's h with the deepest g.
    let mut h = harness("0 12 9 13/15 11 10 14/3 7 2 5/4 8 6 1");
    set(
        &mut h.state_mut().st,
        Algorithm::IdaStar,
        HeuristicKind::Manhattan,
    );
    h.step();
    h.get_by_label("Start").click();
    step_until(&mut h, |s| s.run.progress().is_some_and(|p| p.expanded > 0));
    h.get_by_label("deepest g");
    assert!(h.query_by_label("g / h / f").is_none());
    h.get_by_label("Stop").click();
    h.step();
}

#[test]
fn after_an_a_star_solve_the_figures_are_the_final_ones() {
    let mut h = harness(HARD8);
    set(
        &mut h.state_mut().st,
        Algorithm::AStar,
        HeuristicKind::Hamming,
    );
    h.step();
    h.get_by_label("Start").click();
    step_until(&mut h, |s| *s.run.state() == RunState::Done);
    let st = &h.state().st;
    let sol = st.run.solution().unwrap();
    let p = st.run.progress().unwrap();
    // The open list drawn is the final one: the closed count of the last report is the
    // search's own, and the histogram holds exactly the open entries.
    assert_eq!(p.frontier.closed, sol.stats.closed);
    let hist = p.histogram.as_ref().unwrap();
    assert_eq!(hist.total(), p.frontier.open);
    // The goal is closed but not expanded, and the row's hover text says so.
    assert_eq!(p.frontier.closed, p.expanded + 1);
    h.get_by_label("open / closed").hover();
    // egui shows a tooltip after the pointer has rested a moment (frames of 1/60 s here).
    for _ in 0..60 {
        h.step();
    }
    let texts = painted_texts(&h);
    assert!(
        texts
            .iter()
            .any(|t| t.contains("closed is one more than expanded")),
        "no hover text among {texts:?}"
    );
}

#[test]
fn a_paused_search_holds_and_the_window_has_nothing_to_redraw() {
    let mut h = harness("0 12 9 13/15 11 10 14/3 7 2 5/4 8 6 1");
    set(
        &mut h.state_mut().st,
        Algorithm::AStar,
        HeuristicKind::Manhattan,
    );
    h.step();
    h.get_by_label("Start").click();
    step_until(&mut h, |s| s.run.progress().is_some());
    h.get_by_label("Pause").click();
    step_until(&mut h, |s| s.run.is_idle());
    // Idle means every snapshot was sent: one more frame drains the last of them.
    h.step();
    let before = h.state().st.run.progress().unwrap().expanded;
    for _ in 0..5 {
        h.step();
    }
    assert_eq!(h.state().st.run.progress().unwrap().expanded, before);
    // A step asked for is work again until it is done.
    h.get_by_label("Step").click();
    h.step();
    step_until(&mut h, |s| s.run.is_idle());
    h.step();
    assert!(h.state().st.run.progress().unwrap().expanded > before);
    h.get_by_label("Stop").click();
    h.step();
}

#[test]
fn a_size_preset_loads_a_board_of_that_size_at_once() {
    let mut h = harness(HARD8);
    h.step();
    h.get_by_label("4×4").click();
    h.step();
    let b = h.state().st.board().clone();
    assert_eq!((b.rows(), b.cols()), (4, 4));
    assert_ne!(&b, goal(&GoalSpec::BlankLast, 4, 4).board(), "scrambled");
}

#[test]
fn sizes_out_of_range_are_said_to_be_changed() {
    let mut h = harness(HARD8);
    h.step();
    let st = &mut h.state_mut().st;
    st.set_scramble_size(1, 20);
    assert_eq!(st.scramble.size, (2, 16));
    let msgs: Vec<String> = st.messages.iter().map(|m| m.text.clone()).collect();
    assert_eq!(
        msgs,
        [
            "rows must be 2 to 16: 1 set to 2",
            "cols must be 2 to 16: 20 set to 16"
        ]
    );
    assert!(st.messages.iter().all(|m| m.level == Level::Notice));
}

#[test]
fn notices_and_errors_are_told_apart() {
    let mut h = harness(HARD8);
    h.step();
    let st = &mut h.state_mut().st;
    assert!(!st.load_text("1 2 3/4 5 5/7 8 0", "bad.txt"));
    assert_eq!(st.messages.last_message().unwrap().level, Level::Error);
    h.step();
    h.get_by_label_contains("error: bad.txt");
    let st = &mut h.state_mut().st;
    st.settings.heuristic =
        HeuristicChoice::Pdb(npuzzle::heuristic::pdb::PartitionSpec::parse("pdb555").unwrap());
    st.set_board(Board::new(3, 3, &[1, 2, 3, 4, 5, 6, 7, 8, 0]).unwrap(), "t");
    let m = st.messages.last_message().unwrap();
    assert_eq!(m.level, Level::Notice, "{}", m.text);
    assert!(m.text.contains("heuristic set to pdb8"), "{}", m.text);
    h.step();
    // A notice reads without the error tag; the failed load was about the puzzle before this
    // one, and went with it.
    h.get_by_label_contains("pdb555 does not fit this board");
    assert!(h.query_by_label_contains("error: pdb555").is_none());
    assert!(h.query_by_label_contains("error: bad.txt").is_none());
}

#[test]
fn playback_highlights_the_move_just_played() {
    let mut h = harness(HARD8);
    set(
        &mut h.state_mut().st,
        Algorithm::AStar,
        HeuristicKind::Manhattan,
    );
    h.step();
    h.get_by_label("Start").click();
    step_until(&mut h, |s| *s.run.state() == RunState::Done);
    h.get_by_label("at the start");
    for _ in 0..3 {
        h.get_by_label(">").click();
        h.step();
    }
    h.step();
    assert_eq!(h.state().st.playback.position(), 3);
    h.get_by_label("move 3 of 31 played (highlighted)");
}

#[test]
fn a_pattern_database_build_shows_overall_progress_and_goes_with_stop() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness("0 12 9 13/15 11 10 14/3 7 2 5/4 8 6 1");
    {
        let st = &mut h.state_mut().st;
        st.settings.algorithm = Algorithm::IdaStar;
        st.settings.pdb_cache = Some(dir.path().to_path_buf());
        st.settings.heuristic =
            HeuristicChoice::Pdb(npuzzle::heuristic::pdb::PartitionSpec::parse("pdb663").unwrap());
    }
    h.step();
    h.get_by_label("Start").click();
    step_until(&mut h, |s| s.run.building().is_some_and(|b| b.filled > 0));
    let b = h.state().st.run.building().unwrap().clone();
    assert!(b.overall > 0.0 && b.overall < 0.5, "{b:?}");
    h.get_by_label_contains("Building pdb663: pattern 1/3");
    h.get_by_label("Stop").click();
    h.step();
    h.step();
    assert!(h.state().st.run.building().is_none());
    assert!(h.query_by_label_contains("Building pdb663").is_none());
    assert_eq!(*h.state().st.run.state(), RunState::Stopped);
}

#[test]
fn at_800_by_600_the_central_view_keeps_its_room() {
    let mut h = harness_sized(HARD8, 800.0, 600.0);
    h.step();
    h.step();
    let central = h.state().st.view.central_width;
    assert!(central >= 380.0, "central area {central} points wide");
}

/// A window opened small and then enlarged widens its side panels with it: the centre is not
/// left with all the new room while the panels stay cramped (and shrunk again, they shrink).
#[test]
fn enlarging_the_window_widens_the_side_panels() {
    let mut h = harness_sized(HARD8, 800.0, 600.0);
    h.step();
    h.step();
    let small = h.state().st.view.central_width;
    h.set_size(egui::vec2(1600.0, 900.0));
    h.step();
    h.step();
    let large = h.state().st.view.central_width;
    // Panels of 300 and 320 points at 1600 wide leave the centre at most 980 (less margins);
    // panels kept at their 800-point widths (160 and 200) would leave it about 1240.
    assert!(large <= 990.0, "central area {small} → {large} points wide");
    assert!(large > small, "central area {small} → {large} points wide");
    // And back: the panels shrink with the window, to their widths for it (within the
    // contents' fit): the centre gets its room back.
    h.set_size(egui::vec2(800.0, 600.0));
    h.step();
    h.step();
    let again = h.state().st.view.central_width;
    assert!(
        again >= small - 1.0 && again <= small + 30.0,
        "central area {small} → {large} → {again} points wide"
    );
}

/// A window squeezed to nothing (1×1, or 640×400) and enlarged again gets its side panels
/// back: they were left at the width squeezing gave them (the right one about 85 points,
/// its text a word a line).
#[test]
fn squeezing_the_window_and_enlarging_it_again_restores_the_side_panels() {
    for squeezed in [egui::vec2(1.0, 1.0), egui::vec2(640.0, 400.0)] {
        let mut h = harness(HARD8);
        h.step();
        h.step();
        let first = h.state().st.view.central_width;
        h.set_size(squeezed);
        h.step();
        h.step();
        h.set_size(egui::vec2(1280.0, 800.0));
        h.step();
        h.step();
        let again = h.state().st.view.central_width;
        assert!(
            (again - first).abs() <= 2.0,
            "{squeezed:?}: central area {first} → {again} points wide"
        );
    }
}

#[test]
fn next_layer_from_nothing_stops_at_the_layer_and_is_off_for_a_fast_search() {
    let mut h = harness(HARD8);
    set(
        &mut h.state_mut().st,
        Algorithm::AStar,
        HeuristicKind::Manhattan,
    );
    h.step();
    h.get_by_label("Next f layer").click();
    step_until(&mut h, |s| s.run.is_idle() && s.run.inspect().is_some());
    h.step();
    // The same run, taken directly: steps until the lowest f on open rises.
    let p = Problem {
        start: HARD8.parse().unwrap(),
        goal: goal(&GoalSpec::BlankLast, 3, 3),
    };
    let spec = HeuristicSpec::Kind(HeuristicKind::Manhattan);
    let mut direct = Stepper::new(&p, Algorithm::AStar, &spec, 1 << 30).unwrap();
    direct.step_layer(u64::MAX).unwrap();
    assert_eq!(expanded(&h.state().st), direct.expanded());
    assert!(direct.bound() > 21);
    // A fast search has no layers: the state ignores the request (an 80-move board: it is
    // still running).
    h.get_by_label("Stop").click();
    h.step();
    h.state_mut().st.set_board(
        "0 12 9 13/15 11 10 14/3 7 2 5/4 8 6 1".parse().unwrap(),
        "hard",
    );
    h.step();
    h.get_by_label("Start").click();
    h.step();
    assert!(h.state().st.is_running() && !h.state().st.run.is_stepped());
    let before = h.state().st.is_paused();
    h.state_mut().st.step_layer();
    assert_eq!(h.state().st.is_paused(), before);
    h.get_by_label("Stop").click();
    h.step();
}

/// Where the last frame painted `text` lowest in the window (the charts' tick labels are at
/// its bottom), if anywhere.
fn painted_lowest(
    h: &egui_kittest::Harness<'_, common::harness::TestApp>,
    text: &str,
) -> Option<egui::Rect> {
    fn walk(s: &egui::Shape, text: &str, out: &mut Vec<egui::Rect>) {
        match s {
            egui::Shape::Text(t) if t.galley.text() == text => out.push(t.visual_bounding_rect()),
            egui::Shape::Vec(v) => v.iter().for_each(|s| walk(s, text, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for c in &h.output().shapes {
        walk(&c.shape, text, &mut out);
    }
    out.into_iter().max_by(|a, b| a.top().total_cmp(&b.top()))
}

#[test]
fn the_heatmap_read_out_comes_with_the_first_pointer_move() {
    let mut h = harness("0 12 9 13/15 11 10 14/3 7 2 5/4 8 6 1");
    set(
        &mut h.state_mut().st,
        Algorithm::AStar,
        HeuristicKind::Manhattan,
    );
    h.step();
    h.get_by_label("Start").click();
    step_until(&mut h, |s| {
        s.run
            .progress()
            .and_then(|p| p.histogram.as_ref())
            .is_some_and(|hh| hh.total() > 1000)
    });
    h.get_by_label("Pause").click();
    step_until(&mut h, |s| s.run.is_idle());
    h.step();
    assert!(!painted_texts(&h).iter().any(|t| t.starts_with("g = ")));
    // One pointer move over the heatmap's plot, one frame: the read-out is there.
    h.hover_at(egui::pos2(560.0, 680.0));
    h.step();
    let texts = painted_texts(&h);
    let readout = texts.iter().find(|t| t.starts_with("g = ")).cloned();
    let readout = readout.unwrap_or_else(|| panic!("no read-out among {texts:?}"));
    assert!(readout.contains("count = "), "{readout}");
    h.get_by_label("Stop").click();
    h.step();
}

#[test]
fn batched_a_star_steps_one_node_a_round_then_runs_in_batches() {
    let mut h = harness(HARD8);
    {
        let st = &mut h.state_mut().st;
        set(st, Algorithm::BatchedAStar, HeuristicKind::Manhattan);
        st.settings.evaluator = npuzzle::app::EvaluatorChoice::Cpu;
        st.settings.batch_size = 64;
    }
    h.step();
    h.get_by_label("×10").click();
    step_until(&mut h, |s| expanded(s) == 10 && s.run.is_idle());
    h.step();
    h.get_by_label_contains("Batched A*, stepped: each round expands one node");
    // Stats name the search started, not the A* order it steps in, and that it holds between
    // steps.
    h.get_by_label("paused: batched A* + manhattan, stepped (one node a round)");
    // Its rounds so far are A*'s first ten expansions.
    let v = h.state().st.run.inspect().unwrap().clone();
    let p = Problem {
        start: HARD8.parse().unwrap(),
        goal: goal(&GoalSpec::BlankLast, 3, 3),
    };
    let spec = HeuristicSpec::Kind(HeuristicKind::Manhattan);
    let mut a = Stepper::new(&p, Algorithm::AStar, &spec, 1 << 30).unwrap();
    for _ in 0..10 {
        a.step().unwrap();
    }
    assert_eq!(v.open_top, a.open_top(v.open_top.len()));
    // Run: batches from there, to the optimum.
    h.get_by_label("Run").click();
    step_until(&mut h, |s| *s.run.state() == RunState::Done);
    let st = &h.state().st;
    let sol = st.run.solution().unwrap();
    assert_eq!(sol.moves.len(), 31);
    assert_eq!(&replay(st.board(), &sol.moves), p.goal.board());
    assert!(!st.run.is_stepped() && st.run.inspect().is_none());
    assert!(sol.stats.rounds > 0 && sol.stats.expanded > 10);
    // The tree tab says why it has no tree now (it said "press Step to start one").
    h.get_by_label("Tree").click();
    h.step();
    h.get_by_label_contains("Batched A* went on in batches after its steps");
}

/// Stepping IDA*: the step after an iteration's last node ends it and raises the threshold;
/// the Tree tab then says that the next iteration has expanded nothing yet, with the count
/// over all iterations (which the Stats panel shows), instead of "nothing expanded".
#[test]
fn ida_star_stepped_between_iterations_the_tree_says_the_next_has_not_begun() {
    let mut h = harness(HARD8);
    set(
        &mut h.state_mut().st,
        Algorithm::IdaStar,
        HeuristicKind::Manhattan,
    );
    h.step();
    h.get_by_label("Tree").click();
    h.step();
    // (expanded, iteration): each step raises one of them.
    let at = |s: &AppState| {
        s.run
            .progress()
            .map_or((0, 0), |p| (p.expanded, p.ida.number))
    };
    let mut steps = 0;
    while at(&h.state().st).1 < 2 {
        let before = at(&h.state().st);
        h.get_by_label("Step").click();
        step_until(&mut h, |s| at(s) != before && s.run.is_idle());
        steps += 1;
        assert!(steps < 1000, "the first iteration never ended");
    }
    h.step();
    let p = h.state().st.run.progress().unwrap().clone();
    assert!(p.expanded >= 1);
    assert_eq!(h.state().st.run.inspect().map(|v| v.tree.len()), Some(0));
    h.get_by_label_contains(&format!(
        "IDA*'s iteration 1 ended without the goal (the Iterations tab keeps its heatmap): \
         the next, with threshold {}, has expanded nothing yet",
        p.bound
    ));
    assert!(h.query_by_label_contains("Nothing expanded yet").is_none());
    // The next step expands the start board again: the tree has its root.
    let before = at(&h.state().st);
    h.get_by_label("Step").click();
    step_until(&mut h, |s| at(s) != before && s.run.is_idle());
    h.step();
    assert!(
        h.query_by_label_contains("has expanded nothing yet")
            .is_none()
    );
    h.get_by_label_contains("Search tree of IDA*'s iteration 2");
}

#[test]
fn gpu_ida_star_in_the_app_shows_its_rounds_and_grows_the_iteration_chart() {
    let Some(ctx) = common::gpu::context("gpu_ida_star_in_the_app") else {
        return;
    };
    let mut h = common::harness::harness_with_gpu("9 6 15 2/11 7 3 10/14 12 0 8/13 1 5 4", ctx);
    set(
        &mut h.state_mut().st,
        Algorithm::GpuIdaStar,
        HeuristicKind::LinearConflict,
    );
    h.step();
    h.get_by_label("Start").click();
    step_until(&mut h, |s| *s.run.state() == RunState::Done);
    h.step();
    let st = &h.state().st;
    let sol = st.run.solution().unwrap();
    assert_eq!(sol.moves.len(), 50);
    let p = st.run.progress().unwrap();
    assert_eq!(p.algorithm, Some(Algorithm::GpuIdaStar));
    assert!(
        p.rounds.count > 0 && sol.stats.rounds == p.rounds.count,
        "{} rounds",
        p.rounds.count
    );
    // Thresholds 36, 38, …, 50: eight iterations, each in the chart with the CPU's counts.
    let cpu = solve(
        &Problem {
            start: st.board().clone(),
            goal: st.goal().unwrap().clone(),
        },
        Algorithm::IdaStar,
        HeuristicKind::LinearConflict,
        // GPU IDA* prunes with "never undo".
        &Limits {
            pruning: Pruning::Undo,
            ..Limits::default()
        },
        &mut |_| {},
    )
    .unwrap();
    let Outcome::Solved(cpu) = cpu else { panic!() };
    let its = st.run.iterations();
    assert_eq!(its.len(), cpu.stats.iterations.len());
    for (a, b) in its.iter().zip(&cpu.stats.iterations).take(its.len() - 1) {
        assert_eq!((a.threshold, a.expanded), (b.threshold, b.expanded));
    }
    h.get_by_label("GPU rounds");
    h.get_by_label("busy (last round)");
}

/// Reset after playing the puzzle by hand brings back the board it started from (it kept the
/// solved board, whose search then found the goal in 0 moves), with its stated length and the
/// coach's count of moves started over; pressing R does the same as the button.
#[test]
fn reset_after_playing_by_hand_brings_back_the_puzzle() {
    let mut h = harness(NEAR);
    h.step();
    let start = h.state().st.board().clone();
    h.state_mut().st.set_stated_length(Some(2));
    // Down, Right: the player solves it.
    for m in [Move::Down, Move::Right] {
        assert!(h.state_mut().st.move_blank(m), "{m:?}");
    }
    h.step();
    let solved = goal(&GoalSpec::BlankLast, 3, 3).board().clone();
    assert_eq!(h.state().st.board(), &solved);
    assert_eq!(h.state().st.play.moves(), 2);
    assert_eq!(
        h.state().st.stated_length(),
        None,
        "the length was the puzzle's"
    );
    h.get_by_label("Reset").click();
    h.step();
    let st = &h.state().st;
    assert_eq!(st.board(), &start);
    assert_eq!(st.stated_length(), Some(2));
    assert_eq!(st.play.moves(), 0);
    // A Start now solves the puzzle, not the goal in 0 moves.
    h.state_mut().st.settings.algorithm = Algorithm::AStar;
    h.state_mut().st.start();
    for _ in 0..500 {
        h.step();
        if h.state().st.run.solution().is_some() {
            break;
        }
    }
    let moves = h.state().st.run.solution().map(|s| s.moves.len());
    assert_eq!(moves, Some(2));
    // With nothing played, Reset keeps the board (and a new puzzle is the new start).
    h.state_mut().st.reset();
    assert_eq!(h.state().st.board(), &start);
    // A move and its undo by hand come back to the puzzle but lost its stated length: Reset
    // brings that back too.
    assert!(h.state_mut().st.move_blank(Move::Down));
    assert!(h.state_mut().st.move_blank(Move::Up));
    assert_eq!(h.state().st.board(), &start);
    assert_eq!(h.state().st.stated_length(), None);
    h.state_mut().st.reset();
    assert_eq!(h.state().st.stated_length(), Some(2));
}

/// The trial: "frontier: share out of place" did nothing in a stepped A* or after a search
/// ended. A stepped search's shares are over the boards it put on the frontier; counted here
/// from a second stepper's fates.
#[test]
fn the_out_of_place_shares_show_for_a_stepped_search_and_after_it_ends() {
    let mut h = harness(HARD8);
    set(
        &mut h.state_mut().st,
        Algorithm::AStar,
        HeuristicKind::Manhattan,
    );
    h.step();
    for n in 1..=3 {
        h.get_by_label("Step").click();
        step_until(&mut h, |s| expanded(s) == n && s.run.is_idle());
    }
    h.get_by_label("frontier: share out of place").click();
    h.step();
    h.step();
    // The same three steps, counted by hand: per cell, the pushed boards whose tile there is
    // neither the blank nor the goal's.
    let start: Board = HARD8.parse().unwrap();
    let p = Problem {
        goal: goal(&GoalSpec::BlankLast, 3, 3),
        start,
    };
    let spec = HeuristicSpec::Kind(HeuristicKind::Manhattan);
    let mut s = Stepper::new(&p, Algorithm::AStar, &spec, u64::MAX).unwrap();
    let (mut out, mut pushed) = (vec![0u32; 9], 0u32);
    for _ in 0..3 {
        s.step().unwrap();
        for x in &s.last().unwrap().successors {
            if matches!(x.fate, Fate::Pushed | Fate::BetterPath { .. }) {
                pushed += 1;
                for (i, (&t, &g)) in x
                    .board
                    .tiles()
                    .iter()
                    .zip(p.goal.board().tiles())
                    .enumerate()
                {
                    out[i] += u32::from(t != 0 && t != g);
                }
            }
        }
    }
    assert!(pushed > 0);
    let want: Vec<String> = out
        .iter()
        .map(|&c| format!("{:.0}%", 100.0 * c as f32 / pushed as f32))
        .collect();
    let painted: Vec<String> = painted_texts(&h)
        .into_iter()
        .filter(|t| t.ends_with('%'))
        .collect();
    assert_eq!(painted, want);
    // Run to the end: the shares stay on the board.
    h.get_by_label("Run").click();
    step_until(&mut h, |s| s.run.solution().is_some());
    h.step();
    h.step();
    assert_eq!(
        painted_texts(&h)
            .iter()
            .filter(|t| t.ends_with('%'))
            .count(),
        9
    );
}

/// The trial: the Start button moved between five heights with the algorithm and the Recent
/// list. The run controls sit at the top of the left panel now.
#[test]
fn the_start_button_stays_put_whatever_the_algorithm_and_recent_files() {
    let mut h = harness(HARD8);
    let mut seen = Vec::new();
    for (i, algo) in [
        Algorithm::Bfs,
        Algorithm::AStar,
        Algorithm::IdaStar,
        Algorithm::BatchedAStar,
        Algorithm::GpuIdaStar,
    ]
    .into_iter()
    .enumerate()
    {
        let st = &mut h.state_mut().st;
        st.settings.algorithm = algo;
        for k in 0..i * 2 {
            st.recent
                .add(std::path::Path::new(&format!("/tmp/recent-{k}.txt")));
        }
        h.step();
        h.step();
        seen.push(h.get_by_label("Start").rect().min);
    }
    assert!(seen.windows(2).all(|w| w[0] == w[1]), "{seen:?}");
}
