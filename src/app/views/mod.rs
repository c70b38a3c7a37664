//! The views of the central area: the board and, below it, the frontier heatmap, the search
//! tree or IDA*'s iterations; and the small boards the panels show. Drawn with the quad
//! painter (`super::render`) and egui; no window code.

pub mod board;
pub mod compare;
pub mod heatmap;
pub mod iterations;
pub mod mini;
pub mod overlay;
pub mod tree;

pub use heatmap::ramp;
