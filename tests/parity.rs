//! Solvability against breadth-first reachability, for every shape parity and both goals.

mod common;

use common::{all_permutations, board, exact_distances, goal};
use npuzzle::puzzle::random::random_walk;
use npuzzle::puzzle::{Board, GoalSpec, Move, Solvability};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const GOALS: [GoalSpec; 2] = [GoalSpec::BlankLast, GoalSpec::BlankFirst];

/// Checks the verdict on every permutation against BFS reachability from the goal; returns the
/// boards with their reachability for further checks.
fn check_exhaustive(rows: usize, cols: usize, spec: &GoalSpec) -> Vec<(Vec<u8>, bool)> {
    let g = goal(spec, rows, cols);
    let reach = exact_distances(g.board());
    let n = rows * cols;
    let mut out = Vec::new();
    let mut solvable = 0;
    for p in all_permutations(n) {
        let b = board(rows, cols, &p);
        let truth = reach.contains_key(&p);
        assert_eq!(
            Solvability::of(&b, &g).solvable,
            truth,
            "{rows}×{cols} {} goal: {b}",
            spec.name()
        );
        solvable += usize::from(truth);
        out.push((p, truth));
    }
    // Exactly half of all boards are reachable.
    assert_eq!(solvable * 2, out.len());
    out
}

#[test]
fn exhaustive_2x2_2x3_3x2_2x4_4x2_both_goals() {
    for (r, c) in [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2)] {
        for spec in &GOALS {
            check_exhaustive(r, c, spec);
        }
    }
}

#[test]
fn exhaustive_3x3_both_goals() {
    for spec in &GOALS {
        check_exhaustive(3, 3, spec);
    }
}

/// The textbook rule with the blank's row counted from the bottom (1-based), as usually copied
/// for a blank-last goal: even width → solvable iff inversions + row-from-bottom is odd.
fn row_from_bottom_rule(b: &Board) -> bool {
    let tiles: Vec<usize> = b
        .tiles()
        .iter()
        .filter(|&&t| t != 0)
        .map(|&t| t as usize)
        .collect();
    let inv = npuzzle::puzzle::parity::count_inversions(&tiles);
    if b.cols() % 2 == 1 {
        inv.is_multiple_of(2)
    } else {
        let from_bottom = b.rows() - b.blank() / b.cols();
        (inv + from_bottom as u64) % 2 == 1
    }
}

#[test]
fn row_from_bottom_rule_fails_for_blank_first_goal() {
    // Sanity: the rule is right for blank-last on these shapes …
    for (r, c) in [(2, 2), (3, 2), (2, 4), (4, 2)] {
        for (p, truth) in check_exhaustive(r, c, &GoalSpec::BlankLast) {
            assert_eq!(row_from_bottom_rule(&board(r, c, &p)), truth);
        }
    }
    // … and wrong for blank-first: it rejects solvable boards (with an even number of rows,
    // the blank-first goal itself has its blank an even number of rows from the bottom).
    for (r, c) in [(2, 2), (2, 4), (4, 2)] {
        let wrong_rejects = check_exhaustive(r, c, &GoalSpec::BlankFirst)
            .into_iter()
            .filter(|(p, truth)| *truth && !row_from_bottom_rule(&board(r, c, p)))
            .count();
        assert!(
            wrong_rejects > 0,
            "{r}×{c}: the copied rule should reject solvable boards"
        );
    }
}

#[test]
fn odd_side_rule_is_wrong_for_4_wide_3_high() {
    let g = goal(&GoalSpec::BlankLast, 3, 4);
    let b: Board = "1 2 3 4/5 6 7 0/9 10 11 8".parse().unwrap();
    // One move from the goal.
    let mut one = b.clone();
    one.apply(Move::Down).unwrap();
    assert_eq!(&one, g.board());
    let v = Solvability::of(&b, &g);
    assert!(v.solvable);
    // "Solvable iff the inversion count is even whenever a side is odd" says no (3 inversions).
    assert_eq!(v.start_inversions, 3);
    assert!(!v.reason().is_empty());
}

