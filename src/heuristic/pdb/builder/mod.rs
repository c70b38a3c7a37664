//! Building a pattern table: a breadth-first search backwards from the goal over the abstract
//! space of (cells of the pattern tiles, cell of the blank), where the other tiles are
//! indistinguishable (Korf & Felner 2002, section 4; Felner, Korf & Hanan 2004, section 3).
//!
//! Moving the blank through cells not occupied by pattern tiles costs 0 (those are moves of
//! other tiles); moving a pattern tile costs 1. So the blank's position only matters up to its
//! *region*: the connected set of free cells it is in. A state is a (placement, region) pair,
//! and the table keeps, for every placement, the smallest depth over its regions.
//!
//! Layout, chosen so the 7-8 partition of the 15-puzzle builds in bounded memory (no
//! frontier list, no per-state array): per placement one *lane* of 16, 32 or 64 bits, packed
//! into atomic 64-bit words (`lanes.rs`), holding
//! - its depth in the low byte (`UNSEEN` until reached): the table being built;
//! - above it, one bit per free cell (free cells numbered in increasing order, `n − k` bits)
//!   marking the regions reached so far.
//!
//! Layer `d` expands every placement whose depth is `d` (all its reached regions then have
//! depth `d`), and the *late* regions of depth `d`: new regions of placements first reached
//! earlier, listed by the previous layer (placement index and one free cell of the region). A
//! late region is never found for a placement being expanded in the same layer: on a grid every
//! move of a pattern tile changes that tile's Manhattan distance by one, so all regions of a
//! placement have depths of one parity, and a region of depth `d + 1` belongs to a placement
//! whose depth differs from `d` by an odd number (checked in debug builds). Every write of a
//! layer stores the same depth, so the result does not depend on the schedule. Layers are
//! scanned eight depth bytes at a time and expanded in parallel chunks (rayon, `layers.rs`); a
//! child's index comes from its parent's (`placement.rs`), and the children of several
//! expansions are gathered, their lanes prefetched, before any is looked at (`expand.rs`).
//!
//! Once the placements not reached yet are few next to the frontier (after the peak layer),
//! the search turns *bottom-up* (Beamer, Asanović & Patterson, SC 2012; `pull.rs`): a layer then
//! checks each region not reached yet for a reached neighbour, stopping at the first, instead of
//! expanding the frontier; it needs no list of late regions either. A layer whose late regions
//! outgrow their list (a fifth of the lanes' bytes) is followed by bottom-up layers too.
//!
//! A pattern that a reflection of the board (or its half turn) maps onto itself, together
//! with the blank's goal region (the 8-tile pattern of the 7-8 partition with the blank first:
//! left to right), is searched up to that symmetry (`symmetry.rs`): only one placement of each
//! mirror pair is expanded or pulled, and each depth found is written to both.
//!
//! Most of the time goes to arithmetic on cell bit sets (decoding an index, flooding a region,
//! numbering free cells), so the inner loops are generic over the bit operations (`bits.rs`)
//! and compiled in three forms on x86-64: for BMI2 (`pdep` / `pext`, picked at run time where
//! the processor runs them fast), for POPCNT, and portable (the only one elsewhere). The lanes
//! live in transparent huge pages (`madvise`). At the end the depth bytes are packed to the
//! front of the lanes' memory in place, in parallel.
//!
//! Peak memory for `k` tiles on `n` cells: at most `P(n, k) · (lane bytes · 7/5 + 1/4)` (the
//! lanes, two layers' lists and the region flags, [`build_memory`]).
//!
//! The blank-region flags ([`regions`](super::regions)) of a placement are set from its lane
//! when its regions reached so far are exactly those of least depth: when a top-down layer
//! expands it (the layer of its own depth), or when a bottom-up layer pulls it two layers
//! after the one that reached it (a placement's other regions are at least two deeper, and
//! the layer in between writes only lanes of the other parity); a mirror image's flags come
//! from its canonical placement's regions, mapped.
//!
//! The `unsafe` code of the builder is in `crate::memory` (`madvise`) and `bits.rs` (the BMI2 /
//! POPCNT intrinsics and the calls into the functions compiled for them).

mod bits;
mod expand;
mod lanes;
mod layers;
mod placement;
mod pull;
mod symmetry;

use bits::Isa;
use lanes::Lanes;
use symmetry::Sym;

use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

