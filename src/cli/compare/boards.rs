//! `npuzzle compare FILE`: every method on every board of the file. One board in text keeps
//! its table of one row per method; otherwise one row per board and method (JSON Lines, CSV),
//! and a table of one row per method over all the boards: solved and capped, total and mean
//! nodes, mean b*, seconds.

use std::fmt::Write as _;

use serde::Serialize;

use super::{CliError, CompareArgs, Format, methods};
use crate::cli::{CsvLines, StatedLength, emit, emit_json};
use crate::puzzle::parse::Instance;
use crate::puzzle::{Board, Goal, Solvability};
use crate::report::group_digits;
use crate::search::measure::{Measure, Method, measure};
use crate::search::{Limits, Problem, Weight, search_label};

/// The boards of a file, each with its goal (the file's, `--goal`, else blank-last).
pub(super) struct Boards<'a> {
    /// The file's name, as errors name it.
    pub(super) source: &'a str,
    /// Its boards, in file order.
    pub(super) instances: &'a [Instance],
    /// Each board's goal.
    pub(super) goals: &'a [Goal],
}

/// One method on one board, as `--format json` (a line each) and `--format csv` (a row each)
/// print it.
#[derive(Serialize)]
struct BoardRow<'a> {
    /// The board's id in the file (its line number when the line gives none).
    id: &'a str,
    /// The line the board starts on.
    line: usize,
    /// The start board, one-line format.
    start: String,
    goal: &'a str,
    solvable: bool,
    /// The optimal length the file states, if any.
    optimal: Option<u32>,
    #[serde(flatten)]
    measure: &'a Measure,
    /// `--time-limit`, in seconds.
    time_limit: f64,
    /// npuzzle's version and the commit it was built from ([`crate::VERSION`]).
    version: &'static str,
}

/// The app's table of one board solved by each method as CSV text, header first, the
/// columns of `npuzzle compare FILE --format csv` for a file holding this one board on its
/// first line (id 1, line 1, no stated length).
///
/// # Errors
/// [`CliError::Other`] if a row cannot be written (a bug).
#[cfg(feature = "gui")]
pub(crate) fn csv_text(
    board: &Board,
    goal: &Goal,
    rows: &[Measure],
    time_limit: f64,
) -> Result<String, CliError> {
    let mut csv = CsvLines::default();
    let mut out = String::new();
    let start = board.to_string();
    let solvable = Solvability::of(board, goal).solvable;
    for measure in rows {
        out.push_str(&csv.text(&BoardRow {
            id: "1",
            line: 1,
            start: start.clone(),
            goal: goal.name(),
            solvable,
            optimal: None,
            measure,
            time_limit,
            version: crate::VERSION,
        })?);
    }
    Ok(out)
}

/// One method over all the boards, as `--format json` prints it after the rows (one line a
/// method), and the text table shows it. Totals and means are over the boards it solved.
#[derive(Serialize)]
struct MethodSummary {
    summary: bool,
    algorithm: &'static str,
    /// Weighted A*'s weight on h, `None` for the others.
    weight: Option<Weight>,
    heuristic: String,
    /// Boards it ran on (all of the file's, when every board has the method).
    boards: usize,
    /// Boards it solved.
    solved: usize,
    /// Solvable boards it did not solve: stopped at `--time-limit` or `--max-memory`.
    capped: usize,
    /// Boards that cannot reach their goal (no search runs).
    unsolvable: usize,
    nodes_expanded: u64,
    nodes_generated: u64,
    mean_nodes_expanded: Option<f64>,
    mean_nodes_generated: Option<f64>,
    /// The mean of the boards' b* (boards solved in 0 moves have none).
    mean_effective_branching_factor: Option<f64>,
    /// Seconds of search.
    seconds: f64,
    /// npuzzle's version and the commit it was built from ([`crate::VERSION`]).
    version: &'static str,
    #[serde(skip)]
    branching: (f64, usize),
}

impl MethodSummary {
    fn new(r: &Measure) -> MethodSummary {
        MethodSummary {
            summary: true,
            algorithm: r.algorithm,
            weight: r.weight,
            heuristic: r.heuristic.clone(),
            boards: 0,
            solved: 0,
            capped: 0,
            unsolvable: 0,
            nodes_expanded: 0,
            nodes_generated: 0,
            mean_nodes_expanded: None,
            mean_nodes_generated: None,
            mean_effective_branching_factor: None,
            seconds: 0.0,
            version: crate::VERSION,
            branching: (0.0, 0),
        }
    }

