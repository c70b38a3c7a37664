//! GPU IDA* on wgpu: [`GpuIda`], the [`IdaDevice`](super::ida::IdaDevice) that runs
//! `shaders/ida_board.wgsl`, `shaders/idastar.wgsl` and `shaders/ida_ring.wgsl`
//! (`IDASTAR_WGSL`). Its parts: what the
//! board's shape, the heuristic and the adapter fix (`shape.rs`), the pipelines
//! (`pipelines.rs`), the buffers (`buffers.rs`), the rounds (`rounds.rs`) and the work they
//! carry from one to the next (`ring.rs`: the work items' ring and the lanes).
//!
//! Each invocation takes subtree roots from an atomic work counter and searches below them
//! depth first, at most `budget` expansions a round (one dispatch), its stack of frames kept
//! in a storage buffer so that the next round resumes it. After each round the host reads a
//! status block of 192 words (and, when asked, the `(g, h)` histogram), never the boards.
//!
//! Lanes: the device serves up to [`MAX_LANES`] searches at once
//! ([`LaneDevice`](super::ida::LaneDevice); one search is lane 0). An item's root word holds
//! its lane; each lane has its threshold, counts, least f, goal and stop in the status block.
//! An invocation takes its item's lane's threshold with the item, adds its counts to the
//! lane's when it moves to another lane's item, and drops the items and stacks of a lane
//! whose search has ended. The host counts each lane's items (roots added, items handed out,
//! less those finished or dropped): a lane with none left has exhausted its iteration.
//!
//! Load balance: when the work counter has run out, the round after it asks every busy
//! invocation to hand the untried moves of its shallowest nodes to the queue (a work item
//! each, up to `SHARE_MAX` (8) an invocation, as many in all as there were idle invocations),
//! so a few deep subtrees do not leave the rest of the device idle at the end of an
//! iteration. The queue is a ring: an invocation copies its item's origin (root and path)
//! into its state when it takes it, so the slot can take a new item from the next round on.
//! In an iteration's tail, work is also handed on within a round (the pipeline with `LIVE`;
//! [`GpuIda::set_idle_tries`]): invocations that run out wait, busy ones hand them items,
//! each word tagged with the ring's turn so that a taker sees whether it is all written.
//!
//! Limits: boards of at most [`GPU_IDA_MAX_CELLS`] cells with sides of at most 8 (5×5, 4×8,
//! …); a depth of [`MAX_DEPTH`] moves below a root; pattern tables in one texture where
//! they fit, else up to 6 storage bindings (each a power of two bytes, at most the adapter's
//! binding limit and 2 GiB), read by 32-bit word addresses.

mod buffers;
mod pipelines;
mod ring;
mod rounds;
mod shape;

use std::sync::Arc;

pub use super::gpu::{GpuContext, GpuError};
use super::gpu_context::TABLE_BINDINGS;
use crate::heuristic::HeuristicSpec;
use crate::puzzle::Goal;
use buffers::{Buffers, place_tables};
use pipelines::Pipelines;
use rounds::RunState;
use shape::{
    Heuristic, Shape, consts, heuristic, idle_tries, invocation_count, software_budget_cap,
};

