//! Optimal searches: breadth-first search, A*, IDA* (parallel over threads) and batched A*
//! (successors evaluated in batches by a [`BatchEvaluator`](crate::eval::BatchEvaluator));
//! and, to contrast with them, greedy best-first search and weighted A* ([`weight`]), which
//! are not optimal.
//!
//! Every search is cancellable (a shared flag), obeys a time limit and (for the searches that
//! store nodes) a memory cap, reports progress through a callback ([`Progress`] snapshots with
//! a (g, h) histogram of the frontier), and returns the optimal move sequence with its
//! statistics. [`run`] (with an [`Engine`]; [`solve`] is its CPU shorthand) is the entry point: it checks
//! solvability first, runs the chosen search and replays the solution on the start board before
//! returning it. The searches do no I/O.

pub mod all;
pub mod astar;
pub mod at_depth;
pub mod batched_astar;
mod best_first;
pub mod bfs;
pub mod forecast;
pub mod gpu_idastar;
pub mod idastar;
mod key;
pub mod measure;
pub mod move_fsm;
mod open_list;
mod progress;
pub mod rank;
pub mod stepper;
pub mod weight;

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

pub(crate) use progress::CellSampler;
pub use progress::{Followed, Frontier, GhHistogram, IdaIteration, Progress, ProgressFn, Rounds};

use crate::heuristic::HeuristicSpec;
use crate::puzzle::{Board, Goal, Move, Solvability};

/// The largest default memory cap for searches that store nodes: 4 GiB.
pub const DEFAULT_MAX_MEMORY: u64 = 4 << 30;

/// The smallest default memory cap: 64 MiB.
const MIN_DEFAULT_MEMORY: u64 = 64 << 20;

/// The default memory cap for searches that store nodes (BFS, A*) and for building pattern
/// databases, in bytes: half the memory this process can still have
/// ([`crate::memory::available`]: free RAM, the cgroup's limit, `ulimit -v`), at least 64 MiB
/// and at most [`DEFAULT_MAX_MEMORY`]. Read once per process.
pub fn default_max_memory() -> u64 {
    static CAP: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *CAP.get_or_init(|| {
        crate::memory::available()
            .map_or(DEFAULT_MAX_MEMORY, |a| a / 2)
            .clamp(MIN_DEFAULT_MEMORY, DEFAULT_MAX_MEMORY)
    })
}

pub use all::{AllSolutions, DEFAULT_MAX_SOLUTIONS};
pub use batched_astar::DEFAULT_BATCH_SIZE;
pub use bfs::{BfsGoalTest, UnknownGoalTest};
pub use idastar::{MoveOrder, UnknownMoveOrder};
pub use move_fsm::{FsmNote, MoveFsm, Pruning};
pub use open_list::{TieBreak, UnknownTieBreak};
pub use weight::{BadWeight, Weight, gap_text, search_label, tenths_text};

/// The search algorithms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Pick by board size: A* up to 3×3 (9 cells), IDA* above.
    Auto,
    /// Breadth-first search (small boards; bounded by the memory cap).
    Bfs,
    /// A* with a closed set (Hart, Nilsson & Raphael 1968).
    AStar,
    /// Iterative-deepening A* (Korf 1985).
    IdaStar,
    /// A* expanding a batch of nodes per round, their successors evaluated in one
    /// [`BatchEvaluator`](crate::eval::BatchEvaluator) call (GPU or CPU).
    BatchedAStar,
    /// IDA* with its subtrees searched on the GPU in resumable rounds (see [`gpu_idastar`]);
    /// without a device ([`solve`]) the CPU IDA* searches the same tree.
    GpuIdaStar,
    /// Greedy best-first search: A*'s core with f = h (see [`weight`]); not optimal.
    Greedy,
    /// Weighted A*: f = g + w·h (Pohl 1970; see [`weight`]); at most w times the optimum with
    /// an admissible heuristic.
    WeightedAStar(Weight),
}

