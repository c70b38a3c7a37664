#!/usr/bin/env bash
# The checks every commit meant to land passes, as contributors run them and as `.ci/run`
# runs them: formatting, lints (warnings denied), docs (warnings denied), the core without
# the GPU and GUI features, then the whole test suite (the README's test command).
#
# `scripts/check.sh quick` stops before the test suites (formatting, lints, docs);
# `scripts/check.sh ci` stops before the last one, which `.ci/run` runs in a clone with
# nothing beside it.
# The GPU tests need an adapter (lavapipe will do) and the window test a display: see
# `.ci/run` for the packages and the virtual display it sets up.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n=== %s (%s)\n' "$1" "$(date +%T)"; }

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy --all-targets -D warnings"
cargo clippy --release --all-targets -- -D warnings

step "docs (warnings denied)"
RUSTDOCFLAGS="-D warnings" cargo doc --release --no-deps

if [ "${1:-}" = quick ]; then
  exit 0
fi

step "core only: build and test with --no-default-features"
cargo test --release --no-default-features --lib --tests

if [ "${1:-}" = ci ]; then
  exit 0
fi

step "cargo test --release"
cargo test --release
