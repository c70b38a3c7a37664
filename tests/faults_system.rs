//! The fault-injection suite, part three: what the system does to the binary (memory that
//! runs out before the cap, a standard output open for reading only, a pipe that never ends,
//! signals, file names that are not UTF-8) and the goal and length a bench line gives, which
//! every command must honour. Each case failed before the fix it guards.

mod common;

use std::io::Read;
use std::process::Stdio;
use std::time::{Duration, Instant};

use common::bin::{CACHE, EASY8, command, mkfifo, no_panic, npuzzle, output, path_of, temp_file};

/// The 8-puzzle at 31 moves from blank-first (and 25 from blank-last), as a bench line that
/// names its goal and states its length.
const HARD8_C: &str = "hard8_C blank_first 8 7 6 0 4 1 2 5 3 31\n";

/// A bench line's goal is the goal of `solve`, `compare` and the terminal `gui`, not only of
/// `bench`: they solved it towards blank-last (25 moves) and said nothing.
#[test]
fn a_goal_named_on_the_line_is_solved_towards_everywhere() {
    let file = temp_file(HARD8_C);
    let f = path_of(&file);
    let out = npuzzle(&["solve", &f, "--format", "json"], None);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let j: serde_json::Value = serde_json::from_str(&out.stdout).expect("JSON");
    assert_eq!(j["moves"], 31, "{}", out.stdout);
    assert_eq!(j["goal"], "blank-first", "{}", out.stdout);
    let out = npuzzle(&["compare", &f, "--heuristics", "manhattan"], None);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("(goal blank-first)"), "{}", out.stdout);
    assert!(out.stdout.contains("found 31 moves"), "{}", out.stdout);
    // The terminal's solve of `gui` (no display here).
    let out = output(
        command()
            .args(["gui", &f])
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY"),
        None,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.contains("Minimum number of moves = 31"),
        "{}",
        out.stdout
    );
    // The same goal given with --goal is fine; another is an error that names both.
    let out = npuzzle(&["solve", &f, "--goal", "blank-first"], None);
    assert_eq!(out.code, 0, "{}", out.stderr);
    refused_everywhere(
        &f,
        ":1: the line names the blank-first goal but --goal blank-last",
    );
}

/// `solve`, `compare` and `bench` of `file` with `--goal blank-last` are bad usage (exit 2)
/// whose message contains `said`.
fn refused_everywhere(file: &str, said: &str) {
    for cmd in ["solve", "compare", "bench"] {
        let out = npuzzle(&[cmd, file, "--goal", "blank-last"], None);
        assert_eq!(out.code, 2, "{cmd}: {}", out.stderr);
        assert!(out.stderr.contains(said), "{cmd}: {}", out.stderr);
    }
}

/// A length the line states that the optimal answer contradicts is reported (exit 1, as
/// `bench` reports a mismatch); the answer is still printed.
#[test]
fn a_stated_length_the_answer_contradicts_is_reported() {
    let file = temp_file("hard8_C blank_first 8 7 6 0 4 1 2 5 3 30\n");
    let f = path_of(&file);
    let out = npuzzle(&["solve", &f], None);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stdout.contains("Minimum number of moves = 31"),
        "{}",
        out.stdout
    );
    assert!(
        out.stderr
            .contains(":1: the file states 30 moves, but the optimal solution has 31"),
        "{}",
        out.stderr
    );
    let out = npuzzle(&["compare", &f, "--heuristics", "manhattan"], None);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stderr.contains("the file states 30 moves"),
        "{}",
        out.stderr
    );
}

/// `sh -c 'ulimit -v KIB; exec npuzzle ARGS'`, its output.
fn under_ulimit(kib: u64, args: &[&str]) -> common::bin::Output {
    let mut cmd = std::process::Command::new("sh");
    cmd.arg("-c")
        .arg(format!("ulimit -v {kib} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_npuzzle"))
        .args(args)
        .env("NPUZZLE_CACHE_DIR", CACHE);
    output(&mut cmd, None)
}

