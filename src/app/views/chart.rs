//! What the app's two charts (IDA*'s iterations, the textbook experiment) share on top of
//! `egui_plot`: a log-10 axis (egui_plot has none: values are plotted as their log10 and the
//! ticks named 1, 10, 100, 1k, …), tick labels in a small font, and a plot that stays as
//! drawn (no zoom, drag or scroll: a student cannot lose the chart, and there is nothing to
//! reset).

use egui::{Color32, FontId, RichText};
use egui_plot::{AxisHints, GridInput, GridMark, Plot};

/// The tick labels' and axis names' size, in points.
pub const SMALL: f32 = 10.0;

/// The tick labels' colour.
pub const TICKS: Color32 = Color32::GRAY;

/// The tick labels' font.
pub fn font() -> FontId {
    FontId::proportional(SMALL)
}

/// An axis's name, in the tick labels' size and colour.
pub fn axis_name(text: &str) -> RichText {
    RichText::new(text).size(SMALL).color(TICKS)
}

/// `10^k` as a tick label: 1, 10, 100, 1k, 10k, 100k, 1M, … (k, M, G, T), `1e{k}` beyond.
pub fn decade(k: i32) -> String {
    const UNITS: [&str; 5] = ["", "k", "M", "G", "T"];
    match usize::try_from(k / 3).ok().and_then(|u| UNITS.get(u)) {
        Some(unit) if k >= 0 => format!("{}{unit}", 10u32.pow((k % 3) as u32)),
        _ => format!("1e{k}"),
    }
}

/// Grid marks at the whole numbers of `input`'s range whose exponent (the value less
/// `shift`) is a decade 0 or more: each decade's line, 1, 1k, 1M, … thicker (their labels
/// stay where a short plot has no room for every decade's).
pub fn decade_marks(input: &GridInput, shift: f64) -> Vec<GridMark> {
    let (lo, hi) = input.bounds;
    let first = (lo.ceil() as i64).max(shift as i64);
    (first..=hi.floor() as i64)
        .map(|v| GridMark {
            value: v as f64,
            step_size: if (v - shift as i64) % 3 == 0 {
                3.0
            } else {
                1.0
            },
        })
        .collect()
}

/// Grid marks at the multiples of `step` in `input`'s range, every fifth thicker and every
/// tenth thicker still (labels thin out from the thinnest where they do not fit).
pub fn uniform_marks(input: &GridInput, step: f64) -> Vec<GridMark> {
    let (lo, hi) = input.bounds;
    let first = (lo / step).ceil() as i64;
    let last = (hi / step).floor() as i64;
    (first..=last)
        .map(|i| GridMark {
            value: i as f64 * step,
            step_size: step
                * match i {
                    i if i % 10 == 0 => 10.0,
                    i if i % 5 == 0 => 5.0,
                    _ => 1.0,
                },
        })
        .collect()
}

/// The width a y axis needs for the widest of `labels` (egui_plot sizes its axes from the
/// frame before; sized here, the first frame is right too).
pub fn y_axis_width(ui: &egui::Ui, labels: impl IntoIterator<Item = String>) -> f32 {
    let widest = labels
        .into_iter()
        .map(|t| ui.painter().layout_no_wrap(t, font(), TICKS).size().x)
        .fold(0.0f32, f32::max);
    // egui_plot leaves 4 points either side of a y tick label.
    (widest + 10.0).ceil()
}

/// The height an x axis needs for a row of tick labels and the axis's `name` under them.
pub fn x_axis_height(ui: &egui::Ui, name: &str) -> f32 {
    let row = |t: &str| {
        ui.painter()
            .layout_no_wrap(t.to_string(), font(), TICKS)
            .size()
            .y
    };
    // egui_plot leaves a quarter of the name's height between it and the ticks.
    (row("0") + row(name) * 1.25 + 1.0).ceil()
}

/// An x or y axis with tick labels in the small font, at least `thickness` wide (a y axis) or
/// high (an x axis), `min_spacing` points between labels at the least.
pub fn axis<'a>(hints: AxisHints<'a>, thickness: f32, min_spacing: f32) -> AxisHints<'a> {
    hints
        .tick_label_font(font())
        .tick_label_color(TICKS)
        .min_thickness(thickness)
        .label_spacing(min_spacing..=min_spacing + 1.0)
}

/// A plot `id` that stays as drawn: no zoom, drag, scroll, box zoom or double-click reset,
/// no crosshair, no background fill (the central area's own shows through, one layer less to
/// paint).
pub fn fixed<'a>(id: egui::Id) -> Plot<'a> {
    Plot::new(id)
        .id(id)
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .allow_boxed_zoom(false)
        .allow_axis_zoom_drag(false)
        .allow_double_click_reset(false)
        .show_crosshair(false)
        .show_background(false)
}

/// A mean as a hover label gives it: its digits grouped, one decimal.
pub fn mean(x: f64) -> String {
    let tenths = (x * 10.0).round().max(0.0) as u64;
    format!("{}.{}", crate::text::group_digits(tenths / 10), tenths % 10)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decades_are_named_with_their_unit() {
        let names: Vec<String> = (0..=13).map(decade).collect();
        assert_eq!(
            names,
            [
                "1", "10", "100", "1k", "10k", "100k", "1M", "10M", "100M", "1G", "10G", "100G",
                "1T", "10T"
            ]
        );
        assert_eq!(decade(15), "1e15");
        assert_eq!(decade(-1), "1e-1");
    }

    #[test]
    fn decade_marks_start_at_the_shift_and_thicken_every_third() {
        let input = GridInput {
            bounds: (-0.2, 7.5),
            base_step_size: 0.1,
        };
        let marks = decade_marks(&input, 1.0);
        let got: Vec<(f64, f64)> = marks.iter().map(|m| (m.value, m.step_size)).collect();
        assert_eq!(
            got,
            [
                (1.0, 3.0),
                (2.0, 1.0),
                (3.0, 1.0),
                (4.0, 3.0),
                (5.0, 1.0),
                (6.0, 1.0),
                (7.0, 3.0)
            ]
        );
    }

    #[test]
    fn uniform_marks_thicken_every_fifth_and_tenth() {
        let input = GridInput {
            bounds: (-0.5, 24.5),
            base_step_size: 0.1,
        };
        let marks = uniform_marks(&input, 2.0);
        assert_eq!(marks.len(), 13);
        assert_eq!((marks[0].value, marks[0].step_size), (0.0, 20.0));
        assert_eq!((marks[5].value, marks[5].step_size), (10.0, 10.0));
        assert_eq!((marks[1].value, marks[1].step_size), (2.0, 2.0));
    }

    #[test]
    fn means_keep_one_decimal() {
        assert_eq!(mean(1234.56), "1 234.6");
        assert_eq!(mean(3.0), "3.0");
    }
}
