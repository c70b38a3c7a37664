//! `npuzzle compare`: the table equals separate `npuzzle solve` runs, the depth experiment
//! draws boards at exactly the depth asked, and bad requests exit 2.

mod common;

use common::bin::{HARD8, HARD8_FILE, KORF12, json_lines, npuzzle, path_of, solve_json, temp_file};
use common::{bfs_distance, goal};
use npuzzle::puzzle::GoalSpec;
use npuzzle::search::measure::DepthTable;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The JSON lines `compare … --format json` prints (it must exit 0).
fn json(args: &[&str]) -> Vec<serde_json::Value> {
    let o = npuzzle(args, None);
    assert_eq!(o.code, 0, "{args:?}: {}", o.stderr);
    json_lines(&o.stdout)
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
        // A row per heuristic, then a summary per heuristic.
        let n = list.split(',').count();
        assert_eq!(v.len(), 2 * n, "{v:?}");
        let (results, summaries) = v.split_at(n);
        for (r, s) in results.iter().zip(summaries) {
            assert_eq!(r["moves"], moves, "{r}");
            assert_eq!(s["summary"], true, "{s}");
            assert_eq!((&s["solved"], &s["boards"]), (&1.into(), &1.into()), "{s}");
            assert_eq!(s["nodes_expanded"], r["nodes_expanded"], "{s}");
            assert_eq!(s["heuristic"], r["heuristic"], "{s}");
        }
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
            assert_eq!(r["nodes_expanded"], s["nodes_expanded"], "{algo} {h}");
            assert_eq!(r["nodes_generated"], s["nodes_generated"], "{algo} {h}");
            assert_eq!(
                r["initial_h"],
                if algo == "bfs" {
                    0.into()
                } else {
                    s["initial_h"].clone()
                },
                "{algo} {h}"
            );
            let b = r["effective_branching_factor"].as_f64().unwrap();
            assert!(b > 1.0 && b < 3.0, "{b}");
            expanded.push(r["nodes_expanded"].as_u64().unwrap());
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
    let cols: Vec<&str> = lines[3].split_whitespace().collect();
    assert_eq!(cols[..2], ["astar", "manhattan"], "{}", o.stdout);
    assert_eq!(cols.last(), Some(&"yes"), "{}", o.stdout);
    assert!(lines[3].contains("6 728"), "{}", o.stdout);
    assert_eq!(lines[4], "Every search found 31 moves: all are optimal.");
}

