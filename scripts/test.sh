#!/usr/bin/env bash
# The full suite: builds the real-program workloads (cached under workloads/build/) and runs
# every test. WPP_FULL_SUITE=1 makes a missing workload or compiler a failure instead of a
# skip, so no real-program test passes here without having run. (Plain `cargo test` is the
# fast suite: it skips what is not built.)
set -euo pipefail
cd "$(dirname "$0")/.."
bash workloads/build.sh
WPP_FULL_SUITE=1 cargo test --release --workspace "$@"
