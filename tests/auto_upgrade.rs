//! `--heuristic auto` on a fresh cache: a 4×4 board that `pdb555` answers quickly is answered
//! with it, without a build of `pdb78` (the switch itself, forecast and notes, is tested on
//! the devil board's measured iterations in `plan::upgrade`; building `pdb78` here would take
//! a minute).

mod common;

use common::bin::{KORF12, npuzzle};

#[test]
fn an_easy_board_keeps_the_quick_table() {
    let cache = tempfile::tempdir().unwrap();
    let dir = cache.path().to_str().unwrap();
    let args = [
        "solve",
        "-",
        "--format",
        "json",
        "--goal",
        "blank-first",
        "--cache-dir",
        dir,
    ];
    let out = npuzzle(&args, Some(KORF12));
    assert_eq!(out.code, 0, "{}", out.stderr);
    let j: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(j["moves"], 45, "{j}");
    assert_eq!(j["heuristic"], "pdb555", "{j}");
    assert!(
        out.stderr
            .contains("auto picked the pdb555 pattern database (built now")
    );
    assert!(!out.stderr.contains("looks hard"), "{}", out.stderr);
    // Nothing but pdb555's three tables (and the pruning automaton) was written.
    let tables = std::fs::read_dir(cache.path())
        .unwrap()
        .filter(|e| {
            !e.as_ref()
                .unwrap()
                .path()
                .to_string_lossy()
                .ends_with(".fsm")
        })
        .count();
    assert_eq!(tables, 3);
}
