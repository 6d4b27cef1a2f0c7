#!/usr/bin/env bash
# Sets everything up on a fresh Debian 12 machine with Rust, then records the whole program
# path of the bundled Lua benchmark and prints its compression statistics and hottest paths.
set -euo pipefail
cd "$(dirname "$0")/.."
need=()
for p in clang lld wasi-libc libclang-rt-dev-wasm32; do
  dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq "${need[@]}"
fi
bash workloads/build.sh lua
cargo build --release --bin wpp
target="${CARGO_TARGET_DIR:-target}"
"$target/release/wpp" record -o "$target/lua.wpp" workloads/build/lua.wasm -- 0.5 < workloads/inputs/bench.lua
"$target/release/wpp" stats "$target/lua.wpp"
"$target/release/wpp" paths "$target/lua.wpp" --top 15
