//! The fault-injection suite, part one: the binary run on hostile input, extreme arguments and
//! failing outputs. Every case asserts the exit code, that stderr names the problem, and that
//! nothing panicked. Broken cache files and folders are in `cache_faults.rs`.

mod common;

use common::bin::{
    EASY8, HARD8, KORF12, command, no_panic, npuzzle, output, output_within, path_of, temp_file,
};

/// One hostile case for `npuzzle ARGS` with a board file holding `input`: the exit code and a
/// piece of stderr that names the problem.
struct Case {
    args: &'static [&'static str],
    input: &'static [u8],
    code: i32,
    says: &'static str,
}

const fn case(
    args: &'static [&'static str],
    input: &'static [u8],
    code: i32,
    says: &'static str,
) -> Case {
    Case {
        args,
        input,
        code,
        says,
    }
}

/// Malformed input of every kind the README lists, sizes at and beyond each limit, and extreme
/// numeric arguments. `FILE` in `args` is the board file.
const CASES: &[Case] = &[
    // Malformed boards (exit 2, file and line named).
    case(&["solve", "FILE"], b"3\n1 2 3\n4 x 6\n7 8 0\n", 2, ":3: "),
    case(&["solve", "FILE"], b"1 2 3/4 5 6/7 8 8\n", 2, ":1: "),
    case(&["solve", "FILE"], b"1 2 3/4 5 6/7 8 9\n", 2, ":1: "),
    case(&["solve", "FILE"], b"1 2 3/4 5/6 7 0\n", 2, ":1: "),
    case(&["solve", "FILE"], b"3\n1 2 3\n4 5 6\n", 2, "too few rows"),
    case(&["solve", "FILE"], b"", 2, "FILE"),
    case(&["solve", "FILE"], b"# only a comment\n\n", 2, "FILE"),
    case(&["solve", "FILE"], b"1 2 3/4 5 6/7 8 \0\n", 2, ":1: "),
    case(&["solve", "FILE"], b"\xff\xfe1\x002\x00", 2, "FILE"),
    case(
        &["solve", "FILE"],
        b"1 2 3/4 5 6/7 8 99999999999999999999\n",
        2,
        "too large",
    ),
    case(&["solve", "FILE"], b"1 2 3/4 5 6/7 8 -1\n", 2, ":1: "),
    case(&["solve", "FILE"], b"0 0\n", 2, ":1: "),
    case(&["solve", "FILE"], b"1\n0\n", 2, ":1: "),
    case(&["solve", "FILE"], b"17\n", 2, ":1: "),
    case(&["solve", "FILE"], b"4294967296 2\n", 2, ":1: "),
    case(
        &["bench", "FILE"],
        b"a blank_middle 1 2 3 4 5 6 7 8 0\n",
        2,
        "blank_middle",
    ),
    case(&["bench", "FILE"], b"a 1 2 3\n", 2, ":1: "),
    // Accepted variants: CRLF, a UTF-8 byte-order mark, tabs (exit 0).
    case(
        &["solve", "FILE"],
        b"3\r\n1 2 3\r\n4 5 6\r\n7 0 8\r\n",
        0,
        "",
    ),
    case(
        &["solve", "FILE"],
        b"\xef\xbb\xbf1 2 3/4 5 6/7 0 8\n",
        0,
        "",
    ),
    case(&["solve", "FILE"], b"1\t2\t3/4 5 6/7 0 8\n", 0, ""),
    // Sizes at and beyond the limits (sides 2..=16).
    case(&["generate", "--size", "1x3"], b"", 2, "--size"),
    case(&["generate", "--size", "17x2"], b"", 2, "--size"),
    case(&["generate", "--size", "0x0"], b"", 2, "--size"),
    case(&["generate", "--size", "4294967296x2"], b"", 2, "--size"),
    case(&["generate", "--size", "16x16", "--seed", "1"], b"", 0, ""),
    case(
        &["solve", "FILE", "--size", "16x16"],
        b"a 1 2 3 4 5 6 7 0 8\n",
        2,
        ":1: ",
    ),
    // Extreme numbers.
    case(
        &["solve", "FILE", "--time-limit", "0"],
        b"7 8 0/6 5 4/1 2 3",
        2,
        "--time-limit",
    ),
    case(
        &["solve", "FILE", "--time-limit", "-1"],
        b"7 8 0/6 5 4/1 2 3",
        2,
        "--time-limit",
    ),
    case(
        &["solve", "FILE", "--time-limit", "nan"],
        b"7 8 0/6 5 4/1 2 3",
        2,
        "--time-limit",
    ),
    case(
        &["solve", "FILE", "--time-limit", "inf"],
        b"7 8 0/6 5 4/1 2 3",
        2,
        "--time-limit",
    ),
    case(
        &["solve", "FILE", "--time-limit", "1e10"],
        b"7 8 0/6 5 4/1 2 3",
        0,
        "",
    ),
    case(
        &[
            "solve",
            "FILE",
            "--time-limit",
            "1e-9",
            "--heuristic",
            "hamming",
            "--algorithm",
            "idastar",
        ],
        b"0 12 9 13/15 11 10 14/3 7 2 5/4 8 6 1",
        3,
        // The limit as given (the search itself is given what is left of it).
        "time limit of 0.000000001 s reached",
    ),
    case(
        &["solve", "FILE", "--max-memory", "0", "--algorithm", "astar"],
        b"8 6 7/2 5 4/3 0 1",
        3,
        "memory cap of 0 B",
    ),
    case(
        &["solve", "FILE", "--max-memory", "0", "--algorithm", "bfs"],
        b"8 6 7/2 5 4/3 0 1",
        3,
        "memory cap of 0 B reached after 1 expansion; IDA* needs almost no memory (raise --max-memory, or --algorithm idastar)",
    ),
    case(
        &["solve", "FILE", "--max-memory", "1EiB"],
        b"7 8 0/6 5 4/1 2 3",
        0,
        "",
    ),
    case(
        &["solve", "FILE", "--max-memory", "99999999999999999999999"],
        b"7 8 0/6 5 4/1 2 3",
        2,
        "more than this machine can address",
    ),
    case(
        &[
            "solve",
            "FILE",
            "--batch-size",
            "0",
            "--algorithm",
            "batched-astar",
        ],
        b"7 8 0/6 5 4/1 2 3",
        2,
        "--batch-size",
    ),
    case(
        &[
            "solve",
            "FILE",
            "--batch-size",
            "99999999999",
            "--algorithm",
            "batched-astar",
            "--evaluator",
            "cpu",
        ],
        b"7 8 0/6 5 4/1 2 3",
        0,
        "",
    ),
    case(
        &["solve", "FILE", "--jobs", "0"],
        b"7 8 0/6 5 4/1 2 3",
        2,
        "a number of threads of at least 1",
    ),
    case(
        &["solve", "FILE", "--gpu-invocations", "0"],
        b"7 8 0/6 5 4/1 2 3",
        2,
        "a number of invocations of at least 1",
    ),
    case(
        &["solve", "FILE", "--jobs", "100000"],
        b"7 8 0/6 5 4/1 2 3",
        0,
        "capped at",
    ),
    case(
        &[
            "generate",
            "--size",
            "3x3",
            "--walk",
            "18446744073709551615",
        ],
        b"",
        2,
        "at most 10000000",
    ),
    case(&["generate", "--size", "3x3", "--count", "0"], b"", 0, ""),
    case(
        &["generate", "--size", "3x3", "--walk", "-5"],
        b"",
        2,
        "--walk",
    ),
    case(
        &["generate", "--size", "3x3", "--seed", "-5"],
        b"",
        2,
        "--seed",
    ),
    case(
        &["solve", "FILE", "--jobs", "-2"],
        b"7 8 0/6 5 4/1 2 3",
        2,
        "--jobs",
    ),
    case(
        &["solve", "FILE", "--batch-size", "-2"],
        b"7 8 0/6 5 4/1 2 3",
        2,
        "--batch-size",
    ),
    case(
        &["generate", "--size", "3x3", "--count", "-1"],
        b"",
        2,
        "--count",
    ),
];

