//! The search tree a stepped search records: its expanded nodes, each with its successors and
//! their fates (what was pushed, dropped as a duplicate, pruned over IDA*'s threshold), and
//! IDA*'s finished iterations' trees, kept within a memory cap.

use std::sync::Arc;

use super::{Stepper, Successor};
use crate::puzzle::Board;

/// Expanded nodes kept for the tree view; above this many the tree is not recorded further
/// (a picture of more nodes is no longer readable).
pub const TREE_LIMIT: usize = 5_000;

/// Bytes (as [`TreeNode::bytes`] estimates them) that IDA*'s finished iterations' trees may
/// take in all: 16 MiB, about 35,000 nodes of the 15-puzzle, seven trees of [`TREE_LIMIT`]
/// nodes. Past it the oldest trees are let go first.
pub const KEPT_TREES_BYTES: usize = 16 << 20;

/// An expanded node of the search tree (IDA*: of one iteration's tree).
#[derive(Clone, Debug, PartialEq)]
pub struct TreeNode {
    /// The board.
    pub board: Board,
    /// Index of its parent in [`Stepper::tree`] (`None` for the start).
    pub parent: Option<usize>,
    /// Moves from the start, and its heuristic value.
    pub g: u32,
    /// Heuristic value, in moves.
    pub h: u32,
    /// Its expansion number ([`super::Expansion::number`]).
    pub number: u64,
    /// Its successors with their fates when it was expanded, as
    /// [`super::Expansion::successors`] (the parent included, as [`super::Fate::Parent`]).
    pub successors: Vec<Successor>,
}

impl TreeNode {
    /// About how many bytes the node takes, its boards and vector included (16 bytes of
    /// allocator overhead counted for each allocation).
    pub fn bytes(&self) -> usize {
        let cells = self.board.len() + 16;
        std::mem::size_of::<TreeNode>()
            + cells
            + 16
            + self.successors.capacity() * std::mem::size_of::<Successor>()
            + self.successors.len() * cells
    }
}

/// IDA*'s finished iterations' trees, one slot per iteration (`None`: not kept, the tree was
/// past [`TREE_LIMIT`] or let go for the cap), and the bytes the kept ones take.
#[derive(Clone, Default)]
pub(super) struct KeptTrees {
    trees: Vec<Option<Arc<[TreeNode]>>>,
    bytes: usize,
}

impl KeptTrees {
    /// Keeps the tree of the iteration that just ended (`complete`: every node it expanded),
    /// letting the oldest kept trees go while all of them pass [`KEPT_TREES_BYTES`].
    fn push(&mut self, tree: Vec<TreeNode>, complete: bool) {
        let size: usize = tree.iter().map(TreeNode::bytes).sum();
        if !complete || size > KEPT_TREES_BYTES {
            self.trees.push(None);
            return;
        }
        self.bytes += size;
        self.trees.push(Some(tree.into()));
        for slot in &mut self.trees {
            if self.bytes <= KEPT_TREES_BYTES {
                break;
            }
            if let Some(t) = slot.take() {
                self.bytes -= t.iter().map(TreeNode::bytes).sum::<usize>();
            }
        }
    }
}

impl Stepper {
    /// IDA*: the trees of the finished iterations, one slot for each of
    /// [`Stepper::iterations`] (`None` where the tree was past [`TREE_LIMIT`] or let go to
    /// stay within [`KEPT_TREES_BYTES`]); empty for BFS and A*.
    pub fn iteration_trees(&self) -> &[Option<Arc<[TreeNode]>>] {
        &self.kept.trees
    }

    /// Ends the current iteration's tree: keeps it with the finished ones and starts an
    /// empty one.
    pub(super) fn keep_tree(&mut self) {
        let tree = std::mem::take(&mut self.tree);
        self.kept.push(tree, self.tree_complete);
        self.tree_complete = true;
    }

    /// Records an expanded node in the tree with its `successors`; its index (`usize::MAX`
    /// past the limit).
    pub(super) fn record(
        &mut self,
        board: &Board,
        parent: Option<usize>,
        (g, h): (u32, u32),
        successors: &[Successor],
    ) -> usize {
        if self.tree.len() >= TREE_LIMIT {
            self.tree_complete = false;
            return usize::MAX;
        }
        self.tree.push(TreeNode {
            board: board.clone(),
            parent: parent.filter(|&p| p != usize::MAX),
            g,
            h,
            number: self.expanded,
            successors: successors.to_vec(),
        });
        self.tree.len() - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(n: usize) -> Vec<TreeNode> {
        let b = Board::from_u8(4, 4, &(0..16).collect::<Vec<u8>>()).unwrap();
        (0..n)
            .map(|i| TreeNode {
                board: b.clone(),
                parent: i.checked_sub(1),
                g: i as u32,
                h: 0,
                number: i as u64 + 1,
                successors: Vec::new(),
            })
            .collect()
    }

    #[test]
    fn the_oldest_trees_go_first_past_the_cap_and_incomplete_ones_are_not_kept() {
        let one = tree(1)[0].bytes();
        // Three trees of a third of the cap each, and a fourth: the first goes.
        let n = KEPT_TREES_BYTES / one / 3;
        let mut k = KeptTrees::default();
        k.push(tree(5), false);
        for _ in 0..4 {
            k.push(tree(n), true);
        }
        let kept: Vec<bool> = k.trees.iter().map(Option::is_some).collect();
        assert_eq!(kept, [false, false, true, true, true]);
        assert_eq!(k.bytes, 3 * n * one);
        assert!(k.bytes <= KEPT_TREES_BYTES);
    }
}
