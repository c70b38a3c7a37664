//! The JSON schema of every command's output, in one table: for each kind of object (`solve`'s
//! answer, `bench`'s row and summary, `compare`'s rows and summaries, `generate`'s boards, the
//! failure objects) its fields' names and JSON types. Every object a command prints must have
//! exactly its kind's fields, in the table's order, with those types, `version` last; a CSV header must name the
//! fields of the JSON rows in their order. A new field is one line in its kind's table.

mod common;

use common::bin::{HARD8, HARD8_FILE, json_lines, npuzzle, temp_file};
use serde_json::Value;

/// The JSON types a field may take, as bits: a field may be of several (`INT | NULL`).
type Types = u8;
const STR: Types = 1;
/// A whole number.
const INT: Types = 2;
/// Any number (a whole one too: `0.0` and `0` are both seconds).
const NUM: Types = 4;
const BOOL: Types = 8;
const LIST: Types = 16;
const OBJ: Types = 32;
const NULL: Types = 64;

/// One kind of object: its fields in output order, each with its types.
type Schema = &'static [(&'static str, Types)];

/// `solve --format json`'s answer (then `--all`'s [`ALL`], [`CHOICES`] and the conditions).
const SOLVE: Schema = &[
    ("solvable", BOOL),
    ("moves", INT | NULL),
    ("guaranteed_optimal", BOOL | NULL),
    ("solution", STR | NULL),
    ("tiles_moved", LIST | NULL),
    ("notation", STR),
    ("algorithm", STR),
    ("weight", NUM | NULL),
    ("heuristic", STR | NULL),
    ("evaluator", STR),
    ("adapter", STR | NULL),
    ("goal", STR),
    ("start", STR),
    ("nodes_expanded", INT),
    ("nodes_generated", INT),
    ("peak_open", INT),
    ("initial_h", INT),
    ("lower_bound", INT | NULL),
    ("effective_branching_factor", NUM | NULL),
    ("iterations", LIST),
    ("rounds", INT),
    ("boards_evaluated", INT),
    ("eval_seconds", NUM),
    ("seconds", NUM),
    ("reason", STR),
    ("parity", OBJ),
];

/// What `solve` says `auto` chose, after [`ALL`] and before the conditions.
const CHOICES: Schema = &[("choices", LIST)];

/// What `solve --all` adds.
const ALL: Schema = &[
    ("count", INT),
    ("count_is_exact", BOOL),
    ("solutions", LIST),
];

/// One IDA* iteration, in `solve`'s `iterations`.
const ITERATION: Schema = &[
    ("threshold", INT),
    ("nodes_expanded", INT),
    ("nodes_generated", INT),
];

/// The run's settings, host and date (`report::Conditions`), in `solve`'s object and
/// `bench`'s rows and summary.
const CONDITIONS: Schema = &[
    ("pruning", STR),
    ("move_order", STR),
    ("generated_counts_root", BOOL),
    ("pdb_reflect", BOOL),
    ("pdb_regions", BOOL),
    ("threads", INT),
    ("max_memory", INT),
    ("time_limit", NUM | NULL),
    ("cpu", STR),
    ("cores", INT),
    ("date", STR),
];

/// One instance of `bench`.
const BENCH_ROW: Schema = &[
    ("id", STR),
    ("line", INT),
    ("start", STR),
    ("goal", STR),
    ("algorithm", STR),
    ("heuristic", STR),
    ("solvable", BOOL),
    ("moves", INT | NULL),
    ("optimal", INT | NULL),
    ("matches", BOOL | NULL),
    ("nodes_expanded", INT),
    ("nodes_generated", INT),
    ("seconds", NUM),
    ("initial_h", INT),
    ("lower_bound", INT | NULL),
    ("effective_branching_factor", NUM | NULL),
    ("iterations", LIST),
    ("error", STR | NULL),
    ("published", INT | NULL),
    ("published_share", NUM | NULL),
    ("published_field", STR | NULL),
];

/// `bench`'s summary, before its [`CONDITIONS`].
const BENCH_SUMMARY: Schema = &[
    ("summary", BOOL),
    ("instances", INT),
    ("solved", INT),
    ("unsolvable", INT),
    ("optimal", INT),
    ("unchecked", INT),
    ("mismatches", INT),
    ("limits", INT),
    ("algorithm", STR),
    ("heuristic", STR),
    ("jobs", INT),
    ("seconds", NUM),
    ("wall_seconds", NUM),
    ("nodes_expanded", INT),
    ("nodes_generated", INT),
    ("nodes_per_second", NUM),
    ("published", INT | NULL),
    ("published_share", NUM | NULL),
    ("published_field", STR | NULL),
    ("goal", STR),
    ("choices", LIST),
];

