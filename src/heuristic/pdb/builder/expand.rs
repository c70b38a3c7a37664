//! Top-down expansion: children are gathered (their lanes prefetched) and then settled in
//! batches: new regions marked, depths written, late regions listed.

use super::Scratch;
use super::bits::Bits;
use super::{BATCH, Builder, PARENTS, UNSEEN};

/// Which regions of a placement to expand.
#[derive(Clone, Copy)]
pub(super) enum Regions {
    /// A mask over the free cells (every cell of each region).
    Mask(u32),
    /// The region holding this free cell (a free-cell number).
    Cell(u32),
}

/// Kid flag: the child's canonical form is its mirror image (cells and parent's free cells
/// are mirrored).
const MAPPED: u64 = 1 << 48;

/// Kid flag: the child is its own mirror image (its regions are marked with their mirrors);
/// without it, in a build with a symmetry, the child's mirror image is filled in when the child
/// is reached.
const SELF: u64 = 1 << 49;

impl<const B: u32> Builder<B> {
    /// Expands the regions `regions` of the placement at `idx`, which have depth `d`: every
    /// pattern tile next to one of them moves into it. A child region not reached yet is
    /// marked in the child's lane (the child gets depth `d + 1` if it had none); if the child
    /// was reached earlier, the region is also listed as late in `scratch`. The children are
    /// only gathered here; they are checked in batches ([`Builder::settle`]), so the counts
    /// returned (entries filled, late regions listed) are those of the batch this call closed,
    /// if any.
    #[inline(always)]
    pub(super) fn expand<I: Bits>(
        &self,
        isa: I,
        idx: usize,
        regions: Regions,
        d: u8,
        scratch: &mut Scratch,
    ) -> (u64, u64) {
        self.gather(isa, idx, regions, scratch);
        if scratch.kids.len() >= BATCH || scratch.frees.len() == PARENTS {
            self.settle(isa, d, scratch)
        } else {
            (0, 0)
        }
    }

    /// Pass 1 of an expansion: decodes the placement and lists every child, starting its lane's
    /// load (children of several expansions are listed before any is looked at, so that their
    /// random reads overlap).
    #[inline(always)]
    fn gather<I: Bits>(&self, isa: I, idx: usize, regions: Regions, scratch: &mut Scratch) {
        let Scratch {
            kids,
            others,
            frees,
            dec,
            mirror,
            ..
        } = scratch;
        self.decode(isa, idx, dec);
        // A placement's own regions are expanded in the layer of its depth: they are its
        // regions of least depth, which give its flags.
        let (regions, least) = match regions {
            Regions::Mask(m) => (m, true),
            Regions::Cell(f) => (
                isa.pext(self.flood(dec.occ, isa.select(dec.free, f)), dec.free),
                false,
            ),
        };
        let parent = (frees.len() as u64) << 10;
        let cells = isa.pdep(regions, dec.free);
        let moves = self.moves_into(dec.occ, cells);
        let Some(sym) = &self.sym else {
            if least {
                self.set_flags(idx, dec.free, cells);
            }
            frees.push([dec.free, 0]);
            for (c, m) in moves {
                let cidx = self.child_index(isa, dec, idx, m, c);
                self.lanes.prefetch(cidx);
                kids.push((cidx as u64) << 16 | parent | u64::from(c) << 5 | u64::from(m));
            }
            return;
        };
        let fidx = self.mirror(isa, sym, dec, mirror);
        if least {
            self.set_flags(idx, dec.free, cells);
            if fidx != idx {
                self.set_flags(fidx, mirror.free, sym.map(cells));
            }
        }
        frees.push([dec.free, mirror.free]);
        for (c, m) in moves {
            let (canon, other, mapped) = self.canonical(isa, sym, dec, idx, mirror, fidx, m, c);
            let (flag, c, m) = match mapped {
                true => (
                    MAPPED,
                    sym.cell[c as usize].into(),
                    sym.cell[m as usize].into(),
                ),
                false if canon == other => (SELF, c, m),
                false => (0, c, m),
            };
            self.lanes.prefetch(canon);
            kids.push(flag | (canon as u64) << 16 | parent | u64::from(c) << 5 | u64::from(m));
            others.push(other as u32);
        }
    }

    /// Pass 2 for every child gathered: floods and records the new regions (see
    /// [`Builder::expand`]). Returns (entries filled, late regions recorded).
    #[inline(always)]
    pub(super) fn settle<I: Bits>(&self, isa: I, d: u8, scratch: &mut Scratch) -> (u64, u64) {
        let Scratch {
            kids,
            others,
            frees,
            fills,
            late,
            ..
        } = scratch;
        let (mut filled, mut found_late) = (0, 0);
        for (i, &kid) in kids.iter().enumerate() {
            let (cidx, parent, c, m) = (
                (kid >> 16) as u32 as usize,
                (kid >> 10) as usize & (PARENTS - 1),
                (kid >> 5) as u32 & 31,
                kid as u32 & 31,
            );
            let seen = self.lanes.get(cidx);
            // The child's free cells; the number of cell m among them.
            let cfree = frees[parent][usize::from(kid & MAPPED != 0)] ^ (1 << m) ^ (1 << c);
            let bit = isa.popcnt(cfree & ((1 << m) - 1));
            if (seen >> 8) & (1 << bit) != 0 {
                continue;
            }
            let mut cells = self.flood(self.all & !cfree, m);
            if kid & SELF != 0
                && let Some(sym) = &self.sym
            {
                cells |= sym.map(cells);
            }
            let region = isa.pext(cells, cfree);
            let t = seen as u8;
            if t == UNSEEN {
                if self.lanes.reach(cidx, d + 1, region) {
                    filled += 1;
                    if self.sym.is_some() && kid & SELF == 0 {
                        filled += 1;
                        self.fill(others[i] as usize, d + 1, fills);
                    }
                }
            } else if t == d + 1 {
                self.lanes.add_regions(cidx, region);
            } else {
                // A late region: its placement's depth is final, and of the other parity
                // than `d` (so it is not being expanded in this layer).
                debug_assert!(
                    t < d && (d - t) % 2 == 1,
                    "late region at depth {t}, layer {d}"
                );
                self.lanes.add_regions(cidx, region);
                let entry = cidx as u64 * self.free + u64::from(bit);
                if self.wide {
                    late.wide.push(entry);
                } else {
                    late.narrow.push(entry as u32);
                }
                found_late += 1;
            }
        }
        kids.clear();
        others.clear();
        frees.clear();
        (filled, found_late)
    }
}
