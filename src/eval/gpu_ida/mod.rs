//! GPU IDA* on wgpu: [`GpuIda`], the [`IdaDevice`](super::ida::IdaDevice) that runs
//! `shaders/ida_board.wgsl` and `shaders/idastar.wgsl` (`IDASTAR_WGSL`; its rounds:
//! `rounds.rs`).
//!
//! Each invocation takes subtree roots from an atomic work counter and searches below them
//! depth first, at most `budget` expansions a round (one dispatch), its stack of frames kept
//! in a storage buffer so that the next round resumes it. After each round the host reads a
//! status block of 176 words (and, when asked, the `(g, h)` histogram), never the boards.
//!
//! Load balance: when the work counter has run out, the round after it asks every busy
//! invocation to hand the untried moves of its shallowest nodes to the queue (a work item
//! each, up to `SHARE_MAX` (8) an invocation, as many in all as there were idle invocations),
//! so a few deep subtrees do not leave the rest of the device idle at the end of an
//! iteration. The queue is a ring: an invocation copies its item's origin (root and path)
//! into its state when it takes it, so the slot can take a new item from the next round on.
//!
//! Limits: boards of at most [`GPU_IDA_MAX_CELLS`] cells with sides of at most 8 (5×5, 4×8,
//! …); a depth of [`MAX_DEPTH`] moves below a root; pattern tables up to 6 storage bindings
//! (each a power of two bytes, at most the adapter's binding limit) and 4 GiB in all.

mod rounds;

use std::sync::Arc;
use wgpu::util::DeviceExt;

use super::EvalError;
pub use super::gpu::{GpuContext, GpuError};
use super::gpu_context::{
    PdbLayout, TABLE_BINDINGS, entries, pdb_layout, shader_module, with_mapped,
};
use super::gpu_layout::{
    IDA_META_MAX_PATTERNS, IDA_META_WORDS, KIND_LINEAR_CONFLICT, KIND_MANHATTAN, KIND_PDB,
    ida_meta_words, ida_weights_fit,
};
use super::ida::{HIST_G, HIST_H};
use crate::heuristic::{HeuristicKind, HeuristicSpec};
use crate::puzzle::Goal;

pub use super::gpu_layout::{GPU_IDA_MAX_CELLS, GPU_IDA_MAX_SIDE};
/// Most moves an invocation goes below its root (frames on its stack).
pub const MAX_DEPTH: u32 = 160;
/// Most work items one invocation hands out in a round (passed to the shader).
const SHARE_MAX: u32 = 8;
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
fn software_budget_cap(kind: u32) -> u32 {
    if kind == KIND_MANHATTAN { 6_000 } else { 2_000 }
}

/// Invocations per workgroup.
const WORKGROUP: u32 = 64;
/// Words of the moves below a root in a work item (2 bits a move).
const PATH_WORDS: usize = 10;
/// Status words before the histogram.
const ST_HEADER: usize = 176;
const ST_WORK: usize = 0;
const ST_TAIL: usize = 1;
const ST_EXPANDED: usize = 2;
const ST_GENERATED: usize = 3;
const ST_MIN_F: usize = 4;
const ST_FOUND: usize = 5;
const ST_FINISHED: usize = 6;
const ST_BUSY: usize = 7;
const ST_CUT: usize = 9;
const ST_FOUND_DEPTH: usize = 10;
const ST_GIVEN: usize = 11;
const ST_FOUND_INV: usize = 12;
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

