//! The app at any window size and from the keyboard and a screen reader (issue 40, §5 and
//! §6): side panels and small boards that grow with the window, the board reached with Tab
//! and played with the arrows and Enter, AccessKit labels on the board's cells and on the
//! custom views (egui_kittest finds widgets by those labels).

#![cfg(feature = "gui")]

mod common;

use common::harness::{expanded, harness, harness_sized, set, step_until};
use egui_kittest::kittest::{NodeT, Queryable};
use npuzzle::app::LowerView;
use npuzzle::heuristic::HeuristicKind;
use npuzzle::puzzle::Board;
use npuzzle::search::Algorithm;

/// Blank in the middle, two moves from the goal (Down, Right).
const NEAR: &str = "1 2 3/4 0 6/7 5 8";
/// A 4×4 board some moves from the goal: A* keeps a few boards on its open list.
const FOUR: &str = "5 1 2 4/9 6 3 8/13 10 7 11/0 14 15 12";

/// The widths of the small boards drawn (the inspector's, the open list's), in points.
fn small_boards(h: &egui_kittest::Harness<'_, common::harness::TestApp>) -> Vec<f32> {
    h.query_all_by_label_contains("small board:")
        .map(|n| n.rect().width())
        .collect()
}

/// At each window size the side panels take their share (a fifth on the left, a quarter on
/// the right, within 160–360 and 200–560 points) and the inspector's small boards grow with
/// the right one: readable at 800×600 (cells of 14 points at least: 56 for a 4×4 board), the
/// expanded node's at its largest (40-point cells, 160 points) from 1920×1080 up.
#[test]
fn side_panels_and_small_boards_grow_with_the_window() {
    let mut last = (0.0, 0.0);
    // (window, expected [left, right] panel, the expanded node's board width)
    for (w, ht, panels, large) in [
        (800.0, 600.0, [160.0, 200.0], None),
        (960.0, 540.0, [192.0, 240.0], None),
        (1280.0, 800.0, [256.0, 320.0], None),
        (1920.0, 1080.0, [360.0, 480.0], Some(160.0)),
        (2560.0, 1440.0, [360.0, 560.0], Some(160.0)),
    ] {
        let mut h = harness_sized(FOUR, w, ht);
        set(
            &mut h.state_mut().st,
            Algorithm::AStar,
            HeuristicKind::Manhattan,
        );
        h.step();
        h.state_mut().st.step(3);
        step_until(&mut h, |s| expanded(s) == 3 && s.run.is_idle());
        h.step();
        h.step();
        let got = h.state().st.view.side_widths.map(|w| w.unwrap_or(0.0));
        for (got, want, side) in [(got[0], panels[0], "left"), (got[1], panels[1], "right")] {
            assert!(
                (got - want).abs() <= 6.0,
                "{w}×{ht}: the {side} panel {got} points wide, not {want}"
            );
        }
        let boards = small_boards(&h);
        assert!(boards.len() >= 4, "{w}×{ht}: {} small boards", boards.len());
        let most = boards.iter().copied().fold(0.0, f32::max);
        let least = boards.iter().copied().fold(f32::MAX, f32::min);
        assert!(least >= 56.0, "{w}×{ht}: a small board {least} points wide");
        if let Some(l) = large {
            assert_eq!(most, l, "{w}×{ht}: the expanded node's board");
        }
        // Every small board inside the window, none cut at the right edge.
        for n in h.query_all_by_label_contains("small board:") {
            assert!(
                n.rect().max.x <= w + 0.5,
                "{w}×{ht}: a board ends at {}",
                n.rect().max.x
            );
        }
        assert!(
            most >= last.0 && least >= last.1,
            "{w}×{ht}: boards {most}/{least} points, smaller than {last:?} at a smaller window"
        );
        last = (most, least);
    }
}

/// Each cell of the board has an AccessKit label with its tile (or the blank), row and column
/// counted from 1, and says whether its tile is in place: colour is not the only cue.
#[test]
fn the_boards_cells_have_labels_a_screen_reader_reads() {
    let mut h = harness(NEAR);
    h.step();
    h.get_by_label("blank, row 2, column 2");
    let six = h.get_by_label("tile 6, row 2, column 3");
    assert_eq!(
        six.accesskit_node().description().as_deref(),
        Some("in place")
    );
    let five = h.get_by_label("tile 5, row 3, column 2");
    assert_eq!(
        five.accesskit_node().description().as_deref(),
        Some("out of place")
    );
    // The cells lie where the tiles are drawn: 6 right of the blank, 5 below it.
    let blank = h.get_by_label("blank, row 2, column 2").rect();
    assert!(
        six.rect().min.x > blank.max.x - 1.0
            && (six.rect().center().y - blank.center().y).abs() < 1.0
    );
    assert!(five.rect().min.y > blank.max.y - 1.0);
    h.get_by_label("board, 3 rows by 3 columns");
}

