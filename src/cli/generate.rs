//! `npuzzle generate`.

use std::time::Instant;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use super::terminal::Terminal;
use super::{CliError, CsvLines, Format, GenerateArgs, emit, emit_json, flag_goal};
use crate::heuristic::HeuristicChoice;
use crate::plan::{Hardware, Plan, Purpose, Request};
use crate::puzzle::Goal;
use crate::puzzle::random::{random_solvable, random_walk};
use crate::search::at_depth::{
    AtDepth, Ended, Found, STALL, Sampling, Stopped, boards_at_depth, check_depth,
};
use crate::search::measure::DepthTable;
use crate::search::{Algorithm, Limits, Outcome, Problem, SearchError};

/// One board, as `--format json` (a line each) and `--format csv` (a row each) print it.
#[derive(Serialize)]
struct Generated<'a> {
    /// 1, 2, … in the order drawn: a string, as `bench` and `compare` print a file's ids.
    id: String,
    /// The board, one-line format.
    board: String,
    /// The goal it can reach.
    goal: &'a str,
    /// The seed of the draw (`--seed`, or the one drawn): the same seed makes the same boards.
    seed: u64,
    /// `--walk`'s moves from the goal; null for a uniform draw and for `--optimal`.
    walk: Option<usize>,
    /// `--optimal`'s D: the board's optimal solution length (as `bench` and `compare` name
    /// a file's stated length); null otherwise.
    optimal: Option<u32>,
    /// npuzzle's version and the commit it was built from ([`crate::VERSION`]).
    version: &'static str,
}

pub(super) fn run(a: &GenerateArgs) -> Result<u8, CliError> {
    match generate(a) {
        Err(e) if a.format == Format::Json => super::json_failure(e, &[]),
        r => r,
    }
}

