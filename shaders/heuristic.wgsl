// Batch heuristic evaluation: one invocation per board.
//
// Layout of `boards` (see src/eval/gpu.rs): each board takes `WORDS` u32 words; tile i
// (row-major, 0 = blank) is bits [b*(i % per_word), +b) of word i / per_word, where b = `BITS`
// (4 for boards of at most 16 cells, else 8) and per_word = 32 / b.
// `goals[t]` = (goal row << 8) | goal column of tile t (the blank's entry is unused).
// `out[i]` = h of board i, in moves; `params.count` = boards in the batch.
// The board shape, packing and heuristic are pipeline-overridable constants, so the driver
// compiles one specialised kernel per evaluator (loops of known length, no branches on kind).
//
// The host puts shaders/common.wgsl (the shape, the heuristic codes, the pattern tables and
// their metadata) in front of this file. The constants below mirror src/eval/gpu_layout.rs (a
// unit test there checks that they agree).

const MAX_SIDE: u32 = 8u;
const WORKGROUP: u32 = 64u;

// u32 words a board, bits a tile.
override WORDS: u32 = 2u;
override BITS: u32 = 4u;

struct Params {
    count: u32,
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> boards: array<u32>;
@group(0) @binding(2) var<storage, read> goals: array<u32>;
@group(0) @binding(3) var<storage, read_write> out: array<u32>;
fn pdb_sum(pos: ptr<function, array<u32, MAX_CELLS>>) -> u32 {
    var sum = 0u;
    let patterns = pdb_meta.patterns;
    for (var p = 0u; p < patterns; p++) {
        let base = pdb_meta.pattern[p].offset;
        let k = pdb_meta.pattern[p].k;
        var idx = 0u;
        var occ = 0u;
        var prev: array<u32, MAX_PATTERN>;
        for (var i = 0u; i < k; i++) {
            let c = (*pos)[pdb_meta.pattern[p].tiles[i]];
            var below = 0u;
            for (var j = 0u; j < i; j++) {
                below += select(0u, 1u, prev[j] < c);
            }
            idx += (c - below) * pdb_meta.pattern[p].weights[i];
            prev[i] = c;
            occ |= 1u << c;
        }
        sum += entry_value(pdb_meta.pattern[p].regions, pdb_byte(base + idx), occ, (*pos)[0u]);
    }
    return sum;
}

// The goal table is read from storage directly: a workgroup copy would need a barrier, which
// software rasterisers (lavapipe) implement by switching between invocations — slower.
fn goal_at(t: u32) -> u32 {
    return goals[t];
}

@compute @workgroup_size(WORKGROUP)
fn main(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let idx = gid.x + gid.y * groups.x * WORKGROUP;
    if (idx >= params.count) {
        return;
    }
    let n = CELLS;
    let cols = COLS;
    let base = idx * WORDS;
    let bits = BITS;
    let per_word = 32u / bits;
    let mask = (1u << bits) - 1u;

    // Hamming and Manhattan straight from the packed words (no per-board array).
    if (KIND <= KIND_MANHATTAN) {
        var hm = 0u;
        var cell = 0u;
        var r = 0u;
        var c = 0u;
        for (var w = 0u; w < WORDS; w++) {
            let word = boards[base + w];
            for (var k = 0u; k < per_word; k++) {
                if (cell < n) {
                    let t = (word >> (k * bits)) & mask;
                    if (t != 0u) {
                        let g = goal_at(t);
                        let gr = g >> 8u;
                        let gc = g & 0xFFu;
                        if (KIND == KIND_HAMMING) {
                            hm += select(0u, 1u, gr != r || gc != c);
                        } else {
                            hm += select(r - gr, gr - r, gr > r) + select(c - gc, gc - c, gc > c);
                        }
                    }
                    cell++;
                    c++;
                    if (c == cols) {
                        c = 0u;
                        r++;
                    }
                }
            }
        }
        out[idx] = hm;
        return;
    }

    // Unpack the board.
    var tiles: array<u32, MAX_CELLS>;
    var i = 0u;
    for (var w = 0u; w < WORDS; w++) {
        let word = boards[base + w];
        for (var k = 0u; k < per_word; k++) {
            if (i < n) {
                tiles[i] = (word >> (k * bits)) & mask;
            }
            i++;
        }
    }

    if (KIND == KIND_PDB) {
        var pos: array<u32, MAX_CELLS>;
        for (var cell = 0u; cell < n; cell++) {
            pos[tiles[cell]] = cell;
        }
        var best = pdb_sum(&pos);
        if (pdb_meta.reflect == 1u) {
            var rpos: array<u32, MAX_CELLS>;
            for (var t = 0u; t < n; t++) {
                rpos[pdb_meta.phi[t]] = pdb_meta.tmap[pos[t]];
            }
            best = max(best, pdb_sum(&rpos));
        }
        out[idx] = best;
        return;
    }

    // Hamming or Manhattan, walking the cells row by row.
    var h = 0u;
    var r = 0u;
    var c = 0u;
    for (var cell = 0u; cell < n; cell++) {
        let t = tiles[cell];
        if (t != 0u) {
            let g = goal_at(t);
            let gr = g >> 8u;
            let gc = g & 0xFFu;
            if (KIND == KIND_HAMMING) {
                h += select(0u, 1u, gr != r || gc != c);
            } else {
                h += select(r - gr, gr - r, gr > r) + select(c - gc, gc - c, gc > c);
            }
        }
        c++;
        if (c == cols) {
            c = 0u;
            r++;
        }
    }
    if (KIND == KIND_LINEAR_CONFLICT) {
        // Per line: k tiles that belong to it, minus the longest increasing subsequence of
        // their goal positions = tiles that must leave the line (Hansson et al. 1992).
        var leave = 0u;
        var tails: array<u32, MAX_SIDE>;
        for (var row = 0u; row < ROWS; row++) {
            var k = 0u;
            var len = 0u;
            for (var col = 0u; col < cols; col++) {
                let t = tiles[row * cols + col];
                let g = goal_at(t);
                if (t != 0u && (g >> 8u) == row) {
                    let x = g & 0xFFu;
                    var j = 0u;
                    while (j < len && tails[j] < x) {
                        j++;
                    }
                    tails[j] = x;
                    if (j == len) {
                        len++;
                    }
                    k++;
                }
            }
            leave += k - len;
        }
        for (var col = 0u; col < cols; col++) {
            var k = 0u;
            var len = 0u;
            for (var row = 0u; row < ROWS; row++) {
                let t = tiles[row * cols + col];
                let g = goal_at(t);
                if (t != 0u && (g & 0xFFu) == col) {
                    let x = g >> 8u;
                    var j = 0u;
                    while (j < len && tails[j] < x) {
                        j++;
                    }
                    tails[j] = x;
                    if (j == len) {
                        len++;
                    }
                    k++;
                }
            }
            leave += k - len;
        }
        h += 2u * leave;
    }
    out[idx] = h;
}
