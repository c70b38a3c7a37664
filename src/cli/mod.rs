//! The command line: `npuzzle solve`, `bench`, `generate`, `compare`,
//! `pdb build|list|verify|clear` and `gui` (argument parsing with clap, text and JSON output, the pattern-database progress bar).
//! `gui` opens the app through a [`Launcher`] the binary gives: this module does not depend on
//! the app.
//!
//! Exit codes: 0 solved or proven unsolvable; 1 a bench length disagreed with the file (or
//! compare's searches disagreed on a length), or a
//! fault (an evaluator failure, an internal error); 2 bad input or usage; 3 a limit was reached
//! (time, memory, cancel).

mod bench;
mod compare;
mod generate;
mod gui;
mod pdb;
mod solve;
mod watch;

use std::process::ExitCode;
use std::str::FromStr;

use clap::{Args, Parser, Subcommand, ValueEnum};
pub use gui::{GuiRequest, LaunchError, Launcher};

use crate::heuristic::HeuristicChoice;
use crate::heuristic::pdb::PdbError;
use crate::puzzle::parse::{
    GOAL_NAMES, Instance, ParseError, goal_name, parse_board, parse_instance, read_from,
    read_source,
};
use crate::puzzle::{Goal, GoalSpec, Notation};
use crate::search::{
    Algorithm, DEFAULT_BATCH_SIZE, DEFAULT_MAX_SOLUTIONS, Limits, Pruning, SearchError,
    default_max_memory,
};

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
    /// Compare heuristics: solve one board with each (initial h, nodes, seconds, effective
    /// branching factor), or, with --size, the textbook table of mean nodes against optimal
    /// depth over random boards.
    Compare(compare::CompareArgs),
    /// Open the desktop app on a puzzle file (the bundled default puzzle without one).
    Gui(gui::GuiArgs),
    /// Pattern databases: build, list, verify, clear the cache.
    Pdb(pdb::PdbArgs),
}

/// Options shared by `solve` and `bench`.
#[derive(Args, Debug, Clone)]
struct SearchOpts {
    /// Goal: blank-last (1 2 … N-1 then blank), blank-first (blank then 1 2 …), or a file
    /// holding a goal board of the same size [default: the goal a bench line names, else
    /// blank-last; a --goal that contradicts the line's is an error].
    #[arg(long)]
    goal: Option<String>,
    /// Search algorithm: auto (A* up to 3×3, IDA* above), bfs, astar, idastar, batched-astar
    /// (expands --batch-size nodes a round and evaluates their successors in one batch, on the
    /// GPU with --evaluator gpu), gpu-idastar (IDA* whose subtrees are searched on the GPU in
    /// rounds; boards of at most 32 cells, sides up to 8; manhattan, linear-conflict, pdbs).
    #[arg(long, default_value = "auto", value_parser = Algorithm::from_str)]
    algorithm: Algorithm,
    /// Heuristic: auto (the strongest available: a cached or quick pattern database, else
    /// linear conflict), hamming, manhattan, linear-conflict, walking-distance, wd-lc (the larger
    /// of walking distance and linear conflict), or a pattern database: pdb8 (3×3,
    /// exact), pdb555, pdb663, pdb78 (4×4), pdb6666 (5×5), pdb:SIZES (pdb:4,4), pdb:TILES
    /// (pdb:1 2 3 4/5 6 7 8). Pattern databases are built on first use and cached.
    #[arg(long, default_value = "auto")]
    heuristic: HeuristicChoice,
    /// Pattern-database cache folder (default: $NPUZZLE_CACHE_DIR, else the user's cache folder).
    #[arg(long, value_name = "DIR", value_parser = parse_cache_dir)]
    cache_dir: Option<std::path::PathBuf>,
    /// Stop after this many seconds (exit code 3). For `solve` it also covers building pattern
    /// databases (a build stops at the end of its current BFS layer); for `bench` it applies
    /// to each instance's search, and tables are built before the first instance.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    time_limit: Option<f64>,
    /// Memory cap for BFS and A* tables and for building pattern databases, e.g. 512MiB, 4GiB
    /// (exit code 3 when reached, or when the system refuses memory first). The default is
    /// half the memory available (the smallest of free RAM, the cgroup's limit and ulimit -v),
    /// at most 4 GiB.
    #[arg(long, value_name = "SIZE", default_value_t = bytesize::ByteSize(default_max_memory()), value_parser = parse_memory)]
    max_memory: bytesize::ByteSize,
    /// Where h is evaluated for batched-astar, and where gpu-idastar searches: auto (a GPU
    /// adapter if any, else the CPU), gpu, cpu.
    #[arg(long, value_enum, default_value_t = crate::plan::EvaluatorChoice::Auto)]
    evaluator: crate::plan::EvaluatorChoice,
    /// Parallel searches of gpu-idastar (default: 65,536 on a hardware GPU; 128 a core, 256 to
    /// 4,096, on a software one such as lavapipe). For measuring on a new GPU.
    #[arg(long, value_name = "N", value_parser = parse_invocations, allow_negative_numbers = true)]
    gpu_invocations: Option<usize>,
    /// Nodes batched-astar expands per round.
    #[arg(long, value_name = "B", default_value_t = DEFAULT_BATCH_SIZE, value_parser = parse_batch, allow_negative_numbers = true)]
    batch_size: usize,
    /// Board size RxC for bench-style lines of non-square boards, e.g. 3x4 (a board that gives
    /// its own size must agree with it).
    #[arg(long, value_name = "RxC", value_parser = parse_size)]
    size: Option<(usize, usize)>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// IDA*'s move pruning: fsm (an automaton of duplicate move sequences, Taylor & Korf
    /// 1993: fewer nodes, same optimal length) or undo (only the move undoing the last one).
    #[arg(long, default_value = "fsm", value_parser = Pruning::from_str)]
    pruning: Pruning,
    /// Threads for one IDA* search (set by `solve --jobs`; bench runs instances in parallel).
    #[arg(skip = 1usize)]
    threads: usize,
}

