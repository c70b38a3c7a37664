//! Lessons 5 to 8: IDA* and its thresholds, linear conflict and walking distance, pattern
//! databases, and parity. Every answer is computed from the app's state (see `checks`).

use super::basics::FARTHEST;
use super::checks::{found_unsolvable, h_of, parity, solved, stepped};
use super::{Check, EXPANDED_HINT, Lesson, Setup, Step};
use crate::app::state::LowerView;
use crate::heuristic::HeuristicKind;
use crate::search::Algorithm;

/// Twenty-two moves from the goal: IDA* with Manhattan needs a few iterations.
const IDA_BOARD: &str = "5 2 8/4 1 7/0 3 6";
/// Tiles 1 and 2 swapped: one inversion, no solution.
const SWAPPED: &str = "2 1 3/4 5 6/7 8 0";
/// Sam Loyd's 15-puzzle with 14 and 15 swapped.
const LOYD: &str = "1 2 3 4/5 6 7 8/9 10 11 12/13 15 14 0";

const fn setup(board: &'static str, algorithm: Algorithm, h: &'static str) -> Setup {
    Setup {
        board,
        name: "lesson",
        algorithm,
        heuristic: h,
        speed: 0,
        lower: LowerView::Heatmap,
    }
}

/// Lesson 5: IDA* and its thresholds.
pub(super) static IDASTAR: Lesson = Lesson {
    title: "IDA*: thresholds and little memory",
    aim: "Why does IDA* need so little memory?",
    steps: &[
        Step {
            text: "A* keeps every board it has seen, in its open list and closed set. On the \
                   15-puzzle that can fill the memory. IDA* (iterative-deepening A*) searches \
                   depth first, along one path at a time. It prunes every board whose f = g + h \
                   is above a threshold. The first threshold is h of the start board.",
            task: "Press Set up, then Step once. The inspector shows the start board's h and \
                   the threshold.",
            setup: Some(Setup {
                lower: LowerView::Iterations,
                ..setup(IDA_BOARD, Algorithm::IdaStar, "manhattan")
            }),
            check: Check::Answer {
                question: "What is the first iteration's threshold?",
                answer: |st| {
                    stepped(st, IDA_BOARD, Algorithm::IdaStar, "manhattan")?;
                    h_of(st, IDA_BOARD, HeuristicKind::Manhattan)
                },
                hint: "It is h of the start board: the first expansion in the inspector shows \
                       it, and so does the caption above the board.",
            },
        },
        Step {
            text: "When an iteration ends without the goal, IDA* starts again from the start \
                   with a higher threshold: the smallest f it pruned. No board below that f \
                   was skipped, so no shorter solution can be missed.",
            task: "Press Next iteration twice. Each time the inspector says which iteration \
                   ended, with its threshold; the Iterations tab draws a bar for each (drag this \
                   window aside to see them all).",
            setup: None,
            check: Check::Answer {
                question: "What is the second iteration's threshold?",
                answer: |st| {
                    let v = stepped(st, IDA_BOARD, Algorithm::IdaStar, "manhattan")?;
                    v.iterations.get(1).map(|i| u64::from(i.threshold))
                },
                hint: "Hover the second bar in the Iterations tab, or read the inspector's line \
                       on the iteration that ended.",
            },
        },
        Step {
            text: "IDA* keeps only the boards on its current path, and the children still to \
                   try on it. The inspector's memory row compares that with what A* holds after \
                   as many expansions on the same board. The path is never longer than the \
                   threshold, so IDA*'s memory stays tiny.",
            task: "Press Step a few times and read the memory row in the inspector.",
            setup: None,
            check: Check::Answer {
                question: "How many nodes does IDA* hold on its path now?",
                answer: |st| {
                    let v = stepped(st, IDA_BOARD, Algorithm::IdaStar, "manhattan")?;
                    (st.run.solution().is_none() && v.path_nodes > 0).then_some(v.path_nodes as u64)
                },
                hint: "The memory row reads \"IDA* holds only its path, N nodes\".",
            },
        },
        Step {
            text: "The price of so little memory is repeated work: each iteration expands the \
                   early boards again. Each threshold's tree is larger than the last, so the \
                   last iteration does most of the work.",
            task: "Press Run and let the search finish.",
            setup: None,
            check: Check::Answer {
                question: "How many iterations did IDA* need?",
                answer: |st| {
                    solved(st, IDA_BOARD, Algorithm::IdaStar, "manhattan")
                        .map(|s| s.stats.iterations.len() as u64)
                },
                hint: "Count the bars in the Iterations tab (drag this window aside), or read \
                       \"IDA* iteration\" in the Stats panel.",
            },
        },
    ],
};

