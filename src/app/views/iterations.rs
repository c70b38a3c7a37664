//! IDA*'s iterations as a bar chart that grows live: one bar per threshold, its height the
//! nodes expanded in that iteration on a log scale; the running iteration drawn open. A
//! click on a finished iteration's bar shows its heatmap. Drawn with `egui_plot` (axes,
//! ticks, hit testing); the log scale is the chart's own (see [`super::chart`]).

use egui::{Color32, Rect, RichText, Sense, Stroke, Vec2b, vec2};
use egui_plot::{AxisHints, Bar as PlotBar, BarChart, PlotBounds};

use super::chart;
use crate::app::state::{AppState, LowerView};
use crate::search::Algorithm;
use crate::text::group_digits as group;

/// A bar of the chart: the iteration's threshold, its nodes expanded, whether it has
/// finished, and whether it has its heatmap.
type Bar = (u32, u64, bool, bool);

/// A finished iteration's bar.
pub(crate) const FINISHED: Color32 = Color32::from_rgb(70, 130, 200);
/// The bar of the iteration whose heatmap is shown.
pub(crate) const SELECTED: Color32 = Color32::from_rgb(242, 160, 60);
/// The outline of the running iteration's bar.
pub(crate) const RUNNING: Color32 = Color32::from_rgb(120, 200, 120);

/// The widest a bar's slot gets, in points (one iteration does not fill the chart).
const SLOT: f32 = 60.0;

/// The x axis's name.
const X_NAME: &str = "threshold f";

