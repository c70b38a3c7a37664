//! A solution as the user reads it: the Princeton text format and the JSON object. One
//! formatter for `npuzzle solve` (standard output) and the app's *Save text…* / *Save JSON…*.
//! No I/O and no GUI code: callers write the strings where they belong.

use std::fmt::Write as _;

use serde::Serialize;

pub mod published;

use crate::puzzle::{Board, Goal, Move, Notation, Solvability, format_moves};
use crate::search::{Algorithm, AllSolutions, Iteration, SearchStats};
pub use crate::text::group_digits;

/// The tile numbers that slide, one per move of the blank, starting from `start`.
pub fn tiles_moved(start: &Board, moves: &[Move]) -> Vec<u8> {
    let mut b = start.clone();
    moves.iter().filter_map(|&m| b.apply(m)).collect()
}

/// The notation's name as printed: `blank` or `tile`.
pub fn notation_name(notation: Notation) -> &'static str {
    match notation {
        Notation::Blank => "blank",
        Notation::Tile => "tile",
    }
}

/// The solution in the Princeton text format: `Minimum number of moves = N`, then every board
/// from `start` to the goal in the block format (`to_block_string`), separated by blank lines.
///
/// With `moves_line = Some(notation)` (the command line), two lines follow the first one —
/// `Moves (… moves): LETTERS` in that notation and `Tiles moved: T1 T2 …` — then a blank line.
/// With `None` (the app's saved file) only the length line and the boards are written.
/// With `steps`, the numbered [`steps_text`] comes before the boards. The text ends with a
/// newline.
pub fn solution_text(
    start: &Board,
    moves: &[Move],
    moves_line: Option<Notation>,
    steps: bool,
) -> String {
    let mut out = format!("Minimum number of moves = {}\n", moves.len());
    if let Some(notation) = moves_line {
        let tiles: Vec<String> = tiles_moved(start, moves)
            .iter()
            .map(u8::to_string)
            .collect();
        let _ = writeln!(
            out,
            "Moves ({} moves): {}",
            notation_name(notation),
            format_moves(moves, notation)
        );
        let _ = writeln!(out, "Tiles moved: {}\n", tiles.join(" "));
    }
    if steps {
        out.push_str(&steps_text(start, moves));
        out.push('\n');
    }
    let mut b = start.clone();
    out.push_str(&b.to_block_string());
    for &m in moves {
        b.apply(m);
        out.push('\n');
        out.push_str(&b.to_block_string());
    }
    out
}

/// The solution as steps a person can follow at a physical puzzle: a header line saying what a
/// step is, then one numbered line a move, `1. slide 6 left` (the tile that moves and the way it
/// goes, the opposite of the blank's). Ends with a newline.
pub fn steps_text(start: &Board, moves: &[Move]) -> String {
    let mut out = String::from("Steps (each slides one tile into the blank):\n");
    let width = moves.len().to_string().len();
    for (i, (m, tile)) in moves.iter().zip(tiles_moved(start, moves)).enumerate() {
        let way = match m.inverse() {
            Move::Up => "up",
            Move::Down => "down",
            Move::Left => "left",
            Move::Right => "right",
        };
        let _ = writeln!(out, "{:>width$}. slide {tile} {way}", i + 1);
    }
    out
}

/// All optimal solutions as text: `Optimal solutions: K` (with `at least` when the count was
/// cut short), then one numbered line of move letters per listed solution. Ends with a newline.
pub fn all_solutions_text(all: &AllSolutions, notation: Notation) -> String {
    let mut out = format!("Optimal solutions: {}\n", solutions_count(all));
    if let Some(line) = listed_line(all) {
        let _ = writeln!(out, "{line}");
    }
    let width = all.solutions.len().to_string().len();
    for (i, s) in all.solutions.iter().enumerate() {
        let _ = writeln!(out, "{:>width$}  {}", i + 1, format_moves(s, notation));
    }
    out
}

/// The number of optimal solutions as shown (CLI and app): digits grouped, and `at least`
/// before them when the count was cut short.
pub fn solutions_count(all: &AllSolutions) -> String {
    let prefix = if all.count_is_exact { "" } else { "at least " };
    format!("{prefix}{}", group_digits(all.count))
}

/// The line above a list of solutions that does not hold them all (`None` when it does, or
/// is empty): `The first N in the order of the blank's moves (U < D < L < R):`.
pub fn listed_line(all: &AllSolutions) -> Option<String> {
    let listed = all.solutions.len();
    (listed > 0 && (listed as u64) < all.count)
        .then(|| format!("The first {listed} in the order of the blank's moves (U < D < L < R):"))
}

