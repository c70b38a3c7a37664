//! The steps of IDA*: an explicit stack of frames (board, g, h, the successors still to try)
//! in place of the recursion, thresholds that grow to the least f pruned.

use super::*;

/// The node a step of IDA* enters: its board, g and h (in moves), its parent's index in the
/// tree (`None` for the root) and the move that reached it (`None` for the root).
struct Entered {
    board: Board,
    g: u32,
    h: u32,
    parent: Option<usize>,
    mv: Option<Move>,
}

/// What a node's successors came to: [`Expansion::successors`], the children within the
/// threshold (next last: the frame's `todo`) and the moves of those generated, in order.
struct Children {
    successors: Vec<Successor>,
    todo: Vec<(Move, Board, u32)>,
    generated: Vec<Move>,
}

impl Stepper {
    /// IDA*: the nodes on its depth-first path (the stack's frames, the start's included): all
    /// the boards it holds besides the children still to try (0 before an iteration's first
    /// node and in BFS and A*).
    pub fn path_nodes(&self) -> usize {
        match &self.state {
            State::IdaStar { stack, .. } => stack.len(),
            _ => 0,
        }
    }

    /// IDA*: the least f pruned so far in this iteration (over the threshold), which the next
    /// threshold will be if the goal is not found; `None` before any pruning, and in BFS and
    /// A*.
    pub fn least_pruned(&self) -> Option<u32> {
        match &self.state {
            State::IdaStar { next, .. } => (*next != u32::MAX).then_some(*next),
            _ => None,
        }
    }

    /// One step of IDA*: enters the next node of the depth-first order and expands it, stops
    /// at the goal, or ends the iteration when no node is left within the threshold.
    pub(super) fn step_idastar(&mut self) -> Step {
        let Some(node) = self.ida_enter() else {
            return self.ida_next_iteration();
        };
        if node.h == 0 && node.board == self.goal {
            self.ida_solved(node.mv);
            return Step::Solved;
        }
        self.ida_expand(node);
        Step::Expanded
    }

    /// The next node to enter: the root at an iteration's start, else the deepest frame's
    /// next child within the threshold (backtracking over frames with none left, counted in
    /// `backtracked`). `None` when the stack has run out: the iteration is over.
    fn ida_enter(&mut self) -> Option<Entered> {
        let State::IdaStar {
            stack,
            started,
            backtracked,
            ..
        } = &mut self.state
        else {
            unreachable!()
        };
        if !*started {
            *started = true;
            *backtracked = 0;
            return Some(Entered {
                board: self.start.clone(),
                g: 0,
                h: self.h0,
                parent: None,
                mv: None,
            });
        }
        loop {
            let top = stack.last_mut()?;
            if let Some((m, board, h)) = top.todo.pop() {
                return Some(Entered {
                    board,
                    g: top.g + 1,
                    h,
                    parent: Some(top.tree),
                    mv: Some(m),
                });
            }
            stack.pop();
            *backtracked += 1;
        }
    }

    /// Ends an iteration that did not reach the goal: records it, raises the threshold to the
    /// least f pruned, keeps its tree and clears the histogram for the next one.
    fn ida_next_iteration(&mut self) -> Step {
        let State::IdaStar {
            threshold,
            next,
            expanded,
            generated,
            started,
            ..
        } = &mut self.state
        else {
            unreachable!()
        };
        self.iterations.push(Iteration {
            threshold: *threshold,
            expanded: *expanded,
            generated: *generated,
        });
        let t = *next;
        *threshold = t;
        *next = u32::MAX;
        *expanded = 0;
        *generated = 0;
        *started = false;
        self.keep_tree();
        self.finished_hist = Some(self.hist.clone());
        self.hist.clear();
        self.hist.add(0, self.h0 as usize);
        Step::NextIteration(t)
    }

