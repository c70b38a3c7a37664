//! The searches to contrast with A* in the app (issue 43 §4), driven with egui_kittest: the
//! Algorithm menu offers greedy best-first and weighted A*, the weight's slider shows for
//! weighted A* alone and sets its weight, the overestimating heuristic comes with its warning,
//! the Solution panel gives the gap to a stated optimum, and a stepped greedy or weighted A*
//! expands the fast search's nodes and replays to the goal.
#![cfg(feature = "gui")]

mod common;

use common::harness::{TestApp, harness, set, step_until};
use common::{goal, replay};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use npuzzle::app::{AppState, HeuristicChoice, RunState};
use npuzzle::heuristic::HeuristicKind;
use npuzzle::puzzle::GoalSpec;
use npuzzle::search::{Algorithm, Limits, Outcome, Problem, Weight, solve};

/// The 31-move 8-puzzle.
const HARD8: &str = "8 6 7/2 5 4/3 0 1";
/// The shipped example's board (24 moves; 34 with A* and twice Manhattan).
const OVER: &str = "2 7 0/8 1 5/3 6 4";

/// Opens the combo box labelled `combo` and picks `entry` in it.
fn pick(h: &mut Harness<'_, TestApp>, combo: &str, entry: &str) {
    for _ in 0..3 {
        h.get_by_role_and_label(egui::accesskit::Role::ComboBox, combo)
            .click();
        h.step();
        h.step();
        if let Some(e) = h.query_by_label(entry) {
            e.click();
            h.step();
            h.step();
            return;
        }
    }
    panic!("{combo}'s list did not open or has no {entry}");
}

/// Whether the weight's slider is shown.
fn has_slider(h: &Harness<'_, TestApp>) -> bool {
    h.query_by_role_and_label(egui::accesskit::Role::Slider, "weight w")
        .is_some()
}

#[test]
fn the_algorithm_menu_offers_greedy_and_weighted_astar_with_its_slider() {
    let mut h = harness(HARD8);
    h.step();
    assert!(!has_slider(&h), "no slider for auto");
    pick(&mut h, "Algorithm", "greedy best-first");
    assert_eq!(h.state().st.settings.algorithm, Algorithm::Greedy);
    assert!(!has_slider(&h), "no slider for greedy");
    h.get_by_label(
        "Greedy: f = h, g ignored. Fast, not optimal: its answer may be far longer than the optimum.",
    );
    pick(&mut h, "Algorithm", "weighted A*");
    assert_eq!(
        h.state().st.settings.algorithm,
        Algorithm::WeightedAStar(Weight::DEFAULT)
    );
    assert!(has_slider(&h), "the slider for weighted A*");
    // The slider sets the weight: 2.5, then 4.
    for (v, tenths) in [(2.5, 25), (4.0, 40)] {
        h.get_by_role_and_label(egui::accesskit::Role::Slider, "weight w")
            .set_value_accesskit(v);
        h.step();
        h.step();
        let w = Weight::from_tenths(tenths);
        assert_eq!(h.state().st.settings.algorithm, Algorithm::WeightedAStar(w));
        assert_eq!(h.state().st.settings.weight, w);
        h.get_by_label(&format!(
            "Weighted A*: f = g + {w}·h. Not optimal: at most {w} times the optimum."
        ));
    }
    // Another algorithm hides the slider; weighted A* again keeps the weight.
    pick(&mut h, "Algorithm", "A*");
    assert_eq!(h.state().st.settings.algorithm, Algorithm::AStar);
    assert!(!has_slider(&h), "no slider for A*");
    pick(&mut h, "Algorithm", "weighted A*");
    assert_eq!(
        h.state().st.settings.algorithm,
        Algorithm::WeightedAStar(Weight::from_tenths(40))
    );
    assert!(has_slider(&h));
}

#[test]
fn the_overestimating_heuristic_shows_its_warning() {
    let mut h = harness(HARD8);
    set(
        &mut h.state_mut().st,
        Algorithm::AStar,
        HeuristicKind::Manhattan,
    );
    h.step();
    let warning = "Warning: this heuristic overestimates (2 × Manhattan): A* and IDA* with it are not optimal and may return a longer path.";
    assert!(h.query_by_label(warning).is_none());
    let over = HeuristicKind::OverestimatingManhattan;
    pick(
        &mut h,
        "Heuristic",
        &format!("{} (2 × Manhattan, not admissible)", over.name()),
    );
    assert_eq!(h.state().st.settings.heuristic, HeuristicChoice::Kind(over));
    h.get_by_label(warning);
    pick(&mut h, "Heuristic", HeuristicKind::Manhattan.name());
    assert!(h.query_by_label(warning).is_none());
}