/// The settings a result was made with, and where and when: what a paper that cites it needs
/// beside the version. Written into `solve`'s JSON object and `bench`'s rows and summary.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct Conditions {
    /// IDA*'s move pruning: `fsm` or `undo`.
    pub pruning: String,
    /// IDA*'s move order: `nearer-first`, or the blank's four moves in the order tried
    /// (`ULRD` for `--move-order korf`).
    pub move_order: String,
    /// Whether `nodes_generated` counts the start (the root) too: always `false` (every
    /// successor generated, the start not; Korf 1985 counts it, one more).
    pub generated_counts_root: bool,
    /// Whether pattern databases are looked up on the board's reflection too (where the
    /// board has one).
    pub pdb_reflect: bool,
    /// Whether pattern databases read their blank-region flags (where the tables have them).
    pub pdb_regions: bool,
    /// Threads of one search.
    pub threads: usize,
    /// The memory cap, in bytes.
    pub max_memory: u64,
    /// The time limit, in seconds; `null` for none.
    pub time_limit: Option<f64>,
    /// The host's CPU model (Linux's `/proc/cpuinfo`; the architecture elsewhere).
    pub cpu: String,
    /// The host's logical cores.
    pub cores: usize,
    /// When the result was written, UTC, RFC 3339 to the second.
    pub date: String,
}

impl Conditions {
    /// The conditions of a run with `limits`, on this host, now.
    pub fn of(limits: &crate::search::Limits) -> Conditions {
        Conditions {
            pruning: limits.pruning.name().to_string(),
            move_order: limits.move_order.name(),
            generated_counts_root: false,
            pdb_reflect: true,
            pdb_regions: true,
            threads: limits.threads,
            max_memory: limits.max_memory,
            time_limit: limits.time_limit.map(|t| t.as_secs_f64()),
            cpu: cpu_model(),
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            date: humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
        }
    }

    /// These conditions with pattern databases looked up as `lookup` says.
    pub fn with_pdb_lookup(self, lookup: crate::heuristic::pdb::PdbLookup) -> Conditions {
        Conditions {
            pdb_reflect: lookup.reflect,
            pdb_regions: lookup.regions,
            ..self
        }
    }
}

/// The CPU's model name from `/proc/cpuinfo`, else the architecture (`x86_64`, `aarch64`).
fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, m)| m.trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string())
}

/// What produced a solution, for [`SolveJson`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunInfo {
    /// The algorithm that ran (resolved, not `Auto`).
    pub algorithm: Algorithm,
    /// The heuristic's name (`linear-conflict`, `pdb78`, …).
    pub heuristic: String,
    /// What evaluated h.
    pub evaluator: crate::eval::Evaluated,
    /// The GPU adapter's description when `evaluator` is `gpu`.
    pub adapter: Option<String>,
}

impl RunInfo {
    /// Whether its answers are optimal: an optimal algorithm
    /// ([`Algorithm::is_optimal`]) with an admissible heuristic (every one but
    /// [`HeuristicKind::OverestimatingManhattan`](crate::heuristic::HeuristicKind::OverestimatingManhattan)).
    pub fn guarantees_optimal(&self) -> bool {
        let admissible = self
            .heuristic
            .parse::<crate::heuristic::HeuristicKind>()
            .map_or(true, |k| k.is_admissible());
        self.algorithm.guarantees_optimal(admissible)
    }
}

