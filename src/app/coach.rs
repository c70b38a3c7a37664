//! The coach: the exact number of moves to solve a board, computed on a thread of
//! its own after every move of a player (cancelled and restarted on the next one), with the
//! strongest heuristic that is ready (`auto`: a cached or quick pattern database, else linear
//! conflict). The UI never waits on it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, channel};

use crate::heuristic::{HeuristicChoice, HeuristicSpec, ResolveError};
use crate::puzzle::{Board, Goal, Move};
use crate::search::{Algorithm, Limits, Outcome, Problem, SearchError, solve};

/// An optimal solution of one board.
#[derive(Clone, Debug)]
pub struct Answer {
    /// The board solved.
    pub board: Board,
    /// An optimal solution from it (its first move is a hint that keeps the optimum).
    pub moves: Vec<Move>,
    /// The heuristic IDA* used, by name.
    pub heuristic: String,
    /// The heuristic itself (its tables loaded), for the next board of the same goal.
    pub spec: HeuristicSpec,
    /// Seconds it took, the heuristic's loading or building included.
    pub seconds: f64,
}

/// Why the coach has no answer.
#[derive(Debug, thiserror::Error)]
pub enum CoachError {
    /// The heuristic could not be loaded or built.
    #[error(transparent)]
    Heuristic(#[from] ResolveError),
    /// The search stopped (its time cap, memory) or failed.
    #[error(transparent)]
    Search(#[from] SearchError),
    /// The board cannot reach the goal.
    #[error("this board cannot reach the goal")]
    Unsolvable,
    /// No thread to solve on.
    #[error("could not start the coach's thread: {0}")]
    NoThread(std::io::Error),
}

/// One board being solved in the background.
pub struct Coach {
    cancel: Arc<AtomicBool>,
    rx: Receiver<Result<Answer, CoachError>>,
}

impl Coach {
    /// Starts solving `board` towards `goal` with `ready` (a heuristic loaded for this goal
    /// by an earlier answer), else `auto`'s pick (pattern databases from `cache_dir`, built
    /// within `max_memory` bytes if quick to build).
    pub fn start(
        board: Board,
        goal: Goal,
        ready: Option<HeuristicSpec>,
        cache_dir: Option<std::path::PathBuf>,
        max_memory: u64,
    ) -> Coach {
        let cancel = Arc::new(AtomicBool::new(false));
        let (tx, rx) = channel();
        let (c, b) = (cancel.clone(), board);
        let spawned = std::thread::Builder::new()
            .name("npuzzle-coach".into())
            .spawn(move || {
                let began = std::time::Instant::now();
                let r = answer(&b, &goal, ready, cache_dir, max_memory, &c).map(|(moves, spec)| {
                    Answer {
                        board: b,
                        moves,
                        heuristic: spec.name().to_string(),
                        spec,
                        seconds: began.elapsed().as_secs_f64(),
                    }
                });
                let _ = tx.send(r);
            });
        if let Err(e) = spawned {
            // No thread: the answer is an error, never a hang.
            let (tx, rx2) = channel();
            let _ = tx.send(Err(CoachError::NoThread(e)));
            return Coach { cancel, rx: rx2 };
        }
        Coach { cancel, rx }
    }

    /// The answer once there is one (never blocks); `Err` names why there is none.
    pub fn poll(&self) -> Option<Result<Answer, CoachError>> {
        self.rx.try_recv().ok()
    }
}

impl Drop for Coach {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

/// `choice` for `goal`, loaded or built on a background thread (the coach's, Compare's): no
/// progress shown, warnings dropped, stopped when `cancel` is set.
///
/// # Errors
/// As [`crate::plan::load_heuristic`].
pub(super) fn load(
    choice: &HeuristicChoice,
    goal: &Goal,
    cache_dir: Option<std::path::PathBuf>,
    max_memory: u64,
    cancel: &AtomicBool,
) -> Result<HeuristicSpec, ResolveError> {
    let request = crate::plan::Request {
        algorithm: Algorithm::IdaStar,
        heuristic: choice.clone(),
        purpose: crate::plan::Purpose::Answer,
        cache_dir,
        max_memory,
        pdb_lookup: Default::default(),
        batch_size: crate::search::DEFAULT_BATCH_SIZE,
    };
    let hardware = crate::plan::Hardware::cpu(1);
    let watch = crate::plan::Silent(cancel);
    crate::plan::load_heuristic(&request, Algorithm::IdaStar, goal, &hardware, &watch)
        .map(|r| r.heuristic)
}

fn answer(
    board: &Board,
    goal: &Goal,
    ready: Option<HeuristicSpec>,
    cache_dir: Option<std::path::PathBuf>,
    max_memory: u64,
    cancel: &Arc<AtomicBool>,
) -> Result<(Vec<Move>, HeuristicSpec), CoachError> {
    let spec = match ready {
        Some(s) => s,
        None => load(
            &HeuristicChoice::Auto,
            goal,
            cache_dir.clone(),
            max_memory,
            cancel,
        )?,
    };
    let limits = Limits {
        cache_dir: crate::heuristic::pdb::cache::PdbCache::folder(cache_dir),
        cancel: Some(cancel.clone()),
        // A board that takes longer is "too hard to say quickly", not a core spent for ever.
        time_limit: Some(std::time::Duration::from_secs(120)),
        // One thread: the search worker and the window need the others.
        threads: 1,
        ..Limits::default()
    };
    let problem = Problem {
        start: board.clone(),
        goal: goal.clone(),
    };
    match solve(
        &problem,
        Algorithm::IdaStar,
        spec.clone(),
        &limits,
        &mut |_| {},
    ) {
        Ok(Outcome::Solved(s)) => Ok((s.moves, spec)),
        Ok(Outcome::Unsolvable(_)) => Err(CoachError::Unsolvable),
        Err(e) => Err(e.into()),
    }
}
