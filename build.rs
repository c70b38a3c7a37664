//! Records the commit npuzzle is built from, for `--version` and the JSON outputs:
//! `NPUZZLE_COMMIT` is the commit's first 12 hex digits, with `+dirty` when tracked files differ
//! from it, or `unknown` outside a git checkout (or without git).

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    let commit = match git(&["rev-parse", "--short=12", "HEAD"]) {
        Some(hash) if !hash.is_empty() => {
            let dirty = git(&["status", "--porcelain", "--untracked-files=no"])
                .is_some_and(|s| !s.is_empty());
            if dirty { format!("{hash}+dirty") } else { hash }
        }
        _ => "unknown".to_string(),
    };
    println!("cargo:rustc-env=NPUZZLE_COMMIT={commit}");
    // Again when the commit moves or a tracked file changes.
    for path in [
        ".git/HEAD",
        ".git/index",
        ".git/refs",
        "src",
        "shaders",
        "assets",
        "tests",
        "Cargo.toml",
        "build.rs",
    ] {
        println!("cargo:rerun-if-changed={path}");
    }
}
