//! The solvability verdict in words for students, shared by the CLI (`npuzzle solve --why`)
//! and the app's Puzzle panel: what an inversion is, why a move keeps the parity that decides
//! (the inversion count on odd widths; the count plus the blank's row on even widths), the
//! board's and the goal's numbers, and the answer for the other standard goal. Rows are
//! counted from the top, starting at 1, in every sentence.

use super::{Solvability, inverted_pairs};
use crate::puzzle::{Board, Goal, GoalSpec};

/// `even` or `odd`.
fn parity_word(n: u64) -> &'static str {
    if n.is_multiple_of(2) { "even" } else { "odd" }
}

/// `1 inversion`, `3 inversions`.
fn inversions(n: u64) -> String {
    format!("{n} inversion{}", if n == 1 { "" } else { "s" })
}

impl Solvability {
    /// The verdict for `start` towards the other standard goal (blank-first for blank-last,
    /// and back); `None` for a custom goal or a board the other goal does not fit.
    pub fn towards_other_goal(start: &Board, goal: &Goal) -> Option<Solvability> {
        let other = match goal.name() {
            "blank-last" => GoalSpec::BlankFirst,
            "blank-first" => GoalSpec::BlankLast,
            _ => return None,
        };
        let g = other.resolve(start.rows(), start.cols()).ok()?;
        Some(Solvability::of(start, &g))
    }

    /// For a board unsolvable towards a standard goal, a hint when the other standard goal
    /// works: ` (it is solvable towards the blank-first goal: --goal blank-first)`; else empty.
    pub fn other_goal_hint(start: &Board, goal: &Goal) -> String {
        match Solvability::towards_other_goal(start, goal) {
            Some(v) if v.solvable => format!(
                " (it is solvable towards the {} goal: --goal {})",
                v.goal, v.goal
            ),
            _ => String::new(),
        }
    }

    /// Whether the width is even, so that the blank's row takes part in the rule.
    fn even_width(&self) -> bool {
        self.cols.is_multiple_of(2)
    }

    /// The number the rule compares for the board: the inversions, plus the blank's row
    /// counted from the top starting at 1 when the width is even.
    fn board_number(&self) -> u64 {
        let row = if self.even_width() {
            self.blank_row + 1
        } else {
            0
        };
        self.start_inversions + row as u64
    }

    /// [`Solvability::board_number`] for the goal.
    fn goal_number(&self) -> u64 {
        let row = if self.even_width() {
            self.goal_blank_row + 1
        } else {
            0
        };
        self.goal_inversions + row as u64
    }

    /// The explanation for students, one paragraph each: what an inversion is with the
    /// board's and the goal's counts; why a move keeps the parity that decides (for this
    /// width); the board's numbers against the goal's and the verdict.
    pub fn paragraphs(&self) -> Vec<String> {
        vec![
            self.inversion_paragraph(),
            self.moves_paragraph(),
            self.verdict_paragraph(),
        ]
    }

    /// What an inversion is, and the board's and the goal's counts.
    fn inversion_paragraph(&self) -> String {
        format!(
            "An inversion is a pair of tiles in the wrong order when the board is read row by \
             row, left to right and top to bottom, skipping the blank: a larger number read \
             before a smaller one. This board has {}, an {} number; the {} goal has {}, an {} \
             number.",
            inversions(self.start_inversions),
            parity_word(self.start_inversions),
            self.goal,
            self.goal_inversions,
            parity_word(self.goal_inversions),
        )
    }

    /// Why a horizontal move keeps the count, and what a vertical move does for this width.
    fn moves_paragraph(&self) -> String {
        let w = self.cols;
        let past = w - 1;
        let tiles = if past == 1 { "tile" } else { "tiles" };
        let horizontal = "A move left or right slides a tile along its row: the reading order \
                          stays the same, and so does the count.";
        let vertical = format!(
            "A move up or down takes a tile past the {past} {tiles} between its old and its new \
             cell in the reading order (the width, {w}, minus 1), and each of those {past} \
             pair{} changes from right to wrong order or back.",
            if past == 1 { "" } else { "s" }
        );
        if self.even_width() {
            format!(
                "{horizontal} {vertical} The width is even, so {past} is odd: the count \
                 changes by an odd number, and the blank moves one row up or down. So the \
                 count plus the blank's row (counted from the top, starting at 1) stays even \
                 if it was even, and odd if it was odd."
            )
        } else {
            format!(
                "{horizontal} {vertical} The width is odd, so {past} is even: the count changes \
                 by an even number. So every move keeps the count even if it was even, and odd \
                 if it was odd."
            )
        }
    }

    /// The board's number against the goal's, and the verdict.
    fn verdict_paragraph(&self) -> String {
        let (b, g) = (self.board_number(), self.goal_number());
        let numbers = if self.even_width() {
            format!(
                "This board: {} + the blank in row {} = {b}, {}. The {} goal: {} + row {} = \
                 {g}, {}.",
                inversions(self.start_inversions),
                self.blank_row + 1,
                parity_word(b),
                self.goal,
                self.goal_inversions,
                self.goal_blank_row + 1,
                parity_word(g),
            )
        } else {
            format!(
                "This board's count, {}, is {}; the {} goal's, {}, is {}.",
                self.start_inversions,
                parity_word(b),
                self.goal,
                self.goal_inversions,
                parity_word(g),
            )
        };
        let verdict = if self.solvable {
            format!(
                "Both are {}, so the goal can be reached: solvable.",
                parity_word(b)
            )
        } else {
            "One is even and the other odd, so no sequence of moves reaches the goal: \
             unsolvable."
                .to_string()
        };
        format!(
            "{numbers} {verdict} The rule works both ways: every board with the goal's parity \
             can reach it (Johnson & Story, 1879), so exactly half of all boards can."
        )
    }

    /// One sentence on `other`, the same board's verdict towards the other standard goal
    /// ([`Solvability::towards_other_goal`]), with that goal's number.
    pub fn other_goal_sentence(&self, other: &Solvability) -> String {
        let g = other.goal_number();
        let number = if other.even_width() {
            format!(
                "{} + the blank in row {} = {g}, {}",
                inversions(other.goal_inversions),
                other.goal_blank_row + 1,
                parity_word(g)
            )
        } else {
            format!(
                "{}, an {} number",
                inversions(other.goal_inversions),
                parity_word(g)
            )
        };
        let verdict = match (other.solvable, self.solvable) {
            (true, true) => "this board can reach it too",
            (true, false) => "this board can reach it",
            (false, false) => "this board cannot reach it either",
            (false, true) => "this board cannot reach it",
        };
        format!("The {} goal has {number}: {verdict}.", other.goal)
    }

    /// The whole explanation of `start`'s verdict towards `goal`, paragraphs apart (a blank
    /// line between): [`Solvability::paragraphs`], the other standard goal's answer, and the
    /// board's inverted pairs (at most `max_pairs` listed).
    pub fn explain(start: &Board, goal: &Goal, max_pairs: usize) -> String {
        let verdict = Solvability::of(start, goal);
        let mut out = verdict.paragraphs();
        if let Some(o) = Solvability::towards_other_goal(start, goal) {
            out.push(verdict.other_goal_sentence(&o));
        }
        let pairs = inverted_pairs(start);
        if !pairs.is_empty() {
            out.push(format!(
                "This board's inverted pairs: {}.",
                super::pairs_text(&pairs, max_pairs)
            ));
        }
        out.join("\n\n")
    }
}
