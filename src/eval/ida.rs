//! What the search needs of a device that runs IDA* below many subtree roots at once
//! ([`IdaDevice`]), in resumable rounds: the GPU's implementation is
//! [`GpuIda`](super::gpu_ida::GpuIda) (feature `gpu`); the iteration loop around it is
//! `search::gpu_idastar`. Nothing here knows of wgpu.
//!
//! One IDA* iteration with threshold `bound` on the device: [`begin`](IdaDevice::begin) uploads
//! the subtree roots (the host's search down to a split depth collected them), then each
//! [`round`](IdaDevice::round) lets every invocation advance its own depth-first search by at
//! most `budget` expansions, its stack kept on the device so that the next round resumes it,
//! until the report says the iteration is exhausted or a solution was found.

use super::EvalError;
use crate::puzzle::Move;

/// Rows of [`RoundReport::histogram`]: `g` below this.
pub const HIST_G: usize = 192;
/// Columns of [`RoundReport::histogram`]: `h` below this.
pub const HIST_H: usize = 128;

/// What one round did (counts of this round only, except `min_f`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RoundReport {
    /// Nodes expanded in the round (f ≤ bound, not the goal).
    pub expanded: u64,
    /// Nodes generated in the round (successors the pruning automaton allows).
    pub generated: u64,
    /// The smallest f above the bound seen in the iteration so far (`u32::MAX`: none): the
    /// next threshold once the iteration is exhausted.
    pub min_f: u32,
    /// Whether an invocation reached the goal ([`IdaDevice::solution`] gives the moves).
    pub found: bool,
    /// Subtrees (roots and donated nodes) searched to the end in the round, or dropped (their
    /// search had ended: see [`LaneDevice`]).
    pub finished: u64,
    /// Invocations still searching at the round's end.
    pub busy: u64,
    /// Invocations on the device.
    pub invocations: u64,
    /// Expansions an invocation was allowed in the round: the budget asked for, capped by the
    /// device (`GpuIda`'s cap on a software adapter, its limit on the counts).
    pub budget: u32,
    /// Expansions made over the most the round allowed (invocations × budget), 0..=1: the
    /// share of the device that had work.
    pub busy_share: f64,
    /// Nodes whose untried moves an invocation handed to the queue for idle ones.
    pub donated: u64,
    /// Those of `donated` handed out within the round, to invocations waiting then (the
    /// rest at its end, for the next round).
    pub donated_within: u64,
    /// Items handed out within the round and taken in it.
    pub taken_within: u64,
    /// Items taken within the round before they were all written: loaded at the start of
    /// the next round.
    pub pending: u64,
    /// Whether the adapter cut the round short (lavapipe ends a shader's loops after 65,535
    /// iterations in all, the "loop limiter" of Mesa's gallivm): the iteration's state on
    /// the device is lost, so it must be searched again; the device has lowered its cap on
    /// the expansions of a round.
    pub cut: bool,
    /// Whether every subtree of the iteration has been searched.
    pub exhausted: bool,
    /// Nodes generated in the round by `(g, h)`: `histogram[g * HIST_H + h]`, when asked for
    /// in [`IdaDevice::begin`] (else empty); `g ≥ HIST_G` or `h ≥ HIST_H` is not counted.
    pub histogram: Vec<u32>,
    /// Wall-clock seconds of the round: upload, dispatch, readback.
    pub seconds: f64,
}

/// A subtree root: where an invocation's depth-first search starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubtreeRoot<'a> {
    /// The board, row-major, `0` = blank.
    pub tiles: &'a [u8],
    /// Moves from the start.
    pub g: u32,
    /// The move that led here; `None` at the start.
    pub prev: Option<Move>,
    /// Its state in the pruning automaton given to [`IdaDevice::set_pruning`].
    pub fsm: u16,
}

/// A device that searches IDA* subtrees in resumable rounds.
pub trait IdaDevice {
    /// The adapter, e.g. `llvmpipe (LLVM 15.0.6, 256 bits) / Vulkan`.
    fn describe(&self) -> String;

    /// Parallel searches on the device (invocations).
    fn invocations(&self) -> usize;

    /// Subtree roots worth handing over per iteration: enough to give every invocation work
    /// at the start (the device's own hand-out keeps them busy after that).
    fn frontier_target(&self) -> usize;

    /// The most moves an invocation may go below its root (its stack's depth).
    fn max_depth(&self) -> u32;