impl Algorithm {
    /// Name as used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Auto => "auto",
            Algorithm::Bfs => "bfs",
            Algorithm::AStar => "astar",
            Algorithm::IdaStar => "idastar",
            Algorithm::BatchedAStar => "batched-astar",
            Algorithm::GpuIdaStar => "gpu-idastar",
            Algorithm::Greedy => "greedy",
            Algorithm::WeightedAStar(_) => "weighted-astar",
        }
    }

    /// Whether it can count all optimal solutions ([`Limits::all_solutions`]): BFS, A* and
    /// IDA*.
    pub fn counts_all_solutions(self) -> bool {
        matches!(self, Algorithm::Bfs | Algorithm::AStar | Algorithm::IdaStar)
    }

    /// Resolves `Auto` for an answer on a board of `cells` cells (the command line's rule):
    /// A* up to 3×3, IDA* above. Other values are returned unchanged.
    pub fn resolve(self, cells: usize) -> Algorithm {
        match self {
            Algorithm::Auto if cells <= 9 => Algorithm::AStar,
            Algorithm::Auto => Algorithm::IdaStar,
            a => a,
        }
    }

    /// Resolves `Auto` for a search to watch (the app's first choice, beside
    /// [`Algorithm::resolve`] so that the two rules live together): GPU IDA* on a hardware GPU
    /// (`hardware_gpu`) for boards of 4×4 (16 cells) and up, where the search itself runs
    /// there; else batched A*, the design's view of a search evaluating batches each round.
    /// Other values are returned unchanged.
    pub fn resolve_to_watch(self, cells: usize, hardware_gpu: bool) -> Algorithm {
        match self {
            Algorithm::Auto if hardware_gpu && cells >= 16 => Algorithm::GpuIdaStar,
            Algorithm::Auto => Algorithm::BatchedAStar,
            a => a,
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name [`Algorithm::from_str`] does not know.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown algorithm {0:?} (expected auto, bfs, astar, idastar, batched-astar, gpu-idastar, greedy or weighted-astar)"
)]
pub struct UnknownAlgorithm(pub String);

impl FromStr for Algorithm {
    type Err = UnknownAlgorithm;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().replace(['-', '_'], "").as_str() {
            "auto" => Ok(Algorithm::Auto),
            "bfs" => Ok(Algorithm::Bfs),
            "astar" | "a*" => Ok(Algorithm::AStar),
            "idastar" | "ida*" | "ida" => Ok(Algorithm::IdaStar),
            "batchedastar" | "batched" => Ok(Algorithm::BatchedAStar),
            "gpuidastar" | "gpuida*" | "gpuida" => Ok(Algorithm::GpuIdaStar),
            "greedy" | "greedybestfirst" | "gbfs" => Ok(Algorithm::Greedy),
            "weightedastar" | "weighteda*" | "wastar" => {
                Ok(Algorithm::WeightedAStar(Weight::DEFAULT))
            }
            _ => Err(UnknownAlgorithm(s.to_string())),
        }
    }
}

/// Limits a search must respect.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Wall-clock limit, measured from the start of the search.
    pub time_limit: Option<Duration>,
    /// Cap on the memory the search's own tables may take, in bytes (estimated from their
    /// capacities; checked before each table grows).
    pub max_memory: u64,
    /// Set to `true` from another thread to stop the search.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Collect the per-(g, h) histogram for progress reports (costs a little speed in IDA*).
    pub histogram: bool,
    /// Minimum interval between progress reports.
    pub progress_interval: Duration,
    /// Threads for one IDA* search (1 = sequential; parallel iterations keep optimality, and
    /// report progress from the threads' counts, without the histogram).
    pub threads: usize,
    /// IDA*'s move pruning: the duplicate-sequence automaton (default) or "never undo".
    /// The search for all optimal solutions always uses [`Pruning::Undo`].
    pub pruning: Pruning,
    /// `Some(n)`: find every optimal solution, count them and keep the first `n` (see
    /// [`all`]); BFS, A* and IDA* (on the CPU) honour it, batched A* and GPU IDA* ignore it.
    pub all_solutions: Option<usize>,
    /// The order in which IDA* (on the CPU, and GPU IDA*'s host part) tries a node's moves;
    /// the search for all solutions keeps [`Move::ALL`] order. Counts are those of one thread:
    /// with more, the last iteration stops where the first thread meets a goal.
    pub move_order: MoveOrder,
    /// The pattern-database cache folder, where IDA*'s pruning automata of more than 10 moves
    /// are kept too (built once per board shape: 0.56 s for 4×4, 2.6 s for 5×5; then read in
    /// milliseconds). `None`: built in memory, once per process. The build comes before the
    /// search's clock and is not stopped by the time limit or the cancel flag.
    pub cache_dir: Option<PathBuf>,
    /// Which open entry of equal f A* and batched A* expand first (default: highest g). The
    /// stepped searches ([`stepper`]) keep the default.
    pub tie_break: TieBreak,
    /// When breadth-first search tests a board for the goal (default: when it is generated).
    /// The stepped BFS keeps the default.
    pub bfs_goal_test: BfsGoalTest,
}

