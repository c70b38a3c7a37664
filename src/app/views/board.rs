//! The board view: tiles (drawn by the quad painter), numbers, the slide animation, edit
//! picks, and the frontier's out-of-place shares per cell.

use egui::{Align2, Color32, FontId, Pos2, Rect, Sense, Stroke, StrokeKind, Vec2, vec2};

use crate::app::render::{Quad, QuadPainter};
use crate::app::state::{AppState, SLIDE_SECONDS};
use crate::puzzle::{Board, Goal};

/// The tile that just moved (playback, a move by hand).
pub(crate) const MOVED: Color32 = Color32::from_rgb(242, 160, 60);
/// A tile on its goal cell.
pub(crate) const IN_PLACE: Color32 = Color32::from_rgb(86, 170, 110);
/// Edit mode: the tile picked to swap.
pub(crate) const PICKED: Color32 = Color32::from_rgb(230, 80, 200);
/// Hint: the tile whose move keeps the optimum.
pub(crate) const HINT: Color32 = Color32::from_rgb(200, 220, 60);

/// Tile colour: in place (green) or not (blue), by its goal row for some variety.
pub(crate) fn tile_color(tile: u8, in_place: bool, highlight: bool) -> Color32 {
    if highlight {
        return MOVED;
    }
    if in_place {
        IN_PLACE
    } else {
        let v = 110 + (tile as u32 * 37 % 50) as u8;
        Color32::from_rgb(60, v, 190)
    }
}

/// Height of the strip above the board (toggles, caption, coach; the coach's verdict may take
/// a line of its own), in points.
const STRIP: f32 = 88.0;

/// The chosen pattern database with its tables, when the search or the coach has loaded it
/// (for the board's goal).
fn loaded_pdb(
    st: &AppState,
    choice: &crate::heuristic::HeuristicChoice,
) -> Option<std::sync::Arc<crate::heuristic::pdb::AdditivePdb>> {
    use crate::heuristic::{HeuristicChoice, HeuristicSpec};
    let HeuristicChoice::Pdb(spec) = choice else {
        return None;
    };
    let goal = st.goal()?;
    let name = spec.name();
    let fits = |h: &HeuristicSpec| match h {
        HeuristicSpec::Pdb(p) if p.name() == name => Some(p.clone()),
        _ => None,
    };
    let from_run = st
        .run
        .heuristic()
        .filter(|_| st.run.solution().is_some() || st.is_running())
        .and_then(fits);
    let from_coach = st
        .play
        .loaded()
        .filter(|(g, _)| g.board() == goal.board())
        .and_then(|(_, h)| fits(h));
    from_run.or(from_coach)
}

/// What a button of the coach's line asked for (done after the line is drawn, so that the
/// whole line is of one board).
#[derive(Clone, Copy)]
enum PlayAction {
    Undo,
    Redo,
    Hint,
    Solve,
}

