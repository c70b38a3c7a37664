//! What a board's shape, the heuristic and the adapter fix for GPU IDA* ([`Shape`]): the
//! shader's constants, the sizes of a board, a work item and an invocation's stack, and the
//! words the shader reads once a dispatch (`consts`).

use super::{PATH_WORDS, SHARE_MAX, WORKGROUP, origin_word};
use crate::eval::gpu::GpuError;
use crate::eval::gpu_context::{PdbLayout, pdb_layout, pdbmax_layout};
use crate::eval::gpu_layout::{
    IDA_META_MAX_PATTERNS, KIND_LINEAR_CONFLICT, KIND_MANHATTAN, KIND_PDB, KIND_PDBMAX,
    ida_max_meta_words, ida_meta_words, ida_weights_fit,
};
use crate::heuristic::pdb::PdbMax;
use crate::heuristic::{HeuristicKind, HeuristicSpec};
use crate::puzzle::Goal;

/// What the board's shape, the heuristic and the adapter fix once [`GpuIda`](super::GpuIda)
/// is made: the shader's pipeline constants (see [`Shape::constants`]) and the words of the
/// `consts` buffer before the pruning automaton.
pub(super) struct Shape {
    /// Cells of a board, and its rows and columns.
    pub(super) cells: usize,
    pub(super) rows: usize,
    pub(super) cols: usize,
    /// u32 words of a board (a byte a tile) and of a work item (board, info, root, automaton
    /// state, path).
    pub(super) board_words: usize,
    pub(super) item_words: usize,
    /// Invocations in a dispatch, and per workgroup.
    pub(super) invocations: u32,
    pub(super) workgroup: u32,
    /// The shader's `KIND` (`KIND_MANHATTAN`, `KIND_LINEAR_CONFLICT`, `KIND_PDB` or
    /// `KIND_PDBMAX`).
    pub(super) kind: u32,
    /// log₂ of the bytes of a table storage binding (`GpuContext::table_shift`).
    pub(super) chunk_shift: u32,
    /// Table storage bindings that hold bytes (1 when the tables are in the texture).
    pub(super) table_count: u32,
    /// Width of the tables' texture in texels; 0 when the tables are in storage bindings.
    pub(super) texture_width: u32,
    /// Tiles of the largest pattern (the shader's index loop runs that many times; 1 without
    /// pattern databases).
    pub(super) pattern_k: u32,
    /// Whether the shader updates the pattern indexes move by move ([`ida_weights_fit`], and
    /// the reflection, if any, is the transpose).
    pub(super) incremental: bool,
    /// Times an invocation without work looks for an item handed out within the round
    /// before it stops for the round ([`idle_tries`]).
    pub(super) idle_tries: u32,
    /// The words of `consts` before the pruning automaton ([`consts`];
    /// [`IdaDevice::set_pruning`](crate::eval::ida::IdaDevice::set_pruning) appends it).
    pub(super) consts: Vec<u32>,
}

impl Shape {
    /// Words of an invocation's state: running, item, blank, the board, the frames, then the
    /// item's origin (path length, root, path).
    pub(super) fn state_words(&self) -> usize {
        origin_word(self.board_words, 2 + PATH_WORDS)
    }

    /// Word `w` of invocation `i`'s state (interleaved: see `st` in the shader).
    pub(super) fn state_index(&self, w: usize, i: usize) -> u64 {
        (w * self.invocations as usize + i) as u64
    }

