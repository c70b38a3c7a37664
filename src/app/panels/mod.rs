//! The egui panels over [`AppState`] — Puzzle, Solver, Stats, Solution, the status bar and
//! the messages — and the frame's layout around the two views (`super::views`). Pure UI: no
//! window or GPU code here, so egui_kittest can drive it.

mod explain;
mod inspector;
mod lessons;
mod menu;
mod predict;
mod puzzle;
mod solution;
mod solver;
mod stats;
mod timeline;

use std::path::PathBuf;

use egui::{Color32, Pos2, Rect, Sense};

use super::render::QuadPainter;
use super::state::{AppState, Level, LowerView, RunState};
use super::views;
use super::views::help::{self, Topic};

pub(crate) use inspector::fate_text;
pub use inspector::narration;

/// File dialogs, so tests can replace the native ones.
pub trait Dialogs {
    /// A puzzle file to open, or `None` if cancelled.
    fn open(&mut self) -> Option<PathBuf>;
    /// Where to save, suggesting `name`, or `None` if cancelled.
    fn save(&mut self, name: &str) -> Option<PathBuf>;
}

/// Native dialogs (rfd).
pub struct NativeDialogs;

impl Dialogs for NativeDialogs {
    fn open(&mut self) -> Option<PathBuf> {
        rfd::FileDialog::new()
            .add_filter("puzzles", &["txt", "puzzle", "8puzzle", "15puzzle"])
            .add_filter("all files", &["*"])
            .pick_file()
    }

    fn save(&mut self, name: &str) -> Option<PathBuf> {
        rfd::FileDialog::new().set_file_name(name).save_file()
    }
}

/// The side panels' ids, as [`egui::Panel`] makes them in `ui`.
const SIDE_PANELS: [&str; 2] = ["controls", "results"];

/// The narrowest window whose panels' widths are taken as the user's (below it egui squeezes
/// them to fit).
const MIN_SHARE_WIDTH: f32 = 640.0;

/// Keeps each side panel at the share of the window the user gave it. Each frame at a steady
/// window width of at least [`MIN_SHARE_WIDTH`], a panel's width (as egui keeps it, dragged
/// or not) is its share; when the window's width changes, the panel is set to that share of
/// the new width, so that a window opened small and then enlarged does not keep its cramped
/// panels, nor a large one shrunk its wide ones, and a window squeezed to nothing (1×1) and
/// enlarged again gets its panels back. Shrunk, a panel keeps at least its `default` width for
/// the new window, or its own if narrower (egui fits a panel to contents that want less).
fn scale_side_panels(ui: &egui::Ui, width: f32, default: [f32; 2]) {
    let key = ui
        .scope_id()
        .with_salt(egui::IdSalt::new("side panels: window width"));
    let before = ui.ctx().data_mut(|d| {
        let before = d.get_temp::<f32>(key);
        d.insert_temp(key, width);
        before
    });
    // (A window squeezed to nothing leaves no width at all: that is a change too.)
    let changed = before.is_some_and(|b| (b - width).abs() >= 0.5);
    for (salt, default) in SIDE_PANELS.into_iter().zip(default) {
        let id = ui.scope_id().with_salt(egui::IdSalt::new(salt));
        let share_key = id.with("share of the window");
        let Some(mut state) = egui::PanelState::load(ui.ctx(), id) else {
            continue;
        };
        let set_key = id.with("width set for the window");
        let old = state.outer_rect.width();
        let share = ui.ctx().data(|d| d.get_temp::<f32>(share_key));
        if !changed {
            // The width set at the last resize is the share's, floored or capped: only a
            // width the user (or the contents) gave it is a new share.
            let set = ui.ctx().data(|d| d.get_temp::<f32>(set_key));
            let own = set.is_none_or(|w| (w - old).abs() >= 1.0);
            if own && width >= MIN_SHARE_WIDTH && old > 0.0 {
                ui.ctx().data_mut(|d| d.insert_temp(share_key, old / width));
            }
            continue;
        }
        let Some(share) = share.or_else(|| before.filter(|&b| b > 0.0).map(|b| old / b)) else {
            continue;
        };
        let w = (share * width).max(default.min(old));
        state.outer_rect.set_width(w);
        ui.ctx().data_mut(|d| {
            d.insert_persisted(id, state);
            d.insert_temp(set_key, w);
        });
    }
}

