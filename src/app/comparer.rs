//! The Compare panel's worker: the board solved with each heuristic that fits it, one after
//! the other on a thread of its own (each within a time cap), or the textbook experiment
//! over random 3×3 boards; results stream back as they come. Cancellable at any moment.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::Duration;

use rand::SeedableRng;

use crate::heuristic::{HeuristicChoice, HeuristicSpec};
use crate::puzzle::{Board, Goal};
use crate::search::measure::{
    DepthRow, DepthTable, ExperimentSettings, Measure, Method, default_methods, depth_experiment,
    measure,
};
use crate::search::{Algorithm, Limits, Problem};

/// A message from the compare worker.
pub enum CompareMsg {
    /// A heuristic is being loaded or searched with.
    Running(String),
    /// One search's figures.
    Row(Measure),
    /// One depth of the experiment.
    Depth(DepthRow),
    /// Something the results should be read with (depths skipped).
    Note(String),
    /// Finished (or cancelled); an error when it could not go on.
    Done(Option<CompareError>),
}

/// Why a comparison could not go on.
#[derive(Debug, thiserror::Error)]
pub enum CompareError {
    /// A heuristic could not be loaded or built.
    #[error(transparent)]
    Heuristic(#[from] crate::heuristic::ResolveError),
    /// A search failed (not a limit: a row says that).
    #[error(transparent)]
    Search(#[from] crate::search::SearchError),
    /// Stopped while loading the heuristics.
    #[error("cancelled")]
    Cancelled,
    /// The experiment's board is too large for its table of optimal depths.
    #[error("the experiment needs a board of at most 10 cells (3×3, 2×5, …)")]
    TooLarge,
    /// No thread to compare on.
    #[error("no thread: {0}")]
    NoThread(std::io::Error),
}

/// What to compare.
pub enum CompareJob {
    /// `board` with every heuristic that fits it, `algorithm` (A* or IDA*) for each.
    Board {
        /// The board.
        board: Board,
        /// Its goal.
        goal: Goal,
        /// A* or IDA*.
        algorithm: Algorithm,
    },
    /// The textbook experiment towards `goal` (3×3 or another tabulated shape): A* with each
    /// heuristic, and BFS, at each of `depths` (those no board has are skipped, and said).
    Experiment {
        /// The goal.
        goal: Goal,
        /// The optimal depths, in moves.
        depths: Vec<u32>,
        /// Boards per depth, seed, and the searches' conventions.
        settings: ExperimentSettings,
    },
}

/// A running comparison.
pub struct Comparer {
    cancel: Arc<AtomicBool>,
    rx: Receiver<CompareMsg>,
}

impl Comparer {
    /// Starts `job` with `cap` seconds per search, pattern databases from `cache_dir`.
    pub fn start(
        job: CompareJob,
        cap: f64,
        cache_dir: Option<std::path::PathBuf>,
        max_memory: u64,
    ) -> Comparer {
        let cancel = Arc::new(AtomicBool::new(false));
        let (tx, rx) = channel();
        let c = cancel.clone();
        let tx2 = tx.clone();
        let spawned = std::thread::Builder::new()
            .name("npuzzle-compare".into())
            .spawn(move || {
                let (tie_break, bfs_goal_test) = match &job {
                    CompareJob::Experiment { settings, .. } => {
                        (settings.tie_break, settings.bfs_goal_test)
                    }
                    CompareJob::Board { .. } => Default::default(),
                };
                let limits = Limits {
                    tie_break,
                    bfs_goal_test,
                    time_limit: Some(Duration::from_secs_f64(cap.max(0.1))),
                    max_memory,
                    cancel: Some(c.clone()),
                    // As the Solver panel's IDA* (and the stepper): "never undo".
                    pruning: crate::search::Pruning::Undo,
                    ..Limits::default()
                };
                let err = run(job, &limits, cache_dir, &c, &tx).err();
                let _ = tx.send(CompareMsg::Done(err));
            });
        if let Err(e) = spawned {
            let _ = tx2.send(CompareMsg::Done(Some(CompareError::NoThread(e))));
        }
        Comparer { cancel, rx }
    }

    /// The next message, if any (never blocks).
    pub fn poll(&self) -> Option<CompareMsg> {
        self.rx.try_recv().ok()
    }

    /// Stops after the current search's next check.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

impl Drop for Comparer {
    fn drop(&mut self) {
        self.cancel();
    }
}

/// The methods for `goal`'s board: BFS up to 10 cells, then each comparable heuristic with
/// `algorithm`, pattern databases loaded (or built, when quick) here.
fn methods(
    goal: &Goal,
    algorithm: Algorithm,
    cache_dir: Option<std::path::PathBuf>,
    max_memory: u64,
    cancel: &AtomicBool,
    tx: &Sender<CompareMsg>,
) -> Result<Vec<Method>, CompareError> {
    let mut out = Vec::new();
    for choice in default_methods(goal, cache_dir.clone()) {
        let Some(choice) = choice else {
            out.push(Method::Bfs);
            continue;
        };
        if cancel.load(Ordering::Relaxed) {
            return Err(CompareError::Cancelled);
        }
        let spec = match &choice {
            HeuristicChoice::Kind(k) => HeuristicSpec::Kind(*k),
            _ => {
                let _ = tx.send(CompareMsg::Running(format!("loading {choice}")));
                super::coach::load(&choice, goal, cache_dir.clone(), max_memory, cancel)?
            }
        };
        out.push(Method::informed(algorithm, spec));
    }
    Ok(out)
}

fn run(
    job: CompareJob,
    limits: &Limits,
    cache_dir: Option<std::path::PathBuf>,
    cancel: &AtomicBool,
    tx: &Sender<CompareMsg>,
) -> Result<(), CompareError> {
    match job {
        CompareJob::Board {
            board,
            goal,
            algorithm,
        } => {
            let ms = methods(&goal, algorithm, cache_dir, limits.max_memory, cancel, tx)?;
            let problem = Problem { start: board, goal };
            for m in &ms {
                if cancel.load(Ordering::Relaxed) {
                    return Ok(());
                }
                let _ = tx.send(CompareMsg::Running(format!(
                    "{} {}",
                    m.algorithm(),
                    m.name()
                )));
                let _ = tx.send(CompareMsg::Row(measure(&problem, m, limits)));
            }
            Ok(())
        }
        CompareJob::Experiment {
            goal,
            depths,
            settings,
        } => {
            let table = DepthTable::new(&goal).ok_or(CompareError::TooLarge)?;
            let ms = methods(
                &goal,
                Algorithm::AStar,
                cache_dir,
                limits.max_memory,
                cancel,
                tx,
            )?;
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(settings.seed);
            let max = table.max_depth();
            let (depths, skipped): (Vec<u32>, Vec<u32>) = depths.iter().partition(|&&d| d <= max);
            if !skipped.is_empty() {
                let b = goal.board();
                let _ = tx.send(CompareMsg::Note(format!(
                    "depths above {max} skipped: no {}×{} board is farther from the goal",
                    b.rows(),
                    b.cols()
                )));
            }
            let _ = tx.send(CompareMsg::Running("the textbook experiment".into()));
            let samples = settings.samples.max(1);
            match depth_experiment(&table, &depths, samples, &ms, limits, &mut rng, &mut |r| {
                let _ = tx.send(CompareMsg::Depth(r.clone()));
            }) {
                Ok(_) | Err(crate::search::SearchError::Cancelled) => Ok(()),
                Err(e) => Err(e.into()),
            }
        }
    }
}
