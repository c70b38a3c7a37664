//! Additive pattern databases: exact on small boards, admissible and additive, optimal searches.

mod common;

use std::sync::Arc;

use common::{board, exact_distances, goal, korf100, replay};
use npuzzle::heuristic::pdb::build::build_partition;
use npuzzle::heuristic::pdb::{AdditivePdb, PatternTable, contiguous_partition};
use npuzzle::heuristic::{Heuristic, HeuristicKind, Incremental};
use npuzzle::puzzle::{Goal, GoalSpec};
use npuzzle::search::{Algorithm, Limits, Outcome, Problem, solve};

fn pdb(g: &Goal, sizes: &[usize]) -> Arc<AdditivePdb> {
    let parts = contiguous_partition(g, sizes).unwrap();
    let tables = build_partition(g, &parts, 4 << 30, &|_| {}).unwrap();
    Arc::new(AdditivePdb::new("test", g, tables.into_iter().map(Arc::new).collect()).unwrap())
}

/// Over a whole state space: admissible, equal to Manhattan when every pattern is one tile, and
/// exact for a single pattern of all tiles. (Tables that keep the minimum over blank positions
/// need not be consistent, so consistency is not asserted; IDA* and our A* with reopening stay
/// optimal with any admissible heuristic.)
fn check_space(rows: usize, cols: usize, spec: &GoalSpec, sizes: &[usize]) {
    let g = goal(spec, rows, cols);
    let h = pdb(&g, sizes);
    let md = HeuristicKind::Manhattan.build(&g);
    let dist = exact_distances(g.board());
    let exact = sizes.len() == 1;
    for (tiles, &d) in &dist {
        let v = h.estimate(tiles);
        assert!(v <= d, "{sizes:?}: h = {v} > {d} on {tiles:?}");
        if exact {
            assert_eq!(v, d, "one pattern of all tiles is the exact distance");
        }
        if d == 0 {
            assert_eq!(v, 0);
        }
        if sizes.iter().all(|&s| s == 1) {
            assert_eq!(v, md.estimate(tiles), "singleton patterns are Manhattan");
        }
    }
}

#[test]
fn exact_and_admissible_on_whole_small_spaces() {
    for spec in [GoalSpec::BlankLast, GoalSpec::BlankFirst] {
        check_space(3, 3, &spec, &[8]);
        check_space(3, 3, &spec, &[4, 4]);
        check_space(3, 3, &spec, &[1; 8]);
        check_space(2, 4, &spec, &[4, 3]);
        check_space(4, 2, &spec, &[3, 4]);
        check_space(2, 3, &spec, &[5]);
    }
}

#[test]
fn incremental_matches_estimate() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(6);
    for spec in [GoalSpec::BlankLast, GoalSpec::BlankFirst] {
        let g = goal(&spec, 4, 4);
        let h = pdb(&g, &[5, 5, 5]);
        assert!(h.reflects());
        let start = npuzzle::puzzle::random::random_solvable(&g, &mut rng);
        let mut b = start.clone();
        let (mut st, mut cur) = h.init(b.tiles());
        assert_eq!(cur, h.estimate(b.tiles()));
        for _ in 0..3000 {
            let moves: Vec<_> = b.legal_moves().collect();
            let m = moves[rng.random_range(0..moves.len())];
            let (from, to) = (b.target(m).unwrap(), b.blank());
            let tile = b.apply(m).unwrap();
            cur = (cur as i32 + h.apply(&mut st, b.tiles(), tile, from, to)) as u32;
            assert_eq!(cur, h.estimate(b.tiles()));
        }
    }
}

#[test]
fn pdb_answers_equal_published_lengths_on_korf_instances() {
    let g = goal(&GoalSpec::BlankFirst, 4, 4);
    let h = pdb(&g, &[5, 5, 5]);
    for (id, tiles, opt) in korf100().into_iter().take(20) {
        let p = Problem {
            start: board(4, 4, &tiles),
            goal: g.clone(),
        };
        let s = match solve(
            &p,
            Algorithm::IdaStar,
            h.clone(),
            &Limits::default(),
            &mut |_| {},
        ) {
            Ok(Outcome::Solved(s)) => s,
            other => panic!("{other:?}"),
        };
        assert_eq!(s.moves.len() as u32, opt, "Korf #{id}");
        assert_eq!(&replay(&p.start, &s.moves), g.board());
    }
}

#[test]
fn table_index_is_a_bijection() {
    let t = PatternTable::from_parts(vec![1, 2, 3], 6, vec![0; 120]).unwrap();
    let mut seen = [false; 120];
    for a in 0..6u8 {
        for b in 0..6u8 {
            for c in 0..6u8 {
                if a != b && b != c && a != c {
                    let i = t.index(&[a, b, c]);
                    assert!(!seen[i]);
                    seen[i] = true;
                }
            }
        }
    }
    assert!(seen.iter().all(|&s| s));
    assert!(PatternTable::from_parts(vec![1, 2], 6, vec![0; 29]).is_err());
}
