//! The Solution panel: the optimal solution, its playback, and saving it.

use egui::Color32;

use super::{Dialogs, NO_DIALOG, group, save};
use crate::app::state::AppState;
use crate::puzzle::{Notation, format_moves};

/// The Solution panel: the answer, playback controls, copy and save.
pub(super) fn show(ui: &mut egui::Ui, st: &mut AppState, dialogs: &mut dyn Dialogs) {
    if let Some(v) = st.run.unsolvable() {
        ui.colored_label(Color32::LIGHT_RED, "No solution possible");
        ui.small(v.reason());
        return;
    }
    let Some(sol) = st.run.solution() else {
        ui.label("Start a search to find the optimal solution.");
        return;
    };
    let len = sol.moves.len();
    ui.strong(format!("Optimal length: {len} moves"));
    ui.small(format!(
        "{} expanded · {:.3} s · {}",
        group(sol.stats.expanded),
        sol.stats.seconds,
        sol.evaluator
    ));
    let letters = format_moves(&sol.moves, Notation::Blank);
    ui.add(egui::Label::new(format!("Blank moves: {letters}")).wrap());
    let tiles: Vec<String> = sol.tiles.iter().map(|t| t.to_string()).collect();
    ui.add(egui::Label::new(format!("Tiles: {}", tiles.join(" "))).wrap());
    ui.horizontal(|ui| {
        if ui.button("|<").on_hover_text("To the start").clicked() {
            st.seek(0);
        }
        if ui.button("<").on_hover_text("One move back").clicked() {
            st.step_playback(-1);
        }
        let play = if st.playback.is_playing() {
            "Pause"
        } else {
            "Play"
        };
        if ui.button(play).on_hover_text("Play / pause").clicked() {
            st.toggle_play();
        }
        if ui.button(">").on_hover_text("One move forward").clicked() {
            st.step_playback(1);
        }
        if ui.button(">|").on_hover_text("To the goal").clicked() {
            st.seek(len);
        }
    });
    let mut pos = st.playback.position();
    if ui
        .add(egui::Slider::new(&mut pos, 0..=len).text("move"))
        .changed()
    {
        st.seek(pos);
    }
    ui.add(
        egui::Slider::new(st.playback.speed_mut(), 0.5..=30.0)
            .logarithmic(true)
            .text("moves/s"),
    );
    ui.horizontal(|ui| {
        if ui
            .button("Copy")
            .on_hover_text("Copy the move letters")
            .clicked()
        {
            ui.ctx().copy_text(letters.clone());
        }
        if ui.button("Save text…").clicked() {
            save_as(st, dialogs, "solution.txt", AppState::solution_text);
        }
        if ui.button("Save JSON…").clicked() {
            save_as(st, dialogs, "solution.json", AppState::solution_json);
        }
    });
}

/// Asks where to save (suggesting `name`) and writes what `text` formats there.
fn save_as(
    st: &mut AppState,
    dialogs: &mut dyn Dialogs,
    name: &str,
    text: fn(&AppState) -> Option<String>,
) {
    match (dialogs.save(name), text(st)) {
        (Some(path), Some(text)) => save(st, &path, &text),
        (None, _) => st.messages.show(NO_DIALOG),
        _ => {}
    }
}
