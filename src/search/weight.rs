//! The searches that give up optimality for speed, to contrast with A*: greedy best-first
//! search (f = h) and weighted A* (f = g + w·h), and how each best-first search files a node
//! on its open list.
//!
//! All three run on A*'s best-first core (`best_first.rs`) and its bucket queue by (f, g); only
//! the f a node is filed under differs ([`Algorithm::order_f`]). Weighted A*'s f is kept
//! integral in tenths of a move: f = 10·g + 10w·h, w a multiple of 0.1 ([`Weight`]). With an
//! admissible heuristic, weighted A* returns a path at most w times the optimum (I. Pohl,
//! "Heuristic search viewed as path finding in a graph", Artificial Intelligence 1 (1970));
//! greedy best-first search (J. Doran, D. Michie, "Experiments with the Graph Traverser
//! program", Proc. R. Soc. A 294 (1966)) gives no bound. Both reopen a board reached by a
//! cheaper path, as A* does.

use std::fmt;
use std::str::FromStr;

use super::Algorithm;

/// Weighted A*'s weight w on h, in tenths (10 = 1.0, A* itself): from [`Weight::MIN`] to
/// [`Weight::MAX`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Weight(u8);

impl Weight {
    /// 1.0: A*'s order (and its optimal answers, with an admissible heuristic).
    pub const MIN: Weight = Weight(10);
    /// 10.0, the command line's largest (the app's slider stops at 5).
    pub const MAX: Weight = Weight(100);
    /// 2.0, `--algorithm weighted-astar` without `--weight`.
    pub const DEFAULT: Weight = Weight(20);

    /// The weight of `tenths` tenths, clamped to [`Weight::MIN`]..=[`Weight::MAX`].
    pub fn from_tenths(tenths: u32) -> Weight {
        Weight(tenths.clamp(10, 100) as u8)
    }

    /// w in tenths (10 to 100).
    pub fn tenths(self) -> u32 {
        u32::from(self.0)
    }

    /// w as a number (1.0 to 10.0).
    pub fn value(self) -> f64 {
        f64::from(self.0) / 10.0
    }
}

/// A quantity kept in tenths, as people read it: `2` for 20, `10.5` for 105 (tenths shown
/// only when there are some). Weighted A*'s w and f are kept this way.
pub fn tenths_text(tenths: u32) -> String {
    if tenths.is_multiple_of(10) {
        (tenths / 10).to_string()
    } else {
        format!("{}.{}", tenths / 10, tenths % 10)
    }
}

impl Default for Weight {
    fn default() -> Self {
        Weight::DEFAULT
    }
}

impl fmt::Display for Weight {
    /// `2`, `1.5`: tenths shown only when there are some.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&tenths_text(self.tenths()))
    }
}

impl serde::Serialize for Weight {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(self.value())
    }
}

/// A `--weight` that is not a number from 1 to 10 in tenths.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("weight {0:?}: expected a number from 1 to 10 with at most one decimal (e.g. 1.5)")]
pub struct BadWeight(pub String);

impl FromStr for Weight {
    type Err = BadWeight;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || BadWeight(s.to_string());
        let t = s.trim();
        let (whole, tenth) = t.split_once('.').unwrap_or((t, "0"));
        let tenth = if tenth.is_empty() { "0" } else { tenth };
        if whole.is_empty()
            || !whole.bytes().all(|b| b.is_ascii_digit())
            || tenth.len() != 1
            || !tenth.bytes().all(|b| b.is_ascii_digit())
            || whole.len() > 3
        {
            return Err(bad());
        }
        let tenths = whole.parse::<u32>().map_err(|_| bad())? * 10
            + tenth.parse::<u32>().map_err(|_| bad())?;
        if !(10..=100).contains(&tenths) {
            return Err(bad());
        }
        Ok(Weight(tenths as u8))
    }
}

