//! The frontier heatmap: the open list (or an IDA* iteration's nodes) by (g, h).

use std::sync::Arc;

use egui::{Align2, Color32, FontId, Pos2, Rect, Sense, Stroke, vec2};

use crate::app::render::{Quad, QuadPainter};
use crate::app::state::{AppState, FinishedIteration};
use crate::search::{Algorithm, GhHistogram, Progress};
use crate::text::group_digits as group;

/// The colour of the line f = bound.
pub(crate) const BOUND: Color32 = Color32::from_rgb(255, 110, 80);

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

/// The heatmap's quads and what they were built from: the histogram's total and cells, the
/// bound, the iteration picked and the rect (as bits).
type CachedQuads = ((u64, usize, usize, Option<usize>, [u32; 4]), Arc<Vec<Quad>>);

/// An IDA* iteration picked in the iteration chart: its index and its record.
type Picked<'a> = Option<(usize, &'a FinishedIteration)>;

/// Draws the frontier heatmap in `rect`: nodes per (g, h) of the latest snapshot on a log
/// colour scale, with a legend, axes, the line f = bound and a hover read-out.
pub fn show(ui: &mut egui::Ui, st: &AppState, painter: &mut dyn QuadPainter, rect: Rect) {
    let p = ui.painter_at(rect);
    // A border only: filled backgrounds cost a full pass on software rasterisers.
    p.rect_stroke(
        rect,
        4.0,
        Stroke::new(1.0, Color32::from_gray(50)),
        egui::StrokeKind::Inside,
    );
    let prog = st.run.progress();
    // A finished IDA* iteration picked in the iteration chart, else the latest snapshot.
    let picked = st
        .view
        .picked_iteration
        .and_then(|i| Some((i, st.run.iterations().get(i)?)))
        .filter(|(_, it)| it.histogram.is_some());
    let hist = match picked {
        Some((_, it)) => it.histogram.as_ref(),
        None => prog.and_then(|p| p.histogram.as_ref()),
    };
    let (title, caption) = titles(prog, picked, hist);
    // The view in words for AccessKit: its title and where its cells lie.
    let view = ui.interact(rect, ui.scope_id().with("heatmap view"), Sense::hover());
    view.widget_info(|| {
        let words = format!("{title}{}", hist.map_or(String::new(), spread));
        egui::WidgetInfo::labeled(egui::accesskit::Role::Image, true, words)
    });
    let top = header(&p, rect, title, caption);
    let plot = Rect::from_min_max(rect.min + vec2(48.0, top), rect.max - vec2(86.0, 34.0));
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
    let bound = match picked {
        Some((_, it)) => it.threshold as usize,
        None => prog.map_or(0, |p| p.bound as usize),
    };
    let grid = Grid::new(plot, &cells, bound);
    // Colour legend: a vertical ramp on the right.
    let legend = Rect::from_min_max(
        Pos2::new(plot.max.x + 16.0, plot.min.y),
        Pos2::new(plot.max.x + 30.0, plot.max.y),
    );
    // The geometry of a snapshot is built once and kept (egui's memory) until the snapshot, the
    // iteration picked or the rect changes: frames drawn for other reasons reuse it.
    let key = (
        hist.total(),
        cells.len(),
        bound,
        picked.map(|p| p.0),
        [rect.min.x, rect.min.y, rect.max.x, rect.max.y].map(f32::to_bits),
    );
    let id = ui.scope_id().with_salt(egui::IdSalt::new("heatmap quads"));
    let cached: Option<CachedQuads> = ui.data(|d| d.get_temp(id));
    let quads = match cached {
        Some((k, q)) if k == key => q,
        _ => {
            let mut quads = grid.cell_quads(rect.min, &cells, max_count);
            legend_quads(&mut quads, rect.min, legend);
            let quads = Arc::new(quads);
            ui.data_mut(|d| d.insert_temp(id, (key, quads.clone())));
            quads
        }
    };
    painter.paint(ui, rect, 2, quads);
    let p = ui.painter_at(rect);
    let small = FontId::proportional(11.0);
    legend_labels(&p, legend, max_count, &small);
    grid.axes(&p, rect, &small);
    grid.bound_line(&p, bound, &small);
    grid.hover(ui, &p, rect, hist, &small);
}

