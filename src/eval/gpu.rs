//! The GPU batch evaluator: a wgpu compute shader (`shaders/heuristic.wgsl`), one invocation
//! per board.
//!
//! Packed layout sent to the GPU: each board takes `words` u32 words; tile `i` (row-major,
//! `0` = blank) sits at bits `[b·(i mod 32/b), +b)` of word `i / (32/b)`, with `b = 4` for
//! boards of at most 16 cells (8 bytes a board) and `b = 8` above. Boards up to 8×8 (sides at
//! most [`GPU_MAX_SIDE`]) are supported. Buffers and the pipeline are created once and grown
//! when a larger batch arrives; batches larger than the device's storage-binding limit are
//! split into several dispatches.

use std::sync::Arc;
use std::time::Instant;

use bytemuck::Zeroable;

pub use super::gpu_context::{GpuContext, GpuError};
use super::gpu_context::{
    PdbLayout, entries, pdb_layout, shader_module, table_entries, with_mapped,
};
pub use super::gpu_layout::{GPU_MAX_PATTERN, GPU_MAX_SIDE};
use super::gpu_layout::{
    KIND_HAMMING, KIND_LINEAR_CONFLICT, KIND_MANHATTAN, KIND_PDB, PdbMeta, WORKGROUP, meta_words,
};
use super::{BatchEvaluator, EvalError};
use crate::heuristic::{HeuristicKind, HeuristicSpec};
use crate::puzzle::Goal;

/// Most workgroups in one dispatch dimension (the WebGPU minimum limit).
const MAX_GROUPS_X: u32 = 65_535;

/// Buffers sized for a number of boards.
struct Buffers {
    capacity: usize,
    input: wgpu::Buffer,
    output: wgpu::Buffer,
    staging: wgpu::Buffer,
    bind_group: wgpu::BindGroup,
}

/// Evaluates Hamming, Manhattan, linear conflict or an additive pattern database for batches
/// of boards on the GPU.
pub struct GpuEvaluator {
    ctx: Arc<GpuContext>,
    name: String,
    cells: usize,
    bits: u32,
    words: usize,
    pipeline: wgpu::ComputePipeline,
    layout: wgpu::BindGroupLayout,
    params: wgpu::Buffer,
    tables: wgpu::Buffer,
    /// The pattern tables, over [`TABLE_BINDINGS`](super::gpu_context::TABLE_BINDINGS) bindings.
    pdb: Vec<wgpu::Buffer>,
    pdb_meta: wgpu::Buffer,
    buffers: Option<Buffers>,
    /// Most boards one dispatch may take (storage-binding limit).
    max_chunk: usize,
    packed: Vec<u32>,
    last_seconds: f64,
}

impl GpuEvaluator {
    /// An evaluator of `kind` towards `goal` on `ctx`'s device.
    ///
    /// # Errors
    /// [`GpuError::TooLarge`] for boards with a side above [`GPU_MAX_SIDE`],
    /// [`GpuError::Unsupported`] for walking distance (no shader for it yet).
    pub fn new(
        ctx: Arc<GpuContext>,
        kind: HeuristicKind,
        goal: &Goal,
    ) -> Result<GpuEvaluator, GpuError> {
        let code = Self::kind_code(kind)
            .ok_or_else(|| GpuError::Unsupported(format!("{kind} (use --evaluator cpu)")))?;
        Self::build(ctx, code, kind.name(), goal, None)
    }

    /// The shader's code for `kind`, or `None` for a kind the shader does not compute
    /// (walking distance).
    pub fn kind_code(kind: HeuristicKind) -> Option<u32> {
        match kind {
            HeuristicKind::Hamming => Some(KIND_HAMMING),
            HeuristicKind::Manhattan => Some(KIND_MANHATTAN),
            HeuristicKind::LinearConflict => Some(KIND_LINEAR_CONFLICT),
            HeuristicKind::WalkingDistance
            | HeuristicKind::WalkingDistanceLc
            | HeuristicKind::OverestimatingManhattan => None,
        }
    }

    /// An evaluator of any heuristic spec: a named kind, or a pattern database whose tables are
    /// uploaded once into a storage buffer.
    ///
    /// # Errors
    /// [`GpuError::TooLarge`], [`GpuError::TablesTooLarge`] (tables over the device's binding
    /// limit), [`GpuError::Unsupported`].
    pub fn for_spec(
        ctx: Arc<GpuContext>,
        spec: &HeuristicSpec,
        goal: &Goal,
    ) -> Result<GpuEvaluator, GpuError> {
        let pdb = match spec {
            HeuristicSpec::Kind(k) => return Self::new(ctx, *k, goal),
            HeuristicSpec::Pdb(p) => p,
            // The batch evaluator's shader reads one partition; GPU IDA*'s reads a maximum.
            HeuristicSpec::PdbMax(p) => {
                return Err(GpuError::Unsupported(format!(
                    "{} (a maximum over partitions) on the GPU evaluator (use --evaluator cpu)",
                    p.name()
                )));
            }
        };
        let PdbLayout {
            parts,
            head,
            patterns,
            ..
        } = pdb_layout(pdb, goal.board().len())?;
        let meta = meta_words(&head, &patterns);
        let tables = ctx.table_buffers(&parts, ctx.max_table_bytes())?;
        Self::build(ctx, KIND_PDB, pdb.name(), goal, Some((tables, meta)))
    }

