//! What one step of a [`Stepper`](super::Stepper) reports: the node expanded
//! ([`Expansion`]), the fate of each of its successors ([`Fate`], [`Successor`]), the open
//! list's entries ([`OpenEntry`]) and what the step did ([`Step`]).

use crate::puzzle::{Board, Move};

/// What became of one successor of an expanded node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fate {
    /// A new board: pushed on the open list (BFS's queue), or, in IDA*, within the threshold
    /// and searched below next.
    Pushed,
    /// Reached before at a higher g: its g is lowered and it is pushed again (`reopened` when
    /// it had already been expanded).
    BetterPath {
        /// The g it had, in moves.
        old_g: u32,
        /// Whether it was closed (expanded) and is now reopened.
        reopened: bool,
    },
    /// Reached before at a g no higher: dropped.
    Known {
        /// Its best g so far, in moves.
        best_g: u32,
        /// Whether it is closed (already expanded) rather than waiting on the open list.
        closed: bool,
    },
    /// The board the node came from: moving back would undo the last move, so it is never
    /// generated (not counted).
    Parent,
    /// IDA*: f is above the threshold, so the subtree is pruned (its f may become the next
    /// threshold).
    OverThreshold,
    /// BFS: the goal, found when generated; the search ends.
    Goal,
}

/// One successor of an expanded node.
#[derive(Clone, Debug, PartialEq)]
pub struct Successor {
    /// The blank's move that makes it.
    pub mv: Move,
    /// The board.
    pub board: Board,
    /// Moves from the start along this path.
    pub g: u32,
    /// Its heuristic value (0 in BFS), in moves.
    pub h: u32,
    /// What the search did with it.
    pub fate: Fate,
}

impl Successor {
    /// The board a node at depth `g` came from (heuristic `h`), reached back by `mv`.
    pub(super) fn parent(mv: Move, board: Board, g: u32, h: u32) -> Successor {
        Successor {
            mv,
            board,
            g: g.saturating_sub(1),
            h,
            fate: Fate::Parent,
        }
    }
}

/// The node a step expanded, and its successors.
#[derive(Clone, Debug, PartialEq)]
pub struct Expansion {
    /// 1-based expansion number (in IDA*, counted over all iterations).
    pub number: u64,
    /// The board expanded.
    pub board: Board,
    /// Moves from the start, `h` its heuristic (0 in BFS); f = g + h.
    pub g: u32,
    /// Heuristic value, in moves.
    pub h: u32,
    /// The moves from the start to it (blank moves).
    pub path: Vec<Move>,
    /// IDA*: how many levels the depth-first search went back up before descending to this
    /// node (0: it is a child of the previous node).
    pub backtracked: u32,
    /// The bound in force when it was expanded: IDA*'s threshold, A*'s lowest f on open (its
    /// own f), BFS's depth.
    pub bound: u32,
    /// Its successors in generation order ([`Move::ALL`]; IDA*:
    /// [`crate::search::idastar::move_order`]), the parent included (as [`Fate::Parent`]).
    pub successors: Vec<Successor>,
}

/// A board waiting on the open list (BFS: the queue), with its g and h.
#[derive(Clone, Debug, PartialEq)]
pub struct OpenEntry {
    /// The board.
    pub board: Board,
    /// Moves from the start.
    pub g: u32,
    /// Heuristic value (0 in BFS).
    pub h: u32,
}

/// What one [`Stepper::step`](super::Stepper::step) did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// One node was expanded ([`Stepper::last`](super::Stepper::last)).
    Expanded,
    /// IDA*: the iteration ended without the goal; the next one starts with this threshold
    /// (no node expanded).
    NextIteration(u32),
    /// The goal was reached: [`Stepper::solution`](super::Stepper::solution) holds the
    /// moves. Further steps do nothing.
    Solved,
}
