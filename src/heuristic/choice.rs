//! Which heuristic to search with — [`HeuristicChoice`], the one name used by the command
//! line (`--heuristic`) and the app's menu — and [`resolve`], the one place that turns a choice
//! into a heuristic ready to search with: it picks `auto`'s heuristic, and loads a pattern
//! database from the cache or builds it (with progress and cancellation).

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

use super::pdb::builder::BuildProgress;
use super::pdb::cache::{PdbCache, header_for, older_format, read_header};
use super::pdb::{CatalogueSpec, PartitionSpec, PdbError, load_catalogue, placements};
use super::{HeuristicKind, HeuristicSpec, UnknownHeuristic};
use crate::puzzle::Goal;

/// A heuristic as the user names it: `auto`, a plain heuristic, or a pattern-database
/// partition. `FromStr` and `Display` round-trip (`auto`, `manhattan`, `pdb78`, `pdb:4,4`,
/// `pdb:1 2 3/4 5 6`).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum HeuristicChoice {
    /// The strongest available for the board and evaluator (see [`resolve`]).
    #[default]
    Auto,
    /// Hamming, Manhattan or linear conflict.
    Kind(HeuristicKind),
    /// An additive pattern database, loaded from the cache or built first.
    Pdb(PartitionSpec),
    /// The maximum over a catalogue of additive partitions (`pdbmax24`, `pdbmax24x`,
    /// `pdbmax:…`), its tables loaded from the cache or built first.
    PdbMax(CatalogueSpec),
}

impl HeuristicChoice {
    /// Whether h never passes the true distance: the plain kinds as
    /// [`HeuristicKind::is_admissible`] says; `auto` and pattern databases always (a pattern's
    /// table holds exact distances of a relaxed puzzle, and the parts count disjoint tiles' moves).
    pub fn is_admissible(&self) -> bool {
        match self {
            HeuristicChoice::Kind(k) => k.is_admissible(),
            HeuristicChoice::Auto | HeuristicChoice::Pdb(_) | HeuristicChoice::PdbMax(_) => true,
        }
    }

    /// Whether h changes by at most 1 per move: the plain kinds as
    /// [`HeuristicKind::is_consistent`] says. Pattern databases (and so `auto`, which may pick
    /// one) are not: their blank-region flags (on by default, [`crate::heuristic::pdb::PdbLookup`])
    /// may change h by three in one move. IDA* and this crate's A* (which reopens a closed board
    /// reached by a shorter path) stay optimal without consistency.
    pub fn is_consistent(&self) -> bool {
        match self {
            HeuristicChoice::Kind(k) => k.is_consistent(),
            HeuristicChoice::Auto | HeuristicChoice::Pdb(_) | HeuristicChoice::PdbMax(_) => false,
        }
    }

    /// What the heuristic counts, in plain sentences for a student (the app's menu).
    pub fn about(&self) -> &'static str {
        match self {
            HeuristicChoice::Kind(k) => k.about(),
            HeuristicChoice::Auto => {
                "The strongest heuristic ready for this board: a pattern database already built (or quick to build), else linear conflict."
            }
            HeuristicChoice::Pdb(_) => {
                "Pattern database: the tiles are split into groups (patterns). A table, built once and kept on disk, holds for every placement of one group's tiles the fewest moves of those tiles that bring them home, other tiles' moves not counted. Each group counts only its own tiles' moves, so the groups' values may be added."
            }
            HeuristicChoice::PdbMax(_) => {
                "Several pattern-database splits of the tiles: each split's sum is a lower bound on the moves left, so the largest of them is one too, and often larger than any one split's."
            }
        }
    }
}

/// A `--heuristic` value that names no heuristic.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HeuristicNameError {
    /// Not a plain heuristic and not `pdb…`.
    #[error(
        "{0}, auto, a pattern database (pdb8, pdb555, pdb663, pdb78, pdb6666, pdb:SIZES like pdb:4,4, pdb:TILES like pdb:1 2 3 4/5 6 7 8), or a maximum over several (pdbmax24, pdbmax24x, pdbmax:1 2 3/4 5 6|1 2 4/3 5 6)"
    )]
    Unknown(UnknownHeuristic),
    /// A `pdb…` name that does not parse (the message says why).
    #[error("{0}")]
    Partition(String),
}

