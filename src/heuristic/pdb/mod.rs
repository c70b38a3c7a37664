//! Additive disjoint pattern databases (Korf & Felner, "Disjoint pattern database heuristics",
//! Artificial Intelligence 134 (2002) 9–22; Felner, Korf & Hanan, "Additive pattern database
//! heuristics", JAIR 22 (2004) 279–318).
//!
//! The non-blank tiles are split into disjoint patterns. For each pattern, a table gives, for
//! every placement of its tiles, the minimum number of moves *of pattern tiles* needed to bring
//! them to their goal cells, where moves of the other tiles cost nothing ([`build`]). Because
//! every move moves one tile of one pattern, the values of disjoint patterns add up to an
//! admissible heuristic. On square boards whose goal has the blank on the main diagonal, the
//! same tables are also looked up on the board reflected about that diagonal (tiles relabelled
//! so the goal maps to itself), and the larger sum is used (Culberson & Schaeffer's reflection,
//! as in Korf & Felner 2002).
//!
//! Tables are indexed by the rank of the k-permutation of the pattern tiles' cells
//! ([`PatternTable::index`]), one byte an entry.

pub mod build;
pub mod cache;

use std::sync::Arc;

use super::{Heuristic, Incremental};
use crate::puzzle::Goal;

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

/// One pattern's table: the pattern tiles (in index order) and one byte per placement.
pub struct PatternTable {
    tiles: Vec<u8>,
    cells: usize,
    weights: Vec<u64>,
    table: TableBytes,
}

impl std::fmt::Debug for PatternTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PatternTable")
            .field("tiles", &self.tiles)
            .field("cells", &self.cells)
            .field("entries", &self.table.len())
            .finish()
    }
}

impl PartialEq for PatternTable {
    fn eq(&self, other: &Self) -> bool {
        self.tiles == other.tiles && self.cells == other.cells && self.bytes() == other.bytes()
    }
}

impl PatternTable {
    /// Wraps a built table for `tiles` on a board of `cells` cells.
    ///
    /// # Errors
    /// A message if `table` does not hold [`placements`]`(cells, tiles.len())` entries, or
    /// the memory for it cannot be mapped.
    pub fn from_parts(tiles: Vec<u8>, cells: usize, table: Vec<u8>) -> Result<Self, String> {
        let bytes = TableBytes::from_slice(&table).map_err(|e| e.to_string())?;
        drop(table);
        Self::from_bytes(tiles, cells, bytes)
    }

    /// Wraps the entries in `table` for `tiles` on a board of `cells` cells.
    ///
    /// # Errors
    /// A message if `table` does not hold [`placements`]`(cells, tiles.len())` entries.
    pub fn from_bytes(tiles: Vec<u8>, cells: usize, table: TableBytes) -> Result<Self, String> {
        let k = tiles.len();
        let want = placements(cells, k);
        if table.len() as u64 != want {
            return Err(format!(
                "a {k}-tile table on {cells} cells has {want} entries, not {}",
                table.len()
            ));
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
        })
    }

    /// The pattern's tiles, in index order.
    pub fn tiles(&self) -> &[u8] {
        &self.tiles
    }

    /// The index weights `P(n−1−i, k−1−i)`, one per pattern tile.
    pub fn weights(&self) -> &[u64] {
        &self.weights
    }

    /// The table's bytes (moves), indexed by [`PatternTable::index`].
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
    fn rank(&self, mut cell_of: impl FnMut(usize) -> u8) -> usize {
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

    /// The value at a placement (moves).
    #[inline]
    pub fn value(&self, positions: &[u8]) -> u8 {
        self.table[self.index(positions)]
    }
}

/// A partition of the tiles with built tables, as one additive heuristic.
#[derive(Clone, Debug)]
pub struct AdditivePdb {
    name: String,
    cells: usize,
    tables: Vec<Arc<PatternTable>>,
    /// Pattern of each tile (`u8::MAX` for the blank).
    pattern_of: Vec<u8>,
    /// Slot of each tile within its pattern (index order).
    slot_of: Vec<u8>,
    /// Reflection: tile map φ and cell map T, when the goal allows it.
    reflect: Option<(Vec<u8>, Vec<u8>)>,
}

/// Incremental state: each pattern's table index and value on the board and on its
/// reflection, and the two sums.
#[derive(Clone, Debug)]
pub struct PdbState {
    idx: Vec<u32>,
    ridx: Vec<u32>,
    vals: Vec<u8>,
    rvals: Vec<u8>,
    sum: u32,
    rsum: u32,
}

