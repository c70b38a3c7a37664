//! The Inspector panel of a stepped search: the node just expanded (its board, g, h, f; in
//! IDA* the threshold and the path), each successor with its fate, the open list's first
//! entries in pop order, and how much of the state space the search has touched.

use egui::{Color32, RichText};

use super::group;
use crate::app::state::AppState;
use crate::app::views::{ghf, mini};
use crate::puzzle::{Board, Notation, format_moves, reachable_boards, reachable_boards_log10};
use crate::search::Algorithm;
use crate::search::stepper::{Expansion, Fate, Successor};

/// Colours of the fates: kept (green), dropped (grey), pruned (amber), better (blue).
fn fate_color(f: &Fate) -> Color32 {
    match f {
        Fate::Pushed | Fate::Goal => Color32::from_rgb(120, 200, 120),
        Fate::BetterPath { .. } => Color32::from_rgb(120, 170, 240),
        Fate::Known { .. } | Fate::Parent => Color32::GRAY,
        Fate::OverThreshold => Color32::from_rgb(230, 170, 80),
    }
}

/// What became of a successor, in words.
pub fn fate_text(s: &Successor, algorithm: Algorithm, threshold: u32) -> String {
    let f = s.g + s.h;
    match s.fate {
        Fate::Pushed if algorithm == Algorithm::IdaStar => {
            format!("f {f} ≤ threshold {threshold}: searched below")
        }
        Fate::Pushed if algorithm == Algorithm::Bfs => "new: queued".into(),
        Fate::Pushed => "new: pushed to open".into(),
        Fate::BetterPath {
            old_g,
            reopened: true,
        } => format!("better path (g {old_g} to {}): reopened", s.g),
        Fate::BetterPath { old_g, .. } => format!("better path (g {old_g} to {}): updated", s.g),
        Fate::Known { best_g, closed } => format!(
            "already {} with g {best_g}: dropped",
            if closed { "closed" } else { "on open" }
        ),
        Fate::Parent => "the parent: never undo the last move".into(),
        Fate::OverThreshold => format!("f {f} > threshold {threshold}: pruned"),
        Fate::Goal => "the goal: BFS stops when it is generated".into(),
    }
}

/// The step in one plain sentence, from the expansion's own data alone (its numbers and each
/// successor's [`Fate`], as `fate_text` words them one by one): "Expanded #12, g 5 + h 9 =
/// f 14: 2 successors pushed on the open list, 1 dropped (already closed with g 3), the
/// parent skipped." IDA* names its threshold and what it pruned; BFS, which has no h, says
/// g as its depth.
pub fn narration(e: &Expansion, algorithm: Algorithm) -> String {
    let (n, g, h) = (group(e.number), e.g, e.h);
    let head = match algorithm {
        Algorithm::Bfs => format!("Expanded #{n}, g {g} (its depth)"),
        Algorithm::IdaStar => format!(
            "Expanded #{n}, g {g} + h {h} = f {} (threshold {})",
            g + h,
            e.bound
        ),
        Algorithm::Greedy | Algorithm::WeightedAStar(_) => format!(
            "Expanded #{n}, g {g}, h {h}, f {}",
            crate::app::views::f_sum(algorithm, g, h)
        ),
        _ => format!("Expanded #{n}, g {g} + h {h} = f {}", g + h),
    };
    let count =
        |keep: &dyn Fn(&Fate) -> bool| e.successors.iter().filter(|s| keep(&s.fate)).count();
    let mut parts: Vec<(usize, String)> = Vec::new();
    let pushed = count(&|f| *f == Fate::Pushed);
    let kept = match algorithm {
        Algorithm::Bfs => "queued".to_string(),
        Algorithm::IdaStar => "within the threshold (searched below)".to_string(),
        _ => "pushed on the open list".to_string(),
    };
    parts.push((pushed, kept));
    for s in &e.successors {
        if let Fate::BetterPath { old_g, reopened } = s.fate {
            let what = if reopened { "reopened" } else { "updated" };
            parts.push((
                1,
                format!("reached by a shorter path (g {old_g} to {}): {what}", s.g),
            ));
        }
    }
    let dropped: Vec<String> = e
        .successors
        .iter()
        .filter_map(|s| match s.fate {
            Fate::Known { best_g, closed } => Some(format!(
                "already {} with g {best_g}",
                if closed { "closed" } else { "on open" }
            )),
            _ => None,
        })
        .collect();
    parts.push((dropped.len(), format!("dropped ({})", dropped.join("; "))));
    let pruned: Vec<String> = e
        .successors
        .iter()
        .filter(|s| s.fate == Fate::OverThreshold)
        .map(|s| (s.g + s.h).to_string())
        .collect();
    let over = format!(
        "pruned: f {} over the threshold {}",
        pruned.join(", "),
        e.bound
    );
    parts.push((pruned.len(), over));
    parts.push((count(&|f| *f == Fate::Goal), "the goal: BFS stops".into()));
    let mut said: Vec<String> = parts
        .into_iter()
        .filter(|(k, _)| *k > 0)
        .enumerate()
        .map(|(i, (k, what))| match i {
            0 => format!("{k} successor{} {what}", if k == 1 { "" } else { "s" }),
            _ => format!("{k} {what}"),
        })
        .collect();
    if count(&|f| *f == Fate::Parent) > 0 {
        said.push("the parent skipped (no move undoes the last one)".into());
    }
    format!("{head}: {}.", said.join(", "))
}