/// Draws and prints the boards `a` asks for.
fn generate(a: &GenerateArgs) -> Result<u8, CliError> {
    let (rows, cols) = a.size;
    let goal = flag_goal(&a.goal, rows, cols)?;
    if let Some(depth) = a.optimal {
        return optimal(a, goal, depth);
    }
    let seed = seed(a.seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut csv = CsvLines::default();
    for id in 1..=a.count {
        let b = match a.walk {
            Some(k) => random_walk(&goal, k, &mut rng),
            None => random_solvable(&goal, &mut rng),
        };
        let record = || Generated {
            id: id.to_string(),
            board: b.to_string(),
            goal: goal.name(),
            seed,
            walk: a.walk,
            optimal: None,
            version: crate::VERSION,
        };
        match a.format {
            Format::Text => emit(&b.to_string())?,
            Format::Json => emit_json(&record())?,
            Format::Csv => csv.emit(&record())?,
        }
    }
    Ok(0)
}

/// `found`, `--optimal`'s boards `depth` moves from `goal` drawn with `seed`, printed as
/// `format` says: a bench file for text, a record a board for JSON and CSV.
fn print_at_depth(
    format: Format,
    goal: &Goal,
    depth: u32,
    seed: u64,
    found: &[AtDepth],
) -> Result<(), CliError> {
    if format == Format::Text {
        for line in bench_lines(goal, depth, found) {
            emit(&line)?;
        }
        return Ok(());
    }
    let mut csv = CsvLines::default();
    for x in found {
        let record = Generated {
            id: x.id.to_string(),
            board: x.board.to_string(),
            goal: goal.name(),
            seed,
            walk: None,
            optimal: Some(x.length),
            version: crate::VERSION,
        };
        match format {
            Format::Csv => csv.emit(&record)?,
            _ => emit_json(&record)?,
        }
    }
    Ok(())
}

/// `seed`, or a random one said on stderr (so that the boards can be made again).
fn seed(seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(|| {
        let seed = rand::random();
        crate::note!("npuzzle: seed {seed} (--seed {seed} makes these boards again)");
        seed
    })
}

/// `generate --optimal D`: `a.count` boards exactly `depth` moves from `goal`, printed as a
/// bench file; those found before the time limit when it stops them (exit 3).
fn optimal(a: &GenerateArgs, goal: Goal, depth: u32) -> Result<u8, CliError> {
    let time_limit = a.time_limit.map(super::time_limit).transpose()?;
    let table = DepthTable::new(&goal);
    check_depth(&goal, depth, table.as_ref()).map_err(|e| CliError::Usage(e.to_string()))?;
    let seed = seed(a.seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let deadline = time_limit.and_then(|t| super::started().checked_add(t));
    // Planned at the first candidate: a depth enumerated exactly needs no search.
    let mut solver: Option<Solver> = None;
    let mut unplanned: Option<CliError> = None;
    let spinner = indicatif::ProgressBar::new_spinner();
    let began = Instant::now();
    let mut last = Sampling::default();
    let mut show = |s: &Sampling| {
        last = *s;
        spinner.set_message(format!(
            "{}/{} boards at {depth} moves · {} candidates solved · walks of {} moves · {:.1} s",
            s.found,
            a.count,
            s.solved,
            s.walk,
            began.elapsed().as_secs_f64()
        ));
        spinner.tick();
    };
    let mut solve = |b: &crate::puzzle::Board| {
        if solver.is_none() {
            match Solver::new(&goal, a.cache_dir.clone(), deadline) {
                Ok(s) => solver = Some(s),
                Err(e) => {
                    unplanned = Some(e);
                    return Err(SearchError::Cancelled);
                }
            }
        }
        solver
            .as_mut()
            .map_or(Err(SearchError::Cancelled), |s| s.length(b))
    };
    let found = boards_at_depth(
        &goal,
        depth,
        a.count,
        &mut rng,
        table.as_ref(),
        &mut solve,
        &mut show,
    );
    spinner.finish_and_clear();
    if let Some(e) = unplanned {
        return Err(e);
    }
    if last.solved > 0 {
        crate::note!(
            "npuzzle: {} candidates solved in {:.1} s (walks of {} moves at the end)",
            last.solved,
            began.elapsed().as_secs_f64(),
            last.walk
        );
    }
    let (found, ended, stopped) = match found {
        Ok(Found { boards, ended }) => (boards, ended, None),
        Err(Stopped { found, error }) => (found, Ended::Count, Some(error)),
    };
    print_at_depth(a.format, &goal, depth, seed, &found)?;
    match ended {
        Ended::Count => {}
        Ended::AllFound => crate::note!(
            "npuzzle: only {} {} of this shape {} {depth} {} from the goal",
            found.len(),
            if found.len() == 1 { "board" } else { "boards" },
            if found.len() == 1 { "is" } else { "are" },
            if depth == 1 { "move" } else { "moves" },
        ),
        Ended::Stalled => crate::note!(
            "npuzzle: stopped after {STALL} candidates in a row brought no new board {depth} \
             moves from the goal: {} of the {} asked for (there may be no more)",
            found.len(),
            a.count
        ),
    }
    match (stopped, a.time_limit) {
        // The limit as the user gave it (the search had what was left of it).
        (Some(SearchError::TimeLimit(_)), Some(secs)) => {
            Err(CliError::Limit(SearchError::TimeLimit(secs)))
        }
        (Some(e), _) => Err(CliError::from(e)),
        (None, _) => Ok(0),
    }
}

/// The boards as a bench file ([`crate::puzzle::parse`]'s format): a comment saying what they
/// are, the `# goal:` line when the goal has a name, then `id t0 … tN D` a board.
pub(super) fn bench_lines(goal: &Goal, depth: u32, boards: &[AtDepth]) -> Vec<String> {
    let b = goal.board();
    let mut lines = vec![format!(
        "# {} {}×{} {} exactly {depth} {} from the goal (npuzzle generate --optimal {depth}){}",
        boards.len(),
        b.rows(),
        b.cols(),
        if boards.len() == 1 { "board" } else { "boards" },
        if depth == 1 { "move" } else { "moves" },
        if b.rows() == b.cols() {
            String::new()
        } else {
            format!("; bench them with --size {}x{}", b.rows(), b.cols())
        }
    )];
    if matches!(goal.name(), "blank-last" | "blank-first") {
        lines.push(format!("# goal: {}", goal.name()));
    }
    lines.extend(boards.iter().map(|x| {
        let tiles: Vec<String> = x.board.tiles().iter().map(|t| t.to_string()).collect();
        format!("{} {} {}", x.id, tiles.join(" "), x.length)
    }));
    lines
}

/// Solves candidates optimally: `auto`'s algorithm and heuristic for the shape (planned once,
/// tables built or loaded with notes on stderr), within the time limit.
struct Solver {
    plan: Plan,
    goal: Goal,
    limits: Limits,
    deadline: Option<Instant>,
}

impl Solver {
    fn new(
        goal: &Goal,
        cache_dir: Option<std::path::PathBuf>,
        deadline: Option<Instant>,
    ) -> Result<Solver, CliError> {
        let request = Request {
            algorithm: Algorithm::Auto,
            heuristic: HeuristicChoice::Auto,
            purpose: Purpose::Answer,
            cache_dir: cache_dir.clone(),
            max_memory: crate::search::default_max_memory(),
            batch_size: crate::search::DEFAULT_BATCH_SIZE,
            pdb_lookup: Default::default(),
        };
        let limit = deadline.map(|d| (d, d.duration_since(super::started()).as_secs_f64()));
        let terminal = Terminal::new(&request.heuristic, limit);
        let hardware = Hardware::cpu(1);
        let plan = crate::plan::choose(&request, goal.board(), goal, &hardware, &terminal)
            .and_then(|c| c.open(&hardware, goal, request.batch_size, &terminal))
            .map_err(|e| terminal.error(e, "--heuristic "))?;
        Ok(Solver {
            plan,
            goal: goal.clone(),
            limits: Limits {
                cache_dir: crate::heuristic::pdb::cache::PdbCache::folder(cache_dir),
                ..Limits::default()
            },
            deadline,
        })
    }

    /// `board`'s optimal length.
    fn length(&mut self, board: &crate::puzzle::Board) -> Result<u32, SearchError> {
        let limits = Limits {
            time_limit: self
                .deadline
                .map(|d| d.saturating_duration_since(Instant::now())),
            ..self.limits.clone()
        };
        if limits.time_limit.is_some_and(|t| t.is_zero()) {
            return Err(SearchError::TimeLimit(0.0));
        }
        let problem = Problem {
            start: board.clone(),
            goal: self.goal.clone(),
        };
        match self.plan.run(&problem, None, &limits, &mut |_| {})? {
            Outcome::Solved(s) => Ok(s.moves.len() as u32),
            Outcome::Unsolvable(_) => Err(SearchError::BadSolution(format!(
                "{board} cannot reach the goal, yet a walk from it made it"
            ))),
        }
    }
}
