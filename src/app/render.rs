//! The wgpu render pipeline that draws the board and the heatmap (`shaders/quads.wgsl`),
//! as an egui-wgpu paint callback inside egui's render pass.

use std::collections::HashMap;
use std::sync::Arc;

use egui_wgpu::wgpu;

/// One rounded rectangle, in points relative to its view's top-left corner.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct Quad {
    /// x0, y0, x1, y1.
    pub rect: [f32; 4],
    /// Straight RGBA in 0..=1 (gamma-encoded, like egui colours).
    pub color: [f32; 4],
    /// Corner radius (points), shading (0 = flat), unused, unused.
    pub style: [f32; 4],
}

impl Quad {
    /// A quad over `r` (relative to the view's origin `o`) with colour `c`.
    pub fn new(o: egui::Pos2, r: egui::Rect, c: egui::Color32, radius: f32, shade: f32) -> Quad {
        let [red, g, b, a] = c.to_srgba_unmultiplied();
        Quad {
            rect: [r.min.x - o.x, r.min.y - o.y, r.max.x - o.x, r.max.y - o.y],
            color: [
                f32::from(red) / 255.0,
                f32::from(g) / 255.0,
                f32::from(b) / 255.0,
                f32::from(a) / 255.0,
            ],
            style: [radius, shade, 0.0, 0.0],
        }
    }
}

/// Draws a list of quads over a rect of the UI.
pub trait QuadPainter {
    /// Draws `quads` (relative to `rect.min`) in `rect`; `id` names the view (board, heatmap).
    /// The same `Arc` drawn again (a view's cached geometry) is not uploaded again.
    fn paint(&mut self, ui: &egui::Ui, rect: egui::Rect, id: u64, quads: Arc<Vec<Quad>>);
}

/// The real painter: an egui-wgpu callback that runs our pipeline.
pub struct WgpuQuads;

impl QuadPainter for WgpuQuads {
    fn paint(&mut self, ui: &egui::Ui, rect: egui::Rect, id: u64, quads: Arc<Vec<Quad>>) {
        let cb = QuadCallback {
            id,
            size: [rect.width().max(1.0), rect.height().max(1.0)],
            quads,
        };
        ui.painter()
            .add(egui_wgpu::Callback::new_paint_callback(rect, cb));
    }
}

/// A painter for tests and for builds without a GPU surface: egui's own rectangles.
pub struct EguiQuads;

impl QuadPainter for EguiQuads {
    fn paint(&mut self, ui: &egui::Ui, rect: egui::Rect, _id: u64, quads: Arc<Vec<Quad>>) {
        let p = ui.painter();
        for q in quads.iter() {
            let r = egui::Rect::from_min_max(
                rect.min + egui::vec2(q.rect[0], q.rect[1]),
                rect.min + egui::vec2(q.rect[2], q.rect[3]),
            );
            let c = |x: f32| (x * 255.0).round() as u8;
            let col = egui::Color32::from_rgba_unmultiplied(
                c(q.color[0]),
                c(q.color[1]),
                c(q.color[2]),
                c(q.color[3]),
            );
            p.rect_filled(r, q.style[0], col);
        }
    }
}

struct QuadCallback {
    id: u64,
    size: [f32; 2],
    quads: Arc<Vec<Quad>>,
}

struct ViewBuffers {
    uniform: wgpu::Buffer,
    instances: wgpu::Buffer,
    capacity: usize,
    count: u32,
    bind_group: wgpu::BindGroup,
    /// The quads last written to `instances` (kept, so that the same list is not written
    /// again).
    uploaded: Option<Arc<Vec<Quad>>>,
}

/// Pipeline and per-view buffers, kept in egui-wgpu's callback resources.
pub struct QuadResources {
    pipeline: wgpu::RenderPipeline,
    layout: wgpu::BindGroupLayout,
    views: HashMap<u64, ViewBuffers>,
}

