//! Comparing heuristics: one board solved by several searches ([`measure`]), the effective
//! branching factor, and the textbook experiment ([`depth_experiment`]: the average nodes of
//! each search against the optimal solution depth, over random boards at exactly that depth,
//! as in Russell & Norvig's table of IDS, A*(h1) and A*(h2) on the 8-puzzle). Used by
//! `npuzzle compare` and the app's Compare panel; no I/O.

use rand::Rng;

use super::bfs::distance_table;
use super::rank::{rank, unrank};
use super::{Algorithm, Engine, Limits, Outcome, Problem, SearchError, run};
use crate::heuristic::HeuristicSpec;
use crate::puzzle::{Board, Goal};

/// The depths of Russell & Norvig's table of nodes against solution depth (2, 4, …, 24):
/// the experiment's default.
pub const TEXTBOOK_DEPTHS: [u32; 12] = [2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24];

/// What the textbook experiment runs with, besides its depths and methods: the boards asked
/// for at each depth, the seed of their draws, and the searches' conventions (also set in
/// the [`Limits`] it runs with). Stated beside its figures by the CLI and the app.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExperimentSettings {
    /// Boards asked for at each depth.
    pub samples: usize,
    /// The seed of the draws (the same seed draws the same boards).
    pub seed: u64,
    /// A*'s tie-break rule among open boards of equal f.
    pub tie_break: super::TieBreak,
    /// When BFS tests a board for the goal.
    pub bfs_goal_test: super::BfsGoalTest,
}

impl Default for ExperimentSettings {
    /// 20 boards a depth, seed 1, the default conventions.
    fn default() -> Self {
        ExperimentSettings {
            samples: 20,
            seed: 1,
            tie_break: Default::default(),
            bfs_goal_test: Default::default(),
        }
    }
}

/// One search to compare.
#[derive(Clone, Debug)]
pub enum Method {
    /// Breadth-first search: it has no heuristic (named `none` in tables).
    Bfs,
    /// A* or IDA* with a heuristic (a pattern database already loaded).
    Informed {
        /// `astar` or `idastar` (not `auto`); `greedy` or `weighted-astar` to contrast.
        algorithm: Algorithm,
        /// The heuristic.
        heuristic: HeuristicSpec,
    },
}

impl Method {
    /// `algorithm` with `heuristic`.
    pub fn informed(algorithm: Algorithm, heuristic: HeuristicSpec) -> Method {
        Method::Informed {
            algorithm,
            heuristic,
        }
    }

    /// The search.
    pub fn algorithm(&self) -> Algorithm {
        match self {
            Method::Bfs => Algorithm::Bfs,
            Method::Informed { algorithm, .. } => *algorithm,
        }
    }

    /// Whether its answers are optimal: BFS, and an optimal search
    /// ([`Algorithm::is_optimal`]) with an admissible heuristic.
    pub fn is_optimal(&self) -> bool {
        match self {
            Method::Bfs => true,
            Method::Informed {
                algorithm,
                heuristic,
            } => algorithm.guarantees_optimal(heuristic.is_admissible()),
        }
    }

    /// The heuristic's name, as tables show it (`none` for BFS).
    pub fn name(&self) -> String {
        match self {
            Method::Bfs => "none".to_string(),
            Method::Informed { heuristic, .. } => heuristic.name().to_string(),
        }
    }

    /// h of `problem`'s start, in moves (0 for BFS).
    fn initial_h(&self, problem: &Problem) -> u32 {
        match self {
            Method::Bfs => 0,
            Method::Informed { heuristic, .. } => heuristic
                .build(&problem.goal)
                .estimate(problem.start.tiles()),
        }
    }
}

/// What a comparison runs by default on `goal`'s board, in order: BFS (`None`) on boards of
/// at most [`MAX_TABLE_CELLS`](super::bfs::MAX_TABLE_CELLS) cells, then every heuristic
/// [`comparable`](crate::heuristic::comparable) gives (pattern databases that are cached or
/// quick to build, in `cache_dir`). The one list `npuzzle compare` and the app's Compare view
/// both run.
pub fn default_methods(
    goal: &Goal,
    cache_dir: Option<std::path::PathBuf>,
) -> Vec<Option<crate::heuristic::HeuristicChoice>> {
    let bfs = (goal.board().len() <= super::bfs::MAX_TABLE_CELLS).then_some(None);
    bfs.into_iter()
        .chain(
            crate::heuristic::comparable(goal, cache_dir)
                .into_iter()
                .map(Some),
        )
        .collect()
}

