//! The textbook experiment's parts of the Compare view: its settings (depths, boards per
//! depth, seed, A*'s tie-break rule, BFS's goal test), the table of its numbers beside the
//! chart, and why a textbook's counts differ. The chart itself is in `comparison.rs`.

use egui::{Color32, RichText};

use crate::app::state::{AppState, DepthRange};
use crate::search::measure::{DepthRow, ExperimentSettings};
use crate::search::{BfsGoalTest, TieBreak};
use crate::text::group_digits as group;

/// What a tie-break rule does, in words (the combo's entries and hover).
pub fn tie_words(t: TieBreak) -> &'static str {
    match t {
        TieBreak::HighG => "highest g first",
        TieBreak::LowG => "lowest g first",
        TieBreak::Fifo => "first in, first out",
    }
}

/// When BFS tests for the goal, in words.
pub fn goal_test_words(t: BfsGoalTest) -> &'static str {
    match t {
        BfsGoalTest::Generate => "at generation",
        BfsGoalTest::Expand => "at expansion",
    }
}

/// The hover text of the tie-break rule.
const TIE_HELP: &str = "Which of the open boards of equal f = g + h A* expands first. Every \
rule finds an optimal solution; they differ in how many boards of the last f (the optimal \
length, where most ties are) are expanded before the goal. Highest g first (npuzzle's \
default) heads for the goal and expands fewest; lowest g first expands most; first in, first \
out is what a priority queue that keeps insertion order does. Textbooks rarely say which \
their table used. Applies to this experiment only (the Solver's stepped and full searches \
keep highest g first).";

/// The hover text of BFS's goal test.
const GOAL_HELP: &str = "When breadth-first search checks whether a board is the goal. At \
generation (npuzzle's default, and Russell & Norvig's breadth-first search, their \"early \
goal test\"), it stops as soon as the goal is generated: it expands the boards less than \
d − 1 moves away and some at d − 1. At expansion (as A* tests), it stops when the goal is \
taken from the queue: every board less than d moves away is expanded, and some at d, about \
b times as many. Applies to this experiment only.";

/// The experiment's settings: depths from, to, step; boards per depth; seed; A*'s ties;
/// BFS's goal test. Disabled while `busy`.
pub fn settings(ui: &mut egui::Ui, st: &mut AppState, busy: bool) {
    ui.add_enabled_ui(!busy, |ui| {
        ui.horizontal_wrapped(|ui| {
            let c = &mut st.compare;
            let DepthRange { from, to, step } = &mut c.depths;
            let l = ui.label("depths");
            ui.add(egui::DragValue::new(from).range(1..=DepthRange::MAX))
                .labelled_by(l.id)
                .on_hover_text("the first optimal depth, in moves");
            let l = ui.label("to");
            ui.add(egui::DragValue::new(to).range(1..=DepthRange::MAX))
                .labelled_by(l.id)
                .on_hover_text(
                    "the last optimal depth, in moves (31 is the 3×3 board's farthest; \
                     depths no board has are skipped, and said)",
                );
            let l = ui.label("step");
            ui.add(egui::DragValue::new(step).range(1..=10))
                .labelled_by(l.id)
                .on_hover_text("the moves between one depth and the next");
            ui.separator();
            let ExperimentSettings { samples, seed, .. } = &mut c.settings;
            let l = ui.label("boards per depth");
            ui.add(egui::DragValue::new(samples).range(1..=1000))
                .labelled_by(l.id)
                .on_hover_text(
                    "random boards drawn at exactly each depth (all of them where fewer exist); \
                     Russell & Norvig average over 100",
                );
            let l = ui.label("seed");
            ui.add(egui::DragValue::new(seed))
                .labelled_by(l.id)
                .on_hover_text("the same seed draws the same boards, here and in npuzzle compare");
        });
        // The rules on a row of their own, so that neither is cut off by a narrow view.
        ui.horizontal_wrapped(|ui| {
            let ExperimentSettings {
                tie_break,
                bfs_goal_test,
                ..
            } = &mut st.compare.settings;
            ui.horizontal(|ui| {
                let l = ui.label("A* ties");
                egui::ComboBox::from_id_salt("tie-break")
                    .selected_text(tie_words(*tie_break))
                    .show_ui(ui, |ui| {
                        for t in TieBreak::ALL {
                            ui.selectable_value(tie_break, t, tie_words(t));
                        }
                    })
                    .response
                    .labelled_by(l.id)
                    .on_hover_text(TIE_HELP);
            });
            ui.horizontal(|ui| {
                let l = ui.label("BFS goal test");
                egui::ComboBox::from_id_salt("bfs goal test")
                    .selected_text(goal_test_words(*bfs_goal_test))
                    .show_ui(ui, |ui| {
                        for t in BfsGoalTest::ALL {
                            ui.selectable_value(bfs_goal_test, t, goal_test_words(t));
                        }
                    })
                    .response
                    .labelled_by(l.id)
                    .on_hover_text(GOAL_HELP);
            });
        });
    });
}

/// The experiment's numbers: one row per depth, each method's mean nodes expanded and b*.
pub fn table(ui: &mut egui::Ui, rows: &[DepthRow], names: &[String]) {
    egui::Grid::new("experiment table")
        .striped(true)
        .num_columns(2 + 2 * names.len())
        .show(ui, |ui| {
            ui.strong("d");
            ui.strong("boards");
            for n in names {
                ui.strong(n);
                ui.strong("b*");
            }
            ui.end_row();
            for r in rows {
                ui.monospace(r.depth.to_string());
                ui.monospace(r.boards.to_string());
                for c in &r.methods {
                    let mean = if c.solved == 0 {
                        "stopped".to_string()
                    } else {
                        let partial = if c.solved < r.boards { "*" } else { "" };
                        format!("{}{partial}", group(c.expanded.round() as u64))
                    };
                    ui.monospace(mean);
                    ui.monospace(c.branching.map_or("-".into(), |b| format!("{b:.2}")));
                }
                ui.end_row();
            }
        });
    if rows
        .iter()
        .any(|r| r.methods.iter().any(|c| c.solved < r.boards))
    {
        ui.small("* some boards stopped at the time cap: the mean is over those solved");
    }
}

/// Why the numbers differ from a textbook's, under a closed header.
pub fn why(ui: &mut egui::Ui, ran: Option<&ExperimentSettings>) {
    egui::CollapsingHeader::new("Why a textbook's numbers differ")
        .default_open(false)
        .show(ui, |ui| {
            if let Some(s) = ran {
                ui.label(format!(
                    "These rows: {} boards per depth, seed {}, A* ties {}, BFS goal test {}.",
                    s.samples,
                    s.seed,
                    tie_words(s.tie_break),
                    goal_test_words(s.bfs_goal_test)
                ));
            }
            for line in [
                "• The boards: each depth's mean is over random boards; another draw (seed, \
                 number of boards) gives other means, most of all at small samples.",
                "• What is counted: the table gives mean nodes expanded; b* (the effective \
                 branching factor) is computed from nodes generated. Check which one a \
                 published table counts.",
                "• A*'s tie-break rule (A* ties): how many boards of the optimal f are expanded \
                 before the goal. Highest g first expands fewest.",
                "• BFS's goal test: at generation expands about b times fewer boards than at \
                 expansion.",
                "• The search: earlier editions of Russell & Norvig compare A* with iterative \
                 deepening (IDS), not BFS; a search without a closed set counts repeated boards \
                 again.",
            ] {
                ui.label(RichText::new(line).color(Color32::LIGHT_GRAY));
            }
        });
}
