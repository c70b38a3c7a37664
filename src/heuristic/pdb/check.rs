//! Cheap invariants a pattern table read from disk must keep, beyond its checksum: they catch
//! gross corruption behind a valid checksum (a file filled with one value, garbage, another
//! table's bytes), which would make a search run for ever. A few entries changed by a small
//! amount can pass a sampled check; the checksum is what guards against accidents.
//!
//! For a table of `k` tiles on `n` cells built by [`super::builder`] (blank moves free, pattern
//! moves cost 1):
//! - the goal placement's value is 0 and no other entry's is (any other placement needs a
//!   move); values are the entries without their region flags ([`super::regions`]), and no
//!   entry has both flags (one of the blank's regions is always of least depth);
//! - no entry is the builder's "unseen" 255 when `k ≤ n − 3`; with `k = n − 1` exactly half
//!   are (the placements of the other parity); with `k = n − 2` the one free tile and the blank
//!   keep the puzzle's parity too, so some are, and their number is not checked;
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

/// An invariant a table read from disk breaks (see the module documentation).
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum Implausible {
    /// A pattern tile the goal board does not have.
    #[error("tile {0} is not on the goal board")]
    TileNotOnGoal(u8),
    /// The goal placement's value is not 0.
    #[error("the goal placement's value is {0}, not 0")]
    GoalNotZero(u8),
    /// Entries with both region flags.
    #[error("{0} entries have both region flags, which no placement has")]
    BothFlags(u64),
    /// Entries of value 0 other than the goal's.
    #[error("{0} entries are 0, but only the goal placement is")]
    Zeros(u64),
    /// Unreached entries where every placement is reachable.
    #[error("{0} entries are unreached (255), but every placement is reachable")]
    Unreached(u64),
    /// Unreached entries other than half of them, where half are.
    #[error("{0} entries are unreached (255), but exactly half of the placements are")]
    NotHalfUnreached(u64),
    /// An entry below its tiles' Manhattan distance.
    #[error("placement {index} has entry {d}, below its tiles' Manhattan distance {md}")]
    BelowManhattan {
        /// The placement's index.
        index: u64,
        /// Its entry.
        d: u8,
        /// Its tiles' Manhattan distance.
        md: u32,
    },
    /// An entry with no neighbour below it.
    #[error("placement {index} has entry {d}, but no placement one move away has less")]
    NoLowerNeighbour {
        /// The placement's index.
        index: u64,
        /// Its entry.
        d: u8,
    },
}

/// Checks `table` (pattern tiles `table.tiles()` on a `rows × cols` board) against the goal
/// board `goal` (row-major, `0` = blank); `counts` are its entries whose value is 0, those
/// that are 255, and those with both region flags, from [`count_zero_and_unseen`].
///
/// # Errors
/// What does not hold: an [`Implausible`].
pub(super) fn table_is_plausible(
    table: &PatternTable,
    rows: usize,
    cols: usize,
    goal: &[u8],
    (zeros, unseen, both): (u64, u64, u64),
) -> Result<(), Implausible> {
    let n = rows * cols;
    let tiles = table.tiles();
    let k = tiles.len();
    let bytes = table.bytes();
    let mask = table.value_mask();
    let mut home = Vec::with_capacity(k);
    for &t in tiles {
        match goal.iter().position(|&g| g == t) {
            Some(c) => home.push(c as u8),
            None => return Err(Implausible::TileNotOnGoal(t)),
        }
    }
    let goal_index = table.index(&home);
    if bytes[goal_index] & mask != 0 {
        return Err(Implausible::GoalNotZero(bytes[goal_index] & mask));
    }
    if table.regions() && both > 0 {
        return Err(Implausible::BothFlags(both));
    }
    if zeros != 1 {
        return Err(Implausible::Zeros(zeros));
    }
    if unseen > 0 && k + 3 <= n {
        return Err(Implausible::Unreached(unseen));
    }
    if k + 1 == n && unseen != bytes.len() as u64 / 2 {
        return Err(Implausible::NotHalfUnreached(unseen));
    }
    let len = bytes.len() as u64;
    let step = (len / SAMPLES).max(1);
    let mut pos = vec![0u8; k];
    for s in 0..len.min(SAMPLES) {
        // A fixed, spread-out sample: every step-th placement, shifted so as not to sit on
        // the same prefix each time.
        let index = (s * step + s % step.max(1)) % len;
        let d = bytes[index as usize];
        if d == UNSEEN || d & mask == 0 {
            continue;
        }
        let d = d & mask;
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
            return Err(Implausible::BelowManhattan { index, d, md });
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
                let e = bytes[table.index(&pos)] & mask;
                pos[i] = c as u8;
                if e < d {
                    lower = true;
                    break 'tiles;
                }
            }
        }
        if !lower {
            return Err(Implausible::NoLowerNeighbour { index, d });
        }
    }
    Ok(())
}

