//! The window: winit event loop, wgpu surface, egui-winit input, egui-wgpu rendering, and the
//! `--screenshot` capture.

use std::sync::Arc;
use std::time::Instant;

use egui_wgpu::wgpu;
use winit::application::ApplicationHandler;
use winit::event::WindowEvent;
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop, EventLoopProxy};
use winit::window::{Window, WindowId};

use super::AppError;
use super::panels::{self, NativeDialogs};
use super::render::{QuadResources, WgpuQuads};
use super::state::{AppState, Saved};
use crate::cli::GuiRequest;
use crate::eval::gpu::GpuContext;

mod capture;
mod kept;

struct Gfx {
    window: Arc<Window>,
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    ctx: Arc<GpuContext>,
    renderer: egui_wgpu::Renderer,
    egui_ctx: egui::Context,
    egui_state: egui_winit::State,
}

/// How long `--screenshot` waits for the coach's answer after the solve has ended.
const HINT_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

struct App {
    opts: GuiRequest,
    state: Option<AppState>,
    gfx: Option<Gfx>,
    result: Result<(), AppError>,
    clock: Instant,
    last_frame: Option<Instant>,
    /// Frames rendered since the solve finished, and when it was first seen finished (the
    /// screenshot waits for a settled frame and, a while, for the coach's answer).
    settled_frames: u32,
    settled_since: Option<Instant>,
    /// Frames rendered while a search ran, and the seconds they spanned.
    search_frames: (u64, f64),
    /// Seconds spent inside `frame` (UI + render submission) while a search ran.
    search_frame_work: f64,
    /// The window title last set.
    title: String,
    /// When egui wants the next frame, if it asked for one.
    repaint_at: Option<Instant>,
    /// Something changed since the last frame (a snapshot, an answer) and is not yet drawn.
    stale: bool,
    /// Screenshots the UI asked for (a view saved as PNG), answered after the frame.
    shots: Vec<egui::ScreenshotCallback>,
    /// The settings kept between runs (`None` for `--screenshot`).
    kept: Option<kept::Kept>,
    /// Where the screen reader's requests come from (AccessKit's adapter sends them as the
    /// event loop's user events).
    proxy: EventLoopProxy<AccessKitEvent>,
}

/// What the screen reader (through AccessKit) asks of the window.
type AccessKitEvent = egui_winit::accesskit_winit::Event;

/// The least time between two frames that show a running search's snapshots (about 30 a
/// second): on a software renderer each frame costs the renderer's threads tens of
/// milliseconds that the search would otherwise have.
const SEARCH_FRAME_GAP: std::time::Duration = std::time::Duration::from_millis(33);

/// The least time between two frames while a search runs at full speed (not stepped).
const FAST_SEARCH_FRAME_GAP: std::time::Duration = std::time::Duration::from_millis(100);

/// The time between two frames of an animation (a tile sliding, the solution playing).
const SMOOTH_FRAME_GAP: std::time::Duration = std::time::Duration::from_millis(16);

/// Opens the window and runs until it is closed (or the screenshot is saved).
///
/// # Errors
/// [`AppError`] when no window or graphics adapter can be had, or the screenshot fails.
pub fn run(opts: GuiRequest) -> Result<(), AppError> {
    let event_loop = EventLoop::<AccessKitEvent>::with_user_event()
        .build()
        .map_err(|e| AppError::Window(e.into()))?;
    event_loop.set_control_flow(ControlFlow::Wait);
    let mut app = App {
        proxy: event_loop.create_proxy(),
        opts,
        state: None,
        gfx: None,
        result: Ok(()),
        clock: Instant::now(),
        last_frame: None,
        settled_frames: 0,
        settled_since: None,
        search_frames: (0, 0.0),
        search_frame_work: 0.0,
        title: String::new(),
        repaint_at: None,
        stale: false,
        shots: Vec::new(),
        kept: None,
    };
    event_loop
        .run_app(&mut app)
        .map_err(|e| AppError::Window(e.into()))?;
    app.result
}

impl App {
    fn fail(&mut self, el: &ActiveEventLoop, e: AppError) {
        self.result = Err(e);
        el.exit();
    }