/// The JSON object of one solved (or proven unsolvable) board, as `npuzzle solve --format json`
/// prints it (on one line) and the app saves it (pretty-printed). Field order is the output's order.
#[derive(Clone, Debug, Serialize)]
pub struct SolveJson {
    /// Whether a solution was found.
    pub solvable: bool,
    /// Its length in moves (`null` when unsolvable).
    pub moves: Option<usize>,
    /// Whether the search guarantees that length optimal: false for greedy, weighted A*
    /// (w above 1) and a heuristic that overestimates (`null` when unsolvable).
    pub guaranteed_optimal: Option<bool>,
    /// Its move letters in `notation`.
    pub solution: Option<String>,
    /// The tile that slides at each move.
    pub tiles_moved: Option<Vec<u8>>,
    /// `blank` or `tile`.
    pub notation: &'static str,
    /// The algorithm's command-line name.
    pub algorithm: &'static str,
    /// Weighted A*'s w (`null` for the other algorithms).
    pub weight: Option<crate::search::Weight>,
    /// `None` for an unsolvable board: the parity check answers, no search runs.
    pub heuristic: Option<String>,
    /// What evaluated h (`cpu` or `gpu`).
    pub evaluator: crate::eval::Evaluated,
    /// The GPU adapter, when `evaluator` is `gpu`.
    pub adapter: Option<String>,
    /// The goal's name (`blank-last`, `blank-first`, `custom`).
    pub goal: &'static str,
    /// The start board, one-line format.
    pub start: String,
    /// Nodes expanded.
    pub nodes_expanded: u64,
    /// Nodes generated.
    pub nodes_generated: u64,
    /// Largest open list (0 for IDA*).
    pub peak_open: u64,
    /// h of the start board.
    pub initial_h: u32,
    /// The least length the optimum can have, as the search proved it: the length itself
    /// once solved optimally (`null` when unsolvable or not `optimal`).
    pub lower_bound: Option<u32>,
    /// The effective branching factor b* of the nodes generated and the length
    /// ([`effective_branching_factor`](crate::search::measure::effective_branching_factor));
    /// `null` for a length of 0 or an unsolvable board.
    pub effective_branching_factor: Option<f64>,
    /// IDA*'s iterations in order (threshold, nodes expanded and generated in each); empty for
    /// the other searches.
    pub iterations: Vec<Iteration>,
    /// Batched A* rounds.
    pub rounds: u64,
    /// Boards the batch evaluator evaluated.
    pub boards_evaluated: u64,
    /// Seconds spent in the batch evaluator.
    pub eval_seconds: f64,
    /// Seconds of the search.
    pub seconds: f64,
    /// Why the board is (or is not) solvable, in words.
    pub reason: String,
    /// The parity numbers behind `reason`.
    pub parity: Solvability,
    /// All optimal solutions (`--all`): how many there are.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<u64>,
    /// Whether `count` is all of them (false when a limit cut the count short: at least
    /// `count` exist; or when it passed `u64::MAX`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count_is_exact: Option<bool>,
    /// The first of them in move order, as move letters in `notation`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solutions: Option<Vec<String>>,
    /// What `auto` chose and built, and why, as said on stderr, in order (the command line's:
    /// empty when the algorithm and heuristic were named; absent in the app's files). A switch
    /// mid-search to a table built then is one of them: the counts are the last search's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub choices: Option<Vec<String>>,
    /// The run's settings, host and date (the command line's; absent in the app's files).
    #[serde(flatten)]
    pub conditions: Option<Conditions>,
    /// npuzzle's version and the commit it was built from ([`crate::VERSION`]).
    pub version: &'static str,
}

impl SolveJson {
    /// The object for `start` towards `goal`: `solved` holds the moves and statistics, `None`
    /// when `parity` proved the board unsolvable; `notation` spells the move letters.
    pub fn new(
        start: &Board,
        goal: &Goal,
        parity: &Solvability,
        solved: Option<(&[Move], &SearchStats)>,
        notation: Notation,
        run: &RunInfo,
    ) -> SolveJson {
        let stats = solved.map(|s| s.1.clone()).unwrap_or_default();
        SolveJson {
            solvable: solved.is_some(),
            moves: solved.map(|s| s.0.len()),
            guaranteed_optimal: solved.map(|_| run.guarantees_optimal()),
            solution: solved.map(|s| format_moves(s.0, notation)),
            tiles_moved: solved.map(|s| tiles_moved(start, s.0)),
            notation: notation_name(notation),
            algorithm: run.algorithm.name(),
            weight: run.algorithm.weight(),
            heuristic: solved.map(|_| run.heuristic.clone()),
            evaluator: run.evaluator,
            adapter: run.adapter.clone(),
            goal: goal.name(),
            start: start.to_string(),
            nodes_expanded: stats.expanded,
            nodes_generated: stats.generated,
            peak_open: stats.peak_open,
            initial_h: stats.initial_h,
            lower_bound: solved
                .filter(|_| run.guarantees_optimal())
                .map(|s| s.0.len() as u32),
            effective_branching_factor: solved.and_then(|s| {
                crate::search::measure::effective_branching_factor(s.1.generated, s.0.len() as u32)
            }),
            iterations: stats.iterations,
            rounds: stats.rounds,
            boards_evaluated: stats.evaluated,
            eval_seconds: stats.eval_seconds,
            seconds: stats.seconds,
            reason: parity.reason(),
            parity: parity.clone(),
            count: None,
            count_is_exact: None,
            solutions: None,
            choices: None,
            conditions: None,
            version: crate::VERSION,
        }
    }

