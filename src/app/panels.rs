//! The egui panels and the two views (board, frontier heatmap). Pure UI over [`AppState`]:
//! no window or GPU code here, so egui_kittest can drive it.

use std::path::PathBuf;

use egui::{Align2, Color32, FontId, Pos2, Rect, Sense, Stroke, Vec2, vec2};

use super::render::{Quad, QuadPainter};
use super::state::{AppState, EvaluatorChoice, RunState, SLIDE_SECONDS};
use super::worker::HeuristicChoice;
use crate::heuristic::HeuristicKind;
use crate::heuristic::pdb::{NAMED, PartitionSpec};
use crate::puzzle::{GoalSpec, Move, Notation, format_moves};
use crate::search::Algorithm;

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

const ALGORITHMS: [(Algorithm, &str); 4] = [
    (Algorithm::Bfs, "BFS"),
    (Algorithm::AStar, "A*"),
    (Algorithm::IdaStar, "IDA*"),
    (Algorithm::BatchedAStar, "batched A*"),
];

/// Draws the whole app for one frame and applies the user's actions to `st`.
pub fn ui(
    ui: &mut egui::Ui,
    st: &mut AppState,
    painter: &mut dyn QuadPainter,
    dialogs: &mut dyn Dialogs,
) {
    shortcuts(ui, st, dialogs);
    egui::Panel::top("status").show(ui, |ui| status_bar(ui, st));
    egui::Panel::left("controls")
        .resizable(true)
        .default_size(300.0)
        .show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                egui::CollapsingHeader::new("Puzzle")
                    .default_open(true)
                    .show(ui, |ui| puzzle_panel(ui, st, dialogs));
                egui::CollapsingHeader::new("Solver")
                    .default_open(true)
                    .show(ui, |ui| solver_panel(ui, st));
            });
        });
    egui::Panel::right("results")
        .resizable(true)
        .default_size(290.0)
        .show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                egui::CollapsingHeader::new("Stats")
                    .default_open(true)
                    .show(ui, |ui| stats_panel(ui, st));
                egui::CollapsingHeader::new("Solution")
                    .default_open(true)
                    .show(ui, |ui| solution_panel(ui, st, dialogs));
                if !st.messages.is_empty() {
                    egui::CollapsingHeader::new("Messages")
                        .default_open(true)
                        .show(ui, |ui| {
                            for m in st.messages.iter().rev().take(6) {
                                ui.colored_label(Color32::from_rgb(230, 120, 90), m);
                            }
                            if ui.small_button("Clear").clicked() {
                                st.messages.clear();
                            }
                        });
                }
            });
        });
    egui::CentralPanel::default().show(ui, |ui| {
        let avail = ui.available_rect_before_wrap();
        let split = avail.min.y + avail.height() * 0.56;
        let board_rect = Rect::from_min_max(avail.min, Pos2::new(avail.max.x, split - 4.0));
        let heat_rect = Rect::from_min_max(Pos2::new(avail.min.x, split + 4.0), avail.max);
        board_view(ui, st, painter, board_rect);
        heatmap_view(ui, st, painter, heat_rect);
        ui.allocate_rect(avail, Sense::hover());
    });
}