/// Draws the chart in `rect`.
pub fn show(ui: &mut egui::Ui, st: &mut AppState, rect: Rect) {
    let mut child = ui.new_child(egui::UiBuilder::new().max_rect(rect.shrink2(vec2(8.0, 4.0))));
    let ui = &mut child;
    let prog = st.run.progress();
    let is_ida = matches!(
        prog.and_then(|p| p.algorithm),
        Some(Algorithm::IdaStar | Algorithm::GpuIdaStar)
    );
    if !is_ida {
        ui.label(
            RichText::new(
                "IDA* iterations: run IDA* (Solver panel) to see each threshold and the nodes \
                 it expanded",
            )
            .size(12.0)
            .color(Color32::GRAY),
        );
        return;
    }
    let bars = bars(st);
    ui.label(
        RichText::new(format!(
            "IDA* iterations: nodes expanded per threshold (log scale) · {} finished{}",
            st.run.iterations().len(),
            if st.run.is_running() {
                " · the open bar is the running one"
            } else {
                ""
            }
        ))
        .size(12.0)
        .color(Color32::LIGHT_GRAY),
    );
    let room = ui.available_size_before_wrap();
    if bars.is_empty() || room.x < 80.0 || room.y < 64.0 {
        return;
    }
    if let Some(i) = chart(ui, &bars, st.view.picked_iteration, room.x) {
        st.view.picked_iteration = Some(i);
        st.view.lower = LowerView::Heatmap;
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
        && pr.ida.number as usize > done.len()
    {
        let before: u64 = done.iter().map(|i| i.expanded).sum();
        bars.push((pr.bound, pr.expanded.saturating_sub(before), false, false));
    }
    bars
}

/// The chart in words, for AccessKit: "IDA* iterations: threshold 36, 12 nodes expanded;
/// threshold 38, 1,204 nodes expanded so far".
fn words(bars: &[Bar]) -> String {
    let each: Vec<String> = bars
        .iter()
        .map(|&(t, n, finished, _)| {
            let so_far = if finished { "" } else { " so far" };
            format!("threshold {t}, {} nodes expanded{so_far}", group(n))
        })
        .collect();
    format!("IDA* iterations: {}", each.join("; "))
}

/// A bar's height for `n` nodes: 1 + log10 `n`, so that one decade below 10^0 is the room a
/// one-node bar stands in (and an iteration of none has no height).
fn height(n: u64) -> f64 {
    if n == 0 {
        0.0
    } else {
        1.0 + (n as f64).log10()
    }
}

/// Draws `bars` (filled when finished, orange when `selected`; open while running), one slot
/// each, at most [`SLOT`] points wide across `width`, each with its threshold under it and a
/// tooltip. Returns the bar with a heatmap clicked, if any.
fn chart(ui: &mut egui::Ui, bars: &[Bar], selected: Option<usize>, width: f32) -> Option<usize> {
    let max = bars.iter().map(|b| b.1).max().unwrap_or(1).max(1) as f64;
    // Decades 10^0 to 10^top, over the one decade of room for 0.
    let top = max.log10().ceil().max(1.0);
    let slots = (bars.len() as f64).max((width / SLOT).floor() as f64);
    let thresholds: Vec<u32> = bars.iter().map(|b| b.0).collect();
    let y_width = chart::y_axis_width(
        ui,
        (0..=top as i32).map(chart::decade).chain(["0".to_string()]),
    );
    let x_height = chart::x_axis_height(ui, X_NAME);
    let plotted: Vec<PlotBar> = bars
        .iter()
        .enumerate()
        .map(|(i, &(_, n, finished, _))| {
            let bar = PlotBar::new(i as f64, height(n)).width(0.7);
            match (finished, selected == Some(i)) {
                (true, true) => bar.fill(SELECTED),
                (true, false) => bar.fill(FINISHED),
                (false, _) => bar.stroke(Stroke::new(1.5, RUNNING)),
            }
        })
        .collect();
    let resp = chart::fixed(ui.make_persistent_id("iterations"))
        // Hover and clicks are the chart's own (a tooltip with the exact figures).
        .show_x(false)
        .show_y(false)
        .sense(Sense::click())
        // Lines across for the decades only (the old chart's): the bars need none up.
        .show_grid(Vec2b::new(false, true))
        .x_grid_spacer(|input| chart::uniform_marks(&input, 1.0))
        .y_grid_spacer(|input| {
            // The bottom is 0 nodes, then the decades from 10^0 (at 1) up.
            let mut marks = chart::decade_marks(&input, 1.0);
            if input.bounds.0 <= 0.0 {
                marks.insert(
                    0,
                    egui_plot::GridMark {
                        value: 0.0,
                        step_size: 1.0,
                    },
                );
            }
            marks
        })
        .custom_x_axes(vec![
            chart::axis(AxisHints::new_x(), x_height, 14.0)
                .label(chart::axis_name(X_NAME))
                .formatter(move |mark, _| {
                    let i = mark.value.round();
                    (i >= 0.0 && (mark.value - i).abs() < 1e-6)
                        .then(|| thresholds.get(i as usize))
                        .flatten()
                        .map_or(String::new(), u32::to_string)
                }),
        ])
        .custom_y_axes(vec![
            chart::axis(AxisHints::new_y(), y_width, 12.0).formatter(|mark, _| {
                let v = mark.value.round();
                if v < 0.0 || (mark.value - v).abs() > 1e-6 {
                    String::new()
                } else if v == 0.0 {
                    "0".to_string()
                } else {
                    chart::decade(v as i32 - 1)
                }
            }),
        ])
        .show(ui, |pui| {
            pui.set_plot_bounds(PlotBounds::from_min_max(
                [-0.5, 0.0],
                // A little room over the top decade, whose label would sit on the edge.
                [slots - 0.5, 1.0 + top + 0.15],
            ));
            pui.bar_chart(BarChart::new("iterations", plotted).allow_hover(false));
        });
    resp.response.widget_info(|| {
        egui::WidgetInfo::labeled(egui::accesskit::Role::Figure, true, words(bars))
    });
    // The bar under the pointer: anywhere in its slot, the easier to hit a short one.
    let hovered = resp
        .response
        .hover_pos()
        .map(|p| resp.transform.value_from_position(p).x.round())
        .filter(|&i| i >= 0.0 && (i as usize) < bars.len())
        .map(|i| i as usize)?;
    let (t, n, finished, heat) = bars[hovered];
    let resp = resp.response.on_hover_text(format!(
        "threshold {t}: {} nodes expanded{}",
        group(n),
        match (finished, heat) {
            (true, true) => " · click for its heatmap",
            (true, false) => "",
            (false, _) => " so far",
        }
    ));
    (heat && resp.clicked()).then_some(hovered)
}

#[cfg(test)]
mod tests {
    use super::height;

    #[test]
    fn a_bar_is_one_decade_higher_than_its_log() {
        assert_eq!(height(0), 0.0);
        assert_eq!(height(1), 1.0);
        assert_eq!(height(1000), 4.0);
    }
}
