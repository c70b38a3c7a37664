//! The app's panels driven headlessly with egui_kittest, and the real window under Xvfb.
#![cfg(feature = "gui")]

mod common;

use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use common::harness::{harness, step_until};
use common::{goal, replay};
use egui_kittest::kittest::Queryable;
use npuzzle::app::{EvaluatorChoice, HeuristicChoice, Level, RunState};
use npuzzle::puzzle::{Board, GoalSpec};
use npuzzle::search::Algorithm;

#[test]
fn start_runs_a_solve_to_an_optimal_solution_and_playback_reaches_the_goal() {
    for (algo, label) in [
        (Algorithm::AStar, "A*"),
        (Algorithm::IdaStar, "IDA*"),
        (Algorithm::BatchedAStar, "batched A*"),
        (Algorithm::Bfs, "BFS"),
    ] {
        let mut h = harness("8 6 7/2 5 4/3 0 1");
        h.state_mut().st.settings.algorithm = algo;
        h.state_mut().st.settings.evaluator = EvaluatorChoice::Cpu;
        h.step();
        h.get_by_label("Start").click();
        step_until(&mut h, |s| *s.run.state() == RunState::Done);
        let st = &h.state().st;
        let sol = st.run.solution().expect("a solution");
        assert_eq!(sol.moves.len(), 31, "{label}");
        let g = goal(&GoalSpec::BlankLast, 3, 3);
        assert_eq!(&replay(st.board(), &sol.moves), g.board(), "{label}");
        assert!(
            st.run.progress().is_some(),
            "{label}: no progress was shown"
        );
        // Playback: to the goal and back.
        h.get_by_label(">|").click();
        h.step();
        assert_eq!(&h.state().st.shown_board(), g.board());
        h.get_by_label("|<").click();
        h.step();
        assert_eq!(&h.state().st.shown_board(), h.state().st.board());
        h.get_by_label(">").click();
        h.step();
        assert_eq!(h.state().st.playback.position(), 1);
    }
}

#[test]
fn a_pattern_database_is_built_with_progress_then_solves_optimally() {
    // A 2×4 board with the exact 7-tile table (pdb:7): built on the first Start, then cached.
    let dir = tempfile::tempdir().unwrap();
    for (algo, label) in [
        (Algorithm::IdaStar, "IDA*"),
        (Algorithm::BatchedAStar, "batched A*"),
    ] {
        let mut h = harness("0 7 6 5/4 3 2 1");
        h.state_mut().st.settings.algorithm = algo;
        h.state_mut().st.settings.evaluator = EvaluatorChoice::Cpu;
        h.state_mut().st.settings.pdb_cache = Some(dir.path().to_path_buf());
        h.state_mut().st.settings.heuristic =
            HeuristicChoice::Pdb(npuzzle::heuristic::pdb::PartitionSpec::parse("pdb:7").unwrap());
        h.step();
        h.get_by_label("Start").click();
        let t = Instant::now();
        while *h.state().st.run.state() != RunState::Done {
            assert!(t.elapsed() < Duration::from_secs(60), "timed out");
            h.step();
        }
        // The build may start and end between two frames: its last report is kept.
        let saw_build = h
            .state()
            .st
            .run
            .last_build()
            .is_some_and(|b| b.name == "pdb:7");
        let st = &h.state().st;
        let sol = st.run.solution().expect("a solution");
        let g = goal(&GoalSpec::BlankLast, 2, 4);
        assert_eq!(&replay(st.board(), &sol.moves), g.board(), "{label}");
        // Optimal: the length from an independent breadth-first search of the whole space.
        let exact = common::exact_distances(g.board());
        assert_eq!(
            sol.moves.len() as u32,
            exact[&st.board().tiles().to_vec()],
            "{label}"
        );
        if algo == Algorithm::IdaStar {
            assert!(saw_build, "no build progress was shown");
        }
    }
    // A corrupt cache file is rebuilt, and the app says so.
    let file = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "pdb"))
        .expect("a cached table");
    let len = std::fs::metadata(&file).unwrap().len();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&file)
        .unwrap()
        .set_len(len / 2)
        .unwrap();
    let mut h = harness("0 7 6 5/4 3 2 1");
    h.state_mut().st.settings.algorithm = Algorithm::IdaStar;
    h.state_mut().st.settings.pdb_cache = Some(dir.path().to_path_buf());
    h.state_mut().st.settings.heuristic =
        HeuristicChoice::Pdb(npuzzle::heuristic::pdb::PartitionSpec::parse("pdb:7").unwrap());
    h.step();
    h.get_by_label("Start").click();
    step_until(&mut h, |s| *s.run.state() == RunState::Done);
    let st = &h.state().st;
    assert!(
        st.messages
            .iter()
            .any(|m| m.level == Level::Warning && m.text.contains("rebuilding")),
        "{:?}",
        st.messages
    );
    assert_eq!(
        std::fs::metadata(&file).unwrap().len(),
        len,
        "rebuilt in full"
    );
}