#[test]
fn hostile_input_and_extreme_arguments_give_clear_errors() {
    for c in CASES {
        let file = temp_file("");
        std::fs::write(file.path(), c.input).expect("write input");
        let path = path_of(&file);
        let args: Vec<&str> = c
            .args
            .iter()
            .map(|&a| if a == "FILE" { path.as_str() } else { a })
            .collect();
        let o = output_within(command().args(&args), 60);
        let what = format!("{:?} on {:?}", c.args, String::from_utf8_lossy(c.input));
        no_panic(&what, &o);
        assert_eq!(o.code, c.code, "{what}: {}", o.stderr);
        let says = c.says.replace("FILE", &path);
        assert!(
            o.stderr.contains(&says),
            "{what}: wanted {says:?} in {}",
            o.stderr
        );
        if c.code == 2 {
            assert!(
                !o.stdout.contains("Minimum number of moves"),
                "{what}: {}",
                o.stdout
            );
        }
    }
}

// Moved from cli.rs: bad input, limits and outputs, one test each.

#[test]
fn custom_goal_file_of_wrong_size_is_exit_2() {
    let g = temp_file("1 2 3 4/5 6 7 8/9 10 11 0\n");
    let out = npuzzle(&["solve", "-", "--goal", &path_of(&g)], Some(HARD8));
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stdout.is_empty(), "{}", out.stdout);
    assert!(out.stderr.contains("--goal"), "{}", out.stderr);
    // A goal file that is not a board at all.
    let bad = temp_file("3\n1 2 3\n");
    let out = npuzzle(&["solve", "-", "--goal", &path_of(&bad)], Some(HARD8));
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr.contains(&format!("{}:2:", path_of(&bad))),
        "{}",
        out.stderr
    );
}