    fn init(&mut self, el: &ActiveEventLoop) -> Result<(), AppError> {
        // Automation runs (`--screenshot`) neither read nor write the user's settings.
        let file = self.opts.screenshot.is_none().then(Saved::load);
        let kept_size = file.as_ref().and_then(|(s, _)| s.as_ref()?.window);
        // Invisible until AccessKit's adapter is set up on it (as AccessKit requires).
        let attrs = Window::default_attributes()
            .with_visible(false)
            .with_title("npuzzle")
            .with_window_icon(kept::icon())
            .with_inner_size(kept::first_size(
                // Wayland has no primary monitor: the first one known.
                el.primary_monitor()
                    .or_else(|| el.available_monitors().next())
                    .map(|m| {
                        let size = m.size();
                        (size.width, size.height, m.scale_factor())
                    }),
                kept_size,
            ));
        let window = Arc::new(
            el.create_window(attrs)
                .map_err(|e| AppError::Window(e.into()))?,
        );
        let instance =
            wgpu::Instance::new(wgpu::InstanceDescriptor::new_with_display_handle_from_env(
                Box::new(el.owned_display_handle()),
            ));
        let surface = instance
            .create_surface(window.clone())
            .map_err(|e| AppError::NoAdapter(e.into()))?;
        let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::HighPerformance,
            force_fallback_adapter: false,
            compatible_surface: Some(&surface),
            apply_limit_buckets: false,
        }))
        .map_err(|e| AppError::NoAdapter(e.into()))?;
        let ctx = GpuContext::from_adapter(&adapter).map_err(|e| AppError::NoAdapter(e.into()))?;
        let caps = surface.get_capabilities(&adapter);
        let format = egui_wgpu::preferred_framebuffer_format(&caps.formats)
            .map_err(|e| AppError::NoAdapter(e.into()))?;
        let size = window.inner_size();
        let config = wgpu::SurfaceConfiguration {
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
            format,
            color_space: wgpu::SurfaceColorSpace::Auto,
            width: size.width.max(1),
            height: size.height.max(1),
            present_mode: wgpu::PresentMode::AutoNoVsync,
            desired_maximum_frame_latency: 2,
            alpha_mode: caps
                .alpha_modes
                .first()
                .copied()
                .unwrap_or(wgpu::CompositeAlphaMode::Auto),
            view_formats: vec![],
        };
        surface.configure(&ctx.device, &config);
        let mut renderer = egui_wgpu::Renderer::new(
            &ctx.device,
            format,
            egui_wgpu::RendererOptions {
                msaa_samples: 1,
                depth_stencil_format: None,
                dithering: false,
                predictable_texture_filtering: false,
            },
        );
        renderer
            .callback_resources
            .insert(QuadResources::new(&ctx.device, format));
        let egui_ctx = egui::Context::default();
        // Panels are not filled: the frame's clear colour is their background. On software
        // rasterisers (lavapipe) every filled layer costs a full-window pass.
        egui_ctx.all_styles_mut(|s| s.visuals.panel_fill = egui::Color32::TRANSPARENT);
        egui_ctx.set_theme(egui::Theme::Dark);
        let mut egui_state = egui_winit::State::new(
            egui_ctx.clone(),
            egui::ViewportId::ROOT,
            &window,
            Some(window.scale_factor() as f32),
            None,
            Some(ctx.device.limits().max_texture_dimension_2d as usize),
        );
        egui_state.init_accesskit(el, &window, self.proxy.clone());
        window.set_visible(true);
        // The evaluator gets a device of its own: waiting for a compute batch must not wait
        // for the window's frames (and the other way round).
        let compute = match GpuContext::new() {
            Ok(c) => Some(c),
            Err(e) => {
                crate::note!("npuzzle: {e}; batched A* will use the CPU evaluator");
                None
            }
        };
        let gpu_note = match &compute {
            Some(c) => format!("GPU evaluator: {}", c.describe()),
            None => "no GPU adapter for compute: CPU evaluator".to_string(),
        };
        crate::note!("npuzzle: {gpu_note}");
        let (state, kept) = super::initial_state(&self.opts, compute, gpu_note, file)?;
        self.kept = kept.map(|(loaded, mut baseline)| {
            baseline.window = Some(kept::logical_size(&window));
            kept::Kept { loaded, baseline }
        });
        self.title = format!("npuzzle — {}", state.source());
        window.set_title(&self.title);
        self.state = Some(state);
        self.gfx = Some(Gfx {
            window,
            surface,
            config,
            ctx,
            renderer,
            egui_ctx,
            egui_state,
        });
        if self.opts.solve
            && let Some(st) = &mut self.state
        {
            st.start();
        }
        Ok(())
    }

    /// Runs one egui frame and renders it to `target` (the surface, or an offscreen texture).
    fn frame(
        &mut self,
        target: &wgpu::TextureView,
        size: [u32; 2],
    ) -> Option<wgpu::SubmissionIndex> {
        let (Some(g), Some(st)) = (&mut self.gfx, &mut self.state) else {
            return None;
        };
        st.clock.set_now(self.clock.elapsed().as_secs_f64());
        let raw = g.egui_state.take_egui_input(&g.window);
        let full = g.egui_ctx.run_ui(raw, |ui| {
            panels::ui(ui, st, &mut WgpuQuads, &mut NativeDialogs);
        });
        g.egui_state
            .handle_platform_output(&g.window, full.platform_output);
        // egui-winit leaves screenshots to us: answered once this frame is out.
        self.shots.extend(
            full.viewport_output
                .values()
                .flat_map(|v| &v.commands)
                .filter_map(|c| match c {
                    egui::ViewportCommand::Screenshot(cb) => Some(cb.clone()),
                    _ => None,
                }),
        );
        // Edit ▸ Paste board asks for the clipboard: its text comes back as a paste.
        let paste = full.viewport_output.values().flat_map(|v| &v.commands);
        if paste
            .into_iter()
            .any(|c| matches!(c, egui::ViewportCommand::RequestPaste))
        {
            if let Some(text) = g.egui_state.clipboard_text() {
                g.egui_state
                    .egui_input_mut()
                    .events
                    .push(egui::Event::Paste(text));
            }
            g.window.request_redraw();
        }
        // egui's own animations (tooltips, collapsing headers) ask for a repaint after a delay.
        if let Some(v) = full.viewport_output.get(&egui::ViewportId::ROOT)
            && v.repaint_delay < std::time::Duration::from_secs(1)
        {
            self.repaint_at = Some(Instant::now() + v.repaint_delay);
        }
        let jobs = g.egui_ctx.tessellate(full.shapes, full.pixels_per_point);
        let device = &g.ctx.device;
        let queue = &g.ctx.queue;
        let mut textures = full.textures_delta;
        for (id, deltas) in textures.set.drain() {
            for delta in &deltas {
                g.renderer.update_texture(device, queue, id, delta);
            }
        }
        let screen = egui_wgpu::ScreenDescriptor {
            size_in_pixels: size,
            pixels_per_point: full.pixels_per_point,
        };
        let mut enc = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("frame"),
        });
        let extra = g
            .renderer
            .update_buffers(device, queue, &mut enc, &jobs, &screen);
        {
            let pass = enc.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("egui"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: target,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(kept::clear_colour(g.egui_ctx.theme())),
                        store: wgpu::StoreOp::Store,
                    },
                })],
                depth_stencil_attachment: None,
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            g.renderer
                .render(&mut pass.forget_lifetime(), &jobs, &screen);
        }
        let index = queue.submit(extra.into_iter().chain(Some(enc.finish())));
        for id in textures.free.drain() {
            g.renderer.free_texture(&id);
        }
        if st.quit_requested() {
            return None;
        }
        Some(index)
    }

    fn redraw(&mut self, el: &ActiveEventLoop) {
        let Some(g) = &self.gfx else { return };
        if g.config.width == 0 || g.config.height == 0 {
            return; // minimised
        }
        let now = Instant::now();
        if let (Some(last), Some(st)) = (self.last_frame, &mut self.state) {
            let dt = now.duration_since(last).as_secs_f64();
            if st.is_running() {
                self.search_frames.0 += 1;
                self.search_frames.1 += dt;
            }
        }
        self.last_frame = Some(now);
        let t_acquire = Instant::now();
        let acquired = g.surface.get_current_texture();
        let debug = std::env::var_os("NPUZZLE_DEBUG_FRAMES").is_some();
        if debug {
            crate::note!("acquire {:.1} ms", t_acquire.elapsed().as_secs_f64() * 1e3);
        }
        let frame = match acquired {
            wgpu::CurrentSurfaceTexture::Success(f)
            | wgpu::CurrentSurfaceTexture::Suboptimal(f) => f,
            wgpu::CurrentSurfaceTexture::Outdated | wgpu::CurrentSurfaceTexture::Lost => {
                g.surface.configure(&g.ctx.device, &g.config);
                g.window.request_redraw();
                return;
            }
            _ => {
                g.window.request_redraw();
                return;
            }
        };
        let view = frame
            .texture
            .create_view(&wgpu::TextureViewDescriptor::default());
        let size = [g.config.width, g.config.height];
        let work = Instant::now();
        if let Some(st) = &mut self.state {
            st.clock.frame_began(self.clock.elapsed().as_secs_f64());
        }
        let running = self.state.as_ref().is_some_and(AppState::is_running);
        let submitted = self.frame(&view, size);
        if running {
            self.search_frame_work += work.elapsed().as_secs_f64();
        }
        if let Some(g) = &self.gfx {
            g.window.pre_present_notify();
            let t = Instant::now();
            g.ctx.queue.present(frame);
            if debug {
                crate::note!(
                    "frame {:.1} ms, present {:.1} ms",
                    work.elapsed().as_secs_f64() * 1e3,
                    t.elapsed().as_secs_f64() * 1e3
                );
            }
        }
        // What a frame costs (building, rendering, presenting), not the gap between frames:
        // an idle window draws rarely, and that gap is no cost.
        if let Some(st) = &mut self.state {
            st.clock.frame_ended(self.clock.elapsed().as_secs_f64());
        }
        if submitted.is_none() {
            el.exit();
            return;
        }
        self.answer_shots();
        self.after_frame(el);
    }
}

