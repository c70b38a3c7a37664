//! The ideas in words where they are chosen: the Puzzle panel's solvability line with, on
//! demand, why (the parity words of [`Solvability::paragraphs`]) and the board's inverted
//! pairs; the Solver panel's words on the pattern database chosen
//! ([`PartitionSpec::about`]). The words live in the core, shared with the command line.

use egui::{Color32, RichText};

use crate::app::state::AppState;
use crate::heuristic::HeuristicChoice;
use crate::puzzle::Solvability;
use crate::puzzle::parity::{inverted_pairs, pairs_text};

/// Pairs listed at most (a 16×16 board may have 32 385).
const MAX_PAIRS: usize = 300;

/// The solvability line, and under "Why?" the explanation, the other goal's answer and a
/// "Show the pairs" switch listing the board's inverted pairs.
pub(super) fn parity(ui: &mut egui::Ui, st: &AppState) {
    let Some(v) = st.solvability() else {
        return;
    };
    let col = if v.solvable {
        Color32::LIGHT_GREEN
    } else {
        Color32::LIGHT_RED
    };
    ui.colored_label(col, v.reason());
    egui::CollapsingHeader::new("Why? Inversions and parity")
        .id_salt("parity-why")
        .show(ui, |ui| {
            for p in v.paragraphs() {
                ui.add(egui::Label::new(p).wrap());
            }
            let goal = st.goal();
            let other = goal
                .as_ref()
                .and_then(|g| Solvability::towards_other_goal(st.board(), g));
            if let Some(o) = other {
                ui.add(egui::Label::new(v.other_goal_sentence(&o)).wrap());
            }
            let id = egui::Id::unique("parity-show-pairs");
            let mut show = ui.data(|d| d.get_temp::<bool>(id).unwrap_or(false));
            if ui
                .checkbox(&mut show, "Show the pairs")
                .on_hover_text(
                    "List this board's inverted pairs: (larger, smaller) in reading order",
                )
                .changed()
            {
                ui.data_mut(|d| d.insert_temp(id, show));
            }
            if show {
                let pairs = inverted_pairs(st.board());
                let text = format!(
                    "Inverted pairs ({}): {}",
                    pairs.len(),
                    pairs_text(&pairs, MAX_PAIRS)
                );
                ui.add(egui::Label::new(RichText::new(text).monospace()).wrap());
            }
        });
}

/// Under the heuristic menu, when a pattern database is chosen: what it is, in words, for
/// this board and goal (nothing for a partition that does not fit the board).
pub(super) fn pattern_database(ui: &mut egui::Ui, st: &AppState) {
    let HeuristicChoice::Pdb(spec) = &st.settings.heuristic else {
        return;
    };
    let Some(goal) = st.goal() else {
        return;
    };
    let Ok(words) = spec.about(&goal, Default::default()) else {
        return;
    };
    egui::CollapsingHeader::new("What is a pattern database?")
        .id_salt("pdb-about")
        .show(ui, |ui| {
            for p in words {
                ui.add(egui::Label::new(p).wrap());
            }
        });
}