#[test]
fn bad_input_file_is_exit_2_with_file_and_line() {
    let f = temp_file("3\n1 2 3\n4 x 6\n7 8 0\n");
    let path = path_of(&f);
    let out = npuzzle(&["solve", &path], None);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stdout.is_empty(), "{}", out.stdout);
    assert!(
        out.stderr.contains(&format!("{path}:3: ")),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("\"x\""), "{}", out.stderr);

    let f = temp_file("# dup\n\n1 2 3/4 5 6/7 8 8\n");
    let path = path_of(&f);
    let out = npuzzle(&["solve", &path], None);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr.contains(&format!("{path}:3: ")),
        "{}",
        out.stderr
    );

    let out = npuzzle(&["solve", "-"], Some("1 2 3/4 5/6 7 0"));
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("<stdin>:1: "), "{}", out.stderr);

    let out = npuzzle(&["solve", "-"], Some("# nothing\n"));
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("<stdin>: "), "{}", out.stderr);
}

#[test]
fn missing_file_is_exit_2() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("nope.txt");
    let path = path.to_str().expect("utf-8");
    let out = npuzzle(&["solve", path], None);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains(path), "{}", out.stderr);
    let out = npuzzle(&["bench", path], None);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains(path), "{}", out.stderr);
}

#[test]
fn usage_errors_are_exit_2() {
    for args in [
        &["solve", "-", "--bogus"][..],
        &["--bogus"][..],
        &["frobnicate"][..],
        &["solve", "-", "--algorithm", "dfs"][..],
        &["solve", "-", "--heuristic", "nope"][..],
        &["solve", "-", "--format", "xml"][..],
        &["solve", "-", "--time-limit", "0"][..],
        &["solve", "-", "--time-limit", "-1"][..],
        &["generate"][..],
        &["generate", "--size", "1x3"][..],
        &["generate", "--size", "17x2"][..],
        &["generate", "--size", "three"][..],
        &["bench"][..],
    ] {
        let out = npuzzle(args, Some(HARD8));
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert!(!out.stderr.is_empty(), "{args:?}");
        assert!(
            !out.stdout.contains("Minimum number of moves"),
            "{args:?}: {}",
            out.stdout
        );
    }
}

