//! The move tables IDA*'s inner loop reads ([`Moves`]: neighbours, the pruning automaton's
//! live moves, which moves bring their tile nearer its goal) and the move order
//! ([`move_order`]) that the fast search and the stepper share.

use std::sync::Arc;

use super::MoveOrder;
use crate::puzzle::{Board, Move, move_target};
use crate::search::move_fsm::{DEAD, MoveFsm};

/// No neighbour in that direction. Cells are `u8` (at most 256 of them), so a `u16` entry can
/// hold every real cell and this value too: on a 16×16 board cell 255 is real, and a `u8`
/// sentinel of 255 made IDA* treat the bottom-right cell as off the board (it never returned).
const OFF_BOARD: u16 = u16::MAX;

/// The move tables a depth-first search reads at every node.
#[derive(Clone, Copy)]
pub(super) struct Moves<'a> {
    /// `nbr[cell][move]`: the cell the blank goes to, [`OFF_BOARD`] off the board.
    pub(super) nbr: &'a [[u16; 4]],
    /// `on_board[cell]`: the moves of the blank on `cell` that stay on the board, a bit each
    /// (bit `m` for move index `m`).
    pub(super) on_board: &'a [u8],
    /// The pruning automaton's transitions, `[state][move]` ([`DEAD`](crate::search::move_fsm::DEAD): pruned).
    pub(super) fsm: &'a [[u16; 4]],
    /// `live[state]`: the moves the automaton allows in `state`, a bit each.
    pub(super) live: &'a [u8],
    /// `closer[tile · cells + blank]`: the moves of the blank on `blank` that would bring
    /// `tile`, if it were the tile moved, closer to its goal cell, a bit each.
    pub(super) closer: &'a [u8],
    pub(super) cells: usize,
    /// `slot_move[slot]`: the index of the move tried in position `slot` (of each group).
    pub(super) slot_move: [u8; 4],
    /// `slots[mask]`: a bit set of moves (bit `m` for move index `m`) as a bit set of the
    /// slots those moves are tried in.
    pub(super) slots: [u8; 16],
    /// Whether each move is tried in its own index's slot (`slot_move` is `[0, 1, 2, 3]`, as
    /// for nearer-first): the search then skips the two lookups above.
    pub(super) identity: bool,
}

/// The tables behind [`Moves`], owned: built once per search for a `rows × cols` board, its
/// goal and its pruning automaton.
pub(super) struct MoveTables {
    nbr: Vec<[u16; 4]>,
    on_board: Vec<u8>,
    live: Vec<u8>,
    closer: Vec<u8>,
    slot_move: [u8; 4],
    slots: [u8; 16],
    /// The pruning automaton.
    machine: Arc<MoveFsm>,
}

impl MoveTables {
    /// The tables for a `rows × cols` board whose goal is `goal` (row-major, `0` = blank),
    /// pruned by `machine`, its moves tried in `order`.
    pub(super) fn new(
        rows: usize,
        cols: usize,
        goal: &[u8],
        machine: Arc<MoveFsm>,
        order: MoveOrder,
    ) -> Self {
        let nbr = Moves::neighbours(rows, cols);
        let slot_move = order.slots();
        let closer = match order {
            MoveOrder::NearerFirst => Moves::closer(&nbr, goal, cols),
            MoveOrder::Fixed(_) => vec![0; nbr.len() * nbr.len()],
        };
        MoveTables {
            on_board: Moves::masks(&nbr, OFF_BOARD),
            live: Moves::masks(machine.table(), DEAD),
            closer,
            slots: std::array::from_fn(|mask| {
                (0..4).fold(0u8, |s, slot| {
                    s | u8::from(mask >> slot_move[slot] & 1 == 1) << slot
                })
            }),
            slot_move,
            nbr,
            machine,
        }
    }

    /// The tables as the depth-first search reads them.
    pub(super) fn moves(&self) -> Moves<'_> {
        Moves {
            nbr: &self.nbr,
            on_board: &self.on_board,
            fsm: self.machine.table(),
            live: &self.live,
            closer: &self.closer,
            cells: self.nbr.len(),
            slot_move: self.slot_move,
            slots: self.slots,
            identity: self.slot_move == [0, 1, 2, 3],
        }
    }
}

