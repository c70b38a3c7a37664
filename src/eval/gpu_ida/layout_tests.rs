//! The layout the host and `shaders/idastar.wgsl` share, written on both sides (the status
//! block, the depth limit, the item and stack offsets): checked here word by word, since a
//! mismatch corrupts results on the GPU only.

use super::*;
use crate::eval::gpu_layout::wgsl::{const_in, sum_fn_in};
use crate::eval::ida::{HIST_G, HIST_H};

#[test]
fn the_status_block_and_the_depth_limit_agree_with_the_shader() {
    let host = [
        ("ST_WORK", ST_WORK),
        ("ST_TAIL", ST_TAIL),
        ("ST_BUSY", ST_BUSY),
        ("ST_CUT", ST_CUT),
        ("ST_GIVEN", ST_GIVEN),
        ("ST_WORK2", ST_WORK2),
        ("ST_PUBLISHED", ST_PUBLISHED),
        ("ST_PENDING_MIN", ST_PENDING_MIN),
        ("ST_GIVEN_LIVE", ST_GIVEN_LIVE),
        ("ST_PENDING", ST_PENDING),
        ("ST_LANES", ST_LANES),
        ("LANE_WORDS", LANE_WORDS),
        ("MAX_LANES", MAX_LANES),
        ("L_BOUND", L_BOUND),
        ("L_STOP", L_STOP),
        ("L_EXPANDED", L_EXPANDED),
        ("L_GENERATED", L_GENERATED),
        ("L_MIN_F", L_MIN_F),
        ("L_FINISHED", L_FINISHED),
        ("L_GIVEN", L_GIVEN),
        ("L_FOUND", L_FOUND),
        ("L_FOUND_DEPTH", L_FOUND_DEPTH),
        ("L_FOUND_INV", L_FOUND_INV),
        ("LANE_SHIFT", LANE_SHIFT as usize),
        // The histogram starts where the host's header ends.
        ("ST_HIST", ST_HEADER),
        ("HIST_G", HIST_G),
        ("HIST_H", HIST_H),
        ("MAX_DEPTH", MAX_DEPTH as usize),
        ("PATH_WORDS", PATH_WORDS),
        ("PATH_MOVES", PATH_MOVES),
    ];
    for (name, value) in host {
        assert_eq!(const_in(IDASTAR_WGSL, name) as usize, value, "{name}");
    }
    // Every status word the shader names (the host reads only some) is among those the
    // host writes before each round and reads back.
    for decl in IDASTAR_WGSL.split("const ST_").skip(1) {
        let name = format!("ST_{}", &decl[..decl.find(':').unwrap()]);
        let word = const_in(IDASTAR_WGSL, &name) as usize;
        assert!(
            name == "ST_HIST" || name == "ST_LANES" || word < ST_LANES,
            "{name} = {word}"
        );
    }
}

#[test]
fn the_item_and_stack_offsets_agree_with_the_shader() {
    for board_words in [3usize, 4, 7, 8] {
        let known = [
            ("BOARD_WORDS", board_words as u32),
            ("MAX_DEPTH", const_in(IDASTAR_WGSL, "MAX_DEPTH")),
        ];
        for k in [0usize, 1, 5, 12] {
            let shader = |f| sum_fn_in(IDASTAR_WGSL, f, k as u32, &known) as usize;
            assert_eq!(shader("path_word"), path_word(board_words, k), "path_word");
            assert_eq!(
                shader("frame_word"),
                frame_word(board_words, k),
                "frame_word"
            );
            assert_eq!(
                shader("origin_word"),
                origin_word(board_words, k),
                "origin_word"
            );
        }
    }
}
