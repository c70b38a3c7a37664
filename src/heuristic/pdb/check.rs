//! Cheap invariants a pattern table read from disk must keep, beyond its checksum: a file whose
//! checksum was forged (or recomputed over bad data) must not make a search run for ever or
//! return a longer path than the optimum.
//!
//! For a table of `k` tiles on `n` cells built by [`super::builder`] (blank moves free, pattern
//! moves cost 1):
//! - the goal placement's entry is 0 and no other entry is (any other placement needs a move);
//! - no entry is the builder's "unseen" 255 unless `k = n − 1` (then the other half of the
//!   placements, of the other parity, is unreachable);
//! - an entry is at least the Manhattan distance of its pattern's tiles (each tile moves at
//!   least that far, one move at a time);
//! - a reachable entry `d > 0` has a neighbouring placement (one pattern tile moved one cell into
//!   a cell no pattern tile holds) whose entry is at most `d − 1`: the placement before the last
//!   pattern move of an optimal abstract path.
//!
//! The first two are checked over every entry, the last two on a fixed sample of placements.

use super::PatternTable;

/// The builder's mark of a placement it never reached.
const UNSEEN: u8 = u8::MAX;
/// Placements whose Manhattan bound and neighbour are checked.
const SAMPLES: u64 = 4096;

/// Checks `table` (pattern tiles `table.tiles()` on a `rows × cols` board) against the goal
/// board `goal` (row-major, `0` = blank).
///
/// # Errors
/// What does not hold, in words.
pub(super) fn table_is_plausible(
    table: &PatternTable,
    rows: usize,
    cols: usize,
    goal: &[u8],
) -> Result<(), String> {
    let n = rows * cols;
    let tiles = table.tiles();
    let k = tiles.len();
    let bytes = table.bytes();
    let mut home = Vec::with_capacity(k);
    for &t in tiles {
        match goal.iter().position(|&g| g == t) {
            Some(c) => home.push(c as u8),
            None => return Err(format!("tile {t} is not on the goal board")),
        }
    }
    let goal_index = table.index(&home);
    if bytes[goal_index] != 0 {
        return Err(format!(
            "the goal placement's entry is {}, not 0",
            bytes[goal_index]
        ));
    }
    let (zeros, unseen) = bytes.chunks(1 << 16).fold((0u64, 0u64), |(z, u), c| {
        let z2 = c.iter().map(|&b| u64::from(b == 0)).sum::<u64>();
        let u2 = c.iter().map(|&b| u64::from(b == UNSEEN)).sum::<u64>();
        (z + z2, u + u2)
    });
    if zeros != 1 {
        return Err(format!(
            "{zeros} entries are 0, but only the goal placement is"
        ));
    }
    if unseen > 0 && k + 1 < n {
        return Err(format!(
            "{unseen} entries are unreached (255), but every placement is reachable"
        ));
    }
    let len = bytes.len() as u64;
    let step = (len / SAMPLES).max(1);
    let mut pos = vec![0u8; k];
    for s in 0..len.min(SAMPLES) {
        // A fixed, spread-out sample: every step-th placement, shifted so as not to sit on
        // the same prefix each time.
        let index = (s * step + s % step.max(1)) % len;
        let d = bytes[index as usize];
        if d == UNSEEN || d == 0 {
            continue;
        }
        table.positions(index as usize, &mut pos);
        let md: u32 = pos
            .iter()
            .zip(&home)
            .map(|(&p, &h)| {
                let (p, h) = (usize::from(p), usize::from(h));
                ((p / cols).abs_diff(h / cols) + (p % cols).abs_diff(h % cols)) as u32
            })
            .sum();
        if u32::from(d) < md {
            return Err(format!(
                "placement {index} has entry {d}, below its tiles' Manhattan distance {md}"
            ));
        }
        let mut lower = false;
        'tiles: for i in 0..k {
            let c = usize::from(pos[i]);
            let (r, col) = (c / cols, c % cols);
            let near = [
                (r > 0).then(|| c - cols),
                (r + 1 < rows).then(|| c + cols),
                (col > 0).then(|| c - 1),
                (col + 1 < cols).then(|| c + 1),
            ];
            for to in near.into_iter().flatten() {
                if pos.contains(&(to as u8)) {
                    continue;
                }
                pos[i] = to as u8;
                let e = bytes[table.index(&pos)];
                pos[i] = c as u8;
                if e < d {
                    lower = true;
                    break 'tiles;
                }
            }
        }
        if !lower {
            return Err(format!(
                "placement {index} has entry {d}, but no placement one move away has less"
            ));
        }
    }
    Ok(())
}
