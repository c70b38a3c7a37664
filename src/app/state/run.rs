//! The search run: its state, the latest progress, a pattern-database build, the answer, and
//! the worker thread behind them.

use crate::app::worker::{BuildStatus, Job, StepView, Worker, WorkerMsg};
use crate::eval::Evaluated;
use crate::plan::RunError;
use crate::puzzle::{Board, Move, Solvability};
use crate::report::{RunInfo, tiles_moved};
use crate::search::{
    Algorithm, AllSolutions, GhHistogram, Outcome, Progress, SearchError, SearchStats, Solution,
};

/// The state of the search.
#[derive(Clone, Debug, PartialEq)]
pub enum RunState {
    /// Nothing running.
    Idle,
    /// A search is running (or paused).
    Running,
    /// Finished with a solution or a proof of unsolvability.
    Done,
    /// Stopped by the user.
    Stopped,
    /// Failed: a limit, an evaluator error, or a panic in the worker.
    Failed(String),
}

/// A found solution, ready for playback.
#[derive(Clone, Debug, PartialEq)]
pub struct SolutionView {
    /// Blank moves, first first.
    pub moves: Vec<Move>,
    /// The tile that slides at each move.
    pub tiles: Vec<u8>,
    /// Search statistics.
    pub stats: SearchStats,
    /// What evaluated h, in words (`cpu (inline)`, `gpu (adapter / backend)`, …).
    pub evaluator: String,
    /// The algorithm, heuristic and evaluator that found it (for the saved JSON).
    pub run: RunInfo,
    /// All optimal solutions, when they were asked for; `moves` is `chosen` of them.
    pub all: Option<AllSolutions>,
    /// Which of `all`'s solutions `moves` is.
    pub chosen: usize,
}

/// An IDA* iteration that has ended, as its last report showed it.
#[derive(Clone, Debug, PartialEq)]
pub struct FinishedIteration {
    /// Its threshold, in moves.
    pub threshold: u32,
    /// Nodes expanded in it.
    pub expanded: u64,
    /// Its nodes generated per (g, h), when the report had them.
    pub histogram: Option<GhHistogram>,
}

/// What one [`Run::poll`] saw.
#[derive(Debug, Default)]
pub(super) struct Polled {
    /// Any message arrived.
    pub changed: bool,
    /// Lines for the user, in order.
    pub notes: Vec<String>,
    /// The search ended.
    pub finished: bool,
    /// It ended with this error.
    pub error: Option<String>,
}

/// The current or last search.
pub struct Run {
    state: RunState,
    progress: Option<Progress>,
    building: Option<BuildStatus>,
    /// The last build report of this run, kept after the build ends.
    last_build: Option<BuildStatus>,
    solution: Option<SolutionView>,
    unsolvable: Option<Solvability>,
    /// A stepped search's latest inspector snapshot, kept after it ends.
    inspect: Option<StepView>,
    /// Whether the current or last search is stepped (one node per step).
    stepped: bool,
    /// Whether it was stepped and then went on in batches (batched A* after Run).
    handed_off: bool,
    /// IDA*'s finished iterations, from their last reports.
    iterations: Vec<FinishedIteration>,
    /// The heuristic the search loaded (kept after it ends).
    heuristic: Option<crate::heuristic::HeuristicSpec>,
    worker: Option<Worker>,
    /// A stepped search that has ended: its thread, kept to show its history (go to a step,
    /// back, steps on up to the end).
    replay: Option<Worker>,
    /// The step asked for and not yet shown (go to, back).
    pending: Option<u64>,
    /// The longest list of IDA*'s finished iterations seen (a stepped search shown at an
    /// earlier step lists fewer; their histograms are kept here).
    seen_iterations: Vec<FinishedIteration>,
    /// What the running search uses; `evaluator` and `adapter` are filled in when it ends.
    info: RunInfo,
}

impl Default for Run {
    fn default() -> Self {
        Run {
            state: RunState::Idle,
            progress: None,
            building: None,
            last_build: None,
            solution: None,
            unsolvable: None,
            inspect: None,
            stepped: false,
            handed_off: false,
            iterations: Vec::new(),
            heuristic: None,
            worker: None,
            replay: None,
            pending: None,
            seen_iterations: Vec::new(),
            info: RunInfo {
                algorithm: Algorithm::Auto,
                heuristic: String::new(),
                evaluator: Evaluated::Cpu,
                adapter: None,
            },
        }
    }
}

impl Run {
    /// The state of the search.
    pub fn state(&self) -> &RunState {
        &self.state
    }

    /// The latest progress snapshot of the current or last search.
    pub fn progress(&self) -> Option<&Progress> {
        self.progress.as_ref()
    }

    /// A pattern database being built before the search starts.
    pub fn building(&self) -> Option<&BuildStatus> {
        self.building.as_ref()
    }

