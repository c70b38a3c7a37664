//! The settings kept between runs ([`Saved`], `settings.json` in the user's config folder):
//! the last board and goal, the algorithm, heuristic and speed, the text size and colours, the
//! window's size and the panels' layout.
//!
//! Policy: the file is read once when the window opens and written once when it closes, and
//! only when something differs from what the app started with: a run that changes nothing
//! leaves the file as it was (a damaged one too, so that the user may still repair it); a
//! damaged or foreign file is ignored with a message, and replaced once the user changes a
//! setting. Fields this version does not know (a newer version's) are kept and written back.
//! Automation runs (`--screenshot`, tests) neither read nor write it.

use std::path::Path;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::config::{ConfigFile, Read};
use super::{AppState, LowerView, SPEEDS};
use crate::heuristic::HeuristicChoice;
use crate::puzzle::parse::goal_name;
use crate::puzzle::{Board, GoalSpec};
use crate::search::{Algorithm, Weight};

/// The settings file: a few hundred bytes (a 16×16 board's text, 1 KiB).
pub const SETTINGS_FILE: ConfigFile = ConfigFile {
    name: "settings.json",
    max_bytes: 256 << 10,
};

/// What every settings file says in its `kind` field: a JSON file without it is someone
/// else's (foreign) and is not taken for ours.
pub const KIND: &str = "npuzzle settings";

/// The settings kept between runs, as written to `settings.json`. Every field has a default
/// (`#[serde(default)]`), so a file that lacks some (an older version's) reads; values are
/// kept as the command line names them (`"astar"`, `"pdb78"`, a board's one-line text), so
/// that a file stays readable by a person.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Saved {
    /// Always `"npuzzle settings"`.
    pub kind: String,
    /// The version of npuzzle that wrote it (`Cargo.toml`'s).
    pub version: String,
    /// The board last shown, its goal and where it came from.
    pub board: Option<SavedBoard>,
    /// The algorithm's name (`astar`, `weighted-astar`, …).
    pub algorithm: Option<String>,
    /// Weighted A*'s weight (`1.5`), kept while another algorithm is chosen.
    pub weight: Option<String>,
    /// The heuristic's name (`linear-conflict`, `pdb78`, …).
    pub heuristic: Option<String>,
    /// The speed dial: steps a second (0: as fast as it goes).
    pub speed: Option<u32>,
    /// Text size: the zoom factor (1 = normal).
    pub text_size: Option<f32>,
    /// Dark colours (`false`: light).
    pub dark: Option<bool>,
    /// The window's inner size in logical points (width, height).
    pub window: Option<[f32; 2]>,
    /// The side panels' widths in points (left, right).
    pub panels: Option<[f32; 2]>,
    /// Which views show.
    pub views: Option<SavedViews>,
    /// Where the student is in the lessons, what they passed, whether lesson 1 was offered.
    pub lessons: Option<crate::app::lessons::LessonProgress>,
    /// Fields this version does not know, kept as they were and written back.
    #[serde(flatten)]
    pub other: serde_json::Map<String, serde_json::Value>,
}

/// A board kept between runs.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SavedBoard {
    /// The board in its one-line form (`8 6 7/2 5 4/3 0 1`).
    pub tiles: String,
    /// The goal: `blank-last`, `blank-first` or a board's one-line form.
    pub goal: String,
    /// Where it came from (the title shows it).
    pub source: String,
    /// The optimal length its file stated, if any.
    pub stated: Option<u32>,
}

/// Which views show, kept between runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SavedViews {
    /// The left side panel.
    pub controls: bool,
    /// The right side panel.
    pub results: bool,
    /// The lower view: `heatmap`, `tree`, `iterations` or `compare`.
    pub lower: String,
    /// The heuristic drawn on the board.
    pub heuristic: bool,
    /// The frontier's out-of-place shares over the board.
    pub misplaced: bool,
    /// The tree's generated children.
    pub tree_children: bool,
}

impl Default for SavedViews {
    fn default() -> Self {
        let v = super::View::default();
        SavedViews {
            controls: v.show_controls,
            results: v.show_results,
            lower: lower_name(v.lower).into(),
            heuristic: v.show_heuristic,
            misplaced: v.show_misplaced,
            tree_children: v.tree_children,
        }
    }
}

/// What [`Saved::apply`] restores: the command line's choices win over the file's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Restore {
    /// The board and its goal (no file was given).
    pub board: bool,
    /// The algorithm (none was given).
    pub algorithm: bool,
    /// The heuristic (none was given).
    pub heuristic: bool,
}

