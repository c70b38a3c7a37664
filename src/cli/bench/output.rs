//! What `npuzzle bench` prints: a row per instance ([`Row`], text, JSON or CSV, in file order
//! as they complete: [`Printer`]) and the summary ([`summarize`]). A row's JSON line stands
//! alone (its goal, search, counting options, host and version), so that the lines of several
//! runs (`--shard`) concatenate into one result (`--merge` reads them back as rows).

use serde::{Deserialize, Serialize};

use crate::cli::{CliError, Format};
use crate::plan::{Chosen, RunError};
use crate::puzzle::Goal;
use crate::puzzle::parse::Instance;
use crate::report::Conditions;
use crate::report::published::{PublishedCounts, share};
use crate::search::measure::effective_branching_factor;
use crate::search::{Algorithm, Followed, Iteration, Outcome};

/// One instance's result: a JSON line of `bench --format json` (field order is the output's).
#[derive(Serialize, Deserialize, Clone, Debug)]
pub(super) struct Row {
    pub(super) id: String,
    /// The 1-based line of the bench file.
    pub(super) line: usize,
    /// The start board (`1 2 3/4 5 6/7 8 0`).
    pub(super) start: String,
    /// The goal it was searched towards (`blank-first`, …).
    pub(super) goal: String,
    /// The search that ran (`auto` resolved for the instance's size).
    pub(super) algorithm: String,
    /// Its heuristic (`none` for breadth-first search).
    pub(super) heuristic: String,
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
    iterations: Vec<IterationRow>,
    pub(super) error: Option<String>,
    /// The published count of this instance (`--published`), `null` without one.
    published: Option<u64>,
    /// Our count over the published one (`nodes_expanded / published`, or generated).
    published_share: Option<f64>,
    /// The field of ours the published count is compared with: `nodes_expanded` or
    /// `nodes_generated` (`null` without a published count).
    published_field: Option<String>,
    /// The settings, host and date.
    #[serde(flatten)]
    pub(super) conditions: Conditions,
    /// npuzzle's version and the commit it was built from ([`crate::VERSION`]).
    pub(super) version: String,
    /// The board's rows and columns (from `start`; not printed).
    #[serde(skip)]
    pub(super) size: (usize, usize),
}

/// One IDA* iteration in a row: [`Iteration`]'s fields, as `solve` prints them.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
struct IterationRow {
    threshold: u32,
    nodes_expanded: u64,
    nodes_generated: u64,
}

impl From<Iteration> for IterationRow {
    fn from(i: Iteration) -> Self {
        IterationRow {
            threshold: i.threshold,
            nodes_expanded: i.expanded,
            nodes_generated: i.generated,
        }
    }
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
    /// The published counts of the instances that have one and were solved, added up
    /// (`--published`; `null` without).
    published: Option<u64>,
    /// Our counts of those instances added up, over `published`.
    published_share: Option<f64>,
    /// The field compared: `nodes_expanded` or `nodes_generated`.
    published_field: Option<String>,
    /// The goal of the file's first line (see the rows for files that mix goals).
    goal: String,
    /// What `auto` picked and why, and the tables built, as said on stderr (empty when
    /// nothing was chosen: a named algorithm and heuristic).
    choices: Vec<String>,
    /// The settings, host and date.
    #[serde(flatten)]
    conditions: Conditions,
    /// npuzzle's version and the commit it was built from ([`crate::VERSION`]).
    version: &'static str,
}

/// What a summary says besides its rows' totals: of one run, or of the runs merged.
pub(super) struct RunFacts {
    /// The goal of the first line.
    pub(super) goal_name: String,
    /// Instances searched at once (merged: the largest of the runs').
    pub(super) jobs: usize,
    /// Seconds from the first search's start to the summary (merged: the runs' added up).
    pub(super) wall_seconds: f64,
    /// The settings, host and date (merged: the first row's).
    pub(super) conditions: Conditions,
    /// What `auto` picked, tables built.
    pub(super) choices: Vec<String>,
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
    /// Whether the text table has the published counts' columns.
    pub(super) published: bool,
}

