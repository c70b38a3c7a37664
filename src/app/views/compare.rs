//! The Compare view: the board solved with each heuristic (a table filled as results come:
//! initial h, nodes expanded and generated, seconds, effective branching factor, length), and
//! the textbook experiment as a chart (log mean nodes expanded against optimal depth, one
//! line per heuristic).

use egui::{Align2, Color32, FontId, Pos2, Rect, Stroke, vec2};

use crate::app::state::AppState;
use crate::search::measure::{DepthRow, Measure};
use crate::text::group_digits as group;

/// Line colours of the chart, one per method.
const COLOURS: [Color32; 7] = [
    Color32::from_rgb(200, 200, 200),
    Color32::from_rgb(240, 110, 90),
    Color32::from_rgb(240, 190, 80),
    Color32::from_rgb(120, 200, 120),
    Color32::from_rgb(90, 170, 240),
    Color32::from_rgb(200, 120, 230),
    Color32::from_rgb(100, 220, 220),
];

/// Draws the view in `rect`.
pub fn show(ui: &mut egui::Ui, st: &mut AppState, rect: Rect) {
    let mut child = ui.new_child(egui::UiBuilder::new().max_rect(rect.shrink(4.0)));
    let ui = &mut child;
    ui.horizontal_wrapped(|ui| buttons(ui, st));
    if let Some(e) = st.compare.error() {
        ui.colored_label(Color32::from_rgb(235, 110, 90), format!("error: {e}"));
    }
    if !st.compare.depth_rows().is_empty() {
        let rows = st.compare.depth_rows().to_vec();
        // The boards' shape in the title; another board shown since is said.
        let shape = st.compare.experiment_shape().map(|(r, c)| {
            let b = st.board();
            if (b.rows(), b.cols()) == (r, c) {
                format!("{r}×{c} boards")
            } else {
                format!("{r}×{c} boards (not this {}×{} one)", b.rows(), b.cols())
            }
        });
        let area = ui.available_rect_before_wrap();
        chart(ui, &rows, shape.as_deref().unwrap_or("boards"), area);
        return;
    }
    let rows = st.compare.rows();
    if rows.is_empty() {
        ui.label(
            "Compare heuristics: the same board solved with BFS (small boards), Hamming, \
             Manhattan, linear conflict, walking distance and the pattern databases at hand. \
             A stronger heuristic expands fewer nodes; every optimal search finds the same \
             length.",
        );
        return;
    }
    if st.compare.board().is_some_and(|b| b != st.board()) {
        ui.small("(for an earlier board)");
    }
    egui::ScrollArea::vertical().show(ui, |ui| {
        table(ui, rows);
        lengths_note(ui, rows);
    });
}

/// The view's buttons: Compare heuristics, Textbook experiment, Cancel, the time cap, and
/// what is running.
fn buttons(ui: &mut egui::Ui, st: &mut AppState) {
    let busy = st.compare.is_running();
    if ui
        .add_enabled(!busy, egui::Button::new("Compare heuristics"))
        .on_hover_text("solve this board with each heuristic that fits it, one after the other")
        .clicked()
    {
        st.compare_board();
    }
    let small = st.board().len() <= crate::search::bfs::MAX_TABLE_CELLS;
    if ui
        .add_enabled(!busy && small, egui::Button::new("Textbook experiment"))
        .on_disabled_hover_text(
            "for boards of up to 10 cells (3×3, 2×5, …), whose every board's exact distance \
             can be tabulated",
        )
        .on_hover_text(
            "mean nodes against optimal depth over random boards of this shape at exactly \
             each depth (boards of up to 10 cells)",
        )
        .clicked()
    {
        st.compare_depths();
    }
    if ui.add_enabled(busy, egui::Button::new("Cancel")).clicked() {
        st.compare.cancel();
    }
    let l = ui.label("time cap");
    ui.add(
        egui::DragValue::new(&mut st.compare.cap)
            .range(0.5..=600.0)
            .suffix(" s"),
    )
    .labelled_by(l.id);
    if let Some(r) = st.compare.running() {
        ui.spinner();
        ui.label(format!("running: {r}"));
    }
}