/// A* and BFS under an address-space limit: they aborted (exit 134, no message, no JSON) when
/// the allocator failed before the 4 GiB cap. The default cap now follows the memory the
/// process can have, and a refusal below an explicit cap ends the same clean way.
#[cfg(target_os = "linux")]
#[test]
fn memory_that_runs_out_before_the_cap_is_a_clean_stop() {
    let board = temp_file("11 14 13 1/2 3 12 4/15 7 9 5/10 6 8 0\n");
    let b = path_of(&board);
    let astar = ["solve", &b, "--goal", "blank-first", "--algorithm", "astar"];
    let astar = [
        &astar[..],
        &["--heuristic", "manhattan", "--format", "json"],
    ]
    .concat();
    // The default cap: half of what ulimit leaves, at most 4 GiB.
    let out = under_ulimit(400_000, &astar);
    no_panic("default cap", &out);
    assert_eq!(out.code, 3, "{}", out.stderr);
    let j: serde_json::Value = serde_json::from_str(&out.stdout).expect("JSON");
    let error = j["error"].as_str().unwrap_or_default();
    assert!(error.starts_with("memory cap of "), "{error}");
    assert!(!error.starts_with("memory cap of 4.0 GiB"), "{error}");
    assert_eq!(j["limit"], true);
    // A cap above what the system gives: the refusal is the stop.
    for args in [
        &[&astar[..], &["--max-memory", "16GiB"]].concat(),
        &[
            "solve",
            &b,
            "--goal",
            "blank-first",
            "--algorithm",
            "bfs",
            "--max-memory",
            "16GiB",
        ][..]
            .to_vec(),
    ] {
        let out = under_ulimit(400_000, args);
        no_panic("refused", &out);
        assert_eq!(out.code, 3, "{args:?}: {}", out.stderr);
        assert!(
            out.stderr
                .contains("memory ran out below the memory cap of 16.0 GiB"),
            "{args:?}: {}",
            out.stderr
        );
    }
    // A table that needs more than the system gives is refused before it is built.
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path().to_str().expect("utf-8");
    let args = [
        "pdb",
        "build",
        "pdb78",
        "--cache-dir",
        d,
        "--max-memory",
        "16GiB",
    ];
    let out = under_ulimit(300_000, &args);
    no_panic("pdb build", &out);
    assert_eq!(out.code, 3, "{}", out.stderr);
    assert!(
        out.stderr.contains("the system leaves this process"),
        "{}",
        out.stderr
    );
}

/// With standard output open for reading only, every write failed with EBADF, which the
/// standard library takes as written: the commands exited 0 having printed nothing.
#[cfg(target_os = "linux")]
#[test]
fn a_standard_output_open_for_reading_is_exit_1() {
    let board = temp_file(EASY8);
    let b = path_of(&board);
    let bench = temp_file("a 7 8 0 6 5 4 1 2 3\n");
    let runs: [&[&str]; 6] = [
        &["solve", &b],
        &["bench", &path_of(&bench)],
        &["generate", "--size", "3x3"],
        &["compare", &b, "--heuristics", "manhattan"],
        &["pdb", "list"],
        &["--help"],
    ];
    for args in runs {
        let readable = std::fs::File::open(&b).expect("open for reading");
        let out = command()
            .args(args)
            .stdin(Stdio::null())
            .stdout(readable)
            .output()
            .expect("run npuzzle");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains("standard output is open for reading only"),
            "{args:?}: {err}"
        );
    }
}

/// `--time-limit` covers reading the input: a pipe that never ends ran past it (a pipe held
/// open for 20 s took 20 s, then said "empty input").
#[test]
fn the_time_limit_covers_a_pipe_that_never_ends() {
    let mut child = command()
        .args(["solve", "--time-limit", "1", "--format", "json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn npuzzle");
    // The pipe stays open (never written, never closed) until the child has exited.
    let _held = child.stdin.take();
    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        assert!(Instant::now() < deadline, "still reading after 30 s");
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut stdout = String::new();
    let mut stderr = String::new();
    child
        .stdout
        .take()
        .expect("stdout")
        .read_to_string(&mut stdout)
        .expect("read");
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut stderr)
        .expect("read");
    assert_eq!(status.code(), Some(3), "{stderr}");
    let j: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    assert_eq!(j["limit"], true);
    let error = j["error"].as_str().unwrap_or_default();
    assert!(
        error.contains("time limit of 1 s reached while reading <stdin>: the input has not ended"),
        "{error}"
    );
}

/// SIGTERM and SIGINT during a save end the command in order: no temporary file left in the
/// cache (a killed `pdb build` left 2–4 MiB), and the process still ends by the signal, as a
/// shell expects. The saves are held before their rename, so the signal comes mid-save.
#[cfg(unix)]
#[test]
fn a_signal_during_a_save_leaves_no_temporary_file() {
    use std::os::unix::process::ExitStatusExt;
    for (signal, number) in [("TERM", 15), ("INT", 2)] {
        let dir = tempfile::tempdir().expect("temp dir");
        let d = dir.path().to_str().expect("utf-8");
        let mut child = command()
            .args(["pdb", "build", "pdb:4,4", "--size", "3x3", "--cache-dir", d])
            .env(npuzzle::files::HOLD_SAVES_ENV, "60000")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn npuzzle");
        let temporaries = || -> Vec<String> {
            std::fs::read_dir(dir.path())
                .expect("cache dir")
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".tmp"))
                .collect()
        };
        // The first save, held for a minute: waited for by polling, never by a fixed sleep.
        let deadline = Instant::now() + Duration::from_secs(60);
        while temporaries().is_empty() {
            assert!(
                child.try_wait().expect("wait").is_none(),
                "ended before saving"
            );
            assert!(Instant::now() < deadline, "no save began in 60 s");
            std::thread::sleep(Duration::from_millis(5));
        }
        let pid = child.id().to_string();
        let sent = std::process::Command::new("kill")
            .args([&format!("-{signal}"), &pid])
            .status()
            .expect("run kill");
        assert!(sent.success());
        let status = child.wait().expect("wait");
        assert_eq!(status.signal(), Some(number), "SIG{signal}: {status:?}");
        let left = temporaries();
        assert!(left.is_empty(), "SIG{signal} left {left:?}");
    }
}

