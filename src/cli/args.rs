//! The command line's arguments (clap) and their value parsers.

use std::str::FromStr;

use clap::{Args, Parser, Subcommand, ValueEnum};

use super::*;
use crate::heuristic::HeuristicChoice;
use crate::heuristic::pdb::PdbLookup;
use crate::puzzle::Notation;
use crate::search::{
    Algorithm, DEFAULT_BATCH_SIZE, DEFAULT_MAX_SOLUTIONS, Limits, MoveOrder, Pruning, Weight,
    default_max_memory,
};

/// Optimal sliding-tile puzzle solver (8-, 15-, 24-puzzle, any rows×cols board).
///
/// Boards are row-major, 0 is the blank. Move letters U D L R say where the blank goes
/// (--notation tile: where the moved tile goes). Without a command, solves the bundled
/// default puzzle.
#[derive(Parser, Debug)]
#[command(name = "npuzzle", version = crate::VERSION, about, long_about)]
pub struct Cli {
    #[command(subcommand)]
    pub(super) command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub(super) enum Command {
    /// Solve one board optimally.
    Solve(SolveArgs),
    /// Solve every board of a bench file and compare with the optimal lengths it gives.
    Bench(BenchArgs),
    /// Print random solvable boards, one per line in the one-line format.
    Generate(GenerateArgs),
    /// Compare heuristics: solve one board with each (initial h, nodes, seconds, effective
    /// branching factor), or every board of a bench file (a row per heuristic over all of
    /// them), or, with --size, the textbook table of mean nodes against optimal depth over
    /// random boards.
    Compare(compare::CompareArgs),
    /// Open the desktop app on a puzzle file (the bundled default puzzle without one).
    Gui(gui::GuiArgs),
    /// Pattern databases: build, list, verify, clear the cache.
    Pdb(pdb::PdbArgs),
}

/// Options shared by `solve` and `bench`.
#[derive(Args, Debug, Clone)]
pub(super) struct SearchOpts {
    /// Goal: blank-last (1 2 … N-1 then blank), blank-first (blank then 1 2 …), or a file
    /// holding a goal board of the same size [default: the goal a bench line names, else
    /// blank-last; a --goal that contradicts the line's is an error].
    #[arg(long)]
    pub(super) goal: Option<String>,
    /// Search algorithm: auto (A* up to 3×3, IDA* above), bfs, astar, idastar, batched-astar
    /// (expands --batch-size nodes a round and evaluates their successors in one batch, on the
    /// GPU with --evaluator gpu), gpu-idastar (IDA* whose subtrees are searched on the GPU in
    /// rounds; boards of at most 32 cells, sides up to 8; manhattan, linear-conflict, pdbs, pdbmax);
    /// to contrast, not optimal (solve only): greedy (best-first by h alone), weighted-astar
    /// (f = g + w·h, w from --weight).
    #[arg(long, default_value = "auto", value_parser = Algorithm::from_str)]
    pub(super) algorithm: Algorithm,
    /// Weighted A*'s w, from 1 to 10 in tenths (default 2): the answer is at most w times the
    /// optimum (with an admissible heuristic). Only with --algorithm weighted-astar.
    #[arg(long, value_name = "W", value_parser = Weight::from_str)]
    pub(super) weight: Option<Weight>,
    /// Heuristic: auto (the strongest available: a cached or quick pattern database, else
    /// linear conflict), hamming, manhattan, linear-conflict, walking-distance, wd-lc (the larger
    /// of walking distance and linear conflict), or a pattern database: pdb8 (3×3,
    /// exact), pdb555, pdb663, pdb78 (4×4), pdb6666 (5×5), pdb:SIZES (pdb:4,4), pdb:TILES
    /// (pdb:1 2 3 4/5 6 7 8); or the largest of several partitions' sums: pdbmax24 (5×5, 1.0
    /// GB of tables), pdbmax24x (5×5, 5.9 GB; build it first with `npuzzle pdb build`),
    /// pdbmax:P1|P2|… Pattern databases are built on first use and cached. For
    /// teaching, overestimating-manhattan: twice the Manhattan distance, which overestimates
    /// (not admissible: answers may be longer than the optimum; solve and compare only).
    #[arg(long, default_value = "auto")]
    pub(super) heuristic: HeuristicChoice,
    /// Pattern-database cache folder (default: $NPUZZLE_CACHE_DIR, else the user's cache folder).
    #[arg(long, value_name = "DIR", value_parser = parse_cache_dir)]
    pub(super) cache_dir: Option<std::path::PathBuf>,
    /// Stop after this many seconds (exit code 3). For `solve` it also covers building pattern
    /// databases (a build stops at the end of its current BFS layer); for `bench` it applies
    /// to each instance's search, and tables are built before the first instance.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    pub(super) time_limit: Option<f64>,
    /// Memory cap for BFS and A* tables and for building pattern databases, e.g. 512MiB, 4GiB
    /// (exit code 3 when reached, or when the system refuses memory first). The default is
    /// half the memory available (the smallest of free RAM, the cgroup's limit and ulimit -v),
    /// at most 4 GiB.
    #[arg(long, value_name = "SIZE", default_value_t = bytesize::ByteSize(default_max_memory()), value_parser = parse_memory)]
    pub(super) max_memory: bytesize::ByteSize,
    /// Where h is evaluated for batched-astar, and where gpu-idastar searches: auto (a GPU
    /// adapter if any, else the CPU), gpu, cpu.
    #[arg(long, value_enum, default_value_t = crate::plan::EvaluatorChoice::Auto)]
    pub(super) evaluator: crate::plan::EvaluatorChoice,
    /// Parallel searches of gpu-idastar (default: 65,536 on a hardware GPU; 128 a core, 256 to
    /// 4,096, on a software one such as lavapipe). For measuring on a new GPU.
    #[arg(long, value_name = "N", value_parser = parse_invocations, allow_negative_numbers = true)]
    pub(super) gpu_invocations: Option<usize>,
    /// Nodes batched-astar expands per round.
    #[arg(long, value_name = "B", default_value_t = DEFAULT_BATCH_SIZE, value_parser = parse_batch, allow_negative_numbers = true)]
    pub(super) batch_size: usize,
    /// Board size RxC for bench-style lines of non-square boards, e.g. 3x4 (a board that gives
    /// its own size must agree with it).
    #[arg(long, value_name = "RxC", value_parser = parse_size)]
    pub(super) size: Option<(usize, usize)>,
    /// Output format: text, json (one object a line), csv (bench: one row an instance with a
    /// header row; not solve).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(super) format: Format,
    /// IDA*'s move pruning: fsm (an automaton of duplicate move sequences, Taylor & Korf
    /// 1993: fewer nodes, same optimal length) or undo (only the move undoing the last one).
    #[arg(long, default_value = "fsm", value_parser = Pruning::from_str)]
    pub(super) pruning: Pruning,
    #[command(flatten)]
    pub(super) counting: CountingOpts,
    /// Threads for one IDA* search (set by `solve --jobs`; bench runs instances in parallel).
    #[arg(skip = 1usize)]
    pub(super) threads: usize,
}

/// Options that change the node counts but never the answer's length: IDA*'s move order and
/// how pattern databases are looked up (shared by `solve`, `bench` and `compare`, so that
/// published counts can be reproduced).
#[derive(Args, Debug, Clone, Default)]
pub(super) struct CountingOpts {
    /// The order in which IDA* tries a node's moves: nearer-first (the moves that bring their
    /// tile nearer its goal first, on boards of up to 16 cells), korf (Korf 1985's order, the
    /// blank up, left, right, down: with --pruning undo and one thread it reproduces his node
    /// counts), or the four blank moves in order (e.g. ULRD). Changes only the last
    /// iteration's count; gpu-idastar's device keeps its own order.
    #[arg(long, value_name = "ORDER", default_value = "nearer-first", value_parser = MoveOrder::from_str)]
    pub(super) move_order: MoveOrder,
    /// Pattern databases: also look the tables up on the board's reflection about the main
    /// diagonal (square boards) and take the larger sum.
    #[arg(long, value_name = "on|off", default_value = "on", action = clap::ArgAction::Set, value_parser = on_off())]
    pub(super) pdb_reflect: bool,
    /// Pattern databases: read the blank-region flags of the tables (add 2 where the blank's
    /// region needs it); off, each entry is its least value, as in Korf & Felner 2002. Not
    /// taken by the GPU programs.
    #[arg(long, value_name = "on|off", default_value = "on", action = clap::ArgAction::Set, value_parser = on_off())]
    pub(super) pdb_regions: bool,
}

/// Parses a switch, `on` or `off`, as `true` or `false`.
fn on_off() -> impl clap::builder::TypedValueParser<Value = bool> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(["on", "off"]).map(|s| s == "on")
}

