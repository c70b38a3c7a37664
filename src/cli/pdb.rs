//! `npuzzle pdb build|list|verify|clear`: pattern databases on the command line.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::{CliError, flag_goal, parse_size};
use crate::heuristic::pdb::cache::{PdbCache, header_for, verify_file};
use crate::heuristic::pdb::{CatalogueSpec, NAMED, PartitionSpec};
use crate::heuristic::{HeuristicChoice, HeuristicSpec, is_cached, is_catalogue_cached};
use crate::puzzle::{Goal, GoalSpec};
use crate::search::Algorithm;

/// `npuzzle pdb …`
#[derive(Args, Debug)]
pub(super) struct PdbArgs {
    #[command(subcommand)]
    command: PdbCommand,
    /// Cache folder (default: $NPUZZLE_CACHE_DIR, else the user's cache folder).
    #[arg(long, global = true, value_name = "DIR", value_parser = super::parse_cache_dir)]
    pub(super) cache_dir: Option<PathBuf>,
}

#[derive(Subcommand, Debug)]
enum PdbCommand {
    /// Build (or check the cached copy of) a partition's tables.
    Build {
        /// pdb8, pdb555, pdb663, pdb78, pdb6666, pdb:SIZES (pdb:4,4), pdb:TILES (pdb:1 2/3 4 5),
        /// or a catalogue: pdbmax24, pdbmax24x, pdbmax:P1|P2|… (pdbmax:1 2/3 4 5|1 3/2 4 5).
        name: String,
        /// Board size RxC (default: the size the name is for).
        #[arg(long, value_name = "RxC", value_parser = parse_size)]
        size: Option<(usize, usize)>,
        /// Goal: blank-last, blank-first or a goal board file.
        #[arg(long, default_value = "blank-last")]
        goal: String,
        /// Memory cap for the build, e.g. 2GiB (default: half the memory available, at most
        /// 4 GiB).
        #[arg(long, value_name = "SIZE", default_value_t = bytesize::ByteSize(crate::search::default_max_memory()), value_parser = super::parse_memory)]
        max_memory: bytesize::ByteSize,
    },
    /// Explain a partition's pattern databases without building them: what a pattern is, why
    /// the tables add up, the reflection, each table's entries and bytes, why it is built once.
    About {
        /// pdb8, pdb555, pdb663, pdb78, pdb6666, pdb:SIZES (pdb:4,4), pdb:TILES (pdb:1 2/3 4 5),
        /// or a catalogue: pdbmax24, pdbmax24x, pdbmax:P1|P2|… (pdbmax:1 2/3 4 5|1 3/2 4 5).
        name: String,
        /// Board size RxC (default: the size the name is for).
        #[arg(long, value_name = "RxC", value_parser = parse_size)]
        size: Option<(usize, usize)>,
        /// Goal: blank-last, blank-first or a goal board file.
        #[arg(long, default_value = "blank-last")]
        goal: String,
    },
    /// List the cached tables.
    List,
    /// Check every cached table's header and checksum.
    Verify,
    /// Delete every cached table, and IDA*'s move-pruning automata (`*.fsm`) kept beside them.
    Clear,
}

pub(super) fn run(a: &PdbArgs) -> Result<u8, CliError> {
    let cache =
        PdbCache::new(a.cache_dir.clone()).map_err(|e| CliError::from_pdb(&e, e.to_string()))?;
    match &a.command {
        PdbCommand::Build {
            name,
            size,
            goal,
            max_memory,
        } if is_catalogue(name) => {
            build_catalogue(&cache, a.cache_dir.clone(), name, *size, goal, *max_memory)
        }
        PdbCommand::Build {
            name,
            size,
            goal,
            max_memory,
        } => build(&cache, a.cache_dir.clone(), name, *size, goal, *max_memory),
        PdbCommand::About { name, size, goal } if is_catalogue(name) => {
            about_catalogue(name, *size, goal)
        }
        PdbCommand::About { name, size, goal } => about(name, *size, goal),
        PdbCommand::List | PdbCommand::Verify | PdbCommand::Clear
            if cache.dir().exists() && std::fs::read_dir(cache.dir()).is_err() =>
        {
            let why = std::fs::read_dir(cache.dir())
                .err()
                .map_or_else(String::new, |e| e.to_string());
            Err(CliError::Other(format!(
                "cannot read the cache folder {}: {why}",
                cache.dir().display()
            )))
        }
        PdbCommand::List | PdbCommand::Verify => {
            list(&cache, matches!(a.command, PdbCommand::Verify))
        }
        PdbCommand::Clear => clear(&cache),
    }
}