/// Where a histogram's nodes lie, in words (the heatmap's read-out without colour): "; 8
/// nodes in 3 cells, g 1 to 3, h 33 to 35; the most, 4, at g 2, h 34" (empty if it has none).
fn spread(hist: &GhHistogram) -> String {
    let cells: Vec<(usize, usize, u64)> = hist.cells().filter(|c| c.2 > 0).collect();
    let range = |f: fn(&(usize, usize, u64)) -> usize| {
        let lo = cells.iter().map(f).min().unwrap_or(0);
        let hi = cells.iter().map(f).max().unwrap_or(0);
        if lo == hi {
            lo.to_string()
        } else {
            format!("{lo} to {hi}")
        }
    };
    let Some(&(g, h, most)) = cells
        .iter()
        .max_by_key(|c| (c.2, std::cmp::Reverse((c.0, c.1))))
    else {
        return String::new();
    };
    format!(
        "; {} nodes in {} cell{}, g {}, h {}; the most, {}, at g {g}, h {h}",
        group(hist.total()),
        cells.len(),
        if cells.len() == 1 { "" } else { "s" },
        range(|c| c.0),
        range(|c| c.1),
        group(most)
    )
}

/// The view's title and the caption under it, for the snapshot `prog`, the iteration
/// `picked` in the chart and the histogram `hist` shown.
fn titles(
    prog: Option<&Progress>,
    picked: Picked<'_>,
    hist: Option<&GhHistogram>,
) -> (String, &'static str) {
    match (prog, picked) {
        (_, Some((i, it))) => (
            format!(
                "Frontier heatmap: nodes generated per (g, h) in finished IDA* iteration {} · threshold f = {}",
                i + 1,
                it.threshold
            ),
            "Cells left of the f line were searched below; cells right of it were generated but pruned (f > threshold).",
        ),
        (Some(pr), _) if pr.algorithm == Some(Algorithm::Bfs) => (
            format!(
                "Frontier heatmap: breadth-first search uses no heuristic, so there is no (g, h) to show · depth {} · {} nodes",
                pr.bound,
                group(pr.frontier.open)
            ),
            "",
        ),
        (Some(_), _) if hist.is_none_or(|h| h.total() == 0) => (
            "Frontier heatmap: no frontier data (the search ended before its first report)"
                .to_string(),
            "",
        ),
        (Some(pr), _) if pr.ida.number > 0 => (
            format!(
                "Frontier heatmap: nodes generated per (g, h) in IDA* iteration {} · threshold f = {}",
                pr.ida.number, pr.bound
            ),
            "Cells left of the f line are searched below; cells right of it were generated but pruned (f > threshold): the lowest such f is the next threshold.",
        ),
        (Some(pr), _) if matches!(pr.algorithm, Some(Algorithm::Greedy)) => (
            format!(
                "Frontier heatmap: open list by (g, h) · {} nodes",
                group(pr.frontier.open)
            ),
            "Each cell counts the open boards with that g and h; greedy best-first expands from the bottom row (lowest h), whatever g: the line g + h is not its order.",
        ),
        (Some(pr), _) if matches!(pr.algorithm, Some(Algorithm::WeightedAStar(_))) => (
            format!(
                "Frontier heatmap: open list by (g, h) · {} nodes",
                group(pr.frontier.open)
            ),
            "Each cell counts the open boards with that g and h; weighted A* expands the lowest g + w·h first, a line steeper than the g + h line drawn, so it dives deep where h is low.",
        ),
        (Some(pr), _) => (
            format!(
                "Frontier heatmap: open list by (g, h) · {} nodes · best f = {}",
                group(pr.frontier.open),
                pr.bound
            ),
            "Each cell counts the open boards with that g and h; A* expands from the lowest f line (g + h = f), highest g first.",
        ),
        (None, _) => (
            "Frontier heatmap: start a search to see the open list by (g, h)".to_string(),
            "",
        ),
    }
}