/// One board and method of `compare FILE`.
const COMPARE_ROW: Schema = &[
    ("id", STR),
    ("line", INT),
    ("start", STR),
    ("goal", STR),
    ("solvable", BOOL),
    ("optimal", INT | NULL),
    ("algorithm", STR),
    ("weight", NUM | NULL),
    ("heuristic", STR),
    ("initial_h", INT),
    ("nodes_expanded", INT),
    ("nodes_generated", INT),
    ("seconds", NUM),
    ("moves", INT | NULL),
    ("guaranteed_optimal", BOOL),
    ("effective_branching_factor", NUM | NULL),
    ("error", STR | NULL),
    ("time_limit", NUM),
];

/// One method over all the boards of `compare FILE`.
const COMPARE_SUMMARY: Schema = &[
    ("summary", BOOL),
    ("algorithm", STR),
    ("weight", NUM | NULL),
    ("heuristic", STR),
    ("boards", INT),
    ("solved", INT),
    ("capped", INT),
    ("unsolvable", INT),
    ("nodes_expanded", INT),
    ("nodes_generated", INT),
    ("mean_nodes_expanded", NUM | NULL),
    ("mean_nodes_generated", NUM | NULL),
    ("mean_effective_branching_factor", NUM | NULL),
    ("seconds", NUM),
];

/// One depth and method of `compare --size` (the textbook experiment).
const COMPARE_DEPTH: Schema = &[
    ("size", STR),
    ("goal", STR),
    ("samples", INT),
    ("seed", INT),
    ("tie_break", STR),
    ("bfs_goal_test", STR),
    ("depth", INT),
    ("boards", INT),
    ("algorithm", STR),
    ("heuristic", STR),
    ("solved", INT),
    ("mean_nodes_expanded", NUM),
    ("mean_nodes_generated", NUM),
    ("effective_branching_factor", NUM | NULL),
    ("mean_seconds", NUM),
];

/// One board of `generate`.
const GENERATE: Schema = &[
    ("id", STR),
    ("board", STR),
    ("goal", STR),
    ("seed", INT),
    ("walk", INT | NULL),
    ("optimal", INT | NULL),
];

/// A failure of `compare` or `generate`, and a command line clap refuses.
const FAILURE: Schema = &[("error", STR), ("exit_code", INT)];

/// A failure of `bench`.
const BENCH_FAILURE: Schema = &[("summary", BOOL), ("error", STR), ("exit_code", INT)];

/// A failure of `solve`.
const SOLVE_FAILURE: Schema = &[
    ("solvable", BOOL | NULL),
    ("moves", NULL),
    ("error", STR),
    ("exit_code", INT),
    ("limit", BOOL),
    ("lower_bound", INT | NULL),
    ("algorithm", STR | NULL),
    ("heuristic", STR | NULL),
    ("start", STR | NULL),
];

/// Whether `v` is of one of `types`.
fn is(v: &Value, types: Types) -> bool {
    let of = match v {
        Value::String(_) => STR,
        Value::Number(n) if n.is_u64() || n.is_i64() => INT | NUM,
        Value::Number(_) => NUM,
        Value::Bool(_) => BOOL,
        Value::Array(_) => LIST,
        Value::Object(_) => OBJ,
        Value::Null => NULL,
    };
    of & types != 0
}

/// The fields of `parts` one after the other, then `version`.
fn fields(parts: &[Schema]) -> Vec<(&'static str, Types)> {
    let mut all: Vec<_> = parts.iter().flat_map(|p| p.iter().copied()).collect();
    all.push(("version", STR));
    all
}

/// Asserts that `v` (from `what`) is an object with exactly the fields of `parts` and
/// `version` (last), in that order (serde_json keeps an object's keys in the order read, with
/// `preserve_order`), each of its types.
fn check(what: &str, v: &Value, parts: &[Schema]) {
    let want = fields(parts);
    let obj = v
        .as_object()
        .unwrap_or_else(|| panic!("{what}: not an object: {v}"));
    let have: Vec<&str> = obj.keys().map(String::as_str).collect();
    let names: Vec<&str> = want.iter().map(|f| f.0).collect();
    assert_eq!(
        have, names,
        "{what}: fields in this order, expected the second"
    );
    for (name, types) in &want {
        assert!(
            is(&obj[*name], *types),
            "{what}: {name} = {} is not of types {types:#b}",
            obj[*name]
        );
    }
}

/// The JSON lines of `npuzzle args` (standard input `stdin`), which must exit `code`.
fn run(args: &[&str], stdin: Option<&str>, code: i32) -> Vec<Value> {
    let o = npuzzle(args, stdin);
    assert_eq!(o.code, code, "{args:?}: {}", o.stderr);
    json_lines(&o.stdout)
}

