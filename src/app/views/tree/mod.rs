//! The search tree of a stepped search: expanded boards as numbered discs under their parents,
//! by depth g, and each generated child that was not expanded by its fate (pushed, a better
//! path, a duplicate dropped, pruned over IDA*'s threshold; a shape and a letter each, with a
//! legend), the goal, the solution path in orange; IDA*'s finished iterations' trees to pick
//! from. The geometry and its shapes are computed when the tree changes
//! ([`geometry::Geometry`]), not every frame. Hover for a node's board and g, h, f; click to
//! show it on the main board; drag or scroll to pan, Ctrl+scroll (or pinch) to zoom.

pub mod geometry;
pub mod paint;
pub mod svg;

use std::sync::Arc;

use egui::{Rect, Sense, Shape, Stroke};

use crate::app::state::AppState;
use crate::app::views::{ghf, mini};
use crate::puzzle::Board;
use crate::search::Algorithm;
use crate::search::stepper::{KEPT_TREES_BYTES, TREE_LIMIT, TreeNode};
use crate::text::group_digits as group;
use geometry::{DRAWN_LIMIT, Geometry, Mark};

/// What the cached geometry was computed from: which tree (the live one or a finished
/// IDA* iteration's), its extent in nodes and expansion numbers, whether the children are
/// drawn, the solution shown.
#[derive(Clone, Debug, PartialEq)]
struct Key {
    picked: Option<usize>,
    len: usize,
    first: u64,
    last: u64,
    children: bool,
    solution: Option<(usize, usize)>,
}

/// The key of the cached geometry in egui's memory.
const CACHE: &str = "npuzzle: tree geometry";

/// A tree's geometry and shapes, kept until the tree changes.
struct Cached {
    key: Key,
    /// The tree drawn.
    tree: Arc<[TreeNode]>,
    /// Where each node is, and what was left out.
    geo: Geometry,
    shapes: Vec<Shape>,
}

/// The tree to draw: the live one, or the finished IDA* iteration `picked` (its index), with
/// the threshold its fates were judged against.
struct Source<'a> {
    tree: &'a [TreeNode],
    picked: Option<usize>,
    threshold: u32,
}

/// Draws the tree in `rect`.
pub fn show(ui: &mut egui::Ui, st: &mut AppState, rect: Rect) {
    let mut ui = ui.new_child(egui::UiBuilder::new().max_rect(rect));
    let ui = &mut ui;
    let Some(src) = tree_to_draw(ui, st) else {
        // Still the picker: a finished iteration's tree can be shown between iterations.
        controls(ui, st);
        return;
    };
    let picked = src.picked;
    let threshold = src.threshold;
    let cached = cached(ui, st, &src);
    let words = ui.label(caption(st, &cached, picked)).id;
    controls(ui, st);
    paint::legend(ui);
    // Until the user pans or zooms, the view follows the tree as it grows (re-fitted each
    // time its bounds change); Fit follows it again.
    let v = &mut st.view;
    let follow =
        v.tree_scene == Rect::ZERO || !v.tree_scene.is_finite() || v.tree_fit == Some(v.tree_scene);
    if follow {
        v.tree_scene = cached.geo.bounds.expand(20.0);
    }
    let mut scene_rect = v.tree_scene;
    let (hovered, clicked) = scene(ui, &cached, &mut scene_rect, words);
    let v = &mut st.view;
    v.tree_fit = (follow && scene_rect == v.tree_scene).then_some(scene_rect);
    v.tree_scene = scene_rect;
    if let Some(i) = hovered {
        node_tip(ui, st, rect, &cached, i, threshold);
    }
    if let Some((b, _, _)) = clicked.and_then(|i| cached.geo.drawn[i].read(&cached.tree)) {
        st.view.focus = Some(b.clone());
    }
}

