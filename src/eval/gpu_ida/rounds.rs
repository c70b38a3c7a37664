//! [`GpuIda`] as the search sees it ([`IdaDevice`]): an iteration begun with its subtree roots,
//! rounds (one dispatch each, the status block read back), the solution's moves read back
//! from the invocation that found the goal; and the state that carries from round to round
//! ([`RunState`], [`DeviceIteration`]).

use std::time::Instant;

use super::{
    GpuIda, ITEM_TAG, MAX_DEPTH, PATH_MOVES, PATH_WORDS, SHARE_MAX, ST_BUSY, ST_CUT, ST_EXPANDED,
    ST_FINISHED, ST_FOUND, ST_FOUND_DEPTH, ST_FOUND_INV, ST_GENERATED, ST_GIVEN, ST_GIVEN_LIVE,
    ST_HEADER, ST_MIN_F, ST_PENDING, ST_PENDING_MIN, ST_PUBLISHED, ST_TAIL, ST_WORK, ST_WORK2,
    ST_WRITTEN, frame_word, origin_word,
};
use crate::eval::EvalError;
use crate::eval::ida::{HIST_G, HIST_H, IdaDevice, RoundReport, SubtreeRoot};
use crate::puzzle::Move;

/// Most subtree roots an iteration asks for (see `frontier_target`).
const MAX_ROOTS: usize = 1 << 16;

/// What changes as a [`GpuIda`] searches: the round budget's cap and the iteration begun.
pub(super) struct RunState {
    /// Most expansions an invocation makes in a round: on a software adapter, few enough that
    /// the shader's loops stay under lavapipe's 65,535 iterations (halved after a cut).
    pub(super) budget_cap: u32,
    /// Most slots of the work items' ring an iteration uses besides its roots (tests make
    /// it small, so that the ring turns often).
    pub(super) ring_cap: u32,
    /// Every how many items claimed within a round one is taken as not yet written (0: none;
    /// see `GpuIda::set_defer_claims`).
    pub(super) defer: u32,
    /// The iteration begun (`None` before the first [`IdaDevice::begin`]).
    pub(super) iteration: Option<DeviceIteration>,
}

/// One iteration's counters, carried from round to round. The work counters count items
/// over the iteration, less whole turns of the ring.
pub(super) struct DeviceIteration {
    bound: u32,
    /// Work items the current round may take.
    available: u32,
    /// Work items taken so far (the counter, less what idle invocations overshot).
    taken: u32,
    /// The first item whose slot the next round may not reuse: the first not taken, or
    /// one taken but not yet loaded (pending).
    keep_from: u32,
    /// End of the items in the ring (roots, then donations).
    tail: u32,
    /// Slots of the ring written in this iteration (from the first): cleared before the next.
    dirty: u32,
    /// Least f above the threshold seen so far.
    min_f: u32,
    /// Idle invocations the next round's donations are for.
    hungry: u32,
    /// Work items each busy invocation hands out in the next round.
    share: u32,
    histogram: bool,
    /// Work items the ring holds.
    capacity: u32,
    /// The invocation and depth of the goal found.
    found: Option<(u32, usize)>,
}

impl DeviceIteration {
    /// An iteration with threshold `bound` over `count` subtree roots in a ring of `capacity`
    /// work items, with or without the `histogram`.
    fn new(bound: u32, count: u32, histogram: bool, capacity: u32) -> DeviceIteration {
        DeviceIteration {
            bound,
            available: count,
            taken: 0,
            keep_from: 0,
            tail: count,
            dirty: count.min(capacity),
            min_f: u32::MAX,
            hungry: 0,
            share: 1,
            histogram,
            capacity,
            found: None,
        }
    }

    /// A round of `budget` expansions an invocation: its parameters (the shader's `Params`)
    /// and the first words of the status block it starts from.
    fn round_words(
        &self,
        budget: u32,
        idle_tries: u32,
        defer: u32,
    ) -> ([u32; 12], [u32; ST_WRITTEN]) {
        // Slots after the tail whose items were loaded before this round.
        let room = self.capacity - (self.tail - self.keep_from);
        let params = [
            self.bound,
            self.available,
            budget,
            self.hungry,
            self.capacity,
            room,
            self.share,
            2,
            idle_tries,
            defer,
            0,
            0,
        ];
        let mut header = [0u32; ST_WRITTEN];
        header[ST_WORK] = self.taken;
        header[ST_TAIL] = self.tail;
        header[ST_MIN_F] = self.min_f;
        // Items handed out within the round come after those there are now.
        header[ST_WORK2] = self.tail;
        header[ST_PUBLISHED] = self.tail;
        header[ST_PENDING_MIN] = u32::MAX;
        (params, header)
    }

