//! [`PdbMax`]: the maximum over several additive partitions whose pattern tables are shared,
//! each partition also looked up on the board's reflection (Holte, Felner, Newton, Meshulam &
//! Furcy, "Maximizing over multiple pattern databases speeds up heuristic search", Artificial
//! Intelligence 170 (2006) 1123–1136), updated incrementally move by move.
//!
//! Every distinct table is looked up once per board on the board itself and once on its
//! reflection about the main diagonal; a partition's element is a table read directly or, when
//! its pattern is the reflection of a table's (`flipped`), read through the reflection: the
//! value of pattern `S` on a board is the value of the table of `φ(S)` on the reflected board
//! (exactly for the entries' least values; the blank-region flags, which name the region of the
//! lowest free cell, may add 2 on one side and not the other, both admissible). So a catalogue
//! needs one table for a pattern and its mirror image.

use std::sync::Arc;

use super::error::bad_partition;
use super::lookup::{ByU8, TileInfo, index_delta, reflection};
use super::regions::{Flood, VALUE_BITS};
use super::{PatternTable, PdbError};
use crate::heuristic::{Heuristic, Incremental};
use crate::puzzle::Goal;

/// The most partitions a [`PdbMax`] takes (two sums each, on the board and on its
/// reflection, kept in fixed arrays).
pub const MAX_PARTITIONS: usize = 8;
/// The most distinct tables a [`PdbMax`] takes.
pub const MAX_TABLES: usize = 32;
/// The most table lookups one move may change (tables holding the moved tile, on the board and
/// on the reflection).
const MAX_STEPS: usize = 16;

/// One element of a partition: a distinct table, read directly or through the reflection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Part {
    /// Index into [`PdbMax::tables`].
    pub table: usize,
    /// Whether the partition's pattern is the mirror image `φ(tiles)` of the table's, so that
    /// its value on the board is the table's value on the reflected board (and the other way
    /// round for the partition's reflected sum).
    pub flipped: bool,
}

/// One table lookup that a move of a tile changes: table `table` on side `side` (0: the
/// board, 1: its reflection), and the partition sums (bit `2q + s`: partition `q`'s sum on
/// side `s`) that it feeds.
#[derive(Clone, Copy, Debug, Default)]
struct Step {
    table: u8,
    side: u8,
    sums: u32,
}

/// The maximum over additive partitions of shared pattern tables (see the module docs).
#[derive(Clone, Debug)]
pub struct PdbMax {
    name: String,
    cells: usize,
    tables: Vec<Arc<PatternTable>>,
    partitions: Vec<Vec<Part>>,
    /// Per table: each tile's slot and weight (pattern 0; `u8::MAX` for tiles not in it).
    info: Vec<ByU8<TileInfo>>,
    /// Per table: `rinfo[k][t] = info[k][φ(t)]` (the reflected board's tile `φ(t)`).
    rinfo: Vec<ByU8<TileInfo>>,
    /// Reflection: tile map φ and cell map T, when the goal allows it.
    reflect: Option<(ByU8<u8>, ByU8<u8>)>,
    /// `rbit[c] = 1 << T(c)` (0 without the reflection).
    rbit: ByU8<u32>,
    /// Per tile: the lookups its move changes, partitions in order, and how many.
    steps: Box<[[Step; MAX_STEPS]; 256]>,
    nsteps: ByU8<u8>,
    flood: Flood,
    regions: bool,
}

/// [`PdbMax`]'s incremental state: each table's index, value and cells on the board (side 0)
/// and on its reflection (side 1), and each partition's two sums.
#[derive(Clone, Debug)]
pub struct PdbMaxState {
    idx: [[u32; MAX_TABLES]; 2],
    val: [[u8; MAX_TABLES]; 2],
    occ: [[u32; MAX_TABLES]; 2],
    sums: [u16; 2 * MAX_PARTITIONS],
    h: u32,
}

/// The new table indexes of a move's lookups, computed (and prefetched) ahead.
#[derive(Clone, Copy, Debug)]
pub struct PdbMaxPrepared([u32; MAX_STEPS]);

impl Default for PdbMaxPrepared {
    fn default() -> Self {
        PdbMaxPrepared([0; MAX_STEPS])
    }
}

