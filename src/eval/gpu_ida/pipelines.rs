//! GPU IDA*'s shader and pipelines ([`Pipelines`]): the module, the layout of its bindings,
//! and the pipelines without and with the `(g, h)` histogram, each without and with work
//! handed on within a round, compiled on first use.

use super::IDASTAR_WGSL;
use super::shape::Shape;
use crate::eval::gpu_context::{TABLE_BINDINGS, shader_module};

/// `IDASTAR_WGSL` compiled for one [`Shape`]: the module, its bindings' layout and its four
/// pipelines (index: 1 with the histogram, + 2 handing work on within a round).
pub(super) struct Pipelines {
    module: wgpu::ShaderModule,
    /// The bindings of `IDASTAR_WGSL` ([`bind_group_layout`]).
    pub(super) layout: wgpu::BindGroupLayout,
    pipeline_layout: wgpu::PipelineLayout,
    compiled: [Option<wgpu::ComputePipeline>; 4],
}

impl Pipelines {
    /// The shader module and layouts on `device`; no pipeline compiled yet.
    pub(super) fn new(device: &wgpu::Device) -> Pipelines {
        let layout = bind_group_layout(device);
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("gpu idastar"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let module = shader_module(device, "gpu idastar", IDASTAR_WGSL);
        Pipelines {
            module,
            layout,
            pipeline_layout,
            compiled: [None, None, None, None],
        }
    }

    /// The pipeline for `shape` with or without the `histogram`, handing work on within a
    /// round or not (`live`), compiled on first use.
    pub(super) fn get(
        &mut self,
        device: &wgpu::Device,
        shape: &Shape,
        histogram: bool,
        live: bool,
    ) -> &wgpu::ComputePipeline {
        let slot = usize::from(histogram) + 2 * usize::from(live);
        if self.compiled[slot].is_none() {
            let constants = shape.constants(histogram, live);
            let p = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
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
            self.compiled[slot] = Some(p);
        }
        self.compiled[slot].as_ref().expect("compiled above")
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
