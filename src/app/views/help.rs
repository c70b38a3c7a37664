//! The "?" beside each view and side panel ([`button`]) and the short help it opens: what the
//! view shows, a legend drawn with the view's own colours, and what to look for. The one home
//! of these texts ([`Topic::help`]) and of the menus' hover texts on the searches and the
//! heuristics ([`heuristic_hover`], built from the core's own words; a search's is its
//! [`crate::search::Algorithm::about`]).

use egui::{Color32, Pos2, Rect, Sense, Stroke, vec2};

use super::tree::geometry::Mark;
use super::tree::paint;
use super::{board, heatmap, iterations};
use crate::heuristic::HeuristicChoice;

/// The views and panels that have a "?".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Topic {
    /// The board over the lower views.
    Board,
    /// The frontier heatmap (lower view).
    Heatmap,
    /// The search tree (lower view).
    Tree,
    /// IDA*'s iterations (lower view).
    Iterations,
    /// The Compare view (lower view).
    Compare,
    /// The Inspector side panel.
    Inspector,
    /// The Stats side panel.
    Stats,
    /// The Solution side panel.
    Solution,
}

/// How a legend entry's swatch is drawn.
#[derive(Clone, Copy, Debug)]
pub enum Swatch {
    /// A filled square of the colour.
    Fill(Color32),
    /// An outlined square of the colour.
    Outline(Color32),
    /// A line of the colour.
    Line(Color32),
    /// The heatmap's colour ramp, few to many.
    Ramp,
    /// The search tree's glyph of a mark.
    Mark(Mark),
}

/// A view's help: what it shows (paragraphs), its legend, what to look for.
pub struct Help {
    /// The view's name, the help's title.
    pub title: &'static str,
    /// What the view shows, a paragraph each.
    pub shows: &'static [&'static str],
    /// Each swatch with its meaning.
    pub legend: Vec<(Swatch, &'static str)>,
    /// What to look for, a sentence or two each.
    pub look_for: &'static [&'static str],
}

impl Topic {
    /// Every topic.
    pub const ALL: [Topic; 8] = [
        Topic::Board,
        Topic::Heatmap,
        Topic::Tree,
        Topic::Iterations,
        Topic::Compare,
        Topic::Inspector,
        Topic::Stats,
        Topic::Solution,
    ];

    /// The accessible name of the topic's "?" button: `Help: Heatmap`.
    pub fn button_label(self) -> String {
        format!("Help: {}", self.help().title)
    }

    /// The topic's help.
    pub fn help(self) -> Help {
        match self {
            Topic::Board => board_help(),
            Topic::Heatmap => heatmap_help(),
            Topic::Tree => tree_help(),
            Topic::Iterations => iterations_help(),
            Topic::Compare => compare_help(),
            Topic::Inspector => inspector_help(),
            Topic::Stats => stats_help(),
            Topic::Solution => solution_help(),
        }
    }
}

fn board_help() -> Help {
    Help {
        title: "Board",
        shows: &[
            "The puzzle: numbered tiles and one empty cell, the blank. A move slides a tile next to the blank into it: click the tile, or press an arrow key.",
            "With \"h on the board\", the chosen heuristic is drawn on the tiles; their sum, in the caption, is h: the heuristic's estimate of the moves left.",
        ],
        legend: vec![
            (Swatch::Fill(board::IN_PLACE), "a tile on its goal cell"),
            (
                Swatch::Fill(board::tile_color(1, false, false)),
                "a tile not on its goal cell",
            ),
            (Swatch::Fill(board::MOVED), "the tile that just moved"),
            (
                Swatch::Fill(board::HINT),
                "Hint: a move that keeps the shortest path",
            ),
            (Swatch::Fill(board::PICKED), "Edit: the tile picked to swap"),
            (
                Swatch::Fill(Color32::from_rgb(220, 40, 40)),
                "frontier: the share of the open boards whose tile here is out of place",
            ),
        ],
        look_for: &[
            "\"Moves to solve\" above the board is the exact count. An admissible h is never more than it.",
            "Out-of-place shares: the cells still red late in a search are where the hard part of the puzzle is.",
        ],
    }
}

