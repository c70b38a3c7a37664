//! The search tree of a stepped search: expanded boards as nodes (numbered in expansion
//! order) under their parents, by depth g, the solution path highlighted; hover for the
//! board and its g, h, f; click to show it on the main board; drag or scroll to pan, Ctrl+scroll
//! (or pinch) to zoom.

use egui::{Align2, Color32, FontId, Pos2, Rect, Sense, Stroke, vec2};

use crate::app::state::AppState;
use crate::app::views::ghf;
use crate::app::views::mini;
use crate::puzzle::Board;
use crate::search::stepper::{TREE_LIMIT, TreeNode};
use crate::text::group_digits as group;

/// Horizontal and vertical spacing of the nodes, in scene points.
const DX: f32 = 24.0;
const DY: f32 = 34.0;

/// Node positions: each leaf its own column in depth-first order (children in expansion
/// order), each parent centred over its children, rows by g.
pub fn layout(tree: &[TreeNode]) -> Vec<Pos2> {
    let n = tree.len();
    let mut children = vec![Vec::new(); n];
    let mut roots = Vec::new();
    for (i, t) in tree.iter().enumerate() {
        match t.parent {
            Some(p) if p < n => children[p].push(i),
            _ => roots.push(i),
        }
    }
    let mut x = vec![0.0f32; n];
    let mut next = 0.0f32;
    // Iterative post-order: (node, children visited).
    for r in roots {
        let mut stack = vec![(r, false)];
        while let Some((v, done)) = stack.pop() {
            if done || children[v].is_empty() {
                x[v] = if children[v].is_empty() {
                    next += 1.0;
                    next - 1.0
                } else {
                    let c = &children[v];
                    (x[c[0]] + x[c[c.len() - 1]]) / 2.0
                };
                continue;
            }
            stack.push((v, true));
            for &c in children[v].iter().rev() {
                stack.push((c, false));
            }
        }
    }
    tree.iter()
        .zip(x)
        .map(|(t, x)| Pos2::new(x * DX, t.g as f32 * DY))
        .collect()
}

/// Which tree nodes lie on the path: with `solution` (start board and moves), the nodes
/// reached from the root by its moves, child by child; without, the last node and its
/// ancestors.
pub fn path_nodes(
    tree: &[TreeNode],
    solution: Option<(&Board, &[crate::puzzle::Move])>,
) -> Vec<bool> {
    let mut on = vec![false; tree.len()];
    if tree.is_empty() {
        return on;
    }
    match solution {
        Some((start, moves)) => {
            let mut children = vec![Vec::new(); tree.len()];
            for (i, t) in tree.iter().enumerate() {
                if let Some(p) = t.parent.filter(|&p| p < tree.len()) {
                    children[p].push(i);
                }
            }
            let Some(mut cur) = tree
                .iter()
                .position(|t| t.parent.is_none() && &t.board == start)
            else {
                return on;
            };
            on[cur] = true;
            let mut b = start.clone();
            for &m in moves {
                if b.apply(m).is_none() {
                    break;
                }
                match children[cur].iter().find(|&&c| tree[c].board == b) {
                    Some(&c) => {
                        on[c] = true;
                        cur = c;
                    }
                    None => break,
                }
            }
        }
        None => {
            let mut cur = Some(tree.len() - 1);
            while let Some(i) = cur.filter(|&i| i < tree.len() && !on[i]) {
                on[i] = true;
                cur = tree[i].parent;
            }
        }
    }
    on
}

/// Draws the tree in `rect`.
pub fn show(ui: &mut egui::Ui, st: &mut AppState, rect: Rect) {
    let mut ui = ui.new_child(egui::UiBuilder::new().max_rect(rect));
    let ui = &mut ui;
    let Some(tree) = tree_to_draw(ui, st) else {
        return;
    };
    let pos = layout(&tree);
    // Nodes (not boards: a board can be reached twice) on the solution path, followed down
    // the tree from the root; while searching, the path up from the last node expanded.
    let on_path = path_nodes(&tree, st.run.solution().map(|s| (st.board(), &s.moves[..])));
    let goal = st.goal().map(|g| g.board().clone());
    caption(ui, st, tree.len());
    let bounds = pos.iter().fold(Rect::NOTHING, |r, p| {
        r.union(Rect::from_center_size(*p, vec2(DX, DY)))
    });
    if st.view.tree_scene == Rect::ZERO || !st.view.tree_scene.is_finite() {
        st.view.tree_scene = bounds.expand(20.0);
    }
    let mut scene_rect = st.view.tree_scene;
    let drawing = Drawing {
        tree: &tree,
        pos: &pos,
        on_path: &on_path,
    };
    let (hovered, clicked) = drawing.scene(ui, &mut scene_rect, bounds);
    st.view.tree_scene = scene_rect;
    if let Some(i) = hovered {
        node_tip(ui, st, rect, &tree[i], goal.as_ref());
    }
    if let Some(i) = clicked {
        st.view.focus = Some(tree[i].board.clone());
    }
}