/// The side panels' widths, in points, for a window `width` points wide: a fifth of it on
/// the left (the controls) and a quarter on the right (the inspector's boards, the figures),
/// at least 160 and 200 points (an 800-point window keeps about 410 for the centre) and at
/// most 360 and 560 (a 2560-point window keeps about 1620). Each may be widened to 22 % and
/// 27 % of the window, or narrowed; their contents scroll. Returns `[left, right]`.
pub(crate) fn side_widths(width: f32) -> [f32; 2] {
    [
        (width * 0.2).clamp(160.0, 360.0),
        (width * 0.25).clamp(200.0, 560.0),
    ]
}

/// Draws the whole app for one frame and applies the user's actions to `st`.
pub fn ui(
    ui: &mut egui::Ui,
    st: &mut AppState,
    painter: &mut dyn QuadPainter,
    dialogs: &mut dyn Dialogs,
) {
    menu::apply_view(ui.ctx(), st);
    menu::keys(ui, st, dialogs);
    st.check_lesson();
    for r in views::export::take_outcomes(ui.ctx()) {
        match r {
            Ok(m) => st.messages.show(m),
            Err(e) => st.messages.error(e),
        }
    }
    let width = ui.available_width();
    let [side, right] = side_widths(width);
    scale_side_panels(ui, width, [side, right]);
    egui::Panel::top("menu").show(ui, |ui| menu::bar(ui, st, dialogs));
    egui::Panel::top("status").show(ui, |ui| status_bar(ui, st));
    if !st.lessons.offered {
        egui::Panel::top("lesson offer").show(ui, |ui| lessons::offer(ui, st));
    }
    let [kept_left, kept_right] = st.view.side_widths;
    if st.view.show_controls {
        egui::Panel::left(SIDE_PANELS[0])
            .resizable(true)
            .default_size(kept_left.unwrap_or(side))
            .max_size((width * 0.22).max(side))
            .show(ui, |ui| {
                // The contents fill the panel: egui narrows a panel to contents that want
                // less, and a wide window's panels would stay at their contents' width.
                ui.set_min_width(ui.available_width());
                ui.add_space(4.0);
                solver::controls(ui, st);
                ui.separator();
                egui::ScrollArea::both().show(ui, |ui| {
                    egui::CollapsingHeader::new("Puzzle")
                        .default_open(true)
                        .show(ui, |ui| puzzle::show(ui, st, dialogs));
                    egui::CollapsingHeader::new("Solver")
                        .default_open(true)
                        .show(ui, |ui| solver::show(ui, st));
                });
            });
    }
    if st.view.show_results {
        egui::Panel::right(SIDE_PANELS[1])
            .resizable(true)
            .default_size(kept_right.unwrap_or(right))
            .max_size((width * 0.27).max(right))
            .show(ui, |ui| {
                ui.set_min_width(ui.available_width());
                egui::ScrollArea::both().show(ui, |ui| {
                    if st.run.is_stepped() {
                        help::section(ui, "Inspector", Topic::Inspector, |ui| {
                            inspector::show(ui, st)
                        });
                    }
                    help::section(ui, "Solution", Topic::Solution, |ui| {
                        solution::show(ui, st, dialogs)
                    });
                    help::section(ui, "Stats", Topic::Stats, |ui| stats::show(ui, st));
                    if !st.messages.is_empty() {
                        egui::CollapsingHeader::new("Messages")
                            .default_open(true)
                            .show(ui, |ui| {
                                for m in st.messages.iter().rev().take(6) {
                                    let (col, tag) = match m.level {
                                        Level::Notice => (ui.visuals().text_color(), ""),
                                        Level::Warning => {
                                            (Color32::from_rgb(230, 190, 90), "warning: ")
                                        }
                                        Level::Error => {
                                            (Color32::from_rgb(235, 110, 90), "error: ")
                                        }
                                    };
                                    // Wrapped: the panel scrolls sideways, and a long
                                    // message would run out of sight.
                                    ui.add(
                                        egui::Label::new(
                                            egui::RichText::new(format!("{tag}{}", m.text))
                                                .color(col),
                                        )
                                        .wrap(),
                                    );
                                }
                                if ui
                                    .small_button("Clear")
                                    .on_hover_text("Remove these messages")
                                    .clicked()
                                {
                                    st.messages.clear();
                                }
                            });
                    }
                });
            });
    }
    keep_side_widths(ui, st);
    menu::windows(ui.ctx(), st);
    egui::CentralPanel::default().show(ui, |ui| {
        let avail = ui.available_rect_before_wrap();
        st.view.central_width = avail.width();
        let split = avail.min.y + avail.height() * 0.56;
        let board_rect = Rect::from_min_max(avail.min, Pos2::new(avail.max.x, split - 4.0));
        let heat_rect = Rect::from_min_max(Pos2::new(avail.min.x, split + 4.0), avail.max);
        views::board::show(ui, st, painter, board_rect);
        lower(ui, st, painter, heat_rect, dialogs);
        ui.allocate_rect(avail, Sense::hover());
    });
    lessons::window(ui, st);
}