/// Lesson 6: linear conflict and walking distance.
pub(super) static BETTER_H: Lesson = Lesson {
    title: "Linear conflict and walking distance",
    aim: "How can a heuristic see more than Manhattan and stay admissible?",
    steps: &[
        Step {
            text: "Manhattan looks at each tile alone. Two tiles in their goal row, but in the \
                   wrong order, must pass each other: one must leave the row and come back, 2 \
                   moves Manhattan does not count. Linear conflict adds them, for rows and \
                   columns. The board draws the tiles in conflict joined by a line.",
            task: "Press Set up and read the caption above the board.",
            setup: Some(setup(FARTHEST, Algorithm::AStar, "linear-conflict")),
            check: Check::Answer {
                question: "What is h of this board with linear conflict?",
                answer: |st| h_of(st, FARTHEST, HeuristicKind::LinearConflict),
                hint: "The caption above the board begins \"linear conflict h = …\".",
            },
        },
        Step {
            text: "First the baseline: A* with Manhattan on this board, one of the farthest \
                   8-puzzle boards.",
            task: "Press Set up (it picks Manhattan), then Start.",
            setup: Some(setup(FARTHEST, Algorithm::AStar, "manhattan")),
            check: Check::Answer {
                question: "How many boards did A* expand with Manhattan?",
                answer: |st| {
                    solved(st, FARTHEST, Algorithm::AStar, "manhattan").map(|s| s.stats.expanded)
                },
                hint: EXPANDED_HINT,
            },
        },
        Step {
            text: "Linear conflict is never below Manhattan and never overestimates. So A* \
                   still finds the shortest path, and expands fewer boards.",
            task: "Press Set up (it picks linear conflict), then Start.",
            setup: Some(setup(FARTHEST, Algorithm::AStar, "linear-conflict")),
            check: Check::Answer {
                question: "How many boards did A* expand with linear conflict?",
                answer: |st| {
                    solved(st, FARTHEST, Algorithm::AStar, "linear-conflict")
                        .map(|s| s.stats.expanded)
                },
                hint: EXPANDED_HINT,
            },
        },
        Step {
            text: "Walking distance forgets which tile is which. For each row it keeps only how \
                   many of its tiles belong to each goal row. The fewest vertical moves that \
                   sort that simpler puzzle are computed once, exactly, in a table; the same for \
                   the columns. A move is vertical or horizontal, never both, so the two can be \
                   added and the sum never overestimates.",
            task: "Press Set up (it picks walking distance), then Start.",
            setup: Some(setup(FARTHEST, Algorithm::AStar, "walking-distance")),
            check: Check::Answer {
                question: "How many boards did A* expand with walking distance?",
                answer: |st| {
                    solved(st, FARTHEST, Algorithm::AStar, "walking-distance")
                        .map(|s| s.stats.expanded)
                },
                hint: EXPANDED_HINT,
            },
        },
    ],
};