pub use super::gpu_layout::{GPU_IDA_MAX_CELLS, GPU_IDA_MAX_SIDE};
/// Most moves an invocation goes below its root (frames on its stack).
pub const MAX_DEPTH: u32 = 160;
/// Most work items one invocation hands out in a round (passed to the shader).
const SHARE_MAX: u32 = 8;
/// Invocations per workgroup.
const WORKGROUP: u32 = 64;
/// Moves a path word of a work item holds (2 bits each; its top bit is the turn's tag).
const PATH_MOVES: usize = 15;
/// Words of the moves below a root in a work item: room for [`MAX_DEPTH`] moves.
const PATH_WORDS: usize = 11;
/// The top bit of every word of an item the ring holds in an even turn (the shader's
/// `item_tag`); 0 in an odd one.
const ITEM_TAG: u32 = 1 << 31;
const _: () = assert!(PATH_MOVES * PATH_WORDS >= MAX_DEPTH as usize);
/// Status words before the histogram: the round's words, then the lanes'. The host writes
/// them all before each round and reads them back after it.
const ST_HEADER: usize = 192;
const ST_WORK: usize = 0;
const ST_TAIL: usize = 1;
const ST_BUSY: usize = 7;
const ST_CUT: usize = 9;
const ST_GIVEN: usize = 11;
const ST_WORK2: usize = 13;
const ST_PUBLISHED: usize = 14;
const ST_PENDING_MIN: usize = 18;
const ST_GIVEN_LIVE: usize = 19;
const ST_PENDING: usize = 20;
/// Where the lanes' words start: lane `l`'s [`LANE_WORDS`] from `ST_LANES + l · LANE_WORDS`.
const ST_LANES: usize = 32;
/// Status words a lane has (the shader's `L_` words).
const LANE_WORDS: usize = 10;
/// Lanes the device has: searches that share it (see [`LaneDevice`](super::ida::LaneDevice)).
pub const MAX_LANES: usize = 16;
const L_BOUND: usize = 0;
const L_STOP: usize = 1;
const L_EXPANDED: usize = 2;
const L_GENERATED: usize = 3;
const L_MIN_F: usize = 4;
const L_FINISHED: usize = 5;
const L_GIVEN: usize = 6;
const L_FOUND: usize = 7;
const L_FOUND_DEPTH: usize = 8;
const L_FOUND_INV: usize = 9;
const _: () = assert!(ST_LANES + MAX_LANES * LANE_WORDS <= ST_HEADER);
/// The bit of an item's root word where its lane starts (the root's index below it).
const LANE_SHIFT: u32 = 24;
/// Word `w` of a work item's path (after its board words, info, root and automaton state):
/// the shader's `path_word`.
const fn path_word(board_words: usize, w: usize) -> usize {
    board_words + 3 + w
}

/// Word of an invocation's state that holds frame `d` (after running, item, blank and the
/// board words): the shader's `frame_word`.
const fn frame_word(board_words: usize, d: usize) -> usize {
    3 + board_words + d
}

/// Word `k` of the work item's origin an invocation keeps in its state (after the frames):
/// path length, root, then the path. The shader's `origin_word`.
const fn origin_word(board_words: usize, k: usize) -> usize {
    3 + board_words + MAX_DEPTH as usize + k
}

/// Storage buffers the shader binds (items, stacks, status, consts and the tables).
const STORAGE_BUFFERS: u32 = 4 + TABLE_BINDINGS as u32;

/// GPU IDA*'s shader: shaders/common.wgsl, shaders/ida_board.wgsl (an invocation's board and
/// heuristic), shaders/idastar.wgsl (its search), then shaders/ida_ring.wgsl (its work items).
pub(super) const IDASTAR_WGSL: &str = concat!(
    include_str!("../../../shaders/common.wgsl"),
    include_str!("../../../shaders/ida_board.wgsl"),
    include_str!("../../../shaders/idastar.wgsl"),
    include_str!("../../../shaders/ida_ring.wgsl")
);

/// IDA* subtrees on a GPU: see the module docs.
pub struct GpuIda {
    ctx: Arc<GpuContext>,
    /// What the board's shape, the heuristic and the adapter fix: the shader's constants.
    shape: Shape,
    /// The shader, the layout of its bindings and its pipelines.
    pipes: Pipelines,
    /// The buffers, and the work items' ring with the bind group naming them all.
    bufs: Buffers,
    /// The round budget's cap and the work on the device (the ring and the lanes).
    run: RunState,
}