    /// Takes in a round's status block `st` (`cut`: the round was cut short; `invocations`
    /// ran it): the work counters, the least f, the goal, and the next round's donations.
    /// Returns whether the goal was found and whether the iteration is exhausted (no item
    /// left and no invocation busy).
    fn advance(&mut self, st: &[u32], cut: bool, invocations: u32) -> (bool, bool) {
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
        self.min_f = st[ST_MIN_F];
        let found = st[ST_FOUND] != 0 && !cut;
        if found {
            let depth = st[ST_FOUND_DEPTH] as usize;
            self.found = Some((st[ST_FOUND_INV], depth));
        }
        let exhausted = !cut && !found && busy == 0 && self.taken >= self.tail;
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
        (found, exhausted)
    }
}

impl GpuIda {
    /// Most work items one binding holds.
    fn most_items(&self) -> u32 {
        let limits = self.ctx.device.limits();
        (limits
            .max_storage_buffer_binding_size
            .min(limits.max_buffer_size)
            / (self.shape.item_words as u64 * 4))
            .min(u64::from(u32::MAX)) as u32
    }

    /// `roots` as work items: the board (a byte a tile), info (g, the last move, no move
    /// tried), the root's index and its state in the pruning automaton; each word tagged
    /// as the first turn's (see `item_tag` in the shader).
    ///
    /// # Errors
    /// [`EvalError::Device`] for a root of another size or at depth 256 or more.
    fn pack_roots(&self, roots: &[SubtreeRoot<'_>]) -> Result<Vec<u32>, EvalError> {
        let (cells, board_words, item_words) = (
            self.shape.cells,
            self.shape.board_words,
            self.shape.item_words,
        );
        let mut words = vec![0u32; roots.len() * item_words];
        for (i, (r, item)) in roots
            .iter()
            .zip(words.chunks_exact_mut(item_words))
            .enumerate()
        {
            if r.tiles.len() != cells || r.g > 255 {
                return Err(EvalError::Device(format!(
                    "subtree root {i}: {} cells at depth {} (the device takes {cells} cells, depth < 256)",
                    r.tiles.len(),
                    r.g,
                )));
            }
            for (c, &t) in r.tiles.iter().enumerate() {
                item[c / 4] |= u32::from(t) << (8 * (c % 4));
            }
            let prev = r.prev.map_or(4, |m| m.index() as u32);
            item[board_words] = r.g | (prev << 8) | (0xF << 11);
            item[board_words + 1] = i as u32;
            item[board_words + 2] = u32::from(r.fsm);
        }
        // The roots are the ring's first turn.
        for w in &mut words {
            *w |= ITEM_TAG;
        }
        Ok(words)
    }

    /// Runs one round: writes its `params` and the status `header` (clearing the histogram
    /// when there is one), dispatches every invocation, and reads the status block back (the
    /// histogram after it, `HIST_G · HIST_H` words, when asked).
    ///
    /// # Errors
    /// [`EvalError::Device`] when the read-back fails.
    fn dispatch(
        &mut self,
        params: &[u32; 12],
        header: &[u32; ST_WRITTEN],
        histogram: bool,
        live: bool,
    ) -> Result<Vec<u32>, EvalError> {
        let groups = self.shape.invocations.div_ceil(self.shape.workgroup);
        let (ctx, bufs) = (&self.ctx, &self.bufs);
        ctx.queue
            .write_buffer(&bufs.params, 0, bytemuck::cast_slice(params));
        ctx.queue
            .write_buffer(&bufs.status, 0, bytemuck::cast_slice(header));
        let words = ST_HEADER + if histogram { HIST_G * HIST_H } else { 0 };
        let mut enc = ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
        if histogram {
            enc.clear_buffer(&bufs.status, ST_HEADER as u64 * 4, None);
        }
        {
            let pipeline = self.pipes.get(&ctx.device, &self.shape, histogram, live);
            let items = bufs.items.as_ref().expect("begin allocates");
            let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("gpu idastar"),
                timestamp_writes: None,
            });
            pass.set_pipeline(pipeline);
            pass.set_bind_group(0, &items.group, &[]);
            pass.dispatch_workgroups(groups, 1, 1);
        }
        enc.copy_buffer_to_buffer(&bufs.status, 0, &bufs.staging, 0, words as u64 * 4);
        ctx.queue.submit(Some(enc.finish()));
        bufs.map_staging(&ctx.device, words as u64 * 4)
    }
}

