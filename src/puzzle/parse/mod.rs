//! Reading boards and bench files. Every format is auto-detected; errors name the source,
//! the 1-based line and what is wrong, and never panic.
//!
//! Formats (`#` starts a comment anywhere; blank lines, tabs and CRLF are fine):
//! - **Princeton**: a line `n`, then `n` rows of `n` tiles.
//! - **Rectangular**: a line `rows cols`, then `rows` rows of `cols` tiles.
//! - **One line**: rows separated by `/`, e.g. `8 6 7/2 5 4/3 0 1`. A file of such lines is a
//!   bench file whose ids are the line numbers.
//! - **Bench**: lines `id t0 t1 … tN-1 [optimal]`; `id` may be followed by a goal name
//!   (`blank_last`, `blank-first`, …) that overrides the goal for that line. The board size is
//!   inferred from the number of tiles when it is a square (9, 16, 25, …) or given as a hint.
//!   A line of exactly a square number of tiles (no id) is accepted too.

use std::io::Read;
use std::path::Path;
use std::str::FromStr;

mod error;

pub use error::{ParseError, ParseErrorKind};

use super::board::{Board, BoardError, MAX_CELLS, MAX_SIDE, MIN_SIDE, check_size};
use super::goal::GoalSpec;

/// Largest input accepted, in bytes (1 MiB).
pub const MAX_INPUT_BYTES: u64 = 1 << 20;

/// One puzzle of a bench file (or the single board of a board file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instance {
    /// The id from the file, or the line number when the line has none.
    pub id: String,
    /// The start board.
    pub board: Board,
    /// Optimal solution length in moves, when the file gives one.
    pub optimal: Option<u32>,
    /// A goal the file names for it, overriding the command's default: on its own line
    /// (`blank_last` / `blank_first`), or in a `# goal: NAME` line for the whole file.
    pub goal: Option<GoalSpec>,
    /// 1-based line where the instance starts.
    pub line: usize,
    /// The `# goal:` line that named `goal`, when the file's header named it (not the line).
    pub goal_header: Option<usize>,
}

impl Instance {
    /// The goal the file names for this instance, and the line that names it.
    pub fn named_goal(&self) -> Option<NamedGoal<'_>> {
        Some(NamedGoal {
            goal: self.goal.as_ref()?,
            line: self.goal_header.unwrap_or(self.line),
            in_header: self.goal_header.is_some(),
        })
    }
}

/// A goal a file names for an instance, and where: [`Instance::named_goal`].
#[derive(Clone, Copy, Debug)]
pub struct NamedGoal<'a> {
    /// The goal.
    pub goal: &'a GoalSpec,
    /// The 1-based line that names it.
    pub line: usize,
    /// Whether that line is the file's `# goal:` line (else the instance's own).
    pub in_header: bool,
}

impl NamedGoal<'_> {
    /// The line that names it, as messages say it: `the line`, or `the file's "# goal:" line`.
    pub fn by(&self) -> &'static str {
        if self.in_header {
            "the file's \"# goal:\" line"
        } else {
            "the line"
        }
    }

    /// Whose goal it is, as messages say it: `the line's` or `the file's`.
    pub fn whose(&self) -> &'static str {
        if self.in_header {
            "the file's"
        } else {
            "the line's"
        }
    }
}

/// Reads a whole file. Returns the name to use in messages (the path as given, lossily as
/// text where it is not UTF-8) and the text. A FIFO or device is read as a stream (a shell's
/// `<(…)`); [`read_regular_source`] refuses them.
///
/// # Errors
/// [`ParseErrorKind::Io`] if it cannot be read, [`ParseErrorKind::TooLarge`] above
/// [`MAX_INPUT_BYTES`], [`ParseErrorKind::NotUtf8`] for binary input.
pub fn read_source(path: impl AsRef<Path>) -> Result<(String, String), ParseError> {
    let path = path.as_ref();
    let name = path.to_string_lossy();
    let f = std::fs::File::open(path).map_err(|e| ParseError {
        source: name.to_string(),
        line: None,
        kind: ParseErrorKind::Io(e.to_string()),
    })?;
    read_from(&name, f)
}

