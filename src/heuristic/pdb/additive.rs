//! The additive heuristic over a partition's tables (`AdditivePdb`): the whole-board estimate,
//! the incremental update per move, and the reflection about the main diagonal.

use std::sync::Arc;

use super::error::bad_partition;
use super::lookup::{ByU8, TileInfo, index_delta, reflection};
use super::regions::{Flood, VALUE_BITS};
use super::{PatternTable, PdbError, PdbLookup};
use crate::heuristic::{Heuristic, Incremental};
use crate::puzzle::Goal;

/// A partition of the tiles with built tables, as one additive heuristic.
#[derive(Clone, Debug)]
pub struct AdditivePdb {
    name: String,
    cells: usize,
    tables: Vec<Arc<PatternTable>>,
    /// Each tile's pattern, slot and index weight in one word ([`TileInfo`]; the blank's
    /// pattern is `u8::MAX`): what an index update reads for each tile it passes.
    info: Box<ByU8<TileInfo>>,
    /// With the reflection: `rinfo[t] = info[φ(t)]`, the [`TileInfo`] of the tile that `t`
    /// becomes on the reflected board (so that the reflected board need not be kept).
    rinfo: Box<ByU8<TileInfo>>,
    /// Reflection: tile map φ and cell map T, when the goal allows it.
    reflect: Option<(ByU8<u8>, ByU8<u8>)>,
    /// `rbit[c] = 1 << T(c)`: cell `c`'s bit on the reflected board (0 without the reflection).
    rbit: Box<ByU8<u32>>,
    /// The board's geometry, for the tables with blank-region flags.
    flood: Flood,
    /// Whether the blank-region flags are read ([`PdbLookup::regions`]).
    regions: bool,
}

/// The most patterns a partition may have: the incremental state keeps fixed arrays of this
/// length, indexed without bounds checks (by masking).
pub(crate) const MAX_PATTERNS: usize = 32;

/// One value per pattern, with no bounds check: the pattern is taken modulo
/// [`MAX_PATTERNS`] ([`AdditivePdb::new`] takes boards of at most 32 cells, so at most 31
/// patterns).
#[derive(Clone, Debug)]
struct PerPattern<T>([T; MAX_PATTERNS]);

impl<T> std::ops::Index<usize> for PerPattern<T> {
    type Output = T;
    #[inline(always)]
    fn index(&self, p: usize) -> &T {
        &self.0[p % MAX_PATTERNS]
    }
}

impl<T> std::ops::IndexMut<usize> for PerPattern<T> {
    #[inline(always)]
    fn index_mut(&mut self, p: usize) -> &mut T {
        &mut self.0[p % MAX_PATTERNS]
    }
}

impl<T: Copy + Default> PerPattern<T> {
    /// `values` (at most [`MAX_PATTERNS`]) from pattern 0, the default after them.
    fn from_slice(values: &[T]) -> Self {
        let mut a = [T::default(); MAX_PATTERNS];
        a[..values.len()].copy_from_slice(values);
        PerPattern(a)
    }
}

/// Incremental state: each pattern's table index, value and cells (a bit set) on the board and
/// on its reflection, and the two sums. Fixed arrays, so that the search's updates need no
/// bounds checks.
#[derive(Clone, Debug)]
pub struct PdbState {
    idx: PerPattern<u32>,
    ridx: PerPattern<u32>,
    vals: PerPattern<u8>,
    rvals: PerPattern<u8>,
    occ: PerPattern<u32>,
    rocc: PerPattern<u32>,
    sum: u32,
    rsum: u32,
}

