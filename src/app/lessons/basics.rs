//! Lessons 1 to 4: the state space, breadth-first search, A* with f = g + h, and what
//! admissibility buys. Every answer is computed from the app's state (see `checks`).

use super::checks::{expanded, h_of, on_board, solved, stepped};
use super::{Check, EXPANDED_HINT, Lesson, Setup, Step};
use crate::app::state::LowerView;
use crate::heuristic::HeuristicKind;
use crate::search::Algorithm;

/// Two moves from the goal: the blank in the middle.
pub(super) const NEAR: &str = "1 2 3/4 0 6/7 5 8";
/// One of the two 8-puzzle boards farthest from the blank-last goal.
pub(super) const FARTHEST: &str = "8 6 7/2 5 4/3 0 1";
/// Six moves from the goal: small enough to watch BFS.
const BFS_BOARD: &str = "4 1 3/7 2 6/0 5 8";
/// Seventeen moves from the goal: misplaced tiles and Manhattan differ tenfold.
const ASTAR_BOARD: &str = "4 1 2/0 8 7/6 3 5";
/// The bundled example on which the overestimating heuristic returns a longer path.
const OVERESTIMATE: &str = include_str!("../../../assets/examples/overestimate.txt");

const fn setup(
    board: &'static str,
    name: &'static str,
    algorithm: Algorithm,
    h: &'static str,
) -> Setup {
    Setup {
        board,
        name,
        algorithm,
        heuristic: h,
        speed: 0,
        lower: LowerView::Heatmap,
    }
}

/// Lesson 1: boards, moves, the state space and its size.
pub(super) static STATE_SPACE: Lesson = Lesson {
    title: "Boards, moves and the state space",
    aim: "What is a search looking for, and how many boards are there to search?",
    steps: &[
        Step {
            text: "The 8-puzzle is a 3×3 board with eight numbered tiles and one empty cell, \
                   the blank. A move slides a tile that is next to the blank into it. The goal \
                   is the board with the tiles in order, 1 to 8, and the blank last.",
            task: "Press Set up. Then click a tile next to the blank (or press an arrow key) \
                   until the board shows the goal.",
            setup: Some(setup(NEAR, "lesson 1", Algorithm::AStar, "manhattan")),
            check: Check::State(|st| {
                st.play.moves() > 0 && st.goal().is_some_and(|g| st.board() == g.board())
            }),
        },
        Step {
            text: "Each arrangement of the tiles is a state. The moves join the states into a \
                   graph: the state space. Solving the puzzle is finding a shortest path in \
                   this graph, from the start board to the goal. A search explores the graph \
                   one board at a time.",
            task: "Press Set up, then Step (or N) once. The inspector on the right counts the \
                   boards that can be reached from this one.",
            setup: Some(setup(NEAR, "lesson 1", Algorithm::AStar, "manhattan")),
            check: Check::Answer {
                question: "How many boards can be reached from a 3×3 board?",
                answer: |st| {
                    stepped(st, NEAR, Algorithm::AStar, "manhattan").map(|_| {
                        crate::puzzle::reachable_boards(st.board().rows(), st.board().cols()) as u64
                    })
                },
                hint: "Read the inspector's line \"1 state expanded out of N reachable\". \
                       It is 9!/2: half of the 9! ways to place the tiles (lesson 8 says why).",
            },
        },
        Step {
            text: "The distance of a board is the fewest moves that bring it to the goal. Some \
                   boards are much farther than others. The app finds the distance of the \
                   board on screen in the background, after every move.",
            task: "Press Set up and read the line above the board: \"moves to solve\".",
            setup: Some(setup(FARTHEST, "lesson 1", Algorithm::AStar, "manhattan")),
            check: Check::Answer {
                question: "How many moves does this board need at least?",
                answer: |st| {
                    st.play
                        .to_go(st.board())
                        .filter(|_| on_board(st, FARTHEST))
                        .map(u64::from)
                },
                hint: "Read the line above the board; wait a moment if it says it is thinking.",
            },
        },
    ],
};

