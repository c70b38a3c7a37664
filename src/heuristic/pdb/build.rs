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
//! into atomic 64-bit words, holding
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
//! scanned eight depth bytes at a time and expanded in parallel chunks (rayon); a child's index
//! comes from its parent's (`Builder::child_index`), and the children of several expansions are
//! gathered, their lanes prefetched, before any is looked at.
//!
//! Once the placements not reached yet are few next to the frontier (after the peak layer),
//! the search turns *bottom-up* (Beamer, Asanović & Patterson, SC 2012): a layer then checks
//! each region not reached yet for a reached neighbour, stopping at the first, instead of
//! expanding the frontier; it needs no list of late regions either. A layer whose late regions
//! outgrow their list (a fifth of the lanes' bytes) is followed by bottom-up layers too.
//!
//! A pattern that a reflection of the board (or its half turn) maps onto itself, together
//! with the blank's goal region (the 8-tile pattern of the 7-8 partition with the blank first:
//! left to right), is searched up to that symmetry (`Sym`): only one placement of each mirror
//! pair is expanded or pulled, and each depth found is written to both, which takes about a
//! quarter off that table's build (wall time; the expansions are halved).
//!
//! Most of the time goes to arithmetic on cell bit sets (decoding an index, flooding a region,
//! numbering free cells), so the inner loops are generic over the bit operations (`Bits`)
//! and compiled in three forms on x86-64: for BMI2 (`pdep` / `pext`, picked at run time where
//! the processor runs them fast), for POPCNT, and portable (the only one elsewhere). The lanes live in transparent huge pages
//! (`madvise`), which spares a TLB miss on most random reads. At the end the depth bytes are
//! packed to the front of the lanes' memory in place, in parallel.
//!
//! Peak memory for `k` tiles on `n` cells: at most `P(n, k) · lane bytes · 7/5` (the lanes and
//! two layers' lists): 1.45 · 10⁹ bytes for the 8-tile pattern of the 15-puzzle (1.32 · 10⁹
//! measured for the whole 7-8 build), 0.71 · 10⁹ for a 6-tile pattern of the 24-puzzle.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use super::{PatternTable, TableBytes, placements};
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
/// the lanes (1.45 · 10⁹ for the 8-tile pattern of the 15-puzzle).
pub fn build_memory(cells: usize, k: usize) -> u64 {
    placements(cells, k) * u64::from(lane_bits(cells, k)) / 8 * 7 / 5
}

/// Builds the table of `tiles` for `goal`, reporting each BFS layer to `progress`, which
/// returns `false` to stop the build. Uses the rayon pool.
///
/// # Errors
/// A message when the board has more than 32 cells, the pattern is empty or holds the blank,
/// the table would have 2³² entries or more, the build would need more than `max_memory`
/// bytes, or `progress` stopped it ([`CANCELLED`]).
pub fn build_table(
    goal: &Goal,
    tiles: &[u8],
    pattern: usize,
    max_memory: u64,
    progress: &(dyn Fn(&BuildProgress) -> bool + Sync),
) -> Result<PatternTable, String> {
    let n = goal.board().len();
    let k = tiles.len();
    if n > 32 || k == 0 || k >= n || tiles.contains(&0) || tiles.iter().any(|&t| t as usize >= n) {
        return Err(format!(
            "cannot build a {k}-tile pattern on {n} cells (at most 32 cells, fewer tiles than cells, no blank)"
        ));
    }
    if placements(n, k) > u64::from(u32::MAX) {
        return Err(format!(
            "a {k}-tile pattern on {n} cells has {} placements; at most 2³² − 1 are supported",
            placements(n, k)
        ));
    }
    let need = build_memory(n, k);
    if need > max_memory {
        return Err(format!(
            "building a {k}-tile pattern database on {n} cells needs about {} (cap {})",
            bytesize::ByteSize(need).display().iec(),
            bytesize::ByteSize(max_memory).display().iec()
        ));
    }
    let table = match lane_bits(n, k) {
        16 => Builder::<16>::new(goal, tiles).run(pattern, progress),
        32 => Builder::<32>::new(goal, tiles).run(pattern, progress),
        _ => Builder::<64>::new(goal, tiles).run(pattern, progress),
    }
    .ok_or(CANCELLED)?
    .map_err(|e| format!("pattern-database table memory: {e}"))?;
    PatternTable::from_bytes(tiles.to_vec(), n, table)
}

