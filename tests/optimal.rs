//! Optimal lengths from independent sources: a full BFS of the 3×3 space, the published
//! hardest 8-puzzles and Korf's 15-puzzles; every solution replayed.

mod common;

use common::{board, exact_distances, goal, korf100, replay};
use npuzzle::heuristic::HeuristicKind;
use npuzzle::puzzle::random::{random_solvable, random_walk};
use npuzzle::puzzle::{Board, GoalSpec};
use npuzzle::search::{Algorithm, Limits, Outcome, Problem, Solution, solve};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn run(start: &Board, spec: &GoalSpec, algo: Algorithm, h: HeuristicKind) -> Solution {
    let problem = Problem {
        start: start.clone(),
        goal: goal(spec, start.rows(), start.cols()),
    };
    match solve(&problem, algo, h, &Limits::default(), &mut |_| {}) {
        Ok(Outcome::Solved(s)) => {
            assert_eq!(&replay(start, &s.moves), problem.goal.board());
            s
        }
        other => panic!("{start}: {other:?}"),
    }
}

#[test]
fn hardest_8_puzzles_are_31_moves() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/bench/hard8.txt"
    ))
    .unwrap();
    let mut seen = 0;
    for l in text.lines().filter(|l| l.starts_with("hard8_")) {
        let f: Vec<&str> = l.split_whitespace().collect();
        let spec = npuzzle::puzzle::parse::goal_name(f[1]).unwrap();
        let tiles: Vec<u8> = f[2..11].iter().map(|t| t.parse().unwrap()).collect();
        let opt: usize = f[11].parse().unwrap();
        let b = board(3, 3, &tiles);
        for algo in [Algorithm::Bfs, Algorithm::AStar, Algorithm::IdaStar] {
            for h in HeuristicKind::ALL {
                assert_eq!(run(&b, &spec, algo, h).moves.len(), opt, "{l} {algo} {h}");
            }
        }
        seen += 1;
    }
    assert_eq!(seen, 4);
}

#[test]
fn random_3x3_boards_match_exact_distances() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for spec in [GoalSpec::BlankLast, GoalSpec::BlankFirst] {
        let g = goal(&spec, 3, 3);
        let dist = exact_distances(g.board());
        for i in 0..150 {
            let b = random_solvable(&g, &mut rng);
            let d = dist[b.tiles()] as usize;
            let algo = [Algorithm::AStar, Algorithm::IdaStar, Algorithm::Bfs][i % 3];
            let h = HeuristicKind::ALL[i % HeuristicKind::ALL.len()];
            assert_eq!(run(&b, &spec, algo, h).moves.len(), d, "{b} {algo} {h}");
        }
    }
}

#[test]
fn library_distance_table_matches_test_bfs() {
    for spec in [GoalSpec::BlankLast, GoalSpec::BlankFirst] {
        let g = goal(&spec, 3, 3);
        let table = npuzzle::search::bfs::distance_table(&g).unwrap();
        let dist = exact_distances(g.board());
        assert_eq!(table.iter().filter(|&&d| d != u8::MAX).count(), 181_440);
        for (tiles, &d) in &dist {
            assert_eq!(table[npuzzle::search::rank::rank(tiles) as usize] as u32, d);
        }
        // Depth distribution from assets/bench/hard8.txt (OEIS A089473).
        let mut counts = [0u32; 32];
        table
            .iter()
            .filter(|&&d| d != u8::MAX)
            .for_each(|&d| counts[d as usize] += 1);
        assert_eq!(&counts[28..], &[3910, 760, 221, 2]);
    }
}

fn korf_ida(ids: &[u32]) {
    let all = korf100();
    for &id in ids {
        let (_, tiles, opt) = all.iter().find(|k| k.0 == id).unwrap();
        let b = board(4, 4, tiles);
        let s = run(
            &b,
            &GoalSpec::BlankFirst,
            Algorithm::IdaStar,
            HeuristicKind::LinearConflict,
        );
        assert_eq!(s.moves.len() as u32, *opt, "Korf #{id}");
        // Thresholds start at h(start), rise by 2 (parity) and end at the optimum.
        let t: Vec<u32> = s.stats.iterations.iter().map(|i| i.threshold).collect();
        assert_eq!(t[0], s.stats.initial_h);
        assert!(t.windows(2).all(|w| w[1] == w[0] + 2), "{t:?}");
        assert_eq!(*t.last().unwrap(), *opt);
    }
}

// The first 10 of Korf's 100, split in two so the test harness runs them on both cores.
#[test]
fn korf_1_to_10_odd() {
    korf_ida(&[1, 3, 5, 7, 9]);
}

#[test]
fn korf_1_to_10_even() {
    korf_ida(&[2, 4, 6, 8, 10]);
}

/// The file's note: rotate 180° and relabel t → 16−t to get the blank-last twin, same length.
#[test]
fn korf_blank_last_twins_have_the_same_length() {
    for (id, tiles, opt) in korf100().into_iter().filter(|k| [9, 12, 26].contains(&k.0)) {
        let mut twin = vec![0u8; 16];
        for p in 0..16 {
            twin[15 - p] = if tiles[p] == 0 { 0 } else { 16 - tiles[p] };
        }
        let b = board(4, 4, &twin);
        let s = run(
            &b,
            &GoalSpec::BlankLast,
            Algorithm::IdaStar,
            HeuristicKind::LinearConflict,
        );
        assert_eq!(s.moves.len() as u32, opt, "twin of Korf #{id}");
    }
}

#[test]
fn rectangular_boards_agree_across_algorithms() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    for (r, c) in [(2, 5), (5, 2), (3, 4), (4, 3), (2, 6)] {
        for spec in [GoalSpec::BlankLast, GoalSpec::BlankFirst] {
            let g = goal(&spec, r, c);
            for _ in 0..4 {
                let k = rng.random_range(10..30);
                let b = random_walk(&g, k, &mut rng);
                let bfs = run(&b, &spec, Algorithm::Bfs, HeuristicKind::Manhattan)
                    .moves
                    .len();
                assert!(bfs <= k);
                for h in HeuristicKind::ALL {
                    if h.supports(r, c).is_err() {
                        continue;
                    }
                    assert_eq!(run(&b, &spec, Algorithm::AStar, h).moves.len(), bfs, "{b}");
                    assert_eq!(
                        run(&b, &spec, Algorithm::IdaStar, h).moves.len(),
                        bfs,
                        "{b}"
                    );
                }
            }
        }
    }
}

#[test]
fn larger_boards_from_short_walks() {
    // 5×5 and 6×6: IDA* + linear conflict finds paths no longer than the walk, and A* agrees.
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    for (r, c) in [(5, 5), (6, 6), (3, 8), (10, 10)] {
        let g = goal(&GoalSpec::BlankLast, r, c);
        let b = random_walk(&g, 24, &mut rng);
        let ida = run(
            &b,
            &GoalSpec::BlankLast,
            Algorithm::IdaStar,
            HeuristicKind::LinearConflict,
        );
        let astar = run(
            &b,
            &GoalSpec::BlankLast,
            Algorithm::AStar,
            HeuristicKind::Manhattan,
        );
        assert_eq!(ida.moves.len(), astar.moves.len(), "{b}");
        assert!(ida.moves.len() <= 24);
    }
}
