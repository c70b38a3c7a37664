//! The Solver panel: the search settings and the run controls.

use crate::app::state::{AppState, EvaluatorChoice};
use crate::app::views::help::heuristic_hover;
use crate::heuristic::HeuristicChoice;
use crate::heuristic::HeuristicKind;
use crate::heuristic::pdb::{NAMED, PartitionSpec};
use crate::search::{Algorithm, Weight};

/// The menu's algorithms; weighted A*'s weight is the slider's (this entry's is a stand-in).
const ALGORITHMS: [(Algorithm, &str); 7] = [
    (Algorithm::Bfs, "BFS"),
    (Algorithm::AStar, "A*"),
    (Algorithm::IdaStar, "IDA*"),
    (Algorithm::BatchedAStar, "batched A*"),
    (Algorithm::GpuIdaStar, "GPU IDA*"),
    (Algorithm::Greedy, "greedy best-first"),
    (Algorithm::WeightedAStar(Weight::DEFAULT), "weighted A*"),
];

/// The algorithm's name as the panels write it (`IDA*`, `A*`, …; weighted A* whatever its
/// weight).
pub(super) fn label(a: Algorithm) -> &'static str {
    let kind = std::mem::discriminant(&a);
    ALGORITHMS
        .iter()
        .find(|x| std::mem::discriminant(&x.0) == kind)
        .map_or("auto", |x| x.1)
}

/// The search as the panels name it: the algorithm and, but for BFS, the heuristic.
pub(super) fn search_name(a: Algorithm, heuristic: Option<&str>) -> String {
    match heuristic {
        Some(h) if a != Algorithm::Bfs => format!("{} + {h}", label(a)),
        _ => label(a).to_string(),
    }
}

/// A combo box with its label on the right, or above it when the panel is too narrow for both
/// on one line (a narrow panel broke "Algorithm" in two, a long heuristic's name "Heuristic").
/// `hover`: the box's hover text (what the entry chosen is).
fn combo(
    ui: &mut egui::Ui,
    text: &str,
    selected: impl Into<egui::WidgetText>,
    hover: &str,
    menu: impl FnOnce(&mut egui::Ui),
) {
    let selected: egui::WidgetText = selected.into();
    // The selected text, the box's arrow and margins, the label and the spacing between.
    let needed = width(ui, selected.clone()) + width(ui, text.into()) + 50.0;
    if ui.available_width() >= needed.max(220.0) {
        egui::ComboBox::from_label(text)
            .selected_text(selected)
            .show_ui(ui, menu)
            .response
            .on_hover_text(hover);
    } else {
        let l = ui.label(text);
        egui::ComboBox::from_id_salt(text)
            .selected_text(selected)
            .show_ui(ui, menu)
            .response
            .labelled_by(l.id)
            .on_hover_text(hover);
    }
}

/// The width of `text` on one line, in the button font.
fn width(ui: &egui::Ui, text: egui::WidgetText) -> f32 {
    text.into_galley(
        ui,
        Some(egui::TextWrapMode::Extend),
        f32::INFINITY,
        egui::TextStyle::Button,
    )
    .size()
    .x
}

/// The Solver panel: algorithm, heuristic, evaluator and limits (the run controls are
/// [`controls`]).
pub(super) fn show(ui: &mut egui::Ui, st: &mut AppState) {
    let running = st.is_running();
    ui.add_enabled_ui(!running, |ui| {
        algorithm_menu(ui, st);
        if st.settings.algorithm != Algorithm::Bfs {
            heuristic_menu(ui, st);
        }
        build_progress(ui, st);
        limits(ui, st);
    });
    // The GPU is only for the algorithms that use it (the status bar names it always).
    if matches!(
        st.settings.algorithm,
        Algorithm::BatchedAStar | Algorithm::GpuIdaStar
    ) {
        ui.small(st.gpu_note());
    }
    ui.small(keys_line());
}

/// The run controls: Start, Pause, Stop, Reset; Step, ×10 and the next layer. Drawn at the top
/// of the left panel, above everything whose height changes (the Recent list, the menus of
/// one algorithm), so that they never move.
pub(super) fn controls(ui: &mut egui::Ui, st: &mut AppState) {
    let running = st.is_running();
    ui.horizontal_wrapped(|ui| run_buttons(ui, st, running));
    super::timeline::speed_dial(ui, st);
    ui.horizontal_wrapped(|ui| step_buttons(ui, st, running));
    super::timeline::timeline(ui, st);
}

