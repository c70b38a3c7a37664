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

/// The mask of an entry's value bits in a table with region flags (`regions`) or without.
pub fn value_mask(regions: bool) -> u8 {
    if regions { VALUE_BITS } else { u8::MAX }
}

/// Flooding free cells on a board of at most 32 cells, as bit sets (bit `c` = cell `c`,
/// row-major).
#[derive(Clone, Debug)]
pub struct Flood {
    cols: u32,
    all: u32,
    not_left: u32,
    not_right: u32,
    /// For every set of free cells, the region of its lowest cell, when made
    /// ([`Flood::with_region_table`]).
    low_region: Option<std::sync::Arc<[u16]>>,
}

impl Flood {
    /// For a `rows × cols` board (flags exist only for boards of at most 32 cells; larger ones
    /// get masks of their first 32 cells, unused).
    pub fn new(rows: usize, cols: usize) -> Flood {
        let n = rows * cols;
        // Boards of more than 32 cells have no flags: their masks are only kept in range.
        let column = |col: usize| {
            (0..n.min(32))
                .filter(|c| c % cols == col)
                .fold(0u32, |m, c| m | 1 << c)
        };
        let all = if n >= 32 { u32::MAX } else { (1u32 << n) - 1 };
        Flood {
            cols: cols as u32,
            all,
            not_left: all & !column(0),
            not_right: all & !column(cols - 1),
            low_region: None,
        }
    }

    /// The same, with a table of the lowest free cell's region for every set of free cells,
    /// on boards of at most 16 cells (128 KiB, built in a few milliseconds), so that
    /// [`Flood::value`]'s region test is one read; larger boards are returned as they are.
    #[must_use]
    pub fn with_region_table(mut self) -> Flood {
        if self.all <= 0xffff {
            let table: Vec<u16> = (0..=self.all)
                .map(|free| self.region(free, free & free.wrapping_neg()) as u16)
                .collect();
            self.low_region = Some(table.into());
        }
        self
    }

    /// The cells of `free` connected to the cells `seed` (a subset of `free`).
    #[inline(always)]
    pub fn region(&self, free: u32, seed: u32) -> u32 {
        let mut region = seed;
        loop {
            let grown = self.grow(region) & free;
            if grown == region {
                return region;
            }
            region = grown;
        }
    }

    /// The cells `cells` and their neighbours.
    #[inline(always)]
    fn grow(&self, cells: u32) -> u32 {
        cells
            | (cells & self.not_right) << 1
            | (cells & self.not_left) >> 1
            | cells << self.cols
            | cells >> self.cols
    }

    /// Whether the free cells `a` and `b` (each a set of free cells in one region) are in
    /// the same region of `free`: both grow one step at a time until they meet or one of them
    /// is its whole region, so a small region (a corner cut off by two tiles) is settled in a
    /// step or two. The first three steps run without branches (most answers are known by
    /// then).
    #[inline(always)]
    pub fn connected(&self, free: u32, a: u32, b: u32) -> bool {
        let (a1, b1) = (self.grow(a) & free, self.grow(b) & free);
        let (a2, b2) = (self.grow(a1) & free, self.grow(b1) & free);
        let (mut a, mut b) = (self.grow(a2) & free, self.grow(b2) & free);
        let (mut pa, mut pb) = (a2, b2);
        loop {
            if a & b != 0 {
                return true;
            }
            if a == pa || b == pb {
                return false;
            }
            (pa, pb) = (a, b);
            (a, b) = (self.grow(a) & free, self.grow(b) & free);
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
    #[inline(always)]
    pub fn value(&self, entry: u8, occ: u32, blank: usize) -> u32 {
        let v = u32::from(entry & VALUE_BITS);
        let free = !occ & self.all;
        let in_low = match &self.low_region {
            // One read and no branch: whether an entry has flags, and which region the blank
            // is in, are as good as random.
            Some(t) => u32::from(t[free as usize]) >> (blank & 15) & 1,
            None => {
                if entry & !VALUE_BITS == 0 {
                    return v;
                }
                u32::from(self.connected(free, free & free.wrapping_neg(), 1 << blank))
            }
        };
        // In the lowest free cell's region: LOW_PLUS_TWO, else OTHERS_PLUS_TWO.
        let flag = u32::from(OTHERS_PLUS_TWO) >> in_low;
        v + (u32::from(u32::from(entry) & flag != 0) << 1)
    }

    /// Whether [`Flood::value`] is one table read ([`Flood::with_region_table`]), cheap enough
    /// to be read for every entry rather than only where the flags could matter.
    #[inline(always)]
    pub fn has_region_table(&self) -> bool {
        self.low_region.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `connected` agrees with flooding a whole region, and `flags` and `value` with their
    /// definitions, on every board shape with flags and many cell sets.
    #[test]
    fn connected_flags_and_value_agree_with_whole_regions() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for (rows, cols, table) in [
            (3, 3, true),
            (2, 4, true),
            (4, 4, false),
            (4, 4, true),
            (3, 5, false),
            (5, 5, false),
            (4, 8, false),
        ] {
            let f = Flood::new(rows, cols);
            let f = if table { f.with_region_table() } else { f };
            let n = rows * cols;
            let all = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
            for _ in 0..20_000 {
                // xorshift: about half the cells occupied
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let occ = (x as u32) & all & (x >> 32) as u32 | (x as u32) & all & 0x5555_5555;
                let free = all & !occ;
                if free.count_ones() < 2 {
                    continue;
                }
                let cells: Vec<usize> = (0..n).filter(|&c| free >> c & 1 == 1).collect();
                let (a, b) = (cells[(x >> 40) as usize % cells.len()], cells[0]);
                let whole = f.region(free, 1 << a);
                assert_eq!(f.connected(free, 1 << a, 1 << b), whole >> b & 1 == 1);
                // Flags: the least regions are the lowest cell's, or the others, or all.
                let low = f.region(free, 1 << b);
                assert_eq!(f.flags(free, free), 0);
                assert_eq!(
                    f.flags(free, low),
                    if low == free { 0 } else { OTHERS_PLUS_TWO }
                );
                if low != free {
                    assert_eq!(f.flags(free, free & !low), LOW_PLUS_TWO);
                }
                for flag in [0, LOW_PLUS_TWO, OTHERS_PLUS_TWO] {
                    let in_low = whole >> b & 1 == 1;
                    let raised =
                        (in_low && flag == LOW_PLUS_TWO) || (!in_low && flag == OTHERS_PLUS_TWO);
                    assert_eq!(f.value(7 | flag, occ, a), 7 + 2 * u32::from(raised));
                }
            }
        }
    }
}
