//! The menu bar and the keyboard, driven with egui_kittest: one action table gives every menu
//! item its key, no two actions share a key, each key and each menu item does what it says,
//! and no key acts while a text field has the keyboard.
#![cfg(feature = "gui")]

mod common;

use std::collections::HashSet;

use common::harness::{TestApp, harness, step_until};
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use npuzzle::app::actions::{ACTIONS, Action, Menu, key_text};
use npuzzle::app::{EXAMPLE_SETS, LowerView};
use npuzzle::puzzle::{Board, GoalSpec};

/// Ten moves from the goal, the blank in a corner.
const START: &str = "0 4 3/7 1 5/8 2 6";

fn press(h: &mut Harness<'_, TestApp>, k: &egui::KeyboardShortcut) {
    h.key_press_modifiers(k.modifiers, k.logical_key);
    h.step();
}

fn board(s: &str) -> Board {
    s.parse().unwrap()
}

/// Opens menu `menu` and clicks `item` in it (the menu's item, not a panel's button of the
/// same name: the menu is drawn first).
fn choose(h: &mut Harness<'_, TestApp>, menu: &str, item: &'static str) {
    // (The Puzzle panel has an Edit button too: the menu bar's comes first.)
    h.get_all_by_label(menu).next().unwrap().click();
    h.step();
    h.step();
    // A keyed item's label ends in its key ("Reset R").
    h.get_all_by_label_contains(item).next().unwrap().click();
    h.step();
    h.step();
}

#[test]
fn no_two_actions_share_a_key_and_every_key_is_shown() {
    let mut seen = HashSet::new();
    for e in ACTIONS {
        for k in e.keys {
            assert!(
                seen.insert((k.modifiers, k.logical_key)),
                "{} is given twice",
                key_text(k)
            );
        }
    }
    // The menus' keys: Ctrl+O is Open's, shown beside it.
    let mut h = harness(START);
    h.step();
    h.get_by_label("File").click();
    h.step();
    h.step();
    h.get_by_label_contains("Ctrl+O");
    h.get_by_label_contains("Ctrl+S");
    h.get_by_label_contains("Ctrl+Q");
    assert_eq!(
        key_text(
            &ACTIONS
                .iter()
                .find(|e| e.action == Action::Redo)
                .unwrap()
                .keys[0]
        ),
        "Ctrl+Shift+Z"
    );
}

#[test]
fn each_key_does_what_its_action_says() {
    let key = |a: Action| ACTIONS.iter().find(|e| e.action == a).unwrap().keys[0];
    let mut h = harness(START);
    h.step();
    // The arrows slide tiles; Undo and Redo walk them back and forth.
    let start = board(START);
    press(&mut h, &key(Action::SlideUp));
    assert_eq!(*h.state().st.board(), board("7 4 3/0 1 5/8 2 6"));
    press(&mut h, &key(Action::SlideLeft));
    assert_eq!(*h.state().st.board(), board("7 4 3/1 0 5/8 2 6"));
    press(&mut h, &key(Action::SlideRight));
    press(&mut h, &key(Action::SlideDown));
    assert_eq!(*h.state().st.board(), start);
    press(&mut h, &key(Action::Undo));
    assert_eq!(*h.state().st.board(), board("7 4 3/0 1 5/8 2 6"));
    press(&mut h, &key(Action::Redo));
    assert_eq!(*h.state().st.board(), start);
    // Text size: one step up, down, up twice and back to normal.
    press(&mut h, &key(Action::TextLarger));
    assert_eq!(h.state().st.view.text_size, 1.1);
    assert!((h.ctx.zoom_factor() - 1.1).abs() < 1e-6);
    press(&mut h, &key(Action::TextSmaller));
    assert_eq!(h.state().st.view.text_size, 1.0);
    press(&mut h, &key(Action::TextLarger));
    press(
        &mut h,
        &ACTIONS
            .iter()
            .find(|e| e.action == Action::TextLarger)
            .unwrap()
            .keys[1],
    );
    assert_eq!(h.state().st.view.text_size, 1.2);
    press(&mut h, &key(Action::TextNormal));
    assert_eq!(h.state().st.view.text_size, 1.0);
    // F1 opens the sheet, which lists every key.
    press(&mut h, &key(Action::Shortcuts));
    assert!(h.state().st.view.shortcuts_open);
    h.step();
    h.get_by_label("Keyboard shortcuts");
    h.get_by_label("Ctrl+Shift+Z, Ctrl+Y");
    press(&mut h, &key(Action::Shortcuts));
    assert!(!h.state().st.view.shortcuts_open);
    // The search's keys: Step starts a stepped search one node in; Back, Reset, Start, Pause,
    // Stop.
    h.state_mut().st.settings.steps_per_second = 1;
    press(&mut h, &key(Action::Step));
    step_until(&mut h, |s| {
        s.run.timeline().is_some_and(|(shown, _)| shown == 1)
    });
    press(&mut h, &key(Action::Step));
    step_until(&mut h, |s| {
        s.run.timeline().is_some_and(|(shown, _)| shown == 2)
    });
    press(&mut h, &key(Action::Back));
    step_until(&mut h, |s| {
        s.run.timeline().is_some_and(|(shown, _)| shown == 1)
    });
    press(&mut h, &key(Action::Reset));
    assert!(!h.state().st.is_running() && h.state().st.run.timeline().is_none());
    press(&mut h, &key(Action::Start));
    assert!(h.state().st.is_running() && !h.state().st.is_paused());
    press(&mut h, &key(Action::Pause));
    assert!(h.state().st.is_paused());
    press(&mut h, &key(Action::Stop));
    assert!(!h.state().st.is_running());
    // Ctrl+Q asks the window to close.
    press(&mut h, &key(Action::Quit));
    assert!(h.state().st.quit_requested());
}