impl FromStr for HeuristicChoice {
    type Err = HeuristicNameError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.trim().eq_ignore_ascii_case("auto") {
            return Ok(HeuristicChoice::Auto);
        }
        if s.trim().to_ascii_lowercase().starts_with("pdbmax") {
            return CatalogueSpec::parse(s)
                .map(HeuristicChoice::PdbMax)
                .map_err(|e| HeuristicNameError::Partition(e.to_string()));
        }
        if s.trim().to_ascii_lowercase().starts_with("pdb") {
            return PartitionSpec::parse(s)
                .map(HeuristicChoice::Pdb)
                .map_err(|e| HeuristicNameError::Partition(e.to_string()));
        }
        HeuristicKind::from_str(s)
            .map(HeuristicChoice::Kind)
            .map_err(HeuristicNameError::Unknown)
    }
}

impl fmt::Display for HeuristicChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeuristicChoice::Auto => f.write_str("auto"),
            HeuristicChoice::Kind(k) => f.write_str(k.name()),
            HeuristicChoice::Pdb(p) => f.write_str(&p.name()),
            HeuristicChoice::PdbMax(c) => f.write_str(&c.name()),
        }
    }
}

impl From<HeuristicKind> for HeuristicChoice {
    fn from(k: HeuristicKind) -> Self {
        HeuristicChoice::Kind(k)
    }
}

/// What [`resolve`] needs besides the choice and the goal.
pub struct ResolveOptions<'a> {
    /// Whether the search uses h at all; breadth-first search does not, and then nothing is
    /// built (a pattern database asked for is noted as ignored).
    pub uses_heuristic: bool,
    /// Pattern-database cache folder; `None`: `$NPUZZLE_CACHE_DIR`, else the user's cache folder.
    pub cache_dir: Option<PathBuf>,
    /// Memory cap for building a table, in bytes.
    pub max_memory: u64,
    /// The most bytes of pattern tables the evaluator takes (a GPU's six table bindings);
    /// `auto` picks the strongest database within it. `None`: no limit (the CPU).
    pub max_table_bytes: Option<u64>,
    /// Called while a table is built: (pattern index, patterns, progress); return `false` to
    /// cancel the build ([`ResolveError::Cancelled`]).
    pub progress: &'a (dyn Fn(usize, usize, &BuildProgress) -> bool + Sync),
    /// Called with a warning (a cache file found invalid and rebuilt, a table not saved).
    pub warn: &'a (dyn Fn(String) + Sync),
}

/// A resolved choice.
pub struct Resolved {
    /// The heuristic to search with.
    pub heuristic: HeuristicSpec,
    /// A line for the user when `auto` chose (what and why) or a choice was ignored.
    pub note: Option<String>,
    /// The patterns (tiles) whose tables were built now rather than read from the cache.
    pub built: Vec<Vec<u8>>,
}

/// Why a choice could not be resolved.
#[derive(Debug, thiserror::Error)]
pub enum ResolveError {
    /// The partition does not fit the board (bad input).
    #[error("{name}: {why}")]
    BadPartition {
        /// The partition's name.
        name: String,
        /// What is wrong ([`PdbError::BadPartition`]).
        #[source]
        why: PdbError,
    },
    /// A heuristic that does not take this board's shape (bad input).
    #[error("{name}: {why}")]
    NotForBoard {
        /// The heuristic's name.
        name: &'static str,
        /// Why.
        #[source]
        why: super::WalkingDistanceError,
    },
    /// The progress callback asked to stop.
    #[error("pattern-database build cancelled")]
    Cancelled,
    /// The cache folder or a table could not be had.
    #[error("pattern database {name}: {why}")]
    Unavailable {
        /// The partition's name.
        name: String,
        /// What went wrong: a build too big for the memory cap ([`PdbError::TooBig`]), a cache
        /// folder that cannot be written ([`PdbError::Io`]), …
        #[source]
        why: PdbError,
    },
}