/// Lesson 2: breadth-first search.
pub(super) static BFS: Lesson = Lesson {
    title: "Breadth-first search",
    aim: "Why is the first solution breadth-first search finds a shortest one?",
    steps: &[
        Step {
            text: "Breadth-first search (BFS) expands boards in order of their depth g, the \
                   number of moves from the start: first the start, then every board 1 move \
                   away, then 2 moves away. To expand a board is to make its successors, the \
                   boards one move away. New ones wait in a queue, the open list. Boards already \
                   seen are kept in the closed set and are not queued again.",
            task: "Press Set up, then Step five times. Watch the inspector and the Tree tab: \
                   every board at depth 1 is expanded before any at depth 2.",
            setup: Some(Setup {
                lower: LowerView::Tree,
                ..setup(BFS_BOARD, "lesson 2", Algorithm::Bfs, "manhattan")
            }),
            check: Check::State(|st| {
                stepped(st, BFS_BOARD, Algorithm::Bfs, "").is_some_and(|v| expanded(v) >= 5)
            }),
        },
        Step {
            text: "BFS stops when it takes the goal from the open list. Every board nearer the \
                   start was expanded before it, so no shorter path was missed: the first \
                   solution BFS finds is a shortest one.",
            task: "Press Run and let the search finish.",
            setup: None,
            check: Check::Answer {
                question: "How many boards did BFS expand?",
                answer: |st| solved(st, BFS_BOARD, Algorithm::Bfs, "").map(|s| s.stats.expanded),
                hint: EXPANDED_HINT,
            },
        },
        Step {
            text: "BFS has no idea where the goal is: it searches in every direction, and it \
                   keeps every board it reaches. A 15-puzzle board 50 moves away would need more \
                   memory than any computer has. The next lessons give the search a sense of \
                   direction.",
            task: "Read the solution's length in the Solution panel or the status bar.",
            setup: None,
            check: Check::Answer {
                question: "How many moves is the solution?",
                answer: |st| {
                    solved(st, BFS_BOARD, Algorithm::Bfs, "").map(|s| s.moves.len() as u64)
                },
                hint: "The status bar at the top says \"solved: N moves\".",
            },
        },
    ],
};

/// Lesson 3: A*, f = g + h, misplaced tiles against Manhattan.
pub(super) static ASTAR: Lesson = Lesson {
    title: "A*: f = g + h",
    aim: "Why is A* with Manhattan optimal, and why does it expand fewer boards than with \
          misplaced tiles?",
    steps: &[
        Step {
            text: "A* adds a guess. g is the number of moves made from the start; h is an \
                   estimate of the moves still needed. A* always expands the board on the open \
                   list with the lowest f = g + h. The simplest h counts the misplaced tiles \
                   (Hamming): the tiles not on their goal cell.",
            task: "Press Set up, then Step once. The inspector shows the start board's g, h \
                   and f, and each successor's.",
            setup: Some(setup(ASTAR_BOARD, "lesson 3", Algorithm::AStar, "hamming")),
            check: Check::Answer {
                question: "What is h of the start board, with misplaced tiles?",
                answer: |st| {
                    stepped(st, ASTAR_BOARD, Algorithm::AStar, "hamming")?;
                    h_of(st, ASTAR_BOARD, HeuristicKind::Hamming)
                },
                hint: "The first expansion in the inspector reads \"g 0 h … f …\". You can also \
                       count the ringed tiles on the board.",
            },
        },
        Step {
            text: "A misplaced tile needs at least one move, so this h never overestimates: it \
                   is admissible. That makes A* optimal. Some board of a shortest path is always \
                   on the open list, and its f is at most the shortest length. A goal reached \
                   by a longer path has f equal to that longer length. So A* expands the board \
                   of the shortest path first, and finds the shortest path.",
            task: "Press Run and let the search finish.",
            setup: None,
            check: Check::Answer {
                question: "How many boards did A* expand with misplaced tiles?",
                answer: |st| {
                    solved(st, ASTAR_BOARD, Algorithm::AStar, "hamming").map(|s| s.stats.expanded)
                },
                hint: EXPANDED_HINT,
            },
        },
        Step {
            text: "The Manhattan distance adds, for each tile, the rows and columns between it \
                   and its goal cell. A move shifts one tile by one cell, so it never \
                   overestimates either: A* with Manhattan is optimal too. It is never below \
                   the misplaced tiles, and usually well above.",
            task: "Press Set up (it picks Manhattan), then Start.",
            setup: Some(setup(
                ASTAR_BOARD,
                "lesson 3",
                Algorithm::AStar,
                "manhattan",
            )),
            check: Check::Answer {
                question: "How many boards did A* expand with Manhattan?",
                answer: |st| {
                    solved(st, ASTAR_BOARD, Algorithm::AStar, "manhattan").map(|s| s.stats.expanded)
                },
                hint: EXPANDED_HINT,
            },
        },
        Step {
            text: "Both searches return a path of the same length: both are optimal. But \
                   Manhattan expanded far fewer boards. A* must expand every board whose f is \
                   below the shortest length. A larger h that never overestimates makes f \
                   larger, so fewer boards fall below that length.",
            task: "Read the solution's length.",
            setup: None,
            check: Check::Answer {
                question: "How many moves is the shortest solution?",
                answer: |st| {
                    solved(st, ASTAR_BOARD, Algorithm::AStar, "manhattan")
                        .map(|s| s.moves.len() as u64)
                },
                hint: "The status bar at the top says \"solved: N moves (optimal)\".",
            },
        },
    ],
};

