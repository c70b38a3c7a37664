//! `npuzzle bench`: many instances, checked against their known optimal lengths.

use std::sync::Mutex;
use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use super::terminal::Terminal;
use super::{BenchArgs, CliError, Format, goal_flag, resolve_goal};
use crate::heuristic::HeuristicChoice;
use crate::plan::{Chosen, Hardware, Plan, RunError};
use crate::puzzle::Goal;
use crate::puzzle::parse::{Instance, parse_puzzles};
use crate::search::measure::effective_branching_factor;
use crate::search::{Algorithm, Followed, Iteration, Outcome, Problem};

#[derive(Serialize, Clone, Debug)]
struct Row {
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
struct Printer {
    rows: Vec<Option<Row>>,
    next: usize,
    /// Text, a JSON line or a CSV row per row.
    format: Format,
    /// The CSV rows' header, once written.
    csv: super::CsvLines,
    /// First output error, reported at the end.
    failed: Option<CliError>,
}

impl Printer {
    /// Takes instance `i`'s row and prints every row now due in file order, above the
    /// progress `bar`; keeps the first output error.
    fn put(&mut self, i: usize, row: Row, bar: &indicatif::ProgressBar) {
        self.rows[i] = Some(row);
        while let Some(Some(r)) = self.rows.get(self.next) {
            if self.failed.is_none() {
                let printed = bar.suspend(|| match self.format {
                    Format::Text => super::emit(&format_row(r)),
                    Format::Json => super::emit_json(r),
                    Format::Csv => self.csv.emit(r),
                });
                self.failed = printed.err();
            }
            self.next += 1;
        }
    }
}

pub(super) fn run(a: &BenchArgs) -> Result<u8, CliError> {
    let printed = std::sync::atomic::AtomicBool::new(false);
    match bench(a, &printed) {
        // When the bench could not run (bad input, a heuristic or evaluator that cannot be
        // had): `summary: true` with the error, where the summary would be. After rows, the
        // error is theirs.
        Err(e)
            if a.opts.format == Format::Json
                && !printed.load(std::sync::atomic::Ordering::Relaxed) =>
        {
            super::json_failure(e, &[("summary", true.into())])
        }
        r => r,
    }
}

/// The bench itself; sets `printed` once a row has gone to the output.
fn bench(a: &BenchArgs, printed: &std::sync::atomic::AtomicBool) -> Result<u8, CliError> {
    // The input is read within the time limit too (a pipe that never ends).
    let limit = a.opts.limits().ok().and_then(|l| l.time_limit);
    let (name, text) = super::read_input_within(&a.file, limit)?;
    let instances = parse_puzzles(&text, &name, a.opts.size)?;
    let flag = goal_flag(a.opts.goal.as_deref())?;
    let goals: Vec<Goal> = instances
        .iter()
        .map(|i| {
            let line = i.named_goal().map(|n| (n, name.as_str()));
            resolve_goal(flag.as_ref(), line, i.board.rows(), i.board.cols())
        })
        .collect::<Result<_, _>>()?;
    let mut limits = a.opts.limits()?;
    if let Some(t) = a.threads {
        limits.threads = super::jobs(Some(t));
    }
    let gpu_ida = a.opts.algorithm == Algorithm::GpuIdaStar;
    if gpu_ida && a.threads.is_none() {
        // GPU IDA*'s host searches the top of each iteration's tree on all cores.
        limits.threads = super::jobs(None);
    }
    // GPU IDA* runs one board at a time: the device is the parallel part.
    let jobs = if gpu_ida { 1 } else { super::jobs(a.jobs) };
    // The evaluator or device first: `auto` picks the strongest heuristic it takes.
    let hardware = if crate::plan::uses_gpu(a.opts.algorithm) {
        let terminal = Terminal::quiet();
        Hardware::open(
            a.opts.evaluator,
            a.opts.algorithm,
            a.opts.gpu_invocations,
            &terminal,
        )
        .map_err(|e| terminal.error(e, "--heuristic "))?
    } else {
        Hardware::cpu(1)
    };
    let mut choices = Vec::new();
    let by_goal = heuristics_by_goal(a, &instances, &goals, &hardware, &mut choices)?;
    // A move order some search cannot honour is said once per search, not per goal.
    let mut algorithms: Vec<Algorithm> = Vec::new();
    for (_, chosen) in &by_goal {
        if !algorithms.contains(&chosen.algorithm) {
            algorithms.push(chosen.algorithm);
            let (order, threads) = (a.opts.counting.move_order, a.threads.unwrap_or(1));
            super::solve::note_move_order(order, chosen.algorithm, (threads, "--threads 1"));
        }
    }
    // IDA*'s pruning automaton, once per shape (a build is said, and kept in the choices).
    let terminal = Terminal::quiet();
    for (b, chosen) in &by_goal {
        crate::plan::load_pruning(chosen.algorithm, b.rows(), b.cols(), &limits, &terminal);
    }
    choices.extend(terminal.chosen());
    // GPU IDA*'s plan, one per goal (the device's tables and constants are the goal's); without
    // a device the CPU IDA* searches instead (said on stderr).
    let devices = if gpu_ida {
        let terminal = Terminal::quiet();
        by_goal
            .iter()
            .map(|(b, chosen)| {
                let g = goals
                    .iter()
                    .find(|g| g.board() == b)
                    .expect("a goal of the file");
                chosen
                    .clone()
                    .open(&hardware, g, a.opts.batch_size, &terminal)
                    .map(Mutex::new)
                    .map_err(|e| terminal.error(e, "--heuristic "))
            })
            .collect::<Result<Vec<_>, _>>()?
    } else {
        Vec::new()
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| CliError::Other(format!("thread pool: {e}")))?;
    let bar = start_table(instances.len(), a.opts.format)?;
    let printer = Mutex::new(Printer {
        rows: vec![None; instances.len()],
        next: 0,
        format: a.opts.format,
        csv: super::CsvLines::default(),
        failed: None,
    });
    let engines = Engines {
        hardware: &hardware,
        batch_size: a.opts.batch_size,
        limits: &limits,
    };
    let wall = Instant::now();
    pool.install(|| {
        instances
            .par_iter()
            .zip(goals.par_iter())
            .enumerate()
            .for_each(|(i, (inst, goal))| {
                let problem = Problem {
                    start: inst.board.clone(),
                    goal: goal.clone(),
                };
                // `auto` is resolved per goal (and so per size): files may mix sizes and goals.
                let at = by_goal
                    .iter()
                    .position(|(b, _)| b == goal.board())
                    .expect("a plan per goal");
                let chosen = &by_goal[at].1;
                // What the reports said: at a limit, the counts of the moment it stopped.
                let mut followed = Followed::default();
                let mut keep = |p: &crate::search::Progress| followed.see(p);
                let r = engines.search(&problem, chosen, devices.get(at), &mut keep);
                let row = Row::of(inst, chosen, &problem.goal, r, &followed);
                bar.inc(1);
                let mut p = printer.lock().unwrap_or_else(|e| e.into_inner());
                p.put(i, row, &bar);
                printed.store(p.next > 0, std::sync::atomic::Ordering::Relaxed);
            });
    });
    bar.finish_and_clear();
    let printer = printer.into_inner().unwrap_or_else(|e| e.into_inner());
    if let Some(e) = printer.failed {
        return Err(e);
    }
    let rows: Vec<Row> = printer.rows.into_iter().flatten().collect();
    // The goal of the first line (the file's `# goal:`, else --goal, else blank-last).
    let goal_name = goals.first().map_or("blank-last", |g| g.name());
    let conditions =
        crate::report::Conditions::of(&limits).with_pdb_lookup(a.opts.counting.pdb_lookup());
    summarize(
        &rows,
        &instances,
        goal_name,
        jobs,
        wall,
        a.opts.format,
        (conditions, choices),
    )
}

/// The algorithm and heuristic for each distinct goal (and size) of the file, in the order
/// the goals first appear (pattern databases are goal-specific): [`crate::plan::choose`]'s
/// picks, said per goal when there are several and the plan says something (an `auto` pick,
/// tables read or built). `hardware`: the GPU, when it is used (`auto` picks within it).
///
/// # Errors
/// A heuristic that cannot be had, as [`Terminal::error`] reports it.
fn heuristics_by_goal(
    a: &BenchArgs,
    instances: &[Instance],
    goals: &[Goal],
    hardware: &Hardware,
    choices: &mut Vec<String>,
) -> Result<Vec<(crate::puzzle::Board, Chosen)>, CliError> {
    // One heuristic per distinct goal (and size): pattern databases are goal-specific.
    let mut by_goal: Vec<(crate::puzzle::Board, Chosen)> = Vec::new();
    // With several goals (or sizes) the choices are said per goal, each once.
    // (Only where the plan says something: an `auto` pick, or tables read or built.)
    let several = goals.iter().any(|g| g.board() != goals[0].board())
        && (a.opts.algorithm == Algorithm::Auto
            || !matches!(a.opts.heuristic, HeuristicChoice::Kind(_)));
    let request = super::solve::request(&a.opts);
    for (inst, g) in instances.iter().zip(goals) {
        if !by_goal.iter().any(|(b, _)| b == g.board()) {
            if several {
                crate::note!(
                    "npuzzle: lines with the {} goal ({}×{}), from line {}:",
                    g.name(),
                    g.board().rows(),
                    g.board().cols(),
                    inst.line
                );
            }
            // --time-limit is per instance; it does not cover building the tables.
            let terminal = Terminal::new(&a.opts.heuristic, None);
            let chosen = crate::plan::choose(&request, &inst.board, g, hardware, &terminal)
                .map_err(|e| terminal.error(e, "--heuristic "))?;
            let prefix = if several {
                format!(
                    "{} goal ({}×{}): ",
                    g.name(),
                    g.board().rows(),
                    g.board().cols()
                )
            } else {
                String::new()
            };
            choices.extend(
                terminal
                    .chosen()
                    .into_iter()
                    .map(|c| format!("{prefix}{c}")),
            );
            by_goal.push((g.board().clone(), chosen));
        }
    }
    Ok(by_goal)
}

/// The progress bar of `n` instances on stderr, and the text table's header (only in text).
///
/// # Errors
/// Writing the header.
fn start_table(n: usize, format: Format) -> Result<indicatif::ProgressBar, CliError> {
    let bar = indicatif::ProgressBar::new(n as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} {elapsed_precise} {msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    // The clock moves while a long instance runs.
    bar.enable_steady_tick(std::time::Duration::from_secs(1));
    if format == Format::Text {
        bar.suspend(|| {
            super::emit(&format!(
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
fn summarize(
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
        super::emit_json(&s)?;
        return Ok(code);
    }
    let lines = summary_text(&s);
    for line in lines {
        match format {
            Format::Csv => crate::note!("{line}"),
            _ => super::emit(&line)?,
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

/// What the bench's instances are searched on: the hardware (GPU IDA*'s plans are opened
/// once per goal, the others once per instance), batched A*'s nodes a round, and the limits.
struct Engines<'a> {
    hardware: &'a Hardware,
    batch_size: usize,
    limits: &'a crate::search::Limits,
}

impl Engines<'_> {
    /// Searches `problem` as `chosen` says: on `device`, its goal's GPU IDA* plan, when there
    /// is one; else on a plan opened for it (batched A*'s evaluator, or the CPU).
    fn search(
        &self,
        problem: &Problem,
        chosen: &Chosen,
        device: Option<&Mutex<Plan>>,
        progress: &mut crate::search::ProgressFn<'_>,
    ) -> Result<Outcome, RunError> {
        if let Some(plan) = device {
            let mut plan = plan.lock().unwrap_or_else(|e| e.into_inner());
            return Ok(plan.run(problem, None, self.limits, progress)?);
        }
        let mut plan = chosen
            .clone()
            .open(
                self.hardware,
                &problem.goal,
                self.batch_size,
                &Terminal::quiet(),
            )
            .map_err(RunError::Plan)?;
        Ok(plan.run(problem, None, self.limits, progress)?)
    }
}

impl Row {
    /// The row of `inst` searched towards `goal` as `chosen` says: its answer `r`, or at a
    /// limit what the progress reports said (`followed`).
    fn of(
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
                    RunError::Search(e) => super::limit_message(&e),
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
