//! The desktop app (feature `gui`): a winit window drawn with wgpu, egui panels, and a search
//! worker thread streaming progress. `npuzzle` with no arguments opens it on the bundled
//! default puzzle; `npuzzle gui [FILE]` on a file.
//!
//! - `state/`: everything the app knows and does, without a window (tested with egui_kittest):
//!   `AppState` and its parts (settings, run, playback, scramble, editor, clock, lists);
//! - `panels/`: the egui panels (Puzzle, Solver, Stats, Solution) and the frame's layout;
//! - `views/`: the board view and the frontier heatmap;
//! - `render.rs`: the wgpu pipeline (`shaders/quads.wgsl`) that draws tiles and heatmap cells;
//! - `window.rs`: winit + wgpu surface + egui-winit/egui-wgpu, screenshots;
//! - `worker.rs`: the search thread.

mod panels;
mod render;
mod state;
mod views;
mod window;
mod worker;

use std::path::PathBuf;
use std::sync::Arc;

pub use panels::{Dialogs, ui};
pub use render::{EguiQuads, Quad, QuadPainter};
pub use state::{
    AppState, Clock, EditClick, Editor, EvaluatorChoice, Messages, Playback, Recent, Run, RunState,
    SLIDE_SECONDS, Scramble, Settings, Slide, SolutionView,
};
pub use views::ramp;
pub use worker::{BuildStatus, HeuristicChoice};

use crate::cli::{GuiRequest, HeuristicArg, LaunchError};
use crate::eval::gpu::GpuContext;
use crate::puzzle::{Board, GoalSpec};
use crate::search::Algorithm;

/// How the app starts.
#[derive(Clone, Debug)]
pub struct AppOptions {
    /// The puzzle to show.
    pub board: Board,
    /// Where it came from (file name, or the bundled default).
    pub source: String,
    /// The file it was read from, if any (goes into the recent list).
    pub file: Option<PathBuf>,
    /// The goal.
    pub goal: GoalSpec,
    /// Algorithm (`Auto` = batched A*, the app's showcase).
    pub algorithm: Algorithm,
    /// Heuristic.
    pub heuristic: HeuristicChoice,
    /// Evaluator for batched A*.
    pub evaluator: EvaluatorChoice,
    /// Nodes per round for batched A*.
    pub batch_size: usize,
    /// Start solving at once.
    pub solve: bool,
    /// Save a PNG of the window once the solve has ended, then exit.
    pub screenshot: Option<PathBuf>,
    /// Pattern-database cache folder; `None` = `NPUZZLE_CACHE_DIR` or the user's cache folder.
    pub cache_dir: Option<PathBuf>,
}

/// Why the app could not run.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// No window could be opened (no display).
    #[error("cannot open a window: {0}")]
    Window(String),
    /// No graphics adapter to draw the window with.
    #[error("no graphics adapter for the window: {0}")]
    NoAdapter(String),
    /// The screenshot could not be taken or saved.
    #[error("screenshot failed: {0}")]
    Screenshot(String),
    /// The solve asked for with `--solve` failed.
    #[error("solve failed: {0}")]
    Solve(String),
}

impl From<&GuiRequest> for AppOptions {
    fn from(r: &GuiRequest) -> Self {
        AppOptions {
            board: r.board.clone(),
            source: r.source.clone(),
            file: r.file.clone(),
            goal: r.goal.clone(),
            algorithm: r.algorithm,
            heuristic: match &r.heuristic {
                HeuristicArg::Pdb(p) => HeuristicChoice::Pdb(p.clone()),
                HeuristicArg::Kind(k) => HeuristicChoice::Kind(*k),
                HeuristicArg::Auto => HeuristicChoice::Kind(crate::cli::auto_heuristic()),
            },
            evaluator: if r.gpu {
                EvaluatorChoice::Gpu
            } else {
                EvaluatorChoice::Cpu
            },
            batch_size: r.batch_size,
            solve: r.solve,
            screenshot: r.screenshot.clone(),
            cache_dir: r.cache_dir.clone(),
        }
    }
}

/// The [`Launcher`](crate::cli::Launcher) the binary gives the command line: opens the app
/// for `npuzzle gui …` (and `npuzzle` alone) and runs it until it is closed.
///
/// # Errors
/// [`LaunchError::NoWindow`] without a display or graphics adapter (the command line then
/// solves in the terminal); [`LaunchError::Failed`] for a failed screenshot or solve.
pub fn launch(request: &GuiRequest) -> Result<(), LaunchError> {
    run(AppOptions::from(request)).map_err(|e| match e {
        AppError::Window(_) | AppError::NoAdapter(_) => LaunchError::NoWindow(e.to_string()),
        e => LaunchError::Failed(e.to_string()),
    })
}

/// Opens the window and runs the app until it is closed.
///
/// # Errors
/// [`AppError`]: no display or adapter (the caller may fall back to the terminal), or a failed
/// screenshot or solve in `--screenshot` mode.
pub fn run(opts: AppOptions) -> Result<(), AppError> {
    window::run(opts)
}

/// The state the window starts with.
fn initial_state(
    opts: &AppOptions,
    gpu: Option<Arc<GpuContext>>,
    gpu_note: String,
) -> Result<AppState, AppError> {
    let mut st = AppState::new(opts.board.clone(), &opts.source, gpu, gpu_note);
    st.set_goal(opts.goal.clone());
    st.settings.algorithm = match opts.algorithm {
        Algorithm::Auto => Algorithm::BatchedAStar,
        a => a,
    };
    st.settings.heuristic = opts.heuristic.clone();
    if st.has_gpu() || opts.evaluator == EvaluatorChoice::Cpu {
        st.settings.evaluator = opts.evaluator;
    }
    st.settings.batch_size = opts.batch_size;
    st.settings.pdb_cache = opts.cache_dir.clone();
    st.recent = Recent::load();
    if let Some(f) = &opts.file {
        st.recent
            .add(&f.canonicalize().unwrap_or_else(|_| f.clone()));
    }
    Ok(st)
}

pub use crate::files::write_atomic;
