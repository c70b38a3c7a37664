//! What `npuzzle bench` prints: a row per instance ([`Row`], text, JSON or CSV, in file order
//! as they complete: [`Printer`]) and the summary ([`summarize`]).

use std::time::Instant;

use serde::Serialize;

use crate::cli::{CliError, Format};
use crate::plan::{Chosen, RunError};
use crate::puzzle::Goal;
use crate::puzzle::parse::Instance;
use crate::search::measure::effective_branching_factor;
use crate::search::{Algorithm, Followed, Iteration, Outcome};
#[derive(Serialize, Clone, Debug)]
pub(super) struct Row {
    id: String,
    line: usize,
    /// The search that ran (`auto` resolved for the instance's size).
    algorithm: &'static str,
    /// Its heuristic (`none` for breadth-first search).
    heuristic: String,
    solvable: bool,
    moves: Option<usize>,
    optimal: Option<u32>,
    /// `Some(true)` when the length equals the file's, `None` when there is no reference or no answer.
    matches: Option<bool>,
    /// The search's counts and seconds: at its end, or when a limit stopped it.
    nodes_expanded: u64,
    nodes_generated: u64,
    seconds: f64,
    /// h of the start board, in moves (0 for BFS and unsolvable boards).
    initial_h: u32,
    /// The least length the optimum can have, as the search proved it: the length once
    /// solved; at a limit, its last report's ([`Progress::lower_bound`](crate::search::Progress::lower_bound):
    /// IDA*'s threshold under way); `null` when unsolvable or stopped before any report.
    lower_bound: Option<u32>,
    /// b* of the nodes generated and the length (as `solve`'s); `null` without an answer.
    effective_branching_factor: Option<f64>,
    /// IDA*'s iterations (as `solve`'s); at a limit, the last is the one it cut, with its
    /// counts at the stop.
    iterations: Vec<Iteration>,
    error: Option<String>,
    /// npuzzle's version and the commit it was built from ([`crate::VERSION`]).
    version: &'static str,
}

#[derive(Serialize)]
struct Summary {
    summary: bool,
    instances: usize,
    solved: usize,
    unsolvable: usize,
    optimal: usize,
    unchecked: usize,
    mismatches: usize,
    limits: usize,
    /// The searches that ran: one name, or each with the sizes it ran on (`auto` and the
    /// heuristic are chosen per board size and goal).
    algorithm: String,
    heuristic: String,
    jobs: usize,
    seconds: f64,
    wall_seconds: f64,
    /// Nodes expanded, all instances together (`nodes_expanded`, as in the rows).
    nodes_expanded: u64,
    nodes_generated: u64,
    nodes_per_second: f64,
    /// The goal of the file's first line (see the rows for files that mix goals).
    goal: String,
    /// What `auto` picked and why, and the tables built, as said on stderr (empty when
    /// nothing was chosen: a named algorithm and heuristic).
    choices: Vec<String>,
    /// The settings, host and date.
    #[serde(flatten)]
    conditions: crate::report::Conditions,
    /// npuzzle's version and the commit it was built from ([`crate::VERSION`]).
    version: &'static str,
}

/// Prints rows in file order as they complete.
pub(super) struct Printer {
    pub(super) rows: Vec<Option<Row>>,
    pub(super) next: usize,
    /// Text, a JSON line or a CSV row per row.
    pub(super) format: Format,
    /// The CSV rows' header, once written.
    pub(super) csv: crate::cli::CsvLines,
    /// First output error, reported at the end.
    pub(super) failed: Option<CliError>,
}

impl Printer {
    /// Takes instance `i`'s row and prints every row now due in file order, above the
    /// progress `bar`; keeps the first output error.
    pub(super) fn put(&mut self, i: usize, row: Row, bar: &indicatif::ProgressBar) {
        self.rows[i] = Some(row);
        while let Some(Some(r)) = self.rows.get(self.next) {
            if self.failed.is_none() {
                let printed = bar.suspend(|| match self.format {
                    Format::Text => crate::cli::emit(&format_row(r)),
                    Format::Json => crate::cli::emit_json(r),
                    Format::Csv => self.csv.emit(r),
                });
                self.failed = printed.err();
            }
            self.next += 1;
        }
    }
}

