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

pub use super::gpu_layout::{GPU_MAX_PATTERN, GPU_MAX_SIDE};
use super::gpu_layout::{
    KIND_HAMMING, KIND_LINEAR_CONFLICT, KIND_MANHATTAN, KIND_PDB, PatternMeta, PdbMeta, WORKGROUP,
    meta_words,
};
use super::{BatchEvaluator, EvalError};
use crate::heuristic::{HeuristicKind, HeuristicSpec};
use crate::puzzle::Goal;

/// Storage bindings the pattern tables are split over (both shaders).
pub(super) const TABLE_BINDINGS: usize = 6;

/// Most workgroups in one dispatch dimension (the WebGPU minimum limit).
const MAX_GROUPS_X: u32 = 65_535;

/// Why the GPU evaluator is not available.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GpuError {
    /// No wgpu adapter (no Vulkan/Metal/DX12/GL driver).
    #[error("no GPU adapter found: {0}")]
    NoAdapter(String),
    /// The adapter refused to create a device.
    #[error("GPU device could not be created: {0}")]
    Device(String),
    /// The board is larger than the shader supports.
    #[error(
        "the GPU evaluator supports boards up to {GPU_MAX_SIDE}×{GPU_MAX_SIDE}; this one is {0}×{1}"
    )]
    TooLarge(usize, usize),
    /// The board is larger than GPU IDA* takes (rows, cols).
    #[error(
        "GPU IDA* takes boards of at most {cells} cells with sides up to {side}; this one is {0}×{1}",
        cells = super::gpu_ida::GPU_IDA_MAX_CELLS,
        side = super::gpu_ida::GPU_IDA_MAX_SIDE
    )]
    TooLargeForIda(usize, usize),
    /// Pattern tables larger than the storage bindings of this device take.
    #[error(
        "the pattern tables take {bytes} bytes, more than this GPU's {limit} bytes (six storage bindings)"
    )]
    TablesTooLarge {
        /// Bytes of all tables.
        bytes: u64,
        /// [`GpuContext::max_table_bytes`].
        limit: u64,
    },
    /// A heuristic the shader cannot take: walking distance, a pattern database with more than
    /// [`GPU_MAX_PATTERN`] tiles in a pattern or index weights over 32 bits.
    #[error("the GPU evaluator cannot take {0}")]
    Unsupported(String),
}

/// A wgpu device and queue with the adapter's description, shared by evaluators and the app.
pub struct GpuContext {
    /// The device.
    pub device: wgpu::Device,
    /// Its queue.
    pub queue: wgpu::Queue,
    /// The adapter it came from.
    pub info: wgpu::AdapterInfo,
    /// When non-zero, log2 of the most bytes a pattern-table binding takes (below the device's
    /// own limit): [`GpuContext::cap_table_bindings`].
    table_shift_cap: std::sync::atomic::AtomicU32,
}