/// The coach's line: Undo and Redo, moves made, the exact moves to solve from here, Hint and
/// Solve from here, the verdict. While a solution is played back, Undo and Redo alone.
fn coach_line(ui: &mut egui::Ui, st: &mut AppState, b: &Board) {
    if st.view.focus.is_some() {
        return;
    }
    let mut action = None;
    // One line, cut short with "…" where the view is narrow: a wrapped line would push the
    // board down.
    ui.horizontal(|ui| {
        action = undo_buttons(ui, st);
        if st.run.solution().is_some() && st.playback.position() > 0 {
            return;
        }
        let mut line = format!("Moves made: {}", st.play.moves());
        match (st.play.to_go(b), st.play.answer()) {
            (Some(n), Some(a)) => {
                line += &format!(" · {n} moves to solve from here (exact, {})", a.heuristic);
            }
            _ if st.play.thinking() => line += " · computing moves to solve from here…",
            _ if b.len() > crate::app::state::play_max_cells() => {
                line += " · the coach counts moves to solve up to 4×4"
            }
            _ => {}
        }
        if let Some(e) = st.play.error() {
            line += &format!(" · coach: {e}");
        }
        // Hint first, where it is always seen.
        if st.play.to_go(b).is_some_and(|n| n > 0) {
            if ui
                .small_button("Hint")
                .on_hover_text("highlight a tile whose move keeps the optimum")
                .clicked()
            {
                action = Some(PlayAction::Hint);
            }
            if ui
                .small_button("Solve from here")
                .on_hover_text(
                    "play the coach's optimal solution to the goal (one Undo takes it back)",
                )
                .clicked()
            {
                action = Some(PlayAction::Solve);
            }
        }
        let font = FontId::proportional(12.5);
        let mut job = egui::text::LayoutJob::default();
        let plain = ui.visuals().text_color();
        job.append(&line, 0.0, egui::TextFormat::simple(font.clone(), plain));
        if let Some(v) = st.play.verdict() {
            // A move that cost two in the warning colour, not the success one.
            let col = if st.play.verdict_is_costly() {
                Color32::from_rgb(230, 190, 90)
            } else {
                Color32::from_rgb(120, 200, 120)
            };
            job.append(v, 8.0, egui::TextFormat::simple(font, col));
        }
        ui.add(egui::Label::new(job).truncate());
    });
    if action.is_some() {
        // The line was drawn before the board changed: draw the new one.
        ui.ctx().request_repaint();
    }
    match action {
        Some(PlayAction::Undo) => _ = st.undo(),
        Some(PlayAction::Redo) => _ = st.redo(),
        Some(PlayAction::Hint) => st.play.ask_hint(),
        Some(PlayAction::Solve) => _ = st.solve_from_here(),
        None => {}
    }
}

/// Undo and Redo, each saying how many moves it takes back or makes again.
fn undo_buttons(ui: &mut egui::Ui, st: &AppState) -> Option<PlayAction> {
    let (back, again) = st.play.chain().sizes();
    let moves = |n: usize| match n {
        0 => String::new(),
        1 => " (1 move)".to_string(),
        n => format!(" ({n} moves at once)"),
    };
    let mut action = None;
    if ui
        .add_enabled(st.can_undo(), egui::Button::new("Undo").small())
        .on_hover_text(format!(
            "Ctrl+Z, U or Backspace: take back the last step{}",
            moves(back)
        ))
        .clicked()
    {
        action = Some(PlayAction::Undo);
    }
    if ui
        .add_enabled(st.can_redo(), egui::Button::new("Redo").small())
        .on_hover_text(format!(
            "Ctrl+Shift+Z or Ctrl+Y: make the undone step again{}",
            moves(again)
        ))
        .clicked()
    {
        action = Some(PlayAction::Redo);
    }
    action
}

