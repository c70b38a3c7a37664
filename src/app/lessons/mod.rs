//! Guided lessons: short steps that teach search on the app itself, each with a paragraph, a
//! task done in the app and a check the app verifies from its own state.
//!
//! A [`Lesson`] is a list of [`Step`]s. A step may have a [`Setup`] (its board, algorithm,
//! heuristic and speed, applied through the same [`AppState`] methods the panels use) and a
//! [`Check`]: either a condition on the state (the goal was popped, the board is unsolvable),
//! evaluated every frame by [`AppState::check_lesson`], or a question whose answer is computed
//! from the run on screen ([`AppState::answer_lesson`]), never a number written in the text.
//! [`LessonProgress`] is where the student is and what they have passed; it is plain data
//! (serde), kept in [`AppState::lessons`]. No window code here: the panel is
//! `panels/lessons.rs`.

mod basics;
mod checks;
mod deeper;

use crate::app::state::{AppState, LowerView};
use crate::heuristic::HeuristicChoice;
use crate::puzzle::GoalSpec;
use crate::search::Algorithm;

/// One guided lesson: a title, what the student will be able to answer, and its steps.
#[derive(Debug)]
pub struct Lesson {
    /// The lesson's title ("Breadth-first search").
    pub title: &'static str,
    /// The question the lesson leads to an answer for, in one sentence.
    pub aim: &'static str,
    /// Its steps, in order (at least one).
    pub steps: &'static [Step],
}

/// One step of a lesson: a paragraph, a task in the app, an optional set-up, and a check.
#[derive(Debug)]
pub struct Step {
    /// The idea, in a few short sentences.
    pub text: &'static str,
    /// What to do in the app, in one or two sentences.
    pub task: &'static str,
    /// What "Set up" loads and picks, if anything.
    pub setup: Option<Setup>,
    /// How the app knows the step is done.
    pub check: Check,
}

/// What a step's "Set up" button does: load a board (towards the blank-last goal) and pick the
/// search, the speed and the lower view.
#[derive(Clone, Copy, Debug)]
pub struct Setup {
    /// The board, in any format the app reads (`1 2 3/4 0 6/7 5 8`, a bench line).
    pub board: &'static str,
    /// Its name in the status bar and messages.
    pub name: &'static str,
    /// The algorithm to pick.
    pub algorithm: Algorithm,
    /// The heuristic to pick, by its command-line name (`manhattan`, `pdb:4,4`).
    pub heuristic: &'static str,
    /// The speed dial: steps a second, 0 as fast as possible.
    pub speed: u32,
    /// The view to show under the board.
    pub lower: LowerView,
}

/// How the app verifies a step.
#[derive(Clone, Copy)]
pub enum Check {
    /// Done when this holds of the app's state (evaluated every frame; cheap).
    State(fn(&AppState) -> bool),
    /// A question; the answer is computed from the state (`None` while the task that
    /// produces it is not done), and a wrong answer gets the hint.
    Answer {
        /// The question, one sentence.
        question: &'static str,
        /// The right answer, from the app's state; `None` until the task is done.
        answer: fn(&AppState) -> Option<u64>,
        /// Where to look, for a wrong answer.
        hint: &'static str,
    },
}

impl std::fmt::Debug for Check {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Check::State(_) => f.write_str("State"),
            Check::Answer { question, .. } => write!(f, "Answer({question:?})"),
        }
    }
}

/// The hint for "how many boards did it expand?": where the count is on screen.
const EXPANDED_HINT: &str = "The Solution panel on the right says \"found by … N expanded\"; the \
                             Stats panel's \"expanded\" and the inspector's first line after a stepped search.";

/// The lessons, in the order they are taught.
pub fn lessons() -> [&'static Lesson; 8] {
    [
        &basics::STATE_SPACE,
        &basics::BFS,
        &basics::ASTAR,
        &basics::ADMISSIBLE,
        &deeper::IDASTAR,
        &deeper::BETTER_H,
        &deeper::PDB,
        &deeper::PARITY,
    ]
}

/// How many lessons there are.
pub const LESSON_COUNT: usize = 8;