#[test]
fn the_solution_panel_gives_the_gap_to_the_stated_optimum() {
    let mut h = harness(HARD8);
    let text = std::fs::read_to_string("assets/examples/overestimate.txt").unwrap();
    assert!(h.state_mut().st.load_text(&text, "overestimate.txt"));
    assert_eq!(h.state().st.stated_length(), Some(24));
    set(
        &mut h.state_mut().st,
        Algorithm::AStar,
        HeuristicKind::OverestimatingManhattan,
    );
    h.step();
    h.get_by_label("Start").click();
    step_until(&mut h, |s| *s.run.state() == RunState::Done);
    h.step();
    assert_eq!(h.state().st.run.solution().unwrap().moves.len(), 34);
    h.get_by_label("Length: 34 moves; the optimum is 24: 10 more");
    h.get_by_label(
        "Not guaranteed optimal: this search trades optimality for speed (or its h overestimates).",
    );
    assert!(h.query_by_label("Optimal length: 34 moves").is_none());
    // The status bar says the same, not "optimal".
    h.get_by_label("solved: 34 moves; the optimum is 24: 10 more");
    assert!(
        h.query_by_label("solved: 34 moves (optimal); the file states 24")
            .is_none()
    );
}

/// Steps `algorithm` once, runs it to its end (stepped), and checks its count against the
/// fast search's and its path against the goal.
fn stepped_equals_fast(board: &str, algorithm: Algorithm) {
    let mut h = harness(board);
    set(&mut h.state_mut().st, algorithm, HeuristicKind::Manhattan);
    h.step();
    h.get_by_label("Step").click();
    step_until(&mut h, |s: &AppState| {
        s.run
            .inspect()
            .and_then(|v| v.last.as_ref())
            .is_some_and(|e| e.number == 1)
            && s.run.is_idle()
    });
    assert!(h.state().st.run.is_stepped(), "{algorithm} is stepped");
    h.get_by_label("Run").click();
    step_until(&mut h, |s| *s.run.state() == RunState::Done);
    let st = &h.state().st;
    let sol = st.run.solution().unwrap();
    let g = goal(&GoalSpec::BlankLast, 3, 3);
    assert_eq!(
        &replay(st.board(), &sol.moves),
        g.board(),
        "{board} {algorithm}"
    );
    let p = Problem {
        start: board.parse().unwrap(),
        goal: g,
    };
    let Outcome::Solved(fast) = solve(
        &p,
        algorithm,
        HeuristicKind::Manhattan,
        &Limits::default(),
        &mut |_| {},
    )
    .unwrap() else {
        panic!("solvable")
    };
    assert_eq!(
        sol.stats.expanded, fast.stats.expanded,
        "{board} {algorithm}"
    );
    assert_eq!(sol.moves, fast.moves, "{board} {algorithm}");
}

#[test]
fn stepped_greedy_and_weighted_astar_expand_the_fast_searches_nodes() {
    for board in [HARD8, OVER] {
        for algorithm in [
            Algorithm::Greedy,
            Algorithm::WeightedAStar(Weight::from_tenths(20)),
        ] {
            stepped_equals_fast(board, algorithm);
        }
    }
}

#[test]
fn the_weight_slider_sets_the_weight_in_a_narrow_window_too() {
    let mut h = common::harness::harness_sized(HARD8, 800.0, 600.0);
    h.state_mut().st.settings.algorithm = Algorithm::WeightedAStar(Weight::DEFAULT);
    h.step();
    h.step();
    let slider = h.get_by_role_and_label(egui::accesskit::Role::Slider, "weight w");
    slider.set_value_accesskit(3.0);
    h.step();
    h.step();
    assert_eq!(
        h.state().st.settings.algorithm,
        Algorithm::WeightedAStar(Weight::from_tenths(30))
    );
}
