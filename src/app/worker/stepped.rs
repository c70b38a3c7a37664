//! The stepped search on the worker thread: one node per step asked for, or free at a speed
//! (steps a second) or as fast as it goes; its [`History`], so that any step taken can be shown
//! again; and, for IDA*, A* on the same board beside it for the memory row.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

use super::{Job, NONE, Pause, StepView, WorkerMsg, done};
use crate::eval::Evaluated;
use crate::heuristic::HeuristicSpec;
use crate::plan::RunError;
use crate::search::stepper::{HISTORY_BUDGET, History, Step, Stepper};
use crate::search::{Algorithm, IdaIteration, Outcome, Progress, SearchError, Solution};

/// How often a stepped search that runs free sends snapshots, at most.
const VIEW_INTERVAL: Duration = Duration::from_millis(30);

/// Expansions A* is run to beside IDA*, at most (about 50 MB of tables on a 15-puzzle).
pub const BESIDE_LIMIT: u64 = 250_000;

/// What A* holds on the same board after as many expansions as IDA* has made (or at its end,
/// when it needed fewer).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AStarHeld {
    /// A*'s expansions at that moment.
    pub expanded: u64,
    /// Boards on its open list.
    pub open: usize,
    /// Boards on its closed list.
    pub closed: usize,
    /// A* had solved the board in `expanded` expansions (the figures are at its end).
    pub solved: bool,
    /// A* was stopped at [`BESIDE_LIMIT`] expansions or by the memory cap before it got this
    /// far (the figures are at that point).
    pub stopped: bool,
}

/// A* stepped beside IDA*: its open and closed sizes after each expansion.
struct Beside {
    astar: Option<Stepper>,
    /// (open, closed) after 0, 1, 2, … expansions.
    sizes: Vec<(u32, u32)>,
    solved: bool,
}

impl Beside {
    fn new(ida: &Stepper, max_memory: u64) -> Option<Beside> {
        let astar = ida.astar_beside(max_memory)?;
        Some(Beside {
            astar: Some(astar),
            sizes: vec![(1, 0)],
            solved: false,
        })
    }

    /// A* after `n` expansions (stepped on as far as needed), or at its end; `None` when
    /// `interrupted` said so on the way (checked every 1,024 expansions: a jump far ahead
    /// takes A* up to [`BESIDE_LIMIT`] expansions, about a second). What A* did so far is
    /// kept for the next call.
    fn held(&mut self, n: u64, interrupted: impl Fn() -> bool) -> Option<AStarHeld> {
        while (self.sizes.len() as u64) <= n.min(BESIDE_LIMIT) {
            let Some(a) = self.astar.as_mut() else { break };
            if self.sizes.len().is_multiple_of(1024) && interrupted() {
                return None;
            }
            let step = a.step();
            let size = (a.open_len() as u32, a.closed_len() as u32);
            match step {
                Ok(Step::Expanded) => self.sizes.push(size),
                Ok(_) => {
                    // Solved: the goal taken off the open list, not expanded.
                    *self.sizes.last_mut().expect("never empty") = size;
                    self.solved = true;
                    self.astar = None;
                }
                Err(_) => self.astar = None,
            }
        }
        let at = (n as usize).min(self.sizes.len() - 1);
        let (open, closed) = self.sizes[at];
        let short = (at as u64) < n;
        Some(AStarHeld {
            expanded: at as u64,
            open: open as usize,
            closed: closed as usize,
            solved: short && self.solved,
            stopped: short && !self.solved,
        })
    }
}

/// The stepped search's state on the worker thread.
struct Session<'a> {
    history: History,
    beside: Option<Beside>,
    /// Time spent stepping (not held).
    busy: Duration,
    tx: &'a Sender<WorkerMsg>,
    /// The run's cancel flag and its requests: A* beside IDA* stops catching up for either.
    cancel: &'a AtomicBool,
    pause: &'a Pause,
}

