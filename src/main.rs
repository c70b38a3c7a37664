//! `npuzzle`: thin entry point; see [`npuzzle::cli`]. The binary hands the command line the
//! desktop app's launcher (feature `gui`), so that the library's `cli` does not depend on `app`.

/// The system allocator, with large tables in transparent huge pages (see [`npuzzle::memory`]).
#[global_allocator]
static ALLOC: npuzzle::memory::HugePageAlloc = npuzzle::memory::HugePageAlloc;

fn main() -> std::process::ExitCode {
    #[cfg(feature = "gui")]
    let launcher: Option<&npuzzle::cli::Launcher> = Some(&npuzzle::app::launch);
    #[cfg(not(feature = "gui"))]
    let launcher = None;
    npuzzle::cli::main(launcher)
}