impl Algorithm {
    /// The f under which this best-first search files a node at depth `g` with heuristic `h`
    /// (in moves): A*'s (and batched A*'s) g + h; weighted A*'s 10·g + 10w·h, in tenths of a
    /// move; greedy best-first's h. The open list pops the lowest f, ties by highest g.
    pub fn order_f(self, g: u32, h: u32) -> u32 {
        match self {
            Algorithm::Greedy => h,
            Algorithm::WeightedAStar(w) => 10 * g + w.tenths() * h,
            _ => g + h,
        }
    }

    /// The h of an open-list entry filed under `f` at depth `g` ([`Algorithm::order_f`]'s
    /// inverse).
    pub fn h_of(self, f: u32, g: u32) -> u32 {
        match self {
            Algorithm::Greedy => f,
            Algorithm::WeightedAStar(w) => f.saturating_sub(10 * g) / w.tenths(),
            _ => f.saturating_sub(g),
        }
    }

    /// The f of an open-list entry in moves, as the app shows it: g + h in A*, g + w·h in
    /// weighted A* (rounded down to a move), h in greedy best-first search.
    pub fn f_in_moves(self, f: u32) -> u32 {
        match self {
            Algorithm::WeightedAStar(_) => f / 10,
            _ => f,
        }
    }

    /// A lower bound on the optimal length, in moves, from the least f on the open list
    /// (with an admissible heuristic): f itself in A*; f / 10w in weighted A*, since
    /// (10·g + 10w·h) / 10w ≤ g + h; h in greedy search, since h ≤ g + h.
    pub fn bound_of(self, f: u32) -> u32 {
        match self {
            Algorithm::WeightedAStar(w) => f / w.tenths(),
            _ => f,
        }
    }

    /// Whether its answers are guaranteed optimal with a heuristic that is (`admissible`) or
    /// is not admissible: an optimal search ([`Algorithm::is_optimal`]) with an admissible
    /// heuristic. What the CLI, the JSON's `guaranteed_optimal` and the app say.
    pub fn guarantees_optimal(self, admissible: bool) -> bool {
        self.is_optimal() && admissible
    }

    /// Whether the answer is an optimal solution when the heuristic is admissible: false for
    /// greedy best-first search and weighted A* with w above 1.
    pub fn is_optimal(self) -> bool {
        match self {
            Algorithm::Greedy => false,
            Algorithm::WeightedAStar(w) => w == Weight::MIN,
            _ => true,
        }
    }

    /// What the search does, in two or three plain sentences for a student (the app's menu):
    /// the order it expands boards in, what it keeps in memory, and whether its answer is
    /// optimal (as [`Algorithm::is_optimal`] says).
    pub fn about(self) -> &'static str {
        match self {
            Algorithm::Auto => {
                "Picks a search for the board's size: A* for small boards, IDA* (or its GPU form) for larger ones."
            }
            Algorithm::Bfs => {
                "Breadth-first search: expands every board 1 move away, then every board 2 moves away, and so on. It uses no heuristic and keeps every board it has seen, so only small puzzles fit in memory. Its answer is optimal."
            }
            Algorithm::AStar => {
                "Expands the board on the open list with the lowest f = g + h first (g: moves made, h: the estimate of moves left) and keeps every board seen. Optimal when h is admissible."
            }
            Algorithm::IdaStar => {
                "Iterative deepening A*: depth-first searches that stop where f = g + h passes a threshold, each with the next threshold: the smallest f that passed the last one. It keeps only the current path, so it needs little memory. Optimal when h is admissible."
            }
            Algorithm::BatchedAStar => {
                "A* in rounds: each round takes a batch of the best boards from the open list, and the evaluator (the GPU, or the CPU) computes h for all their successors at once. Optimal when h is admissible."
            }
            Algorithm::GpuIdaStar => {
                "IDA* whose subtrees are searched on the GPU, thousands at once, in rounds: the same tree and answer as IDA*. Optimal when h is admissible."
            }
            Algorithm::Greedy => {
                "Greedy best-first search: expands the board with the lowest h first, ignoring the moves made (f = h). Often fast; not optimal."
            }
            Algorithm::WeightedAStar(_) => {
                "Weighted A*: f = g + w·h. A weight w above 1 trusts h more and expands fewer boards; the answer is at most w times the optimum, so not always optimal."
            }
        }
    }

    /// Whether this is one of the searches on A*'s best-first core that the open list orders
    /// by [`Algorithm::order_f`]: A*, greedy best-first, weighted A*.
    pub fn is_astar_like(self) -> bool {
        matches!(
            self,
            Algorithm::AStar | Algorithm::Greedy | Algorithm::WeightedAStar(_)
        )
    }

    /// The weight on h: weighted A*'s, `None` for the others.
    pub fn weight(self) -> Option<Weight> {
        match self {
            Algorithm::WeightedAStar(w) => Some(w),
            _ => None,
        }
    }
}

