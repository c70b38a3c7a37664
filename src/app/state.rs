//! Everything the app shows and does, without a window: the puzzle, the solver settings, the
//! running search and the solution playback. The panels (`panels.rs`) draw it and call its
//! methods; tests drive it through egui_kittest.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::worker::{BuildStatus, HeuristicChoice, Job, Worker, WorkerMsg};
use crate::eval::gpu::GpuContext;
use crate::heuristic::HeuristicKind;
use crate::puzzle::parse::{parse_board, read_source};
use crate::puzzle::random::{random_solvable, random_walk};
use crate::puzzle::{Board, Goal, GoalSpec, Move, Solvability};
use crate::search::{Algorithm, Outcome, Progress, SearchStats};

/// Which batch evaluator the app asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvaluatorChoice {
    /// The GPU when there is an adapter.
    Gpu,
    /// The CPU.
    Cpu,
}

/// Solver settings chosen in the Solver panel.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Search algorithm (never `Auto` here).
    pub algorithm: Algorithm,
    /// Heuristic.
    pub heuristic: HeuristicChoice,
    /// Evaluator for batched A*.
    pub evaluator: EvaluatorChoice,
    /// Nodes expanded per round (batched A*).
    pub batch_size: usize,
    /// Memory cap, in MiB.
    pub max_memory_mib: u64,
    /// Pattern-database cache folder; `None` = `NPUZZLE_CACHE_DIR` or the user's cache folder.
    pub pdb_cache: Option<std::path::PathBuf>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            algorithm: Algorithm::BatchedAStar,
            heuristic: HeuristicChoice::Kind(HeuristicKind::LinearConflict),
            evaluator: EvaluatorChoice::Gpu,
            batch_size: 1024,
            max_memory_mib: 4096,
            pdb_cache: None,
        }
    }
}

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
    /// What evaluated h.
    pub evaluator: String,
}

/// A tile slide being animated: tile, from cell, to cell, start time (seconds).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Slide {
    /// The tile.
    pub tile: u8,
    /// Cell it left (row-major).
    pub from: usize,
    /// Cell it entered.
    pub to: usize,
    /// When the slide started, in the UI's clock (seconds).
    pub start: f64,
}

/// Seconds a slide animation takes.
pub const SLIDE_SECONDS: f64 = 0.12;

/// The whole app state.
pub struct AppState {
    /// The puzzle being solved (the start board).
    pub board: Board,
    /// Where it came from, for the title and messages.
    pub source: String,
    /// The goal choice.
    pub goal_spec: GoalSpec,
    /// Solver settings.
    pub settings: Settings,
    /// The GPU, when there is one.
    pub gpu: Option<Arc<GpuContext>>,
    /// One line on the evaluator: the adapter, or why there is none.
    pub gpu_note: String,
    /// Search state.
    pub run: RunState,
    /// The latest progress snapshot of the current or last search.
    pub progress: Option<Progress>,
    /// A pattern database being built before the search starts.
    pub building: Option<BuildStatus>,
    /// The solution of the last search.
    pub solution: Option<SolutionView>,
    /// Set when the last search proved the board unsolvable.
    pub unsolvable: Option<Solvability>,
    /// Messages for the user (newest last): load errors, limits, panics.
    pub messages: Vec<String>,
    /// Playback position: number of solution moves applied to the shown board.
    pub playback: usize,
    /// Whether playback advances by itself.
    pub playing: bool,
    /// Playback speed, in moves per second.
    pub speed: f32,
    /// Time of the last automatic playback step.
    last_step: f64,
    /// Edit mode: the first cell picked for a swap.
    pub edit: Option<Option<usize>>,
    /// Text in the paste box.
    pub paste: String,
    /// Recently opened files, newest first.
    pub recent: Vec<PathBuf>,
    /// The last tile slide, for the highlight and animation.
    pub slide: Option<Slide>,
    /// Size preset for "New": rows, cols.
    pub new_size: (usize, usize),
    /// Scramble seed.
    pub seed: u64,
    /// Random-walk length for scrambles (0 = uniform random board).
    pub walk: usize,
    /// Show the per-cell out-of-place shares over the board.
    pub show_misplaced: bool,
    /// Current time (seconds), set by the frame loop.
    pub now: f64,
    /// Frame time, in seconds (smoothed), set by the frame loop.
    pub frame_seconds: f64,
    /// Time at which the current search started (UI clock).
    started: f64,
    /// Seconds of the last finished search, from the UI's view.
    pub elapsed: f64,
    /// A request to quit (Ctrl+Q).
    pub quit: bool,
    worker: Option<Worker>,
}

