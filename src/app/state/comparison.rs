//! The Compare view's state: the table of one board solved with each heuristic, or the
//! textbook experiment's rows, filled as the worker sends them.

use crate::app::comparer::{CompareJob, CompareMsg, Comparer};
use crate::puzzle::{Board, Goal};
use crate::search::Algorithm;
use crate::search::measure::{DepthRow, Measure};

/// Comparing heuristics.
pub struct Compare {
    /// Seconds each search may take.
    pub cap: f64,
    rows: Vec<Measure>,
    depth_rows: Vec<DepthRow>,
    /// The board of the table.
    board: Option<Board>,
    /// The shape (rows, columns) of the experiment's boards.
    shape: Option<(usize, usize)>,
    running: Option<String>,
    error: Option<String>,
    worker: Option<Comparer>,
}

impl Default for Compare {
    fn default() -> Self {
        Compare {
            cap: 10.0,
            rows: Vec::new(),
            depth_rows: Vec::new(),
            board: None,
            shape: None,
            running: None,
            error: None,
            worker: None,
        }
    }
}

impl Compare {
    /// The table's rows so far (one per search).
    pub fn rows(&self) -> &[Measure] {
        &self.rows
    }

    /// The experiment's rows so far (one per depth).
    pub fn depth_rows(&self) -> &[DepthRow] {
        &self.depth_rows
    }

    /// The board the table is for.
    pub fn board(&self) -> Option<&Board> {
        self.board.as_ref()
    }

    /// The shape (rows, columns) of the experiment's boards.
    pub fn experiment_shape(&self) -> Option<(usize, usize)> {
        self.shape
    }

    /// What runs now (`None`: nothing).
    pub fn running(&self) -> Option<&str> {
        self.running.as_deref()
    }

    /// Whether a comparison runs.
    pub fn is_running(&self) -> bool {
        self.worker.is_some()
    }

    /// Why the last comparison stopped early, if it did.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// Compares the heuristics on `board` (A* up to 3×3, IDA* above, unless `algorithm` is
    /// one of them).
    pub(super) fn start_board(
        &mut self,
        board: Board,
        goal: Goal,
        algorithm: Algorithm,
        cache: super::play::Cache,
    ) {
        let algorithm = match algorithm {
            a @ (Algorithm::AStar | Algorithm::IdaStar) => a,
            _ if board.len() <= 9 => Algorithm::AStar,
            _ => Algorithm::IdaStar,
        };
        // The view shows what ran last.
        self.rows.clear();
        self.depth_rows.clear();
        self.board = Some(board.clone());
        self.start(
            CompareJob::Board {
                board,
                goal,
                algorithm,
            },
            cache,
        );
    }

    /// Runs the textbook experiment towards `goal`.
    pub(super) fn start_experiment(&mut self, goal: Goal, cache: super::play::Cache) {
        self.depth_rows.clear();
        self.rows.clear();
        self.shape = Some((goal.board().rows(), goal.board().cols()));
        self.start(CompareJob::Experiment { goal }, cache);
    }

    fn start(&mut self, job: CompareJob, cache: super::play::Cache) {
        self.error = None;
        self.running = Some("starting".into());
        self.worker = Some(Comparer::start(job, self.cap, cache.dir, cache.max_memory));
    }

    /// Stops the comparison (the rows so far stay).
    pub fn cancel(&mut self) {
        if let Some(w) = self.worker.take() {
            w.cancel();
        }
        self.running = None;
    }

    /// Takes the worker's messages; returns whether anything changed.
    pub(super) fn poll(&mut self) -> bool {
        let mut changed = false;
        while let Some(msg) = self.worker.as_ref().and_then(Comparer::poll) {
            changed = true;
            match msg {
                CompareMsg::Running(what) => self.running = Some(what),
                CompareMsg::Row(r) => self.rows.push(r),
                CompareMsg::Depth(d) => self.depth_rows.push(d),
                CompareMsg::Done(e) => {
                    self.error = e.map(|e| e.to_string());
                    self.running = None;
                    self.worker = None;
                }
            }
        }
        changed
    }
}
