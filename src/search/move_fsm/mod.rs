//! Move pruning beyond "never undo the last move": a finite-state machine over move strings
//! that rejects every path containing a duplicate move sequence.
//!
//! L. A. Taylor and R. E. Korf, "Pruning duplicate nodes in depth-first search", AAAI 1993.
//! Two move strings `s` and `t` are *duplicates* when, applied from the same blank cell, they
//! leave every tile in the same place. The builder finds such pairs by a breadth-first search
//! of move strings (on an unbounded board, so the pairs hold on every board), in order of
//! length, then lexicographically by move index ([`Move::ALL`]: Up, Down, Left, Right).
//! A string `s` is *forbidden* when an earlier string `t` (shorter, or as long and
//! lexicographically smaller) is a duplicate of it and the cells the blank visits under `t`
//! stay within the bounding box of those it visits under `s` (relative to the common start):
//! then `t` is legal wherever `s` is. The forbidden strings, kept minimal (no forbidden string
//! contains another), become an Aho–Corasick automaton whose transitions into a match are
//! [`DEAD`].
//!
//! **At least one optimal path survives.** Take, among a board's optimal solutions, the
//! lexicographically smallest `P`. If `P = a s b` with `s` forbidden by `t`, then `a t b` is
//! legal (the blank is where `s` would start it, and `t` stays within `s`'s box), ends on the
//! same board as `P`, and is either shorter than `P` (impossible: `P` is optimal) or as long
//! and lexicographically smaller (impossible: `P` is the smallest). So `P` contains no
//! forbidden string, and IDA* with this pruning still reaches the goal in the iteration whose
//! threshold is the optimal cost: every node of `P` has f ≤ C*, so each earlier threshold is
//! at most C* (the least f above it on `P`'s surviving path bounds it), and the first solution
//! found has cost C*. The four undo pairs (`UD`, `DU`, `LR`, `RL`, duplicates of the empty
//! string) are always among the forbidden strings, so this machine prunes at least what
//! "never undo" prunes. Counting all optimal solutions needs every one of them: that search
//! uses [`Pruning::Undo`].

mod cache;

use std::collections::{HashMap, HashSet, VecDeque};
use std::fmt;
use std::path::Path;
use std::str::FromStr;
use std::sync::{Arc, Mutex, OnceLock};

use crate::puzzle::Move;

/// Version of the builder ([`MoveFsm::new`]): saved with each cached automaton, so that a
/// file made by another one is rebuilt. Bump it whenever what the builder makes changes
/// (which strings are forbidden, the automaton, its numbering).
pub const BUILDER: u32 = 1;

/// The transition of a move that completes a forbidden string: the move is pruned.
pub const DEAD: u16 = u16::MAX;

/// The builder's form of [`DEAD`] (its tables are `u32` until the automaton is minimal).
const REJECT: u32 = u32::MAX;

/// The longest duplicate strings of the automaton IDA* prunes with ([`Pruning::Fsm`]) on a
/// board of `cells` cells: 14 moves up to 25 cells, 12 above (where 14 takes 8–15 s to
/// build). Longer strings find more duplicates but take about 6 times as long per 2 moves to
/// build: on the default 15-puzzle with linear conflict IDA* expanded 2.42 M nodes with "never
/// undo", 1.69 / 1.46 / 1.32 / 1.24 M with strings of 8 / 10 / 12 / 14 moves (in U < D < L < R
/// order, before [`super::idastar::move_order`]), whose automata
/// take 0.002 / 0.02 / 0.09 / 0.56 s to build for 4×4 (5×5 at 14 moves: 2.6 s and 700 MB
/// while building; 16 moves on 4×4 need more states than the table's `u16` holds). The build
/// is paid once per board shape: the automaton is kept in the pattern-database cache folder
/// ([`MoveFsm::shared`]).
pub fn fsm_depth(cells: usize) -> usize {
    if cells <= 25 { 14 } else { 12 }
}

/// How IDA* prunes move sequences.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Pruning {
    /// Only the move that undoes the previous one (Korf 1985): every path without an undo is
    /// searched, so transpositions are searched (and counted) once each.
    Undo,
    /// The duplicate-sequence automaton of [`MoveFsm`] (Taylor & Korf 1993), strings of up to
    /// [`fsm_depth`] moves: fewer nodes in every complete iteration, same optimal length (the
    /// first solution found may be another optimal one).
    #[default]
    Fsm,
}