/// What undoing a move restores: the first `done` lookups' old indexes and values, the sums,
/// and `h`.
#[derive(Clone, Copy, Debug)]
pub struct PdbMaxUndo {
    idx: [u32; MAX_STEPS],
    val: [u8; MAX_STEPS],
    sums: [u16; 2 * MAX_PARTITIONS],
    done: u8,
    h: u32,
}

impl PdbMax {
    /// Combines distinct built tables into the maximum over `partitions` for `goal`; each
    /// partition must cover every tile exactly once (a flipped part covers `φ` of its table's
    /// tiles, and needs the reflection: a square board whose blank's goal is on the diagonal).
    ///
    /// # Errors
    /// [`PdbError::BadPartition`] naming what is wrong: a board of more than 32 cells, more than
    /// [`MAX_PARTITIONS`] partitions or [`MAX_TABLES`] tables, a partition with overlapping or
    /// missing tiles, a flipped part without the reflection, a tile in too many tables.
    pub fn new(
        name: &str,
        goal: &Goal,
        tables: Vec<Arc<PatternTable>>,
        partitions: Vec<Vec<Part>>,
    ) -> Result<Self, PdbError> {
        let n = goal.board().len();
        if n > 32 {
            return Err(bad_partition!(
                "pattern databases are for boards of at most 32 cells; this one has {n}"
            ));
        }
        if partitions.is_empty() || partitions.len() > MAX_PARTITIONS {
            return Err(bad_partition!(
                "a maximum takes 1 to {MAX_PARTITIONS} partitions, not {}",
                partitions.len()
            ));
        }
        if tables.len() > MAX_TABLES {
            return Err(bad_partition!(
                "a maximum takes at most {MAX_TABLES} distinct tables, not {}",
                tables.len()
            ));
        }
        if let Some(t) = tables.iter().find(|t| t.bytes().len() as u64 > 1 << 32) {
            return Err(bad_partition!(
                "the table of tiles {:?} has more than 2^32 entries",
                t.tiles()
            ));
        }
        let reflect = reflection(goal);
        check_cover(n, &tables, &partitions, reflect.as_ref().map(|r| &r.0[..]))?;
        let info: Vec<ByU8<TileInfo>> = tables
            .iter()
            .map(|t| {
                let mut v = vec![TileInfo::default(); n];
                for (s, &tile) in t.tiles().iter().enumerate() {
                    v[tile as usize] = TileInfo::new(0, s as u8, t.weights[s]);
                }
                ByU8::from_slice(&v)
            })
            .collect();
        let (rinfo, rbit) = match &reflect {
            Some((phi, tmap)) => (
                info.iter()
                    .map(|i| {
                        let v: Vec<TileInfo> = phi.iter().map(|&r| i[r as usize]).collect();
                        ByU8::from_slice(&v)
                    })
                    .collect(),
                tmap.iter().map(|&c| 1u32 << c).collect(),
            ),
            None => (Vec::new(), Vec::new()),
        };
        let (steps, nsteps) =
            steps_per_tile(n, &tables, &partitions, reflect.as_ref().map(|r| &r.0[..]))?;
        let mut flood = Flood::new(goal.board().rows(), goal.board().cols());
        if tables.iter().any(|t| t.regions()) {
            flood = flood.with_region_table();
        }
        Ok(PdbMax {
            name: name.to_string(),
            cells: n,
            tables,
            partitions,
            info,
            rinfo,
            reflect: reflect.map(|(phi, tmap)| (ByU8::from_slice(&phi), ByU8::from_slice(&tmap))),
            rbit: ByU8::from_slice(&rbit),
            steps,
            nsteps,
            flood,
            regions: true,
        })
    }

    /// The same, with the blank-region flags read or not ([`super::PdbLookup::regions`]).
    #[must_use]
    pub fn with_regions(mut self, regions: bool) -> Self {
        self.regions = regions;
        self
    }

    /// The name (e.g. `pdbmax24`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The distinct tables, each loaded once.
    pub fn tables(&self) -> &[Arc<PatternTable>] {
        &self.tables
    }

    /// The partitions, each a list of parts (a table, read directly or through the reflection).
    pub fn partitions(&self) -> &[Vec<Part>] {
        &self.partitions
    }

    /// Whether the reflected lookup is used.
    pub fn reflects(&self) -> bool {
        self.reflect.is_some()
    }

    /// The reflection's tile map φ and cell map T (each a byte per tile or cell), when the
    /// goal allows it.
    pub fn reflection(&self) -> Option<(&[u8], &[u8])> {
        self.reflect
            .as_ref()
            .map(|(p, t)| (&p.0[..self.cells], &t.0[..self.cells]))
    }

