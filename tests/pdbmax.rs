//! The maximum over a catalogue of additive partitions (`PdbMax`, `pdbmax24`, `pdbmax:…`):
//! admissible against BFS, equal to the largest partition's `AdditivePdb`, incremental equal to
//! from scratch, IDA*'s answers and counts, the catalogue's names and errors.

mod common;

use std::sync::Arc;

use common::bin::npuzzle;
use common::{board, catalogue, exact_distances, goal, korf100};
use npuzzle::heuristic::pdb::builder::build_partition;
use npuzzle::heuristic::pdb::{AdditivePdb, CatalogueSpec, KORF_FELNER_24, PdbLookup, PdbMax};
use npuzzle::heuristic::{Heuristic, HeuristicChoice, HeuristicKind, Incremental};
use npuzzle::puzzle::{Goal, GoalSpec};
use npuzzle::search::{Algorithm, Limits, Outcome, Problem, Solution, solve};
use rand::{Rng, SeedableRng};

/// Each partition of `text` as its own `AdditivePdb` (tables built again, independently),
/// with the blank-region flags read or not.
fn additive_parts(g: &Goal, text: &str, regions: bool) -> Vec<AdditivePdb> {
    let spec = CatalogueSpec::parse(text).unwrap();
    let lookup = PdbLookup {
        reflect: true,
        regions,
    };
    spec.partitions(g)
        .unwrap()
        .iter()
        .map(|patterns| {
            let tables = build_partition(g, patterns, 1 << 30, &|_| true).unwrap();
            AdditivePdb::new("part", g, tables.into_iter().map(Arc::new).collect())
                .unwrap()
                .with_lookup(lookup)
        })
        .collect()
}

/// 3×3: the second partition is the first's mirror image (tile t ↔ the tile on its transposed
/// goal cell on the blank-first goal), so it shares the first's tables through the reflection.
const CAT_3X3: &str = "pdbmax:1 2 3 4/5 6 7 8|1 3 4 6/2 5 7 8|1 2/3 4 5/6 7 8|1 5/2 6 7/3 4 8";

/// Every 3×3 board: h within the BFS distance and the largest partition's value. A partition
/// read through the reflection (the mirror image of another's tables) equals its own
/// `AdditivePdb` exactly without the blank-region flags (each entry's least value, over every
/// blank cell, is the same for a pattern and its mirror image); with them it may differ (the
/// two flags name the region of the lowest free cell, which the mirror image moves), but stays
/// within BFS. The other partitions equal their `AdditivePdb` with the flags too.
#[test]
fn every_3x3_board_within_bfs_and_equal_to_the_largest_partition() {
    for spec in [GoalSpec::BlankFirst, GoalSpec::BlankLast] {
        let g = goal(&spec, 3, 3);
        let h = catalogue(&g, CAT_3X3);
        let off = h.as_ref().clone().with_regions(false);
        let (parts, parts_off) = (
            additive_parts(&g, CAT_3X3, true),
            additive_parts(&g, CAT_3X3, false),
        );
        assert!(h.reflects());
        let flipped: Vec<bool> = h
            .partitions()
            .iter()
            .map(|p| p.iter().any(|x| x.flipped))
            .collect();
        if spec == GoalSpec::BlankFirst {
            // Partition 2 reads partition 1's two tables through the reflection.
            assert_eq!(h.partitions()[1].iter().filter(|p| p.flipped).count(), 2);
        }
        let dist = exact_distances(g.board());
        assert_eq!(dist.len(), 181_440);
        let mut above_first = 0;
        for (tiles, &d) in &dist {
            let v = h.estimate(tiles);
            assert!(v <= d, "h = {v} > {d} on {tiles:?}");
            let values = h.partition_values(tiles);
            assert_eq!(v, *values.iter().max().unwrap(), "{tiles:?}");
            for (q, p) in parts.iter().enumerate() {
                if !flipped[q] {
                    assert_eq!(values[q], p.estimate(tiles), "{q} {tiles:?}");
                }
            }
            let each_off: Vec<u32> = parts_off.iter().map(|p| p.estimate(tiles)).collect();
            assert_eq!(off.partition_values(tiles), each_off, "{tiles:?}");
            assert_eq!(off.estimate(tiles), *each_off.iter().max().unwrap());
            above_first += usize::from(v > values[0]);
        }
        assert!(
            above_first > 0,
            "the maximum is more than its first partition"
        );
    }
}

