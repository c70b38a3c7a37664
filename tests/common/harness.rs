//! The app's panels in an egui_kittest harness: fake dialogs, a clock, and stepping frames
//! until a condition holds.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use npuzzle::app::{AppState, Dialogs, EguiQuads, HeuristicChoice, ui};
use npuzzle::heuristic::HeuristicKind;
use npuzzle::puzzle::Board;
use npuzzle::search::Algorithm;

/// Dialogs that answer with fixed paths.
pub struct FakeDialogs {
    pub open: Option<PathBuf>,
    pub save: Option<PathBuf>,
}

impl Dialogs for FakeDialogs {
    fn open(&mut self) -> Option<PathBuf> {
        self.open.clone()
    }
    fn save(&mut self, _name: &str) -> Option<PathBuf> {
        self.save.clone()
    }
}

/// The app state with its dialogs and clock.
pub struct TestApp {
    pub st: AppState,
    pub dialogs: FakeDialogs,
    pub clock: Instant,
}

/// A 1280×800 harness showing `board`.
pub fn harness(board: &str) -> Harness<'static, TestApp> {
    harness_sized(board, 1280.0, 800.0)
}

/// A harness of `w × h` points showing `board`.
pub fn harness_sized(board: &str, w: f32, h: f32) -> Harness<'static, TestApp> {
    harness_on(board, w, h, None)
}

/// A 1280×800 harness showing `board`, whose searches may use the GPU `ctx`.
pub fn harness_with_gpu(
    board: &str,
    ctx: std::sync::Arc<npuzzle::eval::gpu::GpuContext>,
) -> Harness<'static, TestApp> {
    harness_on(board, 1280.0, 800.0, Some(ctx))
}

fn harness_on(
    board: &str,
    w: f32,
    h: f32,
    gpu: Option<std::sync::Arc<npuzzle::eval::gpu::GpuContext>>,
) -> Harness<'static, TestApp> {
    let b: Board = board.parse().unwrap();
    let app = TestApp {
        st: {
            let note = if gpu.is_some() {
                "GPU evaluator"
            } else {
                "no GPU adapter: CPU evaluator"
            };
            let mut st = AppState::new(b, "test", gpu, note.into());
            // Pattern databases (the coach's, a test's) never go to the user's cache.
            st.settings.pdb_cache = Some(super::bin::CACHE.into());
            // Start and Run at full speed, unless a test turns the speed dial.
            st.settings.steps_per_second = 0;
            st
        },
        dialogs: FakeDialogs {
            open: None,
            save: None,
        },
        clock: Instant::now(),
    };
    Harness::builder()
        .with_size(egui::vec2(w, h))
        .build_ui_state(
            |ui_, app: &mut TestApp| {
                app.st.clock.set_now(app.clock.elapsed().as_secs_f64());
                app.st.poll();
                ui(ui_, &mut app.st, &mut EguiQuads, &mut app.dialogs);
            },
            app,
        )
}

/// Steps frames until `done` holds (or 60 s pass).
pub fn step_until(h: &mut Harness<'_, TestApp>, done: impl Fn(&AppState) -> bool) {
    let t = Instant::now();
    while !done(&h.state().st) {
        assert!(t.elapsed() < Duration::from_secs(60), "timed out");
        h.step();
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Asks the stepped search for `n` more steps (starting it if none runs) and steps frames
/// until the panels show the moment after them: the snapshot at that step, the worker idle.
pub fn step_by(h: &mut Harness<'_, TestApp>, n: u64) {
    let at = h.state().st.run.inspect().map_or(0, |v| v.history.at);
    h.state_mut().st.step(n);
    step_until(h, |s| {
        s.run.inspect().is_some_and(|v| v.history.at == at + n) && s.run.is_idle()
    });
}

/// Nodes the inspector's snapshot has expanded (0 before any).
pub fn expanded(st: &AppState) -> u64 {
    st.run
        .inspect()
        .and_then(|v| v.last.as_ref())
        .map_or(0, |e| e.number)
}

/// Picks the algorithm and heuristic in the Solver panel's settings.
pub fn set(st: &mut AppState, algorithm: Algorithm, h: HeuristicKind) {
    st.settings.algorithm = algorithm;
    st.settings.heuristic = HeuristicChoice::Kind(h);
}

/// Texts the last frame painted (shapes, not widgets: the painter-drawn labels too).
pub fn painted_texts(h: &Harness<'_, TestApp>) -> Vec<String> {
    fn walk(s: &egui::Shape, out: &mut Vec<String>) {
        match s {
            egui::Shape::Text(t) => out.push(t.galley.text().to_string()),
            egui::Shape::Vec(v) => v.iter().for_each(|s| walk(s, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for c in &h.output().shapes {
        walk(&c.shape, &mut out);
    }
    out
}