impl Pruning {
    /// Name as used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Pruning::Undo => "undo",
            Pruning::Fsm => "fsm",
        }
    }

    /// The longest strings of the automaton that prunes this way on a board of `cells` cells
    /// (2: exactly "never undo").
    pub fn depth(self, cells: usize) -> usize {
        match self {
            Pruning::Undo => 2,
            Pruning::Fsm => fsm_depth(cells),
        }
    }
}

impl fmt::Display for Pruning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name [`Pruning::from_str`] does not know.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown pruning {0:?} (expected undo or fsm)")]
pub struct UnknownPruning(pub String);

impl FromStr for Pruning {
    type Err = UnknownPruning;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "undo" => Ok(Pruning::Undo),
            "fsm" => Ok(Pruning::Fsm),
            _ => Err(UnknownPruning(s.to_string())),
        }
    }
}

/// What [`MoveFsm::shared_saying`] tells its caller.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FsmNote {
    /// An automaton for `rows × cols` from strings of up to `depth` moves is about to be
    /// built (once per board shape), then kept in `file` (`None`: in memory, for this
    /// process).
    Building {
        /// The board's rows.
        rows: usize,
        /// The board's columns.
        cols: usize,
        /// The longest strings searched for duplicates, in moves.
        depth: usize,
        /// The cache file it will be saved to.
        file: Option<std::path::PathBuf>,
    },
    /// A cached automaton that is there but cannot be used, and why: it is rebuilt.
    Unusable(String),
}

/// A finite-state machine over moves: state [`MoveFsm::ROOT`] at the start of a path, and
/// `next(state, move)` after each move, [`DEAD`] when the path would end in a forbidden
/// (duplicate) string. See the module documentation for how it is built and why it is sound.
#[derive(Clone, Debug)]
pub struct MoveFsm {
    /// `next[state][move index]`: the state after the move, or [`DEAD`].
    next: Vec<[u16; 4]>,
    /// The forbidden strings, in (length, lexicographic) order.
    forbidden: Vec<Vec<Move>>,
    depth: usize,
}

impl MoveFsm {
    /// The state of an empty path.
    pub const ROOT: u16 = 0;

    /// Builds the automaton for a `rows × cols` board from duplicate strings of at most
    /// `depth` moves (2 gives exactly "never undo"; at most [`MAX_FSM_DEPTH`]). Strings whose
    /// blank path does not fit the board are skipped (they never occur on it).
    pub fn new(rows: usize, cols: usize, depth: usize) -> MoveFsm {
        let mut depth = depth.min(MAX_FSM_DEPTH);
        let (forbidden, next) = loop {
            let forbidden = duplicate_strings(rows, cols, depth);
            let next = minimise(&automaton(&forbidden));
            // States are `u16`, so that the table IDA* reads on every node stays small.
            if next.len() < usize::from(DEAD) || depth <= 2 {
                break (forbidden, next);
            }
            depth -= 2;
        };
        let next = next
            .iter()
            .map(|row| row.map(|t| if t == REJECT { DEAD } else { t as u16 }))
            .collect();
        MoveFsm {
            next,
            forbidden,
            depth,
        }
    }

    /// [`MoveFsm::new`], made once per `(rows, cols, depth)` in this process (outside the
    /// process cache's lock: a build for one shape never holds up a search on another). With a
    /// `cache` folder (the pattern-database cache) and strings of more than 10 moves (shorter
    /// ones build in milliseconds), it is read from the file kept there (checked; see
    /// `cache.rs`), or built and saved there for the next process; a missing, stale or
    /// corrupt file is rebuilt, and one that cannot be written only costs the next process
    /// the build. Says nothing: [`MoveFsm::shared_saying`] tells a caller what it does.
    pub fn shared(rows: usize, cols: usize, depth: usize, cache: Option<&Path>) -> Arc<MoveFsm> {
        Self::shared_saying(rows, cols, depth, cache, &|_| {})
    }