    /// With the fields of all optimal solutions (`count`, `count_is_exact`, `solutions`)
    /// when `all` is given.
    pub fn with_all(mut self, all: Option<&AllSolutions>, notation: Notation) -> SolveJson {
        if let Some(all) = all {
            self.count = Some(all.count);
            self.count_is_exact = Some(all.count_is_exact);
            self.solutions = Some(
                all.solutions
                    .iter()
                    .map(|s| format_moves(s, notation))
                    .collect(),
            );
        }
        self
    }

    /// Pretty-printed JSON (two-space indent, no trailing newline), as the app saves it (the
    /// command line prints the same object on one line).
    ///
    /// # Errors
    /// Serialisation errors (not expected: every field is plain data).
    pub fn to_json(&self) -> serde_json::Result<String> {
        serde_json::to_string_pretty(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::GoalSpec;

    /// Steps name the tile that slides and the way it goes (against the blank's move), in
    /// order, and come between the move letters and the boards.
    #[test]
    fn steps_name_each_tile_and_its_way() {
        // Blank on the bottom row's left: Right slides 7 left, Right slides 8 left.
        let start: Board = "1 2 3/4 5 6/0 7 8".parse().unwrap();
        let moves = [Move::Right, Move::Right];
        assert_eq!(
            steps_text(&start, &moves),
            "Steps (each slides one tile into the blank):\n1. slide 7 left\n2. slide 8 left\n"
        );
        // The blank going up slides the tile above it down.
        let up: Board = "1 2 3/4 0 6/7 5 8".parse().unwrap();
        assert_eq!(
            steps_text(&up, &[Move::Up, Move::Down]),
            "Steps (each slides one tile into the blank):\n1. slide 2 down\n2. slide 2 up\n"
        );
        let full = solution_text(&start, &moves, Some(Notation::Tile), true);
        assert!(
            full.starts_with(
                "Minimum number of moves = 2\nMoves (tile moves): LL\nTiles moved: 7 8\n\n\
                 Steps (each slides one tile into the blank):\n1. slide 7 left\n2. slide 8 left\n\n3\n"
            ),
            "{full}"
        );
        // Ten steps or more are aligned on the dot.
        let long: Vec<Move> = [Move::Right, Move::Left].repeat(5);
        let text = steps_text(&start, &long);
        assert!(
            text.contains("\n 1. slide 7 left\n") && text.contains("\n10. slide 7 right\n"),
            "{text}"
        );
    }

    #[test]
    fn text_has_the_length_then_every_board() {
        let start: Board = "1 2 3/4 5 6/0 7 8".parse().unwrap();
        let moves = [Move::Right, Move::Right];
        let plain = solution_text(&start, &moves, None, false);
        assert!(
            plain.starts_with("Minimum number of moves = 2\n3\n"),
            "{plain}"
        );
        assert_eq!(plain.matches("\n\n").count(), 2, "{plain}");
        let full = solution_text(&start, &moves, Some(Notation::Blank), false);
        assert!(
            full.starts_with(
                "Minimum number of moves = 2\nMoves (blank moves): RR\nTiles moved: 7 8\n\n3\n"
            ),
            "{full}"
        );
        assert!(full.ends_with(&plain["Minimum number of moves = 2\n".len()..]));
    }

    #[test]
    fn json_of_an_unsolvable_board_has_no_solution() {
        let start: Board = "1 2 3/4 5 6/8 7 0".parse().unwrap();
        let goal = GoalSpec::BlankLast.resolve(3, 3).unwrap();
        let parity = Solvability::of(&start, &goal);
        let run = RunInfo {
            algorithm: Algorithm::AStar,
            heuristic: "manhattan".into(),
            evaluator: crate::eval::Evaluated::Cpu,
            adapter: None,
        };
        let j = SolveJson::new(&start, &goal, &parity, None, Notation::Blank, &run);
        let v: serde_json::Value = serde_json::from_str(&j.to_json().unwrap()).unwrap();
        assert_eq!(v["solvable"], false);
        assert!(v["moves"].is_null() && v["heuristic"].is_null());
        assert_eq!(v["goal"], "blank-last");
    }
}
