//! Pattern databases in words for students, from the real partition: what a pattern is, why
//! the tables' values may be added (Korf & Felner, "Disjoint pattern database heuristics",
//! Artificial Intelligence 134 (2002) 9–22), what the reflection adds, how large each table is
//! and why it is built once. The CLI (`npuzzle pdb about`) and the app's Solver panel show it.

use super::lookup::reflection;
use super::{PartitionSpec, PdbError, PdbLookup, placements};
use crate::puzzle::Goal;
use crate::text::group_digits;

/// One pattern's table, sized: its tiles, its entries (one per placement of the tiles on the
/// board's cells) and its bytes (one byte an entry, in memory and in its cache file beside a
/// small header).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableSize {
    /// The pattern's tiles.
    pub tiles: Vec<u8>,
    /// The board's cells.
    pub cells: usize,
    /// Entries: `cells · (cells − 1) ⋯` over the pattern's tiles ([`placements`]).
    pub entries: u64,
    /// Bytes of the table (one an entry).
    pub bytes: u64,
}

/// `5 tiles (1 2 3 4 5)`.
fn tiles_text(tiles: &[u8]) -> String {
    let list: Vec<String> = tiles.iter().map(u8::to_string).collect();
    format!(
        "{} tile{} ({})",
        tiles.len(),
        if tiles.len() == 1 { "" } else { "s" },
        list.join(" ")
    )
}

impl PartitionSpec {
    /// Each pattern's table size on `goal`'s board, computed from the patterns.
    ///
    /// # Errors
    /// As [`PartitionSpec::patterns`].
    pub fn table_sizes(&self, goal: &Goal) -> Result<Vec<TableSize>, PdbError> {
        let cells = goal.board().len();
        Ok(self
            .patterns(goal)?
            .into_iter()
            .map(|tiles| {
                let entries = placements(cells, tiles.len());
                TableSize {
                    tiles,
                    cells,
                    entries,
                    bytes: entries,
                }
            })
            .collect())
    }

    /// The partition on `goal`'s board in words, one paragraph each: what a pattern is (with
    /// this partition's patterns), why the parts may be added, what the reflection adds (with
    /// `lookup`, on this goal), how large each table is, and why it is built once.
    ///
    /// # Errors
    /// As [`PartitionSpec::patterns`].
    pub fn about(&self, goal: &Goal, lookup: PdbLookup) -> Result<Vec<String>, PdbError> {
        let sizes = self.table_sizes(goal)?;
        let name = self.name();
        let list: Vec<String> = sizes.iter().map(|t| tiles_text(&t.tiles)).collect();
        let pattern = format!(
            "A pattern is the board with only some of its tiles: the other tiles are forgotten, \
             and so is where they are; only where the blank can go among them matters. A \
             pattern's table gives, for every placement of its tiles, the fewest moves of \
             those tiles that bring them to their goal cells, when moves of the other tiles \
             are free. {name} splits the tiles into {} pattern{}: {}.",
            sizes.len(),
            if sizes.len() == 1 { "" } else { "s" },
            list.join("; ")
        );
        let add = if sizes.len() == 1 {
            "With one pattern holding every tile, the table gives the exact number of moves \
             to the goal."
                .to_string()
        } else {
            "Each table counts only the moves of its own tiles, and a move slides one tile, of \
             one pattern: no move is counted twice. So the tables' values may be added, and \
             the sum is never more than the moves the board needs (it is admissible): the \
             disjoint partition of Korf & Felner (2002)."
                .to_string()
        };
        Ok(vec![
            pattern,
            add,
            reflection_text(goal, lookup),
            size_text(&sizes),
            BUILT.into(),
        ])
    }
}

/// Why a table is built once.
const BUILT: &str = "Each table is built once, by a breadth-first search backwards from the \
     goal over the pattern's states (where its tiles are and where the blank is), in which a \
     move of a pattern tile costs 1 and a move of another tile costs nothing. It is then saved \
     to a cache file and read back the next time instead of being built again.";

/// What the reflection adds on `goal`'s board with `lookup`.
fn reflection_text(goal: &Goal, lookup: PdbLookup) -> String {
    let what = "the same tables looked up on the board reflected about its diagonal from the \
                top left to the bottom right (tiles renamed so that the goal stays the goal)";
    match (reflection(goal).is_some(), lookup.reflect) {
        (true, true) => format!(
            "The reflection: {what}. The reflected board needs exactly as many moves, so its \
             sum is a lower bound too, and h is the larger of the two sums."
        ),
        (true, false) => format!("The reflection ({what}, the larger sum taken) is switched off."),
        (false, _) => format!(
            "The reflection ({what}, the larger sum taken) needs a square board whose goal has \
             the blank on that diagonal: not this one."
        ),
    }
}

