//! Playing by hand: the player's moves (an undo chain), the exact number of moves to solve
//! from the board shown (the coach, in the background; boards seen before at once), a hint
//! that keeps the optimum, and what each move did to the total.

use super::undo::Chain;
use crate::app::coach::{Answer, Coach};
use crate::puzzle::{Board, Goal, Move};

/// Answers the coach keeps for boards seen before (an undo, a redo, a played solution's
/// boards), the oldest dropped first.
const KNOWN: usize = 1024;

/// The largest board the coach solves after every move (4×4).
pub const MAX_CELLS: usize = 16;

/// The coach's state for the puzzle being played.
#[derive(Default)]
pub struct Play {
    /// Whether the coach computes moves-to-solve after every move.
    pub enabled: bool,
    /// The moves made, as steps to undo and redo.
    chain: Chain,
    /// Answers for boards seen before, newest last (at most [`KNOWN`]).
    known: Vec<Answer>,
    /// The optimum of the board the player started from.
    start_optimum: Option<u32>,
    /// The optimum before the last move (to say what the move did).
    before: Option<u32>,
    answer: Option<Answer>,
    coach: Option<Coach>,
    error: Option<String>,
    hint: bool,
    /// What the last move did, or that the goal is reached.
    verdict: Option<String>,
    /// Whether the verdict is of a move that cost two (shown as a warning, not a success).
    costly: bool,
    /// The first board is still to be asked about (at the first poll, once the settings
    /// the app was opened with are in place).
    pending: bool,
    /// The heuristic the last answer used, with its goal: the next board of that goal is
    /// solved with it at once (a pattern database is loaded once, not after every move).
    ready: Option<(Goal, crate::heuristic::HeuristicSpec)>,
    /// The goal of the board being solved.
    asked_goal: Option<Goal>,
}

impl Play {
    /// A coach that is on.
    pub fn new() -> Play {
        Play {
            enabled: true,
            pending: true,
            ..Play::default()
        }
    }

    /// Whether the first board is still to be asked about.
    pub(super) fn pending(&self) -> bool {
        self.pending
    }

    /// The heuristic the coach has loaded, with the goal it is for.
    pub fn loaded(&self) -> Option<&(Goal, crate::heuristic::HeuristicSpec)> {
        self.ready.as_ref()
    }

    /// Moves from the puzzle as loaded to the board shown (undone ones not counted).
    pub fn moves(&self) -> u32 {
        self.chain.moves()
    }

    /// The undo chain: what Undo and Redo would take back and make again.
    pub fn chain(&self) -> &Chain {
        &self.chain
    }

    /// An optimal solution of `board` when the coach knows one (its latest answer, or one
    /// kept for a board seen before).
    pub fn known(&self, board: &Board) -> Option<&Answer> {
        self.answer
            .iter()
            .chain(self.known.iter().rev())
            .find(|a| &a.board == board)
    }

    /// The exact moves to solve the board shown, once known.
    pub fn to_go(&self, board: &Board) -> Option<u32> {
        self.answer
            .as_ref()
            .filter(|a| &a.board == board)
            .map(|a| a.moves.len() as u32)
    }

    /// The latest answer (it may be for an earlier board while the next is computed).
    pub fn answer(&self) -> Option<&Answer> {
        self.answer.as_ref()
    }

    /// Whether the coach is still working.
    pub fn thinking(&self) -> bool {
        self.coach.is_some()
    }

    /// Why there is no answer, when the coach failed.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// What the last move did ("that move added 2 …"), or the goal reached.
    pub fn verdict(&self) -> Option<&str> {
        self.verdict.as_deref()
    }

    /// Whether [`Play::verdict`] is of a move that added two to the player's total.
    pub fn verdict_is_costly(&self) -> bool {
        self.verdict.is_some() && self.costly
    }

    /// The optimum of the board the player started from.
    pub fn start_optimum(&self) -> Option<u32> {
        self.start_optimum
    }

    /// Shows a hint: the move that keeps the optimum, once the answer for `board` is known.
    pub fn ask_hint(&mut self) {
        self.hint = true;
    }

    /// The hint's move for `board` when asked for and known: the first move of an optimal
    /// solution from it.
    pub fn hint(&self, board: &Board) -> Option<Move> {
        if !self.hint {
            return None;
        }
        self.answer
            .as_ref()
            .filter(|a| &a.board == board)
            .and_then(|a| a.moves.first().copied())
    }

    /// A new puzzle (loaded, scrambled, edited): the count starts again.
    pub(super) fn reset(&mut self, board: &Board, goal: Option<Goal>, cache: &Cache) {
        // A coach switched off lets its tables go.
        let (enabled, ready) = (self.enabled, self.ready.take().filter(|_| self.enabled));
        *self = Play {
            enabled,
            ready,
            ..Play::default()
        };
        self.ask(board, goal, cache);
    }

