//! How an [`AdditivePdb`](super::AdditivePdb) looks its tables up ([`PdbLookup`]): on the
//! board's reflection too, and with the blank-region flags; both on by default, both may be
//! switched off to reproduce published counts (Korf & Felner 2002 used the reflection but no
//! flags). And the reflection's maps ([`reflection`]).

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
