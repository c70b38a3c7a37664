//! Building a pattern table: a breadth-first search backwards from the goal over the abstract
//! space of (cells of the pattern tiles, cell of the blank), where the other tiles are
//! indistinguishable. Moving the blank through cells not occupied by pattern tiles costs 0
//! (those are moves of other tiles); moving a pattern tile costs 1. Each BFS layer first
//! flood-fills the blank's region at cost 0, then moves every pattern tile next to that region
//! into it. The table keeps, for every placement, the smallest depth over blank positions
//! (Korf & Felner 2002, section 4; Felner, Korf & Hanan 2004, section 3).

use rayon::prelude::*;

use super::{PatternTable, placements};
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

/// Bytes a build of `k` tiles on `cells` cells needs at its peak (table, visited masks and
/// frontiers, roughly).
pub fn build_memory(cells: usize, k: usize) -> u64 {
    let total = placements(cells, k);
    total * (1 + 4) + total / 4 * (k as u64 + 1) * 2
}

/// Builds the table of `tiles` for `goal`, reporting each BFS layer.
///
/// # Errors
/// A message when the board has more than 32 cells, the pattern is empty or holds the blank,
/// or the build would need more than `max_memory` bytes.
pub fn build_table(
    goal: &Goal,
    tiles: &[u8],
    pattern: usize,
    max_memory: u64,
    progress: &(dyn Fn(&BuildProgress) + Sync),
) -> Result<PatternTable, String> {
    let b = goal.board();
    let (rows, cols, n) = (b.rows(), b.cols(), b.len());
    let k = tiles.len();
    if n > 32 || k == 0 || k > 12 || tiles.contains(&0) {
        return Err(format!(
            "cannot build a {k}-tile pattern on {n} cells (at most 32 cells, 1..=12 tiles, no blank)"
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
    let total = placements(n, k) as usize;
    let mut table = vec![u8::MAX; total];
    let mut visited = vec![0u32; total];
    // A table object without entries, for ranking only.
    let ranker = PatternTable {
        tiles: tiles.to_vec(),
        cells: n,
        weights: (0..k).map(|i| placements(n - 1 - i, k - 1 - i)).collect(),
        table: Vec::new(),
    };
    let nbr: Vec<Vec<u8>> = (0..n)
        .map(|c| {
            Move::ALL
                .iter()
                .filter_map(|&m| move_target(rows, cols, c, m).map(|t| t as u8))
                .collect()
        })
        .collect();
    // Frontier entries: the pattern tiles' cells, then the blank's region (u32 LE). Regions are
    // marked visited when first reached, so each (placement, region) is queued once.
    let stride = k + 4;
    let flood = |occupied: u32, from: usize, stack: &mut Vec<u8>| -> u32 {
        let mut region = 1u32 << from;
        stack.clear();
        stack.push(from as u8);
        while let Some(c) = stack.pop() {
            for &m in &nbr[c as usize] {
                let bit = 1u32 << m;
                if occupied & bit == 0 && region & bit == 0 {
                    region |= bit;
                    stack.push(m);
                }
            }
        }
        region
    };
    let mut stack: Vec<u8> = Vec::with_capacity(n);
    let start: Vec<u8> = tiles.iter().map(|&t| goal.position_of(t) as u8).collect();
    let start_occupied = start.iter().fold(0u32, |o, &p| o | 1 << p);
    let start_region = flood(start_occupied, b.blank(), &mut stack);
    let start_idx = ranker.index(&start);
    table[start_idx] = 0;
    visited[start_idx] = start_region;
    let mut frontier: Vec<u8> = start.clone();
    frontier.extend_from_slice(&start_region.to_le_bytes());
    let mut filled = 1u64;
    let mut depth = 0u32;
    let mut pos = vec![0u8; k];
    let mut slot_at = vec![u8::MAX; n];
    while !frontier.is_empty() {
        let mut next: Vec<u8> = Vec::with_capacity(frontier.len() * 2);
        for entry in frontier.chunks_exact(stride) {
            pos.copy_from_slice(&entry[..k]);
            let region = u32::from_le_bytes([entry[k], entry[k + 1], entry[k + 2], entry[k + 3]]);
            let mut occupied = 0u32;
            for (s, &p) in pos.iter().enumerate() {
                occupied |= 1 << p;
                slot_at[p as usize] = s as u8;
            }
            // Move a pattern tile next to the region into it (cost 1).
            let mut r = region;
            while r != 0 {
                let c = r.trailing_zeros() as u8;
                r &= r - 1;
                for &m in &nbr[c as usize] {
                    if occupied & (1 << m) == 0 {
                        continue;
                    }
                    let s = slot_at[m as usize] as usize;
                    pos[s] = c;
                    let nidx = ranker.index(&pos);
                    if visited[nidx] & (1 << m) == 0 {
                        let child_occupied = (occupied & !(1 << m)) | (1 << c);
                        let child_region = flood(child_occupied, m as usize, &mut stack);
                        visited[nidx] |= child_region;
                        if table[nidx] == u8::MAX {
                            table[nidx] = (depth + 1) as u8;
                            filled += 1;
                        }
                        next.extend_from_slice(&pos);
                        next.extend_from_slice(&child_region.to_le_bytes());
                    }
                    pos[s] = m;
                }
            }
        }
        frontier = next;
        depth += 1;
        progress(&BuildProgress {
            pattern,
            depth,
            filled,
            total: total as u64,
        });
    }
    PatternTable::from_parts(tiles.to_vec(), n, table)
}

/// Builds every pattern of a partition, in parallel (one pattern a thread).
///
/// # Errors
/// As [`build_table`], for the first pattern that fails.
pub fn build_partition(
    goal: &Goal,
    patterns: &[Vec<u8>],
    max_memory: u64,
    progress: &(dyn Fn(&BuildProgress) + Sync),
) -> Result<Vec<PatternTable>, String> {
    let need: u64 = patterns
        .iter()
        .map(|p| build_memory(goal.board().len(), p.len()))
        .sum();
    if need <= max_memory {
        patterns
            .par_iter()
            .enumerate()
            .map(|(i, p)| build_table(goal, p, i, max_memory, progress))
            .collect()
    } else {
        patterns
            .iter()
            .enumerate()
            .map(|(i, p)| build_table(goal, p, i, max_memory, progress))
            .collect()
    }
}