/// The error of a build stopped by its progress callback.
pub const CANCELLED: &str = "pattern-database build cancelled";

/// Not reached yet.
const UNSEEN: u8 = u8::MAX;

/// Children gathered before they are looked at (their loads overlap).
const BATCH: usize = 48;

/// The most parents one batch of children may have (the parent's number has 6 bits).
const PARENTS: usize = 64;

/// Placements scanned per parallel work item (a multiple of 64).
const CHUNK: usize = 1 << 15;

/// Per placement, a `B`-bit lane (`B` = 16, 32 or 64) packed into atomic 64-bit words: the
/// depth in the low byte (`UNSEEN` until reached), the reached regions above it (one bit per
/// free cell). Depth and regions share a cache line, so a child costs one random access.
struct Lanes<const B: u32> {
    words: Vec<AtomicU64>,
}

impl<const B: u32> Lanes<B> {
    const PER_WORD: usize = 64 / B as usize;
    const LANE: u64 = u64::MAX >> (64 - B);

    fn new(len: usize) -> Self {
        let word = (0..Self::PER_WORD).fold(0u64, |w, i| w | u64::from(UNSEEN) << (i as u32 * B));
        let n = len.div_ceil(Self::PER_WORD);
        let mut words: Vec<AtomicU64> = Vec::with_capacity(n);
        huge_pages(words.as_ptr().cast(), n * 8);
        // In parallel: the first touch of each page also zeroes it, in the kernel.
        words.par_extend((0..n).into_par_iter().map(|_| AtomicU64::new(word)));
        Lanes { words }
    }

    #[inline(always)]
    fn at(i: usize) -> (usize, u32) {
        (i / Self::PER_WORD, (i % Self::PER_WORD) as u32 * B)
    }

    /// The whole lane: depth in bits 0–7, regions above.
    #[inline(always)]
    fn get(&self, i: usize) -> u64 {
        let (w, sh) = Self::at(i);
        (self.words[w].load(Relaxed) >> sh) & Self::LANE
    }

    /// Starts loading lane `i` into the cache (a hint; no effect on other targets).
    #[inline(always)]
    fn prefetch(&self, i: usize) {
        let word: *const AtomicU64 = &self.words[i / Self::PER_WORD];
        super::prefetch(word.cast());
    }

    /// Adds regions to lane `i`.
    #[inline(always)]
    fn add_regions(&self, i: usize, regions: u32) {
        let (w, sh) = Self::at(i);
        self.words[w].fetch_or(u64::from(regions) << (sh + 8), Relaxed);
    }

    /// Sets the depth of lane `i`, which is `UNSEEN`, to `d`; returns whether it was `UNSEEN`
    /// (other writers of the same depth may race).
    #[inline(always)]
    fn set_depth(&self, i: usize, d: u8) -> bool {
        let (w, sh) = Self::at(i);
        let old = self.words[w].fetch_and(!(u64::from(UNSEEN ^ d) << sh), Relaxed);
        (old >> sh) as u8 == UNSEEN
    }

