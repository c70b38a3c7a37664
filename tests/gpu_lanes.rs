//! Several GPU IDA* searches at once on one device, each in a lane
//! (`npuzzle::eval::lanes`, what `bench --algorithm gpu-idastar` runs): each search must
//! expand and generate exactly the CPU IDA*'s nodes in every finished iteration and find the
//! optimum, replayed, while the others' iterations run in the same rounds. On lavapipe in CI
//! (`NPUZZLE_REQUIRE_GPU=1` makes a missing adapter a failure).
#![cfg(feature = "gpu")]

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

use common::gpu::{check, context};
use common::{board, goal, korf100, pdb};
use npuzzle::eval::EvalError;
use npuzzle::eval::gpu_ida::GpuIda;
use npuzzle::eval::ida::{IdaDevice, LaneDevice, LaneReport, RoundReport, SubtreeRoot};
use npuzzle::eval::lanes::SharedDevice;
use npuzzle::heuristic::{HeuristicKind, HeuristicSpec};
use npuzzle::puzzle::{Board, Goal, GoalSpec, Move};
use npuzzle::search::{Engine, Limits, Outcome, Problem, SearchError, run};

/// What the rounds of a shared device did, counted by [`Watched`].
#[derive(Default)]
struct Seen {
    /// Rounds in which two lanes or more expanded nodes.
    shared_rounds: AtomicU64,
    /// Iterations begun in a lane while another lane's was under way.
    begun_beside: AtomicU64,
    /// Goals found in a lane while another lane's iteration went on.
    found_beside: AtomicU64,
    /// Lanes stopped with their iteration under way.
    stopped_mid: AtomicU64,
}

/// A [`GpuIda`] whose lanes' rounds are counted in `seen`.
struct Watched {
    dev: GpuIda,
    seen: Arc<Seen>,
    /// Lanes with an iteration under way.
    active: Vec<bool>,
}