/// What one search of one board did.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Measure {
    /// The algorithm's name.
    pub algorithm: &'static str,
    /// Weighted A*'s weight on h ([`Algorithm::weight`]); `None` (JSON `null`) for the others.
    pub weight: Option<super::Weight>,
    /// The heuristic's name (`none` for BFS).
    pub heuristic: String,
    /// h of the start board, in moves (0 for BFS).
    pub initial_h: u32,
    /// Nodes expanded (at the stop, when a limit stopped the search); `nodes_expanded` in
    /// JSON, as in every command's output.
    #[serde(rename = "nodes_expanded")]
    pub expanded: u64,
    /// Nodes generated (`nodes_generated` in JSON).
    #[serde(rename = "nodes_generated")]
    pub generated: u64,
    /// Seconds of search.
    pub seconds: f64,
    /// Solution length in moves; `None` when stopped.
    pub moves: Option<u32>,
    /// Whether the search guarantees that length optimal ([`Method::is_optimal`]): false for
    /// greedy, weighted A* and a heuristic that overestimates.
    pub guaranteed_optimal: bool,
    /// Effective branching factor from the nodes generated ([`effective_branching_factor`];
    /// `effective_branching_factor` in JSON).
    #[serde(rename = "effective_branching_factor")]
    pub branching: Option<f64>,
    /// Why there is no solution (a limit, or the board is unsolvable).
    pub error: Option<String>,
}

/// Solves `problem` with `method` within `limits` and reports its figures; a search stopped
/// by a limit reports the counts at the stop and the limit as `error`.
pub fn measure(problem: &Problem, method: &Method, limits: &Limits) -> Measure {
    let mut last = super::Progress::default();
    let engine = match method {
        Method::Bfs => Engine::Bfs,
        Method::Informed {
            algorithm,
            heuristic,
        } => Engine::cpu(*algorithm, heuristic.clone()),
    };
    let limits = Limits {
        histogram: false,
        ..limits.clone()
    };
    let r = run(problem, engine, &limits, &mut |p| last = p.clone());
    let resolved = method.algorithm().resolve(problem.start.len());
    let (algorithm, weight) = (resolved.name(), resolved.weight());
    let heuristic = method.name();
    let initial_h = method.initial_h(problem);
    match r {
        Ok(Outcome::Solved(s)) => Measure {
            algorithm,
            weight,
            heuristic,
            initial_h,
            expanded: s.stats.expanded,
            generated: s.stats.generated,
            seconds: s.stats.seconds,
            moves: Some(s.moves.len() as u32),
            guaranteed_optimal: method.is_optimal(),
            branching: effective_branching_factor(s.stats.generated, s.moves.len() as u32),
            error: None,
        },
        other => Measure {
            algorithm,
            weight,
            heuristic,
            initial_h,
            expanded: last.expanded,
            generated: last.generated,
            seconds: last.seconds,
            moves: None,
            guaranteed_optimal: method.is_optimal(),
            branching: None,
            error: Some(match other {
                Ok(_) => "the board cannot reach the goal".to_string(),
                Err(e) => e.to_string(),
            }),
        },
    }
}

/// One depth of [`depth_experiment`]: per method, the mean over the boards drawn.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct DepthRow {
    /// Optimal solution length of every board of the row, in moves.
    pub depth: u32,
    /// Boards drawn (fewer than asked when fewer exist at this depth).
    pub boards: usize,
    /// One entry per method, in the order given.
    pub methods: Vec<DepthCell>,
}

/// A method's figures at one depth.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct DepthCell {
    /// The algorithm's name.
    pub algorithm: &'static str,
    /// The heuristic's name (`none` for BFS).
    pub heuristic: String,
    /// Boards it solved within the limits (the means are over these).
    pub solved: usize,
    /// Mean nodes expanded (`mean_nodes_expanded` in JSON).
    #[serde(rename = "mean_nodes_expanded")]
    pub expanded: f64,
    /// Mean nodes generated (`mean_nodes_generated` in JSON).
    #[serde(rename = "mean_nodes_generated")]
    pub generated: f64,
    /// Effective branching factor of the mean nodes generated
    /// (`effective_branching_factor` in JSON).
    #[serde(rename = "effective_branching_factor")]
    pub branching: Option<f64>,
    /// Mean seconds (`mean_seconds` in JSON).
    #[serde(rename = "mean_seconds")]
    pub seconds: f64,
}

/// The textbook experiment: for each depth, up to `samples` boards whose optimal solution is
/// exactly that many moves (`table` says), solved by every method; `on_row` gets each row as
/// it is finished, and the rows are returned.
///
/// # Errors
/// [`SearchError::BadSolution`] if a method's solution is not exactly the table's depth (a
/// bug: every search here is optimal); [`SearchError::Cancelled`] when `limits.cancel` is set.
pub fn depth_experiment(
    table: &DepthTable,
    depths: &[u32],
    samples: usize,
    methods: &[Method],
    limits: &Limits,
    rng: &mut impl Rng,
    on_row: &mut dyn FnMut(&DepthRow),
) -> Result<Vec<DepthRow>, SearchError> {
    let mut rows = Vec::new();
    for &depth in depths {
        let boards = table.boards_at(depth, samples, rng);
        let mut cells = Vec::new();
        for m in methods {
            let (mut solved, mut e, mut g, mut s) = (0usize, 0.0, 0.0, 0.0);
            let mut name = (m.algorithm().name(), m.name());
            for b in &boards {
                if limits
                    .cancel
                    .as_ref()
                    .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
                {
                    return Err(SearchError::Cancelled);
                }
                let p = Problem {
                    start: b.clone(),
                    goal: table.goal.clone(),
                };
                let r = measure(&p, m, limits);
                name = (r.algorithm, r.heuristic.clone());
                match r.moves {
                    Some(d) if d == depth => {
                        solved += 1;
                        e += r.expanded as f64;
                        g += r.generated as f64;
                        s += r.seconds;
                    }
                    Some(d) => {
                        return Err(SearchError::BadSolution(format!(
                            "{} {} solved {b} in {d} moves; its optimum is {depth}",
                            r.algorithm, r.heuristic
                        )));
                    }
                    None => {}
                }
            }
            let n = solved.max(1) as f64;
            cells.push(DepthCell {
                algorithm: name.0,
                heuristic: name.1,
                solved,
                expanded: e / n,
                generated: g / n,
                branching: (solved > 0)
                    .then(|| effective_branching_factor((g / n).round() as u64, depth))
                    .flatten(),
                seconds: s / n,
            });
        }
        let row = DepthRow {
            depth,
            boards: boards.len(),
            methods: cells,
        };
        on_row(&row);
        rows.push(row);
    }
    Ok(rows)
}

