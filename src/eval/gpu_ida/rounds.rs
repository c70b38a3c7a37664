//! [`GpuIda`] as the search sees it ([`IdaDevice`]): an iteration begun with its subtree roots,
//! rounds (one dispatch each, the status block read back), the solution's moves read back
//! from the invocation that found the goal.

use std::time::Instant;

use wgpu::util::DeviceExt;

use super::{
    DeviceIteration, GpuIda, MAX_DEPTH, PATH_WORDS, SHARE_MAX, ST_BUSY, ST_CUT, ST_EXPANDED,
    ST_FINISHED, ST_FOUND, ST_FOUND_DEPTH, ST_FOUND_INV, ST_GENERATED, ST_GIVEN, ST_HEADER,
    ST_MIN_F, ST_TAIL, ST_WORK, frame_word, origin_word,
};
use crate::eval::EvalError;
use crate::eval::ida::{HIST_G, HIST_H, IdaDevice, RoundReport, SubtreeRoot};
use crate::puzzle::Move;

/// Most subtree roots an iteration asks for (see `frontier_target`).
const MAX_ROOTS: usize = 1 << 16;

impl IdaDevice for GpuIda {
    fn describe(&self) -> String {
        self.ctx.describe()
    }

    fn invocations(&self) -> usize {
        self.invocations as usize
    }