    /// [`MoveFsm::shared`], telling `say` what it does that takes a while or goes wrong: a
    /// build of strings of more than 10 moves, before it starts (0.56 s for 4×4, 2.6 s for
    /// 5×5), and a cached file that is there but cannot be used (it is rebuilt).
    pub fn shared_saying(
        rows: usize,
        cols: usize,
        depth: usize,
        cache: Option<&Path>,
        say: &dyn Fn(FsmNote),
    ) -> Arc<MoveFsm> {
        type Cell = Arc<OnceLock<Arc<MoveFsm>>>;
        type Cache = Mutex<HashMap<(usize, usize, usize), Cell>>;
        static CACHE: OnceLock<Cache> = OnceLock::new();
        let cell = {
            let cache = CACHE.get_or_init(Default::default);
            let mut map = cache.lock().unwrap_or_else(|e| e.into_inner());
            map.entry((rows, cols, depth)).or_default().clone()
        };
        cell.get_or_init(|| {
            // Short strings build in milliseconds (0.04 s at 10 moves on 5×5): no file. The
            // process cache is keyed by shape and depth only (the automaton depends on nothing
            // else): a second folder in the same process is not written to.
            let building = |file| {
                if depth > 10 {
                    say(FsmNote::Building {
                        rows,
                        cols,
                        depth,
                        file,
                    });
                }
            };
            let Some(dir) = cache.filter(|_| depth > 10) else {
                building(None);
                return Arc::new(MoveFsm::new(rows, cols, depth));
            };
            let file = cache::path_for(dir, rows, cols, depth);
            match cache::read(dir, rows, cols, depth) {
                Ok(fsm) => return Arc::new(fsm),
                // A file that is there but cannot be used is said, as a damaged table is.
                Err(why) if file.exists() => say(FsmNote::Unusable(why.to_string())),
                Err(_) => {}
            }
            building(Some(file));
            let fsm = MoveFsm::new(rows, cols, depth);
            // Only a cache: a failed save costs the next process the build, nothing else.
            let _ = cache::write(dir, rows, cols, depth, &fsm);
            Arc::new(fsm)
        })
        .clone()
    }

    /// An automaton from its parts, as `cache.rs` reads them back (checked there).
    pub(super) fn from_parts(next: Vec<[u16; 4]>, forbidden: Vec<Vec<Move>>, depth: usize) -> Self {
        MoveFsm {
            next,
            forbidden,
            depth,
        }
    }

    /// The state after `m` from `state`, or [`DEAD`] when `m` is pruned.
    #[inline(always)]
    pub fn next(&self, state: u16, m: Move) -> u16 {
        self.next[state as usize][m.index()]
    }

    /// The transition table, `[state][move index]` ([`DEAD`]: pruned).
    pub fn table(&self) -> &[[u16; 4]] {
        &self.next
    }

    /// Number of states.
    pub fn states(&self) -> usize {
        self.next.len()
    }

    /// The forbidden strings found, shortest first.
    pub fn forbidden(&self) -> &[Vec<Move>] {
        &self.forbidden
    }

    /// The longest strings searched for duplicates, in moves.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// Whether the whole of `moves` passes the automaton from the root.
    pub fn accepts(&self, moves: &[Move]) -> bool {
        let mut s = MoveFsm::ROOT;
        for &m in moves {
            s = self.next(s, m);
            if s == DEAD {
                return false;
            }
        }
        true
    }
}

/// Longest strings the builder searches (a board's displaced tiles fit its fixed-size key).
pub const MAX_FSM_DEPTH: usize = 16;

/// A cell relative to the blank's start on the unbounded board: `(row + 32) << 6 | (col + 32)`.
type Cell = u16;

/// The cell the blank starts on.
const ORIGIN: Cell = 32 << 6 | 32;

/// The cell one move away from `c`.
fn step(c: Cell, m: Move) -> Cell {
    match m {
        Move::Up => c - 64,
        Move::Down => c + 64,
        Move::Left => c - 1,
        Move::Right => c + 1,
    }
}

/// What a board looks like after a move string: the blank's cell (slot 0) and the tiles away
/// from home as `cell now << 16 | home cell`, sorted (the rest 0). Equal keys, equal boards.
type Position = [u32; MAX_FSM_DEPTH + 1];

/// A move string as the builder's search keeps it.
#[derive(Clone, Copy)]
struct Node {
    /// Moves, 2 bits each, first move lowest; `len` of them.
    moves: u64,
    len: u8,
    pos: Position,
    /// Tiles away from home (entries of `pos` after the blank).
    moved: u8,
    /// Bounding box of the blank's cells: min row, max row, min col, max col (as in [`Cell`]).
    bbox: [u8; 4],
}