impl IdaDevice for Watched {
    fn describe(&self) -> String {
        self.dev.describe()
    }
    fn invocations(&self) -> usize {
        self.dev.invocations()
    }
    fn frontier_target(&self) -> usize {
        self.dev.frontier_target()
    }
    fn max_depth(&self) -> u32 {
        self.dev.max_depth()
    }
    fn set_pruning(&mut self, table: &[[u16; 4]]) -> Result<(), EvalError> {
        self.dev.set_pruning(table)
    }
    fn begin(&mut self, _: u32, _: &[SubtreeRoot<'_>], _: bool) -> Result<(), EvalError> {
        unreachable!("the lanes begin with `add`")
    }
    fn round(&mut self, _: u32) -> Result<RoundReport, EvalError> {
        unreachable!("the lanes run `lane_round`")
    }
    fn solution(&mut self) -> Result<(usize, Vec<Move>), EvalError> {
        unreachable!("the lanes ask `lane_solution`")
    }
}

impl LaneDevice for Watched {
    fn lanes(&self) -> usize {
        self.dev.lanes()
    }
    fn reset_lanes(&mut self, roots: usize) -> Result<(), EvalError> {
        self.active.iter_mut().for_each(|a| *a = false);
        self.dev.reset_lanes(roots)
    }
    fn add(
        &mut self,
        lane: usize,
        bound: u32,
        roots: &[SubtreeRoot<'_>],
    ) -> Result<bool, EvalError> {
        let added = self.dev.add(lane, bound, roots)?;
        if added {
            if self.active.iter().any(|&a| a) {
                self.seen.begun_beside.fetch_add(1, Ordering::Relaxed);
            }
            self.active[lane] = true;
        }
        Ok(added)
    }
    fn stop(&mut self, lane: usize) {
        if self.active[lane] {
            self.seen.stopped_mid.fetch_add(1, Ordering::Relaxed);
        }
        self.active[lane] = false;
        self.dev.stop(lane);
    }
    fn lane_round(&mut self, budget: u32) -> Result<(RoundReport, Vec<LaneReport>), EvalError> {
        let (all, lanes) = self.dev.lane_round(budget)?;
        if lanes.iter().filter(|l| l.expanded > 0).count() >= 2 {
            self.seen.shared_rounds.fetch_add(1, Ordering::Relaxed);
        }
        for (l, r) in lanes.iter().enumerate() {
            if r.found || r.exhausted {
                self.active[l] = false;
                if r.found && self.active.iter().any(|&a| a) {
                    self.seen.found_beside.fetch_add(1, Ordering::Relaxed);
                }
            }
        }
        if all.cut {
            self.active.iter_mut().for_each(|a| *a = false);
        }
        Ok((all, lanes))
    }
    fn lane_solution(&mut self, lane: usize) -> Result<(usize, Vec<Move>), EvalError> {
        self.dev.lane_solution(lane)
    }
}

/// Korf's eight easiest 15-puzzles, four at a time on 256 invocations (rounds of at most 64
/// expansions an invocation, so that every iteration takes several), with linear conflict and
/// with pdb555: every search's finished iterations have the CPU's counts and its answer is the
/// optimum, replayed. The lanes must really share the device: rounds in which two lanes
/// expanded nodes, iterations begun while another's was under way, goals found while another
/// searched on (its lane then drained and given to the next board). So that they do whatever
/// the threads' timing, with linear conflict a fourth thread searches Korf's hardest board
/// (far more nodes than the eight) all the while, and cancels it mid-iteration once the eight are checked:
/// its lane is stopped, its items dropped. (With pdb555 that board takes a second: the four
/// threads search the eight, and only their counts are checked.)
#[test]
fn boards_searched_at_once_in_lanes_expand_the_cpu_nodes() {
    let Some(ctx) = context("boards_searched_at_once_in_lanes_expand_the_cpu_nodes") else {
        return;
    };
    let g = goal(&GoalSpec::BlankFirst, 4, 4);
    let mut korf = korf100();
    korf.sort_by_key(|k| k.2);
    let korf = &korf[..8];
    let specs = [
        HeuristicSpec::Kind(HeuristicKind::LinearConflict),
        pdb(&g, &[5, 5, 5]),
    ];
    for h in specs {
        let long = matches!(h, HeuristicSpec::Kind(HeuristicKind::LinearConflict));
        let mut dev = GpuIda::new(ctx.clone(), &h, &g, Some(256)).unwrap();
        dev.set_budget_cap(64);
        let seen = Arc::new(Seen::default());
        let watched = Watched {
            active: vec![false; dev.lanes()],
            dev,
            seen: seen.clone(),
        };
        let lanes = SharedDevice::lanes(Box::new(watched), 4);
        assert_eq!(lanes.len(), 4);
        let (next, done) = (AtomicUsize::new(0), AtomicUsize::new(0));
        let (h, g, next, done, long) = (&h, &g, &next, &done, long);
        let hardest = korf100().into_iter().max_by_key(|k| k.2).unwrap();
        let hardest = &board(4, 4, &hardest.1);
        std::thread::scope(|s| {
            for (t, mut lane) in lanes.into_iter().enumerate() {
                s.spawn(move || {
                    if t == 0 && long {
                        let all_done = || done.load(Ordering::Relaxed) == korf.len();
                        let r = cancelled(&mut lane, h, hardest, g, &all_done);
                        assert_eq!(r, Err(SearchError::Cancelled));
                        return;
                    }
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some((id, tiles, optimal)) = korf.get(i) else {
                            break;
                        };
                        let what = format!("Korf #{id} {} in a lane", h.name());
                        let (rounds, len) = check(&mut lane, h, &board(4, 4, tiles), g, &what);
                        assert_eq!(len, *optimal, "{what}");
                        assert!(rounds > 0, "{what}: no device rounds");
                        done.fetch_add(1, Ordering::Relaxed);
                    }
                });
            }
        });
        if !long {
            continue;
        }
        let name = h.name();
        let count = |a: &AtomicU64| a.load(Ordering::Relaxed);
        assert!(
            count(&seen.shared_rounds) > 0,
            "{name}: no round advanced two lanes"
        );
        assert!(
            count(&seen.begun_beside) > 0,
            "{name}: no iteration began beside another"
        );
        assert!(
            count(&seen.found_beside) > 0,
            "{name}: no goal was found beside another search"
        );
        assert!(
            count(&seen.stopped_mid) > 0,
            "{name}: no lane was stopped mid-iteration"
        );
    }
}

/// Searches `start` on `dev` and cancels the search after the first round that leaves its
/// iteration under way once `when` holds, so that it stops mid-iteration.
fn cancelled(
    dev: &mut dyn IdaDevice,
    h: &HeuristicSpec,
    start: &Board,
    g: &Goal,
    when: &dyn Fn() -> bool,
) -> Result<Outcome, SearchError> {
    let cancel = Arc::new(AtomicBool::new(false));
    let limits = Limits {
        cancel: Some(cancel.clone()),
        ..Limits::default()
    };
    let problem = Problem {
        start: start.clone(),
        goal: g.clone(),
    };
    let mut device = CancelMidIteration { dev, cancel, when };
    let engine = Engine::Device {
        device: &mut device,
        heuristic: h.clone(),
    };
    run(&problem, engine, &limits, &mut |_| {})
}

/// A device that sets `cancel` after a round that leaves an iteration under way, once `when`
/// holds.
struct CancelMidIteration<'d> {
    dev: &'d mut dyn IdaDevice,
    cancel: Arc<AtomicBool>,
    when: &'d dyn Fn() -> bool,
}

impl IdaDevice for CancelMidIteration<'_> {
    fn describe(&self) -> String {
        self.dev.describe()
    }
    fn invocations(&self) -> usize {
        self.dev.invocations()
    }
    fn frontier_target(&self) -> usize {
        self.dev.frontier_target()
    }
    fn max_depth(&self) -> u32 {
        self.dev.max_depth()
    }
    fn set_pruning(&mut self, table: &[[u16; 4]]) -> Result<(), EvalError> {
        self.dev.set_pruning(table)
    }
    fn begin(
        &mut self,
        bound: u32,
        roots: &[SubtreeRoot<'_>],
        histogram: bool,
    ) -> Result<(), EvalError> {
        self.dev.begin(bound, roots, histogram)
    }
    fn round(&mut self, budget: u32) -> Result<RoundReport, EvalError> {
        let r = self.dev.round(budget)?;
        if !r.found && !r.exhausted && !r.cut && (self.when)() {
            self.cancel.store(true, Ordering::Relaxed);
        }
        Ok(r)
    }
    fn solution(&mut self) -> Result<(usize, Vec<Move>), EvalError> {
        self.dev.solution()
    }
    fn finish(&mut self) {
        self.dev.finish();
    }
}
