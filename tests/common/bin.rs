//! Runs the `npuzzle` binary built for these tests, with a pattern-database cache of its own
//! (never the user's).

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use tempfile::NamedTempFile;

/// The 31-move 8-puzzle (blank-last goal).
pub const HARD8: &str = "8 6 7/2 5 4/3 0 1";
/// 26 moves from blank-last.
pub const EASY8: &str = "7 8 0/6 5 4/1 2 3";
/// Korf's instance 12 (45 moves to the blank-first goal).
pub const KORF12: &str = "14 1 9 6/4 8 12 5/7 2 3 0/10 11 13 15";
/// Korf's instance 9 (46 moves to the blank-first goal).
pub const KORF9: &str = "3 14 9 11/5 4 8 2/13 12 6 7/10 1 15 0";
/// The hard 8-puzzles, both goals (a bench file).
pub const HARD8_FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/bench/hard8.txt");

/// The pattern-database cache the tests' binaries use unless a test sets its own.
pub const CACHE: &str = concat!(env!("CARGO_TARGET_TMPDIR"), "/npuzzle-test-pdb-cache");

/// What a run of the binary printed, and its exit code.
pub struct Output {
    /// Exit code (a run killed by a signal fails the test).
    pub code: i32,
    /// Standard output, UTF-8.
    pub stdout: String,
    /// Standard error, UTF-8.
    pub stderr: String,
}

/// The binary, with `NPUZZLE_CACHE_DIR` set to [`CACHE`]; add arguments and environment.
pub fn command() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_npuzzle"));
    cmd.env("NPUZZLE_CACHE_DIR", CACHE);
    cmd
}

/// Runs `cmd`, feeding `stdin` when given (else an empty standard input), and collects what it
/// printed.
pub fn output(cmd: &mut Command, stdin: Option<&str>) -> Output {
    cmd.stdin(if stdin.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    })
    .stdout(Stdio::piped())
    .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("spawn npuzzle");
    if let Some(text) = stdin {
        let mut pipe = child.stdin.take().expect("stdin pipe");
        // The program may exit before reading (usage errors): a broken pipe is fine.
        if let Err(e) = pipe.write_all(text.as_bytes()) {
            assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "write stdin: {e}");
        }
    }
    let out = child.wait_with_output().expect("wait for npuzzle");
    Output {
        code: out
            .status
            .code()
            .expect("exit code (not killed by a signal)"),
        stdout: String::from_utf8(out.stdout).expect("utf-8 stdout"),
        stderr: String::from_utf8(out.stderr).expect("utf-8 stderr"),
    }
}

/// Runs the binary with `args`, feeding `stdin` when given.
pub fn npuzzle(args: &[&str], stdin: Option<&str>) -> Output {
    output(command().args(args), stdin)
}

/// Like [`npuzzle`], with extra environment variables.
pub fn npuzzle_env(args: &[&str], stdin: Option<&str>, env: &[(&str, &str)]) -> Output {
    output(command().args(args).envs(env.iter().copied()), stdin)
}

/// Makes a FIFO at `path` that nobody writes (the `mkfifo` command; the test fails without it).
pub fn mkfifo(path: &std::path::Path) {
    let made = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("run mkfifo");
    assert!(made.success(), "mkfifo {}", path.display());
}

/// A temporary file holding `text`.
pub fn temp_file(text: &str) -> NamedTempFile {
    let mut f = NamedTempFile::new().expect("temp file");
    f.write_all(text.as_bytes()).expect("write temp file");
    f.flush().expect("flush temp file");
    f
}

/// The path of a temporary file, as a string.
pub fn path_of(f: &NamedTempFile) -> String {
    f.path().to_str().expect("utf-8 temp path").to_string()
}

/// Solves with `--format json` plus `extra` flags; the board goes through stdin.
pub fn solve_json(start: &str, extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["solve", "-", "--format", "json"];
    args.extend_from_slice(extra);
    let out = npuzzle(&args, Some(start));
    assert_eq!(out.code, 0, "{args:?} on {start}: {}", out.stderr);
    serde_json::from_str(&out.stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {}", out.stdout))
}

/// Each line of `stdout` as a JSON object (every command's `--format json` prints JSON Lines).
pub fn json_lines(stdout: &str) -> Vec<serde_json::Value> {
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not a JSON line ({e}): {l}")))
        .collect()
}

/// No output of a run says that something panicked.
pub fn no_panic(what: &str, o: &Output) {
    for text in [&o.stdout, &o.stderr] {
        assert!(
            !text.contains("panicked") && !text.contains("RUST_BACKTRACE"),
            "{what}: {text}"
        );
    }
}

/// Runs `cmd` and fails the test if it has not exited within `secs` seconds (a hang is the
/// fault being tested for); the process is killed then.
pub fn output_within(cmd: &mut Command, secs: u64) -> Output {
    let path = std::env::temp_dir().join(format!(
        "npuzzle-faults-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    let (out, err) = (path.with_extension("out"), path.with_extension("err"));
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).expect("stdout file"))
        .stderr(std::fs::File::create(&err).expect("stderr file"))
        .spawn()
        .expect("spawn npuzzle");
    let deadline = Instant::now() + Duration::from_secs(secs);
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{cmd:?} still running after {secs} s");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let o = Output {
        code: status.code().expect("exit code (not killed by a signal)"),
        stdout: std::fs::read_to_string(&out).unwrap_or_default(),
        stderr: std::fs::read_to_string(&err).unwrap_or_default(),
    };
    let _ = (std::fs::remove_file(out), std::fs::remove_file(err));
    o
}

/// The board in `text` (any input format); the test fails on bad input.
pub fn parse(text: &str) -> npuzzle::puzzle::Board {
    npuzzle::puzzle::parse::parse_board(text, "<test>", None)
        .unwrap_or_else(|e| panic!("{text:?}: {e}"))
}

/// The goal board of `spec` for the size of `b`.
pub fn goal_board(
    spec: &npuzzle::puzzle::GoalSpec,
    b: &npuzzle::puzzle::Board,
) -> npuzzle::puzzle::Board {
    spec.resolve(b.rows(), b.cols())
        .expect("goal")
        .board()
        .clone()
}