impl Limits {
    /// The pruning IDA* uses (on the CPU and on GPU IDA*'s device): [`Limits::pruning`],
    /// except "never undo" when all optimal solutions are asked for (the automaton would drop
    /// transpositions, which count).
    pub fn ida_pruning(&self) -> Pruning {
        if self.all_solutions.is_some() {
            Pruning::Undo
        } else {
            self.pruning
        }
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            time_limit: None,
            max_memory: default_max_memory(),
            cancel: None,
            histogram: false,
            progress_interval: Duration::from_millis(100),
            threads: 1,
            pruning: Pruning::default(),
            all_solutions: None,
            move_order: MoveOrder::default(),
            cache_dir: None,
            tie_break: TieBreak::default(),
            bfs_goal_test: BfsGoalTest::default(),
        }
    }
}

/// Why a search stopped without an answer.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SearchError {
    /// The cancel flag was set.
    #[error("search cancelled")]
    Cancelled,
    /// The time limit passed.
    #[error("time limit of {0} s reached")]
    TimeLimit(f64),
    /// The memory cap would have been exceeded. (Its message says what the cap is and that
    /// IDA* needs almost no memory; the CLI's solve and bench and the app's search add how to
    /// raise the cap or change the algorithm there.)
    #[error(
        "{} after {} expansion{}; IDA* needs almost no memory",
        if *refused {
            format!(
                "memory ran out below the memory cap of {} (the system refused more)",
                bytesize::ByteSize(*cap).display().iec()
            )
        } else {
            format!("memory cap of {} reached", bytesize::ByteSize(*cap).display().iec())
        },
        crate::text::group_digits(*expanded),
        if *expanded == 1 { "" } else { "s" }
    )]
    MemoryLimit {
        /// The cap, in bytes.
        cap: u64,
        /// Nodes expanded before stopping.
        expanded: u64,
        /// Whether the system refused an allocation before the cap was reached (a
        /// `ulimit -v`, a cgroup's limit, strict overcommit): the same clean stop.
        refused: bool,
    },
    /// Start and goal have different sizes.
    #[error("start is {0}×{1} but the goal is {2}×{3}")]
    SizeMismatch(usize, usize, usize, usize),
    /// The batch evaluator or GPU IDA*'s device failed (a device error, an answer that breaks
    /// the protocol).
    #[error("batch evaluator failed: {0}")]
    Evaluator(#[source] crate::eval::EvalError),
    /// The heuristic does not take the board's shape (walking distance's tables).
    #[error("heuristic unavailable: {0}")]
    Heuristic(#[source] crate::heuristic::WalkingDistanceError),
    /// A search asked to do what it cannot (a bug in the caller): what.
    #[error("internal error: {0}")]
    Misuse(&'static str),
    /// The search claimed a solution that does not replay to the goal (a bug).
    #[error("internal error: solution failed to replay: {0}")]
    BadSolution(String),
    /// The search went through every board it could reach without reaching the goal. The
    /// parity check has said the goal is reachable before any search starts, so this is a bug.
    #[error(
        "internal error: {0} searched every reachable board without reaching the goal, which the parity check says is reachable"
    )]
    Exhausted(Algorithm),
    /// The thread running the search panicked (a bug); the panic's message.
    #[error("internal error: the search thread panicked: {0}")]
    WorkerPanicked(String),
}

