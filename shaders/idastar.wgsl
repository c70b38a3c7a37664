// GPU IDA*: each invocation runs its own depth-first search below the work items (subtree
// roots) it takes, at most `params.budget` expansions a round, its stack kept in `state` so
// that the next round (dispatch) resumes where this one stopped. See src/eval/gpu_ida/ for
// the host side and src/search/gpu_idastar.rs for the iteration loop.
//
// Counting is the CPU IDA*'s (src/search/idastar/mod.rs): a node with f ≤ bound that is not the
// goal is expanded (counted once); each successor the pruning automaton allows (the CPU's, in
// `consts` from FSM_BASE: "never undo" or the duplicate-sequence automaton) is generated
// (counted once); a successor with f > bound is pruned and offers its f to the next
// threshold. So a finished iteration expands and generates exactly what the CPU does.
//
// Layouts (u32 words; `INV` invocations; word `w` of invocation `i` at `w * INV + i`):
// items   a ring of `params.capacity` work items of ITEM_WORDS words, each word's top bit
//         the turn's tag (see `item_tag`): BOARD_WORDS words of tiles (a byte each, row-major, 0 = blank),
//         info = g | prev << 8 (4 = none) | mask << 11 (moves still to try) | done << 15 (the
//         node was already expanded: a donated node) | path length << 16, root (the host's
//         subtree-root index | its lane << LANE_SHIFT), the node's state in the pruning automaton, PATH_WORDS words of
//         moves below the root (15 a word, 2 bits each).
// state   s0 = running | depth << 1 | g0 << 9 | pending << 17 (item s1 was taken in a round
//         that could not see it yet: loaded at the next round's start), s1 = item, s2 = blank cell, then BOARD_WORDS
//         board words, then MAX_DEPTH frames: frame d = prev (3 bits, the move to the node;
//         4 = none) | left << 3 (bit m: move m is still to be tried; generated and counted)
//         | its state in the pruning automaton << 16 (the top frame is in `cur` during a
//         dispatch), then the item's origin: its path length, root and PATH_WORDS path words
//         (copied when the item is taken, so that its slot can be reused).
// status  see the ST_ constants; `hist` (g < HIST_G, h < HIST_H) after the header.

// The host puts shaders/common.wgsl (the shape, the heuristic codes, the pattern tables and
// their metadata) and shaders/ida_board.wgsl (the invocation's board and heuristic: its state
// and the update of a move) in front of this file. Boards here have at most 32 cells (checked
// on the host).
const MAX_PATTERNS: u32 = 16u;
const MAX_DEPTH: u32 = 160u;
const PATH_WORDS: u32 = 11u;
// Moves a path word holds (its top bit is the turn's tag: see `item_tag`).
const PATH_MOVES: u32 = 15u;
// The first item word of the path (after the board, info, root and automaton state).
fn path_word(w: u32) -> u32 { return BOARD_WORDS + 3u + w; }
override WORKGROUP: u32 = 64u;
const NONE: u32 = 0xFFFFFFFFu;
const NO_MOVE: u32 = 4u;
// Most work items one invocation hands out in a round (set from the host's SHARE_MAX), at its
// end and, separately, within it.
override SHARE_MAX: u32 = 8u;

