//! The Solver panel's control of time: the speed dial, and a stepped search's timeline (Back,
//! a slider over every step taken, "go to step N", what the history costs).

use super::group;
use crate::app::state::{AppState, SPEEDS};

/// The speed dial's stop `s` in words.
fn speed_text(s: u32) -> String {
    match s {
        0 => "as fast as possible".into(),
        1 => "1 step/s".into(),
        s => format!("{s} steps/s"),
    }
}

/// The speed dial: from 1 step a second to as fast as possible, for Start and Run.
pub(super) fn speed_dial(ui: &mut egui::Ui, st: &mut AppState) {
    let now = st.settings.steps_per_second;
    let mut i = SPEEDS
        .iter()
        .position(|&s| s == now)
        .unwrap_or(SPEEDS.len() - 1);
    let l = ui.horizontal(|ui| {
        let l = ui.label("Speed");
        ui.label(speed_text(SPEEDS[i]));
        l
    });
    let r = ui
        .add(
            egui::Slider::new(&mut i, 0..=SPEEDS.len() - 1)
                .show_value(false)
                .step_by(1.0),
        )
        .labelled_by(l.inner.id)
        .on_hover_text(
            "Steps a second of Start and Run: below full speed the search is stepped, and the \
             board and the Inspector show each node as it is expanded (pause at any time); as \
             fast as possible, Start runs the fast search",
        );
    if r.changed() {
        st.set_speed(SPEEDS[i]);
    }
}

/// A stepped search's timeline: Back, the slider over the steps taken, "go to step", and the
/// history's cost; nothing when no stepped search is shown.
pub(super) fn timeline(ui: &mut egui::Ui, st: &mut AppState) {
    let Some((at, reached)) = st.run.timeline() else {
        return;
    };
    let l = ui.horizontal(|ui| {
        if ui
            .add_enabled(at > 0, egui::Button::new("Back"))
            .on_hover_text("B: show the step before (the search pauses there)")
            .clicked()
        {
            st.step_back();
        }
        ui.label("Timeline")
    });
    let mut n = at;
    let r = ui
        .add(egui::Slider::new(&mut n, 0..=reached.max(1)).integer())
        .labelled_by(l.inner.id)
        .on_hover_text(
            "Scrub through every step taken: each panel shows that moment; stepping on goes on \
             from it. A step is one expansion, or in IDA* also the end of an iteration (the \
             threshold raised), so IDA*'s steps outnumber its expansions by its iterations",
        );
    if r.changed() {
        st.go_to_step(n);
    }
    go_to_field(ui, st, at, reached);
    if let Some(v) = st.run.inspect() {
        let h = &v.history;
        let mib = h.bytes as f64 / f64::from(1 << 20);
        ui.small(format!(
            "Step {} of {}. History: {mib:.1} MiB, about {} bytes a step ({} checkpoint{}, \
             one every {} steps; any step is replayed from the last one before it).",
            group(at),
            group(reached),
            group(h.bytes_per_step()),
            h.checkpoints,
            if h.checkpoints == 1 { "" } else { "s" },
            group(h.every),
        ));
        if h.thinned {
            ui.small(format!(
                "History cap of {} MiB reached: checkpoints thinned to one every {} steps \
                 (every step stays reachable; a jump replays up to that many).",
                crate::search::stepper::HISTORY_BUDGET >> 20,
                group(h.every)
            ));
        }
    }
}

/// "Go to step [N] Go": the step typed is kept in the panel's memory until Go, or until the
/// step shown changes (it then starts from that one).
fn go_to_field(ui: &mut egui::Ui, st: &mut AppState, at: u64, reached: u64) {
    let key = ui.scope_id().with_salt(egui::IdSalt::new("go to step"));
    let mut n = ui
        .data(|d| d.get_temp::<(u64, u64)>(key))
        .filter(|&(was, _)| was == at)
        .map_or(at, |(_, n)| n);
    ui.horizontal(|ui| {
        let l = ui.label("Go to step");
        ui.add(egui::DragValue::new(&mut n).range(0..=reached))
            .labelled_by(l.id)
            .on_hover_text("A step number, up to the last step reached");
        if ui
            .button("Go")
            .on_hover_text("Show the search as it was at that step")
            .clicked()
        {
            st.go_to_step(n);
        }
    });
    ui.data_mut(|d| d.insert_temp(key, (at, n)));
}