#[derive(Args, Debug)]
struct SolveArgs {
    /// Board file (Princeton, rectangular, one-line, rows alone, or a one-line bench file), or
    /// - for stdin.
    #[arg(default_value = "-")]
    file: std::path::PathBuf,
    #[command(flatten)]
    opts: SearchOpts,
    /// Move letters: blank (where the blank goes) or tile (where the tile goes).
    #[arg(long, value_enum, default_value_t = NotationArg::Blank)]
    notation: NotationArg,
    /// Threads for IDA* (default: all cores); the answer is optimal with any number.
    // A negative number is a bad value of --jobs, not an unknown argument.
    #[arg(long, short, allow_negative_numbers = true, value_parser = parse_threads)]
    jobs: Option<usize>,
    /// Find every optimal solution: their number, and the first --max-solutions of them in
    /// move order (U < D < L < R), each replayed. Transpositions count as distinct solutions.
    /// With idastar (the last iteration is searched to the end), astar or bfs.
    #[arg(long)]
    all: bool,
    /// How many solutions --all lists (it counts them all).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_SOLUTIONS, allow_negative_numbers = true, requires = "all")]
    max_solutions: usize,
}

#[derive(Args, Debug)]
struct BenchArgs {
    /// Bench file: lines `id t0 t1 … tN-1 [optimal]`, `#` comments.
    file: std::path::PathBuf,
    #[command(flatten)]
    opts: SearchOpts,
    /// Instances solved in parallel (default: all cores).
    // A negative number is a bad value of --jobs, not an unknown argument.
    #[arg(long, short, allow_negative_numbers = true, value_parser = parse_threads)]
    jobs: Option<usize>,
    /// Threads for each instance's IDA* (default 1; with gpu-idastar, all cores, for the
    /// host's top of each iteration's tree). `--jobs 1 --threads 2` solves one instance at a
    /// time on two cores: a set whose largest instance dominates (the 24-puzzles) then keeps
    /// both cores busy to the end.
    #[arg(long, allow_negative_numbers = true, value_parser = parse_threads)]
    threads: Option<usize>,
}

#[derive(Args, Debug)]
struct GenerateArgs {
    /// Board size RxC, e.g. 4x4 or 3x5.
    #[arg(long, value_name = "RxC", value_parser = parse_size)]
    size: (usize, usize),
    /// Number of boards.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    count: usize,
    /// Seed: the same seed gives the same boards. Random when absent.
    #[arg(long, allow_negative_numbers = true)]
    seed: Option<u64>,
    /// Instead of uniform boards, make K random moves from the goal (never undoing the last);
    /// at most 10000000 (a longer walk is no different from a uniform board: omit --walk).
    #[arg(long, value_name = "K", value_parser = parse_walk, allow_negative_numbers = true)]
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

/// How many threads more than the cores `--jobs` may ask for.
const JOBS_PER_CORE: usize = 4;

/// The threads for `--jobs`: all cores when absent, at least 1, and at most
/// [`JOBS_PER_CORE`] times the cores (more only adds switching, and tens of thousands of
/// threads could not all be started), saying so on stderr when it caps.
fn jobs(asked: Option<usize>) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let most = cores * JOBS_PER_CORE;
    match asked {
        None => cores,
        Some(n) if n > most => {
            crate::note!(
                "npuzzle: --jobs {n} capped at {most} ({JOBS_PER_CORE} threads per core, {cores} cores)"
            );
            most
        }
        Some(n) => n.max(1),
    }
}

