//! [`GpuIda`] as the search sees it ([`IdaDevice`], and [`LaneDevice`] for several searches
//! at once): iterations begun with their subtree roots, rounds (one dispatch each, the status
//! block read back), the solution's moves read back from the invocation that found the goal;
//! and the state that carries from round to round ([`RunState`], [`Ring`]).

use std::time::Instant;

use super::ring::Ring;
use super::{
    GpuIda, ITEM_TAG, L_FINISHED, LANE_SHIFT, LANE_WORDS, MAX_DEPTH, MAX_LANES, PATH_MOVES,
    PATH_WORDS, ST_BUSY, ST_CUT, ST_GIVEN, ST_GIVEN_LIVE, ST_HEADER, ST_LANES, ST_PENDING,
    ST_WORK2, frame_word, origin_word,
};
use crate::eval::EvalError;
use crate::eval::ida::{
    HIST_G, HIST_H, IdaDevice, LaneDevice, LaneReport, RoundReport, SubtreeRoot,
};
use crate::puzzle::Move;

/// Most subtree roots an iteration asks for (see `frontier_target`).
const MAX_ROOTS: usize = 1 << 16;

/// What changes as a [`GpuIda`] searches: the round budget's cap and the work on the device.
pub(super) struct RunState {
    /// Most expansions an invocation makes in a round: on a software adapter, few enough that
    /// the shader's loops stay under lavapipe's 65,535 iterations (halved after a cut).
    pub(super) budget_cap: u32,
    /// Most slots of the work items' ring besides the roots it was sized for (tests make it
    /// small, so that the ring turns often).
    pub(super) ring_cap: u32,
    /// Every how many items claimed within a round one is taken as not yet written (0: none;
    /// see `GpuIda::set_defer_claims`).
    pub(super) defer: u32,
    /// The work items and the lanes (`None` before the first [`IdaDevice::begin`] or
    /// [`LaneDevice::reset_lanes`]).
    pub(super) ring: Option<Ring>,
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

    /// `roots` as work items of `lane` at ring positions `first..` of a ring of `capacity`:
    /// the board (a byte a tile), info (g, the last move, no move tried), the root's index
    /// (with the lane above it) and its state in the pruning automaton; each word tagged with
    /// its position's turn (see `item_tag` in the shader).
    ///
    /// # Errors
    /// [`EvalError::Device`] for a root of another size or at depth 256 or more, or too many
    /// roots for the index.
    fn pack_roots(
        &self,
        roots: &[SubtreeRoot<'_>],
        lane: usize,
        first: u32,
        capacity: u32,
    ) -> Result<Vec<u32>, EvalError> {
        let (cells, board_words, item_words) = (
            self.shape.cells,
            self.shape.board_words,
            self.shape.item_words,
        );
        if roots.len() >= 1 << LANE_SHIFT {
            return Err(EvalError::Device(format!(
                "{} subtree roots (the device takes fewer than {})",
                roots.len(),
                1u32 << LANE_SHIFT
            )));
        }
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
            item[board_words + 1] = i as u32 | (lane as u32) << LANE_SHIFT;
            item[board_words + 2] = u32::from(r.fsm);
            // Turns of the ring alternate their tag (even: the top bit set).
            let turn = (u64::from(first) + i as u64) / u64::from(capacity);
            let tag = if turn.is_multiple_of(2) { ITEM_TAG } else { 0 };
            for w in item.iter_mut() {
                *w |= tag;
            }
        }
        Ok(words)
    }

    /// Empties the ring and every lane, every invocation idle: a ring of `roots` roots
    /// besides the items handed out (capped by `ring_cap`), with or without the histogram.
    ///
    /// # Errors
    /// [`EvalError::Device`] before the pruning automaton is set (roots would name states of
    /// none), or when the roots do not fit one binding.
    fn empty(&mut self, roots: usize, histogram: bool) -> Result<(), EvalError> {
        if !self.bufs.pruning_set {
            return Err(EvalError::Device(
                "roots before set_pruning: they would name states of no automaton".into(),
            ));
        }
        let count =
            u32::try_from(roots).map_err(|_| EvalError::Device("too many subtree roots".into()))?;
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
        let ctx = &self.ctx;
        let items = self.bufs.items.as_ref().expect("allocated above");
        let mut enc = ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
        // Every invocation starts idle, and every slot written since the ring was last
        // emptied is empty (a new buffer is all zeros).
        enc.clear_buffer(
            &self.bufs.stacks,
            0,
            Some(u64::from(self.shape.invocations) * 4),
        );
        // (Bounded by the buffer, not by this ring, which may be smaller.)
        let dirty = self.run.ring.as_ref().map_or(0, |r| r.dirty);
        let dirty_bytes = u64::from(dirty.min(items.capacity)) * self.shape.item_words as u64 * 4;
        if dirty_bytes > 0 {
            enc.clear_buffer(&items.buffer, 0, Some(dirty_bytes));
        }
        ctx.queue.submit(Some(enc.finish()));
        if histogram {
            self.pipes.get(&ctx.device, &self.shape, true, false);
        }
        self.run.ring = Some(Ring::new(capacity, histogram));
        Ok(())
    }

