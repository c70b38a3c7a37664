//! The GPU device that both GPU programs share: [`GpuContext`] (adapter, device, queue, the
//! limits that size the table bindings), [`GpuError`], the pattern tables laid out for the
//! shaders ([`pdb_layout`], split over [`TABLE_BINDINGS`] storage buffers), and the small
//! helpers around wgpu (shader modules, bind-group entries, a mapped read-back).

use std::sync::Arc;

use bytemuck::Zeroable;

use super::EvalError;
use super::gpu_layout::{GPU_MAX_PATTERN, GPU_MAX_SIDE, PatternMeta, PdbMeta};

/// Storage bindings the pattern tables are split over (both shaders).
pub(super) const TABLE_BINDINGS: usize = 6;

/// Why the GPU evaluator is not available.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GpuError {
    /// No wgpu adapter (no Vulkan/Metal/DX12/GL driver).
    #[error("no GPU adapter found: {0}")]
    NoAdapter(String),
    /// The adapter refused to create a device, or the device failed (a copy or a wait).
    #[error("GPU device error: {0}")]
    Device(String),
    /// This adapter's limits are below what the program needs (e.g. storage buffers a stage):
    /// another GPU may take it.
    #[error("this GPU adapter cannot run it: {0}")]
    Adapter(String),
    /// The board is larger than the shader supports.
    #[error(
        "the GPU evaluator supports boards up to {GPU_MAX_SIDE}×{GPU_MAX_SIDE}; this one is {0}×{1}"
    )]
    TooLarge(usize, usize),
    /// The board is larger than GPU IDA* takes (rows, cols).
    #[error(
        "GPU IDA* takes boards of at most {cells} cells with sides up to {side}; this one is {0}×{1}",
        cells = super::gpu_layout::GPU_IDA_MAX_CELLS,
        side = super::gpu_layout::GPU_IDA_MAX_SIDE
    )]
    TooLargeForIda(usize, usize),
    /// Pattern tables larger than the storage bindings of this device take.
    #[error(
        "the pattern tables take {bytes} bytes, more than this GPU's {limit} bytes (six storage bindings)"
    )]
    TablesTooLarge {
        /// Bytes of all tables.
        bytes: u64,
        /// [`GpuContext::max_table_bytes`] (the evaluator) or
        /// [`GpuContext::max_ida_table_bytes`] (GPU IDA*).
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
        .map_err(|e| GpuError::Device(format!("the device could not be created: {e}")))?;
        Ok(Arc::new(GpuContext {
            device,
            queue,
            info: adapter.get_info(),
            table_shift_cap: std::sync::atomic::AtomicU32::new(0),
        }))
    }

    /// The most bytes of pattern tables the batch evaluator takes on this device: six storage
    /// bindings of the largest power of two it binds, at most 4 GiB in all (its shader
    /// addresses bytes with 32 bits; 768 MiB on lavapipe, whose bindings take 128 MiB; 4 GiB on
    /// GPUs that bind 1 GiB or more).
    pub fn max_table_bytes(&self) -> u64 {
        self.max_ida_table_bytes().min(u64::from(u32::MAX))
    }

    /// The most bytes of pattern tables GPU IDA* takes on this device in storage bindings:
    /// six of the largest power of two it binds, up to 2 GiB each (its shader addresses words;
    /// 768 MiB on lavapipe, 12 GiB on a GPU that binds 2 GiB or more). Tables that fit one
    /// texture (the largest width squared, 4 bytes a texel: 1 GiB on lavapipe, 4 GiB where
    /// textures are 32,768 wide) are read from it instead, whatever this says.
    pub fn max_ida_table_bytes(&self) -> u64 {
        (1u64 << self.table_shift()) * TABLE_BINDINGS as u64
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
    /// [`GpuError::Device`] when the device refuses a copy.
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
            .map_err(|e| GpuError::Device(e.to_string()))
    }

    /// Pattern tables (`parts`, end to end; at most `limit` bytes: the evaluator's
    /// [`GpuContext::max_table_bytes`] or GPU IDA*'s [`GpuContext::max_ida_table_bytes`]) as
    /// [`TABLE_BINDINGS`] storage buffers of `1 << table_shift()` bytes each (the unused ones 4 bytes). The bytes go from `parts`
    /// straight into wgpu's staging memory, one binding at a time, each copy finished before
    /// the next begins: beside the tables themselves, at most one binding's bytes are held.
    ///
    /// # Errors
    /// [`GpuError::TablesTooLarge`] beyond `limit`;
    /// [`GpuError::Device`] when the device refuses the copy.
    pub(super) fn table_buffers(
        &self,
        parts: &[&[u8]],
        limit: u64,
    ) -> Result<Vec<wgpu::Buffer>, GpuError> {
        let total: u64 = parts.iter().map(|p| p.len() as u64).sum();
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
        let refused =
            || GpuError::Device("a copy of the pattern tables to the device failed".into());
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

    /// Whether the adapter is a software rasterizer (lavapipe, llvmpipe) rather than a GPU.
    pub fn is_software(&self) -> bool {
        self.info.device_type == wgpu::DeviceType::Cpu
    }

    /// `name / backend`, e.g. `llvmpipe (LLVM 15.0.6, 256 bits) / Vulkan`.
    pub fn describe(&self) -> String {
        format!("{} / {:?}", self.info.name, self.info.backend)
    }
}
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

