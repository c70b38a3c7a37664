//! The Stats panel: the running (or last) search in figures.

use super::group;
use crate::app::state::AppState;
use crate::app::views::f_sum;
use crate::search::{Algorithm, Progress};

/// What the open and closed counts are, and why a finished A* shows one closed board more than
/// it expanded.
/// The least seconds of search for which the Stats panel gives a node rate.
const MIN_RATE_SECONDS: f64 = 0.2;

const OPEN_CLOSED: &str = "open: boards generated and waiting on the open list (the frontier); \
closed: boards taken off it. A* takes the goal off the open list and stops without expanding \
it, so once it has found the goal, closed is one more than expanded. Batched A* notices the \
goal when it generates it, so there the two agree.";

/// A row of the panel: its label, its value, and its hover text.
type Row = (&'static str, String, Option<&'static str>);

/// The Stats panel: the latest progress snapshot in figures, and the frame time.
pub(super) fn show(ui: &mut egui::Ui, st: &AppState) {
    let Some(p) = st.run.progress() else {
        ui.label("No search yet.");
        if st.clock.frame_seconds() > 0.0 {
            ui.small(format!(
                "frame cost {:.1} ms",
                st.clock.frame_seconds() * 1e3
            ));
        }
        return;
    };
    // Whose figures these are: the settings may have changed since the run.
    if let Some(a) = p.algorithm {
        whose(ui, st, a);
    }
    // (label, value, hover text), in the order shown.
    let mut rows: Vec<Row> = Vec::new();
    search_rows(&mut rows, st, p);
    speed_rows(&mut rows, st, p);
    table(ui, &rows);
}

/// The line naming the search these figures are of (`a`: the algorithm its progress names)
/// and whether it runs, is paused or was the last run.
fn whose(ui: &mut egui::Ui, st: &AppState, a: Algorithm) {
    let h = st.run.heuristic().map(|h| h.name().to_string());
    // A search that holds (paused, or stepped and waiting for the next step) is not said
    // to run; one between two steps at the speed dial's pace does.
    let when = if !st.run.is_running() {
        "last run"
    } else if st.run.is_idle() && st.is_paused() {
        "paused"
    } else {
        "running"
    };
    // Stepped, batched A* expands one node a round in A*'s order: its progress says A*.
    let stepped_batched = st.run.is_stepped()
        && st.run.algorithm() == Algorithm::BatchedAStar
        && a == Algorithm::AStar;
    let search = if stepped_batched {
        format!(
            "{}, stepped (one node a round)",
            super::solver::search_name(Algorithm::BatchedAStar, h.as_deref())
        )
    } else {
        super::solver::search_name(a, h.as_deref())
    };
    ui.add(egui::Label::new(format!("{when}: {search}")).wrap());
}

/// Appends the rows of where the search is to `rows`: g, h and f (or the deepest g), the
/// iteration, depth or best f, the nodes expanded and generated, open and closed.
fn search_rows(rows: &mut Vec<Row>, st: &AppState, p: &Progress) {
    let mut row = |k: &'static str, v: String| rows.push((k, v, None));
    // Fast IDA* reports no single current node (it reports every ~65,000 nodes): its
    // deepest g, not a g/h/f that would mix that depth with the start's h.
    if matches!(
        p.algorithm,
        Some(Algorithm::IdaStar | Algorithm::GpuIdaStar)
    ) && !st.run.is_stepped()
    {
        row("deepest g", p.g.to_string());
    } else if let Some(a @ (Algorithm::Greedy | Algorithm::WeightedAStar(_))) = p.algorithm {
        // Their f is not g + h: the sum they order by.
        row(
            "g / h / f",
            format!("{} / {} · f {}", p.g, p.h, f_sum(a, p.g, p.h)),
        );
    } else if p.algorithm != Some(Algorithm::Bfs) {
        // (BFS has no h: its depth row below says where it is.)
        row("g / h / f", format!("{} / {} / {}", p.g, p.h, p.g + p.h));
    }
    if p.ida.number > 0 {
        row(
            "IDA* iteration",
            format!("{} (threshold {})", p.ida.number, p.bound),
        );
    } else if p.algorithm == Some(Algorithm::Bfs) {
        row("depth", p.bound.to_string());
    } else if matches!(
        p.algorithm,
        Some(Algorithm::Greedy | Algorithm::WeightedAStar(_))
    ) {
        // No best f in A*'s sense: their order is not g + h.
    } else {
        row("best f (open)", p.bound.to_string());
    }
    row("expanded", group(p.expanded));
    row("generated", group(p.generated));
    if p.frontier.open > 0 || p.frontier.closed > 0 {
        rows.push((
            "open / closed",
            format!("{} / {}", group(p.frontier.open), group(p.frontier.closed)),
            Some(OPEN_CLOSED),
        ));
    }
}

