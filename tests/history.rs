//! The learner controls time (issue 43 §1, §2, §8), driven with egui_kittest: Back, the
//! timeline and "go to step" bring back any step of a stepped search, and every panel then
//! shows that moment (checked against a fresh stepper stepped that far); the speed dial; IDA*'s
//! memory row and its rule for the next threshold.
#![cfg(feature = "gui")]

mod common;

use common::goal;
use common::harness::{TestApp, harness, set, step_until};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use npuzzle::app::{AppState, RunState};
use npuzzle::heuristic::{HeuristicKind, HeuristicSpec};
use npuzzle::puzzle::GoalSpec;
use npuzzle::search::stepper::{Fate, Step, Stepper};
use npuzzle::search::{Algorithm, Problem};

/// The 31-move 8-puzzle.
const HARD8: &str = "8 6 7/2 5 4/3 0 1";

/// A fresh stepper on `board` with Manhattan, stepped `n` times.
fn fresh(board: &str, algorithm: Algorithm, n: u64) -> Stepper {
    let p = Problem {
        start: board.parse().unwrap(),
        goal: goal(&GoalSpec::BlankLast, 3, 3),
    };
    let spec = HeuristicSpec::Kind(HeuristicKind::Manhattan);
    let mut s = Stepper::new(&p, algorithm, &spec, 1 << 30).unwrap();
    for _ in 0..n {
        s.step().unwrap();
    }
    s
}

/// Whether the app shows step `n` of its stepped search, with nothing left to arrive.
fn shows(st: &AppState, n: u64) -> bool {
    st.run.timeline().is_some_and(|(at, _)| at == n)
        && st.run.inspect().is_some_and(|v| v.history.at == n)
        && (st.run.is_idle() || !st.is_running() && !st.run.replaying())
}

/// Every panel's figures (inspector, stats, open list, tree, iteration chart) at the moment
/// shown equal those of `s`, a fresh stepper stepped as far; and the panels say so.
fn agrees(h: &mut Harness<'_, TestApp>, s: &Stepper, what: &str) {
    h.step();
    let st = &h.state().st;
    let v = st.run.inspect().unwrap();
    let p = st.run.progress().unwrap();
    let number = s.last().map_or(0, |e| e.number);
    assert_eq!(v.last.as_ref().map_or(0, |e| e.number), number, "{what}");
    assert_eq!(v.last.as_ref(), s.last(), "{what}");
    assert_eq!(p.expanded, s.expanded(), "{what}: stats");
    assert_eq!(p.generated, s.generated(), "{what}: stats");
    assert_eq!(
        v.open_top,
        s.open_top(v.open_top.len()),
        "{what}: open list"
    );
    assert_eq!((v.open, v.closed), (s.open_len(), s.closed_len()), "{what}");
    assert_eq!(v.tree.len(), s.tree().len(), "{what}: tree");
    assert_eq!(p.histogram, s.progress().histogram, "{what}: heatmap");
    let its: Vec<u32> = st.run.iterations().iter().map(|i| i.threshold).collect();
    let want: Vec<u32> = s.iterations().iter().map(|i| i.threshold).collect();
    assert_eq!(its, want, "{what}: iteration chart");
    if number > 0 {
        h.get_by_label(&format!("Expansion #{number}"));
    }
}