/// `npuzzle pdb build NAME`: the partition's tables for the `size` board (the named one's
/// when not given) and `goal`, built (at most `max_memory`) or found in `cache` (`cache_dir`
/// as given, for where-the-tables-go notes), and IDA*'s
/// pruning automaton with them; a table that could not be saved is a failure.
///
/// # Errors
/// A partition that does not parse or fit ([`CliError::Usage`]), a build that fails, tables
/// not on disk at the end ([`CliError::Other`]).
fn build(
    cache: &PdbCache,
    cache_dir: Option<PathBuf>,
    name: &str,
    size: Option<(usize, usize)>,
    goal: &str,
    max_memory: bytesize::ByteSize,
) -> Result<u8, CliError> {
    let (spec, (r, c)) = spec_and_size(name, size)?;
    let g = flag_goal(goal, r, c)?;
    let t = std::time::Instant::now();
    let resolved = load_for_build(
        HeuristicChoice::Pdb(spec.clone()),
        &g,
        cache_dir,
        max_memory,
    )?;
    let HeuristicSpec::Pdb(pdb) = resolved.heuristic else {
        return Err(CliError::Other(format!(
            "{} gave no pattern database",
            spec.name()
        )));
    };
    let bytes: usize = pdb.tables().iter().map(|t| t.bytes().len()).sum();
    let n = pdb.tables().len();
    let flagged = pdb.tables().iter().filter(|t| t.regions()).count();
    crate::note!(
        "npuzzle: {} for {r}×{c} ({} goal): {n} table{}, {} entries, {:.1} s{}{}",
        spec.name(),
        g.name(),
        if n == 1 { "" } else { "s" },
        bytes,
        t.elapsed().as_secs_f64(),
        match flagged {
            0 => String::new(),
            f if f == n => ", with blank-region flags".to_string(),
            f => format!(", {f} with blank-region flags"),
        },
        if pdb.reflects() {
            ", looked up on the reflection too"
        } else {
            ""
        }
    );
    build_pruning(cache, r, c);
    // Building is for the cache: a table that could not be saved is a failure.
    if !is_cached(cache, &g, &spec) {
        // A file-system failure (the warning above said which), or tables saved and
        // removed since by another command: exit 1, not a limit. Said as it is on disk.
        let missing = missing_tables(cache, &g, &spec);
        let gone = missing
            .iter()
            .filter(|p| resolved.built.contains(p))
            .count();
        let dir = cache.dir().display();
        return Err(CliError::Other(if gone > 0 {
            format!(
                "{gone} of the tables saved are no longer in {dir} (another command, \
                 such as `npuzzle pdb clear`, removed them since): build again"
            )
        } else {
            format!("the tables could not be saved in {dir}")
        }));
    }
    Ok(0)
}

/// IDA*'s pruning automaton for `r × c` boards, built with the tables so that a search after
/// `pdb build` builds nothing (it is small; a failed save is not an error).
fn build_pruning(cache: &PdbCache, r: usize, c: usize) {
    let t = std::time::Instant::now();
    let limits = crate::search::Limits {
        pruning: crate::search::Pruning::Fsm,
        cache_dir: Some(cache.dir().to_path_buf()),
        ..crate::search::Limits::default()
    };
    let terminal = super::terminal::Terminal::quiet();
    crate::plan::load_pruning(Algorithm::IdaStar, r, c, &limits, &terminal);
    let depth = crate::search::Pruning::Fsm.depth(r * c);
    let fsm = crate::search::MoveFsm::shared(r, c, depth, Some(cache.dir()));
    crate::note!(
        "npuzzle: pruning automaton for {r}×{c}: strings of up to {} moves, {} states, {:.1} s",
        fsm.depth(),
        fsm.states(),
        t.elapsed().as_secs_f64()
    );
    crate::note!("npuzzle: cache {}", cache.dir().display());
}

/// Whether `name` names a catalogue (`pdbmax24`, `pdbmax24x`, `pdbmax:…`) rather than a
/// partition.
fn is_catalogue(name: &str) -> bool {
    name.trim().to_ascii_lowercase().starts_with("pdbmax")
}

/// The catalogue `name` names and its board size: `size`, else the named one's.
///
/// # Errors
/// A name that does not parse, or a custom catalogue without a size ([`CliError::Usage`]).
fn catalogue_and_size(
    name: &str,
    size: Option<(usize, usize)>,
) -> Result<(CatalogueSpec, (usize, usize)), CliError> {
    let spec = CatalogueSpec::parse(name).map_err(|e| CliError::from_pdb(&e, e.to_string()))?;
    match size.or(spec.named_size()) {
        Some(s) => Ok((spec, s)),
        None => Err(CliError::Usage(
            "give the board size (--size RxC) for a custom catalogue".into(),
        )),
    }
}

