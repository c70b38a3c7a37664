//! The search tree view (issue 43, §6): generated children drawn by their fate against the
//! stepper's own per-expansion fates, IDA*'s finished iterations kept and picked, the goal
//! and the path, and the exports (the tree as SVG, a view and the board as PNG).
#![cfg(feature = "gui")]

mod common;

use std::collections::HashMap;

use common::harness::{harness, painted_texts, set, step_by, step_until};
use common::{goal, replay};
use egui_kittest::kittest::Queryable;
use npuzzle::app::{AppState, Geometry, LowerView, Mark, RunState};
use npuzzle::heuristic::{HeuristicKind, HeuristicSpec};
use npuzzle::puzzle::{Board, GoalSpec};
use npuzzle::search::stepper::{Expansion, Fate, Step, Stepper};
use npuzzle::search::{Algorithm, Limits, Outcome, Problem, Pruning, solve};

/// The 31-move 8-puzzle.
const HARD8: &str = "8 6 7/2 5 4/3 0 1";
/// 12 moves; IDA* with Manhattan on one thread runs four iterations (thresholds 6, 8, 10,
/// 12: 3, 11, 34 and 19 nodes expanded).
const FOUR_ITERATIONS: &str = "5 1 3/4 0 2/7 8 6";

fn problem(board: &str) -> Problem {
    Problem {
        start: board.parse().unwrap(),
        goal: goal(&GoalSpec::BlankLast, 3, 3),
    }
}

/// The first `n` expansions of a stepper of the test's own, as it reports them step by step.
fn expansions(board: &str, algorithm: Algorithm, n: usize) -> Vec<Expansion> {
    let spec = HeuristicSpec::Kind(HeuristicKind::Manhattan);
    let mut s = Stepper::new(&problem(board), algorithm, &spec, 1 << 30).unwrap();
    let mut out = Vec::new();
    while out.len() < n {
        match s.step().unwrap() {
            Step::Expanded => out.extend(s.last().cloned()),
            Step::NextIteration(_) => {}
            Step::Solved => break,
        }
    }
    out
}

/// The mark each generated child that was not expanded should have, by expansion number and
/// successor index, from the expansions alone: a child is expanded when a later expansion has
/// its board and came from this one (its path is this one's and one move).
fn expected_marks(exps: &[Expansion], goal: &Board) -> Vec<(u64, usize, Mark)> {
    let mut out = Vec::new();
    for e in exps {
        for (j, s) in e.successors.iter().enumerate() {
            let expanded = exps.iter().any(|x| {
                x.board == s.board
                    && x.path.len() == e.path.len() + 1
                    && x.path[..e.path.len()] == e.path[..]
                    && x.path.last() == Some(&s.mv)
            });
            let mark = match s.fate {
                Fate::Parent => continue,
                _ if expanded => continue,
                Fate::Pushed | Fate::BetterPath { .. } | Fate::Goal if s.board == *goal => {
                    Mark::Goal
                }
                Fate::Pushed => Mark::Pushed,
                Fate::BetterPath { .. } => Mark::BetterPath,
                Fate::Known { .. } => Mark::Duplicate,
                Fate::OverThreshold => Mark::Pruned,
                Fate::Goal => Mark::Goal,
            };
            out.push((e.number, j, mark));
        }
    }
    out.sort_by_key(|&(n, j, _)| (n, j));
    out
}

/// The marks of the generated children drawn in `geo` of `tree`, as `expected_marks` lists
/// them.
fn drawn_marks(
    geo: &Geometry,
    tree: &[npuzzle::search::stepper::TreeNode],
) -> Vec<(u64, usize, Mark)> {
    let mut out: Vec<(u64, usize, Mark)> = geo
        .drawn
        .iter()
        .filter_map(|d| Some((tree[d.node].number, d.successor?, d.mark)))
        .collect();
    out.sort_by_key(|&(n, j, _)| (n, j));
    out
}

/// How many times each text was painted in the last frame.
fn painted(h: &egui_kittest::Harness<'_, common::harness::TestApp>) -> HashMap<String, usize> {
    let mut m = HashMap::new();
    for t in painted_texts(h) {
        *m.entry(t).or_default() += 1;
    }
    m
}