use super::regions::Flood;
use super::{PatternTable, PdbError, placements};
use crate::puzzle::{Goal, Move, move_target};

/// A build step, for progress bars: pattern number, BFS depth reached, entries filled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildProgress {
    /// 0-based pattern number within the partition.
    pub pattern: usize,
    /// Depth (moves of pattern tiles) of the layer just finished.
    pub depth: u32,
    /// Table entries filled so far.
    pub filled: u64,
    /// Table entries in all.
    pub total: u64,
}

/// Bits per placement while building `k` tiles on `cells` cells: the depth byte and one bit
/// per free cell, rounded up to 16, 32 or 64.
fn lane_bits(cells: usize, k: usize) -> u32 {
    match cells - k {
        0..=8 => 16,
        9..=24 => 32,
        _ => 64,
    }
}

/// Bytes a build of `k` tiles on `cells` cells needs at its peak, at most: a lane of
/// `lane_bits` per placement and two layers' lists of late regions, each at most a fifth of
/// the lanes, and two bits per placement for the region flags (1.58 · 10⁹ for the 8-tile
/// pattern of the 15-puzzle).
pub fn build_memory(cells: usize, k: usize) -> u64 {
    let p = placements(cells, k);
    p * u64::from(lane_bits(cells, k)) / 8 * 7 / 5 + p.div_ceil(4)
}

/// Builds the table of `tiles` for `goal`, reporting each BFS layer to `progress`, which
/// returns `false` to stop the build. Uses the rayon pool.
///
/// # Errors
/// [`PdbError::BadPattern`] when the board has more than 32 cells, the pattern is empty or
/// holds the blank; [`PdbError::TooManyPlacements`] when the table would have 2³² entries or
/// more; [`PdbError::TooBig`] when the build would need more than `max_memory` bytes;
/// [`PdbError::Cancelled`] when `progress` stopped it; [`PdbError::Memory`] when the table's
/// memory cannot be mapped.
pub fn build_table(
    goal: &Goal,
    tiles: &[u8],
    pattern: usize,
    max_memory: u64,
    progress: &(dyn Fn(&BuildProgress) -> bool + Sync),
) -> Result<PatternTable, PdbError> {
    let n = goal.board().len();
    let k = tiles.len();
    if n > 32 || k == 0 || k >= n || tiles.contains(&0) || tiles.iter().any(|&t| t as usize >= n) {
        return Err(PdbError::BadPattern { tiles: k, cells: n });
    }
    if placements(n, k) > u64::from(u32::MAX) {
        return Err(PdbError::TooManyPlacements {
            tiles: k,
            cells: n,
            placements: placements(n, k),
        });
    }
    let need = build_memory(n, k);
    if need > max_memory {
        return Err(PdbError::TooBig {
            tiles: k,
            cells: n,
            need,
            cap: max_memory,
        });
    }
    // The system may have less than the cap (a `ulimit -v`, a cgroup): refused up front, as
    // the build's working memory is not all fallible. A quarter more and 64 MiB of room for
    // what the estimate leaves out (threads, the allocator's arenas, the saving).
    if let Some(available) = crate::memory::available()
        && need + need / 4 + (64 << 20) > available
    {
        return Err(PdbError::Memory(std::io::Error::new(
            std::io::ErrorKind::OutOfMemory,
            format!(
                "the build needs {} and room besides, but the system leaves this process {}",
                bytesize::ByteSize(need).display().iec(),
                bytesize::ByteSize(available).display().iec()
            ),
        )));
    }
    let refused = |e: std::collections::TryReserveError| {
        PdbError::Memory(std::io::Error::new(std::io::ErrorKind::OutOfMemory, e))
    };
    let (table, regions) = match lane_bits(n, k) {
        16 => Builder::<16>::new(goal, tiles)
            .map_err(refused)?
            .run(pattern, progress),
        32 => Builder::<32>::new(goal, tiles)
            .map_err(refused)?
            .run(pattern, progress),
        _ => Builder::<64>::new(goal, tiles)
            .map_err(refused)?
            .run(pattern, progress),
    }
    .ok_or(PdbError::Cancelled)?
    .map_err(PdbError::Memory)?;
    Ok(PatternTable::from_bytes(tiles.to_vec(), n, table)?.with_regions(regions))
}