impl AdditivePdb {
    /// Combines built tables (one per pattern, disjoint, covering every tile) for `goal`.
    ///
    /// # Errors
    /// A message when the patterns overlap or miss a tile.
    pub fn new(name: &str, goal: &Goal, tables: Vec<Arc<PatternTable>>) -> Result<Self, String> {
        let n = goal.board().len();
        let mut pattern_of = vec![u8::MAX; n];
        let mut slot_of = vec![0u8; n];
        for (p, t) in tables.iter().enumerate() {
            for (s, &tile) in t.tiles().iter().enumerate() {
                if tile == 0 || tile as usize >= n || pattern_of[tile as usize] != u8::MAX {
                    return Err(format!(
                        "tile {tile} is the blank, out of range or in two patterns"
                    ));
                }
                pattern_of[tile as usize] = p as u8;
                slot_of[tile as usize] = s as u8;
            }
        }
        if let Some(t) = (1..n).find(|&t| pattern_of[t] == u8::MAX) {
            return Err(format!("tile {t} is in no pattern"));
        }
        Ok(AdditivePdb {
            name: name.to_string(),
            cells: n,
            tables,
            pattern_of,
            slot_of,
            reflect: reflection(goal),
        })
    }

    /// The partition's name (e.g. `pdb78`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether the reflected lookup is used.
    pub fn reflects(&self) -> bool {
        self.reflect.is_some()
    }

    /// The reflection's tile map φ and cell map T, when the reflected lookup is used.
    pub fn reflection(&self) -> Option<(&[u8], &[u8])> {
        self.reflect
            .as_ref()
            .map(|(p, t)| (p.as_slice(), t.as_slice()))
    }

    /// The tables, one per pattern.
    pub fn tables(&self) -> &[Arc<PatternTable>] {
        &self.tables
    }

    /// Each pattern's index, value, and the sum of the values, given each tile's cell.
    fn sums(&self, pos: &[u8]) -> (Vec<u32>, Vec<u8>, u32) {
        let idx: Vec<u32> = self
            .tables
            .iter()
            .map(|t| t.rank(|i| pos[t.tiles[i] as usize]) as u32)
            .collect();
        let vals: Vec<u8> = idx
            .iter()
            .zip(&self.tables)
            .map(|(&i, t)| t.table[i as usize])
            .collect();
        let sum = vals.iter().map(|&v| u32::from(v)).sum();
        (idx, vals, sum)
    }

    /// The change of pattern `p`'s index when its tile in slot `s` moves from cell `from` to
    /// cell `to` (one move apart), where `pattern_slot(x)` gives the pattern and slot of the
    /// tile on cell `x` (cells strictly between the two, i.e. for a vertical move). The rank
    /// digit of the moving tile changes by the distance less the earlier tiles of its pattern
    /// in between; the digit of every later tile in between by one.
    #[inline(always)]
    fn index_delta(
        &self,
        p: usize,
        s: usize,
        from: usize,
        to: usize,
        pattern_slot: impl Fn(usize) -> (u8, u8),
    ) -> i64 {
        let w = &self.tables[p].weights;
        let (lo, hi) = (from.min(to), from.max(to));
        let ws = w[s] as i64;
        let mut delta = (hi - lo) as i64 * ws;
        for x in lo + 1..hi {
            let (q, j) = pattern_slot(x);
            if q as usize == p {
                if (j as usize) < s {
                    delta -= ws;
                } else {
                    delta += w[j as usize] as i64;
                }
            }
        }
        if to > from { delta } else { -delta }
    }

    fn positions(&self, tiles: &[u8]) -> (Vec<u8>, Vec<u8>) {
        let mut pos = vec![0u8; self.cells];
        for (c, &t) in tiles.iter().enumerate() {
            pos[t as usize] = c as u8;
        }
        let rpos = match &self.reflect {
            Some((phi, tmap)) => {
                let mut r = vec![0u8; self.cells];
                for (c, &t) in tiles.iter().enumerate() {
                    r[phi[t as usize] as usize] = tmap[c];
                }
                r
            }
            None => Vec::new(),
        };
        (pos, rpos)
    }
}

/// φ and T for the reflection about the main diagonal, if the goal allows it (square board,
/// blank's goal cell on the diagonal).
fn reflection(goal: &Goal) -> Option<(Vec<u8>, Vec<u8>)> {
    let b = goal.board();
    let (r, c) = (b.rows(), b.cols());
    if r != c || b.blank() / c != b.blank() % c {
        return None;
    }
    let n = b.len();
    let tmap: Vec<u8> = (0..n)
        .map(|cell| ((cell % c) * c + cell / c) as u8)
        .collect();
    let phi: Vec<u8> = (0..n)
        .map(|t| b.tiles()[tmap[goal.position_of(t as u8)] as usize])
        .collect();
    Some((phi, tmap))
}