/// "N states expanded out of R reachable (share)"; for IDA*, which keeps no closed set and
/// expands a board again in each iteration (and by each path), a count of expansions.
pub fn coverage(algorithm: Algorithm, expanded: u64, rows: usize, cols: usize) -> String {
    let r = reachable_boards(rows, cols);
    let reachable = if r.is_finite() && r < 1e15 {
        group(r as u64)
    } else {
        format!("about 10^{:.0}", reachable_boards_log10(rows, cols))
    };
    if algorithm == Algorithm::IdaStar {
        return format!(
            "{} expansions (IDA* may expand a board more than once) · {reachable} boards reachable",
            group(expanded)
        );
    }
    let share = if r.is_finite() && r < 1e15 {
        format!(" ({:.3} %)", expanded as f64 / r * 100.0)
    } else {
        String::new()
    };
    format!(
        "{} state{} expanded out of {reachable} reachable{share}",
        group(expanded),
        if expanded == 1 { "" } else { "s" }
    )
}

/// The panel; a click on any board shown puts it on the main board ([`View::focus`]).
pub(super) fn show(ui: &mut egui::Ui, st: &mut AppState) {
    let Some(v) = st.run.inspect() else {
        ui.label("Press Step (N) to expand the search one node at a time.");
        return;
    };
    let algorithm = st
        .run
        .progress()
        .and_then(|p| p.algorithm)
        .unwrap_or(Algorithm::AStar);
    let goal = st.goal().map(|g| g.board().clone());
    let goal = goal.as_ref();
    // A copy: the prediction switch below borrows the state mutably.
    let board = st.board().clone();
    let b = &board;
    // The small boards grow with the panel (and stay readable in a narrow one).
    let [cell, small] = mini::cells(b.cols(), ui.available_width());
    let expanded = st.run.progress().map_or(0, |p| p.expanded);
    ui.label(coverage(algorithm, expanded, b.rows(), b.cols()));
    if algorithm == Algorithm::IdaStar {
        ida_memory(ui, v, st.run.progress().map_or(0, |p| p.bound));
    }
    // A stepped search shown at an earlier step than its last is not solved yet there.
    let at_end = st.run.timeline().is_none_or(|(at, reached)| at >= reached);
    let mut picked: Option<Board> = None;
    if st.settings.algorithm == Algorithm::BatchedAStar {
        ui.small(format!(
            "Batched A*, stepped: each round expands one node, in A*'s order; Run at full \
             speed goes on in rounds of {} from here.",
            st.settings.batch_size
        ));
    }
    if let Some(s) = st.run.solution().filter(|_| at_end) {
        solved_line(ui, algorithm, s.moves.len());
    }
    match &v.last {
        None => {
            ui.label("Nothing expanded yet: the open list holds the start board.");
        }
        Some(e) => {
            // After an iteration ends, the Stats panel already shows the next threshold while
            // the last expansion belongs to the iteration before: say so.
            let current = st.run.progress().map_or(e.bound, |p| p.bound);
            if algorithm == Algorithm::IdaStar && current != e.bound {
                ui.small(format!(
                    "Iteration with threshold {} ended; the one with threshold {current} has \
                     expanded nothing yet. The last expansion of the ended iteration:",
                    e.bound
                ));
            }
            let solved = st.run.solution().is_some() && at_end;
            expansion(ui, e, algorithm, goal, solved, cell, small, &mut picked)
        }
    }
    ui.separator();
    super::predict::controls(ui, &mut st.predict, goal, small);
    let predicting = st.predict.on && st.run.solution().is_none();
    let open_title = open_title(algorithm, v, predicting);
    ui.add(egui::Label::new(RichText::new(open_title).strong()).wrap());
    if predicting {
        // Only a search holding at its step takes a prediction (the list is of that moment).
        let ready = st.run.is_idle();
        if let Some(i) = super::predict::open_list(ui, v, algorithm, goal, small, ready) {
            st.predict(i);
        }
        return;
    }
    open_list(ui, v, algorithm, goal, small, b.cols(), &mut picked);
    if let Some(b) = picked {
        st.view.focus = Some(b);
    }
}

