//! Prediction: in a stepped search the learner picks the open-list entry they think is
//! expanded next; the app says right or wrong and why (A*: the lowest f, then the highest g,
//! then the last pushed; BFS: first in, first out; IDA*: depth first, in move order), then
//! steps. The score is kept for the search (a new one starts it again).
//!
//! The judge reads the stepper's open list in pop order ([`StepView::open_top`]): the first
//! entry is the one expanded next, and of two entries with equal f and g the earlier was
//! pushed later (each (f, g) is a stack), so every "why" is exact, ties included.
//!
//! [`StepView::open_top`]: crate::app::StepView::open_top

use crate::puzzle::Board;
use crate::search::Algorithm;
use crate::search::stepper::OpenEntry;

/// What became of one prediction.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// Whether the board picked is the one expanded next.
    pub right: bool,
    /// Why, in words.
    pub why: String,
    /// The board picked.
    pub picked: Board,
    /// The board the search expands next.
    pub next: Board,
}

/// The prediction mode and its score.
#[derive(Clone, Debug, Default)]
pub struct Predict {
    /// Whether a click on an open-list entry is a prediction (rather than a look at it).
    pub on: bool,
    right: u32,
    wrong: u32,
    last: Option<Verdict>,
}

impl Predict {
    /// Predictions right and wrong in this search.
    pub fn score(&self) -> (u32, u32) {
        (self.right, self.wrong)
    }

    /// The last prediction's verdict in this search.
    pub fn last(&self) -> Option<&Verdict> {
        self.last.as_ref()
    }

    /// A new search: the score starts again (the mode stays).
    pub(super) fn reset(&mut self) {
        *self = Predict {
            on: self.on,
            ..Predict::default()
        };
    }

    /// Counts `v` and keeps it as the last verdict.
    pub(super) fn record(&mut self, v: Verdict) {
        if v.right {
            self.right += 1;
        } else {
            self.wrong += 1;
        }
        self.last = Some(v);
    }
}

/// The order to show `open` (in pop order) in while predicting: by the boards' tiles, which
/// says nothing of the pop order. Indices into `open`.
pub fn shown_order(open: &[OpenEntry]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..open.len()).collect();
    order.sort_by(|&a, &b| open[a].board.tiles().cmp(open[b].board.tiles()));
    order
}

/// The verdict on picking `open[pick]` as the next board `algorithm` expands, `open` being its
/// open list's first entries in pop order; `None` when `pick` is not one of them.
pub fn judge(algorithm: Algorithm, open: &[OpenEntry], pick: usize) -> Option<Verdict> {
    let (next, picked) = (open.first()?, open.get(pick)?);
    let why = match algorithm {
        Algorithm::Bfs => bfs_why(next, picked, pick),
        Algorithm::IdaStar | Algorithm::GpuIdaStar => ida_why(next, picked, pick),
        _ => astar_why(algorithm, open, picked, pick),
    };
    Some(Verdict {
        right: pick == 0,
        why,
        picked: picked.board.clone(),
        next: next.board.clone(),
    })
}

/// The f that orders `algorithm`'s open list for an entry, as a number to compare
/// ([`Algorithm::order_f`]: g + h in A*, h in greedy best-first, tenths in weighted A*).
fn f(algorithm: Algorithm, o: &OpenEntry) -> u32 {
    algorithm.order_f(o.g, o.h)
}

/// What the learner reads for that f: `13` (A*, greedy), `10.5` (weighted A*, in moves).
fn f_text(algorithm: Algorithm, o: &OpenEntry) -> String {
    match algorithm {
        Algorithm::WeightedAStar(_) => crate::search::tenths_text(f(algorithm, o)),
        _ => f(algorithm, o).to_string(),
    }
}

/// The search's name and the f it orders by, for the "why": A*'s f, greedy's h, weighted
/// A*'s f = g + w×h.
fn search_and_f(algorithm: Algorithm) -> (&'static str, String) {
    match algorithm {
        Algorithm::Greedy => ("Greedy best-first search", "h".to_string()),
        Algorithm::WeightedAStar(w) => ("Weighted A*", format!("f = g + {w}×h")),
        _ => ("A*", "f".to_string()),
    }
}

