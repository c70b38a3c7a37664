//! Heuristics against exact distances: admissible, consistent, ordered; incremental = full.

mod common;

use common::{board, exact_distances, goal, neighbours};
use npuzzle::heuristic::{
    Hamming, Heuristic, HeuristicKind, Incremental, LinearConflict, Manhattan, MaxOf,
    WalkingDistance,
};
use npuzzle::puzzle::random::{random_solvable, random_walk};
use npuzzle::puzzle::{Board, GoalSpec, Move};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const GOALS: [GoalSpec; 2] = [GoalSpec::BlankLast, GoalSpec::BlankFirst];

/// Every reachable board of a shape: each heuristic admissible, consistent, 0 at the goal,
/// linear conflict ≥ Manhattan ≥ Hamming, walking distance ≥ Manhattan (its relaxation
/// without the blank), and `wd-lc` the larger of walking distance and linear conflict.
fn check_space(rows: usize, cols: usize, spec: &GoalSpec) {
    let g = goal(spec, rows, cols);
    let dist = exact_distances(g.board());
    let hs: Vec<Box<dyn Heuristic>> = HeuristicKind::ALL.iter().map(|k| k.build(&g)).collect();
    for (tiles, &d) in &dist {
        let v: Vec<u32> = hs.iter().map(|h| h.estimate(tiles)).collect();
        for (h, &x) in hs.iter().zip(&v) {
            assert!(x <= d, "{:?} = {x} > {d} on {tiles:?}", h.name());
            if d == 0 {
                assert_eq!(x, 0);
            }
        }
        assert!(
            v[2] >= v[1] && v[1] >= v[0] && v[3] >= v[1] && v[4] == v[2].max(v[3]),
            "order broken on {tiles:?}: {v:?}"
        );
        for n in neighbours(tiles, rows, cols) {
            for h in &hs {
                let (a, b) = (h.estimate(tiles), h.estimate(&n));
                assert!(
                    a.abs_diff(b) <= 1,
                    "{:?} inconsistent: {a} vs {b}",
                    h.name()
                );
            }
        }
    }
}

#[test]
fn whole_3x3_space_both_goals() {
    for spec in &GOALS {
        check_space(3, 3, spec);
    }
}

#[test]
fn whole_2x4_and_4x2_spaces_both_goals() {
    for (r, c) in [(2, 4), (4, 2), (2, 3), (3, 2)] {
        for spec in &GOALS {
            check_space(r, c, spec);
        }
    }
}

/// "+2 for every conflicting pair": the popular but inadmissible variant.
fn pairwise_conflicts(b: &Board, g: &Board) -> u32 {
    let (rows, cols) = (b.rows(), b.cols());
    let pos = |t: u8| g.tiles().iter().position(|&x| x == t).unwrap();
    let mut extra = 0;
    for r in 0..rows {
        let line: Vec<usize> = (0..cols)
            .map(|c| b.get(r, c))
            .filter(|&t| t != 0 && pos(t) / cols == r)
            .map(|t| pos(t) % cols)
            .collect();
        for i in 0..line.len() {
            for j in i + 1..line.len() {
                extra += 2 * u32::from(line[i] > line[j]);
            }
        }
    }
    for c in 0..cols {
        let line: Vec<usize> = (0..rows)
            .map(|r| b.get(r, c))
            .filter(|&t| t != 0 && pos(t) % cols == c)
            .map(|t| pos(t) / cols)
            .collect();
        for i in 0..line.len() {
            for j in i + 1..line.len() {
                extra += 2 * u32::from(line[i] > line[j]);
            }
        }
    }
    extra
}

#[test]
fn pairwise_linear_conflict_overestimates_but_ours_does_not() {
    let g = goal(&GoalSpec::BlankLast, 3, 3);
    let b: Board = "7 8 0/6 5 4/1 2 3".parse().unwrap();
    let d = exact_distances(g.board())[b.tiles()];
    assert_eq!(d, 26);
    let md = Manhattan::new(&g).estimate(b.tiles());
    assert_eq!(md + pairwise_conflicts(&b, g.board()), 28);
    let lc = LinearConflict::new(&g).estimate(b.tiles());
    assert!(lc <= 26 && lc > md, "lc = {lc}, md = {md}");
}