/// Lesson 7: pattern databases, additive and reflected.
pub(super) static PDB: Lesson = Lesson {
    title: "Pattern databases",
    aim: "What is a pattern database, and why may its parts be added?",
    steps: &[
        Step {
            text: "A pattern is the board with only some of its tiles; the others are left \
                   blank. A pattern database is a table of the fewest moves that bring the \
                   pattern's tiles to their goal cells, for every place they can be. It is \
                   built once, by a breadth-first search from the goal, and then read in an \
                   instant. This one has two patterns of 4 tiles.",
            task: "Press Set up, then Start (the tables are built first, in a moment).",
            setup: Some(setup(FARTHEST, Algorithm::AStar, "pdb:4,4")),
            check: Check::Answer {
                question: "How many boards did A* expand with this pattern database?",
                answer: |st| {
                    solved(st, FARTHEST, Algorithm::AStar, "pdb:4,4").map(|s| s.stats.expanded)
                },
                hint: EXPANDED_HINT,
            },
        },
        Step {
            text: "Each table counts only the moves of its own tiles. A move slides one tile, \
                   so it counts in one table only: the tables' values can be added, and the \
                   sum still never overestimates. The board mirrored about its main diagonal \
                   (tiles renamed to match) needs exactly as many moves. So the tables are \
                   read for the mirrored board too, and the larger sum is used.",
            task: "Read the caption above the board: each pattern's value, and the mirrored \
                   board's.",
            setup: None,
            check: Check::Answer {
                question: "What is h of the start board with this database?",
                answer: |st| {
                    solved(st, FARTHEST, Algorithm::AStar, "pdb:4,4")
                        .map(|s| u64::from(s.stats.initial_h))
                },
                hint: "The caption above the board begins \"pdb:4,4 h = …\": the larger of the \
                       two sums.",
            },
        },
        Step {
            text: "One pattern of all 8 tiles is the whole board: its table holds the exact \
                   distance of every board. A* then expands only the boards of one shortest \
                   path. Such a table is too large for the 15-puzzle, which is why its \
                   databases split the tiles into patterns.",
            task: "Press Set up (it picks pdb8, one pattern of 8 tiles), then Start.",
            setup: Some(setup(FARTHEST, Algorithm::AStar, "pdb8")),
            check: Check::Answer {
                question: "How many boards did A* expand with pdb8?",
                answer: |st| {
                    solved(st, FARTHEST, Algorithm::AStar, "pdb8").map(|s| s.stats.expanded)
                },
                hint: EXPANDED_HINT,
            },
        },
    ],
};

/// Lesson 8: parity, why half of all boards are unsolvable.
pub(super) static PARITY: Lesson = Lesson {
    title: "Parity: why half of all boards are unsolvable",
    aim: "Why can a given board never reach the goal?",
    steps: &[
        Step {
            text: "Read the tiles row by row, skipping the blank. An inversion is a pair of \
                   tiles in the wrong order: a larger number before a smaller one. The goal \
                   has no inversions.",
            task: "Press Set up and count this board's inversions.",
            setup: Some(setup(SWAPPED, Algorithm::AStar, "manhattan")),
            check: Check::Answer {
                question: "How many inversions does this board have?",
                answer: |st| parity(st, SWAPPED).map(|p| p.start_inversions),
                hint: "Write the tiles in a line: 2 1 3 4 5 6 7 8. Count the pairs where a \
                       larger number comes first.",
            },
        },
        Step {
            text: "A sideways move keeps the reading order: the count stays. On a board 3 wide, \
                   a vertical move takes a tile past the 2 tiles between its old and new cell: \
                   the count changes by 2 or not at all. So whether it is even or odd, its \
                   parity, never changes. The goal has 0 inversions, an even number. This \
                   board has an odd number: no moves can ever bring it to the goal.",
            task: "Press Start. The app checks the parity before it searches.",
            setup: None,
            check: Check::State(|st| found_unsolvable(st, SWAPPED)),
        },
        Step {
            text: "Swapping two tiles changes the parity. So the boards fall into two halves of \
                   equal size, and only one half can reach the goal: 9!/2 boards on the 3×3 \
                   board. On a board 4 wide, a vertical move takes a tile past 3 tiles, which \
                   changes the parity, and moves the blank one row. So there the number of \
                   inversions plus the blank's row keeps its parity.",
            task: "Press Set up (Sam Loyd's puzzle: 14 and 15 swapped), then Start.",
            setup: Some(setup(LOYD, Algorithm::IdaStar, "manhattan")),
            check: Check::State(|st| found_unsolvable(st, LOYD)),
        },
    ],
};