/// The stepped search's tree to draw, or `None` after a line in `ui` saying why there is
/// none (no stepped search, too large, nothing expanded yet).
fn tree_to_draw(ui: &mut egui::Ui, st: &AppState) -> Option<Vec<TreeNode>> {
    let Some(v) = st.run.inspect() else {
        ui.label(if st.run.handed_off() {
            "Batched A* went on in batches after its steps: the tree is drawn while a search is \
             stepped. Press Reset, then Step (N), to step again."
        } else {
            "The search tree is drawn for stepped searches: press Step (N) to start one, \
             then watch the tree grow node by node."
        });
        return None;
    };
    if !v.tree_complete {
        ui.label(format!(
            "The tree is too large to draw (more than {TREE_LIMIT} expanded nodes): see the \
             heatmap for the frontier."
        ));
        return None;
    }
    if v.tree.is_empty() {
        empty_note(ui, st);
        return None;
    }
    Some(v.tree.clone())
}

/// Says why the tree is empty: IDA*'s next iteration has not begun, or nothing is expanded.
fn empty_note(ui: &mut egui::Ui, st: &AppState) {
    match st.run.progress() {
        // An iteration of IDA* has ended: its tree is gone, the next one (`p.iteration`,
        // threshold `p.bound`) not begun.
        Some(p)
            if p.algorithm == Some(crate::search::Algorithm::IdaStar)
                && p.expanded > 0
                && p.ida.number > 1 =>
        {
            ui.label(format!(
                "IDA*'s iteration {} ended without the goal (the Iterations tab keeps its \
                 heatmap): the next, with threshold {}, has expanded nothing yet. \
                 Step starts it from the start board ({} expansions in all iterations so \
                 far).",
                p.ida.number - 1,
                p.bound,
                group(p.expanded)
            ));
        }
        _ => {
            ui.label("Nothing expanded yet: the tree is the start board alone.");
        }
    }
}

/// The line over the tree: whose tree it is (`nodes` expanded nodes), what is orange, and how
/// to pan, zoom and pick.
fn caption(ui: &mut egui::Ui, st: &AppState, nodes: usize) {
    // IDA*'s tree is its current iteration's: say so, with the count over all iterations,
    // so that it reads with the inspector's and the stats' totals.
    let whose = match st.run.progress() {
        Some(p) if p.algorithm == Some(crate::search::Algorithm::IdaStar) => format!(
            "Search tree of IDA*'s iteration {} (threshold {}): {} expanded nodes in it, {} in \
             all iterations",
            p.ida.number, p.bound, nodes, p.expanded
        ),
        _ => format!("Search tree: {nodes} expanded nodes"),
    };
    ui.label(format!(
        "{whose}, numbered in expansion order; {} · drag or scroll to pan, Ctrl+scroll to \
         zoom, click a node to show its board",
        if st.run.solution().is_some() {
            "the solution path in orange"
        } else {
            "the path to the last node in orange"
        }
    ));
}

/// The tree as drawn: its nodes, their positions in scene points, and which are on the path.
struct Drawing<'a> {
    tree: &'a [TreeNode],
    pos: &'a [Pos2],
    on_path: &'a [bool],
}