impl AppState {
    /// A state showing `board`, with the GPU (if any) for batched A*.
    pub fn new(board: Board, source: &str, gpu: Option<Arc<GpuContext>>, gpu_note: String) -> Self {
        let mut settings = Settings::default();
        if gpu.is_none() {
            settings.evaluator = EvaluatorChoice::Cpu;
        }
        let new_size = (board.rows(), board.cols());
        AppState {
            board,
            source: source.to_string(),
            goal_spec: GoalSpec::BlankLast,
            settings,
            gpu,
            gpu_note,
            run: RunState::Idle,
            progress: None,
            building: None,
            solution: None,
            unsolvable: None,
            messages: Vec::new(),
            playback: 0,
            playing: false,
            speed: 4.0,
            last_step: 0.0,
            edit: None,
            paste: String::new(),
            recent: Vec::new(),
            slide: None,
            new_size,
            seed: 1,
            walk: 0,
            show_misplaced: false,
            now: 0.0,
            frame_seconds: 0.0,
            started: 0.0,
            elapsed: 0.0,
            quit: false,
            worker: None,
        }
    }

    /// The goal for the current board's size.
    pub fn goal(&self) -> Option<Goal> {
        self.goal_spec
            .resolve(self.board.rows(), self.board.cols())
            .ok()
    }

    /// Solvability of the current board towards the goal.
    pub fn solvability(&self) -> Option<Solvability> {
        self.goal().map(|g| Solvability::of(&self.board, &g))
    }

    /// The board as shown: the start with `playback` solution moves applied.
    pub fn shown_board(&self) -> Board {
        let mut b = self.board.clone();
        if let Some(s) = &self.solution {
            for &m in s.moves.iter().take(self.playback) {
                b.apply(m);
            }
        }
        b
    }

    fn note(&mut self, msg: impl Into<String>) {
        let m = msg.into();
        crate::note!("npuzzle: {m}");
        self.messages.push(m);
        if self.messages.len() > 50 {
            self.messages.remove(0);
        }
    }

    /// Replaces the puzzle (stops any search, clears the solution).
    pub fn set_board(&mut self, board: Board, source: &str) {
        self.stop();
        self.board = board;
        self.source = source.to_string();
        self.new_size = (self.board.rows(), self.board.cols());
        self.clear_results();
        if let GoalSpec::Board(g) = &self.goal_spec
            && (g.rows() != self.board.rows() || g.cols() != self.board.cols())
        {
            self.goal_spec = GoalSpec::BlankLast;
            self.note("the custom goal has another size: goal reset to blank-last");
        }
        if let HeuristicChoice::Pdb(spec) = &self.settings.heuristic
            && let Some(goal) = self.goal()
            && let Err(e) = spec.patterns(&goal)
        {
            let name = spec.name();
            self.settings.heuristic = HeuristicChoice::Kind(HeuristicKind::LinearConflict);
            self.note(format!(
                "{name} does not fit this board ({e}): heuristic set to linear-conflict"
            ));
        }
    }

    fn clear_results(&mut self) {
        self.solution = None;
        self.unsolvable = None;
        self.progress = None;
        self.building = None;
        self.playback = 0;
        self.playing = false;
        self.slide = None;
        self.run = RunState::Idle;
    }

    /// Loads a board from text; on error keeps the current puzzle and shows the message
    /// (naming `name`, the line and the problem). Returns whether it loaded.
    pub fn load_text(&mut self, text: &str, name: &str) -> bool {
        match parse_board(text, name, None) {
            Ok(b) => {
                self.set_board(b, name);
                true
            }
            Err(e) => {
                self.note(format!("{e} (puzzle kept)"));
                false
            }
        }
    }

    /// Loads a board file; on error keeps the current puzzle. Returns whether it loaded.
    pub fn load_file(&mut self, path: &Path) -> bool {
        match read_source(&path.to_string_lossy()) {
            Ok((name, text)) => {
                let ok = self.load_text(&text, &name);
                if ok {
                    self.recent.retain(|p| p != path);
                    self.recent.insert(0, path.to_path_buf());
                    self.recent.truncate(8);
                }
                ok
            }
            Err(e) => {
                self.note(format!("{e} (puzzle kept)"));
                false
            }
        }
    }