impl GpuContext {
    /// Picks the default high-performance adapter (on machines without a GPU this may be a
    /// software one such as Mesa's lavapipe) and creates a device with the adapter's limits.
    ///
    /// # Errors
    /// [`GpuError::NoAdapter`] when there is none, [`GpuError::Device`] when it fails.
    pub fn new() -> Result<Arc<GpuContext>, GpuError> {
        let instance =
            wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
        let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::HighPerformance,
            force_fallback_adapter: false,
            compatible_surface: None,
            apply_limit_buckets: false,
        }))
        .map_err(|e| GpuError::NoAdapter(e.to_string()))?;
        Self::from_adapter(&adapter)
    }

    /// Creates a device on `adapter` with its full limits.
    ///
    /// # Errors
    /// [`GpuError::Device`] when the adapter refuses.
    pub fn from_adapter(adapter: &wgpu::Adapter) -> Result<Arc<GpuContext>, GpuError> {
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("npuzzle"),
            required_limits: adapter.limits(),
            ..Default::default()
        }))
        .map_err(|e| GpuError::Device(e.to_string()))?;
        Ok(Arc::new(GpuContext {
            device,
            queue,
            info: adapter.get_info(),
            table_shift_cap: std::sync::atomic::AtomicU32::new(0),
        }))
    }

    /// The most bytes of pattern tables the evaluator and GPU IDA* take on this device: six
    /// storage bindings of the largest power of two it binds, at most 4 GiB in all (768 MiB on
    /// lavapipe, whose bindings take 128 MiB; 4 GiB on GPUs that bind 1 GiB or more).
    pub fn max_table_bytes(&self) -> u64 {
        ((1u64 << self.table_shift()) * TABLE_BINDINGS as u64).min(u64::from(u32::MAX))
    }

    /// log2 of the bytes of one table binding: the largest power of two the device binds.
    pub(super) fn table_shift(&self) -> u32 {
        let limits = self.device.limits();
        let per_binding = limits
            .max_storage_buffer_binding_size
            .min(limits.max_buffer_size)
            .clamp(4, 1 << 31);
        let own = 63 - per_binding.leading_zeros();
        match self
            .table_shift_cap
            .load(std::sync::atomic::Ordering::Relaxed)
        {
            0 => own,
            cap => own.min(cap),
        }
    }

    /// Makes pattern-table bindings take at most `2^shift` bytes (at least 4) from now on, so
    /// that small tables are split over several bindings as large ones are on real devices
    /// (tests; evaluators and devices made before keep their split).
    pub fn cap_table_bindings(&self, shift: u32) {
        self.table_shift_cap
            .store(shift.clamp(2, 31), std::sync::atomic::Ordering::Relaxed);
    }

    /// Pattern tables (`parts`, end to end) as one 2D texture of `u32` texels (`R32Uint`,
    /// row-major, the adapter's largest width), for shaders that read them with
    /// `textureLoad`: on lavapipe a texel fetch is one gather, where a storage read is a loop
    /// over the lanes for each binding it may touch. Returns the view and its width in
    /// texels, or `None` when the tables do not fit (more than the largest width squared, 4
    /// bytes a texel: 1 GiB on lavapipe) or bindings are capped ([`cap_table_bindings`]:
    /// tests of the split storage path). Copied as [`GpuContext::table_buffers`] copies,
    /// a band of at most 2²⁷ bytes at a time.
    ///
    /// [`cap_table_bindings`]: GpuContext::cap_table_bindings
    ///
    /// # Errors
    /// [`GpuError::Unsupported`] when the device refuses a copy.
    pub(super) fn table_texture(
        &self,
        parts: &[&[u8]],
    ) -> Result<Option<(wgpu::TextureView, u32)>, GpuError> {
        let capped = self
            .table_shift_cap
            .load(std::sync::atomic::Ordering::Relaxed)
            != 0;
        let width = self.device.limits().max_texture_dimension_2d;
        let total: u64 = parts.iter().map(|p| p.len() as u64).sum();
        let row = u64::from(width) * 4;
        let height = total.div_ceil(row).max(1);
        if capped || total == 0 || width < 64 || height > u64::from(width) {
            return Ok(None);
        }
        let height = height as u32;
        let texture = self.u32_texture(
            "pattern tables",
            width,
            height,
            wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        );
        let band_rows = ((1u64 << 27) / row).max(1) as u32;
        let mut band = Vec::new();
        let mut y = 0u32;
        while y < height {
            let rows = band_rows.min(height - y);
            let start = u64::from(y) * row;
            let len = u64::from(rows) * row;
            band.clear();
            for_each_piece(parts, start, len, |piece| band.extend_from_slice(piece));
            // The last band's tail past the tables: zeros.
            band.resize(len as usize, 0);
            self.queue.write_texture(
                wgpu::TexelCopyTextureInfo {
                    texture: &texture,
                    mip_level: 0,
                    origin: wgpu::Origin3d { x: 0, y, z: 0 },
                    aspect: wgpu::TextureAspect::All,
                },
                &band,
                wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(width * 4),
                    rows_per_image: Some(rows),
                },
                wgpu::Extent3d {
                    width,
                    height: rows,
                    depth_or_array_layers: 1,
                },
            );
            self.finish_copies()?;
            y += rows;
        }
        Ok(Some((
            texture.create_view(&wgpu::TextureViewDescriptor::default()),
            width,
        )))
    }

    /// A 1×1 texture of the kind [`GpuContext::table_texture`] makes, for a shader whose
    /// tables are in storage buffers instead (its binding must still be filled).
    pub(super) fn empty_table_texture(&self) -> wgpu::TextureView {
        self.u32_texture(
            "no pattern tables",
            1,
            1,
            wgpu::TextureUsages::TEXTURE_BINDING,
        )
        .create_view(&wgpu::TextureViewDescriptor::default())
    }

    /// A `width × height` 2D texture of `u32` texels (`R32Uint`), the kind the tables go in.
    fn u32_texture(
        &self,
        label: &str,
        width: u32,
        height: u32,
        usage: wgpu::TextureUsages,
    ) -> wgpu::Texture {
        self.device.create_texture(&wgpu::TextureDescriptor {
            label: Some(label),
            size: wgpu::Extent3d {
                width,
                height,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::R32Uint,
            usage,
            view_formats: &[],
        })
    }

    /// Submits the copies written so far and waits for them, so that their staging memory is
    /// freed before the next ones are made.
    fn finish_copies(&self) -> Result<(), GpuError> {
        self.queue.submit([]);
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map(|_| ())
            .map_err(|e| GpuError::Unsupported(e.to_string()))
    }

    /// Pattern tables (`parts`, end to end) as [`TABLE_BINDINGS`] storage buffers of
    /// `1 << table_shift()` bytes each (the unused ones 4 bytes). The bytes go from `parts`
    /// straight into wgpu's staging memory, one binding at a time, each copy finished before
    /// the next begins: beside the tables themselves, at most one binding's bytes are held.
    ///
    /// # Errors
    /// [`GpuError::TablesTooLarge`] beyond [`GpuContext::max_table_bytes`];
    /// [`GpuError::Unsupported`] when the device refuses the copy.
    pub(super) fn table_buffers(&self, parts: &[&[u8]]) -> Result<Vec<wgpu::Buffer>, GpuError> {
        let total: u64 = parts.iter().map(|p| p.len() as u64).sum();
        let limit = self.max_table_bytes();
        if total > limit {
            return Err(GpuError::TablesTooLarge {
                bytes: total,
                limit,
            });
        }
        let chunk = 1u64 << self.table_shift();
        let mut buffers = Vec::with_capacity(TABLE_BINDINGS);
        let buffer = |len: u64| {
            self.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("pattern tables"),
                size: len.max(4),
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            })
        };
        let refused = || GpuError::Unsupported("a copy of the pattern tables to the device".into());
        let mut start = 0u64;
        while start < total {
            let len = chunk.min(total - start);
            // Whole words (the tail's padding is written as zeros).
            let size = len.div_ceil(4) * 4;
            let buf = buffer(size);
            {
                let size = wgpu::BufferSize::new(size).ok_or_else(refused)?;
                let mut view = self
                    .queue
                    .write_buffer_with(&buf, 0, size)
                    .ok_or_else(refused)?;
                let mut at = 0usize;
                for_each_piece(parts, start, len, |piece| {
                    view.slice(at..at + piece.len()).copy_from_slice(piece);
                    at += piece.len();
                });
                let pad = view.len() - at;
                view.slice(at..).copy_from_slice(&[0u8; 3][..pad]);
            }
            self.finish_copies()?;
            buffers.push(buf);
            start += len;
        }
        while buffers.len() < TABLE_BINDINGS {
            buffers.push(buffer(4));
        }
        Ok(buffers)
    }

    /// `name / backend`, e.g. `llvmpipe (LLVM 15.0.6, 256 bits) / Vulkan`.
    pub fn describe(&self) -> String {
        format!("{} / {:?}", self.info.name, self.info.backend)
    }
}

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
    /// The pattern tables, over [`TABLE_BINDINGS`] bindings.
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
            HeuristicKind::WalkingDistance | HeuristicKind::WalkingDistanceLc => None,
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
        };
        let PdbLayout {
            parts,
            head,
            patterns,
        } = pdb_layout(pdb, goal.board().len())?;
        let meta = meta_words(&head, &patterns);
        let tables = ctx.table_buffers(&parts)?;
        Self::build(ctx, KIND_PDB, pdb.name(), goal, Some((tables, meta)))
    }

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
        let module = shader_module(device, "heuristic", HEURISTIC_WGSL);
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
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
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
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("heuristic"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let kind_code = f64::from(kind_code);
        let constants = [
            ("CELLS", n as f64),
            ("ROWS", rows as f64),
            ("COLS", cols as f64),
            ("WORDS", words as f64),
            ("BITS", f64::from(bits)),
            ("KIND", kind_code),
            ("CHUNK_SHIFT", f64::from(ctx.table_shift())),
        ];
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("heuristic"),
            layout: Some(&pipeline_layout),
            module: &module,
            entry_point: Some("main"),
            compilation_options: wgpu::PipelineCompilationOptions {
                constants: &constants,
                zero_initialize_workgroup_memory: false,
            },
            cache: None,
        });
        // Goal table: (goal row << 8) | goal column, by tile.
        let pos = goal.positions();
        let tables: Vec<u32> = pos
            .iter()
            .map(|&p| ((p as u32 / cols as u32) << 8) | (p as u32 % cols as u32))
            .collect();
        let tables_buf = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("tables"),
            size: (tables.len() * 4) as u64,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        ctx.queue
            .write_buffer(&tables_buf, 0, bytemuck::cast_slice(&tables));
        let (tables, meta) = match pdb {
            Some(p) => p,
            None => (ctx.table_buffers(&[])?, meta_words(&PdbMeta::zeroed(), &[])),
        };
        let upload = |label: &str, data: &[u32]| {
            let buf = device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: (data.len().max(1) * 4) as u64,
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
            ctx.queue.write_buffer(&buf, 0, bytemuck::cast_slice(data));
            buf
        };
        let meta_buf = upload("pattern meta", &meta);
        let params = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("params"),
            size: 16,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let limits = device.limits();
        let per_board = (words * 4).max(4) as u64;
        let max_binding = limits
            .max_storage_buffer_binding_size
            .min(limits.max_buffer_size);
        let max_chunk = (max_binding / per_board)
            .min(u64::from(MAX_GROUPS_X) * u64::from(MAX_GROUPS_X) * u64::from(WORKGROUP))
            .min(1 << 24) as usize;
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