impl SearchError {
    /// Whether this is a limit (time, memory, cancel) rather than a fault (bad sizes, the
    /// evaluator or heuristic failing, or one of the internal errors).
    pub fn is_limit(&self) -> bool {
        match self {
            SearchError::Cancelled
            | SearchError::TimeLimit(_)
            | SearchError::MemoryLimit { .. } => true,
            SearchError::SizeMismatch(..)
            | SearchError::Evaluator(_)
            | SearchError::Heuristic(_)
            | SearchError::Misuse(_)
            | SearchError::BadSolution(_)
            | SearchError::Exhausted(_)
            | SearchError::WorkerPanicked(_) => false,
        }
    }
}

/// One IDA* iteration: its threshold and the work it did.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Iteration {
    /// f bound of the iteration, in moves.
    pub threshold: u32,
    /// Nodes expanded in the iteration (`nodes_expanded` in JSON, as in every output).
    #[serde(rename = "nodes_expanded")]
    pub expanded: u64,
    /// Nodes generated in the iteration (`nodes_generated` in JSON).
    #[serde(rename = "nodes_generated")]
    pub generated: u64,
}

/// Statistics of a finished search.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct SearchStats {
    /// Nodes whose successors were generated.
    pub expanded: u64,
    /// Successor nodes generated (after move pruning: "never undo", or IDA*'s automaton).
    pub generated: u64,
    /// Largest open-list (frontier) size; 0 for IDA*.
    pub peak_open: u64,
    /// Closed-set size at the end; 0 for IDA*.
    pub closed: u64,
    /// IDA* iterations, in order; empty for other searches.
    pub iterations: Vec<Iteration>,
    /// Estimated peak memory of the search's tables, in bytes.
    pub peak_memory: u64,
    /// Wall-clock time of the search, in seconds.
    pub seconds: f64,
    /// h of the start board, in moves.
    pub initial_h: u32,
    /// Batched A*: rounds (batches).
    pub rounds: u64,
    /// Batched A*: boards evaluated by the batch evaluator.
    pub evaluated: u64,
    /// Batched A*: seconds spent in the batch evaluator.
    pub eval_seconds: f64,
}

/// An optimal solution.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// Moves of the blank, first move first.
    pub moves: Vec<Move>,
    /// How the search got there.
    pub stats: SearchStats,
    /// Every optimal solution, when [`Limits::all_solutions`] asked for them (`moves` is then
    /// the first of them).
    pub all: Option<AllSolutions>,
}

/// The answer to a [`Problem`].
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// An optimal solution.
    Solved(Solution),
    /// The goal cannot be reached; the parity numbers say why.
    Unsolvable(Solvability),
}

/// A start board and the goal to reach.
#[derive(Clone, Debug)]
pub struct Problem {
    /// The board to solve.
    pub start: Board,
    /// The goal (same size as `start`).
    pub goal: Goal,
}

/// What runs a resolved search: the algorithm's own search on the CPU, batched A* with an
/// evaluator, or GPU IDA* with a device. Made by the caller's plan (the CLI's commands, the
/// app's worker), run by [`run`].
pub enum Engine<'e> {
    /// Breadth-first search on the CPU: it needs no heuristic.
    Bfs,
    /// `algorithm` on the CPU with `heuristic` (ignored by BFS): `Auto` resolved by size;
    /// BFS, A*, IDA* on [`Limits::threads`] threads; batched A* with a one-thread CPU
    /// evaluator; GPU IDA* as IDA* on the same tree.
    Cpu {
        /// The search.
        algorithm: Algorithm,
        /// Its heuristic.
        heuristic: HeuristicSpec,
    },
    /// Batched A* (see [`batched_astar`]) with `batch` (its evaluator holds the heuristic);
    /// `from`: a stepped A* to go on from (the app's batched A* in step mode expands one node
    /// per round, then, on Run, full batches from where the steps left; built for the same
    /// problem and not at the goal).
    Batched {
        /// The evaluator and the nodes a round.
        batch: Batch<'e>,
        /// The stepped search to go on from, if any (boxed: it holds a whole search).
        from: Option<Box<stepper::Stepper>>,
    },
    /// GPU IDA* (see [`gpu_idastar`]) with `heuristic`: the subtrees below each iteration's
    /// split depth searched by `device`, built for the same heuristic and goal.
    Device {
        /// The device.
        device: &'e mut dyn crate::eval::ida::IdaDevice,
        /// The heuristic the host searches the top of the tree with.
        heuristic: HeuristicSpec,
    },
}

