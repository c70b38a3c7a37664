// GPU IDA*: each invocation runs its own depth-first search below the work items (subtree
// roots) it takes, at most `params.budget` expansions a round, its stack kept in `state` so
// that the next round (dispatch) resumes where this one stopped. See src/eval/gpu_ida.rs for
// the host side and src/search/gpu_idastar.rs for the iteration loop.
//
// Counting is the CPU IDA*'s (src/search/idastar/mod.rs): a node with f ≤ bound that is not the
// goal is expanded (counted once); each successor the pruning automaton allows (the CPU's, in
// `consts` from FSM_BASE: "never undo" or the duplicate-sequence automaton) is generated
// (counted once); a successor with f > bound is pruned and offers its f to the next
// threshold. So a finished iteration expands and generates exactly what the CPU does.
//
// Layouts (u32 words; `INV` invocations; word `w` of invocation `i` at `w * INV + i`):
// items   ITEM_WORDS a work item: BOARD_WORDS words of tiles (a byte each, row-major, 0 = blank),
//         info = g | prev << 8 (4 = none) | mask << 11 (moves still to try) | done << 15 (the
//         node was already expanded: a donated node) | path length << 16, root (the host's
//         subtree-root index), the node's state in the pruning automaton, PATH_WORDS words of
//         moves below the root (2 bits each).
// state   s0 = running | depth << 1 | g0 << 9, s1 = item, s2 = blank cell, then BOARD_WORDS
//         board words, then MAX_DEPTH frames: frame d = prev (3 bits, the move to the node;
//         4 = none) | left << 3 (bit m: move m is still to be tried; generated and counted)
//         | its state in the pruning automaton << 16.
// status  see the ST_ constants; `hist` (g < HIST_G, h < HIST_H) after the header.

// The host puts shaders/common.wgsl (the shape, the heuristic codes, the pattern tables and
// their metadata) in front of this file. Boards here have at most 32 cells (checked on the
// host).
const MAX_PATTERNS: u32 = 16u;
const MAX_DEPTH: u32 = 160u;
const PATH_WORDS: u32 = 10u;
// The first item word of the path (after the board, info, root and automaton state).
fn path_word(w: u32) -> u32 { return BOARD_WORDS + 3u + w; }
override WORKGROUP: u32 = 64u;
const NONE: u32 = 0xFFFFFFFFu;
const NO_MOVE: u32 = 4u;

// Status words.
const ST_WORK: u32 = 0u;
const ST_TAIL: u32 = 1u;
const ST_EXPANDED: u32 = 2u;
const ST_GENERATED: u32 = 3u;
const ST_MIN_F: u32 = 4u;
const ST_FOUND: u32 = 5u;
const ST_FINISHED: u32 = 6u;
const ST_BUSY: u32 = 7u;
const ST_DONATED: u32 = 8u;
const ST_FOUND_ITEM: u32 = 9u;
const ST_FOUND_DEPTH: u32 = 10u;
const ST_GIVEN: u32 = 11u;
const ST_FOUND_INV: u32 = 12u;
const ST_HIST: u32 = 176u;
const HIST_G: u32 = 192u;
const HIST_H: u32 = 128u;
// The workgroup's share of the histogram: g < WG_G, h < WG_H (the rest goes straight to
// `status`).
const WG_G: u32 = 64u;
const WG_H: u32 = 64u;

override INV: u32 = 4096u;
override BOARD_WORDS: u32 = 4u;
override ITEM_WORDS: u32 = 17u;
// Where the pruning automaton starts in `consts`: a word per state and move, the state that
// move leads to | the moves that state allows << 16, or NONE where the move is pruned.
override FSM_BASE: u32 = 0u;
// 1: gather the (g, h) histogram of generated nodes.
override HIST: u32 = 0u;
// Steps of the inner loop between the rare work (taking a root, the goal test).
override CHUNK: u32 = 32u;

