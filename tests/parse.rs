//! Integration tests of the board and bench-file parser (`npuzzle::puzzle::parse`).

use std::io::Write;

use npuzzle::puzzle::parse::{
    Instance, MAX_INPUT_BYTES, ParseError, ParseErrorKind, parse_board, parse_puzzles, read_source,
};
use npuzzle::puzzle::{Board, BoardError, GoalSpec};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const SRC: &str = "test.txt";

fn board(rows: usize, cols: usize, tiles: &[usize]) -> Board {
    Board::new(rows, cols, tiles).expect("valid board")
}

/// The 31-move 8-puzzle `8 6 7/2 5 4/3 0 1`.
fn hard8() -> Board {
    board(3, 3, &[8, 6, 7, 2, 5, 4, 3, 0, 1])
}

fn ok_board(text: &str) -> Board {
    parse_board(text, SRC, None).unwrap_or_else(|e| panic!("{text:?} should parse: {e}"))
}

fn ok_all(text: &str, size: Option<(usize, usize)>) -> Vec<Instance> {
    parse_puzzles(text, SRC, size).unwrap_or_else(|e| panic!("{text:?} should parse: {e}"))
}

/// Parses `text`, expects an error on `line` and checks that the message names `SRC:line: `.
fn err_at(text: &str, size: Option<(usize, usize)>, line: usize) -> ParseErrorKind {
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
fn err_no_line(e: ParseError, source: &str) -> ParseErrorKind {
    assert_eq!(e.source, source, "source of {e}");
    assert_eq!(e.line, None, "line of {e}");
    let msg = e.to_string();
    assert!(
        msg.starts_with(&format!("{source}: ")),
        "message {msg:?} should start with {source}: "
    );
    e.kind
}

// ---------------------------------------------------------------------------------------------
// Round trips of every format
// ---------------------------------------------------------------------------------------------

#[test]
fn princeton_format() {
    let b = ok_board("3\n1 2 3\n4 5 6\n7 8 0\n");
    assert_eq!(b, board(3, 3, &[1, 2, 3, 4, 5, 6, 7, 8, 0]));
    assert_eq!((b.rows(), b.cols(), b.blank()), (3, 3, 8));
    let b = ok_board("3\n 8  6  7\n 2  5  4\n 3  0  1\n");
    assert_eq!(b, hard8());
    let v = ok_all("4\n1 2 3 4\n5 6 7 8\n9 10 11 12\n13 14 15 0\n", None);
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].id, "1");
    assert_eq!(v[0].line, 1);
    assert_eq!(v[0].optimal, None);
    assert_eq!(v[0].goal, None);
    assert_eq!(v[0].board.tiles()[15], 0);
    assert_eq!(v[0].board.get(2, 2), 11);
}

#[test]
fn rectangular_format() {
    let text = "3 4\n1 2 3 4\n5 6 7 8\n9 10 11 0\n";
    let b = ok_board(text);
    assert_eq!((b.rows(), b.cols()), (3, 4));
    assert_eq!(b, board(3, 4, &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0]));
    let b = ok_board("2 5\n0 1 2 3 4\n5 6 7 8 9\n");
    assert_eq!((b.rows(), b.cols(), b.blank()), (2, 5, 0));
    // A square board in the two-number header is the same as Princeton.
    assert_eq!(ok_board("3 3\n8 6 7\n2 5 4\n3 0 1\n"), hard8());
}

#[test]
fn slash_format() {
    assert_eq!(ok_board("8 6 7/2 5 4/3 0 1"), hard8());
    assert_eq!(ok_board("8 6 7 / 2 5 4 / 3 0 1\n"), hard8());
    let b = ok_board("1 2 3 4/5 6 7 0");
    assert_eq!(b, board(2, 4, &[1, 2, 3, 4, 5, 6, 7, 0]));
    // A file of slash lines is a bench file with the line numbers as ids.
    let v = ok_all(
        "# two boards\n8 6 7/2 5 4/3 0 1\n\n7 8 0/6 5 4/1 2 3\n",
        None,
    );
    assert_eq!(v.len(), 2);
    assert_eq!((v[0].id.as_str(), v[0].line), ("2", 2));
    assert_eq!((v[1].id.as_str(), v[1].line), ("4", 4));
    assert_eq!(v[0].board, hard8());
    assert_eq!(v[1].board, board(3, 3, &[7, 8, 0, 6, 5, 4, 1, 2, 3]));
    assert_eq!(v[1].optimal, None);
    // FromStr goes through the same parser.
    let b: Board = "8 6 7/2 5 4/3 0 1".parse().expect("FromStr");
    assert_eq!(b, hard8());
}