impl<'e> Engine<'e> {
    /// [`Engine::Cpu`] of `algorithm` with `heuristic`.
    pub fn cpu(algorithm: Algorithm, heuristic: impl Into<HeuristicSpec>) -> Engine<'e> {
        Engine::Cpu {
            algorithm,
            heuristic: heuristic.into(),
        }
    }
}

/// Solves `problem` optimally on `engine`: the one way into the searches.
///
/// Checks solvability first (unsolvable boards are answered without searching, and never
/// reach an evaluator or device) and replays the solution on the start board before
/// returning it.
///
/// # Errors
/// [`SearchError`] when a limit is reached or the sizes differ; [`SearchError::Evaluator`]
/// when an evaluator or device fails; [`SearchError::Heuristic`] when the heuristic does not
/// take the board or a stepper to go on from is not an unsolved A*; (bugs) when the solution
/// does not replay or the search runs out of boards.
pub fn run(
    problem: &Problem,
    engine: Engine<'_>,
    limits: &Limits,
    progress: &mut ProgressFn<'_>,
) -> Result<Outcome, SearchError> {
    match engine {
        Engine::Bfs => checked(problem, limits, |ctl| bfs::search(problem, ctl, progress)),
        Engine::Cpu {
            algorithm,
            heuristic,
        } => on_cpu(problem, algorithm, heuristic, limits, progress),
        Engine::Batched { batch, from } => checked(problem, limits, |ctl| match from {
            Some(stepper) => batched_astar::resume(
                problem,
                *stepper,
                batch.evaluator,
                batch.size,
                ctl,
                progress,
            ),
            None => batched_astar::search(problem, batch.evaluator, batch.size, ctl, progress),
        }),
        Engine::Device { device, heuristic } => {
            takes_shape(&heuristic, problem)?;
            load_pruning(problem, limits);
            let outcome = checked(problem, limits, |ctl| {
                let mut rounds = gpu_idastar::Rounds::new(&mut *device);
                idastar::search_on(problem, &heuristic, Some(&mut rounds), ctl, progress)
            });
            // What is left of the search on the device goes (a shared device's lane).
            device.finish();
            outcome
        }
    }
}

/// [`run`] on [`Engine::Cpu`]: `problem` solved with `algorithm` (`Auto` resolved by size)
/// and `heuristic` on the CPU, the shorthand the tests and examples use.
///
/// # Errors
/// As [`run`].
///
/// # Example
/// ```
/// use npuzzle::heuristic::HeuristicKind;
/// use npuzzle::puzzle::{Board, GoalSpec};
/// use npuzzle::search::{solve, Algorithm, Limits, Outcome, Problem};
///
/// let start: Board = "8 6 7/2 5 4/3 0 1".parse()?;
/// let goal = GoalSpec::BlankLast.resolve(3, 3)?;
/// let problem = Problem { start, goal };
/// let outcome = solve(&problem, Algorithm::IdaStar, HeuristicKind::LinearConflict,
///                     &Limits::default(), &mut |_| {})?;
/// let Outcome::Solved(solution) = outcome else { panic!("solvable") };
/// assert_eq!(solution.moves.len(), 31);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn solve(
    problem: &Problem,
    algorithm: Algorithm,
    heuristic: impl Into<HeuristicSpec>,
    limits: &Limits,
    progress: &mut ProgressFn<'_>,
) -> Result<Outcome, SearchError> {
    run(problem, Engine::cpu(algorithm, heuristic), limits, progress)
}

