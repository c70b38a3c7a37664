//! The Solution panel: the optimal solution, its playback, and saving it.

use egui::Color32;

use super::{Dialogs, NO_DIALOG, group, save};
use crate::app::state::AppState;
use crate::puzzle::{Notation, format_moves};
use crate::report::{listed_line, solutions_count};
use crate::search::AllSolutions;

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
    if sol.run.guarantees_optimal() {
        ui.strong(format!("Optimal length: {len} moves"));
    } else {
        // Greedy, weighted A*, a heuristic that overestimates: the length is not proven.
        let optimum = st.known_optimum().map(|o| o as usize);
        ui.strong(format!("Length: {}", crate::search::gap_text(len, optimum)));
        ui.colored_label(
            Color32::from_rgb(240, 170, 80),
            "Not guaranteed optimal: this search trades optimality for speed (or its h overestimates).",
        );
    }
    // Which search found it: the settings may have changed since.
    ui.small(format!(
        "found by {} · {} expanded · {:.3} s · {}",
        super::solver::search_name(sol.run.algorithm, Some(&sol.run.heuristic)),
        group(sol.stats.expanded),
        sol.stats.seconds,
        sol.evaluator
    ));
    // The move just played is highlighted, so the list follows the playback.
    let letters = format_moves(&sol.moves, Notation::Blank);
    let played = st.playback.position();
    let mut job = egui::text::LayoutJob::default();
    let plain = egui::TextFormat {
        font_id: egui::FontId::monospace(13.0),
        color: ui.visuals().text_color(),
        ..Default::default()
    };
    job.append("Blank moves: ", 0.0, plain.clone());
    for (i, ch) in letters.chars().enumerate() {
        let mut f = plain.clone();
        if i + 1 == played {
            f.background = egui::Color32::from_rgb(242, 160, 60);
            f.color = egui::Color32::BLACK;
        }
        job.append(&ch.to_string(), 0.0, f);
    }
    job.wrap.max_width = ui.available_width();
    ui.label(job);
    ui.small(if played == 0 {
        "at the start".to_string()
    } else {
        format!("move {played} of {len} played (highlighted)")
    });
    let tiles: Vec<String> = sol.tiles.iter().map(|t| t.to_string()).collect();
    ui.add(egui::Label::new(format!("Tiles: {}", tiles.join(" "))).wrap());
    let pick = sol
        .all
        .as_ref()
        .and_then(|all| all_solutions(ui, all, sol.chosen));
    ui.horizontal_wrapped(|ui| {
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
        if ui
            .button(play)
            .on_hover_text("Play the moves on the board, or pause")
            .clicked()
        {
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
    // Sliders that leave room for their value and label in a narrow panel.
    ui.spacing_mut().slider_width = (ui.available_width() - 130.0).clamp(50.0, 200.0);
    if ui
        .add(egui::Slider::new(&mut pos, 0..=len).text("move"))
        .on_hover_text("Show the board after this many moves of the solution")
        .changed()
    {
        st.seek(pos);
    }
    ui.add(
        egui::Slider::new(st.playback.speed_mut(), 0.5..=30.0)
            .logarithmic(true)
            .text("moves/s"),
    )
    .on_hover_text("How fast playback plays the moves");
    ui.horizontal_wrapped(|ui| {
        if ui
            .button("Copy")
            .on_hover_text("Copy the move letters to the clipboard")
            .clicked()
        {
            ui.ctx().copy_text(letters.clone());
        }
        if ui
            .button("Save text…")
            .on_hover_text("Save the board and its moves as text (Princeton format)")
            .clicked()
        {
            save_as(st, dialogs, "solution.txt", AppState::solution_text);
        }
        if ui
            .button("Save JSON…")
            .on_hover_text(
                "Save the answer and the search's figures as JSON (as npuzzle solve --format json)",
            )
            .clicked()
        {
            save_as(st, dialogs, "solution.json", AppState::solution_json);
        }
    });
    if let Some(i) = pick {
        st.choose_solution(i);
    }
}

/// The count of all optimal solutions and the list of those found, `chosen` highlighted;
/// returns the one clicked, to play back.
fn all_solutions(ui: &mut egui::Ui, all: &AllSolutions, chosen: usize) -> Option<usize> {
    ui.separator();
    ui.strong(format!("All optimal solutions: {}", solutions_count(all)));
    if let Some(line) = listed_line(all) {
        ui.small(line);
    }
    let listed = all.solutions.len();
    if listed > 1 {
        ui.small("…k: the first k moves are those of the solution above");
    }
    let mut pick = None;
    // A selectable label's height: its text and the button padding around it.
    let sp = ui.spacing();
    let text = ui.text_style_height(&egui::TextStyle::Monospace);
    let row = (text + 2.0 * sp.button_padding.y).max(sp.interact_size.y) + sp.item_spacing.y;
    egui::ScrollArea::both()
        .id_salt("all-solutions")
        .max_height(6.0 * row)
        .show_rows(ui, row, listed, |ui, rows| {
            // One line a solution (the rows are virtualised at one line's height); the area
            // scrolls sideways for long ones.
            ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
            for i in rows {
                let moves = &all.solutions[i];
                // The moves shared with the row above (none for the first row).
                let k = i
                    .checked_sub(1)
                    .map_or(0, |p| shared_prefix(&all.solutions[p], moves));
                let (text, hover) = if k > 0 {
                    (
                        format!("{:>4}  …{k} {}", i + 1, format_moves(&moves[k..], Notation::Blank)),
                        format!(
                            "Moves 1–{k} as in solution {i}, then move {} differs.\nAll of it: {}\nClick to play it back",
                            k + 1,
                            format_moves(moves, Notation::Blank)
                        ),
                    )
                } else {
                    (
                        format!("{:>4}  {}", i + 1, format_moves(moves, Notation::Blank)),
                        "Click to play this solution back".to_string(),
                    )
                };
                let label = egui::RichText::new(text).monospace();
                if ui
                    .selectable_label(i == chosen, label)
                    .on_hover_text(hover)
                    .clicked()
                {
                    pick = Some(i);
                }
            }
        });
    pick
}

/// How many moves `a` and `b` share from the start.
fn shared_prefix(a: &[crate::puzzle::Move], b: &[crate::puzzle::Move]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
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
        (None, _) => st.messages.show_about_board(NO_DIALOG),
        _ => {}
    }
}