fn heatmap_help() -> Help {
    Help {
        title: "Heatmap",
        shows: &[
            "The open list (boards generated but not yet expanded), counted by g and h: g, the moves made to reach a board, runs to the right; h, the heuristic's estimate of the moves left, runs up. Each cell is the number of open boards with that g and h.",
            "For IDA*, which keeps no open list, the cells count the boards generated in the current iteration. Cells right of the f line were cut off: their f passed the threshold, and the smallest of those f is the next threshold.",
        ],
        legend: vec![
            (
                Swatch::Ramp,
                "how many boards: dark purple few, yellow many (log scale; numbers on the right)",
            ),
            (
                Swatch::Line(heatmap::BOUND),
                "the f line: every cell on it has g + h = f, the current bound (A*: the lowest f open; IDA*: the threshold)",
            ),
        ],
        look_for: &[
            "A* expands the cells on the f line first, highest g first; when they are gone the bound rises and the line moves up and right.",
            "With a better heuristic the counts are smaller: fewer boards are generated before the goal. Try Manhattan, then linear conflict, on the same board.",
            "Hover a cell for its g, h, f and count.",
        ],
    }
}

fn tree_help() -> Help {
    let mut legend: Vec<(Swatch, &'static str)> = Mark::ALL
        .into_iter()
        .map(|m| (Swatch::Mark(m), m.word()))
        .collect();
    legend.push((
        Swatch::Line(paint::PATH),
        "the path from the start to the last board expanded (or the solution)",
    ));
    Help {
        title: "Tree",
        shows: &[
            "The boards expanded so far, numbered in the order they were expanded, each under the board it came from: one row per move (g). Each expanded board's children are drawn with what became of them, by shape and letter as well as colour.",
        ],
        legend,
        look_for: &[
            "A* jumps between branches, always to the lowest f; IDA* goes deep along one branch, then backs up.",
            "Duplicates (D) are boards reached before by a path no longer: A* drops them, which is what its closed set is for. Pruned children (P) show where IDA*'s threshold cut the tree.",
            "Hover a node for its board and g, h, f; click it to show the board. Drag to pan, Ctrl+scroll to zoom.",
        ],
    }
}

fn iterations_help() -> Help {
    Help {
        title: "Iterations",
        shows: &[
            "IDA* only: one bar per iteration, under its threshold, as high as the nodes it expanded (log scale). An iteration is a depth-first search that turns back wherever f = g + h passes the threshold.",
            "Why IDA* needs little memory: a depth-first search keeps only the current path from the start board, not every board seen, so its memory grows with the depth, not with the nodes. Step IDA* and read the inspector's memory row: its path against A*'s open and closed lists.",
            "The next threshold is the smallest f that passed the last one. No board of lower f is skipped, so the first solution found is optimal (with an admissible h).",
        ],
        legend: vec![
            (Swatch::Fill(iterations::FINISHED), "a finished iteration"),
            (
                Swatch::Outline(iterations::RUNNING),
                "the running iteration, growing",
            ),
            (
                Swatch::Fill(iterations::SELECTED),
                "the iteration whose heatmap is shown (click a bar)",
            ),
        ],
        look_for: &[
            "Each iteration costs about b times the last, b being the effective branching factor: the last iteration is most of the work, and repeating the earlier ones costs little.",
            "A better heuristic starts at a higher threshold and needs fewer, lower bars.",
        ],
    }
}

fn compare_help() -> Help {
    Help {
        title: "Compare",
        shows: &[
            "Compare heuristics: solves this board with each heuristic that fits it (and BFS on small boards), one after the other in the background, with a time cap each: h at the start, nodes expanded and generated, seconds, b* and the length.",
            "b*, the effective branching factor: the branching a uniform tree as deep as the solution would need to hold as many nodes. Near 1 is a heuristic that goes straight to the goal.",
            "Textbook experiment: random boards at each exact depth, the mean nodes expanded per depth, one line per heuristic (log scale).",
        ],
        legend: vec![(
            Swatch::Line(Color32::from_rgb(240, 110, 90)),
            "one colour per heuristic, named in the chart's legend",
        )],
        look_for: &[
            "Every optimal search finds the same length; the better the heuristic (larger, yet never more than the true count), the fewer nodes and the smaller b*.",
            "In the experiment the lines grow exponentially with depth: a straight line on the log scale, less steep for a better heuristic.",
        ],
    }
}

fn inspector_help() -> Help {
    Help {
        title: "Inspector",
        shows: &[
            "A stepped search (Step, N) one expansion at a time: the board just expanded with its g, h and f; each successor (a board one move away) and what became of it; the open list's first boards in the order they will be expanded.",
            "For IDA*, the memory row: the boards on its path, all it keeps, against what A* holds after as many expansions.",
        ],
        legend: vec![
            (
                Swatch::Fill(paint::color(Mark::Pushed)),
                "pushed on the open list (or the goal)",
            ),
            (
                Swatch::Fill(paint::color(Mark::BetterPath)),
                "a better path: seen before with a higher g, pushed again",
            ),
            (
                Swatch::Fill(paint::color(Mark::Duplicate)),
                "dropped: seen before with a g no higher, or the parent (no move is undone)",
            ),
            (
                Swatch::Fill(paint::color(Mark::Pruned)),
                "pruned (IDA*): f over the threshold",
            ),
        ],
        look_for: &[
            "A* always expands the open board with the lowest f; on a tie, the highest g. Predict the next expansion to check yourself.",
            "Find a successor dropped because it is already closed, and one reopened by a better path.",
        ],
    }
}

fn stats_help() -> Help {
    Help {
        title: "Stats",
        shows: &[
            "The search's figures, all from the same moment: g, h and f of the board being expanded; nodes expanded (taken from the open list, their moves tried) and generated (the successors made); the open and closed sizes; speed, time and memory. Hover a row for its meaning.",
            "Batched A*: each round takes a batch of the best boards from the open list, and the evaluator (the GPU, or the CPU) computes h for all their successors in one call. The last batch's size and evaluation time are shown.",
        ],
        legend: vec![],
        look_for: &[
            "On the same board, a better heuristic expands fewer nodes. A*'s open and closed sizes grow with every expansion; IDA* keeps no lists.",
        ],
    }
}

fn solution_help() -> Help {
    Help {
        title: "Solution",
        shows: &[
            "The answer: its length in moves, the search that found it, and whether it is guaranteed optimal. The moves are letters for where the blank goes (U up, D down, L left, R right) and the numbers of the tiles moved.",
            "Playback plays the moves on the board; Copy and Save write them out.",
        ],
        legend: vec![(Swatch::Fill(board::MOVED), "the move just played")],
        look_for: &[
            "A* and IDA* with an admissible heuristic always give the same length; greedy and weighted A* may give a longer one, and say by how much when the optimum is known.",
        ],
    }
}

/// Draws a small "?" button (its accessible name [`Topic::button_label`]) that opens
/// `topic`'s help in a popup beside it, closed by Escape, a click elsewhere or the button.
pub fn button(ui: &mut egui::Ui, topic: Topic) -> egui::Response {
    let label = topic.button_label();
    let resp = ui
        .small_button("?")
        .on_hover_text("What this shows, its legend, and what to look for");
    resp.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &label));
    egui::Popup::from_toggle_button_response(&resp)
        .close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside)
        .width(help_width(ui))
        .show(|ui| body(ui, &topic.help()));
    resp
}