/// The algorithm menu; for weighted A*, its weight's slider (1 to 5 in tenths); for the
/// searches that are not optimal, a line that says so.
fn algorithm_menu(ui: &mut egui::Ui, st: &mut AppState) {
    let current = st.settings.algorithm;
    let hover = format!("{}\nHover an entry for what it does.", current.about());
    combo(ui, "Algorithm", label(current), &hover, |ui| {
        for (a, name) in ALGORITHMS {
            // Weighted A* keeps the weight it had (the slider's).
            let a = match (a, st.settings.weight) {
                (Algorithm::WeightedAStar(_), w) => Algorithm::WeightedAStar(w),
                (a, _) => a,
            };
            ui.selectable_value(&mut st.settings.algorithm, a, name)
                .on_hover_text(a.about());
        }
    });
    if let Algorithm::WeightedAStar(w) = st.settings.algorithm {
        let mut value = w.value() as f32;
        let mut slider = egui::Slider::new(&mut value, 1.0..=5.0)
            .step_by(0.1)
            .fixed_decimals(1);
        // A narrow panel (an 800-point window) had the slider, its value and its name run
        // past its edge: the name goes above, and the slider leaves room for the value.
        if ui.available_width() >= 220.0 {
            slider = slider.text("weight w");
        } else {
            ui.label("weight w");
            ui.spacing_mut().slider_width = (ui.available_width() - 56.0).max(40.0);
        }
        let r = ui
            .add(slider)
            .on_hover_text("f = g + w·h: w = 1 is A*; larger w trusts h more, expands fewer nodes and may return a longer path (at most w times the optimum)");
        r.widget_info(|| egui::WidgetInfo::slider(true, f64::from(value), "weight w"));
        if r.changed() {
            let w = Weight::from_tenths((value * 10.0).round() as u32);
            st.settings.weight = w;
            st.settings.algorithm = Algorithm::WeightedAStar(w);
        }
    }
    match st.settings.algorithm {
        Algorithm::Greedy => {
            ui.small("Greedy: f = h, g ignored. Fast, not optimal: its answer may be far longer than the optimum.");
        }
        Algorithm::WeightedAStar(w) if !st.settings.algorithm.is_optimal() => {
            ui.small(format!(
                "Weighted A*: f = g + {w}·h. Not optimal: at most {w} times the optimum."
            ));
        }
        _ => {}
    }
}

/// The heuristic menu: the heuristics, and the pattern databases made for the board's size.
fn heuristic_menu(ui: &mut egui::Ui, st: &mut AppState) {
    let (rows, cols) = (st.board().rows(), st.board().cols());
    let selected = st.settings.heuristic.to_string();
    let hover = heuristic_hover(&st.settings.heuristic);
    combo(ui, "Heuristic", selected, &hover, |ui| {
        let mut entry = |ui: &mut egui::Ui, h: HeuristicChoice, text: String| {
            let hover = heuristic_hover(&h);
            ui.selectable_value(&mut st.settings.heuristic, h, text)
                .on_hover_text(hover);
        };
        for h in HeuristicKind::ALL {
            entry(ui, HeuristicChoice::Kind(h), h.name().to_string());
        }
        // For teaching: h that overestimates (never auto's pick).
        let over = HeuristicKind::OverestimatingManhattan;
        entry(
            ui,
            HeuristicChoice::Kind(over),
            format!("{} (2 × Manhattan, not admissible)", over.name()),
        );
        // The pattern databases made for this board size (built on first use,
        // then cached).
        for (name, r, c, _) in NAMED {
            if (r, c) == (rows, cols) {
                entry(
                    ui,
                    HeuristicChoice::Pdb(PartitionSpec::Named(name.to_string())),
                    format!("{name} (pattern database)"),
                );
            }
        }
    });
    if let HeuristicChoice::Kind(k) = &st.settings.heuristic
        && !k.is_admissible()
    {
        ui.colored_label(
            egui::Color32::from_rgb(240, 170, 80),
            "Warning: this heuristic overestimates (2 × Manhattan): A* and IDA* with it are not optimal and may return a longer path.",
        );
    }
    super::explain::pattern_database(ui, st);
}

/// The pattern database being built, if any: its pattern, depth and time left, and a bar of
/// the whole partition's progress.
fn build_progress(ui: &mut egui::Ui, st: &AppState) {
    let Some(b) = st.run.building() else {
        return;
    };
    let left = b
        .seconds_left()
        .map_or(String::new(), |s| format!(" · about {s:.0} s left"));
    ui.label(format!(
        "Building {}: pattern {}/{} (depth {}){left}",
        b.name,
        b.pattern + 1,
        b.patterns,
        b.depth
    ));
    // The whole partition's progress, not the current pattern's.
    ui.add(egui::ProgressBar::new(b.overall as f32).show_percentage());
}