/// `compare` on a bench file runs every method on every board (each towards the goal its line
/// names): a row per board and method equal to `solve`'s counts, then a summary per method
/// whose totals and means are the rows' (over the boards it solved; a capped one is counted
/// apart). CSV has the same rows with a header of the same field names.
#[test]
fn a_bench_file_gives_a_row_per_board_and_method_and_a_summary_per_method() {
    // BFS stops at the memory cap on every board; IDA* needs no memory.
    let args = [
        "compare",
        HARD8_FILE,
        "--algorithm",
        "idastar",
        "--heuristics",
        "bfs,manhattan",
        "--max-memory",
        "64KiB",
    ];
    let with = |format: &str| {
        let mut a = args.to_vec();
        a.extend(["--format", format]);
        npuzzle(&a, None)
    };
    let o = with("json");
    assert_eq!(o.code, 0, "{}", o.stderr);
    let v = json_lines(&o.stdout);
    assert_eq!(v.len(), 4 * 2 + 2, "{v:?}");
    let (rows, summaries) = v.split_at(8);
    let goals = ["blank-last", "blank-last", "blank-first", "blank-first"];
    let mut total = 0;
    for (pair, goal) in rows.chunks(2).zip(goals) {
        let (bfs, ida) = (&pair[0], &pair[1]);
        assert_eq!(
            (&bfs["heuristic"], &bfs["moves"]),
            (&"none".into(), &serde_json::Value::Null)
        );
        assert!(
            bfs["error"].as_str().unwrap().contains("memory cap"),
            "{bfs}"
        );
        assert_eq!(
            (&ida["goal"], &ida["moves"], &ida["optimal"]),
            (&goal.into(), &31.into(), &31.into())
        );
        let s = solve_json(
            ida["start"].as_str().unwrap(),
            &[
                "--goal",
                goal,
                "--algorithm",
                "idastar",
                "--heuristic",
                "manhattan",
                "--jobs",
                "1",
            ],
        );
        assert_eq!(ida["nodes_expanded"], s["nodes_expanded"], "{ida}");
        assert_eq!(ida["nodes_generated"], s["nodes_generated"], "{ida}");
        total += s["nodes_expanded"].as_u64().unwrap();
    }
    let (bfs, ida) = (&summaries[0], &summaries[1]);
    assert_eq!(
        (&bfs["summary"], &bfs["solved"], &bfs["capped"]),
        (&true.into(), &0.into(), &4.into())
    );
    assert_eq!(
        (&bfs["nodes_expanded"], &bfs["mean_nodes_expanded"]),
        (&0.into(), &serde_json::Value::Null)
    );
    assert_eq!(
        (&ida["boards"], &ida["solved"], &ida["capped"]),
        (&4.into(), &4.into(), &0.into())
    );
    assert_eq!(ida["nodes_expanded"], total);
    assert_eq!(
        ida["mean_nodes_expanded"].as_f64(),
        Some(total as f64 / 4.0)
    );
    let b: f64 = rows
        .iter()
        .skip(1)
        .step_by(2)
        .map(|r| r["effective_branching_factor"].as_f64().unwrap())
        .sum();
    assert!((ida["mean_effective_branching_factor"].as_f64().unwrap() - b / 4.0).abs() < 1e-12);

    // CSV: the rows again, under a header of their JSON field names; the table on stderr.
    let o = with("csv");
    assert_eq!(o.code, 0, "{}", o.stderr);
    let mut csv = csv::Reader::from_reader(o.stdout.as_bytes());
    let header: Vec<String> = csv.headers().unwrap().iter().map(String::from).collect();
    let names: Vec<&String> = rows[0].as_object().unwrap().keys().collect();
    assert_eq!(header.iter().collect::<Vec<_>>(), names);
    let records: Vec<csv::StringRecord> = csv.records().map(Result::unwrap).collect();
    assert_eq!(records.len(), 8);
    let at = header.iter().position(|h| h == "nodes_expanded").unwrap();
    for (rec, row) in records.iter().zip(rows) {
        assert_eq!(rec[at], row["nodes_expanded"].to_string());
    }
    assert!(o.stderr.contains("idastar  manhattan"), "{}", o.stderr);

    // Text: a row per method over the four boards.
    let o = npuzzle(&args, None);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let lines: Vec<&str> = o.stdout.lines().collect();
    assert!(
        lines[0].starts_with("Comparing on the 4 boards of"),
        "{}",
        o.stdout
    );
    assert!(
        lines[2].starts_with("bfs") && lines[2].contains(" 0/4 "),
        "{}",
        o.stdout
    );
    assert!(
        lines[3].starts_with("idastar  manhattan") && lines[3].contains(" 4/4 "),
        "{}",
        o.stdout
    );
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
    // The lines (one per depth and method) without their timings.
    let counts = || {
        let mut v = json(&args);
        for line in &mut v {
            line.as_object_mut().unwrap().remove("mean_seconds");
        }
        v
    };
    let v = counts();
    assert_eq!(v, counts(), "same seed, same table");
    assert_eq!(v.len(), 2 * 3, "two depths, three methods: {v:?}");
    for (row, depth) in v.chunks(3).zip([4, 12]) {
        let means: Vec<f64> = row
            .iter()
            .map(|c| c["mean_nodes_expanded"].as_f64().unwrap())
            .collect();
        assert!(means[0] >= means[1] && means[1] >= means[2], "{means:?}");
        for c in row {
            assert_eq!(
                (&c["depth"], &c["boards"], &c["solved"]),
                (&depth.into(), &5.into(), &5.into())
            );
            assert_eq!(
                (&c["size"], &c["seed"], &c["samples"]),
                (&"3x3".into(), &9.into(), &5.into())
            );
        }
    }
    // b* of the depth-12 BFS row from its mean generated nodes.
    let bfs = &v[3];
    assert_eq!(bfs["heuristic"], "none");
    let b = bfs["effective_branching_factor"].as_f64().unwrap();
    let n = bfs["mean_nodes_generated"].as_f64().unwrap().round();
    let tree: f64 = (1..=12).map(|i| b.powi(i)).sum();
    assert!((tree - n).abs() / n < 1e-6, "{tree} vs {n}");
}