struct Params {
    bound: u32,
    available: u32,
    budget: u32,
    hungry: u32,
    capacity: u32,
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> items: array<u32>;
@group(0) @binding(2) var<storage, read_write> state: array<u32>;
@group(0) @binding(3) var<storage, read_write> status: array<atomic<u32>>;
// Goal row | column << 4 by tile, then pattern by tile (0xFF: none): read once a dispatch;
// then, from FSM_BASE, the pruning automaton: read at every expansion.
@group(0) @binding(4) var<storage, read> consts: array<u32>;
// WG_G × WG_H bins when HIST is 1, else one (unused).
override WG_BINS: u32 = 1u;
var<workgroup> wg_hist: array<atomic<u32>, WG_BINS>;

// Private search state of this invocation. lavapipe keeps a private array in memory: a read
// at an index that differs across lanes is a gather, a write one branch per lane. What the
// steps write is therefore kept in vectors and scalars, read and written by selects.

// 32 bytes in two vectors, four to a word: byte i is byte i % 4 of word i / 4, words 0-3 in
// `lo`, 4-7 in `hi`. `wide` false: only bytes 0-15 are used (`hi` is never touched).
// (Functions, not `const`s: naga 30 loses track of a global vector const when it applies the
// pipeline's overrides.)
fn words_lo() -> vec4<u32> { return vec4<u32>(0u, 1u, 2u, 3u); }
fn words_hi() -> vec4<u32> { return vec4<u32>(4u, 5u, 6u, 7u); }
fn word_in(lo: vec4<u32>, hi: vec4<u32>, w: u32, wide: bool) -> u32 {
    var v = lo;
    if (wide) {
        v = select(lo, hi, w >= 4u);
    }
    return v[w & 3u];
}
fn byte_in(lo: vec4<u32>, hi: vec4<u32>, i: u32, wide: bool) -> u32 {
    return byte_of(word_in(lo, hi, i >> 2u, wide), i);
}
// `v` (the words `words`) with byte i set to x.
fn with_byte_in(v: vec4<u32>, words: vec4<u32>, i: u32, x: u32) -> vec4<u32> {
    let s = (i & 3u) * 8u;
    return select(v, (v & vec4<u32>(~(0xFFu << s))) | vec4<u32>(x << s), words == vec4<u32>(i >> 2u));
}

// The board: the tile on cell c is byte c (the same layout as `items` and `state`).
var<private> tw_lo: vec4<u32>;
var<private> tw_hi: vec4<u32>;
// Pattern databases: the cell of tile t, on the board and on its reflection (byte t).
var<private> pw_lo: vec4<u32>;
var<private> pw_hi: vec4<u32>;
var<private> rw_lo: vec4<u32>;
var<private> rw_hi: vec4<u32>;
// Pattern databases: each pattern's value, direct and reflected (byte p < 16).
var<private> pvw: vec4<u32>;
var<private> rvw: vec4<u32>;
// Linear conflict: tiles that must leave line l (nibble l of lw0, lines 0-7, or lw1).
var<private> lw0: u32;
var<private> lw1: u32;
// The frames of the search (see `state`), in private memory during a dispatch.
var<private> stack: array<u32, MAX_DEPTH>;
var<private> blank: u32;
var<private> md: u32;
var<private> lc: u32;
var<private> spv: u32;
var<private> bound_: u32;
var<private> srv: u32;

override WIDE: bool = CELLS > 16u;
// Byte i of the pair `lo`, `hi` set to x (`hi` only on boards of over 16 cells).
fn put_byte(lo: ptr<private, vec4<u32>>, hi: ptr<private, vec4<u32>>, i: u32, x: u32) {
    *lo = with_byte_in(*lo, words_lo(), i, x);
    if (WIDE) {
        *hi = with_byte_in(*hi, words_hi(), i, x);
    }
}
fn tile(c: u32) -> u32 { return byte_in(tw_lo, tw_hi, c, WIDE); }
fn set_tile(c: u32, v: u32) { put_byte(&tw_lo, &tw_hi, c, v); }
fn pos(t: u32) -> u32 { return byte_in(pw_lo, pw_hi, t, WIDE); }
fn set_pos(t: u32, v: u32) { put_byte(&pw_lo, &pw_hi, t, v); }
fn rpos(t: u32) -> u32 { return byte_in(rw_lo, rw_hi, t, WIDE); }
fn set_rpos(t: u32, v: u32) { put_byte(&rw_lo, &rw_hi, t, v); }
fn pv(p: u32) -> u32 { return byte_in(pvw, pvw, p, false); }
fn set_pv(p: u32, v: u32) { pvw = with_byte_in(pvw, words_lo(), p, v); }
fn rv(p: u32) -> u32 { return byte_in(rvw, rvw, p, false); }
fn set_rv(p: u32, v: u32) { rvw = with_byte_in(rvw, words_lo(), p, v); }
fn line(l: u32) -> u32 { return (select(lw0, lw1, l >= 8u) >> ((l & 7u) * 4u)) & 0xFu; }
fn set_line(l: u32, v: u32) {
    let s = (l & 7u) * 4u;
    let keep = ~(0xFu << s);
    lw0 = select(lw0, (lw0 & keep) | (v << s), l < 8u);
    lw1 = select(lw1, (lw1 & keep) | (v << s), l >= 8u);
}

// Goal row | column << 4 of tile t (byte t), copied from `consts` once a dispatch: the steps
// read it instead of `consts` (on lavapipe every storage read is a loop over the lanes).
var<private> gw_lo: vec4<u32>;
var<private> gw_hi: vec4<u32>;
fn goal_of(t: u32) -> u32 { return byte_in(gw_lo, gw_hi, t, WIDE); }

// Manhattan distance after tile `t` (not the blank) slides from cell `a` to its neighbour `b`
// (`vertical`: the same column), from `md` before: one less when it comes nearer its goal's
// row (vertical) or column, else one more.
fn md_after(md: u32, t: u32, a: u32, b: u32, vertical: bool) -> u32 {
    let g = goal_of(t);
    let goal = select(g >> 4u, g & 15u, vertical);
    let ca = select(a % COLS, a / COLS, vertical);
    let cb = select(b % COLS, b / COLS, vertical);
    let nearer = goal != ca && (goal > ca) == (cb > ca);
    return select(md + 1u, md - 1u, nearer);
}

// The moves on the board from cell `c` (bit m: 0 up, 1 down, 2 left, 3 right).
fn board_moves(c: u32) -> u32 {
    let r = c / COLS;
    let k = c % COLS;
    return select(0u, 1u, r > 0u) | select(0u, 2u, r + 1u < ROWS) | select(0u, 4u, k > 0u)
        | select(0u, 8u, k + 1u < COLS);
}

// Manhattan distance of tile `t` on cell `c` (the blank: 0).
fn tile_md(t: u32, c: u32) -> u32 {
    let g = goal_of(t);
    let r = c / COLS;
    let k = c % COLS;
    let gr = g & 15u;
    let gc = g >> 4u;
    let d = select(r - gr, gr - r, gr > r) + select(k - gc, gc - k, gc > k);
    return select(d, 0u, t == 0u);
}
fn tile_pattern_of(t: u32) -> u32 { return consts[CELLS + t]; }
// Pattern databases: the pattern of tile t (byte t; 0xFF: none), copied like the goal table.
// (An array, read by a gather: as a pair of vectors pdb78 ran 4 % slower.)
var<private> tpw: array<u32, 8>;
fn tile_pattern(t: u32) -> u32 { return byte_of(tpw[t >> 2u], t); }
// The cell the blank on `c` goes to with move `m` (0 up, 1 down, 2 left, 3 right), which
// `board_moves(c)` allows.
fn nbr(c: u32, m: u32) -> u32 {
    let d = select(1u, COLS, m < 2u);
    return select(c + d, c - d, (m & 1u) == 0u);
}

// Word `w` of invocation `i`'s state, interleaved: neighbouring invocations read neighbouring
// words (coalesced on GPUs; one vector load on lavapipe, 4× faster there than each
// invocation's words together).
fn st(w: u32, i: u32) -> u32 { return state[w * INV + i]; }
fn set_st(w: u32, i: u32, v: u32) { state[w * INV + i] = v; }
fn frame_word(d: u32) -> u32 { return 3u + BOARD_WORDS + d; }

// The pruning automaton's word for move `m` from state `s` (see FSM_BASE).
fn fsm_entry(s: u32, m: u32) -> u32 { return consts[FSM_BASE + s * 4u + m]; }
// The moves state `s` allows (bit m), read from its four words.
fn fsm_allowed(s: u32) -> u32 {
    var out = 0u;
    for (var m = 0u; m < 4u; m++) {
        out |= select(1u << m, 0u, fsm_entry(s, m) == NONE);
    }
    return out;
}

// Pattern databases: the metadata, packed for this shader into a uniform buffer (on lavapipe a
// uniform read is one gather, a storage read a loop over the lanes): see `ida_meta_words` in
// src/eval/gpu_layout.rs, whose constants these are.
const PM_PHI: u32 = 4u;
const PM_TMAP: u32 = 12u;
const PM_PATTERNS: u32 = 20u;
const PM_STRIDE: u32 = 8u;
const PM_TILES: u32 = 148u;
// Tiles of the largest pattern (at most MAX_PATTERN): the index loop runs that many times, as
// every pass of it runs on lavapipe whatever the lane's pattern.
override PATTERN_K: u32 = 12u;
@group(0) @binding(12) var<uniform> pm: array<vec4<u32>, 45>;
// The pattern tables as one texture of u32 texels, TEXTURE_WIDTH a row, where they fit (0:
// they are in the storage bindings of common.wgsl instead). On lavapipe a texel fetch is one
// gather; a storage read is a loop over the lanes for each binding it may touch.
@group(0) @binding(13) var table_texture: texture_2d<u32>;
override TEXTURE_WIDTH: u32 = 0u;
// Byte `b` of the tables, wherever they are.
fn table_byte(b: u32) -> u32 {
    if (TEXTURE_WIDTH == 0u) {
        return pdb_byte(b);
    }
    let w = b >> 2u;
    // (max: the override is 0 on the other path, where this is never reached, and a constant
    // division by zero would not compile.)
    let width = max(TEXTURE_WIDTH, 1u);
    return byte_of(textureLoad(table_texture, vec2<u32>(w % width, w / width), 0).x, b);
}
fn pmw(w: u32) -> u32 { return pm[w >> 2u][w & 3u]; }
fn pm_patterns() -> u32 { return pmw(0u); }
fn pm_reflect() -> bool { return pmw(1u) == 1u; }
// The reflection's tile map φ and cell map T.
fn phi(t: u32) -> u32 { return byte_of(pmw(PM_PHI + (t >> 2u)), t); }
fn tmap(c: u32) -> u32 { return byte_of(pmw(PM_TMAP + (c >> 2u)), c); }

// Pattern p's index with its tiles on the cells `pos` (direct) or `rpos` (reflected) gives,
// and those cells (a bit set). The index Σ (cᵢ − #{j < i: cⱼ < cᵢ}) · P(n−1−i, k−1−i) by
// Horner's rule (no weights read).
fn pattern_index(p: u32, reflected: bool) -> vec2<u32> {
    let base = PM_PATTERNS + p * PM_STRIDE;
    let k = pmw(base + 1u);
    var seen = 0u;
    var idx = 0u;
    for (var i = 0u; i < PATTERN_K; i++) {
        if (i < k) {
            let t = byte_of(pmw(base + 4u + (i >> 2u)), i);
            let c = select(pos(t), rpos(t), reflected);
            let below = countOneBits(seen & ((1u << c) - 1u));
            idx = idx * (CELLS - i) + c - below;
            seen |= 1u << c;
        }
    }
    return vec2<u32>(idx, seen);
}
// Pattern p's table entry `idx`, its tiles on the cells `seen`, the blank on `blank_cell`.
fn table_value(p: u32, idx: u32, seen: u32, blank_cell: u32) -> u32 {
    let base = PM_PATTERNS + p * PM_STRIDE;
    return entry_value(pmw(base + 2u), table_byte(pmw(base) + idx), seen, blank_cell);
}
// Pattern p's value with its tiles on the cells `pos` (direct) or `rpos` (reflected) gives.
fn pattern_value(p: u32, reflected: bool) -> u32 {
    let at = pattern_index(p, reflected);
    return table_value(p, at.x, at.y, select(pos(0u), rpos(phi(0u)), reflected));
}

// Incremental pattern indexes (INCR: at most four patterns, each tile's weight and pattern in
// its tile word): each move changes one pattern's index on each side by a sum of weights
// (src/heuristic/pdb/additive.rs: `index_delta`), so a step reads the tiles on the cells the
// move passes instead of ranking both patterns again. Word p of `piw` (direct) and `riw`
// (reflected): pattern p's index; of `psw` and `rsw`: its cells (a bit set). Vectors, read and
// written by selects, not private arrays (memory gathers and scatters on lavapipe). The
// partition covers every tile (a tile word of no pattern would be taken for pattern 3), and
// the reflection maps the blank to itself (φ(0) = 0): src/heuristic/pdb/additive.rs makes
// both so.
override INCR: bool = false;
var<private> piw: vec4<u32>;
var<private> riw: vec4<u32>;
var<private> psw: vec4<u32>;
var<private> rsw: vec4<u32>;
// The reflected board: the tile on reflected cell c (byte c), kept when INCR.
var<private> rtw_lo: vec4<u32>;
var<private> rtw_hi: vec4<u32>;
fn rtile(c: u32) -> u32 { return byte_in(rtw_lo, rtw_hi, c, WIDE); }
fn set_rtile(c: u32, v: u32) { put_byte(&rtw_lo, &rtw_hi, c, v); }
fn with_word(v: vec4<u32>, p: u32, x: u32) -> vec4<u32> {
    return select(v, vec4<u32>(x), words_lo() == vec4<u32>(p));
}
// Tile t's word: its index weight in its pattern | the pattern << 27 (31: none, weight 0).
fn tile_word(t: u32) -> u32 { return pmw(PM_TILES + t); }
const WEIGHT_MASK: u32 = 0x7FFFFFFu;

// The change of the index of tile `t`'s pattern (`tw`: its tile word) when it slides from cell
// `a` to cell `b` in its column on the direct (`reflected` false) or the reflected board.
// Its own term (c − below)·w changes by (COLS − lower)·w, `lower` the pattern's tiles before
// it in index order (heavier) on the cells between; each later (lighter) tile u there loses
// `t` from its count of tiles below it, its term gaining w_u. Negated when `b` < `a`. (Indexes
// wrap as u32: the sum is right modulo 2³².)
fn vertical_delta(tw: u32, a: u32, b: u32, reflected: bool) -> u32 {
    let p = tw >> 27u;
    let w = tw & WEIGHT_MASK;
    let first = min(a, b);
    var lower = 0u;
    var lighter = 0u;
    for (var j = 1u; j < COLS; j++) {
        let x = first + j;
        let uw = tile_word(select(tile(x), rtile(x), reflected));
        let wu = uw & WEIGHT_MASK;
        let same = (uw >> 27u) == p;
        lower += select(0u, 1u, same && wu > w);
        lighter += select(0u, wu, same && wu < w);
    }
    let d = (COLS - lower) * w + lighter;
    return select(0u - d, d, b > a);
}

// Each pattern's table offset (word p) and whether its entries hold flags (bit p), copied
// from `pm` once a dispatch (a select in a step instead of two gathers).
var<private> poff: vec4<u32>;
var<private> pflags: u32;
// The transpose of cell c (the reflection's cell map T: see `reflection` in
// src/heuristic/pdb/additive.rs; the host checks that `pm` holds it).
fn cell_transpose(c: u32) -> u32 { return (c % COLS) * COLS + c / COLS; }

// What tile `t` sliding from cell `to` to the blank's cell `src` (`vertical`: in its column)
// does to the pattern indexes, without making the move: the new index and cells of its
// pattern (x, y) and of its reflection's (z, w; with the reflection, the transpose: one side's
// move is vertical, the other's horizontal, a change of ± the tile's weight, so only the
// vertical one's cells are read); `tws` gets the tile words (x: `t`'s, y: φ(t)'s). The
// reflected board must not have moved yet.
fn incr_move(t: u32, to: u32, src: u32, vertical: bool, tws: ptr<function, vec2<u32>>)
    -> vec4<u32> {
    let tw = tile_word(t);
    let ra = cell_transpose(to);
    let rb = cell_transpose(src);
    // φ(t), from the reflected board.
    let rtw = tile_word(rtile(ra));
    let on_r = !vertical && pm_reflect();
    let vd = vertical_delta(select(tw, rtw, on_r), select(to, ra, on_r), select(src, rb, on_r),
        on_r);
    let w = tw & WEIGHT_MASK;
    let rw = rtw & WEIGHT_MASK;
    let d = select(select(0u - w, w, src > to), vd, vertical);
    let rd = select(select(0u - rw, rw, rb > ra), vd, on_r);
    let p = (tw >> 27u) & 3u;
    let rp = (rtw >> 27u) & 3u;
    *tws = vec2<u32>(tw, rtw);
    return vec4<u32>(piw[p] + d, psw[p] ^ ((1u << to) | (1u << src)), riw[rp] + rd,
        rsw[rp] ^ ((1u << ra) | (1u << rb)));
}

// Pattern p's table entry `idx` (INCR: from the copied offsets).
fn incr_entry(p: u32, idx: u32) -> u32 { return table_byte(poff[p & 3u] + idx); }
// Pattern p's value for entry `e`, its tiles on `seen`, the blank on `blank_cell`.
fn incr_value(p: u32, e: u32, seen: u32, blank_cell: u32) -> u32 {
    return entry_value((pflags >> (p & 3u)) & 1u, e, seen, blank_cell);
}

// Tiles that must leave line `l` (rows 0..ROWS, then columns): k − LIS (Hansson et al. 1992),
// k the line's tiles that belong to it. The longest increasing subsequence of their goal places
// by patience sorting on a bit set (no table, no branch): `tops` holds the piles' top places;
// each place replaces the least top above it, or starts a pile; LIS = the number of piles.
fn line_conflicts(l: u32) -> u32 {
    let is_row = l < ROWS;
    let n = select(ROWS, COLS, is_row);
    let line = select(l - ROWS, l, is_row);
    var tops = 0u;
    var k = 0u;
    for (var j = 0u; j < max(ROWS, COLS); j++) {
        if (j < n) {
            let cell = select(j * COLS + line, line * COLS + j, is_row);
            let t = tile(cell);
            let g = goal_of(t);
            let goal_line = select(g >> 4u, g & 15u, is_row);
            let x = select(g & 15u, g >> 4u, is_row);
            if (t != 0u && goal_line == line) {
                let above = tops & ~((2u << x) - 1u);
                tops = (tops & ~(above & (~above + 1u))) | (1u << x);
                k++;
            }
        }
    }
    return k - countOneBits(tops);
}

// Sets every part of h from `tiles`; returns h.
fn full_h() -> u32 {
    md = 0u;
    for (var c = 0u; c < CELLS; c++) {
        let t = tile(c);
        if (KIND == KIND_PDB) {
            set_pos(t, c);
        }
        md += tile_md(t, c);
    }
    if (KIND == KIND_LINEAR_CONFLICT) {
        lc = 0u;
        for (var l = 0u; l < ROWS + COLS; l++) {
            let v = line_conflicts(l);
            set_line(l, v);
            lc += v;
        }
        return md + 2u * lc;
    }
    if (KIND == KIND_PDB) {
        spv = 0u;
        srv = 0u;
        for (var p = 0u; p < MAX_PATTERNS; p++) {
            if (p < pm_patterns()) {
                let at = pattern_index(p, false);
                let v = table_value(p, at.x, at.y, pos(0u));
                set_pv(p, v);
                spv += v;
                if (INCR) {
                    piw = with_word(piw, p, at.x);
                    psw = with_word(psw, p, at.y);
                }
            }
        }
        if (pm_reflect()) {
            for (var t = 0u; t < CELLS; t++) {
                set_rpos(phi(t), tmap(pos(t)));
                if (INCR) {
                    set_rtile(tmap(pos(t)), phi(t));
                }
            }
            for (var p = 0u; p < MAX_PATTERNS; p++) {
                if (p < pm_patterns()) {
                    let at = pattern_index(p, true);
                    let v = table_value(p, at.x, at.y, rpos(phi(0u)));
                    set_rv(p, v);
                    srv += v;
                    if (INCR) {
                        riw = with_word(riw, p, at.x);
                        rsw = with_word(rsw, p, at.y);
                    }
                }
            }
        }
        return max(spv, srv);
    }
    return md;
}

fn current_h() -> u32 {
    if (KIND == KIND_LINEAR_CONFLICT) {
        return md + 2u * lc;
    }
    if (KIND == KIND_PDB) {
        return max(spv, srv);
    }
    return md;
}

// Tile `t` has slid to a neighbouring cell (`vertical`: in its column). Only its goal line can
// change: a vertical move keeps every column's order and changes the two rows it joins, of
// which only the one `t` belongs to counts `t` (likewise for columns), so that line is
// recomputed (unchanged if `t` moved between two other lines).
fn update_lines(t: u32, vertical: bool) {
    let g = goal_of(t);
    let l = select(ROWS + (g >> 4u), g & 15u, vertical);
    let v = line_conflicts(l);
    lc = lc - line(l) + v;
    set_line(l, v);
}

// The blank goes to its neighbour `to` (`vertical`: the same column), whose tile slides into
// the blank's cell; every part of h follows. The same code goes down to a child and back up
// to the parent (the values are recomputed, not restored: on lavapipe every path of a step
// runs anyway).
fn apply_move(to: u32, vertical: bool) {
    let src = blank;
    let t = tile(to);
    md = md_after(md, t, to, src, vertical);
    set_tile(src, t);
    set_tile(to, 0u);
    if (KIND == KIND_PDB && !INCR) {
        set_pos(t, src);
        set_pos(0u, to);
    }
    blank = to;
    if (KIND == KIND_LINEAR_CONFLICT) {
        update_lines(t, vertical);
    }
    if (KIND == KIND_PDB && INCR) {
        var tws: vec2<u32>;
        let x = incr_move(t, to, src, vertical, &tws);
        let p = (tws.x >> 27u) & 3u;
        let rp = (tws.y >> 27u) & 3u;
        piw = with_word(piw, p, x.x);
        psw = with_word(psw, p, x.y);
        // Both sides' entries are read before either is used: the reads miss the cache (the
        // tables are hundreds of MB), and so they wait together.
        let e = incr_entry(p, x.x);
        var re = 0u;
        if (pm_reflect()) {
            riw = with_word(riw, rp, x.z);
            rsw = with_word(rsw, rp, x.w);
            set_rtile(cell_transpose(src), rtile(cell_transpose(to)));
            set_rtile(cell_transpose(to), 0u);
            re = incr_entry(rp, x.z);
        }
        let v = incr_value(p, e, x.y, to);
        spv = spv + v - pv(p);
        set_pv(p, v);
        if (pm_reflect()) {
            let v = incr_value(rp, re, x.w, cell_transpose(to));
            srv = srv + v - rv(rp);
            set_rv(rp, v);
        }
    }
    if (KIND == KIND_PDB && !INCR) {
        let p = tile_pattern(t);
        let v = pattern_value(p, false);
        spv = spv + v - pv(p);
        set_pv(p, v);
        if (pm_reflect()) {
            let rt = phi(t);
            set_rpos(rt, tmap(src));
            set_rpos(phi(0u), tmap(to));
            let rp = tile_pattern(rt);
            let v = pattern_value(rp, true);
            srv = srv + v - rv(rp);
            set_rv(rp, v);
        }
    }
}

// The moves to try below a node expanded at cell `at` with heuristic parts as they are, whose
// state in the pruning automaton allows the moves `allowed`, its children at depth `g`: every
// move on the board that the automaton allows, each generated (counted here). With Manhattan, a child whose f exceeds the bound
// is pruned here, its board untouched (it offers its f to the next threshold); with linear
// conflict (never below Manhattan), one whose Manhattan f cannot lower the next threshold
// either (the CPU's early stop). The rest are gone into, and those whose f exceeds the bound
// are left at once.
var<private> generated: u32;
var<private> min_f: u32;
fn children(at: u32, allowed: u32, g: u32) -> u32 {
    let moves = board_moves(at) & allowed;
    generated += countOneBits(moves);
    if (KIND == KIND_MANHATTAN || (KIND == KIND_LINEAR_CONFLICT && HIST == 0u)) {
        var keep = 0u;
        for (var m = 0u; m < 4u; m++) {
            if ((moves & (1u << m)) != 0u) {
                let to = nbr(at, m);
                let f = g + md_after(md, tile(to), to, at, m < 2u);
                // (With the histogram only Manhattan filters here: its children are counted
                // here, kept or not, and not again when gone into.)
                record(g, f - g);
                if (f > bound_ && (KIND == KIND_MANHATTAN || f >= min_f)) {
                    min_f = min(min_f, f);
                } else {
                    keep |= 1u << m;
                }
            }
        }
        return keep;
    }
    return moves;
}

fn is_goal() -> bool {
    var same = true;
    for (var c = 0u; c < CELLS; c++) {
        same = same & (goal_of(tile(c)) == ((c / COLS) | ((c % COLS) << 4u)));
    }
    return same;
}

fn record(g: u32, h: u32) {
    if (HIST == 0u) {
        return;
    }
    if (g < WG_G && h < WG_H) {
        atomicAdd(&wg_hist[g * WG_H + h], 1u);
    } else if (g < HIST_G && h < HIST_H) {
        atomicAdd(&status[ST_HIST + g * HIST_H + h], 1u);
    }
}

fn load_board(base: u32, from_items: bool, i: u32) {
    for (var w = 0u; w < BOARD_WORDS; w++) {
        var word = 0u;
        if (from_items) {
            word = items[base + w];
        } else {
            word = st(3u + w, i);
        }
        tw_lo = select(tw_lo, vec4<u32>(word), words_lo() == vec4<u32>(w));
        tw_hi = select(tw_hi, vec4<u32>(word), words_hi() == vec4<u32>(w));
        for (var b = 0u; b < 4u; b++) {
            let c = w * 4u + b;
            if (c < CELLS && ((word >> (b * 8u)) & 0xFFu) == 0u) {
                blank = c;
            }
        }
    }
}

// Without the histogram: no barrier (lavapipe runs a shader with barriers one invocation at a
// time instead of eight to a vector).
@compute @workgroup_size(WORKGROUP)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    if (gid.x < INV) {
        search(gid.x);
    }
}