#[test]
fn bench_lines_with_and_without_optimal() {
    let text = "\
# id tiles optimal
a1 8 6 7 2 5 4 3 0 1 31
a2 7 8 0 6 5 4 1 2 3
77 1 2 3 4 5 6 7 0 8 1
";
    let v = ok_all(text, None);
    assert_eq!(v.len(), 3);
    assert_eq!(v[0].id, "a1");
    assert_eq!(v[0].board, hard8());
    assert_eq!(v[0].optimal, Some(31));
    assert_eq!(v[0].line, 2);
    assert_eq!(v[0].goal, None);
    assert_eq!(v[1].id, "a2");
    assert_eq!(v[1].optimal, None);
    assert_eq!(v[1].board, board(3, 3, &[7, 8, 0, 6, 5, 4, 1, 2, 3]));
    assert_eq!(v[2].id, "77");
    assert_eq!(v[2].optimal, Some(1));
    assert_eq!(v[2].line, 4);
    // 4×4 with and without optimal.
    let v = ok_all(
        "k12 14 1 9 6 4 8 12 5 7 2 3 0 10 11 13 15 45\nk9 3 14 9 11 5 4 8 2 13 12 6 7 10 1 15 0\n",
        None,
    );
    assert_eq!((v[0].board.rows(), v[0].board.cols()), (4, 4));
    assert_eq!(v[0].optimal, Some(45));
    assert_eq!(v[1].optimal, None);
    assert_eq!(v[1].board.blank(), 15);
}

#[test]
fn bench_lines_with_goal_token() {
    let text = "\
hard8_A blank_last 8 6 7 2 5 4 3 0 1 31
hard8_C blank_first 8 7 6 0 4 1 2 5 3 31
x BLANK-FIRST 1 2 3 4 5 6 7 8 0
y 1 2 3 4 5 6 7 8 0 0
";
    let v = ok_all(text, None);
    assert_eq!(v.len(), 4);
    assert_eq!(v[0].id, "hard8_A");
    assert_eq!(v[0].goal, Some(GoalSpec::BlankLast));
    assert_eq!(v[0].board, hard8());
    assert_eq!(v[0].optimal, Some(31));
    assert_eq!(v[1].goal, Some(GoalSpec::BlankFirst));
    assert_eq!(v[1].board, board(3, 3, &[8, 7, 6, 0, 4, 1, 2, 5, 3]));
    assert_eq!(v[2].goal, Some(GoalSpec::BlankFirst));
    assert_eq!(v[2].optimal, None);
    assert_eq!(v[3].goal, None);
    assert_eq!(v[3].optimal, Some(0));
}

#[test]
fn bare_square_lines() {
    let v = ok_all(
        "8 6 7 2 5 4 3 0 1\n1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0\n",
        None,
    );
    assert_eq!(v.len(), 2);
    assert_eq!(v[0].board, hard8());
    assert_eq!(v[0].id, "1");
    assert_eq!(v[0].optimal, None);
    assert_eq!((v[1].board.rows(), v[1].id.as_str()), (4, "2"));
    assert_eq!(ok_board("8 6 7 2 5 4 3 0 1"), hard8());
}