/// What a typed answer got.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnswerVerdict {
    /// Right: the step is passed.
    Right,
    /// Not a whole number.
    NotANumber,
    /// The task that produces the answer is not done yet.
    TaskFirst,
    /// Wrong; the hint says where to look.
    Wrong,
}

/// Where the student is in the lessons and what they have passed (plain data: it can be
/// saved with the settings).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct LessonProgress {
    /// The lesson shown, 0-based.
    pub lesson: usize,
    /// Its step shown, 0-based.
    pub step: usize,
    /// For each lesson, how many of its steps are passed, from the first (a step is passed
    /// in order: Next needs the step's check).
    pub passed: Vec<usize>,
    /// Whether the first-launch offer of lesson 1 was answered (taken or declined).
    pub offered: bool,
    /// The answer being typed for the step's question.
    #[serde(skip)]
    pub answer: String,
    /// The verdict on the last answer checked, for this step.
    #[serde(skip)]
    pub verdict: Option<AnswerVerdict>,
}

impl Default for LessonProgress {
    fn default() -> Self {
        LessonProgress {
            lesson: 0,
            step: 0,
            passed: vec![0; LESSON_COUNT],
            offered: false,
            answer: String::new(),
            verdict: None,
        }
    }
}

impl LessonProgress {
    /// The lesson shown (a lesson or step out of range, as from a damaged file, is read as
    /// the first).
    pub fn lesson(&self) -> &'static Lesson {
        lessons()[self.lesson.min(LESSON_COUNT - 1)]
    }

    /// The step shown.
    pub fn step(&self) -> &'static Step {
        let steps = self.lesson().steps;
        &steps[self.step.min(steps.len() - 1)]
    }

    /// How many steps of `lesson` are passed.
    pub fn passed_in(&self, lesson: usize) -> usize {
        self.passed.get(lesson).copied().unwrap_or(0)
    }

    /// Whether every step of `lesson` is passed.
    pub fn is_done(&self, lesson: usize) -> bool {
        lessons()
            .get(lesson)
            .is_some_and(|l| self.passed_in(lesson) >= l.steps.len())
    }

    /// Whether the step shown is passed (Next is then open).
    pub fn step_passed(&self) -> bool {
        self.step < self.passed_in(self.lesson)
    }

    /// Records the step shown as passed.
    fn pass(&mut self) {
        if self.passed.len() < LESSON_COUNT {
            self.passed.resize(LESSON_COUNT, 0);
        }
        let (l, s) = (self.lesson.min(LESSON_COUNT - 1), self.step);
        if self.passed[l] == s {
            self.passed[l] = s + 1;
        }
    }

    /// Whether there is a step or lesson after this one to go to.
    pub fn has_next(&self) -> bool {
        self.step + 1 < self.lesson().steps.len() || self.lesson + 1 < LESSON_COUNT
    }

    /// Goes to the next step (or the next lesson's first), if the step shown is passed.
    /// Returns whether it moved.
    pub fn go_next(&mut self) -> bool {
        if !self.step_passed() || !self.has_next() {
            return false;
        }
        if self.step + 1 < self.lesson().steps.len() {
            self.step += 1;
        } else {
            self.lesson += 1;
            self.step = 0;
        }
        self.clear_answer();
        true
    }

    /// Goes to the step before (or the previous lesson's last). Returns whether it moved.
    pub fn go_back(&mut self) -> bool {
        if self.step > 0 {
            self.step -= 1;
        } else if self.lesson > 0 {
            self.lesson -= 1;
            self.step = self.lesson().steps.len() - 1;
        } else {
            return false;
        }
        self.clear_answer();
        true
    }

    /// Opens `lesson` where the student left it: at its first step not passed (its first
    /// step when all are).
    pub fn open(&mut self, lesson: usize) {
        let Some(l) = lessons().get(lesson).copied() else {
            return;
        };
        if lesson != self.lesson {
            self.lesson = lesson;
            let next = self.passed_in(lesson);
            self.step = if next >= l.steps.len() { 0 } else { next };
            self.clear_answer();
        }
    }

    fn clear_answer(&mut self) {
        self.answer.clear();
        self.verdict = None;
    }
}

