//! The Stats panel: the running (or last) search in figures.

use super::group;
use crate::app::state::AppState;
use crate::search::Algorithm;

/// What the open and closed counts are, and why a finished A* shows one closed board more than
/// it expanded.
const OPEN_CLOSED: &str = "open: boards generated and waiting on the open list (the frontier); \
closed: boards taken off it. A* takes the goal off the open list and stops without expanding \
it, so once it has found the goal, closed is one more than expanded. Batched A* notices the \
goal when it generates it, so there the two agree.";

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
    let secs = p.seconds.max(1e-9);
    // Whose figures these are: the settings may have changed since the run.
    if let Some(a) = p.algorithm {
        let h = st.run.heuristic().map(|h| h.name().to_string());
        // A search that holds (paused, or stepped and waiting for the next step) is not said
        // to run.
        let when = if !st.run.is_running() {
            "last run"
        } else if st.run.is_idle() {
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
    egui::Grid::new("stats").num_columns(2).show(ui, |ui| {
        let row = |ui: &mut egui::Ui, k: &str, v: String| {
            ui.label(k);
            ui.monospace(v);
            ui.end_row();
        };
        // Fast IDA* reports no single current node (it reports every ~65,000 nodes): its
        // deepest g, not a g/h/f that would mix that depth with the start's h.
        if matches!(
            p.algorithm,
            Some(Algorithm::IdaStar | Algorithm::GpuIdaStar)
        ) && !st.run.is_stepped()
        {
            row(ui, "deepest g", p.g.to_string());
        } else {
            row(
                ui,
                "g / h / f",
                format!("{} / {} / {}", p.g, p.h, p.g + p.h),
            );
        }
        if p.iteration > 0 {
            row(
                ui,
                "IDA* iteration",
                format!("{} (threshold {})", p.iteration, p.bound),
            );
        } else if p.algorithm == Some(Algorithm::Bfs) {
            row(ui, "depth", p.bound.to_string());
        } else {
            row(ui, "best f (open)", p.bound.to_string());
        }
        row(ui, "expanded", group(p.expanded));
        row(ui, "generated", group(p.generated));
        if p.open > 0 || p.closed > 0 {
            ui.label("open / closed").on_hover_text(OPEN_CLOSED);
            ui.monospace(format!("{} / {}", group(p.open), group(p.closed)))
                .on_hover_text(OPEN_CLOSED);
            ui.end_row();
        }
        if p.algorithm == Some(Algorithm::GpuIdaStar) {
            row(ui, "GPU rounds", group(p.round));
            row(ui, "busy (last round)", format!("{:.0} %", p.busy * 100.0));
        } else if p.round > 0 {
            row(ui, "rounds", group(p.round));
            // The last round's: a search's final rounds may evaluate only a few boards.
            row(
                ui,
                "last batch",
                format!("{} boards", group(p.batch_boards)),
            );
            row(
                ui,
                "its eval time",
                format!("{:.2} ms", p.eval_seconds * 1e3),
            );
            row(
                ui,
                "boards / s (eval)",
                format!("{:.2} M", p.boards_per_second / 1e6),
            );
        }
        row(
            ui,
            "nodes / s",
            format!("{:.2} M", p.expanded as f64 / secs / 1e6),
        );
        row(ui, "elapsed", format!("{:.2} s", p.seconds));
        if p.memory > 0 {
            row(
                ui,
                "memory",
                format!("{:.1} MiB", p.memory as f64 / (1 << 20) as f64),
            );
        }
        row(
            ui,
            "frame cost",
            format!("{:.1} ms", st.clock.frame_seconds() * 1e3),
        );
    });
}