impl Heuristic for AdditivePdb {
    fn estimate(&self, tiles: &[u8]) -> u32 {
        let (pos, rpos) = self.positions(tiles);
        let sum = self.sums(&pos).2;
        if self.reflect.is_some() {
            sum.max(self.sums(&rpos).2)
        } else {
            sum
        }
    }

    fn name(&self) -> &str {
        &self.name
    }
}

/// A move of [`AdditivePdb`] evaluated ahead: the moved tile's pattern index on the board and
/// on the reflection, whose table entries are being loaded (prefetched) meanwhile.
#[derive(Clone, Copy, Debug, Default)]
pub struct PdbPrepared {
    i: u32,
    ri: u32,
}

/// What undoing one move of [`AdditivePdb`] restores: the pattern and reflected pattern touched,
/// their old values, and the old sums.
#[derive(Clone, Copy, Debug)]
pub struct PdbUndo {
    p: u8,
    v: u8,
    rp: u8,
    rv: u8,
    idx: u32,
    ridx: u32,
    sum: u32,
    rsum: u32,
}

impl Incremental for AdditivePdb {
    type State = PdbState;
    type Undo = PdbUndo;
    type Prepared = PdbPrepared;

    #[inline(always)]
    fn prepare(
        &self,
        st: &PdbState,
        tiles: &[u8],
        tile: u8,
        from: usize,
        to: usize,
    ) -> PdbPrepared {
        let t = tile as usize;
        let p = self.pattern_of[t] as usize;
        let pattern_slot = |x: usize| {
            let u = tiles[x] as usize;
            (self.pattern_of[u], self.slot_of[u])
        };
        let i = (i64::from(st.idx[p])
            + self.index_delta(p, self.slot_of[t] as usize, from, to, pattern_slot))
            as u32;
        self.tables[p].table.prefetch(i as usize);
        let mut out = PdbPrepared { i, ri: 0 };
        if let Some((phi, tmap)) = &self.reflect {
            let rt = phi[t] as usize;
            let rp = self.pattern_of[rt] as usize;
            let rpattern_slot = |x: usize| {
                let u = phi[tiles[tmap[x] as usize] as usize] as usize;
                (self.pattern_of[u], self.slot_of[u])
            };
            let (rfrom, rto) = (tmap[from] as usize, tmap[to] as usize);
            out.ri = (i64::from(st.ridx[rp])
                + self.index_delta(rp, self.slot_of[rt] as usize, rfrom, rto, rpattern_slot))
                as u32;
            self.tables[rp].table.prefetch(out.ri as usize);
        }
        out
    }

    #[inline(always)]
    fn apply(
        &self,
        st: &mut PdbState,
        _tiles: &[u8],
        tile: u8,
        _from: usize,
        _to: usize,
        pr: PdbPrepared,
        enough: u32,
    ) -> (i32, PdbUndo) {
        let u = self.undo_record(st, tile);
        (self.commit(st, tile, pr, enough), u)
    }

    #[inline(always)]
    fn undo(&self, st: &mut PdbState, _: &[u8], _tile: u8, _from: usize, _to: usize, u: PdbUndo) {
        st.vals[u.p as usize] = u.v;
        st.idx[u.p as usize] = u.idx;
        st.sum = u.sum;
        if self.reflect.is_some() {
            st.rvals[u.rp as usize] = u.rv;
            st.ridx[u.rp as usize] = u.ridx;
            st.rsum = u.rsum;
        }
    }

    fn init(&self, tiles: &[u8]) -> (PdbState, u32) {
        let (pos, rpos) = self.positions(tiles);
        let (idx, vals, sum) = self.sums(&pos);
        let (ridx, rvals, rsum) = if self.reflect.is_some() {
            self.sums(&rpos)
        } else {
            (Vec::new(), Vec::new(), 0)
        };
        let h = sum.max(rsum);
        (
            PdbState {
                idx,
                ridx,
                vals,
                rvals,
                sum,
                rsum,
            },
            h,
        )
    }
}

impl AdditivePdb {
    /// What undoing a move of `tile` restores.
    #[inline(always)]
    fn undo_record(&self, st: &PdbState, tile: u8) -> PdbUndo {
        let t = tile as usize;
        let p = self.pattern_of[t];
        let mut u = PdbUndo {
            p,
            v: st.vals[p as usize],
            rp: 0,
            rv: 0,
            idx: st.idx[p as usize],
            ridx: 0,
            sum: st.sum,
            rsum: st.rsum,
        };
        if let Some((phi, _)) = &self.reflect {
            u.rp = self.pattern_of[phi[t] as usize];
            u.rv = st.rvals[u.rp as usize];
            u.ridx = st.ridx[u.rp as usize];
        }
        u
    }

