//! What the lessons' checks read of the app's state: the board on screen, the search that
//! ran on it (algorithm, heuristic, stepped or not), its answer and its counts.

use crate::app::state::{AppState, RunState, SolutionView};
use crate::app::worker::StepView;
use crate::heuristic::HeuristicKind;
use crate::puzzle::{Board, Solvability};
use crate::search::Algorithm;

/// Whether the start board is `text` (a board in the app's formats).
pub(super) fn on_board(st: &AppState, text: &str) -> bool {
    crate::puzzle::parse::parse_instance(text, "lesson", None).is_ok_and(|i| *st.board() == i.board)
}

/// The answer of a search on board `text` with `algorithm` and `heuristic` (its command-line
/// name; ignored for BFS), when that is the search on screen and it has ended.
pub(super) fn solved<'a>(
    st: &'a AppState,
    text: &str,
    algorithm: Algorithm,
    heuristic: &str,
) -> Option<&'a SolutionView> {
    let s = st.run.solution()?;
    let same_h = algorithm == Algorithm::Bfs || s.run.heuristic == heuristic;
    (*st.run.state() == RunState::Done && s.run.algorithm == algorithm && same_h)
        .then_some(s)
        .filter(|_| on_board(st, text))
}

/// The snapshot of a stepped search on board `text` with `algorithm` and `heuristic`, when
/// that is the search on screen and it has expanded at least one node.
pub(super) fn stepped<'a>(
    st: &'a AppState,
    text: &str,
    algorithm: Algorithm,
    heuristic: &str,
) -> Option<&'a StepView> {
    let v = st.run.inspect()?;
    // Settings cannot change while a search runs; an ended one names its own heuristic.
    let h = st.run.solution().map_or_else(
        || st.settings.heuristic.to_string(),
        |s| s.run.heuristic.clone(),
    );
    let same_h = algorithm == Algorithm::Bfs || h == heuristic;
    (st.run.is_stepped() && st.run.algorithm() == algorithm && same_h && on_board(st, text))
        .then_some(v)
        .filter(|v| v.last.is_some())
}

/// Nodes a stepped search has expanded (0 before the first step).
pub(super) fn expanded(v: &StepView) -> u64 {
    v.last.as_ref().map_or(0, |e| e.number)
}

/// The heuristic `kind`'s value of the start board, when it is board `text` (3×3 and up to
/// 5×5 for walking distance: the lessons' boards).
pub(super) fn h_of(st: &AppState, text: &str, kind: HeuristicKind) -> Option<u64> {
    let goal = st.goal()?;
    let b: &Board = st.board();
    (on_board(st, text) && kind.supports(b.rows(), b.cols()).is_ok())
        .then(|| u64::from(kind.build(&goal).estimate(b.tiles())))
}

/// The parity verdict of the start board, when it is board `text`.
pub(super) fn parity(st: &AppState, text: &str) -> Option<Solvability> {
    st.solvability().filter(|_| on_board(st, text))
}

/// Whether a search was started on board `text` and found it unsolvable.
pub(super) fn found_unsolvable(st: &AppState, text: &str) -> bool {
    st.run.unsolvable().is_some() && on_board(st, text)
}