// With the histogram (HIST = 1): each workgroup counts in its memory, then adds to `status`.
@compute @workgroup_size(WORKGROUP)
fn main_hist(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    for (var b = lid; b < WG_G * WG_H; b += WORKGROUP) {
        atomicStore(&wg_hist[b], 0u);
    }
    workgroupBarrier();
    if (gid.x < INV) {
        search(gid.x);
    }
    workgroupBarrier();
    for (var b = lid; b < WG_G * WG_H; b += WORKGROUP) {
        let v = atomicLoad(&wg_hist[b]);
        if (v != 0u) {
            atomicAdd(&status[ST_HIST + (b / WG_H) * HIST_H + b % WG_H], v);
        }
    }
}

fn search(i: u32) {
    bound_ = params.bound;
    for (var t = 0u; t < CELLS; t++) {
        put_byte(&gw_lo, &gw_hi, t, consts[t]);
        if (KIND == KIND_PDB && !INCR) {
            tpw[t >> 2u] = with_byte(tpw[t >> 2u], t, tile_pattern_of(t) & 0xFFu);
        }
    }
    if (INCR) {
        var flags = 0u;
        for (var p = 0u; p < 4u; p++) {
            let base = PM_PATTERNS + p * PM_STRIDE;
            poff = with_word(poff, p, pmw(base));
            flags |= (pmw(base + 2u) & 1u) << p;
        }
        pflags = flags;
    }
    let s0 = st(0u, i);
    var running = (s0 & 1u) == 1u;
    var depth = (s0 >> 1u) & 0xFFu;
    var g0 = (s0 >> 9u) & 0xFFu;
    var item = st(1u, i);
    // The top frame lives in `cur` while the invocation runs; the frames below it in `stack`.
    var cur = 0u;
    if (running) {
        load_board(0u, false, i);
        full_h();
        for (var d = 0u; d < MAX_DEPTH; d++) {
            if (d <= depth) {
                stack[d] = st(frame_word(d), i);
            }
        }
        cur = stack[depth];
    }
    var budget = params.budget;
    var expanded = 0u;
    generated = 0u;
    var finished = 0u;
    min_f = NONE;
    var found = false;
    loop {
        if (!running) {
            if (atomicLoad(&status[ST_FOUND]) != 0u) {
                break;
            }
            let idx = atomicAdd(&status[ST_WORK], 1u);
            if (idx >= params.available) {
                break;
            }
            item = idx;
            let base = idx * ITEM_WORDS;
            load_board(base, true, i);
            let info = items[base + BOARD_WORDS];
            g0 = info & 0xFFu;
            let prev = (info >> 8u) & 7u;
            var left = (info >> 11u) & 0xFu;
            let done = (info >> 15u) & 1u;
            let fsm = items[base + BOARD_WORDS + 2u];
            let h = full_h();
            if (done == 0u) {
                if (h == 0u && is_goal()) {
                    found = true;
                    depth = 0u;
                    running = true;
                    stack[0] = prev | (fsm << 16u);
                    report_found(i, item, 0u);
                    break;
                }
                expanded++;
                budget = max(budget, 1u) - 1u;
                left &= children(blank, fsm_allowed(fsm), g0 + 1u);
            }
            depth = 0u;
            cur = prev | (left << 3u) | (fsm << 16u);
            running = true;
        }
        if (budget == 0u || atomicLoad(&status[ST_FOUND]) != 0u) {
            break;
        }
        // The steps: each moves the blank once, down to the next child or back up to the
        // parent. lavapipe runs every path of a loop body under masks, so nothing rare is done
        // in here: an exhausted root, a node with h = 0 (the goal test) and the end of the
        // budget stop this invocation's steps for the rest of the chunk, and the loop around
        // this one deals with them.
        var check = false;
        var go = true;
        for (var s = 0u; s < CHUNK; s++) {
            let fr = cur;
            let left = (fr >> 3u) & 0xFu;
            let down = left != 0u;
            // Down: the first move left; up: the blank returns the way it came.
            let m = select((fr & 7u) ^ 1u, firstTrailingBit(left), down);
            // The frame with that move tried, written every step whatever follows: the slot at
            // `depth` is the top's, unused until a push, and lavapipe writes a private array
            // under a mask that differs across lanes with a branch per lane.
            stack[depth] = fr & ~(1u << (m + 3u));
            if (go && !down && depth == 0u) {
                running = false;
                finished++;
                go = false;
            }
            if (go) {
                apply_move(nbr(blank, m), m < 2u);
                if (down) {
                    depth++;
                    let g = g0 + depth;
                    let h = current_h();
                    if (KIND != KIND_MANHATTAN) {
                        record(g, h);
                    }
                    cur = m;
                    if (g + h > bound_) {
                        // Left at the next step (no moves to try).
                        min_f = min(min_f, g + h);
                    } else {
                        let e = fsm_entry(fr >> 16u, m);
                        cur = m | ((e & 0xFFFFu) << 16u);
                        if (h == 0u) {
                            check = true;
                            go = false;
                        } else {
                            expanded++;
                            budget--;
                            cur |= children(blank, e >> 16u, g + 1u) << 3u;
                            go = budget != 0u;
                        }
                    }
                } else {
                    depth--;
                    cur = stack[depth];
                }
            }
        }
        if (check) {
            if (is_goal()) {
                found = true;
                stack[depth] = cur;
                report_found(i, item, depth);
                break;
            }
            expanded++;
            budget = max(budget, 1u) - 1u;
            cur = cur | (children(blank, fsm_allowed(cur >> 16u), g0 + depth + 1u) << 3u);
        }
    }
    if (running) {
        stack[depth] = cur;
    }
    if (!found && running && params.hungry > 0u) {
        donate(i, depth, g0, item);
    }
    // Save the state (a finder's frames are written by `report_found`).
    if (running && !found) {
        for (var d = 0u; d < MAX_DEPTH; d++) {
            if (d <= depth) {
                set_st(frame_word(d), i, stack[d]);
            }
        }
    }
    set_st(0u, i, select(0u, 1u, running) | (depth << 1u) | (g0 << 9u));
    set_st(1u, i, item);
    set_st(2u, i, blank);
    for (var w = 0u; w < BOARD_WORDS; w++) {
        set_st(3u + w, i, word_in(tw_lo, tw_hi, w, WIDE));
    }
    if (expanded != 0u) {
        atomicAdd(&status[ST_EXPANDED], expanded);
    }
    if (generated != 0u) {
        atomicAdd(&status[ST_GENERATED], generated);
    }
    if (finished != 0u) {
        atomicAdd(&status[ST_FINISHED], finished);
    }
    if (running && !found) {
        atomicAdd(&status[ST_BUSY], 1u);
    }
    if (min_f != NONE) {
        atomicMin(&status[ST_MIN_F], min_f);
    }
}

