//! `npuzzle compare`: the table equals separate `npuzzle solve` runs, the depth experiment
//! draws boards at exactly the depth asked, and bad requests exit 2.

mod common;

use common::bin::{HARD8, KORF12, npuzzle, path_of, solve_json, temp_file};
use common::{bfs_distance, goal};
use npuzzle::puzzle::GoalSpec;
use npuzzle::search::measure::DepthTable;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn json(args: &[&str]) -> serde_json::Value {
    let o = npuzzle(args, None);
    assert_eq!(o.code, 0, "{args:?}: {}", o.stderr);
    serde_json::from_str(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", o.stdout))
}

#[test]
fn the_table_equals_separate_solve_runs() {
    for (board, goal, algorithm, moves) in [
        (HARD8, "blank-last", "astar", 31),
        (KORF12, "blank-first", "idastar", 45),
    ] {
        let f = temp_file(board);
        let list = if moves == 31 {
            "bfs,hamming,manhattan,linear-conflict,pdb8"
        } else {
            "manhattan,linear-conflict,walking-distance,pdb555"
        };
        let v = json(&[
            "compare",
            &path_of(&f),
            "--goal",
            goal,
            "--algorithm",
            algorithm,
            "--heuristics",
            list,
            "--format",
            "json",
        ]);
        assert_eq!(v["moves"], moves, "{v}");
        assert_eq!(v["lengths_agree"], true);
        let results = v["results"].as_array().unwrap();
        assert_eq!(results.len(), list.split(',').count());
        let mut expanded = Vec::new();
        for r in results {
            let (algo, h) = (
                r["algorithm"].as_str().unwrap(),
                r["heuristic"].as_str().unwrap(),
            );
            let h = if h == "none" { "manhattan" } else { h };
            let s = solve_json(
                board,
                &[
                    "--goal",
                    goal,
                    "--algorithm",
                    algo,
                    "--heuristic",
                    h,
                    "--jobs",
                    "1",
                ],
            );
            assert_eq!(r["moves"], s["moves"], "{algo} {h}");
            assert_eq!(r["expanded"], s["nodes_expanded"], "{algo} {h}");
            assert_eq!(r["generated"], s["nodes_generated"], "{algo} {h}");
            assert_eq!(
                r["initial_h"],
                if algo == "bfs" {
                    0.into()
                } else {
                    s["initial_h"].clone()
                },
                "{algo} {h}"
            );
            let b = r["branching"].as_f64().unwrap();
            assert!(b > 1.0 && b < 3.0, "{b}");
            expanded.push(r["expanded"].as_u64().unwrap());
        }
        // Stronger heuristics, fewer nodes (the lists go from weak to strong).
        assert!(expanded.windows(2).all(|w| w[0] >= w[1]), "{expanded:?}");
    }
}

#[test]
fn a_text_table_has_a_row_per_heuristic_and_says_the_lengths_agree() {
    let f = temp_file(HARD8);
    let o = npuzzle(
        &["compare", &path_of(&f), "--heuristics", "bfs,manhattan"],
        None,
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    let lines: Vec<&str> = o.stdout.lines().collect();
    assert!(lines[2].starts_with("bfs "), "{}", o.stdout);
    assert!(lines[3].starts_with("astar    manhattan"), "{}", o.stdout);
    assert!(lines[3].contains("6 728"), "{}", o.stdout);
    assert_eq!(lines[4], "Every search found 31 moves: all are optimal.");
}

#[test]
fn experiment_boards_are_exactly_at_their_depth() {
    for spec in [GoalSpec::BlankLast, GoalSpec::BlankFirst] {
        let g = goal(&spec, 3, 3);
        let table = DepthTable::new(&g).unwrap();
        assert_eq!(table.max_depth(), 31);
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for depth in [0, 1, 7, 20, 31] {
            let boards = table.boards_at(depth, 6, &mut rng);
            // Two boards are 31 moves from either goal; one is the goal itself.
            let want = match depth {
                0 => 1,
                1 => 2,
                31 => 2,
                _ => 6,
            };
            assert_eq!(boards.len(), want, "depth {depth}");
            for b in &boards {
                assert_eq!(bfs_distance(b, g.board()), Some(depth), "{b}");
            }
        }
    }
}

#[test]
fn the_experiment_is_seeded_and_its_means_are_over_boards_at_the_depth() {
    let args = [
        "compare",
        "--size",
        "3x3",
        "--depths",
        "4,12",
        "--samples",
        "5",
        "--seed",
        "9",
        "--heuristics",
        "bfs,hamming,manhattan",
        "--format",
        "json",
    ];
    // The table without its timings.
    let counts = || {
        let mut v = json(&args);
        for r in v["rows"].as_array_mut().unwrap() {
            for c in r["methods"].as_array_mut().unwrap() {
                c.as_object_mut().unwrap().remove("seconds");
            }
        }
        v
    };
    let v = counts();
    assert_eq!(v, counts(), "same seed, same table");
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    for r in rows {
        assert_eq!(r["boards"], 5);
        let cells = r["methods"].as_array().unwrap();
        assert_eq!(cells.len(), 3);
        let means: Vec<f64> = cells
            .iter()
            .map(|c| c["expanded"].as_f64().unwrap())
            .collect();
        assert!(means[0] >= means[1] && means[1] >= means[2], "{means:?}");
        for c in cells {
            assert_eq!(c["solved"], 5);
        }
    }
    // b* of the depth-12 BFS row from its mean generated nodes.
    let bfs = &rows[1]["methods"][0];
    let b = bfs["branching"].as_f64().unwrap();
    let n = bfs["generated"].as_f64().unwrap().round();
    let tree: f64 = (1..=12).map(|i| b.powi(i)).sum();
    assert!((tree - n).abs() / n < 1e-6, "{tree} vs {n}");
}

#[test]
fn bad_requests_exit_2_and_say_why() {
    let f = temp_file(HARD8);
    let file = path_of(&f);
    for (args, says) in [
        (vec!["compare"], "give a board file"),
        (vec!["compare", &file, "--size", "3x3"], "not both"),
        (vec!["compare", "--size", "4x4"], "at most 10 are tabulated"),
        (
            vec!["compare", "--size", "3x3", "--depths", "32"],
            "more than 31 moves",
        ),
        (
            vec!["compare", "--size", "3x3", "--samples", "0"],
            "at least 1",
        ),
        (
            vec!["compare", &file, "--algorithm", "bfs"],
            "astar or idastar",
        ),
        (
            vec!["compare", &file, "--heuristics", "manhatan"],
            "manhatan",
        ),
        (vec!["compare", &file, "--heuristics", "pdb555"], "pdb555"),
        (vec!["compare", &file, "--time-limit", "0"], "positive"),
    ] {
        let o = npuzzle(&args, None);
        assert_eq!(o.code, 2, "{args:?}: {}", o.stderr);
        assert!(o.stderr.contains(says), "{args:?}: {}", o.stderr);
        // With --format json, the same error as an object (argument syntax errors are clap's,
        // as for `solve`: text).
        if args.contains(&"--algorithm") {
            continue;
        }
        let mut json_args = args.clone();
        json_args.extend(["--format", "json"]);
        let o = npuzzle(&json_args, None);
        assert_eq!(o.code, 2, "{json_args:?}");
        let v: serde_json::Value = serde_json::from_str(&o.stdout)
            .unwrap_or_else(|e| panic!("{json_args:?}: {e}: {}", o.stdout));
        assert!(v["error"].as_str().unwrap().contains(says), "{v}");
        assert_eq!(v["exit_code"], 2);
    }
}