/// [`Engine::Cpu`]'s search.
fn on_cpu(
    problem: &Problem,
    algorithm: Algorithm,
    heuristic: HeuristicSpec,
    limits: &Limits,
    progress: &mut ProgressFn<'_>,
) -> Result<Outcome, SearchError> {
    if algorithm != Algorithm::Bfs {
        takes_shape(&heuristic, problem)?;
    }
    if algorithm == Algorithm::BatchedAStar {
        let mut cpu = crate::eval::CpuEvaluator::with_heuristic(
            heuristic.build(&problem.goal),
            problem.start.len(),
            1,
        );
        let batch = Batch {
            evaluator: &mut cpu,
            size: batched_astar::DEFAULT_BATCH_SIZE,
        };
        let engine = Engine::Batched { batch, from: None };
        return run(problem, engine, limits, progress);
    }
    let algorithm = algorithm.resolve(problem.start.len());
    if matches!(algorithm, Algorithm::IdaStar | Algorithm::GpuIdaStar) {
        load_pruning(problem, limits);
    }
    checked(problem, limits, |ctl| match algorithm {
        Algorithm::Bfs => bfs::search(problem, ctl, progress),
        Algorithm::AStar | Algorithm::Greedy | Algorithm::WeightedAStar(_) => {
            astar::search(problem, algorithm, &heuristic, ctl, progress)
        }
        Algorithm::BatchedAStar => unreachable!("handled above"),
        Algorithm::IdaStar | Algorithm::Auto | Algorithm::GpuIdaStar => {
            idastar::search(problem, &heuristic, ctl, progress)
        }
    })
}

/// A batch evaluator and the number of nodes batched A* expands per round.
pub struct Batch<'e> {
    /// Evaluates the heuristic of each round's successors (its heuristic is the search's).
    pub evaluator: &'e mut dyn crate::eval::BatchEvaluator,
    /// Nodes expanded per round; [`batched_astar::DEFAULT_BATCH_SIZE`] is a good start.
    pub size: usize,
}

/// IDA*'s pruning automaton is a precomputed table, like a pattern database: read from the
/// cache (or built once) before the clock starts.
fn load_pruning(problem: &Problem, limits: &Limits) {
    let (rows, cols) = (problem.start.rows(), problem.start.cols());
    let depth = limits.ida_pruning().depth(rows * cols);
    let _ = MoveFsm::shared(rows, cols, depth, limits.cache_dir.as_deref());
}

/// [`SearchError::Heuristic`] when a named heuristic does not take the board's shape
/// ([`HeuristicKind::supports`](crate::heuristic::HeuristicKind::supports)).
fn takes_shape(heuristic: &HeuristicSpec, problem: &Problem) -> Result<(), SearchError> {
    if let HeuristicSpec::Kind(k) = heuristic {
        let b = problem.goal.board();
        k.supports(b.rows(), b.cols())
            .map_err(SearchError::Heuristic)?;
    }
    Ok(())
}

/// [`SearchError::SizeMismatch`] unless start and goal have the same shape.
pub(crate) fn same_size(problem: &Problem) -> Result<(), SearchError> {
    let (s, g) = (&problem.start, problem.goal.board());
    if s.rows() != g.rows() || s.cols() != g.cols() {
        return Err(SearchError::SizeMismatch(
            s.rows(),
            s.cols(),
            g.rows(),
            g.cols(),
        ));
    }
    Ok(())
}