#[test]
fn files_open_save_and_paste_by_key() {
    let dir = tempfile::tempdir().unwrap();
    let key = |a: Action| ACTIONS.iter().find(|e| e.action == a).unwrap().keys[0];
    let mut h = harness(START);
    h.step();
    // Ctrl+S saves the board as a file that reads back the same, goal and all.
    let saved = dir.path().join("board.txt");
    h.state_mut().st.set_goal(GoalSpec::BlankFirst);
    h.state_mut().dialogs.save = Some(saved.clone());
    press(&mut h, &key(Action::SaveBoard));
    let text = std::fs::read_to_string(&saved).unwrap();
    assert!(
        text.contains("# goal: blank-first\n3 3\n0 4 3\n7 1 5\n8 2 6\n"),
        "{text}"
    );
    // Ctrl+O opens it again (after another board came in).
    h.state_mut().st.set_goal(GoalSpec::BlankLast);
    h.state_mut()
        .st
        .set_board(board("1 2 3/4 5 6/7 8 0"), "other");
    h.state_mut().dialogs.open = Some(saved.clone());
    press(&mut h, &key(Action::Open));
    assert_eq!(*h.state().st.board(), board(START));
    assert_eq!(*h.state().st.goal_spec(), GoalSpec::BlankFirst);
    // Ctrl+V asks the window for the clipboard; its text comes back as a paste: a board.
    // (The key's press alone, so that the frame that acts on it is the last one.)
    let k = key(Action::PasteBoard);
    h.event(egui::Event::Key {
        key: k.logical_key,
        physical_key: None,
        pressed: true,
        repeat: false,
        modifiers: k.modifiers,
    });
    h.step();
    let asked = h.output().viewport_output[&egui::ViewportId::ROOT]
        .commands
        .iter()
        .any(|c| matches!(c, egui::ViewportCommand::RequestPaste));
    assert!(asked);
    h.event(egui::Event::Paste("8 6 7/2 5 4/3 0 1".into()));
    h.step();
    assert_eq!(*h.state().st.board(), board("8 6 7/2 5 4/3 0 1"));
    assert_eq!(h.state().st.source(), "<clipboard>");
}

#[test]
fn no_key_acts_while_a_text_field_has_the_keyboard() {
    let mut h = harness(START);
    h.step();
    h.get_by_role(egui::accesskit::Role::MultilineTextInput)
        .focus();
    h.step();
    assert!(h.ctx.egui_wants_keyboard_input());
    for k in [Key::ArrowUp, Key::N, Key::Space, Key::F1] {
        h.key_press(k);
        h.step();
    }
    h.key_press_modifiers(Modifiers::COMMAND, Key::Plus);
    h.step();
    let st = &h.state().st;
    assert_eq!(*st.board(), board(START));
    assert!(!st.is_running() && !st.view.shortcuts_open);
    assert_eq!(st.view.text_size, 1.0);
}

