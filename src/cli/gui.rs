//! `npuzzle gui [FILE]` and `npuzzle` alone: the arguments, resolved once into a
//! [`GuiRequest`] that a launcher given by the binary opens (the library's `cli` does not
//! depend on the app), and the terminal solve when no window can be had.

use std::path::PathBuf;
use std::str::FromStr;

use clap::Args;

use super::{
    CliError, Format, SearchOpts, StatedLength, goal_flag, parse_batch, read_instance,
    resolve_goal, solve,
};
use crate::heuristic::{HeuristicChoice, HeuristicKind};
use crate::puzzle::{Board, GoalSpec, Notation};
use crate::search::{Algorithm, DEFAULT_BATCH_SIZE, default_max_memory};

#[derive(Args, Debug)]
pub(super) struct GuiArgs {
    /// Board file (any format); the bundled default puzzle when absent.
    file: Option<PathBuf>,
    /// Goal: blank-last, blank-first, or a goal board file [default: the goal the board's
    /// bench line names, else blank-last].
    #[arg(long)]
    goal: Option<String>,
    /// Algorithm: auto (GPU IDA* on a hardware GPU adapter for boards of 4×4 and up, else
    /// batched A*), bfs, astar, idastar, batched-astar, gpu-idastar; to contrast, greedy and
    /// weighted-astar (not optimal).
    #[arg(long, default_value = "auto", value_parser = Algorithm::from_str)]
    algorithm: Option<Algorithm>,
    /// Weighted A*'s w, 1 to 10 in tenths (the app's slider goes to 5); with
    /// --algorithm weighted-astar.
    #[arg(long, value_name = "W", value_parser = crate::search::Weight::from_str)]
    weight: Option<crate::search::Weight>,
    /// Heuristic: auto (in the app linear conflict, which every algorithm and evaluator takes
    /// at once, the hint line using the strongest table ready; solving in the terminal, as
    /// `solve` picks), hamming, manhattan, linear-conflict,
    /// walking-distance, wd-lc, or a
    /// pattern database (pdb8, pdb555, pdb663, pdb78, pdb6666, pdb:SIZES, pdb:TILES), built on
    /// the first Start and cached.
    #[arg(long, default_value = "auto")]
    heuristic: Option<HeuristicChoice>,
    /// Batch evaluator for batched A*: auto (GPU if any), gpu, cpu.
    #[arg(long, value_enum, default_value_t = crate::plan::EvaluatorChoice::Auto)]
    evaluator: crate::plan::EvaluatorChoice,
    /// Nodes batched A* expands per round.
    #[arg(long, value_name = "B", default_value_t = DEFAULT_BATCH_SIZE, value_parser = parse_batch)]
    batch_size: usize,
    /// Start solving at once.
    #[arg(long)]
    solve: bool,
    /// When the solve has ended, save a PNG of the window to PATH and exit
    /// (0 on success, non-zero with a message on failure).
    #[arg(long, value_name = "PATH.png", value_parser = parse_screenshot)]
    screenshot: Option<PathBuf>,
    /// Pattern-database cache folder (default: $NPUZZLE_CACHE_DIR, else the user's cache
    /// folder).
    #[arg(long, value_name = "DIR", value_parser = super::parse_cache_dir)]
    pub(super) cache_dir: Option<PathBuf>,
}

impl Default for GuiArgs {
    /// What `npuzzle` alone opens: the bundled puzzle with every option at its default.
    fn default() -> Self {
        GuiArgs {
            file: None,
            goal: None,
            algorithm: None,
            weight: None,
            heuristic: None,
            evaluator: crate::plan::EvaluatorChoice::Auto,
            batch_size: DEFAULT_BATCH_SIZE,
            solve: false,
            screenshot: None,
            cache_dir: None,
        }
    }
}

/// The app to open, as the command line asked for it (checked: the goal fits the board, a
/// pattern database fits the goal).
#[derive(Clone, Debug)]
pub struct GuiRequest {
    /// The puzzle to show.
    pub board: Board,
    /// Where it came from (the file name, or the bundled default).
    pub source: String,
    /// The file it was read from, if any (not `-`).
    pub file: Option<PathBuf>,
    /// The goal (resolves for the board's size): `--goal`, or the one the board's line names.
    pub goal: GoalSpec,
    /// The optimal length the board's line states, if any (the app says when the answer
    /// differs).
    pub stated: Option<u32>,
    /// Algorithm (`Auto` = the app's default).
    pub algorithm: Algorithm,
    /// Heuristic: a plain one or a pattern database; never [`HeuristicChoice::Auto`] (the app
    /// starts `auto` on linear conflict, which every algorithm and evaluator takes at once).
    pub heuristic: HeuristicChoice,
    /// Evaluate batches on the GPU when there is one (`false`: `--evaluator cpu`).
    pub gpu: bool,
    /// Nodes batched A* expands per round (at least 1).
    pub batch_size: usize,
    /// Start solving at once.
    pub solve: bool,
    /// Save a PNG of the window once the solve has ended, then exit.
    pub screenshot: Option<PathBuf>,
    /// Pattern-database cache folder; `None` = `NPUZZLE_CACHE_DIR` or the user's cache folder.
    pub cache_dir: Option<PathBuf>,
    /// What the command line chose (the app restores the rest from the last run).
    pub given: Given,
}

/// What a `npuzzle gui` command line chose itself, rather than leaving it to the settings the
/// app kept from its last run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Given {
    /// A puzzle file (or `-`): the board and its goal.
    pub board: bool,
    /// `--goal`.
    pub goal: bool,
    /// `--algorithm`.
    pub algorithm: bool,
    /// `--heuristic`.
    pub heuristic: bool,
}