/// Lesson 4: admissible and consistent heuristics, and what breaks without them.
pub(super) static ADMISSIBLE: Lesson = Lesson {
    title: "Admissible and consistent",
    aim: "What goes wrong when a heuristic overestimates?",
    steps: &[
        Step {
            text: "A heuristic is admissible when it never overestimates the moves still \
                   needed. It is consistent when h drops by at most 1 at each move, as the true \
                   distance does. Then f never drops along a path, and A* never has to reopen \
                   a board it has closed. Manhattan is both.",
            task: "Press Set up, then Start.",
            setup: Some(setup(
                OVERESTIMATE,
                "lesson 4",
                Algorithm::AStar,
                "manhattan",
            )),
            check: Check::Answer {
                question: "How many moves is A*'s answer with Manhattan?",
                answer: |st| {
                    solved(st, OVERESTIMATE, Algorithm::AStar, "manhattan")
                        .map(|s| s.moves.len() as u64)
                },
                hint: "The status bar at the top says \"solved: N moves\".",
            },
        },
        Step {
            text: "Now a heuristic that is not admissible: twice the Manhattan distance. It \
                   overestimates, so a board on the shortest path can look worse than it is. \
                   A* may then take the goal by a longer path before it expands that board.",
            task: "Press Set up (it picks overestimating-manhattan), then Start. The status \
                   bar says the answer is not guaranteed optimal.",
            setup: Some(setup(
                OVERESTIMATE,
                "lesson 4",
                Algorithm::AStar,
                "overestimating-manhattan",
            )),
            check: Check::Answer {
                question: "How many moves longer than the optimum is this answer?",
                answer: |st| {
                    let s = solved(
                        st,
                        OVERESTIMATE,
                        Algorithm::AStar,
                        "overestimating-manhattan",
                    )?;
                    let best = st.known_optimum()?;
                    Some((s.moves.len() as u64).saturating_sub(u64::from(best)))
                },
                hint: "Compare this answer's length with the last step's, or read the status \
                       bar.",
            },
        },
        Step {
            text: "Greedy best-first search goes further: f = h alone. It ignores the moves \
                   made and always expands the board that looks closest to the goal. It often \
                   expands few boards (not here: compare its count with A*'s), and its path \
                   can be much longer, with no bound. Weighted A*, f = g + w·h, lies between: \
                   its path is at most w times the shortest.",
            task: "Press Set up (it picks greedy best-first), then Start.",
            setup: Some(setup(
                OVERESTIMATE,
                "lesson 4",
                Algorithm::Greedy,
                "manhattan",
            )),
            check: Check::Answer {
                question: "How many moves is greedy's path?",
                answer: |st| {
                    solved(st, OVERESTIMATE, Algorithm::Greedy, "manhattan")
                        .map(|s| s.moves.len() as u64)
                },
                hint: "The status bar at the top says \"solved: N moves\".",
            },
        },
    ],
};
