//! `npuzzle generate`.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use super::{CliError, CsvLines, Format, GenerateArgs, emit, emit_json, flag_goal};
use crate::puzzle::random::{random_solvable, random_walk};

/// One board, as `--format json` (a line each) and `--format csv` (a row each) print it.
#[derive(Serialize)]
struct Generated<'a> {
    /// 1, 2, … in the order drawn.
    id: usize,
    /// The board, one-line format.
    board: String,
    /// The goal it can reach.
    goal: &'a str,
    /// The seed of the draw (`--seed`, or the one drawn): the same seed makes the same boards.
    seed: u64,
    /// `--walk`'s moves from the goal; null for a uniform draw.
    walk: Option<usize>,
    /// npuzzle's version and the commit it was built from ([`crate::VERSION`]).
    version: &'static str,
}

pub(super) fn run(a: &GenerateArgs) -> Result<u8, CliError> {
    match generate(a) {
        // Scripts reading JSON always get an object, as from the other commands.
        Err(e) if a.format == Format::Json && !matches!(e, CliError::Closed) => {
            let j = serde_json::json!({
                "error": e.to_string(),
                "exit_code": e.exit_code(),
                "version": crate::VERSION,
            });
            emit_json(&j)?;
            Err(e)
        }
        r => r,
    }
}

/// Draws and prints the boards `a` asks for.
fn generate(a: &GenerateArgs) -> Result<u8, CliError> {
    let (rows, cols) = a.size;
    let goal = flag_goal(&a.goal, rows, cols)?;
    let seed = a.seed.unwrap_or_else(|| {
        let seed = rand::random();
        // So that the boards can be made again.
        crate::note!("npuzzle: seed {seed} (--seed {seed} makes these boards again)");
        seed
    });
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut csv = CsvLines::default();
    for id in 1..=a.count {
        let b = match a.walk {
            Some(k) => random_walk(&goal, k, &mut rng),
            None => random_solvable(&goal, &mut rng),
        };
        let record = || Generated {
            id,
            board: b.to_string(),
            goal: goal.name(),
            seed,
            walk: a.walk,
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