#[test]
fn two_by_five_within_bfs_and_equal_to_the_largest_partition() {
    let text = "pdbmax:5,4|1 2 6 7/3 4 8 9/5|1 6/2 3 4 5/7 8 9";
    let g = goal(&GoalSpec::BlankLast, 2, 5);
    let h = catalogue(&g, text);
    assert!(!h.reflects());
    let parts = additive_parts(&g, text, true);
    let dist = exact_distances(g.board());
    assert_eq!(dist.len(), 1_814_400);
    for (i, (tiles, &d)) in dist.iter().enumerate() {
        let v = h.estimate(tiles);
        assert!(v <= d, "h = {v} > {d} on {tiles:?}");
        if i % 7 == 0 {
            let best = parts.iter().map(|p| p.estimate(tiles)).max().unwrap();
            assert_eq!(v, best, "{tiles:?}");
        }
    }
}

/// Along a random walk: every move's incremental value equals the board's from scratch, with
/// and without a random `enough` (below it the value is exact, at or above it a lower bound of
/// at least `enough`), and undo restores the state.
fn walk(h: &PdbMax, g: &Goal, seed: u64, steps: usize) {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut b = npuzzle::puzzle::random::random_solvable(g, &mut rng);
    let (mut st, mut cur) = h.init(b.tiles());
    assert_eq!(cur, h.estimate(b.tiles()));
    for _ in 0..steps {
        let moves: Vec<_> = b.legal_moves().collect();
        let m = moves[rng.random_range(0..moves.len())];
        let (from, to) = (b.target(m).unwrap(), b.blank());
        let tile = b.tiles()[from];
        let prepared = h.prepare(&st, b.tiles(), tile, from, to);
        let before = b.clone();
        b.apply(m).unwrap();
        let exact = h.estimate(b.tiles());
        let enough = rng.random_range(0..exact + 4);
        let mut st2 = st.clone();
        let (dh, undo) = h.apply(&mut st2, b.tiles(), tile, from, to, prepared, enough);
        let lazy = (cur as i32 + dh) as u32;
        if lazy < enough {
            assert_eq!(lazy, exact, "below enough = {enough} the value is exact");
        } else {
            assert!(lazy <= exact, "a lower bound: {lazy} > {exact}");
        }
        h.undo(&mut st2, before.tiles(), tile, from, to, undo);
        let again = h.prepare(&st2, before.tiles(), tile, from, to);
        let (d2, _) = h.apply(&mut st2, b.tiles(), tile, from, to, again, u32::MAX);
        assert_eq!((cur as i32 + d2) as u32, exact, "state restored by undo");
        let (d, _) = h.apply(&mut st, b.tiles(), tile, from, to, prepared, u32::MAX);
        cur = (cur as i32 + d) as u32;
        assert_eq!(cur, exact);
    }
}

/// 5×5 catalogue of 3-tile patterns (tables of 13 800 entries): Korf & Felner's partition's
/// patterns halved, the rows, the columns (which the reflection shares with the rows).
fn small_5x5() -> String {
    let kf: Vec<String> = KORF_FELNER_24
        .iter()
        .flat_map(|p| [&p[..3], &p[3..]])
        .map(|h| h.iter().map(u8::to_string).collect::<Vec<_>>().join(" "))
        .collect();
    let rows = "1 2 3/4 5 6/7 8 9/10 11 12/13 14 15/16 17 18/19 20 21/22 23 24";
    let cols = "5 10 15/20 1 6/11 16 21/2 7 12/17 22 3/8 13 18/23 4 9/14 19 24";
    format!("pdbmax:{}|{rows}|{cols}", kf.join("/"))
}

#[test]
fn incremental_equals_from_scratch_along_random_walks() {
    for spec in [GoalSpec::BlankFirst, GoalSpec::BlankLast] {
        let g = goal(&spec, 3, 3);
        walk(&catalogue(&g, CAT_3X3), &g, 1, 3000);
        let g = goal(&spec, 5, 5);
        let h = catalogue(&g, &small_5x5());
        assert!(h.reflects());
        walk(&h, &g, 2, 3000);
    }
    let g = goal(&GoalSpec::BlankLast, 2, 5);
    walk(&catalogue(&g, "pdbmax:5,4|1 2 6 7/3 4 8 9/5"), &g, 3, 3000);
    let g = goal(&GoalSpec::BlankFirst, 4, 4);
    walk(&catalogue(&g, CAT_4X4), &g, 4, 3000);
}

fn ida(p: &Problem, h: impl Into<npuzzle::heuristic::HeuristicSpec>, histogram: bool) -> Solution {
    let limits = Limits {
        histogram,
        threads: 1,
        ..Limits::default()
    };
    match solve(p, Algorithm::IdaStar, h, &limits, &mut |_| {}) {
        Ok(Outcome::Solved(s)) => s,
        other => panic!("{other:?}"),
    }
}