/// Steps A* 150 nodes in the app: the tree draws every generated child that was not
/// expanded with its fate, as a stepper of the test's own reported them step by step, and
/// paints one letter for each (and one in the legend).
#[test]
fn a_star_s_tree_draws_each_generated_child_by_the_fate_the_stepper_gave_it() {
    let mut h = harness(HARD8);
    set(
        &mut h.state_mut().st,
        Algorithm::AStar,
        HeuristicKind::Manhattan,
    );
    h.state_mut().st.view.lower = LowerView::Tree;
    h.step();
    step_by(&mut h, 150);
    h.step();
    let exps = expansions(HARD8, Algorithm::AStar, 150);
    let g = problem(HARD8).goal.board().clone();
    let want = expected_marks(&exps, &g);
    let v = h.state().st.run.inspect().unwrap().clone();
    let geo = Geometry::of(&v.tree, true, Some(&g), None);
    assert_eq!(drawn_marks(&geo, &v.tree), want);
    assert_eq!(geo.count(Mark::Expanded), 150);
    // A* on the 8-puzzle drops duplicates; none is pruned (no threshold).
    assert!(geo.count(Mark::Duplicate) > 0);
    assert_eq!(geo.count(Mark::Pruned), 0);
    let letters = painted(&h);
    for mark in [
        Mark::Pushed,
        Mark::Duplicate,
        Mark::Pruned,
        Mark::BetterPath,
    ] {
        let n = want.iter().filter(|w| w.2 == mark).count();
        assert_eq!(
            letters.get(mark.letter()).copied().unwrap_or(0),
            n + 1,
            "{mark:?}"
        );
    }
    let leaves = want.len();
    h.get_by_label_contains(&format!(
        "Search tree: 150 expanded nodes, {leaves} generated children"
    ));
    // Unticked, the children go (and the caption says so); ticked, they are back.
    h.get_by_label("generated children").click();
    h.step();
    h.step();
    h.get_by_label_contains(&format!("{leaves} generated children hidden"));
    assert_eq!(painted(&h).get("D").copied(), Some(1));
    h.get_by_label("generated children").click();
    h.step();
    h.step();
    assert_eq!(
        painted(&h).get("D").copied(),
        Some(want.iter().filter(|w| w.2 == Mark::Duplicate).count() + 1)
    );
    h.state_mut().st.stop();
    h.step();
}

/// IDA* stepped to its answer: each finished iteration's tree is kept and picked in "Tree
/// of", showing as many expanded nodes as that iteration expanded in the fast IDA*; the live
/// one ends in the goal, on the solution path, and its pruned children are the stepper's.
#[test]
fn ida_star_s_finished_iterations_are_kept_and_picked_with_their_own_counts() {
    let mut h = harness(FOUR_ITERATIONS);
    set(
        &mut h.state_mut().st,
        Algorithm::IdaStar,
        HeuristicKind::Manhattan,
    );
    h.state_mut().st.view.lower = LowerView::Tree;
    h.step();
    h.state_mut().st.step(1);
    step_until(&mut h, |s| s.run.is_idle());
    h.state_mut().st.toggle_pause();
    step_until(&mut h, |s| *s.run.state() == RunState::Done);
    h.step();
    let p = problem(FOUR_ITERATIONS);
    let limits = Limits {
        threads: 1,
        pruning: Pruning::Undo,
        ..Limits::default()
    };
    let spec = HeuristicSpec::Kind(HeuristicKind::Manhattan);
    let Outcome::Solved(fast) = solve(&p, Algorithm::IdaStar, spec, &limits, &mut |_| {}).unwrap()
    else {
        panic!("unsolved")
    };
    let its: Vec<(u32, u64)> = fast
        .stats
        .iterations
        .iter()
        .map(|i| (i.threshold, i.expanded))
        .collect();
    assert_eq!(its, [(6, 3), (8, 11), (10, 34), (12, 19)]);
    let v = h.state().st.run.inspect().unwrap().clone();
    assert_eq!(v.iteration_trees.len(), 3);
    // The live (last) iteration: its expanded nodes, the goal at the end of the path.
    let g = p.goal.board().clone();
    let sol = h.state().st.run.solution().unwrap().moves.clone();
    assert_eq!(replay(&p.start, &sol), g);
    let geo = Geometry::of(&v.tree, true, Some(&g), Some((&p.start, &sol)));
    assert_eq!(geo.count(Mark::Expanded), 19);
    let on_path: Vec<Mark> = geo
        .drawn
        .iter()
        .filter(|d| d.on_path)
        .map(|d| d.mark)
        .collect();
    assert_eq!(on_path.len(), sol.len() + 1);
    assert_eq!(on_path.iter().filter(|&&m| m == Mark::Goal).count(), 1);
    h.get_by_label_contains(
        "Search tree of IDA*'s iteration 4 (threshold 12): 19 expanded nodes in it",
    );
    // Each finished iteration, picked in the menu: its own count, and its pruned children
    // are those the stepper reported in its first expansions.
    let mut before = 0;
    for (i, &(t, n)) in its[..3].iter().enumerate() {
        let name = format!("iteration {} (threshold {t}, {n} expanded)", i + 1);
        let combo = h
            .get_all_by_role(egui::accesskit::Role::ComboBox)
            .find(|c| {
                c.value()
                    .is_some_and(|v| v == "the live iteration" || v.ends_with("expanded)"))
            })
            .expect("the iteration menu");
        combo.click();
        h.step();
        h.step();
        h.get_by_label(&name).click();
        h.step();
        h.step();
        assert_eq!(h.state().st.view.picked_iteration, Some(i));
        h.get_by_label_contains(&format!(
            "Search tree of IDA*'s finished iteration {} (threshold {t}): {n} expanded nodes",
            i + 1
        ));
        let tree = v.iteration_trees[i].as_ref().unwrap();
        assert_eq!(tree.len() as u64, n);
        let geo = Geometry::of(tree, true, Some(&g), None);
        let exps = expansions(FOUR_ITERATIONS, Algorithm::IdaStar, (before + n) as usize);
        let this: Vec<Expansion> = exps.into_iter().skip(before as usize).collect();
        assert_eq!(drawn_marks(&geo, tree), expected_marks(&this, &g));
        assert!(geo.count(Mark::Pruned) > 0);
        assert_eq!(
            painted(&h).get("P").copied(),
            Some(geo.count(Mark::Pruned) + 1)
        );
        before += n;
    }
    // Back to live, from the strip.
    h.get_by_label("iteration 3: back to live").click();
    h.step();
    assert_eq!(h.state().st.view.picked_iteration, None);
}