/// The lower half of the central area: a strip of tabs (heatmap, tree, iterations) over the
/// chosen view, and the Export menu.
fn lower(
    ui: &mut egui::Ui,
    st: &mut AppState,
    painter: &mut dyn QuadPainter,
    rect: Rect,
    dialogs: &mut dyn Dialogs,
) {
    let strip = Rect::from_min_size(rect.min, egui::vec2(rect.width(), 22.0));
    let rest = Rect::from_min_max(rect.min + egui::vec2(0.0, 24.0), rect.max);
    st.view.lower_rect = rest;
    ui.scope_builder(egui::UiBuilder::new().max_rect(strip), |ui| {
        ui.horizontal(|ui| {
            for (v, name) in LOWER_VIEWS {
                ui.selectable_value(&mut st.view.lower, v, name)
                    .on_hover_text(tab_hover(v));
            }
            help::button(ui, help_topic(st.view.lower));
            if let Some(i) = st.view.picked_iteration
                && matches!(st.view.lower, LowerView::Heatmap | LowerView::Tree)
                && ui
                    .small_button(format!("iteration {}: back to live", i + 1))
                    .on_hover_text(
                        "Show the running search again, not the finished iteration picked",
                    )
                    .clicked()
            {
                st.view.picked_iteration = None;
                st.view.tree_scene = Rect::ZERO;
            }
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                ui.menu_button("Export", |ui| export_items(ui, st, rest, dialogs))
                    .response
                    .on_hover_text("Save the view shown or the board as PNG, or the tree as SVG");
            });
        });
    });
    match st.view.lower {
        LowerView::Heatmap => views::heatmap::show(ui, st, painter, rest),
        LowerView::Tree => views::tree::show(ui, st, rest),
        LowerView::Iterations => views::iterations::show(ui, st, rest),
        LowerView::Compare => views::comparison::show(ui, st, rest, dialogs),
    }
}

/// The help topic of a lower view.
fn help_topic(v: LowerView) -> Topic {
    match v {
        LowerView::Heatmap => Topic::Heatmap,
        LowerView::Tree => Topic::Tree,
        LowerView::Iterations => Topic::Iterations,
        LowerView::Compare => Topic::Compare,
    }
}

/// A lower view's tab's hover text.
fn tab_hover(v: LowerView) -> &'static str {
    match v {
        LowerView::Heatmap => {
            "The open list's boards counted by g (moves made) and h (estimate left)"
        }
        LowerView::Tree => "The boards expanded so far, each under the board it came from",
        LowerView::Iterations => "IDA*'s iterations: nodes expanded per threshold",
        LowerView::Compare => "Every heuristic on this board, and the textbook experiment",
    }
}

/// The lower views, as their tabs and the View menu name them.
const LOWER_VIEWS: [(LowerView, &str); 4] = [
    (LowerView::Heatmap, "Heatmap"),
    (LowerView::Tree, "Tree"),
    (LowerView::Iterations, "Iterations"),
    (LowerView::Compare, "Compare"),
];

/// The Export menu's items (beside the lower view's tabs, and in File ▸ Export): the lower
/// view (`rest`, on screen) or the board as PNG, the tree as SVG.
fn export_items(ui: &mut egui::Ui, st: &mut AppState, rest: Rect, dialogs: &mut dyn Dialogs) {
    let name = match st.view.lower {
        LowerView::Heatmap => "heatmap",
        LowerView::Tree => "tree",
        LowerView::Iterations => "iterations",
        LowerView::Compare => "compare",
    };
    {
        if ui.button(format!("The {name} view as PNG…")).clicked() {
            match dialogs.save(&format!("npuzzle-{name}.png")) {
                Some(path) => {
                    views::export::request_png(ui.ctx(), rest, path, &format!("the {name} view"))
                }
                None => st.messages.show(NO_DIALOG),
            }
        }
        if ui.button("The board as PNG…").clicked() {
            match dialogs.save("npuzzle-board.png") {
                Some(path) => {
                    let board = st.view.board_rect;
                    views::export::request_png(ui.ctx(), board, path, "the board");
                }
                None => st.messages.show(NO_DIALOG),
            }
        }
        if st.view.lower == LowerView::Tree && ui.button("The tree as SVG…").clicked() {
            match (
                dialogs.save("npuzzle-tree.svg"),
                views::tree::svg_text(ui.ctx()),
            ) {
                (Some(path), Some(text)) => save(st, &path, &text),
                (None, _) => st.messages.show(NO_DIALOG),
                (_, None) => st.messages.show("No tree to save: step a search first."),
            }
        }
    }
}