/// The invocations GPU IDA* runs and its workgroup size: `asked` (`--gpu-invocations`),
/// else 65,536 on a hardware GPU and [`software_invocations`] on a `software` one; at least
/// one, rounded up to whole workgroups of at most [`WORKGROUP`].
///
/// # Errors
/// [`GpuError::Unsupported`] past one dispatch dimension (65,535 workgroups).
fn invocation_count(asked: Option<usize>, software: bool) -> Result<(u32, usize), GpuError> {
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

/// [`GpuError::Adapter`] when the stacks of `invocations` invocations, `state_words` words
/// each, exceed the adapter's storage-binding or buffer size limit.
fn stacks_fit(limits: &wgpu::Limits, state_words: usize, invocations: u32) -> Result<(), GpuError> {
    let state_bytes = state_words as u64 * u64::from(invocations) * 4;
    let room = limits
        .max_storage_buffer_binding_size
        .min(limits.max_buffer_size);
    if state_bytes > room {
        return Err(GpuError::Adapter(format!(
            "{invocations} invocations need {state_bytes} bytes of stacks, more than this \
             adapter's storage-binding limit of {room} bytes"
        )));
    }
    Ok(())
}

/// Where the pattern `tables` go: one texture where they fit (one gather a read on
/// lavapipe), else storage bindings of which the shader reads only those that hold bytes.
/// Returns the texture (an empty one when unused), its width (0 when unused), the storage
/// buffers and how many of them hold tables.
///
/// # Errors
/// As [`GpuContext::table_texture`] and [`GpuContext::table_buffers`] (tables larger than
/// the adapter binds).
fn place_tables(
    ctx: &GpuContext,
    tables: &[&[u8]],
) -> Result<(wgpu::TextureView, u32, Vec<wgpu::Buffer>, u32), GpuError> {
    Ok(match ctx.table_texture(tables)? {
        Some((view, width)) => (view, width, ctx.table_buffers(&[])?, 1),
        None => {
            let table_bytes: usize = tables.iter().map(|t| t.len()).sum();
            let count = table_bytes.div_ceil(1 << ctx.table_shift()).max(1) as u32;
            (
                ctx.empty_table_texture(),
                0,
                ctx.table_buffers(tables)?,
                count,
            )
        }
    })
}

/// The buffers each round reads back and writes: the staging copy of the status block
/// (`status_bytes`) and the 32-byte uniform of the round's parameters.
fn round_buffers(device: &wgpu::Device, status_bytes: u64) -> (wgpu::Buffer, wgpu::Buffer) {
    let staging = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("status staging"),
        size: status_bytes,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let params = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("params"),
        size: 32,
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    (staging, params)
}

/// Storage buffers the shader binds (items, stacks, status, consts and the tables).
const STORAGE_BUFFERS: u32 = 4 + TABLE_BINDINGS as u32;

/// GPU IDA*'s shader: shaders/common.wgsl, shaders/ida_board.wgsl (an invocation's board and
/// heuristic), then shaders/idastar.wgsl (its search).
pub(super) const IDASTAR_WGSL: &str = concat!(
    include_str!("../../../shaders/common.wgsl"),
    include_str!("../../../shaders/ida_board.wgsl"),
    include_str!("../../../shaders/idastar.wgsl")
);

/// Per-iteration state.
struct DeviceIteration {
    bound: u32,
    /// Work items the current round may take.
    available: u32,
    /// Work items taken so far (the counter, less what idle invocations overshot).
    taken: u32,
    tail: u32,
    min_f: u32,
    hungry: u32,
    /// Work items each busy invocation hands out in the next round.
    share: u32,
    histogram: bool,
    capacity: u32,
    /// The invocation and depth of the goal found.
    found: Option<(u32, usize)>,
}

/// IDA* subtrees on a GPU: see the module docs.
pub struct GpuIda {
    ctx: Arc<GpuContext>,
    cells: usize,
    board_words: usize,
    item_words: usize,
    invocations: u32,
    /// Invocations per workgroup.
    workgroup: u32,

    kind: u32,
    rows: usize,
    cols: usize,
    chunk_shift: u32,
    table_count: u32,
    pattern_k: u32,
    /// Whether the shader updates the pattern indexes move by move ([`ida_weights_fit`], and
    /// the reflection, if any, is the transpose).
    incremental: bool,
    module: wgpu::ShaderModule,
    layout: wgpu::BindGroupLayout,
    pipeline_layout: wgpu::PipelineLayout,
    pipelines: [Option<wgpu::ComputePipeline>; 2],
    params: wgpu::Buffer,
    state: wgpu::Buffer,
    status: wgpu::Buffer,
    staging: wgpu::Buffer,
    consts: wgpu::Buffer,
    /// The words of `consts` before the pruning automaton ([`IdaDevice::set_pruning`](super::ida::IdaDevice::set_pruning)).
    const_words: Vec<u32>,
    /// Whether `consts` holds the pruning automaton.
    pruning_set: bool,
    meta: wgpu::Buffer,
    tables: Vec<wgpu::Buffer>,
    /// The tables as one texture (binding 13) when they fit one, and its width in texels;
    /// else an empty texture, width 0, and the tables in `tables`.
    texture: wgpu::TextureView,
    texture_width: u32,
    /// Most expansions an invocation makes in a round: on a software adapter, few enough that
    /// the shader's loops stay under lavapipe's 65,535 iterations (halved after a cut).
    budget_cap: u32,
    items: Option<(wgpu::Buffer, wgpu::BindGroup, u32)>,
    run: Option<DeviceIteration>,
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
        let device = &ctx.device;
        let limits = device.limits();
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
        let software = ctx.info.device_type == wgpu::DeviceType::Cpu;
        let (invocations, workgroup) = invocation_count(invocations, software)?;

        let storage_buf = |label: &str, size: u64, extra: wgpu::BufferUsages| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: size.max(4),
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST | extra,
                mapped_at_creation: false,
            })
        };
        let meta = meta.unwrap_or_else(|| vec![0; IDA_META_WORDS]);
        let upload = |label: &str, words: &[u32]| {
            let buf = storage_buf(label, words.len() as u64 * 4, wgpu::BufferUsages::empty());
            ctx.queue.write_buffer(&buf, 0, bytemuck::cast_slice(words));
            buf
        };
        let meta_buf = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("pattern meta"),
            contents: bytemuck::cast_slice(&meta),
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        });
        let const_words = consts(goal, spec);
        let consts_buf = upload("consts", &const_words);

        let board_words = n.div_ceil(4);
        // Board, info, root, automaton state, path.
        let item_words = path_word(board_words, PATH_WORDS);
        // Running, item, blank, board, frames, then the item's origin (path length, root, path).
        let state_words = origin_word(board_words, 2 + PATH_WORDS);
        stacks_fit(&device.limits(), state_words, invocations)?;
        let state = storage_buf(
            "stacks",
            state_words as u64 * u64::from(invocations) * 4,
            wgpu::BufferUsages::COPY_SRC,
        );
        let status_bytes = (ST_HEADER + HIST_G * HIST_H) as u64 * 4;
        let status = storage_buf("status", status_bytes, wgpu::BufferUsages::COPY_SRC);
        let (staging, params) = round_buffers(device, status_bytes);
        let layout = bind_group_layout(device);
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("gpu idastar"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let module = shader_module(device, "gpu idastar", IDASTAR_WGSL);
        let mut ida = GpuIda {
            ctx: ctx.clone(),
            cells: n,
            board_words,
            item_words,
            invocations,
            workgroup: workgroup as u32,
            kind,
            rows,
            cols,
            chunk_shift,
            table_count,
            pattern_k,
            incremental,
            module,
            layout,
            pipeline_layout,
            pipelines: [None, None],
            params,
            state,
            status,
            staging,
            consts: consts_buf,
            const_words,
            pruning_set: false,
            meta: meta_buf,
            tables: table_bufs,
            texture,
            texture_width,
            budget_cap: if software {
                software_budget_cap(kind)
            } else {
                u32::MAX
            },
            items: None,
            run: None,
        };
        ida.pipeline(false);
        Ok(ida)
    }

    /// Whether the pattern tables are read from one texture (they fit it and bindings are
    /// not capped: [`GpuContext::cap_table_bindings`]) rather than from storage bindings.
    pub fn tables_in_texture(&self) -> bool {
        self.texture_width != 0
    }

    /// Whether the shader updates the pattern indexes move by move (pattern databases of at
    /// most four patterns, reflected by the transpose) rather than ranking the moved tile's
    /// pattern again on each side (more patterns).
    pub fn updates_indexes_incrementally(&self) -> bool {
        self.incremental
    }

    /// Word `w` of invocation `i`'s state (interleaved: see `st` in the shader).
    fn state_index(&self, w: usize, i: usize) -> u64 {
        (w * self.invocations as usize + i) as u64
    }

    /// The pipeline with or without the histogram, compiled on first use.
    fn pipeline(&mut self, histogram: bool) -> &wgpu::ComputePipeline {
        let slot = usize::from(histogram);
        if self.pipelines[slot].is_none() {
            let constants = [
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
                ("FSM_BASE", self.const_words.len() as f64),
                ("SHARE_MAX", f64::from(SHARE_MAX)),
            ];
            let p = self
                .ctx
                .device
                .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                    label: Some("gpu idastar"),
                    layout: Some(&self.pipeline_layout),
                    module: &self.module,
                    entry_point: Some(if histogram { "main_hist" } else { "main" }),
                    compilation_options: wgpu::PipelineCompilationOptions {
                        constants: &constants,
                        zero_initialize_workgroup_memory: false,
                    },
                    cache: None,
                });
            self.pipelines[slot] = Some(p);
        }
        self.pipelines[slot].as_ref().expect("compiled above")
    }

    /// Sets the most expansions an invocation makes in a round (a software adapter starts
    /// with a cap below lavapipe's loop limit, a hardware one with none); for tests and
    /// measurements.
    pub fn set_budget_cap(&mut self, cap: u32) {
        self.budget_cap = cap.max(1);
    }

    /// The items buffer and its bind group for at least `capacity` work items.
    /// Returns the buffer's capacity: at least `capacity`; a new buffer has half as much
    /// again, up to `most`.
    fn ensure_items(&mut self, capacity: u32, most: u32) -> u32 {
        if let Some((_, _, c)) = &self.items
            && *c >= capacity
        {
            return *c;
        }
        let capacity = capacity
            .saturating_add(capacity / 2)
            .min(most)
            .max(capacity);
        let device = &self.ctx.device;
        let buf = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("work items"),
            size: u64::from(capacity) * self.item_words as u64 * 4,
            usage: wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::COPY_DST
                | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let own = [&self.params, &buf, &self.state, &self.status, &self.consts];
        let mut entries = entries(
            (0u32..)
                .zip(own)
                .chain((6u32..).zip(&self.tables))
                .chain([(12, &self.meta)]),
        );
        entries.push(wgpu::BindGroupEntry {
            binding: 13,
            resource: wgpu::BindingResource::TextureView(&self.texture),
        });
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("gpu idastar"),
            layout: &self.layout,
            entries: &entries,
        });
        self.items = Some((buf, group, capacity));
        capacity
    }

    fn map_staging(&self, bytes: u64) -> Result<Vec<u32>, EvalError> {
        with_mapped(&self.ctx.device, &self.staging, bytes, <[u32]>::to_vec)
    }
}

