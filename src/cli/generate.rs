//! `npuzzle generate`.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::{CliError, GenerateArgs, flag_goal};
use crate::puzzle::random::{random_solvable, random_walk};

pub(super) fn run(a: &GenerateArgs) -> Result<u8, CliError> {
    let (rows, cols) = a.size;
    let goal = flag_goal(&a.goal, rows, cols)?;
    let seed = a.seed.unwrap_or_else(|| {
        let seed = rand::random();
        // So that the boards can be made again.
        crate::note!("npuzzle: seed {seed} (--seed {seed} makes these boards again)");
        seed
    });
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..a.count {
        let b = match a.walk {
            Some(k) => random_walk(&goal, k, &mut rng),
            None => random_solvable(&goal, &mut rng),
        };
        super::emit(&b.to_string())?;
    }
    Ok(0)
}