#[test]
fn the_heuristic_menu_offers_the_pattern_databases_of_the_board_size() {
    let mut h = harness("1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15");
    h.state_mut().st.settings.algorithm = Algorithm::IdaStar;
    h.step();
    h.get_by_label("Heuristic").click();
    h.run();
    h.get_by_label("pdb663 (pattern database)").click();
    h.step();
    assert_eq!(
        h.state().st.settings.heuristic,
        HeuristicChoice::Pdb(npuzzle::heuristic::pdb::PartitionSpec::Named(
            "pdb663".into()
        ))
    );
    assert!(h.query_by_label("pdb6666 (pattern database)").is_none());
    // A board of another size: the database no longer fits; on a 3×3 the 8-puzzle's own
    // database takes its place, and pdb663 comes back with a 4×4.
    let pdb =
        |n: &str| HeuristicChoice::Pdb(npuzzle::heuristic::pdb::PartitionSpec::Named(n.into()));
    h.state_mut()
        .st
        .set_board("1 2 3/4 5 6/7 0 8".parse().unwrap(), "test");
    h.step();
    assert_eq!(h.state().st.settings.heuristic, pdb("pdb8"));
    let said = h.state().st.messages.last().unwrap().clone();
    assert!(
        said.contains("pdb663 does not fit") && said.contains("heuristic set to pdb8"),
        "{said}"
    );
    h.get_by_label_contains("pdb663 does not fit this board");
    h.state_mut().st.set_board(
        "1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0".parse().unwrap(),
        "t4",
    );
    h.step();
    assert_eq!(h.state().st.settings.heuristic, pdb("pdb663"));
    // The note about the 3×3 went with it; the one about pdb8 is about this board.
    assert!(h.query_by_label_contains("pdb663 does not fit").is_none());
    h.get_by_label_contains("pdb8 does not fit this board");
    // A 2×3 has no database of its own: linear conflict.
    h.state_mut()
        .st
        .set_board("1 2 3/4 0 5".parse().unwrap(), "t23");
    assert_eq!(
        h.state().st.settings.heuristic,
        HeuristicChoice::Kind(npuzzle::heuristic::HeuristicKind::LinearConflict)
    );
}

#[test]
fn no_file_chosen_goes_when_a_board_is_pasted() {
    let mut h = harness("1 2 3/4 5 6/7 0 8");
    h.state_mut().dialogs.open = None;
    h.step();
    h.get_by_label("Open…").click();
    h.step();
    h.get_by_label_contains("No file chosen");
    assert!(h.state_mut().st.load_text("1 2 3/4 5 6/0 7 8", "pasted"));
    h.step();
    assert!(h.query_by_label_contains("No file chosen").is_none());
}

#[test]
fn a_bad_file_shows_the_error_and_keeps_the_board() {
    let mut h = harness("1 2 3/4 5 6/7 0 8");
    let mut f = tempfile::NamedTempFile::new().unwrap();
    write!(f, "3\n1 2 3\n4 5 x\n7 8 0\n").unwrap();
    let path = f.path().to_path_buf();
    h.state_mut().dialogs.open = Some(path.clone());
    h.step();
    h.get_by_label("Open…").click();
    h.step();
    let st = &h.state().st;
    assert_eq!(st.board().to_string(), "1 2 3/4 5 6/7 0 8");
    let msg = st.messages.last().expect("an error message");
    let want = format!("{}:3:", path.display());
    assert!(msg.contains(&want) && msg.contains("\"x\""), "{msg}");
    // The message is on screen.
    h.step();
    let _ = h.get_by_label_contains("is not a number");
    // A good file loads and goes into the recent list.
    let mut g = tempfile::NamedTempFile::new().unwrap();
    write!(g, "2 3\n1 2 3\n4 0 5\n").unwrap();
    h.state_mut().dialogs.open = Some(g.path().to_path_buf());
    h.get_by_label("Open…").click();
    h.step();
    let st = &h.state().st;
    assert_eq!(st.board().to_string(), "1 2 3/4 0 5");
    assert_eq!(
        st.recent.paths().first().map(PathBuf::as_path),
        Some(g.path())
    );
}