/// A* and its greedy and weighted variants: the lowest f (as the search computes it), then
/// the highest g, then the last pushed.
fn astar_why(algorithm: Algorithm, open: &[OpenEntry], p: &OpenEntry, pick: usize) -> String {
    let r = &open[0];
    let (rf, pf) = (f(algorithm, r), f(algorithm, p));
    let (rs, ps) = (f_text(algorithm, r), f_text(algorithm, p));
    let (name, fname) = search_and_f(algorithm);
    let short = fname.split(' ').next().unwrap_or("f").to_string();
    if pick == 0 {
        let tied = |o: &&OpenEntry| f(algorithm, o) == rf && !std::ptr::eq(*o, r);
        let lower_g = open.iter().filter(tied).any(|o| o.g < r.g);
        let same_g = open.iter().filter(tied).any(|o| o.g == r.g);
        let mut why = format!(
            "Right: {name} expands the lowest {fname} first, and no board has less than {rs}"
        );
        if lower_g {
            why += &format!(
                "; of the boards with {short} {rs}, it takes the highest g first: {}",
                r.g
            );
        }
        if same_g {
            why += &format!(
                "; of those with {short} {rs} and g {} too, the one pushed last (last in, first out)",
                r.g
            );
        }
        return why + ".";
    }
    if pf > rf {
        format!(
            "Wrong: {name} expands the lowest {fname} first: the board it expands has {short} {rs}, yours {ps}."
        )
    } else if p.g < r.g {
        format!(
            "Wrong: both have {short} {rs}; on a tie in {short} {name} takes the highest g first: {} over your {}.",
            r.g, p.g
        )
    } else {
        format!(
            "Wrong: both have {short} {rs} and g {}; on a tie in both {name} takes the board pushed last \
             (last in, first out), and that one was pushed after yours.",
            r.g
        )
    }
}

/// BFS: first in, first out.
fn bfs_why(r: &OpenEntry, p: &OpenEntry, pick: usize) -> String {
    if pick == 0 {
        format!(
            "Right: BFS's queue is first in, first out, and this board (depth {}) was queued \
             before every other.",
            r.g
        )
    } else if p.g > r.g {
        format!(
            "Wrong: BFS's queue is first in, first out: the boards at depth {} were queued \
             before yours, at depth {}.",
            r.g, p.g
        )
    } else {
        format!(
            "Wrong: both are at depth {}; BFS's queue is first in, first out, and that one was \
             queued before yours.",
            r.g
        )
    }
}

/// IDA*: depth first (the deepest board's untried children first), in move order.
fn ida_why(r: &OpenEntry, p: &OpenEntry, pick: usize) -> String {
    if pick == 0 {
        format!(
            "Right: IDA* goes depth first: it enters the first untried child (in its move \
             order) of the deepest board that has one within the threshold, at depth {}.",
            r.g
        )
    } else if p.g < r.g {
        format!(
            "Wrong: IDA* goes depth first: it searches below the deeper board first (depth \
             {}); yours, at depth {}, waits until it backtracks.",
            r.g, p.g
        )
    } else {
        format!(
            "Wrong: both are children of the same board (depth {}); IDA* tries them in its \
             move order, and that one comes first.",
            r.g
        )
    }
}

impl super::AppState {
    /// Predicts that `open_top[pick]` (of the inspector's snapshot, in pop order) is the next
    /// board the stepped search expands: the verdict is recorded and the search steps once.
    /// Returns whether it was judged: only a stepped search, holding at a step with every
    /// snapshot read and not solved, takes a prediction (the verdict is of the list shown).
    pub fn predict(&mut self, pick: usize) -> bool {
        if !self.run.is_stepped() || !self.run.is_idle() {
            return false;
        }
        // Holding: every snapshot is sent, and none follows until the next step. Read them.
        self.poll();
        if !self.run.is_idle() || self.run.solution().is_some() {
            return false;
        }
        let algorithm = self
            .run
            .progress()
            .and_then(|p| p.algorithm)
            .unwrap_or(Algorithm::AStar);
        let Some(v) = self
            .run
            .inspect()
            .and_then(|v| judge(algorithm, &v.open_top, pick))
        else {
            return false;
        };
        self.predict.record(v);
        self.step(1);
        true
    }
}