/// Minimum number of tiles to remove from `seq` so the rest is increasing, by brute force.
fn min_removals(seq: &[usize]) -> u32 {
    let k = seq.len();
    (0u32..1 << k)
        .filter(|mask| {
            let kept: Vec<usize> = (0..k)
                .filter(|i| mask & (1 << i) != 0)
                .map(|i| seq[i])
                .collect();
            kept.windows(2).all(|w| w[0] < w[1])
        })
        .map(|mask| k as u32 - mask.count_ones())
        .min()
        .unwrap()
}

/// Linear conflict from its definition, independently of the library.
fn reference_lc(b: &Board, g: &Board) -> u32 {
    let (rows, cols) = (b.rows(), b.cols());
    let pos = |t: u8| g.tiles().iter().position(|&x| x == t).unwrap();
    let md: u32 = (0..b.len())
        .filter(|&i| b.tiles()[i] != 0)
        .map(|i| {
            let p = pos(b.tiles()[i]);
            ((i / cols).abs_diff(p / cols) + (i % cols).abs_diff(p % cols)) as u32
        })
        .sum();
    let mut lines = 0;
    for r in 0..rows {
        let line: Vec<usize> = (0..cols)
            .map(|c| b.get(r, c))
            .filter(|&t| t != 0 && pos(t) / cols == r)
            .map(|t| pos(t) % cols)
            .collect();
        lines += min_removals(&line);
    }
    for c in 0..cols {
        let line: Vec<usize> = (0..rows)
            .map(|r| b.get(r, c))
            .filter(|&t| t != 0 && pos(t) % cols == c)
            .map(|t| pos(t) / cols)
            .collect();
        lines += min_removals(&line);
    }
    md + 2 * lines
}

#[test]
fn linear_conflict_matches_its_definition_on_random_boards() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for (r, c) in [(3, 3), (4, 4), (5, 5), (3, 7), (7, 3), (2, 9)] {
        for spec in &GOALS {
            let g = goal(spec, r, c);
            let lc = LinearConflict::new(&g);
            for _ in 0..300 {
                // Walks keep many tiles in their lines, so conflicts are common.
                let b = if rng.random_bool(0.5) {
                    random_solvable(&g, &mut rng)
                } else {
                    let k = rng.random_range(0..40);
                    random_walk(&g, k, &mut rng)
                };
                assert_eq!(lc.estimate(b.tiles()), reference_lc(&b, g.board()), "{b}");
            }
        }
    }
}

fn check_incremental<H: Incremental>(h: &H, start: &Board, moves: usize, rng: &mut ChaCha8Rng) {
    let mut tiles = start.tiles().to_vec();
    let (rows, cols) = (start.rows(), start.cols());
    let (mut st, mut cur) = h.init(&tiles);
    assert_eq!(cur, h.estimate(&tiles));
    let mut blank = start.blank();
    for _ in 0..moves {
        let opts: Vec<usize> = Move::ALL
            .iter()
            .filter_map(|&m| npuzzle::puzzle::move_target(rows, cols, blank, m))
            .collect();
        let to = opts[rng.random_range(0..opts.len())];
        let tile = tiles[to];
        let prepared = h.prepare(&st, &tiles, tile, to, blank);
        tiles[blank] = tile;
        tiles[to] = 0;
        let (d, _) = h.apply(&mut st, &tiles, tile, to, blank, prepared, u32::MAX);
        cur = (cur as i32 + d) as u32;
        assert_eq!(cur, h.estimate(&tiles), "{:?} drifted", h.name());
        assert_eq!(d.abs(), 1, "a move changes a consistent h by exactly 1");
        blank = to;
    }
}

