//! Blank-region flags: a table entry that also says, in its two high bits, in which of the
//! blank's regions the placement costs at least two moves more than its value.
//!
//! A pattern table keeps, for every placement of the pattern tiles, the least number of moves
//! of pattern tiles over all positions of the blank ([`builder`](super::builder)). But the
//! blank can only reach the free cells (those not under a pattern tile) of its own *region*,
//! the connected set of free cells it is in, and when the pattern tiles split the free cells
//! into several regions, the cost may depend on which one holds the blank. Zero-aware pattern
//! databases keep one value per region (R. Clausecker and A. Reinefeld's work on the
//! 24-puzzle, github.com/clausecker/24puzzle). Ours keep the least value and two flags, so that
//! the tables keep their size and index:
//!
//! - [`LOW_PLUS_TWO`]: the region holding the lowest-numbered free cell costs at least two
//!   more than the value;
//! - [`OTHERS_PLUS_TWO`]: every other region costs at least two more.
//!
//! The builder sets a flag only when no state of that region reached the placement at its
//! least depth (all regions of a placement have depths of one parity, so a larger depth is
//! at least two larger). The estimate with the flags is still a lower bound on the moves of
//! pattern tiles, so the sum over disjoint patterns stays admissible; it is no longer
//! consistent (a move may change it by three), which IDA* and our A* (it reopens closed
//! boards) do not need. Only tables whose values fit in six bits and which leave at least three
//! free cells carry flags ([`PatternTable::regions`](super::PatternTable::regions)).

/// Flag: the region of the lowest free cell costs at least two more than the value.
pub const LOW_PLUS_TWO: u8 = 0x40;
/// Flag: every region but the lowest free cell's costs at least two more than the value.
pub const OTHERS_PLUS_TWO: u8 = 0x80;
/// The value's bits in a table with flags.
pub const VALUE_BITS: u8 = 0x3f;

/// Flooding free cells on a board of at most 32 cells, as bit sets (bit `c` = cell `c`,
/// row-major).
#[derive(Clone, Copy, Debug)]
pub struct Flood {
    cols: u32,
    all: u32,
    not_left: u32,
    not_right: u32,
}

impl Flood {
    /// For a `rows × cols` board (`rows · cols ≤ 32`).
    pub fn new(rows: usize, cols: usize) -> Flood {
        let n = rows * cols;
        let column = |col: usize| {
            (0..n)
                .filter(|c| c % cols == col)
                .fold(0u32, |m, c| m | 1 << c)
        };
        let all = if n >= 32 { u32::MAX } else { (1u32 << n) - 1 };
        Flood {
            cols: cols as u32,
            all,
            not_left: all & !column(0),
            not_right: all & !column(cols - 1),
        }
    }

    /// The cells of `free` connected to the cells `seed` (a subset of `free`).
    #[inline]
    pub fn region(&self, free: u32, seed: u32) -> u32 {
        let mut region = seed;
        loop {
            let grown = (region
                | (region & self.not_right) << 1
                | (region & self.not_left) >> 1
                | region << self.cols
                | region >> self.cols)
                & free;
            if grown == region {
                return region;
            }
            region = grown;
        }
    }

    /// The flags of a placement whose free cells are `free` and whose regions of least depth
    /// cover the cells `least` (a union of regions, not empty).
    pub fn flags(&self, free: u32, least: u32) -> u8 {
        if least == free {
            return 0;
        }
        let low = free & free.wrapping_neg();
        if least & low == 0 {
            return LOW_PLUS_TWO;
        }
        if least & !self.region(free, low) == 0 {
            OTHERS_PLUS_TWO
        } else {
            0
        }
    }

    /// The value of table entry `entry` (with flags) for a placement on the cells `occ` with
    /// the blank on `blank` (a cell not in `occ`).
    #[inline]
    pub fn value(&self, entry: u8, occ: u32, blank: usize) -> u32 {
        let v = u32::from(entry & VALUE_BITS);
        if entry & !VALUE_BITS == 0 {
            return v;
        }
        let free = !occ & self.all;
        let low = free & free.wrapping_neg();
        let in_low = self.region(free, low) >> blank & 1 != 0;
        let flag = if in_low {
            LOW_PLUS_TWO
        } else {
            OTHERS_PLUS_TWO
        };
        v + if entry & flag != 0 { 2 } else { 0 }
    }
}
