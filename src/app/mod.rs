//! The desktop app (feature `gui`): a winit window drawn with wgpu, egui panels, and a search
//! worker thread streaming progress. `npuzzle` with no arguments opens it on the bundled
//! default puzzle; `npuzzle gui [FILE]` on a file.
//!
//! - `state/`: everything the app knows and does, without a window (tested with egui_kittest):
//!   `AppState` and its parts (settings, run, playback, scramble, editor, clock, lists);
//! - `lessons/`: the guided lessons (texts, set-ups, checks) and the student's progress;
//! - `panels/`: the egui panels (Puzzle, Solver, Stats, Solution) and the frame's layout;
//! - `views/`: the board view and the frontier heatmap;
//! - `render.rs`: the wgpu pipeline (`shaders/quads.wgsl`) that draws tiles and heatmap cells;
//! - `window.rs`: winit + wgpu surface + egui-winit/egui-wgpu, screenshots;
//! - `worker.rs`: the search thread.

pub mod actions;
mod coach;
mod comparer;
pub mod lessons;
mod panels;
mod render;
mod state;
mod views;
mod window;
mod worker;

use std::sync::Arc;

pub use crate::heuristic::HeuristicChoice;
pub use panels::{Dialogs, narration, ui};
pub use render::{EguiQuads, Quad, QuadPainter};
pub use state::{
    AppState, Chain, Clock, Compare, DepthRange, EXAMPLE_SETS, EditClick, Editor, EvaluatorChoice,
    ExampleSet, FinishedIteration, Level, LowerView, Message, Messages, Play, Playback, Predict,
    Recent, Restore, Run, RunState, SLIDE_SECONDS, SPEEDS, Saved, SavedBoard, SavedViews, Scramble,
    Settings, Slide, SolutionView, TEXT_SIZES, Verdict, View, judge, shown_order,
};
pub use views::help::Topic as HelpTopic;
pub use views::ramp;
pub use views::tree::geometry::{DRAWN_LIMIT, Geometry, Mark};
pub use worker::{AStarHeld, BESIDE_LIMIT, BuildStatus, OPEN_SHOWN, StepView};

use crate::cli::{GuiRequest, LaunchError};
use crate::eval::gpu::GpuContext;

/// A cause carried whole: winit's, wgpu's and the PNG encoder's error types.
type Cause = Box<dyn std::error::Error + Send + Sync>;

