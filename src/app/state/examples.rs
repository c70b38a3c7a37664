//! The bundled example sets (File ▸ Open example): the benchmark files and the examples,
//! built into the binary, so that they open from any working directory.

use std::sync::OnceLock;

use super::AppState;
use crate::puzzle::parse::{Instance, parse_puzzles};

/// One bundled set of puzzles.
#[derive(Debug)]
pub struct ExampleSet {
    /// Its name in the menu.
    pub title: &'static str,
    /// The file it was built from (named in messages and as the puzzle's source).
    pub file: &'static str,
    /// How a puzzle of it is named before its id (`Korf #` gives `Korf #1`).
    prefix: &'static str,
    text: &'static str,
}

/// The bundled sets, in the menu's order.
pub static EXAMPLE_SETS: [ExampleSet; 6] = [
    ExampleSet {
        title: "The default puzzle",
        file: "assets/default.txt",
        prefix: "default",
        text: crate::DEFAULT_PUZZLE,
    },
    ExampleSet {
        title: "The hardest 8-puzzles (31 moves)",
        file: "assets/bench/hard8.txt",
        prefix: "",
        text: include_str!("../../../assets/bench/hard8.txt"),
    },
    ExampleSet {
        title: "Korf's 100 15-puzzles",
        file: "assets/bench/korf100.txt",
        prefix: "Korf #",
        text: include_str!("../../../assets/bench/korf100.txt"),
    },
    ExampleSet {
        title: "The 80-move 15-puzzles",
        file: "assets/bench/hard15.txt",
        prefix: "80-move #",
        text: include_str!("../../../assets/bench/hard15.txt"),
    },
    ExampleSet {
        title: "Korf & Felner's 24-puzzles",
        file: "assets/bench/korf24.txt",
        prefix: "Korf & Felner #",
        text: include_str!("../../../assets/bench/korf24.txt"),
    },
    ExampleSet {
        title: "Examples",
        file: "assets/examples/overestimate.txt",
        prefix: "",
        text: include_str!("../../../assets/examples/overestimate.txt"),
    },
];

impl ExampleSet {
    /// The set's puzzles, parsed once (a bundled file that does not parse gives none: a test
    /// checks that each parses).
    pub fn puzzles(&self) -> &'static [Instance] {
        static PARSED: OnceLock<Vec<Vec<Instance>>> = OnceLock::new();
        let all = PARSED.get_or_init(|| {
            EXAMPLE_SETS
                .iter()
                .map(|s| parse_puzzles(s.text, s.file, None).unwrap_or_default())
                .collect()
        });
        let i = EXAMPLE_SETS
            .iter()
            .position(|s| std::ptr::eq(s, self))
            .unwrap_or(0);
        &all[i]
    }

    /// Puzzle `i`'s name in the menu: `Korf #1 (57 moves)`, `hard8_A (31 moves)`; its size
    /// when it is not a 15-puzzle's and no length is known.
    pub fn label(&self, i: usize) -> String {
        let Some(p) = self.puzzles().get(i) else {
            return String::new();
        };
        let name = if self.prefix == "default" {
            "the default puzzle".to_string()
        } else {
            format!("{}{}", self.prefix, p.id)
        };
        match p.optimal {
            Some(n) => format!("{name} ({n} moves)"),
            None => format!("{name} ({}×{})", p.board.rows(), p.board.cols()),
        }
    }
}

impl AppState {
    /// Shows puzzle `i` of `set` with the goal its file names and the length it states (as
    /// [`AppState::load_text`] would its line). Returns whether there is such a puzzle.
    pub fn load_example(&mut self, set: &ExampleSet, i: usize) -> bool {
        let Some(p) = set.puzzles().get(i) else {
            return false;
        };
        let label = set.label(i);
        let source = match label.split_once(" (") {
            Some((name, _)) if set.prefix != "default" => format!("{} {name}", set.file),
            _ => format!("{} (bundled)", set.file),
        };
        self.load_instance(p.clone(), &source);
        true
    }
}