impl CountingOpts {
    /// The pattern-database lookup these options ask for.
    pub(super) fn pdb_lookup(&self) -> PdbLookup {
        PdbLookup {
            reflect: self.pdb_reflect,
            regions: self.pdb_regions,
        }
    }
}

#[derive(Args, Debug)]
pub(super) struct SolveArgs {
    /// Board file (Princeton, rectangular, one-line, rows alone, or a one-line bench file), or
    /// - for stdin.
    #[arg(default_value = "-")]
    pub(super) file: std::path::PathBuf,
    #[command(flatten)]
    pub(super) opts: SearchOpts,
    /// Move letters: blank (where the blank goes) or tile (where the tile goes).
    #[arg(long, value_enum, default_value_t = NotationArg::Blank)]
    pub(super) notation: NotationArg,
    /// Also list the solution as numbered steps to follow at a puzzle ("1. slide 6 left"),
    /// before the boards (text output).
    #[arg(long)]
    pub(super) steps: bool,
    /// Explain the solvability verdict on stderr before solving: what an inversion is, why a
    /// move keeps the parity that decides, the board's numbers against the goal's (and the
    /// other standard goal's), and the board's inverted pairs.
    #[arg(long)]
    pub(super) why: bool,
    /// Threads for IDA* (default: all cores); the answer is optimal with any number. Small
    /// trees run on one thread (the first iteration on boards of up to 9 cells, and any after
    /// one of under 10,000 expansions), so their counts equal the one-thread search's.
    // A negative number is a bad value of --jobs, not an unknown argument.
    #[arg(long, short, allow_negative_numbers = true, value_parser = parse_threads)]
    pub(super) jobs: Option<usize>,
    /// Find every optimal solution: their number, and the first --max-solutions of them in
    /// move order (U < D < L < R), each replayed. Transpositions count as distinct solutions.
    /// With idastar (the last iteration is searched to the end), astar or bfs.
    #[arg(long)]
    pub(super) all: bool,
    /// How many solutions --all lists (it counts them all).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_SOLUTIONS, allow_negative_numbers = true, requires = "all")]
    pub(super) max_solutions: usize,
}