/// Draws the shown board in `area` (tiles through `painter`, numbers with egui), the
/// out-of-place overlay and its toggle; a click on a cell goes to [`AppState::click_cell`].
pub fn show(ui: &mut egui::Ui, st: &mut AppState, painter: &mut dyn QuadPainter, area: Rect) {
    // Above the board: the toggles, the heuristic's caption, the coach's line.
    let strip = Rect::from_min_size(area.min, vec2(area.width(), STRIP));
    let b = st.shown_board();
    let goal = st.goal();
    let heuristic = st.settings.heuristic.clone();
    let draw_h = st.view.show_heuristic && st.settings.algorithm != crate::search::Algorithm::Bfs;
    ui.scope_builder(egui::UiBuilder::new().max_rect(strip), |ui| {
        toggles(ui, st);
        let loaded = loaded_pdb(st, &heuristic);
        let cap = goal
            .as_ref()
            .filter(|_| draw_h)
            .and_then(|g| super::overlay::caption(&heuristic, &b, g, loaded.as_deref()));
        ui.add(
            egui::Label::new(egui::RichText::new(cap.unwrap_or_default()).size(12.0)).truncate(),
        );
        coach_line(ui, st, &b);
    });
    let rect = Rect::from_min_max(area.min + vec2(0.0, STRIP + 2.0), area.max);
    let cells = Cells::new(rect, b.rows(), b.cols());
    st.view.board_rect = cells.board.expand(cells.gap + 4.0).intersect(rect);
    let origin = rect.min;
    let (mut quads, tiles) = tile_quads(st, &b, goal.as_ref(), &cells, origin);
    let shares = misplaced(st);
    if let Some(shares) = shares {
        for (i, &s) in shares.iter().enumerate().take(b.len()) {
            let a = (s.clamp(0.0, 1.0) * 200.0) as u8;
            quads.push(Quad::new(
                origin,
                cells.tile(i),
                Color32::from_rgba_unmultiplied(220, 40, 40, a),
                cells.cell * 0.12,
                0.0,
            ));
        }
    }
    painter.paint(ui, rect, 1, std::sync::Arc::new(quads));
    let p = ui.painter();
    let font = FontId::proportional((cells.cell * 0.42).max(6.0));
    // Tiles in place are framed in white as well as green: colour is never the only cue.
    let frame = Stroke::new((cells.cell * 0.035).clamp(1.5, 4.0), IN_PLACE_FRAME);
    for t in tiles {
        if t.in_place {
            p.rect_stroke(t.rect, cells.cell * 0.12, frame, StrokeKind::Inside);
        }
        p.text(
            t.rect.center(),
            Align2::CENTER_CENTER,
            t.tile.to_string(),
            font.clone(),
            Color32::WHITE,
        );
    }
    if let Some(shares) = shares {
        share_labels(p, shares, b.len(), &cells);
    }
    if draw_h && let Some(g) = &goal {
        super::overlay::draw(p, &heuristic, &b, g, &|i| cells.tile(i), cells.cell);
    }
    let resp = ui.interact(cells.board, ui.scope_id().with("board"), Sense::click());
    if resp.clicked()
        && let Some(i) = resp.interact_pointer_pos().and_then(|pos| cells.at(pos))
    {
        st.click_cell(i);
    }
    let ring = keyboard(ui, st, &resp, &b);
    if let Some(i) = ring {
        let r = cells.tile(i).expand(cells.gap);
        p.rect_stroke(
            r,
            cells.cell * 0.14,
            Stroke::new(3.0, RING),
            StrokeKind::Outside,
        );
    }
    accessible(ui, &resp, &b, goal.as_ref(), &cells, ring);
}

/// The frame of a tile in place.
const IN_PLACE_FRAME: Color32 = Color32::from_rgb(235, 255, 235);

/// The keyboard's ring on the focused board.
const RING: Color32 = Color32::from_rgb(255, 214, 40);

/// The board as a keyboard control. Tab gives it the focus (egui's focus order, as for any
/// control); then the arrow keys move a ring over the cells (it starts on the blank) and
/// Enter or Space acts on the ringed cell as a click does: a tile next to the blank slides
/// into it, and in Edit mode tiles are picked and swapped. Escape hands the focus back (the
/// arrows slide tiles again). Returns the ringed cell while the board has the focus.
fn keyboard(ui: &egui::Ui, st: &mut AppState, resp: &egui::Response, b: &Board) -> Option<usize> {
    let key = resp.id.with("ring");
    if !resp.has_focus() {
        ui.data_mut(|d| d.remove::<usize>(key));
        return None;
    }
    // The arrows are the board's while it has the focus (egui would move the focus on).
    let filter = egui::EventFilter {
        horizontal_arrows: true,
        vertical_arrows: true,
        ..Default::default()
    };
    ui.memory_mut(|m| m.set_focus_lock_filter(resp.id, filter));
    let ring = ui.data(|d| d.get_temp::<usize>(key));
    let mut at = ring.filter(|&i| i < b.len()).unwrap_or(b.blank());
    let (rows, cols) = (b.rows(), b.cols());
    let none = egui::Modifiers::NONE;
    let (up, down, left, right, act) = ui.input_mut(|i| {
        (
            i.consume_key(none, egui::Key::ArrowUp),
            i.consume_key(none, egui::Key::ArrowDown),
            i.consume_key(none, egui::Key::ArrowLeft),
            i.consume_key(none, egui::Key::ArrowRight),
            i.consume_key(none, egui::Key::Enter) || i.consume_key(none, egui::Key::Space),
        )
    });
    let (r, c) = (at / cols, at % cols);
    let r = if up { r.saturating_sub(1) } else { r };
    let r = if down { (r + 1).min(rows - 1) } else { r };
    let c = if left { c.saturating_sub(1) } else { c };
    let c = if right { (c + 1).min(cols - 1) } else { c };
    at = r * cols + c;
    if act {
        st.click_cell(at);
    }
    ui.data_mut(|d| d.insert_temp(key, at));
    Some(at)
}