    /// Whether the blank-region flags are read (they are on, and some table holds them).
    pub fn reads_regions(&self) -> bool {
        self.regions && self.tables.iter().any(|t| t.regions())
    }

    /// Each partition's estimate for `tiles` (row-major, `0` = blank): the larger of its sum
    /// on the board and on the reflection. `h` is the largest of them.
    pub fn partition_values(&self, tiles: &[u8]) -> Vec<u32> {
        let st = self.state(tiles);
        (0..self.partitions.len())
            .map(|q| u32::from(st.sums[2 * q].max(st.sums[2 * q + 1])))
            .collect()
    }

    /// Step `s`'s new value (table `k`, side `side`, entry `i`, the blank on `blank`): with
    /// the blank-region flag, unless the value without it already brings one of the sums the
    /// step feeds to `enough` (the move is then pruned: the flag could add nothing needed).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn value_for(
        &self,
        st: &PdbMaxState,
        s: &Step,
        k: usize,
        side: usize,
        i: u32,
        blank: usize,
        enough: u32,
    ) -> u8 {
        let table = &self.tables[k];
        let entry = table.table[i as usize];
        if !table.regions() {
            return entry;
        }
        let least = entry & VALUE_BITS;
        if least == entry || !self.regions {
            return least;
        }
        let change = i32::from(least) - i32::from(st.val[side][k]);
        let mut m = s.sums;
        while m != 0 {
            let q = m.trailing_zeros() as usize % (2 * MAX_PARTITIONS);
            m &= m - 1;
            if i32::from(st.sums[q]) + change >= enough.min(i32::MAX as u32) as i32 {
                return least;
            }
        }
        self.flood.value(entry, st.occ[side][k], blank) as u8
    }

    /// The value of table `k`'s entry `i`, its cells being `occ` and the blank on `blank`.
    #[inline(always)]
    fn value(&self, k: usize, i: u32, occ: u32, blank: usize) -> u8 {
        let table = &self.tables[k];
        let entry = table.table[i as usize];
        if !table.regions() {
            entry
        } else if !self.regions {
            entry & VALUE_BITS
        } else {
            self.flood.value(entry, occ, blank) as u8
        }
    }

    /// The whole state of a board, from scratch.
    fn state(&self, tiles: &[u8]) -> PdbMaxState {
        let mut pos = vec![0u8; self.cells];
        for (c, &t) in tiles.iter().enumerate() {
            pos[t as usize] = c as u8;
        }
        let mut sides = vec![pos];
        if let Some((phi, tmap)) = &self.reflect {
            let mut r = vec![0u8; self.cells];
            for (c, &t) in tiles.iter().enumerate() {
                r[phi[t as usize] as usize] = tmap[c];
            }
            sides.push(r);
        }
        let mut st = PdbMaxState {
            idx: [[0; MAX_TABLES]; 2],
            val: [[0; MAX_TABLES]; 2],
            occ: [[0; MAX_TABLES]; 2],
            sums: [0; 2 * MAX_PARTITIONS],
            h: 0,
        };
        for (s, pos) in sides.iter().enumerate() {
            for (k, t) in self.tables.iter().enumerate() {
                let i = t.rank(|j| pos[t.tiles[j] as usize]) as u32;
                let occ = t.tiles.iter().fold(0u32, |m, &x| m | 1 << pos[x as usize]);
                st.idx[s][k] = i;
                st.occ[s][k] = occ;
                st.val[s][k] = self.value(k, i, occ, usize::from(pos[0]));
            }
        }
        for (q, parts) in self.partitions.iter().enumerate() {
            for side in 0..sides.len() {
                st.sums[2 * q + side] = parts
                    .iter()
                    .map(|p| u16::from(st.val[side ^ usize::from(p.flipped)][p.table]))
                    .sum();
            }
        }
        st.h = st.sums.iter().copied().max().map_or(0, u32::from);
        st
    }
}

