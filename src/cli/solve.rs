//! `npuzzle solve`.

use std::fmt::Write;
use std::time::Instant;

use serde::Serialize;

use super::terminal::Terminal;
use super::{
    CliError, Format, SearchOpts, SolveArgs, StatedLength, goal_flag, read_instance, resolve_goal,
};
use crate::eval::Evaluated;
use crate::heuristic::HeuristicKind;
use crate::heuristic::HeuristicSpec;
use crate::plan::{Chosen, EvaluatorChoice, Hardware, Plan, Purpose, Request, RunError};
use crate::puzzle::{Board, Goal, Notation, Solvability};
use crate::report::{Conditions, RunInfo, SolveJson, all_solutions_text, solution_text};
use crate::search::{
    Algorithm, AllSolutions, Followed, MoveOrder, Outcome, Problem, Progress, SearchError,
};

pub(super) fn run(a: &SolveArgs) -> Result<u8, CliError> {
    if a.opts.format == Format::Csv {
        return Err(Format::csv_refused("solve"));
    }
    // Limits are checked with the input, so that a bad one gets its JSON object too.
    // The input is read within --time-limit; a bad limit is reported after the input's own
    // errors, as before the limit covered reading.
    let limit = a.opts.limits().ok().and_then(|l| l.time_limit);
    let read = read_instance(&a.file, a.opts.size, limit).and_then(|(source, inst)| {
        a.opts.limits()?;
        let algorithm = a.opts.weighted()?;
        if a.all {
            super::args::refuse_not_optimal("--all", algorithm, &a.opts.heuristic)?;
        }
        let flag = goal_flag(a.opts.goal.as_deref())?;
        let line = inst.named_goal().map(|n| (n, source.as_str()));
        let (rows, cols) = (inst.board.rows(), inst.board.cols());
        let goal = resolve_goal(flag.as_ref(), line, rows, cols)?;
        Ok((goal, StatedLength::of(&inst, &source), inst.board))
    });
    let (goal, stated, start) = match read {
        Err(e) if a.opts.format == Format::Json => {
            return fail_json(e, None);
        }
        r => r?,
    };
    let mut opts = a.opts.clone();
    opts.algorithm = opts.weighted()?;
    opts.threads = super::jobs(a.jobs);
    let all = a.all.then_some(a.max_solutions);
    let writing = Writing {
        notation: a.notation.into(),
        steps: a.steps,
        why: a.why,
        conditions: None,
        choices: None,
    };
    if a.why {
        let text = Solvability::explain(&start, &goal, usize::MAX);
        crate::note!("{}", crate::text::wrap(&text, 96));
    }
    solve_and_print(start, goal, &opts, writing, all, stated.as_ref())
}

/// What `solve --format json` prints when there is no answer, so that scripts reading JSON
/// always get an object: the error, whether a limit was reached, and what is known of the run
/// (null for bad input).
#[derive(Serialize)]
struct FailureJson {
    solvable: Option<bool>,
    moves: Option<usize>,
    error: String,
    /// The exit code's meaning: 2 bad input, 3 a limit or something unavailable, 1 otherwise.
    exit_code: u8,
    limit: bool,
    /// When a limit stopped the search: the least length the optimum can have, as proven.
    lower_bound: Option<u32>,
    algorithm: Option<&'static str>,
    heuristic: Option<String>,
    start: Option<String>,
    /// npuzzle's version and the commit it was built from ([`crate::VERSION`]).
    version: &'static str,
}

/// Prints the [`FailureJson`] of `e` and returns `e`. `run`: whether the board is solvable,
/// the algorithm, the heuristic's name and the start board, when known.
fn fail_json(e: CliError, run: Option<(bool, Algorithm, String, &Board)>) -> Result<u8, CliError> {
    Err(failure_json(e, run))
}

/// Says, when `unused`, that `--evaluator` does not apply to `algorithm`.
fn note_unused_evaluator(unused: bool, algorithm: Algorithm) {
    if unused {
        crate::note!(
            "npuzzle: --evaluator applies to batched-astar and gpu-idastar; {algorithm} evaluates h inline on the CPU"
        );
    }
}

