//! The Compare view's state: the table of one board solved with each heuristic, or the
//! textbook experiment's rows, filled as the worker sends them.

use crate::app::comparer::{CompareJob, CompareMsg, Comparer};
use crate::puzzle::{Board, Goal};
use crate::search::Algorithm;
use crate::search::measure::{DepthRow, ExperimentSettings, Measure};

/// The textbook experiment's depths as the view edits them: `from` to `to` (moves) by
/// `step`; Russell & Norvig's 2 to 24 by 2 by default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DepthRange {
    /// The first depth.
    pub from: u32,
    /// The last depth (at most; depths no board has are skipped).
    pub to: u32,
    /// The step between depths (at least 1).
    pub step: u32,
}

impl Default for DepthRange {
    fn default() -> Self {
        DepthRange {
            from: 2,
            to: 24,
            step: 2,
        }
    }
}

impl DepthRange {
    /// The largest depth the view offers (the 3×3 board's farthest is 31 moves; 2×5's are
    /// farther). Depths no board of the shape has are skipped, and said.
    pub const MAX: u32 = 60;

    /// The depths, `from` up to `to` by `step` (`to` below `from`: `from` alone).
    pub fn depths(&self) -> Vec<u32> {
        let to = self.to.clamp(self.from, Self::MAX.max(self.from));
        (self.from..=to)
            .step_by(self.step.max(1) as usize)
            .collect()
    }
}

/// Comparing heuristics.
pub struct Compare {
    /// Seconds each search may take.
    pub cap: f64,
    /// The experiment's depths, as the view edits them (the next run's).
    pub depths: DepthRange,
    /// The experiment's boards per depth, seed and conventions, as the view edits them (the
    /// next run's; [`Compare::experiment`] holds those of the rows shown).
    pub settings: ExperimentSettings,
    rows: Vec<Measure>,
    depth_rows: Vec<DepthRow>,
    /// The board of the table, its goal and the cap it ran with.
    board: Option<(Board, Goal, f64)>,
    /// The goal of the experiment's rows and what it ran with.
    experiment: Option<(Goal, ExperimentSettings)>,
    /// What to read the experiment's rows with (depths skipped).
    note: Option<String>,
    running: Option<String>,
    error: Option<String>,
    worker: Option<Comparer>,
}

impl Default for Compare {
    fn default() -> Self {
        Compare {
            cap: 10.0,
            depths: DepthRange::default(),
            settings: ExperimentSettings::default(),
            rows: Vec::new(),
            depth_rows: Vec::new(),
            board: None,
            experiment: None,
            note: None,
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
        self.board.as_ref().map(|b| &b.0)
    }

    /// The shape (rows, columns) of the experiment's boards.
    pub fn experiment_shape(&self) -> Option<(usize, usize)> {
        let b = self.experiment.as_ref()?.0.board();
        Some((b.rows(), b.cols()))
    }

    /// The goal and settings the experiment's rows were measured with.
    pub fn experiment(&self) -> Option<&(Goal, ExperimentSettings)> {
        self.experiment.as_ref()
    }

    /// What to read the experiment's rows with (depths skipped), if anything.
    pub fn note(&self) -> Option<&str> {
        self.note.as_deref()
    }

    /// The rows shown as CSV text with the columns of `npuzzle compare --format csv`: the
    /// experiment's when it has rows, else the board's table; `None` when there are none.
    ///
    /// # Errors
    /// A row that cannot be written (a bug), in words.
    pub fn csv(&self) -> Option<Result<String, String>> {
        let text = if let (false, Some((goal, settings))) =
            (self.depth_rows.is_empty(), &self.experiment)
        {
            crate::cli::experiment_csv(goal, settings, &self.depth_rows)
        } else if let (false, Some((board, goal, cap))) = (self.rows.is_empty(), &self.board) {
            crate::cli::board_csv(board, goal, &self.rows, *cap)
        } else {
            return None;
        };
        Some(text.map_err(|e| e.to_string()))
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
        self.board = Some((board.clone(), goal.clone(), self.cap));
        self.start(
            CompareJob::Board {
                board,
                goal,
                algorithm,
            },
            cache,
        );
    }

    /// Runs the textbook experiment towards `goal` with the depths and settings edited.
    pub(super) fn start_experiment(&mut self, goal: Goal, cache: super::play::Cache) {
        self.depth_rows.clear();
        self.rows.clear();
        self.note = None;
        let settings = ExperimentSettings {
            samples: self.settings.samples.max(1),
            ..self.settings
        };
        self.experiment = Some((goal.clone(), settings));
        self.start(
            CompareJob::Experiment {
                goal,
                depths: self.depths.depths(),
                settings,
            },
            cache,
        );
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
                CompareMsg::Note(n) => self.note = Some(n),
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
