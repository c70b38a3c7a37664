//! End-to-end tests of the `npuzzle` binary: `solve` and `generate` (`bench` in `bench.rs`,
//! bad input and faults in `faults.rs`).

mod common;

use common::bin::{
    EASY8, HARD8, HARD8_FILE, KORF9, KORF12, Output, command, goal_board, npuzzle, npuzzle_env,
    output, parse, path_of, solve_json, temp_file,
};
use common::{bfs_distance, replay_letters};
use npuzzle::puzzle::{Board, GoalSpec, Move, Solvability};
use serde_json::Value;

const DEFAULT_PUZZLE_FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/default.txt");

/// Checks a JSON solution: length, letters, replay to `goal`, tiles moved.
fn check_solution(j: &Value, start: &Board, goal: &Board, expected_moves: usize) {
    assert_eq!(j["solvable"], Value::Bool(true), "{j}");
    assert_eq!(j["moves"].as_u64(), Some(expected_moves as u64), "{j}");
    let sol = j["solution"].as_str().expect("solution string");
    assert_eq!(sol.len(), expected_moves, "{sol}");
    assert!(sol.chars().all(|c| "UDLR".contains(c)), "{sol}");
    let tile = j["notation"].as_str() == Some("tile");
    let (boards, slid) = replay_letters(start, sol, tile);
    assert_eq!(
        boards.last().expect("boards").as_slice(),
        goal.tiles(),
        "{sol} does not reach the goal"
    );
    let tiles_moved: Vec<u8> = j["tiles_moved"]
        .as_array()
        .expect("tiles_moved array")
        .iter()
        .map(|v| v.as_u64().expect("tile number") as u8)
        .collect();
    assert_eq!(tiles_moved, slid);
    assert_eq!(j["start"].as_str(), Some(start.to_string().as_str()));
}

/// The boards a text-mode solve prints after its three header lines, parsed.
fn printed_boards(stdout: &str) -> Vec<Board> {
    let rest: Vec<&str> = stdout.lines().skip(3).collect();
    rest.split(|l| l.trim().is_empty())
        .filter(|chunk| !chunk.is_empty())
        .map(|chunk| parse(&chunk.join("\n")))
        .collect()
}

// ---------------------------------------------------------------------------------------------
// solve, text output
// ---------------------------------------------------------------------------------------------

fn check_text_solve(out: &Output, start: &Board, goal: &Board, n: usize) {
    assert_eq!(out.code, 0, "{}", out.stderr);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines[0], format!("Minimum number of moves = {n}"));
    let moves = lines[1]
        .strip_prefix("Moves (blank moves): ")
        .unwrap_or_else(|| panic!("second line {:?}", lines[1]));
    assert_eq!(moves.len(), n);
    let tiles = lines[2]
        .strip_prefix("Tiles moved:")
        .unwrap_or_else(|| panic!("third line {:?}", lines[2]));
    assert_eq!(tiles.split_whitespace().count(), n);
    let boards = printed_boards(&out.stdout);
    assert_eq!(boards.len(), n + 1, "{}", out.stdout);
    assert_eq!(&boards[0], start);
    assert_eq!(boards.last(), Some(goal));
    // The printed boards are the replay of the printed moves.
    let (replayed, slid) = replay_letters(start, moves, false);
    for (b, r) in boards.iter().zip(&replayed) {
        assert_eq!(b.tiles(), r.as_slice());
    }
    let slid: Vec<String> = slid.iter().map(|t| t.to_string()).collect();
    assert_eq!(tiles.split_whitespace().collect::<Vec<_>>(), slid);
}

#[test]
fn solve_file_prints_moves_and_boards() {
    let f = temp_file(&format!("{HARD8}\n"));
    let out = npuzzle(&["solve", &path_of(&f)], None);
    let start = parse(HARD8);
    check_text_solve(&out, &start, &goal_board(&GoalSpec::BlankLast, &start), 31);
}

#[test]
fn solve_stdin_prints_moves_and_boards() {
    let start = parse(EASY8);
    let goal = goal_board(&GoalSpec::BlankLast, &start);
    let out = npuzzle(&["solve", "-"], Some(EASY8));
    check_text_solve(&out, &start, &goal, 26);
    // Without a file argument, solve reads stdin too; Princeton format with CRLF.
    let out = npuzzle(&["solve"], Some("3\r\n7 8 0\r\n6 5 4\r\n1 2 3\r\n"));
    check_text_solve(&out, &start, &goal, 26);
}

#[test]
fn solve_board_already_at_goal() {
    let start = parse("1 2 3/4 5 6/7 8 0");
    let out = npuzzle(&["solve", "-"], Some("1 2 3/4 5 6/7 8 0"));
    check_text_solve(&out, &start, &start, 0);
}

#[test]
fn solve_unsolvable_board() {
    let out = npuzzle(&["solve", "-"], Some("1 2 3/4 5 6/8 7 0"));
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout.lines().next(), Some("No solution possible"));
    assert_eq!(out.stdout.trim(), "No solution possible");
    assert!(
        out.stderr.contains("1 inversion on the board"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("unsolvable"), "{}", out.stderr);
}

