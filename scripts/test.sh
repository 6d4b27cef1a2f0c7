#!/usr/bin/env bash
# The full suite: builds the real-program workloads (cached under workloads/build/) and runs
# every test. WPP_FULL_SUITE=1 makes a missing workload or compiler a failure instead of a
# skip, so no real-program test passes here without having run. (Plain `cargo test` is the
# fast suite: it skips what is not built.) It installs Graphviz, Chromium and playwright-core
# for the HTML report's browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash workloads/build.sh
# The HTML report's tests: Graphviz lays the drawings out; headless Chromium, driven by
# playwright-core (crates/wpp-cli/tests/browser), loads the pages.
need=()
for p in graphviz chromium; do
  dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
done
command -v npm >/dev/null 2>&1 || need+=(nodejs npm)
if [ ${#need[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${need[@]}"
fi
npm ci --prefix crates/wpp-cli/tests/browser --no-audit --no-fund --loglevel=error
WPP_FULL_SUITE=1 cargo test --release --workspace "$@"
