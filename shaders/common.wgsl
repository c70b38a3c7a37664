// What both compute shaders share; the host puts this file in front of `heuristic.wgsl` and
// of GPU IDA*'s `ida_board.wgsl` and `idastar.wgsl` (src/eval/gpu.rs: `HEURISTIC_WGSL`; src/eval/gpu_ida/mod.rs: `IDASTAR_WGSL`).
// The constants and the `PdbMeta` / `PatternMeta` structs mirror src/eval/gpu_layout.rs (a unit
// test there checks that they agree).

// The metadata's tables by tile and cell (GPU_MAX_SIDE²).
const MAX_CELLS: u32 = 64u;
const MAX_PATTERN: u32 = 12u;

// Values of KIND.
const KIND_HAMMING: u32 = 0u;
const KIND_MANHATTAN: u32 = 1u;
const KIND_LINEAR_CONFLICT: u32 = 2u;
const KIND_PDB: u32 = 3u;
// The maximum over additive partitions of shared tables (GPU IDA* only).
const KIND_PDBMAX: u32 = 4u;

// Cells (rows × cols), rows, columns.
override CELLS: u32 = 16u;
override ROWS: u32 = 4u;
override COLS: u32 = 4u;
// The heuristic: one of the KIND_ constants.
override KIND: u32 = 1u;
// log2 of the bytes in each pattern-table binding.
override CHUNK_SHIFT: u32 = 27u;
// Pattern-table bindings that hold bytes (1 to 6): reads of the others are compiled out.
override TABLE_COUNT: u32 = 6u;

// One pattern: the byte offset of its table in the tables, its k tiles in index order and
// their index weights; index = Σ (cᵢ − #{j<i: cⱼ<cᵢ}) · wᵢ, cᵢ the cell of tile i; 1 when its
// entries hold blank-region flags in their two high bits (src/heuristic/pdb/regions.rs).
struct PatternMeta {
    offset: u32,
    k: u32,
    tiles: array<u32, MAX_PATTERN>,
    weights: array<u32, MAX_PATTERN>,
    regions: u32,
}

// The patterns, whether the reflection is looked up too (1), its tile map φ and cell map T.
struct PdbMeta {
    patterns: u32,
    reflect: u32,
    phi: array<u32, MAX_CELLS>,
    tmap: array<u32, MAX_CELLS>,
    pattern: array<PatternMeta>,
}

// Pattern databases (KIND_PDB, KIND_PDBMAX): every table's bytes, four to a word, end to end
// (each table from a word), split over six bindings of 2^CHUNK_SHIFT bytes each (word w is in
// binding w >> (CHUNK_SHIFT - 2); the bindings hold at most 12 GiB). The metadata at binding 5 is the batch evaluator's (heuristic.wgsl); GPU IDA* reads its own
// packed copy (`pm` in ida_board.wgsl) and does not bind it.
@group(0) @binding(5) var<storage, read> pdb_meta: PdbMeta;
@group(0) @binding(6) var<storage, read> pdb0: array<u32>;
@group(0) @binding(7) var<storage, read> pdb1: array<u32>;
@group(0) @binding(8) var<storage, read> pdb2: array<u32>;
@group(0) @binding(9) var<storage, read> pdb3: array<u32>;
@group(0) @binding(10) var<storage, read> pdb4: array<u32>;
@group(0) @binding(11) var<storage, read> pdb5: array<u32>;

// Byte `i % 4` of `word`.
fn byte_of(word: u32, i: u32) -> u32 {
    return (word >> ((i & 3u) * 8u)) & 0xFFu;
}

// `word` with byte `i % 4` set to `v` (< 256).
fn with_byte(word: u32, i: u32, v: u32) -> u32 {
    let s = (i & 3u) * 8u;
    return (word & ~(0xFFu << s)) | (v << s);
}

// Word `w` of the tables (GPU IDA* addresses words). (On lavapipe both sides of
// every branch run, so the bindings past TABLE_COUNT are left out at compile time rather than
// skipped.)
fn pdb_word(w: u32) -> u32 {
    let at = w & ((1u << (CHUNK_SHIFT - 2u)) - 1u);
    let k = w >> (CHUNK_SHIFT - 2u);
    var word = 0u;
    if (k == 0u) { word = pdb0[at]; }
    if (TABLE_COUNT > 1u && k == 1u) { word = pdb1[at]; }
    if (TABLE_COUNT > 2u && k == 2u) { word = pdb2[at]; }
    if (TABLE_COUNT > 3u && k == 3u) { word = pdb3[at]; }
    if (TABLE_COUNT > 4u && k == 4u) { word = pdb4[at]; }
    if (TABLE_COUNT > 5u && k >= 5u) { word = pdb5[at]; }
    return word;
}

// Byte `b` of the tables (the batch evaluator addresses bytes, up to 4 GiB).
fn pdb_byte(b: u32) -> u32 {
    return byte_of(pdb_word(b >> 2u), b);
}

// The value of entry `e` of a pattern's table (`regions`: 1 when its entries hold flags) for
// a placement on the cells `occ` (a bit set) with the blank on cell `blank`. With blank-region
// flags (src/heuristic/pdb/regions.rs): the
// six low bits, plus 2 when the flag of the blank's region is set (0x40: the region of the
// lowest free cell, 0x80: any other). Boards with flags have at most 32 cells.
fn entry_value(regions: u32, e: u32, occ: u32, blank: u32) -> u32 {
    if (regions == 0u || e < 64u) {
        return e;
    }
    var all = 0u;
    var first = 0u;
    var last = 0u;
    for (var c = 0u; c < CELLS; c++) {
        all |= 1u << c;
        if (c % COLS == 0u) {
            first |= 1u << c;
        }
        if (c % COLS == COLS - 1u) {
            last |= 1u << c;
        }
    }
    let free = all & ~occ;
    var region = free & (~free + 1u);
    // A fixed count (a region spans at most CELLS cells): a loop left as soon as the region
    // stops growing, inside GPU IDA*'s steps, corrupted other lanes' state on lavapipe.
    for (var it = 0u; it < CELLS; it++) {
        region = (region | ((region & ~last) << 1u) | ((region & ~first) >> 1u)
            | (region << COLS) | (region >> COLS)) & free;
    }
    let flag = select(0x80u, 0x40u, ((region >> blank) & 1u) == 1u);
    return (e & 63u) + select(0u, 2u, (e & flag) != 0u);
}