impl AdditivePdb {
    /// Combines built tables (one per pattern, disjoint, covering every tile) for `goal`.
    ///
    /// # Errors
    /// [`PdbError::BadPartition`] when the board has more than 32 cells, or the patterns
    /// overlap or miss a tile.
    pub fn new(name: &str, goal: &Goal, tables: Vec<Arc<PatternTable>>) -> Result<Self, PdbError> {
        let n = goal.board().len();
        // Cells are kept as bits of a `u32`, and patterns (each one tile or more) are at most
        // `MAX_PATTERNS`.
        if n > 32 {
            return Err(bad_partition!(
                "pattern databases are for boards of at most 32 cells; this one has {n}"
            ));
        }
        let mut pattern_of = vec![u8::MAX; n];
        let mut slot_of = vec![0u8; n];
        for (p, t) in tables.iter().enumerate() {
            for (s, &tile) in t.tiles().iter().enumerate() {
                if tile == 0 || tile as usize >= n || pattern_of[tile as usize] != u8::MAX {
                    return Err(bad_partition!(
                        "tile {tile} is the blank, out of range or in two patterns"
                    ));
                }
                pattern_of[tile as usize] = p as u8;
                slot_of[tile as usize] = s as u8;
            }
        }
        if let Some(t) = (1..n).find(|&t| pattern_of[t] == u8::MAX) {
            return Err(bad_partition!("tile {t} is in no pattern"));
        }
        debug_assert!(
            tables.len() < MAX_PATTERNS,
            "masked pattern indexes never wrap"
        );
        // Indexes are kept as `u32` (and so are the weights in `info`).
        if let Some(t) = tables.iter().find(|t| t.bytes().len() as u64 > 1 << 32) {
            return Err(bad_partition!(
                "the table of tiles {:?} has more than 2^32 entries",
                t.tiles()
            ));
        }
        let flood = Flood::new(goal.board().rows(), goal.board().cols());
        let flood = if tables.iter().any(|t| t.regions()) {
            flood.with_region_table()
        } else {
            flood
        };
        let info: Vec<TileInfo> = (0..n)
            .map(|t| match pattern_of[t] {
                u8::MAX => TileInfo::new(u8::MAX, 0, 0),
                p => {
                    let s = slot_of[t];
                    TileInfo::new(p, s, tables[p as usize].weights[s as usize])
                }
            })
            .collect();
        let reflect = reflection(goal);
        let rinfo: Vec<TileInfo> = match &reflect {
            Some((phi, _)) => phi.iter().map(|&r| info[r as usize]).collect(),
            None => Vec::new(),
        };
        let rbit: Vec<u32> = match &reflect {
            Some((_, tmap)) => tmap.iter().map(|&c| 1 << c).collect(),
            None => Vec::new(),
        };
        let rbit = Box::new(ByU8::from_slice(&rbit));
        let info = Box::new(ByU8::from_slice(&info));
        let rinfo = Box::new(ByU8::from_slice(&rinfo));
        Ok(AdditivePdb {
            name: name.to_string(),
            cells: n,
            tables,
            info,
            rinfo,
            reflect: reflect.map(|(phi, tmap)| (ByU8::from_slice(&phi), ByU8::from_slice(&tmap))),
            rbit,
            flood,
            regions: true,
        })
    }

    /// This database looked up as `lookup` says: without the reflection (as on a board that
    /// has none) and without the blank-region flags (each entry its least value) when they
    /// are switched off. Switching off what the board or tables lack changes nothing.
    pub fn with_lookup(mut self, lookup: PdbLookup) -> Self {
        if !lookup.reflect {
            self.reflect = None;
            self.rinfo = Box::new(ByU8::from_slice(&[]));
            self.rbit = Box::new(ByU8::from_slice(&[]));
        }
        self.regions = lookup.regions;
        self
    }

    /// Whether the blank-region flags are read (they are when the tables have them, unless
    /// [`PdbLookup::regions`] switched them off).
    pub fn reads_regions(&self) -> bool {
        self.regions && self.tables.iter().any(|t| t.regions())
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
            .map(|(p, t)| (&p.0[..self.cells], &t.0[..self.cells]))
    }

    /// The tables, one per pattern.
    pub fn tables(&self) -> &[Arc<PatternTable>] {
        &self.tables
    }

    /// Each pattern's value for `tiles` (row-major, `0` = blank), in partition order, and,
    /// when the goal has the reflection, each pattern's value for the reflected board. The
    /// estimate is the larger of the two sums.
    pub fn pattern_values(&self, tiles: &[u8]) -> (Vec<u8>, Option<Vec<u8>>) {
        let (pos, rpos) = self.positions(tiles);
        let direct = self.sums(&pos).1;
        let reflected = self.reflect.as_ref().map(|_| self.sums(&rpos).1);
        (direct, reflected)
    }