fn shortcuts(ui: &mut egui::Ui, st: &mut AppState, dialogs: &mut dyn Dialogs) {
    if ui.ctx().egui_wants_keyboard_input() {
        return;
    }
    // Shortcuts are matched with the modifiers of their own key event.
    let open = ui.input_mut(|i| i.consume_key(egui::Modifiers::COMMAND, egui::Key::O));
    let quit = ui.input_mut(|i| i.consume_key(egui::Modifiers::COMMAND, egui::Key::Q));
    let (space, n, r, arrows) = ui.input(|i| {
        let cmd = i.modifiers.command;
        (
            i.key_pressed(egui::Key::Space),
            i.key_pressed(egui::Key::N) && !cmd,
            i.key_pressed(egui::Key::R) && !cmd,
            [
                (egui::Key::ArrowUp, Move::Down),
                (egui::Key::ArrowDown, Move::Up),
                (egui::Key::ArrowLeft, Move::Right),
                (egui::Key::ArrowRight, Move::Left),
            ]
            .into_iter()
            .filter(|(k, _)| i.key_pressed(*k))
            .map(|(_, m)| m)
            .collect::<Vec<_>>(),
        )
    });
    if space {
        st.toggle_pause();
    }
    if n {
        st.step();
    }
    if r {
        st.reset();
    }
    if open {
        open_file(st, dialogs);
    }
    if quit {
        st.quit = true;
    }
    // Arrow keys slide the tile in the arrow's direction (the blank goes the other way).
    for m in arrows {
        st.move_blank(m);
    }
}

fn status_bar(ui: &mut egui::Ui, st: &AppState) {
    ui.horizontal_wrapped(|ui| {
        ui.strong(format!(
            "npuzzle · {}×{} · {}",
            st.board.rows(),
            st.board.cols(),
            st.source
        ));
        ui.separator();
        let (txt, col) = match (&st.run, st.is_paused()) {
            (RunState::Running, true) => ("paused".to_string(), Color32::YELLOW),
            (RunState::Running, false) => ("searching…".to_string(), Color32::LIGHT_GREEN),
            (RunState::Done, _) if st.unsolvable.is_some() => {
                ("no solution possible".to_string(), Color32::LIGHT_RED)
            }
            (RunState::Done, _) => match &st.solution {
                Some(s) => (
                    format!("solved: {} moves (optimal)", s.moves.len()),
                    Color32::LIGHT_GREEN,
                ),
                None => ("done".to_string(), Color32::GRAY),
            },
            (RunState::Stopped, _) => ("stopped".to_string(), Color32::GRAY),
            (RunState::Failed(m), _) => (format!("failed: {m}"), Color32::LIGHT_RED),
            (RunState::Idle, _) => ("ready".to_string(), Color32::GRAY),
        };
        ui.colored_label(col, txt);
        ui.separator();
        ui.label(&st.gpu_note);
    });
}

