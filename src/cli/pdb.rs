//! Pattern databases on the command line: `--heuristic pdb…` (loaded from the cache or built),
//! `auto`'s choice, and `npuzzle pdb build|list|verify|clear`.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use clap::{Args, Subcommand};

use super::{CliError, HeuristicArg, goal_spec, parse_size};
use crate::heuristic::pdb::cache::{PdbCache, header_for, read_header, verify_file};
use crate::heuristic::pdb::{AdditivePdb, NAMED, PartitionSpec};
use crate::heuristic::{HeuristicKind, HeuristicSpec};
use crate::puzzle::Goal;
use crate::search::Algorithm;

/// `npuzzle pdb …`
#[derive(Args, Debug)]
pub(super) struct PdbArgs {
    #[command(subcommand)]
    command: PdbCommand,
    /// Cache folder (default: $NPUZZLE_CACHE_DIR, else the user's cache folder).
    #[arg(long, global = true, value_name = "DIR")]
    cache_dir: Option<PathBuf>,
}

#[derive(Subcommand, Debug)]
enum PdbCommand {
    /// Build (or check the cached copy of) a partition's tables.
    Build {
        /// pdb8, pdb555, pdb663, pdb78, pdb6666, pdb:SIZES (pdb:4,4) or pdb:TILES (pdb:1 2/3 4 5).
        name: String,
        /// Board size RxC (default: the size the name is for).
        #[arg(long, value_name = "RxC", value_parser = parse_size)]
        size: Option<(usize, usize)>,
        /// Goal: blank-last, blank-first or a goal board file.
        #[arg(long, default_value = "blank-last")]
        goal: String,
        /// Memory cap for the build, e.g. 2GiB.
        #[arg(long, value_name = "SIZE", default_value_t = bytesize::ByteSize(crate::search::DEFAULT_MAX_MEMORY))]
        max_memory: bytesize::ByteSize,
    },
    /// List the cached tables.
    List,
    /// Check every cached table's header and checksum.
    Verify,
    /// Delete every cached table.
    Clear,
}

pub(super) fn run(a: &PdbArgs) -> Result<u8, CliError> {
    let cache = PdbCache::new(a.cache_dir.clone()).map_err(|e| CliError::Other(e.to_string()))?;
    match &a.command {
        PdbCommand::Build {
            name,
            size,
            goal,
            max_memory,
        } => {
            let spec = PartitionSpec::parse(name).map_err(|e| CliError::Usage(e.to_string()))?;
            let (r, c) = match (size, &spec) {
                (Some(s), _) => *s,
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
            let g = goal_spec(goal)?
                .resolve(r, c)
                .map_err(|e| CliError::Usage(format!("--goal {goal}: {e}")))?;
            let t = std::time::Instant::now();
            let pdb = load(&cache, &g, &spec, max_memory.as_u64(), None)?;
            let bytes: usize = pdb.tables().iter().map(|t| t.bytes().len()).sum();
            let n = pdb.tables().len();
            crate::note!(
                "npuzzle: {} for {r}×{c} ({} goal): {n} table{}, {} entries, {:.1} s{}",
                spec.name(),
                g.name(),
                if n == 1 { "" } else { "s" },
                bytes,
                t.elapsed().as_secs_f64(),
                if pdb.reflects() {
                    ", looked up on the reflection too"
                } else {
                    ""
                }
            );
            crate::note!("npuzzle: cache {}", cache.dir().display());
            // Building is for the cache: a table that could not be saved is a failure.
            if !cached(&cache, &g, &spec) {
                return Err(CliError::Unavailable(format!(
                    "the tables could not be saved in {}",
                    cache.dir().display()
                )));
            }
            Ok(0)
        }
        PdbCommand::List | PdbCommand::Verify | PdbCommand::Clear
            if cache.dir().exists() && std::fs::read_dir(cache.dir()).is_err() =>
        {
            Err(CliError::Unavailable(format!(
                "cannot read the cache folder {}",
                cache.dir().display()
            )))
        }
        PdbCommand::List | PdbCommand::Verify => {
            let verify = matches!(a.command, PdbCommand::Verify);
            let mut bad = 0;
            let list = cache.list();
            if list.is_empty() {
                super::emit(&format!("no tables in {}", cache.dir().display()))?;
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
                        "{name}  {}×{}  tiles {:?}  {} entries  {} bytes{}",
                        h.rows,
                        h.cols,
                        h.tiles,
                        h.entries,
                        size,
                        if verify { "  ok" } else { "" }
                    ))?,
                    Err(why) => {
                        bad += 1;
                        super::emit(&format!("{name}  BAD: {why}"))?;
                    }
                }
            }
            Ok(if verify && bad > 0 { 1 } else { 0 })
        }
        PdbCommand::Clear => {
            let (n, leftovers) = cache
                .clear()
                .map_err(|e| CliError::Other(format!("{}: {e}", cache.dir().display())))?;
            let tables = if n == 1 { "table" } else { "tables" };
            let extra = match leftovers {
                0 => String::new(),
                1 => " and 1 unfinished temporary file".to_string(),
                k => format!(" and {k} unfinished temporary files"),
            };
            super::emit(&format!(
                "removed {n} {tables}{extra} from {}",
                cache.dir().display()
            ))?;
            Ok(0)
        }
    }
}

