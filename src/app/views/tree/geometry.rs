//! The search tree's geometry, computed once each time the tree changes and drawn from then
//! on as it is: every expanded node and every generated child with its fate, where each sits,
//! the edges, the solution path, and what was left out to keep the picture readable.

use egui::{Pos2, Rect, vec2};

use crate::puzzle::{Board, Move};
use crate::search::stepper::{Fate, TreeNode};

/// Horizontal and vertical spacing of the nodes, in scene points.
pub const DX: f32 = 24.0;
/// Vertical spacing of the rows (one per g), in scene points.
pub const DY: f32 = 34.0;

/// Nodes drawn at most (expanded and generated): past it, the generated children that were not
/// expanded are left out and the caption says how many.
pub const DRAWN_LIMIT: usize = 8_000;

/// What a drawn node is: an expanded node, or a generated child by its fate. Each has a shape
/// and a letter of its own (colour is never the only cue): see [`Mark::letter`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mark {
    /// Expanded: a filled disc with its expansion number.
    Expanded,
    /// Pushed on the open list (IDA*: within the threshold) and not expanded (yet): a ring.
    Pushed,
    /// Reached before at a higher g, pushed again with the lower one: a hollow diamond.
    BetterPath,
    /// Reached before at a g no higher (on open or closed): dropped, a square.
    Duplicate,
    /// IDA*: f over the threshold, pruned: a triangle pointing down.
    Pruned,
    /// The goal: a double ring.
    Goal,
}

impl Mark {
    /// Every mark, in the legend's order.
    pub const ALL: [Mark; 6] = [
        Mark::Expanded,
        Mark::Pushed,
        Mark::BetterPath,
        Mark::Duplicate,
        Mark::Pruned,
        Mark::Goal,
    ];

    /// The letter drawn on a generated child (an expanded node shows its number instead).
    pub fn letter(self) -> &'static str {
        match self {
            Mark::Expanded => "#",
            Mark::Pushed => "+",
            Mark::BetterPath => "B",
            Mark::Duplicate => "D",
            Mark::Pruned => "P",
            Mark::Goal => "G",
        }
    }

    /// The mark in words, for the legend.
    pub fn word(self) -> &'static str {
        match self {
            Mark::Expanded => "expanded (its number)",
            Mark::Pushed => "pushed",
            Mark::BetterPath => "better path",
            Mark::Duplicate => "duplicate dropped",
            Mark::Pruned => "pruned (f > threshold)",
            Mark::Goal => "goal",
        }
    }

    /// The mark of a generated child whose fate is `fate` (`None` for the parent, never
    /// generated), the goal's own where its `board` is the `goal` and it was kept.
    pub fn of(fate: Fate, board: &Board, goal: Option<&Board>) -> Option<Mark> {
        let is_goal = goal.is_some_and(|g| g == board);
        Some(match fate {
            Fate::Parent => return None,
            Fate::Goal => Mark::Goal,
            Fate::Pushed | Fate::BetterPath { .. } if is_goal => Mark::Goal,
            Fate::Pushed => Mark::Pushed,
            Fate::BetterPath { .. } => Mark::BetterPath,
            Fate::Known { .. } => Mark::Duplicate,
            Fate::OverThreshold => Mark::Pruned,
        })
    }
}

/// One node as drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct Drawn {
    /// Its centre, in scene points.
    pub pos: Pos2,
    /// What it is.
    pub mark: Mark,
    /// Whether it lies on the solution path (while searching: the path to the last node).
    pub on_path: bool,
    /// The expanded node it is (`successor: None`) or whose successor it is.
    pub node: usize,
    /// Which of that node's [`TreeNode::successors`] it is, for a generated child.
    pub successor: Option<usize>,
}

impl Drawn {
    /// Its board, g and h, read from `tree`.
    pub fn read<'a>(&self, tree: &'a [TreeNode]) -> Option<(&'a Board, u32, u32)> {
        let t = tree.get(self.node)?;
        match self.successor {
            None => Some((&t.board, t.g, t.h)),
            Some(j) => t.successors.get(j).map(|s| (&s.board, s.g, s.h)),
        }
    }
}

