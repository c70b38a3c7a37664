//! The Compare view: the board solved with each heuristic (a table filled as results come:
//! initial h, nodes expanded and generated, seconds, effective branching factor, length), and
//! the textbook experiment as a chart (log mean nodes expanded against optimal depth, one
//! line per heuristic, drawn with `egui_plot`; the log scale is the chart's own, see
//! [`super::chart`]) with a table of its numbers beside it (`experiment.rs`, with its
//! settings). Either can be saved as CSV, the columns of `npuzzle compare --format csv`.

use egui::{Color32, Rect, RichText, Sense, vec2};
use egui_plot::{AxisHints, Line, PlotBounds, Points};

use super::{chart, experiment};
use crate::app::panels::Dialogs;
use crate::app::state::AppState;
use crate::search::measure::{DepthCell, DepthRow, Measure};
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

/// Draws the view in `rect`; `dialogs` asks where to save the CSV export.
pub fn show(ui: &mut egui::Ui, st: &mut AppState, rect: Rect, dialogs: &mut dyn Dialogs) {
    let mut child = ui.new_child(egui::UiBuilder::new().max_rect(rect.shrink(4.0)));
    let ui = &mut child;
    ui.horizontal_wrapped(|ui| buttons(ui, st, dialogs));
    if st.board().len() <= crate::search::bfs::MAX_TABLE_CELLS {
        let busy = st.compare.is_running();
        experiment::settings(ui, st, busy);
    }
    if let Some(e) = st.compare.error() {
        ui.colored_label(Color32::from_rgb(235, 110, 90), format!("error: {e}"));
    }
    if !st.compare.depth_rows().is_empty() {
        depth_view(ui, st);
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

/// The experiment's rows: the note on skipped depths, why a textbook differs, then the chart
/// and the table beside it (below it in a narrow view).
fn depth_view(ui: &mut egui::Ui, st: &AppState) {
    let rows = st.compare.depth_rows();
    let ran = st.compare.experiment().map(|(_, s)| *s);
    if let Some(n) = st.compare.note() {
        ui.small(n);
    }
    experiment::why(ui, ran.as_ref());
    // The boards' shape in the title; another board shown since is said.
    let shape = st.compare.experiment_shape().map(|(r, c)| {
        let b = st.board();
        if (b.rows(), b.cols()) == (r, c) {
            format!("{r}×{c} boards")
        } else {
            format!("{r}×{c} boards (not this {}×{} one)", b.rows(), b.cols())
        }
    });
    let title = match ran {
        Some(s) => format!(
            "{} · up to {} per depth, seed {}; A* ties {}, BFS goal test {}",
            shape.as_deref().unwrap_or("boards"),
            match rows.iter().map(|r| r.boards).max().unwrap_or(0) {
                1 => "1 board".to_string(),
                n => format!("{n} boards"),
            },
            s.seed,
            experiment::tie_words(s.tie_break),
            experiment::goal_test_words(s.bfs_goal_test)
        ),
        None => shape.unwrap_or_default(),
    };
    let names: Vec<String> = lines(rows).into_iter().map(|l| l.name).collect();
    let area = ui.available_rect_before_wrap();
    if area.width() < 720.0 && area.height() < 360.0 {
        // Too small for both: the chart or the numbers, as picked.
        let id = ui.scope_id().with("experiment shows numbers");
        let mut numbers = ui.data(|d| d.get_temp::<bool>(id)).unwrap_or(false);
        ui.horizontal(|ui| {
            ui.selectable_value(&mut numbers, false, "chart")
                .on_hover_text("Show the experiment as a chart");
            ui.selectable_value(&mut numbers, true, "numbers")
                .on_hover_text("Show the experiment's numbers as a table");
        });
        ui.data_mut(|d| d.insert_temp(id, numbers));
        let area = ui.available_rect_before_wrap();
        if numbers {
            let mut child = ui.new_child(egui::UiBuilder::new().max_rect(area));
            child.small(&title);
            egui::ScrollArea::both()
                .id_salt("experiment numbers")
                .show(&mut child, |ui| experiment::table(ui, rows, &names));
        } else {
            chart(ui, rows, &title, area);
        }
        return;
    }
    // The table beside the chart when the view is wide, else below it.
    let (plot, numbers) = if area.width() >= 720.0 {
        let split = area.left() + area.width() * 0.5;
        (
            Rect::from_min_max(area.min, egui::pos2(split - 6.0, area.bottom())),
            Rect::from_min_max(egui::pos2(split, area.top()), area.max),
        )
    } else {
        let split = area.top() + area.height() * 0.55;
        (
            Rect::from_min_max(area.min, egui::pos2(area.right(), split)),
            Rect::from_min_max(egui::pos2(area.left(), split + 4.0), area.max),
        )
    };
    chart(ui, rows, &title, plot);
    let mut child = ui.new_child(egui::UiBuilder::new().max_rect(numbers));
    egui::ScrollArea::both()
        .id_salt("experiment numbers")
        .show(&mut child, |ui| experiment::table(ui, rows, &names));
}

/// The view's buttons: Compare heuristics, Textbook experiment, Cancel, the time cap, Save
/// CSV, and what is running.
fn buttons(ui: &mut egui::Ui, st: &mut AppState, dialogs: &mut dyn Dialogs) {
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
    if ui
        .add_enabled(busy, egui::Button::new("Cancel"))
        .on_hover_text("Stop the comparison running; the rows finished stay")
        .clicked()
    {
        st.compare.cancel();
    }
    let l = ui.label("time cap");
    ui.add(
        egui::DragValue::new(&mut st.compare.cap)
            .range(0.5..=600.0)
            .suffix(" s"),
    )
    .labelled_by(l.id)
    .on_hover_text("The most seconds each search may take; a search past it is marked capped");
    let shown = st.compare.csv().is_some();
    if ui
        .add_enabled(shown && !busy, egui::Button::new("Save CSV…"))
        .on_hover_text(
            "the experiment's rows, or the table's, as CSV: the columns of npuzzle compare \
             --format csv",
        )
        .on_disabled_hover_text("when a comparison has finished")
        .clicked()
    {
        save_csv(st, dialogs);
    }
    if let Some(r) = st.compare.running() {
        ui.spinner();
        ui.label(format!("running: {r}"));
    }
}

/// Asks where to save the rows shown as CSV, and writes them there atomically.
fn save_csv(st: &mut AppState, dialogs: &mut dyn Dialogs) {
    let name = if st.compare.depth_rows().is_empty() {
        "compare.csv"
    } else {
        "experiment.csv"
    };
    let Some(text) = st.compare.csv() else {
        return;
    };
    match (text, dialogs.save(name)) {
        (Ok(text), Some(path)) => match crate::files::write_atomic(&path, text.as_bytes()) {
            Ok(()) => st.messages.show(format!("saved {}", path.display())),
            Err(e) => st
                .messages
                .error(format!("could not save {}: {e}", path.display())),
        },
        (Err(e), _) => st.messages.error(format!("could not write the CSV: {e}")),
        (Ok(_), None) => st.messages.show(crate::app::panels::NO_DIALOG),
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

/// Log mean nodes expanded against depth, one line per method, titled with `what` (the
/// boards and settings), in `rect`: a title, then the chart (egui_plot: axes, ticks, hover) and its legend
/// beside it (egui_plot's own lies over the plot, and would hide the points of a small
/// window's).
fn chart(ui: &mut egui::Ui, rows: &[DepthRow], what: &str, rect: Rect) {
    let mut child = ui.new_child(egui::UiBuilder::new().max_rect(rect));
    let ui = &mut child;
    // The title, wrapped to the view (a narrow window's would run past its edge).
    ui.add(
        egui::Label::new(
            RichText::new(format!(
                "Mean nodes expanded (log) against optimal depth, {what}"
            ))
            .size(12.0)
            .color(Color32::LIGHT_GRAY),
        )
        .wrap(),
    );
    let lines = lines(rows);
    // The legend's column: each method's entry in its colour, as wide as the widest.
    let legend: Vec<(String, Color32)> = lines
        .iter()
        .enumerate()
        .map(|(m, l)| (l.legend.clone(), COLOURS[m % COLOURS.len()]))
        .collect();
    let legend_width = legend
        .iter()
        .map(|(t, _)| {
            ui.painter()
                .layout_no_wrap(t.clone(), chart::font(), Color32::GRAY)
                .size()
                .x
        })
        .fold(0.0f32, f32::max)
        .ceil();
    let room = ui.available_size_before_wrap();
    let plot_width = room.x - legend_width - 12.0;
    if plot_width < 80.0 || room.y < 64.0 {
        return;
    }
    ui.horizontal_top(|ui| {
        plot(ui, rows, &lines, vec2(plot_width, room.y));
        ui.vertical(|ui| {
            ui.spacing_mut().item_spacing.y = 2.0;
            for (entry, col) in legend {
                ui.label(RichText::new(entry).size(chart::SMALL).color(col));
            }
        });
    });
}

/// The chart itself, `size` big: each method's line of `lines` (through `rows`' depths) with
/// a tooltip on its points.
fn plot(ui: &mut egui::Ui, rows: &[DepthRow], lines: &[MethodLine<'_>], size: egui::Vec2) {
    let max_d = rows.iter().map(|r| r.depth).max().unwrap_or(1).max(1) as f64;
    let max_n = rows
        .iter()
        .flat_map(|r| r.methods.iter().map(|c| c.expanded))
        .fold(1.0f64, f64::max);
    // Decades 10^0 to 10^top up the chart.
    let top = max_n.log10().ceil().max(1.0);
    // The depths' labels step by the rows' (2 on the 3×3 board, whose depths are all even).
    let step = rows
        .iter()
        .map(|r| r.depth)
        .filter(|&d| d > 0)
        .fold(0, gcd)
        .max(1) as f64;
    let y_width = chart::y_axis_width(ui, (0..=top as i32).map(chart::decade));
    let x_height = chart::x_axis_height(ui, X_NAME);
    let plot = chart::fixed(ui.make_persistent_id("textbook"))
        .width(size.x)
        .height(size.y)
        .sense(Sense::hover())
        .x_grid_spacer(move |input| chart::uniform_marks(&input, step))
        .y_grid_spacer(|input| chart::decade_marks(&input, 0.0))
        .custom_x_axes(vec![
            chart::axis(AxisHints::new_x(), x_height, 16.0)
                .label(chart::axis_name(X_NAME))
                .formatter(|mark, _| format!("{}", mark.value.round())),
        ])
        .custom_y_axes(vec![
            chart::axis(AxisHints::new_y(), y_width, 12.0)
                .formatter(|mark, _| chart::decade(mark.value.round() as i32)),
        ])
        .show(ui, |pui| {
            // A little room either side, so that the first and last points are whole.
            let pad = max_d * 0.02;
            pui.set_plot_bounds(PlotBounds::from_min_max(
                [-pad, 0.0],
                [max_d + pad, top + top * 0.02],
            ));
            for (m, line) in lines.iter().enumerate() {
                let col = COLOURS[m % COLOURS.len()];
                let pts: Vec<[f64; 2]> = line
                    .points
                    .iter()
                    .map(|(d, c)| [*d as f64, c.expanded.max(1.0).log10()])
                    .collect();
                // Named by the method (the tooltip finds its figures by it).
                pui.line(
                    Line::new(line.name.clone(), pts.clone())
                        .color(col)
                        .width(2.0),
                );
                pui.points(Points::new(line.name.clone(), pts).color(col).radius(2.5));
            }
        });
    // The read-out as egui's tooltip, placed in the window (egui_plot's own label is drawn
    // inside the plot and was cut off at its edges).
    if let Some(text) = nearest_point(&plot, lines) {
        plot.response.on_hover_text_at_pointer(text);
    }
}

/// The figures of the data point nearest the pointer over `plot` (within 12 points), if any.
fn nearest_point(plot: &egui_plot::PlotResponse<()>, lines: &[MethodLine<'_>]) -> Option<String> {
    let at = plot.response.hover_pos()?;
    let mut best: Option<(f32, String)> = None;
    for line in lines {
        for &(d, c) in &line.points {
            let p = plot
                .transform
                .position_from_point(&egui_plot::PlotPoint::new(
                    d as f64,
                    c.expanded.max(1.0).log10(),
                ));
            let dist = p.distance(at);
            if dist <= 12.0 && best.as_ref().is_none_or(|b| dist < b.0) {
                let boards = match c.solved {
                    1 => "1 board".to_string(),
                    n => format!("{n} boards"),
                };
                let text = format!(
                    "{}\ndepth {d}: {} nodes expanded on average ({boards})",
                    line.name,
                    chart::mean(c.expanded),
                );
                best = Some((dist, text));
            }
        }
    }
    best.map(|b| b.1)
}

/// The x axis's name.
const X_NAME: &str = "optimal depth d (moves)";

/// A method's line: its name, its legend entry (the name and its effective branching factor
/// at the deepest depth), and its solved depths with their figures.
struct MethodLine<'a> {
    name: String,
    legend: String,
    points: Vec<(u32, &'a DepthCell)>,
}

/// Each method's line through its solved depths of `rows`.
fn lines(rows: &[DepthRow]) -> Vec<MethodLine<'_>> {
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
            let points = rows
                .iter()
                .filter_map(|r| {
                    let c = r.methods.get(m)?;
                    (c.solved > 0).then_some((r.depth, c))
                })
                .collect();
            MethodLine {
                legend: format!("{name}{b}"),
                name,
                points,
            }
        })
        .collect()
}

/// The greatest common divisor of `a` and `b`.
fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 { a } else { gcd(b, a % b) }
}