impl IdaDevice for GpuIda {
    fn describe(&self) -> String {
        self.ctx.describe()
    }

    fn invocations(&self) -> usize {
        self.shape.invocations as usize
    }

    fn frontier_target(&self) -> usize {
        // Four roots an invocation, so that the work counter keeps a small device full while
        // subtrees of very different sizes end, but no more than 65,536 in all (and at least
        // one an invocation): on a big device donation (see the docs of `gpu_ida`) does that
        // work, and more roots only lengthen the host's split and the upload of each
        // iteration (on an H200 with 65,536 invocations, 262,144 roots took the host 200 ms an
        // iteration, beside 27 ms of rounds for 88·10⁶ nodes).
        let invocations = self.shape.invocations as usize;
        (4 * invocations).min(MAX_ROOTS).max(invocations)
    }

    fn max_depth(&self) -> u32 {
        MAX_DEPTH - 1
    }

    fn set_pruning(&mut self, table: &[[u16; 4]]) -> Result<(), EvalError> {
        const DEAD: u16 = u16::MAX;
        if table.len() >= usize::from(DEAD) {
            return Err(EvalError::Device(format!(
                "a pruning automaton of {} states (the device takes fewer than {DEAD})",
                table.len()
            )));
        }
        let allowed =
            |s: usize| -> u32 { (0..4).fold(0, |m, mi| m | u32::from(table[s][mi] != DEAD) << mi) };
        let mut words = self.shape.consts.clone();
        words.reserve(table.len() * 4);
        for row in table {
            for &to in row {
                words.push(if to == DEAD {
                    u32::MAX
                } else {
                    u32::from(to) | allowed(usize::from(to)) << 16
                });
            }
        }
        // The bind group names the old buffer: `begin` makes a new one.
        self.bufs.set_consts(&self.ctx.device, &words);
        Ok(())
    }