/// The lower views' names in the file.
const LOWER: [(LowerView, &str); 4] = [
    (LowerView::Heatmap, "heatmap"),
    (LowerView::Tree, "tree"),
    (LowerView::Iterations, "iterations"),
    (LowerView::Compare, "compare"),
];

fn lower_name(v: LowerView) -> &'static str {
    LOWER
        .iter()
        .find(|(l, _)| *l == v)
        .map_or("heatmap", |p| p.1)
}

impl Saved {
    /// The settings file in the config folder: the settings, or `None` when there is none,
    /// and a message when a file there was ignored (unreadable, damaged, foreign).
    pub fn load() -> (Option<Saved>, Option<String>) {
        match SETTINGS_FILE.path() {
            Some(p) => Saved::load_from(&p),
            None => (None, None),
        }
    }

    /// [`Saved::load`] from the file `path`.
    pub fn load_from(path: &Path) -> (Option<Saved>, Option<String>) {
        let ignored = |why: String| {
            let shown = path.display();
            Some(format!(
                "{shown}: {why}; settings from the last run ignored (the file is replaced \
                 when a setting changes)"
            ))
        };
        match SETTINGS_FILE.read_from::<serde_json::Value>(path) {
            Read::Missing => (None, None),
            Read::Unreadable(why) => (None, ignored(why)),
            Read::Invalid(why) => (None, ignored(format!("not JSON ({why})"))),
            Read::Good(v) if v.get("kind").and_then(|k| k.as_str()) != Some(KIND) => (
                None,
                ignored(format!(
                    "not an npuzzle settings file (no \"kind\": \"{KIND}\")"
                )),
            ),
            Read::Good(v) => match serde_json::from_value::<Saved>(v) {
                Ok(s) => (Some(s), None),
                Err(e) => (None, ignored(format!("damaged ({e})"))),
            },
        }
    }

    /// Writes the settings to the config folder (atomically); an error is returned in words.
    ///
    /// # Errors
    /// The write's error, with the file's name.
    pub fn save(&self) -> Result<(), String> {
        let shown = SETTINGS_FILE
            .path()
            .map_or_else(|| SETTINGS_FILE.name.into(), |p| p.display().to_string());
        SETTINGS_FILE
            .write(self)
            .map_err(|e| format!("could not save the settings to {shown}: {e}"))
    }

    /// [`Saved::save`] to `path`.
    ///
    /// # Errors
    /// The write's I/O error.
    pub fn save_to(&self, path: &Path) -> std::io::Result<()> {
        SETTINGS_FILE.write_to(path, self)
    }

    /// The settings `st` shows now; the window's size is the caller's (`None`: not known).
    /// Fields of `before` this version does not know are carried over.
    pub fn of(st: &AppState, window: Option<[f32; 2]>, before: Option<&Saved>) -> Saved {
        let v = &st.view;
        let panels = match v.side_widths {
            [Some(l), Some(r)] => Some([l, r]),
            _ => before.and_then(|b| b.panels),
        };
        Saved {
            kind: KIND.into(),
            version: env!("CARGO_PKG_VERSION").into(),
            board: Some(SavedBoard {
                tiles: st.board().to_string(),
                goal: match st.goal_spec() {
                    GoalSpec::Board(b) => b.to_string(),
                    g => g.name().into(),
                },
                source: st.source().into(),
                stated: st.stated_length(),
            }),
            algorithm: Some(st.settings.algorithm.name().into()),
            weight: Some(st.settings.weight.to_string()),
            heuristic: Some(st.settings.heuristic.to_string()),
            speed: Some(st.settings.steps_per_second),
            text_size: Some(v.text_size),
            dark: Some(v.dark),
            window: window.or_else(|| before.and_then(|b| b.window)),
            panels,
            views: Some(SavedViews {
                controls: v.show_controls,
                results: v.show_results,
                lower: lower_name(v.lower).into(),
                heuristic: v.show_heuristic,
                misplaced: v.show_misplaced,
                tree_children: v.tree_children,
            }),
            lessons: Some(st.lessons.clone()),
            other: before.map(|b| b.other.clone()).unwrap_or_default(),
        }
    }

    /// Whether `self` (now) keeps the same settings as `start` (those the app started with):
    /// the version that wrote them aside, the window's size and the panels' widths to the
    /// point, and compared only when `start` knew them (a layout nobody chose is no change).
    pub fn same_as(&self, start: &Saved) -> bool {
        let round = |w: [f32; 2]| [w[0].round() as i32, w[1].round() as i32];
        let same = |a: Option<[f32; 2]>, b: Option<[f32; 2]>| match (a, b) {
            (Some(a), Some(b)) => round(a) == round(b),
            _ => true,
        };
        let strip = |s: &Saved| Saved {
            version: String::new(),
            window: None,
            panels: None,
            ..s.clone()
        };
        strip(self) == strip(start)
            && same(self.window, start.window)
            && same(self.panels, start.panels)
    }