/// The batch evaluator's shader: shaders/common.wgsl, then shaders/heuristic.wgsl.
pub(super) const HEURISTIC_WGSL: &str = concat!(
    include_str!("../../shaders/common.wgsl"),
    include_str!("../../shaders/heuristic.wgsl")
);

/// A shader module from WGSL source.
pub(super) fn shader_module(device: &wgpu::Device, label: &str, wgsl: &str) -> wgpu::ShaderModule {
    device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some(label),
        source: wgpu::ShaderSource::Wgsl(wgsl.into()),
    })
}

/// Bind-group entries binding each buffer whole at its number.
pub(super) fn entries<'a>(
    buffers: impl IntoIterator<Item = (u32, &'a wgpu::Buffer)>,
) -> Vec<wgpu::BindGroupEntry<'a>> {
    buffers
        .into_iter()
        .map(|(binding, buf)| wgpu::BindGroupEntry {
            binding,
            resource: buf.as_entire_binding(),
        })
        .collect()
}

/// The entries of shaders/common.wgsl's bindings: the pattern metadata (5) and the
/// [`TABLE_BINDINGS`] tables (6 on).
pub(super) fn table_entries<'a>(
    meta: &'a wgpu::Buffer,
    tables: &'a [wgpu::Buffer],
) -> Vec<wgpu::BindGroupEntry<'a>> {
    entries(std::iter::once((5, meta)).chain((6..).zip(tables)))
}