impl Session<'_> {
    /// Sends the moment shown: its [`StepView`], then its `Progress`; nothing when A* beside
    /// IDA* was interrupted catching up (the run is cancelled, or a "go to step" waits,
    /// whose moment is sent instead).
    fn send(&mut self) {
        let s = self.history.stepper();
        let (cancel, go_to) = (self.cancel, &self.pause.go_to);
        let interrupted = || cancel.load(Ordering::Relaxed) || go_to.load(Ordering::SeqCst) != NONE;
        let astar = match self.beside.as_mut() {
            Some(b) => match b.held(s.expanded(), interrupted) {
                None => return,
                held => held,
            },
            None => None,
        };
        let view = StepView::of(&self.history, astar);
        let _ = self.tx.send(WorkerMsg::Inspect(Box::new(view)));
        let _ = self.tx.send(WorkerMsg::Progress(Box::new(Progress {
            seconds: self.busy.as_secs_f64(),
            ..s.progress()
        })));
    }

    /// The finished iteration's last report, as the fast IDA* sends one.
    fn send_iteration_end(&self) {
        let s = self.history.stepper();
        let (Some(it), Some(h)) = (s.iterations().last(), s.finished_histogram()) else {
            return;
        };
        let done: u64 = s.iterations().iter().map(|i| i.expanded).sum();
        let _ = self.tx.send(WorkerMsg::Progress(Box::new(Progress {
            algorithm: Some(Algorithm::IdaStar),
            seconds: self.busy.as_secs_f64(),
            expanded: done,
            generated: s.generated(),
            bound: it.threshold,
            histogram: Some(h.clone()),
            ida: IdaIteration {
                number: s.iterations().len() as u32,
                done: true,
                expanded: it.expanded,
                generated: it.generated,
                estimate: None,
            },
            ..Progress::default()
        })));
    }

    /// Serves a "go to step" request (Back is one too), if one waits: shows that step.
    /// Whether one did.
    fn travel(&mut self, pause: &Pause) -> bool {
        let to = pause.go_to.swap(NONE, Ordering::SeqCst);
        if to == NONE {
            return false;
        }
        self.history.go_to(to);
        self.send();
        true
    }

    /// The search's answer at the step shown (solved there), for the worker's last message.
    fn outcome(&self) -> Outcome {
        let s = self.history.stepper();
        let mut stats = s.stats();
        stats.seconds = self.busy.as_secs_f64();
        Outcome::Solved(Solution {
            moves: s.solution().unwrap_or_default().to_vec(),
            stats,
            all: None,
        })
    }
}

/// A stepped search, run on the worker thread: one node per requested step, a [`StepView`]
/// and a `Progress` after each request (and every [`VIEW_INTERVAL`] while it runs free),
/// "go to step" (Back too) served from its [`History`]; holds while paused with nothing asked,
/// waiting on the wake channel. When it ends (solved, or an error) it sends its answer and
/// keeps serving the history until cancelled. Returns the stepper for batched A* at Run (as
/// fast as possible): batches go on from there; `None` when it has ended.
pub(super) fn run_stepped(
    job: &Job,
    spec: &HeuristicSpec,
    cancel: &AtomicBool,
    pause: &Pause,
    tx: &Sender<WorkerMsg>,
) -> Option<Box<Stepper>> {
    // Stepped, GPU IDA* is IDA* (the same tree, one node a step, on the CPU), and batched A*
    // is A* until Run hands its search over to batches.
    let hand_off = job.algorithm == Algorithm::BatchedAStar;
    let algorithm = match job.algorithm {
        Algorithm::BatchedAStar => Algorithm::AStar,
        Algorithm::GpuIdaStar => Algorithm::IdaStar,
        a => a,
    };
    let s = match Stepper::new(&job.problem, algorithm, spec, job.max_memory) {
        Ok(s) => s,
        Err(e) => {
            done_stepped(tx, Err(e));
            return None;
        }
    };
    let beside = (algorithm == Algorithm::IdaStar)
        .then(|| Beside::new(&s, job.max_memory))
        .flatten();
    let mut run = Session {
        history: History::new(s, HISTORY_BUDGET),
        beside,
        busy: Duration::ZERO,
        tx,
        cancel,
        pause,
    };
    run.send();
    let end = match drive(&mut run, cancel, pause, hand_off) {
        Driven::HandOff => return Some(Box::new(run.history.stepper().clone())),
        Driven::Cancelled => return None,
        Driven::Ended(r) => r,
    };
    done_stepped(tx, end.map(|()| run.outcome()));
    replay(&mut run, cancel, pause);
    None
}