/// The effective branching factor b* of a search that generated `nodes` nodes to find a
/// solution of `depth` moves: the branching factor of a uniform tree of that depth with
/// `nodes + 1` nodes, `nodes + 1 = 1 + b* + b*² + … + b*^depth` (Russell & Norvig,
/// *Artificial Intelligence: A Modern Approach*, §3.6.1). Solved by bisection to 10⁻⁹.
///
/// `None` for a solution of 0 moves (no tree), or fewer nodes than moves.
pub fn effective_branching_factor(nodes: u64, depth: u32) -> Option<f64> {
    if depth == 0 || nodes < u64::from(depth) {
        return None;
    }
    let target = nodes as f64;
    // Nodes of a uniform tree of branching b below its root, to `depth`.
    let tree = |b: f64| -> f64 {
        let (mut sum, mut level) = (0.0, 1.0);
        for _ in 0..depth {
            level *= b;
            sum += level;
            if sum > target {
                break;
            }
        }
        sum
    };
    let (mut lo, mut hi) = (1.0f64, target.max(1.0));
    while hi - lo > 1e-9 {
        let mid = 0.5 * (lo + hi);
        if tree(mid) < target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(0.5 * (lo + hi))
}

/// Every board's exact distance to one goal, for drawing boards at a chosen depth.
pub struct DepthTable {
    goal: Goal,
    dist: Vec<u8>,
}

impl DepthTable {
    /// The table for `goal` (one breadth-first search of the whole space), or `None` for boards
    /// of more than [`super::bfs::MAX_TABLE_CELLS`] cells.
    pub fn new(goal: &Goal) -> Option<DepthTable> {
        Some(DepthTable {
            goal: goal.clone(),
            dist: distance_table(goal)?,
        })
    }

    /// The goal the distances are to.
    pub fn goal(&self) -> &Goal {
        &self.goal
    }

    /// The largest distance of any board (31 for 3×3).
    pub fn max_depth(&self) -> u32 {
        self.dist
            .iter()
            .filter(|&&d| d != u8::MAX)
            .max()
            .map_or(0, |&d| u32::from(d))
    }

    /// The exact distance of `board` in moves (`None` when it cannot reach the goal).
    pub fn distance(&self, board: &Board) -> Option<u32> {
        let d = *self.dist.get(rank(board.tiles()) as usize)?;
        (d != u8::MAX).then_some(u32::from(d))
    }

    /// Up to `count` distinct boards whose optimal solution is exactly `depth` moves, drawn
    /// uniformly among all such boards (fewer when fewer exist).
    pub fn boards_at(&self, depth: u32, count: usize, rng: &mut impl Rng) -> Vec<Board> {
        // Reservoir sampling over the boards at that depth, in rank order.
        let mut picked: Vec<u64> = Vec::with_capacity(count.min(1 << 16));
        let mut seen = 0u64;
        for (r, &d) in self.dist.iter().enumerate() {
            if u32::from(d) != depth || d == u8::MAX {
                continue;
            }
            seen += 1;
            if picked.len() < count {
                picked.push(r as u64);
            } else {
                let j = rng.random_range(0..seen);
                if (j as usize) < count {
                    picked[j as usize] = r as u64;
                }
            }
        }
        let b = self.goal.board();
        let mut tiles = vec![0u8; b.len()];
        picked
            .into_iter()
            .filter_map(|r| {
                unrank(r, &mut tiles);
                Board::from_u8(b.rows(), b.cols(), &tiles).ok()
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn branching_factor_of_the_textbook_example() {
        // AIMA: a solution at depth 5 found with 52 nodes has b* = 1.92.
        let b = effective_branching_factor(52, 5).unwrap();
        assert!((b - 1.92).abs() < 0.005, "{b}");
        // A search that generates only the path has b* = 1.
        assert!((effective_branching_factor(7, 7).unwrap() - 1.0).abs() < 1e-6);
        assert_eq!(effective_branching_factor(3, 0), None);
        // A full binary tree of depth 10: 2046 nodes below the root.
        assert!((effective_branching_factor(2046, 10).unwrap() - 2.0).abs() < 1e-6);
    }
}