/// Maps the first `bytes` of `staging` (a `MAP_READ` buffer a submitted copy fills), waits for
/// the device, hands the words to `f`, and unmaps.
///
/// # Errors
/// [`EvalError::Device`] when the device fails or the mapping is refused.
pub(super) fn with_mapped<R>(
    device: &wgpu::Device,
    staging: &wgpu::Buffer,
    bytes: u64,
    f: impl FnOnce(&[u32]) -> R,
) -> Result<R, EvalError> {
    let error = |e: &dyn std::fmt::Display| EvalError::Device(e.to_string());
    let slice = staging.slice(0..bytes);
    let (tx, rx) = std::sync::mpsc::channel();
    slice.map_async(wgpu::MapMode::Read, move |r| {
        let _ = tx.send(r);
    });
    device
        .poll(wgpu::PollType::wait_indefinitely())
        .map_err(|e| error(&e))?;
    rx.recv().map_err(|e| error(&e))?.map_err(|e| error(&e))?;
    let r = {
        let view = slice.get_mapped_range().map_err(|e| error(&e))?;
        f(bytemuck::cast_slice(&view))
    };
    staging.unmap();
    Ok(r)
}

impl BatchEvaluator for GpuEvaluator {
    fn kind(&self) -> &'static str {
        "gpu"
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

/// The tables of `pdb` (a board of `n` cells), to be laid end to end, and the metadata the
/// shaders read them by ([`PdbMeta`] and one [`PatternMeta`] a pattern, offsets in bytes).
///
/// # Errors
/// [`GpuError::Unsupported`] for a pattern of more than [`GPU_MAX_PATTERN`] tiles or index
/// weights over 32 bits.
pub(super) fn pdb_layout(
    pdb: &crate::heuristic::pdb::AdditivePdb,
    n: usize,
) -> Result<PdbLayout<'_>, GpuError> {
    let mut parts: Vec<&[u8]> = Vec::new();
    let mut offset = 0u64;
    let mut head = PdbMeta::zeroed();
    head.patterns = pdb.tables().len() as u32;
    if let Some((phi, tmap)) = pdb.reflection()
        && n <= head.phi.len()
    {
        head.reflect = 1;
        for t in 0..n {
            head.phi[t] = u32::from(phi[t]);
            head.tmap[t] = u32::from(tmap[t]);
        }
    }
    let mut patterns = Vec::new();
    for t in pdb.tables() {
        let k = t.tiles().len();
        if k > GPU_MAX_PATTERN {
            return Err(GpuError::Unsupported(format!(
                "a pattern database with a pattern of {k} tiles"
            )));
        }
        let mut entry = PatternMeta::zeroed();
        entry.offset = u32::try_from(offset).map_err(|_| {
            GpuError::Unsupported("pattern tables of more than 4 GiB in all".into())
        })?;
        entry.k = k as u32;
        entry.regions = u32::from(t.regions());
        for (i, (&tile, &w)) in t.tiles().iter().zip(t.weights()).enumerate() {
            entry.tiles[i] = u32::from(tile);
            entry.weights[i] = u32::try_from(w).map_err(|_| {
                GpuError::Unsupported("a pattern database with index weights over 32 bits".into())
            })?;
        }
        patterns.push(entry);
        parts.push(t.bytes());
        offset += t.bytes().len() as u64;
    }
    Ok(PdbLayout {
        parts,
        head,
        patterns,
    })
}