/// Loads (or builds and caches) a partition for `goal`, with a progress bar on stderr.
///
/// # Errors
/// [`CliError::Usage`] for a partition that does not fit the board, [`CliError::Limit`] when a
/// build runs past `deadline` (an instant, and the limit in seconds it stands for),
/// [`CliError::Unavailable`] when a table cannot be built.
pub(super) fn load(
    cache: &PdbCache,
    goal: &Goal,
    spec: &PartitionSpec,
    max_memory: u64,
    deadline: Option<(Instant, f64)>,
) -> Result<Arc<AdditivePdb>, CliError> {
    spec.patterns(goal)
        .map_err(|e| CliError::Usage(e.to_string()))?;
    let bar = indicatif::ProgressBar::new(0);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "building {msg} {bar:30} {pos}/{len} entries {elapsed_precise}",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let (pdb, built) = cache
        .load_partition(
            goal,
            spec,
            max_memory,
            &|i, n, step| {
                bar.set_message(format!("{} pattern {}/{n}", spec.name(), i + 1));
                bar.set_length(step.total);
                bar.set_position(step.filled);
                deadline.is_none_or(|(d, _)| Instant::now() < d)
            },
            &|w| bar.suspend(|| crate::note!("npuzzle: warning: {w}")),
        )
        .map_err(|e| match deadline {
            Some((d, secs)) if Instant::now() >= d => {
                bar.finish_and_clear();
                CliError::Limit(crate::search::SearchError::TimeLimit(secs))
            }
            _ => CliError::Unavailable(e.to_string()),
        })?;
    bar.finish_and_clear();
    for p in &built {
        crate::note!(
            "npuzzle: built pattern {:?} ({} entries), saved in {}",
            p,
            header_for(goal, p).entries,
            cache.dir().display()
        );
    }
    Ok(pdb)
}

/// Whether every table of `spec` for `goal` is in the cache with the right header (the
/// checksum is checked when it is loaded; a bad one is then rebuilt).
fn cached(cache: &PdbCache, goal: &Goal, spec: &PartitionSpec) -> bool {
    spec.patterns(goal).is_ok_and(|ps| {
        ps.iter()
            .all(|p| read_header(&cache.path_for(goal, p)).is_ok_and(|h| h == header_for(goal, p)))
    })
}

/// The heuristic to search with, and a note when `auto` chose it.
///
/// `auto`: the exact table (`pdb8`) for 3×3; for 4×4 `pdb78` or `pdb663` when cached, else
/// `pdb555` (built in about half a second); for 5×5 `pdb6666` when cached; linear conflict otherwise.
/// The GPU evaluator takes pattern databases too (tables in a storage buffer).
pub(super) fn resolve(
    arg: &HeuristicArg,
    goal: &Goal,
    algorithm: Algorithm,
    cache_dir: Option<PathBuf>,
    max_memory: u64,
    deadline: Option<(Instant, f64)>,
) -> Result<(HeuristicSpec, Option<String>), CliError> {
    match arg {
        HeuristicArg::Kind(k) => Ok((HeuristicSpec::Kind(*k), None)),
        // Breadth-first search ignores h: no tables are built for it.
        HeuristicArg::Pdb(spec) if algorithm == Algorithm::Bfs => Ok((
            HeuristicSpec::Kind(HeuristicKind::LinearConflict),
            Some(format!(
                "bfs uses no heuristic; --heuristic {} ignored (no tables built)",
                spec.name()
            )),
        )),
        HeuristicArg::Pdb(spec) => {
            let cache = PdbCache::new(cache_dir).map_err(|e| CliError::Other(e.to_string()))?;
            Ok((
                HeuristicSpec::Pdb(load(&cache, goal, spec, max_memory, deadline)?),
                None,
            ))
        }
        HeuristicArg::Auto => {
            let lc = HeuristicSpec::Kind(HeuristicKind::LinearConflict);
            if algorithm == Algorithm::Bfs {
                return Ok((lc, None));
            }
            let Ok(cache) = PdbCache::new(cache_dir) else {
                return Ok((
                    lc,
                    Some("auto picked linear-conflict (no cache folder)".into()),
                ));
            };
            let b = goal.board();
            let pick = |name: &str| PartitionSpec::Named(name.to_string());
            let choice = match (b.rows(), b.cols()) {
                (3, 3) => Some(pick("pdb8")),
                (4, 4) if cached(&cache, goal, &pick("pdb78")) => Some(pick("pdb78")),
                (4, 4) if cached(&cache, goal, &pick("pdb663")) => Some(pick("pdb663")),
                (4, 4) => Some(pick("pdb555")),
                (5, 5) if cached(&cache, goal, &pick("pdb6666")) => Some(pick("pdb6666")),
                _ => None,
            };
            match choice {
                Some(spec) => {
                    let was_cached = cached(&cache, goal, &spec);
                    let pdb = load(&cache, goal, &spec, max_memory, deadline)?;
                    Ok((
                        HeuristicSpec::Pdb(pdb),
                        Some(format!(
                            "auto picked the {} pattern database ({})",
                            spec.name(),
                            if was_cached {
                                "cached"
                            } else {
                                "built now, cached for next time"
                            }
                        )),
                    ))
                }
                None => Ok((lc, Some("auto picked linear-conflict".into()))),
            }
        }
    }
}
