//! One pattern's table: its memory (`TableBytes`, huge pages, prefetch) and the ranking of
//! placements (`PatternTable::index`).

use super::PdbError;

/// `n · (n−1) ⋯ (n−k+1)`: placements of `k` distinct tiles on `n` cells.
pub fn placements(n: usize, k: usize) -> u64 {
    (0..k as u64).map(|i| n as u64 - i).product()
}

/// Bytes of a table, in memory backed by transparent huge pages where the system offers them
/// (Linux `MADV_HUGEPAGE`): IDA* reads tables of hundreds of megabytes at random, and with
/// 4 KiB pages nearly every read also misses the TLB.
pub struct TableBytes {
    map: memmap2::MmapMut,
    len: usize,
}

impl TableBytes {
    /// `len` zero bytes.
    ///
    /// # Errors
    /// The system's error when the memory cannot be mapped.
    pub fn zeroed(len: usize) -> std::io::Result<Self> {
        let map = memmap2::MmapMut::map_anon(len.max(1))?;
        #[cfg(target_os = "linux")]
        if len >= 1 << 21 {
            // Only advice: without huge pages the table works the same, slower.
            let _ = map.advise(memmap2::Advice::HugePage);
        }
        Ok(TableBytes { map, len })
    }

    /// A copy of `bytes`.
    ///
    /// # Errors
    /// As [`TableBytes::zeroed`].
    pub fn from_slice(bytes: &[u8]) -> std::io::Result<Self> {
        let mut t = Self::zeroed(bytes.len())?;
        t.copy_from_slice(bytes);
        Ok(t)
    }
}

impl TableBytes {
    /// Starts loading byte `i` into the cache (a hint, for reads soon after; no effect on other
    /// targets than x86-64, nor when `i` is out of range).
    #[inline(always)]
    pub fn prefetch(&self, i: usize) {
        if i < self.len {
            prefetch(self.map.as_ptr().wrapping_add(i));
        }
    }
}

/// Starts loading the cache line at `p` (`PREFETCHT0`; a hint that reads nothing the program
/// sees and never faults; nothing on other targets than x86-64).
#[inline(always)]
pub(crate) fn prefetch(p: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch only hints the cache: it reads nothing the program sees and never
    // faults, whatever the address.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

impl std::ops::Deref for TableBytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.map[..self.len]
    }
}

impl std::ops::DerefMut for TableBytes {
    fn deref_mut(&mut self) -> &mut [u8] {
        &mut self.map[..self.len]
    }
}

/// One pattern's table: the pattern tiles (in index order) and one byte per placement: its
/// value (moves), with the blank-region flags in the two high bits when
/// [`PatternTable::regions`] ([`regions`](super::regions)).
pub struct PatternTable {
    pub(super) tiles: Vec<u8>,
    cells: usize,
    pub(super) weights: Vec<u64>,
    pub(super) table: TableBytes,
    regions: bool,
}

impl std::fmt::Debug for PatternTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PatternTable")
            .field("tiles", &self.tiles)
            .field("cells", &self.cells)
            .field("entries", &self.table.len())
            .field("regions", &self.regions)
            .finish()
    }
}

impl PartialEq for PatternTable {
    fn eq(&self, other: &Self) -> bool {
        self.tiles == other.tiles
            && self.cells == other.cells
            && self.regions == other.regions
            && self.bytes() == other.bytes()
    }
}

impl PatternTable {
    /// Wraps a built table for `tiles` on a board of `cells` cells.
    ///
    /// # Errors
    /// [`PdbError::WrongSize`] if `table` does not hold [`placements`]`(cells, tiles.len())`
    /// entries, [`PdbError::Memory`] if the memory for it cannot be mapped.
    pub fn from_parts(tiles: Vec<u8>, cells: usize, table: Vec<u8>) -> Result<Self, PdbError> {
        let bytes = TableBytes::from_slice(&table).map_err(PdbError::Memory)?;
        drop(table);
        Self::from_bytes(tiles, cells, bytes)
    }