#[test]
fn bench_lines_with_size_hint() {
    let tiles = "1 2 3 4 5 6 7 8 9 10 11 0";
    let expect = board(3, 4, &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0]);
    // Bare, with id, with id and optimal.
    let text = format!("{tiles}\nr1 {tiles}\nr2 {tiles} 0\nr3 blank_first {tiles} 7\n");
    let v = ok_all(&text, Some((3, 4)));
    assert_eq!(v.len(), 4);
    for i in &v {
        assert_eq!(i.board, expect);
    }
    assert_eq!((v[0].id.as_str(), v[0].optimal), ("1", None));
    assert_eq!((v[1].id.as_str(), v[1].optimal), ("r1", None));
    assert_eq!((v[2].id.as_str(), v[2].optimal), ("r2", Some(0)));
    assert_eq!(v[3].goal, Some(GoalSpec::BlankFirst));
    assert_eq!(v[3].optimal, Some(7));
    // Without the hint, 12 tiles fit no square.
    let k = err_at(&format!("r1 {tiles}"), None, 1);
    assert!(matches!(k, ParseErrorKind::TileCount(_)), "{k:?}");
    // With the hint (4, 3) the same tiles are a 4×3 board.
    let b = parse_board(tiles, SRC, Some((4, 3))).expect("4x3");
    assert_eq!((b.rows(), b.cols()), (4, 3));
    // The hint is ignored for the self-describing formats.
    assert_eq!(
        parse_board("8 6 7/2 5 4/3 0 1", SRC, Some((3, 4))).expect("slash"),
        hard8()
    );
}

#[test]
fn to_string_and_block_string_round_trip() {
    let mut rng = ChaCha8Rng::seed_from_u64(42);
    let shapes = [(2, 2), (3, 3), (4, 4), (3, 5), (5, 2), (2, 16), (16, 16)];
    for &(r, c) in &shapes {
        for _ in 0..5 {
            let n = r * c;
            let mut tiles: Vec<usize> = (0..n).collect();
            for i in (1..n).rev() {
                tiles.swap(i, rng.random_range(0..=i));
            }
            let b = board(r, c, &tiles);
            let line = b.to_string();
            assert_eq!(line.matches('/').count(), r - 1, "{line}");
            assert_eq!(ok_board(&line), b, "one-line {line}");
            let block = b.to_block_string();
            assert_eq!(block.lines().count(), r + 1, "{block}");
            let header = if r == c {
                r.to_string()
            } else {
                format!("{r} {c}")
            };
            assert_eq!(block.lines().next(), Some(header.as_str()));
            assert_eq!(ok_board(&block), b, "block {block}");
            // Bench line (id + tiles + optimal), with the size hint for non-square boards.
            let bench = format!("id{r}x{c} {} 12", tiles_str(&b));
            let hint = (r != c).then_some((r, c));
            let v = ok_all(&bench, hint);
            assert_eq!(v[0].board, b);
            assert_eq!(v[0].optimal, Some(12));
        }
    }
    assert_eq!(hard8().to_string(), "8 6 7/2 5 4/3 0 1");
    assert_eq!(hard8().to_block_string(), "3\n 8 6 7\n 2 5 4\n 3 0 1\n");
    let b = board(2, 3, &[1, 2, 3, 4, 5, 0]);
    assert_eq!(b.to_block_string(), "2 3\n 1 2 3\n 4 5 0\n");
    let b = board(
        4,
        4,
        &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0],
    );
    assert!(b.to_block_string().contains("\n  1  2  3  4\n"));
}

