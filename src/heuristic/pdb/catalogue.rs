//! Catalogues of partitions for [`PdbMax`]: the named one (`pdbmax24`), custom ones
//! (`pdbmax:…`), their layout (the distinct tables and which partition reads which, directly or
//! through the reflection) and their loading from the cache.

use std::sync::Arc;

use super::builder::BuildProgress;
use super::cache::{PdbCache, Source};
use super::error::bad_partition;
use super::lookup::reflection;
use super::partition::KORF_FELNER_24;
use super::pdbmax::{MAX_PARTITIONS, Part, PdbMax};
use super::{PartitionSpec, PdbError};
use crate::puzzle::Goal;

/// A named catalogue: its name, the board it is for, and its partitions as goal cells with the
/// blank's goal at the top left (cell 0; turned by 180° for the blank's goal at the bottom
/// right, as `pdb6666`).
#[derive(Clone, Copy, Debug)]
pub struct NamedCatalogue {
    /// The name (`pdbmax24`).
    pub name: &'static str,
    /// Rows and columns of the board it is for.
    pub shape: (usize, usize),
    /// The partitions, each a list of patterns, each a list of goal cells.
    pub partitions: &'static [&'static [&'static [u8]]],
}

/// Korf & Felner's partition ([`KORF_FELNER_24`]) as a partition of [`NamedCatalogue`].
const KF: &[&[u8]] = &[
    &KORF_FELNER_24[0],
    &KORF_FELNER_24[1],
    &KORF_FELNER_24[2],
    &KORF_FELNER_24[3],
];
/// Two compact 6-6-6-6 partitions of R. Clausecker's catalogue `small-t.cat`
/// (github.com/clausecker/24puzzle), C4 and C1 in `docs/benchmarks.md`.
const C4: &[&[u8]] = &[
    &[1, 5, 6, 10, 15, 20],
    &[2, 3, 4, 7, 8, 9],
    &[11, 12, 16, 17, 21, 22],
    &[13, 14, 18, 19, 23, 24],
];
const C1: &[&[u8]] = &[
    &[1, 2, 5, 6, 10, 11],
    &[3, 4, 7, 8, 9, 12],
    &[13, 14, 18, 19, 23, 24],
    &[15, 16, 17, 20, 21, 22],
];
/// A 7-7-5-5 partition: the top-left block of seven (its own mirror image), seven along the top
/// right, and two fives at the bottom.
const P7755: &[&[u8]] = &[
    &[1, 2, 5, 6, 7, 10, 11],
    &[3, 4, 8, 9, 13, 14, 19],
    &[15, 16, 20, 21, 22],
    &[12, 17, 18, 23, 24],
];

/// `pdbmax24`'s partitions of the 24-puzzle: Korf & Felner's first, then the two that a greedy
/// selection by IDA*'s nodes added (see `docs/benchmarks.md`) from the compact 6-6-6-6
/// partitions of R. Clausecker's catalogue. Each is also read on the reflection, so a partition
/// and its mirror image are one; a pattern whose mirror image is another partition's shares
/// that table: 8 distinct 6-tile tables, 1,020,096,000 bytes.
pub const PDBMAX24: &[&[&[u8]]] = &[KF, C4, C1];

/// `pdbmax24x`'s partitions: a 7-7-5-5 one, then `pdbmax24`'s (the order changes no count, and
/// on Korf & Felner's #38 and #40 not the time: 11.76 s against 11.77 s last). 12 distinct tables:
/// two of 7 tiles (2,422,728,000 bytes each), two of 5 and `pdbmax24`'s eight, 5,878,303,200
/// bytes; see `docs/benchmarks.md` for how it compares.
pub const PDBMAX24X: &[&[&[u8]]] = &[P7755, KF, C4, C1];

/// The named catalogues.
pub const NAMED_CATALOGUES: [NamedCatalogue; 2] = [
    NamedCatalogue {
        name: "pdbmax24",
        shape: (5, 5),
        partitions: PDBMAX24,
    },
    NamedCatalogue {
        name: "pdbmax24x",
        shape: (5, 5),
        partitions: PDBMAX24X,
    },
];

impl NamedCatalogue {
    /// The named catalogue called `name`, if any.
    pub fn find(name: &str) -> Option<&'static NamedCatalogue> {
        NAMED_CATALOGUES.iter().find(|c| c.name == name)
    }
}

