//! The command line: `npuzzle solve`, `npuzzle bench`, `npuzzle generate`.
//!
//! Exit codes: 0 solved or proven unsolvable; 1 a bench length disagreed with the file, or a
//! fault (an evaluator failure, an internal error); 2 bad input or usage; 3 a limit was reached
//! (time, memory, cancel).

mod bench;
mod evaluator;
mod generate;
mod pdb;
mod solve;

use std::process::ExitCode;
use std::str::FromStr;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::heuristic::HeuristicKind;
use crate::puzzle::parse::{ParseError, goal_name, parse_board, read_source};
use crate::puzzle::{Board, GoalSpec, Notation};
use crate::search::{Algorithm, DEFAULT_MAX_MEMORY, Limits, SearchError};

/// Optimal sliding-tile puzzle solver (8-, 15-, 24-puzzle, any rows×cols board).
///
/// Boards are row-major, 0 is the blank. Move letters U D L R say where the blank goes
/// (--notation tile: where the moved tile goes). Without a command, solves the bundled
/// default puzzle.
#[derive(Parser, Debug)]
#[command(name = "npuzzle", version, about, long_about)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Solve one board optimally.
    Solve(SolveArgs),
    /// Solve every board of a bench file and compare with the optimal lengths it gives.
    Bench(BenchArgs),
    /// Print random solvable boards, one per line in the one-line format.
    Generate(GenerateArgs),
    /// Open the desktop app on a puzzle file (the bundled default puzzle without one).
    Gui(GuiArgs),
    /// Pattern databases: build, list, verify, clear the cache.
    Pdb(pdb::PdbArgs),
}

#[derive(Args, Debug, Default)]
struct GuiArgs {
    /// Board file (any format); the bundled default puzzle when absent.
    file: Option<String>,
    /// Goal: blank-last, blank-first, or a goal board file.
    #[arg(long, default_value = "blank-last")]
    goal: String,
    /// Algorithm: auto (batched A*), bfs, astar, idastar, batched-astar.
    #[arg(long, default_value = "auto", value_parser = Algorithm::from_str)]
    algorithm: Option<Algorithm>,
    /// Heuristic: auto (linear conflict), hamming, manhattan, linear-conflict, or a pattern
    /// database (pdb8, pdb555, pdb663, pdb78, pdb6666, pdb:SIZES, pdb:TILES), built on the
    /// first Start and cached.
    #[arg(long, default_value = "auto", value_parser = parse_heuristic)]
    heuristic: Option<HeuristicArg>,
    /// Batch evaluator for batched A*: auto (GPU if any), gpu, cpu.
    #[arg(long, value_enum, default_value_t = evaluator::EvaluatorArg::Auto)]
    evaluator: evaluator::EvaluatorArg,
    /// Nodes batched A* expands per round.
    #[arg(long, value_name = "B", default_value_t = 1024, value_parser = parse_batch)]
    batch_size: usize,
    /// Start solving at once.
    #[arg(long)]
    solve: bool,
    /// When the solve has ended, save a PNG of the window to PATH and exit
    /// (0 on success, non-zero with a message on failure).
    #[arg(long, value_name = "PATH.png")]
    screenshot: Option<std::path::PathBuf>,
    /// Pattern-database cache folder (default: $NPUZZLE_CACHE_DIR, else the user's cache
    /// folder).
    #[arg(long, value_name = "DIR")]
    cache_dir: Option<std::path::PathBuf>,
}

