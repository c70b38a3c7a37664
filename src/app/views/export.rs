//! A view saved as a picture: a PNG of the part of the window a view covers, taken with
//! egui's screenshot request ([`egui::Context::request_screenshot`], answered by the window
//! loop, `app/window.rs`, with the next frame rendered offscreen), cropped to the view and
//! written atomically (`crate::files::write_atomic`). The outcome is read back by
//! [`take_outcomes`] for the Messages panel.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use egui::{ColorImage, Rect};

/// Lines for the Messages panel: `Ok` a save, `Err` a failure.
type Outcomes = Arc<Mutex<Vec<Result<String, String>>>>;

/// Where the outcomes of the saves asked for are kept until read, in egui's memory.
fn outcomes(ctx: &egui::Context) -> Outcomes {
    ctx.data_mut(|d| {
        d.get_temp_mut_or_default::<Outcomes>(egui::Id::unique("npuzzle: picture saves"))
            .clone()
    })
}

/// The saves finished since the last call, in order: a line saying where each went, or why
/// it failed.
pub fn take_outcomes(ctx: &egui::Context) -> Vec<Result<String, String>> {
    let o = outcomes(ctx);
    let mut v = o.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    std::mem::take(&mut *v)
}

/// Asks for a PNG of `rect` (in points) of the window, saved at `path` once the window loop
/// has the next frame's pixels; `what` names the view in the message that follows.
pub fn request_png(ctx: &egui::Context, rect: Rect, path: PathBuf, what: &str) {
    let out = outcomes(ctx);
    let ppp = ctx.pixels_per_point();
    let what = what.to_string();
    let repaint = ctx.clone();
    ctx.request_screenshot(move |image| {
        let r = save_region(&image, rect, ppp, &path)
            .map(|(w, h)| format!("saved {what} as {} ({w}×{h} pixels)", path.display()));
        let r = r.map_err(|e| format!("could not save {what} as {}: {e}", path.display()));
        out.lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(r);
        repaint.request_repaint();
    });
}

/// The part of `image` (the whole window, `ppp` pixels a point) under `rect` (points),
/// clipped to the image; `None` when nothing of it is left.
pub fn crop(image: &ColorImage, rect: Rect, ppp: f32) -> Option<ColorImage> {
    let px = |v: f32, max: usize| ((v * ppp).round().max(0.0) as usize).min(max);
    let (w, h) = (image.width(), image.height());
    let (x0, x1) = (px(rect.min.x, w), px(rect.max.x, w));
    let (y0, y1) = (px(rect.min.y, h), px(rect.max.y, h));
    (x1 > x0 && y1 > y0).then(|| image.region_by_pixels([x0, y0], [x1 - x0, y1 - y0]))
}

/// `image` as PNG bytes (8-bit RGBA).
///
/// # Errors
/// The encoder's, for an image too large for PNG.
pub fn png_bytes(image: &ColorImage) -> Result<Vec<u8>, png::EncodingError> {
    let rgba: Vec<u8> = image
        .pixels
        .iter()
        .flat_map(|c| c.to_srgba_unmultiplied())
        .collect();
    let mut bytes = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut bytes, image.width() as u32, image.height() as u32);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        let mut writer = enc.write_header()?;
        writer.write_image_data(&rgba)?;
    }
    Ok(bytes)
}

/// Crops `image` to `rect` and writes it as a PNG at `path`; its size in pixels.
fn save_region(
    image: &ColorImage,
    rect: Rect,
    ppp: f32,
    path: &Path,
) -> Result<(usize, usize), String> {
    let part = crop(image, rect, ppp).ok_or("the window's picture could not be taken")?;
    let bytes = png_bytes(&part).map_err(|e| e.to_string())?;
    crate::files::write_atomic(path, &bytes).map_err(|e| e.to_string())?;
    Ok((part.width(), part.height()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_crop_is_clipped_to_the_image_and_counted_in_pixels() {
        let img = ColorImage::filled([100, 50], egui::Color32::RED);
        let r = Rect::from_min_max(egui::pos2(10.0, 5.0), egui::pos2(30.0, 40.0));
        let c = crop(&img, r, 2.0).unwrap();
        assert_eq!(c.size, [40, 50 - 10]);
        assert!(
            crop(
                &img,
                Rect::from_min_size(egui::pos2(60.0, 0.0), egui::vec2(5.0, 5.0)),
                2.0
            )
            .is_none()
        );
        // An empty picture (the window could not be read) gives none.
        assert!(crop(&ColorImage::filled([0, 0], egui::Color32::RED), r, 1.0).is_none());
        let png = png_bytes(&c).unwrap();
        let info = png::Decoder::new(std::io::Cursor::new(png))
            .read_info()
            .unwrap();
        assert_eq!((info.info().width, info.info().height), (40, 40));
    }
}