// Status words.
const ST_WORK: u32 = 0u;
const ST_TAIL: u32 = 1u;
// (Words 2–6, 10 and 12 are unused: each lane counts for itself, from ST_LANES.)
const ST_BUSY: u32 = 7u;
const ST_DONATED: u32 = 8u;
// Invocations whose loop ended with budget left, neither found nor out of work: the adapter
// cut the dispatch short (lavapipe ends every loop of a shader after 65,535 iterations in
// all), leaving the state mid-step.
const ST_CUT: u32 = 9u;
const ST_GIVEN: u32 = 11u;
// Items taken so far from those reserved within the round (from `params.available` on; the
// host starts it there): claimed one at a time (compare and swap) below ST_PUBLISHED.
const ST_WORK2: u32 = 13u;
// Items written in full, reserved before the round or within it (the host starts it at the
// tail): a taker claims below it, and checks the item's words all the same.
const ST_PUBLISHED: u32 = 14u;
// Invocations waiting for an item within the round.
const ST_IDLE: u32 = 15u;
// Invocations searching within the round.
const ST_ACTIVE: u32 = 16u;
// Slots reserved in the round, against `params.room`.
const ST_RESERVED: u32 = 17u;
// The least item claimed but not yet visible (pending): its slot is kept next round.
const ST_PENDING_MIN: u32 = 18u;
// Items handed out within the round (a part of ST_GIVEN).
const ST_GIVEN_LIVE: u32 = 19u;
// Items claimed within the round but not yet written whole (pending).
const ST_PENDING: u32 = 20u;
// Lanes: searches sharing the device, each with its threshold and its counts (one search is
// lane 0). Lane `l`'s LANE_WORDS words start at ST_LANES + l * LANE_WORDS (`lane_at`); the
// host writes them all before each round (the threshold and the stop, the counts zero) and
// reads them back after it. An item's lane is in the top bits of its root word (`lane_of`).
const ST_LANES: u32 = 32u;
const LANE_WORDS: u32 = 10u;
const MAX_LANES: u32 = 16u;
// The lane's threshold.
const L_BOUND: u32 = 0u;
// Not 0: the lane's search has ended (the host stopped it, or its goal was found): its items
// are dropped when taken, its stacks when next stepped.
const L_STOP: u32 = 1u;
const L_EXPANDED: u32 = 2u;
const L_GENERATED: u32 = 3u;
const L_MIN_F: u32 = 4u;
// Items searched to the end, or dropped: with the items handed out (L_GIVEN) and the roots,
// the host knows when a lane has none left.
const L_FINISHED: u32 = 5u;
const L_GIVEN: u32 = 6u;
const L_FOUND: u32 = 7u;
const L_FOUND_DEPTH: u32 = 8u;
const L_FOUND_INV: u32 = 9u;
fn lane_at(l: u32, w: u32) -> u32 { return ST_LANES + l * LANE_WORDS + w; }
// The lane of an item whose root word is `root` (the root's index in its lane's iteration is
// below 2^24).
const LANE_SHIFT: u32 = 24u;
fn lane_of(root: u32) -> u32 { return (root >> LANE_SHIFT) & 0x7Fu; }
const ST_HIST: u32 = 192u;
const HIST_G: u32 = 192u;
const HIST_H: u32 = 128u;
// The workgroup's share of the histogram: g < WG_G, h < WG_H (the rest goes straight to
// `status`).
const WG_G: u32 = 64u;
const WG_H: u32 = 64u;

override INV: u32 = 4096u;
override BOARD_WORDS: u32 = 4u;
override ITEM_WORDS: u32 = 18u;
// Where the pruning automaton starts in `consts`: a word per state and move, the state that
// move leads to | the moves that state allows << 16, or NONE where the move is pruned.
override FSM_BASE: u32 = 0u;
// 1: gather the (g, h) histogram of generated nodes.
override HIST: u32 = 0u;
// Steps of the inner loop between the rare work (taking a root, the goal test).
override CHUNK: u32 = 32u;
// Whether work is handed on within the round (the host's pipeline for an iteration's tail,
// when the items before a round cannot keep every invocation busy). A constant, so that the
// other pipeline has none of its code: lavapipe runs the body of a branch taken by no lane
// all the same, masked.
override LIVE: bool = false;