/// How many bytes have no bit of `mask` (values 0), how many are [`UNSEEN`] and how many have
/// both region flags (0xc0, counted only when `mask` leaves them out), in one pass that the
/// compiler turns into vector compares (byte counters per lane, emptied every 255 blocks): a
/// 577 MB table in well under a tenth of a second.
pub(super) fn count_zero_and_unseen(bytes: &[u8], mask: u8) -> (u64, u64, u64) {
    const LANES: usize = 64;
    const BOTH: u8 = 0xc0;
    let both_bits = !mask & BOTH;
    let (mut zeros, mut unseen, mut both) = (0u64, 0u64, 0u64);
    for run in bytes.chunks(255 * LANES) {
        let (mut z, mut u, mut f) = ([0u8; LANES], [0u8; LANES], [0u8; LANES]);
        let blocks = run.chunks_exact(LANES);
        let rest = blocks.remainder();
        for block in blocks {
            for i in 0..LANES {
                z[i] += u8::from(block[i] & mask == 0);
                u[i] += u8::from(block[i] == UNSEEN);
                f[i] += u8::from(both_bits != 0 && block[i] & BOTH == BOTH);
            }
        }
        zeros += z.iter().map(|&c| u64::from(c)).sum::<u64>();
        unseen += u.iter().map(|&c| u64::from(c)).sum::<u64>();
        both += f.iter().map(|&c| u64::from(c)).sum::<u64>();
        zeros += rest.iter().filter(|&&b| b & mask == 0).count() as u64;
        unseen += rest.iter().filter(|&&b| b == UNSEEN).count() as u64;
        both += rest
            .iter()
            .filter(|&&b| both_bits != 0 && b & BOTH == BOTH)
            .count() as u64;
    }
    (zeros, unseen, both)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::GoalSpec;

    #[test]
    fn every_true_table_is_plausible_and_a_uniform_one_is_not() {
        // k = n − 1 (half unreached), k = n − 2 (some unreached), smaller; both goals, a
        // rectangle.
        for (rows, cols, tiles) in [
            (3, 3, &[1u8, 2, 3, 4, 5, 6, 7, 8][..]),
            (3, 3, &[1, 2, 3, 4, 5, 6, 7]),
            (3, 3, &[2, 5, 8]),
            (2, 3, &[1, 2, 3, 4]),
            (2, 4, &[1, 3, 5]),
        ] {
            for spec in [GoalSpec::BlankLast, GoalSpec::BlankFirst] {
                let goal = spec.resolve(rows, cols).unwrap();
                let t =
                    crate::heuristic::pdb::builder::build_table(&goal, tiles, 0, 1 << 30, &|_| {
                        true
                    })
                    .unwrap();
                let b = goal.board().tiles();
                let counts = count_zero_and_unseen(t.bytes(), t.value_mask());
                table_is_plausible(&t, rows, cols, b, counts)
                    .unwrap_or_else(|e| panic!("{rows}×{cols} {tiles:?} {spec:?}: {e}"));
                // The same table with every reached entry but the goal's set to one value.
                let forged: Vec<u8> = t
                    .bytes()
                    .iter()
                    .map(|&e| {
                        if e & t.value_mask() == 0 || e == UNSEEN {
                            e
                        } else {
                            40
                        }
                    })
                    .collect();
                let f = PatternTable::from_parts(tiles.to_vec(), rows * cols, forged)
                    .unwrap()
                    .with_regions(t.regions());
                let counts = count_zero_and_unseen(f.bytes(), f.value_mask());
                assert!(table_is_plausible(&f, rows, cols, b, counts).is_err());
                // The true table with one entry given both region flags.
                if t.regions() {
                    let mut forged = t.bytes().to_vec();
                    let i = forged.iter().position(|&e| e & 0x3f > 1).unwrap();
                    forged[i] |= 0xc0;
                    let f = PatternTable::from_parts(tiles.to_vec(), rows * cols, forged)
                        .unwrap()
                        .with_regions(true);
                    let counts = count_zero_and_unseen(f.bytes(), f.value_mask());
                    assert!(table_is_plausible(&f, rows, cols, b, counts).is_err());
                }
            }
        }
    }

    #[test]
    fn counts_zeros_and_unseen_bytes_at_any_length() {
        for len in [0usize, 1, 63, 64, 65, 255 * 64, 255 * 64 + 1, 100_000] {
            let bytes: Vec<u8> = (0..len).map(|i| (i * 7 % 256) as u8).collect();
            let want = (
                bytes.iter().filter(|&&b| b == 0).count() as u64,
                bytes.iter().filter(|&&b| b == 255).count() as u64,
            );
            assert_eq!(
                super::count_zero_and_unseen(&bytes, 0xff),
                (want.0, want.1, 0),
                "{len}"
            );
            let values = bytes.iter().filter(|&&b| b & 0x3f == 0).count() as u64;
            let both = bytes.iter().filter(|&&b| b & 0xc0 == 0xc0).count() as u64;
            assert_eq!(
                super::count_zero_and_unseen(&bytes, 0x3f),
                (values, want.1, both),
                "{len}"
            );
        }
    }
}