/// What [`pdb_layout`] gives: the tables (borrowed, to be laid end to end in this order) and
/// the metadata the shaders read them by.
pub(super) struct PdbLayout<'a> {
    pub(super) parts: Vec<&'a [u8]>,
    pub(super) head: PdbMeta,
    pub(super) patterns: Vec<PatternMeta>,
}

/// Calls `f` with the pieces of `parts` (laid end to end) that hold bytes `start ..
/// start + len`, in order.
fn for_each_piece(parts: &[&[u8]], start: u64, len: u64, mut f: impl FnMut(&[u8])) {
    let (mut at, end) = (0u64, start + len);
    for part in parts {
        let (lo, hi) = (at.max(start), (at + part.len() as u64).min(end));
        if lo < hi {
            f(&part[(lo - at) as usize..(hi - at) as usize]);
        }
        at += part.len() as u64;
    }
}

#[cfg(test)]
mod tests {
    use super::for_each_piece;

    /// Every range of the parts laid end to end comes out whole and in order, across part
    /// boundaries and empty parts.
    #[test]
    fn pieces_cover_each_range_of_the_parts_end_to_end() {
        let parts: [&[u8]; 4] = [&[1, 2, 3], &[], &[4, 5], &[6, 7, 8, 9, 10]];
        let flat: Vec<u8> = parts.concat();
        for start in 0..=flat.len() {
            for len in 0..=flat.len() - start {
                let mut got = Vec::new();
                for_each_piece(&parts, start as u64, len as u64, |p| {
                    assert!(!p.is_empty());
                    got.extend_from_slice(p);
                });
                assert_eq!(got, flat[start..start + len], "start {start}, len {len}");
            }
        }
    }
}