/// Builds every pattern of a partition, one after the other (each build is parallel).
///
/// # Errors
/// As [`build_table`], for the first pattern that fails.
pub fn build_partition(
    goal: &Goal,
    patterns: &[Vec<u8>],
    max_memory: u64,
    progress: &(dyn Fn(&BuildProgress) -> bool + Sync),
) -> Result<Vec<PatternTable>, PdbError> {
    patterns
        .iter()
        .enumerate()
        .map(|(i, p)| build_table(goal, p, i, max_memory, progress))
        .collect()
}

/// Not reached yet.
const UNSEEN: u8 = u8::MAX;

/// Children gathered before they are looked at (their loads overlap).
const BATCH: usize = 48;

/// The most parents one batch of children may have (the parent's number has 6 bits).
const PARENTS: usize = 64;

/// Placements scanned per parallel work item (a multiple of 64).
const CHUNK: usize = 1 << 15;

/// One build: the pattern's geometry and index weights, the lanes, and the schedule's settings.
struct Builder<const B: u32> {
    k: usize,
    total: usize,
    /// Index weights `P(n−1−i, k−1−i)`.
    weights: [u32; 16],
    /// `⌊(2⁶⁴ − 1) / weights[i]⌋`, to divide by multiplying.
    recips: [u64; 16],
    /// Slots whose digits `Builder::decode` keeps from one placement to the next (`k / 2`).
    prefix: usize,
    /// Neighbour cells of each cell, as a bit set.
    nbr_bits: [u32; 32],
    /// Cells whose row + column is odd, and the number of pattern tiles on them at the start
    /// (mod 2): a placement's depth has the parity of the pattern tiles on odd cells.
    odd_cells: u32,
    start_parity: u32,
    /// The region mask of a placement whose free cells are all reached.
    full: u32,
    /// Tests only: every layer bottom-up.
    pull_always: bool,
    /// Board width.
    cols: u32,
    /// All cells, as a bit set.
    all: u32,
    /// Depth and reached regions of every placement.
    lanes: Lanes<B>,
    /// Free cells per placement (`n − k`): late regions are listed as `idx · free + cell`.
    free: u64,
    /// Whether listed late regions need 64 bits.
    wide: bool,
    /// The most late regions one layer may list (a fifth of the lanes' bytes); a layer that
    /// finds more is followed by pull layers, which need no list.
    list_cap: u64,
    start: Vec<u8>,
    start_blank: usize,
    /// The form of the bit operations.
    isa: Isa,
    /// The symmetry the search uses, if the pattern has one.
    sym: Option<Box<Sym>>,
    /// Per placement two bits: its region flags ([`regions`](super::regions)), set when the
    /// placement's regions of least depth are known (see the module's notes), four
    /// placements a byte.
    flags: Vec<AtomicU8>,
    /// Flooding the board's free cells (regions, and the flags they give).
    flood_cells: Flood,
}

impl<const B: u32> Builder<B> {
    /// # Errors
    /// When the system refuses the memory of the lanes or the flags.
    fn new(goal: &Goal, tiles: &[u8]) -> Result<Self, std::collections::TryReserveError> {
        let b = goal.board();
        let (rows, cols, n) = (b.rows(), b.cols(), b.len());
        let k = tiles.len();
        let total = placements(n, k) as usize;
        let mut weights = [0u32; 16];
        for (i, w) in weights.iter_mut().enumerate().take(k.min(16)) {
            *w = placements(n - 1 - i, k - 1 - i) as u32;
        }
        let mut nbr_bits = [0u32; 32];
        for (c, bits) in nbr_bits.iter_mut().enumerate().take(n) {
            for m in Move::ALL {
                if let Some(t) = move_target(rows, cols, c, m) {
                    *bits |= 1 << t;
                }
            }
        }
        let odd_cells = (0..n)
            .filter(|c| (c / cols + c % cols) % 2 == 1)
            .fold(0u32, |m, c| m | 1 << c);
        let start: Vec<u8> = tiles.iter().map(|&t| goal.position_of(t) as u8).collect();
        let wide = total as u64 * (n - k) as u64 > u64::from(u32::MAX);
        let mut builder = Builder {
            odd_cells,
            start_parity: start.iter().filter(|&&c| odd_cells >> c & 1 == 1).count() as u32 & 1,
            full: ((1u64 << (n - k)) - 1) as u32,
            cols: cols as u32,
            k,
            total,
            weights,
            recips: weights.map(|w| u64::MAX / u64::from(w.max(1))),
            prefix: k / 2,
            nbr_bits,
            all: if n == 32 { u32::MAX } else { (1u32 << n) - 1 },
            lanes: Lanes::new(total)?,
            free: (n - k) as u64,
            wide,
            pull_always: false,
            list_cap: total as u64 * u64::from(B) / 8 / 5 / if wide { 8 } else { 4 },
            start,
            start_blank: b.blank(),
            isa: Isa::detect(),
            sym: None,
            flags: {
                let mut flags = Vec::new();
                flags.try_reserve_exact(total.div_ceil(4))?;
                flags.extend((0..total.div_ceil(4)).map(|_| AtomicU8::new(0)));
                flags
            },
            flood_cells: Flood::new(rows, cols),
        };
        let occ = builder.start.iter().fold(0u32, |m, &c| m | 1 << c);
        let region = builder.flood(occ, builder.start_blank as u32);
        builder.sym = Sym::find(rows, cols, &builder.start, region);
        Ok(builder)
    }
}

