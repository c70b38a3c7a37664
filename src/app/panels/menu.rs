//! The menu bar (File, Edit, View, Search, Help), the keyboard shortcuts, the shortcuts sheet
//! (F1) and the About window: all of them read the one action table, [`ACTIONS`].

use egui::{Event, ViewportCommand};

use super::Dialogs;
use crate::app::actions::{ACTIONS, Action, Menu, entry, key_text, keys_text, take_pressed};
use crate::app::state::{AppState, EXAMPLE_SETS};
use crate::puzzle::{GoalSpec, Move};

/// The menu bar, at the top of the window.
pub(super) fn bar(ui: &mut egui::Ui, st: &mut AppState, dialogs: &mut dyn Dialogs) {
    egui::MenuBar::new().ui(ui, |ui| {
        ui.menu_button("File", |ui| file_menu(ui, st, dialogs));
        ui.menu_button("Edit", |ui| items(ui, st, dialogs, Menu::Edit));
        ui.menu_button("View", |ui| view_menu(ui, st, dialogs));
        ui.menu_button("Search", |ui| items(ui, st, dialogs, Menu::Search));
        ui.menu_button("Help", |ui| items(ui, st, dialogs, Menu::Help));
    });
}

/// One menu item: its words, its first key on the right, its sentence on hover; a toggle
/// (the View menu's panels and colours) as a check box. Acts when clicked.
fn item(ui: &mut egui::Ui, st: &mut AppState, dialogs: &mut dyn Dialogs, action: Action) {
    let e = entry(action);
    let clicked = match toggled(st, action) {
        Some(mut on) => ui.checkbox(&mut on, e.label),
        None => {
            let mut b = egui::Button::new(e.label);
            if let Some(k) = e.keys.first() {
                b = b.shortcut_text(key_text(k));
            }
            ui.add(b)
        }
    }
    .on_hover_text(e.help)
    .clicked();
    if clicked {
        perform(ui.ctx(), st, dialogs, action);
    }
}

/// The items of `menu`, in the table's order.
fn items(ui: &mut egui::Ui, st: &mut AppState, dialogs: &mut dyn Dialogs, menu: Menu) {
    for e in ACTIONS.iter().filter(|e| e.menu == menu) {
        item(ui, st, dialogs, e.action);
    }
}

/// Whether a toggle is on (`None`: not a toggle).
fn toggled(st: &AppState, action: Action) -> Option<bool> {
    let v = &st.view;
    match action {
        Action::ShowControls => Some(v.show_controls),
        Action::ShowResults => Some(v.show_results),
        Action::ShowHeuristic => Some(v.show_heuristic),
        Action::Dark => Some(v.dark),
        _ => None,
    }
}

/// File: Open…, Open example ▸, Recent ▸, Save board…, Export ▸, Quit.
fn file_menu(ui: &mut egui::Ui, st: &mut AppState, dialogs: &mut dyn Dialogs) {
    item(ui, st, dialogs, Action::Open);
    ui.menu_button("Open example", |ui| examples_menu(ui, st));
    ui.add_enabled_ui(!st.recent.paths().is_empty(), |ui| {
        ui.menu_button("Recent", |ui| {
            for p in st.recent.paths().to_vec() {
                let name = p.file_name().map_or_else(
                    || p.display().to_string(),
                    |n| n.to_string_lossy().into_owned(),
                );
                if ui
                    .button(name)
                    .on_hover_text(p.display().to_string())
                    .clicked()
                {
                    st.load_file(&p);
                }
            }
        });
    });
    item(ui, st, dialogs, Action::SaveBoard);
    ui.menu_button("Export", |ui| {
        let rest = st.view.lower_rect;
        super::export_items(ui, st, rest, dialogs);
    });
    ui.separator();
    item(ui, st, dialogs, Action::Quit);
}

