//! `npuzzle`: thin entry point; see [`npuzzle::cli`].

fn main() -> std::process::ExitCode {
    npuzzle::cli::main()
}
