//! GPU IDA*'s buffers ([`Buffers`]): the round's parameters, the invocations' stacks, the
//! status block and its staging copy, the constants, the pattern tables and metadata, and the
//! work items' ring with the bind group that names them all.

use wgpu::util::DeviceExt;

use super::ST_HEADER;
use super::shape::Shape;
use crate::eval::EvalError;
use crate::eval::gpu::{GpuContext, GpuError};
use crate::eval::gpu_context::{entries, with_mapped};
use crate::eval::gpu_layout::IDA_META_WORDS;
use crate::eval::ida::{HIST_G, HIST_H};

/// The buffers `IDASTAR_WGSL` binds (see `bind_group_layout` in `pipelines.rs` for the
/// bindings), and the staging buffer its status block is read back through.
pub(super) struct Buffers {
    /// The round's parameters: a 32-byte uniform (binding 0).
    pub(super) params: wgpu::Buffer,
    /// The invocations' stacks, [`Shape::state_words`] words each, interleaved (binding 2).
    pub(super) stacks: wgpu::Buffer,
    /// The status block, then the `(g, h)` histogram (binding 3): `ST_HEADER + HIST_G ·
    /// HIST_H` words.
    pub(super) status: wgpu::Buffer,
    /// Where the status block (or the solution's words) is copied to be read back: as many
    /// bytes as `status`.
    pub(super) staging: wgpu::Buffer,
    /// The constants (binding 4): [`Shape::consts`], then the pruning automaton once it is
    /// set ([`Buffers::set_consts`]).
    pub(super) consts: wgpu::Buffer,
    /// Whether `consts` holds the pruning automaton.
    pub(super) pruning_set: bool,
    /// The pattern metadata: a uniform of `IDA_META_WORDS` words (binding 12).
    meta: wgpu::Buffer,
    /// The pattern tables' storage bindings (6–11).
    tables: Vec<wgpu::Buffer>,
    /// The tables as one texture (binding 13) when they fit one; else an empty texture, and
    /// the tables in `tables`.
    texture: wgpu::TextureView,
    /// The work items' ring and the bind group naming it ([`Buffers::ensure_items`]); `None`
    /// until the first iteration, or after the constants changed.
    pub(super) items: Option<Items>,
}

/// The work items' ring (binding 1) and the bind group of every buffer with it.
pub(super) struct Items {
    pub(super) buffer: wgpu::Buffer,
    pub(super) group: wgpu::BindGroup,
    /// Work items the buffer holds.
    pub(super) capacity: u32,
}

