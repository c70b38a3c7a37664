//! End-to-end tests of `npuzzle bench`: lengths checked against the file, text and JSON rows,
//! per-instance algorithms and heuristics, limits, threads.

mod common;

use common::bfs_distance;
use common::bin::{
    EASY8, HARD8_FILE, KORF12, goal_board, npuzzle, parse, path_of, solve_json, temp_file,
};
use npuzzle::puzzle::GoalSpec;
use serde_json::Value;
use tempfile::NamedTempFile;

const BENCH_STARTS: [(&str, &str); 3] = [
    ("e1", "1 2 3 4 5 6 7 0 8"),
    ("e2", "7 8 0 6 5 4 1 2 3"),
    ("e3", "0 1 3 4 2 5 7 8 6"),
];

/// A bench file with the three instances and their optimal lengths (from the test's own BFS),
/// the `wrong` one off by two.
fn bench_file(wrong: Option<usize>) -> (NamedTempFile, Vec<u32>) {
    let mut text = "# id tiles optimal\n".to_string();
    let mut lengths = Vec::new();
    for (i, (id, tiles)) in BENCH_STARTS.iter().enumerate() {
        let s = parse(tiles);
        let d = bfs_distance(&s, &goal_board(&GoalSpec::BlankLast, &s)).expect("solvable");
        lengths.push(d);
        let written = if wrong == Some(i) { d + 2 } else { d };
        text.push_str(&format!("{id} {tiles} {written}\n"));
    }
    (temp_file(&text), lengths)
}

fn row_of<'a>(stdout: &'a str, id: &str) -> &'a str {
    stdout
        .lines()
        .find(|l| l.split_whitespace().next() == Some(id))
        .unwrap_or_else(|| panic!("no row for {id} in {stdout}"))
}

#[test]
fn bench_all_optimal() {
    let (f, lengths) = bench_file(None);
    assert_eq!(lengths[1], 26);
    let out = npuzzle(&["bench", &path_of(&f)], None);
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    for ((id, _), d) in BENCH_STARTS.iter().zip(&lengths) {
        let row: Vec<&str> = row_of(&out.stdout, id).split_whitespace().collect();
        assert_eq!(row[1], d.to_string(), "{row:?}");
        assert_eq!(row[2], d.to_string(), "{row:?}");
        assert_eq!(row[3], "yes", "{row:?}");
    }
    assert!(
        out.stdout
            .contains("instances 3, solved 3, unsolvable 0, optimal 3"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("mismatches 0"), "{}", out.stdout);
    assert!(!out.stdout.contains("MISMATCH"), "{}", out.stdout);
}

#[test]
fn bench_mismatch_is_exit_1() {
    let (f, lengths) = bench_file(Some(1));
    let out = npuzzle(&["bench", &path_of(&f)], None);
    assert_eq!(out.code, 1, "{}\n{}", out.stdout, out.stderr);
    let row: Vec<&str> = row_of(&out.stdout, "e2").split_whitespace().collect();
    assert_eq!(row[1], lengths[1].to_string(), "{row:?}");
    assert_eq!(row[2], (lengths[1] + 2).to_string(), "{row:?}");
    assert_eq!(row[3], "MISMATCH", "{row:?}");
    assert!(row_of(&out.stdout, "e1").contains(" yes "));
    assert!(row_of(&out.stdout, "e3").contains(" yes "));
    assert!(out.stdout.contains("optimal 2"), "{}", out.stdout);
    assert!(out.stdout.contains("mismatches 1"), "{}", out.stdout);
}

#[test]
fn bench_json_lines() {
    let (f, lengths) = bench_file(Some(2));
    let out = npuzzle(&["bench", &path_of(&f), "--format", "json"], None);
    assert_eq!(out.code, 1, "{}\n{}", out.stdout, out.stderr);
    let objs: Vec<Value> = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l:?}: {e}")))
        .collect();
    assert_eq!(objs.len(), 4, "{}", out.stdout);
    for (i, ((id, _), d)) in BENCH_STARTS.iter().zip(&lengths).enumerate() {
        let r = &objs[i];
        assert!(r.is_object());
        assert_eq!(r["id"], *id);
        assert_eq!(r["line"].as_u64(), Some(i as u64 + 2));
        assert_eq!(r["moves"].as_u64(), Some(u64::from(*d)));
        assert_eq!(r["solvable"], Value::Bool(true));
        assert_eq!(r["matches"], Value::Bool(i != 2), "{r}");
        assert!(r.get("summary").is_none(), "{r}");
    }
    let s = &objs[3];
    assert_eq!(s["summary"], Value::Bool(true));
    assert_eq!(s["instances"].as_u64(), Some(3));
    assert_eq!(s["solved"].as_u64(), Some(3));
    assert_eq!(s["optimal"].as_u64(), Some(2));
    assert_eq!(s["mismatches"].as_u64(), Some(1));
    assert!(s["seconds"].as_f64().expect("seconds") >= 0.0);
    let nodes: u64 = objs[..3]
        .iter()
        .map(|r| r["nodes_expanded"].as_u64().expect("nodes_expanded"))
        .sum();
    assert_eq!(s["nodes_expanded"].as_u64(), Some(nodes));
    assert!(nodes > 0);
}

