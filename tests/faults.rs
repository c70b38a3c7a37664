//! The fault-injection suite: the binary run on hostile input, extreme arguments, broken cache
//! files and folders, and failing outputs. Every case asserts the exit code, that stderr names
//! the problem, and that nothing panicked; cache cases also that `npuzzle pdb verify` passes
//! afterwards and that no temporary file is left behind. Small boards and tables keep it fast.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::bin::{EASY8, HARD8, KORF12, Output, command, npuzzle, output, path_of, temp_file};

/// No output of a run says that something panicked.
fn no_panic(what: &str, o: &Output) {
    for text in [&o.stdout, &o.stderr] {
        assert!(
            !text.contains("panicked") && !text.contains("RUST_BACKTRACE"),
            "{what}: {text}"
        );
    }
}

/// Runs `cmd` and fails the test if it has not exited within `secs` seconds (a hang is the
/// fault being tested for); the process is killed then.
fn output_within(cmd: &mut Command, secs: u64) -> Output {
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
        "time limit",
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
        "memory cap of 0 B",
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
        0,
        "",
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

/// A cache folder of its own, with `pdb:4,4` for 3×3 built in it (two tables of 3,024 entries).
fn small_cache() -> (tempfile::TempDir, Vec<PathBuf>) {
    let dir = tempfile::tempdir().expect("temp dir");
    let o = pdb(dir.path(), &["build", "pdb:4,4", "--size", "3x3"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let tables = tables_in(dir.path());
    assert_eq!(tables.len(), 2, "{tables:?}");
    (dir, tables)
}

/// `npuzzle pdb ARGS --cache-dir DIR`.
fn pdb(dir: &Path, args: &[&str]) -> Output {
    let o = output_within(
        command().arg("pdb").args(args).arg("--cache-dir").arg(dir),
        120,
    );
    no_panic(&format!("pdb {args:?}"), &o);
    o
}

/// The `*.pdb` entries of a folder, sorted.
fn tables_in(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .expect("read cache folder")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "pdb"))
        .collect();
    v.sort();
    v
}

/// Entries of a folder that are temporary files of a save.
fn temporaries_in(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .map(|rd| {
            rd.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with(".npuzzle-") || n.starts_with(".tmp"))
                .collect()
        })
        .unwrap_or_default()
}

/// Solves the 26-move 8-puzzle with `pdb:4,4` from the cache in `dir`.
fn solve_with_cache(dir: &Path) -> Output {
    let file = temp_file(EASY8);
    let o = output_within(
        command()
            .args([
                "solve",
                &path_of(&file),
                "--heuristic",
                "pdb:4,4",
                "--cache-dir",
            ])
            .arg(dir),
        60,
    );
    no_panic("solve with the cache", &o);
    o
}

/// After a fault: `pdb verify` passes, and no temporary file is left.
fn cache_is_sound(dir: &Path, what: &str) {
    let v = pdb(dir, &["verify"]);
    assert_eq!(v.code, 0, "{what}: verify: {}{}", v.stdout, v.stderr);
    assert_eq!(v.stdout.matches("  ok").count(), 2, "{what}: {}", v.stdout);
    assert_eq!(temporaries_in(dir), Vec::<String>::new(), "{what}");
}

/// A table file rewritten by `edit` (of its bytes), the checksum recomputed when `forge`.
fn rewrite(path: &Path, forge: bool, edit: impl FnOnce(&mut Vec<u8>)) {
    let mut bytes = std::fs::read(path).expect("read table");
    let hlen = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    edit(&mut bytes);
    if forge {
        let n = bytes.len();
        let crc = crc32fast::hash(&bytes[16..n - 4]);
        bytes[n - 4..].copy_from_slice(&crc.to_le_bytes());
        assert!(hlen > 0);
    }
    std::fs::write(path, bytes).expect("write table");
}