#[derive(Args, Debug)]
pub(super) struct BenchArgs {
    /// Bench file: lines `id t0 t1 … tN-1 [optimal]`, `#` comments. With --merge: the JSON
    /// lines of earlier runs (`--format json`), one or more files.
    #[arg(required = true, value_name = "FILE")]
    pub(super) files: Vec<std::path::PathBuf>,
    /// Run only the instances with these ids, in the file's order: ids and inclusive ranges
    /// separated by commas, e.g. 1,5,9-12. An id is the line's first column; a line without
    /// one (a bare board) has its line number in the file as id, as the output's id column
    /// shows. Every id named must be in the file.
    #[arg(long, value_name = "LIST")]
    pub(super) ids: Option<String>,
    /// Run only the K-th of N parts of the (selected) instances, 1 ≤ K ≤ N, for a cluster's
    /// job array: the parts interleave (the i-th instance, from 0, goes to part i mod N + 1),
    /// so each gets easy and hard instances alike; the N parts together are all of them. Their
    /// JSON lines concatenated are one result: see --merge.
    #[arg(long, value_name = "K/N")]
    pub(super) shard: Option<String>,
    /// Published node counts to compare with (e.g. assets/bench/korf-felner2002.txt, Korf &
    /// Felner 2002's expanded nodes): each instance's count and our share of it (ours ÷
    /// theirs, nodes expanded or generated as the file's `# Format:` line says), and the total
    /// share in the summary.
    #[arg(long, value_name = "FILE")]
    pub(super) published: Option<std::path::PathBuf>,
    /// Read the FILEs as the JSON lines of earlier bench runs (e.g. the shards of --shard,
    /// concatenated or not) and print them as one run: the table in the bench file's order
    /// and the summary of them all. Refuses a line that is not a bench JSON line, an id whose
    /// results differ between lines, and runs whose goal, search, heuristic or counting
    /// options differ. Searches nothing.
    #[arg(long, conflicts_with_all = ["ids", "shard"])]
    pub(super) merge: bool,
    #[command(flatten)]
    pub(super) opts: SearchOpts,
    /// Instances solved in parallel (default: all cores; with gpu-idastar, boards sharing
    /// the device: 4 on a GPU, 1 on a software adapter, at most 16).
    // A negative number is a bad value of --jobs, not an unknown argument.
    #[arg(long, short, allow_negative_numbers = true, value_parser = parse_threads)]
    pub(super) jobs: Option<usize>,
    /// Threads for each instance's IDA* (default 1; with gpu-idastar, all cores, for the
    /// host's top of each iteration's tree). `--jobs 1 --threads 2` solves one instance at a
    /// time on two cores: a set whose largest instance dominates (the 24-puzzles) then keeps
    /// both cores busy to the end.
    #[arg(long, allow_negative_numbers = true, value_parser = parse_threads)]
    pub(super) threads: Option<usize>,
}