/// Options shared by `solve` and `bench`.
#[derive(Args, Debug, Clone)]
struct SearchOpts {
    /// Goal: blank-last (1 2 … N-1 then blank), blank-first (blank then 1 2 …), or a file
    /// holding a goal board of the same size.
    #[arg(long, default_value = "blank-last")]
    goal: String,
    /// Search algorithm: auto (A* up to 3×3, IDA* above), bfs, astar, idastar, batched-astar
    /// (expands --batch-size nodes a round and evaluates their successors in one batch, on the
    /// GPU with --evaluator gpu).
    #[arg(long, default_value = "auto", value_parser = Algorithm::from_str)]
    algorithm: Algorithm,
    /// Heuristic: auto (the strongest available: a cached or quick pattern database, else
    /// linear conflict), hamming, manhattan, linear-conflict, or a pattern database: pdb8 (3×3,
    /// exact), pdb555, pdb663, pdb78 (4×4), pdb6666 (5×5), pdb:SIZES (pdb:4,4), pdb:TILES
    /// (pdb:1 2 3 4/5 6 7 8). Pattern databases are built on first use and cached.
    #[arg(long, default_value = "auto", value_parser = parse_heuristic)]
    heuristic: HeuristicArg,
    /// Pattern-database cache folder (default: $NPUZZLE_CACHE_DIR, else the user's cache folder).
    #[arg(long, value_name = "DIR")]
    cache_dir: Option<std::path::PathBuf>,
    /// Stop after this many seconds (exit code 3). For `solve` it also covers building pattern
    /// databases (a build stops at the end of its current BFS layer); for `bench` it applies
    /// to each instance's search, and tables are built before the first instance.
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<f64>,
    /// Memory cap for BFS and A* tables and for building pattern databases, e.g. 512MiB, 4GiB
    /// (exit code 3 when reached).
    #[arg(long, value_name = "SIZE", default_value_t = bytesize::ByteSize(DEFAULT_MAX_MEMORY))]
    max_memory: bytesize::ByteSize,
    /// Batch evaluator for batched-astar: auto (a GPU adapter if any, else the CPU), gpu, cpu.
    #[arg(long, value_enum, default_value_t = evaluator::EvaluatorArg::Auto)]
    evaluator: evaluator::EvaluatorArg,
    /// Nodes batched-astar expands per round.
    #[arg(long, value_name = "B", default_value_t = crate::search::batched_astar::DEFAULT_BATCH_SIZE, value_parser = parse_batch)]
    batch_size: usize,
    /// Board size RxC for bench-style lines of non-square boards, e.g. 3x4.
    #[arg(long, value_name = "RxC", value_parser = parse_size)]
    size: Option<(usize, usize)>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Threads for one IDA* search (set by `solve --jobs`; bench runs instances in parallel).
    #[arg(skip = 1usize)]
    threads: usize,
}

#[derive(Args, Debug)]
struct SolveArgs {
    /// Board file (Princeton, rectangular, one-line or a one-line bench file), or - for stdin.
    #[arg(default_value = "-")]
    file: String,
    #[command(flatten)]
    opts: SearchOpts,
    /// Move letters: blank (where the blank goes) or tile (where the tile goes).
    #[arg(long, value_enum, default_value_t = NotationArg::Blank)]
    notation: NotationArg,
    /// Threads for IDA* (default: all cores); the answer is optimal with any number.
    #[arg(long, short)]
    jobs: Option<usize>,
}

#[derive(Args, Debug)]
struct BenchArgs {
    /// Bench file: lines `id t0 t1 … tN-1 [optimal]`, `#` comments.
    file: String,
    #[command(flatten)]
    opts: SearchOpts,
    /// Instances solved in parallel (default: all cores).
    #[arg(long, short)]
    jobs: Option<usize>,
}

#[derive(Args, Debug)]
struct GenerateArgs {
    /// Board size RxC, e.g. 4x4 or 3x5.
    #[arg(long, value_name = "RxC", value_parser = parse_size)]
    size: (usize, usize),
    /// Number of boards.
    #[arg(long, default_value_t = 1)]
    count: usize,
    /// Seed: the same seed gives the same boards. Random when absent.
    #[arg(long)]
    seed: Option<u64>,
    /// Instead of uniform boards, make K random moves from the goal (never undoing the last).
    #[arg(long, value_name = "K")]
    walk: Option<usize>,
    /// Goal the boards must be able to reach (blank-last, blank-first or a file).
    #[arg(long, default_value = "blank-last")]
    goal: String,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Text,
    Json,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum NotationArg {
    Blank,
    Tile,
}

impl From<NotationArg> for Notation {
    fn from(n: NotationArg) -> Self {
        match n {
            NotationArg::Blank => Notation::Blank,
            NotationArg::Tile => Notation::Tile,
        }
    }
}

/// `--heuristic`: auto, a named heuristic, or a pattern database.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
enum HeuristicArg {
    /// The strongest available.
    #[default]
    Auto,
    /// Hamming, Manhattan, linear conflict.
    Kind(HeuristicKind),
    /// A pattern-database partition.
    Pdb(crate::heuristic::pdb::PartitionSpec),
}

impl HeuristicArg {
    /// The name as given on the command line (`auto`, `manhattan`, `pdb78`, `pdb:4,4` …).
    pub fn name(&self) -> String {
        match self {
            HeuristicArg::Auto => "auto".into(),
            HeuristicArg::Kind(k) => k.name().into(),
            HeuristicArg::Pdb(spec) => spec.name(),
        }
    }
}

fn parse_heuristic(s: &str) -> Result<HeuristicArg, String> {
    if s.eq_ignore_ascii_case("auto") {
        return Ok(HeuristicArg::Auto);
    }
    if s.to_ascii_lowercase().starts_with("pdb") {
        return crate::heuristic::pdb::PartitionSpec::parse(s).map(HeuristicArg::Pdb);
    }
    HeuristicKind::from_str(s)
        .map(HeuristicArg::Kind)
        .map_err(|e| {
            format!(
                "{e}, or a pattern database (pdb8, pdb555, pdb663, pdb78, pdb6666, pdb:SIZES like pdb:4,4, pdb:TILES like pdb:1 2 3 4/5 6 7 8)"
            )
        })
}

/// A batch size: a whole number of at least 1.
fn parse_batch(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!("expected a batch size of at least 1, got {s:?}")),
    }
}

