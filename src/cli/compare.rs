//! `npuzzle compare`: one board solved with each heuristic (a table of initial h, nodes,
//! seconds, effective branching factor and length), or the textbook experiment over random
//! boards at chosen optimal depths (`--size 3x3 --depths 2,4,…`).

use std::fmt::Write as _;
use std::time::Duration;

use clap::Args;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use super::{
    CliError, Format, StatedLength, goal_flag, parse_memory, parse_size, read_instance,
    resolve_goal,
};
use crate::heuristic::HeuristicChoice;
use crate::puzzle::{Board, Goal, Solvability};
use crate::report::group_digits;
use crate::search::measure::{
    DepthRow, DepthTable, Measure, Method, TEXTBOOK_DEPTHS, default_methods, depth_experiment,
    measure,
};
use crate::search::{Algorithm, Limits, Problem, default_max_memory};

/// `npuzzle compare …`
#[derive(Args, Debug)]
pub(super) struct CompareArgs {
    /// Board file (or - for stdin). Omit it and give --size for the depth experiment.
    file: Option<std::path::PathBuf>,
    /// The search each heuristic runs: astar or idastar (bfs is listed among the heuristics).
    #[arg(long, default_value = "astar", value_parser = parse_algorithm)]
    algorithm: Algorithm,
    /// Comma-separated heuristics, `bfs` for breadth-first search (default: bfs on boards of
    /// up to 10 cells, every plain heuristic that takes the board, and the pattern databases
    /// that are cached or quick to build).
    #[arg(long, value_name = "LIST")]
    heuristics: Option<String>,
    /// Seconds each search may take (a stopped one shows its counts at the stop); reading the
    /// board from a pipe or terminal may take as long.
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 10.0,
        allow_negative_numbers = true
    )]
    time_limit: f64,
    /// Memory cap of each BFS and A* search, e.g. 1GiB (default: half the memory available,
    /// at most 4 GiB).
    #[arg(long, value_name = "SIZE", default_value_t = bytesize::ByteSize(default_max_memory()), value_parser = parse_memory)]
    max_memory: bytesize::ByteSize,
    /// Goal: blank-last, blank-first, or a goal board file [default: the goal the board's
    /// bench line names, else blank-last].
    #[arg(long)]
    goal: Option<String>,
    /// Pattern-database cache folder (default: $NPUZZLE_CACHE_DIR, else the user's cache folder).
    #[arg(long, value_name = "DIR", value_parser = super::parse_cache_dir)]
    pub(super) cache_dir: Option<std::path::PathBuf>,
    /// The depth experiment's board size, RxC of at most 10 cells (3x3, 2x5, …).
    #[arg(long, value_name = "RxC", value_parser = parse_size)]
    size: Option<(usize, usize)>,
    /// The experiment's optimal depths, comma-separated (default 2,4,…,24).
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    depths: Option<Vec<u32>>,
    /// Boards drawn at each depth.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 20,
        allow_negative_numbers = true
    )]
    samples: usize,
    /// Seed of the experiment's draws (the same seed draws the same boards).
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    seed: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

fn parse_algorithm(s: &str) -> Result<Algorithm, super::ArgError> {
    match s.parse::<Algorithm>()? {
        a @ (Algorithm::AStar | Algorithm::IdaStar) => Ok(a),
        a => Err(super::ArgError::NotForCompare(a)),
    }
}

pub(super) fn run(a: &CompareArgs) -> Result<u8, CliError> {
    match compare(a) {
        // Scripts reading JSON always get an object, as from `solve` and `bench`.
        Err(e) if a.format == Format::Json && !matches!(e, CliError::Closed) => {
            let j = serde_json::json!({
                "error": e.to_string(),
                "exit_code": e.exit_code(),
                "version": crate::VERSION,
            });
            super::emit(&serde_json::to_string_pretty(&j).unwrap_or_default())?;
            Err(e)
        }
        r => r,
    }
}