    /// Wraps the entries in `table` for `tiles` on a board of `cells` cells.
    ///
    /// # Errors
    /// [`PdbError::BadPattern`] unless `tiles` are 1 to 16 distinct tiles of the board (no
    /// blank), fewer than its cells (a cache file's header is not trusted further);
    /// [`PdbError::WrongSize`] if `table` does not hold [`placements`]`(cells, tiles.len())`
    /// entries.
    pub fn from_bytes(tiles: Vec<u8>, cells: usize, table: TableBytes) -> Result<Self, PdbError> {
        let k = tiles.len();
        let mut seen = vec![false; cells];
        let distinct = tiles.iter().all(|&t| {
            let t = usize::from(t);
            t != 0 && t < cells && !std::mem::replace(&mut seen[t], true)
        });
        if k == 0 || k >= cells || k > 16 || !distinct {
            return Err(PdbError::BadPattern { tiles: k, cells });
        }
        let want = placements(cells, k);
        if table.len() as u64 != want {
            return Err(PdbError::WrongSize {
                tiles: k,
                cells,
                want,
                got: table.len() as u64,
            });
        }
        // weights[i] = P(n−1−i, k−1−i)
        let weights = (0..k)
            .map(|i| placements(cells - 1 - i, k - 1 - i))
            .collect();
        Ok(PatternTable {
            tiles,
            cells,
            weights,
            table,
            regions: false,
        })
    }

    /// The same table, whose bytes hold the blank-region flags in their two high bits
    /// (`regions`) or not.
    #[must_use]
    pub fn with_regions(mut self, regions: bool) -> Self {
        self.regions = regions;
        self
    }

    /// Whether the bytes hold blank-region flags in their two high bits, the value in the six
    /// low ones ([`regions`](super::regions)).
    pub fn regions(&self) -> bool {
        self.regions
    }

    /// The mask of an entry's value bits (all of them without region flags).
    pub fn value_mask(&self) -> u8 {
        super::regions::value_mask(self.regions)
    }

    /// The pattern's tiles, in index order.
    pub fn tiles(&self) -> &[u8] {
        &self.tiles
    }

    /// The index weights `P(n−1−i, k−1−i)`, one per pattern tile.
    pub fn weights(&self) -> &[u64] {
        &self.weights
    }

    /// The table's bytes, indexed by [`PatternTable::index`]: moves, and the region flags
    /// when [`PatternTable::regions`].
    pub fn bytes(&self) -> &[u8] {
        &self.table
    }

    /// Index of a placement: `positions[i]` = cell of `tiles()[i]`. Lexicographic rank of the
    /// k-permutation: `Σ dᵢ · P(n−1−i, k−1−i)`, `dᵢ` = cells below `pᵢ` not used by `p₀…pᵢ₋₁`.
    #[inline]
    pub fn index(&self, positions: &[u8]) -> usize {
        self.rank(|i| positions[i])
    }

    /// [`PatternTable::index`] of the placement whose `i`-th tile is on cell `cell_of(i)`.
    /// Counts with comparisons rather than a popcount: without the POPCNT target feature (not
    /// in the x86-64 baseline) `count_ones` compiles to a slow bit trick.
    #[inline(always)]
    pub(super) fn rank(&self, mut cell_of: impl FnMut(usize) -> u8) -> usize {
        let mut prev = [0u8; 16];
        let mut idx = 0u64;
        for (i, &w) in self.weights.iter().enumerate() {
            let c = cell_of(i);
            let below = prev[..i].iter().filter(|&&q| q < c).count() as u64;
            idx += (u64::from(c) - below) * w;
            prev[i & 15] = c;
        }
        idx as usize
    }

    /// The placement at `index` (the inverse of [`PatternTable::index`]): `positions[i]` =
    /// cell of `tiles()[i]`; `positions` has one entry per pattern tile.
    pub fn positions(&self, index: usize, positions: &mut [u8]) {
        let mut rest = index as u64;
        let mut used = vec![false; self.cells];
        for (i, &w) in self.weights.iter().enumerate() {
            let d = rest / w;
            rest %= w;
            // The d-th cell (from 0) not used by the earlier tiles.
            let cell = (0..self.cells)
                .filter(|&c| !used[c])
                .nth(d as usize)
                .unwrap_or(0);
            used[cell] = true;
            positions[i] = cell as u8;
        }
    }

    /// The value at a placement (moves), the least over the blank's regions.
    #[inline]
    pub fn value(&self, positions: &[u8]) -> u8 {
        self.table[self.index(positions)] & self.value_mask()
    }
}