impl ResolveError {
    /// The pattern-database error underneath, if any (none for [`ResolveError::Cancelled`]).
    pub fn pdb_error(&self) -> Option<&PdbError> {
        match self {
            ResolveError::BadPartition { why, .. } | ResolveError::Unavailable { why, .. } => {
                Some(why)
            }
            ResolveError::Cancelled | ResolveError::NotForBoard { .. } => None,
        }
    }
}

/// The bytes of `spec`'s tables for `goal` (one byte per placement of each pattern's tiles),
/// or `None` if the partition does not fit the board.
pub fn table_bytes(spec: &PartitionSpec, goal: &Goal) -> Option<u64> {
    let n = goal.board().len();
    let patterns = spec.patterns(goal).ok()?;
    Some(patterns.iter().map(|p| placements(n, p.len())).sum())
}

/// Whether every table of `spec` for `goal` is in `cache` with the right header (the checksum
/// is checked when it is loaded; a bad one is then rebuilt), or as a file of an earlier format
/// version, which its next use rebuilds (with a warning), so that `auto` keeps choosing it.
pub fn is_cached(cache: &PdbCache, goal: &Goal, spec: &PartitionSpec) -> bool {
    spec.patterns(goal)
        .is_ok_and(|ps| ps.iter().all(|p| table_cached(cache, goal, p)))
}

/// Whether the table of pattern `tiles` for `goal` is in `cache` (current format and the same
/// table, or an older format that loading will rebuild).
fn table_cached(cache: &PdbCache, goal: &Goal, tiles: &[u8]) -> bool {
    let path = cache.path_for(goal, tiles);
    read_header(&path).is_ok_and(|h| h.same_table(&header_for(goal, tiles))) || older_format(&path)
}

/// The bytes of a catalogue's distinct tables for `goal` (each once, however many partitions
/// read it), or `None` if it does not fit the board.
pub fn catalogue_bytes(spec: &CatalogueSpec, goal: &Goal) -> Option<u64> {
    let n = goal.board().len();
    let layout = spec.layout(goal).ok()?;
    Some(layout.tables.iter().map(|p| placements(n, p.len())).sum())
}

/// Whether every distinct table of the catalogue `spec` for `goal` is in `cache` (as
/// [`is_cached`] for a partition).
pub fn is_catalogue_cached(cache: &PdbCache, goal: &Goal, spec: &CatalogueSpec) -> bool {
    spec.layout(goal)
        .is_ok_and(|l| l.tables.iter().all(|p| table_cached(cache, goal, p)))
}

/// The pattern databases `auto` considers for a board, strongest first, and whether each must
/// be cached already to be picked (the others build in about a second or less).
fn auto_candidates(goal: &Goal) -> &'static [(&'static str, bool)] {
    let b = goal.board();
    match (b.rows(), b.cols()) {
        (3, 3) => &[("pdb8", false)],
        (4, 4) => &[("pdb78", true), ("pdb663", true), ("pdb555", false)],
        (5, 5) => &[("pdb6666", true)],
        _ => &[],
    }
}

/// The heuristics worth comparing on `goal`'s board, weakest first: every plain heuristic
/// that takes the shape, then the pattern databases `auto` would consider that are cached in
/// `cache_dir` (the default cache when `None`) or quick to build (`pdb8`, `pdb555`).
pub fn comparable(goal: &Goal, cache_dir: Option<std::path::PathBuf>) -> Vec<HeuristicChoice> {
    let b = goal.board();
    let mut out: Vec<HeuristicChoice> = HeuristicKind::ALL
        .into_iter()
        .filter(|k| k.supports(b.rows(), b.cols()).is_ok())
        .map(HeuristicChoice::Kind)
        .collect();
    let cache = PdbCache::new(cache_dir).ok();
    for &(name, must_be_cached) in auto_candidates(goal).iter().rev() {
        let spec = PartitionSpec::Named(name.to_string());
        if !must_be_cached || cache.as_ref().is_some_and(|c| is_cached(c, goal, &spec)) {
            out.push(HeuristicChoice::Pdb(spec));
        }
    }
    out
}

