//! `PdbError`: what can go wrong with a pattern database.

use std::path::PathBuf;

/// What can go wrong with a pattern database: a partition that does not fit the board, a
/// build that cannot run or was stopped, a table's memory, a cache file or folder.
///
/// The variants about one cache file ([`PdbError::Missing`], [`PdbError::Io`],
/// [`PdbError::Corrupt`]) carry its path, but their message is the reason only: the caller
/// names the file (a warning's prefix, a listing's first column).
#[derive(Debug, thiserror::Error)]
pub enum PdbError {
    /// The build's progress callback asked it to stop.
    #[error("pattern-database build cancelled")]
    Cancelled,
    /// A pattern the builder does not take: a board of more than 32 cells, an empty pattern,
    /// one with the blank or a tile not on the board, or one with every cell.
    #[error(
        "cannot build a {tiles}-tile pattern on {cells} cells (at most 32 cells, fewer tiles than cells, no blank)"
    )]
    BadPattern {
        /// Tiles in the pattern.
        tiles: usize,
        /// Cells of the board.
        cells: usize,
    },
    /// A table of 2³² entries or more.
    #[error(
        "a {tiles}-tile pattern on {cells} cells has {placements} placements; at most 2³² − 1 are supported"
    )]
    TooManyPlacements {
        /// Tiles in the pattern.
        tiles: usize,
        /// Cells of the board.
        cells: usize,
        /// Entries the table would have.
        placements: u64,
    },
    /// A build that would need more memory than its cap.
    #[error(
        "building a {tiles}-tile pattern database on {cells} cells needs about {} (cap {})",
        bytesize::ByteSize(*need).display().iec(),
        bytesize::ByteSize(*cap).display().iec()
    )]
    TooBig {
        /// Tiles in the pattern.
        tiles: usize,
        /// Cells of the board.
        cells: usize,
        /// Bytes the build needs at its peak.
        need: u64,
        /// The cap, in bytes.
        cap: u64,
    },
    /// The memory for a table cannot be mapped.
    #[error("pattern-database table memory: {0}")]
    Memory(#[source] std::io::Error),
    /// A table whose number of entries does not fit its pattern and board.
    #[error("a {tiles}-tile table on {cells} cells has {want} entries, not {got}")]
    WrongSize {
        /// Tiles in the pattern.
        tiles: usize,
        /// Cells of the board.
        cells: usize,
        /// Entries a table of this pattern has.
        want: u64,
        /// Entries given.
        got: u64,
    },
    /// A partition that does not parse or does not fit the board (overlapping patterns,
    /// missing tiles, wrong sizes…): the message says what is wrong.
    #[error("{0}")]
    BadPartition(String),
    /// No cache folder was given and the system has no user cache folder.
    #[error("no cache folder: set NPUZZLE_CACHE_DIR or --cache-dir")]
    NoCacheDir,
    /// A cache file that does not exist.
    #[error("missing")]
    Missing {
        /// The file.
        path: PathBuf,
    },
    /// A cache file that cannot be read.
    #[error("{source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// A cache file that is not a sound table, or not the one its name stands for.
    #[error("{why}")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        why: String,
    },
}

/// A [`PdbError::BadPartition`] with a `format!` message.
macro_rules! bad_partition {
    ($($arg:tt)*) => {
        $crate::heuristic::pdb::PdbError::BadPartition(format!($($arg)*))
    };
}
pub(super) use bad_partition;