/// Size check, solvability, the search itself, then replay.
fn checked(
    problem: &Problem,
    limits: &Limits,
    search: impl FnOnce(&mut Control<'_>) -> Result<Solution, SearchError>,
) -> Result<Outcome, SearchError> {
    same_size(problem)?;
    let s = &problem.start;
    let verdict = Solvability::of(s, &problem.goal);
    if !verdict.solvable {
        return Ok(Outcome::Unsolvable(verdict));
    }
    let mut ctl = Control::new(limits);
    let mut solution = search(&mut ctl)?;
    replay(&problem.start, problem.goal.board(), &solution.moves)?;
    if let Some(all) = &mut solution.all {
        for moves in &all.solutions {
            replay(&problem.start, problem.goal.board(), moves)?;
        }
        // The searches keep at least the first (the answer), even when no list is asked for.
        if let Some(first) = all.solutions.first() {
            solution.moves.clone_from(first);
        }
        all.solutions
            .truncate(limits.all_solutions.unwrap_or(usize::MAX));
    }
    Ok(Outcome::Solved(solution))
}

/// Replays `moves` on `start`; checks every move is legal and the result is `goal`.
///
/// # Errors
/// [`SearchError::BadSolution`] naming the first illegal move or the wrong final board.
pub fn replay(start: &Board, goal: &Board, moves: &[Move]) -> Result<(), SearchError> {
    let mut b = start.clone();
    for (i, &m) in moves.iter().enumerate() {
        if b.apply(m).is_none() {
            return Err(SearchError::BadSolution(format!(
                "move {} ({m}) leaves the board",
                i + 1
            )));
        }
    }
    if &b != goal {
        return Err(SearchError::BadSolution(format!(
            "ends on {b}, not the goal {goal}"
        )));
    }
    Ok(())
}

/// Shared limit checking for the searches.
pub(crate) struct Control<'a> {
    limits: &'a Limits,
    start: Instant,
    deadline: Option<Instant>,
    last_report: Instant,
}

impl<'a> Control<'a> {
    pub(crate) fn new(limits: &'a Limits) -> Self {
        let start = Instant::now();
        Control {
            limits,
            start,
            deadline: limits.time_limit.and_then(|d| start.checked_add(d)),
            last_report: start,
        }
    }

    pub(crate) fn limits(&self) -> &Limits {
        self.limits
    }

    pub(crate) fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    pub(crate) fn elapsed(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }

    /// Checks cancel and time; returns whether a progress report is due.
    pub(crate) fn check(&mut self) -> Result<bool, SearchError> {
        if let Some(c) = &self.limits.cancel
            && c.load(Ordering::Relaxed)
        {
            return Err(SearchError::Cancelled);
        }
        let now = Instant::now();
        if let Some(d) = self.deadline
            && now >= d
        {
            return Err(SearchError::TimeLimit(
                self.limits.time_limit.unwrap_or_default().as_secs_f64(),
            ));
        }
        if now.duration_since(self.last_report) >= self.limits.progress_interval {
            self.last_report = now;
            return Ok(true);
        }
        Ok(false)
    }

    pub(crate) fn memory_error(&self, expanded: u64) -> SearchError {
        SearchError::MemoryLimit {
            cap: self.limits.max_memory,
            expanded,
            refused: false,
        }
    }

    /// The error of an allocation the system refused below the cap, after `expanded`
    /// expansions.
    pub(crate) fn out_of_memory(&self, expanded: u64) -> SearchError {
        SearchError::MemoryLimit {
            cap: self.limits.max_memory,
            expanded,
            refused: true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Algorithm;

    /// `auto` has two rules, kept together: an answer (A* up to 3×3, IDA* above) and a
    /// search to watch (GPU IDA* on a hardware GPU from 4×4, else batched A*).
    #[test]
    fn auto_resolves_for_an_answer_and_for_watching() {
        assert_eq!(Algorithm::Auto.resolve(9), Algorithm::AStar);
        assert_eq!(Algorithm::Auto.resolve(16), Algorithm::IdaStar);
        assert_eq!(
            Algorithm::Auto.resolve_to_watch(16, true),
            Algorithm::GpuIdaStar
        );
        assert_eq!(
            Algorithm::Auto.resolve_to_watch(16, false),
            Algorithm::BatchedAStar
        );
        assert_eq!(
            Algorithm::Auto.resolve_to_watch(9, true),
            Algorithm::BatchedAStar
        );
        for a in [Algorithm::Bfs, Algorithm::IdaStar, Algorithm::GpuIdaStar] {
            assert_eq!(a.resolve(16), a);
            assert_eq!(a.resolve_to_watch(16, true), a);
        }
    }
}
