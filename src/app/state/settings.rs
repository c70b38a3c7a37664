//! The solver settings chosen in the Solver panel.

use std::path::PathBuf;

use crate::heuristic::HeuristicChoice;
use crate::heuristic::HeuristicKind;
use crate::search::{Algorithm, DEFAULT_BATCH_SIZE, Weight};

/// Where the app evaluates h: `Gpu` (the GPU when there is an adapter, else the CPU) or `Cpu`
/// (its Solver panel offers these two; `Auto` reads as `Gpu`).
pub use crate::plan::EvaluatorChoice;

/// Solver settings chosen in the Solver panel (plain values the panel edits in place).
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Search algorithm (never `Auto` here).
    pub algorithm: Algorithm,
    /// Weighted A*'s weight, kept while another algorithm is chosen (the slider's, 1 to 5).
    pub weight: Weight,
    /// Heuristic.
    pub heuristic: HeuristicChoice,
    /// Evaluator for batched A*.
    pub evaluator: EvaluatorChoice,
    /// Nodes expanded per round (batched A*).
    pub batch_size: usize,
    /// Memory cap, in MiB.
    pub max_memory_mib: u64,
    /// Pattern-database cache folder; `None` = `NPUZZLE_CACHE_DIR` or the user's cache folder.
    pub pdb_cache: Option<PathBuf>,
    /// Find every optimal solution (BFS, A*, IDA*): the Solution panel then counts them and
    /// lists the first [`DEFAULT_MAX_SOLUTIONS`](crate::search::DEFAULT_MAX_SOLUTIONS).
    pub all_solutions: bool,
    /// The pattern database last used on each board shape (rows, cols) and set aside when a
    /// board of another shape came in: it comes back with a board of that shape.
    pdb_by_shape: Vec<((usize, usize), HeuristicChoice)>,
    /// The speed dial: steps a second of a search that runs stepped (Start, Run); 0: as fast
    /// as it goes (Start then runs the fast search).
    pub steps_per_second: u32,
}

/// The speed dial's stops, in steps a second; 0 (as fast as possible) comes last.
pub const SPEEDS: [u32; 11] = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 0];

/// The speed the app starts with: slow enough to watch each node expanded.
pub const DEFAULT_SPEED: u32 = 10;

impl Default for Settings {
    /// Batched A* with linear conflict on the GPU, the library's default batch size and
    /// memory cap.
    fn default() -> Self {
        Settings {
            algorithm: Algorithm::BatchedAStar,
            weight: Weight::DEFAULT,
            heuristic: HeuristicChoice::Kind(HeuristicKind::LinearConflict),
            evaluator: EvaluatorChoice::Gpu,
            batch_size: DEFAULT_BATCH_SIZE,
            max_memory_mib: crate::search::default_max_memory() >> 20,
            pdb_cache: None,
            all_solutions: false,
            pdb_by_shape: Vec::new(),
            steps_per_second: DEFAULT_SPEED,
        }
    }
}

impl Settings {
    /// The memory cap in bytes.
    pub fn max_memory(&self) -> u64 {
        self.max_memory_mib.saturating_mul(1 << 20)
    }

    /// The pattern database set aside for boards of `shape` (rows, cols), if any.
    pub fn pdb_for_shape(&self, shape: (usize, usize)) -> Option<HeuristicChoice> {
        self.pdb_by_shape
            .iter()
            .find(|(s, _)| *s == shape)
            .map(|(_, c)| c.clone())
    }

    /// Sets `choice` aside for boards of `shape` (replacing what was kept for it).
    pub fn keep_pdb_for_shape(&mut self, shape: (usize, usize), choice: HeuristicChoice) {
        self.pdb_by_shape.retain(|(s, _)| *s != shape);
        self.pdb_by_shape.push((shape, choice));
    }
}
