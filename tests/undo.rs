//! Undo and redo while playing by hand, driven with egui_kittest: the keys and buttons walk
//! the chain, a new move clears redo, the move counter and the coach's moves to solve follow
//! the board (checked against a breadth-first search), and an optimal solution played (the
//! coach's, or the Solution panel's playback) is one step on the chain.
#![cfg(feature = "gui")]

mod common;

use common::harness::{TestApp, harness, set, step_until};
use common::{bfs_distance, goal, replay};
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use npuzzle::app::RunState;
use npuzzle::heuristic::HeuristicKind;
use npuzzle::puzzle::{Board, GoalSpec, Move};
use npuzzle::search::Algorithm;

/// Ten moves from the goal, the blank in a corner.
const START: &str = "0 4 3/7 1 5/8 2 6";

/// Steps frames until the coach has answered for the board shown; its answer.
fn coached(h: &mut Harness<'_, TestApp>) -> u32 {
    step_until(h, |s| s.play.to_go(s.board()).is_some());
    h.state().st.play.to_go(h.state().st.board()).unwrap()
}

/// The board shown, its moves made, and its distance to the goal by breadth-first search.
fn here(h: &Harness<'_, TestApp>) -> (Board, u32, u32) {
    let st = &h.state().st;
    let g = goal(&GoalSpec::BlankLast, 3, 3);
    let b = st.board().clone();
    let d = bfs_distance(&b, g.board()).unwrap();
    (b, st.play.moves(), d)
}

/// After an undo or a redo the coach answers at once (the board was seen before), and
/// exactly.
fn answered_at_once(h: &Harness<'_, TestApp>) {
    let st = &h.state().st;
    let (_, _, d) = here(h);
    assert!(!st.play.thinking());
    assert_eq!(st.play.to_go(st.board()), Some(d));
}

#[test]
fn undo_and_redo_walk_the_moves_and_the_coach_follows() {
    let mut h = harness(START);
    h.step();
    coached(&mut h);
    let mut boards = vec![h.state().st.board().clone()];
    // Four moves: keys and clicks.
    for m in [Move::Right, Move::Down, Move::Left, Move::Up] {
        assert!(h.state_mut().st.move_blank(m));
        let n = coached(&mut h);
        let (b, made, d) = here(&h);
        assert_eq!((n, made), (d, boards.len() as u32));
        boards.push(b);
    }
    h.get_by_label_contains("Moves made: 4 ·");
    // Undo three times: Ctrl+Z, U, the button.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.step();
    assert_eq!(here(&h).0, boards[3]);
    answered_at_once(&h);
    h.key_press(Key::U);
    h.step();
    assert_eq!(here(&h).0, boards[2]);
    h.get_by_label("Undo").click();
    // The click's frame, and the next one drawn after it.
    h.step();
    h.step();
    let (b, made, _) = here(&h);
    assert_eq!((b, made), (boards[1].clone(), 1));
    answered_at_once(&h);
    h.get_by_label_contains("Moves made: 1 ·");
    // Redo twice: Ctrl+Y, Ctrl+Shift+Z; then the button, and Backspace undoes it.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Y);
    h.step();
    assert_eq!(here(&h).0, boards[2]);
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.step();
    assert_eq!(here(&h).0, boards[3]);
    answered_at_once(&h);
    h.get_by_label("Redo").click();
    h.step();
    assert_eq!(
        here(&h),
        (
            boards[4].clone(),
            4,
            bfs_distance(&boards[4], goal(&GoalSpec::BlankLast, 3, 3).board()).unwrap()
        )
    );
    h.key_press(Key::Backspace);
    h.step();
    assert_eq!(here(&h).1, 3);
    // A new move clears what could be redone.
    assert!(h.state().st.can_redo());
    let m = Move::ALL
        .into_iter()
        .find(|&m| {
            boards[3]
                .moved(m)
                .is_some_and(|b| b != boards[4] && b != boards[2])
        })
        .unwrap();
    assert!(h.state_mut().st.move_blank(m));
    assert!(!h.state().st.can_redo());
    assert!(!h.state_mut().st.redo());
    let n = coached(&mut h);
    let (b, made, d) = here(&h);
    assert_eq!((b, made, n), (boards[3].moved(m).unwrap(), 4, d));
    // Undo back to the start: the count is 0 and the start's optimum stands.
    while h.state_mut().st.undo() {}
    h.step();
    let (b, made, d) = here(&h);
    assert_eq!((b, made), (boards[0].clone(), 0));
    assert_eq!(h.state().st.play.start_optimum(), Some(d));
    answered_at_once(&h);
    assert!(!h.state().st.can_undo());
}

#[test]
fn the_coachs_solution_played_is_one_step_to_undo() {
    let mut h = harness(START);
    h.step();
    assert!(h.state_mut().st.move_blank(Move::Right));
    let n = coached(&mut h);
    let before = here(&h);
    h.step();
    h.get_by_label("Solve from here").click();
    h.step();
    let g = goal(&GoalSpec::BlankLast, 3, 3);
    let st = &h.state().st;
    assert_eq!(st.board(), g.board());
    assert_eq!(st.play.moves(), 1 + n);
    assert_eq!(st.play.chain().sizes(), (n as usize, 0));
    let start_opt = st.play.start_optimum().unwrap();
    assert_eq!(
        st.play.verdict().unwrap(),
        format!(
            "Solved in {} moves (optimal from the start was {start_opt})",
            1 + n
        )
    );
    // One undo takes it all back; the coach knows the board at once.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.step();
    assert_eq!(here(&h), before);
    answered_at_once(&h);
    assert!(h.state().st.play.verdict().is_none());
    // Redo plays it again, to the goal.
    assert!(h.state_mut().st.redo());
    assert_eq!(h.state().st.board(), g.board());
    assert_eq!(h.state().st.play.moves(), 1 + n);
}

#[test]
fn a_solution_played_back_becomes_one_step_when_the_player_goes_on() {
    let mut h = harness(START);
    set(
        &mut h.state_mut().st,
        Algorithm::AStar,
        HeuristicKind::Manhattan,
    );
    h.step();
    let start = h.state().st.board().clone();
    h.state_mut().st.start();
    step_until(&mut h, |s| *s.run.state() == RunState::Done);
    let moves = h.state().st.run.solution().unwrap().moves.clone();
    assert_eq!(
        moves.len() as u32,
        bfs_distance(&start, goal(&GoalSpec::BlankLast, 3, 3).board()).unwrap()
    );
    // Played back three moves, then a move by hand from the board shown.
    h.state_mut().st.seek(3);
    h.step();
    let shown = h.state().st.shown_board();
    assert_eq!(shown, replay(&start, &moves[..3]));
    let m = shown.legal_moves().find(|&m| m != moves[3]).unwrap();
    assert!(h.state_mut().st.move_blank(m));
    let st = &h.state().st;
    assert_eq!(st.board(), &shown.moved(m).unwrap());
    assert_eq!(st.play.moves(), 4);
    assert!(st.run.solution().is_none());
    // The hand move, then the three played moves at once.
    assert!(h.state_mut().st.undo());
    assert_eq!(h.state().st.board(), &shown);
    assert_eq!(h.state().st.play.chain().sizes(), (3, 1));
    assert!(h.state_mut().st.undo());
    assert_eq!(h.state().st.board(), &start);
    assert_eq!(h.state().st.play.moves(), 0);
    answered_at_once(&h);
}