/// `--why` explains the verdict on stderr (rows counted from the top, from 1), with the
/// other goal's answer and the board's inverted pairs; without it the note points to it.
#[test]
fn solve_why_explains_the_parity() {
    let board = "1 2 3 4/5 6 7 8/9 10 11 12/13 15 14 0";
    let out = npuzzle(&["solve", "-", "--why"], Some(board));
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout.trim(), "No solution possible");
    let err = out.stderr.replace('\n', " ");
    for said in [
        "An inversion is a pair of tiles in the wrong order",
        "This board has 1 inversion, an odd number",
        "This board: 1 inversion + the blank in row 4 = 5, odd.",
        "The blank-last goal: 0 + row 4 = 4, even.",
        "The blank-first goal has 0 inversions + the blank in row 1 = 1, odd: this board can reach it.",
        "This board's inverted pairs: (15, 14).",
    ] {
        assert!(err.contains(said), "{said:?} not in {}", out.stderr);
    }
    assert!(!out.stderr.contains("--why` explains"), "{}", out.stderr);
    let out = npuzzle(&["solve", "-"], Some(board));
    assert!(
        out.stderr.contains("`npuzzle solve --why` explains"),
        "{}",
        out.stderr
    );
    assert!(!out.stderr.contains("An inversion is"), "{}", out.stderr);
    // On a solvable board too, before the answer.
    let out = npuzzle(&["solve", "-", "--why"], Some("1 2 3/4 5 6/7 0 8"));
    assert_eq!(out.code, 0, "{}", out.stderr);
    let err = out.stderr.replace('\n', " ");
    assert!(
        err.contains("Both are even, so the goal can be reached: solvable."),
        "{err}"
    );
    assert!(
        out.stdout.starts_with("Minimum number of moves = 1"),
        "{}",
        out.stdout
    );
}

/// `pdb about` explains a partition from its real patterns, building nothing: pdb78's two
/// tables have P(16, 7) and P(16, 8) entries; a 2×4 board has no reflection.
#[test]
fn pdb_about_sizes_the_real_tables() {
    let out = npuzzle(&["pdb", "about", "pdb78"], None);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let text = out.stdout.replace('\n', " ");
    for said in [
        "pdb78 splits the tiles into 2 patterns: 7 tiles",
        "16 × 15 × 14 × 13 × 12 × 11 × 10 = 57 657 600 entries, 55.0 MiB",
        "16 × 15 × 14 × 13 × 12 × 11 × 10 × 9 = 518 918 400 entries, 494.9 MiB",
        "no move is counted twice",
        "h is the larger of the two sums",
        "breadth-first search backwards from the goal",
    ] {
        assert!(text.contains(said), "{said:?} not in {text}");
    }
    let out = npuzzle(&["pdb", "about", "pdb:3,4", "--size", "2x4"], None);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout
            .replace('\n', " ")
            .contains("on that diagonal: not this one.")
    );
    assert_eq!(
        npuzzle(&["pdb", "about", "pdb78", "--size", "3x3"], None).code,
        2
    );
}

// ---------------------------------------------------------------------------------------------
// solve, JSON output and notation
// ---------------------------------------------------------------------------------------------

#[test]
fn solve_json_fields() {
    let j = solve_json(HARD8, &[]);
    let start = parse(HARD8);
    check_solution(&j, &start, &goal_board(&GoalSpec::BlankLast, &start), 31);
    assert_eq!(j["notation"], "blank");
    assert_eq!(j["algorithm"], "astar");
    // auto: the exact 8-puzzle table (one pattern of all tiles), built on first use.
    assert_eq!(j["heuristic"], "pdb8");
    assert_eq!(j["evaluator"], "cpu");
    assert_eq!(j["goal"], "blank-last");
    let expanded = j["nodes_expanded"].as_u64().expect("nodes_expanded");
    let generated = j["nodes_generated"].as_u64().expect("nodes_generated");
    assert!(expanded >= 31, "{expanded}");
    assert!(generated >= expanded, "{generated} < {expanded}");
    let seconds = j["seconds"].as_f64().expect("seconds");
    assert!(seconds >= 0.0 && seconds.is_finite());
    assert_eq!(j["parity"]["solvable"], Value::Bool(true));

    let j = solve_json(KORF12, &["--goal", "blank-first"]);
    assert_eq!(j["algorithm"], "idastar");
    assert_eq!(j["goal"], "blank-first");
}

#[test]
fn solve_json_unsolvable() {
    let out = npuzzle(
        &["solve", "-", "--format", "json"],
        Some("1 2 3/4 5 6/8 7 0"),
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let j: Value = serde_json::from_str(&out.stdout).expect("JSON");
    assert_eq!(j["solvable"], Value::Bool(false));
    assert!(j["moves"].is_null(), "{j}");
    assert!(j["solution"].is_null(), "{j}");
    assert!(j["tiles_moved"].is_null(), "{j}");
    assert_eq!(j["evaluator"], "cpu");
    assert!(j["heuristic"].is_null(), "no search ran: {j}");
    assert_eq!(j["parity"]["solvable"], Value::Bool(false));
    assert!(
        j["reason"]
            .as_str()
            .expect("reason")
            .contains("1 inversion on the board"),
        "{j}"
    );
    assert!(out.stderr.contains("1 inversion"), "{}", out.stderr);
}

#[test]
fn solve_json_reports_bad_input() {
    let out = npuzzle(
        &["solve", "-", "--format", "json"],
        Some("1 2 3/4 5 6/7 8 8"),
    );
    assert_eq!(out.code, 2, "{}", out.stderr);
    let j: Value = serde_json::from_str(&out.stdout).expect("JSON");
    assert!(j["moves"].is_null() && j["start"].is_null(), "{j}");
    assert!(
        j["error"].as_str().expect("error").contains("<stdin>:1"),
        "{j}"
    );
}

#[test]
fn solve_json_says_why_the_heuristic_is_unavailable() {
    let cache = tempfile::tempdir().unwrap();
    let out = npuzzle(
        &[
            "solve",
            "-",
            "--format",
            "json",
            "--heuristic",
            "pdb78",
            "--max-memory",
            "1MiB",
            "--cache-dir",
            cache.path().to_str().unwrap(),
        ],
        Some("1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15"),
    );
    assert_eq!(out.code, 3, "{}", out.stderr);
    let j: Value = serde_json::from_str(&out.stdout).expect("JSON");
    assert!(j["moves"].is_null(), "{j}");
    assert_eq!(j["heuristic"], "pdb78");
    assert_eq!(j["limit"], Value::Bool(false));
    assert!(
        j["error"].as_str().expect("error").contains("cap 1.0 MiB"),
        "{j}"
    );
}

#[test]
fn walking_distance_refuses_boards_it_does_not_take() {
    // 5×5 is bad input for walking distance (exit 2, naming the shapes it takes); batched A*
    // takes it on the CPU evaluator.
    let b55 = "1 2 3 4 5/6 7 8 9 10/11 12 13 14 15/16 17 18 19 20/21 22 23 0 24";
    let out = npuzzle(
        &["solve", "-", "--heuristic", "walking-distance"],
        Some(b55),
    );
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr.contains(
            "sides are at most 4, or 5 and at most 3 (4×4, 4×3, 5×3, 3×5, 5×2, …), not 5×5"
        ),
        "{}",
        out.stderr
    );
    let out = npuzzle(
        &[
            "solve",
            "-",
            "--heuristic",
            "wd",
            "--algorithm",
            "batched-astar",
            "--evaluator",
            "cpu",
        ],
        Some(EASY8),
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.starts_with("Minimum number of moves = 26"),
        "{}",
        out.stdout
    );
}

