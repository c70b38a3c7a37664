//! The app's textbook experiment: its settings (depths, boards, seed, A*'s tie-break rule,
//! BFS's goal test) give the library's numbers for the same settings, the table shows them,
//! and the rows are saved as the CLI's CSV.
#![cfg(feature = "gui")]

mod common;

use common::bin::HARD8;
use common::goal;
use common::harness::{harness, step_until};
use egui::accesskit::Role;
use egui_kittest::kittest::Queryable;
use npuzzle::app::DepthRange;
use npuzzle::heuristic::{HeuristicKind, HeuristicSpec};
use npuzzle::puzzle::GoalSpec;
use npuzzle::search::measure::{DepthTable, Method, depth_experiment};
use npuzzle::search::{Algorithm, BfsGoalTest, Limits, TieBreak};
use rand::SeedableRng;

/// The experiment's rows for 3×3 blank-last, BFS, Hamming and Manhattan, from the library.
fn library(depths: &[u32], samples: usize, seed: u64, limits: &Limits) -> Vec<(u32, f64)> {
    let table = DepthTable::new(&goal(&GoalSpec::BlankLast, 3, 3)).unwrap();
    let methods = [
        Method::Bfs,
        Method::informed(
            Algorithm::AStar,
            HeuristicSpec::Kind(HeuristicKind::Hamming),
        ),
        Method::informed(
            Algorithm::AStar,
            HeuristicSpec::Kind(HeuristicKind::Manhattan),
        ),
    ];
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    depth_experiment(
        &table,
        depths,
        samples,
        &methods,
        limits,
        &mut rng,
        &mut |_| {},
    )
    .unwrap()
    .iter()
    .flat_map(|r| r.methods.iter().map(move |c| (r.depth, c.expanded)))
    .collect()
}

/// Opens the list `combo` and picks `entry` in it.
fn pick(h: &mut egui_kittest::Harness<'_, common::harness::TestApp>, combo: &str, entry: &str) {
    for _ in 0..3 {
        h.get_by_role_and_label(Role::ComboBox, combo).click();
        h.step();
        h.step();
        if let Some(e) = h.query_by_label(entry) {
            e.click();
            h.step();
            h.step();
            return;
        }
    }
    panic!("{combo}'s list did not open");
}

#[test]
fn the_settings_and_rules_chosen_give_the_librarys_numbers_and_csv() {
    let mut h = harness(HARD8);
    h.step();
    h.get_by_label("Compare").click();
    h.step();
    {
        // What the depth and number fields edit.
        let c = &mut h.state_mut().st.compare;
        c.depths = DepthRange {
            from: 6,
            to: 40,
            step: 6,
        };
        c.settings.samples = 3;
        c.settings.seed = 5;
    }
    h.step();
    // The two rules, picked from their lists.
    pick(&mut h, "BFS goal test", "at expansion");
    pick(&mut h, "A* ties", "lowest g first");
    let s = h.state().st.compare.settings;
    assert_eq!(
        (s.tie_break, s.bfs_goal_test),
        (TieBreak::LowG, BfsGoalTest::Expand)
    );
    h.get_by_label("Textbook experiment").click();
    step_until(&mut h, |s| {
        !s.compare.is_running() && !s.compare.depth_rows().is_empty()
    });
    h.step();
    let st = &h.state().st;
    assert_eq!(st.compare.error(), None);
    // 6 to 40 by 6: 36 is farther than any 3×3 board, and said.
    let depths: Vec<u32> = st.compare.depth_rows().iter().map(|r| r.depth).collect();
    assert_eq!(depths, [6, 12, 18, 24, 30]);
    assert_eq!(
        st.compare.note(),
        Some("depths above 31 skipped: no 3×3 board is farther from the goal")
    );
    let limits = Limits {
        tie_break: TieBreak::LowG,
        bfs_goal_test: BfsGoalTest::Expand,
        ..Limits::default()
    };
    let want = library(&depths, 3, 5, &limits);
    let got: Vec<(u32, f64)> = st
        .compare
        .depth_rows()
        .iter()
        .flat_map(|r| r.methods[..3].iter().map(move |c| (r.depth, c.expanded)))
        .collect();
    assert_eq!(got, want);
    // The defaults give other numbers for BFS: the rules reached the searches.
    let defaults = library(&depths, 3, 5, &Limits::default());
    assert!(defaults[0].1 < want[0].1, "{defaults:?} {want:?}");
    // The table beside the chart shows the means, and the title the rules.
    h.get_by_label_contains("A* ties lowest g first, BFS goal test at expansion");
    if let Some(n) = h.query_by_label("numbers") {
        // A view too small for both shows the chart or the numbers.
        n.click();
        h.step();
        h.step();
    }
    let bfs_at_12 = npuzzle::text::group_digits(want[3].1.round() as u64);
    assert!(h.query_all_by_label(&bfs_at_12).count() >= 1, "{bfs_at_12}");
    h.get_by_label_contains("A* ties lowest g first, BFS goal test at expansion");

    // Saved as CSV: the CLI's columns, one row per depth and method.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("experiment.csv");
    h.state_mut().dialogs.save = Some(path.clone());
    h.get_by_label("Save CSV…").click();
    h.step();
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(
        header[..8],
        [
            "size",
            "goal",
            "samples",
            "seed",
            "tie_break",
            "bfs_goal_test",
            "depth",
            "boards"
        ]
    );
    let methods = h.state().st.compare.depth_rows()[0].methods.len();
    let rows: Vec<Vec<String>> = lines
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect();
    assert_eq!(rows.len(), depths.len() * methods);
    let col = |name: &str| header.iter().position(|&c| c == name).unwrap();
    for (i, &(d, mean)) in want.iter().enumerate() {
        let r = &rows[(i / 3) * methods + i % 3];
        assert_eq!(r[col("depth")], d.to_string());
        assert_eq!(r[col("tie_break")], "low-g");
        assert_eq!(r[col("bfs_goal_test")], "expand");
        assert_eq!(r[col("seed")], "5");
        let m: f64 = r[col("mean_nodes_expanded")].parse().unwrap();
        assert_eq!(m, mean, "{r:?}");
    }
}

#[test]
fn the_compare_table_is_saved_as_the_clis_csv() {
    let mut h = harness("1 2 3/4 5 6/0 7 8");
    h.step();
    h.get_by_label("Compare").click();
    h.step();
    h.get_by_label("Compare heuristics").click();
    step_until(&mut h, |s| {
        !s.compare.is_running() && !s.compare.rows().is_empty()
    });
    h.step();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("compare.csv");
    h.state_mut().dialogs.save = Some(path.clone());
    h.get_by_label("Save CSV…").click();
    h.step();
    h.step();
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines = text.lines();
    let header = lines.next().unwrap();
    assert!(
        header.starts_with(
            "id,line,start,goal,solvable,optimal,algorithm,weight,heuristic,initial_h,nodes_expanded"
        ),
        "{header}"
    );
    let rows: Vec<&str> = lines.collect();
    let st = &h.state().st;
    assert_eq!(rows.len(), st.compare.rows().len());
    // BFS on the depth-2 board: 3 expanded, 6 generated (tests/conventions.rs counts them).
    assert!(
        rows[0].starts_with("1,1,1 2 3/4 5 6/0 7 8,blank-last,true,,bfs,,none,0,3,6,"),
        "{}",
        rows[0]
    );
    h.get_by_label_contains(&format!("saved {}", path.display()));
}
