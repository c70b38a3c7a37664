//! The lanes: per placement its depth byte and reached-region bits, packed into atomic 64-bit
//! words in transparent huge pages; at the end packed into the table's bytes.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use super::UNSEEN;
use crate::heuristic::pdb::TableBytes;

/// Per placement, a `B`-bit lane (`B` = 16, 32 or 64) packed into atomic 64-bit words: the
/// depth in the low byte (`UNSEEN` until reached), the reached regions above it (one bit per
/// free cell). Depth and regions share a cache line, so a child costs one random access.
pub(super) struct Lanes<const B: u32> {
    pub(super) words: Vec<AtomicU64>,
}

impl<const B: u32> Lanes<B> {
    pub(super) const PER_WORD: usize = 64 / B as usize;
    pub(super) const LANE: u64 = u64::MAX >> (64 - B);

    /// `len` lanes, all unseen.
    ///
    /// # Errors
    /// When the system refuses the memory (a `ulimit -v`, a cgroup's limit).
    pub(super) fn new(len: usize) -> Result<Self, std::collections::TryReserveError> {
        let word = (0..Self::PER_WORD).fold(0u64, |w, i| w | u64::from(UNSEEN) << (i as u32 * B));
        let n = len.div_ceil(Self::PER_WORD);
        let mut words: Vec<AtomicU64> = Vec::new();
        words.try_reserve_exact(n)?;
        crate::memory::advise_huge_pages(words.as_ptr().cast(), n * 8);
        // In parallel: the first touch of each page also zeroes it, in the kernel.
        words.par_extend((0..n).into_par_iter().map(|_| AtomicU64::new(word)));
        Ok(Lanes { words })
    }

    #[inline(always)]
    pub(super) fn at(i: usize) -> (usize, u32) {
        (i / Self::PER_WORD, (i % Self::PER_WORD) as u32 * B)
    }

    /// The whole lane: depth in bits 0–7, regions above.
    #[inline(always)]
    pub(super) fn get(&self, i: usize) -> u64 {
        let (w, sh) = Self::at(i);
        (self.words[w].load(Relaxed) >> sh) & Self::LANE
    }

    /// Starts loading lane `i` into the cache (a hint; no effect on other targets).
    #[inline(always)]
    pub(super) fn prefetch(&self, i: usize) {
        let word: *const AtomicU64 = &self.words[i / Self::PER_WORD];
        crate::heuristic::pdb::prefetch(word.cast());
    }

    /// Adds regions to lane `i`.
    #[inline(always)]
    pub(super) fn add_regions(&self, i: usize, regions: u32) {
        let (w, sh) = Self::at(i);
        self.words[w].fetch_or(u64::from(regions) << (sh + 8), Relaxed);
    }

    /// Sets the depth of lane `i`, which is `UNSEEN`, to `d`; returns whether it was `UNSEEN`
    /// (other writers of the same depth may race).
    #[inline(always)]
    pub(super) fn set_depth(&self, i: usize, d: u8) -> bool {
        let (w, sh) = Self::at(i);
        let old = self.words[w].fetch_and(!(u64::from(UNSEEN ^ d) << sh), Relaxed);
        (old >> sh) as u8 == UNSEEN
    }

    /// Adds regions to lane `i` and, if its depth is `UNSEEN`, sets it to `d`, in one atomic
    /// update; returns whether the depth was `UNSEEN`.
    #[inline(always)]
    pub(super) fn reach(&self, i: usize, d: u8, regions: u32) -> bool {
        let (w, sh) = Self::at(i);
        let mut was_unseen = false;
        let _ = self.words[w].fetch_update(Relaxed, Relaxed, |cur| {
            let mut lane = ((cur >> sh) & Self::LANE) | u64::from(regions) << 8;
            was_unseen = lane as u8 == UNSEEN;
            if was_unseen {
                lane = (lane & !0xff) | u64::from(d);
            }
            Some((cur & !(Self::LANE << sh)) | lane << sh)
        });
        was_unseen
    }

    /// The lanes' depth bytes, as a table's memory. They are first packed to the front of the
    /// lanes' own memory (which then shrinks), so at no time are both whole.
    ///
    /// # Errors
    /// The system's error when the table's memory cannot be mapped.
    pub(super) fn into_depths(self, len: usize) -> std::io::Result<TableBytes> {
        let mut words: Vec<u64> = self.words.into_iter().map(AtomicU64::into_inner).collect();
        // Word j of the result packs lanes 8j .. 8j + 8, which lie in words r·j .. r·j + r.
        let r = 8 / Self::PER_WORD;
        let pack = |j: usize, from: &[u64]| {
            let mut out = 0u64;
            for b in 0..8 {
                let i = j * 8 + b;
                if i < len {
                    let (w, sh) = Self::at(i);
                    out |= ((from[w - r * j] >> sh) & 0xff) << (8 * b);
                }
            }
            out
        };
        let out_len = len.div_ceil(8);
        // The first words one by one (each is written after it is read), then in waves: the
        // words s .. r·s are written from words r·s .. r²·s, which no earlier wave wrote.
        let mut s = out_len.min(64);
        for j in 0..s {
            words[j] = pack(j, &words[r * j..]);
        }
        while s < out_len {
            let e = (s * r).min(out_len);
            let (done, from) = words.split_at_mut(s * r);
            done[s..e]
                .par_iter_mut()
                .enumerate()
                .for_each(|(o, w)| *w = pack(s + o, &from[r * o..]));
            s = e;
        }
        words.truncate(out_len);
        words.shrink_to_fit();
        let mut table = TableBytes::zeroed(len)?;
        table
            .par_chunks_mut(8)
            .zip(words.par_iter())
            .for_each(|(bytes, w)| bytes.copy_from_slice(&w.to_le_bytes()[..bytes.len()]));
        Ok(table)
    }
}