#[test]
fn tile_notation_is_the_inverse_of_blank_notation() {
    for (start, goal) in [
        (HARD8, "blank-last"),
        (EASY8, "blank-last"),
        (KORF12, "blank-first"),
    ] {
        let blank = solve_json(start, &["--goal", goal]);
        let tile = solve_json(start, &["--goal", goal, "--notation", "tile"]);
        assert_eq!(tile["notation"], "tile");
        let b = blank["solution"].as_str().expect("solution");
        let t = tile["solution"].as_str().expect("solution");
        assert_eq!(b.len(), t.len());
        let inverted: String = b
            .chars()
            .map(|c| match c {
                'U' => 'D',
                'D' => 'U',
                'L' => 'R',
                'R' => 'L',
                other => panic!("letter {other:?}"),
            })
            .collect();
        assert_eq!(t, inverted, "{start}");
        let s = parse(start);
        let spec = if goal == "blank-first" {
            GoalSpec::BlankFirst
        } else {
            GoalSpec::BlankLast
        };
        check_solution(&tile, &s, &goal_board(&spec, &s), b.len());
    }
}

#[test]
fn replay_reaches_both_goals() {
    let cases = [
        (HARD8, GoalSpec::BlankLast, "blank-last", 31),
        (EASY8, GoalSpec::BlankLast, "blank-last", 26),
        ("8 7 6/0 4 1/2 5 3", GoalSpec::BlankFirst, "blank-first", 31),
        ("8 0 6/5 4 7/2 3 1", GoalSpec::BlankFirst, "blank-first", 31),
        (KORF12, GoalSpec::BlankFirst, "blank-first", 45),
        (KORF9, GoalSpec::BlankFirst, "blank-first", 46),
        (
            "1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15",
            GoalSpec::BlankLast,
            "blank-last",
            1,
        ),
    ];
    for (start, spec, name, n) in cases {
        let j = solve_json(start, &["--goal", name]);
        let s = parse(start);
        check_solution(&j, &s, &goal_board(&spec, &s), n);
        assert_eq!(j["goal"], name);
    }
    // 3×3 lengths cross-checked against a breadth-first search in the test.
    for start in [
        "1 2 3/4 0 5/7 8 6",
        "2 8 3/1 6 4/7 0 5",
        "0 1 3/4 2 5/7 8 6",
    ] {
        let s = parse(start);
        for (spec, name) in [
            (GoalSpec::BlankLast, "blank-last"),
            (GoalSpec::BlankFirst, "blank-first"),
        ] {
            let g = goal_board(&spec, &s);
            let j = solve_json(start, &["--goal", name]);
            match bfs_distance(&s, &g) {
                Some(d) => check_solution(&j, &s, &g, d as usize),
                None => assert_eq!(j["solvable"], Value::Bool(false), "{start} {name}"),
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Custom goal files
// ---------------------------------------------------------------------------------------------

#[test]
fn custom_goal_file() {
    // The "snail" goal of many textbooks.
    let goal_text = "3\n1 2 3\n8 0 4\n7 6 5\n";
    let g = temp_file(goal_text);
    let goal = parse(goal_text);
    let mut solvable = 0;
    for start in [
        "2 8 3/1 6 4/7 0 5",
        "1 2 3/0 8 4/7 6 5",
        "5 6 7/4 0 8/3 2 1",
        "1 2 3/4 5 6/7 8 0",
        HARD8,
    ] {
        let s = parse(start);
        let j = solve_json(start, &["--goal", &path_of(&g)]);
        assert_eq!(j["goal"], "custom");
        match bfs_distance(&s, &goal) {
            Some(d) => {
                solvable += 1;
                check_solution(&j, &s, &goal, d as usize);
            }
            None => {
                assert_eq!(j["solvable"], Value::Bool(false), "{start}");
                assert!(j["moves"].is_null());
            }
        }
    }
    assert!(solvable >= 2, "the cases should include solvable boards");
    assert!(solvable < 5, "the cases should include unsolvable boards");
    // Text output ends at the custom goal.
    let out = npuzzle(
        &["solve", "-", "--goal", &path_of(&g)],
        Some("2 8 3/1 6 4/7 0 5"),
    );
    check_text_solve(&out, &parse("2 8 3/1 6 4/7 0 5"), &goal, 5);
}

#[test]
fn every_algorithm_solves_a_3x3() {
    let start = parse(HARD8);
    let goal = goal_board(&GoalSpec::BlankLast, &start);
    for alg in ["astar", "idastar", "bfs"] {
        let j = solve_json(HARD8, &["--algorithm", alg]);
        assert_eq!(j["algorithm"], alg);
        check_solution(&j, &start, &goal, 31);
    }
    for h in [
        "hamming",
        "manhattan",
        "linear-conflict",
        "walking-distance",
    ] {
        let j = solve_json(EASY8, &["--algorithm", "astar", "--heuristic", h]);
        assert_eq!(j["heuristic"], h);
        let s = parse(EASY8);
        check_solution(&j, &s, &goal_board(&GoalSpec::BlankLast, &s), 26);
    }
    let out = npuzzle(&["solve", "-", "--algorithm", "astar"], Some(HARD8));
    check_text_solve(&out, &start, &goal, 31);
}

// ---------------------------------------------------------------------------------------------
// generate
// ---------------------------------------------------------------------------------------------

fn generate(args: &[&str]) -> Vec<String> {
    let mut all = vec!["generate"];
    all.extend_from_slice(args);
    let out = npuzzle(&all, None);
    assert_eq!(out.code, 0, "{all:?}: {}", out.stderr);
    out.stdout.lines().map(str::to_string).collect()
}

fn assert_solvable_lines(lines: &[String], rows: usize, cols: usize, spec: &GoalSpec) {
    let goal = spec.resolve(rows, cols).expect("goal");
    for l in lines {
        let b = parse(l);
        assert_eq!((b.rows(), b.cols()), (rows, cols), "{l}");
        assert!(Solvability::of(&b, &goal).solvable, "{l} is not solvable");
    }
}

#[test]
fn generate_is_seeded_and_solvable() {
    let a = generate(&["--size", "3x3", "--count", "5", "--seed", "7"]);
    let b = generate(&["--size", "3x3", "--count", "5", "--seed", "7"]);
    let c = generate(&["--size", "3x3", "--count", "5", "--seed", "8"]);
    assert_eq!(a.len(), 5);
    assert_eq!(a, b);
    assert_ne!(a, c);
    assert_solvable_lines(&a, 3, 3, &GoalSpec::BlankLast);
    assert_solvable_lines(&c, 3, 3, &GoalSpec::BlankLast);
    // The first boards really are solvable: the solver finds a solution that replays.
    for l in &a[..2] {
        let s = parse(l);
        let g = goal_board(&GoalSpec::BlankLast, &s);
        let d = bfs_distance(&s, &g).expect("reachable");
        check_solution(&solve_json(l, &[]), &s, &g, d as usize);
    }
    let f = generate(&[
        "--size",
        "3x3",
        "--count",
        "5",
        "--seed",
        "7",
        "--goal",
        "blank-first",
    ]);
    assert_eq!(f.len(), 5);
    assert_solvable_lines(&f, 3, 3, &GoalSpec::BlankFirst);
}

#[test]
fn generate_walk_4x4() {
    let lines = generate(&[
        "--size", "4x4", "--count", "4", "--seed", "3", "--walk", "10",
    ]);
    assert_eq!(lines.len(), 4);
    assert_solvable_lines(&lines, 4, 4, &GoalSpec::BlankLast);
    for l in &lines {
        let j = solve_json(l, &[]);
        let s = parse(l);
        let m = j["moves"].as_u64().expect("moves") as usize;
        // Ten moves from the goal: at most ten back, and of the same parity.
        assert!(m <= 10 && m.is_multiple_of(2), "{l}: {m} moves");
        check_solution(&j, &s, &goal_board(&GoalSpec::BlankLast, &s), m);
    }
}

#[test]
fn generate_rectangular() {
    let lines = generate(&["--size", "3x5", "--count", "4", "--seed", "11"]);
    assert_eq!(lines.len(), 4);
    assert_solvable_lines(&lines, 3, 5, &GoalSpec::BlankLast);
    let lines = generate(&["--size", "2x4", "--count", "3", "--seed", "5"]);
    assert_solvable_lines(&lines, 2, 4, &GoalSpec::BlankLast);
    // A 2×4 board is small enough to check against BFS end to end.
    let s = parse(&lines[0]);
    let g = goal_board(&GoalSpec::BlankLast, &s);
    let d = bfs_distance(&s, &g).expect("reachable");
    check_solution(&solve_json(&lines[0], &[]), &s, &g, d as usize);
}

// ---------------------------------------------------------------------------------------------
// No subcommand
// ---------------------------------------------------------------------------------------------

#[test]
fn no_subcommand_without_a_display_solves_the_default_puzzle_in_the_terminal() {
    // Without a display the app cannot open its window: it says so and solves in the terminal.
    let out = output(
        command()
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY"),
        None,
    );
    assert!(out.stderr.contains("terminal"), "{}", out.stderr);
    // The reason, without winit's source file and line.
    assert!(!out.stderr.contains(".rs:"), "{}", out.stderr);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let first = out.stdout.lines().next().expect("output");
    assert!(
        first.starts_with("Minimum number of moves = "),
        "{}",
        out.stdout
    );
    // Same answer as solving the bundled file explicitly.
    let explicit = npuzzle(&["solve", DEFAULT_PUZZLE_FILE], None);
    assert_eq!(explicit.code, 0, "{}", explicit.stderr);
    assert_eq!(out.stdout, explicit.stdout);
    // With the same search and heuristic as `solve` picks (not the app's linear conflict).
    let searched = |stderr: &str| {
        stderr
            .lines()
            .find(|l| l.contains(" expanded, "))
            .and_then(|l| l.split(':').nth(1))
            .map(str::to_string)
    };
    assert!(searched(&explicit.stderr).is_some(), "{}", explicit.stderr);
    assert_eq!(
        searched(&out.stderr),
        searched(&explicit.stderr),
        "{}",
        out.stderr
    );
    let start = parse(&std::fs::read_to_string(DEFAULT_PUZZLE_FILE).expect("asset"));
    let n: usize = first
        .rsplit(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .expect("move count");
    check_text_solve(&out, &start, &goal_board(&GoalSpec::BlankLast, &start), n);
}

#[test]
fn batched_astar_json_names_the_evaluator() {
    let start = parse(HARD8);
    let goal = goal_board(&GoalSpec::BlankLast, &start);
    let j = solve_json(
        HARD8,
        &["--algorithm", "batched-astar", "--evaluator", "cpu"],
    );
    check_solution(&j, &start, &goal, 31);
    assert_eq!(j["algorithm"], "batched-astar");
    assert_eq!(j["evaluator"], "cpu");
    assert!(j["adapter"].is_null());
    assert!(j["rounds"].as_u64().unwrap() > 0);
    // auto: the GPU when there is an adapter (then `adapter` names it), else the CPU.
    let j = solve_json(
        HARD8,
        &["--algorithm", "batched-astar", "--batch-size", "100"],
    );
    check_solution(&j, &start, &goal, 31);
    match j["evaluator"].as_str() {
        Some("gpu") => assert!(
            j["adapter"].as_str().is_some_and(|a| a.contains(" / ")),
            "{j}"
        ),
        Some("cpu") => assert!(j["adapter"].is_null()),
        other => panic!("evaluator {other:?}"),
    }
}

#[test]
fn gpu_evaluator_without_adapter_is_exit_3_and_auto_falls_back() {
    // WGPU_BACKEND=none leaves wgpu no backend, hence no adapter.
    let none = [("WGPU_BACKEND", "none")];
    let args = [
        "solve",
        "-",
        "--algorithm",
        "batched-astar",
        "--evaluator",
        "gpu",
    ];
    let out = npuzzle_env(&args, Some(HARD8), &none);
    assert_eq!(out.code, 3, "{}", out.stderr);
    // With the gpu feature: no adapter; without it: no GPU support in this build.
    assert!(
        out.stderr.contains("no GPU adapter") || out.stderr.contains("no GPU support"),
        "{}",
        out.stderr
    );
    assert!(out.stdout.is_empty());
    // Unsolvable boards are answered before any GPU work: no adapter needed.
    let out = npuzzle_env(&args, Some("1 2 3/4 5 6/8 7 0"), &none);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout.lines().next(), Some("No solution possible"));
    // auto says it falls back, and solves on the CPU.
    let args = [
        "solve",
        "-",
        "--algorithm",
        "batched-astar",
        "--format",
        "json",
    ];
    let out = npuzzle_env(&args, Some(HARD8), &none);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stderr.contains("using the CPU evaluator"),
        "{}",
        out.stderr
    );
    let j: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(j["evaluator"], "cpu");
    assert_eq!(j["moves"], 31);
    // GPU IDA* says that it runs IDA* on the CPU instead.
    let args = ["solve", "-", "--algorithm", "gpu-idastar"];
    let out = npuzzle_env(&args, Some(HARD8), &none);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stderr.contains("gpu-idastar runs IDA* on the CPU")
            && out.stderr.contains("gpu-idastar searched on the CPU"),
        "{}",
        out.stderr
    );
    assert!(out.stdout.starts_with("Minimum number of moves = 31\n"));
}

#[test]
fn all_optimal_solutions_in_text_and_json() {
    // The farthest 8-puzzle board has 40 optimal solutions (tests/all_solutions.rs counts
    // them by breadth-first search).
    let start = parse(HARD8);
    let goal = goal_board(&GoalSpec::BlankLast, &start);
    for algorithm in ["idastar", "astar", "bfs", "gpu-idastar"] {
        let j = solve_json(
            HARD8,
            &["--all", "--max-solutions", "3", "--algorithm", algorithm],
        );
        assert_eq!(
            (j["count"].as_u64(), &j["count_is_exact"]),
            (Some(40), &Value::Bool(true))
        );
        // gpu-idastar counts on the CPU: the JSON says which search ran.
        let ran = if algorithm == "gpu-idastar" {
            "idastar"
        } else {
            algorithm
        };
        assert_eq!(j["algorithm"], ran);
        let listed: Vec<&str> = j["solutions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap())
            .collect();
        assert_eq!(listed.len(), 3, "{algorithm}");
        assert_eq!(j["solution"].as_str(), Some(listed[0]), "{algorithm}");
        for s in &listed {
            let (boards, _) = replay_letters(&start, s, false);
            assert_eq!(boards.last().unwrap(), goal.tiles(), "{algorithm}: {s}");
        }
    }
    let out = npuzzle(
        &["solve", "-", "--all", "--max-solutions", "2"],
        Some(HARD8),
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.starts_with("Minimum number of moves = 31\n"));
    assert!(
        out.stdout
            .contains("Optimal solutions: 40\nThe first 2 in the order of the blank's moves"),
        "{}",
        out.stdout
    );
    // Usage: batched A* does not count them; --max-solutions needs --all.
    let out = npuzzle(
        &["solve", "-", "--all", "--algorithm", "batched-astar"],
        Some(HARD8),
    );
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("--all works with idastar, astar and bfs"),
        "{}",
        out.stderr
    );
    let out = npuzzle(&["solve", "-", "--max-solutions", "2"], Some(HARD8));
    assert_eq!(out.code, 2, "{}", out.stderr);
}

#[test]
fn all_solutions_of_an_unsolvable_board_are_none() {
    let board = "1 2 3/4 5 6/8 7 0";
    let out = npuzzle(&["solve", "-", "--all"], Some(board));
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        out.stdout.trim(),
        "No solution possible\nOptimal solutions: 0"
    );
    let j = solve_json(board, &["--all"]);
    assert_eq!(j["solvable"], false);
    assert_eq!(
        (j["count"].as_u64(), &j["count_is_exact"], &j["solutions"]),
        (Some(0), &Value::Bool(true), &serde_json::json!([]))
    );
}

#[test]
fn a_limit_that_cuts_the_count_short_says_so_and_exits_3() {
    // A* finds the default puzzle's 50 moves within 80 MiB (1.0·10⁶ nodes), but counting the
    // ties at f = 50 needs more: the answer stands, the count is a lower bound, exit code 3.
    // The memory cap is counted in entries, so this does not depend on the machine's speed.
    let all_with_cap = |cap: &str| {
        npuzzle(
            &[
                "solve",
                DEFAULT_PUZZLE_FILE,
                "--all",
                "--algorithm",
                "astar",
                "--heuristic",
                "linear-conflict",
                "--max-memory",
                cap,
            ],
            None,
        )
    };
    let out = all_with_cap("80MiB");
    assert_eq!(out.code, 3, "{}", out.stderr);
    assert!(
        out.stdout.starts_with("Minimum number of moves = 50\n"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("Optimal solutions: at least 1\n"),
        "{}",
        out.stdout
    );
    assert!(
        out.stderr
            .contains("a limit stopped the count of optimal solutions: at least 1 exist"),
        "{}",
        out.stderr
    );
    // With room to count them all: exactly 2, exit 0.
    let out = all_with_cap("1GiB");
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.contains("Optimal solutions: 2\n"),
        "{}",
        out.stdout
    );
}

#[test]
fn a_misspelt_goal_is_named_as_such() {
    let out = npuzzle(&["solve", "-", "--goal", "blank-middle"], Some(EASY8));
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr.contains(
            "--goal blank-middle: not a goal name (blank-last, blank-first) and no such file"
        ),
        "{}",
        out.stderr
    );
}