/// A command-line value that does not parse (clap shows it after the option's name).
#[derive(Debug, thiserror::Error)]
pub(crate) enum ArgError {
    /// `--walk` longer than [`MAX_WALK`](crate::puzzle::random::MAX_WALK).
    #[error(
        "a walk of {0} moves would take too long; at most {max} (a walk that long is already as \
         random as a uniform draw: omit --walk for uniform boards)",
        max = crate::puzzle::random::MAX_WALK
    )]
    WalkTooLong(String),
    /// `--walk` not a whole number.
    #[error("expected a number of moves, got {0:?}")]
    NotMoves(String),
    /// A memory size of 16 EiB or more.
    #[error("{0} is more than this machine can address (16 EiB)")]
    MemoryTooLarge(String),
    /// Not a memory size.
    #[error("expected a size like 512MiB, 4GiB or a number of bytes, got {0:?}")]
    NotMemory(String),
    /// Not a whole number of at least 1; `what` was expected.
    #[error("expected {what} of at least 1, got {value:?}")]
    NotAtLeastOne {
        /// What was expected (`a batch size`).
        what: &'static str,
        /// What was given.
        value: String,
    },
    /// A path that is there but is not a folder.
    #[error("{0} is not a folder")]
    NotAFolder(String),
    /// A path that is a folder where a file is wanted.
    #[error("{0} is a folder")]
    IsAFolder(String),
    /// A folder that is not there.
    #[error("there is no folder {0}")]
    NoFolder(String),
    /// `--screenshot` not ending in `.png`.
    #[error("a screenshot is a PNG file: a name ending in .png")]
    NotPng,
    /// Not `RxC`.
    #[error("expected a size like 4x4 or 3x5, got {0:?}")]
    NotASize(String),
    /// `RxC` outside the sizes a board may have.
    #[error(transparent)]
    Size(#[from] crate::puzzle::BoardError),
    /// Not an algorithm's name.
    #[error(transparent)]
    Algorithm(#[from] crate::search::UnknownAlgorithm),
    /// An algorithm `compare` does not run with a heuristic.
    #[error(
        "compare runs each heuristic with astar or idastar, not {0} (list bfs among --heuristics)"
    )]
    NotForCompare(Algorithm),
}

/// A walk length: a whole number up to [`MAX_WALK`](crate::puzzle::random::MAX_WALK).
fn parse_walk(s: &str) -> Result<usize, ArgError> {
    use crate::puzzle::random::MAX_WALK;
    match s.parse::<u128>() {
        Ok(k) if k <= MAX_WALK as u128 => Ok(k as usize),
        Ok(_) => Err(ArgError::WalkTooLong(s.to_string())),
        Err(_) => Err(ArgError::NotMoves(s.to_string())),
    }
}

/// A memory size: bytes, or a number with a unit (`512MiB`, `4GiB`, `2.5GB`), below 16 EiB.
fn parse_memory(s: &str) -> Result<bytesize::ByteSize, ArgError> {
    s.parse::<bytesize::ByteSize>().map_err(|_| {
        let digits = s.trim().bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && s.trim()[..digits].parse::<u64>().is_err() {
            ArgError::MemoryTooLarge(s.to_string())
        } else {
            ArgError::NotMemory(s.to_string())
        }
    })
}

/// A batch size: a whole number of at least 1.
fn parse_batch(s: &str) -> Result<usize, ArgError> {
    at_least_one(s, "a batch size")
}

/// A number of threads (`--jobs`, `--threads`): a whole number of at least 1.
fn parse_threads(s: &str) -> Result<usize, ArgError> {
    at_least_one(s, "a number of threads")
}

/// `--gpu-invocations`: at least 1 (the device says what it takes at most).
fn parse_invocations(s: &str) -> Result<usize, ArgError> {
    at_least_one(s, "a number of invocations")
}