impl ApplicationHandler<AccessKitEvent> for App {
    /// A screen reader's request: its first look (egui then builds its AccessKit tree each
    /// frame), an action on a widget (a click, focus), or its leaving.
    fn user_event(&mut self, _el: &ActiveEventLoop, event: AccessKitEvent) {
        use egui_winit::accesskit_winit::WindowEvent as Ak;
        let Some(g) = &mut self.gfx else { return };
        match event.window_event {
            Ak::InitialTreeRequested => g.egui_ctx.enable_accesskit(),
            Ak::ActionRequested(request) => g.egui_state.on_accesskit_action_request(request),
            Ak::AccessibilityDeactivated => g.egui_ctx.disable_accesskit(),
        }
        g.window.request_redraw();
    }

    fn resumed(&mut self, el: &ActiveEventLoop) {
        if self.gfx.is_none()
            && let Err(e) = self.init(el)
        {
            self.fail(el, e);
        }
    }

    fn window_event(&mut self, el: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        if let Some(g) = &mut self.gfx {
            let resp = g.egui_state.on_window_event(&g.window, &event);
            // egui-winit asks for a repaint on the redraw event itself: answering that would
            // redraw forever.
            if resp.repaint && !matches!(event, WindowEvent::RedrawRequested) {
                g.window.request_redraw();
            }
        }
        match event {
            WindowEvent::CloseRequested => el.exit(),
            WindowEvent::Resized(size) => {
                if let Some(g) = &mut self.gfx {
                    g.config.width = size.width;
                    g.config.height = size.height;
                    if size.width > 0 && size.height > 0 {
                        g.surface.configure(&g.ctx.device, &g.config);
                        g.window.request_redraw();
                    }
                }
            }
            WindowEvent::DroppedFile(path) => {
                if let Some(st) = &mut self.state {
                    st.load_file(&path);
                    if self.opts.screenshot.is_none() {
                        st.recent.save();
                    }
                }
                if let Some(g) = &self.gfx {
                    g.window.request_redraw();
                }
            }
            WindowEvent::RedrawRequested => {
                self.redraw(el);
                // Only on a change: setting the title makes the window system send events,
                // which would keep an idle window redrawing.
                if let (Some(g), Some(st)) = (&self.gfx, &self.state) {
                    let title = format!("npuzzle — {}", st.source());
                    if self.title != title {
                        g.window.set_title(&title);
                        self.title = title;
                    }
                }
            }
            _ => {}
        }
    }