#[test]
fn pasted_text_loads_or_reports() {
    let mut h = harness("1 2 3/4 5 6/7 0 8");
    h.state_mut().st.editor.paste = "1 2/3 3".into();
    h.step();
    h.get_by_label("Load pasted").click();
    h.step();
    assert_eq!(h.state().st.board().to_string(), "1 2 3/4 5 6/7 0 8");
    assert!(
        h.state()
            .st
            .messages
            .last()
            .unwrap()
            .contains("<pasted>:1:")
    );
    // Said under the paste box too (as well as in Messages), until the text changes.
    h.step();
    assert_eq!(h.query_all_by_label_contains("<pasted>:1:").count(), 2);
    h.state_mut().st.editor.paste = "3 1/2 0".into();
    h.step();
    assert_eq!(h.query_all_by_label_contains("<pasted>:1:").count(), 1);
    h.get_by_label("Load pasted").click();
    h.step();
    assert_eq!(h.state().st.board().to_string(), "3 1/2 0");
}

#[test]
fn scramble_gives_a_solvable_board_and_unsolvable_boards_are_answered_at_once() {
    let mut h = harness("1 2 3/4 5 6/7 8 0");
    h.state_mut().st.scramble.size = (4, 4);
    h.step();
    for _ in 0..5 {
        h.get_by_label("Scramble").click();
        h.step();
        let st = &h.state().st;
        assert_eq!((st.board().rows(), st.board().cols()), (4, 4));
        assert!(st.solvability().unwrap().solvable, "{}", st.board());
    }
    let first = h.state().st.board().clone();
    h.get_by_label("Scramble").click();
    h.step();
    assert_ne!(h.state().st.board(), &first, "a new seed gives a new board");
    // Six scrambles from seed 1 used seeds 1 to 6; the field shows the next one.
    assert_eq!(h.state().st.scramble.seed, 7);
    h.get_by_label("Next seed");
    // Unsolvable: answered without a search.
    let b: Board = "1 2 3/4 5 6/8 7 0".parse().unwrap();
    h.state_mut().st.set_board(b, "test");
    h.step();
    h.get_by_label("Start").click();
    h.step();
    let st = &h.state().st;
    assert!(st.run.unsolvable().is_some());
    assert!(!st.is_running());
    let _ = h.get_by_label("No solution possible");
    let about = |st: &npuzzle::app::AppState| {
        st.messages
            .iter()
            .filter(|m| m.text.starts_with("No solution possible"))
            .count()
    };
    assert_eq!(about(&h.state().st), 1);
    // Started again on the same board: one answer shown, not two.
    h.get_by_label("Start").click();
    h.step();
    assert_eq!(about(&h.state().st), 1);
    // Another puzzle: what was said about the last one goes, the other messages stay.
    h.state_mut().st.messages.note("kept");
    h.get_by_label("Scramble").click();
    h.step();
    assert_eq!(about(&h.state().st), 0);
    assert_eq!(
        h.state().st.messages.last().map(String::as_str),
        Some("kept")
    );
}