/// The geometry of the tree `src` (from egui's memory while the tree is unchanged, else
/// computed now and kept there).
fn cached(ui: &egui::Ui, st: &AppState, src: &Source<'_>) -> Arc<Cached> {
    let key = Key {
        picked: src.picked,
        len: src.tree.len(),
        first: src.tree.first().map_or(0, |t| t.number),
        last: src.tree.last().map_or(0, |t| t.number),
        children: st.view.tree_children,
        solution: st.run.solution().map(|s| (s.moves.len(), s.chosen)),
    };
    let id = egui::Id::unique(CACHE);
    if let Some(c) = ui.ctx().data(|d| d.get_temp::<Arc<Cached>>(id))
        && c.key == key
    {
        return c;
    }
    let tree: Arc<[TreeNode]> = src.tree.into();
    let goal = st.goal().map(|g| g.board().clone());
    let solution = st.run.solution().map(|s| (st.board(), &s.moves[..]));
    let geo = Geometry::of(&tree, key.children, goal.as_ref(), solution);
    let shapes = paint::shapes(ui.painter(), &tree, &geo);
    let c = Arc::new(Cached {
        key,
        tree,
        geo,
        shapes,
    });
    ui.ctx().data_mut(|d| d.insert_temp(id, c.clone()));
    c
}

/// The tree last drawn as an SVG document ([`svg::document`]), with a title saying what it
/// shows; `None` when no tree has been drawn.
pub fn svg_text(ctx: &egui::Context) -> Option<String> {
    let c = ctx.data(|d| d.get_temp::<Arc<Cached>>(egui::Id::unique(CACHE)))?;
    let nodes = c.geo.count(Mark::Expanded);
    let whose = match c.key.picked {
        Some(i) => format!("IDA*'s iteration {}", i + 1),
        None => "search tree".to_string(),
    };
    let left = if c.geo.hidden > 0 {
        format!(
            " ({} generated children not drawn)",
            group(c.geo.hidden as u64)
        )
    } else {
        String::new()
    };
    let title = format!(
        "npuzzle · {whose}: {} expanded nodes, {} generated children{left}",
        group(nodes as u64),
        group((c.geo.drawn.len() - nodes) as u64)
    );
    Some(svg::document(&c.tree, &c.geo, &title))
}

/// The stepped search's tree to draw (the live one, or the IDA* iteration picked), or `None`
/// after a line in `ui` saying why there is none (no stepped search, too large, not kept,
/// nothing expanded yet), with the iteration picker where there is one.
fn tree_to_draw<'a>(ui: &mut egui::Ui, st: &'a AppState) -> Option<Source<'a>> {
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
    if let Some(i) = st.view.picked_iteration.filter(|&i| i < v.iterations.len()) {
        return match v.iteration_trees.get(i).and_then(Option::as_ref) {
            Some(t) => Some(Source {
                tree: t,
                picked: Some(i),
                threshold: v.iterations[i].threshold,
            }),
            None => {
                ui.label(format!(
                    "The tree of IDA*'s iteration {} was not kept: past {TREE_LIMIT} expanded \
                     nodes, or let go to keep the finished iterations' trees within {} MiB \
                     (the oldest go first). Pick another iteration, or the live one.",
                    i + 1,
                    KEPT_TREES_BYTES >> 20
                ));
                None
            }
        };
    }
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
    Some(Source {
        tree: &v.tree,
        picked: None,
        threshold: st.run.progress().map_or(0, |p| p.bound),
    })
}