/// `s` as a whole number of at least 1, else an error naming `what` was expected.
fn at_least_one(s: &str, what: &'static str) -> Result<usize, ArgError> {
    match s.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(ArgError::NotAtLeastOne {
            what,
            value: s.to_string(),
        }),
    }
}

/// `$NPUZZLE_CACHE_DIR` where the command uses it (no `--cache-dir` given) must be a folder or
/// a path where one can be made, as `--cache-dir` must ([`parse_cache_dir`]).
///
/// # Errors
/// [`CliError::Usage`] naming the variable.
fn check_cache_env(cli: &Cli) -> Result<(), CliError> {
    let flag_given = match &cli.command {
        Some(Command::Solve(a)) => a.opts.cache_dir.is_some(),
        Some(Command::Bench(a)) => a.opts.cache_dir.is_some(),
        Some(Command::Compare(a)) => a.cache_dir.is_some(),
        Some(Command::Gui(a)) => a.cache_dir.is_some(),
        Some(Command::Pdb(a)) => a.cache_dir.is_some(),
        Some(Command::Generate(_)) => true,
        None => false,
    };
    let var = crate::heuristic::pdb::cache::CACHE_ENV;
    match std::env::var_os(var).filter(|v| !v.is_empty() && !flag_given) {
        Some(v) => parse_cache_dir(&v.to_string_lossy())
            .map(|_| ())
            .map_err(|why| CliError::Usage(format!("{var}: {why}"))),
        None => Ok(()),
    }
}

/// Parses `--cache-dir`: a folder, or a path where one can be made; a file or anything else
/// already there is refused at once (the tables would otherwise be built and not saved).
pub(super) fn parse_cache_dir(s: &str) -> Result<std::path::PathBuf, ArgError> {
    let path = std::path::PathBuf::from(s);
    match std::fs::metadata(&path) {
        Ok(m) if !m.is_dir() => Err(ArgError::NotAFolder(s.to_string())),
        _ => Ok(path),
    }
}

/// Parses `RxC` (also `R×C`, `RXC`).
pub(super) fn parse_size(s: &str) -> Result<(usize, usize), ArgError> {
    let bad = || ArgError::NotASize(s.to_string());
    let (r, c) = s.split_once(['x', 'X', '×']).ok_or_else(bad)?;
    let (r, c) = (
        r.trim().parse().map_err(|_| bad())?,
        c.trim().parse().map_err(|_| bad())?,
    );
    crate::puzzle::check_size(r, c)?;
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
    #[error("{}", limit_message(.0))]
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
    /// The time limit ran out while the input was still being read (exit 3).
    #[error(
        "time limit of {seconds} s reached while reading {input}: the input has not ended \
         (a terminal or a pipe still open; end it with Ctrl-D or close the pipe)"
    )]
    ReadLimit {
        /// The input's name (`<stdin>` or the file).
        input: String,
        /// The limit, in seconds, as given.
        seconds: f64,
    },
}

/// A search error's message, a memory cap's with the options that change it on the command
/// line.
pub(super) fn limit_message(e: &SearchError) -> String {
    match e {
        SearchError::MemoryLimit { refused: true, .. } => {
            format!("{e} (--algorithm idastar, or give the process more memory)")
        }
        SearchError::MemoryLimit { .. } => {
            format!("{e} (raise --max-memory, or --algorithm idastar)")
        }
        e => e.to_string(),
    }
}

impl CliError {
    /// Whether a limit (time, memory, cancel) was reached, as the JSON `limit` says.
    pub(crate) fn is_limit(&self) -> bool {
        matches!(self, CliError::Limit(_) | CliError::ReadLimit { .. })
    }

    /// The process exit code for this error.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Input(_) | CliError::Usage(_) => 2,
            CliError::Limit(_) | CliError::Unavailable(_) | CliError::ReadLimit { .. } => 3,
            CliError::Other(_) => 1,
            CliError::Closed => 0,
        }
    }
}

