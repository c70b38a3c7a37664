//! `npuzzle bench` spread over a cluster: `--ids` and `--shard` select instances, `--merge`
//! reads the JSON lines of several runs back as one, `--published` puts published counts and
//! our share of them beside each instance. Small 3×3 files, lengths from the tests' own BFS.

mod common;

use common::bfs_distance;
use common::bin::{Output, goal_board, json_lines, npuzzle, parse, path_of, temp_file};
use npuzzle::puzzle::GoalSpec;
use serde_json::Value;
use tempfile::NamedTempFile;

/// Seven 8-puzzles (blank-last goal), ids 1 to 7.
const STARTS: [&str; 7] = [
    "8 6 7 2 5 4 3 0 1",
    "7 8 0 6 5 4 1 2 3",
    "1 2 3 4 5 6 7 0 8",
    "0 1 3 4 2 5 7 8 6",
    "4 1 2 0 8 7 6 3 5",
    "5 4 0 6 1 8 7 3 2",
    "1 2 3 4 5 6 0 7 8",
];

/// A bench file of [`STARTS`] (a comment first: ids are not line numbers) with their BFS
/// lengths; the lengths.
fn bench_file() -> (NamedTempFile, Vec<u32>) {
    let mut text = "# id tiles optimal\n".to_string();
    let mut lengths = Vec::new();
    for (i, tiles) in STARTS.iter().enumerate() {
        let s = parse(tiles);
        let d = bfs_distance(&s, &goal_board(&GoalSpec::BlankLast, &s)).expect("solvable");
        lengths.push(d);
        text.push_str(&format!("{} {tiles} {d}\n", i + 1));
    }
    (temp_file(&text), lengths)
}

/// `npuzzle bench FILE --format json` with `extra`, which must exit 0: its rows and summary.
fn bench_json(file: &str, extra: &[&str]) -> (Vec<Value>, Value) {
    let mut args = vec![
        "bench",
        file,
        "--format",
        "json",
        "--heuristic",
        "manhattan",
    ];
    args.extend_from_slice(extra);
    let out = npuzzle(&args, None);
    assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
    let mut lines = json_lines(&out.stdout);
    let summary = lines.pop().expect("a summary line");
    assert_eq!(summary["summary"], true, "{summary}");
    (lines, summary)
}

/// The ids of `rows`.
fn ids(rows: &[Value]) -> Vec<String> {
    rows.iter()
        .map(|r| r["id"].as_str().expect("id").to_string())
        .collect()
}

/// What a row's result is: id, moves, nodes expanded and generated.
fn result(r: &Value) -> (String, u64, u64, u64) {
    (
        r["id"].as_str().unwrap().to_string(),
        r["moves"].as_u64().unwrap(),
        r["nodes_expanded"].as_u64().unwrap(),
        r["nodes_generated"].as_u64().unwrap(),
    )
}

/// Asserts `out` is a usage error (exit 2) whose message contains every one of `words`.
fn usage_error(out: &Output, words: &[&str]) {
    assert_eq!(out.code, 2, "{}\n{}", out.stdout, out.stderr);
    for w in words {
        assert!(out.stderr.contains(w), "{w:?} not in: {}", out.stderr);
    }
}

#[test]
fn ids_and_ranges_select_lines_in_file_order() {
    let (f, lengths) = bench_file();
    let (rows, summary) = bench_json(&path_of(&f), &["--ids", "6,1-3"]);
    assert_eq!(ids(&rows), ["1", "2", "3", "6"]);
    for r in &rows {
        let i: usize = r["id"].as_str().unwrap().parse().unwrap();
        assert_eq!(r["moves"].as_u64(), Some(u64::from(lengths[i - 1])), "{r}");
        assert_eq!(r["line"].as_u64(), Some(i as u64 + 1), "{r}");
        // A row stands alone: the board, goal, options and version are in it.
        assert_eq!(r["start"], parse(STARTS[i - 1]).to_string());
        assert_eq!(r["goal"], "blank-last");
        assert_eq!(r["pruning"], "fsm");
        assert!(r["version"].is_string());
    }
    assert_eq!(summary["instances"], 4);
    assert_eq!(summary["optimal"], 4);
    // Ids without an id column are line numbers, as printed.
    let bare = temp_file("# two boards\n1 2 3 4 5 6 7 0 8\n1 2 3 4 5 6 0 7 8\n");
    let (rows, _) = bench_json(&path_of(&bare), &["--ids", "3"]);
    assert_eq!(ids(&rows), ["3"]);
    assert_eq!(rows[0]["moves"], 2);
}

