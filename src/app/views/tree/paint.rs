//! The tree's shapes: each mark's glyph (a shape and a letter, coloured), the edges, the
//! legend; built once per geometry and painted from then on as they are.

use egui::{Align2, Color32, FontId, Pos2, Shape, Stroke, vec2};

use super::geometry::{Geometry, Mark};
use crate::search::stepper::TreeNode;

/// The path's colour (edges, expanded nodes on it, a ring round a leaf on it).
pub const PATH: Color32 = Color32::from_rgb(242, 160, 60);

/// Radius of an expanded node's disc and of a generated child's glyph, in scene points.
pub const NODE_R: f32 = 9.0;
/// Radius of a generated child's glyph.
pub const LEAF_R: f32 = 7.0;

/// A mark's colour (for the glyph; its letter is white on filled glyphs, the colour on
/// hollow ones).
pub fn color(mark: Mark) -> Color32 {
    match mark {
        Mark::Expanded => Color32::from_rgb(55, 95, 170),
        // The Inspector's colours of the fates.
        Mark::Pushed => Color32::from_rgb(120, 200, 120),
        Mark::BetterPath => Color32::from_rgb(120, 170, 240),
        Mark::Duplicate => Color32::from_rgb(128, 128, 128),
        Mark::Pruned => Color32::from_rgb(230, 170, 80),
        Mark::Goal => Color32::from_rgb(250, 235, 140),
    }
}

/// Whether a mark's glyph is hollow (an outline, its letter in its colour).
pub fn hollow(mark: Mark) -> bool {
    matches!(mark, Mark::Pushed | Mark::BetterPath)
}

/// The corners of a mark's polygon of radius `r` about `c` (`None` for the round ones).
pub fn polygon(mark: Mark, c: Pos2, r: f32) -> Option<Vec<Pos2>> {
    match mark {
        Mark::BetterPath => Some(vec![
            c + vec2(0.0, -r),
            c + vec2(r, 0.0),
            c + vec2(0.0, r),
            c + vec2(-r, 0.0),
        ]),
        Mark::Duplicate => {
            let k = r * 0.85;
            Some(vec![
                c + vec2(-k, -k),
                c + vec2(k, -k),
                c + vec2(k, k),
                c + vec2(-k, k),
            ])
        }
        Mark::Pruned => Some(vec![
            c + vec2(-r, -r * 0.7),
            c + vec2(r, -r * 0.7),
            c + vec2(0.0, r * 1.05),
        ]),
        Mark::Expanded | Mark::Pushed | Mark::Goal => None,
    }
}

/// A mark's glyph of radius `r` at `c` (its letter or `label` not included), with a ring
/// in the path's colour when `on_path`.
pub fn glyph(mark: Mark, c: Pos2, r: f32, on_path: bool) -> Vec<Shape> {
    let col = color(mark);
    let mut out = Vec::new();
    match (mark, polygon(mark, c, r)) {
        (Mark::Expanded, _) => {
            out.push(Shape::circle_filled(c, r, if on_path { PATH } else { col }));
        }
        (Mark::Pushed, _) => out.push(Shape::circle_stroke(c, r, Stroke::new(1.5, col))),
        (Mark::Goal, _) => {
            out.push(Shape::circle_filled(c, r * 0.8, col));
            out.push(Shape::circle_stroke(c, r * 1.15, Stroke::new(1.5, col)));
        }
        (_, Some(pts)) if hollow(mark) => {
            out.push(Shape::convex_polygon(
                pts,
                Color32::TRANSPARENT,
                Stroke::new(1.5, col),
            ));
        }
        (_, Some(pts)) => out.push(Shape::convex_polygon(pts, col, Stroke::NONE)),
        (_, None) => {}
    }
    if on_path && mark != Mark::Expanded {
        out.push(Shape::circle_stroke(c, r * 1.5, Stroke::new(2.0, PATH)));
    }
    out
}

/// The colour of the text on a mark's glyph.
pub fn text_color(mark: Mark) -> Color32 {
    match mark {
        Mark::Goal => Color32::from_gray(30),
        m if hollow(m) => color(m),
        _ => Color32::WHITE,
    }
}

/// What is written on a drawn node: an expanded node's expansion number, a generated child's
/// letter.
pub fn label(tree: &[TreeNode], geo: &Geometry, i: usize) -> String {
    let d = &geo.drawn[i];
    match d.mark {
        Mark::Expanded => tree
            .get(d.node)
            .map_or(String::new(), |t| t.number.to_string()),
        m => m.letter().to_string(),
    }
}

/// Every shape of the tree in scene points: the edges (thick, in the path's colour, on the
/// path), then each node's glyph and its number or letter.
pub fn shapes(painter: &egui::Painter, tree: &[TreeNode], geo: &Geometry) -> Vec<Shape> {
    let mut out = Vec::with_capacity(geo.edges.len() + 3 * geo.drawn.len());
    for &(p, c) in &geo.edges {
        let (a, b) = (&geo.drawn[p], &geo.drawn[c]);
        let stroke = if a.on_path && b.on_path {
            Stroke::new(2.5, PATH)
        } else if b.mark == Mark::Expanded {
            Stroke::new(1.0, Color32::from_gray(90))
        } else {
            Stroke::new(0.8, Color32::from_gray(70))
        };
        out.push(Shape::line_segment([a.pos, b.pos], stroke));
    }
    let number = FontId::proportional(9.0);
    let letter = FontId::proportional(8.0);
    for (i, d) in geo.drawn.iter().enumerate() {
        let (r, font) = if d.mark == Mark::Expanded {
            (NODE_R, number.clone())
        } else {
            (LEAF_R, letter.clone())
        };
        out.extend(glyph(d.mark, d.pos, r, d.on_path));
        let galley = painter.layout_no_wrap(label(tree, geo, i), font, text_color(d.mark));
        let at = Align2::CENTER_CENTER.anchor_size(d.pos, galley.size()).min;
        out.push(Shape::galley(at, galley, text_color(d.mark)));
    }
    out
}

/// The legend: each mark's glyph and letter with its words, and the path; one row.
pub fn legend(ui: &mut egui::Ui) {
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing.x = 4.0;
        for mark in Mark::ALL {
            let (rect, _) = ui.allocate_exact_size(vec2(18.0, 16.0), egui::Sense::hover());
            let p = ui.painter();
            let r = if mark == Mark::Expanded { 7.0 } else { 6.0 };
            p.extend(glyph(mark, rect.center(), r, false));
            let text = if mark == Mark::Expanded {
                "7"
            } else {
                mark.letter()
            };
            p.text(
                rect.center(),
                Align2::CENTER_CENTER,
                text,
                FontId::proportional(8.0),
                text_color(mark),
            );
            ui.label(egui::RichText::new(mark.word()).size(11.0));
            ui.add_space(6.0);
        }
        let (rect, _) = ui.allocate_exact_size(vec2(18.0, 16.0), egui::Sense::hover());
        ui.painter().line_segment(
            [rect.left_center(), rect.right_center()],
            Stroke::new(2.5, PATH),
        );
        ui.label(egui::RichText::new("path").size(11.0));
    });
}