    /// Restores what `what` allows into `st`; a value that does not parse or fit (a board
    /// that is no board, a heuristic the board's shape does not take) is skipped, and each
    /// one skipped is named in the returned list.
    pub fn apply(&self, st: &mut AppState, what: Restore) -> Vec<String> {
        let mut skipped = Vec::new();
        if what.board
            && let Some(b) = &self.board
            && let Err(why) = restore_board(st, b)
        {
            skipped.push(why);
        }
        if what.algorithm {
            self.restore_algorithm(st, &mut skipped);
        }
        if what.heuristic
            && let Some(name) = &self.heuristic
        {
            match HeuristicChoice::from_str(name) {
                Ok(HeuristicChoice::Auto) => {}
                Ok(h) if fits(st, &h) => st.settings.heuristic = h,
                Ok(_) => skipped.push(format!("heuristic {name} (does not fit the board)")),
                Err(_) => skipped.push(format!("heuristic {name:?}")),
            }
        }
        match self.speed {
            Some(s) if SPEEDS.contains(&s) => st.settings.steps_per_second = s,
            Some(s) => skipped.push(format!("speed {s}")),
            None => {}
        }
        self.restore_view(st);
        if let Some(l) = &self.lessons {
            // Read as it comes: a lesson or step out of range reads as the first.
            st.lessons = l.clone();
        }
        skipped
    }

    fn restore_algorithm(&self, st: &mut AppState, skipped: &mut Vec<String>) {
        if let Some(w) = &self.weight {
            match Weight::from_str(w) {
                Ok(w) => st.settings.weight = w,
                Err(_) => skipped.push(format!("weight {w:?}")),
            }
        }
        let Some(name) = &self.algorithm else { return };
        match Algorithm::from_str(name) {
            Ok(Algorithm::Auto) => {}
            Ok(Algorithm::WeightedAStar(_)) => {
                st.settings.algorithm = Algorithm::WeightedAStar(st.settings.weight);
            }
            Ok(a) => st.settings.algorithm = a,
            Err(_) => skipped.push(format!("algorithm {name:?}")),
        }
    }

    fn restore_view(&self, st: &mut AppState) {
        let v = &mut st.view;
        if let Some(t) = self.text_size.filter(|t| t.is_finite()) {
            v.text_size = t;
            v.grow_text(0);
        }
        if let Some(d) = self.dark {
            v.dark = d;
        }
        if let Some([l, r]) = self.panels
            && l.is_finite()
            && r.is_finite()
        {
            v.side_widths = [Some(l.clamp(80.0, 2000.0)), Some(r.clamp(80.0, 2000.0))];
        }
        if let Some(s) = &self.views {
            v.show_controls = s.controls;
            v.show_results = s.results;
            v.lower = LOWER
                .iter()
                .find(|(_, n)| *n == s.lower)
                .map_or(v.lower, |p| p.0);
            v.show_heuristic = s.heuristic;
            v.show_misplaced = s.misplaced;
            v.tree_children = s.tree_children;
        }
    }
}

/// Whether the board shown takes heuristic `h` (a pattern database's tiles, walking
/// distance's shape).
fn fits(st: &AppState, h: &HeuristicChoice) -> bool {
    let Some(goal) = st.goal() else { return false };
    match h {
        HeuristicChoice::Pdb(p) => p.patterns(&goal).is_ok(),
        HeuristicChoice::PdbMax(c) => c.layout(&goal).is_ok(),
        HeuristicChoice::Kind(k) => k.supports(st.board().rows(), st.board().cols()).is_ok(),
        HeuristicChoice::Auto => true,
    }
}

/// Shows the kept board with its goal and stated length; `Err` names what did not parse.
fn restore_board(st: &mut AppState, b: &SavedBoard) -> Result<(), String> {
    let board = Board::from_str(&b.tiles).map_err(|_| format!("board {:?}", b.tiles))?;
    let goal = goal_name(&b.goal)
        .or_else(|| Board::from_str(&b.goal).ok().map(GoalSpec::Board))
        .filter(|g| g.resolve(board.rows(), board.cols()).is_ok())
        .ok_or_else(|| format!("goal {:?}", b.goal))?;
    let source = if b.source.is_empty() {
        "last run"
    } else {
        &b.source
    };
    st.set_board(board, source);
    st.set_goal(goal);
    st.set_stated_length(b.stated);
    Ok(())
}