/// The tables of `choice` for `goal`, loaded from the cache or built (at most `max_memory`) as
/// an IDA* search would have them, with the build's progress on stderr.
///
/// # Errors
/// As [`super::terminal::load_heuristic`].
fn load_for_build(
    choice: HeuristicChoice,
    goal: &Goal,
    cache_dir: Option<PathBuf>,
    max_memory: bytesize::ByteSize,
) -> Result<crate::heuristic::Resolved, CliError> {
    super::terminal::load_heuristic(
        choice,
        Algorithm::IdaStar,
        goal,
        cache_dir,
        max_memory.as_u64(),
        Default::default(),
        "",
    )
}

/// `npuzzle pdb build pdbmax…`: the catalogue's distinct tables built (at most `max_memory`
/// each) or found in `cache`, and IDA*'s pruning automaton; a table that could not be saved
/// is a failure.
///
/// # Errors
/// A catalogue that does not parse or fit ([`CliError::Usage`]), a build that fails, tables
/// not on disk at the end ([`CliError::Other`]).
fn build_catalogue(
    cache: &PdbCache,
    cache_dir: Option<PathBuf>,
    name: &str,
    size: Option<(usize, usize)>,
    goal: &str,
    max_memory: bytesize::ByteSize,
) -> Result<u8, CliError> {
    let (spec, (r, c)) = catalogue_and_size(name, size)?;
    let g = flag_goal(goal, r, c)?;
    let t = std::time::Instant::now();
    let resolved = load_for_build(
        HeuristicChoice::PdbMax(spec.clone()),
        &g,
        cache_dir,
        max_memory,
    )?;
    let HeuristicSpec::PdbMax(pdb) = resolved.heuristic else {
        return Err(CliError::Other(format!(
            "{} gave no catalogue",
            spec.name()
        )));
    };
    let bytes: usize = pdb.tables().iter().map(|t| t.bytes().len()).sum();
    crate::note!(
        "npuzzle: {} for {r}×{c} ({} goal): {} partitions over {} tables ({} built now), {} entries, {:.1} s{}",
        spec.name(),
        g.name(),
        pdb.partitions().len(),
        pdb.tables().len(),
        resolved.built.len(),
        bytes,
        t.elapsed().as_secs_f64(),
        if pdb.reflects() {
            ", looked up on the reflection too"
        } else {
            ""
        }
    );
    build_pruning(cache, r, c);
    if !is_catalogue_cached(cache, &g, &spec) {
        return Err(CliError::Other(format!(
            "the tables could not all be saved in {} (or another command removed them since)",
            cache.dir().display()
        )));
    }
    Ok(0)
}

/// `npuzzle pdb about pdbmax…`: the catalogue in words on stdout (nothing is built).
///
/// # Errors
/// As [`catalogue_and_size`]; a catalogue that does not fit the board ([`CliError::Usage`]).
fn about_catalogue(name: &str, size: Option<(usize, usize)>, goal: &str) -> Result<u8, CliError> {
    let (spec, (r, c)) = catalogue_and_size(name, size)?;
    let g = flag_goal(goal, r, c)?;
    let words = spec
        .about(&g)
        .map_err(|e| CliError::from_pdb(&e, e.to_string()))?;
    super::emit(&crate::text::wrap(&words.join("\n\n"), 96))?;
    Ok(0)
}

/// The partition `name` names and its board size: `size`, else the one a named partition is
/// for.
///
/// # Errors
/// A name that does not parse, or a custom partition without a size ([`CliError::Usage`]).
fn spec_and_size(
    name: &str,
    size: Option<(usize, usize)>,
) -> Result<(PartitionSpec, (usize, usize)), CliError> {
    let spec = PartitionSpec::parse(name).map_err(|e| CliError::from_pdb(&e, e.to_string()))?;
    let size = match (size, &spec) {
        (Some(s), _) => s,
        (None, PartitionSpec::Named(n)) => NAMED
            .iter()
            .find(|x| x.0 == n)
            .map(|x| (x.1, x.2))
            .unwrap_or((4, 4)),
        (None, _) => {
            return Err(CliError::Usage(
                "give the board size (--size RxC) for a custom partition".into(),
            ));
        }
    };
    Ok((spec, size))
}

/// `npuzzle pdb about NAME`: the partition in words, paragraphs apart, on stdout (nothing is
/// built).
///
/// # Errors
/// As [`spec_and_size`]; a partition that does not fit the board ([`CliError::Usage`]).
fn about(name: &str, size: Option<(usize, usize)>, goal: &str) -> Result<u8, CliError> {
    let (spec, (r, c)) = spec_and_size(name, size)?;
    let g = flag_goal(goal, r, c)?;
    let words = spec
        .about(&g, Default::default())
        .map_err(|e| CliError::from_pdb(&e, e.to_string()))?;
    super::emit(&crate::text::wrap(&words.join("\n\n"), 96))?;
    Ok(0)
}