/// The line that says the stepped search is solved in `moves` moves, and why its answer is (or
/// is not) optimal for `algorithm`.
fn solved_line(ui: &mut egui::Ui, algorithm: Algorithm, moves: usize) {
    let how = match algorithm {
        Algorithm::Bfs => {
            "BFS generated the goal: the search stops there (it tests boards when it generates them)"
        }
        Algorithm::IdaStar => {
            "IDA* reached the goal within the threshold: the first path found in this iteration is optimal"
        }
        Algorithm::Greedy => {
            "Greedy best-first search took the goal off the open list: it orders by h alone, so its path is not guaranteed optimal"
        }
        Algorithm::WeightedAStar(_) => {
            "Weighted A* took the goal off the open list: with an admissible heuristic its path is at most w times the optimum"
        }
        _ => {
            "A* took the goal off the open list (it counts as closed, not expanded): with an admissible heuristic its g is optimal"
        }
    };
    ui.colored_label(
        egui::Color32::from_rgb(120, 200, 120),
        format!("Solved in {moves} moves. {how}."),
    );
}

/// The open list's heading for `algorithm` at snapshot `v` (`predicting`: the quiz's).
fn open_title(algorithm: Algorithm, v: &crate::app::StepView, predicting: bool) -> String {
    match algorithm {
        _ if predicting => format!(
            "Which does {} expand next? Click it ({} open; the first {} shown, by their tiles)",
            super::solver::label(algorithm),
            group(v.open as u64),
            v.open_top.len()
        ),
        Algorithm::IdaStar => format!(
            "Next on the depth-first path ({} boards within the threshold)",
            group(v.open as u64)
        ),
        Algorithm::Bfs => format!(
            "Queue, first in first out ({} open · {} closed)",
            group(v.open as u64),
            group(v.closed as u64)
        ),
        Algorithm::Greedy => format!(
            "Open list in pop order: lowest f = h, then highest g ({} open · {} closed)",
            group(v.open as u64),
            group(v.closed as u64)
        ),
        Algorithm::WeightedAStar(w) => format!(
            "Open list in pop order: lowest f = g + {w}×h, then highest g ({} open · {} closed)",
            group(v.open as u64),
            group(v.closed as u64)
        ),
        _ => format!(
            "Open list in pop order: lowest f, then highest g ({} open · {} closed)",
            group(v.open as u64),
            group(v.closed as u64)
        ),
    }
}

/// The open list's first entries as small boards, as many per row as fit; a click puts the
/// board in `picked`.
fn open_list(
    ui: &mut egui::Ui,
    v: &crate::app::StepView,
    algorithm: Algorithm,
    goal: Option<&Board>,
    small: f32,
    cols: usize,
    picked: &mut Option<Board>,
) {
    // As many per row as fit the panel (a wrapped row would widen the panel instead).
    let each = (small * cols as f32).max(46.0) + 8.0;
    let per_row = ((ui.available_width() / each).floor() as usize).max(1);
    for (r, row) in v.open_top.chunks(per_row).enumerate() {
        ui.horizontal(|ui| {
            for (j, o) in row.iter().enumerate() {
                let i = r * per_row + j;
                ui.vertical(|ui| {
                    if mini::board(ui, &o.board, goal, small)
                        .on_hover_text(format!("#{} {}", i + 1, ghf(algorithm, o.g, o.h)))
                        .clicked()
                    {
                        *picked = Some(o.board.clone());
                    }
                    ui.small(if algorithm == Algorithm::Bfs {
                        format!("g {}", o.g)
                    } else {
                        crate::app::views::f_sum(algorithm, o.g, o.h)
                    });
                });
            }
        });
    }
}

