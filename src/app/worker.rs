//! The search worker: one thread per solve, streaming progress snapshots over a channel.
//! The UI thread never waits on it: it polls the channel each frame and can cancel, pause or
//! step at any moment through shared flags.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, channel};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::eval::gpu::{GpuContext, GpuEvaluator};
use crate::eval::gpu_ida::GpuIda;
use crate::eval::ida::IdaDevice;
use crate::eval::{BatchEvaluator, CpuEvaluator};
use crate::heuristic::HeuristicSpec;
use crate::heuristic::{HeuristicChoice, ResolveError, ResolveOptions, resolve};
use crate::search::stepper::{Expansion, OpenEntry, Step, Stepper, TreeNode};
use crate::search::{
    Algorithm, Batch, Engine, Iteration, Limits, Outcome, Problem, Progress, Pruning, SearchError,
    Solution, solve,
};

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
}

impl StepView {
    fn of(s: &Stepper) -> StepView {
        StepView {
            last: s.last().cloned(),
            open_top: s.open_top(OPEN_SHOWN),
            open: s.open_len(),
            closed: s.closed_len(),
            tree: s.tree().to_vec(),
            tree_complete: s.tree_complete(),
            iterations: s.iterations().to_vec(),
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
        result: Result<Outcome, SearchError>,
        /// `cpu` or `gpu`.
        evaluator: &'static str,
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
        let (tx, rx) = channel();
        let (c, p, s) = (cancel.clone(), paused.clone(), steps.clone());
        let pause = Pause {
            paused: p,
            steps: s,
            held: held.clone(),
            layer: layer.clone(),
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
            && self.is_held()
    }

    /// Next message, if any (never blocks).
    pub fn poll(&self) -> Option<WorkerMsg> {
        self.rx.try_recv().ok()
    }

    /// Pauses or resumes at the next progress report.
    pub fn set_paused(&self, paused: bool) {
        self.paused.store(paused, Ordering::Relaxed);
    }

    /// Whether it is paused.
    pub fn is_paused(&self) -> bool {
        self.paused.load(Ordering::Relaxed)
    }

    /// While paused: run `n` steps (a stepped search: `n` nodes; otherwise to the next
    /// progress report, one round of batched A*), then pause again.
    pub fn step(&self, n: u64) {
        self.steps.fetch_add(n, Ordering::SeqCst);
    }

    /// While paused, a stepped search: run to the next f layer (IDA*: iteration), then pause;
    /// steps still asked for are dropped (the layer's end is where it stops).
    pub fn step_layer(&self) {
        self.steps.store(0, Ordering::SeqCst);
        self.layer.store(true, Ordering::SeqCst);
    }

    /// Asks the search to stop; it ends at its next check (milliseconds).
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
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
}

fn run(job: Job, cancel: &Arc<AtomicBool>, pause: &Pause, tx: &std::sync::mpsc::Sender<WorkerMsg>) {
    let limits = limits_for(&job, cancel);
    let mut on_progress = |p: &Progress| report(p, pause, cancel, tx);
    let Some(spec) = load_heuristic(&job, cancel, tx) else {
        return;
    };
    if cancel.load(Ordering::Relaxed) {
        let _ = tx.send(WorkerMsg::Done {
            result: Err(SearchError::Cancelled),
            evaluator: "cpu",
            describe: String::new(),
        });
        return;
    }
    // Batched A* in step mode: one node a round (A*'s order, the stepper) until Run, then
    // batches from where the steps left.
    let batched = job.algorithm == Algorithm::BatchedAStar;
    let mut handed: Option<Stepper> = None;
    if job.stepped {
        // Stepped, GPU IDA* is IDA* (the same tree, one node a step, on the CPU).
        let algorithm = match job.algorithm {
            Algorithm::BatchedAStar => Algorithm::AStar,
            Algorithm::GpuIdaStar => Algorithm::IdaStar,
            a => a,
        };
        match run_stepped(
            &job.problem,
            algorithm,
            &spec,
            job.max_memory,
            batched,
            cancel,
            pause,
            tx,
        ) {
            Ok(Stepped::HandOff(s)) => {
                let _ = tx.send(WorkerMsg::HandedOff);
                handed = Some(*s);
            }
            Ok(Stepped::Solved(o)) => return done_stepped(tx, Ok(o)),
            Err(e) => return done_stepped(tx, Err(e)),
        }
    }
    let (result, evaluator, describe) = search(&job, spec, handed, &limits, &mut on_progress, tx);
    let _ = tx.send(WorkerMsg::Done {
        result,
        evaluator,
        describe,
    });
}

/// The search of `job` with `spec` after any steps: batched A* on the GPU's evaluator (the
/// CPU's when there is none or it refuses; going on from `handed`, the stepped A* at Run),
/// GPU IDA* on the device (IDA* on the CPU when there is none), or the CPU. Returns the
/// outcome, where h was evaluated (`cpu` or `gpu`) and a description of it; notes on a
/// fallback go to the window.
fn search(
    job: &Job,
    spec: HeuristicSpec,
    handed: Option<Stepper>,
    limits: &Limits,
    on_progress: &mut crate::search::ProgressFn<'_>,
    tx: &std::sync::mpsc::Sender<WorkerMsg>,
) -> (Result<Outcome, SearchError>, &'static str, String) {
    let goal = &job.problem.goal;
    if job.algorithm == Algorithm::BatchedAStar {
        let cpu = || -> Box<dyn BatchEvaluator> {
            Box::new(CpuEvaluator::with_heuristic(
                spec.build(goal),
                goal.board().len(),
                1,
            ))
        };
        let mut e: Box<dyn BatchEvaluator> = match &job.gpu {
            Some(ctx) => match GpuEvaluator::for_spec(ctx.clone(), &spec, goal) {
                Ok(g) => Box::new(g),
                Err(e) => {
                    let _ = tx.send(WorkerMsg::Note(format!(
                        "GPU evaluator: {e}; batched A* evaluates on the CPU"
                    )));
                    cpu()
                }
            },
            None => cpu(),
        };
        let (kind, describe) = (e.kind(), e.describe());
        let batch = Batch {
            evaluator: e.as_mut(),
            size: job.batch_size,
        };
        let engine = Engine::Batched {
            batch,
            from: handed.map(Box::new),
        };
        let result = crate::search::run(&job.problem, engine, limits, on_progress);
        (result, kind, describe)
    } else if job.algorithm == Algorithm::GpuIdaStar {
        let device = job
            .gpu
            .as_ref()
            .map(|ctx| GpuIda::new(ctx.clone(), &spec, goal, None));
        match device {
            Some(Ok(mut d)) => {
                let describe = d.describe();
                let engine = Engine::Device {
                    device: &mut d,
                    heuristic: spec,
                };
                let result = crate::search::run(&job.problem, engine, limits, on_progress);
                (result, "gpu", describe)
            }
            other => {
                let why = match other {
                    Some(Err(e)) => e.to_string(),
                    _ => "no GPU adapter".to_string(),
                };
                let _ = tx.send(WorkerMsg::Note(format!(
                    "GPU IDA*: {why}; IDA* runs on the CPU"
                )));
                (
                    solve(&job.problem, Algorithm::IdaStar, spec, limits, on_progress),
                    "cpu",
                    "cpu (inline)".to_string(),
                )
            }
        }
    } else {
        (
            solve(&job.problem, job.algorithm, spec, limits, on_progress),
            "cpu",
            "cpu (inline)".to_string(),
        )
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
        // "Never undo" needs no automaton from the cache.
        cache_dir: None,
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
        std::thread::sleep(Duration::from_millis(5));
    }
    held.store(false, Ordering::SeqCst);
}

/// `job`'s heuristic, loaded or built (with the build's progress sent to the window, and
/// stopped by `cancel`), and said to the window; `None` when it could not be had, the
/// search's end then sent.
fn load_heuristic(
    job: &Job,
    cancel: &AtomicBool,
    tx: &std::sync::mpsc::Sender<WorkerMsg>,
) -> Option<HeuristicSpec> {
    let goal = &job.problem.goal;
    let name = job.heuristic.to_string();
    // Entries of each pattern of the partition, so that the bar covers the whole of it and
    // never goes backwards when a larger pattern starts (pdb78: 7 tiles, then 8).
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
    let build_start = std::time::Instant::now();
    let resolved = resolve(
        &job.heuristic,
        goal,
        &ResolveOptions {
            uses_heuristic: job.algorithm != Algorithm::Bfs,
            cache_dir: job.pdb_cache.clone(),
            max_memory: job.max_memory,
            max_table_bytes: job
                .gpu
                .as_ref()
                .filter(|_| {
                    matches!(
                        job.algorithm,
                        Algorithm::BatchedAStar | Algorithm::GpuIdaStar
                    )
                })
                .map(|ctx| ctx.max_table_bytes()),
            progress: &|pattern, patterns, step| {
                let overall = overall_share(&sizes, pattern, step.filled, step.total);
                let _ = tx.send(WorkerMsg::Building(BuildStatus {
                    name: name.clone(),
                    pattern,
                    patterns,
                    depth: step.depth,
                    filled: step.filled,
                    total: step.total,
                    overall: overall.clamp(0.0, 1.0),
                    seconds: build_start.elapsed().as_secs_f64(),
                }));
                // Stop builds with the search (Stop, Reset, a new puzzle).
                !cancel.load(Ordering::Relaxed)
            },
            // Files found invalid or not saved: shown in the app's messages.
            warn: &|w| {
                let _ = tx.send(WorkerMsg::Note(w));
            },
        },
    );
    match resolved {
        Ok(r) => {
            let _ = tx.send(WorkerMsg::Heuristic(r.heuristic.clone()));
            Some(r.heuristic)
        }
        Err(e) => {
            let result = match e {
                ResolveError::Cancelled => Err(SearchError::Cancelled),
                e => Err(SearchError::Heuristic(e.to_string())),
            };
            let _ = tx.send(WorkerMsg::Done {
                result,
                evaluator: "cpu",
                describe: String::new(),
            });
            None
        }
    }
}

/// How often a stepped search that runs free (Run, or to the next layer) sends snapshots.
const VIEW_INTERVAL: Duration = Duration::from_millis(30);

/// A stepped search's end, as the worker's last message.
fn done_stepped(tx: &std::sync::mpsc::Sender<WorkerMsg>, result: Result<Outcome, SearchError>) {
    let _ = tx.send(WorkerMsg::Done {
        result,
        evaluator: "cpu",
        describe: "cpu (stepped)".to_string(),
    });
}

/// How a stepped search ended: solved, or handed over at Run (batched A*).
enum Stepped {
    Solved(Outcome),
    HandOff(Box<Stepper>),
}

/// A stepped search: one node per requested step, a [`StepView`] and a `Progress` after each
/// request (and every [`VIEW_INTERVAL`] while it runs free); holds while paused with nothing
/// asked. Its seconds are the time spent stepping, not the time held. `hand_off` (batched
/// A*): at Run, the stepper is handed back for batches to go on from.
#[allow(clippy::too_many_arguments)]
fn run_stepped(
    problem: &Problem,
    algorithm: Algorithm,
    spec: &HeuristicSpec,
    max_memory: u64,
    hand_off: bool,
    cancel: &AtomicBool,
    pause: &Pause,
    tx: &std::sync::mpsc::Sender<WorkerMsg>,
) -> Result<Stepped, SearchError> {
    let mut s = Stepper::new(problem, algorithm, spec, max_memory)?;
    let mut busy = Duration::ZERO;
    let send = |s: &Stepper, busy: Duration| {
        let _ = tx.send(WorkerMsg::Inspect(Box::new(StepView::of(s))));
        let _ = tx.send(WorkerMsg::Progress(Box::new(Progress {
            seconds: busy.as_secs_f64(),
            ..s.progress()
        })));
    };
    send(&s, busy);
    loop {
        if cancel.load(Ordering::Relaxed) {
            send(&s, busy);
            return Err(SearchError::Cancelled);
        }
        let free = !pause.paused.load(Ordering::Relaxed);
        if free && hand_off {
            return Ok(Stepped::HandOff(Box::new(s)));
        }
        let asked = pause.layer.load(Ordering::SeqCst) || pause.steps.load(Ordering::SeqCst) > 0;
        if !(free || asked) {
            pause.held.store(true, Ordering::SeqCst);
            std::thread::sleep(Duration::from_millis(5));
            continue;
        }
        // Not held from here on, before a request is taken (see `Worker::is_idle`).
        pause.held.store(false, Ordering::SeqCst);
        let layer = !free && pause.layer.swap(false, Ordering::SeqCst);
        let one = !free
            && !layer
            && pause
                .steps
                .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
                .is_ok();
        if !(free || layer || one) {
            continue;
        }
        let began = std::time::Instant::now();
        let bound = s.bound();
        let mut sent = began;
        let step = loop {
            let step = s.step();
            if !matches!(step, Ok(Step::Expanded)) || one {
                break step;
            }
            if layer && s.bound() != bound {
                break step;
            }
            if cancel.load(Ordering::Relaxed) || (free && pause.paused.load(Ordering::Relaxed)) {
                break step;
            }
            if sent.elapsed() >= VIEW_INTERVAL {
                send(&s, busy + began.elapsed());
                sent = std::time::Instant::now();
            }
        };
        busy += began.elapsed();
        match step {
            Ok(Step::Solved) => {
                send(&s, busy);
                let mut stats = s.stats();
                stats.seconds = busy.as_secs_f64();
                return Ok(Stepped::Solved(Outcome::Solved(Solution {
                    moves: s.solution().unwrap_or_default().to_vec(),
                    stats,
                    all: None,
                })));
            }
            Err(e) => {
                send(&s, busy);
                return Err(e);
            }
            Ok(Step::NextIteration(_)) => {
                // The finished iteration's last report, as the fast IDA* sends one.
                if let (Some(it), Some(h)) = (s.iterations().last(), s.finished_histogram()) {
                    let done: u64 = s.iterations().iter().map(|i| i.expanded).sum();
                    let _ = tx.send(WorkerMsg::Progress(Box::new(Progress {
                        algorithm: Some(Algorithm::IdaStar),
                        seconds: busy.as_secs_f64(),
                        expanded: done,
                        generated: s.generated(),
                        bound: it.threshold,
                        iteration: s.iterations().len() as u32,
                        histogram: Some(h.clone()),
                        iteration_done: true,
                        ..Progress::default()
                    })));
                }
                send(&s, busy);
            }
            Ok(_) => {
                // A batch of ×10 sends one snapshot, at its end.
                if pause.steps.load(Ordering::Relaxed) == 0 || free {
                    send(&s, busy);
                }
            }
        }
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