/// Each table's entries and bytes, and their total.
fn size_text(sizes: &[TableSize]) -> String {
    let bytes = |b: u64| bytesize::ByteSize(b).display().iec().to_string();
    let each: Vec<String> = sizes
        .iter()
        .map(|t| {
            let factors: Vec<String> = (0..t.tiles.len())
                .map(|i| (t.cells - i).to_string())
                .collect();
            format!(
                "{}: {} = {} entries, {}",
                tiles_text(&t.tiles),
                factors.join(" × "),
                group_digits(t.entries),
                bytes(t.bytes)
            )
        })
        .collect();
    let total: u64 = sizes.iter().map(|t| t.bytes).sum();
    format!(
        "One entry for each way to place a pattern's tiles on the {} cells, one byte each. {}. \
         In all {}.",
        sizes.first().map_or(0, |t| t.cells),
        each.join("; "),
        bytes(total)
    )
}

impl super::CatalogueSpec {
    /// The catalogue on `goal`'s board in words, one paragraph each: what a maximum over
    /// partitions is and why it stays admissible (Holte, Felner, Newton, Meshulam & Furcy,
    /// Artificial Intelligence 170 (2006)), its partitions and which tables they share (also
    /// through the reflection), and the tables' bytes.
    ///
    /// # Errors
    /// As [`super::CatalogueSpec::layout`].
    pub fn about(&self, goal: &Goal) -> Result<Vec<String>, PdbError> {
        let layout = self.layout(goal)?;
        let partitions = self.partitions(goal)?;
        let name = self.name();
        let cells = goal.board().len();
        let max = format!(
            "{name} is the largest of {} additive pattern-database estimates. Each one splits \
             the tiles into disjoint patterns and adds their tables' values, which never \
             exceeds the moves left, because every move moves one tile, counted by one pattern \
             only. Each sum is a lower bound, so the largest of them is one too: the maximum \
             stays admissible, and on each board it takes whichever split sees that board best. \
             The sums are kept move by move: a move changes only the tables holding the moved \
             tile, and the search stops evaluating once one partition alone prunes the board.",
            partitions.len()
        );
        let mut paras = vec![max];
        let reflect = reflection(goal).is_some();
        for (q, (patterns, parts)) in partitions.iter().zip(&layout.partitions).enumerate() {
            let list: Vec<String> = patterns
                .iter()
                .zip(parts)
                .map(|(p, part)| {
                    let how = if part.flipped {
                        format!(", read as the mirror image of table {}", part.table + 1)
                    } else {
                        format!(" (table {})", part.table + 1)
                    };
                    format!("{}{how}", tiles_text(p))
                })
                .collect();
            paras.push(format!("Partition {}: {}.", q + 1, list.join("; ")));
        }
        if reflect {
            paras.push(
                "Every partition is also looked up on the board reflected about its main \
                 diagonal, and the larger sum counts. A pattern's value on the board is (up to \
                 the blank-region flags) the value of its mirror image on the reflected board, \
                 so a pattern and its mirror image share one table."
                    .to_string(),
            );
        }
        let bytes: u64 = layout
            .tables
            .iter()
            .map(|t| placements(cells, t.len()))
            .sum();
        paras.push(format!(
            "{} distinct tables, each built once and kept on disk (a table another name uses, \
             such as pdb6666's, is the same file): {} bytes in memory and on disk, one byte per \
             placement.",
            layout.tables.len(),
            group_digits(bytes)
        ));
        Ok(paras)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::GoalSpec;

    #[test]
    fn sizes_come_from_the_partition() {
        let g = GoalSpec::BlankLast.resolve(4, 4).unwrap();
        let spec = PartitionSpec::Named("pdb555".into());
        let s = spec.table_sizes(&g).unwrap();
        assert_eq!(s.len(), 3);
        assert!(s.iter().all(|t| t.entries == 16 * 15 * 14 * 13 * 12));
        let words = spec.about(&g, PdbLookup::default()).unwrap();
        assert!(
            words[3].contains("16 × 15 × 14 × 13 × 12 = 524 160 entries"),
            "{}",
            words[3]
        );
        assert!(words[2].contains("h is the larger of the two sums"));
        let rect = GoalSpec::BlankLast.resolve(2, 4).unwrap();
        let w = PartitionSpec::Sizes(vec![3, 4])
            .about(&rect, PdbLookup::default())
            .unwrap();
        assert!(w[2].ends_with("not this one."), "{}", w[2]);
        assert!(w[0].contains("2 patterns: 3 tiles"), "{}", w[0]);
    }
}
