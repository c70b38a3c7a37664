//! Everything the app shows and does, without a window: the puzzle, and its parts — the solver
//! [`Settings`], the search [`Run`], solution [`Playback`], the [`Scramble`] box, the
//! [`Editor`], the UI [`Clock`], the [`Messages`] and [`Recent`] lists. Each part keeps its
//! own fields behind methods; [`AppState`] holds the actions that touch several of them. The
//! panels (`panels/`) draw it and call its methods; tests drive it through egui_kittest.

mod clock;
mod comparison;
mod config;
mod editor;
mod examples;
mod hand;
mod lists;
mod play;
mod playback;
mod predict;
mod run;
mod saved;
mod scramble;
mod settings;
mod timeline;
mod undo;
mod view;

use std::path::Path;
use std::sync::Arc;

pub use clock::Clock;
pub use comparison::{Compare, DepthRange};
pub use editor::{EditClick, Editor};
pub use examples::{EXAMPLE_SETS, ExampleSet};
pub use lists::{Level, Message, Messages, Recent};
pub use play::Play;

/// The largest board (cells) the coach solves after every move.
pub fn play_max_cells() -> usize {
    play::MAX_CELLS
}
pub use playback::{Playback, SLIDE_SECONDS, Slide};
pub use predict::{Predict, Verdict, judge, shown_order};
pub use run::{FinishedIteration, Run, RunState, SolutionView};
pub use saved::{Restore, Saved, SavedBoard, SavedViews};
pub use scramble::Scramble;
pub use settings::{EvaluatorChoice, SPEEDS, Settings};
pub use undo::Chain;
pub use view::{LowerView, TEXT_SIZES, View};

use super::worker::Job;
use crate::eval::gpu::GpuContext;
use crate::heuristic::HeuristicChoice;
use crate::heuristic::HeuristicKind;
use crate::heuristic::pdb::PartitionSpec;
use crate::puzzle::parse::{parse_instance, read_regular_source};
use crate::puzzle::{Board, Goal, GoalSpec, Notation, Solvability};
use crate::report::{SolveJson, solution_text};

/// The whole app state.
pub struct AppState {
    /// The puzzle being solved (the start board).
    board: Board,
    /// Where it came from, for the title and messages.
    source: String,
    /// The goal choice.
    goal_spec: GoalSpec,
    /// The optimal length the puzzle's file states (a bench line's last number), if any.
    stated: Option<u32>,
    /// The puzzle as it was loaded, scrambled or edited, before any move by hand, with its
    /// source and stated length: what Reset brings back.
    origin: (Board, String, Option<u32>),
    /// The GPU, when there is one.
    gpu: Option<Arc<GpuContext>>,
    /// One line on the evaluator: the adapter, or why there is none.
    gpu_note: String,
    /// Solver settings.
    pub settings: Settings,
    /// The current or last search.
    pub run: Run,
    /// Solution playback and the tile slide animation.
    pub playback: Playback,
    /// The "New" box.
    pub scramble: Scramble,
    /// Edit mode and the paste box.
    pub editor: Editor,
    /// The UI's clock.
    pub clock: Clock,
    /// Messages for the user.
    pub messages: Messages,
    /// Recently opened files.
    pub recent: Recent,
    /// Playing by hand: moves made, moves to solve from here, hints.
    pub play: Play,
    /// Prediction of the next expansion in a stepped search, and its score.
    pub predict: Predict,
    /// Comparing heuristics on the board, or the textbook experiment.
    pub compare: Compare,
    /// What the views show and how: the lower view, a board picked to look at, the tree's
    /// pan and zoom (the views' state, not the search's).
    pub view: View,
    /// Where the student is in the guided lessons, and what they have passed.
    pub lessons: crate::app::lessons::LessonProgress,
    quit: bool,
}