/// The tree as drawn: nodes (the expanded ones first, in tree order), edges between them, the
/// extent, and what was left out.
#[derive(Clone, Debug, PartialEq)]
pub struct Geometry {
    /// Every node drawn.
    pub drawn: Vec<Drawn>,
    /// Edges, parent first, as indices into `drawn`.
    pub edges: Vec<(usize, usize)>,
    /// The nodes' extent (each with a cell of `DX` × `DY` around it), in scene points.
    pub bounds: Rect,
    /// Generated children not drawn: past [`DRAWN_LIMIT`], or hidden by the user.
    pub hidden: usize,
    /// Whether they were left out for [`DRAWN_LIMIT`] (not by the user).
    pub capped: bool,
}

/// Which of each node's successors was expanded as which tree node: `claimed[c] = Some((p,
/// j))` when tree node `c` is successor `j` of its parent `p`.
fn claims(tree: &[TreeNode]) -> Vec<Option<(usize, usize)>> {
    let mut taken: Vec<Vec<bool>> = tree
        .iter()
        .map(|t| vec![false; t.successors.len()])
        .collect();
    let mut claimed = vec![None; tree.len()];
    for (c, t) in tree.iter().enumerate() {
        let Some(p) = t.parent.filter(|&p| p < c) else {
            continue;
        };
        let found = tree[p].successors.iter().enumerate().position(|(j, s)| {
            !taken[p][j]
                && s.board == t.board
                && matches!(s.fate, Fate::Pushed | Fate::BetterPath { .. })
        });
        if let Some(j) = found {
            taken[p][j] = true;
            claimed[c] = Some((p, j));
        }
    }
    claimed
}

impl Geometry {
    /// The geometry of `tree` (expanded nodes in expansion order, each with its successors):
    /// with `children`, each generated child that was not expanded is drawn too, by its fate
    /// (the goal `goal` marked as such), while all of them number at most [`DRAWN_LIMIT`].
    /// `solution` (start board and moves) marks the path down from the root; without, the
    /// path to the last node expanded.
    pub fn of(
        tree: &[TreeNode],
        children: bool,
        goal: Option<&Board>,
        solution: Option<(&Board, &[Move])>,
    ) -> Geometry {
        let claimed = claims(tree);
        let generated: usize = tree
            .iter()
            .flat_map(|t| &t.successors)
            .filter(|s| s.fate != Fate::Parent)
            .count();
        let leaves = generated - claimed.iter().filter(|c| c.is_some()).count();
        let capped = children && tree.len() + leaves > DRAWN_LIMIT;
        let with_leaves = children && !capped;
        let mut g = Geometry {
            drawn: Vec::with_capacity(tree.len() + if with_leaves { leaves } else { 0 }),
            edges: Vec::new(),
            bounds: Rect::NOTHING,
            hidden: if with_leaves { 0 } else { leaves },
            capped,
        };
        // Each expanded node is drawn at its own index; its children, in generation order.
        let mut kids: Vec<Vec<usize>> = vec![Vec::new(); tree.len()];
        for i in 0..tree.len() {
            g.drawn.push(Drawn {
                pos: Pos2::ZERO,
                mark: Mark::Expanded,
                on_path: false,
                node: i,
                successor: None,
            });
        }
        let mut claim_of = vec![Vec::new(); tree.len()];
        for (c, cl) in claimed.iter().enumerate() {
            if let Some((p, j)) = *cl {
                claim_of[p].push((j, c));
            }
        }
        for (p, t) in tree.iter().enumerate() {
            let mut order: Vec<(usize, usize)> = claim_of[p].clone();
            if with_leaves {
                for (j, s) in t.successors.iter().enumerate() {
                    if claim_of[p].iter().any(|&(cj, _)| cj == j) {
                        continue;
                    }
                    let Some(mark) = Mark::of(s.fate, &s.board, goal) else {
                        continue;
                    };
                    g.drawn.push(Drawn {
                        pos: Pos2::ZERO,
                        mark,
                        on_path: false,
                        node: p,
                        successor: Some(j),
                    });
                    order.push((j, g.drawn.len() - 1));
                }
            }
            order.sort_unstable();
            kids[p] = order.into_iter().map(|(_, d)| d).collect();
        }
        // Expanded nodes whose parent has no successor for them (none in a stepper's tree).
        for (c, t) in tree.iter().enumerate() {
            if let Some(p) = t.parent.filter(|&p| p < c)
                && claimed[c].is_none()
            {
                kids[p].push(c);
            }
        }
        kids.resize(g.drawn.len(), Vec::new());
        g.place(tree, &kids);
        g.mark_path(tree, &kids, solution);
        g
    }