    fn frontier_target(&self) -> usize {
        // Four roots an invocation, so that the work counter keeps a small device full while
        // subtrees of very different sizes end, but no more than 65,536 in all (and at least
        // one an invocation): on a big device donation (see the docs of `gpu_ida`) does that
        // work, and more roots only lengthen the host's split and the upload of each
        // iteration (on an H200 with 65,536 invocations, 262,144 roots took the host 200 ms an
        // iteration, beside 27 ms of rounds for 88·10⁶ nodes).
        (4 * self.invocations as usize)
            .min(MAX_ROOTS)
            .max(self.invocations as usize)
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
        let mut words = self.const_words.clone();
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
        self.consts = self
            .ctx
            .device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("consts"),
                contents: bytemuck::cast_slice(&words),
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
            });
        // The bind group names the old buffer: `begin` makes a new one.
        self.items = None;
        self.pruning_set = true;
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
        if !self.pruning_set {
            return Err(EvalError::Device(
                "begin before set_pruning: the roots name states of no automaton".into(),
            ));
        }
        let limits = self.ctx.device.limits();
        let most = (limits
            .max_storage_buffer_binding_size
            .min(limits.max_buffer_size)
            / (self.item_words as u64 * 4))
            .min(u64::from(u32::MAX)) as u32;
        if count > most {
            return Err(EvalError::Device(format!(
                "{count} subtree roots do not fit one binding ({most} do)"
            )));
        }
        let capacity = count
            .saturating_add(self.invocations.saturating_mul(8))
            .min(most)
            .max(1);
        // The ring takes the whole buffer, which grows with headroom (roots vary by iteration).
        let capacity = self.ensure_items(capacity, most);
        let mut words = vec![0u32; roots.len() * self.item_words];
        for (i, (r, item)) in roots
            .iter()
            .zip(words.chunks_exact_mut(self.item_words))
            .enumerate()
        {
            if r.tiles.len() != self.cells || r.g > 255 {
                return Err(EvalError::Device(format!(
                    "subtree root {i}: {} cells at depth {} (the device takes {} cells, depth < 256)",
                    r.tiles.len(),
                    r.g,
                    self.cells
                )));
            }
            for (c, &t) in r.tiles.iter().enumerate() {
                item[c / 4] |= u32::from(t) << (8 * (c % 4));
            }
            let prev = r.prev.map_or(4, |m| m.index() as u32);
            item[self.board_words] = r.g | (prev << 8) | (0xF << 11);
            item[self.board_words + 1] = i as u32;
            item[self.board_words + 2] = u32::from(r.fsm);
        }
        let ctx = &self.ctx;
        let (items, _, _) = self.items.as_ref().expect("allocated above");
        ctx.queue
            .write_buffer(items, 0, bytemuck::cast_slice(&words));
        let mut enc = ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
        // Every invocation starts idle.
        enc.clear_buffer(&self.state, 0, Some(u64::from(self.invocations) * 4));
        ctx.queue.submit(Some(enc.finish()));
        if histogram {
            self.pipeline(true);
        }
        self.run = Some(DeviceIteration {
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
        });
        Ok(())
    }

    fn round(&mut self, budget: u32) -> Result<RoundReport, EvalError> {
        let started = Instant::now();
        let Some(run) = &self.run else {
            return Err(EvalError::Device("round before begin".into()));
        };
        // Counts per round stay below 2³²: at most 4 generated per expansion.
        let most = ((1u32 << 30) / self.invocations.max(1)).max(1);
        let budget = budget.min(most).min(self.budget_cap).max(1);
        let params = [
            run.bound,
            run.available,
            budget,
            run.hungry,
            run.capacity,
            run.taken,
            run.share,
            2,
        ];
        let mut header = [0u32; 16];
        header[ST_WORK] = run.taken;
        header[ST_TAIL] = run.tail;
        header[ST_MIN_F] = run.min_f;
        let histogram = run.histogram;
        let groups = self.invocations.div_ceil(self.workgroup);
        let ctx = self.ctx.clone();
        ctx.queue
            .write_buffer(&self.params, 0, bytemuck::cast_slice(&params));
        ctx.queue
            .write_buffer(&self.status, 0, bytemuck::cast_slice(&header));
        let words = ST_HEADER + if histogram { HIST_G * HIST_H } else { 0 };
        let mut enc = ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
        if histogram {
            enc.clear_buffer(&self.status, ST_HEADER as u64 * 4, None);
        }
        {
            self.pipeline(histogram);
            let pipeline = self.pipelines[usize::from(histogram)]
                .as_ref()
                .expect("compiled");
            let (_, group, _) = self.items.as_ref().expect("begin allocates");
            let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("gpu idastar"),
                timestamp_writes: None,
            });
            pass.set_pipeline(pipeline);
            pass.set_bind_group(0, group, &[]);
            pass.dispatch_workgroups(groups, 1, 1);
        }
        enc.copy_buffer_to_buffer(&self.status, 0, &self.staging, 0, words as u64 * 4);
        ctx.queue.submit(Some(enc.finish()));
        let st = self.map_staging(words as u64 * 4)?;
        let cut = st[ST_CUT] != 0;
        if cut {
            // The iteration is lost; the next one runs shorter rounds.
            self.budget_cap = (budget / 2).max(16);
        }
        let run = self.run.as_mut().expect("checked above");
        let expanded = u64::from(st[ST_EXPANDED]);
        let busy = u64::from(st[ST_BUSY]);
        // Donations past the ring's free slots were refused (the counter overshoots).
        run.tail = st[ST_TAIL].min(run.taken.saturating_add(run.capacity));
        run.taken = st[ST_WORK].min(run.available);
        run.min_f = st[ST_MIN_F];
        let found = st[ST_FOUND] != 0 && !cut;

        if found {
            let depth = st[ST_FOUND_DEPTH] as usize;
            run.found = Some((st[ST_FOUND_INV], depth));
        }
        let exhausted = !cut && !found && busy == 0 && run.taken >= run.tail;
        // The roots are all taken: the next round asks the busy invocations to share with the
        // idle ones that the queue does not feed already.
        run.hungry = if run.taken >= run.available {
            (self.invocations - busy as u32).saturating_sub(run.tail - run.taken)
        } else {
            0
        };
        // Enough items from each busy invocation to feed every idle one (SHARE_MAX at most).
        run.share = run.hungry.div_ceil(busy.max(1) as u32).clamp(1, SHARE_MAX);
        run.available = run.tail;
        // The counters count items over the iteration; slots are taken modulo the capacity, so
        // whole turns of the ring come off (u32 counters would wrap in a long iteration).
        let turns = run.taken / run.capacity * run.capacity;
        run.taken -= turns;
        run.available -= turns;
        run.tail -= turns;
        let report = RoundReport {
            expanded,
            generated: u64::from(st[ST_GENERATED]),
            min_f: run.min_f,
            found,
            finished: u64::from(st[ST_FINISHED]),
            busy,
            invocations: u64::from(self.invocations),
            budget,
            busy_share: expanded as f64 / (f64::from(self.invocations) * f64::from(budget)),
            donated: u64::from(st[ST_GIVEN]),
            cut,
            exhausted,
            histogram: if histogram {
                st[ST_HEADER..].to_vec()
            } else {
                Vec::new()
            },
            seconds: started.elapsed().as_secs_f64(),
        };
        Ok(report)
    }

    fn solution(&mut self) -> Result<(usize, Vec<Move>), EvalError> {
        let Some((inv, depth)) = self.run.as_ref().and_then(|r| r.found) else {
            return Err(EvalError::Device("no goal was found".into()));
        };
        if depth >= MAX_DEPTH as usize || inv >= self.invocations {
            return Err(EvalError::Device(format!(
                "the device reports the goal at depth {depth} of invocation {inv}"
            )));
        }
        // From the finder's state: its copy of the work item's origin (path length, root, the
        // moves from the root: 2 bits each), then the moves on its stack (frame d's low two
        // bits, d = 1..=depth).
        let origin = origin_word(self.board_words, 0);
        let words: Vec<usize> = (origin..origin + 2 + PATH_WORDS)
            .chain((1..=depth).map(|d| frame_word(self.board_words, d)))
            .collect();
        let got = {
            let ctx = &self.ctx;
            let mut enc = ctx
                .device
                .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
            for (k, &w) in words.iter().enumerate() {
                let at = self.state_index(w, inv as usize);
                enc.copy_buffer_to_buffer(&self.state, at * 4, &self.staging, k as u64 * 4, 4);
            }
            ctx.queue.submit(Some(enc.finish()));
            self.map_staging(words.len() as u64 * 4)?
        };
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