impl AppState {
    /// A state showing `board`, with the GPU (if any) for batched A*.
    pub fn new(board: Board, source: &str, gpu: Option<Arc<GpuContext>>, gpu_note: String) -> Self {
        let mut settings = Settings::default();
        if gpu.is_none() {
            settings.evaluator = EvaluatorChoice::Cpu;
        }
        AppState {
            scramble: Scramble::new((board.rows(), board.cols())),
            origin: (board.clone(), source.to_string(), None),
            board,
            source: source.to_string(),
            goal_spec: GoalSpec::BlankLast,
            stated: None,
            gpu,
            gpu_note,
            settings,
            run: Run::default(),
            playback: Playback::default(),
            editor: Editor::default(),
            clock: Clock::default(),
            messages: Messages::default(),
            recent: Recent::default(),
            play: Play::new(),
            predict: Predict::default(),
            compare: Compare::default(),
            view: View::default(),
            lessons: Default::default(),
            quit: false,
        }
    }

    /// The start board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Where the board came from (file name, scramble, `edited`, …).
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The goal choice.
    pub fn goal_spec(&self) -> &GoalSpec {
        &self.goal_spec
    }

    /// The optimal length the puzzle's file states, if it states one.
    pub fn stated_length(&self) -> Option<u32> {
        self.stated
    }

    /// The optimal length of the start board when it is known without the search: the
    /// length the file states, else the coach's answer for this board (the gap a solution
    /// that is not guaranteed optimal is measured against).
    pub fn known_optimum(&self) -> Option<u32> {
        self.stated.or_else(|| self.play.to_go(&self.board))
    }

    /// Sets the length the puzzle's file states (after [`AppState::set_board`], which clears
    /// it).
    pub fn set_stated_length(&mut self, moves: Option<u32>) {
        self.stated = moves;
        self.origin.2 = moves;
    }

    /// Sets the goal (stopping any search and clearing its results).
    /// A length the puzzle's file stated is for the goal it was loaded with: it is dropped
    /// when the goal changes.
    pub fn set_goal(&mut self, spec: GoalSpec) {
        self.stop();
        self.clear_results();
        if spec != self.goal_spec {
            self.stated = None;
            self.origin.2 = None;
        }
        self.goal_spec = spec;
        self.reset_play();
    }

    /// Compares the heuristics that fit the board (in the background; see [`Compare`]).
    pub fn compare_board(&mut self) {
        let Some(goal) = self.goal() else {
            self.messages.error("the goal does not fit this board");
            return;
        };
        if !Solvability::of(&self.board, &goal).solvable {
            self.messages
                .note("this board cannot reach the goal: nothing to compare");
            return;
        }
        let cache = self.cache();
        let algorithm = self.settings.algorithm.resolve(self.board.len());
        self.compare
            .start_board(self.board.clone(), goal, algorithm, cache);
    }

    /// Runs the textbook experiment for the board's shape (at most 10 cells).
    pub fn compare_depths(&mut self) {
        let Some(goal) = self.goal() else {
            self.messages.error("the goal does not fit this board");
            return;
        };
        let cache = self.cache();
        self.compare.start_experiment(goal, cache);
    }

    /// Where the coach finds pattern databases.
    fn cache(&self) -> play::Cache {
        play::Cache {
            dir: self.settings.pdb_cache.clone(),
            max_memory: self.settings.max_memory(),
        }
    }

    /// The coach starts again on the current board (a new puzzle or goal).
    fn reset_play(&mut self) {
        let (goal, cache) = (self.goal(), self.cache());
        self.play.reset(&self.board, goal, &cache);
    }

    /// Whether there is a GPU for the evaluator.
    pub fn has_gpu(&self) -> bool {
        self.gpu.is_some()
    }

    /// One line on the evaluator: the adapter, or why there is none.
    pub fn gpu_note(&self) -> &str {
        &self.gpu_note
    }

    /// Asks the window to close (Ctrl+Q).
    pub fn request_quit(&mut self) {
        self.quit = true;
    }