/// Open example ▸ one submenu a bundled set, listing its puzzles (scrolled: Korf's 100).
fn examples_menu(ui: &mut egui::Ui, st: &mut AppState) {
    for set in &EXAMPLE_SETS {
        ui.menu_button(set.title, |ui| {
            egui::ScrollArea::vertical()
                .max_height(ui.ctx().content_rect().height() * 0.7)
                .show(ui, |ui| {
                    for i in 0..set.puzzles().len() {
                        if ui.button(set.label(i)).clicked() {
                            st.load_example(set, i);
                        }
                    }
                });
        });
    }
}

/// View: the panels, the lower view, the text size, the colours.
fn view_menu(ui: &mut egui::Ui, st: &mut AppState, dialogs: &mut dyn Dialogs) {
    for a in [
        Action::ShowControls,
        Action::ShowResults,
        Action::ShowHeuristic,
    ] {
        item(ui, st, dialogs, a);
    }
    ui.separator();
    ui.label("Lower view");
    for (v, name) in super::LOWER_VIEWS {
        if ui.radio(st.view.lower == v, name).clicked() {
            st.view.lower = v;
        }
    }
    ui.separator();
    for a in [Action::TextLarger, Action::TextSmaller, Action::TextNormal] {
        item(ui, st, dialogs, a);
    }
    ui.separator();
    item(ui, st, dialogs, Action::Dark);
}

/// Does what `action` says.
pub(super) fn perform(
    ctx: &egui::Context,
    st: &mut AppState,
    dialogs: &mut dyn Dialogs,
    action: Action,
) {
    let v = &mut st.view;
    match action {
        Action::Open => super::open_file(st, dialogs),
        Action::SaveBoard => save_board(st, dialogs),
        Action::Quit => st.request_quit(),
        Action::Undo => _ = st.undo(),
        Action::Redo => _ = st.redo(),
        // The window reads the clipboard and hands its text back as a paste (see `keys`).
        Action::PasteBoard => ctx.send_viewport_cmd(ViewportCommand::RequestPaste),
        Action::ShowControls => v.show_controls = !v.show_controls,
        Action::ShowResults => v.show_results = !v.show_results,
        Action::ShowHeuristic => v.show_heuristic = !v.show_heuristic,
        Action::TextLarger => v.grow_text(1),
        Action::TextSmaller => v.grow_text(-1),
        Action::TextNormal => v.text_size = 1.0,
        Action::Dark => v.dark = !v.dark,
        Action::Start => st.start(),
        Action::Pause => st.toggle_pause(),
        Action::Stop => st.stop(),
        Action::Step => st.step(1),
        Action::Back => st.step_back(),
        Action::Reset => st.reset(),
        // An arrow slides the tile in its direction: the blank goes the other way.
        Action::SlideUp => _ = st.move_blank(Move::Down),
        Action::SlideDown => _ = st.move_blank(Move::Up),
        Action::SlideLeft => _ = st.move_blank(Move::Right),
        Action::SlideRight => _ = st.move_blank(Move::Left),
        Action::Lessons => {
            v.lessons_open = true;
            st.lessons.offered = true;
        }
        Action::Shortcuts => v.shortcuts_open = !v.shortcuts_open,
        Action::About => v.about_open = true,
    }
}

/// Acts on the keys of [`ACTIONS`] and on a paste (Ctrl+V: the clipboard's text, which the
/// window reads) as a board; none while a text field has the keyboard.
pub(super) fn keys(ui: &mut egui::Ui, st: &mut AppState, dialogs: &mut dyn Dialogs) {
    if ui.ctx().egui_wants_keyboard_input() {
        return;
    }
    // A control with the keyboard focus (reached with Tab) takes Space and the arrows: egui
    // clicks a focused button with Space and moves the focus with the arrows; the board moves
    // its ring. Escape hands the focus back.
    let focused = ui.memory(|m| m.focused().is_some());
    let (pressed, pasted) = ui.input_mut(|i| {
        let mut pasted = Vec::new();
        i.events.retain(|e| match e {
            Event::Paste(text) => {
                pasted.push(text.clone());
                false
            }
            _ => true,
        });
        (take_pressed(i, focused), pasted)
    });
    for text in pasted {
        st.load_text(&text, "<clipboard>");
    }
    for action in pressed {
        perform(ui.ctx(), st, dialogs, action);
    }
}