/// The settings below the menus: batched A*'s evaluator and batch size, the memory cap of the
/// searches that keep tables, and the all-optimal-solutions box.
fn limits(ui: &mut egui::Ui, st: &mut AppState) {
    if st.settings.algorithm == Algorithm::BatchedAStar {
        ui.horizontal_wrapped(|ui| {
            ui.label("Evaluator");
            ui.add_enabled_ui(st.has_gpu(), |ui| {
                ui.radio_value(&mut st.settings.evaluator, EvaluatorChoice::Gpu, "GPU")
                    .on_hover_text(
                        "Compute h for each batch's successors on the GPU, thousands at once",
                    )
                    .on_disabled_hover_text("No GPU adapter was found: the CPU evaluates");
            });
            ui.radio_value(&mut st.settings.evaluator, EvaluatorChoice::Cpu, "CPU")
                .on_hover_text("Compute h for each batch's successors on the CPU");
        });
        ui.horizontal_wrapped(|ui| {
            let l = ui.label("Batch size");
            ui.add(
                egui::DragValue::new(&mut st.settings.batch_size)
                    .range(1..=1 << 20)
                    .speed(16.0),
            )
            .labelled_by(l.id)
            .on_hover_text("How many boards each round takes from the open list; h of all their successors is computed in one call");
        });
    }
    // For the searches that keep tables (auto: A* up to 3×3).
    if matches!(
        st.settings.algorithm.resolve(st.board().len()),
        Algorithm::Bfs
            | Algorithm::AStar
            | Algorithm::BatchedAStar
            | Algorithm::Greedy
            | Algorithm::WeightedAStar(_)
    ) {
        ui.horizontal_wrapped(|ui| {
            let l = ui.label("Memory cap");
            ui.add(
                egui::DragValue::new(&mut st.settings.max_memory_mib)
                    .range(16..=65_536)
                    .suffix(" MiB"),
            )
            .labelled_by(l.id)
            .on_hover_text("The most memory the open list and closed set may take; the search stops with a message at the cap");
        });
    }
    ui.add_enabled(
        st.settings.algorithm.counts_all_solutions(),
        egui::Checkbox::new(&mut st.settings.all_solutions, "All optimal solutions"),
    )
    .on_hover_text(
        "Count every optimal solution and list the first 1000 to play back (BFS, A*, IDA*; \
         IDA* searches its last iteration to the end). Start only: Step shows one path.",
    )
    .on_disabled_hover_text("BFS, A* and IDA* count all optimal solutions");
}

/// Start, Pause (Resume, Run), Stop and Reset; `running`: whether a search runs.
fn run_buttons(ui: &mut egui::Ui, st: &mut AppState, running: bool) {
    if ui
        .add_enabled(!running, egui::Button::new("Start"))
        .on_hover_text(
            "Space: solve, at the speed dial's pace (as fast as possible: the fast search)",
        )
        .clicked()
    {
        st.start();
    }
    // A stepped search resumes as Run (free-running, still stepped).
    let stepped = st.run.is_stepped();
    let pause = match (st.is_paused(), stepped) {
        (true, true) => "Run",
        (true, false) => "Resume",
        (false, _) => "Pause",
    };
    if ui
        .add_enabled(running, egui::Button::new(pause))
        .on_hover_text("Space: pause the search, or let it go on")
        .clicked()
    {
        st.toggle_pause();
    }
    if ui
        .add_enabled(running, egui::Button::new("Stop"))
        .on_hover_text("End the search here; its figures stay on screen")
        .clicked()
    {
        st.stop();
    }
    if ui
        .button("Reset")
        .on_hover_text("R: stop any search and clear its results, back to the puzzle")
        .clicked()
    {
        st.reset();
    }
}

/// Step, ×10 and the next layer (iteration, depth, f layer); `running`: whether a search runs.
fn step_buttons(ui: &mut egui::Ui, st: &mut AppState, running: bool) {
    let batched = st.settings.algorithm == Algorithm::BatchedAStar;
    let one = if batched && st.is_running() && !st.run.is_stepped() {
        "N: one round of batched A* (a batch of expansions)"
    } else if batched {
        "N: expand one node: batched A*'s rounds have one node each while stepped (A*'s order), then Run goes on in batches"
    } else if st.settings.algorithm == Algorithm::IdaStar {
        "N: expand one node (the search starts in step mode; Run lets it run free); after an iteration's last node, a step ends the iteration and raises the threshold"
    } else {
        "N: expand one node (the search starts in step mode; Run lets it run free)"
    };
    if ui.button("Step").on_hover_text(one).clicked() {
        st.step(1);
    }
    if ui
        .button("×10")
        .on_hover_text("Expand ten nodes, one after the other")
        .clicked()
    {
        st.step(10);
    }
    let ida = matches!(
        st.settings.algorithm.resolve(st.board().len()),
        Algorithm::IdaStar | Algorithm::GpuIdaStar
    );
    let (label, tip) = if ida {
        (
            "Next iteration",
            "Run to the end of this IDA* iteration; the next one starts with a higher threshold",
        )
    } else if st.settings.algorithm == Algorithm::Bfs {
        (
            "Next depth",
            "Run until BFS starts the boards one move further away",
        )
    } else {
        ("Next f layer", "Run until the open list's lowest f rises")
    };
    // Only a stepped search (or none yet) stops at layers.
    let can = !running || st.run.is_stepped();
    if ui
        .add_enabled(can, egui::Button::new(label))
        .on_hover_text(tip)
        .clicked()
    {
        st.step_layer();
    }
}

/// The main keys in one line, from the action table (F1 lists them all).
fn keys_line() -> String {
    use crate::app::actions::{Action, entry, key_text};
    let keys: Vec<String> = [
        Action::Pause,
        Action::Step,
        Action::Back,
        Action::Reset,
        Action::Shortcuts,
    ]
    .into_iter()
    .filter_map(|a| {
        let e = entry(a);
        Some(format!(
            "{} {}",
            key_text(e.keys.first()?),
            e.label.to_lowercase()
        ))
    })
    .collect();
    format!("Keys: {}", keys.join(" · "))
}
