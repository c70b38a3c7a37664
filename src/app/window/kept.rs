//! What the window keeps between runs and how it looks: the settings file read at the start
//! and written at the end ([`Kept`]), the app's icon, the frame's background by theme.

use egui_wgpu::wgpu;
use winit::window::{Icon, Window};

use crate::app::state::{AppState, Saved};

/// The app's icon (`assets/npuzzle.png`, 256×256 RGBA), built into the binary.
const ICON_PNG: &[u8] = include_bytes!("../../../assets/npuzzle.png");

/// The window's icon, decoded from [`ICON_PNG`]; `None` (and a note) if it does not decode.
pub(super) fn icon() -> Option<Icon> {
    let decoded = (|| -> Result<Icon, Box<dyn std::error::Error>> {
        let mut decoder = png::Decoder::new(std::io::Cursor::new(ICON_PNG));
        decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
        let mut reader = decoder.read_info()?;
        let mut buf = vec![0; reader.output_buffer_size().ok_or("icon too large")?];
        let info = reader.next_frame(&mut buf)?;
        buf.truncate(info.buffer_size());
        let rgba = match info.color_type {
            png::ColorType::Rgba => buf,
            png::ColorType::Rgb => buf
                .chunks_exact(3)
                .flat_map(|p| [p[0], p[1], p[2], 255])
                .collect(),
            other => return Err(format!("icon colour type {other:?}").into()),
        };
        Ok(Icon::from_rgba(rgba, info.width, info.height)?)
    })();
    decoded
        .map_err(|e| crate::note!("npuzzle: the app's icon: {e}"))
        .ok()
}

/// The frame's background: egui's panel colour for the theme (the panels themselves are not
/// filled, see `init`).
pub(super) fn clear_colour(theme: egui::Theme) -> wgpu::Color {
    let c = match theme {
        egui::Theme::Dark => 27.0 / 255.0,
        egui::Theme::Light => 248.0 / 255.0,
    };
    wgpu::Color {
        r: c,
        g: c,
        b: c,
        a: 1.0,
    }
}

/// The settings file as read at the start, and the settings the app started with: written at
/// the end only when they changed (see `state/saved.rs` for the policy). `None` for automation
/// runs (`--screenshot`), which leave the user's file alone.
pub(super) struct Kept {
    /// The file as read (its unknown fields are written back).
    pub loaded: Option<Saved>,
    /// The settings the app started with.
    pub baseline: Saved,
}

impl Kept {
    /// Writes the settings `st` and `window` show now if they differ from the start's; a
    /// failure is noted on standard error (the window is closing).
    pub(super) fn save(&self, st: &AppState, window: &Window) {
        let now = Saved::of(st, Some(logical_size(window)), self.loaded.as_ref());
        if now.same_as(&self.baseline) {
            return;
        }
        if let Err(e) = now.save() {
            crate::note!("npuzzle: {e}");
        }
    }
}

/// The window's inner size in logical points.
pub(super) fn logical_size(window: &Window) -> [f32; 2] {
    let s = window.inner_size().to_logical::<f32>(window.scale_factor());
    [s.width, s.height]
}

/// The window's first size in logical points: the size kept from the last run, else
/// 1280×800, or less where the monitor is smaller in points (a scale factor of 2 on a 1280×800
/// screen): at most nine tenths of it each way, and never below 640×400. `monitor`: its size
/// in pixels and its scale factor.
pub(super) fn first_size(
    monitor: Option<(u32, u32, f64)>,
    kept: Option<[f32; 2]>,
) -> winit::dpi::LogicalSize<f64> {
    let (mut w, mut h) = kept.filter(|[w, h]| w.is_finite() && h.is_finite()).map_or(
        (1280.0f64, 800.0f64),
        |[w, h]| {
            (
                f64::from(w).clamp(640.0, 8192.0),
                f64::from(h).clamp(400.0, 8192.0),
            )
        },
    );
    if let Some((pw, ph, scale)) = monitor
        && pw > 0
        && ph > 0
        && scale > 0.0
    {
        w = w.min(f64::from(pw) / scale * 0.9).max(640.0);
        h = h.min(f64::from(ph) / scale * 0.9).max(400.0);
    }
    winit::dpi::LogicalSize::new(w, h)
}
