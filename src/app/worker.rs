//! The search worker: one thread per solve, streaming progress snapshots over a channel.
//! The UI thread never waits on it: it polls the channel each frame and can cancel, pause or
//! step at any moment through shared flags.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::eval::Evaluated;
use crate::eval::gpu::GpuContext;
use crate::heuristic::pdb::builder::BuildProgress;
use crate::heuristic::{HeuristicChoice, HeuristicSpec, ResolveError};
use crate::plan::{Hardware, Note, PlanError, Purpose, Request, RunError, Watch};
use crate::search::stepper::{Expansion, History, HistoryFigures, OpenEntry, Stepper, TreeNode};
use crate::search::{
    Algorithm, Iteration, Limits, Outcome, Problem, Progress, Pruning, SearchError,
};

mod stepped;

pub use stepped::{AStarHeld, BESIDE_LIMIT};

/// "No step asked for" in [`Worker::go_to`]'s slot.
const NONE: u64 = u64::MAX;

/// Entries of the open list an inspector snapshot carries.
pub const OPEN_SHOWN: usize = 16;

/// What a stepped search shows beyond its progress: the node just expanded with its
/// successors, the open list's first entries in pop order, the tree, IDA*'s iterations.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StepView {
    /// The last node expanded (`None` before the first step).
    pub last: Option<Expansion>,
    /// The first [`OPEN_SHOWN`] boards the search will expand next, in its order.
    pub open_top: Vec<OpenEntry>,
    /// Live entries of the open list (IDA*: the boards within the threshold left to search
    /// on the current path).
    pub open: usize,
    /// Boards closed (0 in IDA*).
    pub closed: usize,
    /// The expanded nodes (IDA*: of the current iteration), up to the tree limit.
    pub tree: Vec<TreeNode>,
    /// Whether `tree` holds every node expanded.
    pub tree_complete: bool,
    /// IDA*'s finished iterations.
    pub iterations: Vec<Iteration>,
    /// Which step this is of those taken, and what the history of the steps costs.
    pub history: HistoryFigures,
    /// IDA*: the nodes on its depth-first path ([`Stepper::path_nodes`]).
    pub path_nodes: usize,
    /// IDA*: the least f pruned so far in this iteration ([`Stepper::least_pruned`]).
    pub least_pruned: Option<u32>,
    /// IDA*: what A* holds on the same board after as many expansions.
    pub astar: Option<AStarHeld>,
    /// IDA*'s finished iterations' trees, one slot per iteration (`None`: not kept, see
    /// [`Stepper::iteration_trees`]); shared, not copied, from snapshot to snapshot.
    pub iteration_trees: Vec<Option<Arc<[TreeNode]>>>,
}

impl StepView {
    /// The moment `h` shows, `astar` beside it (IDA*).
    fn of(h: &History, astar: Option<AStarHeld>) -> StepView {
        let s = h.stepper();
        StepView {
            history: h.figures(),
            path_nodes: s.path_nodes(),
            least_pruned: s.least_pruned(),
            astar,
            last: s.last().cloned(),
            open_top: s.open_top(OPEN_SHOWN),
            open: s.open_len(),
            closed: s.closed_len(),
            tree: s.tree().to_vec(),
            tree_complete: s.tree_complete(),
            iterations: s.iterations().to_vec(),
            iteration_trees: s.iteration_trees().to_vec(),
        }
    }
}

/// A pattern-database build in progress.
#[derive(Clone, Debug, PartialEq)]
pub struct BuildStatus {
    /// The partition (`pdb663`, …).
    pub name: String,
    /// 0-based pattern being built, and how many there are.
    pub pattern: usize,
    /// Patterns in the partition.
    pub patterns: usize,
    /// Breadth-first search depth reached (moves).
    pub depth: u32,
    /// Entries filled, of `total`.
    pub filled: u64,
    /// Entries of this pattern's table.
    pub total: u64,
    /// The share of the whole partition built, 0..=1 (the patterns not yet started are
    /// counted as large as this one, so it errs low for a partition like 6-6-3).
    pub overall: f64,
    /// Seconds since the build started.
    pub seconds: f64,
}

impl BuildStatus {
    /// About how many seconds are left, from the rate so far (`None` too early to say).
    pub fn seconds_left(&self) -> Option<f64> {
        (self.overall > 0.02 && self.seconds > 0.5)
            .then(|| self.seconds * (1.0 - self.overall) / self.overall)
    }
}

