//! The views' own state: which lower view shows, what was picked in them, their layout.

use crate::puzzle::Board;

/// The views' own state: which one shows, what the student picked in them, and their layout.
#[derive(Clone, Debug, PartialEq)]
pub struct View {
    /// Show the per-cell out-of-place shares over the board.
    pub show_misplaced: bool,
    /// Draw the chosen heuristic on the board (its parts and its value).
    pub show_heuristic: bool,
    /// A board picked in the inspector, the open list or the tree, shown on the main board
    /// instead of the puzzle until dismissed.
    pub focus: Option<Board>,
    /// What the lower half of the central area shows.
    pub lower: LowerView,
    /// The search tree view's visible region (pan and zoom), in its own coordinates.
    pub tree_scene: egui::Rect,
    /// The tree view's region while it follows the tree (fitted to it, not panned or zoomed
    /// since): re-fitted as the tree grows; `None` once the user pans or zooms.
    pub tree_fit: Option<egui::Rect>,
    /// The search tree view draws each generated child that was not expanded, by its fate.
    pub tree_children: bool,
    /// IDA*: a finished iteration picked in the iteration chart or the tree view, whose
    /// heatmap and tree are shown.
    pub picked_iteration: Option<usize>,
    /// Where the board was drawn in the last frame, in points (what Export saves of it).
    pub board_rect: egui::Rect,
    /// Where the lower view was drawn in the last frame, in points (what File ▸ Export saves
    /// of it).
    pub lower_rect: egui::Rect,
    /// Width of the central area in the last frame, in points (the layout's result).
    pub central_width: f32,
    /// The left side panel (the run controls, Puzzle, Solver) shows.
    pub show_controls: bool,
    /// The right side panel (Inspector, Solution, Stats, Messages) shows.
    pub show_results: bool,
    /// The side panels' widths in points (left, right): those of the last frame, or, before
    /// the first, the widths kept from the last run (`None`: the layout's defaults).
    pub side_widths: [Option<f32>; 2],
    /// Text size: egui's zoom factor (1 = normal; [`TEXT_SIZES`] bounds it).
    pub text_size: f32,
    /// Dark colours (`false`: light).
    pub dark: bool,
    /// The Learn panel (lessons) shows: Help ▸ Lessons sets it.
    pub lessons_open: bool,
    /// The keyboard shortcuts sheet (F1) shows.
    pub shortcuts_open: bool,
    /// The About window shows.
    pub about_open: bool,
}

/// The text sizes (zoom factors) the View menu and Ctrl+plus / Ctrl+minus step through, from
/// the smallest to the largest, in steps of `TEXT_SIZE_STEP` (a tenth).
pub const TEXT_SIZES: std::ops::RangeInclusive<f32> = 0.6..=2.5;

/// One step of Ctrl+plus or Ctrl+minus (a tenth of the normal size).
pub const TEXT_SIZE_STEP: f32 = 0.1;

impl Default for View {
    fn default() -> Self {
        View {
            show_misplaced: false,
            show_heuristic: true,
            focus: None,
            lower: LowerView::default(),
            tree_scene: egui::Rect::ZERO,
            tree_fit: None,
            tree_children: true,
            picked_iteration: None,
            board_rect: egui::Rect::ZERO,
            lower_rect: egui::Rect::ZERO,
            central_width: 0.0,
            show_controls: true,
            show_results: true,
            side_widths: [None, None],
            text_size: 1.0,
            dark: true,
            lessons_open: false,
            shortcuts_open: false,
            about_open: false,
        }
    }
}

impl View {
    /// Makes the text `steps` steps larger (negative: smaller), within [`TEXT_SIZES`], rounded
    /// to tenths.
    pub fn grow_text(&mut self, steps: i32) {
        let size = self.text_size + steps as f32 * TEXT_SIZE_STEP;
        self.text_size =
            ((size * 10.0).round() / 10.0).clamp(*TEXT_SIZES.start(), *TEXT_SIZES.end());
    }

    /// Forgets what was picked in a search's views (its results are gone).
    pub(super) fn clear_picks(&mut self) {
        self.focus = None;
        self.picked_iteration = None;
        self.tree_scene = egui::Rect::ZERO;
    }
}

/// The views of the central area's lower half.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum LowerView {
    /// The frontier by (g, h).
    #[default]
    Heatmap,
    /// The expanded nodes as a tree (stepped searches).
    Tree,
    /// IDA*'s iterations: threshold and nodes.
    Iterations,
    /// Heuristics compared on the board, and the textbook experiment.
    Compare,
}
