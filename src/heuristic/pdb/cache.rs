//! Pattern tables cached on disk: one file per table, keyed by board size, goal and pattern
//! tiles; a header with a format version and the parameters; a CRC-32 of header and data;
//! written atomically (temporary file, then rename). A missing, stale or corrupt file is
//! rebuilt (with a warning), never trusted.
//!
//! File layout: `NPUZZPDB` (8 bytes), format version (u32 LE), header length (u32 LE), header
//! (JSON: rows, cols, goal, tiles, entries, regions), data (one byte an entry), CRC-32 (u32
//! LE) of the header and data.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::builder::{BuildProgress, build_table};
use super::{PatternTable, PdbError, TableBytes, placements};
use crate::puzzle::Goal;

const MAGIC: &[u8; 8] = b"NPUZZPDB";
/// Format version of the cache files; files of another version are rebuilt.
pub const FORMAT_VERSION: u32 = 2;
/// Environment variable that overrides the cache folder.
pub const CACHE_ENV: &str = "NPUZZLE_CACHE_DIR";

/// The parameters a table was built for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// Board rows.
    pub rows: usize,
    /// Board columns.
    pub cols: usize,
    /// The goal board, one-line form.
    pub goal: String,
    /// The pattern tiles, in index order.
    pub tiles: Vec<u8>,
    /// Number of entries (bytes of data).
    pub entries: u64,
    /// Whether the entries hold blank-region flags in their two high bits
    /// ([`super::regions`]); the builder decides, so it is not part of what a table is looked
    /// up by ([`Header::same_table`]).
    pub regions: bool,
}

impl Header {
    /// Whether two headers describe the same table (all but [`Header::regions`]).
    pub fn same_table(&self, other: &Header) -> bool {
        Header {
            regions: other.regions,
            ..self.clone()
        } == *other
    }
}

/// A cache folder of pattern tables.
#[derive(Clone, Debug)]
pub struct PdbCache {
    dir: PathBuf,
    /// Why the folder is the system's default where the environment might suggest another.
    note: Option<String>,
}

/// Where a table came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Read from the cache and verified.
    Cached,
    /// Built now and saved.
    Built,
    /// Built now, but the file could not be written (the warning said why).
    BuiltNotSaved,
}

impl PdbCache {
    /// The cache in `dir`, or in `$NPUZZLE_CACHE_DIR`, or in the user's cache folder
    /// (e.g. `~/.cache/npuzzle/pdb` on Linux). An empty `dir` or variable counts as not given
    /// (an empty path would otherwise mean the current folder for writing and none for
    /// listing).
    ///
    /// # Errors
    /// [`PdbError::NoCacheDir`] when no cache folder can be determined.
    pub fn new(dir: Option<PathBuf>) -> Result<PdbCache, PdbError> {
        let given = dir
            .or_else(|| std::env::var_os(CACHE_ENV).map(PathBuf::from))
            .filter(|d| !d.as_os_str().is_empty());
        let (dir, note) = match given {
            Some(d) => (d, None),
            None => (
                directories::ProjectDirs::from("", "", "npuzzle")
                    .map(|d| d.cache_dir().join("pdb"))
                    .ok_or(PdbError::NoCacheDir)?,
                default_folder_note(),
            ),
        };
        Ok(PdbCache { dir, note })
    }

    /// Where the tables are written, said when the environment might lead a user to look
    /// elsewhere (`HOME` not set, a relative `XDG_CACHE_HOME`, which the XDG specification
    /// says to ignore): e.g. "XDG_CACHE_HOME (cache) is not an absolute path and is ignored:
    /// tables are written to /root/.cache/npuzzle/pdb". `None` otherwise.
    pub fn location_note(&self) -> Option<String> {
        let why = self.note.as_ref()?;
        Some(format!(
            "{why}: tables are written to {}",
            self.dir.display()
        ))
    }

    /// The cache folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The folder [`PdbCache::new`] picks for `dir`, if one can be determined (what
    /// [`Limits::cache_dir`](crate::search::Limits::cache_dir) takes).
    pub fn folder(dir: Option<PathBuf>) -> Option<PathBuf> {
        PdbCache::new(dir).ok().map(|c| c.dir)
    }