/// Keeps the side panels' widths of this frame in `st.view.side_widths` (what the next run
/// starts with), those of a hidden panel as they were.
fn keep_side_widths(ui: &egui::Ui, st: &mut AppState) {
    let shown = [st.view.show_controls, st.view.show_results];
    for (i, salt) in SIDE_PANELS.into_iter().enumerate() {
        let id = ui.scope_id().with_salt(egui::IdSalt::new(salt));
        if shown[i]
            && let Some(state) = egui::PanelState::load(ui.ctx(), id)
        {
            st.view.side_widths[i] = Some(state.outer_rect.width());
        }
    }
}

fn status_bar(ui: &mut egui::Ui, st: &mut AppState) {
    ui.horizontal_wrapped(|ui| {
        lessons::learn_button(ui, st);
        ui.strong(format!(
            "npuzzle · {}×{} · {}",
            st.board().rows(),
            st.board().cols(),
            st.source()
        ));
        ui.separator();
        let (txt, col) = match (st.run.state(), st.is_paused()) {
            (RunState::Running, true) => ("paused".to_string(), Color32::YELLOW),
            (RunState::Running, false) => ("searching…".to_string(), Color32::LIGHT_GREEN),
            (RunState::Done, _) if st.run.unsolvable().is_some() => {
                ("no solution possible".to_string(), Color32::LIGHT_RED)
            }
            (RunState::Done, _) => match st.run.solution() {
                Some(s) => solved_text(st, s),
                None => ("done".to_string(), Color32::GRAY),
            },
            (RunState::Stopped, _) => ("stopped".to_string(), Color32::GRAY),
            (RunState::Failed(m), _) => (format!("failed: {m}"), Color32::LIGHT_RED),
            (RunState::Idle, _) => ("ready".to_string(), Color32::GRAY),
        };
        ui.colored_label(col, txt);
        ui.separator();
        ui.label(st.gpu_note());
    });
}

/// The status bar's word on a solution: optimal (and the file's length when it differs: the
/// answer stands, the file is wrong), or, from a search that does not guarantee it, the
/// length with its gap to the optimum when known.
fn solved_text(st: &AppState, s: &super::state::SolutionView) -> (String, Color32) {
    let len = s.moves.len();
    if !s.run.guarantees_optimal() {
        let optimum = st.known_optimum().map(|o| o as usize);
        let text = crate::search::gap_text(len, optimum);
        return (format!("solved: {text}"), Color32::YELLOW);
    }
    match st.stated_length() {
        Some(m) if m as usize != len => (
            format!("solved: {len} moves (optimal); the file states {m}"),
            Color32::YELLOW,
        ),
        _ => (
            format!("solved: {len} moves (optimal)"),
            Color32::LIGHT_GREEN,
        ),
    }
}

/// The Open dialog; says what to do when no dialog could be shown.
fn open_file(st: &mut AppState, dialogs: &mut dyn Dialogs) {
    match dialogs.open() {
        Some(p) => {
            st.load_file(&p);
        }
        None => st.messages.show_about_board(NO_DIALOG),
    }
}

/// Shown when a file dialog returns nothing (cancelled, or no dialog backend).
pub(crate) const NO_DIALOG: &str = "No file chosen. If no dialog appeared, install xdg-desktop-portal (or zenity); you can also drop a file on the window, give it on the command line, or paste a board.";

/// Writes `text` to `path` atomically and says how it went.
fn save(st: &mut AppState, path: &std::path::Path, text: &str) {
    match crate::files::write_atomic(path, text.as_bytes()) {
        Ok(()) => st.messages.show(format!("saved {}", path.display())),
        Err(e) => st
            .messages
            .error(format!("could not save {}: {e}", path.display())),
    }
}

pub(super) use crate::text::group_digits as group;