#[test]
fn bench_hard8_file() {
    let out = npuzzle(&["bench", HARD8_FILE], None);
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    for id in ["hard8_A", "hard8_B", "hard8_C", "hard8_D"] {
        let row: Vec<&str> = row_of(&out.stdout, id).split_whitespace().collect();
        assert_eq!(&row[1..4], &["31", "31", "yes"], "{row:?}");
    }
    assert!(
        out.stdout
            .contains("instances 4, solved 4, unsolvable 0, optimal 4"),
        "{}",
        out.stdout
    );
    let out = npuzzle(&["bench", HARD8_FILE, "--format", "json", "-j", "1"], None);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let last: Value = serde_json::from_str(out.stdout.lines().last().expect("summary line"))
        .expect("JSON summary");
    assert_eq!(last["summary"], Value::Bool(true));
    assert_eq!(last["instances"].as_u64(), Some(4));
    assert_eq!(last["optimal"].as_u64(), Some(4));
    assert_eq!(last["mismatches"].as_u64(), Some(0));
    assert_eq!(last["jobs"].as_u64(), Some(1));
}

#[test]
fn bench_with_size_hint_and_unsolvable() {
    // Non-square lines need --size; the second line is unsolvable (two tiles swapped).
    let f = temp_file("r1 1 2 3 4 5 6 7 8 9 10 0 11 1\nr2 1 2 3 4 5 6 7 8 9 11 10 0 5\n");
    let out = npuzzle(&["bench", &path_of(&f)], None);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr.contains(&format!("{}:1: ", path_of(&f))),
        "{}",
        out.stderr
    );
    // r2 has a length in the file but cannot reach the goal: a mismatch (exit 1), with a hint.
    let out = npuzzle(&["bench", &path_of(&f), "--size", "3x4"], None);
    assert_eq!(out.code, 1, "{}\n{}", out.stdout, out.stderr);
    assert!(out.stderr.contains("goal"), "{}", out.stderr);
    assert!(
        row_of(&out.stdout, "r1").contains(" yes "),
        "{}",
        out.stdout
    );
    assert!(
        row_of(&out.stdout, "r2").contains("UNSOLVABLE"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("solved 1, unsolvable 1, optimal 1"),
        "{}",
        out.stdout
    );
}

#[test]
fn bench_auto_resolves_the_algorithm_per_instance() {
    // `--algorithm auto` means A* up to 3×3 and IDA* above, for each instance. A 4×4 line after
    // a 3×3 line must still be searched with IDA*: its node counts must equal those of
    // `solve` with auto (IDA*), which differ from A*'s on this board.
    let k12 = "14 1 9 6 4 8 12 5 7 2 3 0 10 11 13 15";
    // One thread: parallel IDA* counts nodes differently (and bench runs each instance on one).
    let ida = solve_json(KORF12, &["--goal", "blank-first", "--jobs", "1"]);
    let astar = solve_json(KORF12, &["--goal", "blank-first", "--algorithm", "astar"]);
    assert_eq!(ida["algorithm"], "idastar");
    let ida_nodes = ida["nodes_expanded"].as_u64().expect("nodes");
    assert_ne!(ida_nodes, astar["nodes_expanded"].as_u64().expect("nodes"));
    for text in [
        format!("a 1 2 3 4 5 6 7 0 8 1\nk12 blank_first {k12} 45\n"),
        format!("k12 blank_first {k12} 45\na 1 2 3 4 5 6 7 0 8 1\n"),
    ] {
        let f = temp_file(&text);
        let out = npuzzle(&["bench", &path_of(&f), "--format", "json"], None);
        assert_eq!(out.code, 0, "{}", out.stderr);
        let row: Value = out
            .stdout
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).expect("JSON line"))
            .find(|r| r["id"] == "k12")
            .expect("k12 row");
        assert_eq!(row["moves"].as_u64(), Some(45));
        assert_eq!(
            row["nodes_expanded"].as_u64(),
            Some(ida_nodes),
            "k12 was not searched with IDA* in:\n{text}"
        );
    }
}

