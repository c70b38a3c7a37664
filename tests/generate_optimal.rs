//! `npuzzle generate --optimal D`: boards exactly D moves from the goal, as a bench file that
//! `npuzzle bench` reads, the same for the same seed; a D no board has is refused.

mod common;

use common::bfs_distance;
use common::bin::{npuzzle, temp_file};
use npuzzle::heuristic::HeuristicKind;
use npuzzle::puzzle::{Board, Goal, GoalSpec};
use npuzzle::search::{Algorithm, Limits, Outcome, Problem, solve};

/// `generate --optimal` with `args`: its lines (exit 0 asserted).
fn generate(args: &[&str]) -> Vec<String> {
    let mut all = vec!["generate"];
    all.extend_from_slice(args);
    let out = npuzzle(&all, None);
    assert_eq!(out.code, 0, "{all:?}: {}", out.stderr);
    out.stdout.lines().map(str::to_string).collect()
}

/// The boards of bench lines (`id tiles… length`), each with its id and stated length.
fn boards(lines: &[String], rows: usize, cols: usize) -> Vec<(usize, Board, u32)> {
    lines
        .iter()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let n: Vec<u32> = l.split_whitespace().map(|t| t.parse().unwrap()).collect();
            let tiles: Vec<u8> = n[1..n.len() - 1].iter().map(|&t| t as u8).collect();
            let b = Board::from_u8(rows, cols, &tiles).unwrap();
            (n[0] as usize, b, n[n.len() - 1])
        })
        .collect()
}

/// `board`'s optimal length, by IDA* with Manhattan distance (not the heuristic `generate`
/// picks).
fn ida_length(board: &Board, goal: &Goal) -> u32 {
    let p = Problem {
        start: board.clone(),
        goal: goal.clone(),
    };
    match solve(
        &p,
        Algorithm::IdaStar,
        HeuristicKind::Manhattan,
        &Limits::default(),
        &mut |_| {},
    )
    .unwrap()
    {
        Outcome::Solved(s) => s.moves.len() as u32,
        Outcome::Unsolvable(_) => panic!("{board} is unsolvable"),
    }
}

#[test]
fn boards_3x3_are_exactly_d_moves_away_by_bfs() {
    let lines = generate(&[
        "--size",
        "3x3",
        "--optimal",
        "20",
        "--count",
        "6",
        "--seed",
        "4",
    ]);
    assert_eq!(lines[1], "# goal: blank-last", "{lines:?}");
    let goal = GoalSpec::BlankLast.resolve(3, 3).unwrap();
    let found = boards(&lines, 3, 3);
    assert_eq!(found.len(), 6);
    for (i, (id, b, length)) in found.iter().enumerate() {
        assert_eq!((*id, *length), (i + 1, 20));
        assert_eq!(bfs_distance(b, goal.board()), Some(20), "{b}");
    }
    // Only two boards are 31 moves away, whatever the count asked.
    let far = boards(
        &generate(&[
            "--size",
            "3x3",
            "--optimal",
            "31",
            "--count",
            "5",
            "--seed",
            "1",
        ]),
        3,
        3,
    );
    assert_eq!(far.len(), 2);
}

/// Depths beyond the exact enumeration's reach (above 20 on 4×4).
#[test]
fn boards_3x4_and_4x4_by_solving_walks_are_exactly_d_moves_away() {
    for (size, rows, cols, depth, goal) in [
        ("3x4", 3, 4, "31", GoalSpec::BlankLast),
        ("4x4", 4, 4, "24", GoalSpec::BlankFirst),
    ] {
        let name = goal.name();
        let args = [
            "--size",
            size,
            "--optimal",
            depth,
            "--count",
            "4",
            "--seed",
            "9",
            "--goal",
            name,
        ];
        let lines = generate(&args);
        assert_eq!(lines, generate(&args), "the same seed, the same boards");
        let g = goal.resolve(rows, cols).unwrap();
        let found = boards(&lines, rows, cols);
        assert_eq!(found.len(), 4, "{lines:?}");
        let d: u32 = depth.parse().unwrap();
        for (_, b, length) in &found {
            assert_eq!(*length, d);
            assert_eq!(ida_length(b, &g), d, "{b}");
        }
        let other = generate(&[
            "--size",
            size,
            "--optimal",
            depth,
            "--count",
            "4",
            "--seed",
            "10",
            "--goal",
            name,
        ]);
        assert_ne!(lines, other, "another seed, other boards");
    }
}