/// What a solve needs.
pub struct Job {
    /// Start and goal.
    pub problem: Problem,
    /// Resolved algorithm (not `Auto`).
    pub algorithm: Algorithm,
    /// Heuristic.
    pub heuristic: HeuristicChoice,
    /// GPU to evaluate batches on (batched A*); `None` = the CPU.
    pub gpu: Option<Arc<GpuContext>>,
    /// Nodes expanded per round (batched A*).
    pub batch_size: usize,
    /// Memory cap, in bytes.
    pub max_memory: u64,
    /// Pattern-database cache folder (`None`: the default one).
    pub pdb_cache: Option<std::path::PathBuf>,
    /// Step mode: the search runs one node per step ([`Stepper`]) and sends a [`StepView`]
    /// after each request (BFS, A*, IDA*; batched A* steps a round at a time).
    pub stepped: bool,
    /// `Some(n)`: find all optimal solutions and keep the first `n` (BFS, A*, IDA*).
    pub all_solutions: Option<usize>,
    /// A stepped search's speed when it runs free: steps a second, 0 as fast as it goes.
    pub steps_per_second: u32,
}

/// A message from the worker.
pub enum WorkerMsg {
    /// A progress snapshot.
    Progress(Box<Progress>),
    /// A stepped search's inspector snapshot (sent with a `Progress` of the same moment).
    Inspect(Box<StepView>),
    /// A pattern database is being built before the search starts.
    Building(BuildStatus),
    /// A line for the user (e.g. a cache file found corrupt and rebuilt).
    Note(String),
    /// A stepped batched A* goes on in full batches (Run): it is no longer stepped.
    HandedOff,
    /// The heuristic the search uses, loaded (the board overlay reads pattern values from it).
    Heuristic(HeuristicSpec),
    /// The search ended; `evaluator` and `describe` say what evaluated h.
    Done {
        /// The answer, or why there is none.
        result: Result<Outcome, RunError>,
        /// Where h was evaluated.
        evaluator: Evaluated,
        /// The evaluator in words: `cpu (…)`, `cpu (inline)`, or the GPU adapter and backend.
        describe: String,
    },
    /// The search thread panicked; the message says where.
    Panicked(String),
}

/// A running solve.
pub struct Worker {
    cancel: Arc<AtomicBool>,
    paused: Arc<AtomicBool>,
    steps: Arc<AtomicU64>,
    held: Arc<AtomicBool>,
    layer: Arc<AtomicBool>,
    go_to: Arc<AtomicU64>,
    rate: Arc<AtomicU32>,
    /// Wakes the thread where it waits (paused, or until the next step is due).
    wake: Sender<()>,
    rx: Receiver<WorkerMsg>,
    handle: Option<JoinHandle<()>>,
}

impl Worker {
    /// Starts `job` on a new thread, paused if `paused`.
    pub fn start(job: Job, paused: bool) -> Worker {
        let cancel = Arc::new(AtomicBool::new(false));
        // A stepped search's first step is asked for with its start: it never runs ahead.
        let steps = Arc::new(AtomicU64::new(u64::from(job.stepped && paused)));
        let paused = Arc::new(AtomicBool::new(paused));
        let held = Arc::new(AtomicBool::new(false));
        let layer = Arc::new(AtomicBool::new(false));
        let go_to = Arc::new(AtomicU64::new(NONE));
        let rate = Arc::new(AtomicU32::new(job.steps_per_second));
        let (tx, rx) = channel();
        let (wake, woken) = channel();
        let (c, p, s) = (cancel.clone(), paused.clone(), steps.clone());
        let pause = Pause {
            paused: p,
            steps: s,
            held: held.clone(),
            layer: layer.clone(),
            go_to: go_to.clone(),
            rate: rate.clone(),
            woken,
        };
        let handle = std::thread::Builder::new()
            .name("npuzzle-search".into())
            .spawn(move || {
                let tx2 = tx.clone();
                let r = std::panic::catch_unwind(AssertUnwindSafe(|| run(job, &c, &pause, &tx2)));
                if let Err(e) = r {
                    let msg = e
                        .downcast_ref::<&str>()
                        .map(|s| s.to_string())
                        .or_else(|| e.downcast_ref::<String>().cloned())
                        .unwrap_or_else(|| "unknown panic".into());
                    let _ = tx.send(WorkerMsg::Panicked(msg));
                }
            })
            .ok();
        Worker {
            cancel,
            paused,
            steps,
            held,
            layer,
            go_to,
            rate,
            wake,
            rx,
            handle,
        }
    }