#[test]
fn every_menu_item_of_the_table_is_in_its_menu() {
    let mut h = harness(START);
    h.step();
    for menu in [Menu::File, Menu::Edit, Menu::View, Menu::Search, Menu::Help] {
        let count = |h: &Harness<'_, TestApp>, label| h.query_all_by_label_contains(label).count();
        let closed: Vec<usize> = ACTIONS.iter().map(|e| count(&h, e.label)).collect();
        h.get_all_by_label(menu.name()).next().unwrap().click();
        h.step();
        h.step();
        for (e, before) in ACTIONS.iter().zip(closed) {
            // The menu's items are there (beside any panel button of the same name).
            if e.menu == menu {
                assert!(count(&h, e.label) > before, "{}", e.label);
            }
        }
        // Escape closes the menu.
        h.key_press(Key::Escape);
        h.step();
        h.step();
    }
}

#[test]
fn menu_items_do_what_they_say() {
    let mut h = harness(START);
    h.step();
    choose(&mut h, "Help", "Lessons");
    assert!(h.state().st.view.lessons_open);
    choose(&mut h, "Help", "About npuzzle");
    assert!(h.state().st.view.about_open);
    h.get_by_label_contains(&format!("npuzzle {}", env!("CARGO_PKG_VERSION")));
    h.get_by_label_contains("MIT OR Apache-2.0");
    h.state_mut().st.view.about_open = false;
    choose(&mut h, "View", "Dark colours");
    assert!(!h.state().st.view.dark);
    assert_eq!(h.ctx.theme(), egui::Theme::Light);
    choose(&mut h, "View", "Left panel");
    assert!(!h.state().st.view.show_controls);
    assert!(h.query_by_label("Solver").is_none());
    choose(&mut h, "View", "Left panel");
    assert!(h.state().st.view.show_controls);
    choose(&mut h, "View", "Tree");
    assert_eq!(h.state().st.view.lower, LowerView::Tree);
    choose(&mut h, "View", "Larger text");
    assert_eq!(h.state().st.view.text_size, 1.1);
    choose(&mut h, "View", "Normal text size");
    assert_eq!(h.state().st.view.text_size, 1.0);
    // Search ▸ Step, Edit ▸ Undo after a move, Search ▸ Reset.
    h.state_mut().st.settings.steps_per_second = 1;
    choose(&mut h, "Search", "Step");
    step_until(&mut h, |s| {
        s.run.timeline().is_some_and(|(shown, _)| shown == 1)
    });
    choose(&mut h, "Search", "Reset");
    assert!(!h.state().st.is_running());
    assert!(h.state_mut().st.move_blank(npuzzle::puzzle::Move::Right));
    choose(&mut h, "Edit", "Undo");
    assert_eq!(*h.state().st.board(), board(START));
    choose(&mut h, "File", "Quit");
    assert!(h.state().st.quit_requested());
}

#[test]
fn open_example_lists_the_bundled_sets_and_opens_korf_1() {
    // Every bundled set parses, with the number of puzzles its file has.
    let counts: Vec<usize> = EXAMPLE_SETS.iter().map(|s| s.puzzles().len()).collect();
    assert_eq!(counts, [1, 4, 100, 16, 50, 1]);
    assert_eq!(EXAMPLE_SETS[2].label(0), "Korf #1 (57 moves)");
    assert_eq!(EXAMPLE_SETS[4].label(0), "Korf & Felner #1 (95 moves)");
    let mut h = harness(START);
    h.step();
    h.get_by_label("File").click();
    h.step();
    h.step();
    h.get_by_label("Open example").hover();
    h.step();
    h.step();
    h.get_by_label("Korf's 100 15-puzzles").hover();
    h.step();
    h.step();
    h.get_by_label("Korf #1 (57 moves)").click();
    h.step();
    let st = &h.state().st;
    assert_eq!(*st.board(), board("14 13 15 7/11 12 9 5/6 0 2 1/4 8 10 3"));
    assert_eq!(*st.goal_spec(), GoalSpec::BlankFirst);
    assert_eq!(st.stated_length(), Some(57));
}
