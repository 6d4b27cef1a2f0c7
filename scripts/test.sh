#!/usr/bin/env bash
# The full suite: builds the real-program workloads (cached under workloads/build/) and runs
# every test. WPP_FULL_SUITE=1 makes a missing workload or compiler a failure instead of a
# skip, so no real-program test passes here without having run. (Plain `cargo test` is the
# fast suite: it skips what is not built.) It installs Graphviz, Chromium and playwright-core
# for the HTML report's browser tests, clang-22 for the C++ workload, and the readers of `wpp export`'s files (DuckDB and
# Dask in a Python virtual environment, go tool pprof, lcov, speedscope's schema).
set -euo pipefail
cd "$(dirname "$0")/.."
bash workloads/build.sh
# Lua with DWARF, for the source-line exports (lines, lcov) on a real program.
bash workloads/build.sh -g lua
# The HTML report's tests: Graphviz lays the drawings out; headless Chromium, driven by
# playwright-core (crates/wpp-cli/tests/browser), loads the pages.
need=()
# The exports' readers: go tool pprof (golang-go), lcov and genhtml (lcov), and Python's
# venv for DuckDB and Dask.
# The C++ workload (workloads/cxx/build.sh): clang-22 emits the standardized
# exception-handling instructions; its runtime is compiled from sources pip downloads.
for p in graphviz chromium golang-go lcov python3-venv clang-22 lld-22 libc++-22-dev-wasm32 libclang-rt-22-dev-wasm32 unzip; do
  dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
done
command -v npm >/dev/null 2>&1 || need+=(nodejs npm)
if [ ${#need[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${need[@]}"
fi
npm ci --prefix crates/wpp-cli/tests/browser --no-audit --no-fund --loglevel=error
# DuckDB, Dask's distributed scheduler and a JSON schema checker, for the export tests
# (crates/wpp-cli/tests/exports.rs), in a virtual environment of their own.
py="${WPP_PYENV:-$HOME/.cache/wpp-pyenv}"
[ -x "$py/bin/python" ] || python3 -m venv "$py"
"$py/bin/pip" install -q --disable-pip-version-check duckdb pyarrow "dask[distributed,dataframe]" fastjsonschema
export WPP_PYTHON="$py/bin/python"
# The C++ program that throws and catches, with its runtime (pip downloads the sources).
bash workloads/cxx/build.sh
# The recordings the tests share (wpp-test-support's `recordings`) are kept from run to
# run while the recording crates' sources are unchanged (their hash names the directory);
# WPP_FRESH_RECORDINGS=1 makes them afresh.
if [ "${WPP_FRESH_RECORDINGS:-0}" = 1 ]; then
  rm -rf "${CARGO_TARGET_DIR:-target}/release/wpp-recordings"
fi
# Build first, noting which package and target each test binary is; then run, and print
# each test binary's time, slowest first (cargo prints "Running ... (BINARY)" before a
# binary's tests and "finished in Ns" after them).
log=$(mktemp)
built=$(mktemp)
trap 'rm -f "$log" "$built"' EXIT
WPP_FULL_SUITE=1 cargo test --release --workspace --no-run --message-format=json-render-diagnostics "$@" >"$built"
status=0
WPP_FULL_SUITE=1 cargo test --release --workspace "$@" 2>&1 | tee "$log" || status=$?
python3 - "$built" "$log" <<'PY'
import json, re, sys
names = {}
for line in open(sys.argv[1]):
    try:
        m = json.loads(line)
    except ValueError:
        continue
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["profile"]["test"]:
        pkg = m["package_id"].split("#")[0].rsplit("/", 1)[-1]
        names[m["executable"].rsplit("/", 1)[-1]] = "%s %s %s" % (pkg, m["target"]["kind"][0], m["target"]["name"])
times, current = [], None
for line in open(sys.argv[2]):
    r = re.match(r"\s*(?:Running .*\((.*)\)|Doc-tests (\S+))", line)
    if r:
        current = names.get((r.group(1) or "").rsplit("/", 1)[-1]) or ("doc-tests " + r.group(2) if r.group(2) else r.group(1))
    t = re.search(r"^test result: .* finished in ([0-9.]+)s", line)
    if t and current:
        times.append((float(t.group(1)), current))
print("\ntest binaries, slowest first (seconds; %d binaries, %.0f s in all):" % (len(times), sum(t for t, _ in times)))
for t, n in sorted(times, reverse=True):
    print("%9.1f  %s" % (t, n))
PY
exit "$status"