// The goal is found below work item `item` at `depth` (frames 1..=depth in `stack`): the first
// invocation to find it writes where, and its frames. (Done at once, where the goal is found:
// on lavapipe a value carried out of loops that some lanes leave early is not to be trusted.)
fn report_found(i: u32, item: u32, depth: u32) {
    if (atomicAdd(&status[ST_FOUND], 1u) == 0u) {
        atomicStore(&status[ST_FOUND_ITEM], item);
        atomicStore(&status[ST_FOUND_DEPTH], depth);
        atomicStore(&status[ST_FOUND_INV], i);
        for (var d = 0u; d < MAX_DEPTH; d++) {
            if (d <= depth) {
                set_st(frame_word(d), i, stack[d]);
            }
        }
    }
}

// Hands the remaining moves of the shallowest node on this invocation's stack that has any
// to a new work item (appended after `params.available`; taken from the next round on), so
// that idle invocations get a large subtree. The node itself was already expanded here.
fn donate(i: u32, depth: u32, g0: u32, item: u32) {
    // (A cheap early out; the count of donations is taken below, once there is one to make.)
    if (atomicLoad(&status[ST_DONATED]) >= params.hungry) {
        return;
    }
    // The shallowest node with moves left.
    // (Loops here run a fixed count with a guard inside: loops whose exit depends on a value
    // computed in divergent code ran short on lavapipe and GL.)
    var at = 0u;
    var left = 0u;
    var searching = true;
    for (var d = 0u; d < MAX_DEPTH; d++) {
        if (searching && d < depth) {
            left = (stack[d] >> 3u) & 0xFu;
            if (left != 0u) {
                at = d;
                searching = false;
            }
        }
    }
    if (left == 0u || atomicAdd(&status[ST_DONATED], 1u) >= params.hungry) {
        return;
    }
    let slot = atomicAdd(&status[ST_TAIL], 1u);
    if (slot >= params.capacity) {
        return;
    }
    atomicAdd(&status[ST_GIVEN], 1u);
    // The board at depth `at`: undo the moves above it, write it, and put the board back.
    let board_lo = tw_lo;
    let board_hi = tw_hi;
    var bl = blank;
    for (var k = 0u; k < MAX_DEPTH; k++) {
        if (k < depth - at) {
            let back = nbr(bl, (stack[depth - k] & 7u) ^ 1u);
            set_tile(bl, tile(back));
            set_tile(back, 0u);
            bl = back;
        }
    }
    let base = slot * ITEM_WORDS;
    for (var w = 0u; w < BOARD_WORDS; w++) {
        items[base + w] = word_in(tw_lo, tw_hi, w, WIDE);
    }
    tw_lo = board_lo;
    tw_hi = board_hi;
    let src = item * ITEM_WORDS;
    let info = items[src + BOARD_WORDS];
    let plen = info >> 16u;
    let fr = stack[at];
    items[base + BOARD_WORDS] = (g0 + at) | ((fr & 7u) << 8u) | (left << 11u) | (1u << 15u)
        | ((plen + at) << 16u);
    items[base + BOARD_WORDS + 1u] = items[src + BOARD_WORDS + 1u];
    items[base + BOARD_WORDS + 2u] = fr >> 16u;
    // The path: the source item's, then the moves down to depth `at`.
    for (var w = 0u; w < PATH_WORDS; w++) {
        items[base + path_word(w)] = items[src + path_word(w)];
    }
    for (var k = 0u; k < MAX_DEPTH; k++) {
        if (k >= at) {
            continue;
        }
        let d = k + 1u;
        let p = plen + k;
        let mv = stack[d] & 3u;
        let w = base + path_word(p / 16u);
        items[w] = (items[w] & ~(3u << ((p % 16u) * 2u))) | (mv << ((p % 16u) * 2u));
    }
    // This invocation no longer searches those moves.
    stack[at] = fr & 0xFFFF0007u;
}