impl Node {
    fn blank(&self) -> Cell {
        self.pos[0] as Cell
    }

    fn child(&self, m: Move) -> Node {
        let blank = self.blank();
        let to = step(blank, m);
        let mut c = *self;
        let tiles = &mut c.pos[1..=c.moved as usize];
        // The tile on `to` slides into the blank's cell.
        match tiles.iter().position(|&e| (e >> 16) as Cell == to) {
            Some(i) => {
                let home = tiles[i] & 0xFFFF;
                if home as Cell == blank {
                    // Home again: removed (the last entry moves into its place, resorted below).
                    tiles[i] = tiles[c.moved as usize - 1];
                    c.pos[c.moved as usize] = 0;
                    c.moved -= 1;
                } else {
                    tiles[i] = u32::from(blank) << 16 | home;
                }
            }
            None => {
                c.moved += 1;
                c.pos[c.moved as usize] = u32::from(blank) << 16 | u32::from(to);
            }
        }
        c.pos[1..=c.moved as usize].sort_unstable();
        c.pos[0] = u32::from(to);
        c.moves |= (m.index() as u64) << (2 * c.len);
        c.len += 1;
        let (r, col) = ((to >> 6) as u8, (to & 63) as u8);
        let b = self.bbox;
        c.bbox = [b[0].min(r), b[1].max(r), b[2].min(col), b[3].max(col)];
        c
    }

    fn fits(&self, rows: usize, cols: usize) -> bool {
        usize::from(self.bbox[1] - self.bbox[0]) < rows
            && usize::from(self.bbox[3] - self.bbox[2]) < cols
    }

    /// The last `k` moves, packed, with their count.
    fn suffix(&self, k: u8) -> (u64, u8) {
        let shift = 2 * u32::from(self.len - k);
        let mask = if k >= 32 {
            u64::MAX
        } else {
            (1u64 << (2 * k)) - 1
        };
        ((self.moves >> shift) & mask, k)
    }

    fn move_list(self) -> Vec<Move> {
        (0..self.len)
            .map(|i| Move::from_index(((self.moves >> (2 * i)) & 3) as usize))
            .collect()
    }
}

/// Whether box `a` lies within box `b`.
fn within(a: [u8; 4], b: [u8; 4]) -> bool {
    a[0] >= b[0] && a[1] <= b[1] && a[2] >= b[2] && a[3] <= b[3]
}

/// The minimal forbidden strings of at most `depth` moves that fit a `rows × cols` board, in
/// (length, lexicographic) order.
fn duplicate_strings(rows: usize, cols: usize, depth: usize) -> Vec<Vec<Move>> {
    type Map<K, V> = HashMap<K, V, foldhash::fast::FixedState>;
    let depth = depth.min(MAX_FSM_DEPTH);
    let mut pos = [0u32; MAX_FSM_DEPTH + 1];
    pos[0] = u32::from(ORIGIN);
    let (r0, c0) = ((ORIGIN >> 6) as u8, (ORIGIN & 63) as u8);
    let root = Node {
        moves: 0,
        len: 0,
        pos,
        moved: 0,
        bbox: [r0, r0, c0, c0],
    };
    // For each position reached, the boxes of the first strings that reached it (up to
    // `BOXES`: forgetting later ones only forbids less).
    const BOXES: usize = 3;
    let mut seen: Map<Position, ([[u8; 4]; BOXES], u8)> = Map::default();
    seen.insert(root.pos, ([root.bbox; BOXES], 1));
    let mut forbidden: Vec<Vec<Move>> = Vec::new();
    let mut forbidden_set: HashSet<(u64, u8), foldhash::fast::FixedState> = HashSet::default();
    let mut layer = vec![root];
    for _ in 0..depth {
        let mut next_layer = Vec::with_capacity(layer.len() * 2);
        for node in &layer {
            for m in Move::ALL {
                let child = node.child(m);
                if !child.fits(rows, cols) {
                    continue;
                }
                // The parent contains no forbidden string, so only a suffix can be one.
                if (2..child.len).any(|k| forbidden_set.contains(&child.suffix(k))) {
                    continue;
                }
                let (boxes, n) = seen.entry(child.pos).or_insert(([[0; 4]; BOXES], 0));
                if boxes[..usize::from(*n)]
                    .iter()
                    .any(|&b| within(b, child.bbox))
                {
                    forbidden_set.insert((child.moves, child.len));
                    forbidden.push(child.move_list());
                    continue;
                }
                if usize::from(*n) < BOXES {
                    boxes[usize::from(*n)] = child.bbox;
                    *n += 1;
                }
                next_layer.push(child);
            }
        }
        layer = next_layer;
    }
    forbidden
}

