// Batch heuristic evaluation: one invocation per board.
//
// Layout of `boards` (see src/eval/gpu.rs): each board takes `params.words` u32 words; tile i
// (row-major, 0 = blank) is bits [b*(i % per_word), +b) of word i / per_word, where b =
// `params.bits` (4 for boards of at most 16 cells, else 8) and per_word = 32 / b.
// `tables`: [0, n) goal row of each tile, [n, 2n) goal column, [2n, 2n + n*n) Manhattan
// distance of tile t at cell c at index 2n + t*n + c (0 for the blank).
// `out[i]` = h of board i, in moves.

const MAX_SIDE: u32 = 8u;
const WORKGROUP: u32 = 64u;

struct Params {
    count: u32,
    cells: u32,
    rows: u32,
    cols: u32,
    words: u32,
    bits: u32,
    // 0 = Hamming, 1 = Manhattan, 2 = Manhattan + linear conflict.
    kind: u32,
    _pad: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> boards: array<u32>;
@group(0) @binding(2) var<storage, read> tables: array<u32>;
@group(0) @binding(3) var<storage, read_write> out: array<u32>;

fn tile_at(base: u32, i: u32) -> u32 {
    if (params.bits == 4u) {
        return (boards[base + (i >> 3u)] >> ((i & 7u) * 4u)) & 0xFu;
    }
    return (boards[base + (i >> 2u)] >> ((i & 3u) * 8u)) & 0xFFu;
}

@compute @workgroup_size(64)
fn main(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let idx = gid.x + gid.y * groups.x * WORKGROUP;
    if (idx >= params.count) {
        return;
    }
    let n = params.cells;
    let base = idx * params.words;
    var h = 0u;
    if (params.kind == 0u) {
        for (var i = 0u; i < n; i++) {
            let t = tile_at(base, i);
            // Misplaced iff its Manhattan distance is non-zero.
            if (t != 0u && tables[2u * n + t * n + i] != 0u) {
                h += 1u;
            }
        }
        out[idx] = h;
        return;
    }
    for (var i = 0u; i < n; i++) {
        let t = tile_at(base, i);
        if (t != 0u) {
            h += tables[2u * n + t * n + i];
        }
    }
    if (params.kind == 2u) {
        // Per line: k tiles that belong to it, minus the longest increasing subsequence of
        // their goal positions = tiles that must leave the line (Hansson et al. 1992).
        var leave = 0u;
        var tails: array<u32, MAX_SIDE>;
        for (var r = 0u; r < params.rows; r++) {
            var k = 0u;
            var len = 0u;
            for (var c = 0u; c < params.cols; c++) {
                let t = tile_at(base, r * params.cols + c);
                if (t != 0u && tables[t] == r) {
                    let x = tables[n + t];
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
        for (var c = 0u; c < params.cols; c++) {
            var k = 0u;
            var len = 0u;
            for (var r = 0u; r < params.rows; r++) {
                let t = tile_at(base, r * params.cols + c);
                if (t != 0u && tables[n + t] == c) {
                    let x = tables[t];
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
