use std::fmt;

/// A move of the blank: the direction the blank goes. The tile it swaps with slides the
/// opposite way.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Move {
    /// Blank goes one row up.
    Up,
    /// Blank goes one row down.
    Down,
    /// Blank goes one column left.
    Left,
    /// Blank goes one column right.
    Right,
}

/// How move letters are written.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Notation {
    /// Letters say where the blank goes (the default).
    #[default]
    Blank,
    /// Letters say where the moved tile goes (the opposite direction).
    Tile,
}

/// A move sequence that did not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid move letter {letter:?} at position {position} (expected U, D, L or R)")]
pub struct MoveParseError {
    /// The offending character.
    pub letter: char,
    /// Its 0-based position among the non-space characters.
    pub position: usize,
}

impl Move {
    /// All four moves, in the order Up, Down, Left, Right.
    pub const ALL: [Move; 4] = [Move::Up, Move::Down, Move::Left, Move::Right];

    /// The move that undoes this one.
    #[inline]
    pub fn inverse(self) -> Move {
        match self {
            Move::Up => Move::Down,
            Move::Down => Move::Up,
            Move::Left => Move::Right,
            Move::Right => Move::Left,
        }
    }

    /// Index in [`Move::ALL`] (0..4).
    pub fn index(self) -> usize {
        self as usize
    }

    /// The move with index `i` in [`Move::ALL`].
    ///
    /// # Panics
    /// If `i ≥ 4`.
    pub fn from_index(i: usize) -> Move {
        Move::ALL[i]
    }

    /// The letter in the given notation: `U D L R`.
    pub fn letter(self, notation: Notation) -> char {
        let m = match notation {
            Notation::Blank => self,
            Notation::Tile => self.inverse(),
        };
        match m {
            Move::Up => 'U',
            Move::Down => 'D',
            Move::Left => 'L',
            Move::Right => 'R',
        }
    }

    /// Parses one letter (case-insensitive) in the given notation.
    pub fn from_letter(c: char, notation: Notation) -> Option<Move> {
        let m = match c.to_ascii_uppercase() {
            'U' => Move::Up,
            'D' => Move::Down,
            'L' => Move::Left,
            'R' => Move::Right,
            _ => return None,
        };
        Some(match notation {
            Notation::Blank => m,
            Notation::Tile => m.inverse(),
        })
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter(Notation::Blank))
    }
}

/// Writes moves as letters with no separator, first move first (e.g. `ULLDR`).
pub fn format_moves(moves: &[Move], notation: Notation) -> String {
    moves.iter().map(|m| m.letter(notation)).collect()
}

/// Parses letters `U D L R` (case-insensitive; spaces, commas ignored) in the given notation.
///
/// # Errors
/// [`MoveParseError`] naming the first character that is not a move letter.
pub fn parse_moves(s: &str, notation: Notation) -> Result<Vec<Move>, MoveParseError> {
    s.chars()
        .filter(|c| !c.is_whitespace() && *c != ',')
        .enumerate()
        .map(|(position, letter)| {
            Move::from_letter(letter, notation).ok_or(MoveParseError { letter, position })
        })
        .collect()
}