/// What GPU IDA* evaluates: the shader's `KIND`, the pattern tables (bytes, split as the
/// bindings take them; none without pattern databases), their metadata words, the largest
/// pattern's tiles (the shader's index loop runs that many times) and whether the shader
/// updates the indexes move by move.
struct Heuristic<'a> {
    kind: u32,
    tables: Vec<&'a [u8]>,
    meta: Option<Vec<u32>>,
    pattern_k: u32,
    incremental: bool,
}

/// [`Heuristic`] for `spec` on a board of `n` cells and `cols` columns.
///
/// # Errors
/// [`GpuError::Unsupported`] for Hamming, walking distance or more patterns than the shader
/// takes.
fn heuristic(spec: &HeuristicSpec, n: usize, cols: usize) -> Result<Heuristic<'_>, GpuError> {
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
        HeuristicSpec::Pdb(p) => {
            let PdbLayout {
                parts,
                head,
                patterns,
            } = pdb_layout(p, n)?;
            if patterns.len() > IDA_META_MAX_PATTERNS {
                return Err(GpuError::Unsupported(format!(
                    "a pattern database of more than {IDA_META_MAX_PATTERNS} patterns in \
                     GPU IDA*"
                )));
            }
            // The shader's incremental update reflects by the transpose (`cell_transpose`).
            let transposed = head.reflect == 0
                || (0..n).all(|c| head.tmap[c] as usize == (c % cols) * cols + c / cols);
            Ok(Heuristic {
                kind: KIND_PDB,
                tables: parts,
                meta: Some(ida_meta_words(&head, &patterns)),
                pattern_k: patterns.iter().map(|m| m.k).max().unwrap_or(1),
                incremental: transposed && ida_weights_fit(&patterns),
            })
        }
    }
}