fn puzzle_panel(ui: &mut egui::Ui, st: &mut AppState, dialogs: &mut dyn Dialogs) {
    ui.horizontal(|ui| {
        if ui.button("Open…").on_hover_text("Ctrl+O").clicked() {
            open_file(st, dialogs);
        }
        let mut edit = st.edit.is_some();
        if ui
            .checkbox(&mut edit, "Edit")
            .on_hover_text("Click two tiles to swap them")
            .changed()
        {
            st.edit = edit.then_some(None);
        }
    });
    if !st.recent.is_empty() {
        ui.label("Recent:");
        let mut chosen = None;
        for p in &st.recent {
            let name = p.file_name().map_or_else(
                || p.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            if ui
                .small_button(name)
                .on_hover_text(p.display().to_string())
                .clicked()
            {
                chosen = Some(p.clone());
            }
        }
        if let Some(p) = chosen {
            st.load_file(&p);
        }
    }
    ui.label("Paste a board (any format):");
    ui.add(
        egui::TextEdit::multiline(&mut st.paste)
            .desired_rows(2)
            .hint_text("8 6 7/2 5 4/3 0 1")
            .id_salt("paste"),
    );
    if ui.button("Load pasted").clicked() {
        let text = st.paste.clone();
        st.load_text(&text, "<pasted>");
    }
    ui.separator();
    ui.horizontal_wrapped(|ui| {
        for (r, c) in [(2, 3), (3, 3), (4, 4), (5, 5)] {
            if ui
                .selectable_label(st.new_size == (r, c), format!("{r}×{c}"))
                .clicked()
            {
                st.new_size = (r, c);
            }
        }
    });
    ui.horizontal(|ui| {
        let l = ui.label("Rows");
        ui.add(egui::DragValue::new(&mut st.new_size.0).range(2..=16))
            .labelled_by(l.id);
        let l = ui.label("Cols");
        ui.add(egui::DragValue::new(&mut st.new_size.1).range(2..=16))
            .labelled_by(l.id);
    });
    ui.horizontal(|ui| {
        let l = ui.label("Seed");
        ui.add(egui::DragValue::new(&mut st.seed)).labelled_by(l.id);
        let l = ui.label("Walk");
        ui.add(egui::DragValue::new(&mut st.walk).range(0..=10_000))
            .labelled_by(l.id)
            .on_hover_text(
                "0 = a uniformly random solvable board; k = k random moves from the goal",
            );
    });
    if ui.button("Scramble").clicked() {
        st.scramble();
    }
    ui.separator();
    let mut goal = match st.goal_spec {
        GoalSpec::BlankLast => 0,
        GoalSpec::BlankFirst => 1,
        GoalSpec::Board(_) => 2,
    };
    let before = goal;
    ui.horizontal(|ui| {
        ui.label("Goal");
        ui.radio_value(&mut goal, 0, "blank last");
        ui.radio_value(&mut goal, 1, "blank first");
        ui.radio_value(&mut goal, 2, "this board")
            .on_hover_text("Use the current board as the goal");
    });
    if goal != before {
        st.reset();
        st.goal_spec = match goal {
            0 => GoalSpec::BlankLast,
            1 => GoalSpec::BlankFirst,
            _ => GoalSpec::Board(st.board.clone()),
        };
    }
    if let Some(v) = st.solvability() {
        let col = if v.solvable {
            Color32::LIGHT_GREEN
        } else {
            Color32::LIGHT_RED
        };
        ui.colored_label(col, v.reason());
    }
}

fn solver_panel(ui: &mut egui::Ui, st: &mut AppState) {
    let running = st.is_running();
    ui.add_enabled_ui(!running, |ui| {
        egui::ComboBox::from_label("Algorithm")
            .selected_text(
                ALGORITHMS
                    .iter()
                    .find(|a| a.0 == st.settings.algorithm)
                    .map_or("?", |a| a.1),
            )
            .show_ui(ui, |ui| {
                for (a, name) in ALGORITHMS {
                    ui.selectable_value(&mut st.settings.algorithm, a, name);
                }
            });
        if st.settings.algorithm != Algorithm::Bfs {
            let (rows, cols) = (st.board.rows(), st.board.cols());
            egui::ComboBox::from_label("Heuristic")
                .selected_text(st.settings.heuristic.name())
                .show_ui(ui, |ui| {
                    for h in HeuristicKind::ALL {
                        ui.selectable_value(
                            &mut st.settings.heuristic,
                            HeuristicChoice::Kind(h),
                            h.name(),
                        );
                    }
                    // The pattern databases made for this board size (built on first use,
                    // then cached).
                    for (name, r, c, _) in NAMED {
                        if (r, c) == (rows, cols) {
                            ui.selectable_value(
                                &mut st.settings.heuristic,
                                HeuristicChoice::Pdb(PartitionSpec::Named(name.to_string())),
                                format!("{name} (pattern database)"),
                            );
                        }
                    }
                });
        }
        if let Some(b) = &st.building {
            ui.label(format!(
                "Building {} pattern {}/{} (depth {})…",
                b.name,
                b.pattern + 1,
                b.patterns,
                b.depth
            ));
            ui.add(
                egui::ProgressBar::new(b.filled as f32 / b.total.max(1) as f32).show_percentage(),
            );
        }
        if st.settings.algorithm == Algorithm::BatchedAStar {
            ui.horizontal(|ui| {
                ui.label("Evaluator");
                ui.add_enabled_ui(st.gpu.is_some(), |ui| {
                    ui.radio_value(&mut st.settings.evaluator, EvaluatorChoice::Gpu, "GPU");
                });
                ui.radio_value(&mut st.settings.evaluator, EvaluatorChoice::Cpu, "CPU");
            });
            ui.horizontal(|ui| {
                let l = ui.label("Batch size");
                ui.add(
                    egui::DragValue::new(&mut st.settings.batch_size)
                        .range(1..=1 << 20)
                        .speed(16.0),
                )
                .labelled_by(l.id);
            });
        }
        if matches!(
            st.settings.algorithm,
            Algorithm::Bfs | Algorithm::AStar | Algorithm::BatchedAStar
        ) {
            ui.horizontal(|ui| {
                let l = ui.label("Memory cap");
                ui.add(
                    egui::DragValue::new(&mut st.settings.max_memory_mib)
                        .range(16..=65_536)
                        .suffix(" MiB"),
                )
                .labelled_by(l.id);
            });
        }
    });
    ui.small(&st.gpu_note);
    ui.horizontal_wrapped(|ui| {
        if ui
            .add_enabled(!running, egui::Button::new("Start"))
            .on_hover_text("Space")
            .clicked()
        {
            st.start();
        }
        let pause = if st.is_paused() { "Resume" } else { "Pause" };
        if ui
            .add_enabled(running, egui::Button::new(pause))
            .on_hover_text("Space")
            .clicked()
        {
            st.toggle_pause();
        }
        if ui
            .button("Step")
            .on_hover_text("N: one round (batched A*) or one batch of expansions")
            .clicked()
        {
            st.step();
        }
        if ui.add_enabled(running, egui::Button::new("Stop")).clicked() {
            st.stop();
        }
        if ui.button("Reset").on_hover_text("R").clicked() {
            st.reset();
        }
    });
    ui.small("Keys: Space start/pause · N step · R reset · Ctrl+O open · Ctrl+Q quit · arrows slide a tile");
}

fn stats_panel(ui: &mut egui::Ui, st: &mut AppState) {
    let Some(p) = &st.progress else {
        ui.label("No search yet.");
        if st.frame_seconds > 0.0 {
            ui.small(format!("frame {:.1} ms", st.frame_seconds * 1e3));
        }
        return;
    };
    let secs = p.seconds.max(1e-9);
    egui::Grid::new("stats").num_columns(2).show(ui, |ui| {
        let mut row = |k: &str, v: String| {
            ui.label(k);
            ui.monospace(v);
            ui.end_row();
        };
        row("g / h / f", format!("{} / {} / {}", p.g, p.h, p.g + p.h));
        if p.iteration > 0 {
            row(
                "IDA* iteration",
                format!("{} (threshold {})", p.iteration, p.bound),
            );
        } else {
            row("best f (open)", p.bound.to_string());
        }
        row("expanded", group(p.expanded));
        row("generated", group(p.generated));
        if p.open > 0 || p.closed > 0 {
            row(
                "open / closed",
                format!("{} / {}", group(p.open), group(p.closed)),
            );
        }
        if p.round > 0 {
            row("rounds", group(p.round));
            row("batch", format!("{} boards", group(p.batch_boards)));
            row(
                "eval time / batch",
                format!("{:.2} ms", p.eval_seconds * 1e3),
            );
            row(
                "boards / s (eval)",
                format!("{:.2} M", p.boards_per_second / 1e6),
            );
        }
        row(
            "nodes / s",
            format!("{:.2} M", p.expanded as f64 / secs / 1e6),
        );
        row("elapsed", format!("{:.2} s", p.seconds));
        if p.memory > 0 {
            row(
                "memory",
                format!("{:.1} MiB", p.memory as f64 / (1 << 20) as f64),
            );
        }
        row("frame", format!("{:.1} ms", st.frame_seconds * 1e3));
    });
}

fn solution_panel(ui: &mut egui::Ui, st: &mut AppState, dialogs: &mut dyn Dialogs) {
    if let Some(v) = &st.unsolvable {
        ui.colored_label(Color32::LIGHT_RED, "No solution possible");
        ui.small(v.reason());
        return;
    }
    let Some(sol) = &st.solution else {
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
        let play = if st.playing { "Pause" } else { "Play" };
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
    let mut pos = st.playback;
    if ui
        .add(egui::Slider::new(&mut pos, 0..=len).text("move"))
        .changed()
    {
        st.seek(pos);
    }
    ui.add(
        egui::Slider::new(&mut st.speed, 0.5..=30.0)
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
            match (dialogs.save("solution.txt"), st.solution_text()) {
                (Some(path), Some(text)) => save(st, &path, &text),
                (None, _) => st.messages.push(NO_DIALOG.to_string()),
                _ => {}
            }
        }
        if ui.button("Save JSON…").clicked() {
            match (dialogs.save("solution.json"), st.solution_json()) {
                (Some(path), Some(text)) => save(st, &path, &text),
                (None, _) => st.messages.push(NO_DIALOG.to_string()),
                _ => {}
            }
        }
    });
}