struct Params {
    pad0: u32,
    available: u32,
    budget: u32,
    hungry: u32,
    capacity: u32,
    // Slots free for new items in this round: those after the tail whose items were taken
    // (copied by their takers) before it.
    room: u32,
    // Work items each busy invocation hands out at the end of this round (at most SHARE_MAX),
    // while fewer than `hungry` were handed out.
    share: u32,
    // 2: the trip count of the canary loop (see `canary`), from the host so that it is not
    // unrolled.
    two: u32,
    // Times an invocation without work looks for an item handed out within the round before
    // it stops for the round (with LIVE).
    idle_tries: u32,
    // For tests (with LIVE): every `defer`-th item claimed within the round is taken as not
    // yet written, so that the next round loads it (0: none).
    defer: u32,
    pad1: u32,
    pad2: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> items: array<atomic<u32>>;
@group(0) @binding(2) var<storage, read_write> state: array<u32>;
@group(0) @binding(3) var<storage, read_write> status: array<atomic<u32>>;
// Goal row | column << 4 by tile, then pattern by tile (0xFF: none): read once a dispatch;
// then, from FSM_BASE, the pruning automaton: read at every expansion.
@group(0) @binding(4) var<storage, read> consts: array<u32>;
// WG_G × WG_H bins when HIST is 1, else one (unused).
override WG_BINS: u32 = 1u;
var<workgroup> wg_hist: array<atomic<u32>, WG_BINS>;

// Word `w` of invocation `i`'s state, interleaved: neighbouring invocations read neighbouring
// words (coalesced on GPUs; one vector load on lavapipe, 4× faster there than each
// invocation's words together).
fn st(w: u32, i: u32) -> u32 { return state[w * INV + i]; }
fn set_st(w: u32, i: u32, v: u32) { state[w * INV + i] = v; }
fn frame_word(d: u32) -> u32 { return 3u + BOARD_WORDS + d; }
// The invocation's copy of its work item's origin: word 0 the path length, 1 the root, then
// PATH_WORDS words of moves (taken from the item when the invocation takes it, so that the
// item's slot can be reused).
fn origin_word(k: u32) -> u32 { return 3u + BOARD_WORDS + MAX_DEPTH + k; }
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


// The moves to try below a node expanded at cell `at` with heuristic parts as they are, whose
// state in the pruning automaton allows the moves `allowed`, its children at depth `g`: every
// move on the board that the automaton allows, each generated (counted here). With Manhattan, a child whose f exceeds the bound
// is pruned here, its board untouched (it offers its f to the next threshold); with linear
// conflict (never below Manhattan), one whose Manhattan f cannot lower the next threshold
// either (the CPU's early stop). The rest are gone into, and those whose f exceeds the bound
// are left at once.
var<private> generated: u32;
var<private> min_f: u32;
// The lane of the invocation's item (its counts there not yet added to the lane's: see
// `flush`).
var<private> lane_: u32;
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
            word = iget(base + w);
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
    if (!canary()) {
        atomicAdd(&status[ST_CUT], 1u);
    }
}

// Whether this invocation's loops still run to their end: lavapipe's loop limiter, once spent,
// runs every later loop's body once, so a loop of two passes then makes one.
fn canary() -> bool {
    var n = 0u;
    for (var k = 0u; k < params.two; k++) {
        n++;
    }
    return n == params.two;
}

