//! The app and the files it reads: special files never block the window, the recent files
//! list is read within bounds, and a bench line's goal and length are the puzzle's.
#![cfg(feature = "gui")]

mod common;

use std::time::{Duration, Instant};

use common::harness::harness;
use npuzzle::app::Recent;
use npuzzle::puzzle::GoalSpec;

/// A FIFO nobody writes, made in a fresh folder.
fn fifo(dir: &std::path::Path, name: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    common::bin::mkfifo(&path);
    path
}

/// Opening a FIFO from the Recent list, Open… or a drop blocked the window's thread in
/// `open()` until something wrote to it: now it is refused at once, the puzzle kept.
#[cfg(unix)]
#[test]
fn a_fifo_is_refused_without_blocking_the_window() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = fifo(dir.path(), "board.txt");
    let mut h = harness("8 6 7/2 5 4/3 0 1");
    let before = h.state().st.board().clone();
    // A blocked open never returns: a watchdog fails the test (the whole process) instead of
    // letting it hang.
    let (done, watched) = std::sync::mpsc::channel::<()>();
    std::thread::spawn(move || {
        if watched.recv_timeout(Duration::from_secs(30)).is_err() {
            eprintln!("load_file blocked on a FIFO for 30 s");
            std::process::exit(101);
        }
    });
    let t = Instant::now();
    let loaded = h.state_mut().st.load_file(&path);
    let _ = done.send(());
    // A refusal returns at once (the bound is generous).
    assert!(t.elapsed() < Duration::from_secs(5));
    assert!(!loaded);
    assert_eq!(*h.state().st.board(), before);
    let m = h.state().st.messages.last().cloned().unwrap_or_default();
    assert!(m.contains("a FIFO, not a regular file"), "{m}");
    assert!(m.contains("(puzzle kept)"), "{m}");
    // A device behind a link: refused the same way (it was read without bound).
    let link = dir.path().join("zero.txt");
    std::os::unix::fs::symlink("/dev/zero", &link).expect("symlink");
    assert!(!h.state_mut().st.load_file(&link));
    let m = h.state().st.messages.last().cloned().unwrap_or_default();
    assert!(m.contains("a device, not a regular file"), "{m}");
}

/// `recent.json` as a FIFO left the window black forever, as a link to `/dev/zero` grew
/// memory without bound; damaged, it is ignored with a message.
#[cfg(unix)]
#[test]
fn a_recent_list_that_is_no_list_is_ignored_with_a_message() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = fifo(dir.path(), "recent.json");
    let (list, why) = Recent::load_from(&path);
    assert!(list.paths().is_empty());
    assert!(
        why.unwrap_or_default()
            .contains("a FIFO, not a regular file")
    );
    let zero = dir.path().join("zero.json");
    std::os::unix::fs::symlink("/dev/zero", &zero).expect("symlink");
    let (list, why) = Recent::load_from(&zero);
    assert!(list.paths().is_empty());
    assert!(why.unwrap_or_default().contains("a device"));
    let big = dir.path().join("big.json");
    std::fs::write(&big, vec![b' '; 1 << 20]).expect("write");
    let (_, why) = Recent::load_from(&big);
    assert!(why.unwrap_or_default().contains("larger than 64.0 KiB"));
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, b"{\"not\": \"a list\"}").expect("write");
    let (list, why) = Recent::load_from(&bad);
    assert!(list.paths().is_empty());
    assert!(why.unwrap_or_default().contains("not a list of files"));
    // A good list, and no file at all (no message).
    let good = dir.path().join("good.json");
    std::fs::write(&good, b"[\"/a/board.txt\"]").expect("write");
    let (list, why) = Recent::load_from(&good);
    assert_eq!(list.paths(), [std::path::PathBuf::from("/a/board.txt")]);
    assert!(why.is_none());
    let (list, why) = Recent::load_from(&dir.path().join("none.json"));
    assert!(list.paths().is_empty() && why.is_none());
}

/// A bench line that names its goal is solved towards it in the app too (it solved towards
/// blank-last: 25 moves), and the length it states is kept to compare with the answer.
#[test]
fn a_bench_lines_goal_and_length_are_the_puzzles() {
    let mut h = harness("1 2 3/4 5 6/7 8 0");
    let st = &mut h.state_mut().st;
    assert!(st.load_text("hard8_C blank_first 8 7 6 0 4 1 2 5 3 31\n", "h.txt"));
    assert_eq!(*st.goal_spec(), GoalSpec::BlankFirst);
    assert_eq!(st.stated_length(), Some(31));
    let m = st.messages.last().cloned().unwrap_or_default();
    assert!(
        m.contains("h.txt:1: the line names the blank-first goal"),
        "{m}"
    );
    // Another board without a length forgets the stated one.
    assert!(st.load_text("1 2 3/4 5 6/7 0 8", "<pasted>"));
    assert_eq!(st.stated_length(), None);
}