impl GpuIda {
    /// GPU IDA* with `spec` towards `goal` on `ctx`'s device, with `invocations` parallel
    /// searches (in workgroups of 64, or one workgroup of fewer; `None`: 128 a core, 256 to
    /// 4,096, on a software adapter, 65,536 on a hardware one).
    ///
    /// # Errors
    /// [`GpuError::TooLargeForIda`] for boards over [`GPU_IDA_MAX_CELLS`] cells or a side over
    /// [`GPU_IDA_MAX_SIDE`]; [`GpuError::Unsupported`] for Hamming or walking distance;
    /// [`GpuError::Adapter`] for an adapter with too few storage bindings;
    /// [`GpuError::TablesTooLarge`] for tables over the bindings' room.
    pub fn new(
        ctx: Arc<GpuContext>,
        spec: &HeuristicSpec,
        goal: &Goal,
        invocations: Option<usize>,
    ) -> Result<GpuIda, GpuError> {
        let b = goal.board();
        let (rows, cols, n) = (b.rows(), b.cols(), b.len());
        if n > GPU_IDA_MAX_CELLS || rows > GPU_IDA_MAX_SIDE || cols > GPU_IDA_MAX_SIDE {
            return Err(GpuError::TooLargeForIda(rows, cols));
        }
        let limits = ctx.device.limits();
        if limits.max_storage_buffers_per_shader_stage < STORAGE_BUFFERS {
            return Err(GpuError::Adapter(format!(
                "GPU IDA* on an adapter with {} storage buffers a stage (it needs {STORAGE_BUFFERS})",
                limits.max_storage_buffers_per_shader_stage
            )));
        }
        let Heuristic {
            kind,
            tables,
            meta,
            pattern_k,
            incremental,
        } = heuristic(spec, n, cols)?;
        let chunk_shift = ctx.table_shift();
        let (texture, texture_width, table_bufs, table_count) = place_tables(&ctx, &tables)?;
        let software = ctx.is_software();
        let (invocations, workgroup) = invocation_count(invocations, software)?;
        let board_words = n.div_ceil(4);
        let shape = Shape {
            cells: n,
            rows,
            cols,
            board_words,
            // Board, info, root, automaton state, path.
            item_words: path_word(board_words, PATH_WORDS),
            invocations,
            workgroup: workgroup as u32,
            kind,
            chunk_shift,
            table_count,
            texture_width,
            pattern_k,
            incremental,
            idle_tries: idle_tries(software),
            consts: consts(goal, spec),
        };
        let bufs = Buffers::new(&ctx, &shape, meta, table_bufs, texture)?;
        let mut pipes = Pipelines::new(&ctx.device);
        pipes.get(&ctx.device, &shape, false, false);
        let budget_cap = if software {
            software_budget_cap(kind)
        } else {
            u32::MAX
        };
        Ok(GpuIda {
            ctx,
            shape,
            pipes,
            bufs,
            run: RunState {
                budget_cap,
                ring_cap: u32::MAX,
                defer: 0,
                ring: None,
            },
        })
    }

    /// Whether the pattern tables are read from one texture (they fit it and bindings are
    /// not capped: [`GpuContext::cap_table_bindings`]) rather than from storage bindings.
    pub fn tables_in_texture(&self) -> bool {
        self.shape.texture_width != 0
    }

    /// Whether the shader updates the pattern indexes move by move (pattern databases of at
    /// most four patterns, reflected by the transpose) rather than ranking the moved tile's
    /// pattern again on each side (more patterns).
    pub fn updates_indexes_incrementally(&self) -> bool {
        self.shape.incremental
    }

    /// Sets the most expansions an invocation makes in a round (a software adapter starts
    /// with a cap below lavapipe's loop limit, a hardware one with none); for tests and
    /// measurements.
    pub fn set_budget_cap(&mut self, cap: u32) {
        self.run.budget_cap = cap.max(1);
    }

    /// Sets the times an invocation without work looks for an item handed out within a
    /// round before it stops for the round; 0: work is handed on only between rounds (the
    /// default on a software adapter; see `idle_tries`). For tests and measurements.
    pub fn set_idle_tries(&mut self, tries: u32) {
        self.shape.idle_tries = tries;
    }

    /// Caps the slots of the work items' ring beyond the roots it is made for (at least one), so
    /// that it turns often; for tests.
    pub fn set_ring_slots(&mut self, slots: u32) {
        self.run.ring_cap = slots.max(1);
    }

    /// Takes every `n`-th item claimed within a round as not yet written, so that the next
    /// round loads it, as when its writer has not finished (0: none, the default); for tests.
    pub fn set_defer_claims(&mut self, n: u32) {
        self.run.defer = n;
    }
}

/// The layout the host and `shaders/idastar.wgsl` share, checked word by word.
#[cfg(test)]
mod layout_tests;