    /// The file a table is kept in.
    pub fn path_for(&self, goal: &Goal, tiles: &[u8]) -> PathBuf {
        let b = goal.board();
        let goal_crc = crc32fast::hash(b.tiles());
        let tiles: Vec<String> = tiles.iter().map(|t| t.to_string()).collect();
        self.dir.join(format!(
            "{}x{}-{goal_crc:08x}-{}.pdb",
            b.rows(),
            b.cols(),
            tiles.join("_")
        ))
    }

    /// The table for `tiles` towards `goal`: from the cache when a valid file is there, else
    /// built and saved. `warn` receives a line for every file found invalid or not saved.
    ///
    /// # Errors
    /// As [`build_table`] when the table has to be built.
    pub fn load_or_build(
        &self,
        goal: &Goal,
        tiles: &[u8],
        pattern: usize,
        max_memory: u64,
        progress: &(dyn Fn(&BuildProgress) -> bool + Sync),
        warn: &(dyn Fn(String) + Sync),
    ) -> Result<(Arc<PatternTable>, Source), PdbError> {
        let path = self.path_for(goal, tiles);
        let expect = header_for(goal, tiles);
        match read_file(&path) {
            Ok((h, t)) if h.same_table(&expect) => return Ok((Arc::new(t), Source::Cached)),
            Ok(_) => warn(format!(
                "{}: built for other parameters; rebuilding",
                path.display()
            )),
            Err(PdbError::Missing { .. }) => {}
            Err(why) => warn(format!("{}: {why}; rebuilding", path.display())),
        }
        let t = build_table(goal, tiles, pattern, max_memory, progress)?;
        // A save killed before its rename left its temporary file: clear those first.
        match crate::files::remove_stale_temporaries(&self.dir) {
            Ok(gone) if !gone.is_empty() => warn(format!(
                "removed {} left in {} by an interrupted save",
                temporaries_text(&gone),
                self.dir.display()
            )),
            Ok(_) => {}
            Err(e) => warn(format!(
                "could not clear unfinished temporary files in {}: {e}",
                self.dir.display()
            )),
        }
        let header = Header {
            regions: t.regions(),
            ..expect
        };
        if let Err(e) = self.save(&path, &header, t.bytes()) {
            warn(format!("could not save {}: {e}", path.display()));
            return Ok((Arc::new(t), Source::BuiltNotSaved));
        }
        Ok((Arc::new(t), Source::Built))
    }

    /// Every table of `spec` for `goal`, from the cache or built (and saved), as one additive
    /// heuristic. `progress(pattern, patterns, step)` follows the builds (`false` stops them); `warn` receives a
    /// line for every file found invalid or not saved. Also returns the tables that were built and
    /// saved.
    ///
    /// # Errors
    /// [`PdbError::BadPartition`] when the partition does not fit the board, or as
    /// [`build_table`] when a build fails.
    pub fn load_partition(
        &self,
        goal: &Goal,
        spec: &super::PartitionSpec,
        max_memory: u64,
        progress: &(dyn Fn(usize, usize, &BuildProgress) -> bool + Sync),
        warn: &(dyn Fn(String) + Sync),
    ) -> Result<(Arc<super::AdditivePdb>, Vec<Vec<u8>>), PdbError> {
        let patterns = spec.patterns(goal)?;
        let mut tables = Vec::new();
        let mut built = Vec::new();
        for (i, p) in patterns.iter().enumerate() {
            let (t, source) = self.load_or_build(
                goal,
                p,
                i,
                max_memory,
                &|step| progress(i, patterns.len(), step),
                warn,
            )?;
            if source == Source::Built {
                built.push(p.clone());
            }
            tables.push(t);
        }
        let pdb = super::AdditivePdb::new(&spec.name(), goal, tables)?;
        Ok((Arc::new(pdb), built))
    }