/// A cell in words, rows and columns counted from 1: "tile 7, row 2, column 3", "blank,
/// row 1, column 1".
pub fn cell_name(b: &Board, i: usize) -> String {
    let (row, col) = (i / b.cols() + 1, i % b.cols() + 1);
    match b.tiles().get(i) {
        Some(0) | None => format!("blank, row {row}, column {col}"),
        Some(t) => format!("tile {t}, row {row}, column {col}"),
    }
}

/// The board and each of its cells for AccessKit (screen readers, egui_kittest): the board
/// labelled with its shape and, while it has the focus, the ringed cell; each cell by
/// [`cell_name`], described as in place or not when there is a goal.
fn accessible(
    ui: &egui::Ui,
    resp: &egui::Response,
    b: &Board,
    goal: Option<&Goal>,
    cells: &Cells,
    ring: Option<usize>,
) {
    resp.widget_info(|| {
        let mut label = format!("board, {} rows by {} columns", b.rows(), b.cols());
        if let Some(i) = ring {
            label += &format!("; the ring is on {}", cell_name(b, i));
        }
        egui::WidgetInfo::labeled(egui::accesskit::Role::Grid, true, label)
    });
    for i in 0..b.len() {
        let cell = ui.interact(cells.tile(i), resp.id.with(("cell", i)), Sense::hover());
        cell.widget_info(|| {
            egui::WidgetInfo::labeled(egui::accesskit::Role::Cell, true, cell_name(b, i))
        });
        let t = b.tiles()[i];
        if let Some(g) = goal.filter(|_| t != 0) {
            let placed = g.board().tiles().get(i) == Some(&t);
            let words = if placed { "in place" } else { "out of place" };
            ui.ctx()
                .accesskit_node_builder(cell.id, |n| n.set_description(words));
        }
    }
}

/// The toggles over the board: the out-of-place shares and h on the board; while a board
/// picked from the search is shown, a line saying so and a way back instead of the first.
fn toggles(ui: &mut egui::Ui, st: &mut AppState) {
    // The board's "?" at the right end, placed first so that a narrow view cuts the toggles'
    // words, never the "?".
    ui.horizontal(|ui| {
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            super::help::button(ui, super::help::Topic::Board);
            ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| {
                // What does not fit left of the "?" is cut, not drawn over it.
                ui.shrink_clip_rect(ui.max_rect());
                toggle_boxes(ui, st);
            });
        });
    });
}

/// [`toggles`]' row but its "?".
fn toggle_boxes(ui: &mut egui::Ui, st: &mut AppState) {
    if st.view.focus.is_some() {
        ui.colored_label(
            Color32::from_rgb(242, 160, 60),
            "Showing a board picked from the search.",
        );
        if ui
            .small_button("Back to the puzzle")
            .on_hover_text("Show the puzzle's board again")
            .clicked()
        {
            st.view.focus = None;
        }
    } else {
        ui.checkbox(&mut st.view.show_misplaced, "frontier: share out of place")
            .on_hover_text(
                "On each cell, the share of the open boards whose tile there is not its goal tile",
            );
    }
    ui.checkbox(&mut st.view.show_heuristic, "h on the board")
        .on_hover_text("Draw the heuristic on the tiles: its parts add up to h");
}

/// The frontier's out-of-place share (0..=1) per cell, row-major, when it is to be shown.
fn misplaced(st: &AppState) -> Option<&[f32]> {
    if !st.view.show_misplaced {
        return None;
    }
    st.run.progress().and_then(|p| p.misplaced.as_deref())
}

/// The board's cells on screen: `rows` × `cols` squares of `cell` points filling as much of
/// the view as fits, centred in it, each tile `gap` points inside its square.
struct Cells {
    board: Rect,
    rows: usize,
    cols: usize,
    cell: f32,
    gap: f32,
}