    /// Takes IDA*'s pruning automaton, whose states the roots of [`IdaDevice::begin`] name:
    /// `table[state][move]` is the state a move leads to, or `u16::MAX` where the move is
    /// pruned ([`MoveFsm::table`](crate::search::MoveFsm::table): "never undo" or the
    /// duplicate-sequence automaton). Called before the first iteration.
    ///
    /// # Errors
    /// [`EvalError::Device`] when the device fails or the automaton does not fit it.
    fn set_pruning(&mut self, table: &[[u16; 4]]) -> Result<(), EvalError>;

    /// Starts an iteration with threshold `bound` (moves) below `roots`; `histogram` asks the
    /// rounds for their `(g, h)` counts.
    ///
    /// # Errors
    /// [`EvalError::Device`] when the device fails or the roots do not fit it.
    fn begin(
        &mut self,
        bound: u32,
        roots: &[SubtreeRoot<'_>],
        histogram: bool,
    ) -> Result<(), EvalError>;

    /// Runs one round: every invocation makes at most `budget` expansions.
    ///
    /// # Errors
    /// [`EvalError::Device`] when the device fails.
    fn round(&mut self, budget: u32) -> Result<RoundReport, EvalError>;

    /// After a round that found the goal: the index of the root it was found below and the
    /// moves from that root to the goal.
    ///
    /// # Errors
    /// [`EvalError::Device`] when the device fails or no goal was found.
    fn solution(&mut self) -> Result<(usize, Vec<Move>), EvalError>;

    /// The search is over (answered, stopped at a limit, or failed): what is left of its
    /// iteration on the device may be dropped. A device that serves one search at a time
    /// has nothing to do.
    fn finish(&mut self) {}
}

/// One lane's part of a round on a [`LaneDevice`] (counts of this round only, but `min_f`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LaneReport {
    /// Nodes the lane's search expanded in the round.
    pub expanded: u64,
    /// Nodes it generated in the round.
    pub generated: u64,
    /// The least f above its threshold seen in its iteration so far (`u32::MAX`: none).
    pub min_f: u32,
    /// Whether an invocation reached its goal ([`LaneDevice::lane_solution`] gives the
    /// moves): the lane's other work is dropped.
    pub found: bool,
    /// Whether its iteration has been searched to the end.
    pub exhausted: bool,
    /// Whether it has nothing left on the device (nothing added since, or every item of a
    /// stopped search dropped): it may be given to another search.
    pub idle: bool,
}

/// A device whose invocations serve several IDA* searches at once, each in its own lane
/// (many boards of a bench on one GPU): each lane's iteration has its own threshold, roots
/// and counts, and is begun whenever its search is ready, while the others' go on; every
/// round advances them all. A finished iteration of a lane expands and generates exactly
/// what the same iteration on an [`IdaDevice`] of its own would.
pub trait LaneDevice: IdaDevice + Send {
    /// Lanes the device has.
    fn lanes(&self) -> usize;

    /// Empties every lane and the work items, with room for `roots` subtree roots at once
    /// besides the items handed out (the lanes' roots together).
    ///
    /// # Errors
    /// [`EvalError::Device`] when the device fails or the room does not fit it.
    fn reset_lanes(&mut self, roots: usize) -> Result<(), EvalError>;

    /// Begins an iteration with threshold `bound` below `roots` in `lane`, which must be idle
    /// ([`LaneReport::idle`], or never used since [`LaneDevice::reset_lanes`]). Returns
    /// `false`, adding nothing, while the work items have no room for them: a round makes
    /// room.
    ///
    /// # Errors
    /// [`EvalError::Device`] for a lane out of range or roots the device cannot take.
    fn add(
        &mut self,
        lane: usize,
        bound: u32,
        roots: &[SubtreeRoot<'_>],
    ) -> Result<bool, EvalError>;

    /// Ends `lane`'s search: its items are dropped as the rounds reach them, until it is idle.
    fn stop(&mut self, lane: usize);

    /// Runs one round of every lane: every invocation makes at most `budget` expansions.
    /// Returns the round as a whole (its counts the lanes' together; `min_f`, `found` and
    /// `exhausted` lane 0's) and each lane's part.
    ///
    /// # Errors
    /// [`EvalError::Device`] when the device fails.
    fn lane_round(&mut self, budget: u32) -> Result<(RoundReport, Vec<LaneReport>), EvalError>;

    /// After a round in which `lane` found its goal, before the next: the index of the root
    /// it was found below and the moves from that root to the goal.
    ///
    /// # Errors
    /// [`EvalError::Device`] when the device fails or the lane found no goal.
    fn lane_solution(&mut self, lane: usize) -> Result<(usize, Vec<Move>), EvalError>;
}
