//! The chosen heuristic drawn on the board: Hamming's misplaced tiles ringed; Manhattan's
//! distance written on each tile with a faint line to its goal cell; linear conflict's
//! conflicting tiles joined, and the tiles that must leave their line marked +2; a pattern
//! database's patterns, one colour each. The caption gives the sum (the heuristic's value).

use egui::{Align2, Color32, FontId, Painter, Rect, Stroke};

use crate::heuristic::explain::Explanation;
use crate::heuristic::pdb::AdditivePdb;
use crate::heuristic::{HeuristicChoice, HeuristicKind};
use crate::puzzle::{Board, Goal};

/// Colours of a pattern database's patterns.
const PATTERN_COLOURS: [Color32; 4] = [
    Color32::from_rgb(235, 140, 60),
    Color32::from_rgb(90, 190, 120),
    Color32::from_rgb(190, 110, 220),
    Color32::from_rgb(230, 210, 80),
];

/// The caption for `board` under `choice`: the heuristic, its value and how to read the
/// drawing; `loaded`, the pattern database when its tables are loaded (its values are then
/// given). `None` when there is nothing to draw.
pub fn caption(
    choice: &HeuristicChoice,
    board: &Board,
    goal: &Goal,
    loaded: Option<&AdditivePdb>,
) -> Option<String> {
    let e = Explanation::of(board, goal);
    Some(match choice {
        HeuristicChoice::Kind(HeuristicKind::Hamming) => format!(
            "Hamming h = {}: the ringed tiles are out of place",
            e.hamming()
        ),
        HeuristicChoice::Kind(HeuristicKind::Manhattan) => format!(
            "Manhattan h = {}: each tile's distance to its goal cell (the faint line)",
            e.manhattan()
        ),
        HeuristicChoice::Kind(HeuristicKind::WalkingDistance) => format!(
            "walking distance: drawn as Manhattan h = {} (walking distance is at least that)",
            e.manhattan()
        ),
        HeuristicChoice::Kind(HeuristicKind::WalkingDistanceLc) => format!(
            "max(walking distance, linear conflict): drawn as linear conflict h = {} (at least that)",
            e.linear_conflict()
        ),
        HeuristicChoice::Kind(HeuristicKind::OverestimatingManhattan) => format!(
            "overestimating h = 2 × Manhattan {} = {}: twice each tile's distance, so h passes the true distance (not admissible: A* may return a longer path)",
            e.manhattan(),
            2 * e.manhattan()
        ),
        HeuristicChoice::Kind(HeuristicKind::LinearConflict) | HeuristicChoice::Auto => {
            let extra = e.linear_conflict() - e.manhattan();
            let auto = if *choice == HeuristicChoice::Auto {
                "auto, drawn as linear conflict (the search takes a pattern database when one is ready): "
            } else {
                ""
            };
            format!(
                "{auto}linear conflict h = {} = Manhattan {} + {extra}: joined tiles conflict in a line; each tile marked +2 must leave it",
                e.linear_conflict(),
                e.manhattan()
            )
        }
        HeuristicChoice::Pdb(spec) => match (loaded, spec.patterns(goal)) {
            (Some(pdb), _) => {
                let (direct, reflected) = pdb.pattern_values(board.tiles());
                let sum = |v: &[u8]| v.iter().map(|&x| u32::from(x)).sum::<u32>();
                let terms = |v: &[u8]| v.iter().map(u8::to_string).collect::<Vec<_>>().join(" + ");
                let (d, r) = (sum(&direct), reflected.as_deref().map(sum));
                let mut c = format!(
                    "{} h = {}: the patterns' table values (one colour each) {} = {d}",
                    pdb.name(),
                    d.max(r.unwrap_or(0)),
                    terms(&direct)
                );
                if let (Some(r), Some(rv)) = (r, &reflected) {
                    let used = if r > d { "larger: used" } else { "not larger" };
                    c += &format!("; reflected board {} = {r} ({used})", terms(rv));
                }
                c
            }
            (None, Ok(p)) => format!(
                "{}: {} patterns, one colour each; h = the sum of each pattern's table value (shown once Start or the coach has loaded the tables)",
                spec.name(),
                p.len(),
            ),
            (None, Err(_)) => return None,
        },
        HeuristicChoice::PdbMax(spec) => format!(
            "{}: the largest of several pattern-database sums (drawn as Manhattan h = {}, which it never falls below on these tables' boards)",
            spec.name(),
            e.manhattan()
        ),
    })
}

/// Draws `choice` on `board`; `cell_rect(i)` is cell `i`'s tile rectangle.
pub fn draw(
    p: &Painter,
    choice: &HeuristicChoice,
    board: &Board,
    goal: &Goal,
    cell_rect: &dyn Fn(usize) -> Rect,
    cell: f32,
) {
    let e = Explanation::of(board, goal);
    let small = FontId::proportional((cell * 0.2).max(8.0));
    let ring = |i: usize, col: Color32| {
        p.rect_stroke(
            cell_rect(i).shrink(2.0),
            cell * 0.12,
            Stroke::new((cell * 0.04).max(2.0), col),
            egui::StrokeKind::Inside,
        );
    };
    match choice {
        HeuristicChoice::Kind(HeuristicKind::Hamming) => {
            for &i in &e.misplaced {
                ring(i, Color32::from_rgb(240, 90, 80));
            }
        }
        HeuristicChoice::Pdb(spec) => {
            if let Ok(patterns) = spec.patterns(goal) {
                for (k, pat) in patterns.iter().enumerate() {
                    let col = PATTERN_COLOURS[k % PATTERN_COLOURS.len()];
                    for (i, &t) in board.tiles().iter().enumerate() {
                        if pat.contains(&t) {
                            ring(i, col);
                        }
                    }
                }
            }
        }
        _ => {
            // Manhattan (and linear conflict on top of it).
            let ghost = Stroke::new(1.0, Color32::from_rgba_unmultiplied(255, 235, 150, 70));
            for d in &e.distances {
                let r = cell_rect(d.cell);
                if d.distance > 0 {
                    let to = cell_rect(d.goal_cell).center();
                    p.line_segment([r.center(), to], ghost);
                    p.circle_stroke(to, cell * 0.08, ghost);
                }
                p.text(
                    r.right_top() + egui::vec2(-cell * 0.08, cell * 0.05),
                    Align2::RIGHT_TOP,
                    d.distance.to_string(),
                    small.clone(),
                    Color32::from_rgb(255, 235, 150),
                );
            }
            let lc = matches!(
                choice,
                HeuristicChoice::Kind(HeuristicKind::LinearConflict) | HeuristicChoice::Auto
            );
            if lc {
                let col = Color32::from_rgb(240, 100, 200);
                for c in &e.conflicts {
                    for &(a, b) in &c.pairs {
                        let (ra, rb) = (cell_rect(a), cell_rect(b));
                        let off = egui::vec2(0.0, cell * 0.18);
                        p.line_segment(
                            [ra.center() + off, rb.center() + off],
                            Stroke::new(2.5, col),
                        );
                    }
                    for &i in &c.leave {
                        p.text(
                            cell_rect(i).left_bottom() + egui::vec2(cell * 0.08, -cell * 0.05),
                            Align2::LEFT_BOTTOM,
                            "+2",
                            FontId::proportional((cell * 0.22).max(9.0)),
                            col,
                        );
                    }
                }
            }
        }
    }
}