#[test]
fn every_command_prints_its_schema() {
    let solve = ["solve", "-", "--format", "json", "--algorithm", "idastar"];
    let v = run(&solve, Some(HARD8), 0);
    assert_eq!(v.len(), 1, "solve prints one line");
    check("solve", &v[0], &[SOLVE, CHOICES, CONDITIONS]);
    for it in v[0]["iterations"].as_array().unwrap() {
        check_nested("solve iteration", it, ITERATION);
    }
    let all = [
        "solve",
        "-",
        "--format",
        "json",
        "--all",
        "--algorithm",
        "astar",
    ];
    let v = run(&all, Some("1 2 3/4 5 6/7 0 8"), 0);
    check("solve --all", &v[0], &[SOLVE, ALL, CHOICES, CONDITIONS]);
    // An unsolvable board: no heuristic, no moves.
    let v = run(&solve, Some("1 2 3/4 5 6/8 7 0"), 0);
    check("solve, unsolvable", &v[0], &[SOLVE, CHOICES, CONDITIONS]);

    let bench = [
        "bench",
        HARD8_FILE,
        "--format",
        "json",
        "--heuristic",
        "manhattan",
    ];
    let v = run(&bench, None, 0);
    let (summary, rows) = v.split_last().unwrap();
    assert_eq!(rows.len(), 4);
    for r in rows {
        check("bench row", r, &[BENCH_ROW, CONDITIONS]);
    }
    check("bench summary", summary, &[BENCH_SUMMARY, CONDITIONS]);

    // BFS capped by the memory cap: a row without a length.
    let compare = [
        "compare",
        HARD8_FILE,
        "--heuristics",
        "bfs,manhattan",
        "--max-memory",
        "64KiB",
        "--format",
        "json",
    ];
    let v = run(&compare, None, 0);
    assert_eq!(v.len(), 4 * 2 + 2);
    for r in &v[..8] {
        check("compare row", r, &[COMPARE_ROW]);
    }
    for s in &v[8..] {
        check("compare summary", s, &[COMPARE_SUMMARY]);
    }
    let experiment = [
        "compare",
        "--size",
        "2x3",
        "--depths",
        "0,4",
        "--samples",
        "2",
        "--heuristics",
        "bfs,manhattan",
        "--format",
        "json",
    ];
    let v = run(&experiment, None, 0);
    assert_eq!(v.len(), 2 * 2);
    for r in &v {
        check("compare depth", r, &[COMPARE_DEPTH]);
    }

    for (args, count) in [
        (&["--size", "3x4", "--count", "3"][..], 3),
        (&["--size", "3x4", "--count", "3", "--walk", "7"], 3),
        (
            &[
                "--size",
                "3x3",
                "--optimal",
                "20",
                "--count",
                "2",
                "--seed",
                "1",
            ],
            2,
        ),
    ] {
        let mut all = vec!["generate", "--format", "json"];
        all.extend(args);
        let v = run(&all, None, 0);
        assert_eq!(v.len(), count, "{all:?}");
        for r in &v {
            check(&format!("{all:?}"), r, &[GENERATE]);
        }
    }
}

/// `v` (from `what`) has exactly `schema`'s fields with its types: an object inside another,
/// without `version`.
fn check_nested(what: &str, v: &Value, schema: Schema) {
    let obj = v.as_object().unwrap_or_else(|| panic!("{what}: {v}"));
    let have: Vec<&str> = obj.keys().map(String::as_str).collect();
    let want: Vec<&str> = schema.iter().map(|f| f.0).collect();
    assert_eq!(have, want, "{what}");
    for (name, types) in schema {
        assert!(is(&obj[*name], *types), "{what}: {name} = {}", obj[*name]);
    }
}