    fn save(&self, path: &Path, header: &Header, data: &[u8]) -> std::io::Result<()> {
        std::fs::create_dir_all(&self.dir)?;
        let json = serde_json::to_vec(header).map_err(std::io::Error::other)?;
        let mut crc = crc32fast::Hasher::new();
        crc.update(&json);
        crc.update(data);
        crate::files::write_atomic_with(path, |w| {
            w.write_all(MAGIC)?;
            w.write_all(&FORMAT_VERSION.to_le_bytes())?;
            w.write_all(&(json.len() as u32).to_le_bytes())?;
            w.write_all(&json)?;
            w.write_all(data)?;
            w.write_all(&crc.finalize().to_le_bytes())
        })
    }

    /// Checks that a sound file's header is the one its name stands for (the goal and tiles the
    /// cache would look it up by).
    ///
    /// # Errors
    /// [`PdbError::Corrupt`]: why the header does not match the file name.
    pub fn check_name(&self, path: &Path, header: &Header) -> Result<(), PdbError> {
        let bad = |why: String| PdbError::Corrupt {
            path: path.to_path_buf(),
            why,
        };
        let goal_board: crate::puzzle::Board = header
            .goal
            .parse()
            .map_err(|e| bad(format!("goal in the header: {e}")))?;
        let goal = crate::puzzle::GoalSpec::Board(goal_board)
            .resolve(header.rows, header.cols)
            .map_err(|e| bad(format!("goal in the header: {e}")))?;
        if !header_for(&goal, &header.tiles).same_table(header) {
            return Err(bad("header parameters do not fit together".into()));
        }
        let want = self.path_for(&goal, &header.tiles);
        if want.file_name() != path.file_name() {
            return Err(bad(format!(
                "holds the table of {:?} towards {}, which belongs in {}",
                header.tiles,
                header.goal,
                want.file_name()
                    .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
            )));
        }
        Ok(())
    }

    /// Every entry of the cache named `*.pdb`, with its header (or why it is unusable: a folder
    /// or FIFO with that name is not a table) and size; the entries are not read (see
    /// [`verify_file`]).
    pub fn list(&self) -> Vec<(PathBuf, Result<Header, PdbError>, u64)> {
        self.entries("pdb")
            .into_iter()
            .map(|p| {
                let size = std::fs::metadata(&p).map_or(0, |m| m.len());
                let h = read_header(&p);
                (p, h, size)
            })
            .collect()
    }

    /// The cache folder's entries named `*.{ext}`, sorted (none when it cannot be read).
    fn entries(&self, ext: &str) -> Vec<PathBuf> {
        let Ok(rd) = std::fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        let mut out: Vec<PathBuf> = rd
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == ext))
            .collect();
        out.sort();
        out
    }

    /// The temporary files of saves in the cache folder: live ones (a build saving now) and
    /// those a killed save left behind (see [`crate::files::temporaries`]).
    ///
    /// # Errors
    /// Reading the folder.
    pub fn temporaries(&self) -> std::io::Result<Vec<crate::files::Temporary>> {
        crate::files::temporaries(&self.dir)
    }

    /// Deletes every `.pdb` table in the cache, the `.fsm` pruning automata IDA* keeps there
    /// (rebuilt when next needed), and the temporary files that killed saves left behind
    /// (never a live save's); returns how many tables, automata and temporary files.
    ///
    /// # Errors
    /// The first I/O error.
    pub fn clear(&self) -> std::io::Result<(usize, usize, usize)> {
        let tables = remove_listed(&self.entries("pdb"))?;
        let automata = remove_listed(&self.entries("fsm"))?;
        let leftovers = crate::files::remove_stale_temporaries(&self.dir)?;
        Ok((tables, automata, leftovers.len()))
    }
}

