//! The search tree as an SVG document, written as text from the drawn geometry: one
//! `<g class="node …">` per drawn node (its glyph, its number or letter, a `<title>` with its
//! board and g, h, f), the edges, and the legend.

use std::fmt::Write;

use egui::{Color32, Pos2, vec2};

use super::geometry::{Geometry, Mark};
use super::paint::{self, LEAF_R, NODE_R, PATH};
use crate::search::stepper::TreeNode;

/// Height of the legend's band over the tree, in SVG units (scene points).
const LEGEND: f32 = 28.0;

fn hex(c: Color32) -> String {
    format!("#{:02x}{:02x}{:02x}", c.r(), c.g(), c.b())
}

/// `s` with XML's special characters escaped.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The SVG elements of `mark`'s glyph of radius `r` at `c`, a ring in the path's colour when
/// `on_path`.
fn glyph(out: &mut String, mark: Mark, c: Pos2, r: f32, on_path: bool) {
    let col = hex(paint::color(mark));
    let (fill, stroke) = if paint::hollow(mark) {
        ("none".to_string(), col.clone())
    } else {
        (col.clone(), "none".to_string())
    };
    match (mark, paint::polygon(mark, c, r)) {
        (Mark::Expanded, _) => {
            let f = if on_path { hex(PATH) } else { col };
            let _ = write!(
                out,
                r#"<circle cx="{}" cy="{}" r="{r}" fill="{f}"/>"#,
                c.x, c.y
            );
        }
        (Mark::Goal, _) => {
            let _ = write!(
                out,
                r#"<circle cx="{}" cy="{}" r="{}" fill="{col}"/><circle cx="{}" cy="{}" r="{}" fill="none" stroke="{col}" stroke-width="1.5"/>"#,
                c.x,
                c.y,
                r * 0.8,
                c.x,
                c.y,
                r * 1.15
            );
        }
        (_, Some(pts)) => {
            let pts: Vec<String> = pts.iter().map(|p| format!("{},{}", p.x, p.y)).collect();
            let _ = write!(
                out,
                r#"<polygon points="{}" fill="{fill}" stroke="{stroke}" stroke-width="1.5"/>"#,
                pts.join(" ")
            );
        }
        (_, None) => {
            let _ = write!(
                out,
                r#"<circle cx="{}" cy="{}" r="{r}" fill="{fill}" stroke="{stroke}" stroke-width="1.5"/>"#,
                c.x, c.y
            );
        }
    }
    if on_path && mark != Mark::Expanded {
        let _ = write!(
            out,
            r#"<circle cx="{}" cy="{}" r="{}" fill="none" stroke="{}" stroke-width="2"/>"#,
            c.x,
            c.y,
            r * 1.5,
            hex(PATH)
        );
    }
}

/// The text `t` centred at `c` in `size` points, coloured as `mark`'s letter.
fn text(out: &mut String, c: Pos2, size: f32, mark: Mark, t: &str) {
    let _ = write!(
        out,
        r#"<text x="{}" y="{}" font-size="{size}" text-anchor="middle" dominant-baseline="central" fill="{}">{}</text>"#,
        c.x,
        c.y,
        hex(paint::text_color(mark)),
        escape(t)
    );
}

/// The class of a drawn node's `<g>`: `node` and its mark in words.
fn class(mark: Mark) -> &'static str {
    match mark {
        Mark::Expanded => "node expanded",
        Mark::Pushed => "node pushed",
        Mark::BetterPath => "node better-path",
        Mark::Duplicate => "node duplicate",
        Mark::Pruned => "node pruned",
        Mark::Goal => "node goal",
    }
}

/// The tree `geo` of `tree` as an SVG document (scene points as units, a light background,
/// the legend on top, `title` over it): one `<g class="node …">` per drawn node.
pub fn document(tree: &[TreeNode], geo: &Geometry, title: &str) -> String {
    let b = geo.bounds.expand(20.0);
    let (x0, y0) = (b.min.x, b.min.y - 2.0 * LEGEND);
    let (w, h) = (b.width().max(1000.0), b.height() + 2.0 * LEGEND);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="{x0} {y0} {w} {h}" width="{w}" height="{h}" font-family="sans-serif">"#
    );
    let _ = writeln!(
        out,
        r##"<rect x="{x0}" y="{y0}" width="{w}" height="{h}" fill="#1b1b1b"/>"##
    );
    let _ = writeln!(
        out,
        r##"<text x="{}" y="{}" font-size="12" fill="#dddddd">{}</text>"##,
        x0 + 8.0,
        y0 + 16.0,
        escape(title)
    );
    legend(&mut out, Pos2::new(x0 + 16.0, y0 + LEGEND + 10.0));
    out.push_str("<g class=\"edges\">\n");
    for &(p, c) in &geo.edges {
        let (a, d) = (&geo.drawn[p], &geo.drawn[c]);
        let (col, wd) = if a.on_path && d.on_path {
            (hex(PATH), 2.5)
        } else {
            ("#5a5a5a".to_string(), 1.0)
        };
        let _ = writeln!(
            out,
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{col}" stroke-width="{wd}"/>"#,
            a.pos.x, a.pos.y, d.pos.x, d.pos.y
        );
    }
    out.push_str("</g>\n");
    for (i, d) in geo.drawn.iter().enumerate() {
        let _ = write!(out, r#"<g class="{}">"#, class(d.mark));
        if let Some((board, g, hh)) = d.read(tree) {
            let _ = write!(
                out,
                "<title>{} · g {g} h {hh} f {} · {}</title>",
                d.mark.word(),
                g + hh,
                escape(&board.to_string().replace('\n', " / "))
            );
        }
        let (r, size) = if d.mark == Mark::Expanded {
            (NODE_R, 9.0)
        } else {
            (LEAF_R, 8.0)
        };
        glyph(&mut out, d.mark, d.pos, r, d.on_path);
        text(&mut out, d.pos, size, d.mark, &paint::label(tree, geo, i));
        out.push_str("</g>\n");
    }
    out.push_str("</svg>\n");
    out
}

/// The legend at `at`: each mark's glyph, letter and words, then the path.
fn legend(out: &mut String, at: Pos2) {
    out.push_str("<g class=\"legend\">");
    let mut x = at.x;
    for mark in Mark::ALL {
        let c = Pos2::new(x, at.y);
        glyph(out, mark, c, 6.0, false);
        let t = if mark == Mark::Expanded {
            "7"
        } else {
            mark.letter()
        };
        text(out, c, 8.0, mark, t);
        let _ = write!(
            out,
            r##"<text x="{}" y="{}" font-size="11" dominant-baseline="central" fill="#dddddd">{}</text>"##,
            x + 10.0,
            at.y,
            escape(mark.word())
        );
        x += 10.0 + 6.2 * mark.word().len() as f32 + 18.0;
    }
    let p = at + vec2(x - at.x, 0.0);
    let _ = write!(
        out,
        r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-width="2.5"/><text x="{}" y="{}" font-size="11" dominant-baseline="central" fill="#dddddd">path</text>"##,
        p.x - 6.0,
        p.y,
        p.x + 8.0,
        p.y,
        hex(PATH),
        p.x + 12.0,
        p.y
    );
    out.push_str("</g>\n");
}