/// A small D on a shape without a distance table is enumerated: every board at D, drawn
/// uniformly, and all of them (with a note) when fewer exist than asked; this ended only at a
/// time limit when the walks looked for boards that did not exist.
#[test]
fn a_small_depth_is_enumerated_exactly() {
    let out = npuzzle(
        &[
            "generate",
            "--size",
            "3x4",
            "--optimal",
            "1",
            "--count",
            "3",
            "--seed",
            "1",
        ],
        None,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let lines: Vec<String> = out.stdout.lines().map(str::to_string).collect();
    let found = boards(&lines, 3, 4);
    assert_eq!(found.len(), 2, "{lines:?}");
    assert!(
        lines[0].contains("2 3×4 boards exactly 1 move from"),
        "{lines:?}"
    );
    assert!(
        out.stderr
            .contains("only 2 boards of this shape are 1 move from the goal"),
        "{}",
        out.stderr
    );
    // 4×4: ten boards are 3 moves from the goal (OEIS A089473), all given, each distinct and
    // 3 moves away.
    let lines = generate(&[
        "--size",
        "4x4",
        "--optimal",
        "3",
        "--count",
        "50",
        "--seed",
        "2",
    ]);
    let goal = GoalSpec::BlankLast.resolve(4, 4).unwrap();
    let found = boards(&lines, 4, 4);
    assert_eq!(found.len(), 10, "{lines:?}");
    let distinct: std::collections::HashSet<_> = found.iter().map(|f| &f.1).collect();
    assert_eq!(distinct.len(), 10);
    for (_, b, length) in &found {
        assert_eq!((*length, ida_length(b, &goal)), (3, 3), "{b}");
    }
    // A larger layer (447,342 boards at 18 moves), drawn by seed.
    let args = [
        "--size",
        "4x4",
        "--optimal",
        "18",
        "--count",
        "4",
        "--seed",
        "5",
    ];
    let lines = generate(&args);
    assert_eq!(lines, generate(&args), "the same seed, the same boards");
    for (_, b, length) in &boards(&lines, 4, 4) {
        assert_eq!((*length, ida_length(b, &goal)), (18, 18), "{b}");
    }
}

/// Walks that keep finding no new board stop, with the boards found.
#[test]
fn walks_without_new_boards_stop() {
    use npuzzle::search::at_depth::{Ended, STALL, boards_at_depth};
    use rand::SeedableRng;
    let goal = GoalSpec::BlankLast.resolve(4, 4).unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let mut solved = 0u64;
    // Every candidate "solved" at 41 moves: none is ever at 40.
    let found = boards_at_depth(
        &goal,
        40,
        3,
        &mut rng,
        None,
        &mut |_| {
            solved += 1;
            Ok(41)
        },
        &mut |_| {},
    )
    .unwrap();
    assert_eq!((found.boards.len(), found.ended), (0, Ended::Stalled));
    assert_eq!(solved, STALL);
}

#[test]
fn bench_reads_the_output() {
    let lines = generate(&[
        "--size",
        "3x4",
        "--optimal",
        "15",
        "--count",
        "3",
        "--seed",
        "2",
    ]);
    let file = temp_file(&(lines.join("\n") + "\n"));
    let path = file.path().to_str().unwrap();
    let out = npuzzle(&["bench", path, "--size", "3x4", "--jobs", "1"], None);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
}

#[test]
fn a_depth_beyond_the_diameter_is_refused() {
    for (size, depth, diameter) in [
        ("3x3", "32", "31"),
        ("4x4", "81", "80"),
        ("4x3", "54", "53"),
    ] {
        let out = npuzzle(&["generate", "--size", size, "--optimal", depth], None);
        assert_eq!(out.code, 2, "{size} {depth}: {}", out.stderr);
        assert!(
            out.stderr.contains(&format!("the farthest are {diameter}")),
            "{}",
            out.stderr
        );
        assert!(out.stdout.is_empty());
    }
    let out = npuzzle(
        &["generate", "--size", "3x3", "--optimal", "5", "--walk", "5"],
        None,
    );
    assert_eq!(out.code, 2, "{}", out.stderr);
}
