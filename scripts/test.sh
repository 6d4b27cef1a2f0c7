#!/usr/bin/env bash
# Builds the real-program workloads (cached under workloads/build/) and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash workloads/build.sh
cargo test --release --workspace
