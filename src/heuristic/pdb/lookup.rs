//! How an [`AdditivePdb`](super::AdditivePdb) looks its tables up ([`PdbLookup`]): on the
//! board's reflection too, and with the blank-region flags; both on by default, both may be
//! switched off to reproduce published counts (Korf & Felner 2002 used the reflection but no
//! flags). And the reflection's maps ([`reflection`]), and what [`AdditivePdb`](super::AdditivePdb)
//! and [`PdbMax`](super::PdbMax) share to update a table index per move: [`TileInfo`] and
//! [`index_delta`].

use crate::puzzle::Goal;

/// Which parts of an additive pattern database's lookup are used. Either way the estimate is
/// admissible; without the flags it is also consistent. The tables are the same bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PdbLookup {
    /// Also look the tables up on the board reflected about the main diagonal (square boards
    /// whose blank's goal is on it) and take the larger sum.
    pub reflect: bool,
    /// Add 2 to an entry whose blank-region flag says the blank's region needs two more moves
    /// (tables that have the flags); off, each entry is its least value.
    pub regions: bool,
}

impl Default for PdbLookup {
    fn default() -> Self {
        PdbLookup {
            reflect: true,
            regions: true,
        }
    }
}

/// φ and T for the reflection about the main diagonal, if the goal allows it (square board,
/// blank's goal cell on the diagonal): φ maps each tile to the tile it becomes on the
/// reflected board, T each cell to its mirror cell.
pub(super) fn reflection(goal: &Goal) -> Option<(Vec<u8>, Vec<u8>)> {
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

/// A table indexed by a tile or a cell (both below 256: tiles are bytes), with no bounds
/// check: the index is taken modulo 256.
#[derive(Clone, Debug)]
pub(super) struct ByU8<T>(pub(super) [T; 256]);

impl<T> std::ops::Index<usize> for ByU8<T> {
    type Output = T;
    #[inline(always)]
    fn index(&self, i: usize) -> &T {
        &self.0[i & 0xFF]
    }
}

impl<T> std::ops::IndexMut<usize> for ByU8<T> {
    #[inline(always)]
    fn index_mut(&mut self, i: usize) -> &mut T {
        &mut self.0[i & 0xFF]
    }
}

impl<T: Copy + Default> ByU8<T> {
    /// `values` (at most 256) from index 0, the default after them.
    pub(super) fn from_slice(values: &[T]) -> Self {
        let mut a = [T::default(); 256];
        a[..values.len()].copy_from_slice(values);
        ByU8(a)
    }
}

/// A tile's pattern, slot (index order within the pattern) and index weight as one word:
/// `weight | pattern << 32 | slot << 40` (weight < 2³²: [`AdditivePdb::new`](super::AdditivePdb::new) takes no table
/// of more than 2³² entries).
#[derive(Clone, Copy, Debug)]
pub(super) struct TileInfo(u64);

impl Default for TileInfo {
    /// No pattern's tile, like the blank's.
    fn default() -> Self {
        TileInfo::new(u8::MAX, 0, 0)
    }
}

impl TileInfo {
    pub(super) fn new(pattern: u8, slot: u8, weight: u64) -> TileInfo {
        TileInfo(weight | u64::from(pattern) << 32 | u64::from(slot) << 40)
    }

    #[inline(always)]
    pub(super) fn pattern(self) -> usize {
        (self.0 >> 32 & 0xFF) as usize
    }

    #[inline(always)]
    pub(super) fn slot(self) -> u64 {
        self.0 >> 40
    }

    #[inline(always)]
    pub(super) fn weight(self) -> i64 {
        (self.0 & 0xFFFF_FFFF) as i64
    }
}

/// The change of its pattern's index when the tile `moving` moves from cell `from` to
/// cell `to` (one move apart), where `info_at(x)` gives the [`TileInfo`] of the tile on
/// cell `x` (cells strictly between the two, i.e. for a vertical move). The rank digit of
/// the moving tile changes by the distance less the earlier tiles of its pattern in
/// between; the digit of every later tile in between by one.
#[inline(always)]
pub(super) fn index_delta(
    moving: TileInfo,
    from: usize,
    to: usize,
    info_at: impl Fn(usize) -> TileInfo,
) -> i64 {
    let (lo, hi) = (from.min(to), from.max(to));
    let ws = moving.weight();
    let mut delta = (hi - lo) as i64 * ws;
    for x in lo + 1..hi {
        // Selects, not branches: which tiles lie in between is as good as random.
        let other = info_at(x);
        let term =
            std::hint::select_unpredictable(other.slot() < moving.slot(), -ws, other.weight());
        delta += std::hint::select_unpredictable(other.pattern() == moving.pattern(), term, 0);
    }
    if to > from { delta } else { -delta }
}
