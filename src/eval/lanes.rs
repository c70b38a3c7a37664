//! Several IDA* searches on one [`LaneDevice`] at once ([`SharedDevice`]), each through its
//! own [`Lane`]: to `search::gpu_idastar`'s iteration loop a lane is an [`IdaDevice`] of its
//! own. `bench --algorithm gpu-idastar` runs a board in each, so that boards whose trees are
//! too small to fill the device fill it together.
//!
//! Rounds run when a search asks for one and advance every lane; a search that asks while
//! rounds it has not seen have run gets their sum at once (its counts, its least f, whether
//! its iteration ended), without a round of its own. A search begins its next iteration in
//! its lane while the others go on: the host's top of one board's tree overlaps the device's
//! rounds for the rest. A search that ends (answered, or at a limit) leaves its lane to be
//! drained: the device drops its items as the rounds reach them, and the lane goes to the next
//! search once it is empty.

use std::sync::{Arc, Mutex, MutexGuard};

use super::EvalError;
use super::ida::{IdaDevice, LaneDevice, LaneReport, RoundReport, SubtreeRoot};
use crate::puzzle::Move;

/// Rounds a search waits, at most, for room in the work items or for a free lane before its
/// iteration fails (the device drains a lane in a round or two).
const MOST_WAITING_ROUNDS: usize = 10_000;

/// Expansions per invocation of the rounds a search runs to make room before any round was
/// asked for.
const ROOM_BUDGET: u32 = 256;

/// One [`LaneDevice`] shared by the searches of its [`Lane`]s (see the module docs).
pub struct SharedDevice {
    hub: Mutex<Hub>,
    /// Lanes handed out: each search's share of the device's roots.
    searches: usize,
}

/// What the lanes share, behind the lock.
struct Hub {
    device: Box<dyn LaneDevice>,
    /// The pruning automaton given to the device: every search on it must use the same.
    pruning: Option<Vec<[u16; 4]>>,
    /// Whether the device's lanes were emptied since the automaton was set.
    ready: bool,
    /// The device's lanes.
    slots: Vec<Slot>,
    /// The budget of the last round a search asked for.
    budget: u32,
    /// The device's error, once it failed: the lanes' state is lost, so every search gets it.
    broken: Option<String>,
}

/// A device lane as the hub keeps it.
struct Slot {
    /// The [`Lane`] whose search uses it.
    owner: Option<usize>,
    /// Whether the device holds nothing of it ([`LaneReport::idle`]).
    idle: bool,
    /// Whether an iteration was begun in it and its end not yet reported to its search.
    searching: bool,
    /// The rounds since its search last asked, summed (`None`: none).
    pending: Option<RoundReport>,
    /// The goal's moves, read back at once after the round that found it.
    solution: Option<(usize, Vec<Move>)>,
    /// The budget its search last asked for.
    asked: u32,
}

impl Slot {
    fn free() -> Slot {
        Slot {
            owner: None,
            idle: true,
            searching: false,
            pending: None,
            solution: None,
            asked: ROOM_BUDGET,
        }
    }
}

impl SharedDevice {
    /// `device` shared by `searches` searches (at most its lanes): one [`Lane`] each.
    pub fn lanes(device: Box<dyn LaneDevice>, searches: usize) -> Vec<Lane> {
        let searches = searches.clamp(1, device.lanes());
        let slots = (0..device.lanes()).map(|_| Slot::free()).collect();
        let shared = Arc::new(SharedDevice {
            hub: Mutex::new(Hub {
                device,
                pruning: None,
                ready: false,
                slots,
                budget: ROOM_BUDGET,
                broken: None,
            }),
            searches,
        });
        (0..searches)
            .map(|id| Lane {
                shared: shared.clone(),
                id,
                slot: None,
            })
            .collect()
    }

    fn hub(&self) -> MutexGuard<'_, Hub> {
        // A search that panicked holding the lock leaves the hub as it was between rounds.
        self.hub.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The hub, unless the device failed (then its error, for every search).
    fn working(&self) -> Result<MutexGuard<'_, Hub>, EvalError> {
        let hub = self.hub();
        match &hub.broken {
            Some(e) => Err(EvalError::Device(e.clone())),
            None => Ok(hub),
        }
    }
}