/// Reads a whole board file as [`read_source`] does, but only a regular file, and without
/// blocking: a FIFO, device or socket is refused ([`crate::files::read_regular`]). For a
/// window, whose thread must never wait on a file.
///
/// # Errors
/// As [`read_source`]; [`ParseErrorKind::Io`] for a file that is not a regular one.
pub fn read_regular_source(path: &Path) -> Result<(String, String), ParseError> {
    let name = path.to_string_lossy().into_owned();
    match crate::files::read_regular(path, MAX_INPUT_BYTES) {
        Ok(bytes) => decode(name, bytes),
        Err(e) if e.kind() == std::io::ErrorKind::FileTooLarge => Err(ParseError {
            source: name,
            line: None,
            kind: ParseErrorKind::TooLarge,
        }),
        Err(e) => Err(ParseError {
            source: name,
            line: None,
            kind: ParseErrorKind::Io(e.to_string()),
        }),
    }
}

/// Reads a whole input from `reader` (a file, or standard input opened by the caller), at most
/// [`MAX_INPUT_BYTES`]; `name` is the source named in errors (e.g. `<stdin>`). Returns the name
/// and the text, without a leading byte-order mark.
///
/// # Errors
/// As [`read_source`].
pub fn read_from(name: &str, reader: impl Read) -> Result<(String, String), ParseError> {
    let mut bytes = Vec::new();
    reader
        .take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| ParseError {
            source: name.to_string(),
            line: None,
            kind: ParseErrorKind::Io(e.to_string()),
        })?;
    decode(name.to_string(), bytes)
}

/// The text of an input's `bytes`: at most [`MAX_INPUT_BYTES`], UTF-8, without a leading
/// byte-order mark.
fn decode(name: String, bytes: Vec<u8>) -> Result<(String, String), ParseError> {
    let err = |kind| ParseError {
        source: name.clone(),
        line: None,
        kind,
    };
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(err(ParseErrorKind::TooLarge));
    }
    let mut text = String::from_utf8(bytes).map_err(|_| err(ParseErrorKind::NotUtf8))?;
    // A UTF-8 byte-order mark (some editors write one) is not part of the text.
    if text.starts_with('\u{feff}') {
        text.drain(..'\u{feff}'.len_utf8());
    }
    Ok((name, text))
}

/// Parses exactly one board in any format.
///
/// `size` (`(rows, cols)`) is only needed for bench-style lines of a non-square board; a board
/// that gives its own size must agree with it.
///
/// # Errors
/// Any [`ParseErrorKind`]; [`ParseErrorKind::SeveralPuzzles`] if the text holds more than one;
/// [`ParseErrorKind::SizeMismatch`] for a `size` the board contradicts.
pub fn parse_board(
    text: &str,
    source: &str,
    size: Option<(usize, usize)>,
) -> Result<Board, ParseError> {
    parse_instance(text, source, size).map(|i| i.board)
}

/// Parses exactly one puzzle in any format, keeping what a bench line says besides its board:
/// the goal it names and the optimal length it states.
///
/// # Errors
/// As [`parse_board`].
pub fn parse_instance(
    text: &str,
    source: &str,
    size: Option<(usize, usize)>,
) -> Result<Instance, ParseError> {
    let mut all = parse_puzzles(text, source, size)?;
    if all.len() > 1 {
        return Err(ParseError {
            source: source.to_string(),
            line: None,
            kind: ParseErrorKind::SeveralPuzzles(all.len()),
        });
    }
    Ok(all.remove(0))
}