/// Parses `RxC` (also `R×C`, `RXC`).
pub(super) fn parse_size(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("expected a size like 4x4 or 3x5, got {s:?}");
    let (r, c) = s.split_once(['x', 'X', '×']).ok_or_else(bad)?;
    let (r, c) = (
        r.trim().parse().map_err(|_| bad())?,
        c.trim().parse().map_err(|_| bad())?,
    );
    crate::puzzle::check_size(r, c).map_err(|e| e.to_string())?;
    Ok((r, c))
}

/// A failure of a command, with its exit code.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// Bad input file or board (exit 2).
    #[error("{0}")]
    Input(#[from] ParseError),
    /// Bad usage (exit 2).
    #[error("{0}")]
    Usage(String),
    /// A limit was reached (exit 3).
    #[error("{0}")]
    Limit(SearchError),
    /// Anything else (exit 1).
    #[error("{0}")]
    Other(String),
    /// A device or feature asked for is not available (exit 3).
    #[error("{0}")]
    Unavailable(String),
    /// Standard output was closed by its reader (e.g. `| head`): stop quietly (exit 0).
    #[error("output closed")]
    Closed,
}

impl CliError {
    /// The process exit code for this error.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Input(_) | CliError::Usage(_) => 2,
            CliError::Limit(_) | CliError::Unavailable(_) => 3,
            CliError::Other(_) => 1,
            CliError::Closed => 0,
        }
    }
}

impl From<SearchError> for CliError {
    /// Limits (time, memory, cancel) exit with 3; faults, including the internal errors
    /// (a solution that does not replay, an exhausted search, a panicked search thread),
    /// with 1. The JSON `error` is the message, `limit` whether it was a limit.
    fn from(e: SearchError) -> Self {
        if e.is_limit() {
            CliError::Limit(e)
        } else {
            CliError::Other(e.to_string())
        }
    }
}

