//! Additive disjoint pattern databases (Korf & Felner, "Disjoint pattern database heuristics",
//! Artificial Intelligence 134 (2002) 9–22; Felner, Korf & Hanan, "Additive pattern database
//! heuristics", JAIR 22 (2004) 279–318).
//!
//! The non-blank tiles are split into disjoint patterns. For each pattern, a table gives, for
//! every placement of its tiles, the minimum number of moves *of pattern tiles* needed to bring
//! them to their goal cells, where moves of the other tiles cost nothing ([`builder`]). Because
//! every move moves one tile of one pattern, the values of disjoint patterns add up to an
//! admissible heuristic. On square boards whose goal has the blank on the main diagonal, the
//! same tables are also looked up on the board reflected about that diagonal (tiles relabelled
//! so the goal maps to itself), and the larger sum is used (Culberson & Schaeffer's reflection,
//! as in Korf & Felner 2002).
//!
//! Tables are indexed by the rank of the k-permutation of the pattern tiles' cells
//! ([`PatternTable::index`]), one byte an entry.
//!
//! The rooms: `table.rs` (a table's memory and ranking), `additive.rs` (the heuristic over a
//! partition, with its incremental form and the reflection), `partition.rs` (which tiles go
//! together), `about.rs` (the partition in words for students: [`PartitionSpec::about`]),
//! `error.rs` ([`PdbError`]), [`builder`] (building a table), [`cache`] (tables on
//! disk), `pdbmax.rs` ([`PdbMax`]: the maximum over several partitions sharing their tables)
//! and `catalogue.rs` ([`CatalogueSpec`]: which partitions, `pdbmax24`).

mod about;
mod additive;
pub mod builder;
pub mod cache;
mod catalogue;
mod check;
mod error;
mod lookup;
mod partition;
mod pdbmax;
pub mod regions;
mod table;

pub use about::TableSize;
pub use additive::{AdditivePdb, PdbPrepared, PdbState, PdbUndo};
pub use catalogue::{
    CatalogueSpec, Layout, NAMED_CATALOGUES, NamedCatalogue, PDBMAX24, PDBMAX24X, load_catalogue,
};
pub use error::PdbError;
pub use lookup::PdbLookup;
pub use partition::{
    KORF_FELNER_24, NAMED, PartitionSpec, contiguous_partition, tiles_in_goal_order,
};
pub use pdbmax::{
    MAX_PARTITIONS, MAX_TABLES, Part, PdbMax, PdbMaxPrepared, PdbMaxState, PdbMaxUndo,
};
pub(crate) use table::prefetch;
pub use table::{PatternTable, TableBytes, placements};