    /// The last pattern-database build report of the current or last search, kept after the
    /// build ends (`None` when its tables were all cached, or no database was asked for).
    pub fn last_build(&self) -> Option<&BuildStatus> {
        self.last_build.as_ref()
    }

    /// The solution of the last search.
    pub fn solution(&self) -> Option<&SolutionView> {
        self.solution.as_ref()
    }

    /// Makes solution `i` of all those found the one played back (`start`: the board they
    /// start from). Returns whether it changed.
    pub fn choose_solution(&mut self, i: usize, start: &Board) -> bool {
        let Some(sol) = &mut self.solution else {
            return false;
        };
        let Some(moves) = sol.all.as_ref().and_then(|a| a.solutions.get(i)) else {
            return false;
        };
        if sol.chosen == i {
            return false;
        }
        sol.moves.clone_from(moves);
        sol.tiles = tiles_moved(start, &sol.moves);
        sol.chosen = i;
        true
    }

    /// A stepped search's latest snapshot: the node expanded, its successors, the open list,
    /// the tree (kept after the search ends).
    pub fn inspect(&self) -> Option<&StepView> {
        self.inspect.as_ref()
    }

    /// The heuristic the current or last search loaded.
    pub fn heuristic(&self) -> Option<&crate::heuristic::HeuristicSpec> {
        self.heuristic.as_ref()
    }

    /// IDA*'s finished iterations in order (threshold, nodes expanded, their histogram).
    pub fn iterations(&self) -> &[FinishedIteration] {
        &self.iterations
    }

    /// Whether the current or last search was stepped and then went on in batches (batched A*
    /// after Run): its stepped views stop there.
    pub fn handed_off(&self) -> bool {
        self.handed_off
    }

    /// The algorithm the current or last search was started with (its progress may name
    /// another: stepped, batched A* expands in A*'s order and GPU IDA* is IDA*).
    pub fn algorithm(&self) -> Algorithm {
        self.info.algorithm
    }

    /// Whether the current or last search is stepped: started with Step, it expands one node
    /// per step (until Run).
    pub fn is_stepped(&self) -> bool {
        self.stepped
    }

    /// Set when the last search (or the parity check) proved the board unsolvable.
    pub fn unsolvable(&self) -> Option<&Solvability> {
        self.unsolvable.as_ref()
    }

    /// Whether a search is running (or paused).
    pub fn is_running(&self) -> bool {
        self.worker.is_some()
    }

    /// Whether the running search is paused (asked to; see [`is_held`](Self::is_held)).
    pub fn is_paused(&self) -> bool {
        self.worker.as_ref().is_some_and(Worker::is_paused)
    }

    /// Whether the running search is holding at its pause point: every snapshot it made has
    /// been sent, and none follows until a resume, step or stop.
    pub fn is_held(&self) -> bool {
        self.worker.as_ref().is_some_and(Worker::is_held)
    }

    /// Whether the running search is paused with nothing asked of it: holding at its pause
    /// point, every snapshot sent, no step waiting. The window then need not redraw.
    pub fn is_idle(&self) -> bool {
        self.worker.as_ref().is_some_and(Worker::is_idle)
    }

    /// Forgets the last search's results (the state goes back to idle).
    pub(super) fn clear(&mut self) {
        *self = Run {
            worker: self.worker.take(),
            ..Run::default()
        };
    }

    /// The board was proven unsolvable without a search.
    pub(super) fn answer_unsolvable(&mut self, verdict: Solvability) {
        self.unsolvable = Some(verdict);
        self.state = RunState::Done;
    }

    /// Starts `job` on a worker thread (paused if `paused`); `info` names what it uses.
    pub(super) fn start(&mut self, job: Job, info: RunInfo, paused: bool) {
        self.stepped = job.stepped;
        self.handed_off = false;
        self.worker = Some(Worker::start(job, paused));
        self.last_build = None;
        self.info = info;
        self.state = RunState::Running;
    }

    /// Pauses or resumes the running search; `false` when none runs.
    pub(super) fn toggle_pause(&self) -> bool {
        self.worker
            .as_ref()
            .map(|w| w.set_paused(!w.is_paused()))
            .is_some()
    }

    /// Runs `n` steps of the search (a stepped one: `n` nodes; otherwise to its next
    /// report), then pauses it; `false` when none runs.
    pub(super) fn step(&self, n: u64) -> bool {
        // An ended stepped search shown at an earlier step steps on towards its end.
        if let (None, Some(w), Some((at, reached))) = (&self.worker, &self.replay, self.timeline())
            && at < reached
        {
            w.step(n);
            return true;
        }
        self.worker
            .as_ref()
            .map(|w| {
                w.set_paused(true);
                w.step(n);
            })
            .is_some()
    }