    /// The evaluator of shader kind `kind_code` (reported as `name`) towards `goal`, with a
    /// pattern database's table buffers and metadata words when there is one.
    fn build(
        ctx: Arc<GpuContext>,
        kind_code: u32,
        name: &str,
        goal: &Goal,
        pdb: Option<(Vec<wgpu::Buffer>, Vec<u32>)>,
    ) -> Result<GpuEvaluator, GpuError> {
        let b = goal.board();
        let (rows, cols, n) = (b.rows(), b.cols(), b.len());
        if rows > GPU_MAX_SIDE || cols > GPU_MAX_SIDE {
            return Err(GpuError::TooLarge(rows, cols));
        }
        let bits: u32 = if n <= 16 { 4 } else { 8 };
        let words = n.div_ceil((32 / bits) as usize);
        let device = &ctx.device;
        let layout = bind_group_layout(device);
        let shape = Packing {
            rows,
            cols,
            words,
            bits,
        };
        let pipeline = pipeline(&ctx, &layout, kind_code, shape);
        // Goal table: (goal row << 8) | goal column, by tile.
        let goal_table: Vec<u32> = goal
            .positions()
            .iter()
            .map(|&p| ((p as u32 / cols as u32) << 8) | (p as u32 % cols as u32))
            .collect();
        let tables_buf = upload(&ctx, "tables", &goal_table);
        let (tables, meta) = match pdb {
            Some(p) => p,
            None => (
                ctx.table_buffers(&[], 0)?,
                meta_words(&PdbMeta::zeroed(), &[]),
            ),
        };
        let meta_buf = upload(&ctx, "pattern meta", &meta);
        let params = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("params"),
            size: 16,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let max_chunk = max_chunk(device, words);
        Ok(GpuEvaluator {
            ctx,
            name: name.to_string(),
            cells: n,
            bits,
            words,
            pipeline,
            layout,
            params,
            tables: tables_buf,
            pdb: tables,
            pdb_meta: meta_buf,
            buffers: None,
            max_chunk,
            packed: Vec::new(),
            last_seconds: 0.0,
        })
    }

    /// Seconds the last [`evaluate`](BatchEvaluator::evaluate) spent from upload to readback.
    pub fn last_seconds(&self) -> f64 {
        self.last_seconds
    }

    fn ensure_capacity(&mut self, boards: usize) {
        if self.buffers.as_ref().is_some_and(|b| b.capacity >= boards) {
            return;
        }
        let capacity = boards
            .next_power_of_two()
            .max(1024)
            .min(self.max_chunk.max(1));
        let device = &self.ctx.device;
        let input = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("boards"),
            size: (capacity * self.words * 4) as u64,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let out_size = (capacity * 4) as u64;
        let output = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("h"),
            size: out_size,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let staging = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("h staging"),
            size: out_size,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let own = [&self.params, &input, &self.tables, &output];
        let mut entries = entries(own.into_iter().enumerate().map(|(b, buf)| (b as u32, buf)));
        entries.extend(table_entries(&self.pdb_meta, &self.pdb));
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("heuristic"),
            layout: &self.layout,
            entries: &entries,
        });
        self.buffers = Some(Buffers {
            capacity,
            input,
            output,
            staging,
            bind_group,
        });
    }

    /// Packs `boards` (one byte a tile) into `self.packed`.
    fn pack(&mut self, boards: &[u8]) {
        let per_word = (32 / self.bits) as usize;
        self.packed.clear();
        self.packed.reserve(boards.len() / self.cells * self.words);
        for b in boards.chunks_exact(self.cells) {
            for w in b.chunks(per_word) {
                let mut word = 0u32;
                for (i, &t) in w.iter().enumerate() {
                    word |= u32::from(t) << (i as u32 * self.bits);
                }
                self.packed.push(word);
            }
        }
    }

    fn run_chunk(&mut self, count: usize, out: &mut Vec<u32>) -> Result<(), EvalError> {
        let params: [u32; 4] = [count as u32, 0, 0, 0];
        let ctx = &self.ctx;
        let Some(bufs) = &self.buffers else {
            return Err(EvalError::Device("buffers not allocated".into()));
        };
        ctx.queue
            .write_buffer(&self.params, 0, bytemuck::cast_slice(&params));
        ctx.queue
            .write_buffer(&bufs.input, 0, bytemuck::cast_slice(&self.packed));
        let groups = (count as u32).div_ceil(WORKGROUP);
        let (gx, gy) = if groups <= MAX_GROUPS_X {
            (groups, 1)
        } else {
            (MAX_GROUPS_X, groups.div_ceil(MAX_GROUPS_X))
        };
        let mut enc = ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
        {
            let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("heuristic"),
                timestamp_writes: None,
            });
            pass.set_pipeline(&self.pipeline);
            pass.set_bind_group(0, &bufs.bind_group, &[]);
            pass.dispatch_workgroups(gx, gy, 1);
        }
        let bytes = (count * 4) as u64;
        enc.copy_buffer_to_buffer(&bufs.output, 0, &bufs.staging, 0, bytes);
        ctx.queue.submit(Some(enc.finish()));
        with_mapped(&ctx.device, &bufs.staging, bytes, |words| {
            out.extend_from_slice(words);
        })
    }
}