/// Runs the command line and returns the process exit code.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(CliError::Closed) => ExitCode::SUCCESS,
        Err(e) => {
            crate::note!("npuzzle: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

/// Runs a parsed command line; returns the exit code on success.
///
/// # Errors
/// [`CliError`] with its exit code.
pub fn run(cli: Cli) -> Result<u8, CliError> {
    match cli.command {
        Some(Command::Solve(a)) => solve::run(&a),
        Some(Command::Bench(a)) => bench::run(&a),
        Some(Command::Generate(a)) => generate::run(&a),
        Some(Command::Gui(a)) => gui(&a),
        Some(Command::Pdb(a)) => pdb::run(&a),
        None => gui(&GuiArgs {
            goal: "blank-last".into(),
            batch_size: 1024,
            ..GuiArgs::default()
        }),
    }
}

/// Opens the app; without a display or graphics adapter (or without the `gui` feature), solves
/// the puzzle in the terminal instead and says so.
fn gui(a: &GuiArgs) -> Result<u8, CliError> {
    let (board, source) = match &a.file {
        Some(f) => (read_board(f, None)?, f.clone()),
        None => (
            crate::puzzle::parse::parse_board(crate::DEFAULT_PUZZLE, "assets/default.txt", None)?,
            "assets/default.txt (bundled)".to_string(),
        ),
    };
    let goal = goal_spec(&a.goal)?;
    goal.resolve(board.rows(), board.cols())
        .map_err(|e| CliError::Usage(format!("--goal {}: {e}", a.goal)))?;
    let algorithm = a.algorithm.unwrap_or(Algorithm::Auto);
    let heuristic = match &a.heuristic {
        None | Some(HeuristicArg::Auto) => HeuristicArg::Kind(auto_heuristic()),
        Some(HeuristicArg::Kind(k)) => HeuristicArg::Kind(*k),
        Some(HeuristicArg::Pdb(p)) => {
            let g = goal
                .resolve(board.rows(), board.cols())
                .map_err(|e| CliError::Usage(format!("--goal {}: {e}", a.goal)))?;
            p.patterns(&g)
                .map_err(|e| CliError::Usage(format!("--heuristic {}: {e}", p.name())))?;
            HeuristicArg::Pdb(p.clone())
        }
    };
    #[cfg(feature = "gui")]
    {
        use crate::app::{AppError, AppOptions, EvaluatorChoice};
        let opts = AppOptions {
            board: board.clone(),
            source,
            file: a
                .file
                .as_ref()
                .filter(|f| *f != "-")
                .map(std::path::PathBuf::from),
            goal: goal.clone(),
            algorithm,
            heuristic: match &heuristic {
                HeuristicArg::Pdb(p) => crate::app::HeuristicChoice::Pdb(p.clone()),
                HeuristicArg::Kind(k) => crate::app::HeuristicChoice::Kind(*k),
                HeuristicArg::Auto => crate::app::HeuristicChoice::Kind(auto_heuristic()),
            },
            evaluator: match a.evaluator {
                evaluator::EvaluatorArg::Cpu => EvaluatorChoice::Cpu,
                _ => EvaluatorChoice::Gpu,
            },
            batch_size: a.batch_size.max(1),
            solve: a.solve,
            screenshot: a.screenshot.clone(),
            cache_dir: a.cache_dir.clone(),
        };
        match crate::app::run(opts) {
            Ok(()) => return Ok(0),
            Err(e @ (AppError::Window(_) | AppError::NoAdapter(_))) => {
                crate::note!("npuzzle: {e}; solving in the terminal instead");
                if a.screenshot.is_some() {
                    return Err(CliError::Unavailable(format!(
                        "--screenshot needs a window: {e}"
                    )));
                }
            }
            Err(e) => return Err(CliError::Other(e.to_string())),
        }
    }
    #[cfg(not(feature = "gui"))]
    {
        let _ = source;
        crate::note!(
            "npuzzle: this build has no desktop app (feature \"gui\"); solving in the terminal"
        );
    }
    let goal = goal
        .resolve(board.rows(), board.cols())
        .map_err(|e| CliError::Usage(format!("--goal {}: {e}", a.goal)))?;
    let opts = SearchOpts {
        goal: a.goal.clone(),
        algorithm: match algorithm {
            Algorithm::BatchedAStar | Algorithm::Auto => Algorithm::Auto,
            x => x,
        },
        heuristic,
        cache_dir: a.cache_dir.clone(),
        time_limit: None,
        max_memory: bytesize::ByteSize(DEFAULT_MAX_MEMORY),
        size: None,
        format: Format::Text,
        evaluator: a.evaluator,
        batch_size: a.batch_size,
        threads: 1,
    };
    solve::solve_and_print(board, goal, &opts, Notation::Blank)
}

/// Writes one line to standard output.
///
/// # Errors
/// [`CliError::Closed`] when the reader went away (broken pipe), [`CliError::Other`] otherwise.
pub(crate) fn emit(line: &str) -> Result<(), CliError> {
    use std::io::Write;
    writeln!(std::io::stdout().lock(), "{line}").map_err(|e| {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            CliError::Closed
        } else {
            CliError::Other(format!("writing output: {e}"))
        }
    })
}

/// Resolves a `--goal` value: a goal name or a board file.
fn goal_spec(s: &str) -> Result<GoalSpec, CliError> {
    if let Some(g) = goal_name(s) {
        return Ok(g);
    }
    let (name, text) = read_source(s)?;
    Ok(GoalSpec::Board(parse_board(&text, &name, None)?))
}

/// Reads one board from a file or `-`.
fn read_board(path: &str, size: Option<(usize, usize)>) -> Result<Board, CliError> {
    let (name, text) = read_source(path)?;
    Ok(parse_board(&text, &name, size)?)
}

impl SearchOpts {
    fn limits(&self) -> Result<Limits, CliError> {
        let time_limit = match self.time_limit {
            None => None,
            Some(s) if s.is_finite() && s > 0.0 => Some(
                std::time::Duration::try_from_secs_f64(s)
                    .ok()
                    .filter(|d| std::time::Instant::now().checked_add(*d).is_some())
                    .ok_or_else(|| CliError::Usage(format!("--time-limit {s} is too large")))?,
            ),
            Some(s) => {
                return Err(CliError::Usage(format!(
                    "--time-limit must be a positive number of seconds, got {s}"
                )));
            }
        };
        Ok(Limits {
            time_limit,
            max_memory: self.max_memory.as_u64(),
            threads: self.threads.max(1),
            ..Limits::default()
        })
    }
}

/// The plain heuristic `auto` falls back to.
fn auto_heuristic() -> HeuristicKind {
    HeuristicKind::LinearConflict
}