impl Printer {
    /// Takes instance `i`'s row and prints every row now due in file order, above the
    /// progress `bar`; keeps the first output error.
    pub(super) fn put(&mut self, i: usize, row: Row, bar: &indicatif::ProgressBar) {
        self.rows[i] = Some(row);
        while let Some(Some(r)) = self.rows.get(self.next) {
            if self.failed.is_none() {
                let printed = bar.suspend(|| match self.format {
                    Format::Text => crate::cli::emit(&format_row(r, self.published)),
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
pub(super) fn start_table(
    n: usize,
    format: Format,
    published: bool,
) -> Result<indicatif::ProgressBar, CliError> {
    let bar = indicatif::ProgressBar::new(n as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} {elapsed_precise} {msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    // The clock moves while a long instance runs.
    bar.enable_steady_tick(std::time::Duration::from_secs(1));
    if format == Format::Text {
        bar.suspend(|| table_header(published))?;
    }
    Ok(bar)
}

/// Prints the text table's header; with a `published` column when there are published counts.
///
/// # Errors
/// Writing it.
pub(super) fn table_header(published: bool) -> Result<(), CliError> {
    let mut line = format!(
        "{:<10} {:>6} {:>8} {:>10} {:>14} {:>14} {:>10}",
        "id", "moves", "optimal", "match", "expanded", "generated", "seconds"
    );
    if published {
        line += &format!(" {:>16} {:>8}", "published", "share");
    }
    crate::cli::emit(&line)
}

/// Prints the summary of `rows` (one per instance, in order) with `facts`: counts, the
/// algorithm and heuristic per board size, times and node rates, the published counts' share
/// (a JSON object in JSON; text on standard error under CSV, whose output is the rows alone),
/// and says when boards the file gives a length for are unsolvable towards the goal.
/// Returns the exit code: 1 for a mismatch with the file, 3 for a limit reached, else 0.
///
/// # Errors
/// Writing the output.
pub(super) fn summarize(rows: &[Row], facts: RunFacts, format: Format) -> Result<u8, CliError> {
    let solved = rows.iter().filter(|r| r.moves.is_some()).count();
    let mismatches = rows.iter().filter(|r| r.matches == Some(false)).count();
    if rows.iter().any(|r| !r.solvable && r.optimal.is_some()) {
        crate::note!(
            "npuzzle: boards the file gives a length for are unsolvable towards the {} goal: is it the file's goal? (Korf's files use --goal blank-first)",
            facts.goal_name
        );
    }
    let limits_hit = rows.iter().filter(|r| r.error.is_some()).count();
    let seconds: f64 = rows.iter().map(|r| r.seconds).sum();
    let nodes: u64 = rows.iter().map(|r| r.nodes_expanded).sum();
    let (published, ours, published_field) = published_totals(rows);
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
        algorithm: per_size(rows, |r| r.algorithm.clone()),
        heuristic: per_size(rows, |r| r.heuristic.clone()),
        jobs: facts.jobs,
        seconds,
        wall_seconds: facts.wall_seconds,
        nodes_expanded: nodes,
        nodes_generated: rows.iter().map(|r| r.nodes_generated).sum(),
        nodes_per_second: if seconds > 0.0 {
            nodes as f64 / seconds
        } else {
            0.0
        },
        published,
        published_share: published.and_then(|p| share(ours, p)),
        published_field,
        goal: facts.goal_name,
        choices: facts.choices,
        conditions: facts.conditions,
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
    for line in summary_text(&s) {
        match format {
            Format::Csv => crate::note!("{line}"),
            _ => crate::cli::emit(&line)?,
        }
    }
    Ok(code)
}

/// The published counts of the rows that have one and an answer, added up; ours of the same
/// rows added up; and the field compared (`None`s when no row has a published count).
fn published_totals(rows: &[Row]) -> (Option<u64>, u64, Option<String>) {
    let mut field = None;
    let (mut theirs, mut ours) = (0u64, 0u64);
    for r in rows {
        if let (Some(p), Some(f), Some(_)) = (r.published, &r.published_field, r.moves) {
            // One kind of count (the first row's): expanded and generated do not add up.
            if field.as_ref().is_some_and(|first| first != f) {
                continue;
            }
            theirs += p;
            ours += if f == "nodes_generated" {
                r.nodes_generated
            } else {
                r.nodes_expanded
            };
            field.get_or_insert_with(|| f.clone());
        }
    }
    (field.is_some().then_some(theirs), ours, field)
}

/// The summary `s` as text: the counts, then the searches, times and node rates, then the
/// published counts' share when there are some.
fn summary_text(s: &Summary) -> Vec<String> {
    let mut lines = vec![
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
    ];
    if let (Some(p), Some(f)) = (s.published, &s.published_field) {
        lines.push(format!(
            "published: {p} {} for the solved instances that have a count; ours ÷ published: {}",
            f.replace('_', " "),
            s.published_share
                .map_or("-".to_string(), |x| format!("{x:.4}"))
        ));
    }
    lines
}

/// What `field` says of the rows: one value when they agree, else each value with the board
/// sizes it was used for, e.g. `astar (3×3), idastar (4×4)`.
fn per_size(rows: &[Row], field: impl Fn(&Row) -> String) -> String {
    let mut seen: Vec<(String, Vec<String>)> = Vec::new();
    for r in rows {
        let (v, size) = (field(r), format!("{}×{}", r.size.0, r.size.1));
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

/// What a row says besides its search's answer: the run's conditions and the published
/// counts, when given.
pub(super) struct RowContext<'a> {
    /// The settings, host and date of the run.
    pub(super) conditions: &'a Conditions,
    /// `--published`'s counts.
    pub(super) published: Option<&'a PublishedCounts>,
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
        context: &RowContext<'_>,
    ) -> Row {
        let (algorithm, heuristic) = (chosen.algorithm, &chosen.heuristic);
        let mut row = Row {
            id: inst.id.clone(),
            line: inst.line,
            start: inst.board.to_string(),
            goal: goal.name().to_string(),
            algorithm: algorithm.name().to_string(),
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
            published: None,
            published_share: None,
            published_field: None,
            conditions: context.conditions.clone(),
            version: crate::VERSION.to_string(),
            size: (inst.board.rows(), inst.board.cols()),
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
                row.iterations = s.stats.iterations.into_iter().map(Into::into).collect();
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
                row.iterations = followed.iterations().into_iter().map(Into::into).collect();
                row.error = Some(match e {
                    RunError::Search(e) => crate::cli::limit_message(&e),
                    e => e.to_string(),
                });
            }
        }
        row.compare_with(context.published);
        row
    }

    /// Sets the row's published count from `counts` (none without, or where they have no
    /// count for its id) and, once solved, its share: ours over theirs, of the count they
    /// give (nodes expanded or generated).
    pub(super) fn compare_with(&mut self, counts: Option<&PublishedCounts>) {
        let found = counts.and_then(|c| Some((c.count_of(&self.id)?, c.count.field())));
        self.published = found.map(|f| f.0);
        self.published_field = found.map(|f| f.1.to_string());
        self.published_share = found
            .filter(|_| self.moves.is_some())
            .and_then(|(p, field)| {
                let ours = if field == "nodes_generated" {
                    self.nodes_generated
                } else {
                    self.nodes_expanded
                };
                share(ours, p)
            });
    }

    /// The published count of the row's instance, when it has one.
    pub(super) fn published_count(&self) -> Option<u64> {
        self.published
    }

    /// What must be the same in rows of one board size to merge them: the goal and the search
    /// (field names and values).
    pub(super) fn search(&self) -> [(&'static str, String); 3] {
        [
            ("goal", self.goal.clone()),
            ("algorithm", self.algorithm.clone()),
            ("heuristic", self.heuristic.clone()),
        ]
    }

    /// What must be the same in every row to merge them: what changes the counts (pruning,
    /// move order, lookup, threads, time limit, how they are counted) and the version.
    pub(super) fn options(&self) -> [(&'static str, String); 8] {
        let c = &self.conditions;
        [
            ("pruning", c.pruning.clone()),
            ("move_order", c.move_order.clone()),
            ("pdb_reflect", c.pdb_reflect.to_string()),
            ("pdb_regions", c.pdb_regions.to_string()),
            ("threads", c.threads.to_string()),
            ("time_limit", format!("{:?}", c.time_limit)),
            ("generated_counts_root", c.generated_counts_root.to_string()),
            ("version", self.version.clone()),
        ]
    }

    /// The row's result, what two rows of one id must agree on (the seconds may differ): the
    /// answer, the counts and the error.
    pub(super) fn result(&self) -> String {
        format!(
            "solvable {}, moves {}, nodes_expanded {}, nodes_generated {}, error {}",
            self.solvable,
            self.moves.map_or("none".to_string(), |m| m.to_string()),
            self.nodes_expanded,
            self.nodes_generated,
            self.error.as_deref().unwrap_or("none")
        )
    }
}

/// `r` as a line of the text table (with its published count and share when it has one, or
/// when `published`: another row has).
pub(super) fn format_row(r: &Row, published: bool) -> String {
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
    let mut line = format!(
        "{:<10} {:>6} {:>8} {:>10} {:>14} {:>14} {:>10.3}",
        r.id, moves, opt, matches, r.nodes_expanded, r.nodes_generated, r.seconds
    );
    if published || r.published.is_some() {
        let dash = || "-".to_string();
        line += &format!(
            " {:>16} {:>8}",
            r.published.map_or_else(dash, |p| p.to_string()),
            r.published_share.map_or_else(dash, |x| format!("{x:.4}"))
        );
    }
    line
}