/// How boards are laid out for the shader: `rows`×`cols` cells, `words` u32 words a board of
/// `bits`-bit tiles (see the module docs).
#[derive(Clone, Copy)]
struct Packing {
    rows: usize,
    cols: usize,
    words: usize,
    bits: u32,
}

/// The bindings of [`HEURISTIC_WGSL`]: the params uniform (0), the boards (1), the goal table
/// (2), the h written (3), the pattern metadata (5) and the table storage bindings (6–11).
fn bind_group_layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
    let storage = |binding, read_only| wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only },
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    };
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("heuristic"),
        entries: &[
            wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::COMPUTE,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            },
            storage(1, true),
            storage(2, true),
            storage(3, false),
            storage(5, true),
            storage(6, true),
            storage(7, true),
            storage(8, true),
            storage(9, true),
            storage(10, true),
            storage(11, true),
        ],
    })
}

/// The batch evaluator's pipeline for boards packed as `shape` and the shader's heuristic
/// `kind_code`, its bindings laid out by `layout`.
fn pipeline(
    ctx: &GpuContext,
    layout: &wgpu::BindGroupLayout,
    kind_code: u32,
    shape: Packing,
) -> wgpu::ComputePipeline {
    let device = &ctx.device;
    let module = shader_module(device, "heuristic", HEURISTIC_WGSL);
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("heuristic"),
        bind_group_layouts: &[Some(layout)],
        immediate_size: 0,
    });
    let Packing {
        rows,
        cols,
        words,
        bits,
    } = shape;
    let constants = [
        ("CELLS", (rows * cols) as f64),
        ("ROWS", rows as f64),
        ("COLS", cols as f64),
        ("WORDS", words as f64),
        ("BITS", f64::from(bits)),
        ("KIND", f64::from(kind_code)),
        ("CHUNK_SHIFT", f64::from(ctx.table_shift())),
    ];
    device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some("heuristic"),
        layout: Some(&pipeline_layout),
        module: &module,
        entry_point: Some("main"),
        compilation_options: wgpu::PipelineCompilationOptions {
            constants: &constants,
            zero_initialize_workgroup_memory: false,
        },
        cache: None,
    })
}

/// A read-only storage buffer named `label` holding `data` (at least one word).
fn upload(ctx: &GpuContext, label: &str, data: &[u32]) -> wgpu::Buffer {
    let buf = ctx.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: (data.len().max(1) * 4) as u64,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    ctx.queue.write_buffer(&buf, 0, bytemuck::cast_slice(data));
    buf
}

/// Most boards of `words` words one dispatch takes: what one storage binding (and buffer)
/// holds, what one dispatch's workgroups cover, and 2²⁴ at most.
fn max_chunk(device: &wgpu::Device, words: usize) -> usize {
    let limits = device.limits();
    let per_board = (words * 4).max(4) as u64;
    let max_binding = limits
        .max_storage_buffer_binding_size
        .min(limits.max_buffer_size);
    (max_binding / per_board)
        .min(u64::from(MAX_GROUPS_X) * u64::from(MAX_GROUPS_X) * u64::from(WORKGROUP))
        .min(1 << 24) as usize
}

/// The batch evaluator's shader: shaders/common.wgsl, then shaders/heuristic.wgsl.
pub(super) const HEURISTIC_WGSL: &str = concat!(
    include_str!("../../shaders/common.wgsl"),
    include_str!("../../shaders/heuristic.wgsl")
);

impl BatchEvaluator for GpuEvaluator {
    fn kind(&self) -> super::Evaluated {
        super::Evaluated::Gpu
    }

    fn describe(&self) -> String {
        self.ctx.describe()
    }

    fn heuristic(&self) -> &str {
        &self.name
    }

    fn evaluate(&mut self, boards: &[u8], out: &mut Vec<u32>) -> Result<(), EvalError> {
        if !boards.len().is_multiple_of(self.cells) {
            return Err(EvalError::Ragged {
                len: boards.len(),
                cells: self.cells,
            });
        }
        let started = Instant::now();
        out.clear();
        let count = boards.len() / self.cells;
        let chunk = self.max_chunk.max(1);
        for part in boards.chunks(chunk * self.cells) {
            let n = part.len() / self.cells;
            self.ensure_capacity(n);
            self.pack(part);
            self.run_chunk(n, out)?;
        }
        debug_assert_eq!(out.len(), count);
        self.last_seconds = started.elapsed().as_secs_f64();
        Ok(())
    }
}