/// A file name that is not UTF-8 is a file name: argument parsing refused it.
#[cfg(unix)]
#[test]
fn a_file_name_that_is_not_utf8_is_read() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir
        .path()
        .join(std::ffi::OsStr::from_bytes(b"board-\xff.txt"));
    std::fs::write(&path, EASY8).expect("write board");
    let out = output(command().arg("solve").arg(&path), None);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.contains("Minimum number of moves"),
        "{}",
        out.stdout
    );
}

/// A 3×2 goal for a 2×3 board said "expected 6 tiles for a 2×3 board, found 6".
#[test]
fn a_goal_of_another_shape_names_both_shapes() {
    let goal = temp_file("1 2/3 4/5 0\n");
    let out = npuzzle(
        &["solve", "-", "--goal", &path_of(&goal)],
        Some("1 2 3/4 0 5\n"),
    );
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("the goal board is 3×2 but the puzzle is 2×3"),
        "{}",
        out.stderr
    );
}

/// A relative `XDG_CACHE_HOME` is ignored (as the XDG specification says): where the tables
/// went instead is said.
#[cfg(target_os = "linux")]
#[test]
fn a_relative_cache_home_says_where_tables_go() {
    let home = tempfile::tempdir().expect("temp dir");
    let out = output(
        command()
            .args(["solve", "-", "--heuristic", "pdb:4,4"])
            .env_remove("NPUZZLE_CACHE_DIR")
            .env("HOME", home.path())
            .env("XDG_CACHE_HOME", "relative/cache"),
        Some("1 2 3/4 5 6/7 0 8\n"),
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let expected = home.path().join(".cache/npuzzle/pdb");
    assert!(
        out.stderr.contains(&format!(
            "XDG_CACHE_HOME (relative/cache) is not an absolute path and is ignored: tables are written to {}",
            expected.display()
        )),
        "{}",
        out.stderr
    );
}

/// A FIFO named on the command line is read until its writer closes it (a shell's `<(…)` is
/// one): `gui FIFO` sat silent, looking hung. Now it says what it waits for, and
/// `--time-limit` bounds the wait.
#[cfg(unix)]
#[test]
fn a_fifo_nobody_writes_is_said_and_bounded_by_the_time_limit() {
    let dir = tempfile::tempdir().expect("temp dir");
    let fifo = dir.path().join("board.txt");
    mkfifo(&fifo);
    let out = output(
        command()
            .arg("solve")
            .arg(&fifo)
            .args(["--time-limit", "1"]),
        None,
    );
    assert_eq!(out.code, 3, "{}", out.stderr);
    assert!(
        out.stderr.contains("a FIFO, until its writer closes it"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("reached while reading"),
        "{}",
        out.stderr
    );
}

/// The shipped benchmark files say their goal in a `# goal:` line, and every command honours
/// it: `bench` on Korf's 100 answered "unsolvable" a hundred times without `--goal
/// blank-first`. A `--goal` that contradicts the header is an error naming both.
#[test]
fn a_goal_header_is_honoured_by_every_command() {
    let korf = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/bench/korf100.txt");
    let text = std::fs::read_to_string(korf).expect("korf100.txt");
    assert!(
        text.contains("\n# goal: blank-first\n"),
        "the shipped file says its goal"
    );
    // Its three easiest boards (#79: 42, #12: 45, #55: 41 moves) under the same header.
    let header: String = text
        .lines()
        .filter(|l| l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    let boards: String = text
        .lines()
        .filter(|l| ["79 ", "12 ", "55 "].iter().any(|id| l.starts_with(id)))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(boards.lines().count(), 3, "{boards}");
    let file = temp_file(&(header + &boards));
    let f = path_of(&file);
    let out = npuzzle(
        &[
            "bench",
            &f,
            "--format",
            "json",
            "--heuristic",
            "linear-conflict",
        ],
        None,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let rows: Vec<serde_json::Value> = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    let moves: Vec<u64> = rows.iter().filter_map(|r| r["moves"].as_u64()).collect();
    assert_eq!(moves, [45, 41, 42], "{}", out.stdout);
    // `solve` and `compare` of one of its lines, with the header.
    let one = temp_file("# goal: blank-first\n79 0 1 9 7 11 13 5 3 14 12 4 2 8 6 10 15 42\n");
    let one = path_of(&one);
    let out = npuzzle(
        &[
            "solve",
            &one,
            "--format",
            "json",
            "--heuristic",
            "linear-conflict",
        ],
        None,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let j: serde_json::Value = serde_json::from_str(&out.stdout).expect("JSON");
    assert_eq!(
        (j["moves"].as_u64(), j["goal"].as_str()),
        (Some(42), Some("blank-first"))
    );
    refused_everywhere(
        &one,
        ":1: the file's \"# goal:\" line names the blank-first goal but --goal blank-last",
    );
}