    /// Whether closing was asked for.
    pub fn quit_requested(&self) -> bool {
        self.quit
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

    /// The board as shown: a board picked to look at ([`View::focus`]), else the node a
    /// stepped search running free is expanding, else the start with the playback position's
    /// solution moves applied.
    pub fn shown_board(&self) -> Board {
        if let Some(f) = &self.view.focus {
            return f.clone();
        }
        // A stepped search running free (the speed dial): the node it expands.
        if self.run.is_stepped()
            && self.is_running()
            && !self.is_paused()
            && let Some(e) = self.run.inspect().and_then(|v| v.last.as_ref())
        {
            return e.board.clone();
        }
        let mut b = self.board.clone();
        if let Some(s) = self.run.solution() {
            for &m in s.moves.iter().take(self.playback.position()) {
                b.apply(m);
            }
        }
        b
    }

    /// Replaces the puzzle (stops any search, clears the solution); the coach starts again.
    pub fn set_board(&mut self, board: Board, source: &str) {
        self.origin = (board.clone(), source.to_string(), None);
        self.replace_board(board, source);
        self.reset_play();
    }

    /// Replaces the puzzle, the coach left as it is.
    fn replace_board(&mut self, board: Board, source: &str) {
        self.stop();
        self.messages.drop_board();
        // A paste error was about the puzzle kept then: another one is shown now.
        self.editor.paste_error = None;
        let old_shape = (self.board.rows(), self.board.cols());
        self.board = board;
        self.source = source.to_string();
        self.stated = None;
        self.scramble.size = (self.board.rows(), self.board.cols());
        self.clear_results();
        if let GoalSpec::Board(g) = &self.goal_spec
            && (g.rows() != self.board.rows() || g.cols() != self.board.cols())
        {
            self.goal_spec = GoalSpec::BlankLast;
            self.messages.about_board(
                Level::Notice,
                "the custom goal has another size: goal reset to blank-last",
            );
        }
        self.fit_heuristic(old_shape);
    }

    /// After a board of another shape than `old_shape` came in: a pattern database that does
    /// not fit it is kept for `old_shape` (it comes back with a board of that shape) and
    /// replaced by the one last used on this shape, else `pdb8` on 3×3, else linear conflict.
    fn fit_heuristic(&mut self, old_shape: (usize, usize)) {
        let HeuristicChoice::Pdb(spec) = &self.settings.heuristic else {
            return;
        };
        let Some(goal) = self.goal() else { return };
        let Err(e) = spec.patterns(&goal) else {
            return;
        };
        let (name, spec) = (spec.name(), spec.clone());
        let shape = (self.board.rows(), self.board.cols());
        let fits = |c: &HeuristicChoice| match c {
            HeuristicChoice::Pdb(s) => s.patterns(&goal).is_ok(),
            _ => true,
        };
        let next = self
            .settings
            .pdb_for_shape(shape)
            .filter(|c| fits(c))
            .or_else(|| {
                let pdb8 = HeuristicChoice::Pdb(PartitionSpec::Named("pdb8".into()));
                (shape == (3, 3)).then_some(pdb8).filter(|c| fits(c))
            })
            .unwrap_or(HeuristicChoice::Kind(HeuristicKind::LinearConflict));
        self.settings
            .keep_pdb_for_shape(old_shape, HeuristicChoice::Pdb(spec));
        self.messages.about_board(
            Level::Notice,
            format!(
                "{name} does not fit this board ({e}): heuristic set to {next}; {name} comes back on a {}×{} board",
                old_shape.0, old_shape.1
            ),
        );
        self.settings.heuristic = next;
    }

    fn clear_results(&mut self) {
        self.run.clear();
        self.predict.reset();
        self.playback.reset();
        self.view.clear_picks();
    }

    /// Loads a board from text; on error keeps the current puzzle and shows the message
    /// (naming `name`, the line and the problem). Returns whether it loaded.
    /// A bench line that names its goal sets that goal; the length it states is kept
    /// ([`AppState::stated_length`]).
    pub fn load_text(&mut self, text: &str, name: &str) -> bool {
        match parse_instance(text, name, None) {
            Ok(inst) => {
                self.load_instance(inst, name);
                true
            }
            Err(e) => {
                self.messages
                    .about_board(Level::Error, format!("{e} (puzzle kept)"));
                false
            }
        }
    }

    /// Shows a parsed puzzle from `name`, with the goal it names (saying so) and the length it
    /// states.
    fn load_instance(&mut self, inst: crate::puzzle::parse::Instance, name: &str) {
        let named = inst.named_goal().filter(|n| *n.goal != self.goal_spec);
        if let Some(n) = named {
            self.messages.note(format!(
                "{name}:{}: {} names the {} goal: goal set to it",
                n.line,
                n.by(),
                n.goal.name()
            ));
            self.goal_spec = n.goal.clone();
        }
        self.set_board(inst.board, name);
        self.set_stated_length(inst.optimal);
    }

    /// Loads the paste box's text (named `<pasted>` in messages). Returns whether it loaded.
    pub fn load_pasted(&mut self) -> bool {
        let text = self.editor.paste.clone();
        let ok = self.load_text(&text, "<pasted>");
        self.editor.paste_error = if ok {
            None
        } else {
            // The message just shown, also under the paste box (where the user looks).
            self.messages.last().map(|m| (text, m.clone()))
        };
        ok
    }

    /// Loads a board file; on error keeps the current puzzle. Returns whether it loaded.
    pub fn load_file(&mut self, path: &Path) -> bool {
        // Never a FIFO or device: the window's thread would wait on it.
        match read_regular_source(path) {
            Ok((name, text)) => {
                let ok = self.load_text(&text, &name);
                if ok {
                    self.recent.add(path);
                }
                ok
            }
            Err(e) => {
                self.messages
                    .about_board(Level::Error, format!("{e} (puzzle kept)"));
                false
            }
        }
    }

    /// A solved board of the scramble size, then scrambled with its seed and walk (the goal
    /// falls back to blank-last when the chosen one does not fit that size).
    pub fn scramble(&mut self) {
        let (r, c) = self.scramble.size;
        let goal = match self.goal_spec.resolve(r, c) {
            Ok(g) => g,
            Err(_) => match GoalSpec::BlankLast.resolve(r, c) {
                Ok(g) => {
                    self.goal_spec = GoalSpec::BlankLast;
                    g
                }
                Err(e) => {
                    self.messages
                        .note(format!("cannot make a {r}×{c} board: {e}"));
                    return;
                }
            },
        };
        let (b, src) = self.scramble.next(&goal);
        self.set_board(b, &src);
    }

    /// Sets the scramble size; a side outside 2..=16 is set to the nearest allowed value and
    /// a notice says so.
    pub fn set_scramble_size(&mut self, rows: usize, cols: usize) {
        use crate::puzzle::{MAX_SIDE, MIN_SIDE};
        let fit = |n: usize| n.clamp(MIN_SIDE, MAX_SIDE);
        for (name, n) in [("rows", rows), ("cols", cols)] {
            if fit(n) != n {
                self.messages.show(format!(
                    "{name} must be {MIN_SIDE} to {MAX_SIDE}: {n} set to {}",
                    fit(n)
                ));
            }
        }
        self.scramble.size = (fit(rows), fit(cols));
    }

    /// Whether a search is running (or paused).
    pub fn is_running(&self) -> bool {
        self.run.is_running()
    }

    /// Whether the running search is paused.
    pub fn is_paused(&self) -> bool {
        self.run.is_paused()
    }

    /// Starts a search on the current board (cancelling any running one); unsolvable boards
    /// are answered at once.
    pub fn start(&mut self) {
        // Below full speed a search is stepped, at the dial's pace (all the optimal solutions
        // are counted by the fast search only).
        let watch = self.settings.steps_per_second > 0 && !self.settings.all_solutions;
        self.start_with(false, watch);
    }

    /// Starts a search; `stepped`: one node per step (it starts paused, its first step
    /// asked for).
    fn start_with(&mut self, paused: bool, stepped: bool) {
        self.stop();
        self.clear_results();
        self.messages.drop_board();
        // The search needs the cores; the coach asks again when it ends.
        self.play.pause();
        let Some(goal) = self.goal() else {
            self.messages.error("the goal does not fit this board");
            return;
        };
        let verdict = Solvability::of(&self.board, &goal);
        if !verdict.solvable {
            self.messages
                .about_board(Level::Notice, verdict.no_solution());
            self.run.answer_unsolvable(verdict);
            return;
        }
        let gpu = match self.settings.evaluator {
            EvaluatorChoice::Gpu | EvaluatorChoice::Auto => self.gpu.clone(),
            EvaluatorChoice::Cpu => None,
        };
        let algorithm = self.settings.algorithm.resolve(self.board.len());
        if algorithm == crate::search::Algorithm::Bfs {
            self.note_bfs_memory();
        }
        let info = crate::report::RunInfo {
            algorithm,
            heuristic: self.settings.heuristic.to_string(),
            evaluator: crate::eval::Evaluated::Cpu,
            adapter: None,
        };
        let job = Job {
            problem: crate::search::Problem {
                start: self.board.clone(),
                goal,
            },
            algorithm,
            heuristic: self.settings.heuristic.clone(),
            gpu,
            batch_size: self.settings.batch_size.max(1),
            max_memory: self.settings.max_memory(),
            pdb_cache: self.settings.pdb_cache.clone(),
            // Batched A* steps one node a round (A*'s order) until Run, then batches.
            stepped,
            all_solutions: (self.settings.all_solutions
                && !stepped
                && algorithm.counts_all_solutions())
            .then_some(crate::search::DEFAULT_MAX_SOLUTIONS),
            steps_per_second: self.settings.steps_per_second,
        };
        self.run.start(job, info, paused);
        self.clock.start_search();
    }

    /// Says, before BFS starts on a board whose reachable boards would not fit the memory cap
    /// (at about 64 bytes each in its closed set and open list), that it may stop there.
    fn note_bfs_memory(&mut self) {
        let (rows, cols) = (self.board.rows(), self.board.cols());
        let cap = self.settings.max_memory();
        let boards = crate::puzzle::reachable_boards(rows, cols);
        if boards * 64.0 > cap as f64 {
            self.messages.about_board(
                Level::Notice,
                format!(
                    "BFS keeps every board it reaches, and a {rows}×{cols} board can reach \
                     about 10^{:.0}: it may stop at the memory cap ({}) before it finds the \
                     answer; IDA* needs almost no memory",
                    crate::puzzle::reachable_boards_log10(rows, cols),
                    bytesize::ByteSize(cap).display().iec(),
                ),
            );
        }
    }

    /// Pauses or resumes the running search (a stepped one then runs free: Run); starts one
    /// if none runs.
    pub fn toggle_pause(&mut self) {
        if !self.run.toggle_pause() {
            self.start();
        }
    }

    /// Steps the search by `n` nodes (BFS, A*, IDA*; batched A*: rounds). With no search
    /// running, starts one in step mode whose first step expands the start board only.
    pub fn step(&mut self, n: u64) {
        if !self.run.step(n) {
            self.start_with(true, true);
            if n > 1 {
                self.run.step(n - 1);
            }
        }
    }

    /// Steps to the next f layer (A*: until the open list's lowest f changes; BFS: the next
    /// depth; IDA*: the end of the iteration), starting a stepped search if none runs.
    pub fn step_layer(&mut self) {
        if !self.run.is_running() {
            self.start_with(true, true);
        } else if !self.run.is_stepped() {
            // A search started at full speed has no layers to stop at.
            return;
        }
        self.run.step_layer();
    }

    /// Stops the running search, keeping what it showed; the coach takes up the board again.
    pub fn stop(&mut self) {
        let was = self.run.is_running();
        self.run.stop();
        if was && self.play.to_go(&self.board).is_none() && !self.play.thinking() {
            let (goal, cache) = (self.goal(), self.cache());
            self.play.resume(&self.board, goal, &cache);
        }
    }

    /// Stops and clears the results, and brings back the puzzle as it was loaded, scrambled
    /// or edited when moves by hand have changed it (the moves and the coach start over).
    pub fn reset(&mut self) {
        self.stop();
        self.clear_results();
        if self.board != self.origin.0 || self.stated != self.origin.2 {
            let (board, source, stated) = self.origin.clone();
            self.set_board(board, &source);
            self.set_stated_length(stated);
        }
    }

    /// Advances playback and drains the worker's messages; call once a frame. Returns whether
    /// anything changed.
    pub fn poll(&mut self) -> bool {
        let mut changed = false;
        if self.play.pending() {
            self.reset_play();
        }
        if let Some(len) = self.run.solution().map(|s| s.moves.len())
            && let Some(due) = self.playback.due(len, self.clock.now())
        {
            if due {
                self.step_playback(1);
            }
            changed = true;
        }
        let polled = self.run.poll(&self.board);
        for m in polled.notes {
            self.messages.warn(m);
        }
        if polled.finished {
            self.clock.end_search();
            if self.play.to_go(&self.board).is_none() && !self.play.thinking() {
                let (goal, cache) = (self.goal(), self.cache());
                self.play.resume(&self.board, goal, &cache);
            }
        }
        changed |= self.play.poll();
        changed |= self.compare.poll();
        if let Some(m) = polled.error {
            self.messages.error(m);
        }
        changed || polled.changed
    }

    /// Moves the playback position by `delta` moves (clamped), animating a single step.
    pub fn step_playback(&mut self, delta: isize) {
        let Some(len) = self.run.solution().map(|s| s.moves.len()) else {
            return;
        };
        let Some(target) = self.playback.target(delta, len) else {
            return;
        };
        let before = self.shown_board();
        self.playback.go(target, None);
        let after = self.shown_board();
        let slide = if delta.abs() == 1 {
            // The tile that moved is where the blank is on the other board.
            let (from, to) = (after.blank(), before.blank());
            Some(Slide {
                tile: before.tiles()[from],
                from,
                to,
                start: self.clock.now(),
            })
            .filter(|s| s.tile != 0)
        } else {
            None
        };
        self.playback.set_slide(slide);
    }

    /// Plays back optimal solution `i` of those found (`all`), from the start.
    pub fn choose_solution(&mut self, i: usize) {
        if self.run.choose_solution(i, &self.board) {
            self.playback
                .seek(0, self.run.solution().map_or(0, |s| s.moves.len()));
        }
    }

    /// Sets the playback position (scrub), without animation.
    pub fn seek(&mut self, pos: usize) {
        if let Some(len) = self.run.solution().map(|s| s.moves.len()) {
            self.playback.seek(pos, len);
        }
    }

    /// Starts or pauses playback (restarting from the start at the end).
    pub fn toggle_play(&mut self) {
        if let Some(len) = self.run.solution().map(|s| s.moves.len()) {
            self.playback.toggle(len, self.clock.now());
        }
    }

    /// The solution in the Princeton text format (length line, then every board).
    pub fn solution_text(&self) -> Option<String> {
        let s = self.run.solution()?;
        Some(solution_text(&self.board, &s.moves, None, false))
    }

    /// The solution as JSON, the object `npuzzle solve --format json` prints.
    pub fn solution_json(&self) -> Option<String> {
        let s = self.run.solution()?;
        let goal = self.goal()?;
        let parity = Solvability::of(&self.board, &goal);
        let solved = Some((s.moves.as_slice(), &s.stats));
        SolveJson::new(&self.board, &goal, &parity, solved, Notation::Blank, &s.run)
            .with_all(s.all.as_ref(), Notation::Blank)
            .to_json()
            .ok()
    }
}