#[derive(Args, Debug)]
pub(super) struct GenerateArgs {
    /// Board size RxC, e.g. 4x4 or 3x5.
    #[arg(long, value_name = "RxC", value_parser = parse_size)]
    pub(super) size: (usize, usize),
    /// Number of boards.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    pub(super) count: usize,
    /// Seed: the same seed gives the same boards. Random when absent.
    #[arg(long, allow_negative_numbers = true)]
    pub(super) seed: Option<u64>,
    /// Instead of uniform boards, make K random moves from the goal (never undoing the last);
    /// at most 10000000 (a longer walk is no different from a uniform board: omit --walk).
    #[arg(long, value_name = "K", value_parser = parse_walk, allow_negative_numbers = true)]
    pub(super) walk: Option<usize>,
    /// Goal the boards must be able to reach (blank-last, blank-first or a file).
    #[arg(long, default_value = "blank-last")]
    pub(super) goal: String,
    /// Output format: text (a board a line; a bench file with --optimal), json (an object a
    /// board: id, board, goal, seed, walk, optimal, version), csv (the same fields, with a
    /// header row).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(super) format: Format,
    /// Boards exactly D moves from the goal (each solved optimally), printed as a bench file:
    /// `id tiles… D` under a `# goal:` line. Drawn uniformly among them up to 10 cells and for
    /// a D small enough to enumerate (up to 20 on 4×4), else found by random walks whose ends
    /// are solved (stopping when 20000 in a row bring no new board).
    #[arg(long, value_name = "D", conflicts_with = "walk")]
    pub(super) optimal: Option<u32>,
    /// With --optimal: stop after this many seconds (the boards found are printed; exit code
    /// 3).
    #[arg(
        long,
        value_name = "SECONDS",
        requires = "optimal",
        allow_negative_numbers = true
    )]
    pub(super) time_limit: Option<f64>,
    /// With --optimal: the pattern-database cache folder (default: $NPUZZLE_CACHE_DIR, else the
    /// user's cache folder).
    #[arg(long, value_name = "DIR", requires = "optimal", value_parser = parse_cache_dir)]
    pub(super) cache_dir: Option<std::path::PathBuf>,
}

/// `--format`: how a command prints its results.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Format {
    /// For people: tables and sentences.
    Text,
    /// One compact JSON object a line (JSON Lines where there are several results).
    Json,
    /// A header row, then one row a result (`bench`, `compare` and `generate` only).
    Csv,
}

