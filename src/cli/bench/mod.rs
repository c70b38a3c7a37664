//! `npuzzle bench`: many instances, checked against their known optimal lengths; what it
//! prints is in [`output`], which instances run in [`select`] (`--ids`, `--shard`), and
//! [`merge`] reads the JSON lines of several runs back as one (`--merge`).

mod merge;
mod output;
mod select;

use output::{Printer, Row, RowContext, RunFacts, start_table, summarize};

use std::sync::Mutex;
use std::time::Instant;

use rayon::prelude::*;

use super::terminal::Terminal;
use super::{BenchArgs, CliError, Format, goal_flag, resolve_goal};
use crate::heuristic::HeuristicChoice;
use crate::plan::{Chosen, Hardware, Plan, RunError};
use crate::puzzle::Goal;
use crate::puzzle::parse::{Instance, parse_puzzles};
use crate::report::published::PublishedCounts;
use crate::search::{Algorithm, Followed, Outcome, Problem};
pub(super) fn run(a: &BenchArgs) -> Result<u8, CliError> {
    let printed = std::sync::atomic::AtomicBool::new(false);
    let result = if a.merge {
        merge::run(a)
    } else {
        bench(a, &printed)
    };
    match result {
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
    // bench checks optimal lengths: the searches to contrast belong to solve and compare.
    a.opts.weighted()?;
    super::args::refuse_not_optimal("bench", a.opts.algorithm, &a.opts.heuristic)?;
    let Selected {
        instances,
        goals,
        published,
    } = read_instances(a)?;
    let mut limits = a.opts.limits()?;
    if let Some(t) = a.threads {
        limits.threads = super::jobs(Some(t));
    }
    let gpu_ida = a.opts.algorithm == Algorithm::GpuIdaStar;
    if gpu_ida && a.threads.is_none() {
        // GPU IDA*'s host searches the top of each iteration's tree on all cores.
        limits.threads = super::jobs(None);
    }
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
    let jobs = if gpu_ida {
        gpu_boards(a.jobs, &hardware)
    } else {
        super::jobs(a.jobs)
    };
    let mut choices = Vec::new();
    let by_goal = heuristics_by_goal(a, &instances, &goals, &hardware, &mut choices)?;
    say_once_per_search(a, &by_goal, &limits, &mut choices);
    // GPU IDA*'s plan, one per goal (the device's tables and constants are the goal's); without
    // a device the CPU IDA* searches instead (said on stderr).
    let devices = if gpu_ida {
        gpu_plans(a, &by_goal, &goals, &hardware, jobs)?
    } else {
        Vec::new()
    };
    // GPU IDA* that fell back to the CPU searches one board at a time on all cores, as the
    // CPU's IDA* of one board would, unless `--jobs` says otherwise.
    let on_gpu = |plans: &Mutex<Vec<Plan>>| {
        let plans = plans.lock().unwrap_or_else(|e| e.into_inner());
        plans
            .iter()
            .any(|p| p.evaluated() == crate::eval::Evaluated::Gpu)
    };
    let jobs = if gpu_ida && a.jobs.is_none() && !devices.iter().any(on_gpu) {
        1
    } else {
        jobs
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| CliError::Other(format!("thread pool: {e}")))?;
    let bar = start_table(instances.len(), a.opts.format, published.is_some())?;
    let printer = Mutex::new(Printer {
        rows: vec![None; instances.len()],
        next: 0,
        format: a.opts.format,
        csv: super::CsvLines::default(),
        failed: None,
        published: published.is_some(),
    });
    let conditions =
        crate::report::Conditions::of(&limits).with_pdb_lookup(a.opts.counting.pdb_lookup());
    let context = RowContext {
        conditions: &conditions,
        published: published.as_ref(),
    };
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
                let row = Row::of(inst, chosen, &problem.goal, r, &followed, &context);
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
    let facts = RunFacts {
        goal_name: goal_name.to_string(),
        jobs,
        wall_seconds: wall.elapsed().as_secs_f64(),
        // The date when the summary is written.
        conditions: crate::report::Conditions::of(&limits)
            .with_pdb_lookup(a.opts.counting.pdb_lookup()),
        choices,
    };
    summarize(&rows, facts, a.opts.format)
}

/// The instances of `a`'s file that `--ids` and `--shard` select, in file order; the goal of
/// each (its line's or header's, else `--goal`, else blank-last; a contradiction is an
/// error); and `--published`'s counts. The file is read within the time limit too (a pipe
/// that never ends).
///
/// # Errors
/// Usage errors (exit 2): more than one file, a bad `--ids` or `--shard`, a counts file that
/// does not parse or gives another length than the bench file; the file's parse errors.
fn read_instances(a: &BenchArgs) -> Result<Selected, CliError> {
    let [file] = a.files.as_slice() else {
        return Err(CliError::Usage(format!(
            "bench runs one bench file ({} given); --merge reads several runs' JSON lines",
            a.files.len()
        )));
    };
    let shard = a.shard.as_deref().map(select::Shard::parse).transpose()?;
    let limit = a.opts.limits().ok().and_then(|l| l.time_limit);
    let (name, text) = super::read_input_within(file, limit)?;
    let all = parse_puzzles(&text, &name, a.opts.size)?;
    let keep = select::select(&all, &name, a.ids.as_deref(), shard)?;
    let instances: Vec<Instance> = keep.into_iter().map(|i| all[i].clone()).collect();
    if instances.is_empty() {
        crate::note!(
            "npuzzle: no instances in this part ({name}, --shard {:?})",
            a.shard.as_deref().unwrap_or("")
        );
    }
    let published = a
        .published
        .as_deref()
        .map(|p| read_published(p, &instances))
        .transpose()?;
    let flag = goal_flag(a.opts.goal.as_deref())?;
    let goals: Vec<Goal> = instances
        .iter()
        .map(|i| {
            let line = i.named_goal().map(|n| (n, name.as_str()));
            resolve_goal(flag.as_ref(), line, i.board.rows(), i.board.cols())
        })
        .collect::<Result<_, _>>()?;
    Ok(Selected {
        instances,
        goals,
        published,
    })
}

/// The instances a bench runs ([`read_instances`]).
struct Selected {
    /// The instances `--ids` and `--shard` select, in file order.
    instances: Vec<Instance>,
    /// The goal of each.
    goals: Vec<Goal>,
    /// `--published`'s counts.
    published: Option<PublishedCounts>,
}

/// `--published`'s counts file at `path`, checked against `instances`: where it gives a
/// length and the bench file too, they must agree (else it is the table of other instances).
/// Instances it has no count for are said on stderr.
///
/// # Errors
/// [`CliError::Usage`]: the file cannot be read or parsed, or a length disagrees.
fn read_published(
    path: &std::path::Path,
    instances: &[Instance],
) -> Result<PublishedCounts, CliError> {
    let (name, text) = super::read_input(path, false)?;
    let counts = PublishedCounts::parse(&text, &name)
        .map_err(|e| CliError::Usage(format!("--published: {e}")))?;
    let mut without = Vec::new();
    for inst in instances {
        if counts.count_of(&inst.id).is_none() {
            without.push(inst.id.as_str());
        }
        let length = counts.value(&inst.id, "length");
        if let (Some(theirs), Some(ours)) = (length, inst.optimal)
            && theirs != u64::from(ours)
        {
            return Err(CliError::Usage(format!(
                "--published: {name} gives id {} the length {theirs}, the bench file (line {}) {ours}: are they the same instances?",
                inst.id, inst.line
            )));
        }
    }
    if !without.is_empty() {
        crate::note!(
            "npuzzle: {name} has no count for {} of the instances: {}",
            without.len(),
            without.join(", ")
        );
    }
    Ok(counts)
}

/// What is said once per search of the bench (`by_goal`'s), not per instance: a move order it
/// cannot honour (on stderr), and IDA*'s pruning automaton for each shape within `limits`
/// (loaded, or built and said; what was built goes to `choices`).
fn say_once_per_search(
    a: &BenchArgs,
    by_goal: &[(crate::puzzle::Board, Chosen)],
    limits: &crate::search::Limits,
    choices: &mut Vec<String>,
) {
    let mut algorithms: Vec<Algorithm> = Vec::new();
    for (_, chosen) in by_goal {
        if !algorithms.contains(&chosen.algorithm) {
            algorithms.push(chosen.algorithm);
            let (order, threads) = (a.opts.counting.move_order, a.threads.unwrap_or(1));
            super::solve::note_move_order(order, chosen.algorithm, (threads, "--threads 1"));
        }
    }
    let terminal = Terminal::quiet();
    for (b, chosen) in by_goal {
        crate::plan::load_pruning(chosen.algorithm, b.rows(), b.cols(), limits, &terminal);
    }
    choices.extend(terminal.chosen());
}

/// Boards GPU IDA* searches at once by default on a hardware GPU, each in a lane of the
/// device.
const GPU_BOARDS: usize = 4;

/// Most boards GPU IDA* searches at once (the device's lanes).
const MOST_GPU_BOARDS: usize = 16;

/// Boards GPU IDA* searches at once on `hardware`: `asked` (`--jobs`), at most
/// [`MOST_GPU_BOARDS`]; by default [`GPU_BOARDS`] on a hardware GPU, each in a lane of it (so
/// that boards too small to fill it fill it together, and one board's top of the tree is
/// split on the host while the device searches the others'), and one on a software adapter,
/// whose device runs on the host's cores (on lavapipe, 2 cores, Korf 15-puzzles: 4 boards
/// at once took 1.2× the wall time with manhattan, 0.85× with pdb78).
fn gpu_boards(asked: Option<usize>, hardware: &Hardware) -> usize {
    let default = if hardware.is_hardware_gpu() {
        GPU_BOARDS
    } else {
        1
    };
    if let Some(n) = asked.filter(|&n| n > MOST_GPU_BOARDS) {
        crate::note!("npuzzle: --jobs {n} capped at {MOST_GPU_BOARDS} (the GPU's lanes)");
    }
    asked.unwrap_or(default).clamp(1, MOST_GPU_BOARDS)
}

/// GPU IDA*'s plans for each of `by_goal`'s goals (the device's tables and constants are the
/// goal's), opened on `hardware`: `boards` of them sharing one device, for that many boards
/// at once; without a device the CPU IDA* searches instead (said on stderr).
fn gpu_plans(
    a: &BenchArgs,
    by_goal: &[(crate::puzzle::Board, Chosen)],
    goals: &[Goal],
    hardware: &Hardware,
    boards: usize,
) -> Result<Vec<Mutex<Vec<Plan>>>, CliError> {
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
                .open_many(hardware, g, a.opts.batch_size, boards, &terminal)
                .map(Mutex::new)
                .map_err(|e| terminal.error(e, "--heuristic "))
        })
        .collect()
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

/// What the bench's instances are searched on: the hardware (GPU IDA*'s plans are opened
/// once per goal, one for each board searched at once; the others once per instance),
/// batched A*'s nodes a round, and the limits.
struct Engines<'a> {
    hardware: &'a Hardware,
    batch_size: usize,
    limits: &'a crate::search::Limits,
}

impl Engines<'_> {
    /// Searches `problem` as `chosen` says: on one of `device`, its goal's GPU IDA* plans
    /// (one free for each board searched at once), when there are some; else on a plan
    /// opened for it (batched A*'s evaluator, or the CPU).
    fn search(
        &self,
        problem: &Problem,
        chosen: &Chosen,
        device: Option<&Mutex<Vec<Plan>>>,
        progress: &mut crate::search::ProgressFn<'_>,
    ) -> Result<Outcome, RunError> {
        if let Some(plans) = device {
            let take = || plans.lock().unwrap_or_else(|e| e.into_inner()).pop();
            // As many plans as threads search: one is free.
            let mut plan = take().expect("a plan for each board searched at once");
            let r = plan.run(problem, None, self.limits, progress);
            plans.lock().unwrap_or_else(|e| e.into_inner()).push(plan);
            return Ok(r?);
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
