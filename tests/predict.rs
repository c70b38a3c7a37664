//! Prediction in a stepped search, driven with egui_kittest: the learner clicks the open-list
//! entry they think is expanded next; right and wrong are judged against a stepper of its own
//! stepped alongside, the reasons (lowest f, highest g, last in first out; BFS's queue; IDA*'s
//! depth-first order) checked against the entries' own f and g, and the score counted.
#![cfg(feature = "gui")]

mod common;

use common::bin::HARD8;
use common::goal;
use common::harness::{expanded, harness, set, step_until};
use egui_kittest::kittest::Queryable;
use npuzzle::app::{judge, shown_order};
use npuzzle::heuristic::{HeuristicKind, HeuristicSpec};
use npuzzle::puzzle::GoalSpec;
use npuzzle::search::stepper::{OpenEntry, Stepper};
use npuzzle::search::{Algorithm, Problem};

/// A stepper of `board` with `algorithm` and Manhattan distance, stepped `n` times.
fn stepper(board: &str, algorithm: Algorithm, n: usize) -> Stepper {
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

/// The button of `open[i]` as the prediction list labels it.
fn button(open: &[OpenEntry], i: usize) -> String {
    let k = shown_order(open).iter().position(|&j| j == i).unwrap();
    let o = &open[i];
    format!(
        "{} · {}+{}={}",
        char::from(b'A' + k as u8),
        o.g,
        o.h,
        o.g + o.h
    )
}

/// Why picking `open[i]` is wrong, by A*'s rule, from the entries' f and g alone.
fn astar_reason(open: &[OpenEntry], i: usize) -> (usize, String) {
    let (r, p) = (&open[0], &open[i]);
    let (rf, pf) = (r.g + r.h, p.g + p.h);
    if pf > rf {
        (0, format!("the board it expands has f {rf}, yours {pf}."))
    } else if p.g < r.g {
        (
            1,
            format!("takes the highest g first: {} over your {}", r.g, p.g),
        )
    } else {
        assert_eq!((pf, p.g), (rf, r.g));
        (
            2,
            "pushed last (last in, first out), and that one was pushed after yours".into(),
        )
    }
}

#[test]
fn predictions_in_astar_are_judged_scored_and_explained() {
    let mut h = harness(HARD8);
    set(
        &mut h.state_mut().st,
        Algorithm::AStar,
        HeuristicKind::Manhattan,
    );
    h.step();
    h.get_by_label("×10").click();
    step_until(&mut h, |s| expanded(s) == 10 && s.run.is_idle());
    h.get_by_label("Predict the next expansion").click();
    h.step();
    h.get_by_label("Score: 0 right, 0 wrong (this search)");
    let mut direct = stepper(HARD8, Algorithm::AStar, 10);
    let (mut right, mut wrong) = (0, 0);
    // Each kind of wrong pick once (higher f; equal f, lower g; equal f and g), and right
    // picks between.
    let mut seen = [false; 3];
    for n in 11..=120u64 {
        let open = h.state().st.run.inspect().unwrap().open_top.clone();
        assert_eq!(open, direct.open_top(open.len()));
        let wrong_pick = (1..open.len()).find(|&i| !seen[astar_reason(&open, i).0]);
        let pick = wrong_pick.unwrap_or(0);
        // The open list's boards grow with the panel: the pick may lie below the fold. (A
        // click sent at once after a step was lost; a few frames first make it land.)
        h.get_by_label(&button(&open, pick)).scroll_to_me();
        h.get_by_label(&button(&open, pick)).hover();
        for _ in 0..5 {
            h.step();
        }
        h.get_by_label(&button(&open, pick)).click();
        step_until(&mut h, |s| expanded(s) == n && s.run.is_idle());
        h.step();
        // The search stepped once, to the entry first in pop order (the stepper's next).
        direct.step().unwrap();
        let e = h.state().st.run.inspect().unwrap().last.clone().unwrap();
        assert_eq!(e.board, direct.last().unwrap().board);
        assert_eq!(e.board, open[0].board);
        let v = h.state().st.predict.last().unwrap().clone();
        assert_eq!(
            (v.picked.clone(), v.next.clone()),
            (open[pick].board.clone(), e.board)
        );
        if pick == 0 {
            right += 1;
            assert!(v.right);
            assert!(
                v.why.starts_with("Right: A* expands the lowest f first"),
                "{}",
                v.why
            );
        } else {
            wrong += 1;
            let (kind, text) = astar_reason(&open, pick);
            seen[kind] = true;
            assert!(!v.right);
            assert!(
                v.why.starts_with("Wrong: ") && v.why.contains(&text),
                "{}: {text}",
                v.why
            );
            h.get_by_label(&v.why);
        }
        assert_eq!(h.state().st.predict.score(), (right, wrong));
        if seen.iter().all(|&s| s) && right >= 3 {
            break;
        }
    }
    assert_eq!(seen, [true; 3], "every kind of wrong pick was met");
    h.get_by_label(&format!(
        "Score: {right} right, {wrong} wrong (this search)"
    ));
    // A new search starts the score again; the mode stays on.
    h.get_by_label("Reset").click();
    h.step();
    h.get_by_label("Step").click();
    step_until(&mut h, |s| expanded(s) == 1 && s.run.is_idle());
    h.step();
    assert_eq!(h.state().st.predict.score(), (0, 0));
    assert!(h.state().st.predict.on);
    h.get_by_label("Score: 0 right, 0 wrong (this search)");
}

#[test]
fn bfs_and_idastar_predictions_name_their_order() {
    // BFS: the queue's front; a board queued later at the same depth, or deeper.
    let s = stepper(HARD8, Algorithm::Bfs, 2);
    let open = s.open_top(16);
    let first = judge(Algorithm::Bfs, &open, 0).unwrap();
    assert!(first.right && first.why.contains("first in, first out"));
    let same = (1..open.len()).find(|&i| open[i].g == open[0].g).unwrap();
    let v = judge(Algorithm::Bfs, &open, same).unwrap();
    assert!(
        !v.right && v.why.contains("that one was queued before yours"),
        "{}",
        v.why
    );
    let deeper = (1..open.len()).find(|&i| open[i].g > open[0].g).unwrap();
    let v = judge(Algorithm::Bfs, &open, deeper).unwrap();
    assert!(
        v.why.contains(&format!("at depth {}.", open[deeper].g)),
        "{}",
        v.why
    );
    // IDA*: the deepest board's first untried child; a sibling; a shallower board.
    // The first step after which the path has a sibling to try and a shallower board.
    let mut s = stepper(HARD8, Algorithm::IdaStar, 0);
    let open = loop {
        s.step().unwrap();
        let open = s.open_top(16);
        let g0 = open.first().map_or(0, |o| o.g);
        if open.iter().any(|o| o.g < g0) && open[1..].iter().any(|o| o.g == g0) {
            break open;
        }
    };
    let sibling = (1..open.len()).find(|&i| open[i].g == open[0].g).unwrap();
    let v = judge(Algorithm::IdaStar, &open, sibling).unwrap();
    assert!(v.why.contains("tries them in its move order"), "{}", v.why);
    let shallower = (1..open.len()).find(|&i| open[i].g < open[0].g).unwrap();
    let v = judge(Algorithm::IdaStar, &open, shallower).unwrap();
    assert!(v.why.contains("waits until it backtracks"), "{}", v.why);
    s.step().unwrap();
    assert_eq!(s.last().unwrap().board, open[0].board);
    assert_eq!(judge(Algorithm::IdaStar, &open, open.len()), None);
}

#[test]
fn greedy_and_weighted_predictions_are_judged_by_their_own_f() {
    // Greedy best-first orders by h alone: a wrong pick is told the h's, not g + h.
    let s = stepper(HARD8, Algorithm::Greedy, 3);
    let open = s.open_top(16);
    let h0 = open[0].h;
    let worse = (1..open.len()).find(|&i| open[i].h > h0).unwrap();
    let v = judge(Algorithm::Greedy, &open, worse).unwrap();
    assert!(!v.right);
    assert_eq!(
        v.why,
        format!(
            "Wrong: Greedy best-first search expands the lowest h first: the board it expands \
             has h {h0}, yours {}.",
            open[worse].h
        )
    );
    let v = judge(Algorithm::Greedy, &open, 0).unwrap();
    assert!(
        v.right && v.why.contains(&format!("no board has less than {h0}")),
        "{}",
        v.why
    );
    // Weighted A* (w = 2): f = g + 2h, in moves.
    let w = Algorithm::WeightedAStar(npuzzle::search::Weight::DEFAULT);
    let s = stepper(HARD8, w, 3);
    let open = s.open_top(16);
    let f0 = open[0].g + 2 * open[0].h;
    assert!(open.iter().all(|o| o.g + 2 * o.h >= f0));
    let v = judge(w, &open, 0).unwrap();
    assert!(
        v.why.starts_with(&format!(
            "Right: Weighted A* expands the lowest f = g + 2×h first, and no board has less than {f0}"
        )),
        "{}",
        v.why
    );
}