/// The Open dialog; says what to do when no dialog could be shown.
fn open_file(st: &mut AppState, dialogs: &mut dyn Dialogs) {
    match dialogs.open() {
        Some(p) => {
            st.load_file(&p);
        }
        None => st.messages.push(NO_DIALOG.to_string()),
    }
}

/// Shown when a file dialog returns nothing (cancelled, or no dialog backend).
const NO_DIALOG: &str = "No file chosen. If no dialog appeared, install xdg-desktop-portal (or zenity); you can also drop a file on the window, give it on the command line, or paste a board.";

fn save(st: &mut AppState, path: &std::path::Path, text: &str) {
    match super::write_atomic(path, text.as_bytes()) {
        Ok(()) => st.messages.push(format!("saved {}", path.display())),
        Err(e) => st
            .messages
            .push(format!("could not save {}: {e}", path.display())),
    }
}

/// `1234567` → `1 234 567`.
fn group(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(' ');
        }
        out.push(ch);
    }
    out
}

/// Tile colour: in place (green) or not (blue), by its goal row for some variety.
fn tile_color(tile: u8, in_place: bool, highlight: bool) -> Color32 {
    if highlight {
        return Color32::from_rgb(242, 160, 60);
    }
    if in_place {
        Color32::from_rgb(86, 170, 110)
    } else {
        let v = 110 + (tile as u32 * 37 % 50) as u8;
        Color32::from_rgb(60, v, 190)
    }
}

