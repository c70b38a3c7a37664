//! `npuzzle compare --size RxC`: the textbook experiment, mean nodes against the optimal depth
//! over random boards at exactly each depth ([`depth_experiment`]).

use std::fmt::Write as _;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use super::{CliError, CompareArgs, Format, methods};
use crate::puzzle::Goal;
use crate::report::group_digits;
use crate::search::measure::{
    DepthCell, DepthRow, DepthTable, ExperimentSettings, Method, TEXTBOOK_DEPTHS, depth_experiment,
};
use crate::search::{BfsGoalTest, Limits, TieBreak};

/// One method at one depth, as `--format json` (a line each) and `--format csv` (a row each)
/// print it: the experiment's settings, the depth, and the method's means there.
#[derive(Serialize)]
struct DepthLine<'a> {
    /// `RxC`.
    size: String,
    goal: &'a str,
    /// Boards asked for at each depth (`--samples`).
    samples: usize,
    seed: u64,
    /// A*'s tie-break among open boards of equal f (`--tie-break`).
    tie_break: &'static str,
    /// When BFS tests for the goal (`--bfs-goal-test`).
    bfs_goal_test: &'static str,
    /// The optimal length of every board of the row, in moves.
    depth: u32,
    /// Boards drawn at this depth (fewer than `samples` where fewer exist).
    boards: usize,
    #[serde(flatten)]
    cell: &'a DepthCell,
    /// npuzzle's version and the commit it was built from ([`crate::VERSION`]).
    version: &'static str,
}

/// Runs the experiment on `goal`'s shape as `a` asks, printing each depth's row as it is done.
///
/// # Errors
/// [`CliError::Usage`] for a shape too large to tabulate, a depth no board has, no samples, or
/// a bad heuristic; the search's errors; writing the output.
pub(super) fn run(a: &CompareArgs, goal: &Goal, limits: &Limits) -> Result<u8, CliError> {
    let b = goal.board();
    let table = DepthTable::new(goal).ok_or_else(|| {
        CliError::Usage(format!(
            "the depth experiment needs every board's exact distance; {}×{} has {} cells, \
             at most {} are tabulated (try 3x3 or 2x5)",
            b.rows(),
            b.cols(),
            b.len(),
            crate::search::bfs::MAX_TABLE_CELLS
        ))
    })?;
    let depths = a.depths.clone().unwrap_or_else(|| TEXTBOOK_DEPTHS.to_vec());
    let max = table.max_depth();
    if let Some(d) = depths.iter().find(|&&d| d > max) {
        return Err(CliError::Usage(format!(
            "--depths {d}: no {}×{} board is more than {max} moves from the goal",
            b.rows(),
            b.cols()
        )));
    }
    if a.samples == 0 {
        return Err(CliError::Usage("--samples must be at least 1".into()));
    }
    let methods = methods(a, goal)?;
    if let Some(m) = methods.iter().find(|m| !m.is_optimal()) {
        return Err(CliError::Usage(format!(
            "the depth experiment compares optimal searches; {} + {} is not optimal (compare it on a board file)",
            m.algorithm(),
            m.name()
        )));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(a.seed);
    if a.format == Format::Text {
        text_header(a, goal, &methods)?;
    }
    let mut csv = super::super::CsvLines::default();
    let mut emitted: Result<(), CliError> = Ok(());
    let rows = depth_experiment(
        &table,
        &depths,
        a.samples,
        &methods,
        limits,
        &mut rng,
        &mut |r| {
            if emitted.is_ok() {
                emitted = print_row(a, goal, r, &mut csv);
            }
        },
    )?;
    emitted?;
    if a.format == Format::Text
        && rows
            .iter()
            .any(|r| r.methods.iter().any(|c| c.solved < r.boards))
    {
        super::super::emit("* some boards stopped at --time-limit; the mean is over those solved")?;
    }
    Ok(0)
}

/// The text table's title and column heads.
fn text_header(a: &CompareArgs, goal: &Goal, methods: &[Method]) -> Result<(), CliError> {
    let b = goal.board();
    super::super::emit(&format!(
        "Mean nodes expanded (and effective branching factor b*) over {} random {}×{} boards \
         at each optimal depth d, seed {}; A* ties: {}, BFS goal test: {}:",
        a.samples,
        b.rows(),
        b.cols(),
        a.seed,
        tie_words(a.tie_break.unwrap_or_default()),
        goal_test_words(a.bfs_goal_test.unwrap_or_default()),
    ))?;
    let mut h = format!("{:>3} {:>6}", "d", "boards");
    for m in methods {
        let name = match m {
            Method::Bfs => "bfs".to_string(),
            m => format!("{}({})", m.algorithm(), m.name()),
        };
        let _ = write!(h, " {name:>24}");
    }
    super::super::emit(&h)
}

/// How the text header names a tie-break rule.
fn tie_words(t: TieBreak) -> &'static str {
    match t {
        TieBreak::HighG => "highest g first",
        TieBreak::LowG => "lowest g first",
        TieBreak::Fifo => "first in, first out",
    }
}

