//! `npuzzle compare`: the boards of a file solved with each heuristic (for one board a table
//! of initial h, nodes, seconds, effective branching factor and length; for several, a table
//! per heuristic over all of them: `boards.rs`), or the textbook experiment over random boards
//! at chosen optimal depths (`--size 3x3 --depths 2,4,…`: `experiment.rs`).

mod boards;
mod experiment;

use std::str::FromStr;

#[cfg(feature = "gui")]
pub(crate) use boards::csv_text as board_csv;
#[cfg(feature = "gui")]
pub(crate) use experiment::csv_text as experiment_csv;

use clap::Args;

use super::{CliError, Format, goal_flag, parse_memory, parse_size, resolve_goal};
use crate::heuristic::HeuristicChoice;
use crate::puzzle::Goal;
use crate::puzzle::parse::parse_puzzles;
use crate::search::measure::{Method, default_methods};
use crate::search::{Algorithm, BfsGoalTest, Limits, TieBreak, default_max_memory};

/// `npuzzle compare …`
#[derive(Args, Debug)]
pub(super) struct CompareArgs {
    /// Board file or bench file (or - for stdin): one board, or several compared over all
    /// of them. Omit it and give --size for the depth experiment.
    file: Option<std::path::PathBuf>,
    /// The search each heuristic runs: astar or idastar (bfs is listed among the heuristics);
    /// to contrast, greedy or weighted-astar (not optimal; their rows say so, with the gap).
    #[arg(long, default_value = "astar", value_parser = parse_algorithm)]
    algorithm: Algorithm,
    /// Weighted A*'s w, 1 to 10 in tenths (default 2), for weighted-astar (--algorithm or a
    /// `weighted-astar+HEURISTIC` item).
    #[arg(long, value_name = "W", value_parser = crate::search::Weight::from_str)]
    weight: Option<crate::search::Weight>,
    /// Comma-separated heuristics, `bfs` for breadth-first search (default: bfs on boards of
    /// up to 10 cells, every plain heuristic that takes the board, and the pattern databases
    /// that are cached or quick to build). An item `ALGORITHM+HEURISTIC` runs another search
    /// than --algorithm's: `greedy+manhattan`, `weighted-astar+linear-conflict`, `idastar+pdb8`.
    /// overestimating-manhattan (twice Manhattan) overestimates: its answers are not optimal.
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
    /// The experiment's A* tie-break among open boards of equal f: high-g (highest g first,
    /// the default), low-g (lowest g first) or fifo (first in, first out).
    #[arg(long, value_name = "RULE", value_parser = parse_tie_break)]
    tie_break: Option<TieBreak>,
    /// When the experiment's BFS tests a board for the goal: generate (when it is generated,
    /// the default, as Russell & Norvig's breadth-first search) or expand (when it is taken
    /// from the queue, as A* does).
    #[arg(long, value_name = "WHEN", value_parser = parse_goal_test)]
    bfs_goal_test: Option<BfsGoalTest>,
    /// Output format: text, json (one object per board and search, then one per search over
    /// all boards; one per depth and search in the experiment), csv (the same rows with a
    /// header row; the summary table goes to stderr).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    #[command(flatten)]
    counting: super::args::CountingOpts,
}

fn parse_tie_break(s: &str) -> Result<TieBreak, String> {
    s.parse()
        .map_err(|e: crate::search::UnknownTieBreak| e.to_string())
}

fn parse_goal_test(s: &str) -> Result<BfsGoalTest, String> {
    s.parse()
        .map_err(|e: crate::search::UnknownGoalTest| e.to_string())
}

fn parse_algorithm(s: &str) -> Result<Algorithm, super::ArgError> {
    match s.parse::<Algorithm>()? {
        a @ (Algorithm::AStar
        | Algorithm::IdaStar
        | Algorithm::Greedy
        | Algorithm::WeightedAStar(_)) => Ok(a),
        a => Err(super::ArgError::NotForCompare(a)),
    }
}

pub(super) fn run(a: &CompareArgs) -> Result<u8, CliError> {
    match compare(a) {
        Err(e) if a.format == Format::Json => super::json_failure(e, &[]),
        r => r,
    }
}