fn board_view(ui: &mut egui::Ui, st: &mut AppState, painter: &mut dyn QuadPainter, area: Rect) {
    // The overlay toggle gets a strip of its own above the board.
    let toggle = Rect::from_min_size(area.min, vec2(area.width(), 22.0));
    ui.scope_builder(egui::UiBuilder::new().max_rect(toggle), |ui| {
        ui.checkbox(&mut st.show_misplaced, "frontier: share out of place");
    });
    let rect = Rect::from_min_max(area.min + vec2(0.0, 24.0), area.max);
    let b = st.shown_board();
    let (rows, cols) = (b.rows(), b.cols());
    let cell = (rect.width() / cols as f32)
        .min(rect.height() / rows as f32)
        .max(4.0);
    let size = vec2(cell * cols as f32, cell * rows as f32);
    let board = Rect::from_center_size(rect.center(), size);
    let gap = (cell * 0.05).clamp(1.0, 6.0);
    let origin = rect.min;
    let goal = st.goal();
    let cell_rect = |i: usize| {
        Rect::from_min_size(
            board.min + vec2((i % cols) as f32 * cell, (i / cols) as f32 * cell),
            Vec2::splat(cell),
        )
        .shrink(gap)
    };
    let mut quads = vec![Quad::new(
        origin,
        board.expand(gap),
        Color32::from_rgb(28, 30, 36),
        gap * 2.0,
        0.0,
    )];
    let slide = st
        .slide
        .filter(|s| st.now - s.start < SLIDE_SECONDS && b.tiles().get(s.to) == Some(&s.tile));
    let mut labels = Vec::new();
    for (i, &t) in b.tiles().iter().enumerate() {
        if t == 0 {
            continue;
        }
        let mut r = cell_rect(i);
        if let Some(s) = slide
            && s.to == i
        {
            let k = ((st.now - s.start) / SLIDE_SECONDS).clamp(0.0, 1.0) as f32;
            let from = cell_rect(s.from);
            r = r.translate((from.min - r.min) * (1.0 - k));
        }
        let in_place = goal.as_ref().is_some_and(|g| g.board().tiles()[i] == t);
        let hl = st.slide.is_some_and(|s| s.tile == t);
        let picked = st.edit == Some(Some(i));
        let mut col = tile_color(t, in_place, hl);
        if picked {
            col = Color32::from_rgb(230, 80, 200);
        }
        quads.push(Quad::new(origin, r, col, cell * 0.12, 1.0));
        labels.push((r.center(), t));
    }
    if st.show_misplaced
        && let Some(shares) = st.progress.as_ref().and_then(|p| p.misplaced.as_ref())
    {
        for (i, &s) in shares.iter().enumerate().take(b.len()) {
            let a = (s.clamp(0.0, 1.0) * 200.0) as u8;
            quads.push(Quad::new(
                origin,
                cell_rect(i),
                Color32::from_rgba_unmultiplied(220, 40, 40, a),
                cell * 0.12,
                0.0,
            ));
        }
    }
    painter.paint(ui, rect, 1, quads);
    let font = FontId::proportional((cell * 0.42).max(6.0));
    let p = ui.painter();
    for (c, t) in labels {
        p.text(
            c,
            Align2::CENTER_CENTER,
            t.to_string(),
            font.clone(),
            Color32::WHITE,
        );
    }
    if st.show_misplaced
        && let Some(shares) = st.progress.as_ref().and_then(|p| p.misplaced.as_ref())
    {
        let small = FontId::proportional((cell * 0.16).max(6.0));
        for (i, &s) in shares.iter().enumerate().take(b.len()) {
            let r = cell_rect(i);
            p.text(
                r.left_bottom() + vec2(3.0, -2.0),
                Align2::LEFT_BOTTOM,
                format!("{:.0}%", s * 100.0),
                small.clone(),
                Color32::from_rgb(255, 220, 220),
            );
        }
    }
    let resp = ui.interact(board, ui.scope_id().with("board"), Sense::click());
    if resp.clicked()
        && let Some(pos) = resp.interact_pointer_pos()
    {
        let c = ((pos.x - board.min.x) / cell).floor() as isize;
        let r = ((pos.y - board.min.y) / cell).floor() as isize;
        if (0..cols as isize).contains(&c) && (0..rows as isize).contains(&r) {
            st.click_cell(r as usize * cols + c as usize);
        }
    }
}

