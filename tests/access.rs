//! The app at any window size and from the keyboard and a screen reader (issue 40, §5 and
//! §6): side panels and small boards that grow with the window, the board reached with Tab
//! and played with the arrows and Enter, AccessKit labels on the board's cells and on the
//! custom views (egui_kittest finds widgets by those labels).

mod common;

use common::harness::{harness, harness_sized, set, step_until};
use egui_kittest::kittest::{NodeT, Queryable};
use npuzzle::app::{AppState, LowerView};
use npuzzle::heuristic::HeuristicKind;
use npuzzle::puzzle::Board;
use npuzzle::search::Algorithm;

/// Blank in the middle, two moves from the goal (Down, Right).
const NEAR: &str = "1 2 3/4 0 6/7 5 8";
/// A 4×4 board some moves from the goal: A* keeps a few boards on its open list.
const FOUR: &str = "5 1 2 4/9 6 3 8/13 10 7 11/0 14 15 12";

/// Nodes the inspector's snapshot has expanded (0 before any).
fn expanded(st: &AppState) -> u64 {
    st.run
        .inspect()
        .and_then(|v| v.last.as_ref())
        .map_or(0, |e| e.number)
}

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
        let got = h.state().st.view.side_widths;
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