/// A catalogue to search with: a named one or a list of partitions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CatalogueSpec {
    /// One of [`NAMED_CATALOGUES`].
    Named(String),
    /// Partitions given one by one (`pdbmax:1 2 3/4 5 6|1 2 4/3 5 6`).
    Custom(Vec<PartitionSpec>),
}

/// Which tables a catalogue needs and how each partition reads them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The distinct tables' tiles (each pattern once, up to its mirror image).
    pub tables: Vec<Vec<u8>>,
    /// Each partition's parts.
    pub partitions: Vec<Vec<Part>>,
}

impl CatalogueSpec {
    /// Parses a named catalogue (`pdbmax24`, `pdbmax24x`) or `pdbmax:P1|P2|…`, each `P` a
    /// partition as after `pdb:` (tiles `1 2 3/4 5 6` or sizes `4,4`) or a named one
    /// (`pdb6666`).
    ///
    /// # Errors
    /// [`PdbError::BadPartition`] naming the partition and what is wrong.
    pub fn parse(s: &str) -> Result<CatalogueSpec, PdbError> {
        let s = s.trim().to_ascii_lowercase();
        if NamedCatalogue::find(&s).is_some() {
            return Ok(CatalogueSpec::Named(s));
        }
        let Some(rest) = s.strip_prefix("pdbmax:") else {
            return Err(bad_partition!(
                "unknown catalogue {s:?} (pdbmax24, pdbmax24x, or pdbmax:P1|P2|… with each P a partition like 1 2 3/4 5 6)"
            ));
        };
        let parts = rest
            .split('|')
            .enumerate()
            .map(|(i, p)| {
                let p = p.trim();
                if p.is_empty() {
                    return Err(bad_partition!("partition {} of {s:?} is empty", i + 1));
                }
                let text = if p.starts_with("pdb") {
                    p.to_string()
                } else {
                    format!("pdb:{p}")
                };
                PartitionSpec::parse(&text)
                    .map_err(|e| bad_partition!("partition {} ({p:?}): {}", i + 1, reason(&e)))
            })
            .collect::<Result<Vec<_>, _>>()?;
        if parts.len() > MAX_PARTITIONS {
            return Err(bad_partition!(
                "{} partitions; a catalogue takes at most {MAX_PARTITIONS}",
                parts.len()
            ));
        }
        Ok(CatalogueSpec::Custom(parts))
    }

    /// The name as parsed back: `pdbmax24`, `pdbmax:1 2 3/4 5 6|…`.
    pub fn name(&self) -> String {
        match self {
            CatalogueSpec::Named(n) => n.clone(),
            CatalogueSpec::Custom(parts) => format!(
                "pdbmax:{}",
                parts
                    .iter()
                    .map(|p| match p {
                        PartitionSpec::Named(n) => n.clone(),
                        p => p.name().trim_start_matches("pdb:").to_string(),
                    })
                    .collect::<Vec<_>>()
                    .join("|")
            ),
        }
    }

    /// The board size a named catalogue is for.
    pub fn named_size(&self) -> Option<(usize, usize)> {
        match self {
            CatalogueSpec::Named(n) => NamedCatalogue::find(n).map(|c| c.shape),
            CatalogueSpec::Custom(_) => None,
        }
    }

