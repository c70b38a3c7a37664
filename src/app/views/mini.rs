//! Small boards for the inspector, the open list and the tree's read-outs: drawn with egui's
//! painter (a few dozen small rectangles), clickable.

use egui::{Align2, Color32, FontId, Rect, Sense, Vec2, vec2};

use crate::puzzle::Board;

/// Draws `b` with cells of `cell` points, tiles in place (as on `goal`) green, others blue,
/// and returns its response (click it to show the board on the main view).
pub fn board(ui: &mut egui::Ui, b: &Board, goal: Option<&Board>, cell: f32) -> egui::Response {
    let (rows, cols) = (b.rows(), b.cols());
    let size = vec2(cell * cols as f32, cell * rows as f32);
    let (rect, resp) = ui.allocate_exact_size(size, Sense::click());
    let p = ui.painter_at(rect);
    let font = FontId::monospace((cell * 0.62).max(5.0));
    let gap = (cell * 0.08).max(0.5);
    for (i, &t) in b.tiles().iter().enumerate() {
        let r = Rect::from_min_size(
            rect.min + vec2((i % cols) as f32 * cell, (i / cols) as f32 * cell),
            Vec2::splat(cell),
        )
        .shrink(gap);
        if t == 0 {
            p.rect_filled(r, 1.0, Color32::from_gray(35));
            continue;
        }
        let in_place = goal.is_some_and(|g| g.tiles().get(i) == Some(&t));
        let fill = if in_place {
            Color32::from_rgb(70, 140, 90)
        } else {
            Color32::from_rgb(55, 95, 170)
        };
        p.rect_filled(r, 1.5, fill);
        if cell >= 9.0 {
            p.text(
                r.center(),
                Align2::CENTER_CENTER,
                t.to_string(),
                font.clone(),
                Color32::WHITE,
            );
        }
    }
    resp.on_hover_cursor(egui::CursorIcon::PointingHand)
}

/// A cell size that draws a `rows × cols` board about `width` points wide.
pub fn cell_for(cols: usize, width: f32) -> f32 {
    (width / cols as f32).clamp(5.0, 18.0)
}