    /// Writes a prepared move into the state: the board's own pattern, and the reflected one
    /// unless the board's sum is already `enough` (see
    /// [`Incremental::apply`]). Returns the change in `h`.
    #[inline(always)]
    fn commit(&self, st: &mut PdbState, tile: u8, pr: PdbPrepared, enough: u32) -> i32 {
        let before = st.sum.max(st.rsum);
        let t = tile as usize;
        let p = self.pattern_of[t] as usize;
        let v = self.tables[p].table[pr.i as usize];
        st.idx[p] = pr.i;
        st.sum = st.sum + u32::from(v) - u32::from(st.vals[p]);
        st.vals[p] = v;
        if st.sum < enough
            && let Some((phi, _)) = &self.reflect
        {
            let rp = self.pattern_of[phi[t] as usize] as usize;
            let rv = self.tables[rp].table[pr.ri as usize];
            st.ridx[rp] = pr.ri;
            st.rsum = st.rsum + u32::from(rv) - u32::from(st.rvals[rp]);
            st.rvals[rp] = rv;
        }
        st.sum.max(st.rsum) as i32 - before as i32
    }
}

/// The tiles of a goal in goal-cell order (blank skipped), for cutting contiguous patterns.
pub fn tiles_in_goal_order(goal: &Goal) -> Vec<u8> {
    goal.board()
        .tiles()
        .iter()
        .copied()
        .filter(|&t| t != 0)
        .collect()
}

/// Cuts the tiles, in goal-cell order, into consecutive patterns of the given sizes.
///
/// # Errors
/// A message when the sizes do not add up to the number of tiles.
pub fn contiguous_partition(goal: &Goal, sizes: &[usize]) -> Result<Vec<Vec<u8>>, String> {
    let tiles = tiles_in_goal_order(goal);
    if sizes.iter().sum::<usize>() != tiles.len() {
        return Err(format!(
            "pattern sizes {sizes:?} add up to {}, but the board has {} tiles",
            sizes.iter().sum::<usize>(),
            tiles.len()
        ));
    }
    let mut out = Vec::new();
    let mut at = 0;
    for &s in sizes {
        out.push(tiles[at..at + s].to_vec());
        at += s;
    }
    Ok(out)
}

/// The named partitions: `pdb8` (3×3, one pattern: the exact distance), `pdb555`, `pdb663`,
/// `pdb78` (4×4), `pdb6666` (5×5). Patterns are cut from the tiles in goal-cell order, so the
/// same names work for any goal — except `pdb6666` with the blank's goal in a corner, which
/// uses Korf & Felner's partition ([`KORF_FELNER_24`]).
pub const NAMED: [(&str, usize, usize, &[usize]); 5] = [
    ("pdb8", 3, 3, &[8]),
    ("pdb555", 4, 4, &[5, 5, 5]),
    ("pdb663", 4, 4, &[6, 6, 3]),
    ("pdb78", 4, 4, &[7, 8]),
    ("pdb6666", 5, 5, &[6, 6, 6, 6]),
];

/// Korf & Felner's 6-6-6-6 partition of the 24-puzzle (AI 134 (2002), figure 4), as the goal
/// cells of each pattern's tiles with the blank's goal at the top left (cell 0): tiles
/// 1 2 5 6 7 12, 3 4 8 9 13 14, 10 11 15 16 20 21 and 17 18 19 22 23 24 of the goal
/// `0 1 … 24`. With the blank's goal at the bottom right the cells are turned by 180°.
pub const KORF_FELNER_24: [[u8; 6]; 4] = [
    [1, 2, 5, 6, 7, 12],
    [3, 4, 8, 9, 13, 14],
    [10, 11, 15, 16, 20, 21],
    [17, 18, 19, 22, 23, 24],
];

/// A partition to build: a name or explicit pattern sizes or tiles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PartitionSpec {
    /// One of [`NAMED`].
    Named(String),
    /// Consecutive patterns of these sizes in goal-cell order (`pdb:4,4`).
    Sizes(Vec<usize>),
    /// Explicit tiles per pattern (`pdb:1 2 3 4/5 6 7 8`).
    Tiles(Vec<Vec<u8>>),
}