    /// Counts `r`, one search of a board that is `solvable` or not, and updates the means.
    fn add(&mut self, r: &Measure, solvable: bool) {
        self.boards += 1;
        match (solvable, r.moves) {
            (false, _) => self.unsolvable += 1,
            (true, None) => self.capped += 1,
            (true, Some(_)) => {
                self.solved += 1;
                self.nodes_expanded += r.expanded;
                self.nodes_generated += r.generated;
                self.seconds += r.seconds;
                if let Some(b) = r.branching {
                    self.branching.0 += b;
                    self.branching.1 += 1;
                }
            }
        }
        let n = self.solved as f64;
        self.mean_nodes_expanded = (self.solved > 0).then(|| self.nodes_expanded as f64 / n);
        self.mean_nodes_generated = (self.solved > 0).then(|| self.nodes_generated as f64 / n);
        let (sum, count) = self.branching;
        self.mean_effective_branching_factor = (count > 0).then(|| sum / count as f64);
    }
}

/// Compares `a`'s methods on `boards` within `limits`, printing as `a.format` says. Returns
/// the exit code: 1 when the searches disagree on a board's length or with a length the file
/// states (said on stderr), else 0.
///
/// # Errors
/// A method that cannot be had (a bad `--heuristics` name, a table that cannot be built);
/// writing the output.
pub(super) fn compare(
    a: &CompareArgs,
    boards: &Boards<'_>,
    limits: &Limits,
) -> Result<u8, CliError> {
    if let ([inst], [goal], Format::Text) = (boards.instances, boards.goals, a.format) {
        let methods = methods(a, goal)?;
        let stated = StatedLength::of(inst, boards.source);
        return one_board(a, &inst.board, goal, &methods, limits, stated.as_ref());
    }
    // The methods of each goal (pattern databases are goal-specific), in first-seen order.
    let mut by_goal: Vec<(Board, Vec<Method>)> = Vec::new();
    for g in boards.goals {
        if !by_goal.iter().any(|(b, _)| b == g.board()) {
            by_goal.push((g.board().clone(), methods(a, g)?));
        }
    }
    let methods_of = |g: &Goal| {
        &by_goal
            .iter()
            .find(|(b, _)| b == g.board())
            .expect("a goal's methods")
            .1
    };
    if a.format == Format::Text {
        let mut names: Vec<&str> = Vec::new();
        for g in boards.goals {
            if !names.contains(&g.name()) {
                names.push(g.name());
            }
        }
        emit(&format!(
            "Comparing on the {} boards of {} (goal {}), at most {} s each:",
            boards.instances.len(),
            boards.source,
            names.join(", "),
            a.time_limit
        ))?;
    }
    let runs: usize = boards.goals.iter().map(|g| methods_of(g).len()).sum();
    let mut out = Out {
        format: a.format,
        bar: progress_bar(runs),
        csv: CsvLines::default(),
        summaries: Vec::new(),
    };
    let mut code = 0;
    for (inst, goal) in boards.instances.iter().zip(boards.goals) {
        let solvable = Solvability::of(&inst.board, goal).solvable;
        let results = one_of_many(a, inst, goal, methods_of(goal), limits, &mut out)?;
        let place = format!("{}:{}", boards.source, inst.line);
        let stated = StatedLength::of(inst, boards.source);
        let said = || board_code(&place, solvable, &results, stated.as_ref());
        code = code.max(out.bar.suspend(said));
    }
    out.bar.finish_and_clear();
    print_summaries(a.format, &out.summaries, code)?;
    Ok(code)
}

/// Where the rows of several boards go: the format, the progress bar they are printed above,
/// the CSV header's state, and the summaries they add to (one per method, first-seen order).
struct Out {
    format: Format,
    bar: indicatif::ProgressBar,
    csv: CsvLines,
    summaries: Vec<MethodSummary>,
}

/// Runs each of `methods` on `inst` towards `goal` within `limits`, printing a row for each
/// (JSON or CSV; none in text) and counting it in `out`'s summaries. Returns the results.
///
/// # Errors
/// Writing the output.
fn one_of_many(
    a: &CompareArgs,
    inst: &Instance,
    goal: &Goal,
    methods: &[Method],
    limits: &Limits,
    out: &mut Out,
) -> Result<Vec<Measure>, CliError> {
    let problem = Problem {
        start: inst.board.clone(),
        goal: goal.clone(),
    };
    let solvable = Solvability::of(&inst.board, goal).solvable;
    let mut results = Vec::new();
    for m in methods {
        let what = format!("board {} · {} {}", inst.id, m.algorithm(), m.name());
        out.bar.set_message(what);
        let r = measure(&problem, m, limits);
        out.bar.inc(1);
        let row = BoardRow {
            id: &inst.id,
            line: inst.line,
            start: inst.board.to_string(),
            goal: goal.name(),
            solvable,
            optimal: inst.optimal,
            measure: &r,
            time_limit: a.time_limit,
            version: crate::VERSION,
        };
        let csv = &mut out.csv;
        match out.format {
            Format::Json => out.bar.suspend(|| emit_json(&row))?,
            Format::Csv => out.bar.suspend(|| csv.emit(&row))?,
            Format::Text => {}
        }
        let same = |s: &&mut MethodSummary| {
            (s.algorithm, s.weight, &s.heuristic) == (r.algorithm, r.weight, &r.heuristic)
        };
        match out.summaries.iter_mut().find(same) {
            Some(s) => s.add(&r, solvable),
            None => {
                let mut s = MethodSummary::new(&r);
                s.add(&r, solvable);
                out.summaries.push(s);
            }
        }
        results.push(r);
    }
    Ok(results)
}