fn search(i: u32) {
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
    // (Only a round with LIVE makes an item pending, and the round after it has LIVE too.)
    var pending = LIVE && ((s0 >> 17u) & 1u) == 1u;
    var depth = (s0 >> 1u) & 0xFFu;
    var g0 = (s0 >> 9u) & 0xFFu;
    var item = st(1u, i);
    // The top frame lives in `cur` while the invocation runs; the frames below it in `state`.
    // (Frames once lived in a private array during a dispatch, copied to and from `state` by
    // loops of MAX_DEPTH steps around it. lavapipe's loop limiter (see ST_CUT) ended the
    // saving loop of a long round, so stale frames were read back and solutions did not
    // replay. Kept in `state` throughout, nothing is copied.)
    var cur = 0u;
    // (An invocation without an item starts in lane 0: it takes another's threshold with
    // its first item of another lane.)
    lane_ = 0u;
    if (running) {
        lane_ = lane_of(st(origin_word(1u), i));
    }
    bound_ = atomicLoad(&status[lane_at(lane_, L_BOUND)]);
    if (running) {
        if (atomicLoad(&status[lane_at(lane_, L_STOP)]) != 0u) {
            // Its lane's search has ended: the subtree is dropped.
            running = false;
            atomicAdd(&status[lane_at(lane_, L_FINISHED)], 1u);
        } else {
            load_board(0u, false, i);
            full_h();
            cur = st(frame_word(depth), i);
        }
    }
    if (LIVE) {
        if (running) {
            atomicAdd(&status[ST_ACTIVE], 1u);
        }
    }
    var budget = params.budget;
    var expanded = 0u;
    generated = 0u;
    var finished = 0u;
    min_f = NONE;
    var found = false;
    // Waiting for an item handed out within the round: since when (`idle`), and how often.
    var idle = false;
    var tries = 0u;
    var given = 0u;
    var laps = 0u;
    loop {
        if (!running) {
            // Its pending item, else one written before the round (the counter may run past
            // them), else one handed out within it.
            // (An idle invocation found the items before the round all taken already.)
            var idx = NONE;
            if (pending) {
                idx = item;
            } else if (!idle) {
                idx = atomicAdd(&status[ST_WORK], 1u);
                if (idx >= params.available) {
                    idx = NONE;
                }
            }
            if (LIVE) {
                if (idx == NONE) {
                    idx = take_within();
                }
            }
            if (idx == NONE) {
                // Nothing to take: wait while someone searches (busy invocations hand out work
                // when they see idle ones), at most `params.idle_tries` times.
                var stop = true;
                if (LIVE) {
                    if (!idle) {
                        idle = true;
                        atomicAdd(&status[ST_IDLE], 1u);
                    }
                    tries++;
                    stop = tries >= params.idle_tries || atomicLoad(&status[ST_ACTIVE]) == 0u;
                }
                if (stop) {
                    break;
                }
                continue;
            }
            item = idx;
            let base = item_base(idx);
            if (LIVE) {
                if (idx >= params.available
                    && (!visible(idx, base) || (params.defer != 0u && idx % params.defer == 0u))) {
                    // Handed out within this round and not all written yet: the next round
                    // loads it.
                    pending = true;
                    atomicMin(&status[ST_PENDING_MIN], idx);
                    atomicAdd(&status[ST_PENDING], 1u);
                    break;
                }
            }
            pending = false;
            // An item of a lane whose search has ended is dropped (counted as finished, so
            // that the lane drains); with one of another lane, the counts so far go to the
            // last one.
            let l = lane_of(iget(base + BOARD_WORDS + 1u));
            if (atomicLoad(&status[lane_at(l, L_STOP)]) != 0u) {
                atomicAdd(&status[lane_at(l, L_FINISHED)], 1u);
                continue;
            }
            if (l != lane_) {
                flush(expanded, finished);
                expanded = 0u;
                finished = 0u;
                lane_ = l;
                bound_ = atomicLoad(&status[lane_at(l, L_BOUND)]);
            }
            if (LIVE) {
                if (idle) {
                    idle = false;
                    atomicSub(&status[ST_IDLE], 1u);
                }
                atomicAdd(&status[ST_ACTIVE], 1u);
            }
            tries = 0u;
            load_board(base, true, i);
            let info = iget(base + BOARD_WORDS);
            set_st(origin_word(0u), i, info >> 16u);
            set_st(origin_word(1u), i, iget(base + BOARD_WORDS + 1u));
            for (var w = 0u; w < PATH_WORDS; w++) {
                set_st(origin_word(2u + w), i, iget(base + path_word(w)));
            }
            let fsm = iget(base + BOARD_WORDS + 2u);
            g0 = info & 0xFFu;
            let prev = (info >> 8u) & 7u;
            var left = (info >> 11u) & 0xFu;
            let done = (info >> 15u) & 1u;
            let h = full_h();
            if (done == 0u) {
                if (h == 0u && is_goal()) {
                    found = true;
                    depth = 0u;
                    running = true;
                    cur = prev | (fsm << 16u);
                    set_st(frame_word(0u), i, cur);
                    report_found(i, 0u);
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
        if (budget == 0u) {
            break;
        }
        if (atomicLoad(&status[lane_at(lane_, L_STOP)]) != 0u) {
            // The lane's search has ended (another invocation found its goal, or the host
            // stopped it): the subtree is dropped.
            running = false;
            finished++;
            if (LIVE) {
                atomicSub(&status[ST_ACTIVE], 1u);
            }
            continue;
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
            // `depth` is the top's, unused until a push, so the store needs no condition.
            set_st(frame_word(depth), i, fr & ~(1u << (m + 3u)));
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
                    cur = st(frame_word(depth), i);
                }
            }
        }
        if (LIVE) {
            if (!running) {
                atomicSub(&status[ST_ACTIVE], 1u);
            }
        }
        if (check) {
            if (is_goal()) {
                found = true;
                set_st(frame_word(depth), i, cur);
                report_found(i, depth);
                break;
            }
            expanded++;
            budget = max(budget, 1u) - 1u;
            cur = cur | (children(blank, fsm_allowed(cur >> 16u), g0 + depth + 1u) << 3u);
        }
        // Idle invocations wait for more than the queue holds: hand one of them the untried
        // moves of the shallowest node. (Every other pass: on a GPU, every busy invocation
        // reading the same word at every pass might queue at one memory slice.)
        laps++;
        if (LIVE) {
            if (running && given < SHARE_MAX && laps % 2u == 0u
                && atomicLoad(&status[ST_IDLE]) != 0u
                && atomicLoad(&status[ST_IDLE])
                    > atomicLoad(&status[ST_TAIL]) - atomicLoad(&status[ST_WORK2])) {
                set_st(frame_word(depth), i, cur);
                if (donate(i, depth, g0, true)) {
                    given++;
                    atomicAdd(&status[ST_GIVEN_LIVE], 1u);
                }
            }
        }
    }
    if (LIVE) {
        if (idle) {
            atomicSub(&status[ST_IDLE], 1u);
        }
    }
    if (running) {
        set_st(frame_word(depth), i, cur);
    }
    if (LIVE) {
        if (running) {
            atomicSub(&status[ST_ACTIVE], 1u);
        }
    }
    if (running && !found && budget != 0u) {
        atomicAdd(&status[ST_CUT], 1u);
    }
    // (Not a stack of a lane stopped within the round: its items would only be dropped.)
    if (!found && running && params.hungry > 0u
        && atomicLoad(&status[lane_at(lane_, L_STOP)]) == 0u) {
        for (var k = 0u; k < SHARE_MAX; k++) {
            if (k < params.share) {
                donate(i, depth, g0, false);
            }
        }
    }
    set_st(0u, i, select(0u, 1u, running) | (depth << 1u) | (g0 << 9u)
        | (select(0u, 1u, pending) << 17u));
    set_st(1u, i, item);
    set_st(2u, i, blank);
    for (var w = 0u; w < BOARD_WORDS; w++) {
        set_st(3u + w, i, word_in(tw_lo, tw_hi, w, WIDE));
    }
    // A loop cut short anywhere above (the steps, handing out, the stores) leaves the state
    // wrong: the canary, the last loop, says so.
    if (!canary()) {
        atomicAdd(&status[ST_CUT], 1u);
    }
    flush(expanded, finished);
    if ((running && !found) || pending) {
        atomicAdd(&status[ST_BUSY], 1u);
    }
}

// Adds the invocation's counts in lane `lane_` since the last flush (`expanded`, `finished`,
// `generated` and `min_f`) to the lane's, and starts the last two again.
fn flush(expanded: u32, finished: u32) {
    if (expanded != 0u) {
        atomicAdd(&status[lane_at(lane_, L_EXPANDED)], expanded);
    }
    if (generated != 0u) {
        atomicAdd(&status[lane_at(lane_, L_GENERATED)], generated);
    }
    if (finished != 0u) {
        atomicAdd(&status[lane_at(lane_, L_FINISHED)], finished);
    }
    if (min_f != NONE) {
        atomicMin(&status[lane_at(lane_, L_MIN_F)], min_f);
    }
    generated = 0u;
    min_f = NONE;
}

// The goal is found at `depth` below this invocation's work item (frames 1..=depth and the
// item's origin are in its state): the first invocation to find it writes which, and the
// depth, in its lane's words; the lane's other subtrees are dropped. (Done at once, where the goal is found:
// on lavapipe a value carried out of loops that some lanes leave early is not to be trusted.)
fn report_found(i: u32, depth: u32) {
    if (atomicAdd(&status[lane_at(lane_, L_FOUND)], 1u) == 0u) {
        atomicStore(&status[lane_at(lane_, L_FOUND_DEPTH)], depth);
        atomicStore(&status[lane_at(lane_, L_FOUND_INV)], i);
    }
    atomicStore(&status[lane_at(lane_, L_STOP)], 1u);
}