/// A side panel's section: a collapsing header named `title`, open at first, with `topic`'s
/// "?" beside the name; a click on the name opens or closes it too, as egui's own header does.
pub fn section(ui: &mut egui::Ui, title: &str, topic: Topic, add_body: impl FnOnce(&mut egui::Ui)) {
    use egui::collapsing_header::{CollapsingState, paint_default_icon};
    let id = ui.make_persistent_id(title);
    let mut state = CollapsingState::load_with_default_open(ui.ctx(), id, true);
    let header = ui.horizontal(|ui| {
        // The triangle and the name are one widget, as egui's own header: one accessible
        // node named `title`.
        let font = egui::TextStyle::Button.resolve(ui.style());
        let color = ui.visuals().strong_text_color();
        let galley = ui.painter().layout_no_wrap(title.to_string(), font, color);
        let indent = ui.spacing().indent;
        let size = vec2(indent + galley.size().x, ui.spacing().interact_size.y);
        let (rect, resp) = ui.allocate_exact_size(size, Sense::click());
        let open = state.is_open();
        resp.widget_info(|| {
            egui::WidgetInfo::selected(egui::Role::DisclosureTriangle, true, open, title)
        });
        let icon = Rect::from_center_size(
            Pos2::new(rect.min.x + indent / 2.0, rect.center().y),
            vec2(ui.spacing().icon_width, ui.spacing().icon_width),
        );
        paint_default_icon(
            ui,
            state.openness(ui.ctx()),
            &resp.clone().with_new_rect(icon),
        );
        let at = Pos2::new(rect.min.x + indent, rect.center().y - galley.size().y / 2.0);
        ui.painter().galley(at, galley, color);
        let clicked = resp.clicked();
        button(ui, topic);
        clicked
    });
    if header.inner {
        state.toggle(ui);
    }
    state.show_body_indented(&header.response, ui, add_body);
}