/// Parses one or more puzzles: a board file (one instance, id `1`), a file of one-line boards,
/// or a bench file.
///
/// # Errors
/// Any [`ParseErrorKind`], with the line it belongs to; [`ParseErrorKind::Empty`] if there is
/// no board at all; [`ParseErrorKind::SizeMismatch`] when a board that gives its own size
/// contradicts `size`.
pub fn parse_puzzles(
    text: &str,
    source: &str,
    size: Option<(usize, usize)>,
) -> Result<Vec<Instance>, ParseError> {
    // Lines end in LF or CRLF; a file with CR alone (old Mac) is split on CR.
    let separator = if text.contains('\n') { '\n' } else { '\r' };
    let lines: Vec<(usize, &str)> = text
        .split(separator)
        .enumerate()
        .map(|(i, l)| (i + 1, l.split('#').next().unwrap_or("").trim()))
        .filter(|(_, l)| !l.is_empty())
        .collect();
    let p = Parser { source };
    let mut all = puzzles(&p, &lines, size)?;
    if let Some((header_line, header)) = goal_header(&p, text, separator)? {
        for i in &mut all {
            match &i.goal {
                None => {
                    i.goal = Some(header.clone());
                    i.goal_header = Some(header_line);
                }
                Some(g) if *g == header => {}
                Some(g) => {
                    return Err(p.err(
                        Some(i.line),
                        ParseErrorKind::GoalConflict {
                            line: g.name(),
                            header: header.name(),
                            header_line,
                        },
                    ));
                }
            }
        }
    }
    // Boards that give their own size (block and slash boards) must agree with a size given.
    if let Some(given) = size
        && let Some(bad) = all
            .iter()
            .find(|i| (i.board.rows(), i.board.cols()) != given)
    {
        return Err(p.err(
            Some(bad.line),
            ParseErrorKind::SizeMismatch {
                given,
                found: (bad.board.rows(), bad.board.cols()),
            },
        ));
    }
    Ok(all)
}

/// The goal a `# goal: NAME` comment line names for every puzzle of the file (the first such
/// line; `NAME` as [`goal_name`] reads it, alone after `goal:`: a comment with more words is
/// prose), with its line number.
///
/// # Errors
/// [`ParseErrorKind::UnknownGoal`] for a name that is no goal, and
/// [`ParseErrorKind::GoalConflict`] for a second `# goal:` line that names another.
fn goal_header(
    p: &Parser<'_>,
    text: &str,
    separator: char,
) -> Result<Option<(usize, GoalSpec)>, ParseError> {
    let mut found: Option<(usize, GoalSpec)> = None;
    for (no, l) in text.split(separator).enumerate().map(|(i, l)| (i + 1, l)) {
        let Some(comment) = l.trim_start().strip_prefix('#') else {
            continue;
        };
        let comment = comment.trim_start();
        let Some(rest) = comment
            .get(..5)
            .filter(|k| k.eq_ignore_ascii_case("goal:"))
            .map(|_| comment[5..].trim())
        else {
            continue;
        };
        // One word after `goal:` names a goal; more are prose (`# Goal: blank at top-left`).
        let mut words = rest.split_whitespace();
        let (Some(name), None) = (words.next(), words.next()) else {
            continue;
        };
        let goal = goal_name(name).ok_or_else(|| {
            p.err(
                Some(no),
                ParseErrorKind::UnknownGoal {
                    name: name.to_string(),
                },
            )
        })?;
        match &found {
            None => found = Some((no, goal)),
            Some((first, g)) if *g != goal => {
                return Err(p.err(
                    Some(no),
                    ParseErrorKind::GoalConflict {
                        line: goal.name(),
                        header: g.name(),
                        header_line: *first,
                    },
                ));
            }
            Some(_) => {}
        }
    }
    Ok(found)
}