#[test]
fn back_scrub_and_go_to_show_one_moment_in_every_panel() {
    for algorithm in [Algorithm::AStar, Algorithm::IdaStar, Algorithm::Bfs] {
        let mut h = harness(HARD8);
        set(&mut h.state_mut().st, algorithm, HeuristicKind::Manhattan);
        h.step();
        h.state_mut().st.step(40);
        step_until(&mut h, |s| shows(s, 40));
        agrees(&mut h, &fresh(HARD8, algorithm, 40), "after 40 steps");
        // Back (the button, then the key B).
        h.get_by_label("Back").click();
        step_until(&mut h, |s| shows(s, 39));
        agrees(&mut h, &fresh(HARD8, algorithm, 39), "Back");
        h.key_press(egui::Key::B);
        step_until(&mut h, |s| shows(s, 38));
        agrees(&mut h, &fresh(HARD8, algorithm, 38), "B");
        // The timeline, to any step (what its slider and "go to step" do).
        for n in [3, 0, 27, 40] {
            h.state_mut().st.go_to_step(n);
            step_until(&mut h, |s| shows(s, n));
            agrees(&mut h, &fresh(HARD8, algorithm, n), "go to");
        }
        // Stepping on after going back goes on from the step shown.
        h.state_mut().st.go_to_step(12);
        step_until(&mut h, |s| shows(s, 12));
        h.get_by_label("Step").click();
        step_until(&mut h, |s| shows(s, 13));
        agrees(&mut h, &fresh(HARD8, algorithm, 13), "a step on from 12");
        // … and past the furthest step taken.
        h.state_mut().st.go_to_step(40);
        step_until(&mut h, |s| shows(s, 40));
        h.state_mut().st.step(5);
        step_until(&mut h, |s| shows(s, 45));
        agrees(&mut h, &fresh(HARD8, algorithm, 45), "past the end");
        h.get_by_label_contains("Step 45 of 45. History:");
    }
}

#[test]
fn a_solved_stepped_search_can_be_scrubbed_back_and_stepped_to_its_end_again() {
    let mut h = harness(HARD8);
    set(
        &mut h.state_mut().st,
        Algorithm::AStar,
        HeuristicKind::Manhattan,
    );
    h.step();
    h.get_by_label("Step").click();
    step_until(&mut h, |s| shows(s, 1));
    h.get_by_label("Run").click();
    step_until(&mut h, |s| *s.run.state() == RunState::Done);
    let (_, end) = h.state().st.run.timeline().unwrap();
    // A* expanded end - 1 nodes: the last step took the goal off the open list.
    let mut s = fresh(HARD8, Algorithm::AStar, 0);
    let mut steps = 0;
    while s.step().unwrap() != Step::Solved {
        steps += 1;
    }
    assert_eq!(end, steps + 1);
    h.step();
    h.get_by_label_contains("Solved in 31 moves");
    h.state_mut().st.go_to_step(100);
    step_until(&mut h, |s| shows(s, 100));
    agrees(
        &mut h,
        &fresh(HARD8, Algorithm::AStar, 100),
        "after the end",
    );
    // At step 100 the search has not solved: the inspector does not say it has.
    assert!(h.query_by_label_contains("Solved in 31 moves").is_none());
    assert_eq!(*h.state().st.run.state(), RunState::Done);
    // Steps on go towards the end, and stop there.
    h.get_by_label("Step").click();
    step_until(&mut h, |s| shows(s, 101));
    h.state_mut().st.step(end + 10);
    step_until(&mut h, |s| shows(s, end));
    h.step();
    h.get_by_label_contains("Solved in 31 moves");
}

#[test]
fn the_speed_dial_runs_a_stepped_search_that_pauses_and_goes_on() {
    let mut h = harness(HARD8);
    {
        let st = &mut h.state_mut().st;
        set(st, Algorithm::AStar, HeuristicKind::Manhattan);
        // The app's default: watchable.
        assert_eq!(npuzzle::app::Settings::default().steps_per_second, 10);
        st.set_speed(2);
    }
    h.step();
    h.get_by_label("2 steps/s");
    // Start at 2 steps a second: a stepped search, running.
    h.get_by_label("Start").click();
    step_until(&mut h, |s| s.run.timeline().is_some_and(|(at, _)| at >= 1));
    assert!(h.state().st.run.is_stepped() && !h.state().st.is_paused());
    // Paused: it holds, and shows what a fresh stepper shows after as many steps.
    h.get_by_label("Pause").click();
    step_until(&mut h, |s| s.run.is_idle());
    let (at, reached) = h.state().st.run.timeline().unwrap();
    assert_eq!(at, reached);
    for _ in 0..5 {
        h.step();
    }
    assert_eq!(h.state().st.run.timeline(), Some((at, reached)));
    agrees(&mut h, &fresh(HARD8, Algorithm::AStar, at), "paused");
    // As fast as possible from there: the same answer as the fast search.
    h.state_mut().st.set_speed(0);
    h.step();
    h.get_by_label("as fast as possible");
    h.get_by_label("Run").click();
    step_until(&mut h, |s| *s.run.state() == RunState::Done);
    assert_eq!(h.state().st.run.solution().unwrap().moves.len(), 31);
}

