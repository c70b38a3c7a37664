//! The Puzzle panel: where the board comes from (files, paste, scramble, edits) and the goal.

use super::Dialogs;
use crate::app::state::AppState;
use crate::puzzle::GoalSpec;

/// The Puzzle panel: open, recent files, edit mode, paste, scramble, goal, solvability (and
/// why, on demand).
pub(super) fn show(ui: &mut egui::Ui, st: &mut AppState, dialogs: &mut dyn Dialogs) {
    ui.horizontal_wrapped(|ui| {
        if ui.button("Open…").on_hover_text("Ctrl+O: open a puzzle file (any format npuzzle reads)").clicked() {
            super::open_file(st, dialogs);
        }
        let mut edit = st.editor.is_on();
        if ui
            .checkbox(&mut edit, "Edit")
            .on_hover_text("Edit the board: click two tiles to swap them (a swap can make the board unsolvable)")
            .changed()
        {
            st.editor.set_on(edit);
        }
    });
    recent_files(ui, st);
    paste_box(ui, st);
    ui.separator();
    scramble_controls(ui, st);
    ui.separator();
    goal_choice(ui, st);
    super::explain::parity(ui, st);
}

/// The recent files, one button each (a click loads it); nothing when there are none.
fn recent_files(ui: &mut egui::Ui, st: &mut AppState) {
    if st.recent.paths().is_empty() {
        return;
    }
    ui.label("Recent:");
    let mut chosen = None;
    for p in st.recent.paths() {
        let name = p.file_name().map_or_else(
            || p.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        if ui
            .small_button(name)
            .on_hover_text(format!("Open {} again", p.display()))
            .clicked()
        {
            chosen = Some(p.clone());
        }
    }
    if let Some(p) = chosen {
        st.load_file(&p);
    }
}

/// The paste box, Load pasted, and why the text in the box did not load.
fn paste_box(ui: &mut egui::Ui, st: &mut AppState) {
    ui.label("Paste a board (any format):");
    ui.add(
        egui::TextEdit::multiline(&mut st.editor.paste)
            .desired_rows(2)
            .hint_text("8 6 7/2 5 4/3 0 1")
            .id_salt("paste"),
    )
    .on_hover_text("Rows of numbers, 0 for the blank, rows split by new lines or /");
    if ui
        .button("Load pasted")
        .on_hover_text("Load the board typed or pasted above")
        .clicked()
    {
        st.load_pasted();
    }
    // Why the text did not load, while it is the text in the box.
    if let Some((text, why)) = &st.editor.paste_error {
        if *text == st.editor.paste {
            ui.add(
                egui::Label::new(
                    egui::RichText::new(why)
                        .small()
                        .color(egui::Color32::from_rgb(235, 110, 90)),
                )
                .wrap(),
            );
        } else {
            st.editor.paste_error = None;
        }
    }
}

/// The scramble controls: the size presets, rows and columns, the next seed, the walk, and
/// Scramble.
fn scramble_controls(ui: &mut egui::Ui, st: &mut AppState) {
    ui.horizontal_wrapped(|ui| {
        for (r, c) in [(2, 3), (3, 3), (4, 4), (5, 5)] {
            if ui
                .selectable_label(st.scramble.size == (r, c), format!("{r}×{c}"))
                .on_hover_text(format!("A random solvable {r}×{c} board"))
                .clicked()
            {
                // A preset is a new puzzle at once: a scramble of that size.
                st.scramble.size = (r, c);
                st.scramble();
            }
        }
    });
    ui.horizontal_wrapped(|ui| {
        // No silent clamping: a size out of range is set to the nearest and said so.
        let (mut rows, mut cols) = st.scramble.size;
        let l = ui.label("Rows");
        ui.add(egui::DragValue::new(&mut rows).range(0..=99))
            .labelled_by(l.id)
            .on_hover_text("Rows of the next Scramble's board (2 to 16)");
        let l = ui.label("Cols");
        ui.add(egui::DragValue::new(&mut cols).range(0..=99))
            .labelled_by(l.id)
            .on_hover_text("Columns of the next Scramble's board (2 to 16)");
        st.set_scramble_size(rows, cols);
    });
    ui.horizontal_wrapped(|ui| {
        // The seed the next Scramble uses (the title names the one the board came from).
        let l = ui.label("Next seed");
        ui.add(egui::DragValue::new(&mut st.scramble.seed))
            .labelled_by(l.id)
            .on_hover_text(
                "Scramble uses this seed, then adds one; the window title names the seed of \
                 the board shown",
            );
        let l = ui.label("Walk");
        ui.add(egui::DragValue::new(&mut st.scramble.walk).range(0..=10_000))
            .labelled_by(l.id)
            .on_hover_text(
                "0 = a uniformly random solvable board; k = k random moves from the goal",
            );
    });
    if ui
        .button("Scramble")
        .on_hover_text("A new random board of the size above, from the seed and walk above")
        .clicked()
    {
        st.scramble();
    }
}

/// The goal: blank last, blank first, or the board shown.
fn goal_choice(ui: &mut egui::Ui, st: &mut AppState) {
    let mut goal = match st.goal_spec() {
        GoalSpec::BlankLast => 0,
        GoalSpec::BlankFirst => 1,
        GoalSpec::Board(_) => 2,
    };
    let before = goal;
    ui.horizontal_wrapped(|ui| {
        ui.label("Goal");
        ui.radio_value(&mut goal, 0, "blank last")
            .on_hover_text("Goal: tiles 1, 2, … in order, the blank in the last cell");
        ui.radio_value(&mut goal, 1, "blank first")
            .on_hover_text("Goal: the blank in the first cell, then tiles 1, 2, … in order");
        ui.radio_value(&mut goal, 2, "this board")
            .on_hover_text("Use the current board as the goal");
    });
    if goal != before {
        let spec = match goal {
            0 => GoalSpec::BlankLast,
            1 => GoalSpec::BlankFirst,
            _ => GoalSpec::Board(st.board().clone()),
        };
        st.set_goal(spec);
    }
}