/// The progress bar of `runs` searches on stderr (drawn only on a terminal).
fn progress_bar(runs: usize) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(runs as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} {elapsed_precise} {msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar
}

/// Prints the table of one row per method (`summaries`; standard error under `--format csv`,
/// whose output is the rows alone) or, in JSON, one object per method. `code` is the exit
/// code so far (1: a length disagreed).
fn print_summaries(format: Format, summaries: &[MethodSummary], code: u8) -> Result<(), CliError> {
    if format == Format::Json {
        return summaries.iter().try_for_each(emit_json);
    }
    // The search column as wide as its longest name (`weighted-astar w=1.5`), at least 8.
    let labels: Vec<String> = summaries
        .iter()
        .map(|s| search_label(s.algorithm, s.weight))
        .collect();
    let w = labels.iter().map(String::len).max().unwrap_or(0).max(8);
    let mut lines = vec![format!(
        "{:<w$} {:<16} {:>9} {:>6} {:>14} {:>16} {:>14} {:>16} {:>7} {:>9}",
        "search",
        "heuristic",
        "solved",
        "capped",
        "mean expanded",
        "total expanded",
        "mean generated",
        "total generated",
        "mean b*",
        "seconds"
    )];
    let mean = |m: Option<f64>| m.map_or("-".to_string(), |m| group_digits(m.round() as u64));
    for (s, label) in summaries.iter().zip(labels) {
        let b = s
            .mean_effective_branching_factor
            .map_or("-".to_string(), |b| format!("{b:.3}"));
        lines.push(format!(
            "{label:<w$} {:<16} {:>9} {:>6} {:>14} {:>16} {:>14} {:>16} {:>7} {:>9.3}",
            s.heuristic,
            format!("{}/{}", s.solved, s.boards - s.unsolvable),
            s.capped,
            mean(s.mean_nodes_expanded),
            group_digits(s.nodes_expanded),
            mean(s.mean_nodes_generated),
            group_digits(s.nodes_generated),
            b,
            s.seconds
        ));
    }
    let mut last = if code == 0 {
        "Every search that finished found each board's optimal length.".to_string()
    } else {
        "Some lengths disagree (see above).".to_string()
    };
    if summaries.iter().any(|s| s.capped > 0) {
        last.push_str(" Totals and means are over the boards each search solved.");
    }
    if let Some(s) = summaries.first().filter(|s| s.unsolvable > 0) {
        let _ = write!(last, " {} boards cannot reach their goal.", s.unsolvable);
    }
    lines.push(last);
    for line in lines {
        match format {
            Format::Csv => crate::note!("{line}"),
            _ => emit(&line)?,
        }
    }
    Ok(())
}

/// The length every optimal search that finished found (`None` when none did, or they
/// differ), and whether they agree. Searches that are not optimal (greedy, weighted A*, a
/// heuristic that overestimates) are left out: their lengths may be longer.
fn agreed(results: &[Measure]) -> (Option<u32>, bool) {
    let lengths: Vec<u32> = results
        .iter()
        .filter(|r| r.guaranteed_optimal)
        .filter_map(|r| r.moves)
        .collect();
    let agree = lengths.windows(2).all(|w| w[0] == w[1]);
    (lengths.first().copied().filter(|_| agree), agree)
}

/// The lengths the optimal searches among `results` found, each named: `astar manhattan 24,
/// idastar pdb555 26` (the others' may be longer by design, and are left out).
fn optimal_lengths(results: &[Measure]) -> String {
    let named: Vec<String> = results
        .iter()
        .filter(|r| r.guaranteed_optimal)
        .filter_map(|r| Some(format!("{} {} {}", r.algorithm, r.heuristic, r.moves?)))
        .collect();
    named.join(", ")
}