    /// The pipeline constants of `IDASTAR_WGSL`, with or without the `histogram`, handing
    /// work on within a round or not (`live`).
    pub(super) fn constants(&self, histogram: bool, live: bool) -> [(&'static str, f64); 18] {
        [
            ("CELLS", self.cells as f64),
            ("ROWS", self.rows as f64),
            ("COLS", self.cols as f64),
            ("KIND", f64::from(self.kind)),
            ("INV", f64::from(self.invocations)),
            ("BOARD_WORDS", self.board_words as f64),
            ("ITEM_WORDS", self.item_words as f64),
            ("CHUNK_SHIFT", f64::from(self.chunk_shift)),
            ("TABLE_COUNT", f64::from(self.table_count)),
            ("PATTERN_K", f64::from(self.pattern_k)),
            ("INCR", f64::from(u8::from(self.incremental))),
            ("TEXTURE_WIDTH", f64::from(self.texture_width)),
            ("HIST", f64::from(u8::from(histogram))),
            ("WG_BINS", if histogram { 4096.0 } else { 1.0 }),
            ("WORKGROUP", f64::from(self.workgroup)),
            ("FSM_BASE", self.consts.len() as f64),
            ("SHARE_MAX", f64::from(SHARE_MAX)),
            ("LIVE", f64::from(u8::from(live))),
        ]
    }
}

/// Times an invocation without work looks for an item handed out within the round (0: work
/// is handed on only between rounds): `NPUZZLE_GPU_IDLE_TRIES` when set, else 64 on a GPU, so
/// that a warp waits while another hands out, and 0 on a software adapter. lavapipe runs the
/// code of a branch that no lane takes all the same, masked, so the tails' rounds cost more
/// there than handing on saves (Korf's 15-puzzles with manhattan on 2 cores: no faster with
/// 256 invocations, 1.05–1.15× the wall time with 65,536 in half the rounds;
/// docs/benchmarks.md).
pub(super) fn idle_tries(software: bool) -> u32 {
    std::env::var("NPUZZLE_GPU_IDLE_TRIES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if software { 0 } else { 64 })
}

/// Invocations on a software adapter (lavapipe): 128 per core, 256 to 4,096. Its cores run
/// 8 invocations to a vector; more invocations than that only lengthen each iteration's tail,
/// where a few deep subtrees keep some invocations of every vector busy (measured on 2 cores:
/// 38 M expansions/s with 256, 33 M with 1,024, 22 M with 4,096).
fn software_invocations() -> usize {
    let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
    (128 * cores).clamp(256, 4096)
}

/// Expansions an invocation makes in a round on a software adapter. lavapipe ends every loop of
/// a shader after 65,535 iterations in all (Mesa's gallivm `LP_MAX_TGSI_LOOP_ITERATIONS`),
/// leaving the state mid-step; measured with one invocation, the cut came after about 20,500
/// expansions with manhattan on 4×4 (12,000 on 5×5), 10,400 (5,600) with linear conflict,
/// 5,900 with pdb78 and 4,100 with pdb6666. These caps leave half of that or more; a round cut
/// all the same is detected (the iteration is searched again with half the cap).
pub(super) fn software_budget_cap(kind: u32) -> u32 {
    match kind {
        KIND_MANHATTAN => 6_000,
        // Every step of a maximum ranks several patterns on each side.
        KIND_PDBMAX => 500,
        _ => 2_000,
    }
}

/// The invocations GPU IDA* runs and its workgroup size: `asked` (`--gpu-invocations`),
/// else 65,536 on a hardware GPU and [`software_invocations`] on a `software` one; at least
/// one, rounded up to whole workgroups of at most [`WORKGROUP`].
///
/// # Errors
/// [`GpuError::Unsupported`] past one dispatch dimension (65,535 workgroups).
pub(super) fn invocation_count(
    asked: Option<usize>,
    software: bool,
) -> Result<(u32, usize), GpuError> {
    let invocations = asked
        .unwrap_or_else(|| {
            if software {
                software_invocations()
            } else {
                65_536
            }
        })
        .max(1);
    let workgroup = (WORKGROUP as usize).min(invocations);
    let invocations = invocations.div_ceil(workgroup) * workgroup;
    // One dispatch dimension of workgroups (the WebGPU minimum limit, 65,535).
    let invocations = u32::try_from(invocations)
        .ok()
        .filter(|&n| n / workgroup as u32 <= 65_535)
        .ok_or_else(|| {
            GpuError::Unsupported(format!(
                "{invocations} invocations (GPU IDA* takes at most {})",
                65_535 * WORKGROUP
            ))
        })?;
    Ok((invocations, workgroup))
}

/// What GPU IDA* evaluates: the shader's `KIND`, the pattern tables (bytes, split as the
/// bindings take them; none without pattern databases), their metadata words, the largest
/// pattern's tiles (the shader's index loop runs that many times) and whether the shader
/// updates the indexes move by move.
pub(super) struct Heuristic<'a> {
    pub(super) kind: u32,
    pub(super) tables: Vec<&'a [u8]>,
    pub(super) meta: Option<Vec<u32>>,
    pub(super) pattern_k: u32,
    pub(super) incremental: bool,
}

/// [`Heuristic`] for `spec` on a board of `n` cells and `cols` columns.
///
/// # Errors
/// [`GpuError::Unsupported`] for Hamming, walking distance or more patterns than the shader
/// takes.
pub(super) fn heuristic(
    spec: &HeuristicSpec,
    n: usize,
    cols: usize,
) -> Result<Heuristic<'_>, GpuError> {
    let plain = |kind| Heuristic {
        kind,
        tables: Vec::new(),
        meta: None,
        pattern_k: 1,
        incremental: false,
    };
    match spec {
        HeuristicSpec::Kind(HeuristicKind::Manhattan) => Ok(plain(KIND_MANHATTAN)),
        HeuristicSpec::Kind(HeuristicKind::LinearConflict) => Ok(plain(KIND_LINEAR_CONFLICT)),
        HeuristicSpec::Kind(k) => Err(GpuError::Unsupported(format!(
            "{k} in GPU IDA* (it takes manhattan, linear-conflict and pattern databases)"
        ))),
        HeuristicSpec::Pdb(p) => tables(pdb_layout(p, n)?, p.name(), None, n, cols),
        // (A maximum has at most as many partitions as the shader takes: `PdbMax::new`.)
        HeuristicSpec::PdbMax(p) => tables(pdbmax_layout(p, n)?, p.name(), Some(p), n, cols),
    }
}