#[test]
fn ida_on_5x5_walks_finds_manhattans_lengths() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
    let g = goal(&GoalSpec::BlankFirst, 5, 5);
    let h = catalogue(&g, &small_5x5());
    for k in [30, 34, 38] {
        let start = npuzzle::puzzle::random::random_walk(&g, k, &mut rng);
        let p = Problem {
            start,
            goal: g.clone(),
        };
        let md = ida(&p, HeuristicKind::Manhattan, false);
        let max = ida(&p, h.clone(), false);
        assert_eq!(max.moves.len(), md.moves.len(), "{k}-move walk");
        assert!(max.stats.expanded <= md.stats.expanded);
    }
}

/// 4×4: pdb555's partition and a second one cut across it.
const CAT_4X4: &str = "pdbmax:5,5,5|1 4 5 8 9/2 3 6 7 10/11 12 13 14 15";

#[test]
fn one_partition_counts_equal_additive_pdbs_and_early_stops_change_none() {
    let g = goal(&GoalSpec::BlankFirst, 4, 4);
    let one = catalogue(&g, "pdbmax:5,5,5");
    let add = Arc::new(additive_parts(&g, "pdbmax:5,5,5", true).remove(0));
    let two = catalogue(&g, CAT_4X4);
    for (id, tiles, opt) in korf100().into_iter().take(6) {
        let p = Problem {
            start: board(4, 4, &tiles),
            goal: g.clone(),
        };
        let (a, m) = (ida(&p, add.clone(), false), ida(&p, one.clone(), false));
        assert_eq!(m.moves.len() as u32, opt, "Korf #{id}");
        assert_eq!(a.moves, m.moves, "Korf #{id}");
        assert_eq!(a.stats.expanded, m.stats.expanded, "Korf #{id}");
        assert_eq!(a.stats.generated, m.stats.generated, "Korf #{id}");
        // Two partitions: exact values (the histogram asks for them) and early stops expand
        // the same nodes over the same thresholds, and no more than one partition.
        let (exact, early) = (ida(&p, two.clone(), true), ida(&p, two.clone(), false));
        assert_eq!(early.moves.len() as u32, opt, "Korf #{id}");
        assert_eq!(exact.stats.expanded, early.stats.expanded, "Korf #{id}");
        assert_eq!(exact.stats.iterations, early.stats.iterations, "Korf #{id}");
        assert!(early.stats.expanded <= m.stats.expanded, "Korf #{id}");
    }
}

#[test]
fn pdbmax24_shares_pdb6666s_tables_within_its_budget() {
    for spec in [GoalSpec::BlankFirst, GoalSpec::BlankLast] {
        let g = goal(&spec, 5, 5);
        let named = CatalogueSpec::parse("pdbmax24").unwrap();
        let layout = named.layout(&g).unwrap();
        let pdb6666 = npuzzle::heuristic::pdb::PartitionSpec::parse("pdb6666").unwrap();
        // The first four tables are pdb6666's, tiles in the same order: the same cache files.
        assert_eq!(layout.tables[..4], pdb6666.patterns(&g).unwrap()[..]);
        assert!(layout.tables.iter().all(|t| t.len() == 6));
        let bytes = npuzzle::heuristic::catalogue_bytes(&named, &g).unwrap();
        assert_eq!(bytes, layout.tables.len() as u64 * 127_512_000);
        assert!(bytes <= 6_000_000_000);
        assert!(layout.partitions.iter().flatten().any(|p| p.flipped));
    }
    let err = CatalogueSpec::parse("pdbmax24")
        .unwrap()
        .layout(&goal(&GoalSpec::BlankFirst, 4, 4))
        .unwrap_err()
        .to_string();
    assert!(err.contains("for 5×5 boards"), "{err}");
}

#[test]
fn pdbmax24x_adds_a_7_7_5_5_partition_to_pdbmax24s_tables_within_6_gb() {
    for spec in [GoalSpec::BlankFirst, GoalSpec::BlankLast] {
        let g = goal(&spec, 5, 5);
        let x = CatalogueSpec::parse("pdbmax24x")
            .unwrap()
            .layout(&g)
            .unwrap();
        let small = CatalogueSpec::parse("pdbmax24")
            .unwrap()
            .layout(&g)
            .unwrap();
        let sizes: Vec<usize> = x.tables.iter().map(Vec::len).collect();
        assert_eq!(sizes, [7, 7, 5, 5, 6, 6, 6, 6, 6, 6, 6, 6]);
        // pdbmax24's eight tables, the same files, after the 7-7-5-5 partition's four.
        assert_eq!(x.tables[4..], small.tables[..]);
        assert_eq!(x.partitions.len(), 4);
        let bytes =
            npuzzle::heuristic::catalogue_bytes(&CatalogueSpec::parse("pdbmax24x").unwrap(), &g)
                .unwrap();
        // 25!/18! twice, 25!/20! twice, 25!/19! eight times.
        assert_eq!(bytes, 2 * 2_422_728_000 + 2 * 6_375_600 + 8 * 127_512_000);
    }
}