#[test]
fn bad_ids_and_shards_exit_2_naming_the_item() {
    let (f, _) = bench_file();
    let path = path_of(&f);
    let run = |flag: &str, value: &str| npuzzle(&["bench", &path, flag, value], None);
    usage_error(&run("--ids", "3-1"), &["3-1 is not a range"]);
    usage_error(&run("--ids", "x"), &["x is not an id of", "1 to 7"]);
    usage_error(&run("--ids", ""), &["empty list"]);
    usage_error(&run("--ids", "1,,2"), &["empty item"]);
    usage_error(&run("--ids", "2,9"), &["9 is not an id"]);
    usage_error(&run("--ids", "6-9"), &["range 6-9", "8, 9"]);
    for bad in ["0/3", "4/3", "a/3", "3", "1/0"] {
        usage_error(&run("--shard", bad), &[&format!("--shard {bad:?}")]);
    }
    // In JSON, the failure object says it.
    let out = npuzzle(&["bench", &path, "--ids", "x", "--format", "json"], None);
    assert_eq!(out.code, 2);
    let j: Value = serde_json::from_str(out.stdout.trim()).expect("one JSON object");
    assert!(
        j["error"].as_str().unwrap().contains("x is not an id"),
        "{j}"
    );
}

#[test]
fn shards_are_disjoint_cover_everything_and_merge_into_the_whole_run() {
    let (f, _) = bench_file();
    let path = path_of(&f);
    let (whole, whole_summary) = bench_json(&path, &[]);
    let mut parts = Vec::new();
    let mut concatenated = String::new();
    for k in 1..=3 {
        let shard = format!("{k}/3");
        let out = npuzzle(
            &[
                "bench",
                &path,
                "--format",
                "json",
                "--heuristic",
                "manhattan",
                "--shard",
                &shard,
            ],
            None,
        );
        assert_eq!(out.code, 0, "{}", out.stderr);
        let mut rows = json_lines(&out.stdout);
        rows.pop();
        // Interleaved: instance i (from 0) goes to part i mod 3 + 1.
        let want: Vec<String> = (1..=7)
            .filter(|i| (i - 1) % 3 == k - 1)
            .map(|i| i.to_string())
            .collect();
        assert_eq!(ids(&rows), want, "shard {shard}");
        parts.extend(rows);
        concatenated.push_str(&out.stdout);
    }
    let mut from_parts: Vec<_> = parts.iter().map(result).collect();
    from_parts.sort();
    let mut all: Vec<_> = whole.iter().map(result).collect();
    all.sort();
    assert_eq!(
        from_parts, all,
        "the parts together are the whole, each once"
    );

    // Merged: the whole run's rows in file order and its totals.
    let file = temp_file(&concatenated);
    let out = npuzzle(
        &["bench", "--merge", &path_of(&file), "--format", "json"],
        None,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let mut merged = json_lines(&out.stdout);
    let summary = merged.pop().unwrap();
    assert_eq!(
        merged.iter().map(result).collect::<Vec<_>>(),
        whole.iter().map(result).collect::<Vec<_>>()
    );
    for field in [
        "instances",
        "solved",
        "optimal",
        "nodes_expanded",
        "nodes_generated",
        "heuristic",
        "algorithm",
        "goal",
    ] {
        assert_eq!(summary[field], whole_summary[field], "{field}");
    }
    // The same shard read twice counts once; text output has the table and the totals.
    let out = npuzzle(
        &["bench", "--merge", &path_of(&file), &path_of(&file)],
        None,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout
            .contains("instances 7, solved 7, unsolvable 0, optimal 7"),
        "{}",
        out.stdout
    );
    let expanded = whole_summary["nodes_expanded"].as_u64().unwrap();
    assert!(
        out.stdout.contains(&format!("{expanded} nodes expanded")),
        "{}",
        out.stdout
    );
}

#[test]
fn merge_refuses_what_is_not_one_run() {
    let (f, _) = bench_file();
    let path = path_of(&f);
    let run = |extra: &[&str]| {
        let mut args = vec!["bench", path.as_str(), "--format", "json"];
        args.extend_from_slice(extra);
        let out = npuzzle(&args, None);
        assert_eq!(out.code, 0, "{}", out.stderr);
        out.stdout
    };
    let md = run(&["--heuristic", "manhattan", "--shard", "1/2"]);
    let lc = run(&["--heuristic", "linear-conflict", "--shard", "2/2"]);
    let undo = run(&[
        "--heuristic",
        "manhattan",
        "--shard",
        "2/2",
        "--pruning",
        "undo",
    ]);
    let merge = |text: &str| {
        let file = temp_file(text);
        let out = npuzzle(&["bench", "--merge", &path_of(&file)], None);
        (out, path_of(&file))
    };
    let (out, _) = merge(&(md.clone() + &lc));
    usage_error(
        &out,
        &["heuristic linear-conflict", "manhattan", "cannot be merged"],
    );
    let (out, _) = merge(&(md.clone() + &undo));
    usage_error(&out, &["pruning", "undo", "fsm"]);
    // A line that is not JSON, and one that is not a bench row, named by file and line.
    let (out, name) = merge(&(md.clone() + "hello\n"));
    usage_error(&out, &[&format!("{name}:6: not a JSON line")]);
    let (out, name) = merge(&format!("{md}{{\"solvable\":true,\"moves\":2}}\n"));
    usage_error(&out, &[&format!("{name}:6: not a bench JSON line")]);
    // One id with two results.
    let first = md.lines().next().unwrap();
    let v: Value = serde_json::from_str(first).unwrap();
    let n = v["nodes_expanded"].as_u64().unwrap();
    let changed = first.replace(
        &format!("\"nodes_expanded\":{n}"),
        &format!("\"nodes_expanded\":{}", n + 1),
    );
    let (out, name) = merge(&format!("{md}{changed}\n"));
    usage_error(
        &out,
        &[&format!("{name}:6: repeats id 1"), "another result"],
    );
}

#[test]
fn published_counts_give_each_share_and_the_total() {
    let (f, lengths) = bench_file();
    let path = path_of(&f);
    // Counts for ids 1, 2 and 5 (none for the others).
    let counts = temp_file(&format!(
        "# Format: id length expanded\n1 {} 1000\n2 {} 300\n5 {} 7\n",
        lengths[0], lengths[1], lengths[4]
    ));
    let (rows, summary) = bench_json(&path, &["--published", &path_of(&counts)]);
    let published = [(0, 1000u64), (1, 300), (4, 7)];
    let mut ours = 0;
    for (i, p) in published {
        let r = &rows[i];
        let n = r["nodes_expanded"].as_u64().unwrap();
        ours += n;
        assert_eq!(r["published"].as_u64(), Some(p), "{r}");
        assert_eq!(
            r["published_share"].as_f64(),
            Some(n as f64 / p as f64),
            "{r}"
        );
        assert_eq!(r["published_field"], "nodes_expanded");
    }
    assert_eq!(rows[2]["published"], Value::Null);
    assert_eq!(rows[2]["published_share"], Value::Null);
    assert_eq!(summary["published"], 1307);
    assert_eq!(
        summary["published_share"].as_f64(),
        Some(ours as f64 / 1307.0)
    );
    // Text: the columns and the summary's line; CSV: the fields.
    let out = npuzzle(&["bench", &path, "--published", &path_of(&counts)], None);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.lines().next().unwrap().contains("published"));
    assert!(
        out.stdout.contains("published: 1307 nodes expanded"),
        "{}",
        out.stdout
    );
    let out = npuzzle(
        &[
            "bench",
            &path,
            "--published",
            &path_of(&counts),
            "--format",
            "csv",
        ],
        None,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout
            .lines()
            .next()
            .unwrap()
            .contains("published_share")
    );
    // A table of other instances (another length) is refused.
    let wrong = temp_file(&format!(
        "# Format: id length expanded\n1 {} 1000\n",
        lengths[0] + 2
    ));
    let out = npuzzle(&["bench", &path, "--published", &path_of(&wrong)], None);
    usage_error(&out, &["gives id 1 the length"]);
    let bad = temp_file("# Format: id expanded\n1 many\n");
    let out = npuzzle(&["bench", &path, "--published", &path_of(&bad)], None);
    usage_error(&out, &[&format!("{}:2: expanded \"many\"", path_of(&bad))]);
}