    /// Runs a stepped search to its next f layer (IDA*: iteration), then pauses it; `false`
    /// when none runs.
    pub(super) fn step_layer(&self) -> bool {
        self.worker
            .as_ref()
            .map(|w| {
                w.set_paused(true);
                w.step_layer();
            })
            .is_some()
    }

    /// The thread of the stepped search shown, running or ended (its history), if any.
    fn stepped_worker(&self) -> Option<&Worker> {
        self.worker
            .as_ref()
            .filter(|_| self.stepped)
            .or(self.replay.as_ref())
    }

    /// A stepped search's step shown (the one asked for, if not shown yet) and how many were
    /// taken; `None` when no stepped search is shown.
    pub fn timeline(&self) -> Option<(u64, u64)> {
        let h = &self
            .inspect
            .as_ref()
            .filter(|_| self.stepped_worker().is_some())?
            .history;
        Some((self.pending.unwrap_or(h.at), h.reached))
    }

    /// Shows step `n` of the stepped search (pausing it): every panel then shows that moment.
    /// `false` when no stepped search is shown.
    pub(super) fn go_to(&mut self, n: u64) -> bool {
        let Some((_, reached)) = self.timeline() else {
            return false;
        };
        // The step asked of the thread is the one the timeline says: a search running free
        // may be past the `reached` of the last snapshot read.
        let to = n.min(reached);
        if let Some(w) = self.stepped_worker() {
            w.set_paused(true);
            w.go_to(to);
        }
        self.pending = Some(to);
        true
    }

    /// Shows the step `n` before the one shown (pausing the search). `false` when no stepped
    /// search is shown.
    pub(super) fn back(&mut self, n: u64) -> bool {
        let Some((at, _)) = self.timeline() else {
            return false;
        };
        // Asked as the step to show, not as steps back: a search running free is already
        // past the step of the last snapshot read, and the thread would count back from
        // there (the timeline then waited for a step that never came).
        let to = at.saturating_sub(n);
        if let Some(w) = self.stepped_worker() {
            w.set_paused(true);
            w.go_to(to);
        }
        self.pending = Some(to);
        true
    }

    /// Sets the speed of the stepped search running free (steps a second; 0 as fast as it
    /// goes).
    pub(super) fn set_rate(&self, steps_per_second: u32) {
        if let Some(w) = &self.worker {
            w.set_rate(steps_per_second);
        }
    }

    /// Whether an ended stepped search is busy showing a step asked for (the window redraws
    /// until it is shown).
    pub fn replaying(&self) -> bool {
        self.replay.as_ref().is_some_and(|w| !w.is_idle())
    }

    /// Stops the running search, keeping what it showed.
    pub(super) fn stop(&mut self) {
        self.replay = None;
        self.pending = None;
        if let Some(w) = self.worker.take() {
            w.cancel();
            self.state = RunState::Stopped;
            // A build stops with the search: its bar goes (the last report stays known).
            self.building = None;
        }
    }

    /// Drains the worker's messages; `start` is the board it solves.
    pub(super) fn poll(&mut self, start: &Board) -> Polled {
        let mut polled = Polled::default();
        let mut done = None;
        while let Some(msg) = self
            .worker
            .as_ref()
            .or(self.replay.as_ref())
            .and_then(Worker::poll)
        {
            polled.changed = true;
            done = self.receive(msg, &mut polled);
            if done.is_some() {
                break;
            }
        }
        if let Some((result, evaluator, describe)) = done {
            polled.finished = true;
            // A stepped search's thread stays to show its history.
            self.replay = self.worker.take().filter(|_| self.stepped);
            self.building = None;
            match result {
                Ok(Outcome::Solved(s)) => self.solved(s, evaluator, describe, start),
                Ok(Outcome::Unsolvable(v)) => self.answer_unsolvable(v),
                Err(e) => {
                    let m = failure(e);
                    polled.error = Some(m.clone());
                    self.state = RunState::Failed(m);
                }
            }
        }
        polled
    }

    /// Takes in one message of the worker (its notes go to `polled`); returns how the search
    /// ended when the message says it has.
    fn receive(&mut self, msg: WorkerMsg, polled: &mut Polled) -> Option<Ending> {
        match msg {
            WorkerMsg::Progress(p) => self.progressed(*p),
            WorkerMsg::Inspect(v) => {
                if self.pending == Some(v.history.at) {
                    self.pending = None;
                }
                self.sync_iterations(&v.iterations);
                self.inspect = Some(*v);
            }
            WorkerMsg::Building(b) => {
                self.last_build = Some(b.clone());
                self.building = Some(b);
            }
            WorkerMsg::Note(m) => polled.notes.push(m),
            WorkerMsg::Heuristic(h) => self.heuristic = Some(h),
            WorkerMsg::HandedOff => {
                // Batched A* goes on in batches: no node to inspect any more.
                self.stepped = false;
                self.handed_off = true;
                self.inspect = None;
            }
            WorkerMsg::Done {
                result,
                evaluator,
                describe,
            } => return Some((result, evaluator, describe)),
            WorkerMsg::Panicked(m) => {
                return Some((
                    Err(SearchError::WorkerPanicked(m).into()),
                    Evaluated::Cpu,
                    String::new(),
                ));
            }
        }
        None
    }