/// Turns a choice into a heuristic for `goal`: the plain heuristics at once; a pattern
/// database from the cache, or built (reporting through `opts.progress`) and cached.
///
/// `auto` picks the strongest available: the exact table `pdb8` on 3×3; on 4×4 `pdb78` or
/// `pdb663` when cached, else `pdb555` (built in about half a second); on 5×5 `pdbmax24x` or
/// `pdbmax24` when all its tables are cached, else `pdb6666` when cached; always within
/// `opts.max_table_bytes`; linear conflict otherwise. Without a search that uses h
/// (`opts.uses_heuristic` false), nothing is built: linear conflict stands in.
///
/// # Errors
/// [`ResolveError::BadPartition`] for a partition that does not fit the board,
/// [`ResolveError::NotForBoard`] for a heuristic that does not take its shape,
/// [`ResolveError::Cancelled`] when `opts.progress` returned `false`,
/// [`ResolveError::Unavailable`] when the cache folder or a table cannot be had.
pub fn resolve(
    choice: &HeuristicChoice,
    goal: &Goal,
    opts: &ResolveOptions<'_>,
) -> Result<Resolved, ResolveError> {
    let plain = |k: HeuristicKind, note: Option<String>| Resolved {
        heuristic: HeuristicSpec::Kind(k),
        note,
        built: Vec::new(),
    };
    let lc = HeuristicKind::LinearConflict;
    match choice {
        HeuristicChoice::Kind(k) => {
            let b = goal.board();
            if opts.uses_heuristic {
                k.supports(b.rows(), b.cols())
                    .map_err(|why| ResolveError::NotForBoard {
                        name: k.name(),
                        why,
                    })?;
            }
            Ok(plain(*k, None))
        }
        HeuristicChoice::Pdb(spec) => {
            spec.patterns(goal)
                .map_err(|why| ResolveError::BadPartition {
                    name: spec.name(),
                    why,
                })?;
            if !opts.uses_heuristic {
                return Ok(no_tables(&spec.name()));
            }
            let cache = open_cache(&spec.name(), opts)?;
            load(&cache, spec, goal, opts, None)
        }
        HeuristicChoice::PdbMax(spec) => {
            let bad = |why| ResolveError::BadPartition {
                name: spec.name(),
                why,
            };
            spec.layout(goal).map_err(bad)?;
            if !opts.uses_heuristic {
                return Ok(no_tables(&spec.name()));
            }
            let cache = open_cache(&spec.name(), opts)?;
            load_max(&cache, spec, goal, opts, None)
        }
        HeuristicChoice::Auto => {
            if !opts.uses_heuristic {
                return Ok(plain(lc, None));
            }
            let Ok(cache) = PdbCache::new(opts.cache_dir.clone()) else {
                return Ok(plain(
                    lc,
                    Some("auto picked linear-conflict (no cache folder)".into()),
                ));
            };
            if let Some(r) = auto_catalogue(&cache, goal, opts) {
                return r;
            }
            let mut too_big = String::new();
            for &(name, must_be_cached) in auto_candidates(goal) {
                let spec = PartitionSpec::Named(name.to_string());
                let cached = is_cached(&cache, goal, &spec);
                if must_be_cached && !cached {
                    continue;
                }
                // One that would be picked but that the evaluator cannot take: say so.
                let bytes = table_bytes(&spec, goal).unwrap_or(u64::MAX);
                if let Some(max) = opts.max_table_bytes.filter(|&max| bytes > max)
                    && too_big.is_empty()
                {
                    too_big = format!(
                        "; {name} takes {bytes} bytes, more than the evaluator's {max} bytes"
                    );
                }
                if opts.max_table_bytes.is_some_and(|max| bytes > max) {
                    continue;
                }
                let note = format!(
                    "auto picked the {name} pattern database ({}{too_big})",
                    if cached {
                        "cached"
                    } else {
                        "built now, cached for next time"
                    }
                );
                return load(&cache, &spec, goal, opts, Some(note));
            }
            let note = match too_big.strip_prefix("; ") {
                Some(why) => format!("auto picked linear-conflict ({why})"),
                None => "auto picked linear-conflict".into(),
            };
            Ok(plain(lc, Some(note)))
        }
    }
}