/// The Aho–Corasick automaton of `patterns` (Aho & Corasick 1975), with every transition
/// that completes a pattern (as a suffix of the path) set to [`DEAD`] and the states that
/// complete one removed.
fn automaton(patterns: &[Vec<Move>]) -> Vec<[u32; 4]> {
    const NONE: u32 = u32::MAX;
    // The trie.
    let mut child: Vec<[u32; 4]> = vec![[NONE; 4]];
    let mut terminal = vec![false];
    for p in patterns {
        let mut s = 0usize;
        for &m in p {
            if child[s][m.index()] == NONE {
                child[s][m.index()] = child.len() as u32;
                child.push([NONE; 4]);
                terminal.push(false);
            }
            s = child[s][m.index()] as usize;
        }
        terminal[s] = true;
    }
    // Failure links and the full transition function, breadth first.
    let n = child.len();
    let mut fail = vec![0u32; n];
    let mut delta = vec![[0u32; 4]; n];
    let mut queue = VecDeque::new();
    for mi in 0..4 {
        let c = child[0][mi];
        if c == NONE {
            delta[0][mi] = 0;
        } else {
            delta[0][mi] = c;
            fail[c as usize] = 0;
            queue.push_back(c as usize);
        }
    }
    while let Some(s) = queue.pop_front() {
        terminal[s] = terminal[s] || terminal[fail[s] as usize];
        for mi in 0..4 {
            let c = child[s][mi];
            if c == NONE {
                delta[s][mi] = delta[fail[s] as usize][mi];
            } else {
                delta[s][mi] = c;
                fail[c as usize] = delta[fail[s] as usize][mi];
                queue.push_back(c as usize);
            }
        }
    }
    // Live states renumbered (the root stays 0), transitions into terminal states dead.
    let mut id = vec![REJECT; n];
    let mut live = 0u32;
    for s in 0..n {
        if !terminal[s] {
            id[s] = live;
            live += 1;
        }
    }
    (0..n)
        .filter(|&s| !terminal[s])
        .map(|s| {
            let mut row = [REJECT; 4];
            for mi in 0..4 {
                row[mi] = id[delta[s][mi] as usize];
            }
            row
        })
        .collect()
}