    /// Makes IDA*'s finished iterations those of the step shown (`its`), with the histograms
    /// of those seen before.
    fn sync_iterations(&mut self, its: &[crate::search::Iteration]) {
        if self.iterations.len() > self.seen_iterations.len() {
            self.seen_iterations.clone_from(&self.iterations);
        }
        let n = its.len();
        if n <= self.seen_iterations.len() {
            self.iterations = self.seen_iterations[..n].to_vec();
            return;
        }
        self.iterations.truncate(n);
        for it in &its[self.iterations.len()..] {
            self.iterations.push(FinishedIteration {
                threshold: it.threshold,
                expanded: it.expanded,
                histogram: None,
            });
        }
        self.seen_iterations.clone_from(&self.iterations);
    }

    /// Takes in a progress report `p`: the build is over, an IDA* iteration that ended is
    /// recorded, and `p` becomes the latest snapshot.
    fn progressed(&mut self, mut p: Progress) {
        self.building = None;
        if p.ida.done && p.ida.number as usize > self.iterations.len() {
            let before: u64 = self.iterations.iter().map(|i| i.expanded).sum();
            self.iterations.push(FinishedIteration {
                threshold: p.bound,
                expanded: p.expanded.saturating_sub(before),
                histogram: p.histogram.clone(),
            });
        }
        // Batched A*'s final report has no batch of its own: the last round's
        // figures stay.
        if let Some(prev) = self
            .progress
            .as_ref()
            .filter(|_| p.finished && p.algorithm == Some(Algorithm::BatchedAStar))
        {
            p.rounds.batch_boards = prev.rounds.batch_boards;
            p.rounds.eval_seconds = prev.rounds.eval_seconds;
            p.rounds.boards_per_second = prev.rounds.boards_per_second;
        }
        // A report with no boards sampled since the one before (the last, at the search's
        // end) keeps that one's out-of-place shares: the frontier has not moved since.
        if p.misplaced.is_none()
            && let Some(prev) = &self.progress
        {
            p.misplaced = prev.misplaced.clone();
        }
        self.progress = Some(p);
    }

    /// The search solved `start` with `s`, its evaluator `evaluator` (`cpu` or `gpu`) being
    /// `describe`: records the iterations and figures its reports missed, and the solution.
    fn solved(&mut self, s: Solution, evaluator: Evaluated, describe: String, start: &Board) {
        // The solving iteration (and any a report missed), from the statistics.
        for it in s.stats.iterations.iter().skip(self.iterations.len()) {
            self.iterations.push(FinishedIteration {
                threshold: it.threshold,
                expanded: it.expanded,
                histogram: None,
            });
        }
        // The Stats panel shows the final counts (small searches may end before
        // their first progress report).
        let mut p = self.progress.take().unwrap_or_default();
        p.expanded = s.stats.expanded;
        p.generated = s.stats.generated;
        p.seconds = s.stats.seconds;
        p.bound = s.moves.len() as u32;
        p.g = s.moves.len() as u32;
        p.h = 0;
        if s.stats.rounds > 0 {
            p.rounds.count = s.stats.rounds;
        }
        self.progress = Some(p);
        let run = RunInfo {
            evaluator,
            adapter: (evaluator == Evaluated::Gpu).then(|| describe.clone()),
            ..self.info.clone()
        };
        self.solution = Some(SolutionView {
            tiles: tiles_moved(start, &s.moves),
            moves: s.moves,
            all: s.all,
            chosen: 0,
            stats: s.stats,
            evaluator: if evaluator == Evaluated::Gpu {
                format!("gpu ({describe})")
            } else {
                describe
            },
            run,
        });
        self.state = RunState::Done;
    }
}

/// How a search ended: its answer (or why there is none), its evaluator (`cpu` or `gpu`),
/// and that evaluator in words.
type Ending = (Result<Outcome, RunError>, Evaluated, String);

/// A failed search's error `e` in the app's words: a memory limit says what to do about it.
fn failure(e: RunError) -> String {
    match e {
        RunError::Search(e @ SearchError::MemoryLimit { refused: true, .. }) => {
            format!("{e} (pick IDA*, or close other programs)")
        }
        RunError::Search(e @ SearchError::MemoryLimit { .. }) => {
            format!("{e} (raise the Memory cap in the Solver panel, or pick IDA*)")
        }
        e => e.to_string(),
    }
}