/// The puzzles of `lines` (numbered, comments and blank lines left out), in whichever format
/// the first line tells.
fn puzzles(
    p: &Parser<'_>,
    lines: &[(usize, &str)],
    size: Option<(usize, usize)>,
) -> Result<Vec<Instance>, ParseError> {
    let Some(&(first_no, first)) = lines.first() else {
        return Err(p.err(None, ParseErrorKind::Empty));
    };
    if first.contains('/') {
        return lines
            .iter()
            .map(|&(no, l)| {
                Ok(Instance {
                    id: no.to_string(),
                    board: p.slash_board(no, l)?,
                    optimal: None,
                    goal: None,
                    line: no,
                    goal_header: None,
                })
            })
            .collect();
    }
    if let Some((rows, cols)) = bare_grid(lines) {
        return p.block_board(first_no, lines, rows, cols).map(|b| vec![b]);
    }
    let tokens: Vec<&str> = first.split_whitespace().collect();
    match tokens.len() {
        1 => {
            let n = p.number(first_no, tokens[0])?;
            if !(MIN_SIDE..=MAX_SIDE).contains(&n) {
                return Err(p.err(
                    Some(first_no),
                    ParseErrorKind::BadHeader(format!(
                        "board side {n} is outside {MIN_SIDE} to {MAX_SIDE}"
                    )),
                ));
            }
            p.block_board(first_no, &lines[1..], n, n).map(|b| vec![b])
        }
        2 => {
            let rows = p.number(first_no, tokens[0])?;
            let cols = p.number(first_no, tokens[1])?;
            check_size(rows, cols)
                .map_err(|e| p.err(Some(first_no), ParseErrorKind::BadHeader(e.to_string())))?;
            p.block_board(first_no, &lines[1..], rows, cols)
                .map(|b| vec![b])
        }
        _ => {
            let bench: Result<Vec<Instance>, ParseError> = lines
                .iter()
                .map(|&(no, l)| p.bench_line(no, l, size))
                .collect();
            match bench {
                // Not bench lines, but a board of rows alone with one tile wrong: its error.
                Err(e) => match near_grid(lines).filter(|_| size.is_none()) {
                    Some((rows, cols)) => match p.block_board(first_no, lines, rows, cols) {
                        Ok(board) => Ok(vec![board]),
                        Err(grid) => Err(grid),
                    },
                    None => Err(e),
                },
                ok => ok,
            }
        }
    }
}

/// The shape of lines that read as a board of rows alone with one tile wrong (a duplicate or
/// one out of range), where [`bare_grid`] wants every tile right: at least two lines of the
/// same number of fields, all numbers, a supported size, and all but one of the tiles
/// `0 … rows·cols − 1` among them. Bench lines that failed to read are reported as such
/// unless this holds.
fn near_grid(lines: &[(usize, &str)]) -> Option<(usize, usize)> {
    let rows = lines.len();
    let cols = lines[0].1.split_whitespace().count();
    if rows < 2 || lines.iter().any(|l| l.1.split_whitespace().count() != cols) {
        return None;
    }
    check_size(rows, cols).ok()?;
    let mut seen = vec![false; rows * cols];
    for t in lines.iter().flat_map(|l| l.1.split_whitespace()) {
        let tile = t.parse::<usize>().ok()?;
        if let Some(s) = seen.get_mut(tile) {
            *s = true;
        }
    }
    (seen.iter().filter(|s| !**s).count() <= 1).then_some((rows, cols))
}

/// The shape of a board given as its rows alone, without a size line: at least two lines of
/// a supported size, and either three or four fields on the first line (no other format
/// begins so: a size line has one or two fields, a bench line at least five), the rows then
/// as many as the lines, or all lines of the same number of fields and the numbers exactly
/// the tiles `0 … rows·cols − 1` (which no size line followed by its rows, nor any bench file
/// of two or more lines, can be). A board of three or four columns then gets the board's own
/// errors on the line they are on: a tile that is not a number, a row too short or too long.
fn bare_grid(lines: &[(usize, &str)]) -> Option<(usize, usize)> {
    let rows = lines.len();
    let cols = lines[0].1.split_whitespace().count();
    if rows < 2 {
        return None;
    }
    check_size(rows, cols).ok()?;
    if cols == 3 || cols == 4 {
        return Some((rows, cols));
    }
    if lines.iter().any(|l| l.1.split_whitespace().count() != cols) {
        return None;
    }
    let mut seen = vec![false; rows * cols];
    for t in lines.iter().flat_map(|l| l.1.split_whitespace()) {
        let t: usize = t.parse().ok()?;
        if t >= seen.len() || std::mem::replace(&mut seen[t], true) {
            return None;
        }
    }
    Some((rows, cols))
}

struct Parser<'a> {
    source: &'a str,
}