    /// Whether the search thread is holding at its pause point: paused, every progress
    /// snapshot it made already sent, and nothing more until a resume, step or cancel.
    pub fn is_held(&self) -> bool {
        self.held.load(Ordering::SeqCst)
    }

    /// Whether it holds with nothing asked of it: no step or layer waiting, and
    /// [`Worker::is_held`]. The requests are read first: the thread clears `held` before it
    /// takes one, so a request taken but not yet served never reads as idle.
    pub fn is_idle(&self) -> bool {
        self.steps.load(Ordering::SeqCst) == 0
            && !self.layer.load(Ordering::SeqCst)
            && self.go_to.load(Ordering::SeqCst) == NONE
            && self.is_held()
    }

    /// Next message, if any (never blocks).
    pub fn poll(&self) -> Option<WorkerMsg> {
        self.rx.try_recv().ok()
    }

    /// Pauses or resumes at the next progress report.
    pub fn set_paused(&self, paused: bool) {
        self.paused.store(paused, Ordering::Relaxed);
        self.ring();
    }

    /// A stepped search's speed when it runs free: `steps_per_second`, 0 as fast as it goes.
    pub fn set_rate(&self, steps_per_second: u32) {
        self.rate.store(steps_per_second, Ordering::Relaxed);
        self.ring();
    }

    /// A stepped search, paused or ended: shows step `n` of those taken (the last one if `n`
    /// is past it), replayed from its history; a later request replaces one not yet served.
    pub fn go_to(&self, n: u64) {
        self.go_to.store(n.min(NONE - 1), Ordering::SeqCst);
        self.ring();
    }

    /// Wakes the thread where it waits, to read the flags again.
    fn ring(&self) {
        let _ = self.wake.send(());
    }

    /// Whether it is paused.
    pub fn is_paused(&self) -> bool {
        self.paused.load(Ordering::Relaxed)
    }

    /// While paused: run `n` steps (a stepped search: `n` nodes; otherwise to the next
    /// progress report, one round of batched A*), then pause again.
    pub fn step(&self, n: u64) {
        self.steps.fetch_add(n, Ordering::SeqCst);
        self.ring();
    }

    /// While paused, a stepped search: run to the next f layer (IDA*: iteration), then pause;
    /// steps still asked for are dropped (the layer's end is where it stops).
    pub fn step_layer(&self) {
        self.steps.store(0, Ordering::SeqCst);
        self.layer.store(true, Ordering::SeqCst);
        self.ring();
    }

    /// Asks the search to stop; it ends at its next check (milliseconds).
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
        self.ring();
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.cancel();
        // The thread ends at its next check; do not wait on it from the UI thread.
        drop(self.handle.take());
    }
}

/// The flags the search thread pauses on.
struct Pause {
    paused: Arc<AtomicBool>,
    steps: Arc<AtomicU64>,
    /// Set while the thread holds at its pause point.
    held: Arc<AtomicBool>,
    /// A stepped search: run to the next f layer.
    layer: Arc<AtomicBool>,
    /// A stepped search: the step to show ([`NONE`]: none asked for).
    go_to: Arc<AtomicU64>,
    /// A stepped search's speed free: steps a second, 0 as fast as it goes.
    rate: Arc<AtomicU32>,
    /// Rung by the window at each request.
    woken: Receiver<()>,
}

impl Pause {
    /// Waits until the window asks something (or the window is gone), at most `most`; uses no
    /// CPU meanwhile.
    fn wait(&self, most: Duration) {
        if self.woken.recv_timeout(most).is_ok() {
            // One request may ring more than once: the flags are read again after this.
            while self.woken.try_recv().is_ok() {}
        }
    }
}