    /// Adds regions to lane `i` and, if its depth is `UNSEEN`, sets it to `d`, in one atomic
    /// update; returns whether the depth was `UNSEEN`.
    #[inline(always)]
    fn reach(&self, i: usize, d: u8, regions: u32) -> bool {
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
    fn into_depths(self, len: usize) -> std::io::Result<TableBytes> {
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

/// Asks Linux to back the `bytes` bytes at `start`, not touched yet, with transparent huge
/// pages (`MADV_HUGEPAGE`; the system setting `never` refuses): the children's lanes are
/// read at random all over a gigabyte, and with 4 KiB pages nearly every read also misses the
/// TLB (about 7 % of the 8-tile build measured). Only advice: nothing changes if refused.
fn huge_pages(start: *const u8, bytes: usize) {
    #[cfg(target_os = "linux")]
    {
        // The whole 2 MiB blocks inside the range (the huge page size on x86-64; a multiple
        // of the page size everywhere).
        const BLOCK: usize = 2 << 20;
        let first = (start as usize).next_multiple_of(BLOCK);
        let end = (start as usize + bytes) / BLOCK * BLOCK;
        if end > first {
            // SAFETY: advice on whole pages of an allocation this process owns, not yet
            // touched; MADV_HUGEPAGE changes no content and fails harmlessly where refused.
            unsafe {
                libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, bytes);
}

/// The positions of the set bits of `x`, lowest first.
#[inline(always)]
fn bits(mut x: u32) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (x != 0).then(|| {
            let b = x.trailing_zeros();
            x &= x - 1;
            b
        })
    })
}

/// `0x0101…01`.
const ONES: u64 = u64::MAX / 255;

/// A bit set of the bytes of `w` equal to `b` (bit 7 of each matching byte).
#[inline(always)]
fn bytes_equal(w: u64, b: u8) -> u64 {
    let x = w ^ (ONES * u64::from(b));
    // Exact zero-byte test (no false positives from borrows).
    !(((x & (ONES * 0x7f)) + ONES * 0x7f) | x | (ONES * 0x7f)) & (ONES * 0x80)
}

/// `SELECT8[b][j]`: the position of the `j`-th set bit of byte `b` (8 when there is none).
const SELECT8: [[u8; 8]; 256] = {
    let mut t = [[8u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let (mut j, mut bit) = (0, 0);
        while bit < 8 {
            if b >> bit & 1 == 1 {
                t[b][j] = bit as u8;
                j += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    t
};

/// The bit operations of the builder's inner loops, in a portable form and, on x86-64
/// processors where they are fast, as single BMI2 / POPCNT instructions. The inner loops are
/// generic over this and compiled once per form; [`Isa::detect`] picks one at run time.
trait Bits: Copy + Send + Sync {
    /// The number of set bits of `x`.
    fn popcnt(self, x: u32) -> u32;
    /// The position of the `j`-th set bit of `f` (which has more than `j` set bits).
    fn select(self, f: u32, j: u32) -> u32;
    /// The bits of `x` at the set bits of `mask`, packed into the low bits (`pext`; `x` must
    /// lie within `mask`).
    fn pext(self, x: u32, mask: u32) -> u32;
    /// The low bits of `x` spread onto the set bits of `mask`, in order (`pdep`).
    fn pdep(self, x: u32, mask: u32) -> u32;
}

/// [`Bits`] in plain Rust (a byte table for `select`).
#[derive(Clone, Copy, Debug)]
struct Portable;

impl Bits for Portable {
    #[inline(always)]
    fn popcnt(self, x: u32) -> u32 {
        x.count_ones()
    }

    #[inline(always)]
    fn select(self, f: u32, mut j: u32) -> u32 {
        let mut shift = 0;
        loop {
            let b = (f >> shift) & 0xff;
            let c = b.count_ones();
            if j < c || shift == 24 {
                return shift + u32::from(SELECT8[b as usize][(j & 7) as usize]);
            }
            j -= c;
            shift += 8;
        }
    }

    #[inline(always)]
    fn pext(self, x: u32, mask: u32) -> u32 {
        bits(x).fold(0, |out, b| out | 1 << (mask & ((1 << b) - 1)).count_ones())
    }

    #[inline(always)]
    fn pdep(self, x: u32, mask: u32) -> u32 {
        bits(x).fold(0, |out, b| out | 1 << self.select(mask, b))
    }
}

/// [`Bits`] as BMI2 / POPCNT instructions. Only [`Bmi2::detect`] makes one, so holding one
/// proves the processor has them.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
struct Bmi2(());

#[cfg(target_arch = "x86_64")]
impl Bmi2 {
    /// `Some` where the processor has BMI1, BMI2, LZCNT and POPCNT and runs `pdep` / `pext` in
    /// hardware: AMD processors before Zen 3 (family 19h) microcode them, tens to hundreds of
    /// cycles each (AMD, "Software Optimization Guide for AMD Family 17h Processors",
    /// instruction latencies), slower than the portable form.
    fn detect() -> Option<Self> {
        use std::arch::x86_64::__cpuid;
        // Every feature `Builder::work_bmi2` is compiled for.
        if !(is_x86_feature_detected!("bmi1")
            && is_x86_feature_detected!("bmi2")
            && is_x86_feature_detected!("lzcnt")
            && is_x86_feature_detected!("popcnt"))
        {
            return None;
        }
        let vendor = __cpuid(0);
        let amd_like = matches!(
            (vendor.ebx, vendor.edx, vendor.ecx),
            // "AuthenticAMD", "HygonGenuine"
            (0x6874_7541, 0x6974_6e65, 0x444d_4163) | (0x6f67_7948, 0x6e65_476e, 0x656e_6975)
        );
        let eax = __cpuid(1).eax;
        let family = match (eax >> 8) & 0xf {
            0xf => 0xf + ((eax >> 20) & 0xff),
            base => base,
        };
        (!amd_like || family >= 0x19).then_some(Bmi2(()))
    }
}

#[cfg(target_arch = "x86_64")]
impl Bits for Bmi2 {
    #[inline(always)]
    fn popcnt(self, x: u32) -> u32 {
        // SAFETY: a `Bmi2` exists only where `detect` found POPCNT.
        unsafe { std::arch::x86_64::_popcnt32(x as i32) as u32 }
    }

    #[inline(always)]
    fn select(self, f: u32, j: u32) -> u32 {
        self.pdep(1 << j, f).trailing_zeros()
    }

    #[inline(always)]
    fn pext(self, x: u32, mask: u32) -> u32 {
        // SAFETY: a `Bmi2` exists only where `detect` found BMI2.
        unsafe { std::arch::x86_64::_pext_u32(x, mask) }
    }

    #[inline(always)]
    fn pdep(self, x: u32, mask: u32) -> u32 {
        // SAFETY: as for `pext`.
        unsafe { std::arch::x86_64::_pdep_u32(x, mask) }
    }
}

/// Which form of [`Bits`] a build runs with, chosen once per build.
#[derive(Clone, Copy, Debug)]
enum Isa {
    /// Plain Rust for any processor.
    Portable,
    /// The portable form compiled for x86-64 processors with POPCNT.
    #[cfg(target_arch = "x86_64")]
    Popcnt,
    /// BMI2 `pdep` / `pext`.
    #[cfg(target_arch = "x86_64")]
    Bmi2(Bmi2),
}

impl Isa {
    /// The fastest form this processor runs.
    fn detect() -> Self {
        #[cfg(target_arch = "x86_64")]
        {
            if let Some(b) = Bmi2::detect() {
                return Isa::Bmi2(b);
            }
            if is_x86_feature_detected!("popcnt") {
                return Isa::Popcnt;
            }
        }
        Isa::Portable
    }

    /// Every form this processor runs (tests compare their tables).
    #[cfg(test)]
    fn all() -> Vec<Self> {
        #[cfg(target_arch = "x86_64")]
        {
            let mut v = vec![Isa::Portable];
            if is_x86_feature_detected!("popcnt") {
                v.push(Isa::Popcnt);
            }
            v.extend(Bmi2::detect().map(Isa::Bmi2));
            v
        }
        #[cfg(not(target_arch = "x86_64"))]
        vec![Isa::Portable]
    }
}

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
    /// Board width, and the cells not in its first / last column (for flooding by shifts).
    cols: u32,
    not_left: u32,
    not_right: u32,
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
}

/// Which regions of a placement to expand.
#[derive(Clone, Copy)]
enum Regions {
    /// A mask over the free cells (every cell of each region).
    Mask(u32),
    /// The region holding this free cell (a free-cell number).
    Cell(u32),
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
    fills: Fills,
    dec: Decoded,
    mirror: Decoded,
    late: LateList,
}

/// Kid flag: the child's canonical form is its mirror image (cells and parent's free cells
/// are mirrored).
const MAPPED: u64 = 1 << 48;
/// Kid flag: the child is its own mirror image (its regions are marked with their mirrors);
/// without it, in a build with a symmetry, the child's mirror image is filled in when the child
/// is reached.
const SELF: u64 = 1 << 49;

/// Mirror images reached ([`Sym`]) whose depths are not written yet: a ring of the last
/// `FILLS` (their lanes' loads overlap with the work in between), `n` in all.
struct Fills {
    ring: [u32; FILLS],
    n: usize,
}

/// The length of [`Fills`]'s ring.
const FILLS: usize = 64;

impl Default for Scratch {
    fn default() -> Self {
        Scratch {
            kids: Vec::with_capacity(2 * BATCH),
            frees: Vec::with_capacity(PARENTS),
            others: Vec::with_capacity(2 * BATCH),
            fills: Fills {
                ring: [0; FILLS],
                n: 0,
            },
            dec: Decoded::default(),
            mirror: Decoded::default(),
            late: LateList::default(),
        }
    }
}

/// A placement decoded for expanding: its cells and its free cells as bit sets; per cell the
/// slot of its tile and that slot's index weight (0 where free, and at 32); per slot the
/// cells of the tiles in earlier slots.
struct Decoded {
    occ: u32,
    free: u32,
    /// The cell of each slot's tile.
    pos: [u8; 16],
    slot_at: [u8; 32],
    weight_at: [u32; 33],
    earlier: [u32; 16],
    /// The digits of the first `Builder::prefix` slots of the last placement decoded in full
    /// (`u32::MAX`: none yet), and their cells: the entries above for those slots and cells
    /// still hold.
    prefix: u32,
    prefix_occ: u32,
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
struct Sym {
    /// `g` on cells.
    cell: [u8; 32],
    /// `σ` on slots.
    slot: [u8; 16],
    /// `g` on cell sets, a byte at a time: `map(x)` is the union of `bytes[i][byte i of x]`.
    bytes: [[u32; 256]; 4],
}

impl Sym {
    /// The first reflection of a `rows × cols` board that maps the cells `start` (the
    /// pattern's goal cells, in slot order) onto themselves and the cell set `region` onto
    /// itself.
    fn find(rows: usize, cols: usize, start: &[u8], region: u32) -> Option<Box<Sym>> {
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
    fn map(&self, x: u32) -> u32 {
        self.bytes[0][(x & 0xff) as usize]
            | self.bytes[1][(x >> 8 & 0xff) as usize]
            | self.bytes[2][(x >> 16 & 0xff) as usize]
            | self.bytes[3][(x >> 24) as usize]
    }
}

impl<const B: u32> Builder<B> {
    fn new(goal: &Goal, tiles: &[u8]) -> Self {
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
        let column_mask = |col: usize| {
            (0..n)
                .filter(|c| c % cols == col)
                .fold(0u32, |m, c| m | 1 << c)
        };
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
            not_left: ((1u64 << n) - 1) as u32 & !column_mask(0),
            not_right: ((1u64 << n) - 1) as u32 & !column_mask(cols - 1),
            k,
            total,
            weights,
            recips: weights.map(|w| u64::MAX / u64::from(w.max(1))),
            prefix: k / 2,
            nbr_bits,
            all: if n == 32 { u32::MAX } else { (1u32 << n) - 1 },
            lanes: Lanes::new(total),
            free: (n - k) as u64,
            wide,
            pull_always: false,
            list_cap: total as u64 * u64::from(B) / 8 / 5 / if wide { 8 } else { 4 },
            start,
            start_blank: b.blank(),
            isa: Isa::detect(),
            sym: None,
        };
        let occ = builder.start.iter().fold(0u32, |m, &c| m | 1 << c);
        let region = builder.flood(occ, builder.start_blank as u32);
        builder.sym = Sym::find(rows, cols, &builder.start, region);
        builder
    }

    /// The rank of a k-permutation of cells (see [`PatternTable::index`]).
    #[inline(always)]
    fn rank(&self, pos: &[u8; 16]) -> usize {
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
    fn flood(&self, occ: u32, from: u32) -> u32 {
        let free = self.all & !occ;
        let mut region = 1u32 << from;
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

    /// Decodes the placement at `idx` into `dec` for expanding (the inverse of
    /// [`Builder::rank`]). Only the entries of occupied cells and of the pattern's slots are
    /// written: nothing reads the others (`weight_at[32]` stays 0).
    #[inline(always)]
    fn decode<I: Bits>(&self, isa: I, idx: usize, dec: &mut Decoded) {
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
    fn child_index<I: Bits>(&self, isa: I, dec: &Decoded, idx: usize, m: u32, c: u32) -> usize {
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

    /// Expands the regions `regions` of the placement at `idx`, which have depth `d`: every
    /// pattern tile next to one of them moves into it. A child region not reached yet is
    /// marked in the child's lane (the child gets depth `d + 1` if it had none); if the child
    /// was reached earlier, the region is also listed as late in `scratch`. The children are
    /// only gathered here; they are checked in batches ([`Builder::settle`]), so the counts
    /// returned (entries filled, late regions listed) are those of the batch this call closed,
    /// if any.
    #[inline(always)]
    fn expand<I: Bits>(
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
        let regions = match regions {
            Regions::Mask(m) => m,
            Regions::Cell(f) => isa.pext(self.flood(dec.occ, isa.select(dec.free, f)), dec.free),
        };
        let parent = (frees.len() as u64) << 10;
        let moves = self.moves_into(dec.occ, isa.pdep(regions, dec.free));
        let Some(sym) = &self.sym else {
            frees.push([dec.free, 0]);
            for (c, m) in moves {
                let cidx = self.child_index(isa, dec, idx, m, c);
                self.lanes.prefetch(cidx);
                kids.push((cidx as u64) << 16 | parent | u64::from(c) << 5 | u64::from(m));
            }
            return;
        };
        let fidx = self.mirror(isa, sym, dec, mirror);
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

    /// The child of the placement at `idx` (decoded as `dec`, its mirror image at `fidx` as
    /// `mirror`) with the tile on cell `m` moved to cell `c`, and the child's mirror image:
    /// (the canonical index of the two, the other one, whether the canonical one is the mirror
    /// image). The mirror image's move is the tile on `g(m)` moving to `g(c)`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn canonical<I: Bits>(
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
    fn mirror<I: Bits>(&self, isa: I, sym: &Sym, dec: &Decoded, out: &mut Decoded) -> usize {
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

    /// Every move of a pattern tile into one of `cells` (free cells of the placement whose
    /// cells are `occ`), as (cell moved into, the tile's cell).
    #[inline(always)]
    fn moves_into(&self, occ: u32, cells: u32) -> impl Iterator<Item = (u32, u32)> + '_ {
        bits(cells).flat_map(move |c| bits(self.nbr_bits[c as usize] & occ).map(move |m| (c, m)))
    }

    /// Pass 2 for every child gathered: floods and records the new regions (see
    /// [`Builder::expand`]). Returns (entries filled, late regions recorded).
    #[inline(always)]
    fn settle<I: Bits>(&self, isa: I, d: u8, scratch: &mut Scratch) -> (u64, u64) {
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

    /// Gives the mirror image at `idx` depth `d`, `FILLS` calls later (or in
    /// [`Builder::flush_fills`]): its lane is loaded meanwhile, so that the atomic writes do
    /// not wait for memory one by one. Nothing uses a mirror image's lane as a state's before
    /// the layer ends (a bottom-up scan may mark it complete meanwhile, which sets other bits).
    #[inline(always)]
    fn fill(&self, idx: usize, d: u8, fills: &mut Fills) {
        self.lanes.prefetch(idx);
        let slot = &mut fills.ring[fills.n % FILLS];
        if fills.n >= FILLS {
            self.set_mirror_depth(*slot as usize, d);
        }
        *slot = idx as u32;
        fills.n += 1;
    }

    /// Writes the depths `d` that [`Builder::fill`] has not written yet.
    fn flush_fills(&self, d: u8, fills: &mut Fills) {
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
    fn pull<I: Bits>(
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

    /// Expands layer `d`: first the late regions of depth `d` listed by the previous layer
    /// (`late_in`), then the placements whose depth is `d` (all their regions). A pull layer
    /// ([`Builder::pull`]) instead checks every placement of the other parity that has
    /// regions not reached yet, and lists nothing. Returns (entries filled, late regions found,
    /// their list, or `None` when it outgrew `list_cap` or the layer pulled).
    fn layer(
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

    /// One work item of layer `d` ([`Builder::work_in`]) with the bit operations of
    /// `self.isa`.
    fn work(&self, item: Item, d: u8, pull: bool, scratch: &mut Scratch) -> (u64, u64) {
        match self.isa {
            Isa::Portable => self.work_in(Portable, item, d, pull, scratch),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Isa::Popcnt` is chosen only where the processor has POPCNT.
            Isa::Popcnt => unsafe { self.work_popcnt(item, d, pull, scratch) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: a `Bmi2` exists only where the processor has every feature enabled.
            Isa::Bmi2(b) => unsafe { self.work_bmi2(b, item, d, pull, scratch) },
        }
    }

    /// [`Builder::work_in`] compiled for POPCNT.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn work_popcnt(&self, item: Item, d: u8, pull: bool, scratch: &mut Scratch) -> (u64, u64) {
        self.work_in(Portable, item, d, pull, scratch)
    }

    /// [`Builder::work_in`] compiled for BMI2 (and what comes with it on every processor that
    /// has it: BMI1, LZCNT, POPCNT).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi1,bmi2,lzcnt,popcnt")]
    fn work_bmi2(
        &self,
        isa: Bmi2,
        item: Item,
        d: u8,
        pull: bool,
        scratch: &mut Scratch,
    ) -> (u64, u64) {
        self.work_in(isa, item, d, pull, scratch)
    }

    /// One work item of layer `d`: expands a list of late regions, or expands (or, in a pull
    /// layer, pulls) a chunk of placements. Returns (entries filled, late regions found); the
    /// late regions are left in `scratch.late`.
    #[inline(always)]
    fn work_in<I: Bits>(
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

    /// The depths, or `None` when `progress` stopped the build (an error when their memory
    /// cannot be mapped).
    fn run(
        self,
        pattern: usize,
        progress: &(dyn Fn(&BuildProgress) -> bool + Sync),
    ) -> Option<std::io::Result<TableBytes>> {
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
            // (measured on 3×5 and 4×4 patterns: about where the two cost the same; on the
            // 8-tile table one layer earlier or later was slower). With a symmetry `found`
            // counts mirror images and `late` does not; counting both (one layer earlier on the
            // 8-tile table) was slower.
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
        let Builder { lanes, total, .. } = self;
        Some(lanes.into_depths(total))
    }
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
) -> Result<Vec<PatternTable>, String> {
    patterns
        .iter()
        .enumerate()
        .map(|(i, p)| build_table(goal, p, i, max_memory, progress))
        .collect()
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
                let mut b = Builder::<B>::new(&goal, tiles);
                assert_eq!(lane_bits(rows * cols, tiles.len()), B);
                tune(&mut b);
                b.run(0, &|_| true).unwrap().unwrap().to_vec()
            };
            let default = build(&|_| {});
            // Every placement is reached, but for a pattern of all tiles only those of the
            // goal's permutation parity (half).
            let unseen = default.iter().filter(|&&v| v == UNSEEN).count();
            let want = if tiles.len() + 1 == rows * cols {
                default.len() / 2
            } else {
                0
            };
            assert_eq!(
                unseen, want,
                "{rows}×{cols} {tiles:?} placements not reached"
            );
            // Only the goal placement has depth 0.
            assert_eq!(default.iter().filter(|&&v| v == 0).count(), 1);
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
            if Builder::<B>::new(&goal, tiles).sym.is_some() {
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
