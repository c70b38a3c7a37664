//! The steps of IDA*: an explicit stack of frames (board, g, h, the successors still to try)
//! in place of the recursion, thresholds that grow to the least f pruned.

use super::*;

impl Stepper {
    pub(super) fn step_idastar(&mut self) -> Step {
        let goal = self.goal.clone();
        let (start, h0) = (self.start.clone(), self.h0);
        let State::IdaStar {
            threshold,
            next,
            stack,
            expanded,
            generated,
            started,
            backtracked,
        } = &mut self.state
        else {
            unreachable!()
        };
        // The next node to enter: the root at an iteration's start, else the deepest frame's
        // next child within the threshold (backtracking over frames with none left).
        let (board, g, h, parent, mv) = if !*started {
            *started = true;
            *backtracked = 0;
            (start, 0, h0, None, None)
        } else {
            loop {
                let Some(top) = stack.last_mut() else {
                    // The iteration is over without the goal.
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
                    self.tree.clear();
                    self.tree_complete = true;
                    self.finished_hist = Some(self.hist.clone());
                    self.hist.clear();
                    self.hist.add(0, h0 as usize);
                    return Step::NextIteration(t);
                };
                if let Some((m, b, h)) = top.todo.pop() {
                    break (b, top.g + 1, h, Some(top.tree), Some(m));
                }
                stack.pop();
                *backtracked += 1;
            }
        };
        if h == 0 && board == goal {
            let mut path = self.ida_path();
            path.extend(mv);
            // The recursive IDA* generates a node's successors one at a time, descending into
            // each before generating the next: at the goal it has not generated those after the
            // child it is in, on every level of the path. Not counted here either, so that the
            // counts are the same.
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
            return Step::Solved;
        }
        let State::IdaStar {
            threshold,
            next,
            expanded,
            generated,
            backtracked,
            ..
        } = &mut self.state
        else {
            unreachable!()
        };
        let bound = *threshold;
        let came_by = mv;
        // The moves to this node: those of the frames on the stack, then `mv`.
        let back = *backtracked;
        *backtracked = 0;
        *expanded += 1;
        self.expanded += 1;
        let mut successors = Vec::new();
        let mut todo = Vec::new();
        let mut order = Vec::new();
        for m in crate::search::idastar::move_order(&board, &self.goal) {
            let Some(child) = board.moved(m) else {
                continue;
            };
            let ch = self
                .heuristic
                .as_ref()
                .map_or(0, |h| h.estimate(child.tiles()));
            if came_by.is_some_and(|l| l.inverse() == m) {
                successors.push(Successor::parent(m, child, g, ch));
                continue;
            }
            *generated += 1;
            self.generated += 1;
            order.push(m);
            self.hist.add(g as usize + 1, ch as usize);
            let f2 = g + 1 + ch;
            let fate = if f2 <= bound {
                todo.push((m, child.clone(), ch));
                Fate::Pushed
            } else {
                *next = (*next).min(f2);
                Fate::OverThreshold
            };
            successors.push(Successor {
                mv: m,
                board: child,
                g: g + 1,
                h: ch,
                fate,
            });
        }
        // Searched in generation order: the first child is popped first.
        todo.reverse();
        let mut path = self.ida_path();
        path.extend(came_by);
        let t = self.record(&board, parent, g, h);
        let State::IdaStar { stack, .. } = &mut self.state else {
            unreachable!()
        };
        stack.push(Frame {
            board: board.clone(),
            g,
            tree: t,
            todo,
            generated: order,
        });
        self.last = Some(Expansion {
            number: self.expanded,
            board,
            g,
            h,
            path,
            backtracked: back,
            bound,
            successors,
        });
        Step::Expanded
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