impl Moves<'_> {
    /// [`Moves::nbr`]'s table for a `rows × cols` board: for each cell (row-major) and move
    /// index, the cell the blank goes to, [`OFF_BOARD`] off the board.
    fn neighbours(rows: usize, cols: usize) -> Vec<[u16; 4]> {
        (0..rows * cols)
            .map(|cell| {
                Move::ALL
                    .map(|m| move_target(rows, cols, cell, m).map_or(OFF_BOARD, |to| to as u16))
            })
            .collect()
    }

    /// [`Moves::closer`]'s table for the neighbours `nbr` of a board with `cols` columns whose
    /// goal is `goal` (row-major, `0` = blank).
    fn closer(nbr: &[[u16; 4]], goal: &[u8], cols: usize) -> Vec<u8> {
        let n = nbr.len();
        let mut home = vec![0usize; n];
        for (cell, &t) in goal.iter().enumerate() {
            home[usize::from(t)] = cell;
        }
        let mut out = vec![0u8; n * n];
        if n > NEARER_FIRST_MAX_CELLS {
            return out;
        }
        for (t, &goal_cell) in home.iter().enumerate() {
            for (blank, row) in nbr.iter().enumerate() {
                out[t * n + blank] = (0..4).fold(0u8, |m, mi| {
                    let near = row[mi] != OFF_BOARD
                        && nearer(cols, usize::from(row[mi]), blank, goal_cell);
                    m | u8::from(near) << mi
                });
            }
        }
        out
    }
}

/// Whether the tile on cell `from`, sliding into the blank's cell `to`, comes nearer `home`,
/// its goal cell (in Manhattan distance, on a board of `cols` columns).
fn nearer(cols: usize, from: usize, to: usize, home: usize) -> bool {
    let dist = |a: usize| (a / cols).abs_diff(home / cols) + (a % cols).abs_diff(home % cols);
    dist(to) < dist(from)
}

/// The largest boards (in cells) on which IDA* tries the moves that bring their tile nearer
/// its goal first ([`move_order`]). Measured: on 4×4 the last iterations shrink (Korf's 100
/// with linear conflict 8.87 → 7.62·10⁸ nodes, with `pdb78` 9.67 → 8.76·10⁵; the 80-move
/// positions with `pdb78` 6.32 → 5.38·10⁷); on 5×5 with `pdb6666` the ten easiest of Korf &
/// Felner's 24-puzzles went from 1.85 to 2.61·10⁹ (seven fewer, but #37 six times as many), so
/// larger boards keep [`Move::ALL`] order.
pub const NEARER_FIRST_MAX_CELLS: usize = 16;

/// The order in which IDA* tries the moves of the blank on `board` towards `goal` (both
/// row-major, `0` = blank), in the fast search and in the stepper alike: on boards of at most
/// [`NEARER_FIRST_MAX_CELLS`] cells, first the moves whose tile comes nearer its goal cell,
/// then the others, each group in [`Move::ALL`] order; on larger boards [`Move::ALL`] order.
/// Moves off the board are left out. The order changes no complete iteration (every node
/// under the threshold is expanded whatever the order), only where the last one meets the
/// goal. Looking for all solutions IDA* keeps [`Move::ALL`] order. This is
/// [`MoveOrder::NearerFirst`]; [`MoveOrder::moves`] gives any order's.
pub fn move_order(board: &Board, goal: &Board) -> Vec<Move> {
    MoveOrder::NearerFirst.moves(board, goal)
}

impl MoveOrder {
    /// The moves of the blank on `board` towards `goal` (both row-major, `0` = blank) in this
    /// order, those off the board left out: what IDA* tries at a node, in that order.
    pub fn moves(self, board: &Board, goal: &Board) -> Vec<Move> {
        match self {
            MoveOrder::NearerFirst => nearer_first(board, goal),
            MoveOrder::Fixed(order) => order
                .into_iter()
                .filter(|&m| board.target(m).is_some())
                .collect(),
        }
    }
}

/// [`MoveOrder::NearerFirst`]'s moves on `board` towards `goal`.
fn nearer_first(board: &Board, goal: &Board) -> Vec<Move> {
    let blank = board.blank();
    let ordered = board.len() <= NEARER_FIRST_MAX_CELLS;
    let home = |t: u8| goal.tiles().iter().position(|&x| x == t).unwrap_or(0);
    let near = |m: Move| {
        board
            .target(m)
            .is_some_and(|to| ordered && nearer(board.cols(), to, blank, home(board.tiles()[to])))
    };
    let (first, rest): (Vec<Move>, Vec<Move>) = Move::ALL
        .into_iter()
        .filter(|&m| board.target(m).is_some())
        .partition(|&m| near(m));
    first.into_iter().chain(rest).collect()
}

impl Moves<'_> {
    /// For each row of `table`, the bit set of its entries other than `none`.
    fn masks(table: &[[u16; 4]], none: u16) -> Vec<u8> {
        table
            .iter()
            .map(|row| (0..4).fold(0u8, |m, i| m | u8::from(row[i] != none) << i))
            .collect()
    }
}