#[test]
fn incremental_updates_equal_full_evaluation() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for (r, c) in [(3, 3), (4, 4), (5, 5), (3, 7), (7, 3), (8, 8), (2, 10)] {
        for spec in &GOALS {
            let g = goal(spec, r, c);
            let start = random_solvable(&g, &mut rng);
            check_incremental(&LinearConflict::new(&g), &start, 2000, &mut rng);
            check_incremental(&Manhattan::new(&g), &start, 500, &mut rng);
            if let Ok(wd) = WalkingDistance::new(&g) {
                check_incremental(&wd, &start, 2000, &mut rng);
                let both = MaxOf::new(
                    wd,
                    LinearConflict::new(&g),
                    HeuristicKind::WalkingDistanceLc,
                );
                check_incremental(&both, &start, 2000, &mut rng);
            }
            let ham = Hamming::new(&g);
            // Hamming changes by 0 or ±1; check the value only.
            let mut tiles = start.tiles().to_vec();
            let (mut st, mut cur) = ham.init(&tiles);
            let mut b = start.clone();
            for _ in 0..300 {
                let m = b
                    .legal_moves()
                    .nth(rng.random_range(0..b.legal_moves().count()))
                    .unwrap();
                let (from, to) = (b.target(m).unwrap(), b.blank());
                let tile = b.apply(m).unwrap();
                tiles.copy_from_slice(b.tiles());
                let (d, ()) = ham.apply(&mut st, &tiles, tile, from, to, (), u32::MAX);
                cur = (cur as i32 + d) as u32;
                assert_eq!(cur, ham.estimate(&tiles));
            }
        }
    }
}

#[test]
fn known_values() {
    let g = goal(&GoalSpec::BlankLast, 3, 3);
    let b = board(3, 3, &[8, 6, 7, 2, 5, 4, 3, 0, 1]);
    assert_eq!(Hamming::new(&g).estimate(b.tiles()), 7);
    assert_eq!(Manhattan::new(&g).estimate(b.tiles()), 21);
    // The heuristics never count the blank: the goal with the blank anywhere else is still h=0
    // for every tile in place.
    let almost = board(3, 3, &[1, 2, 3, 4, 5, 6, 7, 0, 8]);
    assert_eq!(Hamming::new(&g).estimate(almost.tiles()), 1);
    assert_eq!(Manhattan::new(&g).estimate(almost.tiles()), 1);
    assert_eq!(LinearConflict::new(&g).estimate(almost.tiles()), 1);
    // Walking distance: 8 6 7/2 5 4/3 _ 1 needs 21 moves by Manhattan; rows and columns each
    // carry tiles past one another that the blank must also serve.
    let wd = WalkingDistance::new(&g).unwrap();
    assert_eq!(wd.parts(almost.tiles()), (0, 1));
    assert_eq!(
        wd.estimate(b.tiles()),
        wd.parts(b.tiles()).0 + wd.parts(b.tiles()).1
    );
}

/// Walking distance on 4×4 against published optima: never above Korf's lengths, never below
/// Manhattan, and along an optimal solution (found with it by IDA*) never above the moves left.
#[test]
fn walking_distance_is_admissible_on_korf_100() {
    use npuzzle::search::{Algorithm, Limits, Outcome, Problem, solve};
    let g = goal(&GoalSpec::BlankFirst, 4, 4);
    let (wd, md) = (WalkingDistance::new(&g).unwrap(), Manhattan::new(&g));
    let mut stronger = 0;
    for (id, tiles, opt) in common::korf100() {
        let (w, m) = (wd.estimate(&tiles), md.estimate(&tiles));
        assert!(
            m <= w && w <= opt,
            "Korf #{id}: md {m}, wd {w}, optimum {opt}"
        );
        stronger += usize::from(w > m);
        if [9, 12].contains(&id) {
            let problem = Problem {
                start: board(4, 4, &tiles),
                goal: g.clone(),
            };
            let Ok(Outcome::Solved(s)) = solve(
                &problem,
                Algorithm::IdaStar,
                HeuristicKind::WalkingDistance,
                &Limits::default(),
                &mut |_| {},
            ) else {
                panic!("Korf #{id} unsolved");
            };
            assert_eq!(s.moves.len() as u32, opt, "Korf #{id}");
            let mut b = problem.start.clone();
            for (i, &mv) in s.moves.iter().enumerate() {
                assert!(
                    wd.estimate(b.tiles()) <= opt - i as u32,
                    "Korf #{id} at move {i}"
                );
                b.apply(mv).unwrap();
            }
            assert_eq!(&b, g.board());
        }
    }
    // It is stronger than Manhattan on most of them (a check that it is not Manhattan).
    assert!(
        stronger > 50,
        "walking distance above Manhattan on only {stronger} of 100"
    );
}