#[test]
fn bench_jobs_100000_is_capped_not_hung() {
    // It used to try to start 100,000 threads and hang; solve --jobs took it silently.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let cap = format!("capped at {}", 4 * cores);
    let (file, _) = bench_file(None);
    let out = npuzzle(&["bench", &path_of(&file), "--jobs", "100000"], None);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.contains(&cap), "{}", out.stderr);
    let out = npuzzle(&["solve", "-", "--jobs", "100000"], Some(EASY8));
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.contains(&cap), "{}", out.stderr);
    assert!(
        out.stdout.starts_with("Minimum number of moves = 26\n"),
        "{}",
        out.stdout
    );
}

#[test]
fn bench_with_batched_astar() {
    let out = npuzzle(
        &[
            "bench",
            HARD8_FILE,
            "--algorithm",
            "batched-astar",
            "--evaluator",
            "cpu",
            "--batch-size",
            "64",
        ],
        None,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("optimal 4"), "{}", out.stdout);
}

#[test]
fn bench_summaries_name_each_size_and_count_stopped_instances() {
    // A 3×3 and a 4×4 line: `auto` picks per size, and the summary says which for which.
    let f = temp_file(
        "a blank_last 8 6 7 2 5 4 3 0 1 31\nb blank_last 1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15 1\n",
    );
    let out = npuzzle(
        &[
            "bench",
            &path_of(&f),
            "--heuristic",
            "manhattan",
            "--format",
            "json",
        ],
        None,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let lines: Vec<Value> = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    assert_eq!(lines[0]["algorithm"], "astar");
    assert_eq!(lines[1]["algorithm"], "idastar");
    assert_eq!(lines[2]["algorithm"], "astar (3×3), idastar (4×4)");
    assert_eq!(lines[2]["heuristic"], "manhattan");
    // Breadth-first search uses no heuristic, and says so.
    let out = npuzzle(
        &[
            "bench",
            &path_of(&f),
            "--algorithm",
            "bfs",
            "--format",
            "json",
        ],
        None,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout
            .lines()
            .all(|l| l.contains("\"heuristic\":\"none\"")),
        "{}",
        out.stdout
    );
    // An instance stopped by the time limit shows the work done until then, and counts in
    // the totals (it used to show 0 nodes and 0 s).
    let hard = temp_file("h 0 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1 80\n");
    let out = npuzzle(
        &[
            "bench",
            &path_of(&hard),
            "--algorithm",
            "idastar",
            "--heuristic",
            "manhattan",
            "--time-limit",
            "0.3",
            "--format",
            "json",
        ],
        None,
    );
    assert_eq!(out.code, 3, "{}", out.stderr);
    let lines: Vec<Value> = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    let row = &lines[0];
    assert!(
        row["error"].as_str().unwrap().contains("time limit"),
        "{row}"
    );
    let nodes = row["nodes_expanded"].as_u64().unwrap();
    assert!(nodes > 1000, "{row}");
    assert!(row["nodes_generated"].as_u64().unwrap() > nodes, "{row}");
    let secs = row["seconds"].as_f64().unwrap();
    assert!((0.3..10.0).contains(&secs), "{row}");
    assert_eq!(
        lines[1]["nodes_expanded"].as_u64(),
        Some(nodes),
        "{}",
        lines[1]
    );
    assert_eq!(lines[1]["limits"], 1);
}

#[test]
fn json_output_says_why_a_bench_or_solve_could_not_run() {
    let bad = temp_file("a 1 2 3\n");
    let out = npuzzle(&["bench", &path_of(&bad), "--format", "json"], None);
    assert_eq!(out.code, 2, "{}", out.stderr);
    let j: Value = serde_json::from_str(out.stdout.trim()).expect("one JSON object");
    assert!(j["error"].as_str().unwrap().contains(":1: "), "{j}");
    assert_eq!(j["exit_code"], 2);
    // A bad limit is bad input: solve still prints its JSON object.
    let out = npuzzle(
        &["solve", "-", "--time-limit", "0", "--format", "json"],
        Some(EASY8),
    );
    assert_eq!(out.code, 2, "{}", out.stderr);
    let j: Value = serde_json::from_str(&out.stdout).expect("a JSON object");
    assert!(j["error"].as_str().unwrap().contains("--time-limit"), "{j}");
    assert_eq!(j["moves"], Value::Null);
}
