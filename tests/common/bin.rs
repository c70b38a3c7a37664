//! Runs the `npuzzle` binary built for these tests, with a pattern-database cache of its own
//! (never the user's).

use std::io::Write;
use std::process::{Command, Stdio};

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