impl CliError {
    /// A pattern-database error `e`, reported as `msg`, with the exit code it calls for:
    /// a pattern or partition that does not fit the board is bad usage (exit 2); a build
    /// past its memory cap or memory that cannot be had is a limit (exit 3); a cache folder
    /// or file that cannot be read or written is an error (exit 1).
    pub(crate) fn from_pdb(e: &PdbError, msg: String) -> Self {
        match e {
            PdbError::BadPattern { .. }
            | PdbError::TooManyPlacements { .. }
            | PdbError::WrongSize { .. }
            | PdbError::BadPartition(_) => CliError::Usage(msg),
            PdbError::TooBig { .. } | PdbError::Memory(_) => CliError::Unavailable(msg),
            PdbError::Cancelled
            | PdbError::NoCacheDir
            | PdbError::Missing { .. }
            | PdbError::Io { .. }
            | PdbError::Corrupt { .. } => CliError::Other(msg),
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

/// Runs the command line and returns the process exit code. `launcher` opens the desktop app
/// for `npuzzle gui` and `npuzzle` alone (the binary passes the app's; `None`: a build without
/// the app, which solves in the terminal instead).
pub fn main(launcher: Option<&Launcher>) -> ExitCode {
    started();
    stop_in_order_on_signals();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return refused(&e),
    };
    match run(cli, launcher) {
        Ok(code) => ExitCode::from(code),
        Err(CliError::Closed) => ExitCode::SUCCESS,
        Err(e) => {
            crate::note!("npuzzle: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

/// On SIGINT or SIGTERM, removes the temporary files of the saves in progress (a table
/// being written), then ends the process by the signal's default action, so that a shell
/// sees it stopped by the signal (a loop of commands stops on Ctrl-C). Without this the
/// default action kills the process mid-save and leaves the temporary file behind.
fn stop_in_order_on_signals() {
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGINT, SIGTERM};
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM]) else {
            return; // the default action stays: the next command's build removes leftovers
        };
        let _ = std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || {
                if let Some(signal) = signals.forever().next() {
                    crate::files::remove_live_saying("stopped");
                    let _ = signal_hook::low_level::emulate_default_handler(signal);
                    std::process::exit(128 + signal);
                }
            });
    }
}

/// A command line clap refused (or `--help`, `--version`): its message, and with
/// `--format json` the failure object (`error`, `exit_code`) on standard output, as every later
/// failure prints one; a file given where a command belongs gets the commands that take it.
fn refused(e: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    let code = e.exit_code();
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        // Help and the version go to standard output: one that cannot take them is a
        // failure, not a silent success.
        if e.use_stderr() {
            let _ = e.print();
        } else if let Some(why) = stdout_unwritable() {
            crate::note!("npuzzle: writing output: {why}");
            return ExitCode::from(1);
        } else if let Err(err) = print_clap(e) {
            crate::note!("npuzzle: writing output: {err}");
            return ExitCode::from(1);
        }
        return ExitCode::from(u8::try_from(code).unwrap_or(2));
    }
    let _ = e.print();
    // Lossy: an argument that is not UTF-8 is clap's to report, not a reason to panic here.
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    if e.kind() == ErrorKind::InvalidSubcommand
        && let Some(first) = args.first()
        && std::path::Path::new(first).is_file()
    {
        crate::note!(
            "npuzzle: {first} is a file: open it in the app with `npuzzle gui {first}`, or solve it with `npuzzle solve {first}`"
        );
    }
    // Only the commands that print JSON (the others refuse `--format` itself).
    let json = matches!(
        args.first().map(String::as_str),
        Some("solve" | "bench" | "compare")
    ) && (args
        .windows(2)
        .any(|w| w[0] == "--format" && w[1] == "json")
        || args.iter().any(|a| a == "--format=json"));
    if json {
        // The message up to its first blank line ("…not provided:" and the arguments
        // named under it), on one line.
        let text = e.to_string();
        let message: Vec<&str> = text
            .lines()
            .map(str::trim)
            .take_while(|l| !l.is_empty())
            .collect();
        let j = serde_json::json!({
            "error": message.join(" ").trim_start_matches("error: "),
            "exit_code": code,
        });
        let _ = emit(&serde_json::to_string_pretty(&j).unwrap_or_default());
    }
    ExitCode::from(u8::try_from(code).unwrap_or(2))
}

/// Writes clap's help or version text to standard output, reporting a failed write (clap's
/// own `print` drops it).
fn print_clap(e: &clap::Error) -> std::io::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    use std::io::IsTerminal;
    let text = e.render();
    let written = if out.is_terminal() {
        write!(out, "{}", text.ansi())
    } else {
        write!(out, "{text}")
    };
    match written.and_then(|()| out.flush()) {
        Err(err) if err.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        r => r,
    }
}