/// Checks that every partition covers each tile exactly once (`phi`: the reflection's tile
/// map, needed by flipped parts).
fn check_cover(
    n: usize,
    tables: &[Arc<PatternTable>],
    partitions: &[Vec<Part>],
    phi: Option<&[u8]>,
) -> Result<(), PdbError> {
    for (q, parts) in partitions.iter().enumerate() {
        let mut seen = vec![false; n];
        for p in parts {
            let t = tables
                .get(p.table)
                .ok_or_else(|| bad_partition!("partition {} names no table {}", q + 1, p.table))?;
            for &tile in t.tiles() {
                let tile = match (p.flipped, phi) {
                    (false, _) => tile,
                    (true, Some(phi)) => phi[tile as usize],
                    (true, None) => {
                        return Err(bad_partition!(
                            "partition {} reads a table through the reflection, which this goal lacks",
                            q + 1
                        ));
                    }
                };
                if tile == 0 || tile as usize >= n || seen[tile as usize] {
                    return Err(bad_partition!(
                        "partition {}: tile {tile} is the blank, out of range or in two patterns",
                        q + 1
                    ));
                }
                seen[tile as usize] = true;
            }
        }
        if let Some(t) = (1..n).find(|&t| !seen[t]) {
            return Err(bad_partition!(
                "partition {}: tile {t} is in no pattern",
                q + 1
            ));
        }
    }
    Ok(())
}

type Steps = (Box<[[Step; MAX_STEPS]; 256]>, ByU8<u8>);

/// For each tile, the lookups its move changes: every table holding it (side 0) and, with the
/// reflection (`phi`, its tile map), every table holding `φ(tile)` (side 1), ordered by the
/// first partition sum each feeds, so that the first partitions are complete first.
///
/// # Errors
/// [`PdbError::BadPartition`] when a tile is in more than `MAX_STEPS` lookups.
fn steps_per_tile(
    n: usize,
    tables: &[Arc<PatternTable>],
    partitions: &[Vec<Part>],
    phi: Option<&[u8]>,
) -> Result<Steps, PdbError> {
    let mut steps = Box::new([[Step::default(); MAX_STEPS]; 256]);
    let mut nsteps = vec![0u8; n];
    // The sums each (table, side) feeds: side `s` of a table in partition `q` read with
    // `flipped` is partition `q`'s sum on side `s ^ flipped`.
    let feeds = |k: usize, s: usize| -> u32 {
        let mut m = 0;
        for (q, parts) in partitions.iter().enumerate() {
            for p in parts.iter().filter(|p| p.table == k) {
                m |= 1 << (2 * q + (s ^ usize::from(p.flipped)));
            }
        }
        m
    };
    for (tile, count) in nsteps.iter_mut().enumerate().skip(1) {
        let mut list: Vec<Step> = Vec::new();
        for (k, t) in tables.iter().enumerate() {
            // On the reflected board the moved tile is φ(tile).
            let moved = [Some(tile as u8), phi.map(|phi| phi[tile])];
            for (side, m) in moved.iter().enumerate() {
                if m.is_some_and(|m| t.tiles().contains(&m)) {
                    list.push(Step {
                        table: k as u8,
                        side: side as u8,
                        sums: feeds(k, side),
                    });
                }
            }
        }
        if list.len() > MAX_STEPS {
            return Err(bad_partition!(
                "tile {tile} is in {} table lookups; at most {MAX_STEPS} are supported",
                list.len()
            ));
        }
        list.sort_by_key(|s| s.sums.trailing_zeros());
        *count = list.len() as u8;
        steps[tile][..list.len()].copy_from_slice(&list);
    }
    Ok((steps, ByU8::from_slice(&nsteps)))
}

impl Heuristic for PdbMax {
    fn estimate(&self, tiles: &[u8]) -> u32 {
        self.state(tiles).h
    }

    fn name(&self) -> &str {
        &self.name
    }
}

impl Incremental for PdbMax {
    type State = PdbMaxState;
    type Undo = PdbMaxUndo;
    type Prepared = PdbMaxPrepared;

    fn init(&self, tiles: &[u8]) -> (PdbMaxState, u32) {
        let st = self.state(tiles);
        let h = st.h;
        (st, h)
    }