/// 4×3 and 3×4: random walks are solvable, and swapping two tiles flips the verdict.
#[test]
fn rectangular_4x3_and_3x4_sampled() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for (r, c) in [(4, 3), (3, 4)] {
        for spec in &GOALS {
            let g = goal(spec, r, c);
            for _ in 0..500 {
                let k = rng.random_range(0..80);
                let b = random_walk(&g, k, &mut rng);
                assert!(
                    Solvability::of(&b, &g).solvable,
                    "{b} is a walk from the goal"
                );
                let mut t = b.tiles().to_vec();
                let nz: Vec<usize> = (0..t.len()).filter(|&i| t[i] != 0).collect();
                let (i, j) = (nz[0], nz[rng.random_range(1..nz.len())]);
                t.swap(i, j);
                let swapped = board(r, c, &t);
                assert!(
                    !Solvability::of(&swapped, &g).solvable,
                    "{swapped} is one transposition away from a solvable board"
                );
            }
        }
    }
}

#[test]
fn custom_goal_and_size_mismatch() {
    let custom: Board = "1 2 3/4 0 5/6 7 8".parse().unwrap();
    let g = GoalSpec::Board(custom.clone()).resolve(3, 3).unwrap();
    assert!(Solvability::of(&custom, &g).solvable);
    let mut near = custom.clone();
    near.apply(Move::Left).unwrap();
    assert!(Solvability::of(&near, &g).solvable);
    assert!(GoalSpec::Board(custom.clone()).resolve(4, 4).is_err());
    // A goal board is named by the spec it is, for any shape.
    assert_eq!(GoalSpec::of_board(&custom), GoalSpec::Board(custom));
    for (r, c) in [(3, 3), (4, 4), (2, 5)] {
        for spec in GOALS {
            let g = spec.resolve(r, c).unwrap();
            assert_eq!(GoalSpec::of_board(g.board()), spec, "{r}×{c}");
        }
    }
}

