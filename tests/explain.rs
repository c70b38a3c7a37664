//! The app's words for the ideas (issue 40 §3), driven with egui_kittest: the Puzzle panel's
//! parity explanation and its "Show the pairs", the Solver panel's words on a pattern
//! database, and the inspector's one-sentence narration of each step, checked against the
//! fates the stepper reports for A*, IDA* and BFS.
#![cfg(feature = "gui")]

mod common;

use common::goal;
use common::harness::{expanded, harness, harness_sized, set, step_until};
use egui_kittest::kittest::Queryable;
use npuzzle::app::{HeuristicChoice, narration};
use npuzzle::heuristic::pdb::PartitionSpec;
use npuzzle::heuristic::{HeuristicKind, HeuristicSpec};
use npuzzle::puzzle::GoalSpec;
use npuzzle::search::stepper::{Fate, Stepper};
use npuzzle::search::{Algorithm, Problem};

/// Blank in the middle, two moves from the goal (Down, Right); Manhattan h = 2.
const NEAR: &str = "1 2 3/4 0 6/7 5 8";
/// The 31-move 8-puzzle.
const HARD8: &str = "8 6 7/2 5 4/3 0 1";

#[test]
fn the_puzzle_panel_explains_an_unsolvable_3x3_and_lists_its_pairs_on_demand() {
    // Tall enough that the words do not push "Show the pairs" out of the panel's view.
    let mut h = harness_sized("1 2 3/4 5 6/8 7 0", 1280.0, 2000.0);
    h.step();
    h.get_by_label_contains("unsolvable: width 3 is odd");
    // The words wait under "Why?".
    assert!(h.query_by_label_contains("An inversion is").is_none());
    h.get_by_label("Why? Inversions and parity").click();
    h.step();
    h.get_by_label_contains("This board has 1 inversion, an odd number");
    h.get_by_label_contains("The width is odd, so 2 is even");
    h.get_by_label_contains("This board's count, 1, is odd; the blank-last goal's, 0, is even.");
    h.get_by_label_contains(
        "The blank-first goal has 0 inversions, an even number: this board cannot reach it either.",
    );
    assert!(h.query_by_label_contains("Inverted pairs").is_none());
    h.get_by_label("Show the pairs").click();
    h.step();
    h.get_by_label("Inverted pairs (1): (8, 7)");
    // The list follows the board.
    assert!(h.state_mut().st.load_text("8 7 6/5 4 3/2 1 0", "test"));
    h.step();
    h.step();
    h.get_by_label_contains("Inverted pairs (28): (8, 7), (8, 6), (8, 5)");
}

#[test]
fn the_puzzle_panel_counts_rows_from_the_top_on_an_unsolvable_4x4() {
    let mut h = harness("1 2 3 4/5 6 7 8/9 10 11 12/13 15 14 0");
    h.step();
    h.get_by_label_contains("1 + row 4 on the board, 0 + row 4 on the blank-last goal");
    h.get_by_label("Why? Inversions and parity").click();
    h.step();
    h.get_by_label_contains("This board: 1 inversion + the blank in row 4 = 5, odd.");
    h.get_by_label_contains("The blank-last goal: 0 + row 4 = 4, even.");
    h.get_by_label_contains("the blank in row 1 = 1, odd: this board can reach it.");
}

#[test]
fn the_solver_panel_says_what_the_chosen_pattern_database_is() {
    let mut h = harness(NEAR);
    h.step();
    assert!(h.query_by_label("What is a pattern database?").is_none());
    h.state_mut().st.settings.heuristic = HeuristicChoice::Pdb(PartitionSpec::Named("pdb8".into()));
    h.step();
    h.get_by_label("What is a pattern database?").click();
    h.step();
    h.get_by_label_contains("9 × 8 × 7 × 6 × 5 × 4 × 3 × 2 = 362 880 entries");
    h.get_by_label_contains("With one pattern holding every tile");
    h.get_by_label_contains("h is the larger of the two sums");
}

