//! The guided lessons (issue 40 §1), driven with egui_kittest: the first launch's offer, every
//! lesson walked to its end through the app's own buttons (each check failing before its task
//! and passing after), a wrong answer refused with its hint, and a lesson left and resumed.
#![cfg(feature = "gui")]

mod common;

use common::harness::{TestApp, harness, step_until};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use npuzzle::app::AppState;
use npuzzle::app::lessons::{AnswerVerdict, Check, lessons};
use npuzzle::heuristic::HeuristicKind;
use npuzzle::puzzle::{Board, GoalSpec};
use npuzzle::search::{Algorithm, Limits, Outcome, Problem, Pruning, solve};

/// The right answer of the step shown, as the app computes it.
fn answer(st: &AppState) -> Option<u64> {
    match st.lessons.step().check {
        Check::Answer { answer, .. } => answer(st),
        Check::State(_) => None,
    }
}

/// Clicks the button labelled `label` and runs two frames (a window opened shows on the
/// second, after egui has measured it).
fn click(h: &mut Harness<'_, TestApp>, label: &str) {
    // A frame first: the window's size follows its text a frame late.
    h.step();
    h.get_by_label(label).click();
    h.step();
    h.step();
}

/// Clicks `label` (Step, Next iteration) and waits until the stepped search holds again.
fn step_and_wait(h: &mut Harness<'_, TestApp>, label: &str) {
    let before = h.state().st.run.inspect().map_or(0, |v| v.history.reached);
    click(h, label);
    step_until(h, |s| {
        s.run.is_idle() && s.run.inspect().is_some_and(|v| v.history.reached > before)
            || !s.is_running()
    });
    h.step();
}

/// Clicks Start (or Run) and waits until the search has ended.
fn run_to_end(h: &mut Harness<'_, TestApp>, label: &str) {
    click(h, label);
    step_until(h, |s| {
        !s.is_running() && s.run.solution().is_some() || s.run.unsolvable().is_some()
    });
    h.step();
}

/// The task of step `s` of lesson `l`, done through the app's buttons and keys.
fn act(h: &mut Harness<'_, TestApp>, l: usize, s: usize) {
    match (l, s) {
        // The blank goes down, then right: the arrows slide the tile the other way.
        (0, 0) => {
            h.key_press(egui::Key::ArrowUp);
            h.key_press(egui::Key::ArrowLeft);
            h.step();
        }
        (0, 1) | (2, 0) | (4, 0) | (4, 2) => step_and_wait(h, "Step"),
        (0, 2) => step_until(h, |st| st.play.to_go(st.board()).is_some()),
        (1, 0) => (0..5).for_each(|_| step_and_wait(h, "Step")),
        (1, 1) | (2, 1) | (4, 3) => run_to_end(h, "Run"),
        (4, 1) => (0..2).for_each(|_| step_and_wait(h, "Next iteration")),
        (2, 2) | (3, _) | (5, 1..) | (6, 0) | (6, 2) | (7, 1..) => run_to_end(h, "Start"),
        _ => {}
    }
}

/// Whether step `s` of lesson `l` has a task that its check waits for (others ask about what
/// an earlier step produced, or about the board set up).
fn has_task(l: usize, s: usize) -> bool {
    !matches!((l, s), (0, 2) | (1, 2) | (2, 3) | (5, 0) | (6, 1) | (7, 0))
}

/// Nodes A* (or BFS, IDA*) expands on `board` with `kind`, from the library's fast search.
fn fast_expanded(board: &str, algorithm: Algorithm, kind: HeuristicKind) -> u64 {
    let start: Board = board.parse().unwrap();
    let goal = GoalSpec::BlankLast.resolve(3, 3).unwrap();
    let limits = Limits {
        pruning: Pruning::Undo,
        ..Limits::default()
    };
    let Outcome::Solved(s) = solve(
        &Problem { start, goal },
        algorithm,
        kind,
        &limits,
        &mut |_| {},
    )
    .unwrap() else {
        panic!("{board} unsolved")
    };
    s.stats.expanded
}

