//! # npuzzle
//!
//! Optimal solver for sliding-tile puzzles (8-, 15-, 24-puzzle, any `rows × cols` board from
//! 2×2 to 16×16), with a command-line interface and (feature `gui`) a desktop app.
//!
//! Conventions used throughout:
//! - A board is `rows × cols` cells, **row-major**; each cell holds a tile `1 ..= rows·cols−1`
//!   or `0` for the **blank**.
//! - A [`Move`](puzzle::Move) is the direction the **blank** goes (`U D L R`); the tile beside it
//!   slides the opposite way.
//! - Distances, `g`, `h` and `f` are counted in moves; times in seconds; memory in bytes.
//!
//! Layers (see `ARCHITECTURE.md`), each using only those before it: [`text`] (numbers for
//! people) → [`puzzle`] (model, parsing, parity) → [`heuristic`] (incl. pattern databases) →
//! [`eval`] (batch evaluation, CPU and feature `gpu`) → [`search`] → [`plan`] (what runs) →
//! [`report`] (solution text and JSON) → [`cli`]. The desktop app (`app`, feature `gui`) uses
//! them all, and nothing in the library uses it: the binary hands it to [`cli::main`] as the
//! launcher. `puzzle`, `heuristic` and `search` do no terminal I/O and know nothing of wgpu,
//! winit or egui.

/// Writes a line to standard error, ignoring failures (a closed or full stderr must not
/// panic the program the way `eprintln!` does).
#[macro_export]
macro_rules! note {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

#[cfg(feature = "gui")]
pub mod app;
pub mod cli;
pub mod eval;
pub mod files;
pub mod heuristic;
pub mod memory;
pub mod plan;
pub mod puzzle;
pub mod report;
pub mod search;
pub mod text;

/// npuzzle's version and the commit it was built from, as `--version` and every JSON output
/// give them: `0.1.0 (0123456789ab)`, `+dirty` after the commit when the checkout had changes,
/// `unknown` when it was not built from a git checkout.
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (", env!("NPUZZLE_COMMIT"), ")");

/// The commit alone: see [`VERSION`].
pub const COMMIT: &str = env!("NPUZZLE_COMMIT");

/// The bundled default puzzle (a 15-puzzle, rectangular-format text), shown on first launch.
pub const DEFAULT_PUZZLE: &str = include_str!("../assets/default.txt");