/// Appends the rows of how fast it goes to `rows`: GPU or batch rounds, nodes per second,
/// the time elapsed, the tables' memory and the frame cost.
fn speed_rows(rows: &mut Vec<Row>, st: &AppState, p: &Progress) {
    let secs = p.seconds.max(1e-9);
    let mut row = |k: &'static str, v: String| rows.push((k, v, None));
    if p.algorithm == Some(Algorithm::GpuIdaStar) {
        row("GPU rounds", group(p.rounds.count));
        row(
            "busy (last round)",
            format!("{:.0} %", p.rounds.busy * 100.0),
        );
    } else if p.rounds.count > 0 {
        row("rounds", group(p.rounds.count));
        // The last round's: a search's final rounds may evaluate only a few boards.
        row(
            "last batch",
            format!("{} boards", group(p.rounds.batch_boards)),
        );
        row(
            "its eval time",
            format!("{:.2} ms", p.rounds.eval_seconds * 1e3),
        );
        row(
            "boards / s (eval)",
            format!("{:.2} M", p.rounds.boards_per_second / 1e6),
        );
    }
    // A rate needs a stretch of time to mean anything (one step takes microseconds).
    row(
        "nodes / s",
        if p.seconds >= MIN_RATE_SECONDS {
            format!("{:.2} M", p.expanded as f64 / secs / 1e6)
        } else {
            "–".to_string()
        },
    );
    row("elapsed", format!("{:.2} s", p.seconds));
    if p.memory > 0 {
        row(
            "memory",
            format!("{:.1} MiB", p.memory as f64 / (1 << 20) as f64),
        );
    }
    row(
        "frame cost",
        format!("{:.1} ms", st.clock.frame_seconds() * 1e3),
    );
}

/// Shows `rows`: label and value side by side where the widest row fits (a small window's
/// panel is about 200 points wide), else each value under its label, so that no figure is cut
/// off.
fn table(ui: &mut egui::Ui, rows: &[Row]) {
    let label_font = egui::TextStyle::Body.resolve(ui.style());
    let value_font = egui::TextStyle::Monospace.resolve(ui.style());
    let text_width = |text: &str, font: &egui::FontId| {
        ui.fonts_mut(|f| {
            f.layout_no_wrap(text.to_string(), font.clone(), egui::Color32::WHITE)
                .size()
                .x
        })
    };
    let labels = rows
        .iter()
        .map(|r| text_width(r.0, &label_font))
        .fold(0.0, f32::max);
    let values = rows
        .iter()
        .map(|r| text_width(&r.1, &value_font))
        .fold(0.0, f32::max);
    let gap = ui.spacing().item_spacing.x * 2.0;
    let hover = |r: egui::Response, h: Option<&str>| match h {
        Some(h) => r.on_hover_text(h),
        None => r,
    };
    // With some slack before going back to the grid, so that a count gaining a digit (or the
    // frame cost changing) does not flip the layout to and fro.
    let key = ui.scope_id().with_salt(egui::IdSalt::new("stats stacked"));
    let was_stacked = ui.data(|d| d.get_temp::<bool>(key)).unwrap_or(false);
    let slack = if was_stacked { 24.0 } else { 0.0 };
    let stacked = labels + values + gap + slack > ui.available_width();
    ui.data_mut(|d| d.insert_temp(key, stacked));
    if !stacked {
        egui::Grid::new("stats").num_columns(2).show(ui, |ui| {
            for (k, v, h) in rows {
                hover(ui.label(*k), *h);
                hover(ui.monospace(v), *h);
                ui.end_row();
            }
        });
    } else {
        for (k, v, h) in rows {
            hover(ui.weak(*k), *h);
            hover(ui.monospace(v), *h);
        }
    }
}