    fn about_to_wait(&mut self, el: &ActiveEventLoop) {
        let (Some(g), Some(st)) = (&self.gfx, &mut self.state) else {
            return;
        };
        st.clock.set_now(self.clock.elapsed().as_secs_f64());
        // Read before polling: a search that holds has sent everything before it said so, so
        // the poll below drains its last snapshot, and nothing changes until the user acts.
        let held = st.run.is_idle();
        self.stale |= st.poll();
        let now = Instant::now();
        let animating = st.playback.animating(st.clock.now());
        // Animations (a tile sliding, the solution playing) are drawn smoothly; a search's
        // snapshots at most every `SEARCH_FRAME_GAP`, and only when one has come.
        let smooth = st.playback.is_playing() || animating || self.opts.screenshot.is_some();
        // A fast search's snapshots come every 30 ms and nobody reads its figures that fast:
        // ten frames a second leave the renderer's threads' time to the search.
        let gap = if st.is_running() && !st.run.is_stepped() {
            FAST_SEARCH_FRAME_GAP
        } else {
            SEARCH_FRAME_GAP
        };
        let due = self.last_frame.map_or(now, |t| t + gap);
        if smooth || (self.stale && now >= due) {
            self.stale = false;
            g.window.request_redraw();
        }
        let mut wake = if smooth {
            Some(now + SMOOTH_FRAME_GAP)
        } else if self.stale {
            Some(due)
        } else if (st.is_running() && (!held || !st.is_paused())) || st.run.replaying() {
            // The worker cannot wake the loop: look for its next snapshot (a search at a slow
            // speed holds between its steps; a step asked for is being replayed).
            Some(now + SEARCH_FRAME_GAP)
        } else if st.play.thinking() || st.compare.is_running() {
            // The coach's and Compare's answers come from their threads: look for them every
            // 50 ms, drawing nothing until they are there.
            Some(now + std::time::Duration::from_millis(50))
        } else {
            None
        };
        // egui's own animations (tooltips, collapsing headers) ask for a frame after a delay.
        if let Some(at) = self.repaint_at {
            if now >= at {
                self.repaint_at = None;
                g.window.request_redraw();
            } else {
                wake = Some(wake.map_or(at, |w| w.min(at)));
            }
        }
        el.set_control_flow(wake.map_or(ControlFlow::Wait, ControlFlow::WaitUntil));
        if st.quit_requested() {
            el.exit();
        }
    }