#[test]
fn time_limit_is_exit_3() {
    let out = npuzzle(
        &[
            "solve",
            "-",
            "--time-limit",
            "0.01",
            "--algorithm",
            "idastar",
            "--heuristic",
            "hamming",
        ],
        Some("0 12 9 13/15 11 10 14/3 7 2 5/4 8 6 1"),
    );
    assert_eq!(out.code, 3, "{}", out.stderr);
    assert!(out.stderr.contains("time limit"), "{}", out.stderr);
    assert!(
        !out.stdout.contains("Minimum number of moves"),
        "{}",
        out.stdout
    );
}

#[test]
fn negative_time_limit_and_huge_memory_cap_are_clear_usage_errors() {
    // `--time-limit -1` read as an unknown argument; a 23-digit --max-memory gave the size
    // library's "couldn't parse \"\" into a known SI unit".
    let out = npuzzle(&["solve", "-", "--time-limit", "-1"], Some(EASY8));
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("--time-limit must be a positive number of seconds, got -1"),
        "{}",
        out.stderr
    );
    let out = npuzzle(
        &["solve", "-", "--max-memory", "99999999999999999999999"],
        Some(EASY8),
    );
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr.contains("more than this machine can address"),
        "{}",
        out.stderr
    );
    let out = npuzzle(&["solve", "-", "--max-memory", "lots"], Some(EASY8));
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr.contains("expected a size like 512MiB"),
        "{}",
        out.stderr
    );
}

#[test]
fn bfs_memory_cap_is_exit_3() {
    let out = npuzzle(
        &[
            "solve",
            "-",
            "--goal",
            "blank-first",
            "--algorithm",
            "bfs",
            "--max-memory",
            "1MiB",
        ],
        Some(KORF12),
    );
    assert_eq!(out.code, 3, "{}", out.stderr);
    assert!(out.stderr.contains("memory cap"), "{}", out.stderr);
    assert!(out.stderr.contains("1.0 MiB"), "{}", out.stderr);
    assert!(
        !out.stdout.contains("Minimum number of moves"),
        "{}",
        out.stdout
    );
}

#[test]
fn generate_walk_of_u64_max_is_refused_not_hung() {
    // It used to walk 2⁶⁴−1 moves, for ever.
    let out = npuzzle(
        &[
            "generate",
            "--size",
            "3x3",
            "--walk",
            "18446744073709551615",
            "--seed",
            "1",
        ],
        None,
    );
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("at most 10000000"), "{}", out.stderr);
    assert!(out.stdout.is_empty(), "{}", out.stdout);
    let out = npuzzle(
        &[
            "generate", "--size", "3x3", "--walk", "10000000", "--seed", "1",
        ],
        None,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout.lines().count(), 1);
}

#[test]
fn closed_stdout_is_exit_1_not_a_lost_answer() {
    // `>&-` closes standard output; the answer used to vanish with exit 0.
    let out = output(
        std::process::Command::new("sh")
            .args(["-c", "exec \"$0\" solve - >&-"])
            .arg(env!("CARGO_BIN_EXE_npuzzle"))
            .env("NPUZZLE_CACHE_DIR", common::bin::CACHE),
        Some(EASY8),
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stderr.contains("standard output is closed"),
        "{}",
        out.stderr
    );
    // A reader that goes away early (a broken pipe) is still a quiet success.
    let mut child = command()
        .args([
            "generate", "--size", "3x3", "--count", "1000000", "--seed", "1",
        ])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn npuzzle");
    let mut first = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stdout.take().expect("stdout")),
        &mut first,
    )
    .expect("first line");
    assert_eq!(first.split([' ', '/']).count(), 9, "{first}");
    let out = child.wait_with_output().expect("wait");
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A full disk is an error.
    if let Ok(full) = std::fs::File::create("/dev/full") {
        let file = temp_file(EASY8);
        let out = command()
            .args(["solve", &path_of(&file)])
            .stdout(full)
            .output()
            .expect("run npuzzle");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(err.contains("writing output"), "{err}");
    }
}