/// Runs a parsed command line (the app through `launcher`, as in [`main`]); returns the exit
/// code on success.
///
/// # Errors
/// [`CliError`] with its exit code.
pub fn run(cli: Cli, launcher: Option<&Launcher>) -> Result<u8, CliError> {
    check_cache_env(&cli)?;
    match cli.command {
        Some(Command::Solve(a)) => solve::run(&a),
        Some(Command::Bench(a)) => bench::run(&a),
        Some(Command::Generate(a)) => generate::run(&a),
        Some(Command::Compare(a)) => compare::run(&a),
        Some(Command::Gui(a)) => gui::run(&a, launcher),
        Some(Command::Pdb(a)) => pdb::run(&a),
        None => gui::run(&gui::GuiArgs::default(), launcher),
    }
}

/// Writes one line to standard output.
///
/// # Errors
/// [`CliError::Closed`] when the reader went away (broken pipe), [`CliError::Other`] otherwise,
/// also when standard output is not open at all (`>&-`), which the standard library's stdout
/// would otherwise take silently.
pub(crate) fn emit(line: &str) -> Result<(), CliError> {
    use std::io::Write;
    if let Some(why) = stdout_unwritable() {
        return Err(CliError::Other(format!("writing output: {why}")));
    }
    writeln!(std::io::stdout().lock(), "{line}").map_err(|e| {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            CliError::Closed
        } else {
            CliError::Other(format!("writing output: {e}"))
        }
    })
}

/// Why standard output cannot take what the program writes, checked once: closed when the
/// program started (`>&-`), or open for reading only (`1</etc/hostname`). The standard
/// library takes writes to either silently: it puts `/dev/null`, opened for reading and
/// writing, in place of a closed descriptor, and treats a write that fails with `EBADF` as
/// done. (A shell's `>/dev/null` opens it for writing only, so that stays a quiet success.)
fn stdout_unwritable() -> Option<&'static str> {
    static WHY: std::sync::OnceLock<Option<&'static str>> = std::sync::OnceLock::new();
    *WHY.get_or_init(stdout_check)
}

#[cfg(target_os = "linux")]
fn stdout_check() -> Option<&'static str> {
    use std::os::fd::{AsFd, AsRawFd};
    use std::os::unix::fs::{FileTypeExt, MetadataExt};
    const CLOSED: &str = "standard output is closed";
    let Ok(fd) = std::io::stdout().as_fd().try_clone_to_owned() else {
        return Some(CLOSED);
    };
    let file = std::fs::File::from(fd);
    let is_null = match (file.metadata(), std::fs::metadata("/dev/null")) {
        (Ok(m), Ok(null)) => m.file_type().is_char_device() && m.rdev() == null.rdev(),
        _ => false,
    };
    // SAFETY: F_GETFL only reads the flags of a descriptor that `file` owns and keeps open.
    let flags = unsafe { libc::fcntl(file.as_raw_fd(), libc::F_GETFL) };
    if flags < 0 {
        return Some(CLOSED);
    }
    match flags & libc::O_ACCMODE {
        libc::O_RDWR if is_null => Some(CLOSED),
        libc::O_RDONLY => Some("standard output is open for reading only"),
        _ => None,
    }
}

#[cfg(not(target_os = "linux"))]
fn stdout_check() -> Option<&'static str> {
    None
}

/// Resolves a `--goal` value: a goal name or a board file.
fn goal_spec(s: &str) -> Result<GoalSpec, CliError> {
    if let Some(g) = goal_name(s) {
        return Ok(g);
    }
    // Neither a goal's name nor a file: most likely a misspelt name. (Other failures to read
    // the file, such as a permission, are reported by the reading below.)
    if s != "-" && std::fs::metadata(s).is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound) {
        let names: Vec<&str> = GOAL_NAMES.iter().map(|(n, _)| *n).collect();
        return Err(CliError::Usage(format!(
            "--goal {s}: not a goal name ({}) and no such file",
            names.join(", ")
        )));
    }
    let (name, text) = read_input(std::path::Path::new(s), false)?;
    Ok(GoalSpec::Board(parse_board(&text, &name, None)?))
}