    /// Each partition's patterns (tiles) for `goal`.
    ///
    /// # Errors
    /// [`PdbError::BadPartition`] when a partition does not fit the board (a named catalogue
    /// on another shape or goal, overlapping, missing or unknown tiles), naming which.
    pub fn partitions(&self, goal: &Goal) -> Result<Vec<Vec<Vec<u8>>>, PdbError> {
        let b = goal.board();
        match self {
            CatalogueSpec::Named(n) => {
                let named = NamedCatalogue::find(n)
                    .ok_or_else(|| bad_partition!("unknown catalogue {n:?}"))?;
                let (r, c) = named.shape;
                if (b.rows(), b.cols()) != (r, c) {
                    return Err(bad_partition!(
                        "{n} is for {r}×{c} boards; this one is {}×{}",
                        b.rows(),
                        b.cols()
                    ));
                }
                let last = b.len() - 1;
                if b.blank() != 0 && b.blank() != last {
                    return Err(bad_partition!(
                        "{n} is for the goals with the blank first or last (blank-first, blank-last)"
                    ));
                }
                let turn = |c: u8| if b.blank() == 0 { c } else { last as u8 - c };
                Ok(named
                    .partitions
                    .iter()
                    .map(|p| {
                        p.iter()
                            .map(|cells| {
                                cells.iter().map(|&c| b.tiles()[turn(c) as usize]).collect()
                            })
                            .collect()
                    })
                    .collect())
            }
            CatalogueSpec::Custom(parts) => parts
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    p.patterns(goal).map_err(|e| {
                        bad_partition!("partition {} ({}): {}", i + 1, p.name(), reason(&e))
                    })
                })
                .collect(),
        }
    }

    /// The distinct tables and the partitions' parts for `goal`: a pattern with the tiles of a
    /// table already listed reads it; one whose mirror image `φ(tiles)` is listed reads that
    /// table through the reflection (when the goal has it); any other adds its table.
    ///
    /// # Errors
    /// As [`CatalogueSpec::partitions`].
    pub fn layout(&self, goal: &Goal) -> Result<Layout, PdbError> {
        let partitions = self.partitions(goal)?;
        let phi = reflection(goal).map(|r| r.0);
        let sorted = |p: &[u8]| {
            let mut v = p.to_vec();
            v.sort_unstable();
            v
        };
        let mut tables: Vec<Vec<u8>> = Vec::new();
        let mut keys: Vec<Vec<u8>> = Vec::new();
        let mut out = Vec::new();
        for patterns in &partitions {
            let mut parts = Vec::new();
            for p in patterns {
                let key = sorted(p);
                let mirror = phi.as_ref().map(|phi| {
                    let m: Vec<u8> = p.iter().map(|&t| phi[t as usize]).collect();
                    sorted(&m)
                });
                if let Some(k) = keys.iter().position(|x| *x == key) {
                    parts.push(Part {
                        table: k,
                        flipped: false,
                    });
                } else if let Some(k) = mirror.and_then(|m| keys.iter().position(|x| *x == m)) {
                    parts.push(Part {
                        table: k,
                        flipped: true,
                    });
                } else {
                    parts.push(Part {
                        table: tables.len(),
                        flipped: false,
                    });
                    tables.push(p.clone());
                    keys.push(key);
                }
            }
            out.push(parts);
        }
        Ok(Layout {
            tables,
            partitions: out,
        })
    }
}

/// A [`PdbError::BadPartition`]'s reason without its "bad partition" prefix.
fn reason(e: &PdbError) -> String {
    match e {
        PdbError::BadPartition(why) => why.clone(),
        e => e.to_string(),
    }
}

/// Every table of `spec` for `goal`, from the cache or built (and saved), each once, as one
/// [`PdbMax`]. `progress(table, tables, step)` follows the builds (`false` stops them); `warn`
/// receives a line for every file found invalid or not saved. Also returns the tables built.
///
/// # Errors
/// [`PdbError::BadPartition`] when the catalogue does not fit the board, or as a table's build.
pub fn load_catalogue(
    cache: &PdbCache,
    goal: &Goal,
    spec: &CatalogueSpec,
    max_memory: u64,
    progress: &(dyn Fn(usize, usize, &BuildProgress) -> bool + Sync),
    warn: &(dyn Fn(String) + Sync),
) -> Result<(Arc<PdbMax>, Vec<Vec<u8>>), PdbError> {
    let layout = spec.layout(goal)?;
    let n = layout.tables.len();
    let mut tables = Vec::new();
    let mut built = Vec::new();
    for (i, p) in layout.tables.iter().enumerate() {
        let (t, source) =
            cache.load_or_build(goal, p, i, max_memory, &|step| progress(i, n, step), warn)?;
        if source == Source::Built {
            built.push(p.clone());
        }
        tables.push(t);
    }
    let pdb = PdbMax::new(&spec.name(), goal, tables, layout.partitions)?;
    Ok((Arc::new(pdb), built))
}
