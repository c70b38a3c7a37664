//! The fault-injection suite, part two: broken cache files (flipped, truncated, empty, foreign,
//! forged with a valid checksum, a FIFO or folder in a table's place), a save killed midway,
//! concurrent builds, and cache folders that are a file, unwritable, full or read-only. Each
//! case asserts the exit code and the message, that nothing panicked, and that `npuzzle pdb
//! verify` passes afterwards with no temporary file left behind.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::bin::{EASY8, Output, command, no_panic, output_within, path_of, temp_file};

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

/// A table file rewritten by `edit` (of its bytes); the checksum is left as it was.
fn rewrite(path: &Path, edit: impl FnOnce(&mut Vec<u8>)) {
    let mut bytes = std::fs::read(path).expect("read table");
    edit(&mut bytes);
    std::fs::write(path, bytes).expect("write table");
}

/// A table file whose entries, all but the goal's 0, become `value`, with a valid checksum
/// (over header and entries, as the file format has it).
fn forge(path: &Path, value: u8) {
    rewrite(path, |b| {
        let n = b.len();
        let hlen = u32::from_le_bytes(b[12..16].try_into().unwrap()) as usize;
        for x in &mut b[16 + hlen..n - 4] {
            if *x != 0 {
                *x = value;
            }
        }
        let crc = crc32fast::hash(&b[16..n - 4]);
        b[n - 4..].copy_from_slice(&crc.to_le_bytes());
    })
}

#[test]
fn broken_cache_files_are_rebuilt_never_trusted_and_never_hang() {
    type Fault = (&'static str, &'static str, fn(&Path));
    let faults: [Fault; 8] = [
        ("one byte flipped", "checksum mismatch", |p| {
            rewrite(p, |b| {
                let i = b.len() - 10;
                b[i] ^= 0x40;
            })
        }),
        ("truncated", "wrong number of entries", |p| {
            rewrite(p, |b| b.truncate(b.len() - 100))
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
            |p| forge(p, 255),
        ),
        (
            "forged: every entry 30, checksum valid",
            "implausible table",
            |p| forge(p, 30),
        ),
        ("a FIFO", "not a regular file (a FIFO)", |p| {
            std::fs::remove_file(p).unwrap();
            common::bin::mkfifo(p);
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
    // A folder nobody can write (/proc/self).
    let dir = PathBuf::from("/proc/self");
    let o = pdb(&dir, &["build", "pdb:4,4", "--size", "3x3"]);
    assert_eq!(o.code, 1, "{dir:?}: {}", o.stderr);
    assert!(o.stderr.contains("could not save"), "{dir:?}: {}", o.stderr);
    // A solve still answers (the tables are built in memory), warning that they were not saved.
    let s = solve_with_cache(&dir);
    assert_eq!(s.code, 0, "{dir:?}: {}", s.stderr);
    assert!(s.stderr.contains("could not save"), "{dir:?}: {}", s.stderr);
    // A regular file given as the folder is refused at once, before any table is built (a
    // trial saw a solve build its tables, warn nine times and say "cached for next time").
    let file = temp_file("x");
    let dir = PathBuf::from(path_of(&file));
    for o in [
        pdb(&dir, &["build", "pdb:4,4", "--size", "3x3"]),
        pdb(&dir, &["verify"]),
        solve_with_cache(&dir),
    ] {
        assert_eq!(o.code, 2, "{}", o.stderr);
        assert!(o.stderr.contains("is not a folder"), "{}", o.stderr);
        assert!(!o.stderr.contains("could not save"), "{}", o.stderr);
    }

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

#[test]
fn a_damaged_pruning_automaton_is_said_and_rebuilt() {
    let dir = tempfile::tempdir().unwrap();
    let file = temp_file(EASY8);
    let solve = || {
        output_within(
            command()
                .args(["solve", &path_of(&file), "--algorithm", "idastar"])
                .args(["--heuristic", "manhattan", "--cache-dir"])
                .arg(dir.path()),
            60,
        )
    };
    // The first solve builds and keeps it, saying what it builds and where it keeps it.
    let o = solve();
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(!o.stderr.contains("warning"), "{}", o.stderr);
    let fsm = dir.path().join("3x3-moves14.fsm");
    assert!(fsm.is_file(), "{fsm:?}");
    let building = format!(
        "npuzzle: building IDA*'s pruning automaton for 3×3 (duplicate move strings of up to \
         14 moves), once per board shape, kept in {}\n",
        fsm.display()
    );
    assert!(o.stderr.contains(&building), "{}", o.stderr);
    // Damaged, it is said (as a damaged table is), rebuilt and kept again.
    std::fs::write(&fsm, b"garbage").unwrap();
    let o = solve();
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stderr.contains("warning") && o.stderr.contains("rebuilding the pruning automaton"),
        "{}",
        o.stderr
    );
    let o = solve();
    assert!(!o.stderr.contains("warning"), "{}", o.stderr);
    // Read back from the cache: nothing is built, nothing said.
    assert!(!o.stderr.contains("building"), "{}", o.stderr);
}
