//! Bottom-up (pull) layers (Beamer, Asanović & Patterson, SC 2012): a placement's regions not
//! reached yet look for a reached neighbour.

use super::Scratch;
use super::bits::Bits;
use super::{Builder, UNSEEN};

impl<const B: u32> Builder<B> {
    /// The pull (bottom-up) form of layer `d` for the placement at `idx`, whose lane is `lane`
    /// (Beamer, Asanović & Patterson, "Direction-optimizing breadth-first search", SC 2012):
    /// each region of the placement not reached yet gets depth `d + 1` if one of its
    /// neighbours (a pattern tile next to it moved into it) is a reached state. Such a
    /// neighbour has depth exactly `d`: one of depth `d − 1` or less would have reached the
    /// region earlier, and states written in this layer have the region's parity, never a
    /// neighbour's. Only the placement's own lane is written, and with a symmetry the depth of
    /// its mirror image (deferred, [`Builder::fill`]). Returns (entries filled, late regions
    /// recorded).
    ///
    /// With a symmetry ([`Sym`]) only canonical placements are pulled and neighbours are
    /// looked up in their canonical form; a mirror image not reached yet is marked complete
    /// (all regions reached) instead, and gets its depth with its canonical placement.
    #[inline(always)]
    pub(super) fn pull<I: Bits>(
        &self,
        isa: I,
        idx: usize,
        lane: u64,
        d: u8,
        scratch: &mut Scratch,
    ) -> (u64, u64) {
        let Scratch {
            dec, mirror, fills, ..
        } = scratch;
        self.decode(isa, idx, dec);
        let t = lane as u8;
        if t == UNSEEN
            && (isa.popcnt(dec.occ & self.odd_cells) ^ self.start_parity ^ u32::from(d + 1)) & 1
                != 0
        {
            return (0, 0);
        }
        let (sym, fidx) = match &self.sym {
            Some(sym) => (Some(&**sym), self.mirror(isa, sym, dec, mirror)),
            None => (None, idx),
        };
        if fidx < idx {
            self.lanes.add_regions(idx, self.full);
            return (0, 0);
        }
        // Of depth d − 1 (reached two layers ago; the layer in between wrote only lanes of the
        // other parity): its regions so far are those of least depth.
        if t != UNSEEN && t + 1 == d {
            let least = isa.pdep((lane >> 8) as u32 & self.full, dec.free);
            self.set_flags(idx, dec.free, least);
            if let Some(sym) = sym
                && fidx != idx
            {
                self.set_flags(fidx, mirror.free, sym.map(least));
            }
        }
        // The free cells whose regions are not reached yet.
        let mut todo = isa.pdep(!(lane >> 8) as u32 & self.full, dec.free);
        let mut new = 0u32;
        while todo != 0 {
            let cells = self.flood(dec.occ, todo.trailing_zeros());
            todo &= !cells;
            let hit = self.moves_into(dec.occ, cells).any(|(c, m)| {
                // The neighbour in canonical form, and the free cells it is seen with.
                let (nidx, free, m, c) = match sym {
                    None => (self.child_index(isa, dec, idx, m, c), dec.free, m, c),
                    Some(sym) => match self.canonical(isa, sym, dec, idx, mirror, fidx, m, c) {
                        (nidx, _, false) => (nidx, dec.free, m, c),
                        (nidx, _, true) => {
                            let g = |x: u32| u32::from(sym.cell[x as usize]);
                            (nidx, mirror.free, g(m), g(c))
                        }
                    },
                };
                // The number of cell m among the neighbour's free cells.
                let bit = isa.popcnt((free ^ (1 << m) ^ (1 << c)) & ((1 << m) - 1));
                self.lanes.get(nidx) >> (8 + bit) & 1 != 0
            });
            if hit {
                new |= cells;
            }
        }
        if new == 0 {
            return (0, 0);
        }
        if fidx == idx
            && let Some(sym) = sym
        {
            new |= sym.map(new);
        }
        let new = isa.pext(new, dec.free);
        if t != UNSEEN {
            self.lanes.add_regions(idx, new);
            (0, 1)
        } else if !self.lanes.reach(idx, d + 1, new) {
            (0, 0)
        } else if fidx == idx {
            (1, 0)
        } else {
            self.fill(fidx, d + 1, fills);
            (2, 0)
        }
    }
}