/// `npuzzle pdb list` (and `verify`, which reads every table whole): the tables in `cache`
/// with what they are for, and the temporary files of saves. Exit 1 when `verify` found a
/// bad table.
///
/// # Errors
/// Writing the output.
fn list(cache: &PdbCache, verify: bool) -> Result<u8, CliError> {
    let mut bad = 0;
    let list = cache.list();
    if list.is_empty() {
        let missing = if cache.dir().exists() {
            ""
        } else {
            " (the folder does not exist yet: tables are saved there when built)"
        };
        super::emit(&format!("no tables in {}{missing}", cache.dir().display()))?;
    }
    for (path, header, size) in list {
        let name = path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let h = if verify {
            verify_file(&path).and_then(|h| cache.check_name(&path, &h).map(|()| h))
        } else {
            header
        };
        match h {
            Ok(h) => super::emit(&format!(
                "{name}  {}×{}  {}  tiles {:?}  {} entries  {} bytes{}{}",
                h.rows,
                h.cols,
                belongs_to(&h),
                h.tiles,
                h.entries,
                size,
                if h.regions { "  region flags" } else { "" },
                if verify { "  ok" } else { "" }
            ))?,
            Err(why) => {
                bad += 1;
                super::emit(&format!("{name}  BAD: {why}"))?;
            }
        }
    }
    // Saves in progress, and what killed ones left (not tables: verify still passes).
    for t in cache.temporaries().unwrap_or_default() {
        let name = t
            .path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        super::emit(&format!(
            "{name}  unfinished temporary file, {} bytes: {}",
            t.bytes,
            if t.live {
                "a save in progress"
            } else {
                "left by an interrupted save (the next build or `npuzzle pdb clear` removes it)"
            }
        ))?;
    }
    Ok(if verify && bad > 0 { 1 } else { 0 })
}

/// `npuzzle pdb clear`: the tables, pruning automata and leftover temporary files in `cache`
/// removed, and said.
///
/// # Errors
/// A file that cannot be removed; writing the output.
fn clear(cache: &PdbCache) -> Result<u8, CliError> {
    let (n, automata, leftovers) = cache
        .clear()
        .map_err(|e| CliError::Other(format!("{}: {e}", cache.dir().display())))?;
    let count =
        |k: usize, one: &str, many: &str| format!("{k} {}", if k == 1 { one } else { many });
    let mut parts = vec![count(n, "table", "tables")];
    if automata > 0 {
        parts.push(count(automata, "pruning automaton", "pruning automata"));
    }
    if leftovers > 0 {
        parts.push(count(
            leftovers,
            "unfinished temporary file",
            "unfinished temporary files",
        ));
    }
    let last = parts.pop().unwrap_or_default();
    let list = if parts.is_empty() {
        last
    } else {
        format!("{} and {last}", parts.join(", "))
    };
    super::emit(&format!("removed {list} from {}", cache.dir().display()))?;
    Ok(0)
}

/// The patterns of `spec` for `goal` whose tables are not in `cache` (missing, or another
/// table under their name).
fn missing_tables(cache: &PdbCache, goal: &Goal, spec: &PartitionSpec) -> Vec<Vec<u8>> {
    let patterns = spec.patterns(goal).unwrap_or_default();
    patterns
        .into_iter()
        .filter(|p| {
            !crate::heuristic::pdb::cache::read_header(&cache.path_for(goal, p))
                .is_ok_and(|h| h.same_table(&header_for(goal, p)))
        })
        .collect()
}

/// What a cached table is for, in the words `--goal` and `--heuristic` use: its goal
/// (`blank-last`, `blank-first`, or the goal board) and the named partitions that have its
/// pattern for that goal, e.g. `goal blank-last, pdb78`.
fn belongs_to(h: &crate::heuristic::pdb::cache::Header) -> String {
    let Ok(board) = h.goal.parse::<crate::puzzle::Board>() else {
        return format!("goal {}", h.goal);
    };
    let spec = GoalSpec::of_board(&board);
    let goal = Goal::new(board, spec.name());
    let mut out = match &spec {
        GoalSpec::Board(b) => format!("goal {b}"),
        s => format!("goal {}", s.name()),
    };
    for (named, rows, cols, _) in NAMED {
        let has = (rows, cols) == (h.rows, h.cols)
            && PartitionSpec::Named(named.to_string())
                .patterns(&goal)
                .is_ok_and(|ps| ps.contains(&h.tiles));
        if has {
            out.push_str(", ");
            out.push_str(named);
        }
    }
    out
}