    /// The player made `moves` (one by hand, or an optimal solution played at once) from
    /// `left` to `board`: a new step on the undo chain.
    pub(super) fn moved(
        &mut self,
        moves: Vec<Move>,
        left: &Board,
        board: &Board,
        goal: Option<Goal>,
        cache: &Cache,
    ) {
        let single = moves.len() == 1;
        self.chain.push(moves);
        // What a move by hand did is known only if the board it left had its answer (the
        // goal's is 0).
        self.before = if !single {
            None
        } else if goal.as_ref().is_some_and(|g| g.board() == left) {
            Some(0)
        } else {
            self.known(left).map(|a| a.moves.len() as u32)
        };
        self.arrive(board, goal, cache);
    }

    /// Undo or redo went from one board of the chain to `board`: no verdict on a move.
    pub(super) fn went(&mut self, board: &Board, goal: Option<Goal>, cache: &Cache) {
        self.before = None;
        self.arrive(board, goal, cache);
    }

    /// Takes the last step back; the moves that undo it.
    pub(super) fn undo(&mut self) -> Option<Vec<Move>> {
        self.chain.undo()
    }

    /// Makes the last undone step again; its moves.
    pub(super) fn redo(&mut self) -> Option<Vec<Move>> {
        self.chain.redo()
    }

    /// Keeps `answers` (an optimal solution's boards with the rest of it), so that undo and
    /// redo over them need no search.
    pub(super) fn remember(&mut self, answers: impl IntoIterator<Item = Answer>) {
        for a in answers {
            self.known.retain(|k| k.board != a.board);
            self.known.push(a);
        }
        let over = self.known.len().saturating_sub(KNOWN);
        self.known.drain(..over);
    }

    /// The board shown is now `board`: the goal says so, a board seen before has its answer at
    /// once, any other is asked of the coach.
    fn arrive(&mut self, board: &Board, goal: Option<Goal>, cache: &Cache) {
        self.hint = false;
        self.verdict = None;
        self.costly = false;
        if goal.as_ref().is_some_and(|g| g.board() == board) {
            self.coach = None;
            self.answer = None;
            if self.moves() > 0 {
                self.verdict = Some(match self.start_optimum {
                    Some(m) => format!(
                        "Solved in {} moves (optimal from the start was {m})",
                        self.moves()
                    ),
                    None => format!("Solved in {} moves", self.moves()),
                });
            }
            return;
        }
        if let Some(a) = self.known(board).filter(|_| self.enabled).cloned() {
            self.coach = None;
            self.error = None;
            self.answered(a);
            return;
        }
        self.ask(board, goal, cache);
    }

    fn ask(&mut self, board: &Board, goal: Option<Goal>, cache: &Cache) {
        self.coach = None;
        self.error = None;
        // Up to 4×4: larger boards can take the coach minutes.
        let Some(goal) = goal.filter(|_| self.enabled && board.len() <= MAX_CELLS) else {
            return;
        };
        if !crate::puzzle::Solvability::of(board, &goal).solvable {
            return;
        }
        self.asked_goal = Some(goal.clone());
        let ready = self
            .ready
            .as_ref()
            .filter(|(g, _)| g.board() == goal.board())
            .map(|(_, s)| s.clone());
        self.coach = Some(Coach::start(
            board.clone(),
            goal,
            ready,
            cache.dir.clone(),
            cache.max_memory,
        ));
    }

    /// Asks again for `board` (after a search that paused the coach).
    pub(super) fn resume(&mut self, board: &Board, goal: Option<Goal>, cache: &Cache) {
        self.ask(board, goal, cache);
    }

    /// Stops the coach (a search is starting: it needs the cores).
    pub(super) fn pause(&mut self) {
        self.coach = None;
    }

    /// Takes the coach's answer when it has one; returns whether anything changed.
    pub(super) fn poll(&mut self) -> bool {
        let Some(r) = self.coach.as_ref().and_then(Coach::poll) else {
            return false;
        };
        self.coach = None;
        match r {
            Ok(a) => {
                if let Some(g) = &self.asked_goal {
                    self.ready = Some((g.clone(), a.spec.clone()));
                }
                if self.moves() == 0 {
                    self.start_optimum = Some(a.moves.len() as u32);
                }
                self.remember([a.clone()]);
                self.answered(a);
            }
            Err(e) => self.error = Some(e.to_string()),
        }
        true
    }

    /// `a` is the answer for the board shown: says what the last move did when the board it
    /// left had its answer.
    fn answered(&mut self, a: Answer) {
        let n = a.moves.len() as u32;
        if let Some(b) = self.before {
            self.costly = n >= b;
            self.verdict = Some(if n < b {
                format!("Good move: {n} to go")
            } else {
                format!(
                    "That move added 2 to your total: one move away and one back ({} made + {n} to go)",
                    self.moves()
                )
            });
        }
        self.answer = Some(a);
    }
}

/// Where the coach finds and builds pattern databases.
pub(super) struct Cache {
    pub dir: Option<std::path::PathBuf>,
    pub max_memory: u64,
}
