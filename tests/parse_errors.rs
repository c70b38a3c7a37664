//! The parser on bad input, one test per case: each error names its source and line and says
//! what is wrong (`npuzzle::puzzle::parse::ParseErrorKind`).

mod common;

use std::io::Write;

use common::parse::{SRC, err_at, err_no_line, hard8, ok_all, ok_board};
use npuzzle::puzzle::parse::{
    MAX_INPUT_BYTES, ParseErrorKind, parse_board, parse_puzzles, read_source,
};
use npuzzle::puzzle::{Board, BoardError};

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

/// A board of rows alone, 2×6, with one tile wrong was read as two bench lines of a 2×2
/// board ("tile 4 is out of range: a 2×2 board"): it gets the 2×6 board's own error.
#[test]
fn error_a_wide_board_of_rows_alone_with_one_bad_tile_is_read_as_that_board() {
    let k = err_at("1 2 3 4 5 6\n7 8 9 10 11 12\n", None, 2);
    assert_eq!(
        k,
        ParseErrorKind::Board(BoardError::OutOfRange {
            tile: 12,
            rows: 2,
            cols: 6,
            max: 11
        })
    );
    // Two bench lines of a 2×2 board that do read stay bench lines.
    let all = ok_all("a 1 2 3 0 5\nb 3 1 2 0 4\n", None);
    assert_eq!(all.len(), 2);
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
    // Rows without a size line: the token's own line, not a bench-line complaint on line 1.
    let k = err_at("1 2 3\n4 5 x\n7 8 0\n", None, 2);
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
    // The message counts in words: one tile, two tiles.
    assert_eq!(k.to_string(), "row 2 has 2 tiles, expected 3");
    let one = ParseErrorKind::RowLength {
        row: 2,
        found: 1,
        expected: 3,
    };
    assert_eq!(one.to_string(), "row 2 has 1 tile, expected 3");
}

#[test]
fn error_row_of_wrong_length_in_rows_alone() {
    // Three or four numbers on the first line: the rows of a board with no size line.
    let k = err_at("8 6 7\n2 5 4\n3 0\n", None, 3);
    assert_eq!(
        k,
        ParseErrorKind::RowLength {
            row: 3,
            found: 2,
            expected: 3
        }
    );
    let k = err_at("1 2 3 4\n5 6 7 8\n9 10 11 12 0\n13 14 15\n", None, 3);
    assert_eq!(
        k,
        ParseErrorKind::RowLength {
            row: 3,
            found: 5,
            expected: 4
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
    // No 0, every tile in range (one twice).
    let k = err_at("3\n1 2 3\n4 5 6\n7 8 8\n", None, 2);
    assert_eq!(k, ParseErrorKind::Board(BoardError::NoBlank));
    let k = err_at("a 1 2 3 4 5 6 7 8 8 31", None, 1);
    assert_eq!(k, ParseErrorKind::Board(BoardError::NoBlank));
    // Tiles numbered 1..=9 on a 3×3: the 9 is out of range, on its own line (a trial read
    // "no blank" there and looked for a missing 0).
    let k = err_at("3\n1 2 3\n4 5 6\n7 8 9\n", None, 4);
    assert_eq!(
        k.to_string(),
        "tile 9 is out of range: a 3×3 board holds tiles 0 to 8 (0 = blank)"
    );
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
    // every tuple with a 4 is reported as out of range, and every other one without a 0 as
    // NoBlank.
    let mut accepted = 0;
    for code in 0..5usize.pow(4) {
        let t: Vec<usize> = (0..4).map(|i| code / 5usize.pow(i) % 5).collect();
        match Board::new(2, 2, &t) {
            Ok(_) => accepted += 1,
            Err(e) => {
                if t.contains(&4) {
                    assert!(matches!(e, BoardError::OutOfRange { tile: 4, .. }), "{t:?}");
                } else if !t.contains(&0) {
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
    // One number too many for a board: read as an id and a board, and said so.
    let text = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0 16";
    let k = err_at(text, None, 1);
    assert_eq!(
        k,
        ParseErrorKind::BenchBoard {
            board: BoardError::OutOfRange {
                tile: 16,
                rows: 4,
                cols: 4,
                max: 15
            },
            fields: 17,
            tiles: 16,
            id: true,
        }
    );
    assert!(
        k.to_string()
            .ends_with("(the line has 17 fields, read as a bench line: an id, then 16 tiles)"),
        "{k}"
    );
    // A bench line a tile short (an id and 15 tiles) reads as a board without an id: said so.
    let text = "2 13 5 4 10 9 12 8 14 2 3 7 1 0 15 11";
    let k = err_at(text, None, 1);
    assert!(
        matches!(
            k,
            ParseErrorKind::BenchBoard {
                fields: 16,
                tiles: 16,
                id: false,
                ..
            }
        ),
        "{k:?}"
    );
    assert!(
        k.to_string().ends_with(
            "(the line has 16 fields, read as 16 tiles without an id; if the first is an id, \
             the line is a tile short)"
        ),
        "{k}"
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
fn error_size_hint_that_contradicts_the_board_s_own_size() {
    // A size line, rows alone, and a slash board each give their own size: a size hint that
    // says otherwise is an error on the board's first line (it used to be ignored).
    let given = (3, 4);
    for (text, line, found) in [
        ("3 3\n1 2 3\n4 5 6\n7 8 0\n", 1, (3, 3)),
        ("# rows alone\n1 2 3\n4 5 6\n7 8 0\n", 2, (3, 3)),
        ("1 2 3/4 5 0\n", 1, (2, 3)),
    ] {
        let k = err_at(text, Some(given), line);
        assert_eq!(k, ParseErrorKind::SizeMismatch { given, found }, "{text:?}");
        assert_eq!(
            k.to_string(),
            format!(
                "the board is {}×{} but the size given is 3×4",
                found.0, found.1
            )
        );
    }
    // The same size is fine, and so is a bench line read with it.
    assert_eq!(
        ok_all("3 4\n1 2 3 4\n5 6 7 8\n9 10 11 0\n", Some(given)).len(),
        1
    );
    assert_eq!(
        ok_all("a 1 2 3 4 5 6 7 8 9 10 11 0\n", Some(given)).len(),
        1
    );
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