    /// Each pattern's tiles, in partition order.
    pub fn patterns(&self) -> Vec<Vec<u8>> {
        self.tables.iter().map(|t| t.tiles.clone()).collect()
    }

    /// Each pattern's index, value and cells (a bit set), and the sum of the values, given
    /// each tile's cell (the blank's too).
    fn sums(&self, pos: &[u8]) -> (Vec<u32>, Vec<u8>, Vec<u32>, u32) {
        let idx: Vec<u32> = self
            .tables
            .iter()
            .map(|t| t.rank(|i| pos[t.tiles[i] as usize]) as u32)
            .collect();
        let occ: Vec<u32> = self
            .tables
            .iter()
            .map(|t| t.tiles.iter().fold(0u32, |m, &x| m | 1 << pos[x as usize]))
            .collect();
        let vals: Vec<u8> = (0..self.tables.len())
            .map(|p| self.lookup(p, idx[p], 0, u32::MAX, occ[p], usize::from(pos[0])))
            .collect();
        let sum = vals.iter().map(|&v| u32::from(v)).sum();
        (idx, vals, occ, sum)
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

impl Heuristic for AdditivePdb {
    fn estimate(&self, tiles: &[u8]) -> u32 {
        let (pos, rpos) = self.positions(tiles);
        let sum = self.sums(&pos).3;
        if self.reflect.is_some() {
            sum.max(self.sums(&rpos).3)
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
        let moving = self.info[t];
        let p = moving.pattern();
        let info_at = |x: usize| self.info[tiles[x] as usize];
        let i = (i64::from(st.idx[p]) + index_delta(moving, from, to, info_at)) as u32;
        self.tables[p].table.prefetch(i as usize);
        let mut out = PdbPrepared { i, ri: 0 };
        if let Some((_, tmap)) = &self.reflect {
            let rmoving = self.rinfo[t];
            let rp = rmoving.pattern();
            // The reflected board holds φ(tiles[T(x)]) on cell x (T is its own inverse).
            let rinfo_at = |x: usize| self.rinfo[usize::from(tiles[usize::from(tmap[x])])];
            let (rfrom, rto) = (tmap[from] as usize, tmap[to] as usize);
            out.ri = (i64::from(st.ridx[rp]) + index_delta(rmoving, rfrom, rto, rinfo_at)) as u32;
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
        from: usize,
        to: usize,
        pr: PdbPrepared,
        enough: u32,
    ) -> (i32, PdbUndo) {
        let u = self.undo_record(st, tile);
        self.flip_cells(st, u, from, to);
        (self.commit(st, tile, from, pr, enough), u)
    }

    #[inline(always)]
    fn undo(&self, st: &mut PdbState, _: &[u8], _tile: u8, from: usize, to: usize, u: PdbUndo) {
        self.flip_cells(st, u, from, to);
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
        let (idx, vals, occ, sum) = self.sums(&pos);
        let (ridx, rvals, rocc, rsum) = if self.reflect.is_some() {
            self.sums(&rpos)
        } else {
            (Vec::new(), Vec::new(), Vec::new(), 0)
        };
        let h = sum.max(rsum);
        (
            PdbState {
                idx: PerPattern::from_slice(&idx),
                ridx: PerPattern::from_slice(&ridx),
                vals: PerPattern::from_slice(&vals),
                rvals: PerPattern::from_slice(&rvals),
                occ: PerPattern::from_slice(&occ),
                rocc: PerPattern::from_slice(&rocc),
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
        let p = self.info[t].pattern() as u8;
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
        if self.reflect.is_some() {
            u.rp = self.rinfo[t].pattern() as u8;
            u.rv = st.rvals[u.rp as usize];
            u.ridx = st.ridx[u.rp as usize];
        }
        u
    }

    /// The moved tile's cells, `from` and `to`, swapped in and out of its pattern's cell set on
    /// the board and on the reflection (the same on undo).
    #[inline(always)]
    fn flip_cells(&self, st: &mut PdbState, u: PdbUndo, from: usize, to: usize) {
        st.occ[u.p as usize] ^= 1 << from | 1 << to;
        // Without the reflection `rbit` is 0 and `rocc` stays unused.
        st.rocc[u.rp as usize] ^= self.rbit[from] | self.rbit[to];
    }

    /// Writes a prepared move into the state: the board's own pattern, and the reflected one
    /// unless the board's sum is already `enough` (see [`Incremental::apply`]); the blank is
    /// now on `blank`. A table's blank-region flag is looked at only when the value without it
    /// leaves the sum below `enough`: a board pruned either way needs no more. Returns the
    /// change in `h`.
    #[inline(always)]
    fn commit(
        &self,
        st: &mut PdbState,
        tile: u8,
        blank: usize,
        pr: PdbPrepared,
        enough: u32,
    ) -> i32 {
        let before = st.sum.max(st.rsum);
        let t = tile as usize;
        let p = self.info[t].pattern();
        let v = self.lookup(
            p,
            pr.i,
            st.sum - u32::from(st.vals[p]),
            enough,
            st.occ[p],
            blank,
        );
        st.idx[p] = pr.i;
        st.sum = st.sum + u32::from(v) - u32::from(st.vals[p]);
        st.vals[p] = v;
        if st.sum < enough
            && let Some((_, tmap)) = &self.reflect
        {
            let rp = self.rinfo[t].pattern();
            let rv = self.lookup(
                rp,
                pr.ri,
                st.rsum - u32::from(st.rvals[rp]),
                enough,
                st.rocc[rp],
                usize::from(tmap[blank]),
            );
            st.ridx[rp] = pr.ri;
            st.rsum = st.rsum + u32::from(rv) - u32::from(st.rvals[rp]);
            st.rvals[rp] = rv;
        }
        st.sum.max(st.rsum) as i32 - before as i32
    }

    /// Pattern `p`'s value at table index `i`, its cells being `occ` (a bit set) and the blank
    /// on `blank`, where the other patterns add up to `rest`: with the blank-region flag,
    /// unless the value without it already brings the sum to `enough`.
    #[inline(always)]
    fn lookup(&self, p: usize, i: u32, rest: u32, enough: u32, occ: u32, blank: usize) -> u8 {
        let table = &self.tables[p];
        let entry = table.table[i as usize];
        if !table.regions() {
            return entry;
        }
        let least = entry & VALUE_BITS;
        if !self.regions {
            return least;
        }
        let enough_without = rest + u32::from(least) >= enough;
        if self.flood.has_region_table() {
            // A select, not a branch: which boards are pruned is as good as random.
            let full = self.flood.value(entry, occ, blank) as u8;
            return std::hint::select_unpredictable(enough_without, least, full);
        }
        if least == entry || enough_without {
            return least;
        }
        self.flood.value(entry, occ, blank) as u8
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::GoalSpec;

    /// Boards of more than 32 cells are refused (cells are bits of a `u32`, and so at most 31
    /// patterns fit [`MAX_PATTERNS`]); a 32-cell board with a pattern per tile is taken.
    #[test]
    fn boards_of_more_than_32_cells_are_refused() {
        let singles = |n: usize| -> Vec<Arc<PatternTable>> {
            (1..n as u8)
                .map(|t| Arc::new(PatternTable::from_parts(vec![t], n, vec![0; n]).unwrap()))
                .collect()
        };
        let goal = GoalSpec::BlankLast.resolve(6, 6).unwrap();
        let err = AdditivePdb::new("singles", &goal, singles(36)).unwrap_err();
        assert!(err.to_string().contains("at most 32 cells"), "{err}");
        let goal = GoalSpec::BlankLast.resolve(4, 8).unwrap();
        let pdb = AdditivePdb::new("singles", &goal, singles(32)).unwrap();
        assert_eq!(pdb.tables().len(), 31);
        assert_eq!(pdb.estimate(goal.board().tiles()), 0);
    }
}