impl QuadResources {
    /// Builds the pipeline for the colour format of egui's render pass.
    pub fn new(device: &wgpu::Device, format: wgpu::TextureFormat) -> QuadResources {
        let module = device.create_shader_module(wgpu::include_wgsl!("../../shaders/quads.wgsl"));
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("quads"),
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::VERTEX,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            }],
        });
        let pl = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("quads"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let attrs = wgpu::vertex_attr_array![0 => Float32x4, 1 => Float32x4, 2 => Float32x4];
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("quads"),
            layout: Some(&pl),
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("vs_main"),
                compilation_options: Default::default(),
                buffers: &[Some(wgpu::VertexBufferLayout {
                    array_stride: std::mem::size_of::<Quad>() as u64,
                    step_mode: wgpu::VertexStepMode::Instance,
                    attributes: &attrs,
                })],
            },
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some("fs_main"),
                compilation_options: Default::default(),
                targets: &[Some(wgpu::ColorTargetState {
                    format,
                    blend: Some(wgpu::BlendState::ALPHA_BLENDING),
                    write_mask: wgpu::ColorWrites::ALL,
                })],
            }),
            primitive: wgpu::PrimitiveState {
                topology: wgpu::PrimitiveTopology::TriangleStrip,
                ..Default::default()
            },
            depth_stencil: None,
            multisample: wgpu::MultisampleState::default(),
            multiview_mask: None,
            cache: None,
        });
        QuadResources {
            pipeline,
            layout,
            views: HashMap::new(),
        }
    }
}

impl egui_wgpu::CallbackTrait for QuadCallback {
    fn prepare(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        _screen: &egui_wgpu::ScreenDescriptor,
        _encoder: &mut wgpu::CommandEncoder,
        resources: &mut egui_wgpu::CallbackResources,
    ) -> Vec<wgpu::CommandBuffer> {
        let Some(res) = resources.get_mut::<QuadResources>() else {
            return Vec::new();
        };
        let needed = self.quads.len().max(1);
        let grow = res.views.get(&self.id).is_none_or(|v| v.capacity < needed);
        if grow {
            let capacity = needed.next_power_of_two().max(64);
            let uniform = device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("quads view"),
                size: 16,
                usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
            let instances = device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("quads"),
                size: (capacity * std::mem::size_of::<Quad>()) as u64,
                usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
            let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("quads view"),
                layout: &res.layout,
                entries: &[wgpu::BindGroupEntry {
                    binding: 0,
                    resource: uniform.as_entire_binding(),
                }],
            });
            res.views.insert(
                self.id,
                ViewBuffers {
                    uniform,
                    instances,
                    capacity,
                    count: 0,
                    bind_group,
                    uploaded: None,
                },
            );
        }
        if let Some(v) = res.views.get_mut(&self.id) {
            queue.write_buffer(
                &v.uniform,
                0,
                bytemuck::cast_slice(&[self.size[0], self.size[1], 0.0, 0.0]),
            );
            let same = v
                .uploaded
                .as_ref()
                .is_some_and(|u| Arc::ptr_eq(u, &self.quads));
            if !self.quads.is_empty() && !same {
                queue.write_buffer(&v.instances, 0, bytemuck::cast_slice(&self.quads));
                v.uploaded = Some(self.quads.clone());
            }
            v.count = self.quads.len() as u32;
        }
        Vec::new()
    }

    fn paint(
        &self,
        _info: egui::PaintCallbackInfo,
        pass: &mut wgpu::RenderPass<'static>,
        resources: &egui_wgpu::CallbackResources,
    ) {
        let Some(res) = resources.get::<QuadResources>() else {
            return;
        };
        let Some(v) = res.views.get(&self.id) else {
            return;
        };
        if v.count == 0 {
            return;
        }
        pass.set_pipeline(&res.pipeline);
        pass.set_bind_group(0, &v.bind_group, &[]);
        pass.set_vertex_buffer(0, v.instances.slice(..));
        pass.draw(0..4, 0..v.count);
    }
}
