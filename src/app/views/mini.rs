//! Small boards for the inspector, the open list and the tree's read-outs: drawn with egui's
//! painter (a few dozen small rectangles), clickable, sized to the panel they are in.

use egui::{Align2, Color32, FontId, Rect, Sense, Stroke, StrokeKind, Vec2, vec2};

use crate::puzzle::Board;

/// The smallest cell, in points, whose number is still readable (its font is 0.62 of the
/// cell: 8.7 points here, two digits fit).
pub const READABLE_CELL: f32 = 14.0;

/// The largest cells, in points: the expanded node's and the others' (the open list's,
/// the successors'), so that a wide panel shows a few boards a row, not one huge board.
const MAX_CELL: [f32; 2] = [40.0, 30.0];

/// Draws `b` with cells of `cell` points, tiles in place (as on `goal`) green and framed
/// in white (colour is never the only cue), others blue, and returns its response (click it
/// to show the board on the main view). Its AccessKit label reads the board row by row.
pub fn board(ui: &mut egui::Ui, b: &Board, goal: Option<&Board>, cell: f32) -> egui::Response {
    let (rows, cols) = (b.rows(), b.cols());
    let size = vec2(cell * cols as f32, cell * rows as f32);
    let (rect, resp) = ui.allocate_exact_size(size, Sense::click());
    let p = ui.painter_at(rect);
    let font = FontId::monospace((cell * 0.62).max(5.0));
    let gap = (cell * 0.08).max(0.5);
    let mut in_place = 0;
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
        let placed = goal.is_some_and(|g| g.tiles().get(i) == Some(&t));
        let fill = if placed {
            Color32::from_rgb(70, 140, 90)
        } else {
            Color32::from_rgb(55, 95, 170)
        };
        p.rect_filled(r, 1.5, fill);
        if placed {
            in_place += 1;
            let w = (cell * 0.07).clamp(1.0, 2.0);
            p.rect_stroke(r, 1.5, Stroke::new(w, Color32::WHITE), StrokeKind::Inside);
        }
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
    // (Only built when AccessKit asks: a frame draws dozens of small boards.)
    resp.widget_info(|| {
        let words = label(b, goal.map(|_| in_place));
        egui::WidgetInfo::labeled(egui::accesskit::Role::Image, true, words)
    });
    resp.on_hover_cursor(egui::CursorIcon::PointingHand)
}

/// A small board in words, for AccessKit: "small board: 1 2 3 / 4 blank 6 / 7 5 8" and, when
/// compared with a goal, how many tiles are in place.
fn label(b: &Board, in_place: Option<usize>) -> String {
    let rows: Vec<String> = b
        .tiles()
        .chunks(b.cols())
        .map(|row| {
            let cells: Vec<String> = row
                .iter()
                .map(|&t| match t {
                    0 => "blank".to_string(),
                    t => t.to_string(),
                })
                .collect();
            cells.join(" ")
        })
        .collect();
    let mut s = format!("small board: {}", rows.join(" / "));
    if let Some(n) = in_place {
        s += &format!("; {n} of {} tiles in place", b.len() - 1);
    }
    s
}

/// The cell sizes, in points, of a panel's small boards of `cols` columns in a panel `width`
/// points wide: the expanded node's board about two fifths of the width, the others (the
/// successors', the open list's) about a fifth, so that they grow with the panel; never
/// below [`READABLE_CELL`] unless the board would not fit the panel then (a wide board: at
/// least 5 points), and at most [`MAX_CELL`]. Returns `[large, small]`.
pub fn cells(cols: usize, width: f32) -> [f32; 2] {
    let cols = cols.max(1) as f32;
    let width = width.max(0.0);
    // The narrowest cell the panel must take: readable, or the whole width shared out.
    let floor = READABLE_CELL.min(width * 0.9 / cols).max(5.0);
    let size = |share: f32, max: f32| (width * share / cols).clamp(floor, max.max(floor));
    [size(0.4, MAX_CELL[0]), size(0.2, MAX_CELL[1])]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_grow_with_the_panel_and_stay_readable() {
        // 800×600: a right panel of about 180 points.
        assert_eq!(cells(4, 180.0), [18.0, READABLE_CELL]);
        // 1920×1080: about 460 points; the expanded board at its largest.
        assert_eq!(cells(4, 460.0), [40.0, 23.0]);
        assert_eq!(cells(3, 600.0), MAX_CELL);
        // A 16×16 board in a 180-point panel: shared out, never wider than the panel.
        let [l, s] = cells(16, 180.0);
        assert!(
            l * 16.0 <= 180.0 && s * 16.0 <= 180.0 && s >= 5.0,
            "{l} {s}"
        );
        // Nothing at all: the least cell, no panic.
        assert_eq!(cells(0, 0.0), [5.0, 5.0]);
    }

    #[test]
    fn the_label_reads_the_board_row_by_row() {
        let b: Board = "1 2 3/4 0 6/7 5 8".parse().unwrap();
        assert_eq!(
            label(&b, Some(6)),
            "small board: 1 2 3 / 4 blank 6 / 7 5 8; 6 of 8 tiles in place"
        );
        assert_eq!(label(&b, None), "small board: 1 2 3 / 4 blank 6 / 7 5 8");
    }
}