/// `--tie-break` and `--bfs-goal-test`: stated on every line, and the means those of the
/// library's experiment with the same conventions and seed; BFS tested at expansion expands
/// more than at generation (a superset of the boards).
#[test]
fn the_experiments_conventions_are_stated_and_counted_as_the_library_does() {
    use npuzzle::heuristic::{HeuristicKind, HeuristicSpec};
    use npuzzle::search::measure::{Method, depth_experiment};
    use npuzzle::search::{Algorithm, BfsGoalTest, Limits, TieBreak};
    let g = goal(&GoalSpec::BlankLast, 3, 3);
    let table = DepthTable::new(&g).unwrap();
    let methods = [
        Method::Bfs,
        Method::informed(
            Algorithm::AStar,
            HeuristicSpec::Kind(HeuristicKind::Hamming),
        ),
    ];
    let mut bfs_means = Vec::new();
    for (tie, test) in [
        (TieBreak::HighG, BfsGoalTest::Generate),
        (TieBreak::LowG, BfsGoalTest::Expand),
        (TieBreak::Fifo, BfsGoalTest::Expand),
    ] {
        let v = json(&[
            "compare",
            "--size",
            "3x3",
            "--depths",
            "8,14",
            "--samples",
            "4",
            "--seed",
            "3",
            "--heuristics",
            "bfs,hamming",
            "--tie-break",
            tie.name(),
            "--bfs-goal-test",
            test.name(),
            "--format",
            "json",
        ]);
        let limits = Limits {
            tie_break: tie,
            bfs_goal_test: test,
            ..Limits::default()
        };
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let rows = depth_experiment(
            &table,
            &[8, 14],
            4,
            &methods,
            &limits,
            &mut rng,
            &mut |_| {},
        )
        .unwrap();
        let want: Vec<(u32, f64, f64)> = rows
            .iter()
            .flat_map(|r| r.methods.iter().map(|c| (r.depth, c.expanded, c.generated)))
            .collect();
        let got: Vec<(u32, f64, f64)> = v
            .iter()
            .map(|c| {
                assert_eq!(
                    (&c["tie_break"], &c["bfs_goal_test"]),
                    (&tie.name().into(), &test.name().into()),
                    "{c}"
                );
                (
                    c["depth"].as_u64().unwrap() as u32,
                    c["mean_nodes_expanded"].as_f64().unwrap(),
                    c["mean_nodes_generated"].as_f64().unwrap(),
                )
            })
            .collect();
        assert_eq!(got, want, "{tie} {test}");
        bfs_means.push((got[0].1, got[2].1));
    }
    for d in 0..2 {
        let at = |i: usize| {
            if d == 0 {
                bfs_means[i].0
            } else {
                bfs_means[i].1
            }
        };
        assert!(
            at(1) > at(0),
            "BFS at expansion expands more: {bfs_means:?}"
        );
        assert_eq!(at(1), at(2), "the tie-break rule is A*'s, not BFS's");
    }
    // The text table says which conventions it used.
    let o = npuzzle(
        &[
            "compare",
            "--size",
            "3x3",
            "--depths",
            "4",
            "--samples",
            "2",
            "--tie-break",
            "fifo",
        ],
        None,
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stdout
            .contains("A* ties: first in, first out, BFS goal test: at generation"),
        "{}",
        o.stdout
    );
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
        (
            vec!["compare", &file, "--tie-break", "fifo"],
            "the depth experiment's",
        ),
        (
            vec!["compare", &file, "--bfs-goal-test", "expand"],
            "the depth experiment's",
        ),
        (
            vec!["compare", "--size", "3x3", "--tie-break", "lifo"],
            "expected high-g, low-g or fifo",
        ),
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

/// The closing line counts the searches that are not optimal, and does not say "No search
/// finished" when only those ran to their end.
#[test]
fn the_closing_line_counts_the_searches_that_are_not_optimal() {
    let file = "assets/examples/overestimate.txt";
    let last = |heuristics: &str| {
        let o = npuzzle(&["compare", file, "--heuristics", heuristics], None);
        assert_eq!(o.code, 0, "{}", o.stderr);
        o.stdout.lines().last().unwrap_or_default().to_string()
    };
    assert_eq!(
        last("idastar+overestimating-manhattan"),
        "No optimal search finished; the 1 marked \"no\" is not guaranteed optimal."
    );
    assert_eq!(
        last("manhattan,greedy+manhattan"),
        "Every optimal search found 24 moves; the 1 marked \"no\" is not guaranteed optimal."
    );
    assert_eq!(
        last("manhattan,greedy+manhattan,overestimating-manhattan"),
        "Every optimal search found 24 moves; the 2 marked \"no\" are not guaranteed optimal."
    );
}

/// Weighted A*'s rows and summary carry its w (JSON `weight`, the text's `w=`), the others'
/// `null`; two weights are two summaries.
#[test]
fn weighted_rows_and_summaries_carry_their_weight() {
    let file = "assets/examples/overestimate.txt";
    let v = json(&[
        "compare",
        file,
        "--heuristics",
        "manhattan,weighted-astar+manhattan",
        "--weight",
        "1.5",
        "--format",
        "json",
    ]);
    let weights: Vec<(bool, &str, serde_json::Value)> = v
        .iter()
        .map(|o| {
            let summary = o["summary"].as_bool().unwrap_or(false);
            (
                summary,
                o["algorithm"].as_str().unwrap(),
                o["weight"].clone(),
            )
        })
        .collect();
    assert_eq!(
        weights,
        [
            (false, "astar", serde_json::Value::Null),
            (false, "weighted-astar", serde_json::json!(1.5)),
            (true, "astar", serde_json::Value::Null),
            (true, "weighted-astar", serde_json::json!(1.5)),
        ]
    );
    let o = npuzzle(
        &[
            "compare",
            file,
            "--heuristics",
            "weighted-astar+manhattan",
            "--weight",
            "1.5",
        ],
        None,
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    let row = o.stdout.lines().find(|l| l.starts_with("weighted-astar"));
    assert!(
        row.is_some_and(|l| l.starts_with("weighted-astar w=1.5 manhattan")),
        "{}",
        o.stdout
    );
}