/// The tree saved as SVG: one `<g class="node …">` per node drawn, tags balanced; the heatmap
/// and the board saved as PNG: the window's picture (here one made by the test, as the window
/// loop would answer egui's request) cropped to the view, of its size.
#[test]
fn the_tree_exports_as_svg_and_views_as_png_of_their_size() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(HARD8);
    set(
        &mut h.state_mut().st,
        Algorithm::AStar,
        HeuristicKind::Manhattan,
    );
    h.state_mut().st.view.lower = LowerView::Tree;
    h.step();
    step_by(&mut h, 10);
    h.step();
    let svg_path = dir.path().join("tree.svg");
    h.state_mut().dialogs.save = Some(svg_path.clone());
    h.get_by_label("Export").click();
    h.step();
    h.step();
    h.get_by_label("The tree as SVG…").click();
    h.step();
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    let v = h.state().st.run.inspect().unwrap().clone();
    let g = problem(HARD8).goal.board().clone();
    let geo = Geometry::of(&v.tree, true, Some(&g), None);
    assert!(svg.starts_with("<svg ") && svg.trim_end().ends_with("</svg>"));
    assert_eq!(svg.matches("<g class=\"node ").count(), geo.drawn.len());
    assert_eq!(svg.matches("<g class=\"node expanded\"").count(), 10);
    assert_eq!(svg.matches("<g").count(), svg.matches("</g>").count());
    assert_eq!(svg.matches("<title>").count(), geo.drawn.len());
    // PNGs: the heatmap view, then the board.
    h.state_mut().st.view.lower = LowerView::Heatmap;
    h.step();
    for (item, file) in [
        ("The heatmap view as PNG…", "heat.png"),
        ("The board as PNG…", "board.png"),
    ] {
        let path = dir.path().join(file);
        h.state_mut().dialogs.save = Some(path.clone());
        h.get_by_label("Export").click();
        h.step();
        h.step();
        h.get_by_label(item).click();
        h.step();
        let shots: Vec<egui::ScreenshotCallback> = h.output().viewport_output
            [&egui::ViewportId::ROOT]
            .commands
            .iter()
            .filter_map(|c| match c {
                egui::ViewportCommand::Screenshot(cb) => Some(cb.clone()),
                _ => None,
            })
            .collect();
        assert_eq!(shots.len(), 1, "{item}");
        // The window's picture: each pixel says where it is (x in red and blue's low bits,
        // y in green and alpha-free blue's high bits).
        let (w, hh) = (1280usize, 800usize);
        let pixels = (0..w * hh)
            .map(|i| {
                let (x, y) = (i % w, i / w);
                egui::Color32::from_rgb(
                    (x % 256) as u8,
                    (y % 256) as u8,
                    ((x / 256) + 16 * (y / 256)) as u8,
                )
            })
            .collect();
        let image = std::sync::Arc::new(egui::ColorImage::new([w, hh], pixels));
        shots.into_iter().for_each(|s| s.complete(image.clone()));
        h.step();
        let bytes = std::fs::read(&path).unwrap();
        let mut dec = png::Decoder::new(std::io::Cursor::new(bytes))
            .read_info()
            .unwrap();
        let (pw, ph) = (dec.info().width as usize, dec.info().height as usize);
        let mut buf = vec![0; dec.output_buffer_size().unwrap()];
        dec.next_frame(&mut buf).unwrap();
        let x0 = buf[0] as usize + 256 * (buf[2] as usize % 16);
        let y0 = buf[1] as usize + 256 * (buf[2] as usize / 16);
        let st: &AppState = &h.state().st;
        let want = if file == "board.png" {
            st.view.board_rect
        } else {
            // The lower view: the central area's width, from under the tab strip down.
            let tab = h.get_by_label("Heatmap").rect();
            egui::Rect::from_min_max(
                egui::pos2(tab.min.x, tab.min.y + 24.0),
                egui::pos2(tab.min.x + st.view.central_width, 0.0),
            )
        };
        assert_eq!(
            (x0, y0),
            (want.min.x.round() as usize, want.min.y.round() as usize),
            "{item}"
        );
        // The pixels under the rect: from its rounded left edge to its rounded right edge
        // (a rect at a fractional position may be a pixel wider than its rounded width).
        let span = |a: f32, b: f32| (b.round() - a.round()) as usize;
        assert_eq!(pw, span(want.min.x, want.max.x), "{item}");
        if file == "board.png" {
            assert_eq!(ph, span(want.min.y, want.max.y));
        } else {
            assert!(ph > 100 && y0 + ph <= hh, "{ph}");
        }
        let said = h.state().st.messages.iter().any(|m| {
            m.text
                .contains(&format!("as {} ({pw}×{ph} pixels)", path.display()))
        });
        assert!(said, "no message for {item}");
    }
    h.state_mut().st.stop();
    h.step();
}