fn run(job: Job, cancel: &Arc<AtomicBool>, pause: &Pause, tx: &std::sync::mpsc::Sender<WorkerMsg>) {
    let limits = limits_for(&job, cancel);
    let mut on_progress = |p: &Progress| report(p, pause, cancel, tx);
    // One thread for a CPU batch evaluator: the window needs the other core.
    let hardware = Hardware::with(job.gpu.clone(), 1);
    let window = Window::new(&job, cancel, tx);
    let goal = &job.problem.goal;
    let chosen = crate::plan::choose(&job.request(), &job.problem.start, goal, &hardware, &window);
    let chosen = match chosen {
        Ok(c) if !cancel.load(Ordering::Relaxed) => c,
        r => {
            let result = match r {
                Err(PlanError::Heuristic(ResolveError::Cancelled)) | Ok(_) => {
                    Err(SearchError::Cancelled.into())
                }
                Err(e) => Err(e.into()),
            };
            return done(tx, result, Evaluated::Cpu, String::new());
        }
    };
    let _ = tx.send(WorkerMsg::Heuristic(chosen.heuristic.clone()));
    // Batched A* in step mode: one node a round (A*'s order, the stepper) until Run, then
    // batches from where the steps left.
    let mut handed: Option<Box<Stepper>> = None;
    if job.stepped {
        // It ends with its answer sent (and its history served until cancelled), or hands
        // its search over.
        let Some(s) = stepped::run_stepped(&job, &chosen.heuristic, cancel, pause, tx) else {
            return;
        };
        let _ = tx.send(WorkerMsg::HandedOff);
        handed = Some(s);
    }
    if job.algorithm == Algorithm::GpuIdaStar && job.gpu.is_none() {
        window.note(Note::Fallback(
            "no GPU in use; gpu-idastar runs IDA* on the CPU".into(),
        ));
    }
    // With the app's hardware the plan falls back to the CPU rather than fail.
    match chosen.open(&hardware, goal, job.batch_size, &window) {
        Ok(mut plan) => {
            let result = plan.run(&job.problem, handed, &limits, &mut on_progress);
            let result = result.map_err(RunError::Search);
            done(tx, result, plan.evaluated(), plan.describe());
        }
        Err(e) => done(tx, Err(RunError::Plan(e)), Evaluated::Cpu, String::new()),
    }
}

/// Sends the search's end: its `result`, where h was `evaluated` and the evaluator in words.
fn done(
    tx: &std::sync::mpsc::Sender<WorkerMsg>,
    result: Result<Outcome, RunError>,
    evaluator: Evaluated,
    describe: String,
) {
    let _ = tx.send(WorkerMsg::Done {
        result,
        evaluator,
        describe,
    });
}

impl Job {
    /// What the job asks the plan for: a search to watch.
    fn request(&self) -> Request {
        Request {
            algorithm: self.algorithm,
            heuristic: self.heuristic.clone(),
            purpose: Purpose::Watch,
            cache_dir: self.pdb_cache.clone(),
            max_memory: self.max_memory,
            batch_size: self.batch_size,
            pdb_lookup: Default::default(),
        }
    }
}

/// The limits of `job`'s search: no time limit, its memory cap, `cancel`, the histogram,
/// snapshots every 30 ms (every round for batched A*), one thread, "never undo" pruning.
fn limits_for(job: &Job, cancel: &Arc<AtomicBool>) -> Limits {
    Limits {
        time_limit: None,
        max_memory: job.max_memory,
        cancel: Some(cancel.clone()),
        histogram: true,
        progress_interval: if job.algorithm == Algorithm::BatchedAStar {
            Duration::ZERO
        } else {
            Duration::from_millis(30)
        },
        // One search thread: the window needs the other core.
        threads: 1,
        // "Never undo", as the stepper prunes: Step and Start expand the same nodes.
        pruning: Pruning::Undo,
        all_solutions: job.all_solutions,
        // The stepper's order (nearer first), so that Step and Start agree.
        move_order: Default::default(),
        // "Never undo" needs no automaton from the cache.
        cache_dir: None,
        // The stepper's rules (the default ones), so that Step and Start agree.
        ..Limits::default()
    }
}

/// Sends progress `p` to the window, then holds while the search is paused, unless a step
/// was asked for or the search is cancelled (`held` is cleared before a step is taken, see
/// `Worker::is_idle`). The search's last report never holds: its answer follows at once.
fn report(
    p: &Progress,
    pause: &Pause,
    cancel: &AtomicBool,
    tx: &std::sync::mpsc::Sender<WorkerMsg>,
) {
    let Pause {
        paused,
        steps,
        held,
        ..
    } = pause;

    let _ = tx.send(WorkerMsg::Progress(Box::new(p.clone())));
    // The search's last report never holds: its answer follows at once.
    if p.finished {
        return;
    }
    // Hold here while paused, unless a step was asked for or the search is cancelled.
    // `held` is cleared before a step is taken (see `Worker::is_idle`).
    while paused.load(Ordering::Relaxed) && !cancel.load(Ordering::Relaxed) {
        if steps.load(Ordering::SeqCst) > 0 {
            held.store(false, Ordering::SeqCst);
            if steps
                .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |s| s.checked_sub(1))
                .is_ok()
            {
                break;
            }
        }
        held.store(true, Ordering::SeqCst);
        pause.wait(Duration::from_secs(1));
    }
    held.store(false, Ordering::SeqCst);
}

