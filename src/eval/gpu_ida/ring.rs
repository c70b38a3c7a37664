//! The work on GPU IDA*'s device as the host keeps it from round to round ([`Ring`]): the
//! work items' ring (its counters, less whole turns) and each lane's search ([`LaneState`]); the
//! words a round starts from, and what its status block says.

use super::{
    L_BOUND, L_EXPANDED, L_FINISHED, L_FOUND, L_FOUND_DEPTH, L_FOUND_INV, L_GENERATED, L_GIVEN,
    L_MIN_F, L_STOP, LANE_WORDS, MAX_LANES, SHARE_MAX, ST_BUSY, ST_HEADER, ST_LANES,
    ST_PENDING_MIN, ST_PUBLISHED, ST_TAIL, ST_WORK, ST_WORK2,
};
use crate::eval::EvalError;
use crate::eval::ida::LaneReport;

/// A lane's search as the host keeps it from round to round.
#[derive(Clone, Debug)]
pub(super) struct LaneState {
    /// The threshold of its iteration.
    pub(super) bound: u32,
    /// Its search has ended (stopped, or its goal found): its items are dropped.
    pub(super) stopped: bool,
    /// An iteration was begun and has not ended.
    pub(super) active: bool,
    /// Its items on the device, in the ring or on a stack: roots added and items handed
    /// out, less those searched to the end or dropped.
    pub(super) outstanding: u64,
    /// Least f above the threshold seen in the iteration so far.
    pub(super) min_f: u32,
    /// The invocation and depth of the goal found.
    pub(super) found: Option<(u32, usize)>,
}

impl Default for LaneState {
    fn default() -> LaneState {
        LaneState {
            bound: 0,
            stopped: false,
            active: false,
            outstanding: 0,
            min_f: u32::MAX,
            found: None,
        }
    }
}

/// The work items' ring and the lanes, carried from round to round. The work counters count
/// items since the ring was emptied, less whole turns of the ring.
pub(super) struct Ring {
    /// Work items the current round may take.
    pub(super) available: u32,
    /// Work items taken so far (the counter, less what idle invocations overshot).
    pub(super) taken: u32,
    /// The first item whose slot the next round may not reuse: the first not taken, or
    /// one taken but not yet loaded (pending).
    pub(super) keep_from: u32,
    /// End of the items in the ring (roots, then donations).
    pub(super) tail: u32,
    /// Slots of the ring written since it was emptied (from the first): cleared before the
    /// next use.
    pub(super) dirty: u32,
    /// Idle invocations the next round's donations are for.
    hungry: u32,
    /// Work items each busy invocation hands out in the next round.
    share: u32,
    pub(super) histogram: bool,
    /// Work items the ring holds.
    pub(super) capacity: u32,
    pub(super) lanes: Vec<LaneState>,
}

impl Ring {
    /// An empty ring of `capacity` work items, with or without the `histogram`.
    pub(super) fn new(capacity: u32, histogram: bool) -> Ring {
        Ring {
            available: 0,
            taken: 0,
            keep_from: 0,
            tail: 0,
            dirty: 0,
            hungry: 0,
            share: 1,
            histogram,
            capacity,
            lanes: vec![LaneState::default(); MAX_LANES],
        }
    }

    /// Slots after the tail whose items were loaded before the next round.
    pub(super) fn room(&self) -> u32 {
        self.capacity - (self.tail - self.keep_from)
    }

    /// `count` roots of `lane`, written at the tail, begin its iteration with threshold
    /// `bound`.
    pub(super) fn push(&mut self, lane: usize, bound: u32, count: u32) {
        // The new roots feed that many of the idle invocations the next round's hand-out was
        // for.
        self.hungry = self.hungry.saturating_sub(count);
        self.tail += count;
        self.available = self.tail;
        self.dirty = self.dirty.max(self.tail.min(self.capacity));
        self.lanes[lane] = LaneState {
            bound,
            active: true,
            outstanding: u64::from(count),
            ..LaneState::default()
        };
    }

    /// A round of `budget` expansions an invocation: its parameters (the shader's `Params`)
    /// and the status block it starts from (the lanes' thresholds and stops, counts zero).
    pub(super) fn round_words(
        &self,
        budget: u32,
        idle_tries: u32,
        defer: u32,
    ) -> ([u32; 12], [u32; ST_HEADER]) {
        let params = [
            0,
            self.available,
            budget,
            self.hungry,
            self.capacity,
            self.room(),
            self.share,
            2,
            idle_tries,
            defer,
            0,
            0,
        ];
        let mut header = [0u32; ST_HEADER];
        header[ST_WORK] = self.taken;
        header[ST_TAIL] = self.tail;
        // Items handed out within the round come after those there are now.
        header[ST_WORK2] = self.tail;
        header[ST_PUBLISHED] = self.tail;
        header[ST_PENDING_MIN] = u32::MAX;
        for (l, lane) in self.lanes.iter().enumerate() {
            let at = ST_LANES + l * LANE_WORDS;
            header[at + L_BOUND] = lane.bound;
            header[at + L_STOP] = u32::from(lane.stopped);
            header[at + L_MIN_F] = u32::MAX;
        }
        (params, header)
    }