impl PartitionSpec {
    /// Parses `pdb555`, `pdb:4,4` or `pdb:1 2 3/4 5 6`.
    ///
    /// # Errors
    /// A message naming what is wrong.
    pub fn parse(s: &str) -> Result<PartitionSpec, String> {
        let s = s.trim().to_ascii_lowercase();
        if NAMED.iter().any(|n| n.0 == s) {
            return Ok(PartitionSpec::Named(s));
        }
        let Some(rest) = s.strip_prefix("pdb:") else {
            return Err(format!(
                "unknown pattern database {s:?} (pdb8, pdb555, pdb663, pdb78, pdb6666, pdb:SIZES like pdb:4,4, or pdb:TILES like pdb:1 2 3 4/5 6 7 8)"
            ));
        };
        if rest.contains('/') || rest.split(',').any(|p| p.trim().contains(' ')) {
            let pats = rest
                .split('/')
                .map(|p| {
                    p.split([' ', ','])
                        .filter(|t| !t.is_empty())
                        .map(|t| t.parse::<u8>().map_err(|_| format!("{t:?} is not a tile")))
                        .collect::<Result<Vec<u8>, String>>()
                })
                .collect::<Result<Vec<_>, String>>()?;
            Ok(PartitionSpec::Tiles(pats))
        } else {
            let sizes = rest
                .split(',')
                .map(|t| {
                    t.trim()
                        .parse::<usize>()
                        .map_err(|_| format!("{t:?} is not a pattern size"))
                })
                .collect::<Result<Vec<_>, String>>()?;
            Ok(PartitionSpec::Sizes(sizes))
        }
    }

    /// A short name for messages and reports.
    pub fn name(&self) -> String {
        match self {
            PartitionSpec::Named(n) => n.clone(),
            PartitionSpec::Sizes(s) => format!(
                "pdb:{}",
                s.iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            ),
            PartitionSpec::Tiles(t) => format!(
                "pdb:{}",
                t.iter()
                    .map(|p| p
                        .iter()
                        .map(|x| x.to_string())
                        .collect::<Vec<_>>()
                        .join(" "))
                    .collect::<Vec<_>>()
                    .join("/")
            ),
        }
    }

    /// The patterns for `goal`.
    ///
    /// # Errors
    /// A message when the partition does not fit the board (size, overlap, missing tiles,
    /// an empty pattern, more than 32 cells).
    pub fn patterns(&self, goal: &Goal) -> Result<Vec<Vec<u8>>, String> {
        let n = goal.board().len();
        if n > 32 {
            return Err(format!(
                "pattern databases are built for boards of at most 32 cells; this one has {n}"
            ));
        }
        let patterns = self.patterns_unchecked(goal)?;
        if let Some(i) = patterns.iter().position(Vec::is_empty) {
            return Err(format!("pattern {} is empty", i + 1));
        }
        Ok(patterns)
    }

    fn patterns_unchecked(&self, goal: &Goal) -> Result<Vec<Vec<u8>>, String> {
        let b = goal.board();
        match self {
            PartitionSpec::Named(n) => {
                let (_, r, c, sizes) = NAMED
                    .iter()
                    .find(|x| x.0 == n)
                    .ok_or_else(|| format!("unknown pattern database {n}"))?;
                if (b.rows(), b.cols()) != (*r, *c) {
                    return Err(format!(
                        "{n} is for {r}×{c} boards; this one is {}×{}",
                        b.rows(),
                        b.cols()
                    ));
                }
                if n == "pdb6666" && (b.blank() == 0 || b.blank() == 24) {
                    let turn = |c: u8| if b.blank() == 0 { c } else { 24 - c };
                    return Ok(KORF_FELNER_24
                        .iter()
                        .map(|cells| cells.iter().map(|&c| b.tiles()[turn(c) as usize]).collect())
                        .collect());
                }
                contiguous_partition(goal, sizes)
            }
            PartitionSpec::Sizes(s) => contiguous_partition(goal, s),
            PartitionSpec::Tiles(t) => {
                let mut seen = vec![false; b.len()];
                for &tile in t.iter().flatten() {
                    let i = tile as usize;
                    if tile == 0 {
                        return Err("tile 0 is the blank: patterns hold tiles only".into());
                    }
                    if i >= b.len() {
                        return Err(format!(
                            "tile {tile} is not on a board of {} cells",
                            b.len()
                        ));
                    }
                    if seen[i] {
                        return Err(format!("tile {tile} is in two patterns"));
                    }
                    seen[i] = true;
                }
                if let Some(m) = (1..b.len()).find(|&i| !seen[i]) {
                    return Err(format!("tile {m} is in no pattern"));
                }
                Ok(t.clone())
            }
        }
    }
}
