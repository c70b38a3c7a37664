//! The steps of breadth-first search and A*: a frontier (BFS's FIFO queue, A*'s open list)
//! and a closed set keyed by board, the moves walked back through it at the goal.

use std::collections::hash_map::Entry;

use super::*;
use crate::search::open_list::Open;

/// An entry of A*'s open list: f, g and the board's tiles (the closed set's key).
type Popped = Open<Box<[u8]>>;

impl Stepper {
    /// The moves from the start to `tiles`, walked back through the closed set's moves.
    fn walk_back(map: &KeyMap<Box<[u8]>, Info>, tiles: &[u8], board: &Board) -> Vec<Move> {
        let mut b = board.clone();
        debug_assert_eq!(b.tiles(), tiles);
        let mut moves = Vec::new();
        while let Some(m) = map.get(b.tiles()).and_then(|i| i.mv) {
            moves.push(m);
            if b.apply(m.inverse()).is_none() || moves.len() > map.len() {
                break;
            }
        }
        moves.reverse();
        moves
    }

    /// The tree index of the node `board` was reached from by `mv` (`None` for the start, or
    /// a parent not in the closed set).
    fn parent_tree(
        map: &KeyMap<Box<[u8]>, Info>,
        board: &Board,
        mv: Option<Move>,
    ) -> Option<usize> {
        mv.and_then(|m| {
            let mut p = board.clone();
            p.apply(m.inverse())?;
            map.get(p.tiles()).map(|i| i.tree)
        })
    }

    pub(super) fn step_bfs(&mut self) -> Result<Step, SearchError> {
        let State::Bfs { queue, map } = &mut self.state else {
            unreachable!()
        };
        let Some((key, g)) = queue.pop_front() else {
            return Err(SearchError::Exhausted(Algorithm::Bfs));
        };
        let board = Board::from_u8(self.goal.rows(), self.goal.cols(), &key)
            .unwrap_or_else(|_| self.goal.clone());
        let info = map.get(&key).copied().unwrap_or(Info {
            g,
            mv: None,
            closed: false,
            tree: usize::MAX,
        });
        let parent_tree = Self::parent_tree(map, &board, info.mv);
        let path = Self::walk_back(map, &key, &board);
        self.expanded += 1;
        let mut successors = Vec::new();
        let mut found = None;
        let mut fresh = Vec::new();
        for m in Move::ALL {
            let Some(child) = board.moved(m) else {
                continue;
            };
            if info.mv.is_some_and(|l| l.inverse() == m) {
                successors.push(Successor::parent(m, child, g, 0));
                continue;
            }
            self.generated += 1;
            let ck: Box<[u8]> = child.tiles().into();
            let fate = match map.get(&ck) {
                Some(i) => Fate::Known {
                    best_g: i.g,
                    closed: i.closed,
                },
                None => {
                    fresh.push(ck.clone());
                    map.insert(
                        ck.clone(),
                        Info {
                            g: g + 1,
                            mv: Some(m),
                            closed: false,
                            tree: usize::MAX,
                        },
                    );
                    queue.push_back((ck, g + 1));
                    if child == self.goal {
                        Fate::Goal
                    } else {
                        Fate::Pushed
                    }
                }
            };
            let goal = fate == Fate::Goal;
            successors.push(Successor {
                mv: m,
                board: child,
                g: g + 1,
                h: 0,
                fate,
            });
            if goal {
                found = Some(Self::walk_back(map, self.goal.tiles(), &self.goal));
                break;
            }
        }
        let entries = map.len() + queue.len();
        let State::Bfs { map, .. } = &mut self.state else {
            unreachable!()
        };
        if let Some(i) = map.get_mut(&key) {
            i.closed = true;
            self.closed += 1;
        }
        self.hist.remove(g as usize, 0);
        for _ in &fresh {
            self.hist.add(g as usize + 1, 0);
        }
        let t = self.record(&board, parent_tree, (g, 0), &successors);
        let State::Bfs { map, .. } = &mut self.state else {
            unreachable!()
        };
        if let Some(i) = map.get_mut(&key) {
            i.tree = t;
        }
        self.last = Some(Expansion {
            number: self.expanded,
            board,
            g,
            h: 0,
            path,
            backtracked: 0,
            bound: g,
            successors,
        });
        if let Some(moves) = found {
            self.solution = Some(moves);
            return Ok(Step::Solved);
        }
        self.memory_check(entries)?;
        Ok(Step::Expanded)
    }