fn compare(a: &CompareArgs) -> Result<u8, CliError> {
    if !(a.time_limit.is_finite() && a.time_limit > 0.0 && a.time_limit < 1e9) {
        return Err(CliError::Usage(format!(
            "--time-limit must be a positive number of seconds, got {}",
            a.time_limit
        )));
    }
    let limits = Limits {
        time_limit: Some(Duration::from_secs_f64(a.time_limit)),
        max_memory: a.max_memory.as_u64(),
        cache_dir: crate::heuristic::pdb::cache::PdbCache::folder(a.cache_dir.clone()),
        ..Limits::default()
    };
    let flag = goal_flag(a.goal.as_deref())?;
    match (&a.file, a.size) {
        (Some(file), None) => {
            // Read within the time limit too (a pipe that never ends).
            let limit = Duration::from_secs_f64(a.time_limit);
            let (source, inst) = read_instance(file, None, Some(limit))?;
            let line = inst.named_goal().map(|n| (n, source.as_str()));
            let (rows, cols) = (inst.board.rows(), inst.board.cols());
            let goal = resolve_goal(flag.as_ref(), line, rows, cols)?;
            let methods = methods(a, &goal)?;
            let stated = StatedLength::of(&inst, &source);
            one_board(a, &inst.board, &goal, &methods, &limits, stated.as_ref())
        }
        (None, Some((rows, cols))) => {
            let goal = resolve_goal(flag.as_ref(), None, rows, cols)?;
            experiment(a, &goal, &limits)
        }
        (Some(_), Some(_)) => Err(CliError::Usage(
            "give a board file, or --size for the depth experiment, not both".into(),
        )),
        (None, None) => Err(CliError::Usage(
            "give a board file to compare heuristics on, or --size RxC (with --depths, \
             --samples) for the depth experiment"
                .into(),
        )),
    }
}

/// The methods to compare: `--heuristics` (each loaded or built, `bfs` as BFS), or the default
/// list for the board.
fn methods(a: &CompareArgs, goal: &Goal) -> Result<Vec<Method>, CliError> {
    let names: Vec<String> = match &a.heuristics {
        Some(list) => split_list(list),
        None => default_methods(goal, a.cache_dir.clone())
            .into_iter()
            .map(|m| m.map_or_else(|| "bfs".to_string(), |c| c.to_string()))
            .collect(),
    };
    if names.is_empty() {
        return Err(CliError::Usage("--heuristics is empty".into()));
    }
    let mut out = Vec::new();
    for name in names {
        if name.eq_ignore_ascii_case("bfs") {
            out.push(Method::Bfs);
            continue;
        }
        let choice: HeuristicChoice = name
            .parse()
            .map_err(|e| CliError::Usage(format!("--heuristics {name}: {e}; or bfs")))?;
        let heuristic = super::terminal::load_heuristic(
            choice,
            a.algorithm,
            goal,
            a.cache_dir.clone(),
            a.max_memory.as_u64(),
            "--heuristics ",
        )?
        .heuristic;
        out.push(Method::informed(a.algorithm, heuristic));
    }
    Ok(out)
}

/// Splits a comma-separated list, keeping `pdb:4,4` whole (a number after a `pdb:` item is
/// one of its sizes).
fn split_list(list: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        match out.last_mut() {
            Some(last)
                if last.to_ascii_lowercase().starts_with("pdb:")
                    && item.bytes().all(|b| b.is_ascii_digit()) =>
            {
                last.push(',');
                last.push_str(item);
            }
            _ => out.push(item.to_string()),
        }
    }
    out
}

#[derive(Serialize)]
struct BoardJson<'a> {
    start: String,
    goal: &'a str,
    solvable: bool,
    time_limit: f64,
    /// The optimal length when every search that finished agrees, else null.
    moves: Option<u32>,
    /// Whether every search that finished found the same length.
    lengths_agree: bool,
    results: &'a [Measure],
    /// npuzzle's version and the commit it was built from ([`crate::VERSION`]).
    version: &'static str,
}