impl<const B: u32> Builder<B> {
    /// Records the region flags of the placement at `idx`, whose free cells are `free` and
    /// whose regions of least depth cover the cells `least`.
    #[inline(always)]
    fn set_flags(&self, idx: usize, free: u32, least: u32) {
        let f = self.flood_cells.flags(free, least) >> 6;
        if f != 0 {
            self.flags[idx / 4].fetch_or(f << (2 * (idx % 4)), Relaxed);
        }
    }

    /// Whether a table with depths up to `max_depth` carries the region flags: every depth
    /// fits in six bits, and the pattern leaves three free cells or more (so that every
    /// placement is reached, and no entry is the builder's 255).
    fn flagged(&self, max_depth: u8) -> bool {
        max_depth <= super::regions::VALUE_BITS && self.free >= 3
    }
}

/// Puts the region flags (two bits per placement, four placements a byte) into the high bits
/// of the table's bytes.
fn add_flags(table: &mut [u8], flags: &[AtomicU8]) {
    use rayon::prelude::*;
    table
        .par_chunks_mut(4)
        .zip(flags.par_iter())
        .for_each(|(bytes, f)| {
            let f = f.load(Relaxed);
            for (j, b) in bytes.iter_mut().enumerate() {
                *b |= (f >> (2 * j) & 3) << 6;
            }
        });
}

/// A work item of a layer.
enum Item {
    /// Late regions listed by the previous layer.
    Late(LateList),
    /// A chunk of `CHUNK` placements (its number).
    Chunk(usize),
}

/// Late regions listed by one work item, as `idx · (n − k) + free-cell number`.
#[derive(Default)]
struct LateList {
    narrow: Vec<u32>,
    wide: Vec<u64>,
}

impl LateList {
    fn len(&self) -> usize {
        self.narrow.len() + self.wide.len()
    }
}

/// A worker's buffers: the children gathered (`flags << 48 | index << 16 | parent << 10 | c
/// << 5 | m`: the tile on cell `m` moved to cell `c`, all as seen in the child's canonical
/// form, see [`Sym`]), the index of the non-canonical one of each child and its mirror image
/// (filled in when the child is reached), and their parents' free cells
/// (as they are, and mirrored); mirror images reached, to be filled in; the placement being
/// decoded and its mirror image; the late regions found.
struct Scratch {
    kids: Vec<u64>,
    others: Vec<u32>,
    frees: Vec<[u32; 2]>,
    fills: symmetry::Fills,
    dec: placement::Decoded,
    mirror: placement::Decoded,
    late: LateList,
}