/// The goal a command solves towards, the one place `--goal` meets the goal a bench line
/// names: the line's goal where it names one, else `--goal` (`flag`, already read by
/// [`goal_spec`]; `None` when not given), else blank-last. Resolved for a `rows`×`cols`
/// board.
///
/// # Errors
/// [`CliError::Usage`] when `--goal` was given and names another goal than the line (both
/// are said, with `source:line`), or when the goal does not fit the board.
pub(super) fn resolve_goal(
    flag: Option<&(&str, GoalSpec)>,
    line: Option<(&GoalSpec, &str, usize)>,
    rows: usize,
    cols: usize,
) -> Result<Goal, CliError> {
    let from_flag = |(text, spec): &(&str, GoalSpec)| {
        spec.resolve(rows, cols)
            .map_err(|e| CliError::Usage(format!("--goal {text}: {e}")))
    };
    match (flag, line) {
        (flag, Some((spec, source, no))) => {
            let goal = spec
                .resolve(rows, cols)
                .map_err(|e| CliError::Usage(format!("{source}:{no}: goal: {e}")))?;
            if let Some(flag) = flag {
                let asked = from_flag(flag)?;
                if asked.board() != goal.board() {
                    return Err(CliError::Usage(format!(
                        "{source}:{no}: the line names the {} goal but --goal {} was given: \
                         leave --goal out to use the line's",
                        goal.name(),
                        flag.0,
                    )));
                }
            }
            Ok(goal)
        }
        (Some(flag), None) => from_flag(flag),
        (None, None) => from_flag(&("blank-last", GoalSpec::BlankLast)),
    }
}

/// The goal `--goal TEXT` gives a `rows`×`cols` board where no bench line names one
/// (`generate`, `pdb build`): [`resolve_goal`] with the flag alone.
///
/// # Errors
/// As [`goal_spec`] and [`resolve_goal`].
pub(super) fn flag_goal(text: &str, rows: usize, cols: usize) -> Result<Goal, CliError> {
    resolve_goal(Some(&(text, goal_spec(text)?)), None, rows, cols)
}

/// `--goal`'s value read (a name or a goal file), with its text; `None` when not given.
fn goal_flag(flag: Option<&str>) -> Result<Option<(&str, GoalSpec)>, CliError> {
    flag.map(|f| Ok((f, goal_spec(f)?))).transpose()
}

/// The optimal length a file states for its one puzzle (a bench line's last number), and
/// where: what `solve`, `compare` and the terminal `gui` check their answer against.
#[derive(Clone, Debug)]
pub(super) struct StatedLength {
    moves: usize,
    /// `source:line`.
    place: String,
}

impl StatedLength {
    /// The length `inst` states, read from `source`; `None` when its line gives none.
    pub(super) fn of(inst: &Instance, source: &str) -> Option<Self> {
        Some(StatedLength {
            moves: inst.optimal? as usize,
            place: format!("{source}:{}", inst.line),
        })
    }

    /// What to report when the answer disagrees with the stated length: `found` is the
    /// optimal length found, `None` for a board proven unsolvable. `None` when they agree.
    pub(super) fn disagreement(&self, found: Option<usize>) -> Option<String> {
        let place = &self.place;
        let stated = self.moves;
        match found {
            Some(m) if m == stated => None,
            Some(m) => Some(format!(
                "{place}: the file states {stated} moves, but the optimal solution has {m}"
            )),
            None => Some(format!(
                "{place}: the file states {stated} moves, but the board is unsolvable towards \
                 this goal: is it the file's goal? (Korf's files use --goal blank-first)"
            )),
        }
    }

    /// The exit code for an answer (`found`, as [`StatedLength::disagreement`] takes it) to a
    /// puzzle that may state a length: 1 when they disagree, said on stderr; else 0.
    pub(super) fn check(stated: Option<&Self>, found: Option<usize>) -> u8 {
        match stated.and_then(|s| s.disagreement(found)) {
            Some(why) => {
                crate::note!("npuzzle: {why}");
                1
            }
            None => 0,
        }
    }
}

/// Reads a whole input: a file path, or `-` for standard input (the one place the command line
/// reads the terminal; `puzzle` itself only reads what it is given). `bounded`: a time limit
/// covers the read (said when a FIFO keeps it waiting).
fn read_input(path: &std::path::Path, bounded: bool) -> Result<(String, String), ParseError> {
    if path.as_os_str() == "-" {
        use std::io::IsTerminal;
        if std::io::stdin().is_terminal() {
            // Not a hang: the FILE left out (or `-`) is the terminal.
            crate::note!(
                "npuzzle: reading a board from the terminal (type or paste it, then Ctrl-D; or give a FILE)"
            );
        }
        read_from("<stdin>", std::io::stdin().lock())
    } else {
        match std::fs::metadata(path) {
            Ok(m) if !m.is_file() && !m.is_dir() => read_special(path, &m, bounded),
            _ => read_source(path),
        }
    }
}