/// The progress bar of `n` instances on stderr, and the text table's header (only in text).
///
/// # Errors
/// Writing the header.
pub(super) fn start_table(n: usize, format: Format) -> Result<indicatif::ProgressBar, CliError> {
    let bar = indicatif::ProgressBar::new(n as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} {elapsed_precise} {msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    // The clock moves while a long instance runs.
    bar.enable_steady_tick(std::time::Duration::from_secs(1));
    if format == Format::Text {
        bar.suspend(|| {
            crate::cli::emit(&format!(
                "{:<10} {:>6} {:>8} {:>10} {:>14} {:>14} {:>10}",
                "id", "moves", "optimal", "match", "expanded", "generated", "seconds"
            ))
        })?;
    }
    Ok(bar)
}

/// Prints the summary of `rows` (one per instance of `instances`, in order): counts, the
/// algorithm and heuristic per board size, times and node rates (a JSON object in JSON; text
/// on standard error under CSV, whose output is the rows alone), and says when boards the file gives a length for are unsolvable towards `goal_name`.
/// Returns the exit code: 1 for a mismatch with the file, 3 for a limit reached, else 0.
///
/// # Errors
/// Writing the output.
pub(super) fn summarize(
    rows: &[Row],
    instances: &[Instance],
    goal_name: &str,
    jobs: usize,
    wall: Instant,
    format: Format,
    (conditions, choices): (crate::report::Conditions, Vec<String>),
) -> Result<u8, CliError> {
    let solved = rows.iter().filter(|r| r.moves.is_some()).count();
    let mismatches = rows.iter().filter(|r| r.matches == Some(false)).count();
    if rows.iter().any(|r| !r.solvable && r.optimal.is_some()) {
        crate::note!(
            "npuzzle: boards the file gives a length for are unsolvable towards the {} goal: is it the file's goal? (Korf's files use --goal blank-first)",
            goal_name
        );
    }
    let limits_hit = rows.iter().filter(|r| r.error.is_some()).count();
    let seconds: f64 = rows.iter().map(|r| r.seconds).sum();
    let nodes: u64 = rows.iter().map(|r| r.nodes_expanded).sum();
    let s = Summary {
        summary: true,
        instances: rows.len(),
        solved,
        unsolvable: rows.iter().filter(|r| !r.solvable).count(),
        optimal: rows.iter().filter(|r| r.matches == Some(true)).count(),
        unchecked: rows
            .iter()
            .filter(|r| r.moves.is_some() && r.matches.is_none())
            .count(),
        mismatches,
        limits: limits_hit,
        algorithm: per_size(rows, instances, |r| r.algorithm.to_string()),
        heuristic: per_size(rows, instances, |r| r.heuristic.clone()),
        jobs,
        seconds,
        wall_seconds: wall.elapsed().as_secs_f64(),
        nodes_expanded: nodes,
        nodes_generated: rows.iter().map(|r| r.nodes_generated).sum(),
        nodes_per_second: if seconds > 0.0 {
            nodes as f64 / seconds
        } else {
            0.0
        },
        goal: goal_name.to_string(),
        choices,
        conditions,
        version: crate::VERSION,
    };
    let code = if mismatches > 0 {
        1
    } else if limits_hit > 0 {
        3
    } else {
        0
    };
    if format == Format::Json {
        crate::cli::emit_json(&s)?;
        return Ok(code);
    }
    let lines = summary_text(&s);
    for line in lines {
        match format {
            Format::Csv => crate::note!("{line}"),
            _ => crate::cli::emit(&line)?,
        }
    }
    Ok(code)
}

/// The summary `s` as text: the counts, then the searches, times and node rates.
fn summary_text(s: &Summary) -> [String; 2] {
    [
        format!(
            "instances {}, solved {}, unsolvable {}, optimal {} (checked against the file), unchecked {}, mismatches {}, limits reached {}",
            s.instances, s.solved, s.unsolvable, s.optimal, s.unchecked, s.mismatches, s.limits
        ),
        format!(
            "{} + {}, {} job{}: {:.3} s of search ({:.3} s wall), {} nodes expanded, {} generated, {:.2} M expanded/s",
            s.algorithm,
            s.heuristic,
            s.jobs,
            if s.jobs == 1 { "" } else { "s" },
            s.seconds,
            s.wall_seconds,
            s.nodes_expanded,
            s.nodes_generated,
            s.nodes_per_second / 1e6
        ),
    ]
}

/// What `field` says of the rows: one value when they agree, else each value with the board
/// sizes it was used for, e.g. `astar (3×3), idastar (4×4)`.
fn per_size(rows: &[Row], instances: &[Instance], field: impl Fn(&Row) -> String) -> String {
    let mut seen: Vec<(String, Vec<String>)> = Vec::new();
    for (r, inst) in rows.iter().zip(instances) {
        let (v, size) = (
            field(r),
            format!("{}×{}", inst.board.rows(), inst.board.cols()),
        );
        match seen.iter_mut().find(|(x, _)| *x == v) {
            Some((_, sizes)) if !sizes.contains(&size) => sizes.push(size),
            Some(_) => {}
            None => seen.push((v, vec![size])),
        }
    }
    if seen.len() == 1 {
        return seen.swap_remove(0).0;
    }
    seen.iter()
        .map(|(v, sizes)| format!("{v} ({})", sizes.join(", ")))
        .collect::<Vec<_>>()
        .join(", ")
}

impl Row {
    /// The row of `inst` searched towards `goal` as `chosen` says: its answer `r`, or at a
    /// limit what the progress reports said (`followed`).
    pub(super) fn of(
        inst: &Instance,
        chosen: &Chosen,
        goal: &Goal,
        r: Result<Outcome, RunError>,
        followed: &Followed,
    ) -> Row {
        let (algorithm, heuristic) = (chosen.algorithm, &chosen.heuristic);
        let mut row = Row {
            id: inst.id.clone(),
            line: inst.line,
            algorithm: algorithm.name(),
            heuristic: if algorithm == Algorithm::Bfs {
                "none".to_string()
            } else {
                heuristic.name().to_string()
            },
            solvable: true,
            moves: None,
            optimal: inst.optimal,
            matches: None,
            nodes_expanded: 0,
            nodes_generated: 0,
            seconds: 0.0,
            initial_h: 0,
            lower_bound: None,
            effective_branching_factor: None,
            iterations: Vec::new(),
            error: None,
            version: crate::VERSION,
        };
        match r {
            Ok(Outcome::Solved(s)) => {
                row.moves = Some(s.moves.len());
                row.matches = inst.optimal.map(|o| o as usize == s.moves.len());
                row.nodes_expanded = s.stats.expanded;
                row.nodes_generated = s.stats.generated;
                row.seconds = s.stats.seconds;
                row.initial_h = s.stats.initial_h;
                row.lower_bound = Some(s.moves.len() as u32);
                row.effective_branching_factor =
                    effective_branching_factor(s.stats.generated, s.moves.len() as u32);
                row.iterations = s.stats.iterations;
            }
            Ok(Outcome::Unsolvable(_)) => {
                row.solvable = false;
                // The file says it has a solution: a wrong goal is the likely cause.
                row.matches = inst.optimal.map(|_| false);
            }
            Err(e) => {
                let last = &followed.last;
                row.nodes_expanded = last.expanded;
                row.nodes_generated = last.generated;
                row.seconds = last.seconds;
                if algorithm != Algorithm::Bfs {
                    row.initial_h = heuristic.build(goal).estimate(inst.board.tiles());
                }
                row.lower_bound = followed.lower_bound();
                row.iterations = followed.iterations();
                row.error = Some(match e {
                    RunError::Search(e) => crate::cli::limit_message(&e),
                    e => e.to_string(),
                });
            }
        }
        row
    }
}

/// `r` as a line of the text table.
fn format_row(r: &Row) -> String {
    let opt = r.optimal.map_or("-".to_string(), |o| o.to_string());
    let (moves, matches) = match (&r.error, r.solvable, r.moves, r.matches) {
        // What a limited search proved: at least this many moves.
        (Some(e), _, _, _) => {
            let bound = r.lower_bound.filter(|&b| b > 0);
            let why = if e.contains("time limit") {
                "time limit"
            } else if e.contains("memory") {
                "memory cap"
            } else {
                "error"
            };
            (bound.map_or("-".to_string(), |b| format!("≥{b}")), why)
        }
        (None, false, _, Some(false)) => ("-".to_string(), "UNSOLVABLE"),
        (None, false, _, _) => ("-".to_string(), "unsolvable"),
        (None, true, Some(m), Some(true)) => (m.to_string(), "yes"),
        (None, true, Some(m), Some(false)) => (m.to_string(), "MISMATCH"),
        (None, true, Some(m), None) => (m.to_string(), "-"),
        (None, true, None, _) => ("-".to_string(), "-"),
    };
    format!(
        "{:<10} {:>6} {:>8} {:>10} {:>14} {:>14} {:>10.3}",
        r.id, moves, opt, matches, r.nodes_expanded, r.nodes_generated, r.seconds
    )
}