/// The number written right after `prefix` in `text`.
fn number_after(text: &str, prefix: &str) -> usize {
    let at = text
        .find(prefix)
        .unwrap_or_else(|| panic!("{prefix:?} is not in {text:?}"))
        + prefix.len();
    let digits: String = text[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits
        .parse()
        .unwrap_or_else(|_| panic!("no number after {prefix:?} in {text:?}"))
}

/// The inverted pairs counted directly: cells i < j both holding tiles, the first larger.
fn brute_pairs(b: &Board) -> Vec<(u8, u8)> {
    let t = b.tiles();
    let mut out = Vec::new();
    for i in 0..t.len() {
        for j in i + 1..t.len() {
            if t[i] != 0 && t[j] != 0 && t[i] > t[j] {
                out.push((t[i], t[j]));
            }
        }
    }
    out
}

/// The pairs `(a, b)` listed in `text` after "inverted pairs: ".
fn listed_pairs(text: &str) -> Vec<(u8, u8)> {
    let Some(at) = text.find("inverted pairs: ") else {
        return Vec::new();
    };
    let list = text[at + 16..].trim_end_matches('.');
    list.split("), ")
        .map(|p| {
            let (a, b) = p.trim_matches(['(', ')']).split_once(", ").unwrap();
            (a.parse().unwrap(), b.parse().unwrap())
        })
        .collect()
}

/// Checks the explanation of `b` towards `g` (`reach`: the boards that reach it; `other`: the
/// boards that reach the other standard goal) against brute force and BFS.
fn check_words(b: &Board, g: &npuzzle::puzzle::Goal, reach: bool, other: bool) {
    let (c, name) = (b.cols(), g.name());
    let pairs = brute_pairs(b);
    assert_eq!(npuzzle::puzzle::parity::inverted_pairs(b), pairs, "{b}");
    let v = Solvability::of(b, g);
    let p = v.paragraphs();
    assert_eq!(number_after(&p[0], "This board has "), pairs.len(), "{b}");
    let goal_count = brute_pairs(g.board()).len();
    assert_eq!(
        number_after(&p[0], &format!("the {name} goal has ")),
        goal_count
    );
    let (mine, theirs) = if c % 2 == 0 {
        // Rows counted from the top, starting at 1, as the sentence says.
        let row = b.blank() / c + 1;
        assert_eq!(number_after(&p[2], "the blank in row "), row, "{b}");
        let goal_row = g.board().blank() / c + 1;
        assert_eq!(number_after(&p[2], " goal: "), goal_count);
        assert_eq!(number_after(&p[2], " + row "), goal_row);
        assert!(p[1].contains("The width is even"));
        (pairs.len() + row, goal_count + goal_row)
    } else {
        assert!(p[1].contains("The width is odd"));
        (pairs.len(), goal_count)
    };
    assert_eq!(mine % 2 == theirs % 2, reach, "{b} towards {name}");
    assert!(p[2].ends_with("so exactly half of all boards can."));
    let verdict = if reach {
        "goal can be reached: solvable."
    } else {
        "goal: unsolvable."
    };
    assert!(p[2].contains(verdict), "{b} towards {name}: {}", p[2]);
    assert_eq!(v.solvable, reach);
    let o = Solvability::towards_other_goal(b, g).expect("a standard goal");
    let s = v.other_goal_sentence(&o);
    assert_eq!(s.contains(": this board can reach it"), other, "{b}: {s}");
    assert_eq!(s.contains("cannot reach it"), !other, "{b}: {s}");
    let all = Solvability::explain(b, g, usize::MAX);
    assert_eq!(listed_pairs(&all), pairs, "{b}");
}

/// The words' numbers against a direct count and their verdicts against BFS, for both goals
/// and the other one: every board of 2×2 and 2×3, and one 3×3 board in 7.
#[test]
fn the_explanation_matches_direct_counts_and_bfs() {
    for (r, c) in [(2, 2), (2, 3), (3, 2), (3, 3)] {
        let goals = [
            goal(&GoalSpec::BlankLast, r, c),
            goal(&GoalSpec::BlankFirst, r, c),
        ];
        let reach = [
            exact_distances(goals[0].board()),
            exact_distances(goals[1].board()),
        ];
        for (k, p) in all_permutations(r * c).into_iter().enumerate() {
            if r * c == 9 && k % 7 != 0 {
                continue;
            }
            let b = board(r, c, &p);
            let (last, first) = (reach[0].contains_key(&p), reach[1].contains_key(&p));
            check_words(&b, &goals[0], last, first);
            check_words(&b, &goals[1], first, last);
        }
    }
}

/// Even widths of other heights (4×4, 3×4, 2×4) and an odd width above 3×3: the words on
/// random walks (solvable) and on them with two tiles swapped (unsolvable).
#[test]
fn the_explanation_on_larger_shapes() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for (r, c) in [(4, 4), (3, 4), (2, 4), (4, 3), (5, 5)] {
        let last = goal(&GoalSpec::BlankLast, r, c);
        let first = goal(&GoalSpec::BlankFirst, r, c);
        for _ in 0..200 {
            let b = random_walk(&last, rng.random_range(0..60), &mut rng);
            let to_first = Solvability::of(&b, &first).solvable;
            check_words(&b, &last, true, to_first);
            let mut t = b.tiles().to_vec();
            let nz: Vec<usize> = (0..t.len()).filter(|&i| t[i] != 0).collect();
            t.swap(nz[0], nz[1 + rng.random_range(0..nz.len() - 1)]);
            let s = board(r, c, &t);
            check_words(&s, &last, false, !to_first);
        }
    }
}

#[test]
fn a_long_list_of_pairs_is_cut_and_says_how_many_more() {
    use npuzzle::puzzle::parity::{inverted_pairs, pairs_text};
    let b: Board = "8 7 6/5 4 3/2 1 0".parse().unwrap();
    let pairs = inverted_pairs(&b);
    assert_eq!(pairs.len(), 28);
    assert_eq!(&pairs[..3], &[(8, 7), (8, 6), (8, 5)]);
    let t = pairs_text(&pairs, 2);
    assert_eq!(t, "(8, 7), (8, 6), … and 26 more");
    assert_eq!(pairs_text(&[], 5), "none");
    let solved: Board = "1 2 3/4 5 6/7 8 0".parse().unwrap();
    let g = goal(&GoalSpec::BlankLast, 3, 3);
    // No pairs: no list.
    assert!(!Solvability::explain(&solved, &g, 10).contains("inverted pairs"));
    // A custom goal has no other goal to compare with.
    let custom = GoalSpec::Board(b.clone()).resolve(3, 3).unwrap();
    assert!(Solvability::towards_other_goal(&b, &custom).is_none());
    assert!(Solvability::other_goal_hint(&b, &custom).is_empty());
}
