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
use crate::eval::{BatchEvaluator, CpuEvaluator};
use crate::heuristic::pdb::PartitionSpec;
use crate::heuristic::pdb::cache::PdbCache;
use crate::heuristic::{HeuristicKind, HeuristicSpec};
use crate::search::{
    Algorithm, Batch, Limits, Outcome, Problem, Progress, SearchError, solve, solve_batched,
};

/// The heuristic chosen in the app: a plain one, or a pattern database (loaded from the cache,
/// or built first, with progress shown).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HeuristicChoice {
    /// Hamming, Manhattan or linear conflict.
    Kind(HeuristicKind),
    /// An additive pattern database.
    Pdb(PartitionSpec),
}

impl HeuristicChoice {
    /// Name as shown (`linear-conflict`, `pdb663`, …).
    pub fn name(&self) -> String {
        match self {
            HeuristicChoice::Kind(k) => k.name().to_string(),
            HeuristicChoice::Pdb(p) => p.name(),
        }
    }
}

/// A pattern-database build in progress.
#[derive(Clone, Debug, PartialEq, Eq)]
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
}

/// A message from the worker.
pub enum WorkerMsg {
    /// A progress snapshot.
    Progress(Box<Progress>),
    /// A pattern database is being built before the search starts.
    Building(BuildStatus),
    /// A line for the user (e.g. a cache file found corrupt and rebuilt).
    Note(String),
    /// The search ended; `evaluator` describes what evaluated h (`cpu`, or the GPU adapter).
    Done {
        /// The answer, or why there is none.
        result: Result<Outcome, SearchError>,
        /// `cpu (…)` or `gpu (adapter / backend)`.
        evaluator: String,
    },
    /// The search thread panicked; the message says where.
    Panicked(String),
}

/// A running solve.
pub struct Worker {
    cancel: Arc<AtomicBool>,
    paused: Arc<AtomicBool>,
    steps: Arc<AtomicU64>,
    rx: Receiver<WorkerMsg>,
    handle: Option<JoinHandle<()>>,
}

impl Worker {
    /// Starts `job` on a new thread, paused if `paused`.
    pub fn start(job: Job, paused: bool) -> Worker {
        let cancel = Arc::new(AtomicBool::new(false));
        let paused = Arc::new(AtomicBool::new(paused));
        let steps = Arc::new(AtomicU64::new(0));
        let (tx, rx) = channel();
        let (c, p, s) = (cancel.clone(), paused.clone(), steps.clone());
        let handle = std::thread::Builder::new()
            .name("npuzzle-search".into())
            .spawn(move || {
                let tx2 = tx.clone();
                let r = std::panic::catch_unwind(AssertUnwindSafe(|| run(job, &c, &p, &s, &tx2)));
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
            rx,
            handle,
        }
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

    /// While paused: run until the next progress report (one round of batched A*, one batch of
    /// expansions of A* or IDA*), then pause again.
    pub fn step(&self) {
        self.steps.fetch_add(1, Ordering::Relaxed);
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

fn run(
    job: Job,
    cancel: &Arc<AtomicBool>,
    paused: &AtomicBool,
    steps: &AtomicU64,
    tx: &std::sync::mpsc::Sender<WorkerMsg>,
) {
    let limits = Limits {
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
    };
    let mut on_progress = |p: &Progress| {
        let _ = tx.send(WorkerMsg::Progress(Box::new(p.clone())));
        // Hold here while paused, unless a step was asked for or the search is cancelled.
        while paused.load(Ordering::Relaxed) && !cancel.load(Ordering::Relaxed) {
            if steps
                .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |s| s.checked_sub(1))
                .is_ok()
            {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    };
    let goal = &job.problem.goal;
    let spec = match &job.heuristic {
        HeuristicChoice::Kind(k) => HeuristicSpec::Kind(*k),
        // Breadth-first search uses no heuristic: nothing to build.
        HeuristicChoice::Pdb(_) if job.algorithm == Algorithm::Bfs => {
            HeuristicSpec::Kind(HeuristicKind::LinearConflict)
        }
        HeuristicChoice::Pdb(p) => {
            let name = p.name();
            let loaded = PdbCache::new(job.pdb_cache.clone()).and_then(|cache| {
                cache.load_partition(
                    goal,
                    p,
                    job.max_memory,
                    &|pattern, patterns, step| {
                        let _ = tx.send(WorkerMsg::Building(BuildStatus {
                            name: name.clone(),
                            pattern,
                            patterns,
                            depth: step.depth,
                            filled: step.filled,
                            total: step.total,
                        }));
                        // Stop builds with the search (Stop, Reset, a new puzzle).
                        !cancel.load(Ordering::Relaxed)
                    },
                    // Files found invalid or not saved: shown in the app's messages.
                    &|w| {
                        let _ = tx.send(WorkerMsg::Note(w));
                    },
                )
            });
            match loaded {
                Ok((pdb, _)) => HeuristicSpec::Pdb(pdb),
                Err(e) => {
                    let result = if matches!(e, crate::heuristic::pdb::PdbError::Cancelled) {
                        Err(SearchError::Cancelled)
                    } else {
                        Err(SearchError::Heuristic(format!(
                            "pattern database {name}: {e}"
                        )))
                    };
                    let _ = tx.send(WorkerMsg::Done {
                        result,
                        evaluator: String::new(),
                    });
                    return;
                }
            }
        }
    };
    if cancel.load(Ordering::Relaxed) {
        let _ = tx.send(WorkerMsg::Done {
            result: Err(SearchError::Cancelled),
            evaluator: String::new(),
        });
        return;
    }
    let (result, evaluator) = if job.algorithm == Algorithm::BatchedAStar {
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
                Err(_) => cpu(),
            },
            None => cpu(),
        };
        let name = if e.kind() == "gpu" {
            format!("gpu ({})", e.describe())
        } else {
            e.describe()
        };
        let batch = Batch {
            evaluator: e.as_mut(),
            size: job.batch_size,
        };
        (
            solve_batched(&job.problem, batch, &limits, &mut on_progress),
            name,
        )
    } else {
        (
            solve(&job.problem, job.algorithm, spec, &limits, &mut on_progress),
            "cpu (inline)".to_string(),
        )
    };
    let _ = tx.send(WorkerMsg::Done { result, evaluator });
}