#[test]
fn ida_star_shows_its_memory_beside_a_stars_and_the_next_threshold_rule() {
    let mut h = harness(HARD8);
    set(
        &mut h.state_mut().st,
        Algorithm::IdaStar,
        HeuristicKind::Manhattan,
    );
    h.step();
    // To the end of the first iteration.
    h.get_by_label("Next iteration").click();
    step_until(&mut h, |s| {
        s.run.inspect().is_some_and(|v| v.iterations.len() == 1) && s.run.is_idle()
    });
    h.step();
    // The least f pruned over the iteration, from its expansions' successors.
    let mut s = fresh(HARD8, Algorithm::IdaStar, 0);
    let mut least = u32::MAX;
    let next = loop {
        match s.step().unwrap() {
            Step::NextIteration(t) => break t,
            _ => {
                for c in &s.last().unwrap().successors {
                    if c.fate == Fate::OverThreshold {
                        least = least.min(c.g + c.h);
                    }
                }
            }
        }
    };
    assert_eq!(next, least);
    let first = s.iterations()[0].threshold;
    h.get_by_label(&format!(
        "Iteration 1 (threshold {first}) ended without the goal: next threshold = the smallest \
         f that was pruned ({next})."
    ));
    // Ten steps into the next: the path against A*'s lists after as many expansions.
    h.state_mut().st.step(10);
    let n = h.state().st.run.timeline().unwrap().0 + 10;
    step_until(&mut h, |st| shows(st, n));
    h.step();
    let ida = fresh(HARD8, Algorithm::IdaStar, n);
    let astar = fresh(HARD8, Algorithm::AStar, ida.expanded());
    let v = h.state().st.run.inspect().unwrap().clone();
    assert_eq!(v.path_nodes, ida.path_nodes());
    let a = v.astar.unwrap();
    assert_eq!(
        (a.expanded, a.open, a.closed),
        (ida.expanded(), astar.open_len(), astar.closed_len())
    );
    h.get_by_label_contains(&format!(
        "Memory: IDA* holds only its path, {} nodes",
        ida.path_nodes()
    ));
    h.get_by_label_contains(&format!(
        "after the same {} expansions, holds {} open + {} closed boards",
        ida.expanded(),
        astar.open_len(),
        astar.closed_len()
    ));
    assert_eq!(v.least_pruned, ida.least_pruned());
}

/// Back while the search runs at a speed goes to the step before the one shown, although the
/// thread has stepped on since the last snapshot was read: the timeline and the panels then
/// show that same step.
#[test]
fn back_while_running_at_a_speed_shows_the_step_before_the_one_shown() {
    let mut h = harness(HARD8);
    {
        let st = &mut h.state_mut().st;
        set(st, Algorithm::AStar, HeuristicKind::Manhattan);
        st.set_speed(40);
    }
    h.step();
    h.get_by_label("Start").click();
    step_until(&mut h, |s| s.run.timeline().is_some_and(|(at, _)| at >= 3));
    let (at, _) = h.state().st.run.timeline().unwrap();
    // The thread steps on unread meanwhile.
    std::thread::sleep(std::time::Duration::from_millis(400));
    h.state_mut().st.step_back();
    step_until(&mut h, |s| shows(s, at - 1));
    agrees(&mut h, &fresh(HARD8, Algorithm::AStar, at - 1), "back");
}
