//! Placements: ranking, decoding an index into cell sets, flooding a region, and a child's
//! index from its parent's.

use super::Builder;
use super::bits::{Bits, bits};

/// A placement decoded for expanding: its cells and its free cells as bit sets; per cell the
/// slot of its tile and that slot's index weight (0 where free, and at 32); per slot the
/// cells of the tiles in earlier slots.
pub(super) struct Decoded {
    pub(super) occ: u32,
    pub(super) free: u32,
    /// The cell of each slot's tile.
    pub(super) pos: [u8; 16],
    pub(super) slot_at: [u8; 32],
    pub(super) weight_at: [u32; 33],
    pub(super) earlier: [u32; 16],
    /// The digits of the first `Builder::prefix` slots of the last placement decoded in full
    /// (`u32::MAX`: none yet), and their cells: the entries above for those slots and cells
    /// still hold.
    pub(super) prefix: u32,
    pub(super) prefix_occ: u32,
}

impl Default for Decoded {
    fn default() -> Self {
        Decoded {
            occ: 0,
            free: 0,
            pos: [0; 16],
            slot_at: [0; 32],
            weight_at: [0; 33],
            earlier: [0; 16],
            prefix: u32::MAX,
            prefix_occ: 0,
        }
    }
}

impl<const B: u32> Builder<B> {
    /// The rank of a k-permutation of cells (see [`PatternTable::index`]).
    #[inline(always)]
    pub(super) fn rank(&self, pos: &[u8; 16]) -> usize {
        let mut idx = 0u32;
        for i in 0..self.k {
            let c = pos[i];
            let below = pos[..i].iter().filter(|&&q| q < c).count() as u32;
            idx += (u32::from(c) - below) * self.weights[i];
        }
        idx as usize
    }

    /// The free cells (not in `occ`) connected to `from`, as a bit set.
    #[inline(always)]
    pub(super) fn flood(&self, occ: u32, from: u32) -> u32 {
        self.flood_cells.region(self.all & !occ, 1 << from)
    }

    /// Decodes the placement at `idx` into `dec` for expanding (the inverse of
    /// [`Builder::rank`]). Only the entries of occupied cells and of the pattern's slots are
    /// written: nothing reads the others (`weight_at[32]` stays 0).
    #[inline(always)]
    pub(super) fn decode<I: Bits>(&self, isa: I, idx: usize, dec: &mut Decoded) {
        let p = self.prefix;
        // The first p slots' digits are idx / weights[p − 1]: a scan meets the same ones
        // thousands of times in a row, so they are decoded once.
        let (q, mut rest) = self.div(idx as u32, p.saturating_sub(1));
        let from = if p > 0 && q == dec.prefix {
            dec.occ = dec.prefix_occ;
            dec.free = self.all & !dec.occ;
            p
        } else {
            dec.occ = 0;
            dec.free = self.all;
            rest = idx as u32;
            0
        };
        for i in from..self.k {
            if i == p {
                dec.prefix = q;
                dec.prefix_occ = dec.occ;
            }
            let (d, r) = self.div(rest, i);
            rest = r;
            let c = isa.select(dec.free, d) as usize;
            dec.earlier[i] = dec.occ;
            dec.occ |= 1 << c;
            dec.free ^= 1 << c;
            dec.pos[i] = c as u8;
            dec.slot_at[c] = i as u8;
            dec.weight_at[c] = self.weights[i];
        }
    }

    /// `(x / weights[i], x % weights[i])`, by multiplying.
    #[inline(always)]
    fn div(&self, x: u32, i: usize) -> (u32, u32) {
        // The estimate is exact or one short.
        let w = self.weights[i];
        let mut d = ((u128::from(x) * u128::from(self.recips[i])) >> 64) as u32;
        let mut r = x - d * w;
        if r >= w {
            d += 1;
            r -= w;
        }
        (d, r)
    }

    /// The index of the placement at `idx` (decoded as `dec`) with the tile on cell `m` moved
    /// to the free cell `c`, `m` and `c` neighbours: the tile's own rank digit changes by
    /// `c − m` less the earlier tiles between the two cells, the digit of every later tile
    /// between them by one (at most `cols − 1` cells lie between, so the loop has a fixed
    /// length).
    #[inline(always)]
    pub(super) fn child_index<I: Bits>(
        &self,
        isa: I,
        dec: &Decoded,
        idx: usize,
        m: u32,
        c: u32,
    ) -> usize {
        let s = dec.slot_at[m as usize] as usize;
        let (lo, hi) = (m.min(c), m.max(c));
        let between = (1u32 << hi) - (2u32 << lo);
        let earlier = dec.earlier[s];
        let mut delta = (hi - lo - isa.popcnt(earlier & between)) * self.weights[s];
        let mut later = dec.occ & between & !earlier;
        for _ in 1..self.cols {
            delta += dec.weight_at[later.trailing_zeros() as usize];
            later &= later.wrapping_sub(1);
        }
        if c > m {
            idx + delta as usize
        } else {
            idx - delta as usize
        }
    }

    /// Every move of a pattern tile into one of `cells` (free cells of the placement whose
    /// cells are `occ`), as (cell moved into, the tile's cell).
    #[inline(always)]
    pub(super) fn moves_into(&self, occ: u32, cells: u32) -> impl Iterator<Item = (u32, u32)> + '_ {
        bits(cells).flat_map(move |c| bits(self.nbr_bits[c as usize] & occ).map(move |m| (c, m)))
    }
}
