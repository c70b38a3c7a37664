//! The Solver panel: the search settings and the run controls.

use crate::app::state::{AppState, EvaluatorChoice};
use crate::heuristic::HeuristicChoice;
use crate::heuristic::HeuristicKind;
use crate::heuristic::pdb::{NAMED, PartitionSpec};
use crate::search::Algorithm;

const ALGORITHMS: [(Algorithm, &str); 4] = [
    (Algorithm::Bfs, "BFS"),
    (Algorithm::AStar, "A*"),
    (Algorithm::IdaStar, "IDA*"),
    (Algorithm::BatchedAStar, "batched A*"),
];

/// The Solver panel: algorithm, heuristic, evaluator and limits; Start, Pause, Step, Stop.
pub(super) fn show(ui: &mut egui::Ui, st: &mut AppState) {
    let running = st.is_running();
    ui.add_enabled_ui(!running, |ui| {
        egui::ComboBox::from_label("Algorithm")
            .selected_text(
                ALGORITHMS
                    .iter()
                    .find(|a| a.0 == st.settings.algorithm)
                    .map_or("?", |a| a.1),
            )
            .show_ui(ui, |ui| {
                for (a, name) in ALGORITHMS {
                    ui.selectable_value(&mut st.settings.algorithm, a, name);
                }
            });
        if st.settings.algorithm != Algorithm::Bfs {
            let (rows, cols) = (st.board().rows(), st.board().cols());
            egui::ComboBox::from_label("Heuristic")
                .selected_text(st.settings.heuristic.to_string())
                .show_ui(ui, |ui| {
                    for h in HeuristicKind::ALL {
                        ui.selectable_value(
                            &mut st.settings.heuristic,
                            HeuristicChoice::Kind(h),
                            h.name(),
                        );
                    }
                    // The pattern databases made for this board size (built on first use,
                    // then cached).
                    for (name, r, c, _) in NAMED {
                        if (r, c) == (rows, cols) {
                            ui.selectable_value(
                                &mut st.settings.heuristic,
                                HeuristicChoice::Pdb(PartitionSpec::Named(name.to_string())),
                                format!("{name} (pattern database)"),
                            );
                        }
                    }
                });
        }
        if let Some(b) = st.run.building() {
            ui.label(format!(
                "Building {} pattern {}/{} (depth {})…",
                b.name,
                b.pattern + 1,
                b.patterns,
                b.depth
            ));
            ui.add(
                egui::ProgressBar::new(b.filled as f32 / b.total.max(1) as f32).show_percentage(),
            );
        }
        if st.settings.algorithm == Algorithm::BatchedAStar {
            ui.horizontal(|ui| {
                ui.label("Evaluator");
                ui.add_enabled_ui(st.has_gpu(), |ui| {
                    ui.radio_value(&mut st.settings.evaluator, EvaluatorChoice::Gpu, "GPU");
                });
                ui.radio_value(&mut st.settings.evaluator, EvaluatorChoice::Cpu, "CPU");
            });
            ui.horizontal(|ui| {
                let l = ui.label("Batch size");
                ui.add(
                    egui::DragValue::new(&mut st.settings.batch_size)
                        .range(1..=1 << 20)
                        .speed(16.0),
                )
                .labelled_by(l.id);
            });
        }
        if matches!(
            st.settings.algorithm,
            Algorithm::Bfs | Algorithm::AStar | Algorithm::BatchedAStar
        ) {
            ui.horizontal(|ui| {
                let l = ui.label("Memory cap");
                ui.add(
                    egui::DragValue::new(&mut st.settings.max_memory_mib)
                        .range(16..=65_536)
                        .suffix(" MiB"),
                )
                .labelled_by(l.id);
            });
        }
    });
    ui.small(st.gpu_note());
    ui.horizontal_wrapped(|ui| {
        if ui
            .add_enabled(!running, egui::Button::new("Start"))
            .on_hover_text("Space")
            .clicked()
        {
            st.start();
        }
        let pause = if st.is_paused() { "Resume" } else { "Pause" };
        if ui
            .add_enabled(running, egui::Button::new(pause))
            .on_hover_text("Space")
            .clicked()
        {
            st.toggle_pause();
        }
        if ui
            .button("Step")
            .on_hover_text("N: one round (batched A*) or one batch of expansions")
            .clicked()
        {
            st.step();
        }
        if ui.add_enabled(running, egui::Button::new("Stop")).clicked() {
            st.stop();
        }
        if ui.button("Reset").on_hover_text("R").clicked() {
            st.reset();
        }
    });
    ui.small("Keys: Space start/pause · N step · R reset · Ctrl+O open · Ctrl+Q quit · arrows slide a tile");
}
