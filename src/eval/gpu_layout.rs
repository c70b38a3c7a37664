//! What `gpu_context.rs`, `gpu.rs`, `gpu_ida/` and the shaders (`shaders/common.wgsl`, which both
//! begin with, `shaders/heuristic.wgsl`, and GPU IDA*'s `shaders/ida_board.wgsl` and
//! `shaders/idastar.wgsl`) must agree on, written once on the Rust
//! side: the heuristic codes (`KIND`), the shaders' limits, the layout of the pattern-database
//! metadata buffer ([`PdbMeta`], [`PatternMeta`], mirrored by WGSL structs of the same names)
//! and GPU IDA*'s packed uniform copy of it ([`ida_meta_words`], mirrored by the shader's
//! `PM_…` constants). Unit tests read the WGSL declarations and check them against these.

use bytemuck::{Pod, Zeroable};

/// The shader's `KIND` for Hamming.
pub(super) const KIND_HAMMING: u32 = 0;
/// The shader's `KIND` for Manhattan.
pub(super) const KIND_MANHATTAN: u32 = 1;
/// The shader's `KIND` for Manhattan plus linear conflict.
pub(super) const KIND_LINEAR_CONFLICT: u32 = 2;
/// The shader's `KIND` for an additive pattern database.
pub(super) const KIND_PDB: u32 = 3;
/// The shader's `KIND` for the maximum over additive partitions of shared tables (GPU IDA*
/// only).
pub(super) const KIND_PDBMAX: u32 = 4;

/// Invocations per workgroup.
pub(super) const WORKGROUP: u32 = 64;

/// Most cells of a board GPU IDA* takes (a cell set fits one 32-bit mask).
pub const GPU_IDA_MAX_CELLS: usize = 32;
/// Largest side GPU IDA* takes (linear conflict keeps one line in registers).
pub const GPU_IDA_MAX_SIDE: usize = 8;

/// Largest board side the GPU evaluator takes (its linear-conflict pass keeps one line in
/// registers; a board of at most 64 cells in private memory).
pub const GPU_MAX_SIDE: usize = 8;

/// Most cells of a board the shader takes (`GPU_MAX_SIDE²`).
pub(super) const MAX_CELLS: usize = GPU_MAX_SIDE * GPU_MAX_SIDE;

/// Most tiles in one pattern the shader takes.
pub const GPU_MAX_PATTERN: usize = 12;

/// The head of the pattern-database metadata buffer (binding 5), followed by one
/// [`PatternMeta`] per pattern (wgsl: `struct PdbMeta`, its last field `pattern:
/// array<PatternMeta>`).
#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
pub(super) struct PdbMeta {
    /// Number of patterns.
    pub patterns: u32,
    /// 1 when the tables are looked up on the reflection too, else 0.
    pub reflect: u32,
    /// The reflection's tile map φ, by tile.
    pub phi: [u32; MAX_CELLS],
    /// The reflection's cell map T, by cell.
    pub tmap: [u32; MAX_CELLS],
}

/// One pattern of the metadata buffer: where its table starts in the tables' buffer (bytes),
/// its tiles in index order and their index weights (the index is
/// `Σ (cᵢ − #{j < i: cⱼ < cᵢ}) · wᵢ`, `cᵢ` the cell of tile `i`).
#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
pub(super) struct PatternMeta {
    /// Byte offset of the table.
    pub offset: u32,
    /// Tiles in the pattern.
    pub k: u32,
    /// The tiles, in index order.
    pub tiles: [u32; GPU_MAX_PATTERN],
    /// Their index weights `P(n−1−i, k−1−i)`.
    pub weights: [u32; GPU_MAX_PATTERN],
    /// 1 when the table's entries hold blank-region flags (`heuristic::pdb::regions`).
    pub regions: u32,
}

/// The metadata buffer's words: `head` and then `patterns` (at least one, zeroed if none:
/// a runtime-sized array binds with one element at least).
pub(super) fn meta_words(head: &PdbMeta, patterns: &[PatternMeta]) -> Vec<u32> {
    let mut words: Vec<u32> = bytemuck::bytes_of(head)
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let zero = [PatternMeta::zeroed()];
    let patterns = if patterns.is_empty() { &zero } else { patterns };
    words.extend_from_slice(bytemuck::cast_slice(patterns));
    words
}

