// GPU IDA*'s work items (see the layout of `items` in shaders/idastar.wgsl, which comes before
// this file): a ring of `params.capacity` slots; taking an item handed out within the round,
// and handing one out.

// Work item `idx`'s first word: items are a ring of `params.capacity` slots.
fn item_base(idx: u32) -> u32 { return (idx % params.capacity) * ITEM_WORDS; }
// The tag in the top bit of every word of item `idx`: 1 in the ring's even turns, 0 in its odd
// ones (the host counts items so that a turn keeps its parity). Item words are written once a
// turn, atomically, so a taker within the round that wrote them sees each word either whole
// with its turn's tag or still with the last turn's (the host clears the ring's used slots to
// 0 when it empties the ring): `visible` says whether all are written. No item word uses its
// top bit: tiles < 32, g and path lengths < 256, root words < 2^31 (the root's index below
// 2^24, its lane above), automaton states < 65,536, 15 moves a path word.
fn item_tag(idx: u32) -> u32 { return (1u - (idx / params.capacity) % 2u) << 31u; }
fn iget(k: u32) -> u32 { return atomicLoad(&items[k]) & 0x7FFFFFFFu; }
fn iput(k: u32, v: u32, tag: u32) { atomicStore(&items[k], v | tag); }
// Whether every word of item `idx` (at `base`) is written (those written before the round
// always are; one handed out within it may still be being written).
fn visible(idx: u32, base: u32) -> bool {
    let tag = item_tag(idx);
    var all = true;
    for (var w = 0u; w < ITEM_WORDS; w++) {
        all = all & ((atomicLoad(&items[base + w]) & 0x80000000u) == tag);
    }
    return all;
}

// An item handed out within the round, claimed below ST_PUBLISHED by compare and swap (so
// that ST_WORK2 never runs past the items reserved), or NONE.
fn take_within() -> u32 {
    var got = NONE;
    var w = atomicLoad(&status[ST_WORK2]);
    // (A fixed count with a guard: see `donate`. Eight lanes of a lavapipe vector contend.)
    for (var k = 0u; k < 8u; k++) {
        if (got == NONE && w < atomicLoad(&status[ST_PUBLISHED])) {
            let r = atomicCompareExchangeWeak(&status[ST_WORK2], w, w + 1u);
            if (r.exchanged) {
                got = w;
            } else {
                w = r.old_value;
            }
        }
    }
    return got;
}

// Hands the remaining moves of the shallowest node on this invocation's stack that has any
// to a new work item, so that an idle invocation gets a large subtree: `live`, within the
// round for an invocation waiting now; else at the round's end (while fewer than
// `params.hungry` were handed out), for the next round. The node itself was already expanded
// here. The items are a ring: a slot is reused once the item in it was taken before this
// round (`params.room` slots). Returns whether an item was handed out.
fn donate(i: u32, depth: u32, g0: u32, live: bool) -> bool {
    // (Cheap early outs; the counts are taken below, once there is a donation to make.)
    if ((!live && atomicLoad(&status[ST_DONATED]) >= params.hungry)
        || atomicLoad(&status[ST_RESERVED]) >= params.room) {
        return false;
    }
    // The shallowest node with moves left.
    // (Loops here run a fixed count with a guard inside: loops whose exit depends on a value
    // computed in divergent code ran short on lavapipe and GL.)
    var at = 0u;
    var left = 0u;
    var searching = true;
    for (var d = 0u; d < MAX_DEPTH; d++) {
        if (searching && d < depth) {
            left = (st(frame_word(d), i) >> 3u) & 0xFu;
            if (left != 0u) {
                at = d;
                searching = false;
            }
        }
    }
    if (left == 0u || (!live && atomicAdd(&status[ST_DONATED], 1u) >= params.hungry)) {
        return false;
    }
    if (atomicAdd(&status[ST_RESERVED], 1u) >= params.room) {
        return false;
    }
    let slot = atomicAdd(&status[ST_TAIL], 1u);
    atomicAdd(&status[ST_GIVEN], 1u);
    atomicAdd(&status[lane_at(lane_, L_GIVEN)], 1u);
    // The board at depth `at`: undo the moves above it, write it, and put the board back.
    let board_lo = tw_lo;
    let board_hi = tw_hi;
    var bl = blank;
    for (var k = 0u; k < MAX_DEPTH; k++) {
        if (k < depth - at) {
            let back = nbr(bl, (st(frame_word(depth - k), i) & 7u) ^ 1u);
            set_tile(bl, tile(back));
            set_tile(back, 0u);
            bl = back;
        }
    }
    let base = item_base(slot);
    let tag = item_tag(slot);
    for (var w = 0u; w < BOARD_WORDS; w++) {
        iput(base + w, word_in(tw_lo, tw_hi, w, WIDE), tag);
    }
    tw_lo = board_lo;
    tw_hi = board_hi;
    let plen = st(origin_word(0u), i);
    let fr = st(frame_word(at), i);
    iput(base + BOARD_WORDS, (g0 + at) | ((fr & 7u) << 8u) | (left << 11u) | (1u << 15u)
        | ((plen + at) << 16u), tag);
    iput(base + BOARD_WORDS + 1u, st(origin_word(1u), i), tag);
    iput(base + BOARD_WORDS + 2u, fr >> 16u, tag);
    // The path: the source item's, then the moves down to depth `at` (positions plen ..
    // plen + at), each word written once, whole.
    var word = 0u;
    for (var p = 0u; p < PATH_WORDS * PATH_MOVES; p++) {
        let b = p % PATH_MOVES;
        if (b == 0u) {
            word = st(origin_word(2u + p / PATH_MOVES), i);
        }
        if (p >= plen && p < plen + at) {
            let mv = st(frame_word(p - plen + 1u), i) & 3u;
            word = (word & ~(3u << (b * 2u))) | (mv << (b * 2u));
        }
        if (b == PATH_MOVES - 1u) {
            iput(base + path_word(p / PATH_MOVES), word, tag);
        }
    }
    atomicAdd(&status[ST_PUBLISHED], 1u);
    // This invocation no longer searches those moves.
    set_st(frame_word(at), i, fr & 0xFFFF0007u);
    return true;
}
