//! Integration tests of the board and bench-file parser (`npuzzle::puzzle::parse`): every
//! format round trip, whitespace, and random inputs (bad input, one test per case, is in
//! `parse_errors.rs`).

mod common;

use common::parse::{SRC, board, err_at, hard8, ok_all, ok_board};
use npuzzle::puzzle::parse::{ParseErrorKind, parse_board, parse_instance, parse_puzzles};
use npuzzle::puzzle::{Board, GoalSpec};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

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
fn bare_rows_without_a_size_line() {
    assert_eq!(ok_board("8 6 7\n2 5 4\n3 0 1\n"), hard8());
    let b = ok_board("# a 2×3 board\n1 2 3\n4 0 5\n");
    assert_eq!(b, board(2, 3, &[1, 2, 3, 4, 0, 5]));
    // Two columns: the rows alone, not a `rows cols` size line (their numbers are the tiles).
    let b = ok_board("1 2\n3 4\n5 0\n");
    assert_eq!(b, board(3, 2, &[1, 2, 3, 4, 5, 0]));
    // Five and more columns: rows when their numbers are exactly the tiles.
    let text: String = (0..5)
        .map(|r| {
            let row: Vec<String> = (0..5).map(|c| ((r * 5 + c + 1) % 25).to_string()).collect();
            row.join(" ") + "\n"
        })
        .collect();
    let v = ok_all(&text, None);
    assert_eq!(v.len(), 1);
    assert_eq!((v[0].board.rows(), v[0].board.cols(), v[0].line), (5, 5, 1));
    assert_eq!(v[0].board.tiles()[24], 0);
    // Bench lines of the same length stay bench lines.
    assert_eq!(
        ok_all("a 8 6 7 2 5 4 3 0 1\nb 8 6 7 2 5 4 3 0 1\n", None).len(),
        2
    );
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
    // The self-describing formats take a hint that agrees with them (one that does not is
    // an error: `tests/parse_errors.rs`).
    assert_eq!(
        parse_board("8 6 7/2 5 4/3 0 1", SRC, Some((3, 3))).expect("slash"),
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

/// A `# goal: NAME` comment line names the goal of every board of the file that does not name
/// its own; a line that names another, a second header that names another, or a name that is
/// no goal are errors with their lines.
#[test]
fn a_goal_header_names_the_goal_of_every_board() {
    let text = "# Korf-style\n# goal: blank-first\n1 1 2 3 4 5 6 7 8 0 22\n2 8 1 2 0 4 3 7 6 5\n";
    let all = parse_puzzles(text, "h.txt", None).unwrap();
    assert_eq!(all.len(), 2);
    for inst in &all {
        assert_eq!(inst.goal, Some(GoalSpec::BlankFirst));
        assert_eq!(inst.goal_header, Some(2));
        assert_eq!(
            inst.named_goal().map(|n| n.line),
            Some(2),
            "the header's line is named"
        );
    }
    // A board file may carry one too; `Goal: BLANK_LAST` reads as blank-last.
    let one = parse_instance("#Goal: BLANK_LAST\n3\n1 2 3\n4 5 6\n7 0 8\n", "b.txt", None);
    assert_eq!(one.unwrap().goal, Some(GoalSpec::BlankLast));
    // Without one, nothing is named.
    let none = parse_instance("1 2 3/4 5 6/7 0 8", "s", None).unwrap();
    assert_eq!((none.goal, none.goal_header), (None, None));
    // A line naming the same goal agrees; another is an error at that line naming both.
    let same = "# goal: blank-first\nx blank_first 1 2 3 4 5 6 7 8 0\n";
    assert!(parse_puzzles(same, "h.txt", None).is_ok());
    let other = "# goal: blank-first\nx blank_last 1 2 3 4 5 6 7 8 0\n";
    let e = parse_puzzles(other, "h.txt", None).unwrap_err();
    assert_eq!(e.line, Some(2));
    assert_eq!(
        e.to_string(),
        "h.txt:2: the line names the blank-last goal but line 1 says \"# goal: blank-first\""
    );
    let twice = "# goal: blank-first\n# goal: blank-last\n1 2 3/4 5 6/7 0 8\n";
    let e = parse_puzzles(twice, "h.txt", None).unwrap_err();
    assert_eq!(e.line, Some(2));
    // A comment with more words after `goal:` is prose, not a header.
    let prose = "# Goal: blank at top-left, as Korf's\n1 2 3/4 5 6/7 0 8\n";
    assert_eq!(parse_instance(prose, "p.txt", None).unwrap().goal, None);
    let unknown = "# goal: top-left\n1 2 3/4 5 6/7 0 8\n";
    let e = parse_puzzles(unknown, "h.txt", None).unwrap_err();
    assert_eq!(e.line, Some(1));
    assert!(e.to_string().contains("unknown goal \"top-left\""), "{e}");
}