/// `auto`'s pick of a named catalogue on 5×5 when the search runs on the CPU (no limit on
/// table bytes): the strongest (fewest nodes) whose tables are all cached and fit the memory
/// the system leaves, `pdbmax24x` before `pdbmax24`. One that cannot be loaded (e.g. a table of
/// an older format that would need rebuilding past `--max-memory`) is passed over with a
/// warning.
fn auto_catalogue(
    cache: &PdbCache,
    goal: &Goal,
    opts: &ResolveOptions<'_>,
) -> Option<Result<Resolved, ResolveError>> {
    let b = goal.board();
    if (b.rows(), b.cols()) != (5, 5) {
        return None;
    }
    // A limit on table bytes is a GPU's: batched A*'s evaluator reads no maximum, and GPU IDA*,
    // which does, has not been measured with one on a GPU yet; both keep `pdb6666`.
    if opts.max_table_bytes.is_some() {
        return None;
    }
    for name in ["pdbmax24x", "pdbmax24"] {
        let spec = CatalogueSpec::Named(name.into());
        if !is_catalogue_cached(cache, goal, &spec) {
            continue;
        }
        let bytes = catalogue_bytes(&spec, goal).unwrap_or(0);
        if crate::memory::available().is_some_and(|free| bytes > free) {
            (opts.warn)(format!(
                "auto passed over {name}: its tables ({}) are more than the memory available",
                bytesize::ByteSize(bytes).display().iec()
            ));
            continue;
        }
        let note = format!(
            "auto picked the {name} pattern databases (all its tables cached): the largest of \
             several additive partitions"
        );
        match load_max(cache, &spec, goal, opts, Some(note)) {
            Err(ResolveError::Cancelled) => return Some(Err(ResolveError::Cancelled)),
            Err(e) => (opts.warn)(format!("auto passed over {name}: {e}")),
            ok => return Some(ok),
        }
    }
    None
}

fn load_max(
    cache: &PdbCache,
    spec: &CatalogueSpec,
    goal: &Goal,
    opts: &ResolveOptions<'_>,
    note: Option<String>,
) -> Result<Resolved, ResolveError> {
    let (pdb, built) = load_catalogue(cache, goal, spec, opts.max_memory, opts.progress, opts.warn)
        .map_err(|why| match why {
            PdbError::Cancelled => ResolveError::Cancelled,
            PdbError::BadPartition(_) => ResolveError::BadPartition {
                name: spec.name(),
                why,
            },
            why => ResolveError::Unavailable {
                name: spec.name(),
                why,
            },
        })?;
    Ok(Resolved {
        heuristic: HeuristicSpec::PdbMax(pdb),
        note,
        built,
    })
}

/// The cache folder for the tables of `name`.
fn open_cache(name: &str, opts: &ResolveOptions<'_>) -> Result<PdbCache, ResolveError> {
    PdbCache::new(opts.cache_dir.clone()).map_err(|why| ResolveError::Unavailable {
        name: name.to_string(),
        why,
    })
}

/// Linear conflict standing in for the pattern databases `name` of a search that uses no
/// heuristic (BFS), with the note that nothing was built.
fn no_tables(name: &str) -> Resolved {
    Resolved {
        heuristic: HeuristicSpec::Kind(HeuristicKind::LinearConflict),
        note: Some(format!(
            "bfs uses no heuristic; {name} ignored (no tables built)"
        )),
        built: Vec::new(),
    }
}

