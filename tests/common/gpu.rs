//! The GPU context for tests: lavapipe in CI, where `NPUZZLE_REQUIRE_GPU=1` makes a missing
//! adapter a failure; elsewhere a test without an adapter says loudly that it was skipped.

use std::io::Write;
use std::sync::Arc;

use npuzzle::eval::gpu::GpuContext;

/// The GPU context, or `None` (with a loud note on the real stderr, bypassing test capture)
/// when there is no adapter and `NPUZZLE_REQUIRE_GPU` is not set.
pub fn context(test: &str) -> Option<Arc<GpuContext>> {
    match GpuContext::new() {
        Ok(c) => Some(c),
        Err(e) => {
            if std::env::var_os("NPUZZLE_REQUIRE_GPU").is_some_and(|v| v != "0") {
                panic!("NPUZZLE_REQUIRE_GPU is set but {e}");
            }
            let _ = writeln!(
                std::io::stderr(),
                "\n*** SKIPPED {test}: {e} (install a Vulkan driver, e.g. mesa-vulkan-drivers) ***\n"
            );
            None
        }
    }
}
