//! [`GpuIda`] as the search sees it ([`IdaDevice`]): an iteration begun with its subtree roots,
//! rounds (one dispatch each, the status block read back), the solution's moves read back
//! from the invocation that found the goal; and the state that carries from round to round
//! ([`RunState`], [`DeviceIteration`]).

use std::time::Instant;

use super::{
    GpuIda, MAX_DEPTH, PATH_WORDS, SHARE_MAX, ST_BUSY, ST_CUT, ST_EXPANDED, ST_FINISHED, ST_FOUND,
    ST_FOUND_DEPTH, ST_FOUND_INV, ST_GENERATED, ST_GIVEN, ST_HEADER, ST_MIN_F, ST_TAIL, ST_WORK,
    frame_word, origin_word,
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
    /// End of the items in the ring (roots, then donations).
    tail: u32,
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
            tail: count,
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
    fn round_words(&self, budget: u32) -> ([u32; 8], [u32; 16]) {
        let params = [
            self.bound,
            self.available,
            budget,
            self.hungry,
            self.capacity,
            self.taken,
            self.share,
            2,
        ];
        let mut header = [0u32; 16];
        header[ST_WORK] = self.taken;
        header[ST_TAIL] = self.tail;
        header[ST_MIN_F] = self.min_f;
        (params, header)
    }

    /// Takes in a round's status block `st` (`cut`: the round was cut short; `invocations`
    /// ran it): the work counters, the least f, the goal, and the next round's donations.
    /// Returns whether the goal was found and whether the iteration is exhausted (no item
    /// left and no invocation busy).
    fn advance(&mut self, st: &[u32], cut: bool, invocations: u32) -> (bool, bool) {
        let busy = st[ST_BUSY];
        // Donations past the ring's free slots were refused (the counter overshoots).
        self.tail = st[ST_TAIL].min(self.taken.saturating_add(self.capacity));
        self.taken = st[ST_WORK].min(self.available);
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
        // whole turns of the ring come off (u32 counters would wrap in a long iteration).
        let turns = self.taken / self.capacity * self.capacity;
        self.taken -= turns;
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
    /// tried), the root's index and its state in the pruning automaton.
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
        params: &[u32; 8],
        header: &[u32; 16],
        histogram: bool,
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
            let pipeline = self.pipes.get(&ctx.device, &self.shape, histogram);
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
        let capacity = self.bufs.ensure_items(
            &self.ctx.device,
            &self.pipes.layout,
            self.shape.item_words,
            capacity,
            most,
        );
        let words = self.pack_roots(roots)?;
        let ctx = &self.ctx;
        let items = self.bufs.items.as_ref().expect("allocated above");
        ctx.queue
            .write_buffer(&items.buffer, 0, bytemuck::cast_slice(&words));
        let mut enc = ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
        // Every invocation starts idle.
        enc.clear_buffer(
            &self.bufs.stacks,
            0,
            Some(u64::from(self.shape.invocations) * 4),
        );
        ctx.queue.submit(Some(enc.finish()));
        if histogram {
            self.pipes.get(&ctx.device, &self.shape, true);
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
        let (params, header) = run.round_words(budget);
        let histogram = run.histogram;
        let st = self.dispatch(&params, &header, histogram)?;
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
        if len > 16 * PATH_WORDS {
            return Err(EvalError::Device(format!(
                "the device reports a path of {len} moves to its root"
            )));
        }
        let path = &got[2..2 + PATH_WORDS];
        let mut moves: Vec<Move> = (0..len)
            .map(|p| Move::from_index(((path[p / 16] >> ((p % 16) * 2)) & 3) as usize))
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