/// The popup's width: 360 points, less in a small window.
fn help_width(ui: &egui::Ui) -> f32 {
    (ui.ctx().content_rect().width() - 40.0).clamp(200.0, 360.0)
}

/// The help's contents: title, paragraphs, legend, what to look for.
fn body(ui: &mut egui::Ui, help: &Help) {
    ui.strong(help.title);
    for p in help.shows {
        ui.add(egui::Label::new(*p).wrap());
    }
    if !help.legend.is_empty() {
        ui.add_space(4.0);
        ui.strong("Legend");
        for (swatch, text) in &help.legend {
            // The words wrap beside the swatch, not under it.
            ui.horizontal_top(|ui| {
                draw_swatch(ui, *swatch);
                ui.add(egui::Label::new(*text).wrap());
            });
        }
    }
    ui.add_space(4.0);
    ui.strong("What to look for");
    for p in help.look_for {
        ui.add(egui::Label::new(*p).wrap());
    }
}

/// Draws a legend swatch, 18 × 14 points.
fn draw_swatch(ui: &mut egui::Ui, swatch: Swatch) {
    let (rect, _) = ui.allocate_exact_size(vec2(18.0, 14.0), Sense::hover());
    let p = ui.painter();
    let square = Rect::from_center_size(rect.center(), vec2(12.0, 12.0));
    match swatch {
        Swatch::Fill(c) => {
            p.rect_filled(square, 2.0, c);
        }
        Swatch::Outline(c) => {
            p.rect_stroke(square, 2.0, Stroke::new(1.5, c), egui::StrokeKind::Inside);
        }
        Swatch::Line(c) => {
            p.line_segment(
                [rect.left_center(), rect.right_center()],
                Stroke::new(2.0, c),
            );
        }
        Swatch::Ramp => {
            for i in 0..6 {
                let x = rect.min.x + i as f32 * 3.0;
                let r = Rect::from_min_max(
                    Pos2::new(x, square.min.y),
                    Pos2::new(x + 3.0, square.max.y),
                );
                p.rect_filled(r, 0.0, heatmap::ramp(i as f32 / 5.0));
            }
        }
        Swatch::Mark(m) => {
            p.extend(paint::glyph(m, rect.center(), 6.0, false));
            let text = if m == Mark::Expanded { "7" } else { m.letter() };
            p.text(
                rect.center(),
                egui::Align2::CENTER_CENTER,
                text,
                egui::FontId::proportional(8.0),
                paint::text_color(m),
            );
        }
    }
}

/// A heuristic's hover text in the Heuristic menu: what it counts ([`HeuristicChoice::about`])
/// and whether it is admissible and consistent, and so whether A* and IDA* with it are
/// optimal, each in words.
pub fn heuristic_hover(h: &HeuristicChoice) -> String {
    let admissible = if h.is_admissible() {
        "Admissible: yes, it never counts more moves than are needed."
    } else {
        "Admissible: no, it can count more moves than are needed."
    };
    let consistent = if h.is_consistent() {
        "Consistent: yes, one move changes it by at most 1, so f never falls along a path."
    } else if h.is_admissible() {
        "Consistent: not always (one move may change it by more than 1); A* reopens a board reached by a shorter path, so it stays optimal."
    } else {
        "Consistent: no."
    };
    let optimal = if h.is_admissible() {
        "A* and IDA* with it: optimal."
    } else {
        "A* and IDA* with it: not optimal, the path may be longer."
    };
    format!("{}\n{admissible}\n{consistent}\n{optimal}", h.about())
}