    /// Positions: each drawn leaf its own column in depth-first order (children in
    /// generation order), each parent centred over its children, rows by g.
    fn place(&mut self, tree: &[TreeNode], kids: &[Vec<usize>]) {
        let n = self.drawn.len();
        let mut x = vec![0.0f32; n];
        let mut next = 0.0f32;
        let roots = tree
            .iter()
            .enumerate()
            .filter(|(c, t)| t.parent.is_none_or(|p| p >= *c))
            .map(|(c, _)| c);
        for r in roots {
            // Iterative post-order: (node, children visited).
            let mut stack = vec![(r, false)];
            while let Some((v, done)) = stack.pop() {
                if done || kids[v].is_empty() {
                    x[v] = if kids[v].is_empty() {
                        next += 1.0;
                        next - 1.0
                    } else {
                        (x[kids[v][0]] + x[kids[v][kids[v].len() - 1]]) / 2.0
                    };
                    continue;
                }
                stack.push((v, true));
                for &c in kids[v].iter().rev() {
                    stack.push((c, false));
                }
            }
        }
        let mut bounds = Rect::NOTHING;
        for (d, x) in self.drawn.iter_mut().zip(x) {
            let gy = d.read(tree).map_or(0, |(_, g, _)| g);
            d.pos = Pos2::new(x * DX, gy as f32 * DY);
            bounds = bounds.union(Rect::from_center_size(d.pos, vec2(DX, DY)));
        }
        self.bounds = bounds;
        self.edges = kids
            .iter()
            .enumerate()
            .flat_map(|(p, ks)| ks.iter().map(move |&c| (p, c)))
            .collect();
    }

    /// Marks the path: with `solution`, the nodes reached from the root by its moves, child
    /// by child (the goal's leaf included); without, the last expanded node and its ancestors.
    fn mark_path(
        &mut self,
        tree: &[TreeNode],
        kids: &[Vec<usize>],
        solution: Option<(&Board, &[Move])>,
    ) {
        let Some((start, moves)) = solution else {
            let mut cur = tree.len().checked_sub(1);
            while let Some(i) = cur.filter(|&i| i < tree.len() && !self.drawn[i].on_path) {
                self.drawn[i].on_path = true;
                cur = tree[i].parent;
            }
            return;
        };
        let Some(mut cur) = tree
            .iter()
            .position(|t| t.parent.is_none() && &t.board == start)
        else {
            return;
        };
        self.drawn[cur].on_path = true;
        let mut b = start.clone();
        for &m in moves {
            if b.apply(m).is_none() {
                break;
            }
            let next = kids[cur]
                .iter()
                .copied()
                .find(|&c| self.drawn[c].read(tree).is_some_and(|(cb, _, _)| *cb == b));
            match next {
                Some(c) => {
                    self.drawn[c].on_path = true;
                    cur = c;
                }
                None => break,
            }
        }
    }