#[test]
fn building_pdbmax24x_under_the_default_memory_cap_says_what_to_raise() {
    // Its 7-tile tables need 13.2 GiB while building, past the default cap (at most
    // 4 GiB): refused before anything is built, with the option and the size to give.
    let cache = tempfile::tempdir().unwrap();
    let dir = cache.path().to_str().unwrap();
    let o = npuzzle(
        &[
            "pdb",
            "build",
            "pdbmax24x",
            "--goal",
            "blank-first",
            "--cache-dir",
            dir,
        ],
        None,
    );
    assert_eq!(o.code, 3, "{}", o.stderr);
    assert!(o.stderr.contains("7-tile pattern database"), "{}", o.stderr);
    assert!(
        o.stderr.contains("raise --max-memory to at least 13.2GiB"),
        "{}",
        o.stderr
    );
    let pdbs = std::fs::read_dir(cache.path())
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "pdb")
        })
        .count();
    assert_eq!(pdbs, 0);
}

#[test]
fn catalogue_names_round_trip_and_errors_name_the_fault() {
    for s in [
        "pdbmax24",
        "pdbmax24x",
        "pdbmax:1 2 3/4 5 6 7 8|4,4",
        "pdbmax:pdb8|1 2/3 4 5 6 7 8",
    ] {
        let c: HeuristicChoice = s.parse().unwrap();
        assert_eq!(c.to_string(), s);
        assert!(matches!(c, HeuristicChoice::PdbMax(_)));
    }
    let g = goal(&GoalSpec::BlankFirst, 3, 3);
    let err = |s: &str| match CatalogueSpec::parse(s) {
        Err(e) => e.to_string(),
        Ok(c) => c.layout(&g).unwrap_err().to_string(),
    };
    let e = err("pdbmax:1 2 3 4/5 6 7 8|1 2 3/3 4 5 6 7 8");
    assert!(
        e.contains("partition 2") && e.contains("tile 3 is in two patterns"),
        "{e}"
    );
    let e = err("pdbmax:1 2 3 4/5 6 7 8|1 2 3/4 5 6 7");
    assert!(
        e.contains("partition 2") && e.contains("tile 8 is in no pattern"),
        "{e}"
    );
    let e = err("pdbmax:1 2 3 4/5 6 7 8 9");
    assert!(
        e.contains("partition 1") && e.contains("tile 9 is not on a board"),
        "{e}"
    );
    let e = err("pdbmax:1 2 3 4/5 6 7 8||1 2/3 4 5 6 7 8");
    assert!(e.contains("partition 2") && e.contains("empty"), "{e}");
    let e = err("pdbmax:1 2 x/3 4 5 6 7 8");
    assert!(e.contains("\"x\" is not a tile"), "{e}");
    let e = err("pdbmax:8|8|8|8|8|8|8|8|8");
    assert!(e.contains("9 partitions"), "{e}");
    let e = err("pdbmax99");
    assert!(e.contains("unknown catalogue"), "{e}");
}

#[test]
fn cli_explains_pdbmax24_and_refuses_bad_catalogues_with_exit_2() {
    let o = npuzzle(&["pdb", "about", "pdbmax24", "--goal", "blank-first"], None);
    assert_eq!(o.code, 0);
    let text = o.stdout.clone();
    assert!(text.contains("admissible"), "{text}");
    assert!(text.contains("Partition 3:"), "{text}");
    assert!(text.contains("mirror image"), "{text}");
    let o = npuzzle(
        &[
            "pdb",
            "about",
            "pdbmax:1 2 3/4 5 6 7 8|1 2/2 3 4 5 6 7 8",
            "--size",
            "3x3",
        ],
        None,
    );
    assert_eq!(o.code, 2);
    let err = o.stderr.clone();
    assert!(err.contains("tile 2 is in two patterns"), "{err}");
    let o = npuzzle(
        &["solve", "-", "--heuristic", "pdbmax:1 2 3/4 5 6 7"],
        Some("1 2 3\n4 5 6\n7 0 8\n"),
    );
    assert_eq!(o.code, 2);
    let err = o.stderr.clone();
    assert!(err.contains("tile 8 is in no pattern"), "{err}");
}