/// GPU IDA*'s copy of the metadata (binding 12, a uniform buffer of [`IDA_META_WORDS`] words:
/// on lavapipe a uniform read is one gather, a storage read a loop over the lanes). Words:
/// patterns and reflect at 0 and 1; φ by tile and T by cell a byte each from
/// [`IDA_META_PHI`] and [`IDA_META_TMAP`] (boards of at most 32 cells); from
/// [`IDA_META_PATTERNS`] on, [`IDA_META_STRIDE`] words a pattern: its table's first word
/// (`word_offsets`: its byte offset ÷ 4), k, regions, 0, then
/// its tiles a byte each; from [`IDA_META_TILES`] on, a word a tile: its index weight in its
/// pattern `| pattern << 27` (`IDA_TILE_NONE`, weight 0: the blank, a tile in no pattern, or
/// every tile when [`ida_weights_fit`] is false) (wgsl: `pm` in `shaders/ida_board.wgsl`, with
/// the same constants).
pub(super) fn ida_meta_words(
    head: &PdbMeta,
    patterns: &[PatternMeta],
    word_offsets: &[u32],
) -> Vec<u32> {
    let mut words = vec![0u32; IDA_META_WORDS];
    words[0] = head.patterns;
    words[1] = head.reflect;
    let put_byte = |words: &mut [u32], at: usize, i: usize, v: u32| {
        words[at + i / 4] |= (v & 0xFF) << (8 * (i % 4));
    };
    for i in 0..32 {
        put_byte(&mut words, IDA_META_PHI, i, head.phi[i]);
        put_byte(&mut words, IDA_META_TMAP, i, head.tmap[i]);
    }
    for (p, m) in patterns.iter().enumerate().take(IDA_META_MAX_PATTERNS) {
        let at = IDA_META_PATTERNS + p * IDA_META_STRIDE;
        words[at] = word_offsets[p];
        words[at + 1] = m.k;
        words[at + 2] = m.regions;
        for (i, &t) in m.tiles.iter().enumerate() {
            put_byte(&mut words, at + 4, i, t);
        }
    }
    words[IDA_META_TILES..IDA_META_TILES + 32].fill(IDA_TILE_NONE);
    if ida_weights_fit(patterns) {
        for (p, m) in patterns.iter().enumerate() {
            for i in 0..m.k as usize {
                words[IDA_META_TILES + m.tiles[i] as usize] = m.weights[i] | (p as u32) << 27;
            }
        }
    }
    words
}

/// Whether [`ida_meta_words`]'s tile words hold every weight (each under 2²⁷: true of every
/// named partition; a pattern of 9 tiles on 4×4 is not) and pattern (at most
/// [`IDA_INCREMENTAL_PATTERNS`]): GPU IDA* then updates the pattern indexes incrementally
/// when the reflection, if any, is the transpose.
pub(super) fn ida_weights_fit(patterns: &[PatternMeta]) -> bool {
    patterns.len() <= IDA_INCREMENTAL_PATTERNS
        && patterns
            .iter()
            .all(|m| m.weights[..m.k as usize].iter().all(|&w| w < 1 << 27))
}

/// GPU IDA*'s metadata for a maximum over partitions (`KIND_PDBMAX`): [`ida_meta_words`] of
/// its distinct tables, then word 2 the number of partitions, each tile's word the bit set of
/// the tables that hold it (bit `p`: table `p`), and from [`IDA_META_PARTS`] on, per partition
/// two `vec4<u32>` byte masks over the tables' values (byte `p` 0xFF when the partition reads
/// table `p` directly, in the first, through the reflection, in the second). `partitions`:
/// per partition, its (table, flipped) parts.
pub(super) fn ida_max_meta_words(
    head: &PdbMeta,
    patterns: &[PatternMeta],
    word_offsets: &[u32],
    partitions: &[Vec<(usize, bool)>],
) -> Vec<u32> {
    let mut words = ida_meta_words(head, patterns, word_offsets);
    words[2] = partitions.len() as u32;
    words[IDA_META_TILES..IDA_META_TILES + 32].fill(0);
    for (p, m) in patterns.iter().enumerate() {
        for &t in &m.tiles[..m.k as usize] {
            words[IDA_META_TILES + t as usize] |= 1 << p;
        }
    }
    for (q, parts) in partitions.iter().enumerate().take(IDA_META_MAX_PARTITIONS) {
        for &(table, flipped) in parts {
            let at = IDA_META_PARTS + 8 * q + 4 * usize::from(flipped) + table / 4;
            words[at] |= 0xFF << (8 * (table % 4));
        }
    }
    words
}