    /// A solved board of the preset size, then scrambled with the current seed and walk.
    pub fn scramble(&mut self) {
        let (r, c) = self.new_size;
        let goal = match self.goal_spec.resolve(r, c) {
            Ok(g) => g,
            Err(_) => match GoalSpec::BlankLast.resolve(r, c) {
                Ok(g) => {
                    self.goal_spec = GoalSpec::BlankLast;
                    g
                }
                Err(e) => {
                    self.note(format!("cannot make a {r}×{c} board: {e}"));
                    return;
                }
            },
        };
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        // The next Scramble gives a new board; the title names the seed used for this one.
        let b = if self.walk > 0 {
            random_walk(&goal, self.walk, &mut rng)
        } else {
            random_solvable(&goal, &mut rng)
        };
        let src = if self.walk > 0 {
            format!("random walk of {} moves, seed {}", self.walk, self.seed)
        } else {
            format!("random {r}×{c}, seed {}", self.seed)
        };
        self.set_board(b, &src);
        self.seed = self.seed.wrapping_add(1);
    }

    /// Moves the blank (a player's move on the start board); clears any solution.
    pub fn move_blank(&mut self, m: Move) -> bool {
        if self.is_running() {
            return false;
        }
        let from = self.board.target(m);
        let to = self.board.blank();
        match (from, self.board.apply(m)) {
            (Some(from), Some(tile)) => {
                let board = self.board.clone();
                let src = self.source.clone();
                self.set_board(board, &src);
                self.slide = Some(Slide {
                    tile,
                    from,
                    to,
                    start: self.now,
                });
                true
            }
            _ => false,
        }
    }

    /// A click on a cell: in edit mode, picks or swaps; otherwise slides the tile there into the
    /// blank if they are neighbours.
    pub fn click_cell(&mut self, cell: usize) {
        if self.is_running() || cell >= self.board.len() {
            return;
        }
        if let Some(pick) = self.edit {
            match pick {
                None => self.edit = Some(Some(cell)),
                Some(first) => {
                    let mut t = self.board.tiles().to_vec();
                    t.swap(first, cell);
                    if let Ok(b) = Board::from_u8(self.board.rows(), self.board.cols(), &t) {
                        let src = "edited".to_string();
                        self.set_board(b, &src);
                    }
                    self.edit = Some(None);
                }
            }
            return;
        }
        let tile = self.board.tiles()[cell];
        if tile == 0 {
            return;
        }
        if let Some(m) = Move::ALL
            .into_iter()
            .find(|&m| self.board.target(m) == Some(cell))
        {
            self.move_blank(m);
        }
    }

    /// Whether a search is running (or paused).
    pub fn is_running(&self) -> bool {
        self.worker.is_some()
    }

    /// Whether the running search is paused.
    pub fn is_paused(&self) -> bool {
        self.worker.as_ref().is_some_and(Worker::is_paused)
    }

    /// Starts a search on the current board (cancelling any running one); unsolvable boards
    /// are answered at once.
    pub fn start(&mut self) {
        self.start_with(false);
    }

    fn start_with(&mut self, paused: bool) {
        self.stop();
        self.clear_results();
        let Some(goal) = self.goal() else {
            self.note("the goal does not fit this board");
            return;
        };
        let verdict = Solvability::of(&self.board, &goal);
        if !verdict.solvable {
            self.note(format!("No solution possible: {}", verdict.reason()));
            self.unsolvable = Some(verdict);
            self.run = RunState::Done;
            return;
        }
        let gpu = match self.settings.evaluator {
            EvaluatorChoice::Gpu => self.gpu.clone(),
            EvaluatorChoice::Cpu => None,
        };
        let job = Job {
            problem: crate::search::Problem {
                start: self.board.clone(),
                goal,
            },
            algorithm: self.settings.algorithm.resolve(self.board.len()),
            heuristic: self.settings.heuristic.clone(),
            gpu,
            batch_size: self.settings.batch_size.max(1),
            max_memory: self.settings.max_memory_mib.saturating_mul(1 << 20),
            pdb_cache: self.settings.pdb_cache.clone(),
        };
        self.worker = Some(Worker::start(job, paused));
        self.started = self.now;
        self.run = RunState::Running;
    }

    /// Pauses or resumes the running search; starts one (paused) if none runs.
    pub fn toggle_pause(&mut self) {
        match &self.worker {
            Some(w) => w.set_paused(!w.is_paused()),
            None => self.start(),
        }
    }

    /// One step of the search: starts it paused if needed, then runs to the next report.
    pub fn step(&mut self) {
        match &self.worker {
            Some(w) => {
                w.set_paused(true);
                w.step();
            }
            None => self.start_with(true),
        }
    }

    /// Stops the running search, keeping what it showed.
    pub fn stop(&mut self) {
        if let Some(w) = self.worker.take() {
            w.cancel();
            self.run = RunState::Stopped;
        }
    }

    /// Stops and clears the results; the puzzle stays.
    pub fn reset(&mut self) {
        self.stop();
        self.clear_results();
    }

