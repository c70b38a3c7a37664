//! Additive pattern databases: exact on small boards, admissible and additive, optimal searches.

mod common;

use std::sync::Arc;

use common::bin::{command, output};
use common::{board, exact_distances, goal, korf100, replay};
use npuzzle::heuristic::pdb::builder::build_partition;
use npuzzle::heuristic::pdb::{AdditivePdb, PatternTable, contiguous_partition};
use npuzzle::heuristic::{Heuristic, HeuristicKind, Incremental};
use npuzzle::puzzle::{Goal, GoalSpec};
use npuzzle::search::{Algorithm, Limits, Outcome, Problem, solve};

fn pdb(g: &Goal, sizes: &[usize]) -> Arc<AdditivePdb> {
    let parts = contiguous_partition(g, sizes).unwrap();
    let tables = build_partition(g, &parts, 4 << 30, &|_| true).unwrap();
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

/// Contiguous patterns are cut counting from the blank's goal, so the blank-last goal gets the
/// blank-first partition turned by 180° (tile `t`, whose blank-first goal cell is `t`, turns
/// into the tile whose blank-last goal cell is `n − 1 − t`: tile `n − t`). So `pdb78` is Korf &
/// Felner's 7-8 split on both goals.
#[test]
fn blank_last_partitions_are_the_blank_first_ones_turned() {
    use npuzzle::heuristic::pdb::PartitionSpec;
    let k = |v: std::ops::RangeInclusive<u8>| v.collect::<Vec<u8>>();
    let g44 = |spec| goal(&spec, 4, 4);
    let named = |g: &Goal, n: &str| PartitionSpec::Named(n.into()).patterns(g).unwrap();
    assert_eq!(
        named(&g44(GoalSpec::BlankFirst), "pdb78"),
        vec![k(1..=7), k(8..=15)]
    );
    assert_eq!(
        named(&g44(GoalSpec::BlankLast), "pdb78"),
        vec![k(9..=15), k(1..=8)]
    );
    let cases = [
        (4, 4, "pdb78"),
        (4, 4, "pdb663"),
        (4, 4, "pdb555"),
        (5, 5, "pdb6666"),
        (3, 3, "pdb:5,3"),
        (3, 4, "pdb:6,5"),
        (2, 5, "pdb:5,4"),
    ];
    for (rows, cols, name) in cases {
        let spec = PartitionSpec::parse(name).unwrap();
        let n = (rows * cols) as u8;
        let sets = |g: GoalSpec, turn: bool| {
            let mut out: Vec<Vec<u8>> = spec
                .patterns(&goal(&g, rows, cols))
                .unwrap()
                .into_iter()
                .map(|p| {
                    let mut p: Vec<u8> = p.iter().map(|&t| if turn { n - t } else { t }).collect();
                    p.sort_unstable();
                    p
                })
                .collect();
            out.sort();
            out
        };
        assert_eq!(
            sets(GoalSpec::BlankFirst, true),
            sets(GoalSpec::BlankLast, false),
            "{name} on {rows}×{cols}"
        );
    }
}

/// An independent 0-1 breadth-first search over (cells of the pattern tiles, blank cell):
/// moving the blank onto a pattern tile costs 1, onto any other cell 0. Returns the cost of
/// every state (the pattern tiles' cells in `tiles` order, the blank's cell).
fn abstract_states(g: &Goal, tiles: &[u8]) -> std::collections::HashMap<(Vec<u8>, u8), u32> {
    use std::collections::{HashMap, VecDeque};
    let b = g.board();
    let (rows, cols) = (b.rows(), b.cols());
    let start: Vec<u8> = tiles.iter().map(|&t| g.position_of(t) as u8).collect();
    let mut best: HashMap<(Vec<u8>, u8), u32> = HashMap::new();
    let mut queue = VecDeque::from([((start, b.blank() as u8), 0u32)]);
    while let Some(((pos, blank), d)) = queue.pop_front() {
        if best.get(&(pos.clone(), blank)).is_some_and(|&e| e <= d) {
            continue;
        }
        best.insert((pos.clone(), blank), d);
        let (r, c) = (blank as usize / cols, blank as usize % cols);
        let mut next = Vec::new();
        if r > 0 {
            next.push(blank as usize - cols);
        }
        if r + 1 < rows {
            next.push(blank as usize + cols);
        }
        if c > 0 {
            next.push(blank as usize - 1);
        }
        if c + 1 < cols {
            next.push(blank as usize + 1);
        }
        for to in next {
            let mut p = pos.clone();
            match p.iter().position(|&x| x as usize == to) {
                Some(i) => {
                    p[i] = blank;
                    queue.push_back(((p, to as u8), d + 1));
                }
                None => queue.push_front(((p, to as u8), d)),
            }
        }
    }
    best
}

/// The least cost of every placement in `states` ([`abstract_states`]), over the blank's cells.
fn least_costs(
    states: &std::collections::HashMap<(Vec<u8>, u8), u32>,
) -> std::collections::HashMap<Vec<u8>, u32> {
    let mut out: std::collections::HashMap<Vec<u8>, u32> = std::collections::HashMap::new();
    for ((pos, _), &d) in states {
        let e = out.entry(pos.clone()).or_insert(d);
        *e = (*e).min(d);
    }
    out
}

/// The patterns of the independent-search tests. Lanes of every width: 16 bits (3×3, 4
/// tiles; 3×4, 5 tiles), 32 bits (5×5, 2 and 3 tiles; 2×8, 3 tiles), 64 bits (6×5, 1 tile:
/// 29 free cells; 4×8, the largest board, 2 tiles). Patterns the builder searches up to a
/// reflection: tiles 9, 10, 13, 14 of the 15-puzzle (left to right with the blank first,
/// about the other diagonal with the blank last), one column of a 2×7 board (top to bottom,
/// splitting the board in two).
fn independent_cases() -> Vec<(usize, usize, Vec<u8>)> {
    vec![
        (4, 4, vec![9u8, 10, 13, 14]),
        (2, 7, vec![4, 11]),
        (3, 3, vec![1u8, 2, 3, 4]),
        (3, 4, vec![1, 2, 3, 5, 6]),
        (5, 5, vec![1, 2]),
        (5, 5, vec![7, 12, 13]),
        (2, 8, vec![1, 2, 9]),
        (6, 5, vec![8]),
        (4, 8, vec![3, 17]),
        (4, 4, vec![2, 5, 6, 7, 10]),
    ]
}

/// Every entry's value is the least cost of its placement in the abstract space, over the
/// blank's cells. With the blank-region flags (tables that leave three free cells or more),
/// each state's value is a lower bound on its cost, and where the pattern splits the free
/// cells in two it is exact up to two above the placement's least cost: `min(cost, least + 2)`.
#[test]
fn tables_match_an_independent_search_of_the_abstract_space() {
    use npuzzle::heuristic::pdb::regions::Flood;
    let mut raised = 0;
    for (rows, cols, tiles) in independent_cases() {
        for spec in [GoalSpec::BlankLast, GoalSpec::BlankFirst] {
            let g = goal(&spec, rows, cols);
            let t =
                npuzzle::heuristic::pdb::builder::build_table(&g, &tiles, 0, 1 << 30, &|_| true)
                    .unwrap();
            let states = abstract_states(&g, &tiles);
            let least = least_costs(&states);
            assert_eq!(least.len(), t.bytes().len(), "{rows}×{cols} {tiles:?}");
            for (pos, &d) in &least {
                assert_eq!(
                    u32::from(t.value(pos)),
                    d,
                    "{rows}×{cols} {tiles:?} at {pos:?}"
                );
            }
            assert_eq!(
                t.regions(),
                tiles.len() + 3 <= rows * cols,
                "{rows}×{cols} {tiles:?}"
            );
            if !t.regions() {
                continue;
            }
            let flood = Flood::new(rows, cols);
            for ((pos, blank), &cost) in &states {
                let occ = pos.iter().fold(0u32, |m, &c| m | 1 << c);
                let v = flood.value(t.bytes()[t.index(pos)], occ, usize::from(*blank));
                let m = least[pos];
                assert!(
                    v <= cost,
                    "{rows}×{cols} {tiles:?} {pos:?} blank {blank}: {v} > {cost}"
                );
                let free = !occ & ((1u64 << (rows * cols)) - 1) as u32;
                let rest = free & !flood.region(free, free & free.wrapping_neg());
                let two_regions =
                    rest != 0 && flood.region(free, rest & rest.wrapping_neg()) == rest;
                if two_regions {
                    assert_eq!(
                        v,
                        cost.min(m + 2),
                        "{rows}×{cols} {tiles:?} {pos:?} blank {blank}: two regions"
                    );
                }
                raised += u32::from(v > m);
            }
        }
    }
    assert!(raised > 0, "no state was raised by a flag");
}

#[test]
fn a_build_stops_when_its_progress_callback_says_so() {
    use std::sync::atomic::{AtomicU32, Ordering};
    let g = goal(&GoalSpec::BlankLast, 4, 4);
    let calls = AtomicU32::new(0);
    let r = npuzzle::heuristic::pdb::builder::build_table(&g, &[1, 2, 3, 4, 5], 0, 1 << 30, &|p| {
        calls.fetch_add(1, Ordering::Relaxed);
        p.depth < 3
    });
    assert!(
        matches!(r, Err(npuzzle::heuristic::pdb::PdbError::Cancelled)),
        "{:?}",
        r.err()
    );
    assert_eq!(
        calls.load(Ordering::Relaxed),
        3,
        "stopped at the first `false`"
    );
}

#[test]
fn pattern_values_add_up_to_the_estimate() {
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(8);
    for (rows, sizes) in [(4, &[5, 5, 5][..]), (3, &[4, 4][..])] {
        for spec in [GoalSpec::BlankLast, GoalSpec::BlankFirst] {
            let g = goal(&spec, rows, rows);
            let h = pdb(&g, sizes);
            let pats = h.patterns();
            assert_eq!(pats.iter().map(Vec::len).collect::<Vec<_>>(), sizes);
            for _ in 0..500 {
                let b = npuzzle::puzzle::random::random_solvable(&g, &mut rng);
                let (direct, reflected) = h.pattern_values(b.tiles());
                assert_eq!(direct.len(), sizes.len());
                let sum = |v: &[u8]| v.iter().map(|&x| u32::from(x)).sum::<u32>();
                let best = sum(&direct).max(reflected.as_deref().map_or(0, sum));
                assert_eq!(best, h.estimate(b.tiles()), "{b}");
                assert_eq!(reflected.is_some(), h.reflects());
            }
        }
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
            // The prepared path (IDA*'s): prepared on the board before the move, applied
            // after it, then undone.
            let tile_here = b.tiles()[from];
            let prepared = h.prepare(&st, b.tiles(), tile_here, from, to);
            let before = b.clone();
            let tile = b.apply(m).unwrap();
            let mut st2 = st.clone();
            let (dh, undo) = h.apply(&mut st2, b.tiles(), tile, from, to, prepared, u32::MAX);
            assert_eq!((cur as i32 + dh) as u32, h.estimate(b.tiles()));
            h.undo(&mut st2, before.tiles(), tile, from, to, undo);
            let mut b2 = before.clone();
            b2.apply(m).unwrap();
            let again = h.prepare(&st2, before.tiles(), tile, from, to);
            let (dh2, _) = h.apply(&mut st2, b2.tiles(), tile, from, to, again, u32::MAX);
            assert_eq!(
                (cur as i32 + dh2) as u32,
                h.estimate(b.tiles()),
                "state restored by undo"
            );
            let (d, _) = h.apply(&mut st, b.tiles(), tile, from, to, prepared, u32::MAX);
            cur = (cur as i32 + d) as u32;
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

/// IDA* looks at a blank-region flag only when the value without it leaves the node
/// unpruned (and the reflected table only when the direct sum does): the same nodes as with
/// every value exact (the histogram asks for exact values), and the same thresholds.
#[test]
fn early_stops_of_the_pdb_update_change_no_node_count() {
    let g = goal(&GoalSpec::BlankFirst, 4, 4);
    let h = pdb(&g, &[5, 5, 5]);
    assert!(h.tables().iter().all(|t| t.regions()));
    for (id, tiles, opt) in korf100().into_iter().take(12) {
        let p = Problem {
            start: board(4, 4, &tiles),
            goal: g.clone(),
        };
        let run = |histogram: bool| {
            let limits = Limits {
                histogram,
                threads: 1,
                ..Limits::default()
            };
            match solve(&p, Algorithm::IdaStar, h.clone(), &limits, &mut |_| {}) {
                Ok(Outcome::Solved(s)) => s,
                other => panic!("{other:?}"),
            }
        };
        let (exact, early) = (run(true), run(false));
        assert_eq!(early.moves.len() as u32, opt, "Korf #{id}");
        assert_eq!(exact.stats.expanded, early.stats.expanded, "Korf #{id}");
        assert_eq!(exact.stats.iterations, early.stats.iterations, "Korf #{id}");
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

mod cache {
    use super::*;
    use npuzzle::heuristic::pdb::cache::{PdbCache, Source};
    use std::sync::Mutex;

    fn load(cache: &PdbCache, g: &Goal, tiles: &[u8]) -> (Arc<PatternTable>, Source, Vec<String>) {
        let warnings = Mutex::new(Vec::new());
        let (t, s) = cache
            .load_or_build(g, tiles, 0, 1 << 30, &|_| true, &|w| {
                warnings.lock().unwrap().push(w)
            })
            .unwrap();
        (t, s, warnings.into_inner().unwrap())
    }

    #[test]
    fn round_trip_corruption_and_stale_versions_are_rebuilt() {
        let dir = tempfile::tempdir().unwrap();
        let cache = PdbCache::new(Some(dir.path().to_path_buf())).unwrap();
        let g = goal(&GoalSpec::BlankLast, 3, 3);
        let tiles = [1u8, 2, 3, 4];
        let (built, s, w) = load(&cache, &g, &tiles);
        assert_eq!(s, Source::Built);
        assert!(w.is_empty(), "{w:?}");
        let (cached, s, w) = load(&cache, &g, &tiles);
        assert_eq!(s, Source::Cached);
        assert!(w.is_empty());
        assert_eq!(built, cached);
        let path = cache.path_for(&g, &tiles);
        // Flip one data byte: checksum mismatch, rebuilt with a warning, file repaired.
        let mut bytes = std::fs::read(&path).unwrap();
        let i = bytes.len() - 10;
        bytes[i] ^= 0x40;
        std::fs::write(&path, &bytes).unwrap();
        let (again, s, w) = load(&cache, &g, &tiles);
        assert_eq!(s, Source::Built);
        assert!(w.iter().any(|m| m.contains("checksum")), "{w:?}");
        assert_eq!(again, built);
        assert_eq!(load(&cache, &g, &tiles).1, Source::Cached);
        // A file of another format version is stale.
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[8..12].copy_from_slice(&0u32.to_le_bytes());
        std::fs::write(&path, &bytes).unwrap();
        let (_, s, w) = load(&cache, &g, &tiles);
        assert_eq!(s, Source::Built);
        assert!(w.iter().any(|m| m.contains("format version")), "{w:?}");
        // A truncated file, and a file built for other parameters under this name.
        std::fs::write(&path, b"NPUZZPDB").unwrap();
        assert_eq!(load(&cache, &g, &tiles).1, Source::Built);
        let other = cache.path_for(&g, &[5, 6, 7, 8]);
        load(&cache, &g, &[5, 6, 7, 8]);
        std::fs::copy(&other, &path).unwrap();
        let (t, s, w) = load(&cache, &g, &tiles);
        assert_eq!(s, Source::Built);
        assert!(w.iter().any(|m| m.contains("other parameters")), "{w:?}");
        assert_eq!(t, built);
        // Listing and clearing.
        assert_eq!(cache.list().len(), 2);
        assert_eq!(cache.clear().unwrap(), (2, 0, 0));
        assert!(cache.list().is_empty());
    }

    #[test]
    fn pdb_command_line() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().to_str().unwrap();
        let run = |args: &[&str]| {
            let o = output(command().args(args).env("NPUZZLE_CACHE_DIR", d), None);
            (o.code, o.stdout, o.stderr)
        };
        // --time-limit covers building the tables: a build of pdb555 (hundreds of
        // milliseconds) stops at its first layer past a millisecond; nothing is saved.
        let board = dir.path().join("k12.txt");
        std::fs::write(&board, "14 1 9 6/4 8 12 5/7 2 3 0/10 11 13 15\n").unwrap();
        let (code, _, err) = run(&[
            "solve",
            board.to_str().unwrap(),
            "--goal",
            "blank-first",
            "--heuristic",
            "pdb555",
            "--time-limit",
            "0.001",
        ]);
        assert_eq!(code, 3, "{err}");
        assert!(err.contains("time limit of 0.001 s reached"), "{err}");
        std::fs::remove_file(&board).unwrap();
        assert_eq!(std::fs::read_dir(d).unwrap().count(), 0, "nothing saved");
        // Breadth-first search ignores h: a pattern database asked for is not built.
        let near = dir.path().join("near.txt");
        std::fs::write(&near, "1 2 3/4 5 6/7 0 8\n").unwrap();
        let (code, out, err) = run(&[
            "solve",
            near.to_str().unwrap(),
            "--algorithm",
            "bfs",
            "--heuristic",
            "pdb8",
        ]);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("Minimum number of moves = 1"), "{out}");
        assert!(err.contains("no tables built"), "{err}");
        std::fs::remove_file(&near).unwrap();
        assert_eq!(std::fs::read_dir(d).unwrap().count(), 0, "nothing built");
        // Bad input: an empty pattern (exit 2).
        let (code, _, err) = run(&["pdb", "build", "pdb:4,4,0", "--size", "3x3"]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("pattern 3 is empty"), "{err}");
        // A file given as the cache folder: refused before anything is built (exit 2; a folder
        // that cannot be written is `tests/cache_faults.rs`'s).
        let file = dir.path().join("a-file");
        std::fs::write(&file, b"x").unwrap();
        let o = output(
            command().args([
                "pdb",
                "build",
                "pdb8",
                "--cache-dir",
                file.to_str().unwrap(),
            ]),
            None,
        );
        let err = o.stderr;
        assert_eq!(o.code, 2, "{err}");
        assert!(
            err.contains("is not a folder") && !err.contains("built pattern"),
            "{err}"
        );
        let (code, _, err) = run(&["pdb", "build", "pdb555", "--goal", "blank-first"]);
        assert_eq!(code, 0, "{err}");
        assert!(err.contains("pruning automaton for 4×4"), "{err}");
        assert!(dir.path().join("4x4-moves14.fsm").is_file());
        let (code, out, _) = run(&["pdb", "list"]);
        assert_eq!(code, 0);
        assert_eq!(out.lines().count(), 3, "{out}");
        // Each table says what it is for, in --goal's and --heuristic's words.
        assert_eq!(
            out.matches("goal blank-first, pdb555  ").count(),
            3,
            "{out}"
        );
        let (code, out, _) = run(&["pdb", "verify"]);
        assert_eq!(code, 0, "{out}");
        assert_eq!(out.matches(" ok").count(), 3, "{out}");
        // Solve with it: Korf #12 (45 moves).
        let o = output(
            command()
                .args([
                    "solve",
                    "-",
                    "--goal",
                    "blank-first",
                    "--heuristic",
                    "pdb555",
                    "--format",
                    "json",
                ])
                .env("NPUZZLE_CACHE_DIR", d),
            Some("14 1 9 6/4 8 12 5/7 2 3 0/10 11 13 15"),
        );
        let j: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
        assert_eq!(j["moves"], 45);
        assert_eq!(j["heuristic"], "pdb555");
        // `pdb build` (and IDA*) kept the pruning automaton beside the tables (not a table:
        // not listed).
        let automaton = dir.path().join("4x4-moves14.fsm");
        assert!(automaton.is_file());
        let (_, out, _) = run(&["pdb", "list"]);
        assert_eq!(out.lines().count(), 3, "{out}");
        // Corrupt one table: verify fails and names it.
        let victim = std::fs::read_dir(d)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .find(|p| p.extension().is_some_and(|x| x == "pdb"))
            .unwrap();
        let mut bytes = std::fs::read(&victim).unwrap();
        let n = bytes.len();
        bytes[n / 2] ^= 1;
        std::fs::write(&victim, bytes).unwrap();
        let (code, out, _) = run(&["pdb", "verify"]);
        assert_eq!(code, 1, "{out}");
        assert!(out.contains("BAD: checksum"), "{out}");
        // A database for another size is a usage error.
        let f = dir.path().join("b.txt");
        std::fs::write(&f, "8 6 7/2 5 4/3 0 1\n").unwrap();
        let (code, _, err) = run(&["solve", "--heuristic", "pdb78", f.to_str().unwrap()]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("pdb78 is for 4×4 boards"), "{err}");
        // A temporary file a killed save left an hour ago goes too; one being written stays.
        let stale = dir.path().join(".tmpAbC123");
        std::fs::File::create(&stale)
            .unwrap()
            .set_modified(std::time::SystemTime::now() - std::time::Duration::from_secs(3600))
            .unwrap();
        let fresh = dir.path().join(".tmpXyZ789");
        std::fs::write(&fresh, b"partial").unwrap();
        // A folder named like a table is not one: listed, verified and cleared as nothing.
        let folder = dir.path().join("odd.pdb");
        std::fs::create_dir(&folder).unwrap();
        let (code, out, _) = run(&["pdb", "clear"]);
        assert_eq!(code, 0);
        assert!(
            out.contains("removed 3 tables, 1 pruning automaton and 1 unfinished temporary file"),
            "{out}"
        );
        assert!(!stale.exists() && fresh.exists() && folder.is_dir() && !automaton.exists());
        std::fs::remove_file(&fresh).unwrap();
        std::fs::remove_dir(&folder).unwrap();
        // A sound table under another table's name: verify reports it.
        let (code, _, err) = run(&["pdb", "build", "pdb:4,4", "--size", "3x3"]);
        assert_eq!(code, 0, "{err}");
        let names: Vec<_> = std::fs::read_dir(d)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "pdb"))
            .collect();
        assert_eq!(names.len(), 2);
        std::fs::copy(&names[0], &names[1]).unwrap();
        let (code, out, _) = run(&["pdb", "verify"]);
        assert_eq!(code, 1, "{out}");
        assert!(out.contains("BAD: holds the table of"), "{out}");
        // A cache folder that is not a folder: a usage error with its reason, not "no tables".
        let (code, _, err) = run(&["pdb", "verify", "--cache-dir", f.to_str().unwrap()]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("is not a folder"), "{err}");
    }
}