    /// Every changed lookup's new index, its table entry prefetched.
    #[inline(always)]
    fn prepare(
        &self,
        st: &PdbMaxState,
        tiles: &[u8],
        tile: u8,
        from: usize,
        to: usize,
    ) -> PdbMaxPrepared {
        let t = usize::from(tile);
        let mut out = PdbMaxPrepared::default();
        let steps = &self.steps[t];
        for (j, s) in steps[..usize::from(self.nsteps[t])].iter().enumerate() {
            let k = usize::from(s.table) % MAX_TABLES;
            let i = (if s.side == 0 {
                let info = &self.info[k];
                let d = index_delta(info[t], from, to, |x| info[usize::from(tiles[x])]);
                i64::from(st.idx[0][k]) + d
            } else {
                let Some((_, tmap)) = &self.reflect else {
                    continue;
                };
                let rinfo = &self.rinfo[k];
                // The reflected board holds φ(tiles[T(x)]) on cell x (T is its own inverse).
                let at = |x: usize| rinfo[usize::from(tiles[usize::from(tmap[x])])];
                let d = index_delta(rinfo[t], usize::from(tmap[from]), usize::from(tmap[to]), at);
                i64::from(st.idx[1][k]) + d
            }) as u32;
            self.tables[k].table.prefetch(i as usize);
            out.0[j % MAX_STEPS] = i;
        }
        out
    }

    /// The changed lookups in order, each partition's sums by the change; stops once a complete
    /// partition sum reaches `enough` (the rest of the state is then stale until undone).
    #[inline(always)]
    fn apply(
        &self,
        st: &mut PdbMaxState,
        _tiles: &[u8],
        tile: u8,
        from: usize,
        to: usize,
        pr: PdbMaxPrepared,
        enough: u32,
    ) -> (i32, PdbMaxUndo) {
        let t = usize::from(tile);
        let n = usize::from(self.nsteps[t]);
        let steps = &self.steps[t][..n];
        let mut u = PdbMaxUndo {
            idx: [0; MAX_STEPS],
            val: [0; MAX_STEPS],
            sums: st.sums,
            done: n as u8,
            h: st.h,
        };
        self.flip_cells(st, steps, from, to);
        let blank = [
            from,
            self.reflect.as_ref().map_or(0, |r| usize::from(r.1[from])),
        ];
        let mut best = 0u32;
        for (j, s) in steps.iter().enumerate() {
            let (k, side) = (usize::from(s.table) % MAX_TABLES, usize::from(s.side & 1));
            let i = pr.0[j % MAX_STEPS];
            let v = self.value_for(st, s, k, side, i, blank[side], enough);
            u.idx[j % MAX_STEPS] = st.idx[side][k];
            u.val[j % MAX_STEPS] = st.val[side][k];
            let delta = i32::from(v) - i32::from(st.val[side][k]);
            st.idx[side][k] = i;
            st.val[side][k] = v;
            let mut m = s.sums;
            while m != 0 {
                let q = m.trailing_zeros() as usize % (2 * MAX_PARTITIONS);
                m &= m - 1;
                let sum = (i32::from(st.sums[q]) + delta) as u16;
                st.sums[q] = sum;
                best = best.max(u32::from(sum));
            }
            // The sums fed so far are complete (one lookup of each changes with the move).
            if best >= enough {
                u.done = (j + 1) as u8;
                return (best as i32 - st.h as i32, u);
            }
        }
        let h = st.sums.iter().copied().max().map_or(0, u32::from);
        let dh = h as i32 - st.h as i32;
        st.h = h;
        (dh, u)
    }

    #[inline(always)]
    fn undo(
        &self,
        st: &mut PdbMaxState,
        _tiles: &[u8],
        tile: u8,
        from: usize,
        to: usize,
        u: PdbMaxUndo,
    ) {
        let t = usize::from(tile);
        let steps = &self.steps[t][..usize::from(self.nsteps[t])];
        self.flip_cells(st, steps, from, to);
        for (j, s) in steps[..usize::from(u.done)].iter().enumerate() {
            let (k, side) = (usize::from(s.table) % MAX_TABLES, usize::from(s.side & 1));
            st.idx[side][k] = u.idx[j % MAX_STEPS];
            st.val[side][k] = u.val[j % MAX_STEPS];
        }
        st.sums = u.sums;
        st.h = u.h;
    }
}

impl PdbMax {
    /// The moved tile's cells, `from` and `to`, swapped in and out of the cell sets of the
    /// tables it is in, on the board and on the reflection (the same on undo).
    #[inline(always)]
    fn flip_cells(&self, st: &mut PdbMaxState, steps: &[Step], from: usize, to: usize) {
        for s in steps {
            let k = usize::from(s.table) % MAX_TABLES;
            if s.side == 0 {
                st.occ[0][k] ^= 1 << from | 1 << to;
            } else {
                st.occ[1][k] ^= self.rbit[from] | self.rbit[to];
            }
        }
    }
}