/// BFS on a 4×4 board is told, before it starts, that it may stop at the memory cap; when it
/// does, the failure names the app's controls (not command-line options) and groups its
/// digits. On a 3×3 board (181,440 boards) nothing is said.
#[test]
fn bfs_on_a_large_board_warns_of_the_memory_cap_and_fails_in_the_apps_words() {
    let mut h = harness("0 12 9 13/15 11 10 14/3 7 2 5/4 8 6 1");
    h.state_mut().st.settings.algorithm = Algorithm::Bfs;
    h.state_mut().st.settings.max_memory_mib = 16;
    h.step();
    h.get_by_label("Start").click();
    h.step();
    let notice = |st: &npuzzle::app::AppState| {
        st.messages.iter().any(|m| {
            m.level == Level::Notice && m.text.contains("may stop at the memory cap (16.0 MiB)")
        })
    };
    assert!(notice(&h.state().st), "{:?}", h.state().st.messages);
    step_until(&mut h, |s| matches!(s.run.state(), RunState::Failed(_)));
    let RunState::Failed(m) = h.state().st.run.state().clone() else {
        unreachable!()
    };
    assert!(m.contains("memory cap of 16.0 MiB reached after "), "{m}");
    assert!(m.contains("the Memory cap in the Solver panel"), "{m}");
    assert!(!m.contains("--"), "{m}");
    let expanded: String = m
        .split("after ")
        .nth(1)
        .and_then(|r| r.split(" expansion").next())
        .unwrap()
        .to_string();
    assert!(expanded.contains(' '), "grouped digits: {m}");
    // A 3×3 board fits: no notice.
    let mut h = harness("8 6 7/2 5 4/3 0 1");
    h.state_mut().st.settings.algorithm = Algorithm::Bfs;
    h.step();
    h.get_by_label("Start").click();
    step_until(&mut h, |s| *s.run.state() == RunState::Done);
    assert!(
        !h.state()
            .st
            .messages
            .iter()
            .any(|m| m.text.contains("memory cap"))
    );
}

#[test]
fn stop_stops_a_long_search_and_pause_holds_it() {
    // The 80-move 15-puzzle: IDA* with Manhattan runs far longer than this test.
    let mut h = harness("0 12 9 13/15 11 10 14/3 7 2 5/4 8 6 1");
    h.state_mut().st.settings.algorithm = Algorithm::IdaStar;
    h.state_mut().st.settings.heuristic =
        HeuristicChoice::Kind(npuzzle::heuristic::HeuristicKind::Manhattan);
    h.step();
    h.get_by_label("Start").click();
    step_until(&mut h, |s| s.run.progress().is_some());
    assert!(h.state().st.is_running());
    h.get_by_label("Pause").click();
    h.step();
    assert!(h.state().st.is_paused());
    // The worker says when it holds at its pause point (every snapshot sent before): from
    // then on, nothing advances, frame after frame.
    step_until(&mut h, |s| s.run.is_held());
    h.step();
    let frozen = h.state().st.run.progress().unwrap().generated;
    for _ in 0..50 {
        h.step();
        assert!(h.state().st.run.is_held());
        assert_eq!(h.state().st.run.progress().unwrap().generated, frozen);
    }
    // Step advances by one report.
    h.get_by_label("Step").click();
    step_until(&mut h, |s| s.run.progress().unwrap().generated > frozen);
    h.get_by_label("Stop").click();
    h.step();
    let st = &h.state().st;
    assert_eq!(st.run.state(), &RunState::Stopped);
    assert!(!st.is_running());
    assert!(st.run.solution().is_none());
}

#[test]
fn clicking_and_keys_slide_tiles() {
    let mut h = harness("1 2 3/4 5 6/7 0 8");
    h.step();
    // Cell 8 (tile 8) is right of the blank: clicking it slides it left.
    h.state_mut().st.click_cell(8);
    assert_eq!(h.state().st.board().to_string(), "1 2 3/4 5 6/7 8 0");
    // A cell not next to the blank does nothing.
    h.state_mut().st.click_cell(0);
    assert_eq!(h.state().st.board().to_string(), "1 2 3/4 5 6/7 8 0");
    // Arrow keys slide the tile in the arrow's direction: Down moves tile 6 down.
    h.key_press(egui::Key::ArrowDown);
    h.step();
    assert_eq!(h.state().st.board().to_string(), "1 2 3/4 5 0/7 8 6");
    // Edit mode: two clicks swap two tiles.
    h.state_mut().st.editor.set_on(true);
    h.state_mut().st.click_cell(0);
    h.state_mut().st.click_cell(1);
    assert_eq!(h.state().st.board().to_string(), "2 1 3/4 5 0/7 8 6");
    assert!(!h.state().st.solvability().unwrap().solvable);
}