#[cfg(feature = "gpu")]
#[test]
fn what_no_gpu_program_takes_is_bad_usage() {
    // Walking distance has no GPU form: with `--evaluator gpu` that is the user's request at
    // fault (exit 2), not this machine (exit 3 is for a missing adapter or too small a one).
    if common::gpu::context("what_no_gpu_program_takes_is_bad_usage").is_none() {
        return;
    }
    let out = npuzzle(
        &[
            "solve",
            "-",
            "--algorithm",
            "batched-astar",
            "--evaluator",
            "gpu",
            "--heuristic",
            "walking-distance",
        ],
        Some(HARD8),
    );
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("--evaluator gpu: the GPU evaluator cannot take walking"),
        "{}",
        out.stderr
    );
}

#[test]
fn the_second_trial_s_command_line_findings_are_mended() {
    let board = temp_file(HARD8);
    let file = path_of(&board);
    // Arguments clap refuses still give the JSON failure object with --format json.
    for args in [
        vec![
            "solve",
            file.as_str(),
            "--format",
            "json",
            "--algorithm",
            "foo",
        ],
        vec![
            "bench",
            file.as_str(),
            "--format=json",
            "--heuristic",
            "foo",
        ],
    ] {
        let o = npuzzle(&args, None);
        assert_eq!(o.code, 2, "{args:?}: {}", o.stderr);
        let j: Value = serde_json::from_str(&o.stdout).expect("a JSON failure object");
        assert_eq!(j["exit_code"], 2, "{j}");
        assert!(j["error"].as_str().unwrap().contains("'foo'"), "{j}");
    }
    // A missing argument is named in the object; a command without --format prints none.
    let o = npuzzle(&["bench", "--format", "json"], None);
    let j: Value = serde_json::from_str(&o.stdout).expect("a JSON failure object");
    // (`<FILE>...`: bench --merge reads several.)
    assert_eq!(
        j["error"],
        "the following required arguments were not provided: <FILE>..."
    );
    let o = npuzzle(&["pdb", "list", "--format", "json"], None);
    assert_eq!((o.code, o.stdout.as_str()), (2, ""), "{}", o.stderr);
    // Arguments that are not UTF-8 are clap's usage errors, not a panic.
    {
        use std::os::unix::ffi::OsStrExt;
        let bad = std::ffi::OsStr::from_bytes(b"\xff");
        for args in [vec![bad], vec![std::ffi::OsStr::new("solve"), bad]] {
            let o = output(command().args(&args), None);
            assert_eq!(o.code, 2, "{}", o.stderr);
            assert!(!o.stderr.contains("panicked"), "{}", o.stderr);
        }
    }
    // NPUZZLE_CACHE_DIR naming a file is refused as --cache-dir is (not for generate, which
    // reads no tables).
    let o = npuzzle_env(&["solve", &file], None, &[("NPUZZLE_CACHE_DIR", &file)]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(o.stderr.contains("NPUZZLE_CACHE_DIR"), "{}", o.stderr);
    let o = npuzzle_env(
        &["generate", "--size", "3x3", "--seed", "1"],
        None,
        &[("NPUZZLE_CACHE_DIR", &file)],
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    // solve's failure object has the exit code too.
    let o = npuzzle(
        &["solve", &file, "--format", "json", "--time-limit", "0"],
        None,
    );
    let j: Value = serde_json::from_str(&o.stdout).expect("a JSON failure object");
    assert_eq!((o.code, j["exit_code"].as_u64()), (2, Some(2)), "{j}");
    // A file where the command belongs: the commands that take it.
    let o = npuzzle(&[&file], None);
    assert_eq!(o.code, 2);
    assert!(
        o.stderr
            .contains(&format!("open it in the app with `npuzzle gui {file}`")),
        "{}",
        o.stderr
    );
    // A huge time limit is named in a few digits; every command checks a limit alike.
    for command in [
        &["solve", &file][..],
        &["bench", &file],
        &["compare", &file],
        &["generate", "--size", "3x4", "--optimal", "30"],
    ] {
        for (limit, says) in [
            ("1e300", "--time-limit 1.000e300 seconds is too large"),
            (
                "-1",
                "--time-limit must be a positive number of seconds, got -1",
            ),
            (
                "0",
                "--time-limit must be a positive number of seconds, got 0",
            ),
        ] {
            let mut args = command.to_vec();
            args.extend(["--time-limit", limit]);
            let o = npuzzle(&args, None);
            assert_eq!(o.code, 2, "{args:?}: {}", o.stderr);
            assert!(o.stderr.contains(says), "{args:?}: {}", o.stderr);
        }
    }
    // A screenshot that could not be written is refused before the app opens.
    for (path, why) in [
        (
            "/nonexistent-folder/s.png",
            "there is no folder /nonexistent-folder",
        ),
        ("s.jpg", "a name ending in .png"),
    ] {
        let o = npuzzle(&["gui", &file, "--screenshot", path], None);
        assert_eq!(o.code, 2, "{}", o.stderr);
        assert!(o.stderr.contains(why), "{}", o.stderr);
    }
    // generate says the seed it drew, and that seed makes the same boards again.
    let o = npuzzle(&["generate", "--size", "3x3", "--count", "3"], None);
    assert_eq!(o.code, 0);
    let seed = o
        .stderr
        .split_whitespace()
        .nth(2)
        .expect("npuzzle: seed N …")
        .to_string();
    let again = npuzzle(
        &["generate", "--size", "3x3", "--count", "3", "--seed", &seed],
        None,
    );
    assert_eq!(again.stdout, o.stdout, "{}", o.stderr);
    // An unsolvable board in compare: the verdict once, not "…: unsolvable: …".
    let unsolvable = temp_file("1 2 3/4 5 6/8 7 0");
    let o = npuzzle(&["compare", &path_of(&unsolvable)], None);
    assert!(
        o.stdout.contains("No solution possible: width 3 is odd"),
        "{}",
        o.stdout
    );
    // A cache folder that does not exist yet is said so by pdb list.
    let o = npuzzle(
        &["pdb", "list", "--cache-dir", "/nonexistent-folder/pdb"],
        None,
    );
    assert_eq!(o.code, 0);
    assert!(
        o.stdout.contains("the folder does not exist yet"),
        "{}",
        o.stdout
    );
    // A bench file with two goals says which goal each choice is for.
    let o = npuzzle(&["bench", HARD8_FILE], None);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stderr.contains("lines with the blank-last goal")
            && o.stderr.contains("lines with the blank-first goal"),
        "{}",
        o.stderr
    );
}

/// `solve --steps` lists the solution as numbered steps a person can follow ("3. slide 6
/// right"): followed at a board, one tile at a time, they reach the goal in the optimal number
/// of moves; without `--steps` the list is not printed.
#[test]
fn steps_are_numbered_tile_slides_that_reach_the_goal() {
    let out = npuzzle(&["solve", "--steps"], Some(EASY8));
    assert_eq!(out.code, 0, "{}", out.stderr);
    let mut board: Board = EASY8.trim().parse().expect("EASY8");
    let goal = goal_board(&GoalSpec::BlankLast, &board);
    let optimal = bfs_distance(&board, &goal).expect("solvable") as usize;
    let steps: Vec<&str> = out
        .stdout
        .lines()
        .skip_while(|l| !l.starts_with("Steps ("))
        .skip(1)
        .take_while(|l| !l.is_empty())
        .collect();
    assert_eq!(steps.len(), optimal, "{}", out.stdout);
    for (i, line) in steps.iter().enumerate() {
        let (n, rest) = line.trim().split_once(". slide ").expect(line);
        assert_eq!(n.parse::<usize>().ok(), Some(i + 1), "{line}");
        let (tile, way) = rest.split_once(' ').expect(line);
        let tile: u8 = tile.parse().expect(line);
        // The tile goes `way`: the blank goes the opposite way, into the tile's cell.
        let m = match way {
            "up" => Move::Down,
            "down" => Move::Up,
            "left" => Move::Right,
            "right" => Move::Left,
            w => panic!("{w}"),
        };
        assert_eq!(board.apply(m), Some(tile), "{line}");
    }
    assert_eq!(board, goal);
    let plain = npuzzle(&["solve"], Some(EASY8));
    assert!(!plain.stdout.contains("Steps ("), "{}", plain.stdout);
}

/// `--version` names the commit the binary was built from, and every JSON output carries the
/// same line, so that a result can be cited with the software that made it.
#[test]
fn the_version_and_commit_are_in_version_and_in_every_json_output() {
    let out = npuzzle(&["--version"], None);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let line = out.stdout.trim();
    let version = line.strip_prefix("npuzzle ").expect(line);
    assert_eq!(version, npuzzle::VERSION);
    let (number, commit) = version.split_once(" (").expect(version);
    assert_eq!(number, env!("CARGO_PKG_VERSION"));
    let commit = commit.strip_suffix(')').expect(version);
    let hash = commit.strip_suffix("+dirty").unwrap_or(commit);
    assert!(
        hash == "unknown" || (hash.len() == 12 && hash.bytes().all(|b| b.is_ascii_hexdigit())),
        "{commit}"
    );
    let solved = solve_json(EASY8, &[]);
    assert_eq!(solved["version"], version);
    let failed = npuzzle(
        &["solve", "--format", "json", "--time-limit", "-1"],
        Some(EASY8),
    );
    let j: Value = serde_json::from_str(&failed.stdout).expect("JSON");
    assert_eq!(j["version"], version, "{}", failed.stdout);
    let bench = npuzzle(&["bench", HARD8_FILE, "--format", "json"], None);
    assert_eq!(bench.code, 0, "{}", bench.stderr);
    for row in bench.stdout.lines() {
        let j: Value = serde_json::from_str(row).expect("JSON line");
        assert_eq!(j["version"], version, "{row}");
    }
    let compare = npuzzle(
        &["compare", "--format", "json", "--heuristics", "manhattan"],
        Some(EASY8),
    );
    for row in compare.stdout.lines() {
        let j: Value = serde_json::from_str(row).expect("JSON line");
        assert_eq!(j["version"], version, "{row}");
    }
}

/// `solve`'s JSON object and `bench`'s summary say the settings a result was made with and
/// where and when: pruning, threads, memory cap, time limit, the host's CPU and cores, the date
/// (and the bench's goal), as given on the command line.
#[test]
fn json_results_record_their_settings_host_and_date() {
    let check = |j: &Value, threads: u64, limit: Option<f64>| {
        assert_eq!(j["pruning"], "undo", "{j}");
        assert_eq!(j["threads"].as_u64(), Some(threads), "{j}");
        assert_eq!(j["max_memory"].as_u64(), Some(256 << 20), "{j}");
        assert_eq!(j["time_limit"].as_f64(), limit, "{j}");
        assert!(!j["cpu"].as_str().unwrap_or("").is_empty(), "{j}");
        assert!(j["cores"].as_u64().is_some_and(|c| c >= 1), "{j}");
        let date = j["date"].as_str().unwrap_or("");
        // RFC 3339, UTC, to the second: 2026-12-05T02:33:27Z.
        assert_eq!(date.len(), 20, "{date}");
        assert!(date.ends_with('Z') && date.as_bytes()[10] == b'T', "{date}");
    };
    let args = ["--pruning", "undo", "--max-memory", "256MiB"];
    let solved = solve_json(EASY8, &[&args[..], &["--jobs", "1"]].concat());
    check(&solved, 1, None);
    let bench = npuzzle(
        &[
            &[
                "bench",
                HARD8_FILE,
                "--format",
                "json",
                "--time-limit",
                "30",
            ],
            &args[..],
        ]
        .concat(),
        None,
    );
    assert_eq!(bench.code, 0, "{}", bench.stderr);
    let summary: Value =
        serde_json::from_str(bench.stdout.lines().last().expect("summary")).expect("JSON");
    assert_eq!(summary["summary"], true);
    check(&summary, 1, Some(30.0));
    assert_eq!(
        summary["goal"], "blank-last",
        "the file's first line names it"
    );
    // What `auto` chose, and why, is in the summary (per goal: the file mixes two); nothing
    // when the algorithm and heuristic are named.
    let choices: Vec<&str> = summary["choices"]
        .as_array()
        .expect("choices")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        choices.contains(&"blank-last goal (3×3): auto picked astar for a 3×3 board")
            && choices
                .iter()
                .any(|c| c.starts_with("blank-first goal (3×3): auto picked the pdb8")),
        "{choices:?}"
    );
    let named = npuzzle(
        &[
            "bench",
            HARD8_FILE,
            "--format",
            "json",
            "--algorithm",
            "astar",
            "--heuristic",
            "manhattan",
        ],
        None,
    );
    let last: Value =
        serde_json::from_str(named.stdout.lines().last().expect("summary")).expect("JSON");
    assert_eq!(last["choices"], serde_json::json!([]), "{}", named.stdout);
}