fn tiles_str(b: &Board) -> String {
    b.tiles()
        .iter()
        .map(|t| t.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

// ---------------------------------------------------------------------------------------------
// Whitespace robustness
// ---------------------------------------------------------------------------------------------

#[test]
fn tabs_crlf_comments_and_blank_lines() {
    let variants = [
        "3\r\n8 6 7\r\n2 5 4\r\n3 0 1\r\n",
        "3\n8\t6\t7\n2\t5 4\n\t3 0 1\t\n",
        "\n\n  \n3\n8 6 7\n2 5 4\n3 0 1\n\n\n   \n",
        "# Princeton file\n3 # size\n8 6 7 # row 1\n# in between\n2 5 4\n\n3 0 1\n# end\n",
        "\r\n# crlf comment\r\n3\t\r\n 8  6  7 \r\n\r\n 2  5  4\r\n 3  0  1\r\n\r\n",
        "3 3\r\n8 6 7\r\n2 5 4\r\n3 0 1",
        "8 6 7/2 5 4/3 0 1\r\n",
        "\t8\t6\t7 /2 5 4/ 3 0 1 # comment\n\n",
        "#c\n\n8 6 7 2 5 4 3 0 1\r\n\r\n",
        "x1\t8 6 7 2 5 4 3 0 1\t31\r\n# trailing comment\r\n\r\n",
    ];
    for text in variants {
        assert_eq!(ok_board(text), hard8(), "{text:?}");
    }
    // Line numbers count blank and comment lines.
    let v = ok_all("\r\n# c\r\n\r\na 8 6 7 2 5 4 3 0 1 31\r\n", None);
    assert_eq!(v[0].line, 4);
    assert_eq!(v[0].optimal, Some(31));
}

// ---------------------------------------------------------------------------------------------
// Bad input: one test per case
// ---------------------------------------------------------------------------------------------

#[test]
fn error_number_too_large_for_a_tile_is_not_called_not_a_number() {
    let k = err_at("1 99999999999999999999999 3/4 5 6/7 8 0", None, 1);
    assert_eq!(
        k,
        ParseErrorKind::NumberTooLarge {
            token: "99999999999999999999999".to_string()
        }
    );
}

#[test]
fn error_unknown_goal_name_on_a_bench_line_is_not_a_size_problem() {
    let k = err_at(
        "1 1 2 3 4 5 6 7 0 8 1\n2 blank_middle 1 2 3 4 5 6 7 8 0 0\n",
        None,
        2,
    );
    assert_eq!(
        k,
        ParseErrorKind::UnknownGoal {
            name: "blank_middle".to_string()
        }
    );
}

#[test]
fn error_token_not_a_number() {
    let k = err_at("3\n1 2 3\n4 x 6\n7 8 0\n", None, 3);
    assert_eq!(
        k,
        ParseErrorKind::NotANumber {
            token: "x".to_string()
        }
    );
    let k = err_at("8 6 7/2 5 4/3 0 -1", None, 1);
    assert_eq!(
        k,
        ParseErrorKind::NotANumber {
            token: "-1".to_string()
        }
    );
    let k = err_at("\nthree\n1 2 3\n", None, 2);
    assert_eq!(
        k,
        ParseErrorKind::NotANumber {
            token: "three".to_string()
        }
    );
    let k = err_at("ok 8 6 7 2 5 4 3 0 1\nbad 8 6 7 2 5 4 3 0 one\n", None, 2);
    assert_eq!(
        k,
        ParseErrorKind::NotANumber {
            token: "one".to_string()
        }
    );
    let k = err_at("a 8 6 7 2 5 4 3 0 1 many", None, 1);
    assert_eq!(
        k,
        ParseErrorKind::NotANumber {
            token: "many".to_string()
        }
    );
}

#[test]
fn error_short_row() {
    let k = err_at("3\n1 2 3\n4 5\n6 7 8 0\n", None, 3);
    assert_eq!(
        k,
        ParseErrorKind::RowLength {
            row: 2,
            found: 2,
            expected: 3
        }
    );
    let k = err_at("2 3\n1 2 3\n4 0\n", None, 3);
    assert_eq!(
        k,
        ParseErrorKind::RowLength {
            row: 2,
            found: 2,
            expected: 3
        }
    );
}

#[test]
fn error_long_row() {
    let k = err_at("# c\n3\n1 2 3 4\n5 6 7\n8 0 9\n", None, 3);
    assert_eq!(
        k,
        ParseErrorKind::RowLength {
            row: 1,
            found: 4,
            expected: 3
        }
    );
}

#[test]
fn error_slash_row_of_wrong_length() {
    let k = err_at("8 6 7/2 5 4/3 0 1\n8 6 7/2 5/4 3 0 1\n", None, 2);
    assert_eq!(
        k,
        ParseErrorKind::RowLength {
            row: 2,
            found: 2,
            expected: 3
        }
    );
    let k = err_at("8 6 7/2 5 4/3 0 1/", None, 1);
    assert_eq!(
        k,
        ParseErrorKind::RowLength {
            row: 4,
            found: 0,
            expected: 3
        }
    );
}

#[test]
fn error_duplicate_tile() {
    // Board-level errors of a block board are reported at the row holding the bad tile.
    let k = err_at("3\n1 2 3\n4 5 6\n7 7 0\n", None, 4);
    assert_eq!(
        k,
        ParseErrorKind::Board(BoardError::Duplicate {
            tile: 7,
            first: 6,
            second: 7,
            missing: 8
        })
    );
    let k = err_at("8 6 7/2 5 4/3 0 1\n1 2 3/4 5 6/8 0 8\n", None, 2);
    assert_eq!(
        k,
        ParseErrorKind::Board(BoardError::Duplicate {
            tile: 8,
            first: 6,
            second: 8,
            missing: 7
        })
    );
    assert!(k.to_string().contains("tile 7 is missing"), "{k}");
}

#[test]
fn error_no_blank() {
    // Tiles 1..=9 on a 3×3: no 0. Reported as "no blank" (before the range check on 9).
    let k = err_at("3\n1 2 3\n4 5 6\n7 8 9\n", None, 2);
    assert_eq!(k, ParseErrorKind::Board(BoardError::NoBlank));
    let k = err_at("a 1 2 3 4 5 6 7 8 9 31", None, 1);
    assert_eq!(k, ParseErrorKind::Board(BoardError::NoBlank));
    // A missing tile with a 0 present means another tile is duplicated.
    let k = err_at("1 2 3/4 5 6/7 1 0", None, 1);
    assert!(
        matches!(
            k,
            ParseErrorKind::Board(BoardError::Duplicate {
                tile: 1,
                missing: 8,
                ..
            })
        ),
        "{k:?}"
    );
}

#[test]
fn board_new_rejects_exactly_the_non_permutations() {
    assert_eq!(
        Board::new(3, 3, &[1, 2, 3, 4, 5, 6, 7, 8]),
        Err(BoardError::WrongCount {
            rows: 3,
            cols: 3,
            expected: 9,
            found: 8
        })
    );
    // Exhaustively for 2×2: the accepted 4-tuples over 0..=4 are exactly the 24 permutations,
    // and every tuple without a 0 is reported as NoBlank.
    let mut accepted = 0;
    for code in 0..5usize.pow(4) {
        let t: Vec<usize> = (0..4).map(|i| code / 5usize.pow(i) % 5).collect();
        match Board::new(2, 2, &t) {
            Ok(_) => accepted += 1,
            Err(e) => {
                if !t.contains(&0) {
                    assert_eq!(e, BoardError::NoBlank, "{t:?}");
                }
            }
        }
    }
    assert_eq!(accepted, 24);
}

#[test]
fn error_tile_out_of_range() {
    let k = err_at("a 8 6 7 2 5 4 3 0 10 31", None, 1);
    assert_eq!(
        k,
        ParseErrorKind::Board(BoardError::OutOfRange {
            tile: 10,
            rows: 3,
            cols: 3,
            max: 8
        })
    );
    let k = err_at("\n2 3\n1 2 3\n4 0 6\n", None, 4);
    assert_eq!(
        k,
        ParseErrorKind::Board(BoardError::OutOfRange {
            tile: 6,
            rows: 2,
            cols: 3,
            max: 5
        })
    );
    // A token too large for usize is a number too large (it used to say "not a number").
    let k = err_at("8 6 7/2 5 4/3 0 99999999999999999999999", None, 1);
    assert!(matches!(k, ParseErrorKind::NumberTooLarge { .. }), "{k:?}");
}

#[test]
fn error_empty_input() {
    for text in [
        "",
        "\n\n",
        "  \t \r\n",
        "# only a comment\n# and another\n\n  # indented\n",
    ] {
        let e = parse_puzzles(text, SRC, None).expect_err(text);
        assert_eq!(err_no_line(e, SRC), ParseErrorKind::Empty, "{text:?}");
        let e = parse_board(text, SRC, None).expect_err(text);
        assert_eq!(err_no_line(e, SRC), ParseErrorKind::Empty, "{text:?}");
    }
}

#[test]
fn error_too_few_rows() {
    let k = err_at("3\n1 2 3\n4 5 6\n\n# gone\n", None, 3);
    assert_eq!(
        k,
        ParseErrorKind::TooFewRows {
            expected: 3,
            found: 2
        }
    );
    let k = err_at("# c\n4 2\n", None, 2);
    assert_eq!(
        k,
        ParseErrorKind::TooFewRows {
            expected: 4,
            found: 0
        }
    );
}

#[test]
fn error_trailing_content_after_princeton_board() {
    let k = err_at("3\n1 2 3\n4 5 6\n7 8 0\n\n1 2 3\n", None, 6);
    assert_eq!(k, ParseErrorKind::TrailingContent);
    let k = err_at("2 2\n1 2\n3 0\nextra\n", None, 4);
    assert_eq!(k, ParseErrorKind::TrailingContent);
}

#[test]
fn error_too_large_via_read_source() {
    let mut f = tempfile::NamedTempFile::new().expect("temp file");
    let line = "8 6 7/2 5 4/3 0 1\n";
    let reps = (MAX_INPUT_BYTES as usize) / line.len() + 1;
    f.write_all(line.repeat(reps).as_bytes()).expect("write");
    f.flush().expect("flush");
    let path = f.path().to_str().expect("utf-8 path").to_string();
    let e = read_source(&path).expect_err("over 1 MiB");
    assert_eq!(err_no_line(e, &path), ParseErrorKind::TooLarge);

    // Exactly the limit is accepted.
    let mut g = tempfile::NamedTempFile::new().expect("temp file");
    let mut text = "# pad\n".to_string();
    text.push_str(&" ".repeat(MAX_INPUT_BYTES as usize - text.len() - line.len()));
    text.push_str(line);
    assert_eq!(text.len() as u64, MAX_INPUT_BYTES);
    g.write_all(text.as_bytes()).expect("write");
    g.flush().expect("flush");
    let gpath = g.path().to_str().expect("utf-8 path").to_string();
    let (name, read) = read_source(&gpath).expect("exactly 1 MiB");
    assert_eq!(name, gpath);
    assert_eq!(read.len() as u64, MAX_INPUT_BYTES);
    assert_eq!(parse_board(&read, &name, None).expect("parses"), hard8());
}

#[test]
fn error_not_utf8_via_read_source() {
    let mut f = tempfile::NamedTempFile::new().expect("temp file");
    f.write_all(b"3\n1 2 3\n4 \xff\xfe 6\n7 8 0\n")
        .expect("write");
    f.flush().expect("flush");
    let path = f.path().to_str().expect("utf-8 path").to_string();
    let e = read_source(&path).expect_err("binary");
    assert_eq!(err_no_line(e, &path), ParseErrorKind::NotUtf8);
}

#[test]
fn read_source_reads_a_file() {
    let mut f = tempfile::NamedTempFile::new().expect("temp file");
    f.write_all(b"3\r\n8 6 7\r\n2 5 4\r\n3 0 1\r\n")
        .expect("write");
    f.flush().expect("flush");
    let path = f.path().to_str().expect("utf-8 path").to_string();
    let (name, text) = read_source(&path).expect("readable");
    assert_eq!(name, path);
    assert_eq!(parse_board(&text, &name, None).expect("parses"), hard8());
}

#[test]
fn error_missing_file_via_read_source() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("does-not-exist.txt");
    let path = path.to_str().expect("utf-8 path").to_string();
    let e = read_source(&path).expect_err("missing");
    let k = err_no_line(e, &path);
    assert!(
        matches!(k, ParseErrorKind::Io(ref m) if !m.is_empty()),
        "{k:?}"
    );
}

#[test]
fn error_board_larger_than_maximum() {
    // Princeton header 17.
    let k = err_at("17\n", None, 1);
    assert!(matches!(k, ParseErrorKind::BadHeader(_)), "{k:?}");
    let mut text = "17\n".to_string();
    for r in 0..17 {
        let row: Vec<String> = (0..17)
            .map(|c| ((r * 17 + c + 1) % 289).to_string())
            .collect();
        text.push_str(&row.join(" "));
        text.push('\n');
    }
    let k = err_at(&text, None, 1);
    assert!(matches!(k, ParseErrorKind::BadHeader(_)), "{k:?}");
    // Rectangular header beyond the side limit.
    let k = err_at("3 17\n", None, 1);
    assert!(matches!(k, ParseErrorKind::BadHeader(_)), "{k:?}");
    // A bare bench line of 289 = 17×17 tiles, and the same with an id and an optimal length.
    let tiles: Vec<String> = (0..289).map(|t| t.to_string()).collect();
    let tiles = tiles.join(" ");
    let k = err_at(&tiles, None, 1);
    assert_eq!(
        k,
        ParseErrorKind::Board(BoardError::BadSize { rows: 17, cols: 17 })
    );
    let k = err_at(&format!("# big\nbig {tiles} 100"), None, 2);
    assert_eq!(
        k,
        ParseErrorKind::Board(BoardError::BadSize { rows: 17, cols: 17 })
    );
    // A slash board 17 wide.
    let row: Vec<String> = (0..17).map(|t| t.to_string()).collect();
    let row = row.join(" ");
    let k = err_at(&format!("{row}/{row}"), None, 1);
    assert_eq!(
        k,
        ParseErrorKind::Board(BoardError::BadSize { rows: 2, cols: 17 })
    );
    // A size hint beyond the limits.
    let k = err_at(&format!("x {tiles}"), Some((17, 17)), 1);
    assert_eq!(
        k,
        ParseErrorKind::Board(BoardError::BadSize { rows: 17, cols: 17 })
    );
    // 16×16 is the largest accepted.
    let tiles: Vec<String> = (1..256).chain([0]).map(|t| t.to_string()).collect();
    let b = ok_board(&tiles.join(" "));
    assert_eq!((b.rows(), b.cols(), b.blank()), (16, 16, 255));
}

#[test]
fn error_header_below_minimum() {
    let k = err_at("1\n0\n", None, 1);
    assert!(matches!(k, ParseErrorKind::BadHeader(_)), "{k:?}");
    let k = err_at("# tiny\n0\n", None, 2);
    assert!(matches!(k, ParseErrorKind::BadHeader(_)), "{k:?}");
    let k = err_at("1 3\n1 2 0\n", None, 1);
    assert!(matches!(k, ParseErrorKind::BadHeader(_)), "{k:?}");
    // A slash board with one row, or one column.
    let k = err_at("1 2 0", Some((1, 3)), 1);
    assert_eq!(
        k,
        ParseErrorKind::Board(BoardError::BadSize { rows: 1, cols: 3 })
    );
    let k = err_at("1/0", None, 1);
    assert_eq!(
        k,
        ParseErrorKind::Board(BoardError::BadSize { rows: 2, cols: 1 })
    );
}

#[test]
fn error_several_puzzles_in_parse_board() {
    let text = "a 8 6 7 2 5 4 3 0 1 31\nb 7 8 0 6 5 4 1 2 3 26\n";
    let e = parse_board(text, SRC, None).expect_err("two puzzles");
    assert_eq!(err_no_line(e, SRC), ParseErrorKind::SeveralPuzzles(2));
    let e = parse_board(
        "8 6 7/2 5 4/3 0 1\n1 2 3/4 5 6/7 8 0\n1 2 3/4 5 6/7 0 8",
        SRC,
        None,
    )
    .expect_err("three puzzles");
    assert_eq!(err_no_line(e, SRC), ParseErrorKind::SeveralPuzzles(3));
    // parse_puzzles takes them all.
    assert_eq!(ok_all(text, None).len(), 2);
}

#[test]
fn error_bench_line_count_fits_no_square() {
    // 12 numbers: not a square, not a square + 1 (id) nor + 2 (id, optimal).
    let k = err_at(
        "ok 8 6 7 2 5 4 3 0 1\nbad 1 2 3 4 5 6 7 8 9 10 0\n",
        None,
        2,
    );
    assert!(matches!(k, ParseErrorKind::TileCount(_)), "{k:?}");
    // With a size hint the count must be n, n + 1 or n + 2.
    let k = err_at("r 1 2 3 4 5 6 7 8 9 10 11 0 5 6", Some((3, 4)), 1);
    assert!(matches!(k, ParseErrorKind::TileCount(_)), "{k:?}");
    // A line of 3 numbers (Princeton-like header gone wrong).
    let k = err_at("3 3 3\n", None, 1);
    assert!(matches!(k, ParseErrorKind::TileCount(_)), "{k:?}");
}

#[test]
fn error_source_names_stdin_and_string() {
    let e = parse_board("3\n1 2 3\n", "<stdin>", None).expect_err("short");
    assert_eq!(e.to_string().split(' ').next(), Some("<stdin>:2:"));
    let e = "1 2 3/4 5 6/7 8 x".parse::<Board>().expect_err("bad");
    assert_eq!(e.source, "<string>");
    assert!(e.to_string().starts_with("<string>:1: "), "{e}");
}

#[test]
fn optimal_length_beyond_u32_is_not_truncated() {
    // 2^32 does not fit the u32 optimal length; accepting it as 0 would be silently wrong.
    let text = "a 8 6 7 2 5 4 3 0 1 4294967296";
    match parse_puzzles(text, SRC, None) {
        Err(e) => assert_eq!(e.line, Some(1), "{e}"),
        Ok(v) => panic!(
            "optimal length 4294967296 accepted as {:?} (silently truncated to u32)",
            v[0].optimal
        ),
    }
}

#[test]
fn huge_size_hint_does_not_panic() {
    // `rows * cols` of a size hint must not overflow (a panic in debug builds).
    let r = parse_puzzles("x 1 2 3 0", SRC, Some((usize::MAX, 2)));
    assert!(r.is_err(), "{r:?}");
    let r = parse_puzzles("x 1 2 3 0", SRC, Some((1 << (usize::BITS - 1), 2)));
    assert!(r.is_err(), "{r:?}");
}

// ---------------------------------------------------------------------------------------------
// Fuzz-ish
// ---------------------------------------------------------------------------------------------

#[test]
fn random_short_inputs_never_panic() {
    const ALPHABET: &[u8] = b"0123456789012345678901234567890123456789      //\n\n\n##--abxzR\t\r";
    let mut rng = ChaCha8Rng::seed_from_u64(0x5eed_2024);
    let mut oks = 0;
    let mut errs = 0;
    for i in 0..2000 {
        let len = rng.random_range(0..60);
        let mut s: String = (0..len)
            .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
            .collect();
        // Every few strings, start from a valid board and corrupt it a little.
        if i % 4 == 0 {
            let mut base = match i % 3 {
                0 => "3\n8 6 7\n2 5 4\n3 0 1\n".to_string().into_bytes(),
                1 => "8 6 7/2 5 4/3 0 1".to_string().into_bytes(),
                _ => "a 8 6 7 2 5 4 3 0 1 31".to_string().into_bytes(),
            };
            for _ in 0..rng.random_range(0..3) {
                let p = rng.random_range(0..base.len());
                base[p] = ALPHABET[rng.random_range(0..ALPHABET.len())];
            }
            s = String::from_utf8(base).expect("ascii");
        }
        let size = match rng.random_range(0..4) {
            0 => Some((rng.random_range(0..6), rng.random_range(0..6))),
            _ => None,
        };
        match parse_puzzles(&s, "<fuzz>", size) {
            Ok(v) => {
                oks += 1;
                assert!(!v.is_empty(), "{s:?}");
                for inst in &v {
                    // Whatever parsed is a valid board that prints and parses back.
                    let b = &inst.board;
                    assert_eq!(ok_board(&b.to_string()), *b, "{s:?}");
                }
            }
            Err(e) => {
                errs += 1;
                let msg = e.to_string();
                assert!(msg.starts_with("<fuzz>"), "{msg}");
                if let Some(l) = e.line {
                    // Lines end in LF (or CRLF); a text without LF is split on CR.
                    let sep = if s.contains('\n') { '\n' } else { '\r' };
                    assert!(l >= 1 && l <= s.split(sep).count(), "{s:?}: {msg}");
                }
            }
        }
        let _ = parse_board(&s, "<fuzz>", size);
    }
    // The corpus exercises both outcomes.
    assert!(oks > 50, "only {oks} inputs parsed");
    assert!(errs > 1000, "only {errs} inputs failed");
}