/// The answers that come from a search, checked against the library's own.
fn cross_check(l: usize, s: usize, right: u64, st: &AppState) {
    const FARTHEST: &str = "8 6 7/2 5 4/3 0 1";
    use Algorithm::*;
    use HeuristicKind::*;
    let want = match (l, s) {
        (0, 1) => 181_440,
        (0, 2) => 31,
        (1, 1) => fast_expanded("4 1 3/7 2 6/0 5 8", Bfs, Manhattan),
        (2, 1) => fast_expanded("4 1 2/0 8 7/6 3 5", AStar, Hamming),
        (2, 2) => fast_expanded("4 1 2/0 8 7/6 3 5", AStar, Manhattan),
        (3, 0) => 24,
        (3, 1) => 10,
        (5, 1) => fast_expanded(FARTHEST, AStar, Manhattan),
        (5, 2) => fast_expanded(FARTHEST, AStar, LinearConflict),
        (5, 3) => fast_expanded(FARTHEST, AStar, WalkingDistance),
        // pdb8 is exact: A* expands only the path's boards, the goal not counted.
        (6, 2) => st.run.solution().unwrap().moves.len() as u64,
        (7, 0) => 1,
        _ => return,
    };
    assert_eq!(right, want, "lesson {} step {}", l + 1, s + 1);
}

/// Whether the Next button is greyed out.
fn next_disabled(h: &Harness<'_, TestApp>) -> bool {
    h.get_by_label("Next").accesskit_node().is_disabled()
}

/// Types `text` as the answer and presses Check.
fn answer_with(h: &mut Harness<'_, TestApp>, text: &str) {
    h.state_mut().st.lessons.answer = text.to_string();
    h.step();
    click(h, "Check");
}

#[test]
fn the_first_launch_offers_lesson_1_without_forcing_it() {
    let mut h = harness("1 2 3/4 0 6/7 5 8");
    h.step();
    h.get_by_label_contains("New to search? Lesson 1 of 8");
    assert!(h.query_by_label("Lessons").is_none());
    click(&mut h, "No thanks");
    h.step();
    assert!(h.state().st.lessons.offered);
    assert!(h.query_by_label_contains("New to search?").is_none());
    assert!(!h.state().st.view.lessons_open);
    // The Learn button opens the lessons at any time, at lesson 1's first step.
    click(&mut h, "Learn");
    h.step();
    assert!(h.state().st.view.lessons_open);
    h.get_by_label("Step 1 of 3");
    // Start in the offer opens lesson 1 too.
    let mut h = harness("1 2 3/4 0 6/7 5 8");
    h.step();
    click(&mut h, "Start lesson 1");
    h.step();
    let st = &h.state().st;
    assert!(st.lessons.offered && st.view.lessons_open);
    assert_eq!((st.lessons.lesson, st.lessons.step), (0, 0));
}

#[test]
fn every_lesson_can_be_walked_to_the_end_and_each_check_waits_for_its_task() {
    let mut h = harness("1 2 3/4 0 6/7 5 8");
    h.step();
    click(&mut h, "Start lesson 1");
    for (l, lesson) in lessons().iter().enumerate() {
        for (s, step) in lesson.steps.iter().enumerate() {
            let at = format!("lesson {} step {}", l + 1, s + 1);
            assert_eq!(
                (h.state().st.lessons.lesson, h.state().st.lessons.step),
                (l, s),
                "{at}"
            );
            h.get_by_label(&format!("Step {} of {}", s + 1, lesson.steps.len()));
            if step.setup.is_some() {
                click(&mut h, "Set up");
            }
            h.step();
            // Not passed before its task (nor can Next be taken).
            assert!(!h.state().st.lessons.step_passed(), "{at}");
            if has_task(l, s) {
                assert!(
                    answer(&h.state().st).is_none(),
                    "{at}: answered before the task"
                );
            }
            act(&mut h, l, s);
            h.step();
            if let Check::Answer { .. } = step.check {
                let right = answer(&h.state().st).unwrap_or_else(|| panic!("{at}: no answer"));
                cross_check(l, s, right, &h.state().st);
                answer_with(&mut h, &(right + 1).to_string());
                assert_eq!(
                    h.state().st.lessons.verdict,
                    Some(AnswerVerdict::Wrong),
                    "{at}"
                );
                assert!(!h.state().st.lessons.step_passed(), "{at}");
                answer_with(&mut h, &right.to_string());
            }
            assert!(
                h.state().st.lessons.step_passed(),
                "{at}: not passed after its task"
            );
            let next = if s + 1 < lesson.steps.len() {
                "Next"
            } else {
                "Next lesson"
            };
            if l + 1 < lessons().len() || s + 1 < lesson.steps.len() {
                click(&mut h, next);
            }
        }
        assert!(h.state().st.lessons.is_done(l), "lesson {}", l + 1);
    }
    h.get_by_label("All lessons done.");
    // The last lesson passed with another one not done: not "all".
    h.state_mut().st.lessons.passed[1] = 0;
    h.step();
    h.get_by_label("Last lesson done: the menu above shows the lessons not yet done.");
    assert!(h.query_by_label("All lessons done.").is_none());
}