    /// The goal, entered by `mv`: the solution is the stack's moves then `mv`.
    ///
    /// The recursive IDA* generates a node's successors one at a time, descending into each
    /// before generating the next: at the goal it has not generated those after the child it
    /// is in, on every level of the path. They are not counted here either, so that the counts
    /// are the same.
    fn ida_solved(&mut self, mv: Option<Move>) {
        let mut path = self.ida_path();
        path.extend(mv);
        let State::IdaStar {
            stack, generated, ..
        } = &mut self.state
        else {
            unreachable!()
        };
        let unreached: u64 = stack
            .iter()
            .zip(&path)
            .map(|(f, m)| {
                let at = f
                    .generated
                    .iter()
                    .position(|g| g == m)
                    .unwrap_or(f.generated.len());
                f.generated.len().saturating_sub(at + 1) as u64
            })
            .sum();
        *generated -= unreached.min(*generated);
        self.generated -= unreached.min(self.generated);
        self.solution = Some(path);
    }

    /// Expands `node`: generates its successors, records it in the tree, pushes its frame
    /// (the children within the threshold to search next) and makes it [`Stepper::last`].
    fn ida_expand(&mut self, node: Entered) {
        let State::IdaStar {
            threshold,
            expanded,
            backtracked,
            ..
        } = &mut self.state
        else {
            unreachable!()
        };
        let bound = *threshold;
        let back = std::mem::take(backtracked);
        *expanded += 1;
        self.expanded += 1;
        let Entered {
            board,
            g,
            h,
            parent,
            mv,
        } = node;
        let children = self.ida_children(&board, g, mv, bound);
        // The moves to this node: those of the frames on the stack, then `mv`.
        let mut path = self.ida_path();
        path.extend(mv);
        let t = self.record(&board, parent, (g, h), &children.successors);
        let State::IdaStar { stack, .. } = &mut self.state else {
            unreachable!()
        };
        stack.push(Frame {
            board: board.clone(),
            g,
            tree: t,
            todo: children.todo,
            generated: children.generated,
        });
        self.last = Some(Expansion {
            number: self.expanded,
            board,
            g,
            h,
            path,
            backtracked: back,
            bound,
            successors: children.successors,
        });
    }

    /// The successors of `board` (`g` moves from the start, reached by `came_by`) in
    /// [`move_order`](crate::search::idastar::move_order), the parent not generated: each
    /// counted and added to the histogram, kept to search when its f is within `bound`, else
    /// lowering the next threshold to its f.
    fn ida_children(
        &mut self,
        board: &Board,
        g: u32,
        came_by: Option<Move>,
        bound: u32,
    ) -> Children {
        let State::IdaStar {
            next, generated, ..
        } = &mut self.state
        else {
            unreachable!()
        };
        let mut out = Children {
            successors: Vec::new(),
            todo: Vec::new(),
            generated: Vec::new(),
        };
        for m in crate::search::idastar::move_order(board, &self.goal) {
            let Some(child) = board.moved(m) else {
                continue;
            };
            let ch = self
                .heuristic
                .as_ref()
                .map_or(0, |h| h.estimate(child.tiles()));
            if came_by.is_some_and(|l| l.inverse() == m) {
                out.successors.push(Successor::parent(m, child, g, ch));
                continue;
            }
            *generated += 1;
            self.generated += 1;
            out.generated.push(m);
            self.hist.add(g as usize + 1, ch as usize);
            let f2 = g + 1 + ch;
            let fate = if f2 <= bound {
                out.todo.push((m, child.clone(), ch));
                Fate::Pushed
            } else {
                *next = (*next).min(f2);
                Fate::OverThreshold
            };
            out.successors.push(Successor {
                mv: m,
                board: child,
                g: g + 1,
                h: ch,
                fate,
            });
        }
        // Searched in generation order: the first child is popped first.
        out.todo.reverse();
        out
    }

    /// IDA*: the moves from the start to the deepest frame on the stack.
    fn ida_path(&self) -> Vec<Move> {
        let State::IdaStar { stack, .. } = &self.state else {
            return Vec::new();
        };
        stack
            .windows(2)
            .filter_map(|w| {
                let blank = w[1].board.blank();
                Move::ALL
                    .into_iter()
                    .find(|&m| w[0].board.target(m) == Some(blank))
            })
            .collect()
    }
}
