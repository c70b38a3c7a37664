//! The larger of two admissible heuristics: admissible, and consistent when both are (Pearl,
//! *Heuristics*, 1984, §3.2). `wd-lc` is walking distance and linear conflict taken this way:
//! walking distance sees tiles that must pass each other within a whole row or column band,
//! linear conflict the order of the tiles already in their goal line; each is larger on
//! boards where the other is blind.

use super::{Heuristic, HeuristicKind, Incremental};

/// `max(a, b)`, incrementally: both parts are kept up to date, so that the maximum after a
/// move is exact (or, when IDA* needs only "at least `enough`", stops as early as the part
/// that reaches it).
#[derive(Clone, Debug)]
pub struct MaxOf<A, B> {
    a: A,
    b: B,
    kind: HeuristicKind,
}

impl<A, B> MaxOf<A, B> {
    /// The larger of `a` and `b`, named as `kind`.
    pub fn new(a: A, b: B, kind: HeuristicKind) -> Self {
        MaxOf { a, b, kind }
    }
}

impl<A: Heuristic, B: Heuristic> Heuristic for MaxOf<A, B> {
    fn estimate(&self, tiles: &[u8]) -> u32 {
        self.a.estimate(tiles).max(self.b.estimate(tiles))
    }

    fn name(&self) -> &str {
        self.kind.name()
    }
}

/// What undoing a move of [`MaxOf`] restores: each part's undo and its value before.
#[derive(Clone, Copy, Debug)]
pub struct MaxUndo<UA, UB> {
    a: UA,
    b: UB,
    h: (u32, u32),
}

impl<A: Incremental, B: Incremental> Incremental for MaxOf<A, B> {
    /// Each part's state and its value.
    type State = (A::State, B::State, (u32, u32));
    type Prepared = (A::Prepared, B::Prepared);
    type Undo = MaxUndo<A::Undo, B::Undo>;

    fn init(&self, tiles: &[u8]) -> (Self::State, u32) {
        let (sa, ha) = self.a.init(tiles);
        let (sb, hb) = self.b.init(tiles);
        ((sa, sb, (ha, hb)), ha.max(hb))
    }

    #[inline(always)]
    fn prepare(
        &self,
        state: &Self::State,
        tiles: &[u8],
        tile: u8,
        from: usize,
        to: usize,
    ) -> Self::Prepared {
        (
            self.a.prepare(&state.0, tiles, tile, from, to),
            self.b.prepare(&state.1, tiles, tile, from, to),
        )
    }

    #[inline(always)]
    fn apply(
        &self,
        state: &mut Self::State,
        tiles: &[u8],
        tile: u8,
        from: usize,
        to: usize,
        prepared: Self::Prepared,
        enough: u32,
    ) -> (i32, Self::Undo) {
        let before = state.2;
        // Each part may stop early only at `enough`: then the maximum is at least `enough`
        // too, and IDA* prunes the node without its exact value.
        let (da, ua) = self
            .a
            .apply(&mut state.0, tiles, tile, from, to, prepared.0, enough);
        let (db, ub) = self
            .b
            .apply(&mut state.1, tiles, tile, from, to, prepared.1, enough);
        let ha = (before.0 as i32 + da) as u32;
        let hb = (before.1 as i32 + db) as u32;
        state.2 = (ha, hb);
        let dh = ha.max(hb) as i32 - before.0.max(before.1) as i32;
        (
            dh,
            MaxUndo {
                a: ua,
                b: ub,
                h: before,
            },
        )
    }

    #[inline(always)]
    fn undo(
        &self,
        state: &mut Self::State,
        tiles: &[u8],
        tile: u8,
        from: usize,
        to: usize,
        undo: Self::Undo,
    ) {
        self.a.undo(&mut state.0, tiles, tile, from, to, undo.a);
        self.b.undo(&mut state.1, tiles, tile, from, to, undo.b);
        state.2 = undo.h;
    }
}