    /// Writes `roots` of `lane` at the ring's tail and begins the lane's iteration with
    /// threshold `bound`; `false` when the ring has no room for them now.
    ///
    /// # Errors
    /// [`EvalError::Device`] before the ring is made, for a lane that is not idle, or for
    /// roots the device cannot take.
    fn push_roots(
        &mut self,
        lane: usize,
        bound: u32,
        roots: &[SubtreeRoot<'_>],
    ) -> Result<bool, EvalError> {
        let Some(ring) = &self.run.ring else {
            return Err(EvalError::Device("roots before the ring is made".into()));
        };
        if lane >= MAX_LANES || ring.lanes[lane].active || ring.lanes[lane].outstanding > 0 {
            return Err(EvalError::Device(format!(
                "lane {lane} is busy or out of range (the device has {MAX_LANES})"
            )));
        }
        let count = u32::try_from(roots.len())
            .map_err(|_| EvalError::Device("too many subtree roots".into()))?;
        if count > ring.capacity {
            return Err(EvalError::Device(format!(
                "{count} subtree roots do not fit the work items' ring ({})",
                ring.capacity
            )));
        }
        if count > ring.room() {
            return Ok(false);
        }
        let (tail, capacity) = (ring.tail, ring.capacity);
        let words = self.pack_roots(roots, lane, tail, capacity)?;
        let items = self.bufs.items.as_ref().expect("the ring is made");
        // Written at the next submission, before its commands; in two parts where the ring
        // turns.
        let item_bytes = self.shape.item_words as u64 * 4;
        let at = tail % capacity;
        let first = ((capacity - at) as usize).min(roots.len()) * self.shape.item_words;
        self.ctx.queue.write_buffer(
            &items.buffer,
            u64::from(at) * item_bytes,
            bytemuck::cast_slice(&words[..first]),
        );
        if first < words.len() {
            self.ctx
                .queue
                .write_buffer(&items.buffer, 0, bytemuck::cast_slice(&words[first..]));
        }
        self.run
            .ring
            .as_mut()
            .expect("checked above")
            .push(lane, bound, count);
        Ok(true)
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
        header: &[u32; ST_HEADER],
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
        self.empty(roots.len(), histogram)?;
        // An empty ring has room for the roots it was made for.
        if !self.push_roots(0, bound, roots)? {
            return Err(EvalError::Device("no room for the roots".into()));
        }
        Ok(())
    }

    fn round(&mut self, budget: u32) -> Result<RoundReport, EvalError> {
        self.lane_round(budget).map(|(r, _)| r)
    }

    fn solution(&mut self) -> Result<(usize, Vec<Move>), EvalError> {
        self.lane_solution(0)
    }
}

impl LaneDevice for GpuIda {
    fn lanes(&self) -> usize {
        MAX_LANES
    }

    fn reset_lanes(&mut self, roots: usize) -> Result<(), EvalError> {
        self.empty(roots, false)
    }

    fn add(
        &mut self,
        lane: usize,
        bound: u32,
        roots: &[SubtreeRoot<'_>],
    ) -> Result<bool, EvalError> {
        self.push_roots(lane, bound, roots)
    }

    fn stop(&mut self, lane: usize) {
        if let Some(l) = self.run.ring.as_mut().and_then(|r| r.lanes.get_mut(lane)) {
            l.stopped = true;
            l.active = false;
        }
    }

    fn lane_round(&mut self, budget: u32) -> Result<(RoundReport, Vec<LaneReport>), EvalError> {
        let started = Instant::now();
        let Some(run) = &self.run.ring else {
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
            // The lanes' iterations are lost; the next ones run shorter rounds.
            self.run.budget_cap = (budget / 2).max(16);
        }
        let run = self.run.ring.as_mut().expect("checked above");
        let lanes = run.advance(&st, cut, invocations)?;
        let sum = |f: fn(&LaneReport) -> u64| lanes.iter().map(f).sum::<u64>();
        let expanded = sum(|l| l.expanded);
        let finished = (0..MAX_LANES)
            .map(|l| u64::from(st[ST_LANES + l * LANE_WORDS + L_FINISHED]))
            .sum();
        let first = lanes[0];
        let report = RoundReport {
            expanded,
            generated: sum(|l| l.generated),
            min_f: first.min_f,
            found: first.found,
            finished,
            busy: u64::from(st[ST_BUSY]),
            invocations: u64::from(invocations),
            budget,
            busy_share: expanded as f64 / (f64::from(invocations) * f64::from(budget)),
            donated: u64::from(st[ST_GIVEN]),
            donated_within: u64::from(st[ST_GIVEN_LIVE]),
            taken_within: u64::from(st[ST_WORK2].saturating_sub(within_from)),
            pending: u64::from(st[ST_PENDING]),
            cut,
            exhausted: first.exhausted,
            histogram: if histogram {
                st[ST_HEADER..].to_vec()
            } else {
                Vec::new()
            },
            seconds: started.elapsed().as_secs_f64(),
        };
        Ok((report, lanes))
    }

    fn lane_solution(&mut self, lane: usize) -> Result<(usize, Vec<Move>), EvalError> {
        let Some((inv, depth)) = self
            .run
            .ring
            .as_ref()
            .and_then(|r| r.lanes.get(lane))
            .and_then(|l| l.found)
        else {
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
        // (The root word holds the lane above the root's index.)
        let (len, root) = (got[0] as usize, (got[1] & ((1 << LANE_SHIFT) - 1)) as usize);
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