fn compare(a: &CompareArgs) -> Result<u8, CliError> {
    let limit = super::time_limit(a.time_limit)?;
    weighted_in(a)?;
    let limits = Limits {
        time_limit: Some(limit),
        max_memory: a.max_memory.as_u64(),
        cache_dir: crate::heuristic::pdb::cache::PdbCache::folder(a.cache_dir.clone()),
        move_order: a.counting.move_order,
        tie_break: a.tie_break.unwrap_or_default(),
        bfs_goal_test: a.bfs_goal_test.unwrap_or_default(),
        ..Limits::default()
    };
    super::solve::note_move_order(a.counting.move_order, a.algorithm, (1, "--jobs 1"));
    let flag = goal_flag(a.goal.as_deref())?;
    match (&a.file, a.size) {
        (Some(_), None) if a.tie_break.is_some() || a.bfs_goal_test.is_some() => {
            Err(CliError::Usage(
                "--tie-break and --bfs-goal-test are the depth experiment's (--size RxC); a \
                 board file is compared with the defaults"
                    .into(),
            ))
        }
        (Some(file), None) => {
            // Read within the time limit too (a pipe that never ends).
            let (source, text) = super::read_input_within(file, Some(limit))?;
            let instances = parse_puzzles(&text, &source, None)?;
            let goals: Vec<Goal> = instances
                .iter()
                .map(|i| {
                    let line = i.named_goal().map(|n| (n, source.as_str()));
                    resolve_goal(flag.as_ref(), line, i.board.rows(), i.board.cols())
                })
                .collect::<Result<_, _>>()?;
            let boards = boards::Boards {
                source: &source,
                instances: &instances,
                goals: &goals,
            };
            boards::compare(a, &boards, &limits)
        }
        (None, Some((rows, cols))) => {
            let goal = resolve_goal(flag.as_ref(), None, rows, cols)?;
            experiment::run(a, &goal, &limits)
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
    for item in names {
        if item.eq_ignore_ascii_case("bfs") {
            out.push(Method::Bfs);
            continue;
        }
        let (algorithm, name) = match item.split_once('+') {
            Some((algo, name)) => {
                let algo = parse_algorithm(algo.trim())
                    .map_err(|e| CliError::Usage(format!("--heuristics {item}: {e}")))?;
                (
                    super::args::with_weight(algo, None)?,
                    name.trim().to_string(),
                )
            }
            None => (a.algorithm, item.clone()),
        };
        let algorithm = match (algorithm, a.weight) {
            (Algorithm::WeightedAStar(_), Some(w)) => Algorithm::WeightedAStar(w),
            (x, _) => x,
        };
        let choice: HeuristicChoice = name
            .parse()
            .map_err(|e| CliError::Usage(format!("--heuristics {name}: {e}; or bfs")))?;
        let heuristic = super::terminal::load_heuristic(
            choice,
            algorithm,
            goal,
            a.cache_dir.clone(),
            a.max_memory.as_u64(),
            a.counting.pdb_lookup(),
            "--heuristics ",
        )?
        .heuristic;
        if !heuristic.is_admissible() {
            crate::note!(
                "npuzzle: warning: {} overestimates (not admissible): {algorithm} with it may return a path longer than the optimum",
                heuristic.name()
            );
        }
        out.push(Method::informed(algorithm, heuristic));
    }
    Ok(out)
}

/// `--algorithm` with `--weight` applied; a `--weight` with neither `--algorithm
/// weighted-astar` nor a `weighted-astar+…` item is a usage error.
fn weighted_in(a: &CompareArgs) -> Result<Algorithm, CliError> {
    let named = a
        .heuristics
        .as_deref()
        .is_some_and(|l| l.to_ascii_lowercase().contains("weighted-astar+"));
    match (a.algorithm, a.weight) {
        (Algorithm::WeightedAStar(_), Some(w)) => Ok(Algorithm::WeightedAStar(w)),
        (x, Some(_)) if !named => super::args::with_weight(x, a.weight),
        (x, _) => Ok(x),
    }
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