impl Drawing<'_> {
    /// Draws the tree in a pannable, zoomable scene showing `scene_rect` (updated by the
    /// user's pans and zooms) over `bounds`, the nodes' extent. Returns the nodes hovered and
    /// clicked, if any.
    fn scene(
        &self,
        ui: &mut egui::Ui,
        scene_rect: &mut Rect,
        bounds: Rect,
    ) -> (Option<usize>, Option<usize>) {
        let mut hovered: Option<usize> = None;
        let mut clicked: Option<usize> = None;
        egui::Scene::new()
            .zoom_range(0.05..=4.0)
            .show(ui, scene_rect, |ui| {
                let resp = ui.allocate_rect(bounds.expand(20.0), Sense::click());
                let p = ui.painter();
                self.edges(p);
                let near = resp.hover_pos().and_then(|h| self.nearest(h));
                self.nodes(p, near);
                hovered = near;
                if resp.clicked() {
                    clicked = near;
                }
            });
        (hovered, clicked)
    }

    /// Draws each node's edge to its parent, thick and orange on the path.
    fn edges(&self, p: &egui::Painter) {
        for (i, t) in self.tree.iter().enumerate() {
            if let Some(par) = t.parent {
                let on = self.on_path[i] && self.on_path[par];
                let stroke = if on {
                    Stroke::new(2.5, Color32::from_rgb(242, 160, 60))
                } else {
                    Stroke::new(1.0, Color32::from_gray(90))
                };
                p.line_segment([self.pos[par], self.pos[i]], stroke);
            }
        }
    }

    /// The node nearest the scene point `h`, within half a column of it.
    fn nearest(&self, h: Pos2) -> Option<usize> {
        self.pos
            .iter()
            .enumerate()
            .map(|(i, p)| (i, p.distance(h)))
            .filter(|&(_, d)| d < DX * 0.5)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(i, _)| i)
    }

    /// Draws the nodes as numbered discs, orange on the path, the one `near` the pointer
    /// larger.
    fn nodes(&self, p: &egui::Painter, near: Option<usize>) {
        let font = FontId::proportional(9.0);
        for (i, t) in self.tree.iter().enumerate() {
            let fill = if self.on_path[i] {
                Color32::from_rgb(242, 160, 60)
            } else {
                Color32::from_rgb(55, 95, 170)
            };
            let r = if near == Some(i) { 11.0 } else { 9.0 };
            p.circle_filled(self.pos[i], r, fill);
            p.text(
                self.pos[i],
                Align2::CENTER_CENTER,
                t.number.to_string(),
                font.clone(),
                Color32::WHITE,
            );
        }
    }
}

/// The hovered node `t`'s tooltip by the pointer (or the top left of `rect`): its number,
/// g, h and f, and its board (tiles in place against `goal` marked).
fn node_tip(ui: &egui::Ui, st: &AppState, rect: Rect, t: &TreeNode, goal: Option<&Board>) {
    let at = ui
        .ctx()
        .pointer_hover_pos()
        .map_or(rect.min + vec2(8.0, 24.0), |p| p + vec2(16.0, 16.0));
    let tip = egui::Area::new(ui.scope_id().with("tree-tip"))
        .order(egui::Order::Tooltip)
        .fixed_pos(at);
    tip.show(ui.ctx(), |ui| {
        egui::Frame::popup(ui.style()).show(ui, |ui| {
            let algorithm = st
                .run
                .progress()
                .and_then(|p| p.algorithm)
                .unwrap_or(crate::search::Algorithm::AStar);
            ui.monospace(format!("#{} {}", t.number, ghf(algorithm, t.g, t.h)));
            mini::board(ui, &t.board, goal, mini::cell_for(t.board.cols(), 60.0));
        });
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(parent: Option<usize>, g: u32) -> TreeNode {
        TreeNode {
            board: Board::from_u8(2, 2, &[1, 2, 3, 0]).unwrap(),
            parent,
            g,
            h: 0,
            number: 0,
        }
    }

    #[test]
    fn the_path_follows_nodes_not_boards() {
        use crate::puzzle::Move;
        let a: Board = "1 2 3/4 0 6/7 5 8".parse().unwrap();
        let up = a.moved(Move::Up).unwrap();
        let down = a.moved(Move::Down).unwrap();
        let n = |board: &Board, parent, g| TreeNode {
            board: board.clone(),
            parent,
            g,
            h: 0,
            number: 0,
        };
        // The root's board comes again as node 3, below node 1.
        let tree = [
            n(&a, None, 0),
            n(&up, Some(0), 1),
            n(&down, Some(0), 1),
            n(&a, Some(1), 2),
        ];
        let sol = [Move::Down, Move::Right];
        assert_eq!(
            path_nodes(&tree, Some((&a, &sol))),
            [true, false, true, false]
        );
        assert_eq!(path_nodes(&tree, None), [true, true, false, true]);
    }

    #[test]
    fn parents_sit_over_their_children_and_leaves_do_not_overlap() {
        // 0 → (1 → (3, 4), 2)
        let tree = [
            node(None, 0),
            node(Some(0), 1),
            node(Some(0), 1),
            node(Some(1), 2),
            node(Some(1), 2),
        ];
        let p = layout(&tree);
        assert_eq!(p[3].x, 0.0);
        assert_eq!(p[4].x, DX);
        assert_eq!(p[1].x, DX / 2.0);
        assert_eq!(p[2].x, 2.0 * DX);
        assert_eq!(p[0].x, (p[1].x + p[2].x) / 2.0);
        assert_eq!(p[4].y, 2.0 * DY);
    }
}