/// The bindings of `IDASTAR_WGSL`: params (0), items, stacks, status (1–3), consts (4) in
/// `idastar.wgsl`, the table storage bindings (6–11) in `common.wgsl`, the pattern metadata (12)
/// and the tables' texture (13) in `ida_board.wgsl`.
fn bind_group_layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
    let entry = |binding, ty| wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty,
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    };
    let rw = wgpu::BufferBindingType::Storage { read_only: false };
    let ro = wgpu::BufferBindingType::Storage { read_only: true };
    let mut entries = vec![
        entry(0, wgpu::BufferBindingType::Uniform),
        entry(1, rw),
        entry(2, rw),
        entry(3, rw),
        entry(4, ro),
    ];
    for t in 0..TABLE_BINDINGS as u32 {
        entries.push(entry(6 + t, ro));
    }
    entries.push(entry(12, wgpu::BufferBindingType::Uniform));
    entries.push(wgpu::BindGroupLayoutEntry {
        binding: 13,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Texture {
            sample_type: wgpu::TextureSampleType::Uint,
            view_dimension: wgpu::TextureViewDimension::D2,
            multisampled: false,
        },
        count: None,
    });
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("gpu idastar"),
        entries: &entries,
    })
}

/// The constants the shader reads once a dispatch (see `shaders/idastar.wgsl`): the goal row
/// and column of each tile (`row | col << 4`: sides up to 8), then the pattern of each tile
/// (`0xFF`: none).
fn consts(goal: &Goal, spec: &HeuristicSpec) -> Vec<u32> {
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

/// The layout the host and `shaders/idastar.wgsl` share, checked word by word.
#[cfg(test)]
mod layout_tests;