#[test]
fn broken_cache_files_are_rebuilt_never_trusted_and_never_hang() {
    type Fault = (&'static str, &'static str, fn(&Path));
    let faults: [Fault; 8] = [
        ("one byte flipped", "checksum mismatch", |p| {
            rewrite(p, false, |b| {
                let i = b.len() - 10;
                b[i] ^= 0x40;
            })
        }),
        ("truncated", "wrong number of entries", |p| {
            rewrite(p, false, |b| b.truncate(b.len() - 100))
        }),
        ("zero-length", "not a pattern-database file", |p| {
            std::fs::write(p, b"").unwrap()
        }),
        ("foreign", "not a pattern-database file", |p| {
            std::fs::write(p, b"#!/bin/sh\necho not a table\n").unwrap()
        }),
        (
            "forged: every entry 255, checksum valid",
            "implausible table",
            |p| {
                rewrite(p, true, |b| {
                    let n = b.len();
                    let hlen = u32::from_le_bytes(b[12..16].try_into().unwrap()) as usize;
                    for x in &mut b[16 + hlen..n - 4] {
                        if *x != 0 {
                            *x = 255;
                        }
                    }
                })
            },
        ),
        (
            "forged: every entry 30, checksum valid",
            "implausible table",
            |p| {
                rewrite(p, true, |b| {
                    let n = b.len();
                    let hlen = u32::from_le_bytes(b[12..16].try_into().unwrap()) as usize;
                    for x in &mut b[16 + hlen..n - 4] {
                        if *x != 0 {
                            *x = 30;
                        }
                    }
                })
            },
        ),
        ("a FIFO", "not a regular file (a FIFO)", |p| {
            std::fs::remove_file(p).unwrap();
            let ok = Command::new("mkfifo").arg(p).status().expect("mkfifo");
            assert!(ok.success());
        }),
        ("a folder", "not a regular file (a folder)", |p| {
            std::fs::remove_file(p).unwrap();
            std::fs::create_dir(p).unwrap();
        }),
    ];
    for (what, why, break_it) in faults {
        let (dir, tables) = small_cache();
        break_it(&tables[0]);
        // verify names the file and the reason, and fails.
        let v = pdb(dir.path(), &["verify"]);
        assert_eq!(v.code, 1, "{what}: {}", v.stdout);
        assert!(v.stdout.contains(why), "{what}: {}", v.stdout);
        // solve does not trust it: rebuilds (with a warning), answers right, never hangs.
        let o = solve_with_cache(dir.path());
        assert_eq!(o.code, 0, "{what}: {}", o.stderr);
        assert!(
            o.stdout.starts_with("Minimum number of moves = 26\n"),
            "{what}: {}",
            o.stdout
        );
        assert!(o.stderr.contains(why), "{what}: {}", o.stderr);
        if what == "a folder" {
            // Nothing can be saved over a folder: said, and the folder left alone.
            assert!(o.stderr.contains("could not save"), "{}", o.stderr);
            assert!(tables[0].is_dir());
            std::fs::remove_dir(&tables[0]).unwrap();
            assert_eq!(solve_with_cache(dir.path()).code, 0);
        }
        cache_is_sound(dir.path(), what);
    }
}