impl AppState {
    /// Applies the shown step's set-up: stops any search, sets the blank-last goal, loads the
    /// board and picks the algorithm, heuristic, speed and lower view. Returns whether the
    /// step has one.
    pub fn set_up_lesson(&mut self) -> bool {
        let Some(s) = self.lessons.step().setup else {
            return false;
        };
        if *self.goal_spec() != GoalSpec::BlankLast {
            self.set_goal(GoalSpec::BlankLast);
        }
        self.load_text(s.board, s.name);
        self.settings.algorithm = s.algorithm;
        if let Ok(h) = s.heuristic.parse::<HeuristicChoice>() {
            self.settings.heuristic = h;
        }
        self.set_speed(s.speed);
        self.view.lower = s.lower;
        self.view.show_heuristic = true;
        true
    }

    /// Evaluates the shown step's state check and records it when it holds; call once a
    /// frame. Returns whether the step is passed.
    pub fn check_lesson(&mut self) -> bool {
        if let Check::State(done) = self.lessons.step().check
            && !self.lessons.step_passed()
            && done(self)
        {
            self.lessons.pass();
        }
        self.lessons.step_passed()
    }

    /// Checks the typed answer to the shown step's question against the one computed from the
    /// app's state, records a right one, and keeps the verdict for the panel.
    pub fn answer_lesson(&mut self) -> AnswerVerdict {
        let Check::Answer { answer, .. } = self.lessons.step().check else {
            return AnswerVerdict::TaskFirst;
        };
        let verdict = match (parse_answer(&self.lessons.answer), answer(self)) {
            (None, _) => AnswerVerdict::NotANumber,
            (Some(_), None) => AnswerVerdict::TaskFirst,
            (Some(typed), Some(right)) if typed == right => AnswerVerdict::Right,
            (Some(_), Some(_)) => AnswerVerdict::Wrong,
        };
        if verdict == AnswerVerdict::Right {
            self.lessons.pass();
        }
        self.lessons.verdict = Some(verdict.clone());
        verdict
    }
}

/// A typed whole number; digit groups (spaces, commas, points, apostrophes, underscores) are
/// allowed: `181 440`, `181,440`.
fn parse_answer(s: &str) -> Option<u64> {
    let digits: String = s
        .trim()
        .chars()
        .filter(|c| !matches!(c, ' ' | ',' | '.' | '\'' | '_' | '\u{2009}' | '\u{202f}'))
        .collect();
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_read_with_digit_groups() {
        assert_eq!(parse_answer(" 181 440 "), Some(181_440));
        assert_eq!(parse_answer("181,440"), Some(181_440));
        assert_eq!(parse_answer("12"), Some(12));
        assert_eq!(parse_answer("-3"), None);
        assert_eq!(parse_answer("twelve"), None);
        assert_eq!(parse_answer(""), None);
    }

    #[test]
    fn next_needs_the_step_passed_and_open_resumes_where_left() {
        let mut p = LessonProgress::default();
        assert!(!p.go_next());
        p.pass();
        assert!(p.go_next());
        assert_eq!((p.lesson, p.step), (0, 1));
        p.open(3);
        assert_eq!((p.lesson, p.step), (3, 0));
        p.open(0);
        assert_eq!((p.lesson, p.step), (0, 1));
        assert!(p.go_back() && !p.go_back());
    }

    #[test]
    fn every_lesson_has_steps_and_the_count_is_right() {
        assert_eq!(lessons().len(), LESSON_COUNT);
        for l in lessons() {
            assert!(!l.steps.is_empty(), "{}", l.title);
        }
    }

    #[test]
    fn progress_round_trips_through_json_without_the_typed_answer() {
        let mut p = LessonProgress {
            lesson: 2,
            step: 1,
            offered: true,
            ..LessonProgress::default()
        };
        p.answer = "12".into();
        let text = serde_json::to_string(&p).unwrap();
        let back: LessonProgress = serde_json::from_str(&text).unwrap();
        assert_eq!((back.lesson, back.step, back.offered), (2, 1, true));
        assert!(back.answer.is_empty());
        // A damaged entry falls back to the defaults, never a panic.
        let odd: LessonProgress = serde_json::from_str(r#"{"lesson": 99, "step": 7}"#).unwrap();
        assert_eq!(odd.lesson().title, lessons()[LESSON_COUNT - 1].title);
        let _ = odd.step();
    }
}