/// How the text header names when BFS tests for the goal.
fn goal_test_words(t: BfsGoalTest) -> &'static str {
    match t {
        BfsGoalTest::Generate => "at generation",
        BfsGoalTest::Expand => "at expansion",
    }
}

/// The experiment's rows as CSV text, header first, the columns of `--format csv` (the
/// app's export).
///
/// # Errors
/// [`CliError::Other`] if a row cannot be written (a bug).
#[cfg(feature = "gui")]
pub(crate) fn csv_text(
    goal: &Goal,
    settings: &ExperimentSettings,
    rows: &[DepthRow],
) -> Result<String, CliError> {
    let mut csv = super::super::CsvLines::default();
    let mut out = String::new();
    for r in rows {
        for cell in &r.methods {
            out.push_str(&csv.text(&line(goal, settings, r, cell))?);
        }
    }
    Ok(out)
}

/// The record of `cell`, one method's figures in `r`.
fn line<'a>(
    goal: &'a Goal,
    s: &ExperimentSettings,
    r: &DepthRow,
    cell: &'a DepthCell,
) -> DepthLine<'a> {
    let b = goal.board();
    DepthLine {
        size: format!("{}x{}", b.rows(), b.cols()),
        goal: goal.name(),
        samples: s.samples,
        seed: s.seed,
        tie_break: s.tie_break.name(),
        bfs_goal_test: s.bfs_goal_test.name(),
        depth: r.depth,
        boards: r.boards,
        cell,
        version: crate::VERSION,
    }
}

/// Prints one depth's row: a text line, or a JSON line or CSV row per method.
fn print_row(
    a: &CompareArgs,
    goal: &Goal,
    r: &DepthRow,
    csv: &mut super::super::CsvLines,
) -> Result<(), CliError> {
    if a.format == Format::Text {
        let mut line = format!("{:>3} {:>6}", r.depth, r.boards);
        for c in &r.methods {
            let cell = if c.solved == 0 {
                "stopped".to_string()
            } else {
                let b = c.branching.map_or("-".into(), |b| format!("{b:.2}"));
                let partial = if c.solved < r.boards { "*" } else { "" };
                format!("{}{partial} ({b})", group_digits(c.expanded.round() as u64))
            };
            let _ = write!(line, " {cell:>24}");
        }
        return super::super::emit(&line);
    }
    let settings = ExperimentSettings {
        samples: a.samples,
        seed: a.seed,
        tie_break: a.tie_break.unwrap_or_default(),
        bfs_goal_test: a.bfs_goal_test.unwrap_or_default(),
    };
    for cell in &r.methods {
        let line = line(goal, &settings, r, cell);
        match a.format {
            Format::Csv => csv.emit(&line)?,
            _ => super::super::emit_json(&line)?,
        }
    }
    Ok(())
}