/// A* with the heuristic that overestimates, stopped by a limit, claims no lower bound: its
/// least f (g + 2·Manhattan) passes the optimum, as here (88 on a board of at most 80 moves).
#[test]
fn a_limit_with_an_overestimating_heuristic_claims_no_lower_bound() {
    let board = "15 14 13 12/11 10 9 8/7 6 5 4/3 1 2 0";
    let args = |h: &'static str| {
        [
            "solve",
            "-",
            "--algorithm",
            "astar",
            "--heuristic",
            h,
            "--max-memory",
            "1MiB",
            "--format",
            "json",
        ]
    };
    let o = npuzzle(&args("overestimating-manhattan"), Some(board));
    assert_eq!(o.code, 3, "{}", o.stderr);
    let v: Value = serde_json::from_str(o.stdout.trim()).unwrap();
    assert_eq!(v["lower_bound"], Value::Null, "{v}");
    assert!(!o.stderr.contains("at least"), "{}", o.stderr);
    // With Manhattan distance (admissible) the bound stands.
    let o = npuzzle(&args("manhattan"), Some(board));
    assert_eq!(o.code, 3, "{}", o.stderr);
    let v: Value = serde_json::from_str(o.stdout.trim()).unwrap();
    let bound = v["lower_bound"].as_u64().unwrap();
    assert!((50..=80).contains(&bound), "{v}");
}
