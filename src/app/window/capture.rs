//! Pictures of the window: `--screenshot`'s (when the solve has ended, saved as PNG, then
//! exit) and the UI's screenshot requests (a view exported as PNG), each a frame rendered
//! offscreen and read back.

use std::sync::Arc;
use std::time::Instant;

use egui_wgpu::wgpu;
use winit::event_loop::ActiveEventLoop;

use super::{App, HINT_WAIT};
use crate::app::AppError;
use crate::app::state::RunState;

impl App {
    /// The `--screenshot` flow: once the solve has ended and a few frames have shown it, render
    /// one more frame offscreen, save it as PNG and exit.
    pub(super) fn after_frame(&mut self, el: &ActiveEventLoop) {
        let Some(path) = self.opts.screenshot.clone() else {
            return;
        };
        let Some(st) = &self.state else { return };
        let finished = !st.is_running() && (!self.opts.solve || *st.run.state() != RunState::Idle);
        if !finished {
            return;
        }
        self.settled_frames += 1;
        let since = *self.settled_since.get_or_insert_with(Instant::now);
        // The coach's line ("N moves to solve from here") comes from its own thread: the
        // picture waits a while for it rather than show "computing…" (a board whose answer
        // takes longer than that is captured as it is).
        if self.settled_frames < 3 || (st.play.thinking() && since.elapsed() < HINT_WAIT) {
            return;
        }
        let failure = match st.run.state() {
            RunState::Failed(m) => Some(m.clone()),
            _ => None,
        };
        match self.capture(&path) {
            Ok(()) => {
                crate::note!("npuzzle: saved {}", path.display());
                if let Some(m) = failure {
                    self.fail(el, AppError::Solve(m));
                } else {
                    el.exit();
                }
            }
            Err(e) => self.fail(el, e),
        }
    }

    /// Answers the screenshots asked for with a frame rendered offscreen now (an empty
    /// picture when it cannot be had: the view's save then says so).
    pub(super) fn answer_shots(&mut self) {
        if self.shots.is_empty() {
            return;
        }
        let shots = std::mem::take(&mut self.shots);
        let image = self.capture_image().unwrap_or_else(|e| {
            crate::note!("npuzzle: {e}");
            egui::ColorImage::filled([0, 0], egui::Color32::BLACK)
        });
        let image = Arc::new(image);
        for s in shots {
            s.complete(image.clone());
        }
        if let Some(g) = &self.gfx {
            g.window.request_redraw();
        }
    }

    /// Saves the next frame, rendered offscreen, as a PNG at `path`.
    fn capture(&mut self, path: &std::path::Path) -> Result<(), AppError> {
        let image = self.capture_image()?;
        let png_bytes = crate::app::views::export::png_bytes(&image)
            .map_err(|e| AppError::Screenshot(e.into()))?;
        crate::files::write_atomic(path, &png_bytes).map_err(|source| AppError::SaveScreenshot {
            path: path.to_path_buf(),
            source,
        })
    }

    /// The next frame, rendered offscreen and read back.
    fn capture_image(&mut self) -> Result<egui::ColorImage, AppError> {
        let Some(g) = &self.gfx else {
            return Err(AppError::NoWindowToCapture);
        };
        let (w, h, format) = (g.config.width, g.config.height, g.config.format);
        let device = g.ctx.device.clone();
        let queue = g.ctx.queue.clone();
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("screenshot"),
            size: wgpu::Extent3d {
                width: w,
                height: h,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
        self.frame(&view, [w, h]);
        let row = (w * 4).div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT)
            * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("screenshot"),
            size: u64::from(row) * u64::from(h),
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        let mut enc =
            device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
        enc.copy_texture_to_buffer(
            wgpu::TexelCopyTextureInfo {
                texture: &texture,
                mip_level: 0,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            wgpu::TexelCopyBufferInfo {
                buffer: &buffer,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(row),
                    rows_per_image: Some(h),
                },
            },
            wgpu::Extent3d {
                width: w,
                height: h,
                depth_or_array_layers: 1,
            },
        );
        queue.submit(Some(enc.finish()));
        let slice = buffer.slice(..);
        let (tx, rx) = std::sync::mpsc::channel();
        slice.map_async(wgpu::MapMode::Read, move |r| {
            let _ = tx.send(r);
        });
        device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| AppError::Screenshot(e.into()))?;
        rx.recv()
            .map_err(|e| AppError::Screenshot(e.into()))?
            .map_err(|e| AppError::Screenshot(e.into()))?;
        let bgra = matches!(
            format,
            wgpu::TextureFormat::Bgra8Unorm | wgpu::TextureFormat::Bgra8UnormSrgb
        );
        let mut rgba = Vec::with_capacity((w * h * 4) as usize);
        {
            let data = slice
                .get_mapped_range()
                .map_err(|e| AppError::Screenshot(e.into()))?;
            for y in 0..h as usize {
                let line = &data[y * row as usize..y * row as usize + w as usize * 4];
                for px in line.chunks_exact(4) {
                    if bgra {
                        rgba.extend_from_slice(&[px[2], px[1], px[0], 255]);
                    } else {
                        rgba.extend_from_slice(&[px[0], px[1], px[2], 255]);
                    }
                }
            }
        }
        buffer.unmap();
        Ok(egui::ColorImage::from_rgba_unmultiplied(
            [w as usize, h as usize],
            &rgba,
        ))
    }
}
