//! Searching up to a reflection of the board (`Sym`): canonical placements, mirror images, and
//! the deferred writes of the mirror images' depths.

use super::Builder;
use super::bits::{Bits, bits};
use super::placement::Decoded;

/// A symmetry of the abstract space: an involution `g` of the board (reflection left-right,
/// top-bottom or about a diagonal of a square board, or the half turn) that maps the pattern's goal cells onto
/// themselves and the blank's goal region onto itself. Relabelling the tiles by `σ` (slot `i`
/// goes to the slot whose goal cell is `g` of slot `i`'s), `g` maps every state to one at the
/// same depth: it maps moves to moves and the goal to itself. So the builder searches only
/// *canonical* placements (the smaller index of a placement and its mirror image) and writes
/// each depth it finds to both, halving the expansions (the symmetry reduction of state-space
/// search; for pattern databases, Culberson & Schaeffer 1998 use the same idea at lookup
/// time). For the 8-tile pattern of the 15-puzzle with the blank first, `g` is the left-right
/// reflection.
///
/// A placement that is its own mirror image keeps the union of each region and its mirror. A
/// mirror image's lane holds only its depth (no regions) until the search turns bottom-up, when
/// every mirror image is marked complete (reached ones by the scan, the others by
/// [`Builder::pull`]), so neither form of a layer looks at them.
pub(super) struct Sym {
    /// `g` on cells.
    pub(super) cell: [u8; 32],
    /// `σ` on slots.
    pub(super) slot: [u8; 16],
    /// `g` on cell sets, a byte at a time: `map(x)` is the union of `bytes[i][byte i of x]`.
    pub(super) bytes: [[u32; 256]; 4],
}

impl Sym {
    /// The first reflection of a `rows × cols` board that maps the cells `start` (the
    /// pattern's goal cells, in slot order) onto themselves and the cell set `region` onto
    /// itself.
    pub(super) fn find(rows: usize, cols: usize, start: &[u8], region: u32) -> Option<Box<Sym>> {
        let n = rows * cols;
        // The image of (row, column) under reflection `g`: left-right, top-bottom, half turn,
        // about the main diagonal, about the other one.
        let image = |g: usize, r: usize, c: usize| match g {
            0 => Some((r, cols - 1 - c)),
            1 => Some((rows - 1 - r, c)),
            2 => Some((rows - 1 - r, cols - 1 - c)),
            _ if rows != cols => None,
            3 => Some((c, r)),
            _ => Some((cols - 1 - c, rows - 1 - r)),
        };
        (0..5).find_map(|g| {
            let mut cell = [0u8; 32];
            for (i, x) in cell.iter_mut().enumerate().take(n) {
                let (r, c) = image(g, i / cols, i % cols)?;
                *x = (r * cols + c) as u8;
            }
            if (0..n).all(|i| cell[i] as usize == i) {
                return None;
            }
            let mut slot = [0u8; 16];
            for (i, &c) in start.iter().enumerate() {
                slot[i] = start.iter().position(|&q| q == cell[c as usize])? as u8;
            }
            let mut bytes = [[0u32; 256]; 4];
            for (b, table) in bytes.iter_mut().enumerate() {
                for (x, img) in table.iter_mut().enumerate() {
                    *img = bits(x as u32)
                        .map(|j| 8 * b + j as usize)
                        .filter(|&c| c < n)
                        .fold(0, |m, c| m | 1 << cell[c]);
                }
            }
            let sym = Sym { cell, slot, bytes };
            (sym.map(region) == region).then(|| Box::new(sym))
        })
    }

    /// `g` on a cell set.
    #[inline(always)]
    pub(super) fn map(&self, x: u32) -> u32 {
        self.bytes[0][(x & 0xff) as usize]
            | self.bytes[1][(x >> 8 & 0xff) as usize]
            | self.bytes[2][(x >> 16 & 0xff) as usize]
            | self.bytes[3][(x >> 24) as usize]
    }
}

/// Mirror images reached ([`Sym`]) whose depths are not written yet: a ring of the last
/// `FILLS` (their lanes' loads overlap with the work in between), `n` in all.
pub(super) struct Fills {
    pub(super) ring: [u32; FILLS],
    pub(super) n: usize,
}

/// The length of [`Fills`]'s ring.
pub(super) const FILLS: usize = 64;

impl<const B: u32> Builder<B> {
    /// The child of the placement at `idx` (decoded as `dec`, its mirror image at `fidx` as
    /// `mirror`) with the tile on cell `m` moved to cell `c`, and the child's mirror image:
    /// (the canonical index of the two, the other one, whether the canonical one is the mirror
    /// image). The mirror image's move is the tile on `g(m)` moving to `g(c)`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn canonical<I: Bits>(
        &self,
        isa: I,
        sym: &Sym,
        dec: &Decoded,
        idx: usize,
        mirror: &Decoded,
        fidx: usize,
        m: u32,
        c: u32,
    ) -> (usize, usize, bool) {
        let cidx = self.child_index(isa, dec, idx, m, c);
        let (gm, gc) = (sym.cell[m as usize].into(), sym.cell[c as usize].into());
        let fcidx = self.child_index(isa, mirror, fidx, gm, gc);
        (cidx.min(fcidx), cidx.max(fcidx), fcidx < cidx)
    }

    /// Decodes the mirror image ([`Sym`]) of the placement decoded as `dec` into `out`; returns
    /// its index.
    #[inline(always)]
    pub(super) fn mirror<I: Bits>(
        &self,
        isa: I,
        sym: &Sym,
        dec: &Decoded,
        out: &mut Decoded,
    ) -> usize {
        for i in 0..self.k {
            out.pos[sym.slot[i] as usize] = sym.cell[dec.pos[i] as usize];
        }
        let (mut occ, mut idx) = (0u32, 0u32);
        for j in 0..self.k {
            let c = out.pos[j];
            out.earlier[j] = occ;
            idx += (u32::from(c) - isa.popcnt(occ & ((1 << c) - 1))) * self.weights[j];
            occ |= 1 << c;
            out.slot_at[c as usize] = j as u8;
            out.weight_at[c as usize] = self.weights[j];
        }
        out.occ = occ;
        out.free = self.all & !occ;
        idx as usize
    }

    /// Gives the mirror image at `idx` depth `d`, `FILLS` calls later (or in
    /// [`Builder::flush_fills`]): its lane is loaded meanwhile, so that the atomic writes do
    /// not wait for memory one by one. Nothing uses a mirror image's lane as a state's before
    /// the layer ends (a bottom-up scan may mark it complete meanwhile, which sets other bits).
    #[inline(always)]
    pub(super) fn fill(&self, idx: usize, d: u8, fills: &mut Fills) {
        self.lanes.prefetch(idx);
        let slot = &mut fills.ring[fills.n % FILLS];
        if fills.n >= FILLS {
            self.set_mirror_depth(*slot as usize, d);
        }
        *slot = idx as u32;
        fills.n += 1;
    }

    /// Writes the depths `d` that [`Builder::fill`] has not written yet.
    pub(super) fn flush_fills(&self, d: u8, fills: &mut Fills) {
        for i in fills.n.saturating_sub(FILLS)..fills.n {
            self.set_mirror_depth(fills.ring[i % FILLS] as usize, d);
        }
        fills.n = 0;
    }

    #[inline(always)]
    fn set_mirror_depth(&self, idx: usize, d: u8) {
        let was_unseen = self.lanes.set_depth(idx, d);
        debug_assert!(was_unseen, "mirror image {idx} reached twice");
    }
}