/// The exit code of one board's `results` (at `place`, `source:line`): 1 when the searches
/// disagree on its length, or with the length the file states (`stated`), said on stderr;
/// else 0.
fn board_code(
    place: &str,
    solvable: bool,
    results: &[Measure],
    stated: Option<&StatedLength>,
) -> u8 {
    match (agreed(results), solvable) {
        ((_, false), _) => {
            crate::note!(
                "npuzzle: {place}: the optimal searches' lengths differ ({}): a bug, please report it",
                optimal_lengths(results)
            );
            1
        }
        ((Some(m), true), true) => StatedLength::check(stated, Some(m as usize)),
        (_, false) => StatedLength::check(stated, None),
        ((None, true), true) => 0,
    }
}

/// One board in text: a row per method (initial h, nodes, seconds, b*, length) and whether
/// the lengths agree. Returns the exit code as [`board_code`].
fn one_board(
    a: &CompareArgs,
    start: &Board,
    goal: &Goal,
    methods: &[Method],
    limits: &Limits,
    stated: Option<&StatedLength>,
) -> Result<u8, CliError> {
    let verdict = Solvability::of(start, goal);
    emit(&format!(
        "Comparing on the {}×{} board {start} (goal {}), at most {} s each:",
        start.rows(),
        start.cols(),
        goal.name(),
        a.time_limit
    ))?;
    if !verdict.solvable {
        emit(&verdict.no_solution())?;
        return Ok(StatedLength::check(stated, None));
    }
    emit(&header())?;
    let problem = Problem {
        start: start.clone(),
        goal: goal.clone(),
    };
    let mut results = Vec::new();
    for m in methods {
        results.push(measure(&problem, m, limits));
    }
    let (moves, agree) = agreed(&results);
    // The optimum: what the optimal searches agree on, else the file's.
    let optimum = moves.or(stated.map(|s| s.moves as u32));
    for r in &results {
        emit(&row(r, optimum))?;
    }
    let stopped = results.iter().filter(|r| r.moves.is_none()).count();
    let contrast = results.iter().filter(|r| !r.guaranteed_optimal).count();
    let contrast_done = results
        .iter()
        .filter(|r| !r.guaranteed_optimal && r.moves.is_some())
        .count();
    let marked = |n: usize| match n {
        1 => "the 1 marked \"no\" is not guaranteed optimal".to_string(),
        n => format!("the {n} marked \"no\" are not guaranteed optimal"),
    };
    let mut line = match (moves, agree) {
        (Some(m), true) if contrast > 0 => {
            format!(
                "Every optimal search found {m} moves; {}.",
                marked(contrast)
            )
        }
        (Some(m), true) => format!("Every search found {m} moves: all are optimal."),
        (None, true) if contrast_done > 0 => {
            format!("No optimal search finished; {}.", marked(contrast_done))
        }
        (None, true) => "No search finished.".to_string(),
        _ => format!(
            "The optimal searches' lengths differ ({}): a bug, please report it.",
            optimal_lengths(&results)
        ),
    };
    if stopped > 0 {
        let _ = write!(line, " {stopped} stopped at a limit.");
    }
    emit(&line)?;
    Ok(match (agree, moves) {
        (false, _) => 1,
        (true, Some(m)) => StatedLength::check(stated, Some(m as usize)),
        (true, None) => 0,
    })
}

fn header() -> String {
    format!(
        "{:<20} {:<24} {:>4} {:>13} {:>13} {:>9} {:>7} {:>6}  {}",
        "search", "heuristic", "h0", "expanded", "generated", "seconds", "b*", "moves", "optimal"
    )
}

/// Whether `r`'s length is optimal, as the table's last column says: `yes` for an optimal
/// search, else `no`, with the gap to `optimum` when it is known (`no: 10 more`).
fn optimal_cell(r: &Measure, optimum: Option<u32>) -> String {
    match (r.guaranteed_optimal, r.moves, optimum) {
        (true, _, _) => "yes".into(),
        (false, Some(m), Some(o)) if m > o => format!("no: {} more", m - o),
        (false, Some(m), Some(o)) if m == o => "no (optimal this time)".into(),
        _ => "no".into(),
    }
}

fn row(r: &Measure, optimum: Option<u32>) -> String {
    let b = r.branching.map_or("-".to_string(), |b| format!("{b:.3}"));
    let moves = match (&r.moves, &r.error) {
        (Some(m), _) => m.to_string(),
        (None, Some(e)) => format!("- ({e})"),
        (None, None) => "-".into(),
    };
    format!(
        "{:<20} {:<24} {:>4} {:>13} {:>13} {:>9.3} {:>7} {:>6}  {}",
        search_label(r.algorithm, r.weight),
        r.heuristic,
        r.initial_h,
        group_digits(r.expanded),
        group_digits(r.generated),
        r.seconds,
        b,
        moves,
        optimal_cell(r, optimum)
    )
}
