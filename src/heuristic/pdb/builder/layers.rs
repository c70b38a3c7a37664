//! The layer schedule: each layer's work items (late lists and chunks of placements) run in
//! parallel, top-down or bottom-up, until no layer finds anything new.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use super::bits::{Bits, Portable, bytes_equal};
use super::expand::Regions;
use super::lanes::Lanes;
use super::{BuildProgress, Builder, CHUNK, Item, LateList, Scratch, UNSEEN};
use crate::heuristic::pdb::TableBytes;

impl<const B: u32> Builder<B> {
    /// Expands layer `d`: first the late regions of depth `d` listed by the previous layer
    /// (`late_in`), then the placements whose depth is `d` (all their regions). A pull layer
    /// ([`Builder::pull`]) instead checks every placement of the other parity that has
    /// regions not reached yet, and lists nothing. Returns (entries filled, late regions found,
    /// their list, or `None` when it outgrew `list_cap` or the layer pulled).
    pub(super) fn layer(
        &self,
        d: u8,
        pull: bool,
        late_in: Vec<LateList>,
    ) -> (u64, u64, Option<Vec<LateList>>) {
        let out = Mutex::new(Vec::new());
        let (listed, overflow) = (AtomicU64::new(0), AtomicBool::new(false));
        // Hands a work item's late list over, unless the layer's lists grew too long.
        let flush = |scratch: &mut Scratch| {
            if scratch.late.len() == 0 || overflow.load(Relaxed) {
                scratch.late = LateList::default();
                return;
            }
            let mut list = std::mem::take(&mut scratch.late);
            list.narrow.shrink_to_fit();
            list.wide.shrink_to_fit();
            let len = list.len() as u64;
            if listed.fetch_add(len, Relaxed) + len > self.list_cap {
                overflow.store(true, Relaxed);
                *out.lock().unwrap_or_else(|e| e.into_inner()) = Vec::new();
            } else {
                out.lock().unwrap_or_else(|e| e.into_inner()).push(list);
            }
        };
        // The late regions' lists and the chunks of the scan, in any order: their expansions
        // write only lanes of the other parity than the ones they read.
        let chunks = (0..self.total.div_ceil(CHUNK)).into_par_iter();
        let (filled, late) = late_in
            .into_par_iter()
            .map(Item::Late)
            .chain(chunks.map(Item::Chunk))
            .map_init(Scratch::default, |scratch, item| {
                let counts = self.work(item, d, pull, scratch);
                flush(scratch);
                counts
            })
            .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
        let lists = (!pull && !overflow.into_inner())
            .then(|| out.into_inner().unwrap_or_else(|e| e.into_inner()));
        (filled, late, lists)
    }