impl Default for Scratch {
    fn default() -> Self {
        Scratch {
            kids: Vec::with_capacity(2 * BATCH),
            frees: Vec::with_capacity(PARENTS),
            others: Vec::with_capacity(2 * BATCH),
            fills: symmetry::Fills {
                ring: [0; symmetry::FILLS],
                n: 0,
            },
            dec: placement::Decoded::default(),
            mirror: placement::Decoded::default(),
            late: LateList::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::GoalSpec;

    /// The table built with the builder's default schedule, and with every layer bottom-up,
    /// with 64-bit late lists, with no room for late lists (bottom-up after the first late
    /// region), and with each form of the bit operations this processor runs: all must be
    /// equal. (`tests/pdb.rs` checks the default against an
    /// independent breadth-first search.)
    ///
    /// Returns for how many of the two goals the pattern has a symmetry ([`Sym`]); the
    /// tables built without it must be equal too.
    fn schedules_agree<const B: u32>(rows: usize, cols: usize, tiles: &[u8]) -> usize {
        let mut symmetric = 0;
        for spec in [GoalSpec::BlankLast, GoalSpec::BlankFirst] {
            let goal = spec.resolve(rows, cols).unwrap();
            let build = |tune: &dyn Fn(&mut Builder<B>)| {
                let mut b = Builder::<B>::new(&goal, tiles).expect("memory for a test table");
                assert_eq!(lane_bits(rows * cols, tiles.len()), B);
                tune(&mut b);
                let (table, flagged) = b.run(0, &|_| true).unwrap().unwrap();
                (table.to_vec(), flagged)
            };
            let default = build(&|_| {});
            // Every placement is reached, but for a pattern of all tiles only those of the
            // goal's permutation parity (half).
            let mask = crate::heuristic::pdb::regions::value_mask(default.1);
            let unseen = default.0.iter().filter(|&&v| v == UNSEEN).count();
            let want = if tiles.len() + 1 == rows * cols {
                default.0.len() / 2
            } else {
                0
            };
            assert_eq!(
                unseen, want,
                "{rows}×{cols} {tiles:?} placements not reached"
            );
            // Only the goal placement has depth 0.
            assert_eq!(default.0.iter().filter(|&&v| v & mask == 0).count(), 1);
            assert_eq!(
                build(&|b| b.pull_always = true),
                default,
                "{rows}×{cols} {tiles:?} bottom-up"
            );
            assert_eq!(
                build(&|b| b.wide = true),
                default,
                "{rows}×{cols} {tiles:?} wide lists"
            );
            assert_eq!(
                build(&|b| b.list_cap = 0),
                default,
                "{rows}×{cols} {tiles:?} no lists"
            );
            if Builder::<B>::new(&goal, tiles)
                .expect("memory for a test table")
                .sym
                .is_some()
            {
                symmetric += 1;
                assert_eq!(
                    build(&|b| b.sym = None),
                    default,
                    "{rows}×{cols} {tiles:?} without symmetry"
                );
                assert_eq!(
                    build(&|b| {
                        b.sym = None;
                        b.pull_always = true;
                    }),
                    default,
                    "{rows}×{cols} {tiles:?} bottom-up without symmetry"
                );
            }
            for isa in Isa::all() {
                assert_eq!(
                    build(&|b| b.isa = isa),
                    default,
                    "{rows}×{cols} {tiles:?} {isa:?}"
                );
            }
        }
        symmetric
    }

    #[test]
    fn every_schedule_builds_the_same_table() {
        assert_eq!(schedules_agree::<16>(3, 3, &[1, 2, 3, 4]), 0);
        assert_eq!(schedules_agree::<16>(3, 4, &[2, 5, 7, 8, 11]), 0);
        assert_eq!(schedules_agree::<32>(4, 4, &[1, 6, 11]), 2);
        assert_eq!(schedules_agree::<64>(5, 6, &[3, 14, 28]), 0);
        assert_eq!(schedules_agree::<64>(4, 8, &[3, 17]), 0);
        // With a symmetry:
        // - about a diagonal: all tiles of the 8-puzzle (both goals); a 2×2 square of a
        //   4×4 board (blank last: the other diagonal);
        // - top to bottom: one column of a 2×7 board, splitting it in two (both goals);
        // - left to right (blank first): cells 9, 10, 13, 14 of a 4×4 board, as in the
        //   8-tile pattern of the 7-8 partition; 10, 12, 14 of a 3×5 board; 11, 12, 16, 23
        //   of a 4×8 board.
        assert_eq!(schedules_agree::<16>(3, 3, &[1, 2, 3, 4, 5, 6, 7, 8]), 2);
        assert_eq!(schedules_agree::<32>(2, 7, &[4, 11]), 2);
        assert_eq!(schedules_agree::<32>(4, 4, &[9, 10, 13, 14]), 2);
        assert_eq!(schedules_agree::<32>(3, 5, &[10, 12, 14]), 1);
        assert_eq!(schedules_agree::<64>(4, 8, &[11, 12, 16, 23]), 1);
        // Cells 1, 2, 3, 7, 12 of a 3×5 board (blank first): the tiles map onto themselves
        // left to right, but the blank's region ({0, 5, 6, 10, 11}) does not.
        assert_eq!(schedules_agree::<32>(3, 5, &[1, 2, 3, 7, 12]), 0);
    }
}