/// Where φ starts in [`ida_meta_words`].
pub(super) const IDA_META_PHI: usize = 4;
/// Where T starts in [`ida_meta_words`].
pub(super) const IDA_META_TMAP: usize = 12;
/// Where the patterns start in [`ida_meta_words`].
pub(super) const IDA_META_PATTERNS: usize = 20;
/// Words a pattern in [`ida_meta_words`].
pub(super) const IDA_META_STRIDE: usize = 8;
/// Most patterns GPU IDA* takes.
pub(super) const IDA_META_MAX_PATTERNS: usize = 16;
/// Where the tile words start in [`ida_meta_words`].
pub(super) const IDA_META_TILES: usize =
    IDA_META_PATTERNS + IDA_META_MAX_PATTERNS * IDA_META_STRIDE;
/// The tile word of a tile in no pattern.
pub(super) const IDA_TILE_NONE: u32 = 31 << 27;
/// Most patterns whose indexes GPU IDA* updates incrementally (one `vec4<u32>` of them).
pub(super) const IDA_INCREMENTAL_PATTERNS: usize = 4;
/// Where the partitions' byte masks start in [`ida_max_meta_words`] (8 words a partition).
pub(super) const IDA_META_PARTS: usize = IDA_META_TILES + 32;
/// Most partitions GPU IDA* takes in a maximum: as many as a maximum has.
pub(super) const IDA_META_MAX_PARTITIONS: usize = crate::heuristic::pdb::MAX_PARTITIONS;
/// Words of [`ida_meta_words`] (a multiple of 4: the uniform is an array of `vec4<u32>`).
pub(super) const IDA_META_WORDS: usize = IDA_META_PARTS + 8 * IDA_META_MAX_PARTITIONS;

/// Reading WGSL declarations in tests, to check them against the host's constants.
#[cfg(test)]
pub(super) mod wgsl {
    /// The value of `const NAME: u32 = …u;` in `wgsl`.
    pub(crate) fn const_in(wgsl: &str, name: &str) -> u32 {
        let decl = format!("const {name}: u32 = ");
        let at = wgsl
            .find(&decl)
            .unwrap_or_else(|| panic!("no `{decl}` in the shader"));
        let rest = &wgsl[at + decl.len()..];
        rest[..rest.find(';').unwrap()]
            .trim()
            .trim_end_matches('u')
            .parse()
            .unwrap_or_else(|e| panic!("{name}: {e}"))
    }