    fn begin(
        &mut self,
        bound: u32,
        roots: &[SubtreeRoot<'_>],
        histogram: bool,
    ) -> Result<(), EvalError> {
        let count = u32::try_from(roots.len())
            .map_err(|_| EvalError::Device("too many subtree roots".into()))?;
        if !self.bufs.pruning_set {
            return Err(EvalError::Device(
                "begin before set_pruning: the roots name states of no automaton".into(),
            ));
        }
        let most = self.most_items();
        if count > most {
            return Err(EvalError::Device(format!(
                "{count} subtree roots do not fit one binding ({most} do)"
            )));
        }
        let capacity = count
            .saturating_add(self.shape.invocations.saturating_mul(8))
            .min(most)
            .max(1);
        // The ring takes the whole buffer, which grows with headroom (roots vary by iteration).
        let capacity = self
            .bufs
            .ensure_items(
                &self.ctx.device,
                &self.pipes.layout,
                self.shape.item_words,
                capacity,
                most,
            )
            .min(count.saturating_add(self.run.ring_cap));
        let words = self.pack_roots(roots)?;
        let ctx = &self.ctx;
        let items = self.bufs.items.as_ref().expect("allocated above");
        let mut enc = ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
        // Every invocation starts idle, and every slot the last iteration wrote is empty (a
        // new buffer is all zeros).
        enc.clear_buffer(
            &self.bufs.stacks,
            0,
            Some(u64::from(self.shape.invocations) * 4),
        );
        // (Bounded by the buffer, not by this iteration's ring, which may be smaller.)
        let dirty = self.run.iteration.as_ref().map_or(0, |it| it.dirty);
        let dirty_bytes = u64::from(dirty.min(items.capacity)) * self.shape.item_words as u64 * 4;
        if dirty_bytes > 0 {
            enc.clear_buffer(&items.buffer, 0, Some(dirty_bytes));
        }
        ctx.queue.submit(Some(enc.finish()));
        // Written at the next submission, before its commands: after the clearing.
        ctx.queue
            .write_buffer(&items.buffer, 0, bytemuck::cast_slice(&words));
        if histogram {
            self.pipes.get(&ctx.device, &self.shape, true, false);
        }
        self.run.iteration = Some(DeviceIteration::new(bound, count, histogram, capacity));
        Ok(())
    }

    fn round(&mut self, budget: u32) -> Result<RoundReport, EvalError> {
        let started = Instant::now();
        let Some(run) = &self.run.iteration else {
            return Err(EvalError::Device("round before begin".into()));
        };
        let invocations = self.shape.invocations;
        // Counts per round stay below 2³²: at most 4 generated per expansion.
        let most = ((1u32 << 30) / invocations.max(1)).max(1);
        let budget = budget.min(most).min(self.run.budget_cap).max(1);
        let (params, header) = run.round_words(budget, self.shape.idle_tries, self.run.defer);
        // Where the items handed out within the round start.
        let within_from = run.tail;
        let histogram = run.histogram;
        // Work is handed on within a round once the items before it cannot keep every
        // invocation busy, and always in the round after one that left an item pending (only
        // the pipeline with LIVE loads it).
        let live = run.keep_from < run.taken
            || (self.shape.idle_tries > 0 && run.available - run.taken < invocations);
        let st = self.dispatch(&params, &header, histogram, live)?;
        let cut = st[ST_CUT] != 0;
        if cut {
            // The iteration is lost; the next one runs shorter rounds.
            self.run.budget_cap = (budget / 2).max(16);
        }
        let run = self.run.iteration.as_mut().expect("checked above");
        let (found, exhausted) = run.advance(&st, cut, invocations);
        let expanded = u64::from(st[ST_EXPANDED]);
        Ok(RoundReport {
            expanded,
            generated: u64::from(st[ST_GENERATED]),
            min_f: run.min_f,
            found,
            finished: u64::from(st[ST_FINISHED]),
            busy: u64::from(st[ST_BUSY]),
            invocations: u64::from(invocations),
            budget,
            busy_share: expanded as f64 / (f64::from(invocations) * f64::from(budget)),
            donated: u64::from(st[ST_GIVEN]),
            donated_within: u64::from(st[ST_GIVEN_LIVE]),
            taken_within: u64::from(st[ST_WORK2].saturating_sub(within_from)),
            pending: u64::from(st[ST_PENDING]),
            cut,
            exhausted,
            histogram: if histogram {
                st[ST_HEADER..].to_vec()
            } else {
                Vec::new()
            },
            seconds: started.elapsed().as_secs_f64(),
        })
    }

    fn solution(&mut self) -> Result<(usize, Vec<Move>), EvalError> {
        let Some((inv, depth)) = self.run.iteration.as_ref().and_then(|r| r.found) else {
            return Err(EvalError::Device("no goal was found".into()));
        };
        if depth >= MAX_DEPTH as usize || inv >= self.shape.invocations {
            return Err(EvalError::Device(format!(
                "the device reports the goal at depth {depth} of invocation {inv}"
            )));
        }
        // From the finder's state: its copy of the work item's origin (path length, root, the
        // moves from the root: 2 bits each), then the moves on its stack (frame d's low two
        // bits, d = 1..=depth).
        let board_words = self.shape.board_words;
        let origin = origin_word(board_words, 0);
        let words: Vec<usize> = (origin..origin + 2 + PATH_WORDS)
            .chain((1..=depth).map(|d| frame_word(board_words, d)))
            .collect();
        let got = self.read_state(inv as usize, &words)?;
        let (len, root) = (got[0] as usize, got[1] as usize);
        if len > PATH_MOVES * PATH_WORDS {
            return Err(EvalError::Device(format!(
                "the device reports a path of {len} moves to its root"
            )));
        }
        let path = &got[2..2 + PATH_WORDS];
        let mut moves: Vec<Move> = (0..len)
            .map(|p| {
                Move::from_index(((path[p / PATH_MOVES] >> ((p % PATH_MOVES) * 2)) & 3) as usize)
            })
            .collect();
        moves.extend(
            got[2 + PATH_WORDS..]
                .iter()
                .map(|&w| Move::from_index(w as usize & 3)),
        );
        Ok((root, moves))
    }
}

impl GpuIda {
    /// Words `words` of invocation `inv`'s state, read back through the staging buffer.
    ///
    /// # Errors
    /// [`EvalError::Device`] when the read-back fails.
    fn read_state(&self, inv: usize, words: &[usize]) -> Result<Vec<u32>, EvalError> {
        let (ctx, bufs) = (&self.ctx, &self.bufs);
        let mut enc = ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
        for (k, &w) in words.iter().enumerate() {
            let at = self.shape.state_index(w, inv);
            enc.copy_buffer_to_buffer(&bufs.stacks, at * 4, &bufs.staging, k as u64 * 4, 4);
        }
        ctx.queue.submit(Some(enc.finish()));
        bufs.map_staging(&ctx.device, words.len() as u64 * 4)
    }
}
