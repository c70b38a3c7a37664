//! The app's help where the eye is, driven with egui_kittest: every view and side panel has
//! its "?", which opens its help (what it shows, a legend, what to look for) and closes with
//! Escape; the Algorithm and Heuristic menus tell what each entry is on hover.

#![cfg(feature = "gui")]

mod common;

use common::harness::{TestApp, harness, harness_sized, painted_texts, step_until};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use npuzzle::app::HelpTopic;
use npuzzle::heuristic::{HeuristicChoice, HeuristicKind};
use npuzzle::search::Algorithm;

/// Clicks `topic`'s "?", checks that its help's texts are shown, presses Escape and checks
/// that they are gone.
fn open_and_close(h: &mut Harness<'_, TestApp>, topic: HelpTopic) {
    let help = topic.help();
    let texts: Vec<&str> = help
        .shows
        .iter()
        .chain(help.look_for)
        .copied()
        .chain(help.legend.iter().map(|l| l.1))
        .collect();
    assert!(texts.len() >= 3, "{topic:?} has too little to say");
    assert!(
        h.query_by_label(texts[0]).is_none(),
        "{topic:?} open at first"
    );
    h.get_by_label(&topic.button_label()).click();
    h.run();
    for t in &texts {
        assert!(h.query_by_label(t).is_some(), "{topic:?}: {t:?} not shown");
    }
    assert!(h.query_by_label("What to look for").is_some());
    h.key_press(egui::Key::Escape);
    h.run();
    assert!(h.query_by_label(texts[0]).is_none(), "{topic:?} not closed");
}

#[test]
fn every_view_and_side_panel_has_its_help() {
    let mut h = harness("1 2 3/4 5 6/0 7 8");
    h.run();
    open_and_close(&mut h, HelpTopic::Board);
    for (tab, topic) in [
        ("Heatmap", HelpTopic::Heatmap),
        ("Tree", HelpTopic::Tree),
        ("Iterations", HelpTopic::Iterations),
        ("Compare", HelpTopic::Compare),
    ] {
        h.get_by_label(tab).click();
        h.run();
        // One "?" in the tab strip: the chosen view's.
        for other in [HelpTopic::Heatmap, HelpTopic::Tree, HelpTopic::Compare] {
            let there = h.query_by_label(&other.button_label()).is_some();
            assert_eq!(there, other == topic, "{tab}: {other:?}");
        }
        open_and_close(&mut h, topic);
    }
    open_and_close(&mut h, HelpTopic::Solution);
    open_and_close(&mut h, HelpTopic::Stats);
    // The Inspector is there for a stepped search.
    assert!(h.query_by_label("Help: Inspector").is_none());
    h.state_mut().st.step(1);
    step_until(&mut h, |st| st.run.inspect().is_some());
    h.run();
    open_and_close(&mut h, HelpTopic::Inspector);
}

#[test]
fn a_side_panel_closes_and_opens_again_by_its_name() {
    let mut h = harness("1 2 3/4 5 6/0 7 8");
    h.run();
    let play = "Start a search to find the optimal solution.";
    assert!(h.query_by_label(play).is_some());
    h.get_by_label("Solution").click();
    h.run();
    assert!(h.query_by_label(play).is_none());
    h.get_by_label("Solution").click();
    h.run();
    assert!(h.query_by_label(play).is_some());
}

#[test]
fn the_ida_star_and_heatmap_helps_say_what_a_student_asks() {
    let it = HelpTopic::Iterations.help().shows.join(" ");
    assert!(it.contains("little memory") && it.contains("only the current path"));
    assert!(it.contains("next threshold is the smallest f that passed the last one"));
    let heat = HelpTopic::Heatmap.help().shows.join(" ");
    assert!(heat.contains("g, the moves made") && heat.contains("h, the heuristic's estimate"));
    let stats = HelpTopic::Stats.help().shows.join(" ");
    assert!(stats.contains("batch") && stats.contains("GPU"));
}

#[test]
fn at_800_by_600_a_help_fits_in_the_window() {
    let mut h = harness_sized("1 2 3/4 5 6/0 7 8", 800.0, 600.0);
    h.run();
    h.get_by_label(&HelpTopic::Heatmap.button_label()).click();
    h.run();
    let first = HelpTopic::Heatmap.help().shows[0];
    let r = h.get_by_label(first).rect();
    let screen = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(800.0, 600.0));
    assert!(screen.contains_rect(r), "{r:?}");
    // An open help asks for no more frames (nothing in it moves).
    for _ in 0..30 {
        h.step();
    }
    let delay = h.output().viewport_output[&egui::ViewportId::ROOT].repaint_delay;
    assert!(delay > std::time::Duration::from_secs(1), "{delay:?}");
    assert!(h.query_by_label(first).is_some());
}

/// Opens the combo box `combo`, rests the pointer on its entry `entry` and returns the texts
/// painted then.
fn hover_entry(h: &mut Harness<'_, TestApp>, combo: &str, entry: &str) -> Vec<String> {
    h.get_by_label(combo).click();
    h.run();
    h.get_by_label(entry).hover();
    // egui shows a tooltip after the pointer has rested a moment (frames of 1/60 s here).
    for _ in 0..60 {
        h.step();
    }
    let texts = painted_texts(h);
    h.key_press(egui::Key::Escape);
    h.run();
    texts
}

#[test]
fn the_algorithm_and_heuristic_menus_tell_what_each_entry_is() {
    let mut h = harness("1 2 3/4 5 6/0 7 8");
    h.state_mut().st.settings.algorithm = Algorithm::AStar;
    h.run();
    for (entry, a) in [
        ("IDA*", Algorithm::IdaStar),
        ("BFS", Algorithm::Bfs),
        ("greedy best-first", Algorithm::Greedy),
    ] {
        let texts = hover_entry(&mut h, "Algorithm", entry);
        assert!(texts.iter().any(|t| t == a.about()), "{entry}: {texts:?}");
    }
    h.state_mut().st.settings.heuristic = HeuristicChoice::Kind(HeuristicKind::Manhattan);
    h.run();
    let texts = hover_entry(&mut h, "Heuristic", "linear-conflict");
    let lc = texts
        .iter()
        .find(|t| t.starts_with(HeuristicKind::LinearConflict.about()))
        .unwrap_or_else(|| panic!("{texts:?}"));
    assert!(lc.contains("Admissible: yes") && lc.contains("Consistent: yes"));
    assert!(lc.contains("A* and IDA* with it: optimal."));
    let texts = hover_entry(
        &mut h,
        "Heuristic",
        "overestimating-manhattan (2 × Manhattan, not admissible)",
    );
    let over = texts
        .iter()
        .find(|t| t.starts_with(HeuristicKind::OverestimatingManhattan.about()))
        .unwrap_or_else(|| panic!("{texts:?}"));
    assert!(over.contains("Admissible: no") && over.contains("not optimal"));
}