/// The tree view follows a growing tree (its region re-fitted to the tree's bounds) until the
/// user pans or zooms, and again after Fit.
#[test]
fn the_tree_view_follows_the_tree_until_panned() {
    let mut h = harness(HARD8);
    set(
        &mut h.state_mut().st,
        Algorithm::AStar,
        HeuristicKind::Manhattan,
    );
    h.state_mut().st.view.lower = LowerView::Tree;
    h.step();
    let g = problem(HARD8).goal.board().clone();
    let fitted_to = |h: &mut egui_kittest::Harness<'_, common::harness::TestApp>, n: u64| {
        step_by(h, n);
        h.step();
        h.step();
        let v = h.state().st.run.inspect().unwrap().clone();
        let bounds = Geometry::of(&v.tree, true, Some(&g), None).bounds;
        (bounds, h.state().st.view.tree_scene)
    };
    let (b5, s5) = fitted_to(&mut h, 5);
    assert!(s5.contains_rect(b5), "{s5:?} {b5:?}");
    let (b60, s60) = fitted_to(&mut h, 55);
    assert!(b60.width() > b5.width(), "{b5:?} {b60:?}");
    assert!(s60.contains_rect(b60), "followed: {s60:?} {b60:?}");
    // The user's own region (a pan) stays as the tree grows.
    let panned = s60.translate(egui::vec2(-300.0, 40.0));
    h.state_mut().st.view.tree_scene = panned;
    h.step();
    let (_, s90) = fitted_to(&mut h, 30);
    assert_eq!(s90, panned);
    h.get_by_label("Fit").click();
    h.step();
    h.step();
    let (b100, s100) = fitted_to(&mut h, 10);
    assert!(s100.contains_rect(b100), "after Fit: {s100:?} {b100:?}");
    h.state_mut().st.stop();
    h.step();
}