impl Format {
    /// The usage error (exit 2) of `--format csv` given to `command`, which does not print CSV.
    pub(super) fn csv_refused(command: &str) -> CliError {
        CliError::Usage(format!(
            "{command} prints text or json; --format csv is for bench, compare and generate"
        ))
    }
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum NotationArg {
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
pub(super) const JOBS_PER_CORE: usize = 4;

/// The threads for `--jobs`: all cores when absent, at least 1, and at most
/// [`JOBS_PER_CORE`] times the cores (more only adds switching, and tens of thousands of
/// threads could not all be started), saying so on stderr when it caps.
pub(super) fn jobs(asked: Option<usize>) -> usize {
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
pub(super) fn parse_walk(s: &str) -> Result<usize, ArgError> {
    use crate::puzzle::random::MAX_WALK;
    match s.parse::<u128>() {
        Ok(k) if k <= MAX_WALK as u128 => Ok(k as usize),
        Ok(_) => Err(ArgError::WalkTooLong(s.to_string())),
        Err(_) => Err(ArgError::NotMoves(s.to_string())),
    }
}

/// A memory size: bytes, or a number with a unit (`512MiB`, `4GiB`, `2.5GB`), below 16 EiB.
pub(super) fn parse_memory(s: &str) -> Result<bytesize::ByteSize, ArgError> {
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
pub(super) fn parse_batch(s: &str) -> Result<usize, ArgError> {
    at_least_one(s, "a batch size")
}

/// A number of threads (`--jobs`, `--threads`): a whole number of at least 1.
pub(super) fn parse_threads(s: &str) -> Result<usize, ArgError> {
    at_least_one(s, "a number of threads")
}

/// `--gpu-invocations`: at least 1 (the device says what it takes at most).
pub(super) fn parse_invocations(s: &str) -> Result<usize, ArgError> {
    at_least_one(s, "a number of invocations")
}

/// `s` as a whole number of at least 1, else an error naming `what` was expected.
pub(super) fn at_least_one(s: &str, what: &'static str) -> Result<usize, ArgError> {
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
pub(super) fn check_cache_env(cli: &Cli) -> Result<(), CliError> {
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

/// `--time-limit SECONDS`, checked for every command that takes it (`solve`, `bench`,
/// `compare`, `generate`): a positive, finite number of seconds that a deadline from now can
/// hold. Checked where each command reads its input rather than by clap, so that `solve` and
/// `bench` report a bad limit in their own failure objects, after the input's errors.
///
/// # Errors
/// [`CliError::Usage`] (exit 2) naming the limit.
pub(super) fn time_limit(secs: f64) -> Result<std::time::Duration, CliError> {
    if !(secs.is_finite() && secs > 0.0) {
        return Err(CliError::Usage(format!(
            "--time-limit must be a positive number of seconds, got {secs}"
        )));
    }
    std::time::Duration::try_from_secs_f64(secs)
        .ok()
        .filter(|d| std::time::Instant::now().checked_add(*d).is_some())
        .ok_or_else(|| CliError::Usage(format!("--time-limit {secs:.3e} seconds is too large")))
}

impl SearchOpts {
    /// `--algorithm` with `--weight` applied (weighted A*'s w).
    ///
    /// # Errors
    /// [`CliError::Usage`] for a `--weight` with another algorithm.
    pub(super) fn weighted(&self) -> Result<Algorithm, CliError> {
        with_weight(self.algorithm, self.weight)
    }

    pub(super) fn limits(&self) -> Result<Limits, CliError> {
        let time_limit = self.time_limit.map(time_limit).transpose()?;
        Ok(Limits {
            time_limit,
            max_memory: self.max_memory.as_u64(),
            threads: self.threads.max(1),
            pruning: self.pruning,
            move_order: self.counting.move_order,
            cache_dir: crate::heuristic::pdb::cache::PdbCache::folder(self.cache_dir.clone()),
            ..Limits::default()
        })
    }
}

/// `algorithm` with `weight` applied: weighted A*'s w (its default 2 without one).
///
/// # Errors
/// [`CliError::Usage`] for a weight given with another algorithm.
pub(super) fn with_weight(
    algorithm: Algorithm,
    weight: Option<Weight>,
) -> Result<Algorithm, CliError> {
    match (algorithm, weight) {
        (Algorithm::WeightedAStar(_), Some(w)) => Ok(Algorithm::WeightedAStar(w)),
        (a, None) => Ok(a),
        (a, Some(_)) => Err(CliError::Usage(format!(
            "--weight goes with --algorithm weighted-astar, not {a}"
        ))),
    }
}

/// [`CliError::Usage`] where a command that reports optimal lengths (`what`: `bench`, `--all`)
/// is asked for a search that is not optimal: greedy, weighted A* above 1, or the heuristic
/// that overestimates.
pub(super) fn refuse_not_optimal(
    what: &str,
    algorithm: Algorithm,
    heuristic: &crate::heuristic::HeuristicChoice,
) -> Result<(), CliError> {
    if !algorithm.is_optimal() {
        return Err(CliError::Usage(format!(
            "{what} needs an optimal search; {algorithm} is not optimal (solve and compare show its answer and the gap)"
        )));
    }
    if let crate::heuristic::HeuristicChoice::Kind(k) = heuristic
        && !k.is_admissible()
    {
        return Err(CliError::Usage(format!(
            "{what} needs an admissible heuristic; {k} overestimates (solve and compare show its answer and the gap)"
        )));
    }
    Ok(())
}