/// The smallest automaton accepting the same move strings (Moore's partition refinement):
/// states that accept the same continuations are merged, so the table IDA* reads on every
/// node is smaller (it stays in cache). The root stays state 0.
fn minimise(next: &[[u32; 4]]) -> Vec<[u32; 4]> {
    let n = next.len();
    // Every live state accepts (the language is "no forbidden string"): one block to start.
    let mut block = vec![0u32; n];
    let mut blocks = 1usize;
    loop {
        let mut ids: HashMap<(u32, [u32; 4]), u32> = HashMap::new();
        let mut refined = vec![0u32; n];
        for s in 0..n {
            let sig = next[s].map(|t| {
                if t == REJECT {
                    REJECT
                } else {
                    block[t as usize]
                }
            });
            let fresh = ids.len() as u32;
            refined[s] = *ids.entry((block[s], sig)).or_insert(fresh);
        }
        let count = ids.len();
        block = refined;
        if count == blocks {
            break;
        }
        blocks = count;
    }
    // Renumber so that the root's block is 0, in order of first appearance.
    let mut order = vec![u32::MAX; blocks];
    let mut table = Vec::with_capacity(blocks);
    let mut reps = Vec::with_capacity(blocks);
    order[block[0] as usize] = 0;
    reps.push(0usize);
    for (s, &b) in block.iter().enumerate() {
        let b = b as usize;
        if order[b] == u32::MAX {
            order[b] = reps.len() as u32;
            reps.push(s);
        }
    }
    for &s in &reps {
        table.push(next[s].map(|t| {
            if t == REJECT {
                REJECT
            } else {
                order[block[t as usize] as usize]
            }
        }));
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::Board;

    fn moves(s: &str) -> Vec<Move> {
        s.chars()
            .map(|c| Move::from_letter(c, crate::puzzle::Notation::Blank).unwrap())
            .collect()
    }

    #[test]
    fn depth_two_is_never_undo() {
        let fsm = MoveFsm::new(4, 4, 2);
        assert_eq!(fsm.states(), 5);
        let f: Vec<String> = fsm
            .forbidden()
            .iter()
            .map(|s| s.iter().map(|m| m.letter(Default::default())).collect())
            .collect();
        assert_eq!(f, ["UD", "DU", "LR", "RL"]);
        assert!(fsm.accepts(&moves("UULLDDRRUL")));
        assert!(!fsm.accepts(&moves("ULRD")));
    }

    #[test]
    fn the_minimal_automaton_accepts_the_same_strings() {
        let forbidden = duplicate_strings(4, 4, 10);
        let full = automaton(&forbidden);
        let small = minimise(&full);
        assert!(
            small.len() < full.len(),
            "{} states, {} before",
            small.len(),
            full.len()
        );
        // Every string of up to 9 moves: the same verdict.
        fn walk(a: &[[u32; 4]], b: &[[u32; 4]], sa: u32, sb: u32, depth: usize) {
            for m in 0..4 {
                let (ta, tb) = (a[sa as usize][m], b[sb as usize][m]);
                assert_eq!(ta == REJECT, tb == REJECT);
                if ta != REJECT && depth > 0 {
                    walk(a, b, ta, tb, depth - 1);
                }
            }
        }
        walk(&full, &small, 0, 0, 9);
    }

    #[test]
    fn half_turns_of_a_square_are_duplicates() {
        // Six moves one way round a 2×2 square leave the board as six the other way; the
        // lexicographically larger is forbidden.
        let fsm = MoveFsm::new(4, 4, 6);
        assert!(fsm.forbidden().contains(&moves("RDLURD")));
        assert!(!fsm.forbidden().contains(&moves("DRULDR")));
        assert!(fsm.accepts(&moves("DRULDR")));
        assert!(!fsm.accepts(&moves("LRDLURD")));
    }

    #[test]
    fn forbidden_strings_are_duplicates_of_earlier_ones() {
        // Every forbidden string leaves a board as some string no later in (length, lex) order
        // that the automaton also treats as legal where the forbidden one is.
        let fsm = MoveFsm::new(4, 4, 8);
        assert!(fsm.forbidden().len() > 4);
        let mut checked = 0;
        for s in fsm.forbidden() {
            // A start cell where s is legal; then the board after s is reached by a string
            // that comes earlier.
            let Some((start, after)) = (0..16u8).find_map(|blank| {
                let tiles: Vec<u8> = (0..16)
                    .map(|i| {
                        if i == blank {
                            0
                        } else {
                            i + u8::from(i < blank)
                        }
                    })
                    .collect();
                let start = Board::from_u8(4, 4, &tiles).unwrap();
                apply(&start, s).map(|after| (start, after))
            }) else {
                continue;
            };
            assert!(
                earlier_duplicate(&start, s, &after),
                "no earlier duplicate of {s:?}"
            );
            checked += 1;
        }
        assert_eq!(checked, fsm.forbidden().len());
    }

    fn apply(b: &Board, s: &[Move]) -> Option<Board> {
        let mut b = b.clone();
        for &m in s {
            b.apply(m)?;
        }
        Some(b)
    }

    /// Whether some string shorter than `s`, or as long and lexicographically smaller,
    /// turns `start` into `after`.
    fn earlier_duplicate(start: &Board, s: &[Move], after: &Board) -> bool {
        fn go(b: &Board, depth: usize, prefix: &mut Vec<Move>, s: &[Move], after: &Board) -> bool {
            if b == after && (prefix.len() < s.len() || prefix.as_slice() < s) {
                return true;
            }
            if depth == 0 {
                return false;
            }
            for m in Move::ALL {
                let mut c = b.clone();
                if c.apply(m).is_none() {
                    continue;
                }
                prefix.push(m);
                let hit = go(&c, depth - 1, prefix, s, after);
                prefix.pop();
                if hit {
                    return true;
                }
            }
            false
        }
        go(start, s.len(), &mut Vec::new(), s, after)
    }
}