impl Buffers {
    /// The buffers for `shape` on `ctx`'s device: the pattern metadata words `meta` (zeros
    /// without pattern databases), the `tables` in storage buffers or in `texture` (see
    /// [`place_tables`]). The work items come with the first iteration.
    ///
    /// # Errors
    /// [`GpuError::Adapter`] when the stacks do not fit one binding ([`stacks_fit`]).
    pub(super) fn new(
        ctx: &GpuContext,
        shape: &Shape,
        meta: Option<Vec<u32>>,
        tables: Vec<wgpu::Buffer>,
        texture: wgpu::TextureView,
    ) -> Result<Buffers, GpuError> {
        let device = &ctx.device;
        let storage_buf = |label: &str, size: u64, extra: wgpu::BufferUsages| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: size.max(4),
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST | extra,
                mapped_at_creation: false,
            })
        };
        let meta = meta.unwrap_or_else(|| vec![0; IDA_META_WORDS]);
        let meta = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("pattern meta"),
            contents: bytemuck::cast_slice(&meta),
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        });
        let consts = storage_buf(
            "consts",
            shape.consts.len() as u64 * 4,
            wgpu::BufferUsages::empty(),
        );
        ctx.queue
            .write_buffer(&consts, 0, bytemuck::cast_slice(&shape.consts));
        let state_words = shape.state_words();
        stacks_fit(&device.limits(), state_words, shape.invocations)?;
        let stacks = storage_buf(
            "stacks",
            state_words as u64 * u64::from(shape.invocations) * 4,
            wgpu::BufferUsages::COPY_SRC,
        );
        let status_bytes = (ST_HEADER + HIST_G * HIST_H) as u64 * 4;
        let status = storage_buf("status", status_bytes, wgpu::BufferUsages::COPY_SRC);
        let (staging, params) = round_buffers(device, status_bytes);
        Ok(Buffers {
            params,
            stacks,
            status,
            staging,
            consts,
            pruning_set: false,
            meta,
            tables,
            texture,
            items: None,
        })
    }

    /// Replaces the constants with `words` ([`Shape::consts`] then the pruning automaton),
    /// and drops the items' bind group, which names the old buffer (the next iteration makes
    /// a new one).
    pub(super) fn set_consts(&mut self, device: &wgpu::Device, words: &[u32]) {
        self.consts = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("consts"),
            contents: bytemuck::cast_slice(words),
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
        });
        self.items = None;
        self.pruning_set = true;
    }

    /// The items buffer (work items of `item_words` words) and its bind group (laid out by
    /// `layout`) for at least `capacity` work items. Returns the buffer's capacity: at least
    /// `capacity`; a new buffer has half as much again, up to `most`.
    pub(super) fn ensure_items(
        &mut self,
        device: &wgpu::Device,
        layout: &wgpu::BindGroupLayout,
        item_words: usize,
        capacity: u32,
        most: u32,
    ) -> u32 {
        if let Some(items) = &self.items
            && items.capacity >= capacity
        {
            return items.capacity;
        }
        let capacity = capacity
            .saturating_add(capacity / 2)
            .min(most)
            .max(capacity);
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("work items"),
            size: u64::from(capacity) * item_words as u64 * 4,
            usage: wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::COPY_DST
                | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let group = self.bind_group(device, layout, &buffer);
        self.items = Some(Items {
            buffer,
            group,
            capacity,
        });
        capacity
    }

    /// The bind group of every buffer, `items` the work items' (see `bind_group_layout`).
    fn bind_group(
        &self,
        device: &wgpu::Device,
        layout: &wgpu::BindGroupLayout,
        items: &wgpu::Buffer,
    ) -> wgpu::BindGroup {
        let own = [
            &self.params,
            items,
            &self.stacks,
            &self.status,
            &self.consts,
        ];
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
        device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("gpu idastar"),
            layout,
            entries: &entries,
        })
    }

    /// The first `bytes` of the staging buffer, read back as words.
    ///
    /// # Errors
    /// [`EvalError::Device`] when mapping fails.
    pub(super) fn map_staging(
        &self,
        device: &wgpu::Device,
        bytes: u64,
    ) -> Result<Vec<u32>, EvalError> {
        with_mapped(device, &self.staging, bytes, <[u32]>::to_vec)
    }
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
pub(super) fn place_tables(
    ctx: &GpuContext,
    tables: &[&[u8]],
) -> Result<(wgpu::TextureView, u32, Vec<wgpu::Buffer>, u32), GpuError> {
    Ok(match ctx.table_texture(tables)? {
        Some((view, width)) => (view, width, ctx.table_buffers(&[], 0)?, 1),
        None => {
            let table_bytes: usize = tables.iter().map(|t| t.len()).sum();
            let count = table_bytes.div_ceil(1 << ctx.table_shift()).max(1) as u32;
            (
                ctx.empty_table_texture(),
                0,
                ctx.table_buffers(tables, ctx.max_ida_table_bytes())?,
                count,
            )
        }
    })
}

/// The buffers each round reads back and writes: the staging copy of the status block
/// (`status_bytes`) and the 48-byte uniform of the round's parameters.
fn round_buffers(device: &wgpu::Device, status_bytes: u64) -> (wgpu::Buffer, wgpu::Buffer) {
    let staging = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("status staging"),
        size: status_bytes,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let params = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("params"),
        size: 48,
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    (staging, params)
}
