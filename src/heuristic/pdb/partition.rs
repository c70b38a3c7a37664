//! Partitions of the tiles into patterns: the named ones (`NAMED`, Korf & Felner's 24-puzzle
//! partition), sizes cut in goal-cell order, explicit tiles (`PartitionSpec`).

use super::PdbError;
use super::error::bad_partition;
use crate::puzzle::Goal;

/// The tiles of a goal in goal-cell order counted from the blank's goal (blank skipped), for
/// cutting contiguous patterns: forwards, or backwards when the blank's goal is the last cell.
/// So a pattern's shape relative to the blank is the same for the blank-first and blank-last
/// goals, turned by 180°: `pdb78` is Korf & Felner's 7-8 split (the 7 tiles beside the blank's
/// corner, the 8 of the far two rows) for both. On the blank-last goal, cutting forwards would put
/// the 7 tiles in the row of the 1 and part of the next, which searched 1.3× more nodes on the
/// 80-move 15-puzzles, and `pdb663` 1.7× more on Korf's 100 turned to the blank-last goal.
pub fn tiles_in_goal_order(goal: &Goal) -> Vec<u8> {
    let b = goal.board();
    let mut tiles: Vec<u8> = b.tiles().iter().copied().filter(|&t| t != 0).collect();
    if b.blank() == b.len() - 1 {
        tiles.reverse();
    }
    tiles
}

/// Cuts the tiles, in goal-cell order counted from the blank's goal
/// ([`tiles_in_goal_order`]), into consecutive patterns of the given sizes, each pattern's
/// tiles in goal-cell order.
///
/// # Errors
/// [`PdbError::BadPartition`] when the sizes do not add up to the number of tiles.
pub fn contiguous_partition(goal: &Goal, sizes: &[usize]) -> Result<Vec<Vec<u8>>, PdbError> {
    let tiles = tiles_in_goal_order(goal);
    if sizes.iter().sum::<usize>() != tiles.len() {
        return Err(bad_partition!(
            "pattern sizes {sizes:?} add up to {}, but the board has {} tiles",
            sizes.iter().sum::<usize>(),
            tiles.len()
        ));
    }
    let backwards = goal.board().blank() == goal.board().len() - 1;
    let mut out = Vec::new();
    let mut at = 0;
    for &s in sizes {
        let mut pattern = tiles[at..at + s].to_vec();
        if backwards {
            pattern.reverse();
        }
        out.push(pattern);
        at += s;
    }
    Ok(out)
}

/// The named partitions: `pdb8` (3×3, one pattern: the exact distance), `pdb555`, `pdb663`,
/// `pdb78` (4×4), `pdb6666` (5×5). Patterns are cut from the tiles in goal-cell order counted
/// from the blank's goal ([`contiguous_partition`]), so the same names work for any goal — except
/// `pdb6666` with the blank's goal in a corner, which uses Korf & Felner's partition
/// ([`KORF_FELNER_24`]).
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
    /// Consecutive patterns of these sizes in goal-cell order counted from the blank's goal
    /// (`pdb:4,4`; [`contiguous_partition`]).
    Sizes(Vec<usize>),
    /// Explicit tiles per pattern (`pdb:1 2 3 4/5 6 7 8`).
    Tiles(Vec<Vec<u8>>),
}

impl PartitionSpec {
    /// Parses `pdb555`, `pdb:4,4` or `pdb:1 2 3/4 5 6`.
    ///
    /// # Errors
    /// [`PdbError::BadPartition`] naming what is wrong.
    pub fn parse(s: &str) -> Result<PartitionSpec, PdbError> {
        let s = s.trim().to_ascii_lowercase();
        if NAMED.iter().any(|n| n.0 == s) {
            return Ok(PartitionSpec::Named(s));
        }
        let Some(rest) = s.strip_prefix("pdb:") else {
            return Err(bad_partition!(
                "unknown pattern database {s:?} (pdb8, pdb555, pdb663, pdb78, pdb6666, pdb:SIZES like pdb:4,4, or pdb:TILES like pdb:1 2 3 4/5 6 7 8)"
            ));
        };
        if rest.contains('/') || rest.split(',').any(|p| p.trim().contains(' ')) {
            let pats = rest
                .split('/')
                .map(|p| {
                    p.split([' ', ','])
                        .filter(|t| !t.is_empty())
                        .map(|t| {
                            t.parse::<u8>()
                                .map_err(|_| bad_partition!("{t:?} is not a tile"))
                        })
                        .collect::<Result<Vec<u8>, PdbError>>()
                })
                .collect::<Result<Vec<_>, PdbError>>()?;
            Ok(PartitionSpec::Tiles(pats))
        } else {
            let sizes = rest
                .split(',')
                .map(|t| {
                    t.trim()
                        .parse::<usize>()
                        .map_err(|_| bad_partition!("{t:?} is not a pattern size"))
                })
                .collect::<Result<Vec<_>, PdbError>>()?;
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
    /// [`PdbError::BadPartition`] when the partition does not fit the board (size, overlap, missing tiles,
    /// an empty pattern, more than 32 cells).
    pub fn patterns(&self, goal: &Goal) -> Result<Vec<Vec<u8>>, PdbError> {
        let n = goal.board().len();
        if n > 32 {
            return Err(bad_partition!(
                "pattern databases are built for boards of at most 32 cells; this one has {n}"
            ));
        }
        let patterns = self.patterns_unchecked(goal)?;
        if let Some(i) = patterns.iter().position(Vec::is_empty) {
            return Err(bad_partition!("pattern {} is empty", i + 1));
        }
        Ok(patterns)
    }

    fn patterns_unchecked(&self, goal: &Goal) -> Result<Vec<Vec<u8>>, PdbError> {
        let b = goal.board();
        match self {
            PartitionSpec::Named(n) => {
                let (_, r, c, sizes) = NAMED
                    .iter()
                    .find(|x| x.0 == n)
                    .ok_or_else(|| bad_partition!("unknown pattern database {n}"))?;
                if (b.rows(), b.cols()) != (*r, *c) {
                    return Err(bad_partition!(
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
                        return Err(bad_partition!(
                            "tile 0 is the blank: patterns hold tiles only"
                        ));
                    }
                    if i >= b.len() {
                        return Err(bad_partition!(
                            "tile {tile} is not on a board of {} cells",
                            b.len()
                        ));
                    }
                    if seen[i] {
                        return Err(bad_partition!("tile {tile} is in two patterns"));
                    }
                    seen[i] = true;
                }
                if let Some(m) = (1..b.len()).find(|&i| !seen[i]) {
                    return Err(bad_partition!("tile {m} is in no pattern"));
                }
                Ok(t.clone())
            }
        }
    }
}
