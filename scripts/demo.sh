#!/usr/bin/env bash
# Sets everything up on a fresh Debian 12 machine with Rust (wpp installed under ~/.local
# with its man pages and completions: scripts/install.sh), then records the whole program
# path of the bundled Lua benchmark (built with DWARF, so reports show source lines) and
# prints its compression statistics, hottest paths, functions, the hottest function's
# source lines with their counts and hottest subpaths; then reorganises it by call (TWPP)
# and shows one function's traces and how often its loads were redundant; and how often
# each definition reached each block of a function, exactly, from the grammar; and writes
# the HTML report of the run (hot paths drawn on their CFGs, a flame graph).
set -euo pipefail
cd "$(dirname "$0")/.."
need=()
for p in clang lld wasi-libc libclang-rt-dev-wasm32 graphviz; do
  dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq "${need[@]}"
fi
bash workloads/build.sh --debug lua
# wpp itself, with its man pages and shell completions, under ~/.local.
bash scripts/install.sh
target="${CARGO_TARGET_DIR:-target}"
"$target/release/wpp" record -o "$target/lua.wpp" workloads/build/debug/lua.wasm 0.5 < workloads/inputs/bench.lua
"$target/release/wpp" stats "$target/lua.wpp"
"$target/release/wpp" paths "$target/lua.wpp" --top 15
"$target/release/wpp" functions "$target/lua.wpp" --top 10
# The sources' DWARF names start with /crates (workloads/build.sh maps cargo's registry
# there): the hottest function's lines with their counts, beside the source text.
registry=$(dirname "$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/lua-src-* | head -n 1)")
"$target/release/wpp" annotate "$target/lua.wpp" --source-map "/crates=$registry" | head -n 40
"$target/release/wpp" hot "$target/lua.wpp" --max-len 50 --min-len 5 --min-cost 20000000 --top 3
"$target/release/wpp" twpp build "$target/lua.wpp" -o "$target/lua.twpp"
"$target/release/wpp" trace "$target/lua.twpp" --func luaH_getshortstr --top 2
"$target/release/wpp" dataflow redundancy "$target/lua.twpp" --module workloads/build/debug/lua.wasm --func luaV_execute --top 3
"$target/release/wpp" dff "$target/lua.wpp" --module workloads/build/debug/lua.wasm --func luaH_resize --top 2
# The run for other tools: Parquet tables (SQL engines), pprof, speedscope, lcov.
"$target/release/wpp" export "$target/lua.wpp" --parquet "$target/lua-tables" --label demo --tables paths,lines,call_tree \
  --pprof "$target/lua.pb.gz" --speedscope "$target/lua.speedscope.json" --lcov "$target/lua.info"
# The page shows the lines its paths link to, with their counts.
"$target/release/wpp" report "$target/lua.wpp" -o "$target/lua.html" --source-map "/crates=$registry"
echo "Open $target/lua.html in a browser."