/// Draws the title and caption at the top of `rect`, wrapped to its width (never cut).
/// Returns the plot's top offset from `rect`'s top, in points: below them, with room for the
/// legend's top label.
fn header(p: &egui::Painter, rect: Rect, title: String, caption: &str) -> f32 {
    let wrap = (rect.width() - 16.0).max(40.0);
    let title = p.layout(title, FontId::proportional(13.0), Color32::LIGHT_GRAY, wrap);
    let caption = p.layout(
        caption.to_string(),
        FontId::proportional(11.0),
        Color32::GRAY,
        wrap,
    );
    let title_h = title.size().y;
    // Room above the plot for the legend's top label too.
    let top = 8.0 + title_h + caption.size().y + 18.0;
    p.galley(rect.min + vec2(8.0, 6.0), title, Color32::LIGHT_GRAY);
    p.galley(rect.min + vec2(8.0, 8.0 + title_h), caption, Color32::GRAY);
    top
}

/// Appends the legend's colour ramp (32 steps, 1 at the bottom, the most at the top) in
/// `legend` to `quads`; `origin` is the painted rect's top left.
fn legend_quads(quads: &mut Vec<Quad>, origin: Pos2, legend: Rect) {
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
}

/// Labels the legend's ramp in `legend`: `max_count` at its top, 1 at its bottom, "log count"
/// beside it.
fn legend_labels(p: &egui::Painter, legend: Rect, max_count: u64, small: &FontId) {
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
}

/// The plot's scale: `g_max` × `h_max` cells of `cw` × `ch` points filling `plot`, g to the
/// right, h upwards from its bottom left.
struct Grid {
    plot: Rect,
    g_max: usize,
    h_max: usize,
    cw: f32,
    ch: f32,
}

impl Grid {
    /// The scale that fits every cell of `cells` (g, h, count) and the line f = `bound` in
    /// `plot`.
    fn new(plot: Rect, cells: &[(usize, usize, u64)], bound: usize) -> Self {
        let g_max = cells
            .iter()
            .map(|c| c.0)
            .max()
            .unwrap_or(0)
            .max(bound)
            .max(1)
            + 1;
        let h_max = cells.iter().map(|c| c.1).max().unwrap_or(0).max(1) + 1;
        Grid {
            plot,
            g_max,
            h_max,
            cw: plot.width() / g_max as f32,
            ch: plot.height() / h_max as f32,
        }
    }

    /// The screen point of (g, h), in cells from the plot's bottom left.
    fn to_screen(&self, g: f32, h: f32) -> Pos2 {
        Pos2::new(self.plot.min.x + g * self.cw, self.plot.max.y - h * self.ch)
    }

    /// One quad per cell of `cells` (g, h, count), coloured by its count on a log scale up to
    /// `max_count`; `origin` is the painted rect's top left. The vector has room for the
    /// legend's quads too.
    fn cell_quads(&self, origin: Pos2, cells: &[(usize, usize, u64)], max_count: u64) -> Vec<Quad> {
        let log_max = (max_count as f32).ln().max(1e-6);
        let mut quads = Vec::with_capacity(cells.len() + 32);
        for &(g, h, c) in cells {
            let t = if max_count <= 1 {
                1.0
            } else {
                (c as f32).ln() / log_max
            };
            let r = Rect::from_min_max(
                self.to_screen(g as f32, h as f32 + 1.0),
                self.to_screen(g as f32 + 1.0, h as f32),
            );
            quads.push(Quad::new(origin, r, ramp(t), 0.0, 0.0));
        }
        quads
    }