#[test]
fn an_interrupted_save_is_cleaned_up_and_a_killed_build_reruns() {
    let (dir, tables) = small_cache();
    // What a save killed before its rename leaves: a temporary file nobody holds.
    let orphan = dir.path().join(".npuzzle-AbC123.tmp");
    std::fs::write(&orphan, vec![7u8; 4096]).unwrap();
    let l = pdb(dir.path(), &["list"]);
    assert_eq!(l.code, 0);
    assert!(l.stdout.contains(".npuzzle-AbC123.tmp  unfinished temporary file, 4096 bytes: left by an interrupted save"), "{}", l.stdout);
    // The next build clears it, and says so.
    std::fs::remove_file(&tables[1]).unwrap();
    let o = solve_with_cache(dir.path());
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stderr.contains("removed 1 unfinished temporary file"),
        "{}",
        o.stderr
    );
    cache_is_sound(dir.path(), "after an orphaned temporary file");

    // A real build killed midway (pdb555 takes a few hundred milliseconds), then rerun.
    let big = tempfile::tempdir().unwrap();
    let mut child = command()
        .args(["pdb", "build", "pdb555", "--cache-dir"])
        .arg(big.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Kill it once it has started writing (or at the latest when it ends by itself).
    let deadline = Instant::now() + Duration::from_secs(60);
    while child.try_wait().unwrap().is_none()
        && tables_in(big.path()).is_empty()
        && temporaries_in(big.path()).is_empty()
        && Instant::now() < deadline
    {
        std::thread::yield_now();
    }
    let _ = child.kill();
    let _ = child.wait();
    let o = pdb(big.path(), &["build", "pdb555"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let v = pdb(big.path(), &["verify"]);
    assert_eq!(v.code, 0, "{}", v.stdout);
    assert_eq!(v.stdout.matches("  ok").count(), 3, "{}", v.stdout);
    assert_eq!(temporaries_in(big.path()), Vec::<String>::new());
}

#[test]
fn two_processes_building_one_table_at_once_both_succeed() {
    let dir = tempfile::tempdir().unwrap();
    let spawn = || {
        command()
            .args(["pdb", "build", "pdb555", "--cache-dir"])
            .arg(dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (a, b) = (spawn(), spawn());
    for c in [a, b] {
        let o = c.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(0), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    let v = pdb(dir.path(), &["verify"]);
    assert_eq!(v.code, 0, "{}", v.stdout);
    assert_eq!(v.stdout.matches("  ok").count(), 3, "{}", v.stdout);
    assert_eq!(temporaries_in(dir.path()), Vec::<String>::new());
}

#[test]
fn cache_folders_that_cannot_be_used_are_file_system_errors() {
    // A regular file where the folder should be; a folder nobody can write (/proc/self).
    let file = temp_file("x");
    for dir in [PathBuf::from(path_of(&file)), PathBuf::from("/proc/self")] {
        let o = pdb(&dir, &["build", "pdb:4,4", "--size", "3x3"]);
        assert_eq!(o.code, 1, "{dir:?}: {}", o.stderr);
        assert!(o.stderr.contains("could not save"), "{dir:?}: {}", o.stderr);
        // A solve still answers (the tables are built in memory), warning that they were not saved.
        let s = solve_with_cache(&dir);
        assert_eq!(s.code, 0, "{dir:?}: {}", s.stderr);
        assert!(s.stderr.contains("could not save"), "{dir:?}: {}", s.stderr);
    }
    let v = pdb(Path::new(&path_of(&file)), &["verify"]);
    assert_eq!(v.code, 1, "{}", v.stderr);
    assert!(
        v.stderr.contains("cannot read the cache folder") && v.stderr.contains("Not a directory"),
        "{}",
        v.stderr
    );

    // A set but empty NPUZZLE_CACHE_DIR is unset: the user's cache folder, for build and
    // list alike, and nothing written in the current folder.
    let home = tempfile::tempdir().unwrap();
    let cwd = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        output_within(
            command()
                .args(args)
                .current_dir(cwd.path())
                .env("NPUZZLE_CACHE_DIR", "")
                .env("HOME", home.path())
                .env_remove("XDG_CACHE_HOME"),
            60,
        )
    };
    assert_eq!(run(&["pdb", "build", "pdb:4,4", "--size", "3x3"]).code, 0);
    let l = run(&["pdb", "list"]);
    assert_eq!(l.stdout.lines().count(), 2, "{}", l.stdout);
    assert_eq!(std::fs::read_dir(cwd.path()).unwrap().count(), 0);
    assert_eq!(tables_in(&home.path().join(".cache/npuzzle/pdb")).len(), 2);
}

/// Full and read-only folders need a file system of their own: a small tmpfs, mounted when the
/// tests run as root (as in CI); skipped loudly otherwise.
#[test]
fn full_and_read_only_cache_folders_fail_cleanly() {
    let mount = |opts: &str| -> Option<tempfile::TempDir> {
        let dir = tempfile::tempdir().ok()?;
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", opts, "tmpfs"])
            .arg(dir.path())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        ok.then_some(dir)
    };
    let Some(full) = mount("size=768k") else {
        eprintln!(
            "SKIPPED full_and_read_only_cache_folders_fail_cleanly: cannot mount a tmpfs (not root)"
        );
        return;
    };
    // pdb555's tables take 1.5 MB: the first fits, the second does not.
    let o = pdb(full.path(), &["build", "pdb555"]);
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(o.stderr.contains("No space left on device"), "{}", o.stderr);
    let v = pdb(full.path(), &["verify"]);
    assert_eq!(v.code, 0, "{}", v.stdout);
    assert_eq!(v.stdout.matches("  ok").count(), 1, "{}", v.stdout);
    assert_eq!(temporaries_in(full.path()), Vec::<String>::new());
    let ro = mount("ro,size=256k").expect("mount a read-only tmpfs");
    let o = pdb(ro.path(), &["build", "pdb:4,4", "--size", "3x3"]);
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(o.stderr.contains("Read-only file system"), "{}", o.stderr);
    for d in [&full, &ro] {
        let _ = Command::new("umount").arg(d.path()).status();
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