/// The inspector says each step in one sentence; on NEAR, A* pushes all four successors,
/// then skips the parent.
#[test]
fn the_inspector_narrates_astar_and_idastar_steps() {
    let mut h = harness(NEAR);
    set(
        &mut h.state_mut().st,
        Algorithm::AStar,
        HeuristicKind::Manhattan,
    );
    h.step();
    h.get_by_label("Step").click();
    step_until(&mut h, |s| expanded(s) == 1 && s.run.is_idle());
    h.step();
    h.get_by_label("Expanded #1, g 0 + h 2 = f 2: 4 successors pushed on the open list.");
    h.get_by_label("Step").click();
    step_until(&mut h, |s| expanded(s) == 2 && s.run.is_idle());
    h.step();
    h.get_by_label(
        "Expanded #2, g 1 + h 1 = f 2: 2 successors pushed on the open list, the parent \
         skipped (no move undoes the last one).",
    );
    let mut h = harness(NEAR);
    set(
        &mut h.state_mut().st,
        Algorithm::Bfs,
        HeuristicKind::Manhattan,
    );
    h.step();
    h.get_by_label("Step").click();
    step_until(&mut h, |s| expanded(s) == 1 && s.run.is_idle());
    h.step();
    h.get_by_label("Expanded #1, g 0 (its depth): 4 successors queued.");
    let mut h = harness(NEAR);
    set(
        &mut h.state_mut().st,
        Algorithm::IdaStar,
        HeuristicKind::Manhattan,
    );
    h.step();
    h.get_by_label("Step").click();
    step_until(&mut h, |s| expanded(s) == 1 && s.run.is_idle());
    h.step();
    h.get_by_label(
        "Expanded #1, g 0 + h 2 = f 2 (threshold 2): 1 successor within the threshold \
         (searched below), 3 pruned: f 4, 4, 4 over the threshold 2.",
    );
}

/// Checks `algorithm`'s narration of `steps` expansions of HARD8 against each step's fates;
/// returns the sentences.
fn narrated(algorithm: Algorithm, steps: usize) -> Vec<String> {
    let p = Problem {
        start: HARD8.parse().unwrap(),
        goal: goal(&GoalSpec::BlankLast, 3, 3),
    };
    let spec = HeuristicSpec::Kind(HeuristicKind::Manhattan);
    let mut s = Stepper::new(&p, algorithm, &spec, 1 << 30).unwrap();
    let mut out = Vec::new();
    for _ in 0..steps {
        s.step().unwrap();
        let Some(e) = s.last() else { continue };
        let text = narration(e, algorithm);
        let count = |f: &dyn Fn(&Fate) -> bool| e.successors.iter().filter(|s| f(&s.fate)).count();
        let pushed = count(&|f| *f == Fate::Pushed);
        let kept = match algorithm {
            Algorithm::Bfs => "queued",
            Algorithm::IdaStar => "within the threshold (searched below)",
            _ => "pushed on the open list",
        };
        if pushed > 0 {
            let s = if pushed == 1 { "" } else { "s" };
            assert!(
                text.contains(&format!("{pushed} successor{s} {kept}")),
                "{text}"
            );
        } else {
            assert!(!text.contains(kept), "{text}");
        }
        let known: Vec<String> = e
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
        if !known.is_empty() {
            let k = known.len();
            assert!(
                text.contains(&format!("{k} dropped ({})", known.join("; ")))
                    || text.contains(&format!("dropped ({})", known.join("; "))),
                "{text}"
            );
        }
        let pruned: Vec<String> = e
            .successors
            .iter()
            .filter(|s| s.fate == Fate::OverThreshold)
            .map(|s| (s.g + s.h).to_string())
            .collect();
        if !pruned.is_empty() {
            let said = format!(
                "pruned: f {} over the threshold {}",
                pruned.join(", "),
                e.bound
            );
            assert!(text.contains(&said), "{text}");
        }
        assert_eq!(
            text.contains("the parent skipped"),
            count(&|f| *f == Fate::Parent) > 0
        );
        let head = match algorithm {
            Algorithm::Bfs => format!("Expanded #{}, g {} (its depth): ", e.number, e.g),
            Algorithm::IdaStar => format!(
                "Expanded #{}, g {} + h {} = f {} (threshold {}): ",
                e.number,
                e.g,
                e.h,
                e.g + e.h,
                e.bound
            ),
            _ => format!(
                "Expanded #{}, g {} + h {} = f {}: ",
                e.number,
                e.g,
                e.h,
                e.g + e.h
            ),
        };
        assert!(text.starts_with(&head), "{text}");
        assert!(text.ends_with('.'));
        out.push(text);
    }
    out
}

#[test]
fn the_narration_matches_the_fates_of_astar_idastar_and_bfs() {
    let astar = narrated(Algorithm::AStar, 400);
    // A* meets boards it has closed: said with their g.
    assert!(
        astar
            .iter()
            .any(|t| t.contains("dropped (already closed with g "))
    );
    let ida = narrated(Algorithm::IdaStar, 400);
    assert!(ida.iter().any(|t| t.contains("pruned: f ")));
    let bfs = narrated(Algorithm::Bfs, 400);
    assert!(bfs.iter().any(|t| t.contains("dropped (already ")));
    assert!(bfs.iter().all(|t| !t.contains(" h ")));
}
