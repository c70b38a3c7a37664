//! What can be wrong with an input, and where: [`ParseError`] names the source and line.

use std::fmt;

use crate::puzzle::board::BoardError;

/// What went wrong while reading or parsing an input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseErrorKind {
    /// The file could not be read.
    #[error("cannot read: {0}")]
    Io(String),
    /// The input is larger than [`MAX_INPUT_BYTES`](super::MAX_INPUT_BYTES).
    #[error("input is larger than the 1 MiB limit")]
    TooLarge,
    /// The bytes are not UTF-8 text.
    #[error("not UTF-8 text")]
    NotUtf8,
    /// Nothing but whitespace and comments.
    #[error("empty input: no board found")]
    Empty,
    /// A token where a number was expected.
    #[error("{token:?} is not a number")]
    NotANumber {
        /// The token as written.
        token: String,
    },
    /// A number with more digits than any tile, size or length can have.
    #[error("{token} is too large a number")]
    NumberTooLarge {
        /// The token as written.
        token: String,
    },
    /// A word where a bench line names its goal that is no goal name.
    #[error("unknown goal {name:?} (expected blank_last or blank_first)")]
    UnknownGoal {
        /// The word as written.
        name: String,
    },
    /// A size line that is not 1 or 2 numbers in range.
    #[error("bad size line: {0}")]
    BadHeader(String),
    /// A row with the wrong number of tiles.
    #[error("row {row} has {found} {}, expected {expected}", if *.found == 1 { "tile" } else { "tiles" })]
    RowLength {
        /// 1-based row number within the board.
        row: usize,
        /// Tiles found.
        found: usize,
        /// Tiles expected (the board's width).
        expected: usize,
    },
    /// The input ended before all rows were read.
    #[error("too few rows: expected {expected}, found {found}")]
    TooFewRows {
        /// Rows expected.
        expected: usize,
        /// Rows found.
        found: usize,
    },
    /// Content after a complete board.
    #[error("unexpected content after the board (a board file holds one board)")]
    TrailingContent,
    /// A bench line whose number of tiles does not fit the board size.
    #[error("{0}")]
    TileCount(String),
    /// The tiles do not form a valid board.
    #[error("{0}")]
    Board(#[from] BoardError),
    /// The tiles of a line whose fields can be read two ways do not form a valid board: said
    /// with how the line was read. A line of one number more than a board is read as an id
    /// and a board (a bench line without its optimal length); a line of exactly a board's
    /// numbers as a board without an id (a bench line one tile short reads so).
    #[error("{board} (the line has {fields} fields, {})", reading(*id, *tiles))]
    BenchBoard {
        /// What is wrong with the tiles.
        board: BoardError,
        /// Fields (words) on the line.
        fields: usize,
        /// Tiles read.
        tiles: usize,
        /// Whether the first field was read as an id.
        id: bool,
    },
    /// A size was given (for bench-style lines) but the board gives its own, another one.
    #[error("the board is {}×{} but the size given is {}×{}", .found.0, .found.1, .given.0, .given.1)]
    SizeMismatch {
        /// The size given, `(rows, cols)`.
        given: (usize, usize),
        /// The board's own size, `(rows, cols)`.
        found: (usize, usize),
    },
    /// A line names another goal than the file's `# goal:` line.
    #[error("the line names the {line} goal but line {header_line} says \"# goal: {header}\"")]
    GoalConflict {
        /// The goal the line names.
        line: &'static str,
        /// The goal the header names.
        header: &'static str,
        /// The header's line.
        header_line: usize,
    },
    /// A single board was asked for but the input holds several.
    #[error("holds {0} puzzles where one was expected (use `npuzzle bench` for many)")]
    SeveralPuzzles(usize),
}

/// An input error: the source (file name or `<stdin>`), the 1-based line when known, and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// File name as given, `<stdin>` or `<string>`.
    pub source: String,
    /// 1-based line number, when the error belongs to a line.
    pub line: Option<usize>,
    /// What went wrong.
    pub kind: ParseErrorKind,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(l) => write!(f, "{}:{}: {}", self.source, l, self.kind),
            None => write!(f, "{}: {}", self.source, self.kind),
        }
    }
}

impl std::error::Error for ParseError {}

/// How a line of [`ParseErrorKind::BenchBoard`] was read.
fn reading(id: bool, tiles: usize) -> String {
    if id {
        format!("read as a bench line: an id, then {tiles} tiles")
    } else {
        format!(
            "read as {tiles} tiles without an id; if the first is an id, the line is a tile short"
        )
    }
}
