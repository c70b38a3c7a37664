//! Batch heuristic evaluation: one interface for the CPU and (feature `gpu`) the GPU.
//!
//! A batch is `count` boards of the same size laid end to end, each `rows × cols` bytes,
//! row-major, one byte per tile, `0` = blank. The evaluator writes one `h` (moves) per board.

#[cfg(feature = "gpu")]
pub mod gpu;
#[cfg(feature = "gpu")]
mod gpu_context;
#[cfg(feature = "gpu")]
pub mod gpu_ida;
#[cfg(feature = "gpu")]
mod gpu_layout;
pub mod ida;
pub mod lanes;

use crate::heuristic::{Heuristic, HeuristicKind};
use crate::puzzle::Goal;
use rayon::prelude::*;

/// Why a batch could not be evaluated, or GPU IDA*'s device could not go on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EvalError {
    /// The batch length is not a multiple of the board size.
    #[error("batch of {len} bytes is not a whole number of {cells}-cell boards")]
    Ragged {
        /// Bytes given.
        len: usize,
        /// Cells per board.
        cells: usize,
    },
    /// A device error (GPU evaluators).
    #[error("device error: {0}")]
    Device(String),
    /// An evaluator that answered another number of values than boards asked.
    #[error("evaluator returned {values} values for {boards} boards")]
    Count {
        /// Values returned.
        values: usize,
        /// Boards asked.
        boards: usize,
    },
    /// A GPU IDA* threshold over the 255 moves its bytes hold.
    #[error("threshold {0} is over the 255 moves GPU IDA* takes")]
    Threshold(u32),
    /// A GPU IDA* threshold deeper below the subtree roots than the device's stacks.
    #[error(
        "threshold {bound} is {} moves below the subtree roots at depth {g}; the device's \
         stacks hold {depth}",
        bound - g
    )]
    TooDeep {
        /// The threshold.
        bound: u32,
        /// The roots' depth.
        g: u32,
        /// The stacks' depth.
        depth: u32,
    },
    /// Rounds cut short by the adapter at the smallest budget.
    #[error("the adapter cut rounds of {0} expansions short (a software adapter's loop limit)")]
    RoundsCut(u32),
    /// The device named a subtree root that is not one.
    #[error("the device names root {root} of {roots}")]
    NoSuchRoot {
        /// The root named.
        root: usize,
        /// Roots there are.
        roots: usize,
    },
}

/// What evaluated h in a run: the CPU (inline in the search, or a [`CpuEvaluator`]) or the
/// GPU. Written `cpu` / `gpu` in the output ([`Evaluated::name`], and so in JSON).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Evaluated {
    /// The CPU.
    Cpu,
    /// A GPU adapter (lavapipe's software one counts).
    Gpu,
}

impl Evaluated {
    /// `cpu` or `gpu`.
    pub fn name(self) -> &'static str {
        match self {
            Evaluated::Cpu => "cpu",
            Evaluated::Gpu => "gpu",
        }
    }
}

impl std::fmt::Display for Evaluated {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Evaluates `h` for many boards at once.
pub trait BatchEvaluator: Send {
    /// Where it evaluates.
    fn kind(&self) -> Evaluated;

    /// Human-readable description, e.g. `cpu (2 threads)` or the GPU adapter's name and backend.
    fn describe(&self) -> String;

    /// The name of the heuristic computed.
    fn heuristic(&self) -> &str;

    /// Writes `h` of each board of `boards` (see the module docs for the layout) into `out`,
    /// which is cleared first.
    ///
    /// # Errors
    /// [`EvalError::Ragged`] for a partial board; [`EvalError::Device`] from a GPU.
    fn evaluate(&mut self, boards: &[u8], out: &mut Vec<u32>) -> Result<(), EvalError>;
}

/// The CPU evaluator, on one thread or on rayon's pool.
pub struct CpuEvaluator {
    h: Box<dyn Heuristic>,
    cells: usize,
    threads: usize,
}

impl CpuEvaluator {
    /// An evaluator of `kind` for `goal`, using `threads` threads (1 = the calling thread only;
    /// more = rayon's global pool).
    pub fn new(kind: HeuristicKind, goal: &Goal, threads: usize) -> Self {
        Self::with_heuristic(kind.build(goal), goal.board().len(), threads)
    }

    /// An evaluator of any heuristic for boards of `cells` cells.
    pub fn with_heuristic(h: Box<dyn Heuristic>, cells: usize, threads: usize) -> Self {
        CpuEvaluator {
            h,
            cells,
            threads: threads.max(1),
        }
    }
}

impl BatchEvaluator for CpuEvaluator {
    fn kind(&self) -> Evaluated {
        Evaluated::Cpu
    }

    fn describe(&self) -> String {
        format!(
            "cpu ({} thread{})",
            self.threads,
            if self.threads == 1 { "" } else { "s" }
        )
    }

    fn heuristic(&self) -> &str {
        self.h.name()
    }

    fn evaluate(&mut self, boards: &[u8], out: &mut Vec<u32>) -> Result<(), EvalError> {
        if !boards.len().is_multiple_of(self.cells) {
            return Err(EvalError::Ragged {
                len: boards.len(),
                cells: self.cells,
            });
        }
        out.clear();
        let h = self.h.as_ref();
        if self.threads == 1 {
            out.extend(boards.chunks_exact(self.cells).map(|b| h.estimate(b)));
        } else {
            boards
                .par_chunks_exact(self.cells)
                .map(|b| h.estimate(b))
                .collect_into_vec(out);
        }
        Ok(())
    }
}