/// The tables of `pdb` (a board of `n` cells), to be laid end to end (each from a word
/// boundary), and the metadata the shaders read them by ([`PdbMeta`] and one [`PatternMeta`]
/// a pattern, offsets in bytes; GPU IDA*'s in words).
///
/// # Errors
/// [`GpuError::Unsupported`] for a pattern of more than [`GPU_MAX_PATTERN`] tiles or index
/// weights over 32 bits.
pub(super) fn pdb_layout(
    pdb: &crate::heuristic::pdb::AdditivePdb,
    n: usize,
) -> Result<PdbLayout<'_>, GpuError> {
    tables_layout(pdb.tables(), pdb.reflection(), pdb.reads_regions(), n)
}

/// [`pdb_layout`] for the distinct tables of a maximum over partitions
/// ([`PdbMax`](crate::heuristic::pdb::PdbMax)), in its order.
///
/// # Errors
/// As [`pdb_layout`].
pub(super) fn pdbmax_layout(
    pdb: &crate::heuristic::pdb::PdbMax,
    n: usize,
) -> Result<PdbLayout<'_>, GpuError> {
    tables_layout(pdb.tables(), pdb.reflection(), pdb.reads_regions(), n)
}

/// The layout of `tables` (laid end to end in this order), looked up on the reflection
/// `reflection` (φ, T) too when there is one, their flags read when `reads_regions`.
fn tables_layout<'a>(
    tables: &'a [std::sync::Arc<crate::heuristic::pdb::PatternTable>],
    reflection: Option<(&[u8], &[u8])>,
    reads_regions: bool,
    n: usize,
) -> Result<PdbLayout<'a>, GpuError> {
    // Zeros that bring a table to whole words, so that the next starts on one.
    const PAD: [u8; 3] = [0; 3];
    let mut parts: Vec<&[u8]> = Vec::new();
    let mut word_offsets = Vec::new();
    let mut offset = 0u64;
    let mut head = PdbMeta::zeroed();
    head.patterns = tables.len() as u32;
    if let Some((phi, tmap)) = reflection
        && n <= head.phi.len()
    {
        head.reflect = 1;
        for t in 0..n {
            head.phi[t] = u32::from(phi[t]);
            head.tmap[t] = u32::from(tmap[t]);
        }
    }
    let mut patterns = Vec::new();
    for t in tables {
        let k = t.tiles().len();
        if k > GPU_MAX_PATTERN {
            return Err(GpuError::Unsupported(format!(
                "a pattern database with a pattern of {k} tiles"
            )));
        }
        if t.regions() && !reads_regions {
            return Err(GpuError::Unsupported(
                "a pattern database with its blank-region flags switched off (--pdb-regions off)"
                    .into(),
            ));
        }
        let mut entry = PatternMeta::zeroed();
        // Byte offsets past 4 GiB are only read by GPU IDA* (by `word_offsets`); the
        // evaluator takes at most 4 GiB of tables in all.
        entry.offset = u32::try_from(offset).unwrap_or(u32::MAX);
        word_offsets.push(u32::try_from(offset / 4).map_err(|_| {
            GpuError::Unsupported("pattern tables of more than 16 GiB in all".into())
        })?);
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
        let len = t.bytes().len() as u64;
        parts.push(&PAD[..(len.next_multiple_of(4) - len) as usize]);
        offset += len.next_multiple_of(4);
    }
    Ok(PdbLayout {
        parts,
        head,
        patterns,
        word_offsets,
    })
}

/// What [`pdb_layout`] gives: the tables (borrowed, to be laid end to end in this order) and
/// the metadata the shaders read them by.
pub(super) struct PdbLayout<'a> {
    /// The tables, each followed by the zeros that bring it to whole words.
    pub(super) parts: Vec<&'a [u8]>,
    pub(super) head: PdbMeta,
    /// Each pattern's metadata (its `offset` in bytes, `u32::MAX` past 4 GiB).
    pub(super) patterns: Vec<PatternMeta>,
    /// Each table's first word (its byte offset ÷ 4), as GPU IDA* reads it.
    pub(super) word_offsets: Vec<u32>,
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