/// Why a [`Launcher`] did not run the app to its end.
#[derive(Debug)]
pub enum LaunchError {
    /// No window could be opened (no display, no graphics adapter): the command solves in the
    /// terminal instead (or fails with exit 3 when a screenshot was asked for).
    NoWindow(String),
    /// The app ran and failed (a screenshot or the `--solve` it was asked for): exit 1.
    Failed(String),
}

/// Opens the app for a [`GuiRequest`] and returns when it is closed. The binary passes the
/// app's (`npuzzle::app::launch`) to [`main`](super::main); builds without the app pass none.
pub type Launcher = dyn Fn(&GuiRequest) -> Result<(), LaunchError>;

/// Opens the app through `launcher`; without one, or when it finds no display or graphics
/// adapter, solves the puzzle in the terminal instead and says so.
pub(super) fn run(a: &GuiArgs, launcher: Option<&Launcher>) -> Result<u8, CliError> {
    let (inst, source) = match &a.file {
        Some(f) => {
            let (name, inst) = read_instance(f, None, None)?;
            (inst, name)
        }
        None => (
            crate::puzzle::parse::parse_instance(
                crate::DEFAULT_PUZZLE,
                "assets/default.txt",
                None,
            )?,
            "assets/default.txt (bundled)".to_string(),
        ),
    };
    let flag = goal_flag(a.goal.as_deref())?;
    let line = inst.named_goal().map(|n| (n, source.as_str()));
    let board = inst.board.clone();
    let goal = resolve_goal(flag.as_ref(), line, board.rows(), board.cols())?;
    let spec = GoalSpec::of_board(goal.board());
    let algorithm = super::args::with_weight(a.algorithm.unwrap_or(Algorithm::Auto), a.weight)?;
    let heuristic = match &a.heuristic {
        None | Some(HeuristicChoice::Auto) => HeuristicChoice::Kind(HeuristicKind::LinearConflict),
        Some(HeuristicChoice::Pdb(p)) => {
            p.patterns(&goal)
                .map_err(|e| CliError::Usage(format!("--heuristic {}: {e}", p.name())))?;
            HeuristicChoice::Pdb(p.clone())
        }
        Some(HeuristicChoice::PdbMax(c)) => {
            c.layout(&goal)
                .map_err(|e| CliError::Usage(format!("--heuristic {}: {e}", c.name())))?;
            HeuristicChoice::PdbMax(c.clone())
        }
        Some(h) => h.clone(),
    };
    match launcher {
        Some(launch) => {
            let request = GuiRequest {
                board: board.clone(),
                source: source.clone(),
                file: a.file.clone().filter(|f| f.as_os_str() != "-"),
                goal: spec,
                stated: inst.optimal,
                algorithm,
                heuristic: heuristic.clone(),
                gpu: a.evaluator != crate::plan::EvaluatorChoice::Cpu,
                batch_size: a.batch_size.max(1),
                solve: a.solve,
                screenshot: a.screenshot.clone(),
                cache_dir: a.cache_dir.clone(),
                given: Given {
                    board: a.file.is_some(),
                    goal: a.goal.is_some(),
                    algorithm: a.algorithm.is_some(),
                    heuristic: a.heuristic.is_some(),
                },
            };
            match launch(&request) {
                Ok(()) => return Ok(0),
                Err(LaunchError::NoWindow(e)) => {
                    if a.screenshot.is_some() {
                        return Err(CliError::Unavailable(format!(
                            "--screenshot needs a window: {e}"
                        )));
                    }
                    crate::note!("npuzzle: {e}; solving in the terminal instead");
                }
                Err(LaunchError::Failed(e)) => return Err(CliError::Other(e)),
            }
        }
        None => crate::note!(
            "npuzzle: this build has no desktop app (feature \"gui\"); solving in the terminal"
        ),
    }
    let opts = SearchOpts {
        goal: a.goal.clone(),
        algorithm: match algorithm {
            Algorithm::BatchedAStar | Algorithm::Auto => Algorithm::Auto,
            x => x,
        },
        weight: None,
        // The app starts with linear conflict, to be watched; the terminal picks as `solve`
        // does (a cached or quick pattern database).
        heuristic: match &a.heuristic {
            None | Some(HeuristicChoice::Auto) => HeuristicChoice::Auto,
            Some(_) => heuristic,
        },
        cache_dir: a.cache_dir.clone(),
        time_limit: None,
        max_memory: bytesize::ByteSize(default_max_memory()),
        size: None,
        format: Format::Text,
        evaluator: a.evaluator,
        batch_size: a.batch_size,
        gpu_invocations: None,
        pruning: Default::default(),
        counting: Default::default(),
        threads: 1,
    };
    let stated = StatedLength::of(&inst, &source);
    let writing = solve::Writing {
        notation: Notation::Blank,
        steps: false,
        why: false,
        conditions: None,
        choices: None,
    };
    solve::solve_and_print(board, goal, &opts, writing, None, stated.as_ref())
}

/// Parses `--screenshot`: a `.png` path in a folder that exists, checked before the app opens
/// (the picture is written only after the solve).
fn parse_screenshot(s: &str) -> Result<PathBuf, super::ArgError> {
    use super::ArgError;
    let path = PathBuf::from(s);
    if !path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("png"))
    {
        // (`.png` alone is a name without an extension.)
        return Err(ArgError::NotPng);
    }
    if path.is_dir() {
        return Err(ArgError::IsAFolder(s.to_string()));
    }
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => std::path::Path::new("."),
    };
    match std::fs::metadata(folder) {
        Ok(m) if m.is_dir() => Ok(path),
        Ok(_) => Err(ArgError::NotAFolder(folder.display().to_string())),
        Err(_) => Err(ArgError::NoFolder(folder.display().to_string())),
    }
}
