// GPU IDA*, one invocation's board and heuristic: its private state (the board, the tiles'
// cells on the board and on its reflection, each pattern's value, the linear-conflict lines,
// the frames of its search), the pattern tables and their metadata, the whole-board estimate
// (`full_h`) and the update of one move (`apply_move`): Manhattan and linear conflict
// incrementally, pattern databases by the moved tile's pattern. The search that calls these
// is shaders/idastar.wgsl, whose layouts, bindings and overrides this file uses; the host
// puts shaders/common.wgsl, this file and shaders/idastar.wgsl together (WGSL declarations at
// module scope may come in any order).


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
@group(0) @binding(12) var<uniform> pm: array<vec4<u32>, 61>;
// The pattern tables as one texture of u32 texels, TEXTURE_WIDTH a row, where they fit (0:
// they are in the storage bindings of common.wgsl instead). On lavapipe a texel fetch is one
// gather; a storage read is a loop over the lanes for each binding it may touch.
@group(0) @binding(13) var table_texture: texture_2d<u32>;
override TEXTURE_WIDTH: u32 = 0u;
// Entry `idx` of the table that starts at word `first` of the tables, wherever they are
// (every table starts on a word: src/eval/gpu_context.rs pads them).
fn table_entry(first: u32, idx: u32) -> u32 {
    let w = first + (idx >> 2u);
    if (TEXTURE_WIDTH == 0u) {
        return byte_of(pdb_word(w), idx);
    }
    // (max: the override is 0 on the other path, where this is never reached, and a constant
    // division by zero would not compile.)
    let width = max(TEXTURE_WIDTH, 1u);
    return byte_of(textureLoad(table_texture, vec2<u32>(w % width, w / width), 0).x, idx);
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
    return entry_value(pmw(base + 2u), table_entry(pmw(base), idx), seen, blank_cell);
}
// Pattern p's value with its tiles on the cells `pos` (direct) or `rpos` (reflected) gives.
fn pattern_value(p: u32, reflected: bool) -> u32 {
    let at = pattern_index(p, reflected);
    return table_value(p, at.x, at.y, select(pos(0u), rpos(phi(0u)), reflected));
}

// A maximum over partitions (KIND_PDBMAX; src/heuristic/pdb/pdbmax.rs): every distinct table
// is looked up on the board (`pv`, byte p) and on its reflection (`rv`); a partition's sum on
// the board adds the values of the tables it reads directly on the board and of those it reads
// through the reflection on the reflected board (the other way round for its sum on the
// reflection); h is the largest sum, `hmax`. Words from PM_PARTS: per partition, the byte masks
// of the tables it reads directly and through the reflection (two vectors); each tile's word
// is the bit set of the tables that hold it. See `ida_max_meta_words` in
// src/eval/gpu_layout.rs.
const PM_PARTS: u32 = 180u;
const MAX_PARTITIONS: u32 = 8u;
var<private> hmax: u32;
// The sum of the 16 bytes of `v` (each at most 255).
fn byte_sum(v: vec4<u32>) -> u32 {
    let pairs = (v & vec4<u32>(0x00FF00FFu)) + ((v >> vec4<u32>(8u)) & vec4<u32>(0x00FF00FFu));
    let s = pairs.x + pairs.y + pairs.z + pairs.w;
    return (s & 0xFFFFu) + (s >> 16u);
}
// The largest partition sum, on the board and (with the reflection) on its reflection.
fn max_sum() -> u32 {
    var best = 0u;
    for (var q = 0u; q < MAX_PARTITIONS; q++) {
        if (q < pmw(2u)) {
            let direct = pm[(PM_PARTS >> 2u) + 2u * q];
            let flipped = pm[(PM_PARTS >> 2u) + 2u * q + 1u];
            let on_board = byte_sum(pvw & direct) + byte_sum(rvw & flipped);
            let on_reflection = byte_sum(rvw & direct) + byte_sum(pvw & flipped);
            best = max(best, max(on_board, select(0u, on_reflection, pm_reflect())));
        }
    }
    return best;
}
// Tile `t` has slid from cell `to` to the blank's cell `src`: the tables that hold it are
// looked up again on the board, those that hold φ(t) on the reflection; then `hmax`.
fn max_move(t: u32, to: u32, src: u32) {
    set_pos(t, src);
    set_pos(0u, to);
    let mask = tile_word(t);
    var rmask = 0u;
    if (pm_reflect()) {
        let rt = phi(t);
        set_rpos(rt, tmap(src));
        set_rpos(phi(0u), tmap(to));
        rmask = tile_word(rt);
    }
    for (var p = 0u; p < MAX_PATTERNS; p++) {
        if (p < pm_patterns()) {
            if (((mask >> p) & 1u) == 1u) {
                set_pv(p, pattern_value(p, false));
            }
            if (((rmask >> p) & 1u) == 1u) {
                set_rv(p, pattern_value(p, true));
            }
        }
    }
    hmax = max_sum();
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
fn incr_entry(p: u32, idx: u32) -> u32 { return table_entry(poff[p & 3u], idx); }
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
    let tables = KIND == KIND_PDB || KIND == KIND_PDBMAX;
    for (var c = 0u; c < CELLS; c++) {
        let t = tile(c);
        if (tables) {
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
    if (tables) {
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
        if (KIND == KIND_PDBMAX) {
            hmax = max_sum();
            return hmax;
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
    if (KIND == KIND_PDBMAX) {
        return hmax;
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
    if (KIND == KIND_PDBMAX) {
        max_move(t, to, src);
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