impl Parser<'_> {
    fn err(&self, line: Option<usize>, kind: ParseErrorKind) -> ParseError {
        ParseError {
            source: self.source.to_string(),
            line,
            kind,
        }
    }

    fn number(&self, line: usize, token: &str) -> Result<usize, ParseError> {
        let digits = !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit());
        let token = token.to_string();
        match token.parse::<usize>() {
            Ok(n) if digits => Ok(n),
            _ if digits => Err(self.err(Some(line), ParseErrorKind::NumberTooLarge { token })),
            _ => Err(self.err(Some(line), ParseErrorKind::NotANumber { token })),
        }
    }

    fn numbers(&self, line: usize, tokens: &[&str]) -> Result<Vec<usize>, ParseError> {
        tokens.iter().map(|t| self.number(line, t)).collect()
    }

    fn board(
        &self,
        line: usize,
        rows: usize,
        cols: usize,
        tiles: &[usize],
    ) -> Result<Board, ParseError> {
        Board::new(rows, cols, tiles).map_err(|e| self.err(Some(line), e.into()))
    }

    /// `rows` lines of `cols` tiles (`body`, after the size line if there is one), the board
    /// beginning on line `first`.
    fn block_board(
        &self,
        first: usize,
        body: &[(usize, &str)],
        rows: usize,
        cols: usize,
    ) -> Result<Instance, ParseError> {
        if body.len() < rows {
            let last = body.last().map_or(first, |l| l.0);
            return Err(self.err(
                Some(last),
                ParseErrorKind::TooFewRows {
                    expected: rows,
                    found: body.len(),
                },
            ));
        }
        let mut tiles = Vec::with_capacity(rows * cols);
        for (r, &(no, l)) in body[..rows].iter().enumerate() {
            let toks: Vec<&str> = l.split_whitespace().collect();
            let nums = self.numbers(no, &toks)?;
            if nums.len() != cols {
                return Err(self.err(
                    Some(no),
                    ParseErrorKind::RowLength {
                        row: r + 1,
                        found: nums.len(),
                        expected: cols,
                    },
                ));
            }
            tiles.extend(nums);
        }
        if let Some(&(no, _)) = body.get(rows) {
            return Err(self.err(Some(no), ParseErrorKind::TrailingContent));
        }
        let board = Board::new(rows, cols, &tiles).map_err(|e| {
            let cell = match &e {
                BoardError::Duplicate { second, .. } => Some(*second),
                BoardError::OutOfRange { tile, .. } => tiles.iter().position(|t| t == tile),
                _ => None,
            };
            let row = cell.map_or(0, |c| c / cols);
            self.err(Some(body[row].0), e.into())
        })?;
        Ok(Instance {
            id: "1".to_string(),
            board,
            optimal: None,
            goal: None,
            line: first,
            goal_header: None,
        })
    }

    /// `a b c/d e f/g h i`.
    fn slash_board(&self, no: usize, l: &str) -> Result<Board, ParseError> {
        let rows: Vec<Vec<usize>> = l
            .split('/')
            .map(|r| self.numbers(no, &r.split_whitespace().collect::<Vec<_>>()))
            .collect::<Result<_, _>>()?;
        let cols = rows[0].len();
        for (i, r) in rows.iter().enumerate() {
            if r.len() != cols {
                return Err(self.err(
                    Some(no),
                    ParseErrorKind::RowLength {
                        row: i + 1,
                        found: r.len(),
                        expected: cols,
                    },
                ));
            }
        }
        if rows.len() > MAX_SIDE || cols > MAX_SIDE || rows.len() < MIN_SIDE || cols < MIN_SIDE {
            return Err(self.err(
                Some(no),
                BoardError::BadSize {
                    rows: rows.len(),
                    cols,
                }
                .into(),
            ));
        }
        let tiles: Vec<usize> = rows.concat();
        self.board(no, rows.len(), cols, &tiles)
    }

    /// `id [goal] t0 … tN-1 [optimal]`, or a bare square number of tiles.
    fn bench_line(
        &self,
        no: usize,
        l: &str,
        size: Option<(usize, usize)>,
    ) -> Result<Instance, ParseError> {
        let mut toks: Vec<&str> = l.split_whitespace().collect();
        let mut goal = None;
        if toks.len() > 1 {
            if let Some(g) = goal_name(toks[1]) {
                goal = Some(g);
                toks.remove(1);
            } else if toks[1].starts_with(|c: char| c.is_ascii_alphabetic()) {
                return Err(self.err(
                    Some(no),
                    ParseErrorKind::UnknownGoal {
                        name: toks[1].to_string(),
                    },
                ));
            }
        }
        let k = toks.len();
        let first_is_number = toks[0].parse::<usize>().is_ok();
        // (rows, cols, has_id, has_optimal)
        let shape = match size {
            Some((r, c)) => {
                check_size(r, c).map_err(|e| self.err(Some(no), e.into()))?;
                let n = r * c;
                if k == n && first_is_number && goal.is_none() {
                    Some((r, c, false, false))
                } else if k == n + 1 {
                    Some((r, c, true, false))
                } else if k == n + 2 {
                    Some((r, c, true, true))
                } else {
                    return Err(self.err(
                        Some(no),
                        ParseErrorKind::TileCount(format!(
                            "found {} numbers, expected {n} tiles for a {r}×{c} board (plus an id and an optional optimal length)",
                            k
                        )),
                    ));
                }
            }
            None => {
                let sq = |n: usize| {
                    let s = (n as f64).sqrt().round() as usize;
                    (s >= MIN_SIDE && s * s == n).then_some(s)
                };
                if let (Some(s), true, None) = (sq(k), first_is_number, &goal) {
                    Some((s, s, false, false))
                } else if let Some(s) = k.checked_sub(1).and_then(sq) {
                    Some((s, s, true, false))
                } else {
                    k.checked_sub(2).and_then(sq).map(|s| (s, s, true, true))
                }
            }
        };
        let Some((rows, cols, has_id, has_opt)) = shape else {
            return Err(self.err(
                Some(no),
                ParseErrorKind::TileCount(format!(
                    "cannot tell the board size from {k} fields: expected `id t0 … tN-1 [optimal]` with N a square (9, 16, 25, …); give the size (--size RxC) for other shapes"
                )),
            ));
        };
        if rows * cols > MAX_CELLS || rows > MAX_SIDE || cols > MAX_SIDE {
            return Err(self.err(Some(no), BoardError::BadSize { rows, cols }.into()));
        }
        let n = rows * cols;
        let start = usize::from(has_id);
        let tiles = self.numbers(no, &toks[start..start + n])?;
        let optimal = if has_opt {
            let token = toks[start + n];
            let o = self.number(no, token)?;
            Some(u32::try_from(o).map_err(|_| {
                self.err(
                    Some(no),
                    ParseErrorKind::NotANumber {
                        token: token.to_string(),
                    },
                )
            })?)
        } else {
            None
        };
        Ok(Instance {
            id: if has_id {
                toks[0].to_string()
            } else {
                no.to_string()
            },
            board: Board::new(rows, cols, &tiles).map_err(|board| {
                // Lines that could have been read the other way say how they were read.
                let kind = if !has_opt {
                    ParseErrorKind::BenchBoard {
                        board,
                        fields: k,
                        tiles: n,
                        id: has_id,
                    }
                } else {
                    board.into()
                };
                self.err(Some(no), kind)
            })?,
            optimal,
            goal,
            line: no,
            goal_header: None,
        })
    }
}