    /// Takes in a round's status block `st` (`cut`: the round was cut short; `invocations`
    /// ran it): the work counters, each lane's counts, least f, goal and items, and the next
    /// round's donations. Returns each lane's part of the round.
    ///
    /// # Errors
    /// [`EvalError::Device`] when the device holds no work (every item taken, no invocation
    /// busy) but the count of items of a lane whose iteration is under way says otherwise:
    /// its counts cannot be trusted. (A lane whose goal was found still counts the finder's
    /// item until the next round drops it.)
    pub(super) fn advance(
        &mut self,
        st: &[u32],
        cut: bool,
        invocations: u32,
    ) -> Result<Vec<LaneReport>, EvalError> {
        let busy = st[ST_BUSY];
        // Donations are reserved within the free slots (`room`), so the tail never passes them.
        self.tail = st[ST_TAIL];
        // Items reserved within the round are claimed only once those before it are all
        // taken; the counter of those may overshoot.
        self.taken = if st[ST_WORK2] > self.available {
            st[ST_WORK2]
        } else {
            st[ST_WORK].min(self.available)
        };
        self.keep_from = self.taken.min(st[ST_PENDING_MIN]);
        self.dirty = self.dirty.max(self.tail.min(self.capacity));
        let reports: Vec<LaneReport> = self
            .lanes
            .iter_mut()
            .enumerate()
            .map(|(l, lane)| lane.advance(&st[ST_LANES + l * LANE_WORDS..], cut))
            .collect();
        // (Else a search would wait for the lane's iteration to end, round after round.)
        if !cut
            && busy == 0
            && self.taken >= self.tail
            && let Some(l) = self
                .lanes
                .iter()
                .position(|l| l.active && l.outstanding > 0)
        {
            return Err(EvalError::Device(format!(
                "lane {l} counts {} items left, but the device holds none",
                self.lanes[l].outstanding
            )));
        }
        // The roots are all taken: the next round asks the busy invocations to share with the
        // idle ones that the queue does not feed already.
        self.hungry = if self.taken >= self.available {
            (invocations - busy).saturating_sub(self.tail - self.taken)
        } else {
            0
        };
        // Enough items from each busy invocation to feed every idle one (SHARE_MAX at most).
        self.share = self.hungry.div_ceil(busy.max(1)).clamp(1, SHARE_MAX);
        self.available = self.tail;
        // The counters count items over the iteration; slots are taken modulo the capacity, so
        // whole turns of the ring come off, two at a time to keep the turns' tags (u32
        // counters would wrap in a long iteration; a pending invocation's item keeps its slot).
        let two = 2 * u64::from(self.capacity);
        let turns = (u64::from(self.keep_from) / two * two) as u32;
        if turns > 0 {
            self.dirty = self.capacity;
        }
        self.taken -= turns;
        self.keep_from -= turns;
        self.available -= turns;
        self.tail -= turns;
        Ok(reports)
    }
}

impl LaneState {
    /// Takes in the lane's words `w` of a round's status block (`cut`: the round was cut
    /// short) and says the lane's part of it.
    fn advance(&mut self, w: &[u32], cut: bool) -> LaneReport {
        self.min_f = self.min_f.min(w[L_MIN_F]);
        // (Never below zero: every item finished or dropped was added or handed out.)
        self.outstanding =
            (self.outstanding + u64::from(w[L_GIVEN])).saturating_sub(u64::from(w[L_FINISHED]));
        let found = !cut && !self.stopped && w[L_FOUND] != 0;
        if found {
            self.found = Some((w[L_FOUND_INV], w[L_FOUND_DEPTH] as usize));
            self.stopped = true;
            self.active = false;
        }
        let exhausted = !cut && self.active && self.outstanding == 0;
        if exhausted {
            self.active = false;
        }
        LaneReport {
            expanded: u64::from(w[L_EXPANDED]),
            generated: u64::from(w[L_GENERATED]),
            min_f: self.min_f,
            found,
            exhausted,
            idle: !self.active && self.outstanding == 0,
        }
    }
}