    /// Draws the axes with their ticks (at least 28 points apart) and their names; `rect` is
    /// the view's.
    fn axes(&self, p: &egui::Painter, rect: Rect, small: &FontId) {
        let plot = self.plot;
        p.line_segment(
            [plot.left_bottom(), plot.right_bottom()],
            Stroke::new(1.0, Color32::GRAY),
        );
        p.line_segment(
            [plot.left_bottom(), plot.left_top()],
            Stroke::new(1.0, Color32::GRAY),
        );
        // Ticks at least 28 points apart (labels never run together), none under the legend.
        let tick = |n: usize, len: f32| ((n as f32 / (len / 28.0).max(1.0)).ceil() as usize).max(1);
        for g in (0..self.g_max).step_by(tick(self.g_max, plot.width())) {
            let x = self.to_screen(g as f32 + 0.5, 0.0).x;
            if x > plot.max.x - 4.0 {
                break;
            }
            p.text(
                Pos2::new(x, plot.max.y + 3.0),
                Align2::CENTER_TOP,
                g.to_string(),
                small.clone(),
                Color32::GRAY,
            );
        }
        for h in (0..self.h_max).step_by(tick(self.h_max, plot.height() * 0.7)) {
            let y = self.to_screen(0.0, h as f32 + 0.5).y;
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
    }

    /// Draws the line f = `bound` (g + h = bound) and its label; nothing for a bound of 0.
    fn bound_line(&self, p: &egui::Painter, bound: usize, small: &FontId) {
        if bound == 0 {
            return;
        }
        let g0 = bound.saturating_sub(self.h_max) as f32;
        let g1 = bound.min(self.g_max) as f32;
        let b = bound as f32;
        let start = self.to_screen(g0 + 0.5, b - g0 + 0.5);
        let end = self.to_screen(g1 + 0.5, b - g1 + 0.5);
        let red = BOUND;
        p.line_segment([start, end], Stroke::new(1.5, red));
        p.text(
            end + vec2(4.0, -14.0),
            Align2::LEFT_BOTTOM,
            format!("f = {bound}"),
            small.clone(),
            red,
        );
    }

    /// The hover read-out: the (g, h, f) and count of `hist`'s cell under the pointer, in a
    /// box kept inside the view's `rect`.
    fn hover(
        &self,
        ui: &egui::Ui,
        p: &egui::Painter,
        rect: Rect,
        hist: &GhHistogram,
        small: &FontId,
    ) {
        // Drawn in the frame of the pointer move itself (a tooltip waits for the pointer to
        // rest, and so appeared only after a second move).
        let plot = self.plot;
        let resp = ui.interact(plot, ui.scope_id().with("heatmap"), Sense::hover());
        let Some(pos) = resp.hover_pos() else {
            return;
        };
        let g = ((pos.x - plot.min.x) / self.cw).floor().max(0.0) as usize;
        let h = ((plot.max.y - pos.y) / self.ch).floor().max(0.0) as usize;
        let count = hist.get(g, h);
        let text = format!("g = {g}, h = {h}, f = {}\ncount = {}", g + h, group(count));
        let galley = p.layout_no_wrap(text, small.clone(), Color32::WHITE);
        let at = pos + vec2(14.0, 10.0);
        let bx = Rect::from_min_size(at, galley.size() + vec2(8.0, 6.0));
        // Kept inside the view.
        let bx = bx.translate(vec2(
            (rect.max.x - bx.max.x).min(0.0),
            (rect.max.y - bx.max.y).min(0.0),
        ));
        p.rect_filled(bx, 3.0, Color32::from_rgba_unmultiplied(20, 20, 24, 235));
        p.galley(bx.min + vec2(4.0, 3.0), galley, Color32::WHITE);
    }
}