/// Deletes the files `paths` (a listing of the cache), skipping folders; returns how many this
/// call removed. A file already gone (another `pdb clear` took it since the listing) is what
/// was asked for, not an error.
///
/// # Errors
/// The first other I/O error.
fn remove_listed(paths: &[PathBuf]) -> std::io::Result<usize> {
    let mut removed = 0;
    for p in paths {
        if std::fs::symlink_metadata(p).is_ok_and(|m| m.is_dir()) {
            continue; // a folder named like a table is not ours to delete
        }
        match std::fs::remove_file(p) {
            Ok(()) => removed += 1,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
    }
    Ok(removed)
}

/// Why the user's default cache folder may not be where the environment suggests, on
/// systems that read `HOME` and `XDG_CACHE_HOME`.
fn default_folder_note() -> Option<String> {
    if !cfg!(unix) || cfg!(target_os = "macos") {
        return None;
    }
    if let Some(x) = std::env::var_os("XDG_CACHE_HOME").filter(|x| !x.is_empty())
        && !Path::new(&x).is_absolute()
    {
        let x = Path::new(&x).display().to_string();
        return Some(format!(
            "XDG_CACHE_HOME ({x}) is not an absolute path and is ignored"
        ));
    }
    match std::env::var_os("HOME") {
        Some(h) if !h.is_empty() => None,
        _ => Some("HOME is not set (the home folder is the user database's)".to_string()),
    }
}

/// "2 unfinished temporary files (1.2 MiB)".
pub fn temporaries_text(t: &[crate::files::Temporary]) -> String {
    let bytes: u64 = t.iter().map(|t| t.bytes).sum();
    format!(
        "{} unfinished temporary file{} ({})",
        t.len(),
        if t.len() == 1 { "" } else { "s" },
        bytesize::ByteSize(bytes).display().iec()
    )
}

/// The header a table for `tiles` towards `goal` must have (up to [`Header::regions`]).
pub fn header_for(goal: &Goal, tiles: &[u8]) -> Header {
    let b = goal.board();
    Header {
        rows: b.rows(),
        cols: b.cols(),
        goal: b.to_string(),
        tiles: tiles.to_vec(),
        entries: placements(b.len(), tiles.len()),
        regions: false,
    }
}

/// An open cache file positioned after its header: the file, the header and its JSON bytes.
/// Checks magic, version, header syntax and that the file size fits the entry count; the
/// header is trusted only once the checksum over it and the data matches ([`read_file`]).
fn read_head(path: &Path) -> Result<(std::fs::File, Header, Vec<u8>), PdbError> {
    use std::io::Read;
    let (io, bad) = file_errors(path);
    // Only a regular file is a table: opening a FIFO would wait for a writer for ever.
    match std::fs::metadata(path) {
        Ok(m) if !m.is_file() => {
            return Err(bad(&format!(
                "not a regular file (a {}), so not a table",
                crate::files::kind_of(&m.file_type())
            )));
        }
        _ => {}
    }
    let mut file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(PdbError::Missing {
                path: path.to_path_buf(),
            });
        }
        Err(e) => return Err(io(e)),
    };
    let size = file.metadata().map_err(io)?.len();
    let mut head = [0u8; 16];
    let version = match size >= 20 && file.read_exact(&mut head).is_ok() {
        true => format_version(&head),
        false => None,
    };
    let Some(version) = version else {
        return Err(bad("not a pattern-database file"));
    };
    if version != FORMAT_VERSION {
        let whose = if version < FORMAT_VERSION {
            " (an earlier npuzzle's: rebuilt on its next use)"
        } else {
            ""
        };
        return Err(bad(&format!(
            "format version {version}, expected {FORMAT_VERSION}{whose}"
        )));
    }
    let hlen = u64::from(u32::from_le_bytes([head[12], head[13], head[14], head[15]]));
    if 16 + hlen + 4 > size {
        return Err(bad("truncated header"));
    }
    let mut json = vec![0u8; hlen as usize];
    file.read_exact(&mut json).map_err(io)?;
    let header: Header = serde_json::from_slice(&json).map_err(|_| bad("corrupt header"))?;
    if (16 + hlen + 4).checked_add(header.entries) != Some(size) {
        return Err(bad("wrong number of entries (truncated or padded file)"));
    }
    Ok((file, header, json))
}