#[test]
fn a_wrong_answer_is_refused_with_a_hint_and_a_typed_one_is_read() {
    let mut h = harness("1 2 3/4 0 6/7 5 8");
    h.step();
    click(&mut h, "Start lesson 1");
    // Lesson 3, step 1: h of the start board with misplaced tiles.
    h.state_mut().st.lessons.open(2);
    h.step();
    click(&mut h, "Set up");
    // Before the task, an answer is not judged: the task comes first.
    answer_with(&mut h, "5");
    assert_eq!(h.state().st.lessons.verdict, Some(AnswerVerdict::TaskFirst));
    h.get_by_label_contains("Do the task first");
    step_and_wait(&mut h, "Step");
    let right = answer(&h.state().st).unwrap();
    assert_eq!(
        right,
        u64::from(h.state().st.run.inspect().unwrap().tree[0].h)
    );
    // Typed in the box, a wrong number: refused, with the hint.
    let wrong = (right + 2).to_string();
    h.get_by_role_and_label(
        egui::accesskit::Role::TextInput,
        "What is h of the start board, with misplaced tiles?",
    )
    .type_text(&wrong);
    h.step();
    click(&mut h, "Check");
    assert_eq!(h.state().st.lessons.verdict, Some(AnswerVerdict::Wrong));
    h.get_by_label_contains("Not quite. The first expansion in the inspector");
    assert!(next_disabled(&h));
    answer_with(&mut h, "seven");
    assert_eq!(
        h.state().st.lessons.verdict,
        Some(AnswerVerdict::NotANumber)
    );
    answer_with(&mut h, &right.to_string());
    h.get_by_label("Right.");
    assert!(!next_disabled(&h));
}

#[test]
fn a_lesson_left_and_resumed_keeps_its_step() {
    let mut h = harness("1 2 3/4 0 6/7 5 8");
    h.step();
    click(&mut h, "Start lesson 1");
    click(&mut h, "Set up");
    act(&mut h, 0, 0);
    h.step();
    click(&mut h, "Next");
    assert_eq!(h.state().st.lessons.step, 1);
    // Closed with the Learn button, opened again: the same step.
    click(&mut h, "Learn");
    h.step();
    assert!(h.query_by_label("Step 2 of 3").is_none());
    click(&mut h, "Learn");
    h.step();
    h.get_by_label("Step 2 of 3");
    // Another lesson, then back: lesson 1 resumes at its first step not passed.
    h.state_mut().st.lessons.open(4);
    h.step();
    h.get_by_label("Step 1 of 4");
    h.state_mut().st.lessons.open(0);
    h.step();
    h.get_by_label("Step 2 of 3");
    // Back shows the passed step, passed; Next goes on again.
    click(&mut h, "Back");
    h.get_by_label("Done.");
    assert!(!next_disabled(&h));
    // The window's close button keeps the step too.
    h.state_mut().st.view.lessons_open = false;
    h.step();
    h.state_mut().st.view.lessons_open = true;
    h.step();
    h.get_by_label("Step 1 of 3");
}