fn one_board(
    a: &CompareArgs,
    start: &Board,
    goal: &Goal,
    methods: &[Method],
    limits: &Limits,
    stated: Option<&StatedLength>,
) -> Result<u8, CliError> {
    let verdict = Solvability::of(start, goal);
    let problem = Problem {
        start: start.clone(),
        goal: goal.clone(),
    };
    if a.format == Format::Text {
        super::emit(&format!(
            "Comparing on the {}×{} board {start} (goal {}), at most {} s each:",
            start.rows(),
            start.cols(),
            goal.name(),
            a.time_limit
        ))?;
        if !verdict.solvable {
            super::emit(&verdict.no_solution())?;
            return Ok(StatedLength::check(stated, None));
        }
        super::emit(&header())?;
    }
    let mut results = Vec::new();
    if verdict.solvable {
        for m in methods {
            let r = measure(&problem, m, limits);
            if a.format == Format::Text {
                super::emit(&row(&r))?;
            }
            results.push(r);
        }
    }
    let lengths: Vec<u32> = results.iter().filter_map(|r| r.moves).collect();
    let agree = lengths.windows(2).all(|w| w[0] == w[1]);
    let moves = lengths.first().copied().filter(|_| agree);
    match a.format {
        Format::Text => {
            let stopped = results.iter().filter(|r| r.moves.is_none()).count();
            let mut line = match (moves, agree) {
                (Some(m), true) => format!("Every search found {m} moves: all are optimal."),
                (None, true) => "No search finished.".to_string(),
                _ => format!("The lengths differ ({lengths:?}): a bug, please report it."),
            };
            if stopped > 0 {
                let _ = write!(line, " {stopped} stopped at a limit.");
            }
            super::emit(&line)?;
        }
        Format::Json => {
            let j = BoardJson {
                start: start.to_string(),
                goal: goal.name(),
                solvable: verdict.solvable,
                time_limit: a.time_limit,
                moves,
                lengths_agree: agree,
                results: &results,
                version: crate::VERSION,
            };
            super::emit(&serde_json::to_string_pretty(&j).unwrap_or_default())?;
        }
    }
    if !agree {
        return Ok(1);
    }
    Ok(match (verdict.solvable, moves) {
        (true, Some(m)) => StatedLength::check(stated, Some(m as usize)),
        (false, _) => StatedLength::check(stated, None),
        (true, None) => 0,
    })
}

fn header() -> String {
    format!(
        "{:<8} {:<16} {:>4} {:>13} {:>13} {:>9} {:>7} {:>6}",
        "search", "heuristic", "h0", "expanded", "generated", "seconds", "b*", "moves"
    )
}

fn row(r: &Measure) -> String {
    let b = r.branching.map_or("-".to_string(), |b| format!("{b:.3}"));
    let moves = match (&r.moves, &r.error) {
        (Some(m), _) => m.to_string(),
        (None, Some(e)) => format!("- ({e})"),
        (None, None) => "-".into(),
    };
    format!(
        "{:<8} {:<16} {:>4} {:>13} {:>13} {:>9.3} {:>7} {:>6}",
        r.algorithm,
        r.heuristic,
        r.initial_h,
        group_digits(r.expanded),
        group_digits(r.generated),
        r.seconds,
        b,
        moves
    )
}

#[derive(Serialize)]
struct ExperimentJson<'a> {
    size: String,
    goal: &'a str,
    samples: usize,
    seed: u64,
    rows: &'a [DepthRow],
    /// npuzzle's version and the commit it was built from ([`crate::VERSION`]).
    version: &'static str,
}

fn experiment(a: &CompareArgs, goal: &Goal, limits: &Limits) -> Result<u8, CliError> {
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
    let mut rng = ChaCha8Rng::seed_from_u64(a.seed);
    let text = a.format == Format::Text;
    if text {
        super::emit(&format!(
            "Mean nodes expanded (and effective branching factor b*) over {} random {}×{} boards \
             at each optimal depth d, seed {}:",
            a.samples,
            b.rows(),
            b.cols(),
            a.seed
        ))?;
        let mut h = format!("{:>3} {:>6}", "d", "boards");
        for m in &methods {
            let name = match m {
                Method::Bfs => "bfs".to_string(),
                m => format!("{}({})", m.algorithm(), m.name()),
            };
            let _ = write!(h, " {name:>24}");
        }
        super::emit(&h)?;
    }
    let mut emitted: Result<(), CliError> = Ok(());
    let rows = depth_experiment(
        &table,
        &depths,
        a.samples,
        &methods,
        limits,
        &mut rng,
        &mut |r| {
            if text && emitted.is_ok() {
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
                emitted = super::emit(&line);
            }
        },
    )?;
    emitted?;
    match a.format {
        Format::Text => {
            if rows
                .iter()
                .any(|r| r.methods.iter().any(|c| c.solved < r.boards))
            {
                super::emit(
                    "* some boards stopped at --time-limit; the mean is over those solved",
                )?;
            }
        }
        Format::Json => {
            let j = ExperimentJson {
                size: format!("{}x{}", b.rows(), b.cols()),
                goal: goal.name(),
                samples: a.samples,
                seed: a.seed,
                rows: &rows,
                version: crate::VERSION,
            };
            super::emit(&serde_json::to_string_pretty(&j).unwrap_or_default())?;
        }
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::split_list;

    #[test]
    fn lists_keep_pattern_sizes_whole() {
        assert_eq!(
            split_list("bfs, manhattan,pdb:4,4,hamming,pdb:3,3,2"),
            ["bfs", "manhattan", "pdb:4,4", "hamming", "pdb:3,3,2"]
        );
        assert_eq!(split_list(" , "), Vec::<String>::new());
    }
}