impl Cells {
    /// The cells of a `rows` × `cols` board in `rect`.
    fn new(rect: Rect, rows: usize, cols: usize) -> Self {
        let cell = (rect.width() / cols as f32)
            .min(rect.height() / rows as f32)
            .max(4.0);
        let size = vec2(cell * cols as f32, cell * rows as f32);
        Cells {
            board: Rect::from_center_size(rect.center(), size),
            rows,
            cols,
            cell,
            gap: (cell * 0.05).clamp(1.0, 6.0),
        }
    }

    /// Cell `i`'s tile rectangle (row-major).
    fn tile(&self, i: usize) -> Rect {
        Rect::from_min_size(
            self.board.min
                + vec2(
                    (i % self.cols) as f32 * self.cell,
                    (i / self.cols) as f32 * self.cell,
                ),
            Vec2::splat(self.cell),
        )
        .shrink(self.gap)
    }

    /// The cell (row-major) under the screen point `pos`, if any.
    fn at(&self, pos: Pos2) -> Option<usize> {
        let c = ((pos.x - self.board.min.x) / self.cell).floor() as isize;
        let r = ((pos.y - self.board.min.y) / self.cell).floor() as isize;
        ((0..self.cols as isize).contains(&c) && (0..self.rows as isize).contains(&r))
            .then(|| r as usize * self.cols + c as usize)
    }
}

/// A tile as drawn: where (part-way while it slides), its number, whether it is in place.
struct Drawn {
    rect: Rect,
    tile: u8,
    in_place: bool,
}

/// The board's frame and tiles of `b` as quads (`origin`: the painted rect's top left), the
/// sliding tile part-way, coloured by place, slide, edit pick and hint; and each tile as
/// drawn, to write its number on it and frame it when in place.
fn tile_quads(
    st: &AppState,
    b: &Board,
    goal: Option<&Goal>,
    cells: &Cells,
    origin: Pos2,
) -> (Vec<Quad>, Vec<Drawn>) {
    let (cell, gap) = (cells.cell, cells.gap);
    let mut quads = vec![Quad::new(
        origin,
        cells.board.expand(gap),
        Color32::from_rgb(28, 30, 36),
        gap * 2.0,
        0.0,
    )];
    let now = st.clock.now();
    let slide = st
        .playback
        .slide()
        .filter(|s| now - s.start < SLIDE_SECONDS && b.tiles().get(s.to) == Some(&s.tile));
    // The coach's hint: the tile whose move keeps the optimum.
    let hint = (st.view.focus.is_none())
        .then(|| st.play.hint(b).and_then(|m| b.target(m)))
        .flatten();
    let mut labels = Vec::new();
    for (i, &t) in b.tiles().iter().enumerate() {
        if t == 0 {
            continue;
        }
        let mut r = cells.tile(i);
        if let Some(s) = slide
            && s.to == i
        {
            let k = ((now - s.start) / SLIDE_SECONDS).clamp(0.0, 1.0) as f32;
            let from = cells.tile(s.from);
            r = r.translate((from.min - r.min) * (1.0 - k));
        }
        let in_place = goal.is_some_and(|g| g.board().tiles()[i] == t);
        let hl = st.playback.slide().is_some_and(|s| s.tile == t);
        let picked = st.editor.picked() == Some(i);
        let mut col = tile_color(t, in_place, hl);
        if picked {
            col = PICKED;
        }
        if hint == Some(i) {
            col = HINT;
        }
        quads.push(Quad::new(origin, r, col, cell * 0.12, 1.0));
        labels.push(Drawn {
            rect: r,
            tile: t,
            in_place,
        });
    }
    (quads, labels)
}

/// Writes each of the first `n` cells' out-of-place share `shares` (0..=1) as a percentage in
/// its bottom right corner.
fn share_labels(p: &egui::Painter, shares: &[f32], n: usize, cells: &Cells) {
    let small = FontId::proportional((cells.cell * 0.16).max(6.0));
    for (i, &s) in shares.iter().enumerate().take(n) {
        let r = cells.tile(i);
        // Bottom right: the heuristic overlay marks the bottom left (+2) and top right.
        p.text(
            r.right_bottom() + vec2(-3.0, -2.0),
            Align2::RIGHT_BOTTOM,
            format!("{:.0}%", s * 100.0),
            small.clone(),
            Color32::from_rgb(255, 220, 220),
        );
    }
}