/// Says on stderr when `--move-order` (`order`, not the default) cannot be honoured as asked
/// by `algorithm` on `threads` threads (`one`: the option that gives one thread, e.g.
/// `--jobs 1`): only IDA* tries moves in an order (GPU IDA*'s device keeps its own below the
/// top of the tree), and on more than one thread the last iteration's count depends on which
/// thread meets a goal first.
pub(super) fn note_move_order(
    order: MoveOrder,
    algorithm: Algorithm,
    (threads, one): (usize, &str),
) {
    if order == MoveOrder::default() {
        return;
    }
    let why = match algorithm {
        Algorithm::IdaStar if threads > 1 => format!(
            "on {threads} threads the last iteration's count depends on which thread meets a \
             goal first ({one} for a single thread's count)"
        ),
        Algorithm::IdaStar => return,
        Algorithm::GpuIdaStar => {
            "gpu-idastar's device keeps its own order below the top of the tree".into()
        }
        other => format!("it is IDA*'s; {other} ignores it"),
    };
    crate::note!("npuzzle: --move-order {order}: {why}");
}

/// The spinner of a search of `algorithm` on stderr: its message set by [`spin`], its clock
/// its own, drawn at least once a second whether or not the search reports.
fn spinner(algorithm: Algorithm) -> indicatif::ProgressBar {
    let spinner = indicatif::ProgressBar::new_spinner();
    spinner.set_style(
        indicatif::ProgressStyle::with_template("{spinner} {msg} · {elapsed}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
    );
    spinner.set_message(format!("{algorithm} · starting"));
    spinner.enable_steady_tick(std::time::Duration::from_millis(250));
    spinner
}

/// Shows progress `p` of `algorithm` on the terminal's `spinner`: the bound and the nodes
/// generated; for IDA*, the iteration, its nodes so far and the estimate of its size from the
/// finished ones (`idastar · iteration 5, bound 58 · 1.20e9 of ~3.40e9 nodes`).
fn spin(spinner: &indicatif::ProgressBar, algorithm: Algorithm, p: &Progress) {
    use crate::text::short_count;
    let message = if p.ida.number > 0 {
        let of = p
            .ida
            .estimate
            .map_or(String::new(), |e| format!(" of ~{}", short_count(e)));
        format!(
            "{algorithm} · iteration {}, bound {} · {}{of} nodes",
            p.ida.number,
            p.bound,
            short_count(p.ida.generated)
        )
    } else {
        format!(
            "{algorithm} · bound {} · {} nodes",
            p.bound,
            short_count(p.generated)
        )
    };
    spinner.set_message(message);
}

/// `e`, its [`FailureJson`] printed first when `format` is JSON ([`failure_json`]).
fn in_json(
    format: Format,
    e: CliError,
    run: Option<(bool, Algorithm, String, &Board)>,
) -> CliError {
    match format {
        Format::Json => failure_json(e, run),
        Format::Text | Format::Csv => e,
    }
}

/// Prints the [`FailureJson`] of `e` and gives `e` back (or the error of printing it).
fn failure_json(e: CliError, run: Option<(bool, Algorithm, String, &Board)>) -> CliError {
    let j = FailureJson {
        solvable: run.as_ref().map(|r| r.0),
        moves: None,
        error: e.to_string(),
        exit_code: e.exit_code(),
        limit: e.is_limit(),
        lower_bound: e.lower_bound(),
        algorithm: run.as_ref().map(|r| r.1.name()),
        heuristic: run.as_ref().map(|r| r.2.clone()),
        start: run.as_ref().map(|r| r.3.to_string()),
        version: crate::VERSION,
    };
    match super::emit_json(&j) {
        Ok(()) => e,
        Err(printing) => printing,
    }
}

/// How an answer is written: the move letters' notation, whether the numbered steps are
/// listed (`--steps`, text), and the run's conditions (JSON; filled in once it has run).
#[derive(Clone, Debug)]
pub(super) struct Writing {
    /// Blank or tile letters.
    pub(super) notation: Notation,
    /// List `1. slide 6 left` … before the boards.
    pub(super) steps: bool,
    /// `--why` explained the solvability verdict (an unsolvable board's note need not point
    /// to it).
    pub(super) why: bool,
    /// The settings, host and date, for the JSON object.
    pub(super) conditions: Option<Conditions>,
    /// What `auto` chose and built, and why, as said on stderr (JSON).
    pub(super) choices: Option<Vec<String>>,
}

/// `e`, the failure of the search or of `auto`'s switch to a stronger table, as the command
/// line reports it: a time limit as the user gave it (`deadline`'s seconds), a table or plan
/// through the `terminal`.
fn run_failure(e: RunError, deadline: Option<(Instant, f64)>, terminal: &Terminal) -> CliError {
    match (e, deadline) {
        (RunError::Search(SearchError::TimeLimit(_)), Some((_, secs))) => {
            SearchError::TimeLimit(secs).into()
        }
        (RunError::Search(e), _) => e.into(),
        (RunError::Heuristic(e), _) => terminal.error(e.into(), "--heuristic "),
        (RunError::Plan(e), _) => terminal.error(e, "--heuristic "),
    }
}

/// The request `opts` make: an answer, with their algorithm, heuristic, cache, memory cap and
/// batch size.
pub(super) fn request(opts: &SearchOpts) -> Request {
    Request {
        algorithm: opts.algorithm,
        heuristic: opts.heuristic.clone(),
        purpose: Purpose::Answer,
        cache_dir: opts.cache_dir.clone(),
        max_memory: opts.max_memory.as_u64(),
        batch_size: opts.batch_size,
        pdb_lookup: opts.counting.pdb_lookup(),
    }
}

pub(super) fn solve_and_print(
    start: Board,
    goal: Goal,
    opts: &SearchOpts,
    writing: Writing,
    all: Option<usize>,
    stated: Option<&StatedLength>,
) -> Result<u8, CliError> {
    let parity = Solvability::of(&start, &goal);
    // --time-limit covers building pattern databases and the search together.
    let mut limits = opts.limits()?;
    limits.all_solutions = all;
    // Counted from the command's start: reading the input is within the limit.
    let began = super::started();
    let deadline = limits
        .time_limit
        .and_then(|t| Some((began.checked_add(t)?, t.as_secs_f64())));
    // Unsolvable boards are answered before any database is built or GPU is opened. Batched
    // A*'s evaluator is opened first: `auto` picks the strongest heuristic it takes.
    let asked = opts.algorithm.resolve(start.len());
    if all.is_some() {
        match all_solutions_on(asked, opts) {
            Err(e) if opts.format == Format::Json => return fail_json(e, None),
            Err(e) => return Err(e),
            Ok(Some(cpu)) => return solve_and_print(start, goal, &cpu, writing, all, stated),
            Ok(None) => {}
        }
    }
    // A plan that could not be made: in JSON too, an object says why.
    let failed = |e: CliError, solvable: bool, algorithm: Algorithm, heuristic: String| {
        in_json(
            opts.format,
            e,
            Some((solvable, algorithm, heuristic, &start)),
        )
    };
    let terminal = Terminal::new(&opts.heuristic, deadline);
    let on_gpu = all.is_none() && crate::plan::uses_gpu(asked);
    let hardware = if on_gpu && parity.solvable {
        Hardware::open(opts.evaluator, asked, opts.gpu_invocations, &terminal).map_err(|e| {
            let e = terminal.error(e, "--heuristic ");
            failed(e, true, asked, opts.heuristic.to_string())
        })?
    } else {
        Hardware::cpu(1)
    };
    let chosen = if parity.solvable {
        crate::plan::choose(&request(opts), &start, &goal, &hardware, &terminal)
            .map_err(|e| terminal.error(e, "--heuristic "))
    } else {
        Ok(Chosen {
            algorithm: asked,
            heuristic: HeuristicSpec::Kind(HeuristicKind::LinearConflict),
        })
    };
    let chosen =
        chosen.map_err(|e| failed(e, parity.solvable, asked, opts.heuristic.to_string()))?;
    let (algorithm, heuristic) = (chosen.algorithm, chosen.heuristic.name().to_string());
    // What is left of the limit for the search (at least a millisecond, so that the limit
    // stays a limit).
    limits.time_limit = limits.time_limit.map(|t| {
        t.saturating_sub(began.elapsed())
            .max(std::time::Duration::from_millis(1))
    });
    note_unused_evaluator(
        !on_gpu && opts.evaluator != EvaluatorChoice::Auto,
        algorithm,
    );
    note_move_order(limits.move_order, algorithm, (limits.threads, "--jobs 1"));
    // On a fresh cache, `auto`'s quick table may give way to a stronger one mid-search.
    let switch = parity
        .solvable
        .then(|| crate::plan::upgrade::offer(&request(opts), algorithm, &chosen.heuristic, &goal))
        .flatten()
        .map(|u| crate::plan::upgrade::Switch::new(u, deadline.map(|d| d.0)));
    // An evaluator or device refused.
    let plan = chosen
        .open(&hardware, &goal, opts.batch_size, &terminal)
        .map_err(|e| {
            failed(
                terminal.error(e, "--heuristic "),
                true,
                algorithm,
                heuristic.clone(),
            )
        })?;
    crate::plan::load_pruning(algorithm, start.rows(), start.cols(), &limits, &terminal);
    let problem = Problem {
        start: start.clone(),
        goal: goal.clone(),
    };
    let rebuild = super::upgrade::Rebuild {
        terminal: &terminal,
        hardware: &hardware,
        request: &request(opts),
        deadline: deadline.map(|d| d.0),
    };
    let (plan, outcome, bound) = watched(plan, &problem, &limits, switch, &rebuild);
    let heuristic = plan.heuristic().name().to_string();
    // A time limit reads as the user gave it (the search had what the tables left of it).
    // A heuristic that overestimates proves no lower bound: its least f may pass the optimum.
    let bound = bound.filter(|_| plan.heuristic().is_admissible());
    let outcome = outcome.map_err(|e| run_failure(e, deadline, &terminal).bounded(bound));
    let outcome = outcome.map_err(|e| failed(e, parity.solvable, algorithm, heuristic))?;
    let writing = Writing {
        conditions: (opts.limits().ok())
            .map(|l| Conditions::of(&l).with_pdb_lookup(opts.counting.pdb_lookup())),
        choices: Some(terminal.chosen()),
        ..writing
    };
    let out = answer(&outcome, &start, &goal, &plan, &writing, all, opts.format)?;
    super::emit(out.trim_end_matches('\n'))?;
    let optimal = plan.guarantees_optimal();
    if !optimal && let Outcome::Solved(sol) = &outcome {
        crate::note!(
            "npuzzle: {} ({})",
            crate::search::gap_text(sol.moves.len(), stated.map(|s| s.moves)),
            not_optimal_why(&plan)
        );
    }
    Ok(exit_code(&outcome, stated, optimal))
}

/// Runs `plan` on `problem` within `limits` with a spinner on stderr, and under `auto`'s
/// `switch` to a stronger table when there is one ([`super::upgrade::search`], `rebuild`
/// saying how): the plan that answered, its outcome, and the lower bound the searches' reports
/// proved (for a limit's message).
fn watched(
    plan: Plan,
    problem: &Problem,
    limits: &crate::search::Limits,
    switch: Option<crate::plan::upgrade::Switch>,
    rebuild: &super::upgrade::Rebuild<'_>,
) -> (Plan, Result<Outcome, RunError>, Option<u32>) {
    let algorithm = plan.algorithm();
    let spinner = spinner(algorithm);
    let mut followed = Followed::default();
    let mut on_progress = |p: &Progress| {
        followed.see(p);
        spin(&spinner, algorithm, p);
    };
    let (plan, outcome) = super::upgrade::search(
        plan,
        problem,
        limits,
        switch,
        (&spinner, &mut on_progress),
        rebuild,
    );
    spinner.finish_and_clear();
    (plan, outcome, followed.lower_bound())
}

/// With `--all`: the options to count every optimal solution with `asked`: `None` when it
/// counts them itself, IDA*'s for GPU IDA* (its rounds stop at the first goal; said on
/// stderr).
///
/// # Errors
/// [`CliError::Usage`] for batched A*, which cannot count them.
fn all_solutions_on(asked: Algorithm, opts: &SearchOpts) -> Result<Option<SearchOpts>, CliError> {
    match asked {
        Algorithm::BatchedAStar => Err(CliError::Usage(
            "--all works with idastar, astar and bfs, not batched-astar".into(),
        )),
        Algorithm::GpuIdaStar => {
            crate::note!(
                "npuzzle: --all searches on the CPU: gpu-idastar's rounds stop at the first goal, so idastar counts them"
            );
            let mut cpu = opts.clone();
            cpu.algorithm = Algorithm::IdaStar;
            Ok(Some(cpu))
        }
        _ => Ok(None),
    }
}

/// The answer as `format` prints it (text or the JSON object), saying on stderr how the
/// search went (or why the board is unsolvable).
///
/// # Errors
/// Serializing the JSON.
fn answer(
    outcome: &Outcome,
    start: &Board,
    goal: &Goal,
    ran: &Plan,
    writing: &Writing,
    all: Option<usize>,
    format: Format,
) -> Result<String, CliError> {
    let notation = writing.notation;
    let parity = Solvability::of(start, goal);
    let mut out = String::new();
    match (outcome, format) {
        (Outcome::Unsolvable(v), Format::Text) => {
            writeln!(out, "No solution possible").ok();
            if all.is_some() {
                out.push_str(&all_solutions_text(&AllSolutions::none(), notation));
            }
            let why = if writing.why {
                ""
            } else {
                "; `npuzzle solve --why` explains"
            };
            crate::note!(
                "npuzzle: {}{}{why}",
                v.reason(),
                Solvability::other_goal_hint(start, goal)
            );
        }
        (Outcome::Solved(sol), Format::Text) => {
            let text = solution_text(start, &sol.moves, Some(notation), writing.steps);
            if ran.guarantees_optimal() {
                out.push_str(&text);
            } else {
                // Not "Minimum": the search does not prove it.
                let n = sol.moves.len();
                out.push_str(&text.replacen(
                    &format!("Minimum number of moves = {n}"),
                    &format!("Number of moves = {n} (not guaranteed optimal)"),
                    1,
                ));
            }
            if let Some(all) = &sol.all {
                out.push('\n');
                out.push_str(&all_solutions_text(all, notation));
            }
            note_solved(ran, sol);
        }
        // (`run` refuses csv.)
        (_, Format::Json | Format::Csv) => {
            let (sol, reason) = match outcome {
                Outcome::Solved(s) => (Some(s), parity.reason()),
                Outcome::Unsolvable(v) => (None, v.reason()),
            };
            if sol.is_none() {
                crate::note!(
                    "npuzzle: {reason}{}",
                    Solvability::other_goal_hint(start, goal)
                );
            }
            let run = RunInfo {
                algorithm: ran.algorithm(),
                heuristic: ran.heuristic().name().to_string(),
                evaluator: ran.evaluated(),
                adapter: ran.adapter(),
            };
            let solved = sol.map(|s| (s.moves.as_slice(), &s.stats));
            // An unsolvable board has no optimal solution: a count of 0, exact.
            let none = AllSolutions::none();
            let all = match sol {
                Some(s) => s.all.as_ref(),
                None => all.map(|_| &none),
            };
            let mut j = SolveJson::new(start, goal, &parity, solved, notation, &run)
                .with_all(all, notation);
            j.conditions = writing.conditions.clone();
            j.choices = writing.choices.clone();
            // One line, as every command's JSON (the app's saved file is pretty-printed).
            let s = serde_json::to_string(&j).map_err(|e| CliError::Other(format!("JSON: {e}")))?;
            writeln!(out, "{s}").ok();
        }
    }
    Ok(out)
}

/// The notes on stderr after a solve in text: the counts, and what the GPU (or batched A*'s
/// evaluator) did.
fn note_solved(ran: &Plan, sol: &crate::search::Solution) {
    let (algorithm, heuristic, evaluator_kind) =
        (ran.algorithm(), ran.heuristic(), ran.evaluated());
    crate::note!(
        "npuzzle: {algorithm}{}: {} expanded, {} generated, {:.3} s",
        if algorithm == Algorithm::Bfs {
            String::new()
        } else {
            format!(" + {}", heuristic.name())
        },
        sol.stats.expanded,
        sol.stats.generated,
        sol.stats.seconds
    );
    if algorithm == Algorithm::GpuIdaStar && evaluator_kind == Evaluated::Gpu {
        if sol.stats.rounds == 0 {
            crate::note!(
                "npuzzle: the host's search of the top of the tree reached the goal before any round on the GPU (a small tree)"
            );
        } else {
            crate::note!(
                "npuzzle: {} rounds on the gpu, {:.0} nodes/s",
                sol.stats.rounds,
                sol.stats.expanded as f64 / sol.stats.seconds.max(1e-9)
            );
        }
    } else if algorithm == Algorithm::GpuIdaStar {
        crate::note!("npuzzle: gpu-idastar searched on the CPU (IDA* on the same tree)");
    }
    if algorithm == Algorithm::BatchedAStar {
        crate::note!(
            "npuzzle: {} rounds, {} boards evaluated on the {evaluator_kind} in {:.3} s",
            sol.stats.rounds,
            sol.stats.evaluated,
            sol.stats.eval_seconds
        );
    }
}

/// The exit code of a solve that answered: 1 when the file states a length the answer
/// contradicts (said on stderr, as `bench`'s), 3 when a limit cut the count of all optimal
/// solutions short (the solution shown is optimal; the count is a lower bound), else 0.
///
/// An answer that is not guaranteed optimal (`optimal` false) contradicts a stated length only
/// when it is shorter (a longer one is the gap, said by the caller).
fn exit_code(outcome: &Outcome, stated: Option<&StatedLength>, optimal: bool) -> u8 {
    // A length the file states that the answer contradicts: the answer stands (it is
    // optimal), the file or its goal is wrong, and the exit code says so (as `bench`'s).
    let found = match outcome {
        Outcome::Solved(sol) => Some(sol.moves.len()),
        Outcome::Unsolvable(_) => None,
    };
    let found = match (found, stated) {
        (Some(m), Some(s)) if !optimal && m > s.moves => Some(s.moves),
        _ => found,
    };
    if StatedLength::check(stated, found) != 0 {
        return 1;
    }
    // A limit that cut the count of all solutions short: the answer stands, the count is a
    // lower bound, and the exit code says a limit was reached.
    if let Outcome::Solved(sol) = outcome
        && let Some(all) = &sol.all
        && all.cut_by_limit()
    {
        crate::note!(
            "npuzzle: a limit stopped the count of optimal solutions: {} exist (the solution shown is optimal)",
            crate::report::solutions_count(all)
        );
        return 3;
    }
    0
}

/// Why `plan`'s answer may not be optimal, for the line on stderr: "greedy orders by h
/// alone: no bound on the length", "overestimating-manhattan overestimates: …".
fn not_optimal_why(plan: &Plan) -> String {
    let a = plan.algorithm();
    let h = plan.heuristic();
    match (a.weight(), a.is_optimal()) {
        _ if !h.is_admissible() => format!(
            "{} overestimates: {a} with it is not guaranteed optimal",
            h.name()
        ),
        (Some(w), false) => format!("{a} with w = {w}: at most {w} times the optimum"),
        (None, false) => format!("{a} orders by h alone: no bound on the length"),
        _ => String::new(),
    }
}