/// Tab reaches the board as it reaches the controls; then the arrows move a ring over the
/// cells (they do not slide tiles) and Enter slides the ringed tile into the blank. Escape
/// hands the focus back, and the arrows slide tiles again.
#[test]
fn tab_reaches_the_board_and_the_arrows_and_enter_play_it() {
    let mut h = harness(NEAR);
    h.step();
    let focused = |h: &egui_kittest::Harness<'_, _>| {
        h.query_by_label_contains("board, 3 rows by 3 columns")
            .is_some_and(|n| n.is_focused())
    };
    let mut tabs = 0;
    while !focused(&h) {
        assert!(tabs < 200, "Tab never reached the board");
        h.key_press(egui::Key::Tab);
        h.step();
        tabs += 1;
    }
    // The ring starts on the blank.
    h.get_by_label("board, 3 rows by 3 columns; the ring is on blank, row 2, column 2");
    let start: Board = NEAR.parse().unwrap();
    h.key_press(egui::Key::ArrowDown);
    h.step();
    h.step();
    assert_eq!(
        h.state().st.board(),
        &start,
        "an arrow moved a tile while the board had the focus"
    );
    h.get_by_label("board, 3 rows by 3 columns; the ring is on tile 5, row 3, column 2");
    h.key_press(egui::Key::Enter);
    h.step();
    h.step();
    let slid: Board = "1 2 3/4 5 6/7 0 8".parse().unwrap();
    assert_eq!(h.state().st.board(), &slid);
    // The ring stays on its cell, now the blank; Right then Enter slides 8.
    h.key_press(egui::Key::ArrowRight);
    h.step();
    h.key_press(egui::Key::Enter);
    h.step();
    h.step();
    let solved: Board = "1 2 3/4 5 6/7 8 0".parse().unwrap();
    assert_eq!(h.state().st.board(), &solved);
    // Escape: the focus goes, the arrow keys slide tiles (the tile left of the blank moves
    // right).
    h.key_press(egui::Key::Escape);
    h.step();
    assert!(!focused(&h));
    h.key_press(egui::Key::ArrowRight);
    h.step();
    h.step();
    let back: Board = "1 2 3/4 5 6/7 0 8".parse().unwrap();
    assert_eq!(h.state().st.board(), &back);
}

/// A button reached with Tab is pressed with Space, which then does not also start or pause
/// the search (Space's shortcut is for when no control has the focus).
#[test]
fn space_presses_the_focused_button_alone() {
    let mut h = harness(NEAR);
    h.step();
    h.get_by_label("Reset").focus();
    h.step();
    assert!(h.get_by_label("Reset").is_focused());
    h.key_press(egui::Key::Space);
    h.step();
    h.step();
    assert!(!h.state().st.is_running(), "Space started a search as well");
}

/// The heatmap, the tree and the iterations chart each have an AccessKit label with their
/// read-out in words.
#[test]
fn the_custom_views_say_what_they_show() {
    let mut h = harness(NEAR);
    set(
        &mut h.state_mut().st,
        Algorithm::AStar,
        HeuristicKind::Manhattan,
    );
    h.step();
    h.get_by_label_contains("Frontier heatmap: start a search");
    h.state_mut().st.step(1);
    step_until(&mut h, |s| expanded(s) == 1 && s.run.is_idle());
    h.step();
    // One expansion of NEAR: its 4 successors on the open list, h 1 or 3 (f 2 or 4).
    let heat = h.get_by_label_contains("Frontier heatmap: open list by (g, h)");
    let words = heat.accesskit_node().label().unwrap_or_default();
    assert!(
        words.contains("4 nodes in 2 cells, g 1, h 1 to 3"),
        "heatmap: {words}"
    );
    h.state_mut().st.view.lower = LowerView::Tree;
    h.step();
    h.step();
    h.get_by_role_and_label(
        egui::accesskit::Role::Tree,
        "Search tree: 1 expanded nodes, 4 generated children; the path to the last node in \
         orange.",
    );
    // IDA*: the chart of its iterations.
    let mut h = harness(NEAR);
    set(
        &mut h.state_mut().st,
        Algorithm::IdaStar,
        HeuristicKind::Manhattan,
    );
    h.state_mut().st.view.lower = LowerView::Iterations;
    h.step();
    h.get_by_label("Start").click();
    step_until(&mut h, |s| s.run.solution().is_some());
    h.step();
    h.step();
    // One iteration, threshold h = 2, which found the goal.
    let its = h.state().st.run.iterations();
    assert_eq!(its.iter().map(|i| i.threshold).collect::<Vec<_>>(), [2]);
    let words = format!(
        "IDA* iterations: threshold 2, {} nodes expanded",
        its[0].expanded
    );
    assert!(its[0].expanded >= 2);
    h.get_by_label(&words);
}