/// A whole cache file: header and table, checksum and the table's invariants verified
/// (see `check.rs`).
fn read_file(path: &Path) -> Result<(Header, PatternTable), PdbError> {
    use std::io::Read;
    let (io, bad) = file_errors(path);
    let (mut file, header, json) = read_head(path)?;
    // Straight into the table's memory: no second copy of a table of half a gigabyte.
    let mut data = TableBytes::zeroed(header.entries as usize).map_err(io)?;
    file.read_exact(&mut data).map_err(io)?;
    let mut tail = [0u8; 4];
    file.read_exact(&mut tail).map_err(io)?;
    let mut crc = crc32fast::Hasher::new();
    crc.update(&json);
    // The entries' counts for the plausibility check in the same pass, while each piece is
    // in the cache: a second pass over half a gigabyte would cost a third of a second here.
    let mut counts = (0u64, 0u64, 0u64);
    let mask = super::regions::value_mask(header.regions);
    for piece in data.chunks(1 << 20) {
        crc.update(piece);
        let (z, u, b) = super::check::count_zero_and_unseen(piece, mask);
        counts = (counts.0 + z, counts.1 + u, counts.2 + b);
    }
    if crc.finalize() != u32::from_le_bytes(tail) {
        return Err(bad("checksum mismatch (corrupt file)"));
    }
    let cells = header.rows.saturating_mul(header.cols);
    let goal: crate::puzzle::Board = header
        .goal
        .parse()
        .map_err(|e| bad(&format!("goal in the header: {e}")))?;
    if goal.rows() != header.rows || goal.cols() != header.cols {
        return Err(bad("the header's goal is not of its board size"));
    }
    let table = PatternTable::from_bytes(header.tiles.clone(), cells, data)
        .map_err(|e| bad(&e.to_string()))?
        .with_regions(header.regions);
    super::check::table_is_plausible(&table, header.rows, header.cols, goal.tiles(), counts)
        .map_err(|why| bad(&format!("implausible table: {why}")))?;
    Ok((header, table))
}

/// A file's header, checked for form and size but without reading the entries (no checksum):
/// for listings and for deciding what is cached; loading verifies the checksum.
///
/// # Errors
/// Why the file is unusable: [`PdbError::Missing`], [`PdbError::Io`], [`PdbError::Corrupt`].
pub fn read_header(path: &Path) -> Result<Header, PdbError> {
    read_head(path).map(|(_, h, _)| h)
}

/// Whether `path` is a regular file holding a table of an earlier format version (the same
/// table once rebuilt, which its next use does).
pub fn older_format(path: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 12];
    std::fs::metadata(path).is_ok_and(|m| m.is_file())
        && std::fs::File::open(path)
            .and_then(|mut f| f.read_exact(&mut head))
            .is_ok()
        && format_version(&head).is_some_and(|v| v < FORMAT_VERSION)
}

/// The format version a file's first 12 bytes give, when they start with the magic.
fn format_version(head: &[u8]) -> Option<u32> {
    (head.len() >= 12 && &head[..8] == MAGIC)
        .then(|| u32::from_le_bytes([head[8], head[9], head[10], head[11]]))
}

/// Checks one file: readable, checksum, entry count. `Ok(header)` when sound.
///
/// # Errors
/// Why the file is unsound: [`PdbError::Missing`], [`PdbError::Io`], [`PdbError::Corrupt`].
pub fn verify_file(path: &Path) -> Result<Header, PdbError> {
    read_file(path).map(|(h, _)| h)
}

/// The errors of reading the file at `path`: from the system's, and from a reason.
fn file_errors(
    path: &Path,
) -> (
    impl Fn(std::io::Error) -> PdbError + Copy + '_,
    impl Fn(&str) -> PdbError + Copy + '_,
) {
    let io = |source| PdbError::Io {
        path: path.to_path_buf(),
        source,
    };
    let bad = |why: &str| PdbError::Corrupt {
        path: path.to_path_buf(),
        why: why.to_string(),
    };
    (io, bad)
}

#[cfg(test)]
mod tests {
    use super::remove_listed;

    /// Four `pdb clear` at once: a file another one removed since the listing was an error
    /// ("No such file or directory", exit 1).
    #[test]
    fn a_file_already_removed_by_another_clear_is_not_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let here = dir.path().join("4x4-00000000-1_2.pdb");
        std::fs::write(&here, b"table").unwrap();
        let gone = dir.path().join("4x4-00000000-3_4.pdb");
        assert_eq!(remove_listed(&[gone, here.clone()]).unwrap(), 1);
        assert!(!here.exists());
    }
}