/// Writes the board shown to a file the user picks: its size, its rows, and its goal when
/// that is not blank-last (a custom goal as a comment, which the user may keep beside it).
fn save_board(st: &mut AppState, dialogs: &mut dyn Dialogs) {
    let Some(path) = dialogs.save("board.txt") else {
        st.messages.show(super::NO_DIALOG);
        return;
    };
    super::save(st, &path, &board_text(st));
}

/// The board shown as a text file (`rows cols`, then its rows; `# goal:` when not blank-last).
fn board_text(st: &AppState) -> String {
    let b = st.board();
    let mut out = format!("# {} (saved by npuzzle)\n", st.source());
    match st.goal_spec() {
        GoalSpec::BlankLast => {}
        GoalSpec::BlankFirst => out.push_str("# goal: blank-first\n"),
        GoalSpec::Board(g) => out.push_str(&format!("# its goal, a board of its own: {g}\n")),
    }
    out.push_str(&format!("{} {}\n", b.rows(), b.cols()));
    let width = (b.len() - 1).to_string().len();
    for r in 0..b.rows() {
        let row: Vec<String> = (0..b.cols())
            .map(|c| format!("{:>width$}", b.get(r, c)))
            .collect();
        out.push_str(&row.join(" "));
        out.push('\n');
    }
    out
}

/// The keyboard shortcuts sheet (F1) and the About window, when open.
pub(super) fn windows(ctx: &egui::Context, st: &mut AppState) {
    let centre = ctx.content_rect().center();
    let mut open = st.view.shortcuts_open;
    egui::Window::new("Keyboard shortcuts")
        .open(&mut open)
        .pivot(egui::Align2::CENTER_CENTER)
        .default_pos(centre)
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            ui.label("Keys act when no text field has the keyboard: click outside a field first.");
            egui::Grid::new("shortcuts")
                .striped(true)
                .num_columns(3)
                .show(ui, |ui| {
                    for e in ACTIONS.iter().filter(|e| !e.keys.is_empty()) {
                        ui.label(keys_text(e.action));
                        ui.label(format!("{}: {}", e.menu.name(), e.label));
                        ui.label(e.help);
                        ui.end_row();
                    }
                });
        });
    st.view.shortcuts_open = open;
    let mut open = st.view.about_open;
    egui::Window::new("About npuzzle")
        .open(&mut open)
        .pivot(egui::Align2::CENTER_CENTER)
        .default_pos(centre)
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            ui.heading(format!("npuzzle {}", env!("CARGO_PKG_VERSION")));
            ui.label(env!("CARGO_PKG_DESCRIPTION"));
            ui.label(format!(
                "Licence: {} (your choice of the MIT licence or the Apache License 2.0; see \
                 LICENSE-MIT and LICENSE-APACHE).",
                env!("CARGO_PKG_LICENSE")
            ));
        });
    st.view.about_open = open;
}

/// Sets the text size and colours `st.view` asks for, when they differ from the frame's; egui's
/// own zoom keys are off (the action table's act instead, and not while a text field has the
/// keyboard).
pub(super) fn apply_view(ctx: &egui::Context, st: &AppState) {
    if ctx.options(|o| o.zoom_with_keyboard) {
        ctx.options_mut(|o| o.zoom_with_keyboard = false);
    }
    if (ctx.zoom_factor() - st.view.text_size).abs() > 1e-3 {
        ctx.set_zoom_factor(st.view.text_size);
    }
    let theme = if st.view.dark {
        egui::Theme::Dark
    } else {
        egui::Theme::Light
    };
    if ctx.theme() != theme {
        ctx.set_theme(theme);
    }
}