/// The table of the board solved with each heuristic, one row per search.
fn table(ui: &mut egui::Ui, rows: &[Measure]) {
    egui::Grid::new("compare")
        .striped(false)
        .num_columns(8)
        .show(ui, |ui| {
            for h in [
                "search",
                "heuristic",
                "h0",
                "expanded",
                "generated",
                "seconds",
                "b*",
                "moves",
            ] {
                ui.strong(h);
            }
            ui.end_row();
            for r in rows {
                ui.label(r.algorithm);
                ui.label(&r.heuristic);
                ui.monospace(r.initial_h.to_string());
                ui.monospace(group(r.expanded));
                ui.monospace(group(r.generated));
                ui.monospace(format!("{:.3}", r.seconds));
                ui.monospace(r.branching.map_or("-".into(), |b| format!("{b:.3}")));
                match (&r.moves, &r.error) {
                    (Some(m), _) => ui.monospace(m.to_string()),
                    (None, Some(e)) => ui.label(format!("- ({e})")),
                    _ => ui.label("-"),
                };
                ui.end_row();
            }
        });
}

/// Under the table: that every search that finished found the same length, or an error if
/// not.
fn lengths_note(ui: &mut egui::Ui, rows: &[Measure]) {
    let lengths: Vec<u32> = rows.iter().filter_map(|r| r.moves).collect();
    if let Some(&first) = lengths.first() {
        if lengths.iter().all(|&l| l == first) {
            ui.label(format!(
                "Every search that finished found {first} moves: all are optimal, as they must be."
            ));
        } else {
            ui.colored_label(
                Color32::from_rgb(235, 110, 90),
                format!("error: the lengths differ ({lengths:?}); please report it"),
            );
        }
    }
}

/// Log mean nodes expanded against depth, one line per method, for `boards` (e.g. "3×3
/// boards").
fn chart(ui: &mut egui::Ui, rows: &[DepthRow], boards: &str, rect: Rect) {
    let p = ui.painter_at(rect);
    let font = FontId::proportional(10.0);
    // Each method's legend entry: its name and its effective branching factor at the
    // deepest depth; the plot leaves room on its right for the widest.
    let legend = legend(rows);
    let widest = legend
        .iter()
        .map(|t| {
            p.layout_no_wrap(t.clone(), font.clone(), Color32::GRAY)
                .size()
                .x
        })
        .fold(0.0f32, f32::max);
    // The title, wrapped to the view (a narrow window's would run past its edge).
    let title = p.layout(
        format!(
            "Mean nodes expanded (log) against optimal depth, {boards} · up to {} boards per \
             depth, seed 1",
            rows.iter().map(|r| r.boards).max().unwrap_or(0)
        ),
        FontId::proportional(12.0),
        Color32::LIGHT_GRAY,
        rect.width() - 8.0,
    );
    let title_height = title.size().y;
    p.galley(rect.min + vec2(4.0, 2.0), title, Color32::LIGHT_GRAY);
    let plot = Rect::from_min_max(
        rect.min + vec2(56.0, 10.0 + title_height),
        rect.max - vec2(widest + 20.0, 28.0),
    );
    if plot.width() < 40.0 || plot.height() < 40.0 {
        return;
    }
    let max_n = rows
        .iter()
        .flat_map(|r| r.methods.iter().map(|c| c.expanded))
        .fold(1.0f64, f64::max);
    let axes = Axes {
        plot,
        max_d: rows.iter().map(|r| r.depth).max().unwrap_or(1).max(1) as f32,
        top: max_n.log10().ceil().max(1.0) as f32,
    };
    axes.decades(&p, &font);
    axes.depths(&p, rows, &font);
    axes.lines(&p, rows, &legend, &font);
}