/// How the window follows the planning of a job: builds as [`WorkerMsg::Building`] (stopped
/// by `cancel`), fallbacks and warnings as [`WorkerMsg::Note`] (what `auto` picked shows in the
/// menus instead).
struct Window<'a> {
    tx: &'a std::sync::mpsc::Sender<WorkerMsg>,
    cancel: &'a AtomicBool,
    /// The heuristic asked for, as the bar names it.
    name: String,
    /// Entries of each pattern of the partition, so that the bar covers the whole of it and
    /// never goes backwards when a larger pattern starts (pdb78: 7 tiles, then 8).
    sizes: Vec<u64>,
    started: std::time::Instant,
}

impl<'a> Window<'a> {
    fn new(job: &Job, cancel: &'a AtomicBool, tx: &'a std::sync::mpsc::Sender<WorkerMsg>) -> Self {
        let goal = &job.problem.goal;
        let sizes: Vec<u64> = match &job.heuristic {
            HeuristicChoice::Pdb(spec) => spec
                .patterns(goal)
                .map(|ps| {
                    ps.iter()
                        .map(|p| crate::heuristic::pdb::cache::header_for(goal, p).entries)
                        .collect()
                })
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        Window {
            tx,
            cancel,
            name: job.heuristic.to_string(),
            sizes,
            started: std::time::Instant::now(),
        }
    }
}

impl Watch for Window<'_> {
    fn note(&self, note: Note) {
        if let Note::Fallback(line) | Note::Warning(line) = note {
            let _ = self.tx.send(WorkerMsg::Note(line));
        }
    }

    fn building(&self, pattern: usize, patterns: usize, step: &BuildProgress) -> bool {
        let overall = overall_share(&self.sizes, pattern, step.filled, step.total);
        let _ = self.tx.send(WorkerMsg::Building(BuildStatus {
            name: self.name.clone(),
            pattern,
            patterns,
            depth: step.depth,
            filled: step.filled,
            total: step.total,
            overall: overall.clamp(0.0, 1.0),
            seconds: self.started.elapsed().as_secs_f64(),
        }));
        // Stop builds with the search (Stop, Reset, a new puzzle).
        !self.cancel.load(Ordering::Relaxed)
    }
}

/// The share of a partition's build done when pattern `pattern` (0-based) has `filled` of its
/// `total` entries, `sizes` being every pattern's entries: the patterns before it count as
/// done (built, or read from the cache). Never goes backwards as the build moves on. Without
/// `sizes` (not a partition), the pattern's own share.
fn overall_share(sizes: &[u64], pattern: usize, filled: u64, total: u64) -> f64 {
    let all: u64 = sizes.iter().sum();
    let share = if sizes.len() > pattern && all > 0 {
        let before: u64 = sizes[..pattern].iter().sum();
        (before + filled.min(sizes[pattern])) as f64 / all as f64
    } else {
        filled as f64 / total.max(1) as f64
    };
    share.clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::overall_share;

    #[test]
    fn a_partitions_bar_never_goes_back_when_a_larger_pattern_starts() {
        // pdb78 on 4×4: 16!/9! entries for the 7 tiles, then 16!/8! for the 8.
        let sizes = [57_657_600u64, 518_918_400];
        let mut last = 0.0;
        let steps = [
            (0, 0),
            (0, 30_000_000),
            (0, 57_657_600),
            (1, 0),
            (1, 300_000_000),
        ];
        for (pattern, filled) in steps {
            let s = overall_share(&sizes, pattern, filled, sizes[pattern]);
            assert!(
                s >= last,
                "{s} after {last} at pattern {pattern}, {filled} filled"
            );
            last = s;
        }
        // The first pattern done is its share of the whole partition, not the whole bar.
        assert!((overall_share(&sizes, 0, sizes[0], sizes[0]) - 0.1).abs() < 0.001);
        assert_eq!(overall_share(&sizes, 1, sizes[1], sizes[1]), 1.0);
    }
}
