//! Records the commit npuzzle is built from, for `--version` and the JSON outputs:
//! `NPUZZLE_COMMIT` is the commit's first 12 hex digits, with `+dirty` when tracked files differ
//! from it; from a packaged crate, the commit `cargo package` wrote in `.cargo_vcs_info.json`;
//! else `unknown` (no git, or this folder is not the top of its own checkout).

use std::path::{Path, PathBuf};
use std::process::Command;

/// `git ARGS` in `dir`, its trimmed output when it succeeds.
fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .arg("--no-optional-locks")
        .args(args)
        .current_dir(dir)
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// The commit of `.cargo_vcs_info.json` (`"sha1": "…"`), in a packaged crate.
fn packaged(dir: &Path) -> Option<String> {
    let text = std::fs::read_to_string(dir.join(".cargo_vcs_info.json")).ok()?;
    let rest = &text[text.find("\"sha1\"")? + 6..];
    let hash: String = rest
        .chars()
        .skip_while(|c| !c.is_ascii_hexdigit())
        .take_while(char::is_ascii_hexdigit)
        .collect();
    (hash.len() >= 12).then(|| hash[..12].to_string())
}

fn main() {
    let dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    println!("cargo:rerun-if-changed=build.rs");
    // Git's answer only where this folder is the top of its checkout (not a crate vendored or
    // unpacked inside another repository).
    let top = git(&dir, &["rev-parse", "--show-toplevel"]).map(PathBuf::from);
    let own = top
        .and_then(|t| t.canonicalize().ok())
        .is_some_and(|t| dir.canonicalize().is_ok_and(|d| d == t));
    let commit = match own
        .then(|| git(&dir, &["rev-parse", "--short=12", "HEAD"]))
        .flatten()
    {
        Some(hash) if !hash.is_empty() => {
            let dirty = git(&dir, &["status", "--porcelain", "--untracked-files=no"])
                .is_some_and(|s| !s.is_empty());
            // Again when the commit moves, the index changes or a built folder does.
            for key in ["HEAD", "index"] {
                if let Some(p) = git(&dir, &["rev-parse", "--git-path", key]) {
                    println!("cargo:rerun-if-changed={}", dir.join(p).display());
                }
            }
            if let Some(refs) = git(&dir, &["rev-parse", "--git-common-dir"]) {
                println!(
                    "cargo:rerun-if-changed={}",
                    dir.join(refs).join("refs").display()
                );
            }
            for path in ["src", "shaders", "assets", "tests", "Cargo.toml"] {
                println!("cargo:rerun-if-changed={path}");
            }
            if dirty { format!("{hash}+dirty") } else { hash }
        }
        _ => packaged(&dir).unwrap_or_else(|| "unknown".to_string()),
    };
    println!("cargo:rustc-env=NPUZZLE_COMMIT={commit}");
}
