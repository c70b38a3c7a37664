//! IDA*'s iterations as a bar chart that grows live: one bar per threshold, its height the
//! nodes expanded in that iteration on a log scale; the running iteration drawn open. A
//! click on a finished iteration's bar shows its heatmap.

use egui::{Align2, Color32, FontId, Pos2, Rect, Sense, Stroke, vec2};

use crate::app::state::{AppState, LowerView};
use crate::search::Algorithm;
use crate::text::group_digits as group;

/// A bar of the chart: the iteration's threshold, its nodes expanded, whether it has
/// finished, and whether it has its heatmap.
type Bar = (u32, u64, bool, bool);

/// Draws the chart in `rect`.
pub fn show(ui: &mut egui::Ui, st: &mut AppState, rect: Rect) {
    let p = ui.painter_at(rect);
    let font = FontId::proportional(12.0);
    let prog = st.run.progress();
    let is_ida = matches!(
        prog.and_then(|p| p.algorithm),
        Some(Algorithm::IdaStar | Algorithm::GpuIdaStar)
    );
    if !is_ida {
        p.text(
            rect.left_top() + vec2(8.0, 8.0),
            Align2::LEFT_TOP,
            "IDA* iterations: run IDA* (Solver panel) to see each threshold and the nodes it expanded",
            font,
            Color32::GRAY,
        );
        return;
    }
    let bars = bars(st);
    p.text(
        rect.left_top() + vec2(8.0, 6.0),
        Align2::LEFT_TOP,
        format!(
            "IDA* iterations: nodes expanded per threshold (log scale) · {} finished{}",
            st.run.iterations().len(),
            if st.run.is_running() {
                " · the open bar is the running one"
            } else {
                ""
            }
        ),
        font.clone(),
        Color32::LIGHT_GRAY,
    );
    let plot = Rect::from_min_max(rect.min + vec2(60.0, 28.0), rect.max - vec2(12.0, 36.0));
    if bars.is_empty() || plot.width() < 20.0 || plot.height() < 20.0 {
        return;
    }
    let max = bars.iter().map(|b| b.1).max().unwrap_or(1).max(1) as f64;
    let scale = Scale {
        plot,
        top: max.log10().ceil().max(1.0),
    };
    scale.decades(&p);
    let picked = scale.draw_bars(ui, &p, &bars, st.picked_iteration);
    p.text(
        Pos2::new(plot.center().x, plot.bottom() + 18.0),
        Align2::CENTER_TOP,
        "threshold f",
        FontId::proportional(10.0),
        Color32::GRAY,
    );
    if let Some(i) = picked {
        st.picked_iteration = Some(i);
        st.lower = LowerView::Heatmap;
    }
}

/// The chart's bars: each finished iteration's, then the running one's while a search runs.
fn bars(st: &AppState) -> Vec<Bar> {
    let done = st.run.iterations();
    let mut bars: Vec<Bar> = done
        .iter()
        .map(|i| (i.threshold, i.expanded, true, i.histogram.is_some()))
        .collect();
    if let Some(pr) = st.run.progress()
        && st.run.is_running()
        && pr.iteration as usize > done.len()
    {
        let before: u64 = done.iter().map(|i| i.expanded).sum();
        bars.push((pr.bound, pr.expanded.saturating_sub(before), false, false));
    }
    bars
}

/// The chart's log scale: decades 10^0 to 10^`top` of nodes up `plot`, over one decade's
/// room for 0.
struct Scale {
    plot: Rect,
    top: f64,
}

impl Scale {
    /// The screen y of `n` nodes. One decade below 10^0 at the bottom, so that an iteration
    /// of one node still has a bar (and one of none has no height).
    fn y(&self, n: u64) -> f32 {
        let up = if n == 0 {
            0.0
        } else {
            (1.0 + (n as f64).log10()) / (1.0 + self.top)
        };
        self.plot.bottom() - up as f32 * self.plot.height()
    }

    /// Draws the decades' lines and labels, and the bottom's 0 where there is room for it.
    fn decades(&self, p: &egui::Painter) {
        let plot = self.plot;
        // The bottom is 0 nodes (the decade below 10^0 is the room a one-node bar stands in),
        // labelled where a decade leaves room for it below 10^0's label.
        if plot.height() / (1.0 + self.top as f32) >= 11.0 {
            p.text(
                Pos2::new(plot.left() - 6.0, plot.bottom()),
                Align2::RIGHT_CENTER,
                "0",
                FontId::proportional(10.0),
                Color32::GRAY,
            );
        }
        for k in 0..=self.top as u32 {
            let yy = self.y(10u64.saturating_pow(k));
            p.line_segment(
                [Pos2::new(plot.left(), yy), Pos2::new(plot.right(), yy)],
                Stroke::new(0.5, Color32::from_gray(60)),
            );
            p.text(
                Pos2::new(plot.left() - 6.0, yy),
                Align2::RIGHT_CENTER,
                format!("10^{k}"),
                FontId::proportional(10.0),
                Color32::GRAY,
            );
        }
    }

    /// Draws `bars` (filled when finished, orange when `selected`; open while running), each
    /// with its threshold under it and a tooltip. Returns the bar with a heatmap clicked, if
    /// any.
    fn draw_bars(
        &self,
        ui: &egui::Ui,
        p: &egui::Painter,
        bars: &[Bar],
        selected: Option<usize>,
    ) -> Option<usize> {
        let plot = self.plot;
        let w = (plot.width() / bars.len() as f32).min(60.0);
        let mut picked = None;
        for (i, &(t, n, finished, heat)) in bars.iter().enumerate() {
            let x0 = plot.left() + i as f32 * w;
            let bar = Rect::from_min_max(
                Pos2::new(x0 + w * 0.15, self.y(n)),
                Pos2::new(x0 + w * 0.85, plot.bottom()),
            );
            if finished {
                let col = if selected == Some(i) {
                    Color32::from_rgb(242, 160, 60)
                } else {
                    Color32::from_rgb(70, 130, 200)
                };
                p.rect_filled(bar, 2.0, col);
            } else {
                p.rect_stroke(
                    bar,
                    2.0,
                    Stroke::new(1.5, Color32::from_rgb(120, 200, 120)),
                    egui::StrokeKind::Inside,
                );
            }
            p.text(
                Pos2::new(bar.center().x, plot.bottom() + 4.0),
                Align2::CENTER_TOP,
                t.to_string(),
                FontId::proportional(10.0),
                Color32::GRAY,
            );
            let resp = ui
                .interact(bar, ui.scope_id().with(("iteration", i)), Sense::click())
                .on_hover_text(format!(
                    "threshold {t}: {} nodes expanded{}",
                    group(n),
                    match (finished, heat) {
                        (true, true) => " · click for its heatmap",
                        (true, false) => "",
                        (false, _) => " so far",
                    }
                ));
            if heat && resp.clicked() {
                picked = Some(i);
            }
        }
        picked
    }
}