/// A perceptual colour ramp (approximately viridis), `t` in 0..=1.
pub fn ramp(t: f32) -> Color32 {
    const STOPS: [(f32, [u8; 3]); 5] = [
        (0.0, [68, 1, 84]),
        (0.25, [59, 82, 139]),
        (0.5, [33, 145, 140]),
        (0.75, [94, 201, 98]),
        (1.0, [253, 231, 37]),
    ];
    let t = t.clamp(0.0, 1.0);
    for w in STOPS.windows(2) {
        let ((a, ca), (b, cb)) = (w[0], w[1]);
        if t <= b {
            let k = (t - a) / (b - a);
            let mix = |x: u8, y: u8| (f32::from(x) + (f32::from(y) - f32::from(x)) * k) as u8;
            return Color32::from_rgb(mix(ca[0], cb[0]), mix(ca[1], cb[1]), mix(ca[2], cb[2]));
        }
    }
    Color32::from_rgb(253, 231, 37)
}

fn heatmap_view(ui: &mut egui::Ui, st: &AppState, painter: &mut dyn QuadPainter, rect: Rect) {
    let p = ui.painter_at(rect);
    // A border only: filled backgrounds cost a full pass on software rasterisers.
    p.rect_stroke(
        rect,
        4.0,
        Stroke::new(1.0, Color32::from_gray(50)),
        egui::StrokeKind::Inside,
    );
    let title_font = FontId::proportional(13.0);
    let hist = st.progress.as_ref().and_then(|p| p.histogram.as_ref());
    let prog = st.progress.as_ref();
    let title = match prog {
        Some(pr) if pr.algorithm == Some(Algorithm::Bfs) => format!(
            "Frontier heatmap: breadth-first search uses no heuristic, so there is no (g, h) to show · depth {} · {} nodes",
            pr.bound,
            group(pr.open)
        ),
        Some(_) if hist.is_none_or(|h| h.total() == 0) => {
            "Frontier heatmap: no frontier data (the search ended before its first report)"
                .to_string()
        }
        Some(pr) if pr.iteration > 0 => format!(
            "Frontier heatmap: nodes generated per (g, h) in IDA* iteration {} · threshold f = {}",
            pr.iteration, pr.bound
        ),
        Some(pr) => format!(
            "Frontier heatmap: open list by (g, h) · {} nodes · best f = {}",
            group(pr.open),
            pr.bound
        ),
        None => "Frontier heatmap: start a search to see the open list by (g, h)".to_string(),
    };
    p.text(
        rect.min + vec2(8.0, 6.0),
        Align2::LEFT_TOP,
        title,
        title_font.clone(),
        Color32::LIGHT_GRAY,
    );
    let plot = Rect::from_min_max(rect.min + vec2(48.0, 28.0), rect.max - vec2(86.0, 34.0));
    if plot.width() < 20.0 || plot.height() < 20.0 {
        return;
    }
    let Some(hist) = hist.filter(|h| h.total() > 0) else {
        p.rect_stroke(
            plot,
            0.0,
            Stroke::new(1.0, Color32::DARK_GRAY),
            egui::StrokeKind::Inside,
        );
        return;
    };
    let cells: Vec<(usize, usize, u64)> = hist.cells().collect();
    let max_count = cells.iter().map(|c| c.2).max().unwrap_or(1);
    let bound = prog.map_or(0, |p| p.bound as usize);
    let g_max = cells
        .iter()
        .map(|c| c.0)
        .max()
        .unwrap_or(0)
        .max(bound)
        .max(1)
        + 1;
    let h_max = cells.iter().map(|c| c.1).max().unwrap_or(0).max(1) + 1;
    let cw = plot.width() / g_max as f32;
    let ch = plot.height() / h_max as f32;
    let to_screen = |g: f32, h: f32| Pos2::new(plot.min.x + g * cw, plot.max.y - h * ch);
    let log_max = (max_count as f32).ln().max(1e-6);
    let origin = rect.min;
    let mut quads = Vec::with_capacity(cells.len() + 32);
    for &(g, h, c) in &cells {
        let t = if max_count <= 1 {
            1.0
        } else {
            (c as f32).ln() / log_max
        };
        let r = Rect::from_min_max(
            to_screen(g as f32, h as f32 + 1.0),
            to_screen(g as f32 + 1.0, h as f32),
        );
        quads.push(Quad::new(origin, r, ramp(t), 0.0, 0.0));
    }
    // Colour legend: a vertical ramp on the right.
    let legend = Rect::from_min_max(
        Pos2::new(plot.max.x + 16.0, plot.min.y),
        Pos2::new(plot.max.x + 30.0, plot.max.y),
    );
    let steps = 32;
    for i in 0..steps {
        let t0 = i as f32 / steps as f32;
        let r = Rect::from_min_max(
            Pos2::new(
                legend.min.x,
                legend.max.y - legend.height() * (t0 + 1.0 / steps as f32),
            ),
            Pos2::new(legend.max.x, legend.max.y - legend.height() * t0),
        );
        quads.push(Quad::new(
            origin,
            r,
            ramp(t0 + 0.5 / steps as f32),
            0.0,
            0.0,
        ));
    }
    painter.paint(ui, rect, 2, quads);
    let p = ui.painter_at(rect);
    let small = FontId::proportional(11.0);
    p.text(
        legend.left_top() + vec2(0.0, -2.0),
        Align2::LEFT_BOTTOM,
        group(max_count),
        small.clone(),
        Color32::GRAY,
    );
    p.text(
        legend.left_bottom() + vec2(0.0, 2.0),
        Align2::LEFT_TOP,
        "1",
        small.clone(),
        Color32::GRAY,
    );
    p.text(
        legend.right_center() + vec2(4.0, 0.0),
        Align2::LEFT_CENTER,
        "log\ncount",
        small.clone(),
        Color32::GRAY,
    );
    // Axes with ticks.
    p.line_segment(
        [plot.left_bottom(), plot.right_bottom()],
        Stroke::new(1.0, Color32::GRAY),
    );
    p.line_segment(
        [plot.left_bottom(), plot.left_top()],
        Stroke::new(1.0, Color32::GRAY),
    );
    let tick = |n: usize| ((n as f32 / 8.0).ceil() as usize).max(1);
    for g in (0..=g_max).step_by(tick(g_max)) {
        let x = to_screen(g as f32 + 0.5, 0.0).x;
        p.text(
            Pos2::new(x, plot.max.y + 3.0),
            Align2::CENTER_TOP,
            g.to_string(),
            small.clone(),
            Color32::GRAY,
        );
    }
    for h in (0..=h_max).step_by(tick(h_max)) {
        let y = to_screen(0.0, h as f32 + 0.5).y;
        p.text(
            Pos2::new(plot.min.x - 4.0, y),
            Align2::RIGHT_CENTER,
            h.to_string(),
            small.clone(),
            Color32::GRAY,
        );
    }
    p.text(
        Pos2::new(plot.center().x, plot.max.y + 17.0),
        Align2::CENTER_TOP,
        "g (moves made)",
        small.clone(),
        Color32::LIGHT_GRAY,
    );
    p.text(
        Pos2::new(rect.min.x + 6.0, plot.center().y),
        Align2::LEFT_CENTER,
        "h",
        small.clone(),
        Color32::LIGHT_GRAY,
    );
    // The line f = bound: g + h = bound.
    if bound > 0 {
        let g0 = bound.saturating_sub(h_max) as f32;
        let g1 = bound.min(g_max) as f32;
        let b = bound as f32;
        let start = to_screen(g0 + 0.5, b - g0 + 0.5);
        let end = to_screen(g1 + 0.5, b - g1 + 0.5);
        let red = Color32::from_rgb(255, 110, 80);
        p.line_segment([start, end], Stroke::new(1.5, red));
        p.text(
            end + vec2(4.0, -14.0),
            Align2::LEFT_BOTTOM,
            format!("f = {bound}"),
            small.clone(),
            red,
        );
    }
    // Hover read-out.
    let resp = ui.interact(plot, ui.scope_id().with("heatmap"), Sense::hover());
    if let Some(pos) = resp.hover_pos() {
        let g = ((pos.x - plot.min.x) / cw).floor().max(0.0) as usize;
        let h = ((plot.max.y - pos.y) / ch).floor().max(0.0) as usize;
        let count = hist.get(g, h);
        resp.on_hover_text_at_pointer(format!(
            "g = {g}, h = {h}, f = {}\ncount = {}",
            g + h,
            group(count)
        ));
    }
}