    /// Drains the worker's messages; call once a frame. Returns whether anything changed.
    pub fn poll(&mut self) -> bool {
        let mut changed = false;
        if self.playing
            && let Some(s) = &self.solution
        {
            if self.playback >= s.moves.len() {
                self.playing = false;
            } else if self.now - self.last_step >= 1.0 / f64::from(self.speed.max(0.1)) {
                self.last_step = self.now;
                self.step_playback(1);
            }
            changed = true;
        }
        let mut done = None;
        let mut notes = Vec::new();
        if let Some(w) = &self.worker {
            while let Some(msg) = w.poll() {
                changed = true;
                match msg {
                    WorkerMsg::Progress(p) => {
                        self.building = None;
                        self.progress = Some(*p);
                    }
                    WorkerMsg::Building(b) => self.building = Some(b),
                    WorkerMsg::Note(m) => notes.push(format!("warning: {m}")),
                    WorkerMsg::Done { result, evaluator } => {
                        done = Some((result, evaluator));
                        break;
                    }
                    WorkerMsg::Panicked(m) => {
                        done = Some((
                            Err(crate::search::SearchError::WorkerPanicked(m)),
                            String::new(),
                        ));
                        break;
                    }
                }
            }
        }
        for m in notes {
            self.note(m);
        }
        if let Some((result, evaluator)) = done {
            self.worker = None;
            self.building = None;
            self.elapsed = self.now - self.started;
            match result {
                Ok(Outcome::Solved(s)) => {
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
                        p.round = s.stats.rounds;
                    }
                    self.progress = Some(p);
                    let mut b = self.board.clone();
                    let tiles = s.moves.iter().filter_map(|&m| b.apply(m)).collect();
                    self.solution = Some(SolutionView {
                        moves: s.moves,
                        tiles,
                        stats: s.stats,
                        evaluator,
                    });
                    self.run = RunState::Done;
                }
                Ok(Outcome::Unsolvable(v)) => {
                    self.unsolvable = Some(v);
                    self.run = RunState::Done;
                }
                Err(e) => {
                    let m = e.to_string();
                    self.note(&m);
                    self.run = RunState::Failed(m);
                }
            }
        }
        changed
    }

    /// Moves the playback position by `delta` moves (clamped), animating a single step.
    pub fn step_playback(&mut self, delta: isize) {
        let Some(s) = &self.solution else { return };
        let len = s.moves.len();
        let target = (self.playback as isize + delta).clamp(0, len as isize) as usize;
        if target == self.playback {
            return;
        }
        let before = self.shown_board();
        self.playback = target;
        let after = self.shown_board();
        self.slide = if delta.abs() == 1 {
            // The tile that moved is where the blank is on the other board.
            let (from, to) = (after.blank(), before.blank());
            Some(Slide {
                tile: before.tiles()[from],
                from,
                to,
                start: self.now,
            })
            .filter(|s| s.tile != 0)
        } else {
            None
        };
    }

    /// Sets the playback position (scrub), without animation.
    pub fn seek(&mut self, pos: usize) {
        if let Some(s) = &self.solution {
            self.playback = pos.min(s.moves.len());
            self.slide = None;
        }
    }

    /// Starts or pauses playback (restarting from the start at the end).
    pub fn toggle_play(&mut self) {
        if let Some(s) = &self.solution {
            if self.playback >= s.moves.len() {
                self.playback = 0;
            }
            self.playing = !self.playing;
            self.last_step = self.now;
        }
    }

    /// The solution in the Princeton text format (length line, then every board).
    pub fn solution_text(&self) -> Option<String> {
        let s = self.solution.as_ref()?;
        let mut out = format!("Minimum number of moves = {}\n", s.moves.len());
        let mut b = self.board.clone();
        out.push_str(&b.to_block_string());
        for &m in &s.moves {
            b.apply(m);
            out.push('\n');
            out.push_str(&b.to_block_string());
        }
        Some(out)
    }

    /// The solution as JSON (start, goal, moves, tiles, stats).
    pub fn solution_json(&self) -> Option<String> {
        let s = self.solution.as_ref()?;
        let v = serde_json::json!({
            "start": self.board.to_string(),
            "goal": self.goal_spec.name(),
            "moves": s.moves.len(),
            "solution": crate::puzzle::format_moves(&s.moves, crate::puzzle::Notation::Blank),
            "tiles_moved": s.tiles,
            "algorithm": self.settings.algorithm.name(),
            "heuristic": self.settings.heuristic.name(),
            "evaluator": s.evaluator,
            "nodes_expanded": s.stats.expanded,
            "nodes_generated": s.stats.generated,
            "seconds": s.stats.seconds,
        });
        serde_json::to_string_pretty(&v).ok()
    }
}
