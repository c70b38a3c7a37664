//! Helpers for the parser tests (`tests/parse.rs`, `tests/parse_errors.rs`).

use npuzzle::puzzle::Board;
use npuzzle::puzzle::parse::{Instance, ParseError, ParseErrorKind, parse_board, parse_puzzles};

/// The source name the parser tests give.
pub const SRC: &str = "test.txt";

/// A `rows × cols` board from row-major tiles (`0` = blank) that must be valid.
pub fn board(rows: usize, cols: usize, tiles: &[usize]) -> Board {
    Board::new(rows, cols, tiles).expect("valid board")
}

/// The 31-move 8-puzzle `8 6 7/2 5 4/3 0 1`.
pub fn hard8() -> Board {
    board(3, 3, &[8, 6, 7, 2, 5, 4, 3, 0, 1])
}

pub fn ok_board(text: &str) -> Board {
    parse_board(text, SRC, None).unwrap_or_else(|e| panic!("{text:?} should parse: {e}"))
}

pub fn ok_all(text: &str, size: Option<(usize, usize)>) -> Vec<Instance> {
    parse_puzzles(text, SRC, size).unwrap_or_else(|e| panic!("{text:?} should parse: {e}"))
}

/// Parses `text`, expects an error on `line` and checks that the message names `SRC:line: `.
pub fn err_at(text: &str, size: Option<(usize, usize)>, line: usize) -> ParseErrorKind {
    let e: ParseError = match parse_puzzles(text, SRC, size) {
        Ok(v) => panic!("{text:?} should not parse, got {v:?}"),
        Err(e) => e,
    };
    assert_eq!(e.source, SRC, "source of {e}");
    assert_eq!(e.line, Some(line), "line of {e}");
    let msg = e.to_string();
    assert!(
        msg.starts_with(&format!("{SRC}:{line}: ")),
        "message {msg:?} should start with {SRC}:{line}: "
    );
    e.kind
}

/// As [`err_at`] for an error that belongs to no line: the message starts with `SRC: `.
pub fn err_no_line(e: ParseError, source: &str) -> ParseErrorKind {
    assert_eq!(e.source, source, "source of {e}");
    assert_eq!(e.line, None, "line of {e}");
    let msg = e.to_string();
    assert!(
        msg.starts_with(&format!("{source}: ")),
        "message {msg:?} should start with {source}: "
    );
    e.kind
}