    /// The value of the one-line function `fn NAME(ARG: u32) -> u32 { return A + B + …; }` in
    /// `wgsl` at `arg`, its terms being `u32` literals, `ARG` and the names `known` gives
    /// values for (constants and overrides).
    pub(crate) fn sum_fn_in(wgsl: &str, name: &str, arg: u32, known: &[(&str, u32)]) -> u32 {
        let decl = format!("fn {name}(");
        let at = wgsl
            .find(&decl)
            .unwrap_or_else(|| panic!("no `{decl}` in the shader"));
        let rest = &wgsl[at + decl.len()..];
        let param = rest[..rest.find(':').unwrap()].trim();
        let body = &rest[rest.find("return").unwrap() + "return".len()..];
        body[..body.find(';').unwrap()]
            .split('+')
            .map(str::trim)
            .map(|term| match term {
                t if t == param => arg,
                t => known
                    .iter()
                    .find(|(n, _)| *n == t)
                    .map(|(_, v)| *v)
                    .or_else(|| t.trim_end_matches('u').parse().ok())
                    .unwrap_or_else(|| panic!("{name}: unknown term {t:?}")),
            })
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::{offset_of, size_of};

    use crate::eval::gpu::HEURISTIC_WGSL as HEURISTIC;
    use crate::eval::gpu_ida::IDASTAR_WGSL as IDASTAR;
    const COMMON: &str = include_str!("../../shaders/common.wgsl");

    /// The value of `const NAME: u32 = …u;` in the batch evaluator's shader.
    fn wgsl_const(name: &str) -> u32 {
        const_in(HEURISTIC, name)
    }

    use super::wgsl::const_in;

    /// The fields of `struct NAME` in the shader, with their byte offsets and the struct's
    /// size (runtime-sized arrays count as zero), for fields of `u32`, `array<u32, N>` and
    /// a trailing `array<…>` (all aligned to 4 bytes).
    fn wgsl_struct(wgsl: &str, name: &str) -> (Vec<(String, usize)>, usize) {
        let decl = format!("struct {name} {{");
        let at = wgsl
            .find(&decl)
            .unwrap_or_else(|| panic!("no `{decl}` in the shader"));
        let body = &wgsl[at + decl.len()..];
        let body = &body[..body.find('}').unwrap()];
        let mut fields = Vec::new();
        let mut offset = 0;
        for field in body.split(",\n").map(str::trim).filter(|f| !f.is_empty()) {
            let field = field.trim_end_matches(',');
            let (fname, ty) = field.split_once(':').unwrap();
            let ty = ty.trim();
            fields.push((fname.trim().to_string(), offset));
            offset += if ty == "u32" {
                4
            } else if let Some(len) = ty
                .strip_prefix("array<u32, ")
                .and_then(|t| t.strip_suffix('>'))
            {
                4 * const_in(wgsl, len) as usize
            } else if ty.starts_with("array<") && !ty.contains(',') {
                0
            } else {
                panic!("{name}.{fname}: type {ty} not understood by this test");
            };
        }
        (fields, offset)
    }

    #[test]
    fn the_shader_declares_the_same_codes_and_limits() {
        assert_eq!(wgsl_const("KIND_HAMMING"), KIND_HAMMING);
        assert_eq!(wgsl_const("KIND_MANHATTAN"), KIND_MANHATTAN);
        assert_eq!(wgsl_const("KIND_LINEAR_CONFLICT"), KIND_LINEAR_CONFLICT);
        assert_eq!(wgsl_const("KIND_PDB"), KIND_PDB);
        assert_eq!(wgsl_const("KIND_PDBMAX"), KIND_PDBMAX);
        assert_eq!(wgsl_const("WORKGROUP"), WORKGROUP);
        assert_eq!(wgsl_const("MAX_SIDE") as usize, GPU_MAX_SIDE);
        assert_eq!(wgsl_const("MAX_CELLS") as usize, MAX_CELLS);
        assert_eq!(wgsl_const("MAX_PATTERN") as usize, GPU_MAX_PATTERN);
    }

    #[test]
    fn both_shaders_read_the_metadata_as_it_is_written() {
        for wgsl in [HEURISTIC, IDASTAR] {
            assert!(
                wgsl.starts_with(COMMON),
                "both shaders begin with common.wgsl"
            );
            metadata_layout(wgsl);
        }
        for name in [
            "KIND_MANHATTAN",
            "KIND_LINEAR_CONFLICT",
            "KIND_PDB",
            "KIND_PDBMAX",
            "MAX_PATTERN",
        ] {
            assert_eq!(const_in(IDASTAR, name), wgsl_const(name), "{name}");
        }
    }

    #[test]
    fn gpu_ida_reads_its_uniform_metadata_as_it_is_written() {
        for (name, value) in [
            ("PM_PHI", IDA_META_PHI),
            ("PM_TMAP", IDA_META_TMAP),
            ("PM_PATTERNS", IDA_META_PATTERNS),
            ("PM_STRIDE", IDA_META_STRIDE),
            ("PM_TILES", IDA_META_TILES),
            ("PM_PARTS", IDA_META_PARTS),
            ("MAX_PATTERNS", IDA_META_MAX_PATTERNS),
            ("MAX_PARTITIONS", IDA_META_MAX_PARTITIONS),
        ] {
            assert_eq!(const_in(IDASTAR, name) as usize, value, "{name}");
        }
        let decl = format!("var<uniform> pm: array<vec4<u32>, {}>;", IDA_META_WORDS / 4);
        assert!(IDASTAR.contains(&decl), "ida_board.wgsl declares `{decl}`");
        assert_eq!(IDA_META_WORDS % 4, 0);
        // Two patterns, the second with tiles 9 and 3, flags and its table at word 1000 (byte
        // 4000); φ and T.
        let mut head = PdbMeta::zeroed();
        head.patterns = 2;
        head.reflect = 1;
        head.phi[5] = 17;
        head.tmap[31] = 30;
        let mut p = PatternMeta::zeroed();
        p.offset = 4000;
        p.k = 2;
        p.regions = 1;
        p.tiles[0] = 9;
        p.tiles[1] = 3;
        p.weights[0] = 14;
        p.weights[1] = 1;
        let w = ida_meta_words(&head, &[PatternMeta::zeroed(), p], &[0, 1000]);
        assert_eq!(w.len(), IDA_META_WORDS);
        assert_eq!((w[0], w[1]), (2, 1));
        assert_eq!((w[IDA_META_PHI + 1] >> 8) & 0xFF, 17);
        assert_eq!(w[IDA_META_TMAP + 7] >> 24, 30);
        let at = IDA_META_PATTERNS + IDA_META_STRIDE;
        assert_eq!(&w[at..at + 5], &[1000, 2, 1, 0, 9 | (3 << 8)]);
        // Tile words: weight | pattern << 27; the blank and the other tiles in no pattern.
        let tile = |w: &[u32], t: usize| w[IDA_META_TILES + t];
        assert_eq!((tile(&w, 9), tile(&w, 3)), (14 | 1 << 27, 1 | 1 << 27));
        assert_eq!((tile(&w, 0), tile(&w, 31)), (IDA_TILE_NONE, IDA_TILE_NONE));
        // A weight of 2²⁷ does not fit: no tile words at all (the shader ranks again).
        p.weights[0] = 1 << 27;
        assert!(!ida_weights_fit(&[PatternMeta::zeroed(), p]));
        let w = ida_meta_words(&head, &[PatternMeta::zeroed(), p], &[0, 1000]);
        assert_eq!(tile(&w, 9), IDA_TILE_NONE);
        // Nor do five patterns.
        assert!(!ida_weights_fit(&[PatternMeta::zeroed(); 5]));
        // A maximum: two partitions, the second reading table 1 through the reflection and
        // table 5 directly; tile words are the tables that hold each tile.
        p.weights[0] = 14;
        let parts = [vec![(0, false), (1, false)], vec![(1, true), (5, false)]];
        let w = ida_max_meta_words(&head, &[PatternMeta::zeroed(), p], &[0, 1000], &parts);
        assert_eq!(w.len(), IDA_META_WORDS);
        assert_eq!(w[2], 2);
        assert_eq!((tile(&w, 9), tile(&w, 3), tile(&w, 4)), (2, 2, 0));
        let q = |q: usize| &w[IDA_META_PARTS + 8 * q..IDA_META_PARTS + 8 * q + 8];
        assert_eq!(q(0), &[0xFFFF, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(q(1), &[0, 0xFF00, 0, 0, 0xFF00, 0, 0, 0]);
    }

    fn metadata_layout(wgsl: &str) {
        let (fields, size) = wgsl_struct(wgsl, "PatternMeta");
        let rust = [
            ("offset", offset_of!(PatternMeta, offset)),
            ("k", offset_of!(PatternMeta, k)),
            ("tiles", offset_of!(PatternMeta, tiles)),
            ("weights", offset_of!(PatternMeta, weights)),
            ("regions", offset_of!(PatternMeta, regions)),
        ];
        assert_eq!(fields, rust.map(|(n, o)| (n.to_string(), o)));
        assert_eq!(size, size_of::<PatternMeta>());
        let (fields, size) = wgsl_struct(wgsl, "PdbMeta");
        let rust = [
            ("patterns", offset_of!(PdbMeta, patterns)),
            ("reflect", offset_of!(PdbMeta, reflect)),
            ("phi", offset_of!(PdbMeta, phi)),
            ("tmap", offset_of!(PdbMeta, tmap)),
            ("pattern", size_of::<PdbMeta>()),
        ];
        assert_eq!(fields, rust.map(|(n, o)| (n.to_string(), o)));
        assert_eq!(size, size_of::<PdbMeta>());
        // The words as uploaded: the head, then each pattern.
        let mut head = PdbMeta::zeroed();
        head.patterns = 2;
        head.tmap[0] = 7;
        let mut p = PatternMeta::zeroed();
        p.k = 5;
        let words = meta_words(&head, &[PatternMeta::zeroed(), p]);
        let at = |bytes: usize| words[bytes / 4];
        assert_eq!(at(offset_of!(PdbMeta, patterns)), 2);
        assert_eq!(at(offset_of!(PdbMeta, tmap)), 7);
        assert_eq!(
            at(size_of::<PdbMeta>() + size_of::<PatternMeta>() + offset_of!(PatternMeta, k)),
            5
        );
    }
}