/// Each method's legend entry: its name and its effective branching factor at the deepest
/// depth of `rows`.
fn legend(rows: &[DepthRow]) -> Vec<String> {
    let methods = rows.first().map_or(0, |r| r.methods.len());
    (0..methods)
        .map(|m| {
            let name = rows[0].methods.get(m).map_or(String::new(), |c| {
                if c.algorithm == "bfs" {
                    "BFS".to_string()
                } else {
                    format!("{} {}", c.algorithm, c.heuristic)
                }
            });
            let b = rows
                .last()
                .and_then(|r| Some((r.depth, r.methods.get(m)?.branching?)))
                .map_or(String::new(), |(d, b)| format!(" (b* {b:.2} at d = {d})"));
            format!("{name}{b}")
        })
        .collect()
}

/// The chart's axes: depth 0 to `max_d` across `plot`, nodes 10^0 to 10^`top` up it on a log
/// scale.
struct Axes {
    plot: Rect,
    max_d: f32,
    top: f32,
}

impl Axes {
    /// The screen point of `n` nodes (at least 1) at depth `d`.
    fn at(&self, d: f32, n: f64) -> Pos2 {
        let plot = self.plot;
        Pos2::new(
            plot.left() + d / self.max_d * plot.width(),
            plot.bottom() - ((n.max(1.0)).log10() as f32 / self.top) * plot.height(),
        )
    }

    /// Draws the decades' lines and their labels.
    fn decades(&self, p: &egui::Painter, font: &FontId) {
        let plot = self.plot;
        for k in 0..=self.top as i32 {
            let y = self.at(0.0, 10f64.powi(k)).y;
            p.line_segment(
                [Pos2::new(plot.left(), y), Pos2::new(plot.right(), y)],
                Stroke::new(0.5, Color32::from_gray(60)),
            );
            p.text(
                Pos2::new(plot.left() - 4.0, y),
                Align2::RIGHT_CENTER,
                format!("10^{k}"),
                font.clone(),
                Color32::GRAY,
            );
        }
    }

    /// Labels `rows`' depths under the plot, every few depths so that they never run
    /// together, and names the axis.
    fn depths(&self, p: &egui::Painter, rows: &[DepthRow], font: &FontId) {
        let plot = self.plot;
        let max_d = self.max_d;
        let label_width = p
            .layout_no_wrap(format!("{max_d}"), font.clone(), Color32::GRAY)
            .size()
            .x
            + 6.0;
        let per_depth = plot.width() / max_d;
        let every = (label_width / per_depth).ceil().max(1.0) as u32;
        for r in rows.iter().filter(|r| r.depth % every == 0) {
            let x = self.at(r.depth as f32, 1.0).x;
            p.text(
                Pos2::new(x, plot.bottom() + 3.0),
                Align2::CENTER_TOP,
                r.depth.to_string(),
                font.clone(),
                Color32::GRAY,
            );
        }
        p.text(
            Pos2::new(plot.center().x, plot.bottom() + 14.0),
            Align2::CENTER_TOP,
            "optimal depth d (moves)",
            font.clone(),
            Color32::GRAY,
        );
    }

    /// Draws each method's line through its solved depths of `rows`, and its `legend` entry
    /// on the right in its colour.
    fn lines(&self, p: &egui::Painter, rows: &[DepthRow], legend: &[String], font: &FontId) {
        let plot = self.plot;
        for (m, entry) in legend.iter().enumerate() {
            let col = COLOURS[m % COLOURS.len()];
            let pts: Vec<Pos2> = rows
                .iter()
                .filter_map(|r| {
                    let c = r.methods.get(m)?;
                    (c.solved > 0).then(|| self.at(r.depth as f32, c.expanded))
                })
                .collect();
            for w in pts.windows(2) {
                p.line_segment([w[0], w[1]], Stroke::new(2.0, col));
            }
            for q in &pts {
                p.circle_filled(*q, 2.5, col);
            }
            p.text(
                Pos2::new(plot.right() + 10.0, plot.top() + 14.0 * m as f32),
                Align2::LEFT_TOP,
                entry,
                font.clone(),
                col,
            );
        }
    }
}