/// Why the app could not run.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// No window could be opened (no display): winit's error.
    #[error("cannot open a window: {}", window::winit_message(.0))]
    Window(#[source] Cause),
    /// No graphics adapter to draw the window with: wgpu's (or the GPU context's) error.
    #[error("no graphics adapter for the window: {0}")]
    NoAdapter(#[source] Cause),
    /// The screenshot could not be read back from the GPU or encoded.
    #[error("screenshot failed: {0}")]
    Screenshot(#[source] Cause),
    /// A screenshot asked for before there is a window.
    #[error("screenshot failed: no window")]
    NoWindowToCapture,
    /// The screenshot could not be saved.
    #[error("screenshot failed: {}: {source}", path.display())]
    SaveScreenshot {
        /// The file.
        path: std::path::PathBuf,
        /// The write's error.
        source: std::io::Error,
    },
    /// The solve asked for with `--solve` failed: the failure as the window showed it.
    #[error("solve failed: {0}")]
    Solve(String),
}

/// The [`Launcher`](crate::cli::Launcher) the binary gives the command line: opens the app
/// for `npuzzle gui …` (and `npuzzle` alone) and runs it until it is closed.
///
/// # Errors
/// [`LaunchError::NoWindow`] without a display or graphics adapter (the command line then
/// solves in the terminal); [`LaunchError::Failed`] for a failed screenshot or solve.
pub fn launch(request: &GuiRequest) -> Result<(), LaunchError> {
    run(request.clone()).map_err(|e| match e {
        AppError::Window(_) | AppError::NoAdapter(_) => LaunchError::NoWindow(e.to_string()),
        e => LaunchError::Failed(e.to_string()),
    })
}

/// Opens the window and runs the app until it is closed.
///
/// # Errors
/// [`AppError`]: no display or adapter (the caller may fall back to the terminal), or a failed
/// screenshot or solve in `--screenshot` mode.
pub fn run(opts: GuiRequest) -> Result<(), AppError> {
    let ran = window::run(opts);
    // A table still being saved by a search's thread when the window closed: the process is
    // about to end, so its temporary file goes now rather than being left in the cache.
    crate::files::remove_live_saying("closed during a save");
    ran
}

/// The state the window starts with, and (but for `--screenshot`) the settings file as read
/// and the settings restored from it (see [`restore`]).
type Started = (AppState, Option<(Option<Saved>, Saved)>);

/// The state the window starts with (see [`Started`]); `file`: the settings file as
/// `Saved::load` read it (`None`: not read, for `--screenshot`).
fn initial_state(
    opts: &GuiRequest,
    gpu: Option<Arc<GpuContext>>,
    gpu_note: String,
    file: Option<(Option<Saved>, Option<String>)>,
) -> Result<Started, AppError> {
    // `auto` to watch: the plan's rule for a search to watch, beside the command line's.
    let hardware = crate::plan::Hardware::with(gpu.clone(), 1).is_hardware_gpu();
    let mut st = AppState::new(opts.board.clone(), &opts.source, gpu, gpu_note);
    st.set_goal(opts.goal.clone());
    st.set_stated_length(opts.stated);
    st.settings.algorithm = crate::plan::pick_algorithm(
        opts.algorithm,
        opts.board.len(),
        crate::plan::Purpose::Watch,
        hardware,
    );
    if let Some(w) = st.settings.algorithm.weight() {
        st.settings.weight = w;
    }
    st.settings.heuristic = opts.heuristic.clone();
    if !opts.gpu {
        st.settings.evaluator = EvaluatorChoice::Cpu;
    } else if st.has_gpu() {
        st.settings.evaluator = EvaluatorChoice::Gpu;
    }
    st.settings.batch_size = opts.batch_size;
    st.settings.pdb_cache = opts.cache_dir.clone();
    let kept = file.map(|f| restore(opts, &mut st, f));
    // `--solve` solves at once (the speed dial's pace is for the learner's Start).
    if opts.solve {
        st.settings.steps_per_second = 0;
    }
    let (recent, problem) = Recent::load();
    st.recent = recent;
    if let Some(why) = problem {
        st.messages.note(why);
    }
    if let Some(f) = &opts.file {
        st.recent
            .add(&f.canonicalize().unwrap_or_else(|_| f.clone()));
    }
    Ok((st, kept))
}

/// Restores the settings kept from the last run (`Saved::load`'s answer) into `st`, but what the command line chose
/// (a file and its goal, `--goal`, `--algorithm`, `--heuristic`); a file that could not be
/// used, and values skipped, are said in the app and on standard error. Returns the file as
/// read and the settings the app starts with (the window's size is the caller's).
fn restore(
    opts: &GuiRequest,
    st: &mut AppState,
    (loaded, problem): (Option<Saved>, Option<String>),
) -> (Option<Saved>, Saved) {
    if let Some(why) = problem {
        st.messages.warn(why);
    }
    if let Some(saved) = &loaded {
        let what = Restore {
            board: !opts.given.board && !opts.given.goal,
            algorithm: !opts.given.algorithm,
            heuristic: !opts.given.heuristic,
        };
        let skipped = saved.apply(st, what);
        if !skipped.is_empty() {
            st.messages.warn(format!(
                "settings from the last run not restored: {}",
                skipped.join(", ")
            ));
        }
    }
    let baseline = Saved::of(st, None, loaded.as_ref());
    (loaded, baseline)
}

pub use crate::files::write_atomic;
