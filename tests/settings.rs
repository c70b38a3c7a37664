//! The settings kept between runs: a round trip restores what the app showed, a damaged or
//! foreign file is ignored with a message, a newer version's file is read and its unknown
//! fields written back, values that do not fit are skipped, and a run that changes nothing
//! writes nothing.
#![cfg(feature = "gui")]

mod common;

use common::harness::harness;
use npuzzle::app::{LowerView, Restore, Saved};
use npuzzle::heuristic::{HeuristicChoice, HeuristicKind};
use npuzzle::puzzle::{Board, GoalSpec};
use npuzzle::search::Algorithm;

const ALL: Restore = Restore {
    board: true,
    algorithm: true,
    heuristic: true,
};

#[test]
fn settings_round_trip_through_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.json");
    let mut h = harness("8 6 7/2 5 4/3 0 1");
    h.step();
    {
        let st = &mut h.state_mut().st;
        st.set_board("1 2 3/4 0 6/7 5 8".parse().unwrap(), "mine.txt");
        st.set_goal(GoalSpec::BlankFirst);
        st.set_stated_length(Some(7));
        st.settings.algorithm = Algorithm::IdaStar;
        st.settings.heuristic = HeuristicChoice::Kind(HeuristicKind::Manhattan);
        st.settings.steps_per_second = 50;
        st.view.text_size = 1.3;
        st.view.dark = false;
        st.view.lower = LowerView::Iterations;
        st.view.show_results = false;
        st.view.side_widths = [Some(210.0), Some(260.0)];
        // In lesson 3 at its second step, lesson 1 done, the offer answered.
        st.lessons.open(2);
        st.lessons.step = 1;
        st.lessons.passed[0] = 3;
        st.lessons.passed[2] = 1;
        st.lessons.offered = true;
    }
    let saved = Saved::of(&h.state().st, Some([1000.0, 700.0]), None);
    saved.save_to(&path).unwrap();
    let (back, why) = Saved::load_from(&path);
    assert!(why.is_none(), "{why:?}");
    let back = back.unwrap();
    assert_eq!(back, saved);
    assert_eq!(back.window, Some([1000.0, 700.0]));
    // A fresh app takes all of it.
    let mut fresh = harness("1 2 3/4 5 6/7 8 0");
    let st = &mut fresh.state_mut().st;
    assert!(back.apply(st, ALL).is_empty());
    assert_eq!(*st.board(), "1 2 3/4 0 6/7 5 8".parse::<Board>().unwrap());
    assert_eq!(*st.goal_spec(), GoalSpec::BlankFirst);
    assert_eq!((st.source(), st.stated_length()), ("mine.txt", Some(7)));
    assert_eq!(st.settings.algorithm, Algorithm::IdaStar);
    assert_eq!(
        st.settings.heuristic,
        HeuristicChoice::Kind(HeuristicKind::Manhattan)
    );
    assert_eq!(st.settings.steps_per_second, 50);
    assert_eq!((st.view.text_size, st.view.dark), (1.3, false));
    assert_eq!(st.view.lower, LowerView::Iterations);
    assert!(st.view.show_controls && !st.view.show_results);
    assert_eq!(st.view.side_widths, [Some(210.0), Some(260.0)]);
    let l = &st.lessons;
    assert_eq!((l.lesson, l.step, l.offered), (2, 1, true));
    assert_eq!((l.passed_in(0), l.passed_in(1), l.passed_in(2)), (3, 0, 1));
    // Nothing changed since: nothing to write.
    assert!(Saved::of(st, Some([1000.0, 700.0]), Some(&back)).same_as(&back));
    st.settings.steps_per_second = 5;
    assert!(!Saved::of(st, Some([1000.0, 700.0]), Some(&back)).same_as(&back));
    // The command line's choices win: a file given keeps its board.
    let mut other = harness("1 2 3/4 5 6/7 8 0");
    let st = &mut other.state_mut().st;
    let only = Restore {
        board: false,
        algorithm: false,
        heuristic: true,
    };
    assert!(back.apply(st, only).is_empty());
    assert_eq!(*st.board(), "1 2 3/4 5 6/7 8 0".parse::<Board>().unwrap());
    assert_ne!(st.settings.algorithm, Algorithm::IdaStar);
    assert_eq!(
        st.settings.heuristic,
        HeuristicChoice::Kind(HeuristicKind::Manhattan)
    );
}

#[test]
fn a_damaged_or_foreign_file_is_ignored_with_a_message() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.json");
    for (text, said) in [
        ("{\"kind\": \"npuzzle settings\", \"speed\": ", "not JSON"),
        ("\u{0}\u{1}binary", "not JSON"),
        ("[\"/a/board.txt\"]", "not an npuzzle settings file"),
        ("{\"editor.fontSize\": 14}", "not an npuzzle settings file"),
        (
            "{\"kind\": \"npuzzle settings\", \"speed\": \"fast\"}",
            "damaged",
        ),
    ] {
        std::fs::write(&path, text).unwrap();
        let (saved, why) = Saved::load_from(&path);
        assert!(saved.is_none(), "{text}");
        let why = why.unwrap_or_default();
        assert!(why.contains(said), "{text}: {why}");
        assert!(why.contains("settings from the last run ignored"), "{why}");
    }
    // No file: nothing, and no message.
    let (saved, why) = Saved::load_from(&dir.path().join("none.json"));
    assert!(saved.is_none() && why.is_none());
    // A folder where the file should be is refused, not read.
    let (saved, why) = Saved::load_from(dir.path());
    assert!(saved.is_none() && why.unwrap_or_default().contains("folder"));
}

#[test]
fn a_newer_versions_file_is_read_and_its_unknown_fields_kept() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.json");
    std::fs::write(
        &path,
        r#"{"kind": "npuzzle settings", "version": "9.1.0", "speed": 5,
            "algorithm": "warp-drive", "heuristic": "pdb78",
            "badges": {"done": [1, 2], "at": 3}, "future": true}"#,
    )
    .unwrap();
    let (saved, why) = Saved::load_from(&path);
    assert!(why.is_none(), "{why:?}");
    let saved = saved.unwrap();
    let mut h = harness("8 6 7/2 5 4/3 0 1");
    let st = &mut h.state_mut().st;
    let before = (st.settings.algorithm, st.settings.heuristic.clone());
    let skipped = saved.apply(st, ALL);
    // An algorithm this version does not know, and a 4×4 table on a 3×3 board: skipped.
    assert_eq!(
        skipped,
        [
            "algorithm \"warp-drive\"",
            "heuristic pdb78 (does not fit the board)"
        ]
    );
    assert_eq!(
        (st.settings.algorithm, st.settings.heuristic.clone()),
        before
    );
    assert_eq!(st.settings.steps_per_second, 5);
    // Written back with the fields it did not know.
    let again = Saved::of(st, None, Some(&saved));
    again.save_to(&path).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["badges"]["done"], serde_json::json!([1, 2]));
    assert_eq!(v["future"], serde_json::json!(true));
    assert_eq!(v["kind"], "npuzzle settings");
    assert_eq!(v["speed"], 5);
}