#[test]
fn every_failure_prints_its_schema() {
    let board = temp_file(HARD8);
    let file = board.path().to_str().unwrap();
    for (args, schema) in [
        (
            vec!["solve", file, "--format", "json", "--time-limit", "-1"],
            SOLVE_FAILURE,
        ),
        (
            vec!["solve", "/no/such/file", "--format", "json"],
            SOLVE_FAILURE,
        ),
        (
            vec!["bench", "/no/such/file", "--format", "json"],
            BENCH_FAILURE,
        ),
        (
            vec!["compare", file, "--heuristics", "nope", "--format", "json"],
            FAILURE,
        ),
        (
            vec![
                "generate", "--size", "3x3", "--goal", "nope", "--format", "json",
            ],
            FAILURE,
        ),
        // Refused by clap.
        (
            vec![
                "generate", "--size", "3x3", "--count", "x", "--format", "json",
            ],
            FAILURE,
        ),
        (
            vec!["solve", file, "--format", "json", "--jobs", "0"],
            FAILURE,
        ),
    ] {
        let v = run(&args, None, 2);
        assert_eq!(v.len(), 1, "{args:?}");
        check(&format!("{args:?}"), &v[0], &[schema]);
    }
    // Stopped at the time limit (exit 3), with the bound the search proved: 80 moves away,
    // too far for IDA* with Manhattan distance in 0.3 s.
    let args = [
        "solve",
        "-",
        "--algorithm",
        "idastar",
        "--heuristic",
        "manhattan",
        "--time-limit",
        "0.3",
        "--format",
        "json",
    ];
    let v = run(&args, Some("0 12 9 13/15 11 10 14/3 7 2 5/4 8 6 1"), 3);
    assert_eq!(v.len(), 1);
    check("solve at the time limit", &v[0], &[SOLVE_FAILURE]);
    assert_eq!(v[0]["limit"], true, "{}", v[0]);
    assert!(
        v[0]["lower_bound"].as_u64().is_some_and(|b| b <= 80),
        "{}",
        v[0]
    );
}

/// `--format csv`: a header naming the JSON rows' fields in their order, then one row a result
/// with the JSON rows' values; a command without CSV refuses it (exit 2).
#[test]
fn csv_has_the_json_rows_fields_and_values() {
    for args in [
        vec![
            "bench",
            HARD8_FILE,
            "--heuristic",
            "manhattan",
            "--jobs",
            "1",
        ],
        vec![
            "compare",
            HARD8_FILE,
            "--heuristics",
            "manhattan,linear-conflict",
        ],
        vec![
            "compare",
            "--size",
            "2x3",
            "--depths",
            "3,5",
            "--samples",
            "2",
            "--heuristics",
            "bfs,manhattan",
        ],
        vec!["generate", "--size", "4x4", "--count", "5", "--seed", "3"],
    ] {
        let with = |format: &str| {
            let mut a = args.clone();
            a.extend(["--format", format]);
            npuzzle(&a, None)
        };
        let (json, csv) = (with("json"), with("csv"));
        assert_eq!((json.code, csv.code), (0, 0), "{args:?}: {}", csv.stderr);
        // The rows: the summaries are not in the CSV.
        let rows: Vec<Value> = json_lines(&json.stdout)
            .into_iter()
            .filter(|v| v.get("summary").is_none())
            .collect();
        let mut reader = csv::Reader::from_reader(csv.stdout.as_bytes());
        let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
        let names: Vec<&String> = rows[0].as_object().unwrap().keys().collect();
        assert_eq!(header.iter().collect::<Vec<_>>(), names, "{args:?}");
        let records: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        assert_eq!(records.len(), rows.len(), "{args:?}");
        for (rec, row) in records.iter().zip(&rows) {
            for (cell, name) in rec.iter().zip(&header) {
                let want = match &row[name] {
                    // Timings and the date differ between the two runs.
                    _ if name.contains("seconds") || name == "date" => continue,
                    Value::String(s) => s.clone(),
                    Value::Null => String::new(),
                    // serde_json reads a float to within a unit in the last place.
                    Value::Number(n) if n.is_f64() => {
                        let (c, n) = (cell.parse::<f64>().unwrap(), n.as_f64().unwrap());
                        assert!(
                            (c - n).abs() <= 1e-12 * n.abs(),
                            "{args:?}: {name}: {c} {n}"
                        );
                        continue;
                    }
                    v => v.to_string(),
                };
                assert_eq!(cell, want, "{args:?}: {name}");
            }
        }
    }
    let o = npuzzle(&["solve", "-", "--format", "csv"], Some(HARD8));
    assert_eq!((o.code, o.stdout.as_str()), (2, ""));
    assert!(
        o.stderr
            .contains("--format csv is for bench, compare and generate"),
        "{}",
        o.stderr
    );
}

/// docs/cli.md names every field of `solve`'s object, `compare`'s rows and the depth
/// experiment's rows (the fields the search options added included).
#[test]
fn the_cli_docs_name_every_field() {
    let docs = std::fs::read_to_string("docs/cli.md").unwrap();
    for (what, schema) in [
        ("solve", SOLVE),
        ("compare row", COMPARE_ROW),
        ("compare depth", COMPARE_DEPTH),
    ] {
        for (name, _) in schema.iter() {
            assert!(
                docs.contains(&format!("`{name}`")),
                "docs/cli.md does not name {what}'s field {name:?}"
            );
        }
    }
}
