//! The two views of the central area: the board and the frontier heatmap. Drawn with the
//! quad painter (`super::render`) and egui text; no window code.

pub mod board;
pub mod heatmap;

pub use heatmap::ramp;