impl Hub {
    /// Empties the device's lanes once the automaton is set, with room for every search's
    /// roots (`roots` in all).
    fn ready(&mut self, roots: usize) -> Result<(), EvalError> {
        if !self.ready {
            let reset = self.device.reset_lanes(roots);
            self.fails(reset)?;
            self.slots.iter_mut().for_each(|s| *s = Slot::free());
            self.ready = true;
        }
        Ok(())
    }

    /// `r`, and when it is an error the hub is broken: the lanes' state on the device is
    /// unknown, so every search gets the error from then on (none waits for a lane that
    /// will never end).
    fn fails<T>(&mut self, r: Result<T, EvalError>) -> Result<T, EvalError> {
        if let Err(e) = &r {
            self.broken = Some(e.to_string());
        }
        r
    }

    /// Runs one round of every lane, `budget` expansions an invocation, and hands each slot
    /// its part: summed into what its search has not seen, the goal's moves read back at
    /// once. After a round the adapter cut short every lane's iteration is lost: each search
    /// is told, and the device's lanes are emptied.
    fn round(&mut self, budget: u32) -> Result<(), EvalError> {
        let r = self.device.lane_round(budget);
        let (all, lanes) = self.fails(r)?;
        // The device capped the round's budget (else each search's own budget is its).
        let cap = (all.budget < budget).then_some(all.budget);
        for (s, lane) in lanes.iter().enumerate() {
            if lane.found && self.slots[s].searching {
                let moves = self.device.lane_solution(s);
                self.slots[s].solution = Some(self.fails(moves)?);
            }
            let slot = &mut self.slots[s];
            slot.idle = lane.idle;
            if slot.searching {
                let asked = cap.map_or(slot.asked, |c| c.min(slot.asked));
                slot.pending = Some(merge(slot.pending.take(), &all, lane, asked));
                slot.searching = !(lane.found || lane.exhausted || all.cut);
            }
            if slot.owner.is_none() && lane.idle {
                slot.solution = None;
            }
        }
        if all.cut {
            self.ready = false;
            let owners: Vec<_> = self.slots.iter().map(|s| s.owner).collect();
            let reset = self.device.reset_lanes(self.room());
            self.fails(reset)?;
            self.ready = true;
            for (slot, owner) in self.slots.iter_mut().zip(owners) {
                slot.idle = true;
                slot.owner = owner;
            }
        }
        Ok(())
    }

    /// The roots the device's ring is made for: twice every lane's target.
    fn room(&self) -> usize {
        2 * self.device.frontier_target()
    }

    /// A lane for search `id`: its own while idle, else the first one free (the old one left
    /// to drain), running rounds while none is.
    fn slot_for(&mut self, id: usize, mine: Option<usize>) -> Result<usize, EvalError> {
        if let Some(s) = mine {
            if self.slots[s].idle && !self.slots[s].searching {
                return Ok(s);
            }
            self.release(s);
        }
        for _ in 0..MOST_WAITING_ROUNDS {
            if let Some(s) = self.slots.iter().position(|s| s.owner.is_none() && s.idle) {
                self.slots[s].owner = Some(id);
                return Ok(s);
            }
            self.round(self.budget)?;
        }
        Err(EvalError::Device(
            "no lane of the device came free for the next search".into(),
        ))
    }

    /// The search in slot `s` has ended: its work is dropped, and the lane goes to another
    /// search once the device holds nothing of it.
    fn release(&mut self, s: usize) {
        if self.slots[s].searching || !self.slots[s].idle {
            self.device.stop(s);
        }
        self.slots[s].owner = None;
        self.slots[s].searching = false;
        self.slots[s].pending = None;
    }
}

