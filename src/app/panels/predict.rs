//! The inspector's prediction mode: a switch, the score, the last verdict with the board
//! picked and the one expanded, and the open list to pick from, in an order that gives
//! nothing away.

use egui::{Color32, RichText};

use crate::app::StepView;
use crate::app::state::{Predict, shown_order};
use crate::app::views::{self, mini};
use crate::puzzle::Board;
use crate::search::Algorithm;

/// The switch, the score and the last verdict.
pub(super) fn controls(ui: &mut egui::Ui, p: &mut Predict, goal: Option<&Board>, small: f32) {
    ui.checkbox(&mut p.on, "Predict the next expansion")
        .on_hover_text(
            "Click the open-list board you think is expanded next: the app says whether you \
             were right and why, then steps",
        );
    if !p.on && p.last().is_none() {
        return;
    }
    let (right, wrong) = p.score();
    ui.label(format!("Score: {right} right, {wrong} wrong (this search)"));
    let Some(v) = p.last() else {
        return;
    };
    let col = if v.right {
        Color32::from_rgb(120, 200, 120)
    } else {
        Color32::from_rgb(235, 110, 90)
    };
    ui.add(egui::Label::new(RichText::new(&v.why).color(col)).wrap());
    if !v.right {
        ui.horizontal(|ui| {
            ui.small("yours");
            mini::board(ui, &v.picked, goal, small);
            ui.small("expanded");
            mini::board(ui, &v.next, goal, small);
        });
    }
}

/// The open list's shown entries by their tiles, each a board and a button lettered A, B, …
/// with its g, h and f; returns the entry clicked (its index in pop order).
pub(super) fn open_list(
    ui: &mut egui::Ui,
    v: &StepView,
    algorithm: Algorithm,
    goal: Option<&Board>,
    small: f32,
    ready: bool,
) -> Option<usize> {
    let mut pick = None;
    let b = v.open_top.first().map(|o| &o.board)?;
    // Room for the widest button ("K · 12+10=22") on one line.
    let each = (small * b.cols() as f32).max(84.0) + 8.0;
    let per_row = ((ui.available_width() / each).floor() as usize).max(1);
    let order = shown_order(&v.open_top);
    for (r, row) in order.chunks(per_row).enumerate() {
        ui.horizontal(|ui| {
            for (j, &i) in row.iter().enumerate() {
                let o = &v.open_top[i];
                let letter = letter(r * per_row + j);
                ui.vertical(|ui| {
                    let board = mini::board(ui, &o.board, goal, small);
                    // The f the search orders by: g + h, h alone, g + w×h.
                    let text = match algorithm {
                        Algorithm::Bfs => format!("{letter} · g {}", o.g),
                        Algorithm::Greedy => format!("{letter} · h {}", o.h),
                        _ => format!("{letter} · {}", views::f_sum(algorithm, o.g, o.h)),
                    };
                    let button = ui
                        .add_enabled(
                            ready,
                            egui::Button::new(text)
                                .small()
                                .wrap_mode(egui::TextWrapMode::Extend),
                        )
                        .on_hover_text("Your guess: the board expanded next");
                    if ready && (board.clicked() || button.clicked()) {
                        pick = Some(i);
                    }
                });
            }
        });
    }
    pick
}

/// A, B, …, Z, then AA, AB, … (the open list shows at most a few dozen).
fn letter(i: usize) -> String {
    let a = |k: usize| char::from(b'A' + (k % 26) as u8);
    if i < 26 {
        a(i).to_string()
    } else {
        format!("{}{}", a(i / 26 - 1), a(i))
    }
}