/// [`Heuristic`] for pattern tables laid out as `layout` on a board of `n` cells and `cols`
/// columns: one additive partition (`max` `None`), or the maximum over `max`'s partitions.
///
/// # Errors
/// [`GpuError::Unsupported`] for more tables than the shader takes.
fn tables<'a>(
    layout: PdbLayout<'a>,
    name: &str,
    max: Option<&PdbMax>,
    n: usize,
    cols: usize,
) -> Result<Heuristic<'a>, GpuError> {
    let PdbLayout {
        parts,
        head,
        patterns,
        word_offsets,
    } = layout;
    if patterns.len() > IDA_META_MAX_PATTERNS {
        return Err(GpuError::Unsupported(format!(
            "more than {IDA_META_MAX_PATTERNS} pattern tables in GPU IDA* ({name} has {})",
            patterns.len()
        )));
    }
    let pattern_k = patterns.iter().map(|m| m.k).max().unwrap_or(1);
    Ok(match max {
        Some(p) => {
            let partitions: Vec<Vec<(usize, bool)>> = p
                .partitions()
                .iter()
                .map(|parts| parts.iter().map(|x| (x.table, x.flipped)).collect())
                .collect();
            Heuristic {
                kind: KIND_PDBMAX,
                tables: parts,
                meta: Some(ida_max_meta_words(
                    &head,
                    &patterns,
                    &word_offsets,
                    &partitions,
                )),
                pattern_k,
                incremental: false,
            }
        }
        None => {
            // The shader's incremental update reflects by the transpose (`cell_transpose`).
            let transposed = head.reflect == 0
                || (0..n).all(|c| head.tmap[c] as usize == (c % cols) * cols + c / cols);
            Heuristic {
                kind: KIND_PDB,
                tables: parts,
                meta: Some(ida_meta_words(&head, &patterns, &word_offsets)),
                pattern_k,
                incremental: transposed && ida_weights_fit(&patterns),
            }
        }
    })
}

/// The constants the shader reads once a dispatch (see `shaders/idastar.wgsl`): the goal row
/// and column of each tile (`row | col << 4`: sides up to 8), then the pattern of each tile
/// (`0xFF`: none).
pub(super) fn consts(goal: &Goal, spec: &HeuristicSpec) -> Vec<u32> {
    let cols = goal.board().cols() as u32;
    let n = goal.board().len();
    let mut out: Vec<u32> = goal
        .positions()
        .iter()
        .take(n)
        .map(|&p| (u32::from(p) / cols) | ((u32::from(p) % cols) << 4))
        .collect();
    let mut pattern = vec![0xFFu32; n];
    if let HeuristicSpec::Pdb(p) = spec {
        for (i, t) in p.tables().iter().enumerate() {
            for &tile in t.tiles() {
                pattern[tile as usize] = i as u32;
            }
        }
    }
    out.extend_from_slice(&pattern);
    out
}
