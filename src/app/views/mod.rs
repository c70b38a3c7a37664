//! The views of the central area: the board and, below it, the frontier heatmap, the search
//! tree or IDA*'s iterations; and the small boards the panels show. Drawn with the quad
//! painter (`super::render`) and egui; no window code.

pub mod board;
pub mod chart;
pub mod comparison;
pub mod experiment;
pub mod export;
pub mod heatmap;
pub mod help;
pub mod iterations;
pub mod mini;
pub mod overlay;
pub mod tree;

pub use heatmap::ramp;

/// A node's numbers as `algorithm` uses them: BFS only its depth g (it has no h), the others
/// g, h and their f (the Inspector's and the search tree's).
pub(crate) fn ghf(algorithm: crate::search::Algorithm, g: u32, h: u32) -> String {
    if algorithm == crate::search::Algorithm::Bfs {
        format!("g {g}")
    } else {
        format!("g {g}  h {h}  f {}", f_sum(algorithm, g, h))
    }
}

/// The f that orders `algorithm`'s open list, as a sum: `3+5=8` (A*), `3+1.5×5=10.5`
/// (weighted A*), `h 5` (greedy best-first, f = h).
pub(crate) fn f_sum(algorithm: crate::search::Algorithm, g: u32, h: u32) -> String {
    use crate::search::Algorithm;
    match algorithm {
        Algorithm::Greedy => format!("= h {h}"),
        Algorithm::WeightedAStar(w) => {
            let f = crate::search::tenths_text(algorithm.order_f(g, h));
            format!("{g}+{w}×{h}={f}")
        }
        _ => format!("{g}+{h}={}", g + h),
    }
}