    /// One step of A* (greedy, weighted: the same with their f): pops the next live entry and stops if it is the goal, else expands it.
    pub(super) fn step_astar(&mut self) -> Result<Step, SearchError> {
        let (node, info) = self.astar_pop()?;
        let goal = &self.goal;
        let board =
            Board::from_u8(goal.rows(), goal.cols(), &node.key).unwrap_or_else(|_| goal.clone());
        let State::AStar { map, .. } = &self.state else {
            unreachable!()
        };
        let path = Self::walk_back(map, &node.key, &board);
        if board == self.goal {
            self.solution = Some(path);
            return Ok(Step::Solved);
        }
        let (g, h) = (node.g, self.algorithm.h_of(node.f, node.g));
        let parent_tree = Self::parent_tree(map, &board, info.mv);
        self.expanded += 1;
        let successors = self.astar_children(&board, g, info.mv)?;
        let State::AStar { open, map } = &self.state else {
            unreachable!()
        };
        let entries = map.len() + open.len();
        let t = self.record(&board, parent_tree, (g, h), &successors);
        let State::AStar { map, .. } = &mut self.state else {
            unreachable!()
        };
        if let Some(i) = map.get_mut(&node.key) {
            i.tree = t;
        }
        self.last = Some(Expansion {
            number: self.expanded,
            board,
            g,
            h,
            path,
            backtracked: 0,
            bound: self.algorithm.f_in_moves(node.f),
            successors,
        });
        self.memory_check(entries)?;
        Ok(Step::Expanded)
    }

    /// A*: pops the open list until an entry that is not stale (closed, or since reached more
    /// cheaply), taking each popped entry off the histogram, and closes it: the entry and what
    /// the closed set knows of its board.
    ///
    /// # Errors
    /// [`SearchError::Exhausted`] when the open list runs out.
    fn astar_pop(&mut self) -> Result<(Popped, Info), SearchError> {
        let State::AStar { open, map } = &mut self.state else {
            unreachable!()
        };
        loop {
            let Some(node) = open.pop(None) else {
                return Err(SearchError::Exhausted(self.algorithm));
            };
            self.hist.remove(
                node.g as usize,
                self.algorithm.h_of(node.f, node.g) as usize,
            );
            match map.get_mut(&node.key) {
                Some(i) if !i.closed && i.g == node.g => {
                    i.closed = true;
                    self.closed += 1;
                    self.open_live -= 1;
                    return Ok((node, *i));
                }
                _ => continue,
            }
        }
    }

    /// A*: the successors of `board` (`g` moves from the start, reached by `came_by`) in
    /// [`Move::ALL`] order, the parent not generated; each new board, or one reached more
    /// cheaply, is pushed on the open list and added to the histogram.
    ///
    /// # Errors
    /// [`SearchError::MemoryLimit`] when the open list refuses a push.
    fn astar_children(
        &mut self,
        board: &Board,
        g: u32,
        came_by: Option<Move>,
    ) -> Result<Vec<Successor>, SearchError> {
        let hf = self.heuristic.as_deref();
        let order = self.algorithm;
        let State::AStar { open, map } = &mut self.state else {
            unreachable!()
        };
        let mut successors = Vec::new();
        for m in Move::ALL {
            let Some(child) = board.moved(m) else {
                continue;
            };
            let ch = hf.map_or(0, |h| h.estimate(child.tiles()));
            if came_by.is_some_and(|l| l.inverse() == m) {
                successors.push(Successor::parent(m, child, g, ch));
                continue;
            }
            self.generated += 1;
            let g2 = g + 1;
            let ck: Box<[u8]> = child.tiles().into();
            let fresh = Info {
                g: g2,
                mv: Some(m),
                closed: false,
                tree: usize::MAX,
            };
            let fate = Self::astar_reach(
                map,
                ck.clone(),
                fresh,
                &mut self.closed,
                &mut self.open_live,
            );
            if matches!(fate, Fate::Pushed | Fate::BetterPath { .. }) {
                self.open_live += 1;
                if open.push(order.order_f(g2, ch), g2, ck).is_err() {
                    return Err(SearchError::MemoryLimit {
                        cap: self.max_memory,
                        expanded: self.expanded,
                        refused: true,
                    });
                }
                self.hist.add(g2 as usize, ch as usize);
            }
            successors.push(Successor {
                mv: m,
                board: child,
                g: g2,
                h: ch,
                fate,
            });
        }
        Ok(successors)
    }

    /// A*: what reaching board `key` by `fresh` (its g and move) does to the closed set: a new
    /// board is entered; one known at a higher g takes the new g and move (a closed one is
    /// reopened, taking one off `closed`; an open one's entry turns stale, taking one off
    /// `open_live`); one known at a g no higher is left as it is. Pushing is the caller's.
    fn astar_reach(
        map: &mut KeyMap<Box<[u8]>, Info>,
        key: Box<[u8]>,
        fresh: Info,
        closed: &mut usize,
        open_live: &mut usize,
    ) -> Fate {
        match map.entry(key) {
            Entry::Vacant(v) => {
                v.insert(fresh);
                Fate::Pushed
            }
            Entry::Occupied(mut o) if o.get().g > fresh.g => {
                let old = *o.get();
                // A closed board is reopened; an open one's entry turns stale.
                if old.closed {
                    *closed -= 1;
                } else {
                    *open_live -= 1;
                }
                o.insert(Info {
                    tree: old.tree,
                    ..fresh
                });
                Fate::BetterPath {
                    old_g: old.g,
                    reopened: old.closed,
                }
            }
            Entry::Occupied(o) => Fate::Known {
                best_g: o.get().g,
                closed: o.get().closed,
            },
        }
    }
}