    /// One work item of layer `d`: expands a list of late regions, or expands (or, in a pull
    /// layer, pulls) a chunk of placements. Returns (entries filled, late regions found); the
    /// late regions are left in `scratch.late`.
    #[inline(always)]
    pub(super) fn work_in<I: Bits>(
        &self,
        isa: I,
        item: Item,
        d: u8,
        pull: bool,
        scratch: &mut Scratch,
    ) -> (u64, u64) {
        let (mut filled, mut late) = (0, 0);
        let ci = match item {
            Item::Late(list) => {
                let entries = list
                    .narrow
                    .iter()
                    .map(|&e| u64::from(e))
                    .chain(list.wide.iter().copied());
                for e in entries {
                    let (idx, cell) = ((e / self.free) as usize, (e % self.free) as u32);
                    let (f, l) = self.expand(isa, idx, Regions::Cell(cell), d, scratch);
                    filled += f;
                    late += l;
                }
                drop(list);
                let (f, l) = self.settle(isa, d, scratch);
                self.flush_fills(d + 1, &mut scratch.fills);
                return (filled + f, late + l);
            }
            Item::Chunk(ci) => ci,
        };
        let (lo, hi) = (ci * CHUNK, ((ci + 1) * CHUNK).min(self.total));
        let per = Lanes::<B>::PER_WORD;
        if pull {
            // A word whose lanes have all their regions reached is skipped whole.
            let (region_bits, complete) = (0..per).fold((0u64, 0u64), |(m, f), j| {
                let sh = j as u32 * B + 8;
                (
                    m | (Lanes::<B>::LANE >> 8) << sh,
                    f | u64::from(self.full) << sh,
                )
            });
            for wi in lo / per..hi.div_ceil(per) {
                let word = self.lanes.words[wi].load(Relaxed);
                if word & region_bits == complete {
                    continue;
                }
                let mut mark = 0u64;
                for j in 0..per {
                    let idx = wi * per + j;
                    let lane = (word >> (j as u32 * B)) & Lanes::<B>::LANE;
                    let t = lane as u8;
                    // Skipped: placements with every region reached, mirror images ([`Sym`];
                    // reached ones have no regions: they are marked complete, so that later
                    // layers skip their word whole), and those of the layer's own parity.
                    if idx >= hi || (lane >> 8) as u32 == self.full {
                        continue;
                    }
                    if t != UNSEEN && lane >> 8 == 0 {
                        mark |= u64::from(self.full) << (j as u32 * B + 8);
                        continue;
                    }
                    if t != UNSEEN && (t ^ d) & 1 == 0 {
                        continue;
                    }
                    let (f, l) = self.pull(isa, idx, lane, d, scratch);
                    filled += f;
                    late += l;
                }
                if mark != 0 {
                    self.lanes.words[wi].fetch_or(mark, Relaxed);
                }
            }
            self.flush_fills(d + 1, &mut scratch.fills);
            return (filled, late);
        }
        // Bit 7 of every lane's depth byte.
        let depth_bytes = (0..per).fold(0u64, |m, i| m | 0x80 << (i as u32 * B));
        for wi in lo / per..hi.div_ceil(per) {
            let mut hits = bytes_equal(self.lanes.words[wi].load(Relaxed), d) & depth_bytes;
            while hits != 0 {
                let idx = wi * per + (hits.trailing_zeros() / B) as usize;
                hits &= hits - 1;
                // Mirror images ([`Sym`]) have no regions: their canonical placements are
                // expanded instead.
                let regions = (self.lanes.get(idx) >> 8) as u32;
                if idx < hi && regions != 0 {
                    let (f, l) = self.expand(isa, idx, Regions::Mask(regions), d, scratch);
                    filled += f;
                    late += l;
                }
            }
        }
        let (f, l) = self.settle(isa, d, scratch);
        self.flush_fills(d + 1, &mut scratch.fills);
        (filled + f, late + l)
    }

    /// The table (depths, and region flags where [`Builder::flagged`]) and whether it has the
    /// flags, or `None` when `progress` stopped the build (an error when their memory cannot
    /// be mapped).
    pub(super) fn run(
        self,
        pattern: usize,
        progress: &(dyn Fn(&BuildProgress) -> bool + Sync),
    ) -> Option<std::io::Result<(TableBytes, bool)>> {
        let mut occ = 0u32;
        let mut pos = [0u8; 16];
        for (i, &c) in self.start.iter().enumerate() {
            pos[i] = c;
            occ |= 1 << c;
        }
        let start = self.rank(&pos);
        self.lanes.set_depth(start, 0);
        let region = self.flood(occ, self.start_blank as u32);
        self.lanes
            .add_regions(start, Portable.pext(region, self.all & !occ));
        let mut filled = 1u64;
        let mut d = 0u8;
        let mut pull = false;
        let mut lists = Vec::new();
        loop {
            let (found, late, next) = self.layer(d, pull, std::mem::take(&mut lists));
            // Bottom-up once the placements left are fewer than 1.4 times the new frontier
            // (about where the two forms cost the same). With a symmetry `found` counts mirror
            // images and `late` does not.
            pull |= self.pull_always
                || 10 * (self.total as u64 - filled - found) <= 14 * (found + late);
            match next {
                Some(next) if !pull => lists = next,
                _ => pull = true,
            }
            filled += found;
            if found == 0 && late == 0 {
                break;
            }
            d += 1;
            if !progress(&BuildProgress {
                pattern,
                depth: u32::from(d),
                filled,
                total: self.total as u64,
            }) {
                return None;
            }
            if d == UNSEEN - 1 {
                break;
            }
        }
        // The last layer found nothing: `d` is the largest depth.
        let flagged = self.flagged(d);
        let Builder {
            lanes,
            total,
            flags,
            ..
        } = self;
        Some(lanes.into_depths(total).map(|mut table| {
            if flagged {
                super::add_flags(&mut table, &flags);
            }
            (table, flagged)
        }))
    }
}