/// Says why the tree is empty: IDA*'s next iteration has not begun, or nothing is expanded.
fn empty_note(ui: &mut egui::Ui, st: &AppState) {
    match st.run.progress() {
        // An iteration of IDA* has ended: its tree is kept, the next one (`p.iteration`,
        // threshold `p.bound`) not begun.
        Some(p)
            if p.algorithm == Some(Algorithm::IdaStar) && p.expanded > 0 && p.ida.number > 1 =>
        {
            ui.label(format!(
                "IDA*'s iteration {} ended without the goal (the Iterations tab keeps its \
                 heatmap): the next, with threshold {}, has expanded nothing yet. Step starts \
                 it from the start board ({} expansions in all iterations so far). The ended \
                 iteration's tree is kept: pick it in \"Tree of\".",
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

/// The line over the tree: whose tree it is (its expanded nodes), what was left out, what is
/// orange (also the tree's AccessKit label).
fn caption(st: &AppState, c: &Cached, picked: Option<usize>) -> String {
    let nodes = c.geo.count(Mark::Expanded);
    let generated = c.geo.drawn.len() - nodes;
    let iterations = st.run.inspect().map_or(&[][..], |v| &v.iterations[..]);
    // IDA*'s tree is one iteration's: say which, with the count over all iterations, so
    // that it reads with the inspector's and the stats' totals.
    let whose = match (st.run.progress(), picked.and_then(|i| iterations.get(i))) {
        (_, Some(it)) => format!(
            "Search tree of IDA*'s finished iteration {} (threshold {}): {} expanded nodes",
            picked.unwrap_or(0) + 1,
            it.threshold,
            group(nodes as u64)
        ),
        (Some(p), None) if p.algorithm == Some(Algorithm::IdaStar) => format!(
            "Search tree of IDA*'s iteration {} (threshold {}): {} expanded nodes in it, {} in \
             all iterations",
            p.ida.number,
            p.bound,
            group(nodes as u64),
            group(p.expanded)
        ),
        _ => format!("Search tree: {} expanded nodes", group(nodes as u64)),
    };
    let children = if c.geo.capped {
        format!(
            "; its {} generated children not drawn (more than {} nodes in all)",
            group(c.geo.hidden as u64),
            group(DRAWN_LIMIT as u64)
        )
    } else if c.geo.hidden > 0 {
        format!("; {} generated children hidden", group(c.geo.hidden as u64))
    } else {
        format!(", {} generated children", group(generated as u64))
    };
    let path = match (st.run.solution().is_some(), picked.is_some()) {
        // A finished iteration did not reach the goal: the solution's moves are followed as
        // far as it went (a ring where they were pruned).
        (true, true) => "the solution's moves in orange, as far as this iteration followed them",
        (true, false) => "the solution path in orange",
        (false, _) => "the path to the last node in orange",
    };
    format!("{whose}{children}; {path}.")
}

/// The row of controls: which tree (IDA*: the live iteration or a finished one), whether
/// the generated children are drawn, and a button to fit the tree in the view.
fn controls(ui: &mut egui::Ui, st: &mut AppState) {
    let Some(v) = st.run.inspect() else { return };
    let its: Vec<(u32, u64, bool)> = v
        .iterations
        .iter()
        .zip(v.iteration_trees.iter().chain(std::iter::repeat(&None)))
        .map(|(it, t)| (it.threshold, it.expanded, t.is_some()))
        .collect();
    ui.horizontal(|ui| {
        if !its.is_empty() {
            iteration_picker(ui, st, &its);
        }
        let before = st.view.tree_children;
        ui.checkbox(&mut st.view.tree_children, "generated children")
            .on_hover_text("draw each generated child that was not expanded, by its fate");
        let fit = ui.small_button("Fit").on_hover_text(
            "the whole tree in view · drag or scroll to pan, Ctrl+scroll to zoom, click a node \
             to show its board, hover for its numbers",
        );
        if fit.clicked() || before != st.view.tree_children {
            st.view.tree_scene = Rect::ZERO;
        }
    });
}

/// IDA*: a menu of the finished iterations `its` (threshold, expanded, tree kept) and the
/// live one; picking one shows its tree (and its heatmap, as a pick in the Iterations tab).
fn iteration_picker(ui: &mut egui::Ui, st: &mut AppState, its: &[(u32, u64, bool)]) {
    let name = |i: usize| {
        let (t, n, _) = its[i];
        format!("iteration {} (threshold {t}, {} expanded)", i + 1, group(n))
    };
    let live = "the live iteration";
    let shown = st.view.picked_iteration.filter(|&i| i < its.len());
    ui.label("Tree of");
    let before = st.view.picked_iteration;
    egui::ComboBox::from_id_salt("tree: iteration")
        .selected_text(shown.map_or(live.to_string(), name))
        .width(250.0)
        .show_ui(ui, |ui| {
            ui.selectable_value(&mut st.view.picked_iteration, None, live);
            for (i, &(_, _, kept)) in its.iter().enumerate() {
                let text = if kept {
                    name(i)
                } else {
                    format!("{} — not kept", name(i))
                };
                ui.selectable_value(&mut st.view.picked_iteration, Some(i), text);
            }
        })
        .response
        .on_hover_text("Draw the tree of a finished IDA* iteration, or of the running one");
    if st.view.picked_iteration != before {
        st.view.tree_scene = Rect::ZERO;
    }
}

/// Draws the cached tree in a pannable, zoomable scene showing `scene_rect` (updated by the
/// user's pans and zooms), labelled for AccessKit by the caption `words` (a label's id: a
/// screen reader reads the caption as the tree's name). Returns the drawn nodes hovered and
/// clicked, if any.
fn scene(
    ui: &mut egui::Ui,
    c: &Cached,
    scene_rect: &mut Rect,
    words: egui::Id,
) -> (Option<usize>, Option<usize>) {
    let mut hovered = None;
    let mut clicked = None;
    egui::Scene::new()
        .zoom_range(0.05..=4.0)
        .show(ui, scene_rect, |ui| {
            let resp = ui
                .allocate_rect(c.geo.bounds.expand(20.0), Sense::click())
                .labelled_by(words);
            resp.widget_info(|| egui::WidgetInfo::new(egui::accesskit::Role::Tree));
            let p = ui.painter();
            p.extend(c.shapes.iter().cloned());
            let near = resp.hover_pos().and_then(|h| c.geo.nearest(h));
            if let Some(i) = near {
                let d = &c.geo.drawn[i];
                p.circle_stroke(
                    d.pos,
                    paint::NODE_R + 3.0,
                    Stroke::new(1.5, egui::Color32::WHITE),
                );
            }
            hovered = near;
            if resp.clicked() {
                clicked = near;
            }
        });
    (hovered, clicked)
}

/// The hovered node `i`'s tooltip by the pointer (or the top left of `rect`): its number or
/// fate, g, h and f, and its board (tiles in place against the goal marked).
fn node_tip(ui: &egui::Ui, st: &AppState, rect: Rect, c: &Cached, i: usize, threshold: u32) {
    let d = &c.geo.drawn[i];
    let Some((board, g, h)) = d.read(&c.tree) else {
        return;
    };
    let goal: Option<Board> = st.goal().map(|g| g.board().clone());
    let algorithm = st
        .run
        .progress()
        .and_then(|p| p.algorithm)
        .unwrap_or(Algorithm::AStar);
    let what = match d.successor.and_then(|j| c.tree[d.node].successors.get(j)) {
        Some(s) => format!(
            "{} ({}): {}",
            d.mark.letter(),
            d.mark.word(),
            crate::app::panels::fate_text(s, algorithm, threshold)
        ),
        None => format!("#{}", c.tree[d.node].number),
    };
    let at = ui
        .ctx()
        .pointer_hover_pos()
        .map_or(rect.min + egui::vec2(8.0, 24.0), |p| {
            p + egui::vec2(16.0, 16.0)
        });
    let tip = egui::Area::new(ui.scope_id().with("tree-tip"))
        .order(egui::Order::Tooltip)
        .fixed_pos(at);
    tip.show(ui.ctx(), |ui| {
        egui::Frame::popup(ui.style()).show(ui, |ui| {
            ui.monospace(format!("{what}  {}", ghf(algorithm, g, h)));
            mini::board(
                ui,
                board,
                goal.as_ref(),
                mini::cells(board.cols(), 150.0)[0],
            );
        });
    });
}