/// The goals known by name ([`goal_name`]), as their names are written.
pub const GOAL_NAMES: [(&str, GoalSpec); 2] = [
    ("blank-last", GoalSpec::BlankLast),
    ("blank-first", GoalSpec::BlankFirst),
];

/// Goal names accepted on bench lines and on the command line ([`GOAL_NAMES`]; any case, `_`
/// for `-`).
pub fn goal_name(s: &str) -> Option<GoalSpec> {
    let s = s.to_ascii_lowercase().replace('_', "-");
    GOAL_NAMES
        .iter()
        .find(|(name, _)| *name == s)
        .map(|(_, g)| g.clone())
}
/// Parses any single-board format; see this module.
///
/// ```
/// use npuzzle::puzzle::{Board, Move};
/// let mut b: Board = "1 2 3/4 5 6/7 0 8".parse().unwrap();
/// assert_eq!((b.rows(), b.cols(), b.blank()), (3, 3, 7));
/// assert_eq!(b.apply(Move::Right), Some(8)); // the blank goes right, tile 8 slides left
/// assert_eq!(b.to_string(), "1 2 3/4 5 6/7 8 0");
/// assert!("1 2 3/4 5 6/7 8 8".parse::<Board>().is_err());
/// ```
impl FromStr for Board {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_board(s, "<string>", None)
    }
}