/// `lane`'s part of round `all` added to the rounds its search has not seen (`before`), as
/// rounds of `budget` expansions an invocation (its search's own, or the device's cap).
fn merge(
    before: Option<RoundReport>,
    all: &RoundReport,
    lane: &LaneReport,
    budget: u32,
) -> RoundReport {
    let mut r = before.unwrap_or_default();
    r.expanded += lane.expanded;
    r.generated += lane.generated;
    r.min_f = lane.min_f;
    r.found |= lane.found;
    r.exhausted |= lane.exhausted;
    r.cut |= all.cut;
    // The device's state as of this round.
    r.finished += all.finished;
    r.busy = all.busy;
    r.invocations = all.invocations;
    r.budget = budget;
    r.busy_share = all.busy_share;
    r.donated += all.donated;
    r.donated_within += all.donated_within;
    r.taken_within += all.taken_within;
    r.pending = all.pending;
    r.seconds = all.seconds;
    r
}

/// One search's share of a [`SharedDevice`]: an [`IdaDevice`] whose iterations run in a lane
/// of the device beside the other searches' (see the module docs).
pub struct Lane {
    shared: Arc<SharedDevice>,
    /// Which of the shared device's searches this is.
    id: usize,
    /// The device lane of its search, once it began an iteration.
    slot: Option<usize>,
}

impl IdaDevice for Lane {
    fn describe(&self) -> String {
        self.shared.hub().device.describe()
    }

    fn invocations(&self) -> usize {
        // Its share: the rest serve the other searches.
        (self.shared.hub().device.invocations() / self.shared.searches).max(1)
    }

    fn frontier_target(&self) -> usize {
        (self.shared.hub().device.frontier_target() / self.shared.searches).max(1)
    }

    fn max_depth(&self) -> u32 {
        self.shared.hub().device.max_depth()
    }

    fn set_pruning(&mut self, table: &[[u16; 4]]) -> Result<(), EvalError> {
        let mut hub = self.shared.working()?;
        match &hub.pruning {
            Some(t) if t.as_slice() == table => Ok(()),
            Some(_) => Err(EvalError::Device(
                "the searches sharing the device use different pruning automata".into(),
            )),
            None => {
                let set = hub.device.set_pruning(table);
                hub.fails(set)?;
                hub.pruning = Some(table.to_vec());
                hub.ready = false;
                Ok(())
            }
        }
    }

    fn begin(
        &mut self,
        bound: u32,
        roots: &[SubtreeRoot<'_>],
        histogram: bool,
    ) -> Result<(), EvalError> {
        if histogram {
            return Err(EvalError::Device(
                "a device shared by several searches gathers no histogram".into(),
            ));
        }
        let mut hub = self.shared.working()?;
        let room = hub.room();
        hub.ready(room)?;
        let s = hub.slot_for(self.id, self.slot)?;
        self.slot = Some(s);
        let mut added = false;
        for _ in 0..MOST_WAITING_ROUNDS {
            let add = hub.device.add(s, bound, roots);
            added = hub.fails(add)?;
            if added {
                break;
            }
            let budget = hub.budget;
            hub.round(budget)?;
            // A cut empties every lane, this one's too: it may be used again.
        }
        if !added {
            return Err(EvalError::Device(
                "the device's work items had no room for the iteration's roots".into(),
            ));
        }
        let slot = &mut hub.slots[s];
        slot.idle = false;
        slot.searching = true;
        slot.pending = None;
        slot.solution = None;
        Ok(())
    }

    fn round(&mut self, budget: u32) -> Result<RoundReport, EvalError> {
        let s = self
            .slot
            .ok_or_else(|| EvalError::Device("round before begin".into()))?;
        let mut hub = self.shared.working()?;
        hub.budget = budget;
        hub.slots[s].asked = budget;
        if hub.slots[s].pending.is_none() {
            hub.round(budget)?;
        }
        hub.slots[s]
            .pending
            .take()
            .ok_or_else(|| EvalError::Device("a round that said nothing of this lane".into()))
    }

    fn solution(&mut self) -> Result<(usize, Vec<Move>), EvalError> {
        let s = self
            .slot
            .ok_or_else(|| EvalError::Device("no goal was found".into()))?;
        self.shared.hub().slots[s]
            .solution
            .take()
            .ok_or_else(|| EvalError::Device("no goal was found".into()))
    }

    fn finish(&mut self) {
        if let Some(s) = self.slot.take() {
            self.shared.hub().release(s);
        }
    }
}

impl Drop for Lane {
    fn drop(&mut self) {
        self.finish();
    }
}