/// How [`drive`] ended.
enum Driven {
    HandOff,
    Cancelled,
    /// Solved, or an error.
    Ended(Result<(), SearchError>),
}

/// Steps the search as asked (steps, layers, free at the speed set) until it ends, is
/// cancelled or, `hand_off`, is run as fast as possible.
fn drive(run: &mut Session, cancel: &AtomicBool, pause: &Pause, hand_off: bool) -> Driven {
    // Free at a speed: since when, and the steps taken since.
    let mut pace: Option<Pace> = None;
    let mut last = Instant::now();
    loop {
        if cancel.load(Ordering::Relaxed) {
            run.send();
            return Driven::Cancelled;
        }
        if run.travel(pause) {
            continue;
        }
        let free = !pause.paused.load(Ordering::Relaxed);
        let rate = pause.rate.load(Ordering::Relaxed);
        if free && hand_off && rate == 0 {
            return Driven::HandOff;
        }
        let asked = pause.layer.load(Ordering::SeqCst) || pause.steps.load(Ordering::SeqCst) > 0;
        if !(free || asked) {
            pace = None;
            pause.held.store(true, Ordering::SeqCst);
            pause.wait(Duration::from_secs(1));
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
        let ask = if layer {
            Ask::Layer
        } else if one {
            Ask::One
        } else if rate > 0 {
            // Free at `rate` steps a second: the steps due since it began at that rate, no
            // more often than a view is sent.
            let p = pace.get_or_insert(Pace {
                epoch: Instant::now(),
                rate,
                taken: 0,
            });
            if p.rate != rate {
                *p = Pace {
                    epoch: Instant::now(),
                    rate,
                    taken: 0,
                };
            }
            let due = (p.epoch.elapsed().as_secs_f64() * f64::from(rate)) as u64;
            if due <= p.taken {
                let next =
                    p.epoch + Duration::from_secs_f64((p.taken + 1) as f64 / f64::from(rate));
                // Held until then: everything is sent, the window need not redraw.
                pause.held.store(true, Ordering::SeqCst);
                pause.wait(
                    next.saturating_duration_since(Instant::now())
                        .max(VIEW_INTERVAL.saturating_sub(last.elapsed())),
                );
                pause.held.store(false, Ordering::SeqCst);
                continue;
            }
            let n = due - p.taken;
            p.taken = due;
            last = Instant::now();
            Ask::Free(n)
        } else {
            Ask::Free(u64::MAX)
        };
        match advance(run, cancel, pause, ask) {
            Ok(true) => return Driven::Ended(Ok(())),
            Ok(false) => {}
            Err(e) => return Driven::Ended(Err(e)),
        }
    }
}

/// A free run at a speed: since when, at how many steps a second, and the steps taken since.
struct Pace {
    epoch: Instant,
    rate: u32,
    taken: u64,
}

/// What a turn of [`drive`] asked for: one step, to the layer's end, or up to `n` steps free.
#[derive(Clone, Copy)]
enum Ask {
    One,
    Layer,
    Free(u64),
}

/// Steps on as `ask` says, sending a view every [`VIEW_INTERVAL`] on the way and one at the
/// end. Whether the search is solved.
///
/// # Errors
/// As [`Stepper::step`].
fn advance(
    run: &mut Session,
    cancel: &AtomicBool,
    pause: &Pause,
    ask: Ask,
) -> Result<bool, SearchError> {
    let bound = run.history.stepper().bound();
    let mut mark = Instant::now();
    let mut taken = 0;
    let step = loop {
        let step = run.history.step();
        taken += 1;
        let stop = match ask {
            Ask::One => true,
            Ask::Layer => run.history.stepper().bound() != bound,
            Ask::Free(most) => taken >= most || pause.paused.load(Ordering::Relaxed),
        };
        if !matches!(step, Ok(Step::Expanded))
            || stop
            || cancel.load(Ordering::Relaxed)
            || pause.go_to.load(Ordering::Relaxed) != NONE
        {
            break step;
        }
        if mark.elapsed() >= VIEW_INTERVAL {
            run.busy += mark.elapsed();
            run.send();
            mark = Instant::now();
        }
    };
    run.busy += mark.elapsed();
    match step {
        Ok(Step::Solved) => {
            run.send();
            Ok(true)
        }
        Err(e) => {
            run.send();
            Err(e)
        }
        Ok(Step::NextIteration(_)) => {
            run.send_iteration_end();
            run.send();
            Ok(false)
        }
        Ok(Step::Expanded) => {
            // A batch of ×10 sends one snapshot, at its end.
            if pause.steps.load(Ordering::Relaxed) == 0 || matches!(ask, Ask::Free(_)) {
                run.send();
            }
            Ok(false)
        }
    }
}

/// After the search ended: shows the steps asked for (go to, back, steps on up to the end)
/// until cancelled, holding in between.
fn replay(run: &mut Session, cancel: &AtomicBool, pause: &Pause) {
    while !cancel.load(Ordering::Relaxed) {
        if run.travel(pause) {
            continue;
        }
        let n = pause.steps.swap(0, Ordering::SeqCst);
        let layer = pause.layer.swap(false, Ordering::SeqCst);
        if n > 0 || layer {
            pause.held.store(false, Ordering::SeqCst);
            let f = run.history.figures();
            let to = if layer { f.reached } else { f.at + n };
            run.history.go_to(to);
            run.send();
            continue;
        }
        pause.held.store(true, Ordering::SeqCst);
        pause.wait(Duration::from_secs(1));
    }
}

/// A stepped search's end, as the worker's last message.
fn done_stepped(tx: &Sender<WorkerMsg>, result: Result<Outcome, SearchError>) {
    done(
        tx,
        result.map_err(RunError::Search),
        Evaluated::Cpu,
        "cpu (stepped)".to_string(),
    );
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::*;
    use crate::heuristic::HeuristicKind;
    use crate::puzzle::GoalSpec;
    use crate::search::Problem;

    /// A* beside IDA* on Korf's first 15-puzzle (57 moves: A* does not end within the figures
    /// asked here).
    fn beside() -> Beside {
        let start = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3".parse().unwrap();
        let goal = GoalSpec::BlankFirst.resolve(4, 4).unwrap();
        let spec = HeuristicSpec::Kind(HeuristicKind::Manhattan);
        let p = Problem { start, goal };
        let ida = Stepper::new(&p, Algorithm::IdaStar, &spec, 1 << 30).unwrap();
        Beside::new(&ida, 1 << 30).unwrap()
    }

    #[test]
    fn an_interrupted_catch_up_sends_nothing_and_keeps_what_a_star_did() {
        let mut b = beside();
        // Asked at each check whether to stop: yes at the third.
        let asked = Cell::new(0);
        let third = || {
            asked.set(asked.get() + 1);
            asked.get() == 3
        };
        assert_eq!(b.held(100_000, third), None);
        // Checked with 1,024, 2,048 and 3,072 sizes recorded (0 to 3,071 expansions): stopped
        // at the third.
        assert_eq!(b.sizes.len(), 3072);
        let mut fresh = beside();
        let at = |b: &mut Beside, n| b.held(n, || false).unwrap();
        assert_eq!(at(&mut b, 3000), at(&mut fresh, 3000));
        let held = at(&mut b, 500);
        assert_eq!(
            (held.expanded, held.solved, held.stopped),
            (500, false, false)
        );
        assert_eq!(held, at(&mut fresh, 500));
    }
}