/// Reads a FIFO or a device named on the command line (a shell's `<(…)` is one), saying on
/// stderr what it waits for when nothing has ended it within half a second: not a hang, the
/// writer has not closed it yet.
fn read_special(
    path: &std::path::Path,
    m: &std::fs::Metadata,
    bounded: bool,
) -> Result<(String, String), ParseError> {
    use std::sync::mpsc::RecvTimeoutError;
    let (tx, rx) = std::sync::mpsc::channel();
    let owned = path.to_path_buf();
    let spawned = std::thread::Builder::new()
        .name("read special file".into())
        .spawn(move || {
            let _ = tx.send(read_source(&owned));
        });
    if spawned.is_err() {
        return read_source(path);
    }
    let stopped = || ParseError {
        source: path.to_string_lossy().into_owned(),
        line: None,
        kind: crate::puzzle::parse::ParseErrorKind::Io("the reading thread stopped".into()),
    };
    match rx.recv_timeout(std::time::Duration::from_millis(500)) {
        Ok(read) => read,
        Err(RecvTimeoutError::Disconnected) => Err(stopped()),
        Err(RecvTimeoutError::Timeout) => {
            crate::note!(
                "npuzzle: reading {}, a {}, until its writer closes it{}",
                path.display(),
                crate::files::kind_of(&m.file_type()),
                if bounded {
                    " (--time-limit bounds the wait)"
                } else {
                    ""
                }
            );
            rx.recv().unwrap_or_else(|_| Err(stopped()))
        }
    }
}

/// When the command started (the first call): a `--time-limit` counts from here, reading the
/// input included.
pub(crate) fn started() -> std::time::Instant {
    static STARTED: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    *STARTED.get_or_init(std::time::Instant::now)
}

/// Reads a whole input as [`read_input`] does, giving up when `limit` (counted from
/// [`started`]) runs out first: a pipe or terminal that never ends, or a FIFO nobody writes.
/// The reading thread is left blocked; the command ends with the error.
///
/// # Errors
/// [`CliError::ReadLimit`] when the limit ran out; the reading's own errors.
fn read_input_within(
    path: &std::path::Path,
    limit: Option<std::time::Duration>,
) -> Result<(String, String), CliError> {
    let Some(limit) = limit else {
        return Ok(read_input(path, false)?);
    };
    let (tx, rx) = std::sync::mpsc::channel();
    let owned = path.to_path_buf();
    std::thread::Builder::new()
        .name("read input".into())
        .spawn(move || {
            let _ = tx.send(read_input(&owned, true));
        })
        .map_err(|e| {
            let path = path.display();
            CliError::Other(format!("cannot start a thread to read {path}: {e}"))
        })?;
    match rx.recv_timeout(limit.saturating_sub(started().elapsed())) {
        Ok(read) => Ok(read?),
        Err(_) => Err(CliError::ReadLimit {
            input: if path.as_os_str() == "-" {
                "<stdin>".to_string()
            } else {
                path.to_string_lossy().into_owned()
            },
            seconds: limit.as_secs_f64(),
        }),
    }
}

/// Reads one puzzle from a file or `-` within `limit` ([`read_input_within`]): its board,
/// and the goal and length its line may give. Returns the source's name (as errors name it)
/// and the puzzle.
fn read_instance(
    path: &std::path::Path,
    size: Option<(usize, usize)>,
    limit: Option<std::time::Duration>,
) -> Result<(String, Instance), CliError> {
    let (name, text) = read_input_within(path, limit)?;
    let inst = parse_instance(&text, &name, size)?;
    Ok((name, inst))
}

impl SearchOpts {
    fn limits(&self) -> Result<Limits, CliError> {
        let time_limit = match self.time_limit {
            None => None,
            Some(s) if s.is_finite() && s > 0.0 => Some(
                std::time::Duration::try_from_secs_f64(s)
                    .ok()
                    .filter(|d| std::time::Instant::now().checked_add(*d).is_some())
                    .ok_or_else(|| {
                        CliError::Usage(format!("--time-limit {s:.3e} seconds is too large"))
                    })?,
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
            pruning: self.pruning,
            cache_dir: crate::heuristic::pdb::cache::PdbCache::folder(self.cache_dir.clone()),
            ..Limits::default()
        })
    }
}