/// A search's name with weighted A*'s weight, as tables show it: `weighted-astar w=2`,
/// `astar` (`weight` `None`).
pub fn search_label(name: &str, weight: Option<Weight>) -> String {
    match weight {
        Some(w) => format!("{name} w={w}"),
        None => name.to_string(),
    }
}

/// The line that says an answer of `length` moves may not be optimal, with the gap when the
/// optimum is known: "58 moves; the optimum is 50: 8 more", "58 moves, not guaranteed
/// optimal".
pub fn gap_text(length: usize, optimum: Option<usize>) -> String {
    let moves = |n: usize| format!("{n} move{}", if n == 1 { "" } else { "s" });
    match optimum {
        Some(o) if length > o => {
            format!("{}; the optimum is {o}: {} more", moves(length), length - o)
        }
        Some(o) if length == o => {
            format!("{}; the optimum is {o}: optimal this time", moves(length))
        }
        Some(o) => format!(
            "{}; the stated optimum is {o}, which is longer",
            moves(length)
        ),
        None => format!("{}, not guaranteed optimal", moves(length)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_parse_in_tenths_and_print_back() {
        for (s, t) in [
            ("1", 10),
            ("1.5", 15),
            ("2.0", 20),
            ("10", 100),
            (" 3.", 30),
        ] {
            let w: Weight = s.parse().unwrap();
            assert_eq!(w.tenths(), t, "{s}");
        }
        for s in ["0.9", "10.1", "1.25", "", "x", "-1", ".5", "1e1", "1000"] {
            assert!(s.parse::<Weight>().is_err(), "{s}");
        }
        assert_eq!(Weight::from_tenths(15).to_string(), "1.5");
        assert_eq!(Weight::from_tenths(30).to_string(), "3");
        assert_eq!(Weight::from_tenths(3), Weight::MIN);
    }

    #[test]
    fn f_round_trips_to_h() {
        let w = Algorithm::WeightedAStar(Weight::from_tenths(15));
        for a in [Algorithm::AStar, Algorithm::Greedy, w] {
            for (g, h) in [(0, 0), (3, 7), (20, 1)] {
                assert_eq!(a.h_of(a.order_f(g, h), g), h, "{a} {g} {h}");
            }
        }
        assert_eq!(w.order_f(4, 6), 40 + 90);
        assert_eq!(w.f_in_moves(130), 13);
        assert_eq!(w.bound_of(130), 8);
        assert!(!w.is_optimal() && !Algorithm::Greedy.is_optimal());
        assert!(Algorithm::WeightedAStar(Weight::MIN).is_optimal());
    }

    #[test]
    fn the_gap_is_said() {
        assert_eq!(
            gap_text(58, Some(50)),
            "58 moves; the optimum is 50: 8 more"
        );
        assert_eq!(
            gap_text(50, Some(50)),
            "50 moves; the optimum is 50: optimal this time"
        );
        assert_eq!(gap_text(1, None), "1 move, not guaranteed optimal");
    }
}