    fn exiting(&mut self, _el: &ActiveEventLoop) {
        if let Some(st) = &self.state {
            // Automation runs (`--screenshot`) leave the user's recent list and settings alone.
            if self.opts.screenshot.is_none() {
                st.recent.save();
            }
            if let (Some(kept), Some(g)) = (&self.kept, &self.gfx) {
                kept.save(st, &g.window);
            }
            if let Some(s) = st.run.solution() {
                crate::note!(
                    "npuzzle: {} moves; {} expanded in {:.3} s ({:.2} M expanded/s) with {}",
                    s.moves.len(),
                    s.stats.expanded,
                    s.stats.seconds,
                    s.stats.expanded as f64 / s.stats.seconds.max(1e-9) / 1e6,
                    s.evaluator
                );
            }
        }
        let (n, secs) = self.search_frames;
        if n > 0 {
            crate::note!(
                "npuzzle: {n} frame{} while searching: {:.1} ms a frame on average ({:.0} frames/s), {:.1} ms of UI work each",
                if n == 1 { "" } else { "s" },
                secs / n as f64 * 1e3,
                n as f64 / secs.max(1e-9),
                self.search_frame_work / n as f64 * 1e3
            );
        }
    }
}

/// A winit error's message without the source location winit puts in front of OS errors
/// (`os error at …/winit-0.30.13/src/platform_impl/linux/mod.rs:765: neither WAYLAND_DISPLAY
/// nor …`): a user needs the reason, not winit's file and line.
pub(super) fn winit_message(e: &dyn std::fmt::Display) -> String {
    let s = e.to_string();
    match s.strip_prefix("os error at ") {
        Some(rest) => rest
            .split_once(".rs:")
            .and_then(|(_, r)| r.split_once(": "))
            .map_or(s.clone(), |(_, m)| m.trim_end_matches('.').to_string()),
        None => s,
    }
}

#[cfg(test)]
mod tests {
    use super::winit_message;

    #[test]
    fn winit_os_errors_lose_their_source_location() {
        // winit 0.30.13's text without a display.
        let os = "os error at /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/\
                  winit-0.30.13/src/platform_impl/linux/mod.rs:765: neither WAYLAND_DISPLAY \
                  nor WAYLAND_SOCKET nor DISPLAY is set.";
        assert_eq!(
            winit_message(&os),
            "neither WAYLAND_DISPLAY nor WAYLAND_SOCKET nor DISPLAY is set"
        );
        // Other errors are kept whole, colons and all.
        let other = "the event loop can't be recreated: once per program";
        assert_eq!(winit_message(&other), other);
    }
}