/// IDA*'s memory row, and its rule for the next threshold: the nodes on its path against
/// what A* (same heuristic, same board) holds after as many expansions; at an iteration's end,
/// the next threshold (`bound`) as the least f pruned.
fn ida_memory(ui: &mut egui::Ui, v: &crate::app::StepView, bound: u32) {
    let s = if v.path_nodes == 1 { "" } else { "s" };
    let astar = match v.astar {
        None => String::new(),
        Some(a) if a.solved => format!(
            " A* with the same heuristic solved this board in {} expansions, holding {} open + \
             {} closed boards at its end.",
            group(a.expanded),
            group(a.open as u64),
            group(a.closed as u64)
        ),
        Some(a) if a.stopped => format!(
            " A* with the same heuristic, run beside it up to {} expansions (or its memory cap), \
             held {} open + {} closed boards when it stopped.",
            group(a.expanded),
            group(a.open as u64),
            group(a.closed as u64)
        ),
        Some(a) => format!(
            " A* with the same heuristic, after the same {} expansions, holds {} open + {} \
             closed boards.",
            group(a.expanded),
            group(a.open as u64),
            group(a.closed as u64)
        ),
    };
    ui.label(format!(
        "Memory: IDA* holds only its path, {} node{s} (and {} children still to try on it).{astar}",
        group(v.path_nodes as u64),
        group(v.open as u64)
    ));
    // Between iterations the path is empty: the one that ended is the last listed.
    if let Some(it) = v.iterations.last().filter(|_| v.path_nodes == 0) {
        ui.label(format!(
            "Iteration {} (threshold {}) ended without the goal: next threshold = the smallest \
             f that was pruned ({bound}).",
            v.iterations.len(),
            it.threshold
        ));
    } else if let Some(f) = v.least_pruned {
        ui.small(format!(
            "Smallest f pruned so far in this iteration: {f} (the next threshold, if it ends \
             without the goal)."
        ));
    }
}

#[allow(clippy::too_many_arguments)]
fn expansion(
    ui: &mut egui::Ui,
    e: &Expansion,
    algorithm: Algorithm,
    goal: Option<&Board>,
    // Whether the search has solved (the goal's parent's "next step" is then past).
    solved: bool,
    cell: f32,
    small: f32,
    picked: &mut Option<Board>,
) {
    ui.label(RichText::new(format!("Expansion #{}", group(e.number))).strong());
    ui.add(egui::Label::new(narration(e, algorithm)).wrap());
    ui.horizontal(|ui| {
        if mini::board(ui, &e.board, goal, cell).clicked() {
            *picked = Some(e.board.clone());
        }
        ui.vertical(|ui| {
            ui.monospace(ghf(algorithm, e.g, e.h));
            // The threshold it was expanded under (the next iteration's may be shown above).
            let bound = e.bound;
            if algorithm == Algorithm::IdaStar {
                ui.monospace(format!("threshold {bound}"));
                if e.backtracked > 0 {
                    let s = if e.backtracked == 1 { "" } else { "s" };
                    ui.small(format!("backtracked {} level{s} first", e.backtracked));
                }
            }
            let path = format_moves(&e.path, Notation::Blank);
            ui.small(if path.is_empty() {
                "the start board".to_string()
            } else {
                format!("path {path}")
            });
        });
    });
    ui.label("Successors:");
    for s in &e.successors {
        ui.horizontal(|ui| {
            if mini::board(ui, &s.board, goal, small).clicked() {
                *picked = Some(s.board.clone());
            }
            ui.vertical(|ui| {
                ui.monospace(format!(
                    "{} {}",
                    s.mv.letter(Notation::Blank),
                    ghf(algorithm, s.g, s.h)
                ));
                let mut fate = fate_text(s, algorithm, e.bound);
                // IDA* tests a board for the goal when it enters it: the next step.
                if algorithm == Algorithm::IdaStar
                    && s.fate == Fate::Pushed
                    && goal == Some(&s.board)
                    && !solved
                {
                    fate.push_str(" (it is the goal: the next step reaches it)");
                }
                ui.colored_label(fate_color(&s.fate), fate);
            });
        });
    }
}