    /// The drawn node nearest the scene point `h`, within half a column of it.
    pub fn nearest(&self, h: Pos2) -> Option<usize> {
        self.drawn
            .iter()
            .enumerate()
            .map(|(i, d)| (i, d.pos.distance(h)))
            .filter(|&(_, d)| d < DX * 0.5)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(i, _)| i)
    }

    /// How many nodes of each mark are drawn.
    pub fn count(&self, mark: Mark) -> usize {
        self.drawn.iter().filter(|d| d.mark == mark).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::stepper::Successor;

    fn n(board: &Board, parent: Option<usize>, g: u32, successors: Vec<Successor>) -> TreeNode {
        TreeNode {
            board: board.clone(),
            parent,
            g,
            h: 0,
            number: 0,
            successors,
        }
    }

    fn s(board: &Board, mv: Move, g: u32, fate: Fate) -> Successor {
        Successor {
            mv,
            board: board.clone(),
            g,
            h: 0,
            fate,
        }
    }

    #[test]
    fn the_path_follows_nodes_not_boards_and_ends_on_the_goal_leaf() {
        let a: Board = "1 2 3/4 0 6/7 5 8".parse().unwrap();
        let up = a.moved(Move::Up).unwrap();
        let down = a.moved(Move::Down).unwrap();
        let goal = down.moved(Move::Right).unwrap();
        // The root's board comes again below node 1 (dropped: closed); the goal is a leaf of 2.
        let tree = [
            n(
                &a,
                None,
                0,
                vec![
                    s(&up, Move::Up, 1, Fate::Pushed),
                    s(&down, Move::Down, 1, Fate::Pushed),
                ],
            ),
            n(&up, Some(0), 1, vec![s(&a, Move::Down, 0, Fate::Parent)]),
            n(
                &down,
                Some(0),
                1,
                vec![
                    s(&a, Move::Up, 0, Fate::Parent),
                    s(&goal, Move::Right, 2, Fate::Pushed),
                    s(
                        &a,
                        Move::Left,
                        2,
                        Fate::Known {
                            best_g: 0,
                            closed: true,
                        },
                    ),
                ],
            ),
        ];
        let sol = [Move::Down, Move::Right];
        let geo = Geometry::of(&tree, true, Some(&goal), Some((&a, &sol)));
        let marks: Vec<(Mark, bool)> = geo.drawn.iter().map(|d| (d.mark, d.on_path)).collect();
        assert_eq!(
            marks,
            [
                (Mark::Expanded, true),
                (Mark::Expanded, false),
                (Mark::Expanded, true),
                (Mark::Goal, true),
                (Mark::Duplicate, false),
            ]
        );
        assert_eq!(geo.edges, [(0, 1), (0, 2), (2, 3), (2, 4)]);
        // Without the children: the expanded nodes alone, two generated children hidden.
        let bare = Geometry::of(&tree, false, Some(&goal), None);
        assert_eq!(bare.drawn.len(), 3);
        assert_eq!((bare.hidden, bare.capped), (2, false));
        // While searching, the path is the last node's.
        let on: Vec<bool> = bare.drawn.iter().map(|d| d.on_path).collect();
        assert_eq!(on, [true, false, true]);
    }

    #[test]
    fn parents_sit_over_their_children_and_leaves_do_not_overlap() {
        let a: Board = "1 2 3/4 0 6/7 5 8".parse().unwrap();
        let kids: Vec<Board> = Move::ALL.iter().filter_map(|&m| a.moved(m)).collect();
        let succ = |fate, g| kids.iter().map(|b| s(b, Move::Up, g, fate)).collect();
        // 0 → (1 → 4 pruned leaves, 3 pruned leaves)
        let mut s0: Vec<Successor> = succ(Fate::OverThreshold, 1);
        s0[0].fate = Fate::Pushed;
        let tree = [
            n(&a, None, 0, s0),
            n(&kids[0], Some(0), 1, succ(Fate::OverThreshold, 2)),
        ];
        let geo = Geometry::of(&tree, true, None, None);
        assert_eq!(geo.count(Mark::Pruned), 7);
        let xs: Vec<f32> = geo.drawn[2..].iter().map(|d| d.pos.x).collect();
        // The root's three pruned children (drawn first) sit right of node 1's four (columns
        // 0 to 3): node 1 is the root's first child.
        assert_eq!(
            xs,
            [4.0 * DX, 5.0 * DX, 6.0 * DX, 0.0, DX, 2.0 * DX, 3.0 * DX]
        );
        assert_eq!(geo.drawn[1].pos.x, 1.5 * DX);
        assert_eq!((geo.drawn[2].pos.y, geo.drawn[5].pos.y), (DY, 2.0 * DY));
        assert_eq!(geo.drawn[0].pos.x, (1.5 * DX + 6.0 * DX) / 2.0);
    }
}