fn load(
    cache: &PdbCache,
    spec: &PartitionSpec,
    goal: &Goal,
    opts: &ResolveOptions<'_>,
    note: Option<String>,
) -> Result<Resolved, ResolveError> {
    let (pdb, built) = cache
        .load_partition(goal, spec, opts.max_memory, opts.progress, opts.warn)
        .map_err(|why| match why {
            PdbError::Cancelled => ResolveError::Cancelled,
            why => ResolveError::Unavailable {
                name: spec.name(),
                why,
            },
        })?;
    Ok(Resolved {
        heuristic: HeuristicSpec::Pdb(pdb),
        note,
        built,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::GoalSpec;

    #[test]
    fn names_round_trip() {
        for s in [
            "auto",
            "hamming",
            "manhattan",
            "linear-conflict",
            "pdb8",
            "pdb78",
            "pdb:4,4",
            "pdb:1 2 3/4 5 6 7/8",
        ] {
            let c: HeuristicChoice = s.parse().unwrap();
            assert_eq!(c.to_string(), s);
        }
        assert_eq!(
            "LC".parse(),
            Ok(HeuristicChoice::Kind(HeuristicKind::LinearConflict))
        );
        assert!(matches!(
            "euclid".parse::<HeuristicChoice>(),
            Err(HeuristicNameError::Unknown(_))
        ));
        assert!(matches!(
            "pdb99".parse::<HeuristicChoice>(),
            Err(HeuristicNameError::Partition(_))
        ));
    }

    #[test]
    fn table_bytes_count_placements() {
        let g = GoalSpec::BlankFirst.resolve(4, 4).unwrap();
        let b = |n: &str| table_bytes(&PartitionSpec::Named(n.into()), &g).unwrap();
        assert_eq!(b("pdb555"), 3 * 16 * 15 * 14 * 13 * 12);
        assert_eq!(b("pdb78"), 57_657_600 + 518_918_400);
        assert_eq!(table_bytes(&PartitionSpec::Named("pdb8".into()), &g), None);
    }

    #[test]
    fn auto_picks_the_strongest_database_the_evaluator_takes() {
        // With pdb663 cached, `auto` on 4×4 picks it when it fits, and pdb555 when only that
        // fits (as on a GPU whose storage binding cannot hold pdb78 or pdb663); linear
        // conflict when no table fits.
        let dir = tempfile::tempdir().unwrap();
        let g = GoalSpec::BlankFirst.resolve(4, 4).unwrap();
        let pick = |max: Option<u64>| {
            let r = resolve(
                &HeuristicChoice::Auto,
                &g,
                &ResolveOptions {
                    uses_heuristic: true,
                    cache_dir: Some(dir.path().to_path_buf()),
                    max_memory: 1 << 30,
                    max_table_bytes: max,
                    progress: &|_, _, _| true,
                    warn: &|w| panic!("{w}"),
                },
            )
            .unwrap();
            (r.heuristic.name().to_string(), r.note.unwrap_or_default())
        };
        let named = |n: &str| PartitionSpec::Named(n.into());
        let b663 = table_bytes(&named("pdb663"), &g).unwrap();
        let b555 = table_bytes(&named("pdb555"), &g).unwrap();
        assert!(b555 < b663);
        // Nothing cached: pdb555, built now.
        assert_eq!(pick(None).0, "pdb555");
        let r = resolve(
            &HeuristicChoice::Pdb(named("pdb663")),
            &g,
            &ResolveOptions {
                uses_heuristic: true,
                cache_dir: Some(dir.path().to_path_buf()),
                max_memory: 1 << 30,
                max_table_bytes: None,
                progress: &|_, _, _| true,
                warn: &|w| panic!("{w}"),
            },
        )
        .unwrap();
        assert_eq!(r.built.len(), 3);
        assert_eq!(pick(None).0, "pdb663");
        assert_eq!(pick(Some(b663)).0, "pdb663");
        let (name, note) = pick(Some(b663 - 1));
        assert_eq!(name, "pdb555");
        assert!(note.contains("pdb663 takes"), "{note}");
        assert_eq!(pick(Some(b555 - 1)).0, "linear-conflict");
    }
}
