//! The order in which IDA* tries a node's moves ([`MoveOrder`]): nearer first (the default),
//! or a fixed order of the blank's moves, such as the one that reproduces Korf's (1985) node
//! counts.

use std::fmt;
use std::str::FromStr;

use crate::puzzle::{Move, Notation};

/// The order in which IDA* tries the moves of a node. A complete iteration expands and
/// generates the same nodes in any order; only the last one, which stops at the first goal,
/// depends on it (and with it the total count and which optimal solution is found).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum MoveOrder {
    /// On boards of up to [`NEARER_FIRST_MAX_CELLS`](super::NEARER_FIRST_MAX_CELLS) cells,
    /// first the moves whose tile comes nearer its goal cell (in Manhattan distance), then the
    /// others, each group in [`Move::ALL`] order (up, down, left, right); on larger boards
    /// [`Move::ALL`] order.
    #[default]
    NearerFirst,
    /// The blank's moves in this order at every node (each move once).
    Fixed([Move; 4]),
}

impl MoveOrder {
    /// The order of Korf's (1985) IDA*, with which the nodes generated on his 100 15-puzzles
    /// equal his Table 1: the blank goes up, left, right, down (`ULRD`; in tile directions
    /// `DRLU`).
    pub const KORF: MoveOrder = MoveOrder::Fixed([Move::Up, Move::Left, Move::Right, Move::Down]);

    /// The name as the command line takes it and the output states it: `nearer-first`, or the
    /// four blank-move letters in order (`ULRD`).
    pub fn name(self) -> String {
        match self {
            MoveOrder::NearerFirst => "nearer-first".to_string(),
            MoveOrder::Fixed(order) => order.iter().map(|m| m.letter(Notation::Blank)).collect(),
        }
    }

    /// For each slot (the position in which a move is tried), the index of its move in
    /// [`Move::ALL`]: the fixed order, or [`Move::ALL`]'s own for nearer-first (whose two
    /// groups keep that order).
    pub(super) fn slots(self) -> [u8; 4] {
        match self {
            MoveOrder::NearerFirst => [0, 1, 2, 3],
            MoveOrder::Fixed(order) => order.map(|m| m.index() as u8),
        }
    }
}

impl fmt::Display for MoveOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// A `--move-order` that [`MoveOrder::from_str`] does not take.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown move order {0:?} (expected nearer-first, korf, or the four blank moves U D L R in \
     the order to try them, each once, e.g. ULRD)"
)]
pub struct UnknownMoveOrder(pub String);

impl FromStr for MoveOrder {
    type Err = UnknownMoveOrder;

    /// `nearer-first`, `korf` ([`MoveOrder::KORF`]), or a permutation of the letters `U D L R`
    /// (the blank's moves, case-insensitive, e.g. `ULRD`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || UnknownMoveOrder(s.to_string());
        match s.to_ascii_lowercase().as_str() {
            "nearer-first" | "nearer" => return Ok(MoveOrder::NearerFirst),
            "korf" => return Ok(MoveOrder::KORF),
            _ => {}
        }
        let moves: Vec<Move> = s
            .chars()
            .map(|c| Move::from_letter(c.to_ascii_uppercase(), Notation::Blank).ok_or_else(bad))
            .collect::<Result<_, _>>()?;
        let order: [Move; 4] = moves.try_into().map_err(|_| bad())?;
        if Move::ALL.iter().all(|m| order.contains(m)) {
            Ok(MoveOrder::Fixed(order))
        } else {
            Err(bad())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_back() {
        for s in ["nearer-first", "ULRD", "DRLU", "UDLR"] {
            assert_eq!(s.parse::<MoveOrder>().unwrap().name(), s);
        }
        assert_eq!("korf".parse::<MoveOrder>(), Ok(MoveOrder::KORF));
        assert_eq!("ulrd".parse::<MoveOrder>(), Ok(MoveOrder::KORF));
        assert_eq!(MoveOrder::KORF.slots(), [0, 2, 3, 1]);
    }

    #[test]
    fn refuses_what_is_not_a_permutation() {
        for s in ["", "ULR", "ULRDU", "UULD", "ULRX", "fastest"] {
            assert_eq!(s.parse::<MoveOrder>(), Err(UnknownMoveOrder(s.to_string())));
        }
    }
}