#[test]
fn solution_saves_atomically_as_text_and_json() {
    let mut h = harness("1 2 3/4 5 6/0 7 8");
    h.state_mut().st.settings.algorithm = Algorithm::AStar;
    h.step();
    h.get_by_label("Start").click();
    step_until(&mut h, |s| *s.run.state() == RunState::Done);
    let dir = tempfile::tempdir().unwrap();
    let txt = dir.path().join("s.txt");
    h.state_mut().dialogs.save = Some(txt.clone());
    h.get_by_label("Save text…").click();
    h.step();
    let text = std::fs::read_to_string(&txt).unwrap();
    assert!(
        text.starts_with("Minimum number of moves = 2\n3\n"),
        "{text}"
    );
    let json = dir.path().join("s.json");
    h.state_mut().dialogs.save = Some(json.clone());
    h.get_by_label("Save JSON…").click();
    h.step();
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["moves"], 2);
    assert_eq!(v["solution"], "RR");
}

/// The real window under a display (Xvfb in CI): solve a ~30-move 15-puzzle, save a PNG, check it.
#[test]
fn window_screenshot_under_a_display() {
    if std::env::var_os("DISPLAY").is_none() && std::env::var_os("WAYLAND_DISPLAY").is_none() {
        if std::env::var_os("NPUZZLE_REQUIRE_DISPLAY").is_some_and(|v| v != "0") {
            panic!("NPUZZLE_REQUIRE_DISPLAY is set but there is no DISPLAY");
        }
        let _ = writeln!(
            std::io::stderr(),
            "\n*** SKIPPED window_screenshot_under_a_display: no DISPLAY (run under Xvfb) ***\n"
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let board = dir.path().join("b.txt");
    // 30 moves from the blank-last goal.
    std::fs::write(&board, "4\n1 3 7 6\n5 2 4 0\n13 12 14 8\n15 9 10 11\n").unwrap();
    let shot = dir.path().join("shot.png");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_npuzzle"))
        .args([
            "gui",
            board.to_str().unwrap(),
            "--algorithm",
            "batched-astar",
            "--solve",
            "--screenshot",
        ])
        .arg(&shot)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&shot).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert!(
        info.width >= 800 && info.height >= 500,
        "{}x{}",
        info.width,
        info.height
    );
    let px = &buf[..info.buffer_size()];
    let colours: std::collections::HashSet<[u8; 3]> =
        px.chunks_exact(4).map(|p| [p[0], p[1], p[2]]).collect();
    assert!(
        colours.len() > 200,
        "only {} colours: blank window?",
        colours.len()
    );
    assert!(stderr.contains("moves;"), "{stderr}");
    assert!(stderr.contains("30 moves"), "{stderr}");
}

#[test]
fn all_optimal_solutions_are_counted_and_any_of_them_played_back() {
    // The farthest 3×3 board has 40 optimal solutions (an independent breadth-first count:
    // tests/all_solutions.rs); BFS, A* and IDA* list the same ones in move order.
    for algo in [Algorithm::AStar, Algorithm::IdaStar, Algorithm::Bfs] {
        let mut h = harness("8 6 7/2 5 4/3 0 1");
        h.state_mut().st.settings.algorithm = algo;
        h.step();
        h.get_by_label("All optimal solutions").click();
        h.step();
        assert!(h.state().st.settings.all_solutions, "{algo}");
        h.get_by_label("Start").click();
        step_until(&mut h, |s| *s.run.state() == RunState::Done);
        h.step();
        let _ = h.get_by_label("All optimal solutions: 40");
        let all = h.state().st.run.solution().unwrap().all.clone().unwrap();
        assert_eq!((all.count, all.solutions.len()), (40, 40), "{algo}");
        assert_eq!(h.state().st.run.solution().unwrap().moves, all.solutions[0]);
        // Pick the second: it is the one played back, from the start.
        // Its row shows the moves after those it shares with the first.
        let (first, second) = (&all.solutions[0], &all.solutions[1]);
        let k = first.iter().zip(second).take_while(|(a, b)| a == b).count();
        assert!(
            k < second.len(),
            "{algo}: two listed solutions are the same"
        );
        let rest = npuzzle::puzzle::format_moves(&second[k..], Default::default());
        h.get_by_label(&format!("   2  …{k} {rest}")).click();
        h.step();
        let st = &h.state().st;
        let sol = st.run.solution().unwrap();
        assert_eq!((sol.chosen, &sol.moves), (1, &all.solutions[1]), "{algo}");
        assert_eq!(st.playback.position(), 0);
        h.get_by_label(">|").click();
        h.step();
        let g = goal(&GoalSpec::BlankLast, 3, 3);
        assert_eq!(&h.state().st.shown_board(), g.board(), "{algo}");
    }
}
